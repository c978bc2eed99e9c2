"""Run an experiment cell by cell and block by block, in parallel, into Parquet tables.

Output layout of a run folder::

    manifest.json                                  the experiment, versions, seeds, code fingerprint
    journal.jsonl                                  every block file's SHA-256 (`sim.folder`)
    lock                                           held by the run while it writes (`sim.folder`)
    hands/part-<variant>-<lineup>-00000.parquet …  one file per cell and block, zstd: `hands`
    games/part-<variant>-<lineup>-00000.parquet …  the `games` table (whole-game runs only)
    records/sample-<variant>-<lineup>.jsonl …      each cell's sample: the hand records of the
                                                   first `SAMPLE` hands of its block 0
    records/part-<variant>-<lineup>-00000.jsonl …  every hand's record (``records=True`` only)

(``-swapped`` follows the line-up for a line-up played with the sides' seats exchanged.)

A block's contents depend only on the experiment, its cell and its index (see `sim.spades.game`),
so ``n_jobs``, the order in which blocks finish and the backend (joblib's processes here, or a Dask
cluster) never change a byte. Workers return a block's finished Parquet files as bytes and this
process writes each under a temporary name, journals its checksum and renames it, so a block file
is whole or absent: an interrupted run (even ``kill -9``) loses only the blocks in flight, and the
same command finishes it. Memory does not grow with the number of hands: blocks stream through.

The run holds the folder's lock from its first look at the folder to its last write, and before
simulating anything it checks what the folder holds (`_plan`): the same experiment, made by the
same code (a SHA-256 of ``sim/`` and ``strategies/``), every block file as the journal has it.
A damaged or foreign block file is refused by name rather than simulated anew: something changed
it that the user should know of, and deleting it is the one-line fix. A folder without any block
file (a run that failed before its first block) is taken over by the next command.

Every run writes a sample of hand records (RULES.md §5), so that a report can draw hands
(`reports.hands`): for each cell the records of the first `SAMPLE` hands of block 0 in the order
of its hands table (``game_id``, ``hand_no``). Block 0 is the same whatever ``n_jobs`` or the
blocks played with it, so the sample is too; only those hands' records are built. The sample is
one of block 0's files: written, journaled and verified as its tables are, and block 0 is done
only when its hands file and its sample are both on disk; a sample of a block 0 not done (a
run killed between its renames) is removed when the next run starts. The tables do not change:
the sample is built from the block's result after its tables.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from reports.tallies import block_tallies
from sim import __version__, arrow
from sim.errors import UserError
from sim.files import atomic_write, remove_stale, temporary, writing
from sim.folder import (
    JOURNAL,
    MANIFEST,
    TABLE_DIRS,
    append_journal,
    block_files,
    check_outside,
    code_fingerprint,
    compact_journal,
    describe_code,
    digest,
    lock_folder,
    read_journal,
    sample_files,
    verify_files,
)
from sim.games import game_of
from sim.lineup import Lineup
from sim.options import rules_to_dict
from sim.records import collect_records
from strategies import make_strategy

from .experiment import Cell, Experiment
from .workers import processes

__all__ = ["BlockFiles", "block_path", "run_block", "run_blocks", "run_chain", "run_experiment",
           "simulate_block", "simulate_blocks", "write_block"]

TABLES = ("hands", "games")
SAMPLE = 64  # hands of each cell's block 0 whose records every run writes (the sample)


def sample_path(out: Path, cell: Cell) -> Path:
    """Where a cell's sample of records is (`SAMPLE`)."""
    return Path(out) / "records" / f"sample-{cell.key}.jsonl"


def block_path(out: Path, table: str, cell: Cell, block: int) -> Path:
    return Path(out) / table / f"part-{cell.key}-{block:05d}.parquet"


def _lineup(cell: Cell) -> Lineup:
    made = {}  # one object per distinct spec, so equal seats share one batched call
    game = cell.rules.game
    return Lineup([made.setdefault(json.dumps(s, sort_keys=True), make_strategy(s, game=game))
                   for s in cell.seats])


