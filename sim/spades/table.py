"""Who sits at a Spades table and who plays with whom (RULES.md §4.7).

Seats are 0..P-1 clockwise. A side is a partnership, or one player in games without partners:
side ``k`` of a table is the seats ``members[k]``, and seat ``s`` plays for side ``s mod S`` (S
sides) in every shape the rules allow — the usual partners sit opposite (0 and 2, 1 and 3),
six players' three pairs sit three apart and their two threes alternate.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

__all__ = ["Table"]


@dataclass(frozen=True)
class Table:
    players: int
    sides: int

    @cached_property
    def members(self) -> np.ndarray:
        """intp[S, P / S]: the seats of each side, in seat order (side k: k, k + S, ...)."""
        return np.arange(self.players).reshape(-1, self.sides).T.copy()

    @cached_property
    def side_of(self) -> np.ndarray:
        """int8[P]: each seat's side."""
        return (np.arange(self.players) % self.sides).astype(np.int8)

    @property
    def partnerships(self) -> bool:
        return self.players > self.sides

    @property
    def pairs(self) -> bool:
        """Every side is two partners (the partner of seat s is s + P/2 mod P)."""
        return self.players == 2 * self.sides

    def partner_of(self, seat):
        """The partner's seat, for tables of pairs (four players: ``seat ^ 2``, cheaper than a
        modulo on int8 arrays)."""
        return seat ^ 2 if self.players == 4 else (seat + self.sides) % self.players

    def per_side(self, x: np.ndarray) -> np.ndarray:
        """int32[N, S]: per-seat values ``x`` [N, P] summed over each side's seats."""
        if self.players == self.sides:
            return x.astype(np.int32)
        if self.pairs:
            k = self.sides
            return np.add(x[:, :k], x[:, k:], dtype=np.int32)
        return x[:, self.members].sum(axis=2, dtype=np.int32)

    def opponents(self, a, b):
        """bool: seats ``a`` and ``b`` play for different sides."""
        return (a % self.sides) != (b % self.sides)
