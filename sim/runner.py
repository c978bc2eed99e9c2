"""Run an experiment block by block, in parallel, into Parquet tables.

Output layout of a run folder::

    manifest.json                   the experiment (rules, players, seed, block size) and versions
    hands/part-00000.parquet ...    one file per block, zstd; together the `hands` table
    games/part-00000.parquet ...    the `games` table (games mode only)

Every block file is written under a temporary name and renamed when complete, so a file is either
whole or absent. A block's contents depend only on the experiment and its index (see
`sim.spades.game`), so ``n_jobs``, the order in which blocks finish and the backend never change a
byte. Workers write their own files and return only a row count: memory does not grow with the
number of hands.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import joblib
import pyarrow as pa
import pyarrow.parquet as pq

from . import __version__
from .errors import UserError
from .experiment import Experiment
from .lineup import Lineup
from .spades.game import play_block
from .spades.tables import block_tables

__all__ = ["block_path", "run_experiment", "simulate_block"]

TABLES = ("hands", "games")


def block_path(out: Path, table: str, block: int) -> Path:
    return out / table / f"part-{block:05d}.parquet"


def _lineup(exp: Experiment) -> Lineup:
    from strategies import make_strategy

    made = {}  # one object per distinct spec, so equal seats share one batched call
    return Lineup([made.setdefault(json.dumps(s, sort_keys=True), make_strategy(s))
                   for s in exp.lineup])


def simulate_block(exp: Experiment, block: int):
    """The block's result (see `sim.spades.game.play_block`) and its first global game id."""
    size = exp.block_sizes()[block]
    offset = block * exp.block_size
    result = play_block(exp.rules, _lineup(exp), exp.seed, block, size, exp.mode,
                        hand_offset=offset)
    return result, offset


def _write(table: pa.Table, path: Path, metadata: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = dict(table.schema.metadata or {})
    meta[b"whistlab"] = json.dumps(metadata).encode()
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    # zstd level 1 without dictionary pages, statistics only on the id columns: small integer
    # columns compress as well and the write costs less than half as much as with the defaults.
    pq.write_table(table.replace_schema_metadata(meta), tmp, compression="zstd",
                   compression_level=1, use_dictionary=False,
                   write_statistics=[c for c in ("game_id", "hand_no") if c in table.column_names])
    os.replace(tmp, path)  # atomic: the block file is whole or absent


def run_block(exp: Experiment, block: int, out: Path, records: bool = False) -> int:
    result, offset = simulate_block(exp, block)
    hands, games = block_tables(result, offset)
    meta = {"experiment": exp.to_dict(), "block": block, "version": __version__}
    if records:
        from .records import block_records, write_jsonl

        write_jsonl(block_records(result, exp, offset), out / "records" / f"part-{block:05d}.jsonl")
    if games is not None:
        _write(games, block_path(out, "games", block), meta)
    _write(hands, block_path(out, "hands", block), meta)  # written last: marks the block done
    return hands.num_rows


def _manifest(exp: Experiment) -> dict:
    import numpy

    return {"experiment": exp.to_dict(), "versions": {"whistlab": __version__,
                                                       "numpy": numpy.__version__}}


def run_experiment(exp: Experiment, out: str | Path, n_jobs: int = 1, progress: bool = False,
                   records: bool = False) -> Path:
    """Simulate every block not yet on disk. A folder holding another experiment is refused."""
    out = Path(out)
    manifest_path = out / "manifest.json"
    manifest = _manifest(exp)
    if manifest_path.exists():
        old = json.loads(manifest_path.read_text())
        if old["experiment"] != manifest["experiment"]:
            raise UserError("holds the results of a different experiment; choose another --out "
                            "folder or delete this one", source=str(out))
    else:
        out.mkdir(parents=True, exist_ok=True)
        manifest_path.write_text(json.dumps(manifest, indent=1))
    todo = [b for b in range(exp.n_blocks)
            if records or not block_path(out, "hands", b).exists()]
    jobs = (joblib.delayed(run_block)(exp, b, out, records) for b in todo)
    results = joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered")(jobs)
    if progress:
        from tqdm import tqdm

        unit = "games" if exp.mode == "games" else "hands"
        results = tqdm(results, total=len(todo), unit="block", desc=f"{exp.name} ({unit})")
    for _ in results:
        pass
    return out
