"""The tidy tables of a Norwegian whist block: ``hands`` (one row per hand) and ``games`` (one per
game). Documented in docs/SCHEMA.md. Seats 0..P-1; sides are the players themselves with 2 or 3
players and the partnerships (side 0 = seats 0 and 2) in the classic game."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ..blocks import BlockResult, finish_tables, stacked

__all__ = ["block_tables", "missing_columns", "written"]


def block_tables(result: BlockResult, game_offset: int) -> tuple[pa.Table, pa.Table | None]:
    outs = result.outcomes
    auction = {name: stacked(outs, lambda o, n=name: getattr(o.auction, n))
               for name in ("declarations", "declarer", "contract", "grand_player", "forced",
                            "leader")}
    tricks = stacked(outs, lambda o: o.play.tricks)
    points = stacked(outs, lambda o: o.score.points)
    doubled = stacked(outs, lambda o: o.score.doubled)
    after = stacked(outs, lambda o: o.scores_after)
    players, sides = tricks.shape[1], points.shape[1]
    cols: dict[str, np.ndarray] = {
        "game_id": result.game.astype(np.int64) + game_offset,
        "hand_no": result.hand_no.astype(np.int16),
        "dealer": result.dealer.astype(np.int8),
    }
    for seat in range(players):
        cols[f"declaration_{seat}"] = auction["declarations"][:, seat]
    for name in ("declarer", "contract", "grand_player", "leader"):
        cols[name] = auction[name].astype(np.int8)
    cols["forced"] = auction["forced"]
    for seat in range(players):
        cols[f"tricks_{seat}"] = tricks[:, seat]
    cols["doubled"] = doubled
    for side in range(sides):
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
