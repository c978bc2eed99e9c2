"""Issue 19's speed targets, this checkout alternating with a peer checkout in one run.

A script, not a test: it prints figures and never asserts a timing. Every figure is taken in a
fresh subprocess, and with ``--peer DIR`` the same measurement is taken on the other checkout
right after (its package put first on ``PYTHONPATH``), so that both share the machine's load
(BENCHMARKS.md, "The restructuring's speed (issue 19)")::

    git worktree add --detach /tmp/peer-c174 c174688
    python bench/speed_targets.py --peer /tmp/peer-c174 --parts engine,openspiel,run,games,jobs

Parts (``--parts``):

``engine``
    ``play_block`` of ``spades.standard`` in one process, independent hands in blocks of
    ``--engine-block`` (default 50,000), for ``random``, ``seed`` and ``expert``: one warm-up
    block, then ``--engine-reps`` timed blocks; the median hands/s.
``openspiel``
    OpenSpiel's C++ Spades with four uniform random bots through ``evaluate_bots`` (as
    bench/bench.py), the median of 5 rounds of 4,000 games (per second of CPU time): the peer
    rate the ratios divide by.
``run``
    The whole command, ``python -m whistlab run EXP --n-jobs 1 --quiet`` (``sim.cli`` on a
    checkout from before the layers step), 1,000,000 independent hands of ``random`` and
    ``seed``, Parquet written and the summary printed: wall time and CPU time (user + system of
    the command and everything it started). ``--run-block`` sets ``block_size`` (default: none
    given, so each checkout's default; the peer at c174688 then uses 1,000).
``games``
    Whole games against independent hands, ``seed``, the whole command with ``--n-jobs 1`` and
    each checkout's default block sizes: ``--games`` whole games (default 55,000, about 500,000
    hands) and ``--hands`` / 2 independent hands; hands played per second of CPU time, and the
    ratio games / hands. The engine alone too (``play_block`` in blocks of ``--games-block``
    games, default 20,000, and ``--engine-block`` hands), and where the checkout has it,
    ``play_blocks``: the ``--games`` games in blocks of ``--games-block`` played together, then
    as many independent hands in blocks of ``--engine-block``, in the same process.
``jobs``
    The whole command for 1,000,000 ``seed`` hands with ``--n-jobs 1`` and ``--n-jobs 2``: wall
    times and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
SEED = 20261130

ENGINE = """
import json, sys, time
root, strategy, mode = sys.argv[1:4]
size, reps, seed = (int(a) for a in sys.argv[4:7])
sys.path.insert(0, root)
from sim.games import game_of
from sim.lineup import Lineup
from sim.options import load_rules
from strategies import make_strategy
rules = load_rules("spades.standard")
lineup = Lineup([make_strategy(strategy, game=rules.game)] * rules.players)
play_block = game_of(rules).play_block
play_block(rules, lineup, seed, 0, min(size, 5000), mode)
out = []
for block in range(1, reps + 1):
    t0 = time.process_time()
    result = play_block(rules, lineup, seed, block, size, mode)
    out.append((result.game.shape[0], time.process_time() - t0))