def simulate_block(exp: Experiment, cell: Cell, block: int):
    """The block's result (see `sim.spades.game.play_block`) and its first global game id."""
    ((_, result, offset),) = simulate_blocks(exp, cell, [block])
    return result, offset


def simulate_blocks(exp: Experiment, cell: Cell, blocks: list[int]):
    """Each of ``blocks``' ``(block, result, first global game id)`` as it ends, whole games
    of the next block starting while the last games of those in play still play
    (`sim.blocks.play_blocks`: every result is the block's alone)."""
    sizes = exp.block_sizes()
    which = [(b, sizes[b], b * exp.block_size) for b in blocks]
    for block, result in game_of(cell.rules).play_blocks(cell.rules, _lineup(cell), exp.seed,
                                                         which, exp.mode):
        yield block, result, block * exp.block_size


def _labelled(table: pa.Table, cell: Cell) -> pa.Table:
    n = table.num_rows
    front = {"variant": arrow.repeated(cell.variant, n), "lineup": arrow.repeated(cell.lineup, n),
             "swapped": arrow.array(np.full(n, cell.swapped))}
    for i, (name, col) in enumerate(front.items()):
        table = table.add_column(i, name, col)
    return table


def _parquet(table: pa.Table, metadata: dict) -> bytes:
    meta = dict(table.schema.metadata or {})
    meta[b"whistlab"] = json.dumps(metadata).encode()
    sink = io.BytesIO()
    # zstd level 1; dictionary pages for the labels and the small numbers (bids, tricks, points
    # ...), not for the cards (bitboards, all distinct), game_id delta-encoded (it counts up);
    # statistics only on the id columns: the write costs less than half the default's, and the
    # dictionaries make the file 15% smaller than plain pages would.
    names = table.column_names
    plain = {f.name for f in table.schema if f.type == pa.uint64()} | {"game_id"}
    pq.write_table(table.replace_schema_metadata(meta), sink, compression="zstd",
                   compression_level=1, use_dictionary=[c for c in names if c not in plain],
                   column_encoding={"game_id": "DELTA_BINARY_PACKED"} if "game_id" in names
                   else None,
                   write_statistics=[c for c in ("game_id", "hand_no") if c in names])
    return sink.getvalue()


class BlockFiles(dict):
    """A block's finished files, bytes by table name, and ``code``: the fingerprint of the code
    that made them (`sim.folder.code_fingerprint`, also in each file's metadata)."""

    code: dict | None = None


def run_block(exp: Experiment, c: int, block: int, records: bool = False):
    """Simulate block ``block`` of cell ``c``; returns ``(c, block, files)``: each finished
    file's bytes by table name (``"records"``: the hand records as JSON Lines; ``"sample"``,
    block 0 only: the first `SAMPLE` of them), a `BlockFiles`."""
    ((_, _, files),) = run_blocks(exp, c, [block], records)
    return c, block, files


def run_blocks(exp: Experiment, c: int, blocks: list[int], records: bool = False):
    """`run_block` of each of ``blocks`` of cell ``c``, played together (`simulate_blocks`):
    its ``(c, block, files)`` as each ends."""
    cell = exp.cells[c]
    game = game_of(cell.rules)
    code = code_fingerprint()
    for block, result, offset in simulate_blocks(exp, cell, blocks):
        hands, games = game.block_tables(result, offset)
        summary = _tallies(exp, cell, hands, games)
        hands = game.written(hands, cell.rules)  # without the columns its rules do not bring
        meta = {"experiment": exp.to_dict(), "cell": c, "block": block, "version": __version__,
                "code": code}  # the code that made it (`sim.folder`)
        out = BlockFiles(hands=_parquet(_labelled(hands, cell), {**meta, "summary": summary}))
        out.code = code
        if games is not None:
            out["games"] = _parquet(_labelled(games, cell), meta)
        every = game.block_records(result, cell, offset) if records else None
        if records:
            out["records"] = _jsonl(every)
        if block == 0:  # the first hands in the hands table's order, as ``every`` is
            out["sample"] = _jsonl(every[:SAMPLE] if records
                                   else game.block_records(result, cell, offset, SAMPLE))
        yield c, block, out


