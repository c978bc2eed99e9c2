"""RULES.md §4.6 ``last_trick_ace``, the whole rule: "the last trick won by an ace: 10 (the ace of
spades 20)". A trick bonus: `bonus` (`sim.spades.plugin.HouseRule.trick_bonus`).
"""

from __future__ import annotations

import numpy as np

from ...cards import SPADES
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "the last trick won by an ace: 10 (the ace of spades 20)", kind=bool)
ACE = 12  # natural ranks 2..A = 0..12


def bonus(tricks, facts) -> None:
    """The last trick won by an ace: 10 to its winner, 20 for the ace of spades."""
    suit, rank = tricks.suit[:, -1], tricks.rank[:, -1]
    tricks.award(tricks.win_last, np.where(rank == ACE, np.where(suit == SPADES, 20, 10), 0))


RULE = HouseRule(key="last_trick_ace", section="§4.6", in_force=lambda r: r.last_trick_ace,
                 trick_bonus=bonus)
