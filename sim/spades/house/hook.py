"""RULES.md §4.4 ``hook``, the whole rule: "the last bidder may not make the total of all bids
equal the number of tricks" (it gives way where no other bid would be left: a reading, README).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the legality: `bans`, the bid-ban slot ``hook`` of `sim.spades.bidding.bid_masks` (the halves
  bid so far count, two making a trick). Under ``partnership_bidding`` the joint bid's own rule
  reads it (the last joint bid).
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..bidmasks import MASK, bit
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "the last bidder may not make the four bids total 13", kind=bool)


def bans(at, rules) -> np.ndarray:
    """The last bidder's bid that would make the total the tricks of the hand."""
    bids, rows, seat = at.bids, at.rows, at.seat
    others = np.where(bids >= 0, bids, 0).sum(axis=1) - np.maximum(bids[rows, seat], 0)
    if at.half is not None and rules.half_trick_bids:  # the halves bid so far, and his own
        halves = at.half.sum(axis=1) - at.half[rows, seat] + at.halved  # make a whole total
        others = others + halves // 2
    last = (bids >= 0).sum(axis=1) - (bids[rows, seat] >= 0) == rules.players - 1
    return np.where(last, bit(at.top - others), 0).astype(MASK)


RULE = HouseRule(key="hook", section="§4.4", in_force=lambda r: r.hook, bans={"hook": bans})
