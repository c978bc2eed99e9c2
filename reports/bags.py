"""Section 2, sandbags (RULES.md §3 bags): bags taken per side per hand and per game, bag
penalties per 100 side-hands and per game, and how often a penalty decided a game.

* per hand (lazy scan, grouped by cell): bags = ``overtricks_<side>``; a penalty = a side-hand
  with ``bag_penalty_<side> < 0``. For both sides together the unit is the hand (the mean of its
  two sides' values), so that the two sides of one hand are not counted as independent;
* per game (games runs, block by block): the game's overtricks over all its hands (both sides),
  its penalty hands (the games table's ``bag_penalties_<side>``) and penalty points;
* "a bag penalty changed the winner": the final scores without the sides' bag-penalty points
  (the same hands, penalties taken out) would have given the other side the win. A static
  counterfactual: without the penalties the game might also have ended at another hand.
"""

from __future__ import annotations

import polars as pl

from .data import CELL, BlockSums, Results, collect
from .stats import sums, with_means, with_proportion_ci

__all__ = ["GameBags", "bags_section"]

ALL = "all"


class GameBags(BlockSums):
    """Per cell (games runs): games, and the summed moments of bags, penalty hands and penalty
    points per game; the games whose winner a bag penalty changed."""

    keys = CELL

    def block(self, units):
        if not self.res.games_mode:
            return None
        no_pen_0 = pl.col("score_0") - pl.col("penalty_0")
        no_pen_1 = pl.col("score_1") - pl.col("penalty_1")
        changed = (((pl.col("winner") == 0) & (no_pen_1 > no_pen_0))
                   | ((pl.col("winner") == 1) & (no_pen_0 > no_pen_1)))
        return units.group_by(CELL).agg(
            pl.len().alias("n"), *sums("bags", pl.col("bags")),
            *sums("penalties", pl.col("bag_penalties")),
            *sums("penalty_points", pl.col("penalty_0") + pl.col("penalty_1")),
            changed.sum().alias("changed"))


def _pooled(frame: pl.DataFrame, pool: list[str]) -> pl.DataFrame:
    """``frame`` and its rows summed over the cells of each variant (``lineup`` "all")."""
    counts = [c for c in frame.columns if c not in [*CELL, *pool]]
    whole = (frame.group_by("variant", *pool, maintain_order=True).agg(pl.col(counts).sum())
             .with_columns(lineup=pl.lit(ALL), swapped=pl.lit(None, pl.Boolean)))
    return pl.concat([whole.select(frame.columns), frame])


def _rank(names: list[str], col: str) -> pl.Expr:
    return pl.col(col).replace_strict({v: i for i, v in enumerate(names)}, default=len(names),
                                      return_dtype=pl.Int32)


def bags_per_hand(res: Results) -> pl.DataFrame:
    """variant, lineup ("all" = the variant's cells pooled), swapped, side ("both" = per side,
    both sides, unit = hand), strategy: hands, side_hands, bags_per_side_hand, penalties (side-
    hands with a penalty), penalties_per_100 (per 100 side-hands, Wilson),
    penalty_points_per_side_hand (t), each with its 95% interval."""
    over = [pl.col(f"overtricks_{s}") for s in (0, 1)]
    pen = [pl.col(f"bag_penalty_{s}") for s in (0, 1)]
    agg = collect(res.scan("hands").group_by(CELL).agg(
        pl.len().alias("n"),
        *sums("bags_0", over[0]), *sums("bags_1", over[1]),
        *sums("bags_b", (over[0] + over[1]) / 2),
        *[(pen[s] < 0).sum().cast(pl.Int64).alias(f"pen_{s}") for s in (0, 1)],
        *sums("pts_0", pen[0]), *sums("pts_1", pen[1]), *sums("pts_b", (pen[0] + pen[1]) / 2)))
    parts = []
    for side, suffix, mult in (("both", "b", 2), ("0", "0", 1), ("1", "1", 1)):
        penalties = (pl.col("pen_0") + pl.col("pen_1")) if side == "both" else pl.col(
            f"pen_{side}")
        part = agg.select(*CELL, pl.lit(side).alias("side"), "n",
                          (pl.col("n") * mult).alias("side_hands"), penalties.alias("penalties"),
                          pl.col(f"bags_{suffix}_s1").alias("bags_s1"),
                          pl.col(f"bags_{suffix}_s2").alias("bags_s2"),
                          pl.col(f"pts_{suffix}_s1").alias("pts_s1"),
                          pl.col(f"pts_{suffix}_s2").alias("pts_s2"))
        parts.append(_pooled(part, ["side"]) if side == "both" else part)
    frame = pl.concat(parts)
    frame = with_means(frame, ["bags"])
    frame = with_means(frame, ["pts"])
    frame = with_proportion_ci(frame, "penalties", "side_hands", "penalties_per_100",
                               scale=100)
    labels = res.sides.with_columns(pl.col("side").cast(pl.String))
    frame = frame.join(labels, on=[*CELL, "side"], how="left", nulls_equal=True)
    names = {"n": "hands", "bags": "bags_per_side_hand", "pts": "penalty_points_per_side_hand"}
    frame = frame.rename(names | {f"{k}_{e}": f"{v}_{e}" for k, v in names.items() if k != "n"
                                  for e in ("lo", "hi")})
    frame = frame.select(
        *CELL, "side", pl.col("strategy").fill_null(""), "hands", "side_hands",
        "bags_per_side_hand", "bags_per_side_hand_lo", "bags_per_side_hand_hi", "penalties",
        "penalties_per_100", "penalties_per_100_lo", "penalties_per_100_hi",
        "penalty_points_per_side_hand", "penalty_points_per_side_hand_lo",
        "penalty_points_per_side_hand_hi")
    return frame.sort(_rank(res.variants, "variant"), _rank([ALL, *res.lineups], "lineup"),
                      "swapped", pl.col("side") != "both", "side", nulls_last=False)


