"""RULES.md §4.6 ``last_trick_high_spade``, the whole rule: "the last trick won by 9S or higher by
a player who took exactly his bid: 10". A trick bonus: `bonus`
(`sim.spades.plugin.HouseRule.trick_bonus`).
"""

from __future__ import annotations

import numpy as np

from ...cards import SPADES
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "the last trick won by 9S or higher by a player who took "
                "exactly his bid: 10", kind=bool)


def bonus(tricks, facts) -> None:
    """The last trick won by 9♠ or a higher spade by a player who took exactly his own bid
    (not a side contract's or a joint bid's partner): 10."""
    rows, win_last, last = np.arange(facts.n), tricks.win_last, tricks.last
    exact = facts.tricks[rows, win_last] == facts.bids[rows, win_last]
    own_bid = facts.declared[rows, win_last]
    high = (tricks.suit_of[last] == SPADES) & (last >= tricks.nine)  # 9S or a higher spade
    tricks.award(win_last, 10 * (high & exact & own_bid))


RULE = HouseRule(key="last_trick_high_spade", section="§4.6", in_force=lambda r: r.last_trick_high_spade,
                 trick_bonus=bonus)
