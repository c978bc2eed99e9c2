"""The tidy tables of a Portland block: ``hands`` (one row per hand) and ``games`` (one per game).

Documented in docs/SCHEMA.md. Seats 0..3, sides 0 (seats 0 and 2) and 1 (seats 1 and 3).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ..blocks import BlockResult, finish_tables, stacked
from .scoring import COMPONENTS

__all__ = ["block_tables", "missing_columns", "written"]


def block_tables(result: BlockResult, game_offset: int) -> tuple[pa.Table, pa.Table | None]:
    outs = result.outcomes
    trump = stacked(outs, lambda o: o.trump)
    tricks = stacked(outs, lambda o: o.play.tricks)
    honours = stacked(outs, lambda o: o.honours)
    after = stacked(outs, lambda o: o.scores_after)
    parts = {name: stacked(outs, lambda o, n=name: getattr(o.score, n)) for name in COMPONENTS}
    points = sum(parts.values())
    cols: dict[str, np.ndarray] = {
        "game_id": result.game.astype(np.int64) + game_offset,
        "hand_no": result.hand_no.astype(np.int16),
        "game_no": result.game_no.astype(np.int8),
        "dealer": result.dealer.astype(np.int8),
        "trump": trump.astype(np.int8),
        "turn_up": np.where(trump >= 0, result.turn_up, -1).astype(np.int8),
    }
    for seat in range(4):
        cols[f"tricks_{seat}"] = tricks[:, seat]
    for side in range(2):
        cols[f"honours_{side}"] = honours[:, side]
        for name in COMPONENTS:
            cols[f"{name}_{side}"] = parts[name][:, side].astype(np.int16)
        cols[f"points_{side}"] = points[:, side].astype(np.int16)
        cols[f"score_{side}"] = after[:, side].astype(np.int32)
    return finish_tables(cols, result, game_offset)


def missing_columns(names) -> dict:
    """The columns a table lacks because its rules do not bring them: none (every column of this
    game is written under every rules; Spades' `sim.spades.tables.missing_columns`)."""
    return {}


def written(hands, rules):
    """The ``hands`` table as it is written: whole (no column of this game is a rule's)."""
    return hands
