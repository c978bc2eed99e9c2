"""Jokes win (RULES.md §4.2 ``trump_order = "jokes_win"``): trick resolution with joke trumps
(the plug-in `sim.spades.house.jokes_tie` plays the tricks with it).

The jokers follow and lead as spades (the layout of ``jokers_high``) but have no rank. A joker
played to a trick turns every other card its side plays to that trick into a *joke trump* of the
card's rank: natural A♠ > joke A > natural K♠ > joke K > ... > natural 2♠ > joke 2. Two joke trumps
of one rank (one per side) are ordered by ``jokes_tie``: the side of the big joker, the side whose
joker came first, or the joke card's suit (♦ > ♣ > ♥). Without a trump the highest natural card of
the led suit wins; a trick holding neither (a led joker, the other joker from the partner, the
opponents void) goes to its leader.

A trick's winner is computed from its cards so far as the maximum of one integer key per card:
``64 * (2 * rank + 1 + natural) + tie`` for trumps (rank 0..12 for 2..A; ``natural`` 1 for a
natural spade, 0 for a joke trump), ``1 + rank`` (below 64) for the led suit's natural cards, 0
for the rest (jokers included); the first card wins among equal keys.
"""

from __future__ import annotations

import numpy as np

from ..cards import SUITS, bit_index

__all__ = ["jokes_resolver"]

_TIE_SUIT = {"D": 3, "C": 2, "H": 1, "S": 0}  # jokes_tie = "suit": D above C above H


def jokes_resolver(rules, deck):
    """The ``resolve`` function of `sim.tricks.play_tricks` under ``jokes_win`` (``rules``
    gives ``jokes_tie``)."""
    natural = deck.natural.astype(np.int16)
    joker_slot = natural >= 52
    rank = np.where(joker_slot, 0, natural % 13)
    suit_tie = np.array([_TIE_SUIT[SUITS[c // 13]] if 0 <= c < 52 else 0 for c in natural])
    big = deck.bit_of("BJ")
    tie_rule = rules.jokes_tie

    def resolve(cards, seats, led, trump):
        slots = np.stack([bit_index(c) for c in cards]).astype(np.intp)  # [j, N]
        side = np.stack(seats) & 1
        joker = joker_slot[slots]
        position = np.arange(len(cards))[:, None]
        keys = np.zeros(slots.shape, dtype=np.int32)
        for s in (0, 1):
            mine = side == s
            jokers_here = joker & mine
            has = jokers_here.any(axis=0)
            if tie_rule == "higher_joker":
                tie = ((slots == big) & mine).any(axis=0) + 1
            elif tie_rule == "first_joker":  # the earlier the side's first joker, the higher
                tie = len(cards) - np.where(jokers_here, position, len(cards)).min(axis=0)
            else:
                tie = suit_tie[slots]
            joke = mine & has & ~joker
            keys = np.where(joke, 64 * (2 * rank[slots] + 1) + tie, keys)
        spade = ((np.stack(cards) & trump) != 0) & ~joker
        keys = np.where(spade, 64 * (2 * rank[slots] + 2), keys)
        follows = ((np.stack(cards) & led) != 0) & ~joker & (keys == 0)
        keys = np.where(follows, 1 + rank[slots], keys)
        best = np.argmax(keys, axis=0)
        rows = np.arange(slots.shape[1])
        return np.stack(cards)[best, rows], np.stack(seats)[best, rows]

    return resolve
