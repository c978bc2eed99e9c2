"""RULES.md §4.4 ``ten_for_two_hundred`` ("wheel"), the whole rule: "a side may bid 10-for-200: 10
or more tricks -> +200, else -ten_for_200_fail (200; some play 100). ``ten_for_200_exact``:
tricks above 10 count as bags. ``tens_are_wheels``: every bid of 10 is a wheel".

- the keys: `OPTION`, `FAIL`, `EXACT` and `TENS` (`sim.spades.rules.SpadesRules` fields);
- the declaration: the side contract ``WHEEL`` of `sim.spades.contracts`, offered to a side's
  first bidder after he looks (``contracts``, the stage ``"sighted"``);
- the score: `score`, its ``contract`` (+200 or ``-ten_for_200_fail``; no bags, or under
  ``ten_for_200_exact`` the tricks above 10);
- ``tens_are_wheels``: the plug-in `TENS_RULE` (in force with it), whose `tens` makes a side's
  ordinary bids of 10 in all (no nil) a wheel when the hand is scored (``bid_contract``).

What is still outside the module: how a side declares a contract and what it replaces
(`sim.spades.contracts`, the bidding's turn steps, views, records and replay, the column
``side_contract_<side>``), the refusals of the three keys without ``ten_for_two_hundred`` (a
rule that is off runs none of its parts) and the auction's, which names it, and the players'
answer (`strategies/seed.py`).
"""

from __future__ import annotations

import numpy as np

from ...limits import BONUS_MAX
from ...options import option
from ..contracts import WHEEL
from ..plugin import HouseRule

__all__ = ["EXACT", "FAIL", "OPTION", "RULE", "TENS", "TENS_RULE"]

OPTION = option(False, "a side may bid a wheel: 10 or more tricks +200, else -ten_for_200_fail",
                kind=bool)
FAIL = option(200, "what a failed wheel costs", kind=int, minimum=0, maximum=BONUS_MAX)
EXACT = option(False, "a wheel's tricks above 10 count as bags", kind=bool)
TENS = option(False, "every side bid of 10 is a wheel", kind=bool)


def score(at) -> None:
    """10 tricks or more: +200, else ``-ten_for_200_fail``; under ``ten_for_200_exact`` the
    tricks above 10 are bags."""
    at.score(WHEEL, at.taken >= 10, 200, -at.rules.ten_for_200_fail)
    if at.rules.ten_for_200_exact:
        at.bags = np.where(at.code == WHEEL, np.maximum(at.taken - 10, 0), at.bags)


def tens(codes, ordinary, is_nil, table) -> np.ndarray:
    """A side without a contract whose ordinary bids total 10, none of them nil, bid a wheel."""
    no_nil = table.per_side(is_nil.astype(np.int32)) == 0
    return np.where((codes == 0) & (table.per_side(ordinary) == 10) & no_nil, WHEEL, codes)


RULE = HouseRule(key="ten_for_two_hundred", section="§4.4",
                 in_force=lambda r: r.ten_for_two_hundred, contracts={WHEEL: "sighted"},
                 contract=score)
TENS_RULE = HouseRule(key="tens_are_wheels", section="§4.4",
                      in_force=lambda r: r.tens_are_wheels, bid_contract=tens)
