"""Dealing (RULES.md §0): shuffle, then one card at a time clockwise from the dealer's left."""

from __future__ import annotations

import numpy as np

from .cards import BIT, Deck

__all__ = ["deal"]


def deal(deck: Deck, dealer: np.ndarray, players: int, rng: np.random.Generator,
         cards_each: int | None = None) -> np.ndarray:
    """Deal one hand per row of ``dealer``.

    Returns ``hands: uint64[N, players]``, each seat's cards as a bitboard. Card ``i`` of the shuffled
    deck goes to seat ``(dealer + 1 + i) mod players`` (so the dealer receives the last card dealt);
    ``cards_each`` cards per seat (default: the whole deck), the rest stay undealt.
    """
    if deck.copies != 1:
        raise NotImplementedError("two-deck games (RULES.md §4.7) are not implemented yet")
    n = dealer.shape[0]
    slots = np.flatnonzero([bool(name) for name in deck.names]).astype(np.int8)
    cards_each = cards_each or slots.size // players
    # Each row a uniform random order of the deck (Fisher-Yates per row, exact).
    order = np.empty((n, slots.size), dtype=np.int8)
    order[:] = slots
    rng.permuted(order, axis=1, out=order)
    bits = BIT[order[:, : cards_each * players]]
    # by_offset[:, k]: the cards of the seat k places left of the dealer's left (deal order).
    by_offset = np.bitwise_or.reduce(bits.reshape(n, cards_each, players), axis=1)
    seat_offset = (np.arange(players)[None, :] - dealer[:, None] - 1) % players
    return np.take_along_axis(by_offset, seat_offset, axis=1)
