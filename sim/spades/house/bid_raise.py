"""RULES.md §4.4 ``bid_raise``, the whole rule: "after all bids, each player in bidding order may
raise his own bid by one, never lower". Readings (README): a nil or a blind bid is not raised; a
raise stays within the tricks of the hand and ``max_team_bid``.

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the decision: after every seat's turn, a round in bidding order (`raise_round`, the plug-in's
  ``after_bids``, on the `sim.spades.bidding.BidState`); each seat that `may_raise` is asked
  ``raise_bid`` with his `sim.views.BidView`, whose ``legal`` holds his bid and the bid above
  it; the bids stand as raised, and the bidding's ``raised`` flags, bool[N, P], say whose were;
- the legality on a score sheet: `check` (a record's bids are the raised ones, `as_bid` gives
  them as first made);
- the table: ``raised_<seat>``; the record: ``raised`` (RULES.md §5), read back by replay.

Nothing else changes: the play and the score see the raised bids.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ...errors import IllegalBid
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE", "may_raise"]

OPTION = option(False, "after all bids, each player in bidding order may raise his own bid by "
                "one (not a nil or a blind bid)", kind=bool)


def may_raise(bids: np.ndarray, blind: np.ndarray, seat: np.ndarray, rules) -> np.ndarray:
    """bool[N]: ``seat`` may raise its bid by one: an ordinary bid (not a nil, not blind) below
    the tricks of the hand (13 at four players) that ``max_team_bid`` still allows."""
    rows = np.arange(seat.shape[0])
    bid = bids[rows, seat].astype(np.int32)
    ok = (bid >= 1) & (bid < rules.tricks_per_hand) & ~blind[rows, seat]
    if rules.max_team_bid is not None:  # partners only (RULES.md §3)
        partner = bids[rows, rules.table.partner_of(seat)].astype(np.int32)
        ok &= bid + 1 + np.maximum(partner, 0) <= rules.max_team_bid
    return ok


def raise_round(state, rules, deck, lineup, rng) -> None:
    """After all bids, each seat in bidding order may raise its own bid by one (the
    ``raise_bid`` decision, shown the bids as they stand). Updates the bidding state's bids and
    its ``raised`` flags."""
    bids, raised = state.bids, state.flags["raised"]
    for seat in state.seats():
        idx = np.flatnonzero(may_raise(bids, state.blind, seat, rules))
        if not idx.size:
            continue
        bid = bids[idx, seat[idx]].astype(np.int32)
        legal = np.left_shift(1, bid) | np.left_shift(1, bid + 1)  # keep or raise
        view = state.seat_view(seat, idx, legal, rules, deck)
        up = np.asarray(lineup.decide(view, "raise_bid", rng, bool), dtype=bool)
        bids[idx, seat[idx]] += up
        raised[idx, seat[idx]] = up


def as_bid(bids: np.ndarray, flags: Mapping) -> np.ndarray:
    """The bids as first made: a record's bids are the raised ones."""
    return bids - flags["raised"]


def check(made: np.ndarray, blind: np.ndarray, flags: Mapping, dealer, rules) -> None:
    """A score sheet's raises, in bidding order, each one a raise `may_raise` allows at its turn
    of the round (``made``: the bids as first made)."""
    made = made.copy()
    rows = np.arange(made.shape[0])
    for j in range(rules.players):
        seat = ((dealer + 1 + j) % rules.players).astype(np.int8)
        up = flags["raised"][rows, seat]
        bad = up & ~may_raise(made, blind, seat, rules)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise IllegalBid("this bid may not be raised (bid_raise: an ordinary bid below the "
                             "tricks of the hand, within max_team_bid)", row=i,
                             seat=int(seat[i]))
        made[rows, seat] += up


RULE = HouseRule(key="bid_raise", section="§4.4", in_force=lambda r: r.bid_raise,
                 declares=("raised",), decisions={"raise_bid": "raised"},
                 after_bids=raise_round, as_bid=as_bid, check=check,
                 columns={"raised_<seat>": (np.bool_(False), "the seat raised its bid by one "
                                            "(its bid_<seat> is the raised bid)")})
