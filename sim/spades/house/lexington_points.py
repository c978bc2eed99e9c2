"""RULES.md §4.4 ``lexington_points``, the whole rule: "a side taking 12 or more tricks scores 240
whatever it bid" (no bags that hand).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the score: `score`, the scoring slot ``lexington`` of `sim.spades.scoring.PARTS`.
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "a side taking 12 or more tricks scores 240 whatever it bid", kind=bool)


def score(tally, facts) -> None:
    """12 tricks or more: the side's contract is 240, and it counts no bags."""
    big = facts.side(facts.tricks) >= 12
    tally.contract, tally.bags = np.where(big, 240, tally.contract), np.where(big, 0, tally.bags)


RULE = HouseRule(key="lexington_points", section="§4.4", in_force=lambda r: r.lexington_points,
                 score={"lexington": score})
