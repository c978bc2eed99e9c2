"""Deals of the cards a seat cannot see, consistent with what it has seen (issue 21: the search
player's samples).

At a card of the play (RULES.md §0) a seat knows its own hand, every card played, how many cards
each other seat still holds, and the suits each has shown void in (a seat that did not follow a
lead of a suit holds none of it; the rules may reveal more, `strategies.search`). `deal_hidden`
draws deals of the unseen cards to the other seats **uniformly among all deals consistent with
those counts and voids**, exactly, for three hidden seats (four players):

1. The suits are grouped by which hidden seats may hold them (a 3-bit mask; the suits of one
   mask are interchangeable as far as the constraints go). A group only one seat may hold is
   his; a group two seats may hold is split by one number (how many go to the first); the
   group all three may hold takes what is left of each seat's count.
2. The number of consistent deals with given splits is a product of binomials (the two-seat
   groups) and a multinomial (the three-seat group), so the splits are drawn from their exact
   distribution by enumerating them (at most 14 per two-seat group, 14^3 for the rare row with
   all three kinds): `_splits`.
3. Within each group the cards are dealt by a uniformly random order, the first ones to the
   first seat and so on: every deal with those splits is equally likely.

So every consistent deal has the same probability (its splits' count of deals / the total,
times 1 / that count). Vectorised over rows x samples; the loops run over the groups and the
three seats, never over samples. The bids are not used (a deal that does not fit a bid is as
likely as one that does).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from sim.cards import BIT, U64, Deck, popcount

__all__ = ["HIDDEN", "deal_hidden"]

HIDDEN = 3  # hidden seats: the four-player table's other three
_PAIRS = (3, 5, 6)  # the masks of two hidden seats: (0, 1), (0, 2), (1, 2)
_FULL = 7
_NONE = 8  # the group of a card that is not unseen (sorted last)
_FACT = np.array([math.factorial(k) for k in range(65)], dtype=np.float64)


@functools.cache
def _slots(deck: Deck) -> tuple[np.ndarray, np.ndarray]:
    """(int64[c] the deck's slots, int8[c] each one's suit)."""
    slots = np.flatnonzero(deck.suit_of_bit >= 0)
    return slots, deck.suit_of_bit[slots].astype(np.int8)


def deal_hidden(unseen: np.ndarray, counts: np.ndarray, voids: np.ndarray, deck: Deck, k: int,
                rng) -> np.ndarray:
    """uint64[n, k, 3]: ``k`` deals per row of the cards ``unseen`` (uint64[n]) to three hidden
    seats, uniform among the deals in which seat ``j`` gets ``counts[:, j]`` (int[n, 3]) cards
    and no card of a suit whose bit is set in ``voids[:, j]`` (uint8[n, 3], bit s = suit s, the
    layout of `sim.views.PlayView.voids`). ``rng`` draws one row of numbers per row (a view's
    generator or streams). A row with no consistent deal raises ValueError."""
    n = unseen.shape[0]
    counts = counts.astype(np.int64)
    slots, suit_of = _slots(deck)
    if n == 0:
        return np.zeros((0, k, HIDDEN), dtype=U64)
    if np.any(counts.sum(axis=1) != popcount(unseen)):
        raise ValueError("the hidden seats' counts do not add up to the unseen cards")
    masks = deck.suit_masks
    per_suit = np.stack([popcount(unseen & m).astype(np.int64) for m in masks], axis=1)
    # the hidden seats that may hold each suit: bit j = seat j is not void in it
    may = np.zeros((n, len(masks)), dtype=np.int64)
    for j in range(HIDDEN):
        may |= (((voids[:, j, None].astype(np.int64) >> np.arange(len(masks))) & 1) == 0) << j
    if np.any((per_suit > 0) & (may == 0)):
        raise ValueError("an unseen card of a suit every hidden seat has shown void in")
    size = np.zeros((n, _NONE), dtype=np.int64)  # unseen cards per group (mask)
    for s in range(len(masks)):
        size[np.arange(n), may[:, s]] += per_suit[:, s]
    split = _splits(size, counts, rng.random((n, k)))  # int64[n, k, 8, 3]
    # each unseen card's group, then a random order within groups: sort by group + U[0, 1)
    cards_in = ((unseen[:, None] >> slots.astype(U64)) & U64(1)).astype(bool)  # [n, c]
    group = np.where(cards_in, may[:, suit_of], _NONE)  # [n, c]
    order = np.argsort(group[:, None, :] + rng.random((n, k, slots.size)), axis=2)
    sorted_group = np.take_along_axis(np.broadcast_to(group[:, None, :], order.shape), order,
                                      axis=2)
    start = np.concatenate([np.zeros((n, 1), np.int64), np.cumsum(size, axis=1)], axis=1)
    rank = np.arange(slots.size) - np.take_along_axis(start, sorted_group.reshape(n, -1),
                                                      axis=1).reshape(order.shape)
    edge = np.cumsum(split, axis=3)  # [n, k, 8, 3]: the first card beyond each seat's share
    valid = sorted_group < _NONE
    g = np.minimum(sorted_group, _NONE - 1)
    seat = np.zeros(order.shape, dtype=np.int8)
    for j in range(HIDDEN - 1):
        seat += rank >= np.take_along_axis(edge[..., j], g, axis=2)
    cards = BIT[slots][order]
    out = np.empty((n, k, HIDDEN), dtype=U64)
    for j in range(HIDDEN):
        out[:, :, j] = np.bitwise_or.reduce(np.where(valid & (seat == j), cards, U64(0)), axis=2)
    return out


def _splits(size: np.ndarray, counts: np.ndarray, u: np.ndarray) -> np.ndarray:
    """int64[n, k, 8, 3]: for each row and sample, how many cards of each group (mask, as
    `deal_hidden`'s ``size`` int64[n, 8]) go to each hidden seat, drawn (by the uniforms ``u``
    float[n, k]) with probability proportional to the number of consistent deals with that
    split. A group of one seat is that seat's; the two-seat groups' shares are enumerated; the
    three-seat group takes the rest, which must fit each seat's count."""
    n, k = u.shape
    rows = np.arange(n)
    forced = np.stack([size[:, 1 << j] for j in range(HIDDEN)], axis=1)
    dims = [int(size[:, m].max()) + 1 for m in _PAIRS]
    c3, c5, c6 = (np.arange(d).reshape([1] + [d if i == a else 1 for i in range(3)])
                  for a, d in enumerate(dims))  # [1, d3, 1, 1] ...
    u3, u5, u6, u7 = (size[:, m].reshape(n, 1, 1, 1) for m in (*_PAIRS, _FULL))
    h = (counts - forced).reshape(n, HIDDEN, 1, 1, 1)
    rest = (h[:, 0] - c3 - c5, h[:, 1] - (u3 - c3) - c6, h[:, 2] - (u5 - c5) - (u6 - c6))
    ok = (c3 <= u3) & (c5 <= u5) & (c6 <= u6)
    for r in rest:
        ok = ok & (r >= 0)
    fact = _FACT
    weight = fact[u7] / (fact[np.clip(rest[0], 0, 64)] * fact[np.clip(rest[1], 0, 64)]
                         * fact[np.clip(rest[2], 0, 64)])
    for c, m in ((c3, u3), (c5, u5), (c6, u6)):
        weight = weight * fact[m] / (fact[np.minimum(c, m)] * fact[np.clip(m - c, 0, 64)])
    weight = np.where(ok, weight, 0.0).reshape(n, -1)
    if np.any(weight.sum(axis=1) <= 0):
        raise ValueError("no deal of the unseen cards fits the seats' counts and voids")
    cum = np.cumsum(weight, axis=1)
    x = u * cum[:, -1:]
    pick = (cum[:, None, :] <= x[:, :, None]).sum(axis=2)  # the first cell whose cum exceeds x
    last = weight.shape[1] - 1 - np.argmax(weight[:, ::-1] > 0, axis=1)  # (rounding at 1)
    pick = np.minimum(pick, last[:, None])
    i3, i5, i6 = np.unravel_index(pick, dims)  # [n, k] each
    full = [(h[:, 0, 0, 0, 0, None] - i3 - i5), (h[:, 1, 0, 0, 0, None] - (size[:, 3, None] - i3)
                                                 - i6),
            (h[:, 2, 0, 0, 0, None] - (size[:, 5, None] - i5) - (size[:, 6, None] - i6))]
    out = np.zeros((n, k, _NONE, HIDDEN), dtype=np.int64)
    for j in range(HIDDEN):
        out[:, :, 1 << j, j] = forced[:, j, None]
        out[:, :, _FULL, j] = full[j]
    for m, c in zip(_PAIRS, (i3, i5, i6), strict=True):
        first, second = (j for j in range(HIDDEN) if m >> j & 1)
        out[:, :, m, first] = c
        out[:, :, m, second] = size[rows, m][:, None] - c
    return out
