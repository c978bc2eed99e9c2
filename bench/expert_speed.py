"""The experts' speed against their seeds (issue 21 item 4): hands per CPU second of ``expert``
and ``seed`` at every seat, alternated in one process per game and table size.

A script, not a test: it prints figures and never asserts a timing. For each rules value a fresh
subprocess plays one warm-up block of each strategy, then ``--reps`` rounds of a ``seed`` block and
an ``expert`` block (``play_block`` of ``--block`` independent hands, a different block index and
so different deals each round, the same deals for both strategies within a round), each timed in
CPU seconds (``time.process_time``); the medians and the ratio expert / seed are printed. With
``--peer DIR`` the same is measured on another checkout (its package first on ``sys.path``) right
after, so that both share the machine's load (BENCHMARKS.md, "The experts' speed")::

    git worktree add --detach /tmp/experts-before 591dde0
    nice python bench/expert_speed.py --peer /tmp/experts-before
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
SEED = 20260421
# Every game's expert at each of its table sizes: Spades (four in partnerships), Portland (four),
# Norwegian whist with two, three and four players.
PRESETS = ("spades.standard", "portland", "norwegian", "norwegian.three", "norwegian.classic")
TARGET = 1 / 3  # issue 21 item 4: every expert at least a third of its seed's hands per CPU second

ALTERNATE = """
import json, sys, time
root, preset = sys.argv[1:3]
size, reps, seed = (int(a) for a in sys.argv[3:6])
sys.path.insert(0, root)
from sim.games import game_of
from sim.lineup import Lineup
from sim.options import load_rules
from strategies import make_strategy
rules = load_rules(preset)
play_block = game_of(rules).play_block
lineups = {name: Lineup([make_strategy(name, game=rules.game)] * rules.players)
           for name in ("seed", "expert")}
for lineup in lineups.values():
    play_block(rules, lineup, seed, 0, min(size, 5000), "hands")
out = {name: [] for name in lineups}
for block in range(1, reps + 1):
    for name, lineup in lineups.items():
        t0 = time.process_time()
        result = play_block(rules, lineup, seed, block, size, "hands")
        out[name].append(result.game.shape[0] / (time.process_time() - t0))
print(json.dumps(out))
"""


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def alternate(root: Path, preset: str, size: int, reps: int) -> dict[str, list[float]]:
    """Hands per CPU second of ``seed`` and ``expert`` blocks, alternated, on checkout ``root``."""
    done = subprocess.run([sys.executable, "-c", ALTERNATE, str(root), preset, str(size),
                           str(reps), str(SEED)], capture_output=True, text=True, cwd="/",
                          env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    if done.returncode:
        raise RuntimeError(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", type=Path, help="another checkout, measured alternately")
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--block", type=int, default=50_000, help="hands per timed block")
    parser.add_argument("--reps", type=int, default=5, help="timed blocks per strategy")
    args = parser.parse_args()
    roots = {"this": HERE} | ({"peer": args.peer.resolve()} if args.peer else {})
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}; load {loadavg()}; {os.cpu_count()} cores; "
          f"blocks of {args.block:,} hands x {args.reps}; "
          f"roots {', '.join(f'{k}={v}' for k, v in roots.items())}", flush=True)
    rows = []
    for preset in args.presets.split(","):
        for name, root in roots.items():
            got = alternate(root, preset, args.block, args.reps)
            seed, expert = (statistics.median(got[s]) for s in ("seed", "expert"))
            rows.append((preset, name, seed, expert))
            rounds = " ".join(f"{e / s:.2f}" for s, e in zip(got["seed"], got["expert"],
                                                              strict=True))
            print(f"{preset} {name}: seed {seed:,.0f} hands/s, expert {expert:,.0f} "
                  f"({expert / seed:.2f}x; by round {rounds}) (load {loadavg()})", flush=True)
    print(f"\n| rules | checkout | seed hands/s | expert hands/s | expert / seed | "
          f"at least {TARGET:.2f} |\n| --- | --- | ---: | ---: | ---: | --- |")
    for preset, name, seed, expert in rows:
        print(f"| {preset} | {name} | {seed:,.0f} | {expert:,.0f} | {expert / seed:.2f} | "
              f"{'yes' if expert / seed >= TARGET else 'no'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
