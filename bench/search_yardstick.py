"""``search`` and ``expert`` against double-dummy play, on the same deals (issue 21 item 2c).

A script, not a test. One `whistlab.run` experiment of ``--hands`` independent hands (from 0-0)
under ``--rules``, three line-ups on the same deals: ``duel`` (search against expert, ``swap =
true``: each deal played with either side at seats 0 and 2), ``search`` (four search seats) and
``expert`` (four expert seats); then `whistlab.yardstick.compute_yardstick` solves every deal
double dummy (endplay's DDS: each side's tricks with every card seen, both sides maximising
their tricks, Spades without the spades-broken rule; README "Double-dummy yardstick"). Per
strategy, pooled over its side-hands, with 95% t intervals over the deals (the two strategies'
figures paired deal by deal):

* ``simulated − DD`` in the duel: the tricks its side takes beyond (below 0: gives away against)
  its double-dummy tricks, against the other strategy; the two add up to 0 on every deal (the
  tricks and the double-dummy tricks each add up to 13), so one is the trick margin of the other;
* ``short of the contract``: in the duel, of the side-hands without a nil whose contract the
  double-dummy play makes, the tricks by which the play fell short of it (max(0, contract −
  tricks), 0 when made): tricks given away where they cost a set, which ducking for bags never
  is; and the share of those contracts the play failed;
* ``|simulated − DD|`` in self-play: how far a table of four such players is from double-dummy
  play (the mean absolute trick difference per side-hand): 0 for perfect-information play.

    python bench/search_yardstick.py --hands 1000 --out results/search_yardstick
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
from whistlab.experiment import build_experiment  # noqa: E402
from whistlab.runner import run_experiment  # noqa: E402
from whistlab.yardstick import compute_yardstick  # noqa: E402

KEYS = ["lineup", "swapped", "game_id", "hand_no"]


def interval(d: np.ndarray) -> tuple[float, float]:
    """The mean and its 95% t half-width."""
    d = np.asarray(d, dtype=float)
    return float(d.mean()), float(stats.t.ppf(0.975, d.size - 1) * d.std(ddof=1)
                                  / np.sqrt(d.size))


def play(out: Path, rules: str, search: dict, hands: int, seed: int, block: int, force: bool
         ) -> Path:
    table = {"name": "search-yardstick", "rules": rules, "hands": hands, "seed": seed,
             "block_size": block,
             "lineups": {"duel": {"sides": [search, "expert"], "swap": True},
                         "search": {"sides": [search, search]},
                         "expert": {"sides": ["expert", "expert"]}}}
    return run_experiment(build_experiment(table, "search_yardstick"), out, afresh=force)


def side_hands(folder: Path) -> pl.DataFrame:
    """One row per hand and side: the cell, the side, its strategy, its tricks, its
    double-dummy tricks, its contract and whether it bid a nil."""
    parts = sorted((folder / "yardstick").glob("part-*.parquet"))
    dd = pl.concat([pl.read_parquet(p) for p in parts], how="vertical_relaxed")
    hands = whistlab.load(folder).collect()
    nil = [((pl.col(f"bid_{s}") == 0) | (pl.col(f"bid_{s + 2}") == 0)).alias(f"nilbid_{s}")
           for s in (0, 1)]
    contract = [(pl.col(f"bid_{s}").cast(pl.Int32) + pl.col(f"bid_{s + 2}")).alias(f"contract_{s}")
                for s in (0, 1)]  # the side's bid (RULES.md §3: a nil adds nothing)
    hands = hands.select(*KEYS, "hand_0", *contract, *nil)
    joined = dd.join(hands, on=KEYS, how="inner")
    if joined.height != dd.height:
        raise SystemExit("the yardstick's rows do not all join the hands table")
    rows = []
    for side in (0, 1):
        strategy = (pl.when(pl.col("lineup") != "duel").then(pl.col("lineup"))
                    .when(pl.col("swapped") == (side == 1)).then(pl.lit("search"))
                    .otherwise(pl.lit("expert")))
        rows.append(joined.select(
            *KEYS, "hand_0", pl.lit(side).alias("side"), strategy.alias("strategy"),
            pl.col(f"tricks_{side}").cast(pl.Int32).alias("tricks"),
            pl.col(f"dd_tricks_{side}").cast(pl.Int32).alias("dd"),
            pl.col(f"contract_{side}").cast(pl.Int32).alias("contract"),
            pl.col(f"nilbid_{side}").alias("nil")))
    return pl.concat(rows)


def figures(frame: pl.DataFrame) -> dict:
    """The module docstring's figures, per strategy and paired (search − expert), per deal."""
    f = frame.with_columns(
        diff=pl.col("tricks") - pl.col("dd"),
        dd_makes=(~pl.col("nil")) & (pl.col("contract") > 0) & (pl.col("dd") >= pl.col("contract")))
    f = f.with_columns(
        short=pl.when(pl.col("dd_makes")).then((pl.col("contract") - pl.col("tricks")).clip(0))
        .otherwise(0),
        failed=pl.col("dd_makes") & (pl.col("tricks") < pl.col("contract")))
    duel = f.filter(pl.col("lineup") == "duel")
    per_deal = duel.group_by("game_id", "hand_no", "strategy").agg(
        pl.col("diff").mean(), pl.col("short").sum(), pl.col("dd_makes").sum(),
        pl.col("failed").sum())
    wide = per_deal.pivot(on="strategy", index=["game_id", "hand_no"],
                          values=["diff", "short", "dd_makes", "failed"])
    selfplay = f.filter(pl.col("lineup") != "duel").group_by(
        "game_id", "hand_no", "lineup").agg(pl.col("diff").abs().mean().alias("abs"))
    sp = selfplay.pivot(on="lineup", index=["game_id", "hand_no"], values="abs")
    out = {"deals": wide.height}
    for s in ("search", "expert"):
        # per side-hand: the two seatings' side-hands of a deal count as two
        out[f"diff_{s}"] = interval(wide[f"diff_{s}"].to_numpy())
        out[f"short_{s}"] = interval(wide[f"short_{s}"].to_numpy() / 2)
        out[f"abs_{s}"] = interval(sp[s].to_numpy())
        out[f"contracts_{s}"] = int(wide[f"dd_makes_{s}"].sum())
        out[f"failed_{s}"] = int(wide[f"failed_{s}"].sum())
    out["diff_paired"] = interval(wide["diff_search"].to_numpy() - wide["diff_expert"].to_numpy())
    out["short_paired"] = interval((wide["short_search"] - wide["short_expert"]).to_numpy() / 2)
    out["abs_paired"] = interval((sp["search"] - sp["expert"]).to_numpy())
    return out


