"""RULES.md §4.4 ``suicide``, the whole rule: "each side contains a nil: if the first partner to
bid does not bid nil, the second must" (``suicide_min_bid``: a non-nil bid is at least this).

- the keys: `OPTION` and `MIN_BID` (`sim.spades.rules.SpadesRules` fields; a key of two
  partners: `sim.spades.rules.PARTNER_KEYS`);
- the legality: `bids`, the bid-rule slot ``suicide`` of `sim.spades.bidding.bid_masks` (the
  refusal of ``suicide_min_bid`` without the rule is `SpadesRules.check`'s: a rule that is off
  runs none of its parts).
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..bidmasks import MASK, NIL, span
from ..plugin import HouseRule

__all__ = ["MIN_BID", "OPTION", "RULE"]

OPTION = option(False, "each side contains a nil: the second partner bids nil if the first did "
                "not", kind=bool)
MIN_BID = option(None, "under suicide, a non-nil bid is at least this", kind=int, minimum=1,
                 maximum=13, optional=True)


def bids(mask: np.ndarray, at, rules) -> np.ndarray:
    """Nil or at least ``suicide_min_bid``; the second partner of a first non-nil bid: nil."""
    if rules.suicide_min_bid is not None:
        mask = mask & (NIL | span(rules.suicide_min_bid, at.top))
    return mask & np.where(at.second & (at.partner != 0), NIL, ~MASK(0)).astype(MASK)


RULE = HouseRule(key="suicide", section="§4.4", in_force=lambda r: r.suicide,
                 bids={"suicide": bids})
