"""RULES.md §4.6 ``last_trick_bonus``, the whole rule: "10 to the winner of the last trick". A
trick bonus: `bonus` (`sim.spades.plugin.HouseRule.trick_bonus`).
"""

from __future__ import annotations

from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "10 to the winner of the last trick", kind=bool)


def bonus(tricks, facts) -> None:
    """10 to the last trick's winner."""
    tricks.award(tricks.win_last, 10)


RULE = HouseRule(key="last_trick_bonus", section="§4.6", in_force=lambda r: r.last_trick_bonus,
                 trick_bonus=bonus)
