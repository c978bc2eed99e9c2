"""Section 3, variants and strategies: points per hand, win rates and game length per cell, and
the comparisons that duplicate deals make sharp.

* per cell: mean points per hand of each side, a ratio of sums over games (a game's hands
  share its score: the delta-method interval with the game as cluster, `frame_stats.with_ratio`;
  in a run of hands, the t interval over hands), read block by block; in whole-game runs the
  share of games side 0 wins (Wilson) and hands per game (t) over the cell's games;
* paired differences between variants: each variant against the experiment's first variant for
  the same line-up (and seating), pairing the rows that played the same deal: the same
  (game_id, hand_no) in a hands run, the same game_id (the same sequence of deals) in a games
  run. The paired interval is the t interval of the mean of the per-deal differences; the
  unpaired (Welch) interval, which ignores the pairing, is given beside it to show the gain;
* head to head: a line-up played both ways round (``swap = true``) puts its side-0 team on
  side 1 in the swapped cell, on the same deals. Per deal, the team's margin (its side's points
  minus the other side's) is averaged over the two seatings, which cancels the luck of the cards
  and the seat; its mean and paired interval are the team's advantage. In games runs also the
  team's win rate over both seatings (50% = even).

Pairings read one block of every cell at a time (`data.block_pass`).
"""

from __future__ import annotations

import polars as pl

from .data import CELL, BlockSums, ClusterPass, Results, block_pass, block_scan, collect
from .frame_stats import (
    CLUSTER,
    cluster_sums,
    moments,
    paired,
    sums,
    with_means,
    with_proportion_ci,
    with_ratio,
)
from .stats import mean_ci, welch_ci

__all__ = ["HeadToHead", "PairedVariants", "PointsSums", "compare_tables", "head_to_head",
           "paired_variants", "points_table"]

HAND_METRICS = {  # unit = one hand
    "points_0": "points of side 0 per hand",
    "points_1": "points of side 1 per hand",
    "bags": "bags per hand (both sides)",
}
GAME_METRICS = {  # unit = one game
    "win_0": "share of games side 0 wins",
    "margin": "final score, side 0 minus side 1",
    "n_hands": "hands per game",
    "bags": "bags per game (both sides)",
}
H2H_METRICS = {
    "points": "points per hand, the team's side minus the other",
    "score": "final score per game, the team's side minus the other",
    "win": "share of games the team wins (50% = even)",
}


def _metric_exprs(res: Results) -> dict[str, pl.Expr]:
    if res.games_mode:
        return {"win_0": (pl.col("winner") == 0).cast(pl.Float64),
                "margin": (pl.col("score_0") - pl.col("score_1")).cast(pl.Float64),
                "n_hands": pl.col("n_hands").cast(pl.Float64),
                "bags": pl.col("bags").cast(pl.Float64)}
    return {m: pl.col(m).cast(pl.Float64) for m in HAND_METRICS}


class PairedVariants(BlockSums):
    """Per (variant, base, lineup, swapped, metric): the number of deals paired with the base
    variant, and the summed moments of the difference (``d``), of the variant's value (``a``)
    and of the base variant's value (``b``).

    ``bases`` maps each compared variant to its base (default: every variant to the
    experiment's first); ``metrics`` maps a metric's name to its expression over the block
    units (default: the Spades metrics of `_metric_exprs`)."""

    keys = ["variant", "base", "lineup", "swapped", "metric"]

    def __init__(self, res: Results, bases: dict[str, str] | None = None,
                 metrics: dict[str, pl.Expr] | None = None):
        super().__init__(res)
        self.bases = (bases if bases is not None
                      else {v: res.variants[0] for v in res.variants[1:]})
        self.metrics = metrics

    def block(self, units):
        res = self.res
        exprs = self.metrics if self.metrics is not None else _metric_exprs(res)
        if not self.bases:
            return None
        wide = units.select(*CELL, *res.key, **exprs)
        bases = pl.DataFrame({"variant": list(self.bases), "base": list(self.bases.values())},
                             schema={"variant": pl.String, "base": pl.String})
        other = wide.join(bases, on="variant", how="inner")
        base = wide.rename({"variant": "base"})
        pairs = other.join(base, on=["base", "lineup", "swapped", *res.key], how="inner",
                           suffix="_base")
        sums_ = pairs.group_by("variant", "base", "lineup", "swapped").agg(
            pl.len().alias("n"), *[e for m in exprs for e in (
                *sums(f"{m}:d", pl.col(m) - pl.col(f"{m}_base")), *sums(f"{m}:a", pl.col(m)),
                *sums(f"{m}:b", pl.col(f"{m}_base")))])
        # one row per metric: n, d_s1, d_s2, a_s1, a_s2, b_s1, b_s2
        return pl.concat([sums_.select(
            "variant", "base", "lineup", "swapped", pl.lit(m).alias("metric"), "n",
            *[pl.col(f"{m}:{x}_{k}").alias(f"{x}_{k}") for x in "dab" for k in ("s1", "s2")])
            for m in exprs])


