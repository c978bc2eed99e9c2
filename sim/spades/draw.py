"""Two-player Spades draws its hands (RULES.md §4.7 ``players = 2``): no deal. The stock lies face
down; from the non-dealer on, the players alternately take its top two cards, keep one and
discard the other, until the stock is gone — 13 cards each, 26 discarded. ``draw_mode``:

* ``see_both``: the player looks at both cards and keeps one;
* ``first_decides``: he looks at the first: keeps it (and sees the second as he discards it), or
  discards it and keeps the second, unseen until then;
* ``first_decides_blind``: as ``first_decides``, but the second card is not seen when the first
  is kept.

Each draw asks the player's strategy ``draw`` (a `DrawView`): keep the first card? What a player
saw of his own discards is kept per seat (``seen``): it is information, not cards.
"""

from __future__ import annotations

import numpy as np

from ..cards import BIT, pick
from ..views import DrawView

__all__ = ["draw_hands", "draw_view"]


def draw_view(hands, seen, seat, first, second, scores, bags, rules, deck) -> DrawView:
    """What ``seat`` (int8[N]) sees when it draws ``first`` and ``second`` (uint64[N], the top
    two cards of the stock): the cards it kept so far and the discards it saw (``hands``,
    ``seen``: uint64[N, 2] by seat), the first card, and the second where ``draw_mode`` shows
    it. The engine asks each draw through this view."""
    rows = np.arange(hands.shape[0])
    shown = second if rules.draw_mode == "see_both" else np.zeros_like(second)
    return DrawView(rows=rows, seat=seat, hand=hands[rows, seat], first=first, second=shown,
                    seen=seen[rows, seat], scores=scores, bags=bags, rules=rules, deck=deck)


def draw_hands(stock, dealer, scores, bags, rules, deck, lineup, rng):
    """stock: int8[52, N] slots, top first. Returns uint64[N, 2] each: the hands kept, the cards
    each seat discarded, and the discards each seat saw."""
    n = stock.shape[1]
    rows = np.arange(n)
    hands = np.zeros((n, 2), dtype=np.uint64)
    discards = np.zeros((n, 2), dtype=np.uint64)
    seen = np.zeros((n, 2), dtype=np.uint64)
    mode = rules.draw_mode
    for r in range(stock.shape[0] // 2):
        seat = ((dealer + 1 + r) % 2).astype(np.int8)
        first, second = BIT[stock[2 * r]], BIT[stock[2 * r + 1]]
        view = draw_view(hands, seen, seat, first, second, scores, bags, rules, deck)
        keep_first = np.asarray(lineup.decide(view, "draw", rng, bool), dtype=bool)
        kept, other = pick(keep_first, first, second), pick(keep_first, second, first)
        hands[rows, seat] |= kept
        discards[rows, seat] |= other
        if mode == "first_decides_blind":  # the second card, discarded unseen, stays unknown
            other = pick(keep_first, np.zeros_like(other), other)
        seen[rows, seat] |= other
    return hands, discards, seen