print(json.dumps(out))
"""

CHAIN = """
import json, sys, time
root, games, size, block, seed = sys.argv[1], *(int(a) for a in sys.argv[2:6])
sys.path.insert(0, root)
from sim.games import game_of
from sim.lineup import Lineup
from sim.options import load_rules
from strategies import make_strategy
rules = load_rules("spades.standard")
lineup = Lineup([make_strategy("seed", game=rules.game)] * rules.players)
game = game_of(rules)
game.play_block(rules, lineup, seed, 0, min(size, 5000), "games")
which = [(1 + b, min(size, games - b * size), 0) for b in range(-(-games // size))]
def hands():  # independent hands in blocks of ``block``, as many as the games play
    t0 = time.process_time()
    for b in range(-(-rows // block)):
        game.play_block(rules, lineup, seed, 100 + b, block, "hands")
    return -(-rows // block) * block / (time.process_time() - t0)
t0 = time.process_time()
rows = sum(r.game.shape[0] for _, r in game.play_blocks(rules, lineup, seed, which, "games"))
chained = rows / (time.process_time() - t0)
print(json.dumps([rows, chained, hands()]))
"""

OPENSPIEL = """
import json, sys, time, pyspiel
seed = int(sys.argv[1])
game = pyspiel.load_game("spades")
bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(4)]
for i in range(200):
    pyspiel.evaluate_bots(game.new_initial_state(), bots, i)
out = []
n = 200
for _ in range(5):
    t0 = time.process_time()
    for _ in range(4000):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, n)
        n += 1
    out.append(4000 / (time.process_time() - t0))
print(json.dumps(out))
"""


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def python(code: str, *args: str) -> object:
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd="/", env={k: v for k, v in os.environ.items()
                                        if k != "PYTHONPATH"})
    if done.returncode:
        raise RuntimeError(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def engine(root: Path, strategy: str, mode: str, size: int, reps: int) -> float:
    """Median hands per second of ``reps`` blocks."""
    got = python(ENGINE, str(root), strategy, mode, str(size), str(reps), str(SEED))
    return statistics.median(rows / seconds for rows, seconds in got)


def whole_run(root: Path, strategy: str, hands: int, block: int | None, jobs: int,
              tmp: Path, mode: str = "hands") -> dict:
    """One ``whistlab run`` of the checkout ``root`` (``hands`` independent hands, or as many
    whole games with ``mode = "games"``): wall and CPU seconds, hand rows, Parquet bytes."""
    import pyarrow.parquet as pq

    work = Path(tempfile.mkdtemp(prefix="speed-", dir=tmp))
    try:
        exp = work / "exp.toml"
        exp.write_text(f'name = "speed"\nrules = "spades.standard"\nstrategy = "{strategy}"\n'
                       f"{mode} = {hands}\nseed = {SEED}\n"
                       + (f"block_size = {block}\n" if block else ""))
        module = "whistlab" if (root / "whistlab" / "__main__.py").exists() else "sim.cli"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", module, "run", str(exp), "--out",
                               str(work / "out"), "--n-jobs", str(jobs), "--quiet"],
                              capture_output=True, text=True, cwd=work,
                              env={**os.environ, "PYTHONPATH": str(root)})
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode:
            raise RuntimeError(done.stderr)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        files = sorted((work / "out" / "hands").glob("*.parquet"))
        rows = sum(pq.read_metadata(f).num_rows for f in files)
        disk = sum(f.stat().st_size for f in files)
        return {"wall": wall, "cpu": cpu, "rows": rows, "bytes_per_hand": disk / rows}
    finally:
        subprocess.run(["rm", "-rf", str(work)], check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", type=Path, help="another checkout, timed alternately")
    parser.add_argument("--parts", default="engine,openspiel,run,games,jobs")
    parser.add_argument("--repeat", type=int, default=3, help="alternating rounds")
    parser.add_argument("--engine-block", type=int, default=50_000)
    parser.add_argument("--engine-reps", type=int, default=5)
    parser.add_argument("--games-block", type=int, default=20_000,
                        help="games per block of the engine part of games")
    parser.add_argument("--games", type=int, default=55_000,
                        help="whole games of the whole-run part of games")
    parser.add_argument("--run-block", type=int, default=None,
                        help="block_size of the whole runs (default: none given, each "
                        "checkout's default)")
    parser.add_argument("--peer-block", type=int, default=None,
                        help="the peer's whole runs also with this block_size")
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--strategies", default="random,seed,expert")
    parser.add_argument("--tmp", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()
    roots = {"this": HERE} | ({"peer": args.peer.resolve()} if args.peer else {})
    parts = args.parts.split(",")
    strategies = args.strategies.split(",")
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}; load {loadavg()}; {os.cpu_count()} cores; "
          f"roots {', '.join(f'{k}={v}' for k, v in roots.items())}", flush=True)
    results: dict = {}

    def keep(key, value):
        results.setdefault(key, []).append(value)

    for k in range(args.repeat):
        if "openspiel" in parts:
            rate = statistics.median(python(OPENSPIEL, str(SEED)))
            keep("openspiel", rate)
            print(f"[{k}] openspiel {rate:,.0f} hands/s (load {loadavg()})", flush=True)
        for name, root in roots.items():
            if "engine" in parts:
                for strategy in strategies:
                    rate = engine(root, strategy, "hands", args.engine_block, args.engine_reps)
                    keep(f"engine {strategy} {name}", rate)
                    print(f"[{k}] engine {strategy:7s} {name}: {rate:,.0f} hands/s", flush=True)
            if "games" in parts:
                size = args.games_block
                hands = engine(root, "seed", "hands", args.engine_block, args.engine_reps)
                games = engine(root, "seed", "games", size, max(2, args.engine_reps // 2))
                keep(f"engine games/hands {name}", games / hands)
                print(f"[{k}] engine games {name}: {games:,.0f} hands/s in games of blocks of "
                      f"{size:,}, {hands:,.0f} in independent hands: {games / hands:.2f}x",
                      flush=True)
                if (root / "sim" / "streams.py").exists():  # blocks played together
                    rows, chained, alone = python(CHAIN, str(root), str(args.games), str(size),
                                                  str(args.engine_block), str(SEED))
                    keep(f"engine chained games/hands {name}", chained / alone)
                    print(f"[{k}] engine chained games {name}: {chained:,.0f} hands/s, "
                          f"{args.games:,} games ({rows:,} hands) in blocks of {size:,} played "
                          f"together; then as many independent hands {alone:,.0f}/s: "
                          f"{chained / alone:.2f}x", flush=True)
                h = whole_run(root, "seed", args.hands // 2, None, 1, args.tmp)
                g = whole_run(root, "seed", args.games, None, 1, args.tmp, mode="games")
                ratio = (g["rows"] / g["cpu"]) / (h["rows"] / h["cpu"])
                keep(f"run games/hands {name}", ratio)
                print(f"[{k}] run games {name}: {g['rows']:,} hands of {args.games:,} games in "
                      f"{g['cpu']:.2f} CPU s ({g['rows'] / g['cpu']:,.0f}/s), {h['rows']:,} "
                      f"independent hands in {h['cpu']:.2f} ({h['rows'] / h['cpu']:,.0f}/s): "
                      f"{ratio:.2f}x (load {loadavg()})", flush=True)
            if "run" in parts:
                for strategy in [s for s in strategies if s != "expert"]:
                    r = whole_run(root, strategy, args.hands, args.run_block, 1, args.tmp)
                    keep(f"run {strategy} {name}", r)
                    print(f"[{k}] run {strategy:7s} {name}: wall {r['wall']:.2f} s, CPU "
                          f"{r['cpu']:.2f} s ({args.hands / r['cpu']:,.0f} hands per CPU s), "
                          f"{r['bytes_per_hand']:.1f} B/hand (load {loadavg()})", flush=True)
                    if args.run_block is None and args.peer_block and name == "peer":
                        r = whole_run(root, strategy, args.hands, args.peer_block, 1, args.tmp)
                        keep(f"run {strategy} peer block {args.peer_block}", r)
                        print(f"[{k}] run {strategy:7s} peer, block {args.peer_block:,}: wall "
                              f"{r['wall']:.2f} s, CPU {r['cpu']:.2f} s, "
                              f"{r['bytes_per_hand']:.1f} B/hand", flush=True)
            if "jobs" in parts:
                one = whole_run(root, "seed", args.hands, args.run_block, 1, args.tmp)
                two = whole_run(root, "seed", args.hands, args.run_block, 2, args.tmp)
                keep(f"jobs {name}", one["wall"] / two["wall"])
                print(f"[{k}] jobs {name}: --n-jobs 1 {one['wall']:.2f} s (CPU {one['cpu']:.2f})"
                      f", --n-jobs 2 {two['wall']:.2f} s (CPU {two['cpu']:.2f}): "
                      f"{one['wall'] / two['wall']:.2f}x (load {loadavg()})", flush=True)
    print(f"# medians (load {loadavg()})")
    os_rate = statistics.median(results["openspiel"]) if "openspiel" in results else None
    for key, values in results.items():
        if isinstance(values[0], dict):
            cpu = statistics.median(v["cpu"] for v in values)
            wall = statistics.median(v["wall"] for v in values)
            ratio = f"; {args.hands / cpu / os_rate:.2f}x OpenSpiel on CPU time" if os_rate else ""
            print(f"{key}: wall {wall:.2f} s, CPU {cpu:.2f} s{ratio}")
        else:
            value = statistics.median(values)
            ratio = (f" = {value / os_rate:.2f}x OpenSpiel" if os_rate and key.startswith("engine")
                     else "")
            print(f"{key}: {value:,.2f}{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
