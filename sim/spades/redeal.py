"""Misdeals of poor hands (RULES.md §4.1 ``redeal_poor_hands``): before the bidding, a player
whose hand is poor by one of the rules' conditions may call a misdeal, and the same dealer deals
again — as often as someone calls, up to `MAX_DEALS` deals (then the last deal is played)."""

from __future__ import annotations

import numpy as np

from ..cards import SPADES, popcount
from ..views import RedealView

__all__ = ["CONDITIONS", "MAX_DEALS", "poor_hands", "redeal", "redeal_view"]

CONDITIONS = ("no_spades", "one_spade_or_less", "no_face_cards")
MAX_DEALS = 50  # a guard: with a player who always calls, P(50 poor deals) is below 1e-20


def poor_hands(hands: np.ndarray, rules, deck, twice: np.ndarray | None = None) -> np.ndarray:
    """bool[N, P]: the hands poor by one of ``rules.redeal_poor_hands``: no spade, at most one
    spade (spades as the card order counts them: jokers and high deuces are spades; two decks,
    RULES.md §4.7: a spade held twice is two, ``twice`` uint64[N, P]), no jack, queen or
    king."""
    poor = np.zeros(hands.shape, dtype=bool)
    spades = popcount(hands & deck.suit_masks[SPADES])
    if twice is not None:
        spades = spades + popcount(twice & deck.suit_masks[SPADES])
    faces = np.uint64(sum(1 << b for b, card in enumerate(deck.natural)
                          if 0 <= card < 52 and card % 13 in (9, 10, 11)))
    for condition in rules.redeal_poor_hands:
        poor |= {"no_spades": spades == 0, "one_spade_or_less": spades <= 1,
                 "no_face_cards": (hands & faces) == 0}[condition]
    return poor


def redeal_view(hands, seat: int, dealer, scores, bags, rules, deck, rows) -> RedealView:
    """What ``seat`` sees when, holding a poor hand (`poor_hands`), it may call a misdeal, in the
    rows ``rows`` of the batch: its cards and the standing. The engine asks through this view."""
    return RedealView(rows=rows, seat=np.full(rows.size, seat, np.int8), dealer=dealer[rows],
                      hand=hands[rows, seat], scores=scores[rows], bags=bags[rows], rules=rules,
                      deck=deck)


def redeal(hands, dealer, scores, bags, rules, deck, lineup, rng, deal_again, twice=None):
    """The hands played after any misdeals, and int8[N] how many misdeals each row had.
    ``deal_again(rows, attempt)`` deals the given rows anew (the ``attempt``-th time), updating
    ``twice`` (two decks: the cards held twice, uint64[N, P]) in place."""
    n, players = hands.shape
    redeals = np.zeros(n, dtype=np.int8)
    if not rules.redeal_poor_hands:
        return hands, redeals
    hands = hands.copy()
    for attempt in range(1, MAX_DEALS):
        poor = poor_hands(hands, rules, deck, twice)
        called = np.zeros(n, dtype=bool)
        for seat in range(players):
            ask = np.flatnonzero(poor[:, seat])
            if ask.size:
                view = redeal_view(hands, seat, dealer, scores, bags, rules, deck, ask)
                called[ask] |= lineup.decide(view, "redeal", rng, bool)
        rows = np.flatnonzero(called)
        if not rows.size:
            break
        hands[rows] = deal_again(rows, attempt)
        redeals[rows] += 1
    return hands, redeals
