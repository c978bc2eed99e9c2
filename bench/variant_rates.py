"""Engine rate of Spades rules variants, in hands per second (and cards played per second, which
compares tables of different sizes: RULES.md §4.7): ``play_block`` on 50,000-hand blocks in one
process, best of ``--repeat`` runs, for the random and seed players. With ``--peer DIR``
the same variants are also timed on another checkout (e.g. a worktree of an earlier commit), the
two alternating run by run, so that the figures share the machine's load (BENCHMARKS.md)::

    python bench/variant_rates.py --variants '{}' '{"highlander": true}' --peer /tmp/old
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ONE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from strategies import make_strategy
rules = load_rules(json.loads(sys.argv[2]))
lineup = Lineup([make_strategy(sys.argv[3])] * rules.players)
GAMES["spades"].play_block(rules, lineup, 1, 99, 2000, "hands")
start = time.perf_counter()
GAMES["spades"].play_block(rules, lineup, 1, int(sys.argv[4]), 50000, "hands")
print(50000 / (time.perf_counter() - start), rules.players * rules.cards_each)
"""


def rate(root: Path, variant: str, strategy: str, block: int) -> tuple[float, int] | None:
    """Hands per second and the cards played per hand, or None when that checkout does not
    know the rules."""
    out = subprocess.run([sys.executable, "-c", ONE, str(root), variant, strategy, str(block)],
                         capture_output=True, text=True, cwd="/")
    if out.returncode != 0:
        return None
    hands, cards = out.stdout.split()
    return float(hands), int(cards)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", nargs="+", default=["{}"], help="rules overrides (JSON)")
    parser.add_argument("--strategies", nargs="+", default=["random", "seed"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--peer", type=Path, help="another checkout timed alternately")
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    roots = {"this": here} | ({"peer": args.peer.resolve()} if args.peer else {})
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, best of {args.repeat}, hands/s")
    for variant in args.variants:
        json.loads(variant)
        for strategy in args.strategies:
            best = {name: (0.0, 0) for name in roots}
            for k in range(args.repeat):
                for name, root in roots.items():
                    if best[name] is not None:
                        got = rate(root, variant, strategy, k)
                        best[name] = None if got is None else max(best[name], got)
            shown = "  ".join(f"{name} n/a" if value is None else
                              f"{name} {value[0]:,.0f} ({value[0] * value[1] / 1e6:.1f}M cards/s)"
                              for name, value in best.items())
            print(f"{variant:45s} {strategy:7s} {shown}")


if __name__ == "__main__":
    main()
