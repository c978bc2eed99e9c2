"""RULES.md §4.8 ``defeat_score``, the whole rule: "a side at or below -target_score loses".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the game's end: `ends_game`, a standing at which the game may end (`sim.spades.game.game_over`:
  it then ends unless the scores are tied, the higher score winning);
- the refusal: without a ``target_score`` (`refuse`).
"""

from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "a side at or below -target_score loses", kind=bool)


def ends_game(scores: np.ndarray, rules) -> np.ndarray:
    """bool[N]: a side is at or below -target_score."""
    return (scores <= -rules.target_score).any(axis=1)


def refuse(rules) -> UserError | None:
    """The defeat score is -target_score: a game without a target has none."""
    if rules.target_score is None:
        return UserError("defeat_score is -target_score: set target_score", key="defeat_score")
    return None


RULE = HouseRule(key="defeat_score", section="§4.8", in_force=lambda r: r.defeat_score,
                 ends_game=ends_game, refuse=refuse)
