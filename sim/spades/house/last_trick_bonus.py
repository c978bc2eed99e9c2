"""RULES.md §4.6 ``last_trick_bonus``, the whole rule: "10 to the winner of the last trick".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the score: `bonus`, a trick bonus (the plug-in's ``trick_bonus``: points per seat on the hand's
  `sim.spades.scoring.TrickCards`, to the side of the player who earns them; the
  ``trick_bonus_<side>`` column); scored from the cards of the tricks, so not on a score
  sheet.
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
