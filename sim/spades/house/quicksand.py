"""RULES.md §4.6 ``quicksand``, the whole rule: "exactly the bid: +10 x bid; -10 for each trick
over or under" (no bags: `sim.spades.rules.SpadesRules.bagless`). RULES.md's examples, bid 7:
7 -> 70, 5 -> -20, 9 -> 50.

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the score: `score`, the scoring slot ``quicksand`` of `sim.spades.scoring.PARTS` (the
  overtricks priced at -10 each in ``overtricks``).
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "exactly the bid: +10 x bid; -10 for each trick over or under", kind=bool)


def score(tally, facts) -> None:
    """Made: 10 x bid, and -10 per overtrick; short: -10 per missing trick."""
    bid, taken = facts.bid, facts.taken
    tally.contract = np.where(tally.made, 10 * bid, -10 * (bid - taken))
    tally.overtricks = np.where(tally.made, -10 * (taken - bid), 0)


RULE = HouseRule(key="quicksand", section="§4.6", in_force=lambda r: r.quicksand,
                 score={"quicksand": score})