def markdown(fig: dict) -> str:
    def ci(pair, digits=2):
        return f"{pair[0]:+.{digits}f} ± {pair[1]:.{digits}f}"

    def share(s):
        return f"{100 * fig[f'failed_{s}'] / max(fig[f'contracts_{s}'], 1):.1f}%"
    lines = ["| measure (per side-hand) | search | expert | search − expert (paired) |",
             "| --- | ---: | ---: | ---: |",
             f"| simulated − DD tricks, in the duel | {ci(fig['diff_search'])} | "
             f"{ci(fig['diff_expert'])} | {ci(fig['diff_paired'])} |",
             f"| tricks short of a contract DD makes, in the duel | {ci(fig['short_search'], 3)} "
             f"| {ci(fig['short_expert'], 3)} | {ci(fig['short_paired'], 3)} |",
             f"| contracts DD makes that the play failed, in the duel | {share('search')} of "
             f"{fig['contracts_search']:,} | {share('expert')} of {fig['contracts_expert']:,} | |",
             f"| abs(simulated − DD) tricks, in self-play | {fig['abs_search'][0]:.3f} ± "
             f"{fig['abs_search'][1]:.3f} | {fig['abs_expert'][0]:.3f} ± "
             f"{fig['abs_expert'][1]:.3f} | {ci(fig['abs_paired'], 3)} |"]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="spades.standard")
    parser.add_argument("--search", default='{"name": "search"}',
                        help="the search's strategy spec (JSON)")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261203)
    parser.add_argument("--block", type=int, default=250)
    parser.add_argument("--out", type=Path, default=Path("results/search_yardstick"))
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args(argv)
    start = time.process_time()
    folder = play(args.out, args.rules, json.loads(args.search), args.hands, args.seed,
                  args.block, args.force)
    if args.force or not (folder / "yardstick" / "manifest.json").exists():
        compute_yardstick(folder, sample=args.hands, seed=1, n_jobs=1, progress=False)
    fig = figures(side_hands(folder))
    print(f"{args.rules}: {args.search} and expert against double-dummy play, "
          f"{fig['deals']:,} deals (95% t intervals over the deals)\n")
    print(markdown(fig))
    print(f"\n{time.process_time() - start:.0f} CPU s in this process")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
