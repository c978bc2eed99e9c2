"""RULES.md §4.6 ``dix``, the whole rule: "the trick won by 9S: 10 if spades were led, else 5 if
another spade is in it, else 1". A trick bonus: `bonus`
(`sim.spades.plugin.HouseRule.trick_bonus`).
"""

from __future__ import annotations

import numpy as np

from ...cards import SPADES
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "the trick won by 9S: 10 if spades were led, else 5 if another "
                "spade is in it, else 1", kind=bool)


def bonus(tricks, facts) -> None:
    """Each trick won by 9♠ (any trick, not only the last): 10 if spades were led, else 5
    if another spade is in it, else 1."""
    spades_led = tricks.suit_of[tricks.cards[:, :, 0]] == SPADES
    other_spade = (tricks.suit_of[tricks.cards] == SPADES).sum(axis=2) >= 2
    value = np.where(spades_led, 10, np.where(other_spade, 5, 1))
    tricks.award(tricks.winners, value * (tricks.winning == tricks.nine))


RULE = HouseRule(key="dix", section="§4.6", in_force=lambda r: r.dix,
                 trick_bonus=bonus)
