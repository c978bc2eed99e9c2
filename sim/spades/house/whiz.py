"""RULES.md §4.4 ``whiz``, the whole rule: "each player bids the number of spades he holds, or nil;
no blind bids".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the legality: `bids`, the bid-rule slot ``whiz`` of `sim.spades.bidding.bid_masks`, which
  counts the spades held (``looks``: a card held twice counts twice, §4.7); on a score sheet
  the cards are not known and the bid is not checked against them.
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..bidmasks import NIL, bit
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "each player bids the number of spades he holds, or nil; no blind bids",
                kind=bool)


def bids(mask: np.ndarray, at, rules) -> np.ndarray:
    """Nil or the number of spades held."""
    return mask if at.spades is None else mask & (NIL | bit(at.spades))


RULE = HouseRule(key="whiz", section="§4.4", in_force=lambda r: r.whiz, bids={"whiz": bids},
                 looks=True)