def _jsonl(records) -> bytes:
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records).encode()


def _tallies(exp: Experiment, cell: Cell, hands: pa.Table, games: pa.Table | None) -> dict:
    """The block's sums for the run summary (`reports.tallies`), kept in its hands file."""
    def columns(table):
        return {name: arrow.values(table.column(name)) for name in table.column_names}
    rules = rules_to_dict(cell.rules)
    return block_tallies(rules.get("game", "spades"), rules, exp.mode, columns(hands),
                         columns(games) if games is not None else None)


def run_chain(exp: Experiment, c: int, blocks: list[int], records: bool = False) -> list:
    """`run_blocks` as one task of a worker: every block's ``(c, block, files)``, when the
    last ends."""
    return list(run_blocks(exp, c, blocks, records))


def _metadata(data: bytes) -> dict:
    """The ``whistlab`` metadata of a block file's bytes (read from its footer)."""
    return json.loads(pq.read_schema(pa.BufferReader(data)).metadata[b"whistlab"])


def _code(files: dict[str, bytes]) -> dict | None:
    """The fingerprint of the code that made a block's files (read from the hands file's
    footer when ``files`` is a plain dict, not a `BlockFiles`)."""
    code = getattr(files, "code", None)
    return code if code is not None else _metadata(files["hands"]).get("code")


def write_block(files: dict[str, bytes], out: Path, cell: Cell, block: int) -> None:
    """Write one block's files: each under a temporary name, then their lines in the journal
    (`sim.folder`; not the ``records`` of every hand), then each renamed into place, `hands`
    last because its presence marks the block done. A failed write removes the block's
    temporaries."""
    out = Path(out)
    code = _code(files)
    paths = {"records": out / "records" / f"part-{cell.key}-{block:05d}.jsonl",
             "sample": sample_path(out, cell),
             "games": block_path(out, "games", cell, block),
             "hands": block_path(out, "hands", cell, block)}
    order = [t for t in ("records", "sample", "games", "hands") if t in files]
    temps = {t: temporary(paths[t]) for t in order}
    with writing(paths[order[0]], *temps.values()):
        for t in order:
            with writing(paths[t], *temps.values()):
                paths[t].parent.mkdir(parents=True, exist_ok=True)
                temps[t].write_bytes(files[t])
        append_journal(out, [{"file": paths[t].relative_to(out).as_posix(),
                              "sha256": digest(files[t]), "bytes": len(files[t]), "code": code}
                             for t in order if t != "records"])
        for t in order:
            with writing(paths[t], *temps.values()):
                os.replace(temps[t], paths[t])  # atomic: the file is whole or absent


def _manifest(exp: Experiment) -> dict:
    return {"experiment": exp.to_dict(),
            "seeds": {"root": exp.seed, "deals": "SeedSequence(root, spawn_key=(1, block, "
                      "hand_no, group))", "play": "SeedSequence(root, spawn_key=(2, block))"},
            "versions": {"whistlab": __version__, "numpy": np.__version__,
                         "pyarrow": pa.__version__},
            "code": code_fingerprint()}


@dataclass
class _Plan:
    """What a run finds in its folder: whether to write the manifest (a new folder, or one taken
    over), the journal entries of its verified block files, and the blocks done."""

    write_manifest: bool
    entries: dict[str, dict]
    done: set[tuple[int, int]]


