"""Content digests of the tables whistlab makes: the proof that a restructuring changed no result.

Two sets of runs, each small and with a fixed seed and block size:

- ``presets``: every preset × every strategy of its game (random, seed, expert) × independent
  hands and whole games (`CELLS`);
- ``experiments``: every shipped experiment (``experiments/*.toml``), made small.

Each run goes through ``whistlab.runner.run_experiment`` (as ``whistlab run`` does) and each of its
tables (``hands``, ``games``) is summarised as

- ``columns``: a SHA-256 over the table's non-constant columns in name order (each column's name
  and its values as an Arrow IPC stream), rows in file order;
- ``constant``: the columns with one value throughout, and that value.

A later version of the code may write fewer columns (a column the rules make constant need not be
written), so two summaries agree (`agrees`) when the non-constant columns are equal and every
constant column the new table keeps has the old value; a column only the old table had must have
been constant there. A column the schema gained since (`ADDED`) is left out of a summary where
it holds nothing but the value of rules that do not bring it (`without_added`). Stored before a
restructuring, they are compared after it::

    python tests/digests.py --write tests/data/digests.json    # before
    python -m pytest tests/test_results_unchanged.py           # after (WHISTLAB_FULL_TESTS=1)

A change to a strategy's decisions (not to the engine) alters the cells that strategy plays; it
stores those cells anew, every other digest kept as it was (issue 21 item 5: the Spades expert
at the tables without partners)::

    python tests/digests.py --cells spades.three/expert/hands,spades.three/expert/games
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from harness import strategies_of  # noqa: E402  (tests/ is the script's own folder)
from sim.games import GAMES as GAME_PARTS  # noqa: E402
from sim.options import PRESETS  # noqa: E402
from whistlab.experiment import build_experiment, load_experiment  # noqa: E402
from whistlab.runner import run_experiment  # noqa: E402

STORED = Path(__file__).resolve().parent / "data" / "digests.json"
SEED = 20261201
HANDS, GAMES, BLOCK = 300, 30, 2  # per preset cell: blocks of HANDS/BLOCK hands or GAMES/BLOCK
EXPERIMENT_GAMES = 200  # per cell of a shipped experiment (ten times as many independent hands)
# the search at the tables of two decks (RULES.md §4.7: about 2 hands a second with every seat
# searching, BENCHMARKS.md) plays a fifth as many (cells added after the restructuring, made so)
SLOW_CELLS, SLOW_SHARE = ("search",), 5


# columns the hands table gained after the digests were stored (names of
# `sim.spades.tables.BROUGHT`): with two decks the face-up cards dealt twice (issue 21)
ADDED = ("face_up_twice_<seat>",)


def without_added(table: pa.Table) -> pa.Table:
    """The table without the `ADDED` columns that hold only the value of rules that do not
    bring them (or nothing: a seat a cell's table does not have)."""
    from sim.spades.tables import BROUGHT

    for name in ADDED:
        default = BROUGHT[name][1]
        for seat in range(8):
            column = name.replace("<seat>", str(seat))
            if column not in table.column_names:
                continue
            values = table.column(column)
            if pc.all(pc.equal(values, pa.scalar(default.item(), values.type))).as_py() in (
                    True, None):  # (nulls skipped: a seat another cell's table does not have)
                table = table.drop_columns([column])
    return table


def _plain(value):
    return value.as_py() if hasattr(value, "as_py") else value


def table_summary(table: pa.Table) -> dict:
    """``{"rows", "columns": sha256 of the non-constant columns, "constant": {name: value}}``."""
    constant, varying = {}, []
    for name in sorted(table.column_names):
        column = table.column(name)
        if pa.types.is_dictionary(column.type):
            column = column.cast(column.type.value_type)
        distinct = pc.unique(column)
        if len(distinct) <= 1 and table.num_rows:
            constant[name] = json.loads(json.dumps(_plain(distinct[0]), default=str))
        else:
            varying.append((name, column))
    sha = hashlib.sha256()
    for name, column in varying:
        one = pa.table({name: column})
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, one.schema) as writer:
            writer.write_table(one)
        sha.update(name.encode() + b"\0" + sink.getvalue().to_pybytes())
    return {"rows": table.num_rows, "columns": sha.hexdigest(), "constant": constant}


