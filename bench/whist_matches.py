"""Duplicate matches at Portland and Norwegian whist (issue 21 items 1 and 2: ``search`` against
``expert`` beyond Spades).

A script, not a test. For each preset, strategy A (default ``search``) against strategy B
(default ``expert``) on the same deals in every seating (`whistlab.tune.seatings`: each side in
turn is A's, every other side B's; STYLE.md practice 8). Reported with 95% t intervals over
deals:

* ``points/hand`` — per deal of independent hands (from 0-0), A's side's points as scored minus
  the mean of the other sides' (two sides: the other side's), averaged over the seatings;
* ``games`` — per deal stream of whole games, A's share of the games won (a shared top score or
  an unfinished game counts 1 / sides), against the fair share 1 / sides;
* ``A s/hand`` — CPU seconds a hand of the whole match (every seat, both strategies), for scale.

::

    python bench/whist_matches.py                                  # every preset, search vs expert
    python bench/whist_matches.py --presets portland,norwegian.three --hands 2000 --games 200
    python bench/whist_matches.py --a '{"name": "search", "samples": 32}' --json out.jsonl

Blocks run in parallel with joblib (``--n-jobs``); the figures do not depend on it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from expert_match import _spec, interval  # noqa: E402

import sim  # noqa: E402,F401  (presets)
from sim.games import game_of  # noqa: E402
from sim.lineup import Lineup  # noqa: E402
from sim.options import PRESETS, load_rules  # noqa: E402
from strategies import make_strategy  # noqa: E402
from whistlab.tune import seatings  # noqa: E402

PRESET_NAMES = [name for name, rules in PRESETS.items() if rules.game in ("portland", "norwegian")]


def sides_of(rules) -> int:
    """Who scores: Portland's two partnerships; Norwegian's `sides`."""
    return getattr(rules, "sides", 2)


def _lineup(rules, a, b, seats):
    return Lineup([make_strategy(a if mine else b, game=rules.game) for mine in seats])


def hands_block(rules, a, b, seed: int, block: int, size: int) -> np.ndarray:
    """float64[size]: A's margin a deal of one block of independent hands, over the seatings."""
    game = game_of(rules)
    per_seating = []
    for seats, side in seatings(rules.players, sides_of(rules)):
        hands, _ = game.block_tables(game.play_block(rules, _lineup(rules, a, b, seats), seed,
                                                     block, size, "hands"), 0)
        pts = np.stack([hands.column(f"points_{s}").to_numpy() for s in range(sides_of(rules))],
                       axis=1).astype(np.float64)
        per_seating.append(pts[:, side] - np.delete(pts, side, axis=1).mean(axis=1))
    return np.mean(per_seating, axis=0)


def games_block(rules, a, b, seed: int, block: int, size: int) -> np.ndarray:
    """float64[size]: A's share of each game of one block of whole games, over the seatings."""
    game = game_of(rules)
    per_seating = []
    for seats, side in seatings(rules.players, sides_of(rules)):
        result = game.play_block(rules, _lineup(rules, a, b, seats), seed, block, size, "games")
        winner = np.asarray(result.games["winner"])
        per_seating.append((winner == side) + (winner < 0) / sides_of(rules))
    return np.mean(per_seating, axis=0)


def match(name: str, a, b, hands: int, games: int, block: int, seed: int, n_jobs: int) -> dict:
    rules = load_rules(name)
    out = {"preset": name, "a": a, "b": b, "sides": sides_of(rules)}
    started = time.process_time()
    if hands:
        sizes = [min(block, hands - s) for s in range(0, hands, block)]
        parts = Parallel(n_jobs=n_jobs)(delayed(hands_block)(rules, a, b, seed, i, size)
                                        for i, size in enumerate(sizes))
        d = np.concatenate(parts)
        out["deals"] = d.size
        out["points"], out["points_95"] = interval(d)
    if games:
        g_block = max(1, block // 10)
        sizes = [min(g_block, games - s) for s in range(0, games, g_block)]
        parts = Parallel(n_jobs=n_jobs)(delayed(games_block)(rules, a, b, seed + 1, i, size)
                                        for i, size in enumerate(sizes))
        d = np.concatenate(parts)
        out["games"] = d.size
        out["wins"], out["wins_95"] = interval(d)
    out["cpu_s"] = time.process_time() - started  # (this process's; with n_jobs 1, the match's)
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default=",".join(PRESET_NAMES))
    parser.add_argument("--a", default="search", help="a strategy name or JSON spec")
    parser.add_argument("--b", default="expert")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--block", type=int, default=250)
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="append one JSON line a preset")
    args = parser.parse_args(argv)
    a, b = _spec(args.a), _spec(args.b)
    print(f"{'preset':<20} {'deals':>6} {'points/hand (95%)':>22} {'games':>6} "
          f"{'won (95%)':>18} {'fair':>6} {'CPU s':>7}")
    for name in args.presets.split(","):
        out = match(name, a, b, args.hands, args.games, args.block, args.seed, args.n_jobs)
        pts = (f"{out['points']:+.3f} ± {out['points_95']:.3f}" if "points" in out else "")
        won = f"{out['wins']:.3f} ± {out['wins_95']:.3f}" if "wins" in out else ""
        print(f"{name:<20} {out.get('deals', 0):>6} {pts:>22} {out.get('games', 0):>6} "
              f"{won:>18} {1 / out['sides']:>6.3f} {out['cpu_s']:>7.1f}", flush=True)
        if args.json:
            with args.json.open("a") as f:
                f.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
