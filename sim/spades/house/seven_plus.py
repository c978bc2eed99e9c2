"""RULES.md §4.6 ``seven_plus``, the whole rule: "a made bid of 7 or more earns a bonus": per trick
(``"per_trick"``: 10 per bid trick above 6, so 7 -> 80, 8 -> 100, 9 -> 120) or progressive
(``"progressive"``: 10 the first time in the game, 20 the second, 30 ...; the side's overtricks
are not scored that hand: no points, no bags).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the score: `score`, the scoring slot ``seven_plus`` of `sim.spades.scoring.PARTS`, into the
  side's ``bonus``; the progressive count is the score's (``Tally.pay_progressive``, shared with
  ``highlander``; the ``progressive_<side>`` column, carried from hand to hand in a game).
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(None, "a made bid of 7+: per_trick (10 per bid trick above 6) or progressive "
                "(10 the first time in the game, 20 the second ...; no overtricks that hand)",
                kind=str, choices=("per_trick", "progressive"), optional=True)


def score(tally, facts) -> None:
    """A made ordinary bid of 7 or more: its bonus, per trick or progressive."""
    earned = facts.ordinary & tally.made & (facts.bid >= 7)
    if facts.rules.seven_plus == "per_trick":
        tally.bonus = tally.bonus + np.where(earned, 10 * (facts.bid - 6), 0)
        return
    tally.pay_progressive(earned)
    tally.overtricks = np.where(earned, 0, tally.overtricks)
    tally.bags = np.where(earned, 0, tally.bags)


RULE = HouseRule(key="seven_plus", section="§4.6", in_force=lambda r: r.seven_plus is not None,
                 score={"seven_plus": score})