def _plan(exp: Experiment, out: Path) -> _Plan:
    """Check the folder ``out`` for ``exp`` (read only): refused when it holds another experiment,
    or blocks of other code, or a block file that is damaged or foreign; a folder without any
    block file (a run that failed before its first block) is taken over."""
    manifest = _manifest(exp)
    path = out / MANIFEST
    has_blocks = bool(block_files(out))
    write = True
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
            same_experiment = old["experiment"] == manifest["experiment"]
        except (ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError):
            raise UserError("is not a whistlab manifest; choose another --out folder",
                            source=str(path)) from None
        write = not same_experiment or old.get("code") != manifest["code"]
        if write and has_blocks:
            if not same_experiment:
                raise UserError("holds the results of a different experiment; choose another "
                                "--out folder or delete this one", source=str(out))
            raise UserError(f"holds blocks made by other code ({describe_code(old.get('code'))}"
                            f"; this is {describe_code(manifest['code'])}), which this code "
                            "cannot resume; to start afresh, choose another --out folder or "
                            "delete this one", source=str(out))
    cells = {cell.key: c for c, cell in enumerate(exp.cells)}
    wanted = manifest["experiment"]

    def check(file: Path, data: bytes, entry: dict) -> None:
        if file.name.startswith("sample-"):  # a cell's sample of records (`sample_path`)
            if file.stem.removeprefix("sample-") not in cells or entry.get("code") != \
                    manifest["code"]:
                raise UserError("is not a sample of records of this experiment and code; "
                                "delete it and run again to simulate its cell's first block "
                                "anew", source=str(file))
            return
        key, _, number = file.stem.removeprefix("part-").rpartition("-")
        c = cells.get(key)
        ok = c is not None and number.isdigit() and int(number) < exp.n_blocks
        if ok:
            try:
                meta = _metadata(data)
                ok = (meta["experiment"] == wanted and meta["cell"] == c
                      and meta["block"] == int(number) and meta.get("code") == manifest["code"])
            except Exception:  # an unreadable footer or metadata
                ok = False
        if not ok:
            raise UserError("is not a block of this experiment and code; delete it and run "
                            "again to simulate that block anew", source=str(file))

    entries = verify_files(out, read_journal(out), check) if has_blocks else {}
    finished = {name for name in entries}
    done = set()
    for c, cell in enumerate(exp.cells):
        for b in range(exp.n_blocks):
            needed = [f"{t}/{block_path(out, t, cell, b).name}"
                      for t in (("hands", "games") if exp.mode == "games" else ("hands",))]
            if b == 0:  # block 0 also writes the cell's sample of records
                needed.append(sample_path(out, cell).relative_to(out).as_posix())
            if all(n in finished for n in needed):
                done.add((c, b))
    return _Plan(write, entries, done)


def _start(out: Path, exp: Experiment, plan: _Plan, held) -> None:
    """Prepare the locked folder: remove the temporaries of killed processes and the samples of
    records of blocks 0 not done (a run killed between a block's renames: the block is played
    again), rewrite the journal with the verified files only, and write the manifest when it
    is new."""
    held.wrote = True
    with writing(out):
        remove_stale([*out.glob(".*"), *out.glob("*/.*")], only_dead=False)  # we hold the lock
        keep = {sample_path(out, cell) for c, cell in enumerate(exp.cells) if (c, 0) in plan.done}
        for path in sample_files(out):
            if path not in keep:
                path.unlink()
    compact_journal(out, plan.entries)
    if plan.write_manifest:
        atomic_write(json.dumps(_manifest(exp), indent=1).encode(), out / MANIFEST)


@dataclass(frozen=True)
class _Forked:
    """Local processes forked from this one (`whistlab.workers.forked_pool`), at most
    ``workers`` (no more than there are blocks to play)."""

    workers: int


CONNECT_SECONDS = 5  # how long to try to reach a Dask scheduler given by its address


