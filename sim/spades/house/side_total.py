"""What ``moon`` and ``lexington`` (RULES.md §4.4) share: a side's bids totalling a number of
tricks, banned after another side's double nil, and winning the game at once when taken."""

from __future__ import annotations

import numpy as np

from ..bidmasks import MASK, bit, others_all

__all__ = ["ban_total", "win_total"]


def ban_total(at, rules, total: int) -> np.ndarray:
    """After another side's double nil (partners only), the second partner's bid making the
    side's total ``total`` (after a partner's half, two halves make a trick; a nil makes no
    total)."""
    if not at.pairs:
        return np.zeros(at.seat.shape, MASK)
    after_double_nil = at.second & others_all(at.bids == 0, at.seat, rules.table)
    makes = after_double_nil & (at.partner > 0) & (at.partner + at.halved < total)
    return np.where(makes, bit(total - at.partner - at.halved), 0).astype(MASK)


def win_total(tally, facts, total: int) -> None:
    """A side whose bids (no nil) total ``total`` and that took as many tricks or more wins the
    game at once (``wins_game``)."""
    no_nil = facts.side(facts.is_nil.astype(np.int32)) == 0
    won = no_nil & (facts.bid == total) & (facts.side(facts.tricks) >= total)
    for side in range(facts.table.sides):
        tally.wins_game[won[:, side]] = side
