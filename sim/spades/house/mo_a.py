"""RULES.md §4.4 ``mo_a`` (Big & Little Mo), the whole rule: "a side may declare Big Mo (win 8
tricks in a row at some point in the hand; +300) or Little Mo (6 in a row; +150); an opponents'
trick resets the run; failure scores the negative value; bags don't count that hand".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the declaration: the side contracts ``LITTLE_MO`` and ``BIG_MO`` of `sim.spades.contracts`,
  offered to a side's first bidder after he looks (``contracts``, the stage ``"sighted"``);
- the score: `score`, its ``contract``, from the order of the tricks (refused on a score sheet
  that declares one).

What is still outside the module: how a side declares a contract and what it replaces
(`sim.spades.contracts`, the bidding's turn steps, views, records and replay, the column
``side_contract_<side>``), the refusal of ``mo_a`` with ``mo_b`` (two keys' choice) and the
auction's, and the players' answer (`strategies/seed.py`).
"""

from __future__ import annotations

from ...options import option
from ..contracts import BIG_MO, LITTLE_MO, longest_run
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "a side may declare Little Mo (6 tricks in a row, 150) or Big Mo (8 in a "
                "row, 300); no bags", kind=bool)


def score(at) -> None:
    """A run of 6 (8) tricks at some point: +150 (+300), else -150 (-300)."""
    if at.played((LITTLE_MO, BIG_MO), "Mo"):
        run = longest_run(at.won)
        at.score(LITTLE_MO, run >= 6, 150)
        at.score(BIG_MO, run >= 8, 300)


RULE = HouseRule(key="mo_a", section="§4.4", in_force=lambda r: r.mo_a,
                 contracts={LITTLE_MO: "sighted", BIG_MO: "sighted"}, contract=score)
