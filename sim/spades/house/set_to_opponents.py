"""RULES.md §4.6 ``set_to_opponents``, the whole rule: "a set side scores 0 and the opponents 10
per trick it fell short" (two sides: `sim.spades.rules.TWO_SIDE_KEYS`).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the score: `score`, the scoring slot ``set_to_opponents`` of `sim.spades.scoring.PARTS` (the
  ``opponents`` component; side contracts score their own way).
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "a set side scores 0 and the opponents 10 per trick it fell short",
                kind=bool)


def score(tally, facts) -> None:
    """An ordinary contract set: 0, and 10 per trick short to the other side."""
    fell = ~tally.made & facts.ordinary
    short = 10 * np.maximum(facts.bid - facts.taken, 0)
    tally.opponents = np.where(fell, short, 0)[:, ::-1]
    tally.contract = np.where(fell, 0, tally.contract)


RULE = HouseRule(key="set_to_opponents", section="§4.6", in_force=lambda r: r.set_to_opponents,
                 score={"set_to_opponents": score})
