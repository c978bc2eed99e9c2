"""Run an experiment cell by cell and block by block, in parallel, into Parquet tables.

Output layout of a run folder::

    manifest.json                                  the experiment, versions and seeds
    hands/part-<variant>-<lineup>-00000.parquet …  one file per cell and block, zstd: `hands`
    games/part-<variant>-<lineup>-00000.parquet …  the `games` table (whole-game runs only)

(``-swapped`` follows the line-up for a line-up played with the sides' seats exchanged.)

A block's contents depend only on the experiment, its cell and its index (see `sim.spades.game`),
so ``n_jobs``, the order in which blocks finish and the backend (joblib's processes here, or a Dask
cluster) never change a byte. Workers return a block's finished Parquet files as bytes and this
process writes each under a temporary name and renames it, so a block file is whole or absent:
an interrupted run (even ``kill -9``) loses only the blocks in flight, and the same command
finishes it. Memory does not grow with the number of hands: blocks stream through.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import joblib
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from . import __version__
from .errors import UserError
from .experiment import Cell, Experiment
from .games import game_of
from .lineup import Lineup

__all__ = ["block_path", "run_block", "run_experiment", "simulate_block", "write_block"]

TABLES = ("hands", "games")
LABELS = ("variant", "lineup")  # string columns: dictionary pages in Parquet, strings when read


def block_path(out: Path, table: str, cell: Cell, block: int) -> Path:
    return Path(out) / table / f"part-{cell.key}-{block:05d}.parquet"


def _lineup(cell: Cell) -> Lineup:
    from strategies import make_strategy

    made = {}  # one object per distinct spec, so equal seats share one batched call
    game = cell.rules.game
    return Lineup([made.setdefault(json.dumps(s, sort_keys=True), make_strategy(s, game=game))
                   for s in cell.seats])


def simulate_block(exp: Experiment, cell: Cell, block: int):
    """The block's result (see `sim.spades.game.play_block`) and its first global game id."""
    size = exp.block_sizes()[block]
    offset = block * exp.block_size
    result = game_of(cell.rules).play_block(cell.rules, _lineup(cell), exp.seed, block, size,
                                            exp.mode, hand_offset=offset)
    return result, offset


def _labelled(table: pa.Table, cell: Cell) -> pa.Table:
    n = table.num_rows
    front = {"variant": pa.array([cell.variant] * n, pa.string()),
             "lineup": pa.array([cell.lineup] * n, pa.string()),
             "swapped": pa.array(np.full(n, cell.swapped))}
    for i, (name, col) in enumerate(front.items()):
        table = table.add_column(i, name, col)
    return table


def _parquet(table: pa.Table, metadata: dict) -> bytes:
    meta = dict(table.schema.metadata or {})
    meta[b"whistlab"] = json.dumps(metadata).encode()
    sink = io.BytesIO()
    # zstd level 1, dictionary pages only for the labels, statistics only on the id columns:
    # small integer columns compress as well and the write costs less than half the default's.
    pq.write_table(table.replace_schema_metadata(meta), sink, compression="zstd",
                   compression_level=1, use_dictionary=list(LABELS),
                   write_statistics=[c for c in ("game_id", "hand_no") if c in table.column_names])
    return sink.getvalue()


def run_block(exp: Experiment, c: int, block: int, records: bool = False):
    """Simulate block ``block`` of cell ``c``; returns ``(c, block, files)``: each finished
    file's bytes by table name (``"records"``: the hand records as JSON Lines)."""
    cell = exp.cells[c]
    result, offset = simulate_block(exp, cell, block)
    hands, games = game_of(cell.rules).block_tables(result, offset)
    meta = {"experiment": exp.to_dict(), "cell": c, "block": block, "version": __version__}
    out = {"hands": _parquet(_labelled(hands, cell), meta)}
    if games is not None:
        out["games"] = _parquet(_labelled(games, cell), meta)
    if records:
        lines = (json.dumps(r, separators=(",", ":")) + "\n"
                 for r in game_of(cell.rules).block_records(result, cell, offset))
        out["records"] = "".join(lines).encode()
    return c, block, out


def _atomic_write(data: bytes, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)  # atomic: the file is whole or absent


