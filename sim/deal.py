"""Dealing (RULES.md §0): shuffle, then one card at a time clockwise from the dealer's left."""

from __future__ import annotations

import numpy as np

from .cards import BIT, Deck

__all__ = ["deal", "deal_in_order", "to_seats"]


def deal_in_order(deck: Deck, n: int, players: int, rng: np.random.Generator,
                  cards_each: int | None = None) -> np.ndarray:
    """``n`` deals as uint64[n, players] indexed by *deal order*: column ``k`` holds the cards of the
    player ``k + 1`` places left of the dealer (so the last column is the dealer's, who receives the
    last card). Card ``i`` of the shuffled deck goes to column ``i mod players``; ``cards_each``
    cards per player (default: the whole deck), the rest stay undealt."""
    if deck.copies != 1:
        raise NotImplementedError("two-deck games (RULES.md §4.7) are not implemented yet")
    slots = np.flatnonzero([bool(name) for name in deck.names]).astype(np.int8)
    cards_each = cards_each or slots.size // players
    order = np.empty((n, slots.size), dtype=np.int8)
    order[:] = slots
    rng.permuted(order, axis=1, out=order)  # each row a uniform random order (Fisher-Yates)
    bits = BIT[order[:, : cards_each * players]].reshape(n, cards_each, players)
    return np.bitwise_or.reduce(bits, axis=1)


def to_seats(by_order: np.ndarray, dealer: np.ndarray) -> np.ndarray:
    """Re-index deals from deal order to seats: seat ``s`` is ``(s - dealer - 1) mod P`` places
    after the dealer's left."""
    players = by_order.shape[1]
    column = (np.arange(players)[None, :] - dealer[:, None] - 1) % players
    return np.take_along_axis(by_order, column, axis=1)


def deal(deck: Deck, dealer: np.ndarray, players: int, rng: np.random.Generator,
         cards_each: int | None = None) -> np.ndarray:
    """One deal per row of ``dealer``, as uint64[N, players] indexed by seat."""
    return to_seats(deal_in_order(deck, dealer.shape[0], players, rng, cards_each), dealer)
