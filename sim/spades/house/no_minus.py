"""RULES.md §4.6 ``no_minus``, the whole rule: "a set side scores 0 instead of a negative score
(nil failures still cost)".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the score: `score`, the scoring slot ``no_minus`` of `sim.spades.scoring.PARTS`, after the
  other ways of scoring the contract. Readings (§3: set = fewer tricks than the contract): a
  side that took at least its contract is not set, so ``double_over``'s -20 x bid, ``three_b``'s
  and ``quicksand``'s -10 per overtrick stand; under ``exact`` "more is scored as a set", so a
  side over its bid is set and floored; a side of two nils is never set; side contracts and the
  auction score by their own tables, failure values included. Under ``highlander`` the
  highlander plug-in applies it, so this part is not in force there.
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "a set side scores 0 (nil failures still cost)", kind=bool)


def score(tally, facts) -> None:
    """A set side's negative contract is 0."""
    tally.contract = np.where(~tally.made & (facts.bid > 0), np.maximum(tally.contract, 0),
                              tally.contract)


RULE = HouseRule(key="no_minus", section="§4.6", in_force=lambda r: r.no_minus and not r.highlander,
                 score={"no_minus": score})
