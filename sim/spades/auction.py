"""The Spades contract auction of RULES.md §4.4 (``auction``), for a batch of hands.

In turn from the dealer's left each player bids ``n >= 1`` (promising ``6 + n`` tricks for his
side), every bid higher than the last, or passes; a player who passed is out; when the others
have passed, the last bidder's side is the declarer. Reading: bids go up to 7 (13 tricks); if the
first three pass, the dealer must bid. Calls are int8: 0 = pass, n = a bid of n.

Scoring: the declaring side making ``6 + n`` scores ``10 (6 + n)``, else 0; the defenders score 10
for every trick the declarer took above or below ``6 + n``. No bags, no nil.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ..views import BidView

__all__ = ["AuctionResult", "MAX_BID", "auction_points", "run_auction"]

MAX_BID = 7  # 6 + 7 = 13 tricks: the auction is played by four players only (a partner key)
MAX_CALLS = 4 * (MAX_BID + 1)  # every round one raise at least, or the auction ends


@dataclass(frozen=True, eq=False)
class AuctionResult:
    """bid: int8[N] the contract n (6 + n tricks); declarer: int8[N] the last bidder's seat;
    calls: int8[N, MAX_CALLS] every call in order from the dealer's left (0 pass, n a bid, -1
    after the end)."""

    bid: np.ndarray
    declarer: np.ndarray
    calls: np.ndarray


def run_auction(hands, dealer, scores, bags, rules, deck, lineup, rng, common: dict,
                check) -> AuctionResult:
    """Ask ``lineup.decide(view, "auction_bid")`` of each player in turn whose call is due.
    ``view.legal``: bit 0 = pass (absent when the dealer is forced), bit n = a bid of n.
    ``check(calls, legal, seats, rows)`` refuses an illegal call."""
    n = hands.shape[0]
    rows = np.arange(n)
    high = np.zeros(n, dtype=np.int8)
    high_seat = np.full(n, -1, dtype=np.int8)
    out = np.zeros((n, 4), dtype=bool)
    calls = np.full((n, MAX_CALLS), -1, dtype=np.int8)
    made = np.zeros(n, dtype=np.int16)  # calls made so far per hand
    done = np.zeros(n, dtype=bool)
    for turn in range(MAX_CALLS):
        seat = ((dealer + 1 + turn) % 4).astype(np.int8)
        due = ~done & ~out[rows, seat] & (high_seat != seat)
        idx = np.flatnonzero(due)
        if idx.size:
            raises = ((1 << (MAX_BID + 1)) - 1) & ~((2 << high[idx].astype(np.int32)) - 1)
            forced = (out[idx].sum(axis=1) == 3) & (high_seat[idx] < 0)
            legal = (raises | np.where(forced, 0, 1)).astype(np.uint16)
            view = BidView(hand=hands[rows, seat], legal=np.zeros(n, np.uint16), **common,
                           seat=seat, rows=rows).take(idx)
            view = dataclasses.replace(view, legal=legal)
            call = np.asarray(lineup.decide(view, "auction_bid", rng, np.int8), dtype=np.int8)
            check(call, legal, seat[idx], idx)
            calls[idx, made[idx]] = call
            made[idx] += 1
            bid = call > 0
            high[idx[bid]] = call[bid]
            high_seat[idx[bid]] = seat[idx[bid]]
            out[idx[~bid], seat[idx[~bid]]] = True
        done |= (out.sum(axis=1) == 3) & (high_seat >= 0)
        if done.all():
            break
    return AuctionResult(bid=high, declarer=high_seat, calls=calls)


def auction_points(bid: np.ndarray, declarer: np.ndarray, side_tricks: np.ndarray) -> np.ndarray:
    """int32[N, 2] per side: the declaring side ``10 (6 + n)`` if it took ``6 + n``, else 0; the
    defenders 10 per trick the declarer took above or below ``6 + n`` (RULES.md §4.4 example:
    bid 2, takes 6 -> 0 and 20; takes 10 -> 80 and 20)."""
    rows = np.arange(bid.shape[0])
    side = (declarer & 1).astype(np.intp)
    target = 6 + bid.astype(np.int32)
    taken = side_tricks[rows, side].astype(np.int32)
    out = np.zeros((bid.shape[0], 2), dtype=np.int32)
    out[rows, side] = np.where(taken >= target, 10 * target, 0)
    out[rows, 1 - side] = 10 * np.abs(taken - target)
    return out
