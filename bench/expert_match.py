"""A duplicate match between two strategies of any game (issue 9: ``expert`` against ``seed``).

A script, not a test. The same deals are played in every seating of the two strategies
(STYLE.md practice 8): with two sides, A at the even seats then at the odd ones; with each
player his own side (Norwegian with three players), A at each seat in turn against B at the
others. Reported with 95% t intervals:

* ``points/hand`` — per deal of independent hands (from 0-0), A's points minus B's, averaged over
  the seatings (with more than two sides: A's minus the mean of the others'). In Spades a bag
  is priced as it costs in a game: ``bag_penalty / bag_limit`` per bag taken (a hand from 0 bags
  almost never pays the penalty itself).
* ``wins`` — per deal stream of whole games, A's share of the games (`whistlab.tune.duplicate_games`:
  the fair share is 1 / sides, and a shared top score counts that much).

    python bench/expert_match.py                              # expert vs seed, spades.standard
    python bench/expert_match.py --rules portland --hands 200000 --games 20000
    python bench/expert_match.py --a '{"name": "expert", "attack_nil": false}' --b expert

Blocks run in parallel with joblib (``--n-jobs``); the figures do not depend on it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sim  # noqa: E402,F401  (presets)
from sim.games import game_of  # noqa: E402
from sim.lineup import Lineup  # noqa: E402
from sim.options import load_rules  # noqa: E402
from strategies import make_strategy  # noqa: E402
from whistlab.tune import duplicate_games, seatings  # noqa: E402


def priced_points(table, rules) -> np.ndarray:
    """float64[n, sides]: each side's points of a hand, Spades bags priced (module docstring)."""
    sides = [c for c in table.column_names if c.startswith("points_")]
    out = np.stack([table.column(c).to_numpy() for c in sides], axis=1).astype(float)
    if rules.game == "spades" and not rules.bagless and "bags_taken_0" in table.column_names:
        for s in range(len(sides)):
            out[:, s] -= table.column(f"bag_penalty_{s}").to_numpy()
            out[:, s] -= (table.column(f"bags_taken_{s}").to_numpy().astype(float)
                          * rules.bag_penalty / rules.bag_limit)  # (int8 would overflow)
    return out


def one_block(rules, a: dict, b: dict, seed: int, block: int, size: int, mode: str):
    """float64[size]: A's paired margin (hands) or win share (games) per deal or game."""
    if mode == "games":
        return duplicate_games(rules, a, b, seed, block, size)
    game = game_of(rules)
    per_seating = []
    for seats, mine in seatings(rules.players, getattr(rules, "sides", 2)):
        lineup = Lineup([make_strategy(a if s else b, game=rules.game) for s in seats])
        hands, _ = game.block_tables(game.play_block(rules, lineup, seed, block, size, mode), 0)
        pts = priced_points(hands, rules)
        others = np.delete(pts, mine, axis=1).mean(axis=1)
        per_seating.append(pts[:, mine] - others)
    return np.mean(per_seating, axis=0)


def paired(rules, a, b, total: int, mode: str, seed: int, block: int, n_jobs: int):
    sizes = [min(block, total - start) for start in range(0, total, block)]
    parts = Parallel(n_jobs=n_jobs)(delayed(one_block)(rules, a, b, seed, k, n, mode)
                                    for k, n in enumerate(sizes))
    return np.concatenate(parts)


def interval(d: np.ndarray) -> tuple[float, float]:
    """The mean and its 95% t half-width."""
    return float(d.mean()), float(stats.t.ppf(0.975, d.size - 1) * d.std(ddof=1)
                                  / np.sqrt(d.size))


def _spec(text: str) -> dict:
    return json.loads(text) if text.lstrip().startswith("{") else {"name": text}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="spades.standard", help="a preset or a rules table "
                        "as JSON, e.g. '{\"preset\": \"spades.standard\", \"three_b\": true}'")
    parser.add_argument("--a", default="expert", help="a strategy name or JSON spec")
    parser.add_argument("--b", default="seed")
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=6_000)
    parser.add_argument("--block", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--n-jobs", type=int, default=-1)
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    rules = load_rules(json.loads(args.rules) if args.rules.startswith("{") else args.rules)
    a, b = _spec(args.a), _spec(args.b)
    out = {"rules": args.rules, "a": a, "b": b}
    if args.hands:
        d = paired(rules, a, b, args.hands, "hands", args.seed, args.block, args.n_jobs)
        out["points"], out["points_95"] = interval(d)
        out["hands"] = args.hands
    if args.games:
        d = paired(rules, a, b, args.games, "games", args.seed + 1,
                   max(1, args.block // 10), args.n_jobs)
        out["wins"], out["wins_95"] = interval(d)
        out["games"] = args.games
        out["fair_share"] = 1 / getattr(rules, "sides", 2)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{args.rules}: {json.dumps(a)} against {json.dumps(b)}")
    if "points" in out:
        print(f"  points/hand {out['points']:+.2f} ± {out['points_95']:.2f}  "
              f"({args.hands:,} deals)")
    if "wins" in out:
        print(f"  wins        {out['wins']:.3f} ± {out['wins_95']:.3f}  "
              f"({args.games:,} games; fair share {out['fair_share']:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
