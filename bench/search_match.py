"""``search`` against ``expert`` on duplicate deals (issue 21 item 2, first part).

A script, not a test. Two experiments run through `whistlab.run`, each one line-up with ``swap =
true`` (the same deals with the sides' seats exchanged, STYLE.md practice 8): side 0 ``search``
and side 1 ``expert``, then the other way round. Reported with 95% t intervals:

* ``points/hand`` — per deal of independent hands (from 0-0), search's side's points minus
  expert's, averaged over the two seatings; bags priced at ``bag_penalty / bag_limit`` each instead
  of the penalty paid (as `bench/expert_match.py`), and also as scored;
* ``games won`` — per deal stream of whole games, search's share of the game (1 won, 0 lost, 1/2
  unfinished), averaged over the two seatings.

    python bench/search_match.py                                   # default search, 2,000 + 300
    python bench/search_match.py --search '{"name": "search", "samples": 32}' --hands 4000
    python bench/search_match.py --out results/search_match --n-jobs 2 --json
    python bench/search_match.py --rules '{"preset": "spades.standard", "three_b": true}'

The results folders (``--out``/hands, ``--out``/games) are whistlab run folders: an interrupted
match resumes, a finished one is read again (``--force`` plays it afresh).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import whistlab  # noqa: E402
from sim.options import load_rules  # noqa: E402
from whistlab.experiment import build_experiment  # noqa: E402
from whistlab.runner import run_experiment  # noqa: E402


def interval(d: np.ndarray) -> tuple[float, float]:
    """The mean and its 95% t half-width."""
    return float(d.mean()), float(stats.t.ppf(0.975, d.size - 1) * d.std(ddof=1)
                                  / np.sqrt(d.size))


def _run(out: Path, rules: str, search: dict, mode: str, count: int, seed: int, block: int,
         n_jobs: int, force: bool) -> Path:
    table = {"name": f"search-{mode}", "rules": rules, mode: count, "seed": seed,
             "block_size": block,
             "lineups": {"duel": {"sides": [search, "expert"], "swap": True}}}
    exp = build_experiment(table, "search_match")
    return run_experiment(exp, out, n_jobs=n_jobs, afresh=force)


def _cells(frame: pl.DataFrame, keys: list[str]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The two seatings' rows, in the same order of deals."""
    one = frame.filter(~pl.col("swapped")).sort(keys)
    two = frame.filter(pl.col("swapped")).sort(keys)
    if not one.select(keys).equals(two.select(keys)):
        raise SystemExit("the two seatings did not play the same deals")
    return one, two


def points(folder: Path, rules) -> dict:
    """Search's margin per deal, priced and as scored."""
    hands = whistlab.load(folder).collect()
    one, two = _cells(hands, ["game_id", "hand_no"])
    if not np.array_equal(one["hand_0"].to_numpy(), two["hand_0"].to_numpy()):
        raise SystemExit("the two seatings were dealt different cards")
    price = 0.0 if rules.bagless else rules.bag_penalty / rules.bag_limit

    def margin(cell, side, priced):
        pts = [cell[f"points_{s}"].to_numpy().astype(float) for s in (0, 1)]
        if priced:  # the bags the hand added to the count (from 0: independent hands), as
            #         `strategies.search.counted_bags` counts them (none under bags_negative)
            times = [-cell[f"bag_penalty_{s}"].to_numpy() // max(rules.bag_penalty, 1)
                     for s in (0, 1)]
            pts = [p - cell[f"bag_penalty_{s}"].to_numpy() - price * (
                cell[f"bags_{s}"].to_numpy() + rules.bag_limit * times[s])
                for s, p in enumerate(pts)]
        return pts[side] - pts[1 - side]

    out = {"deals": one.height}
    for name, priced in (("points", True), ("points_scored", False)):
        d = (margin(one, 0, priced) + margin(two, 1, priced)) / 2
        out[name], out[name + "_95"] = interval(d)
    return out


def games(folder: Path) -> dict:
    """Search's share of each deal stream's game, over both seatings."""
    frame = whistlab.load(folder, "games").collect()
    one, two = _cells(frame, ["game_id"])
    share = [np.where(cell["winner"].to_numpy() == side, 1.0,
                      np.where(cell["winner"].to_numpy() < 0, 0.5, 0.0))
             for cell, side in ((one, 0), (two, 1))]
    d = (share[0] + share[1]) / 2
    won, half = interval(d)
    hands = np.concatenate([one["n_hands"].to_numpy(), two["n_hands"].to_numpy()])
    return {"games": one.height, "wins": won, "wins_95": half,
            "hands_per_game": float(hands.mean())}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="spades.standard",
                        help="a preset, a rules file or an inline table as JSON")
    parser.add_argument("--search", default='{"name": "search"}',
                        help="the search's strategy spec (JSON)")
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--block", type=int, default=250, help="hands (games: a tenth) a block")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--out", default="results/search_match")
    parser.add_argument("--force", action="store_true")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    search = json.loads(args.search)
    spec = json.loads(args.rules) if args.rules.lstrip().startswith("{") else args.rules
    rules = load_rules(spec)
    out = {"rules": args.rules, "search": search}
    start, cpu = time.perf_counter(), time.process_time()
    if args.hands:
        folder = _run(Path(args.out) / "hands", spec, search, "hands", args.hands,
                      args.seed, args.block, args.n_jobs, args.force)
        out.update(points(folder, rules))
    if args.games:
        folder = _run(Path(args.out) / "games", spec, search, "games", args.games,
                      args.seed + 1, max(1, args.block // 10), args.n_jobs, args.force)
        out.update(games(folder))
    out["wall_s"] = round(time.perf_counter() - start, 1)
    out["cpu_s_this_process"] = round(time.process_time() - cpu, 1)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{args.rules}: {json.dumps(search)} against expert, duplicate deals")
    if "points" in out:
        print(f"  points/hand {out['points']:+.2f} ± {out['points_95']:.2f} (bags priced), "
              f"{out['points_scored']:+.2f} ± {out['points_scored_95']:.2f} (as scored)  "
              f"({out['deals']:,} deals)")
    if "wins" in out:
        print(f"  games won   {out['wins']:.3f} ± {out['wins_95']:.3f}  ({out['games']:,} "
              f"games, {out['hands_per_game']:.1f} hands a game; fair share 0.500)")
    print(f"  {out['wall_s']} s wall")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
