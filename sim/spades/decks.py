"""Spades card layouts (RULES.md §4.2): which cards are in the deck and how they rank.

A layout (`sim.cards.Deck`) gives every effective suit one contiguous bit range, strength rising
with the bit, so each card order below is data for the one trick engine:

==========================  ================================================================
``trump_order``             the spade range, weakest first (other suits: 2..A minus removed)
==========================  ================================================================
standard                    2S .. AS (then LJ, BJ with ``jokers = 2``)
jokers_high                 2S .. AS, LJ, BJ (jokers are spades)
jokers_first_wins           2S .. AS, LJ, BJ with LJ = BJ: the first joker played wins
joker_high_alternate        as jokers_high; a led BJ calls each opponent's highest spade
joker_joker_deuce_ace       3S .. AS, 2S, LJ, BJ
deuces_high                 3S .. AS, 2H, 2C, 2D, 2S (LJ, BJ on top with jokers); the red and
                            black deuces are spades in every respect
bowers                      2S .. TS, QS, KS, AS, JC (left bower), JS (right bower)
suit_ladder                 no trump suit: hearts < diamonds < clubs < spades, a card of a
                            higher suit beats every card of a lower one
jokes_win                   2S .. AS, LJ, BJ: the jokers are spades in following and leading
                            but rankless; `sim.spades.jokes` resolves the tricks
cancel_spades (§4.7)        2S, 3S .. AS, 2C, 2D; two decks (the 2H out for six players)
==========================  ================================================================

With jokers the cards named by ``jokers_remove`` leave the deck so that hands stay even. Two-deck
games (RULES.md §4.7) use the layout of one deck with ``copies = 2``: a hand is the set of card
types it holds, and a second bitboard the types it holds twice (`sim.spades.dealing`).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..cards import RANKS, SUITS, U64, Deck

__all__ = ["JOKER_ORDERS", "TRUMP_ORDERS", "spades_deck"]

TRUMP_ORDERS = ("standard", "jokers_high", "jokers_first_wins", "joker_high_alternate",
                "joker_joker_deuce_ace", "deuces_high", "bowers", "suit_ladder", "jokes_win")
JOKER_ORDERS = ("jokers_high", "jokers_first_wins", "joker_high_alternate",
                "joker_joker_deuce_ace", "jokes_win")  # orders that need jokers = 2


def spades_deck(rules) -> Deck:
    """The layout of a Spades rules value (cached per card-order key)."""
    order = "cancel_spades" if rules.cancel_spades else rules.trump_order
    duplicates = "cancel" if rules.cancel_spades else rules.duplicate_wins
    return _layout(order, rules.jokers // rules.copies, tuple(rules.removed_cards), rules.copies,
                   duplicates)


@cache
def _layout(order: str, jokers: int, removed: tuple[str, ...], copies: int = 1,
            duplicates: str = "first") -> Deck:
    suits = {s: [r + s for r in RANKS] for s in SUITS}  # natural order, weakest first
    spades = suits.pop("S")
    top = ["XJ", "LJ", "BJ"][3 - jokers:] if jokers else []  # XJ < LJ < BJ (five players)
    if order == "deuces_high":
        deuces = [suits[s].pop(0) for s in "HCD"]  # each other suit loses its 2
        spades = spades[1:] + deuces + ["2S"]
    elif order == "cancel_spades":  # 2D > 2C > AS (RULES.md §4.7)
        spades = spades + [suits["C"].pop(0), suits["D"].pop(0)]
    elif order == "joker_joker_deuce_ace":
        spades = spades[1:] + ["2S"]
    elif order == "bowers":
        suits["C"].remove("JC")
        spades.remove("JS")
        spades += ["JC", "JS"]
    ranges = [suits["C"], suits["D"], suits["H"], spades + top]
    ranges = [[c for c in cards if c not in removed] for cards in ranges]
    # bit ranges in rank order of the suits: C D H S, or the ladder's H D C S
    at_order = (2, 1, 0, 3) if order == "suit_ladder" else (0, 1, 2, 3)
    names, masks, at = [], [0] * 4, 0
    for suit in at_order:
        cards = ranges[suit]
        names += cards
        masks[suit] = ((1 << len(cards)) - 1) << at
        at += len(cards)
    equal = ()
    if order == "jokers_first_wins":
        equal = (sum(1 << names.index(j) for j in ("LJ", "BJ")),)
    return Deck(names=tuple(names + [""] * (64 - at)), suit_masks=np.array(masks, dtype=U64),
                equal=equal, ladder=order == "suit_ladder", copies=copies,
                duplicates=duplicates)
