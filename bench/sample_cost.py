"""What the sample of hand records costs a run (issue 22 item 4; `whistlab.runner.SAMPLE`).

A script, not a test. Runs an experiment (default: experiments/default.toml, what ``whistlab
run`` does with no argument) in this process ``--repeats`` times with the sample (``SAMPLE``
hands of each cell's block 0, the default) and as many times without it (``SAMPLE = 0``: an
empty sample file), alternating which goes first, each into a new folder; reports the wall and
CPU seconds of each run (``time.process_time``: this process's own with ``--n-jobs 1``). Then
times the sample alone against its peer, the simulation of the block it comes from: block 0 of
the first cell simulated (`whistlab.runner.simulate_block`), then its ``SAMPLE`` records built
and written as JSON Lines, ``--inner`` times each, the medians of their CPU seconds.

    python bench/sample_cost.py                       # the default experiment, 3 + 3 runs
    python bench/sample_cost.py --experiment experiments/honours.toml --repeats 1
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import whistlab.runner as runner  # noqa: E402
from sim.games import game_of  # noqa: E402
from whistlab.experiment import load_experiment  # noqa: E402


def timed_run(exp, folder: Path, sample: int, n_jobs: int) -> dict:
    runner.SAMPLE = sample
    wall, cpu = time.perf_counter(), time.process_time()
    runner.run_experiment(exp, folder, n_jobs=n_jobs)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    size = sum(p.stat().st_size for p in (folder / "records").glob("sample-*.jsonl"))
    shutil.rmtree(folder)
    return {"sample": sample, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
            "sample_bytes": size}


def sample_alone(exp, sample: int, inner: int) -> dict:
    cell = exp.cells[0]
    game = game_of(cell.rules)
    sims, builds = [], []
    for _ in range(inner):
        t = time.process_time()
        result, offset = runner.simulate_block(exp, cell, 0)
        sims.append(time.process_time() - t)
        t = time.process_time()
        data = runner._jsonl(game.block_records(result, cell, offset, sample))
        builds.append(time.process_time() - t)
    return {"block_0_simulated_cpu_s": round(statistics.median(sims), 3),
            "sample_built_cpu_ms": round(1000 * statistics.median(builds), 2),
            "sample_lines": data.count(b"\n"), "block_size": exp.block_size}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--experiment", default=str(ROOT / "experiments" / "default.toml"))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--inner", type=int, default=3)
    ap.add_argument("--n-jobs", type=int, default=1)
    ap.add_argument("--tmp", default=None)
    ap.add_argument("--json", default=None, help="also write the results here")
    args = ap.parse_args()
    exp = load_experiment(args.experiment)
    default = runner.SAMPLE
    runs = []
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        for r in range(args.repeats):
            order = (default, 0) if r % 2 == 0 else (0, default)
            for sample in order:
                one = timed_run(exp, Path(tmp) / f"run-{r}-{sample}", sample, args.n_jobs)
                runs.append(one)
                print(json.dumps(one), flush=True)
    runner.SAMPLE = default
    alone = sample_alone(exp, default, args.inner)
    print(json.dumps(alone), flush=True)

    def median(sample, key):
        return statistics.median(x[key] for x in runs if x["sample"] == sample)

    summary = {"experiment": exp.name, "n_jobs": args.n_jobs, "runs": runs, "alone": alone,
               "median_wall_with_s": median(default, "wall_s"),
               "median_wall_without_s": median(0, "wall_s"),
               "median_cpu_with_s": median(default, "cpu_s"),
               "median_cpu_without_s": median(0, "cpu_s")}
    print(json.dumps({k: v for k, v in summary.items() if k != "runs"}))
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
