"""Digests of the tables every shipped experiment makes: proof that a change left results alone.

Each experiment of ``experiments/`` is run small (``--games`` whole games or, for a run of
independent hands, ten times as many hands, in blocks of ``--block-size``) and every table it
writes is hashed by content: the Arrow IPC stream of the table read back from its Parquet files
(cell by cell, block by block), without the file metadata (which names the package version). A
restructuring must leave every digest as it was::

    python bench/digests.py --write bench/digests.json   # before the change
    python bench/digests.py --check bench/digests.json   # after it: exit 1 on any difference

``--only NAME ...`` limits the run to some experiments; ``--check`` then compares those only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.experiment import load_experiment  # noqa: E402
from sim.runner import run_experiment  # noqa: E402


def table_digest(folder: Path) -> str:
    """SHA-256 of a table's content: its block files in name order, metadata dropped."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.parquet")):
        table = pq.read_table(path)
        table = table.replace_schema_metadata(None)
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, table.schema) as writer:
            writer.write_table(table)
        digest.update(path.name.encode())
        digest.update(sink.getvalue().to_pybytes())
    return digest.hexdigest()


def experiment_digests(path: Path, games: int, block_size: int, n_jobs: int) -> dict[str, str]:
    exp = load_experiment(path)
    count = {"games": games} if exp.mode == "games" else {"hands": 10 * games}
    exp = load_experiment(path, {**count, "block_size": block_size})
    with tempfile.TemporaryDirectory(prefix="whistlab-digest-") as tmp:
        out = run_experiment(exp, Path(tmp) / "run", n_jobs=n_jobs)
        return {table.name: table_digest(table) for table in sorted(out.iterdir())
                if table.is_dir()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", type=Path, help="store the digests in this JSON file")
    action.add_argument("--check", type=Path, help="compare with the digests in this file")
    parser.add_argument("--only", nargs="+", help="experiment names (file stems)")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--block-size", type=int, default=100)
    parser.add_argument("--n-jobs", type=int, default=-1)
    args = parser.parse_args()
    files = sorted((ROOT / "experiments").glob("*.toml"))
    if args.only:
        files = [f for f in files if f.stem in args.only]
    got = {}
    for path in files:
        start = time.perf_counter()
        got[path.stem] = experiment_digests(path, args.games, args.block_size, args.n_jobs)
        print(f"{path.stem:12s} {time.perf_counter() - start:6.1f} s  "
              + "  ".join(f"{t} {d[:12]}" for t, d in got[path.stem].items()), flush=True)
    settings = {"games": args.games, "block_size": args.block_size}
    if args.write:
        args.write.write_text(json.dumps({"settings": settings, "digests": got}, indent=1) + "\n")
        return 0
    stored = json.loads(args.check.read_text())
    if stored["settings"] != settings:
        print(f"the stored digests were made with {stored['settings']}", file=sys.stderr)
        return 2
    changed = [name for name in got if stored["digests"].get(name) != got[name]]
    for name in changed:
        print(f"CHANGED: {name}", file=sys.stderr)
    print("all digests as stored" if not changed else f"{len(changed)} experiments changed")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