def write_block(files: dict[str, bytes], out: Path, cell: Cell, block: int) -> None:
    """Write one block's files; `hands` last, because its presence marks the block done."""
    if "records" in files:
        _atomic_write(files["records"], out / "records" / f"part-{cell.key}-{block:05d}.jsonl")
    if "games" in files:
        _atomic_write(files["games"], block_path(out, "games", cell, block))
    _atomic_write(files["hands"], block_path(out, "hands", cell, block))


def _manifest(exp: Experiment) -> dict:
    return {"experiment": exp.to_dict(),
            "seeds": {"root": exp.seed, "deals": "SeedSequence(root, spawn_key=(1, block, "
                      "hand_no, group))", "play": "SeedSequence(root, spawn_key=(2, block))"},
            "versions": {"whistlab": __version__, "numpy": np.__version__,
                         "pyarrow": pa.__version__}}


def _block_done(exp: Experiment, out: Path, c: int, block: int) -> bool:
    """Whether a block's files exist and are whole; a damaged one is reported, not guessed at."""
    cell = exp.cells[c]
    paths = [block_path(out, "hands", cell, block)]
    if exp.mode == "games":
        paths.append(block_path(out, "games", cell, block))
    if not all(p.exists() for p in paths):
        return False  # simulated anew; a lone games or hands file is overwritten
    for path in paths:
        try:
            meta = json.loads(pq.read_schema(path).metadata[b"whistlab"])
            ok = (meta["experiment"] == exp.to_dict() and meta["cell"] == c
                  and meta["block"] == block)
        except Exception:  # any unreadable footer or metadata: the file is not whole
            ok = False
        if not ok:
            raise UserError("is damaged or not a block of this experiment; delete it and run "
                            "again to simulate that block anew", source=str(path))
    return True


@contextlib.contextmanager
def _backend(backend: str, scheduler: str | None, n_jobs: int):
    """joblib's local processes ("loky"), or a Dask cluster ("dask"): the one at ``scheduler``,
    else a local cluster of ``n_jobs`` single-threaded worker processes."""
    if backend == "loky":
        yield n_jobs
        return
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise UserError("--backend dask needs dask.distributed: pip install "
                        "'whistlab[dask]'") from None
    if scheduler:
        client, cluster = Client(scheduler), None
    else:
        workers = n_jobs if n_jobs > 0 else max(1, os.cpu_count() + 1 + n_jobs)  # joblib's
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=":0")  # any free port, never a clash
        client = Client(cluster)
    try:
        with joblib.parallel_config(backend="dask"):
            yield -1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_experiment(exp: Experiment, out: str | Path, n_jobs: int = 1, progress: bool = False,
                   records: bool = False, backend: str = "loky",
                   scheduler: str | None = None) -> Path:
    """Simulate every block not yet on disk. A folder holding another experiment is refused."""
    out = Path(out)
    manifest_path = out / "manifest.json"
    manifest = _manifest(exp)
    if manifest_path.exists():
        try:
            old = json.loads(manifest_path.read_text())["experiment"]
        except (ValueError, KeyError, TypeError, IndexError):
            raise UserError("is not a whistlab manifest; choose another --out folder",
                            source=str(manifest_path)) from None
        if old != manifest["experiment"]:
            raise UserError("holds the results of a different experiment; choose another --out "
                            "folder or delete this one", source=str(out))
    todo = [(c, b) for c in range(len(exp.cells)) for b in range(exp.n_blocks)
            if records or not _block_done(exp, out, c, b)]
    if not manifest_path.exists():
        out.mkdir(parents=True, exist_ok=True)
        _atomic_write(json.dumps(manifest, indent=1).encode(), manifest_path)
    for stale in out.glob("*/.part-*.tmp*"):  # half-written files of an interrupted run
        stale.unlink()
    with _backend(backend, scheduler, n_jobs) as jobs:
        tasks = (joblib.delayed(run_block)(exp, c, b, records) for c, b in todo)
        results = joblib.Parallel(n_jobs=jobs, return_as="generator_unordered")(tasks)
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(todo), unit="block", desc=exp.name)
        for c, block, files in results:  # in order of completion
            write_block(files, out, exp.cells[c], block)
            if bar is not None:
                bar.update()
        if bar is not None:
            bar.close()
    return out