class HeadToHead(BlockSums):
    """Per (lineup, variant, metric) of a line-up played both ways round: the number of deals
    found in both seatings, and the summed moments of the team's value averaged over the two
    seatings (``adv``) and in each seating alone (``u``: unswapped, ``s``: swapped)."""

    keys = ["lineup", "variant", "metric"]

    def _view(self, units: pl.DataFrame, side: int) -> pl.DataFrame:
        """The team's values per deal, seen from ``side`` (the side the team holds)."""
        sign = 1 if side == 0 else -1
        if self.res.games_mode:
            exprs = {"score": sign * (pl.col("score_0") - pl.col("score_1")).cast(pl.Float64),
                     "win": (pl.col("winner") == side).cast(pl.Float64)}
        else:
            exprs = {"points": sign * (pl.col("points_0") - pl.col("points_1")).cast(
                pl.Float64)}
        return units.select("variant", *self.res.key, **exprs)

    def block(self, units):
        parts = []
        metrics = ["score", "win"] if self.res.games_mode else ["points"]
        for twin in self.res.twins:
            mine = units.filter(lineup=twin["lineup"])
            plain = self._view(mine.filter(swapped=False), 0)
            swapped = self._view(mine.filter(swapped=True), twin["side_swapped"])
            both = plain.join(swapped, on=["variant", *self.res.key], how="inner", suffix="_s")
            sums_ = both.group_by("variant").agg(pl.len().alias("n"), *[e for m in metrics for e in (
                *sums(f"{m}:adv", (pl.col(m) + pl.col(f"{m}_s")) / 2),
                *sums(f"{m}:u", pl.col(m)), *sums(f"{m}:s", pl.col(f"{m}_s")))])
            parts += [sums_.select(
                pl.lit(twin["lineup"]).alias("lineup"), "variant", pl.lit(m).alias("metric"),
                "n", *[pl.col(f"{m}:{x}_{k}").alias(f"{x}_{k}") for x in ("adv", "u", "s")
                       for k in ("s1", "s2")]) for m in metrics]
        return pl.concat(parts) if parts else None


def _rank(res: Results, col: str, names: list[str]) -> pl.Expr:
    return pl.col(col).replace_strict({v: i for i, v in enumerate(names)}, default=len(names),
                                      return_dtype=pl.Int32)


def paired_variants(res: Results, acc: PairedVariants,
                    metrics: dict[str, str] | None = None) -> pl.DataFrame | None:
    """variant, base, lineup, swapped, metric, description, n (paired deals), mean, mean_base,
    diff (mean of the paired differences), diff_lo/diff_hi (paired 95% t interval),
    unpaired_lo/unpaired_hi (Welch), width_ratio (unpaired width / paired width).
    ``metrics``: metric name -> description, in the order of the rows (default: Spades')."""
    total = acc.total()
    if total is None:
        return None
    p = paired(total)
    if metrics is None:
        metrics = GAME_METRICS if res.games_mode else HAND_METRICS
    out = total.select(
        "variant", "base", "lineup", "swapped", "metric",
        pl.col("metric").replace_strict(metrics, default="").alias("description"), "n",
    ).with_columns(pl.Series("mean", p["a"]), pl.Series("mean_base", p["b"]),
                   pl.Series("diff", p["d"]), pl.Series("diff_lo", p["d_lo"]),
                   pl.Series("diff_hi", p["d_hi"]), pl.Series("unpaired_lo", p["u_lo"]),
                   pl.Series("unpaired_hi", p["u_hi"]))
    out = out.with_columns(width_ratio=(pl.col("unpaired_hi") - pl.col("unpaired_lo"))
                           / (pl.col("diff_hi") - pl.col("diff_lo")))
    return out.sort(_rank(res, "metric", list(metrics)), _rank(res, "variant", res.variants),
                    _rank(res, "lineup", res.lineups), "swapped")


