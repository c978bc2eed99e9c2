"""Portland whist scoring (RULES.md §1): one pure, vectorised function of named parts.

Inputs per seat ``[N, 4]``, outputs per side ``[N, 2]`` (side 0 = seats 0 and 2).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .rules import PortlandRules

__all__ = ["COMPONENTS", "HandScore", "score_hands"]

COMPONENTS = ("trick_points", "honours_points")  # the parts of `points`
HONOUR_POINTS = np.array([0, 0, 0, 2, 4], dtype=np.int32)  # by honours held: 3 -> 2, 4 -> 4


@dataclass(frozen=True, eq=False)
class HandScore:
    """int32[N, 2] per side: trick points, honours points (0 when not counted), their sum."""

    trick_points: np.ndarray
    honours_points: np.ndarray

    @property
    def points(self) -> np.ndarray:
        return self.trick_points + self.honours_points

    def components(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in COMPONENTS}


def score_hands(tricks: np.ndarray, honours: np.ndarray, scores_before: np.ndarray,
                rules: PortlandRules) -> HandScore:
    """tricks: int8[N, 4] per seat; honours: int8[N, 2] honours (A K Q J of trump) each side
    held at the deal; scores_before: int[N, 2]."""
    side_tricks = np.stack([tricks[:, 0] + tricks[:, 2], tricks[:, 1] + tricks[:, 3]], axis=1)
    trick_points = _over_book(side_tricks.astype(np.int32), rules)
    return HandScore(trick_points=trick_points,
                     honours_points=_honours(honours, trick_points, scores_before, rules))


def _over_book(side_tricks, rules):
    """One point for every trick over the book; a side at or below it scores 0."""
    return np.maximum(0, side_tricks - rules.book)


def _honours(honours, trick_points, scores_before, rules):
    """4 honours score 4, 3 score 2, a 2-2 split nothing. Not counted: without the honours rule;
    for a side at or above ``honours_barred_at`` before the hand (reading: the score before the
    hand); and under ``honours_order = "tricks_first"`` when the trick points end the game."""
    if not rules.honours:
        return np.zeros_like(trick_points)
    points = HONOUR_POINTS[honours]
    if rules.honours_barred_at is not None:
        points = points * (scores_before < rules.honours_barred_at)
    if rules.honours_order == "tricks_first":
        after = scores_before + trick_points  # the game ends as in `game_over`: ties play on
        ended = (after >= rules.target_score).any(axis=1) & (after[:, 0] != after[:, 1])
        points = points * ~ended[:, None]
    return points.astype(np.int32)
