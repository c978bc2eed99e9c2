"""RULES.md §4.6 ``three_b``, the whole rule: "made: 10 x bid - 10 x overtricks; set: -10 x bid; a
failed nil's tricks cost 10 each; no bags" (`sim.spades.rules.SpadesRules.bagless`).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the score: `score`, the scoring slot ``three_b`` of `sim.spades.scoring.PARTS` (the contract,
  the overtricks priced at -10 each in ``overtricks``), and `nil_tricks`, the slot
  ``three_b_nil`` after the nils (each trick of a nil bidder costs 10).
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "made: 10 x bid - 10 x overtricks; set: -10 x bid; a failed nil's tricks "
                "cost 10 each; no bags", kind=bool)


def score(tally, facts) -> None:
    """Made: 10 x bid, and -10 per overtrick; set: -10 x bid."""
    bid, over = facts.bid, facts.taken - facts.bid
    tally.contract = np.where(tally.made, 10 * bid, -10 * bid)
    tally.overtricks = np.where(tally.made, -10 * over, 0)


def nil_tricks(tally, facts) -> None:
    """A nil bidder's tricks cost 10 each."""
    tally.nil = tally.nil - 10 * facts.nil_tricks


RULE = HouseRule(key="three_b", section="§4.6", in_force=lambda r: r.three_b,
                 score={"three_b": score, "three_b_nil": nil_tricks})