@contextlib.contextmanager
def _backend(backend: str, scheduler: str | None, n_jobs: int):
    """Local processes ("loky": forked from this one where the system allows, else joblib's
    loky; workers that die with this process: `whistlab.workers`), or a Dask cluster ("dask"):
    the one at ``scheduler`` (reached within `CONNECT_SECONDS`), else a local cluster of
    ``n_jobs`` single-threaded worker processes."""
    if backend == "loky":
        from .workers import can_fork, local_workers, processes

        if processes(n_jobs) == 1:  # this process plays the blocks, one after another
            yield 1
            return
        if can_fork():  # forked workers (`whistlab.workers.forked_pool`), made by `_simulate`
            yield _Forked(processes(n_jobs))
            return

        with local_workers():
            yield n_jobs
        return
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise UserError("--backend dask needs dask.distributed: pip install "
                        "'whistlab[dask]'") from None
    if scheduler:
        try:
            client, cluster = Client(scheduler, timeout=CONNECT_SECONDS), None
        except (OSError, TimeoutError, ValueError) as err:
            reason = str(err).splitlines()[0] if str(err) else type(err).__name__
            raise UserError(f"cannot reach the Dask scheduler at {scheduler} within "
                            f"{CONNECT_SECONDS} s: {reason}", source="--scheduler") from None
    else:
        workers = n_jobs if n_jobs > 0 else max(1, os.cpu_count() + 1 + n_jobs)  # joblib's
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=":0")  # any free port, never a clash
        client = Client(cluster)
    import joblib

    try:
        with joblib.parallel_config(backend="dask"):
            yield -1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_experiment(exp: Experiment, out: str | Path, n_jobs: int = 1, progress: bool = False,
                   records: bool | str | Path = False, backend: str = "loky",
                   scheduler: str | None = None, afresh: bool = False, notice=None,
                   meanwhile=None) -> Path:
    """Simulate every block not yet on disk, holding the folder's lock (`sim.folder`).

    Refused at once: a folder another process writes or reads, one holding another experiment
    or blocks of other code, a damaged or foreign block file. ``records``: also write every
    block's hand records (``records/part-*.jsonl``); a path: and concatenate them into that
    file when the run ends (`sim.records.collect_records`). A Dask scheduler is reached before
    a new folder is made, so a scheduler that cannot be reached leaves nothing behind.
    ``afresh``: first delete what earlier runs wrote in the folder (`DERIVED`: tables, records,
    manifest, journal, report, yardstick), so that every block is simulated again.
    ``notice(text)`` is told when the folder already held every block (nothing simulated).
    ``meanwhile()`` is called once while local worker processes play the blocks (the command
    imports its summary's modules then), else not at all."""
    out = Path(out)
    target = None if isinstance(records, bool) else Path(records)
    check_outside(target, out, "--records")
    made = not out.exists()
    try:
        with contextlib.ExitStack() as stack:
            plan = None
            if not made:
                held = stack.enter_context(lock_folder(out, "run"))
                if afresh:
                    _empty(out)
                plan = _plan(exp, out)
            jobs = stack.enter_context(_backend(backend, scheduler, n_jobs))
            if plan is None:
                with writing(out):
                    try:
                        out.mkdir(parents=True)
                    except FileExistsError:  # made meanwhile by another process: not ours
                        made = False
                held = stack.enter_context(lock_folder(out, "run"))
                plan = _plan(exp, out)
            _start(out, exp, plan, held)
            complete = len(plan.done) == len(exp.cells) * exp.n_blocks
            if notice is not None and complete and not records:
                notice(f"{out} already held every block of this experiment: nothing was "
                       "simulated, the results are those of the earlier run; to run afresh, "
                       "add --force (it empties the folder first) or choose a new --out")
            _simulate(exp, out, plan, jobs, progress, bool(records), meanwhile)
            compact_journal(out)
            if target is not None:
                collect_records(out, exp, target)
    except BaseException:
        if made:  # a new folder in which nothing was written
            with contextlib.suppress(OSError):
                out.rmdir()
        raise
    return out


# what `afresh` deletes: every file an earlier run (or its report, yardstick) wrote, but the lock
DERIVED = (MANIFEST, JOURNAL, *TABLE_DIRS, "records", "report", "yardstick")


def _empty(out: Path) -> None:
    """Delete what earlier runs made in the locked folder ``out`` (`DERIVED`); anything else the
    user keeps there stays."""
    with writing(out):
        for name in DERIVED:
            path = out / name
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()