def head_to_head(res: Results, acc: HeadToHead) -> pl.DataFrame | None:
    """lineup, strategy (its side-0 team), opponent, variant, metric, description, n (deals
    played in both seatings), advantage (the mean over deals of the team's value averaged over
    both seatings) with its paired 95% interval, unpaired_lo/unpaired_hi (the two seatings
    taken as independent samples), mean_unswapped, mean_swapped (each seating alone)."""
    total = acc.total()
    if total is None:
        return None
    n, adv, adv_var = moments(total, "adv")
    _, u, u_var = moments(total, "u")
    _, s, s_var = moments(total, "s")
    lo, hi = mean_ci(n, adv, adv_var)
    # (u + s) / 2 as a difference of independent means: u / 2 - (-s / 2)
    ulo, uhi = welch_ci(n, u / 2, u_var / 4, n, -s / 2, s_var / 4)
    twins = pl.DataFrame(res.twins).select("lineup", "strategy", "opponent")
    out = total.select("lineup", "variant", "metric", "n").with_columns(
        pl.col("metric").replace_strict(H2H_METRICS, default="").alias("description"),
        pl.Series("advantage", adv), pl.Series("advantage_lo", lo),
        pl.Series("advantage_hi", hi), pl.Series("unpaired_lo", ulo),
        pl.Series("unpaired_hi", uhi), pl.Series("mean_unswapped", u),
        pl.Series("mean_swapped", s))
    out = out.join(twins, on="lineup", how="left").select(
        "lineup", "strategy", "opponent", "variant", "metric", "description", pl.exclude(
            "lineup", "strategy", "opponent", "variant", "metric", "description"))
    return out.sort(_rank(res, "metric", list(H2H_METRICS)), _rank(res, "lineup", res.lineups),
                    _rank(res, "variant", res.variants))


class PointsSums(ClusterPass):
    """Per cell and side: the `cluster_sums` over games of n (hands) and points (the side's
    ``points_<side>``), for ``sides`` sides."""

    keys = [*CELL, "side"]

    def __init__(self, res: Results, sides: int = 2):
        super().__init__(res)
        self.sides = sides

    def sums(self, hands):
        long = pl.concat([hands.select(*CELL, CLUSTER, side=pl.lit(s, pl.Int8), n=pl.lit(1),
                                       points=pl.col(f"points_{s}"))
                          for s in range(self.sides)]).drop_nulls("points")
        return cluster_sums(long, self.keys, ["n", "points"])


def points_means(total: pl.DataFrame) -> pl.DataFrame:
    """From `PointsSums`: per cell and side, hands and mean_points (points per hand) with its
    95% interval over games."""
    out = with_ratio(total, "mean_points", "n", "points")
    return out.select(*CELL, "side", pl.col("s_n").cast(pl.Int64).alias("hands"), "mean_points",
                      "mean_points_lo", "mean_points_hi")


def points_table(res: Results) -> pl.DataFrame:
    """Per cell and side: hands, mean points per hand (95% interval over games), the side's
    strategy."""
    acc = PointsSums(res)
    block_pass(res, [acc], block_scan)
    out = points_means(acc.total()).join(res.sides, on=[*CELL, "side"], how="left")
    return out.select(*CELL, "side", "strategy", pl.exclude(*CELL, "side", "strategy")).sort(
        _rank(res, "variant", res.variants), _rank(res, "lineup", res.lineups), "swapped",
        "side")


def games_table(res: Results) -> pl.DataFrame | None:
    """Per cell (games runs): games, side 0's win rate (Wilson), hands per game (t), and the
    two sides' strategies."""
    if not res.games_mode:
        return None
    agg = collect(res.scan("games").group_by(CELL).agg(
        pl.len().alias("games"), (pl.col("winner") == 0).sum().alias("wins_0"),
        *sums("n_hands", pl.col("n_hands"))))
    out = with_proportion_ci(agg, "wins_0", "games", "win_rate_0")
    out = with_means(out, ["n_hands"], n="games")
    labels = res.sides.pivot("side", index=CELL, values="strategy").rename(
        {"0": "strategy_0", "1": "strategy_1"})
    out = out.join(labels, on=CELL, how="left")
    return out.select(*CELL, "strategy_0", "strategy_1", pl.exclude(
        *CELL, "strategy_0", "strategy_1")).sort(
        _rank(res, "variant", res.variants), _rank(res, "lineup", res.lineups), "swapped")


