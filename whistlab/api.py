"""The Python API for notebooks: run an experiment, or simulate quickly, and get DataFrames back.

    >>> import sim
    >>> hands = whistlab.simulate(rules="spades.short", strategy="random", hands=10_000, seed=1)
    >>> hands.group_by("dealer").agg(pl.col("points_0").mean())
    >>> folder = whistlab.run("experiments/nil.toml", out="results/nil", n_jobs=2)
    >>> lazy = whistlab.load(folder)             # a polars LazyFrame over every block of every cell
    >>> games = whistlab.load(folder, "games")

`simulate` runs in a temporary folder and returns the whole table in memory (use it for quick
looks); `run` writes a results folder exactly as ``whistlab run`` does and `load` reads it lazily,
so that queries over millions of hands stream.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl

from reports.data import scan_blocks
from sim.errors import UserError

from .experiment import Experiment, build_experiment, check_size, load_experiment, with_overrides
from .runner import run_experiment

__all__ = ["load", "run", "simulate"]


def _argument(key: str) -> str:
    return f"argument {key}"


def run(experiment: str | Path | Mapping[str, Any] | Experiment, out: str | Path,
        n_jobs: int = -1, backend: str = "loky", scheduler: str | None = None,
        progress: bool = False, **overrides) -> Path:
    """Run an experiment (a TOML file, a table of its keys, or an `Experiment`) into ``out``;
    keyword arguments override the file's keys (``hands=``, ``games=``, ``seed=``, ``rules=``,
    ``strategy=``, ``block_size=``). Resumes a run that was interrupted. Returns ``out``."""
    if isinstance(experiment, Experiment):
        if overrides:
            raise UserError(f"overrides ({', '.join(overrides)}) apply to an experiment file or "
                            "table, not to an Experiment value")
        exp = experiment
        check_size(exp)  # built in Python: its sizes were not checked yet (sim/limits.py)
    elif isinstance(experiment, Mapping):
        exp = build_experiment(with_overrides(experiment, overrides), "experiment table",
                               given={key: _argument(key) for key in overrides})
    else:
        exp = load_experiment(experiment, overrides, named=_argument)
    return run_experiment(exp, out, n_jobs=n_jobs, progress=progress, backend=backend,
                          scheduler=scheduler)


def load(results: str | Path, table: str = "hands") -> pl.LazyFrame:
    """A table of a results folder as a polars LazyFrame (``table``: "hands" or "games"), with
    every column of its game: a column the rules of a variant do not bring (docs/SCHEMA.md,
    "written") holds the value it has there (`reports.data.scan_blocks`)."""
    folder = Path(results) / table
    files = sorted(folder.glob("*.parquet")) if folder.is_dir() else []
    if not files:
        raise UserError(f"has no {table} table (is it a results folder of whistlab run?)",
                        source=str(results))
    try:
        manifest = json.loads((Path(results) / "manifest.json").read_text(encoding="utf-8"))
        game = manifest["experiment"]["cells"][0]["rules"]["game"]
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        raise UserError("has no readable manifest.json (is it a results folder of whistlab "
                        "run?)", source=str(results)) from None
    return scan_blocks(files, game)


def simulate(rules="spades.standard", strategy="seed", *, hands: int | None = None,
             games: int | None = None, seed: int = 0, block_size: int | None = None,
             n_jobs: int = 1, table: str = "hands") -> pl.DataFrame:
    """Simulate one cell and return its ``hands`` (or ``games``) table as a DataFrame.

    ``rules``: a preset, a rules file or a table of keys; ``strategy``: a name, a table with
    parameters or a list of four seats. Give ``hands`` (independent hands) or ``games``;
    ``block_size`` by default the mode's (`whistlab.experiment.BLOCK_SIZES`)."""
    if (hands is None) == (games is None):
        raise UserError("give either hands= or games=")
    count = {"hands": hands} if hands is not None else {"games": games}
    with tempfile.TemporaryDirectory(prefix="whistlab-") as tmp:
        sizes = {} if block_size is None else {"block_size": block_size}
        run({"name": "simulate"}, tmp, n_jobs=n_jobs, rules=rules, strategy=strategy, seed=seed,
            **sizes, **count)
        return load(tmp, table).collect()