def _simulate(exp: Experiment, out: Path, plan: _Plan, jobs, progress: bool,
              records: bool, meanwhile=None) -> None:
    """Run the blocks not done (all, for records) and write each as it finishes."""
    todo = [(c, b) for c in range(len(exp.cells)) for b in range(exp.n_blocks)
            if records or (c, b) not in plan.done]
    workers = jobs.workers if isinstance(jobs, _Forked) else processes(jobs)  # a cluster: cores
    chains = _chains(exp, todo, workers)
    # in this process: the chains one after another, each block written as it ends
    serial = (done for c, blocks in chains for done in run_blocks(exp, c, blocks, records))
    with contextlib.ExitStack() as stack:
        if isinstance(jobs, _Forked):
            results = serial
            if min(jobs.workers, len(chains)) > 1:
                from .workers import forked_pool

                imap = stack.enter_context(forked_pool(min(jobs.workers, len(chains))))
                results = _each(imap(run_chain, ((exp, c, blocks, records)
                                                 for c, blocks in chains)))
                if meanwhile is not None:
                    meanwhile()
        elif jobs == 1:
            results = serial
        else:  # joblib: loky's processes, or a Dask cluster
            import joblib

            tasks = (joblib.delayed(run_chain)(exp, c, blocks, records) for c, blocks in chains)
            results = _each(joblib.Parallel(n_jobs=jobs, return_as="generator_unordered")(tasks))
        _show(exp, out, todo, results, progress)


MAX_CHAIN = 8  # blocks of whole games a worker plays together (lost together if interrupted)


def _chains(exp: Experiment, todo: list[tuple[int, int]], workers: int) -> list[tuple[int, list]]:
    """The blocks ``todo`` as the tasks that play them: ``(cell, blocks)``. Independent hands: a
    block each. Whole games: a cell's blocks in runs played together (`simulate_blocks`), so
    that the last long games of a block share the batch with the next block's: in this
    process (``workers`` 1) all of a cell's; in ``workers`` processes (a cluster: this machine's
    cores) runs of at most `MAX_CHAIN` that spread the blocks over them. Which blocks play
    together changes no result."""
    if exp.mode != "games":
        return [(c, [b]) for c, b in todo]
    cells: dict[int, list[int]] = {}
    for c, b in todo:
        cells.setdefault(c, []).append(b)
    out = []
    for c, blocks in cells.items():
        size = len(blocks) if workers == 1 else min(MAX_CHAIN, -(-len(blocks) // workers))
        out += [(c, blocks[i:i + size]) for i in range(0, len(blocks), size)]
    return out


def _each(chains):
    """The blocks of the chains' results, one by one (the iterator closed with them)."""
    try:
        for done in chains:
            yield from done
    finally:
        close = getattr(chains, "close", None)
        if close is not None:
            close()


def _show(exp: Experiment, out: Path, todo: list, results, progress: bool) -> None:
    """Write the results as they come, with a progress bar when asked."""
    bar = None
    if progress and todo:
        from tqdm import tqdm

        sizes = exp.block_sizes()  # the bar counts hands (or games), not blocks
        total = sum(sizes[b] for _, b in todo)
        bar = tqdm(total=total, unit=exp.mode[:-1], unit_scale=total >= 10_000, desc=exp.name,
                   smoothing=0.1)
    try:
        with warnings.catch_warnings():  # a failed write cancels the blocks in flight: no news
            warnings.filterwarnings("ignore", ".*tasks which were still being processed",
                                    UserWarning)
            _write_results(exp, out, results, bar)
    finally:
        if bar is not None:
            bar.close()


def _write_results(exp: Experiment, out: Path, results, bar) -> None:
    """Write each block as it comes (in order of completion); a failure stops the workers."""
    code = code_fingerprint()
    try:
        for c, block, files in results:
            made_by = _code(files)
            if made_by != code:  # a Dask worker with another installation
                raise UserError(f"a worker runs other code ({describe_code(made_by)}) than this "
                                f"process ({describe_code(code)}); install the same whistlab "
                                "on every worker")
            write_block(files, out, exp.cells[c], block)
            if bar is not None:
                bar.update(exp.block_sizes()[block])
    finally:
        results.close()  # cancels the blocks not yet returned
