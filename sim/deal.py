"""Dealing (RULES.md §0): shuffle, then one card at a time clockwise from the dealer's left."""

from __future__ import annotations

import sys

import numpy as np

from .cards import BIT, Deck, bits_of

__all__ = ["deal", "deal_in_order", "deck_slots", "gather_copies", "gather_order",
           "hands_from_order", "shuffled", "shuffled_from", "swap_draws", "to_seats", "uniform32"]

U64 = np.uint64


def shuffled(items: np.ndarray, n: int, rng: np.random.Generator,
             columns: np.ndarray | None = None) -> np.ndarray:
    """``n`` independent uniformly random orders of ``items`` (int8), as int8[len(items), n]:
    column ``c`` is one order (position-major, so that each step below works on a whole row).
    ``columns``: only those orders (int8[len(items), len(columns)]), from the same random
    numbers (every order's numbers are drawn; the others are not shuffled).

    A Fisher-Yates shuffle run on all columns at once: at step ``i`` every column swaps position
    ``i`` with a uniform position ``j <= i``. ``j`` is drawn exactly by Lemire's multiply-shift
    method (D. Lemire, "Fast random integer generation in an interval", 2019): the high half of
    ``x * (i + 1)`` for a uniform 32-bit ``x``, redrawing ``x`` in the rare case (probability below
    (i + 1) / 2**32) that its low half falls under ``2**32 mod (i + 1)``. Every step's ``x`` is
    drawn first, then the redraws in the order of the steps (the last position first).
    """
    m = items.size
    if columns is not None or n * m <= _SMALL:
        return shuffled_from(items, swap_draws(m, n, rng, columns))
    # large: each step's numbers made while they are in the cache
    draws = uniform32(rng, (max(m - 1, 0), n))
    order = _unshuffled(items, n)
    flat = order.reshape(-1)
    offsets = np.arange(n, dtype=U64)
    for i in range(m - 1, 0, -1):
        x = draws[m - 1 - i]
        _redraw(x, i + 1, rng)
        _swap(order, flat, i, _places(x, i + 1, n, offsets))
    return order


def swap_draws(m: int, n: int, rng: np.random.Generator,
               columns: np.ndarray | None = None) -> np.ndarray:
    """The 32-bit numbers (uint32[m - 1, n]: row ``k`` for the step ``i = m - 1 - k``, redrawn
    where biased) from which `shuffled` shuffles ``m`` items for ``n`` orders (or the given
    ``columns`` of them), drawn from ``rng`` as `shuffled` draws them."""
    draws = uniform32(rng, (max(m - 1, 0), n))
    spans = np.arange(m, 1, -1, dtype=np.uint32)[:, None]  # i + 1 for the steps i = m - 1 .. 1
    thresholds = (U64(2**32) % spans.astype(U64)).astype(np.uint32)
    for k in np.flatnonzero((draws * spans < thresholds).any(axis=1)):  # low halves, wrapped
        _redraw(draws[k], m - k, rng)  # rare; in the order of the steps
    return draws if columns is None else draws[:, columns]


