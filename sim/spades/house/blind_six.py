"""RULES.md §4.4 ``blind_six``, the whole rule: "a side may declare, before either partner looks,
to take exactly 6 tricks: +120, else -120. ``blind_six_at_least``: at least 6, overtricks not
scored, failure -60".

- the keys: `OPTION` and `AT_LEAST` (`sim.spades.rules.SpadesRules` fields);
- the declaration: the side contract ``BLIND_SIX`` of `sim.spades.contracts`, offered to a side's
  first bidder before he looks (``contracts``, the stage ``"blind"``);
- the score: `score`, its ``contract`` (no bags).

What is still outside the module: how a side declares a contract and what it replaces
(`sim.spades.contracts`, the bidding's turn steps, views, records and replay, the column
``side_contract_<side>``), the refusal of ``blind_six_at_least`` without the key (a rule that is
off runs none of its parts) and the auction's, and the players' answer (`strategies/seed.py`).
"""

from __future__ import annotations

from ...options import option
from ..contracts import BLIND_SIX
from ..plugin import HouseRule

__all__ = ["AT_LEAST", "OPTION", "RULE"]

OPTION = option(False, "before looking, a side may bid exactly 6 tricks: +120, else -120",
                kind=bool)
AT_LEAST = option(False, "blind six is 6 or more: +120, else -60", kind=bool)


def score(at) -> None:
    """Exactly 6 tricks: +120, else -120; ``blind_six_at_least``: 6 or more +120, else -60."""
    if at.rules.blind_six_at_least:
        at.score(BLIND_SIX, at.taken >= 6, 120, -60)
    else:
        at.score(BLIND_SIX, at.taken == 6, 120)


RULE = HouseRule(key="blind_six", section="§4.4", in_force=lambda r: r.blind_six,
                 contracts={BLIND_SIX: "blind"}, contract=score)