def whole(table: pa.Table, game: str) -> pa.Table:
    """A block file's table with the columns its rules do not bring put back (docs/SCHEMA.md,
    "written"), as the readers do: the digests compare whole tables."""
    for name, value in GAME_PARTS[game].missing_columns(table.column_names).items():
        table = table.append_column(name, pa.array(np.full(table.num_rows, value)))
    return table


def folder_summaries(out: Path) -> dict:
    """The summary of each table of a results folder (its block files in name order)."""
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    game = manifest["experiment"]["cells"][0]["rules"]["game"]
    result = {}
    for name in ("hands", "games"):
        files = sorted((out / name).glob("*.parquet"))
        if files:
            tables = [whole(pq.read_table(f).replace_schema_metadata(None), game) for f in files]
            result[name] = table_summary(without_added(
                pa.concat_tables(tables, promote_options="default")))
    return result


def agrees(old: dict, new: dict) -> list[str]:
    """What differs between two table summaries (empty: they agree, see the module's text)."""
    problems = []
    if old["rows"] != new["rows"]:
        problems.append(f"rows {old['rows']} -> {new['rows']}")
    if old["columns"] != new["columns"]:
        problems.append("non-constant columns differ")
    for name, value in new["constant"].items():
        if name in old["constant"] and old["constant"][name] != value:
            problems.append(f"constant column {name}: {old['constant'][name]!r} -> {value!r}")
        elif name not in old["constant"]:
            problems.append(f"column {name} is constant now, not before")
    return problems


CELLS = [(preset, strategy, mode) for preset, rules in PRESETS.items()
         for strategy in strategies_of(rules.game, rules) for mode in ("hands", "games")]


def cell_key(preset: str, strategy: str, mode: str) -> str:
    return f"{preset}/{strategy}/{mode}"


def run_cell(preset: str, strategy: str, mode: str) -> dict:
    count = HANDS if mode == "hands" else GAMES
    rules = PRESETS[preset]
    if strategy in SLOW_CELLS and rules.game == "spades" and rules.copies == 2:
        count //= SLOW_SHARE
    exp = build_experiment({"name": "digest", "rules": preset, "strategy": strategy,
                            mode: count, "seed": SEED, "block_size": count // BLOCK})
    with tempfile.TemporaryDirectory(prefix="whistlab-digest-") as tmp:
        return folder_summaries(run_experiment(exp, Path(tmp) / "run", n_jobs=1))


def run_shipped(path: Path) -> dict:
    exp = load_experiment(path)
    count = ({"games": EXPERIMENT_GAMES} if exp.mode == "games"
             else {"hands": 10 * EXPERIMENT_GAMES})
    exp = load_experiment(path, {**count, "block_size": EXPERIMENT_GAMES // 2})
    with tempfile.TemporaryDirectory(prefix="whistlab-digest-") as tmp:
        return folder_summaries(run_experiment(exp, Path(tmp) / "run", n_jobs=1))


def shipped() -> list[Path]:
    return sorted((ROOT / "experiments").glob("*.toml"))


def compute(progress=None, only=None) -> dict:
    """The digests of every preset cell and shipped experiment (``only``: of those preset cells,
    by key, and no experiment)."""
    out = {"presets": {}, "experiments": {}}
    for cell in CELLS:
        if only is not None and cell_key(*cell) not in only:
            continue
        out["presets"][cell_key(*cell)] = run_cell(*cell)
        if progress:
            progress(cell_key(*cell))
    for path in shipped() if only is None else ():
        out["experiments"][path.stem] = run_shipped(path)
        if progress:
            progress(path.stem)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, default=None,
                        help=f"store the digests (default {STORED.relative_to(ROOT)})")
    parser.add_argument("--cells", default=None,
                        help="only these preset cells (comma separated keys preset/strategy/"
                        "mode), stored into the existing digests in place of theirs")
    args = parser.parse_args()
    target = args.write or STORED
    only = args.cells.split(",") if args.cells else None
    unknown = set(only or ()) - {cell_key(*cell) for cell in CELLS}
    if unknown:
        parser.error(f"unknown cells {sorted(unknown)}")
    digests = compute(progress=lambda name: print(name, flush=True), only=only)
    if only is not None:  # only these cells anew: every other digest as stored
        stored = json.loads(target.read_text(encoding="utf-8"))
        digests = {**stored, "presets": {**stored["presets"], **digests["presets"]}}
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(digests, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
