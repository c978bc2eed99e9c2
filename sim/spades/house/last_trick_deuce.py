"""RULES.md §4.6 ``last_trick_deuce``, the whole rule: "the last trick won by a non-spade 2: 30". A
trick bonus: `bonus` (`sim.spades.plugin.HouseRule.trick_bonus`).
"""

from __future__ import annotations

from ...cards import SPADES
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "the last trick won by a non-spade 2: 30", kind=bool)
DEUCE = 0  # natural ranks 2..A = 0..12


def bonus(tricks, facts) -> None:
    """The last trick won by a 2 that is not a spade: 30 to its winner."""
    suit, rank = tricks.suit[:, -1], tricks.rank[:, -1]
    tricks.award(tricks.win_last, 30 * ((rank == DEUCE) & (suit != SPADES)))


RULE = HouseRule(key="last_trick_deuce", section="§4.6", in_force=lambda r: r.last_trick_deuce,
                 trick_bonus=bonus)