def points_distribution(res: Results) -> pl.DataFrame:
    """variant, points, side_hands, share: how often a side scores each number of points in a
    hand, per variant (both sides, every line-up)."""
    hands = res.scan("hands")
    long = pl.concat([hands.select("variant", points=pl.col(f"points_{s}")) for s in (0, 1)])
    out = collect(long.group_by("variant", "points").agg(side_hands=pl.len()))
    out = out.with_columns(share=pl.col("side_hands") / pl.col("side_hands").sum().over(
        "variant"))
    return out.sort(_rank(res, "variant", res.variants), "points")


def _fmt(x: float, digits: int = 1) -> str:
    return f"{x:+.{digits}f}"


def _findings(res: Results, points, games, paired, h2h) -> list[str]:
    out = []
    if games is not None and games.height:
        length = games["n_hands"]
        if games.height == 1:
            r = games.row(0, named=True)
            out.append(f"Games last {r['n_hands']:.2f} [{r['n_hands_lo']:.2f}, "
                       f"{r['n_hands_hi']:.2f}] hands on average.")
        else:
            out.append(f"Games last {length.min():.1f} to {length.max():.1f} hands on average "
                       "across cells.")
    if paired is not None:
        main = "margin" if res.games_mode else "points_0"
        rows = paired.filter(metric=main)
        clear = rows.filter((pl.col("diff_lo") > 0) | (pl.col("diff_hi") < 0))
        out.append(f"{clear.height} of {rows.height} variant comparisons of the "
                   f"{rows['description'][0] if rows.height else main} exclude 0 from their "
                   "paired 95% interval" + (":" if clear.height else "."))
        top = clear.with_columns(z=(pl.col("diff") / (pl.col("diff_hi") - pl.col("diff_lo")))
                                 .abs()).sort("z", descending=True).head(6)
        for r in top.iter_rows(named=True):
            where = r["lineup"] + (" (swapped)" if r["swapped"] else "")
            out.append(f"{r['variant']} vs {r['base']}, line-up {where}: "
                       f"{_fmt(r['diff'], 2)} [{_fmt(r['diff_lo'], 2)}, "
                       f"{_fmt(r['diff_hi'], 2)}] per {'game' if res.games_mode else 'hand'}.")
        if clear.height > top.height:
            out.append(f"(and {clear.height - top.height} more in the table below)")
        ratio = paired["width_ratio"].drop_nans().drop_nulls()
        if ratio.len():
            out.append(f"Pairing on the duplicate deals makes the intervals of variant "
                       f"differences {ratio.median():.1f}× narrower (median over "
                       f"{ratio.len()} comparisons) than comparing the cells as independent "
                       "samples.")
    if h2h is not None:
        main = "score" if res.games_mode else "points"
        for r in h2h.filter(metric=main).iter_rows(named=True):
            clear = r["advantage_lo"] > 0 or r["advantage_hi"] < 0
            text = (f"Head to head ({r['lineup']}, {r['variant']}): {r['strategy']} vs "
                    f"{r['opponent']}: {_fmt(r['advantage'], 2)} "
                    f"[{_fmt(r['advantage_lo'], 2)}, {_fmt(r['advantage_hi'], 2)}] "
                    f"{'points per game' if res.games_mode else 'points per hand'}")
            win = h2h.filter(metric="win", lineup=r["lineup"], variant=r["variant"])
            if win.height:
                w = win.row(0, named=True)
                text += (f", wins {100 * w['advantage']:.1f}% [{100 * w['advantage_lo']:.1f}, "
                         f"{100 * w['advantage_hi']:.1f}]")
            out.append(text + ("" if clear else " (no clear difference)") + ".")
    return out


def compare_tables(res: Results, paired_acc: PairedVariants | None,
                   h2h_acc: HeadToHead | None) -> dict:
    points = points_table(res)
    games = games_table(res)
    paired = paired_variants(res, paired_acc) if paired_acc else None
    h2h = head_to_head(res, h2h_acc) if h2h_acc else None
    tables = {"points": points, "games": games, "paired_variants": paired,
              "head_to_head": h2h, "points_distribution": points_distribution(res)}
    return {"tables": {k: v for k, v in tables.items() if v is not None},
            "findings": _findings(res, points, games, paired, h2h)}