def bags_per_game(res: Results, acc: GameBags) -> pl.DataFrame | None:
    """variant, lineup ("all" = pooled), swapped: games, bags_per_game, penalties_per_game
    (penalty hands, both sides), penalty_points_per_game (t intervals), winner_changed (games)
    and winner_changed_rate (Wilson)."""
    total = acc.total() if res.games_mode else None
    if total is None:
        return None
    frame = _pooled(total, [])
    frame = with_means(frame, ["bags", "penalties", "penalty_points"])
    frame = with_proportion_ci(frame, "changed", "n", "winner_changed_rate")
    frame = frame.rename({"n": "games", "changed": "winner_changed", "bags": "bags_per_game",
                          "bags_lo": "bags_per_game_lo", "bags_hi": "bags_per_game_hi",
                          "penalties": "penalties_per_game",
                          "penalties_lo": "penalties_per_game_lo",
                          "penalties_hi": "penalties_per_game_hi",
                          "penalty_points": "penalty_points_per_game",
                          "penalty_points_lo": "penalty_points_per_game_lo",
                          "penalty_points_hi": "penalty_points_per_game_hi"})
    return frame.select(*CELL, "games", pl.exclude(*CELL, "games")).sort(
        _rank(res.variants, "variant"), _rank([ALL, *res.lineups], "lineup"), "swapped",
        nulls_last=False)


def _findings(res: Results, hands: pl.DataFrame, games: pl.DataFrame | None) -> list[str]:
    out = []
    pooled = hands.filter(lineup=ALL, side="both")
    if pooled.height:
        parts = [f"{r['variant']} {r['bags_per_side_hand']:.2f} bags and "
                 f"{r['penalties_per_100']:.2f} penalties per 100"
                 for r in pooled.iter_rows(named=True)]
        out.append("Per side-hand: " + "; ".join(parts) + ".")
    sides = hands.filter(pl.col("side") != "both", pl.col("lineup") != ALL)
    if sides["strategy"].n_unique() > 1:
        by = sides.group_by("strategy").agg(
            bags=(pl.col("bags_per_side_hand") * pl.col("side_hands")).sum()
            / pl.col("side_hands").sum()).sort("bags", descending=True)
        out.append("Bags per side-hand by strategy (all cells): " + "; ".join(
            f"{r['strategy']} {r['bags']:.2f}" for r in by.iter_rows(named=True)) + ".")
    if games is not None:
        rows = games.filter(lineup=ALL)
        parts = [f"{r['variant']} {100 * r['winner_changed_rate']:.2f}% "
                 f"[{100 * r['winner_changed_rate_lo']:.2f}, "
                 f"{100 * r['winner_changed_rate_hi']:.2f}]" for r in rows.iter_rows(named=True)]
        out.append("Games whose winner the bag penalties changed (the final scores without "
                   "them would have made the other side win): " + "; ".join(parts) + ".")
    return out


def bags_section(res: Results, acc: GameBags | None) -> dict:
    hands = bags_per_hand(res)
    games = bags_per_game(res, acc) if acc is not None else None
    tables = {"bags_per_hand": hands}
    if games is not None:
        tables["bags_per_game"] = games
    return {"tables": tables, "findings": _findings(res, hands, games)}
