"""RULES.md §4.4 ``team_blind_nil``, the whole rule: "a side (not a player) bids to take no trick:
success +150, any trick -150; the side takes no bags that hand. Team blind nil is bid before
either partner looks".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field; a key of partners, RULES.md §4.7:
  `sim.spades.rules.PARTNERSHIP_KEYS`);
- the declaration: the side contract ``TEAM_BLIND_NIL`` of `sim.spades.contracts`, offered to a
  side's first bidder before he looks (``contracts``, the stage ``"blind"``);
- the score: `score`, its ``contract`` (the side's contract, no bags).

What is still outside the module: how a side declares a contract and what it replaces
(`sim.spades.contracts`, the bidding's turn steps, views, records and replay, the column
``side_contract_<side>``), the refusals of partnership bidding and the auction, which name it,
and the players' answer (`strategies/seed.py`).
"""

from __future__ import annotations

from ...options import option
from ..contracts import TEAM_BLIND_NIL
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "team nil before either partner looks: +150, else -150", kind=bool)


def score(at) -> None:
    """No trick: +150; any: -150."""
    at.score(TEAM_BLIND_NIL, at.taken == 0, 150)


RULE = HouseRule(key="team_blind_nil", section="§4.4", in_force=lambda r: r.team_blind_nil,
                 contracts={TEAM_BLIND_NIL: "blind"}, contract=score)