def shuffled_from(items: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """The orders of ``items`` (int8[m, n]) that the numbers of `swap_draws` make (any number of
    columns, from any streams: uint32[m - 1, n]), step by step as `shuffled` makes them."""
    m, n = items.size, draws.shape[1]
    order = _unshuffled(items, n)
    flat = order.reshape(-1)
    offsets = np.arange(n, dtype=U64)
    for i in range(m - 1, 0, -1):
        _swap(order, flat, i, _places(draws[m - 1 - i], i + 1, n, offsets))
    return order


def _places(x: np.ndarray, span: int, n: int, offsets: np.ndarray) -> np.ndarray:
    """Where in the flat orders step ``span - 1`` swaps to: ``j * n + column`` for ``j`` the high
    half of ``x * span`` (Lemire's method, see `shuffled`)."""
    at = x.astype(U64)
    at *= U64(span)
    at >>= U64(32)  # j, then its index in ``flat``: j * n + column
    at *= U64(n)
    at += offsets
    return at.view(np.int64)


def uniform32(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """uint32 numbers: those of ``rng.integers(0, 2**32, size=shape, dtype=np.uint64)``, leaving
    ``rng`` as that call leaves it. numpy makes them of the 32-bit halves of its bit generator's
    64-bit outputs, the low half first; for PCG64 (``default_rng``) they are read straight off
    ``random_raw``, and an odd last half is left in the generator for the next draw, as numpy
    leaves it."""
    count = int(np.prod(shape))
    bits = getattr(rng, "bit_generator", None)
    if (type(bits) is not np.random.PCG64 or sys.byteorder != "little" or not count
            or bits.state["has_uint32"]):
        return rng.integers(0, 2**32, size=shape, dtype=np.uint64).astype(np.uint32)
    raw = bits.random_raw((count + 1) // 2)
    if count % 2:
        state = bits.state
        state["has_uint32"], state["uinteger"] = 1, int(raw[-1] >> U64(32))
        bits.state = state
    return raw.view(np.uint32)[:count].reshape(shape)


def _unshuffled(items: np.ndarray, n: int) -> np.ndarray:
    order = np.empty((items.size, n), dtype=np.int8)
    order[:] = items[:, None]
    return order


def _swap(order: np.ndarray, flat: np.ndarray, i: int, at: np.ndarray) -> None:
    """Step ``i`` of the shuffle: position ``i`` of every column with the one at ``at``."""
    row = flat[at]
    flat[at] = order[i]
    order[i] = row


_SMALL = 1 << 17  # cards x orders up to which a shuffle makes all its steps' numbers at once


def _redraw(x: np.ndarray, span: int, rng: np.random.Generator) -> None:
    """``x``: uniform 32-bit numbers (uint32); every one with the low half of ``x * span`` under
    ``2**32 mod span`` is drawn again (in order) until none is, so that the high halves of
    ``x * span`` are exactly uniform in [0, span) (see `shuffled`)."""
    threshold = 2**32 % span
    if not threshold:
        return
    bad = np.flatnonzero(x * np.uint32(span) < threshold)  # uint32: the low half, wrapped
    while bad.size:  # exact uniformity: redraw the biased few
        x[bad] = rng.integers(0, 2**32, size=bad.size, dtype=np.uint64)
        bad = bad[x[bad] * np.uint32(span) < threshold]


def gather_copies(bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cards of one-bit bitboards ``bits`` [k, ...] summed over axis 0, and those present
    twice (two decks, RULES.md §4.7)."""
    held = np.zeros(bits.shape[1:], dtype=U64)
    twice = np.zeros_like(held)
    for card in bits:
        twice |= held & card
        held |= card
    return held, twice


def gather_order(order: np.ndarray, players: int, cards_each: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """`hands_from_order` with two decks: uint64[n, players] the cards each receives, and
    those it receives both copies of, indexed by deal order."""
    held, both = gather_copies(BIT[order[: cards_each * players]].reshape(cards_each, players,
                                                                           -1))
    return held.T, both.T


def hands_from_order(order: np.ndarray, players: int, cards_each: int) -> np.ndarray:
    """Deal ordered decks (int8[m, n] slots, position-major) one card at a time: position ``i``
    goes to column ``i mod players``. Returns uint64[n, players] indexed by deal order."""
    bits = bits_of(order[: cards_each * players]).reshape(cards_each, players, -1)
    return np.bitwise_or.reduce(bits, axis=0).T


def deck_slots(deck: Deck) -> np.ndarray:
    """int8[cards]: the deck's slots in the order of their physical cards, so that two layouts
    of the same cards (RULES.md §4.2 card orders) deal the same cards from the same random
    numbers."""
    slots = np.flatnonzero(deck.natural >= 0)
    return slots[np.argsort(deck.natural[slots], kind="stable")].astype(np.int8)


def deal_in_order(deck: Deck, n: int, players: int, rng: np.random.Generator,
                  cards_each: int | None = None, last: bool = False, first: int = 0,
                  columns: np.ndarray | None = None):
    """``n`` deals as uint64[n, players] indexed by *deal order*: column ``k`` holds the cards of the
    player ``k + 1`` places left of the dealer (so the last column is the dealer's, who receives the
    last card). ``cards_each`` cards per player (default: the whole deck), the rest undealt.
    With ``last``, also the slot (int8[n]) of the last card dealt, the dealer's (Portland's
    turned-up trump, RULES.md §1); with ``first`` = k > 0, also (last of the returned values)
    the first k cards each player received, uint64[n, players] (Spades face-up cards, §4.1).
    ``columns``: only those of the ``n`` deals (`shuffled`)."""
    if deck.copies != 1:
        raise ValueError("deal_in_order deals one deck; two-deck Spades (RULES.md §4.7) deals "
                         "through sim.spades.dealing")
    slots = deck_slots(deck)
    cards_each = cards_each or slots.size // players
    order = shuffled(slots, n, rng, columns)
    hands = hands_from_order(order, players, cards_each)
    out = (hands,) + ((order[cards_each * players - 1].copy(),) if last else ())
    out += (hands_from_order(order, players, first),) if first else ()
    return out if len(out) > 1 else hands


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
