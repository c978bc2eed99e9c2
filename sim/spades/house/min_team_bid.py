"""RULES.md §4.4 ``min_team_bid``, the whole rule: "a partner of a nil bidder must bid at least k
himself unless both bid nil; a side bids at least k in total. Without partners each player bids
nil or at least k".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the legality: `bids`, the bid-rule slot ``min_team_bid`` of `sim.spades.bidding.bid_masks`:
  the second partner completes the side's total (after a partner's n and a half, v and a half
  completes n + v + 1), or both bid nil. Under ``partnership_bidding`` the joint bid's own rule
  reads it (the least joint bid).
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..bidmasks import MASK, NIL, span
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(None, "a side bids at least this in total (a nil bidder's partner: nil or at "
                "least this himself)", kind=int, minimum=1, maximum=13, optional=True)


def bids(mask: np.ndarray, at, rules) -> np.ndarray:
    """The bids that keep the side's total at least k."""
    k, top = rules.min_team_bid, at.top
    if not at.pairs:  # "Without partners each player bids nil or at least k"
        return mask & (NIL | span(k, top))
    partner = at.partner
    completes = span(np.maximum(k - partner, 1), top) | np.where(
        (partner == 0) | (partner >= k), NIL, 0).astype(MASK)
    completes = np.where(partner == 0, NIL | span(k, top), completes).astype(MASK)
    # after a partner's n and a half, v and a half completes n + v + 1 (bit 0: no nil)
    completes = np.where(at.halved, span(np.maximum(k - partner - 1, 0), top),
                         completes).astype(MASK)
    return mask & np.where(at.second, completes, ~MASK(0)).astype(MASK)


RULE = HouseRule(key="min_team_bid", section="§4.4", in_force=lambda r: r.min_team_bid is not None,
                 bids={"min_team_bid": bids})
