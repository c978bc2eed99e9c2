"""RULES.md §4.6 ``last_trick_ace_nil``, the whole rule: "a nil bidder who plays an ace to the last
trick: nil_bonus / 5". A trick bonus: `bonus` (`sim.spades.plugin.HouseRule.trick_bonus`).
Refused where nobody bids nil (`refuse`).
"""

from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "a nil bidder who plays an ace to the last trick: nil_bonus / 5", kind=bool)
ACE = 12  # natural ranks 2..A = 0..12


def bonus(tricks, facts) -> None:
    """Each nil bidder who plays an ace to the last trick: nil_bonus / 5 (won or not)."""
    rows = np.arange(facts.n)
    aces = tricks.rank_of[tricks.cards[:, -1]] == ACE
    nil_seat = facts.is_nil[rows[:, None], tricks.seats[:, -1]]
    tricks.award(tricks.seats[:, -1], facts.rules.nil_bonus // 5 * (aces & nil_seat))


def refuse(rules) -> UserError | None:
    """Nobody bids nil (``nil = false``, ``partnership_bidding``, ``auction``): no effect."""
    if rules.nilless is not None:
        return UserError(f"last_trick_ace_nil has no effect with {rules.nilless}: nobody bids "
                         "nil", key="last_trick_ace_nil")
    return None


RULE = HouseRule(key="last_trick_ace_nil", section="§4.6", in_force=lambda r: r.last_trick_ace_nil,
                 trick_bonus=bonus, refuse=refuse)
