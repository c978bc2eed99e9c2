"""Masks of bids (RULES.md §3), shared by the bidding (`sim.spades.bidding`) and the bid rules of
`sim.spades.house`: bit v of a uint32 mask is "bid v is open", v = 0 .. the tricks of the hand
(at most 18 with three players)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import IllegalBid

__all__ = ["MASK", "NIL", "BidSeat", "bit", "check_legal", "others_all", "span"]

MASK = np.uint32  # a mask of bids: bit v = bid v, v = 0..cards_each (17 or 18 for three players)
NIL = MASK(1)  # the mask of nil (bid 0)


def span(lo, hi) -> np.ndarray:
    """Masks of the bids lo..hi (per row; empty when hi < lo)."""
    lo, hi = np.asarray(lo, np.int64), np.clip(hi, -1, 30).astype(np.int64)
    return (((1 << (hi + 1)) - 1) & ~((1 << np.clip(lo, 0, 31)) - 1)).astype(MASK)


def bit(v) -> np.ndarray:
    """Mask of bid ``v`` (0 where v is not a bid 0..30)."""
    v = np.asarray(v, np.int64)
    return np.where((v >= 0) & (v <= 30), 1 << np.clip(v, 0, 30), 0).astype(MASK)


@dataclass(frozen=True, eq=False)
class BidSeat:
    """The seat to bid as the bid rules see it, for every row: ``rows`` intp[N]; ``seat``
    int8[N]; ``bids`` int8[N, P] made so far (-1 = not yet); ``top`` the tricks of the hand;
    ``pairs`` the table has partners (RULES.md §3, §4.7); ``partner`` int32[N] the partner's
    bid (-1: not yet, or no partners), ``second`` bool[N] the seat is its side's second bidder;
    ``halved`` int32[N] 1 where it bids v and a half after a partner's half
    (``half_trick_bids``), ``half`` bool[N, P] the half bids so far (None without them);
    ``spades`` int[N] the spades it holds (a card held twice counted twice), None where the
    cards are not known (a score sheet)."""

    rows: np.ndarray
    seat: np.ndarray
    bids: np.ndarray
    top: int
    pairs: bool
    partner: np.ndarray
    second: np.ndarray
    halved: np.ndarray
    half: np.ndarray | None
    spades: np.ndarray | None


def others_all(per_seat: np.ndarray, seat: np.ndarray, table) -> np.ndarray:
    """bool[N]: some side other than ``seat``'s has ``per_seat`` (bool[N, P]) true for every one
    of its players (RULES.md §4.7 sides: each the seats ``table.members``)."""
    every = per_seat[:, table.members].all(axis=2)  # [N, S]
    every[np.arange(seat.shape[0]), table.side_of[seat]] = False
    return every.any(axis=1)


def check_legal(bid, legal, seat, rows=None) -> None:
    """Raise `sim.errors.IllegalBid` for the first hand whose bid (a blind nil is a bid of 0) is
    not in its legal mask; ``rows``: the batch rows of the arrays (default: all, in order)."""
    bad = (bid < 0) | (bid > 30) | ((legal >> np.clip(bid, 0, 31)) & 1 == 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        allowed = [v for v in range(31) if int(legal[i]) >> v & 1]
        raise IllegalBid(f"bid {int(bid[i])} is not allowed; allowed: {allowed}",
                         row=i if rows is None else int(rows[i]), seat=int(seat[i]))
