"""RULES.md §4.6 ``end_streak``, the whole rule: "30 to a player who wins the last 3 tricks". A
trick bonus: `bonus` (`sim.spades.plugin.HouseRule.trick_bonus`).
"""

from __future__ import annotations

from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "30 to a player who wins the last 3 tricks", kind=bool)


def bonus(tricks, facts) -> None:
    """30 to the last trick's winner if he won the two before it too."""
    win_last = tricks.win_last
    tricks.award(win_last, 30 * (tricks.winners[:, -3:] == win_last[:, None]).all(axis=1))


RULE = HouseRule(key="end_streak", section="§4.6", in_force=lambda r: r.end_streak,
                 trick_bonus=bonus)
