"""RULES.md §4.4 ``team_nil``, the whole rule: "a side (not a player) bids to take no trick: success
+100, any trick -100; the side takes no bags that hand".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field; a key of partners, RULES.md §4.7:
  `sim.spades.rules.PARTNERSHIP_KEYS`);
- the declaration: the side contract ``TEAM_NIL`` of `sim.spades.contracts`, offered to a side's
  first bidder after he looks (``contracts``, the stage ``"sighted"``);
- the score: `score`, its ``contract`` (the side's contract, no bags).

What is still outside the module: how a side declares a contract and what it replaces
(`sim.spades.contracts`, the bidding's turn steps, views, records and replay, the column
``side_contract_<side>``), the refusals of partnership bidding and the auction, which name it,
and the players' answer (`strategies/seed.py`).
"""

from __future__ import annotations

from ...options import option
from ..contracts import TEAM_NIL
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "a side may bid to take no trick: +100, else -100; no bags", kind=bool)


def score(at) -> None:
    """No trick: +100; any: -100."""
    at.score(TEAM_NIL, at.taken == 0, 100)


RULE = HouseRule(key="team_nil", section="§4.4", in_force=lambda r: r.team_nil,
                 contracts={TEAM_NIL: "sighted"}, contract=score)
