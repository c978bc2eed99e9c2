"""RULES.md §4.6 ``double_over``, the whole rule: "a side taking twice its contract or more loses
twice its value". RULES.md's example: bid 2, takes 4 -> -40.

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the score: `score`, the scoring slot ``double_over`` of `sim.spades.scoring.PARTS`, replacing
  the contract's score, overtricks and bags. Under ``highlander``, a scoring of its own, the
  highlander plug-in applies it (a reading, issue 19), so this part is not in force there.
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "a side taking twice its contract or more loses twice its value",
                kind=bool)


def score(tally, facts) -> None:
    """Twice the bid or more: -20 x bid, no overtricks, no bags."""
    bid = facts.bid
    doubled = (bid > 0) & (facts.taken >= 2 * bid)
    tally.contract = np.where(doubled, -20 * bid, tally.contract)
    tally.bags = np.where(doubled, 0, tally.bags)
    tally.overtricks = np.where(doubled, 0, tally.overtricks)


RULE = HouseRule(key="double_over", section="§4.6",
                 in_force=lambda r: r.double_over and not r.highlander,
                 score={"double_over": score})
