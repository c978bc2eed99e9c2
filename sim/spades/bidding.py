"""Spades bidding (RULES.md §3): each seat in turn from the dealer's left, public as made.

Legal bids are a uint16 mask per hand (bit v = "bid v is legal"), the contract between the rules
and the strategies. A blind nil is decided first, from a view without the hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import UserError
from ..views import BidView, BlindView
from .rules import SpadesRules

__all__ = ["BidResult", "IllegalBid", "bid_masks", "blind_nil_allowed", "check_bids", "run_bidding"]


class IllegalBid(UserError):
    def __init__(self, message: str, *, row: int, seat: int):
        self.row, self.seat = row, seat
        super().__init__(f"bidding, seat {seat}: {message}")


@dataclass(frozen=True, eq=False)
class BidResult:
    """bids: int8[N, 4] (0 = nil); blind: bool[N, 4] (a blind nil)."""

    bids: np.ndarray
    blind: np.ndarray


def bid_masks(partner_bid: np.ndarray, rules: SpadesRules) -> np.ndarray:
    """uint16[N]: legal ordinary bids given the partner's bid (-1 = not yet made).

    From ``min_bid`` (0 with nil, else 1) to 13; with ``max_team_bid`` the two bids may not total
    more, counting a partner still to bid at his minimum so that he keeps a legal bid."""
    lo = rules.min_bid
    hi = np.full(partner_bid.shape, 13, dtype=np.int32)
    if rules.max_team_bid is not None:
        partner = np.where(partner_bid >= 0, partner_bid, lo)
        hi = np.minimum(hi, rules.max_team_bid - partner)
    return (((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)).astype(np.uint16)


def blind_nil_allowed(seat: np.ndarray, scores: np.ndarray, rules: SpadesRules) -> np.ndarray:
    """bool[N]: blind nil is on and the seat's side trails by at least ``blind_nil_min_deficit``."""
    if not rules.blind_nil:
        return np.zeros(seat.shape, dtype=bool)
    side = (seat & 1).astype(np.intp)
    rows = np.arange(seat.shape[0])
    deficit = scores[rows, 1 - side] - scores[rows, side]
    return deficit >= rules.blind_nil_min_deficit


def _check(bid, goes_blind, legal, seat):
    """Raise IllegalBid for the first hand whose (non-blind) bid is not in its legal mask."""
    bad = ~goes_blind & ((bid < 0) | (bid > 13) | ((legal >> np.clip(bid, 0, 15)) & 1 == 0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        allowed = [v for v in range(14) if int(legal[i]) >> v & 1]
        raise IllegalBid(f"bid {int(bid[i])} is not allowed; allowed: {allowed}", row=i,
                         seat=int(seat[i]))


def check_bids(bids, blind, dealer, rules: SpadesRules) -> None:
    """Check complete bids (score-sheet records) in bidding order, as `run_bidding` checks them."""
    n = bids.shape[0]
    rows = np.arange(n)
    made = np.full((n, 4), -1, dtype=np.int8)
    for j in range(4):
        seat = ((dealer + 1 + j) % 4).astype(np.int8)
        bid = bids[rows, seat]
        _check(bid, blind[rows, seat], bid_masks(made[rows, seat ^ 2], rules), seat)
        made[rows, seat] = bid


def run_bidding(hands, dealer, scores, bags, rules: SpadesRules, deck, lineup, rng) -> BidResult:
    """Four bids per hand, seat ``dealer + 1`` first. Strategies' answers are checked."""
    n = hands.shape[0]
    rows = np.arange(n)
    bids = np.full((n, 4), -1, dtype=np.int8)
    blind = np.zeros((n, 4), dtype=bool)
    for j in range(4):
        seat = ((dealer + 1 + j) % 4).astype(np.int8)
        legal = bid_masks(bids[rows, seat ^ 2], rules)
        common = dict(rows=rows, seat=seat, dealer=dealer, legal=legal, bids=bids, blind=blind,
                      scores=scores, bags=bags, rules=rules, deck=deck)
        may_blind = np.flatnonzero(blind_nil_allowed(seat, scores, rules))
        goes_blind = np.zeros(n, dtype=bool)
        if may_blind.size:
            view = BlindView(**common).take(may_blind)
            goes_blind[may_blind] = lineup.decide(view, "blind_nil", rng, bool)
        view = BidView(hand=hands[rows, seat], **common)
        bid = lineup.decide(view, "bid", rng, np.int8)
        bid = np.where(goes_blind, 0, bid)
        _check(bid, goes_blind, legal, seat)
        bids[rows, seat] = bid
        blind[rows, seat] = goes_blind
    return BidResult(bids=bids, blind=blind)
