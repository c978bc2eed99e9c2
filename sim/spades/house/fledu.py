"""RULES.md §4.4 ``fledu``, the whole rule: "every bid is at least 4 unless nil".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field; the least bid a player can always
  make is then 4 without nil: `SpadesRules.least_bid`);
- the legality: `bids`, the bid-rule slot ``fledu`` of `sim.spades.bidding.bid_masks` (v and a
  half after a partner's half: at least 4, no nil). Under ``partnership_bidding`` the joint bid's
  own rule reads it (at least 4).
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..bidmasks import MASK, NIL, span
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "every bid is at least 4 unless nil", kind=bool)


def bids(mask: np.ndarray, at, rules) -> np.ndarray:
    """Nil or at least 4 (after a partner's half: at least 4)."""
    return mask & np.where(at.halved, span(4, at.top), NIL | span(4, at.top)).astype(MASK)


RULE = HouseRule(key="fledu", section="§4.4", in_force=lambda r: r.fledu, bids={"fledu": bids})
