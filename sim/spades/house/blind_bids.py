"""RULES.md §4.4 ``blind_bids``, the whole rule: "a trailing player may bid 1..7 before looking at
his cards: made, 20 per blind bid trick and no overtricks; set, -10 per bid trick"
(``blind_bid_min_deficit``: only a side trailing by at least this, 0 = always).

- the keys: `OPTION` and `MIN_DEFICIT` (`sim.spades.rules.SpadesRules` fields);
- the decision: `ask` (the turn's slot ``blind_bid``, after a blind nil is declined): the seat is
  asked ``blind_bid`` with the `sim.views.BlindView` of `view` (``legal``: the bids 1..7 open
  to it; 0 = he looks first); the bid chosen is his bid, made blind (the record's ``blind``);
- the score: `score`, the scoring slot ``blind_bid`` of `sim.spades.scoring.PARTS`, first
  (what the contract's ways see).
"""

from __future__ import annotations

import numpy as np

from ...limits import TARGET_LIMIT
from ...options import option
from ...views import BlindView, deficits
from ..bidmasks import MASK, check_legal
from ..plugin import HouseRule

__all__ = ["MIN_DEFICIT", "OPTION", "RULE", "view"]

OPTION = option(False, "a trailing player may bid 1..7 before looking: made, 20 per blind bid "
                "trick and no overtricks; set, -10 per bid trick", kind=bool)
MIN_DEFICIT = option(100, "blind bids only for a side trailing by at least this (0 = always)",
                     kind=int, minimum=0, maximum=TARGET_LIMIT)


def view(turn) -> BlindView:
    """The seat's view when asked for a blind bid, before looking: ``legal`` the bids of 1..7
    open to it (those open before looking, nil aside)."""
    return BlindView(legal=turn.unseen & MASK(0b11111110), **turn.common)


def ask(turn, rules, deck, lineup, rng) -> None:
    """A seat of a side far enough behind, still bidding and not blind nil, may bid 1..7 blind."""
    whole = view(turn)
    open_ = whole.legal
    trailing = (np.ones(turn.seat.shape, bool) if rules.blind_bid_min_deficit == 0 else
                deficits(turn.seat, turn.common["scores"]) >= rules.blind_bid_min_deficit)
    idx = np.flatnonzero(trailing & turn.bidding & ~turn.goes_blind & (open_ != 0))
    if idx.size:
        chosen = lineup.decide(whole.take(idx), "blind_bid", rng, np.int8)
        looks = chosen == 0  # no blind bid: he looks at his cards first
        check_legal(np.where(looks, 0, chosen), open_[idx] | looks, turn.seat[idx], idx)
        turn.blind_bid[idx] = chosen
    turn.goes_blind |= turn.blind_bid > 0


def score(tally, facts) -> None:
    """A made contract's blind bid tricks score 20 each (10 more), and the side's overtricks
    are not scored (no points, no bags)."""
    blind_bid = facts.side(facts.bids * (facts.blind & ~facts.is_nil))
    tally.contract = tally.contract + 10 * blind_bid * tally.made
    bags = np.where(blind_bid > 0, 0, tally.bags)
    tally.bags_taken = tally.bags_taken - tally.bags + bags
    tally.bags = bags


RULE = HouseRule(key="blind_bids", section="§4.4", in_force=lambda r: r.blind_bids,
                 turn={"blind_bid": ask}, score={"blind_bid": score})
