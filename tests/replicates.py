"""Many small runs of one experiment, in memory, for the coverage tests of the report's intervals
(tests/test_interval_coverage.py).

An experiment of ``count = replicates * size`` games (or hands) in blocks of ``size`` is
``replicates`` independent small runs: each block's deals and choices come from its own streams
(`sim.blocks`), and every cell plays the block's deals. `blocks` plays them with the engine
(`whistlab.runner.simulate_blocks`, the runner's own loop) and yields each block's tables of
every cell as polars frames, labelled as the runner labels them and with every column of the
game's table (as `reports.data.scan_blocks` reads a block back). `results` gives the in-memory
`reports.data.Results` of the experiment that the report's functions take.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import polars as pl

from reports.data import Results
from sim.games import game_of
from whistlab.experiment import Experiment, build_experiment
from whistlab.runner import _labelled, simulate_blocks

__all__ = ["blocks", "experiment", "results"]


def experiment(table: dict) -> Experiment:
    return build_experiment(table, source="<coverage>")


def results(exp: Experiment) -> Results:
    """The experiment as the report sees a results folder of it (no files: the report's block
    functions are fed the frames of `blocks`)."""
    return Results(Path("/nonexistent"), {"experiment": exp.to_dict()})


def _frame(table, cell) -> pl.DataFrame:
    return pl.from_arrow(_labelled(table, cell)).with_columns(
        pl.col("variant", "lineup").cast(pl.String))


def blocks(exp: Experiment, chunk: int = 25) -> Iterator[tuple[int, dict[str, pl.DataFrame]]]:
    """``(block, {"hands": ..., "games": ...})`` for every block of ``exp``, every cell's rows
    together (``games`` None in a run of hands); ``chunk`` blocks of every cell are held at
    once."""
    for first in range(0, exp.n_blocks, chunk):
        wanted = list(range(first, min(first + chunk, exp.n_blocks)))
        held: dict[int, dict[str, list[pl.DataFrame]]] = {b: {"hands": [], "games": []}
                                                          for b in wanted}
        for cell in exp.cells:
            game = game_of(cell.rules)
            for block, result, offset in simulate_blocks(exp, cell, wanted):
                hands, games = game.block_tables(result, offset)
                held[block]["hands"].append(_frame(hands, cell))
                if games is not None:
                    held[block]["games"].append(_frame(games, cell))
        for block in wanted:
            parts = held.pop(block)
            yield block, {"hands": pl.concat(parts["hands"], how="diagonal_relaxed"),
                          "games": (pl.concat(parts["games"], how="diagonal_relaxed")
                                    if parts["games"] else None)}
