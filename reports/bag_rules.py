"""The bag rules side by side (RULES.md §3 bags, §4.6 scoring; `experiments/bags.toml`): which rule
penalises sandbagging most, how each changes game length, and (with `reports.bags`) how often
bags decide a game. Every cell plays the same deals, read one block of every cell at a time
(`bags.bag_units`).

* what bags cost (`BagCost`, table ``bag_cost``): per rule, line-up and the side's strategy,
  bags taken per side-hand, the bag cost per side-hand (``-(overtricks + bag_penalty)``), the
  contract cost (overtricks scored through the contract: ``exact``, ``double_over``; see
  `bags.contract_cost`), their sum, and the cost per bag taken (bag cost, and bag plus contract
  cost). Each is a ratio of sums, with the game as cluster (its hands share scores and the
  running bag count): the delta-method interval of `stats.ratio_ci`
  (`frame_stats.with_ratio`). Pooled rows (line-up "all") sum every cell's side-hands of a
  game id (the same deals) into one cluster;
* the cost of sandbagging as a strategy (`Sandbagging`, table ``sandbagging``): a line-up played
  both ways round whose side-0 team plays otherwise than its opponents (in bags.toml: a seed
  player that never ducks to avoid bags, against the seed player). Each hand found in both
  seatings (same game id and hand number: the same cards) gives the team's margin (its side's
  points minus the other side's) averaged over the two seatings; the mean over hands, a ratio
  with the game id as cluster, is its paired advantage in points per hand (negative = what
  sandbagging costs);
* game length (`GameLength`, table ``bag_game_length``, games runs): hands per game per rule
  and cell, and the paired difference with the first variant (the standard game in bags.toml)
  on the same game ids, line-up and seating; "all" averages each game id over the cells first
  (the unit is the game id), so its interval is not made optimistic by the shared deals;
* the ranking (table ``bag_ranking``): one row per rule, ranked by the cost per bag taken (bag
  plus contract cost, all line-ups); beside it the other answers.
"""

from __future__ import annotations

import polars as pl

from .data import CELL, SIDES, BlockSums, Results
from .frame_stats import cluster_sums, paired, sums, with_ratio

__all__ = ["BagCost", "GameLength", "Sandbagging", "bag_cost", "bag_game_length", "bag_ranking",
           "rules_tables", "sandbagging"]

ALL = "all"
COST = {  # table column -> (denominator, numerator) of the cluster sums: h side-hands, t bags
    #        taken, b bag cost, c contract cost, T = b + c
    "bags_per_side_hand": ("h", "t"),
    "bag_cost_per_side_hand": ("h", "b"),
    "contract_cost_per_side_hand": ("h", "c"),
    "cost_per_side_hand": ("h", "T"),
    "bag_cost_per_bag": ("t", "b"),
    "cost_per_bag": ("t", "T"),
}


def _rank(names: list[str], col: str) -> pl.Expr:
    return pl.col(col).replace_strict({v: i for i, v in enumerate(names)}, default=len(names),
                                      return_dtype=pl.Int32)


# ------------------------------------------------------------------------------ what bags cost
class BagCost(BlockSums):
    """Per (variant, lineup, strategy): the clusters (games) and the sums and products of their
    totals h (side-hands), t (bags taken), b (bag cost), c (contract cost), T (b + c). Rows:
    each line-up's sides by strategy (line-ups whose sides play alike give only "all"), each
    line-up ("all" strategies) and each variant (line-up and strategy "all")."""

    keys = ["variant", "lineup", "strategy"]
    NAMES = ["h", "t", "b", "c", "T"]

    def block(self, units):
        sums = units["sums"]
        per = pl.concat([sums.select(
            *CELL, "game_id", side=pl.lit(s, pl.Int8), h=pl.col("hands").cast(pl.Int64),
            t=pl.col(f"taken_{s}"), b=-pl.col(f"bag_{s}"), c=pl.col(f"ccost_{s}"))
            for s in SIDES])
        per = per.join(self.res.sides, on=[*CELL, "side"], how="left")
        mixed = (self.res.sides.group_by("lineup").agg(pl.col("strategy").n_unique() > 1)
                 .filter(pl.col("strategy"))["lineup"].to_list())
        cols = pl.col("h", "t", "b", "c")
        levels = [
            per.filter(pl.col("lineup").is_in(mixed))
            .group_by("variant", "lineup", "strategy", "game_id").agg(cols.sum()),
            per.group_by("variant", "lineup", "game_id").agg(cols.sum())
            .with_columns(strategy=pl.lit(ALL)),
            per.group_by("variant", "game_id").agg(cols.sum())
            .with_columns(lineup=pl.lit(ALL), strategy=pl.lit(ALL)),
        ]
        clusters = pl.concat([f.select("variant", "lineup", "strategy", "game_id", "h", "t", "b",
                                       "c") for f in levels]).with_columns(
            T=pl.col("b") + pl.col("c"))
        return cluster_sums(clusters, self.keys, self.NAMES, pairs=list(COST.values()))


def bag_cost(res: Results, acc: BagCost) -> pl.DataFrame | None:
    """variant, lineup ("all" = every cell), strategy (the side's; "all" = both sides): games
    (clusters), side_hands, bags_taken, and each measure of `COST` with its 95% interval."""
    total = acc.total()
    if total is None:
        return None
    frame = total
    for name, (x, y) in COST.items():
        frame = with_ratio(frame, name, x, y)
    frame = frame.select(
        "variant", "lineup", "strategy", pl.col("clusters").alias("games"),
        pl.col("s_h").cast(pl.Int64).alias("side_hands"),
        pl.col("s_t").cast(pl.Int64).alias("bags_taken"),
        *[f"{m}{e}" for m in COST for e in ("", "_lo", "_hi")])
    return frame.sort(_rank(res.variants, "variant"), _rank([ALL, *res.lineups], "lineup"),
                      pl.col("strategy") != ALL, "strategy")


# ------------------------------------------------------------------ the sandbagger head to head
class Sandbagging(BlockSums):
    """Per (lineup, variant) of a line-up played both ways round by two different teams: the
    clusters (game ids), and the sums and products of their totals x (hands found in both
    seatings) and y (the team's margin averaged over the two seatings), with the sums of the
    margin in each seating alone (u unswapped, s swapped)."""

    keys = ["lineup", "variant"]

    def block(self, units):
        margins = units["margins"]
        parts = []
        for twin in self.res.twins:
            if twin["strategy"] == twin["opponent"]:
                continue
            mine = margins.filter(lineup=twin["lineup"])
            margin = pl.col("margin").cast(pl.Float64)
            sign = 1 if twin["side_swapped"] == 0 else -1
            plain = mine.filter(swapped=False).select("variant", "game_id", "hand_no", u=margin)
            swapped = mine.filter(swapped=True).select("variant", "game_id", "hand_no",
                                                       s=sign * margin)
            both = plain.join(swapped, on=["variant", "game_id", "hand_no"], how="inner")
            per = both.group_by("variant", "game_id").agg(
                x=pl.len().cast(pl.Float64), y=((pl.col("u") + pl.col("s")) / 2).sum(),
                u=pl.col("u").sum(), s=pl.col("s").sum())
            agg = cluster_sums(per, ["variant"], ["x", "y", "u", "s"], pairs=[("x", "y")])
            parts.append(agg.select(pl.lit(twin["lineup"]).alias("lineup"), pl.all()))
        return pl.concat(parts) if parts else None


def sandbagging(res: Results, acc: Sandbagging, cost: pl.DataFrame | None) -> pl.DataFrame | None:
    """lineup, strategy (its side-0 team), opponent, variant: games (game ids), hands (found in
    both seatings), advantage (points per hand, the team's side minus the other, averaged over
    the two seatings; 95% delta-method interval with the game id as cluster), mean_unswapped and
    mean_swapped (each seating alone), and from ``cost`` the two teams' bags taken and cost per
    side-hand."""
    total = acc.total()
    if total is None:
        return None
    frame = with_ratio(total, "advantage", "x", "y")
    frame = frame.with_columns(mean_unswapped=pl.col("s_u") / pl.col("s_x"),
                               mean_swapped=pl.col("s_s") / pl.col("s_x"))
    twins = pl.DataFrame(res.twins).select("lineup", "strategy", "opponent")
    frame = frame.join(twins, on="lineup", how="left").select(
        "lineup", "strategy", "opponent", "variant", pl.col("clusters").alias("games"),
        pl.col("s_x").cast(pl.Int64).alias("hands"), "advantage", "advantage_lo",
        "advantage_hi", "mean_unswapped", "mean_swapped")
    if cost is not None:
        for who, col in (("team", "strategy"), ("opponent", "opponent")):
            mine = cost.select("variant", "lineup", pl.col("strategy").alias(col),
                               pl.col("bags_per_side_hand").alias(f"{who}_bags_per_side_hand"),
                               pl.col("cost_per_side_hand").alias(f"{who}_cost_per_side_hand"))
            frame = frame.join(mine, on=["variant", "lineup", col], how="left")
    return frame.sort(_rank(res.lineups, "lineup"), _rank(res.variants, "variant"))


# --------------------------------------------------------------------------------- game length
class GameLength(BlockSums):
    """Per (variant, lineup, swapped) and pooled (lineup "all"): the units (games; game ids when
    pooled) paired with the first variant on the same game id, line-up and seating, and the
    summed moments of the variant's hands per game (a), the base's (b) and the difference (d)."""

    keys = ["variant", "lineup", "swapped"]

    def block(self, units):
        games = units["games"]
        if games is None:
            return None
        base = games.filter(variant=self.res.variants[0]).select(
            "lineup", "swapped", "game_id", b=pl.col("n_hands").cast(pl.Float64))
        pairs = games.join(base, on=["lineup", "swapped", "game_id"], how="inner").select(
            *CELL, "game_id", a=pl.col("n_hands").cast(pl.Float64), b="b").with_columns(
            d=pl.col("a") - pl.col("b"))
        pooled = (pairs.group_by("variant", "game_id").agg(pl.col("a", "b", "d").mean())
                  .with_columns(lineup=pl.lit(ALL), swapped=pl.lit(None, pl.Boolean)))
        units = pl.concat([pairs.select(*CELL, "a", "b", "d"), pooled.select(*CELL, "a", "b",
                                                                             "d")])
        return units.group_by(CELL).agg(pl.len().alias("n"), *[e for m in "abd"
                                                                 for e in sums(m, pl.col(m))])


def bag_game_length(res: Results, acc: GameLength) -> pl.DataFrame | None:
    """variant, base (the first variant), lineup ("all" = each game id averaged over the
    cells), swapped: games (paired units), n_hands (hands per game, t interval), n_hands_base,
    diff (paired mean difference, t interval), unpaired_lo / unpaired_hi (Welch)."""
    total = acc.total()
    if total is None:
        return None
    p = paired(total)
    frame = total.select(
        "variant", pl.lit(res.variants[0]).alias("base"), "lineup", "swapped",
        pl.col("n").alias("games")).with_columns(
        pl.Series("n_hands", p["a"]), pl.Series("n_hands_lo", p["a_lo"]),
        pl.Series("n_hands_hi", p["a_hi"]), pl.Series("n_hands_base", p["b"]),
        pl.Series("diff", p["d"]), pl.Series("diff_lo", p["d_lo"]), pl.Series("diff_hi", p["d_hi"]),
        pl.Series("unpaired_lo", p["u_lo"]), pl.Series("unpaired_hi", p["u_hi"]))
    return frame.sort(_rank(res.variants, "variant"), _rank([ALL, *res.lineups], "lineup"),
                      "swapped", nulls_last=False)


# ---------------------------------------------------------------------------------- the ranking
def _ci(frame: pl.DataFrame, col: str, name: str) -> list[pl.Expr]:
    return [pl.col(f"{col}{e}").alias(f"{name}{e}") for e in ("", "_lo", "_hi")
            if f"{col}{e}" in frame.columns]


def bag_ranking(res: Results, cost: pl.DataFrame, sand: pl.DataFrame | None,
                length: pl.DataFrame | None, games: pl.DataFrame | None) -> pl.DataFrame:
    """One row per variant, ranked (1 = penalises most) by the cost per bag taken (bag plus
    contract cost, every line-up): rank, variant, bags_per_side_hand, bag_cost_per_bag,
    cost_per_bag, cost_per_side_hand; the first sandbagging line-up's advantage per hand
    (``sandbagger_advantage``); hands per game (``n_hands``) and its paired difference with the
    base (``n_hands_diff``); the shares of games the bags decided (``winner_changed_rate``,
    ``winner_changed_all_rate``); each with its interval."""
    pooled = cost.filter(lineup=ALL, strategy=ALL)
    out = pooled.select("variant", *[e for m in ("bags_per_side_hand", "bag_cost_per_bag",
                                                 "cost_per_bag", "cost_per_side_hand")
                                     for e in _ci(pooled, m, m)])
    if sand is not None and sand.height:
        first = sand.filter(lineup=sand["lineup"][0])
        out = out.join(first.select("variant", *_ci(first, "advantage", "sandbagger_advantage")),
                       on="variant", how="left")
    if length is not None:
        rows = length.filter(lineup=ALL)
        out = out.join(rows.select("variant", *_ci(rows, "n_hands", "n_hands"),
                                   *_ci(rows, "diff", "n_hands_diff")), on="variant", how="left")
    if games is not None:
        rows = games.filter(lineup=ALL)
        out = out.join(rows.select("variant", *_ci(rows, "winner_changed_rate",
                                                   "winner_changed_rate"),
                                   *_ci(rows, "winner_changed_all_rate",
                                        "winner_changed_all_rate")), on="variant", how="left")
    out = out.sort(pl.col("cost_per_bag").fill_nan(None), descending=True, nulls_last=True)
    return out.select(pl.int_range(1, out.height + 1, dtype=pl.Int32).alias("rank"), pl.all())


# ---------------------------------------------------------------------------------- findings
def _v(x: float, lo: float, hi: float, digits: int = 2, sign: bool = False) -> str:
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    return f"{f.format(x)} [{f.format(lo)}, {f.format(hi)}]"


def _findings(res: Results, ranking: pl.DataFrame, sand: pl.DataFrame | None,
              length: pl.DataFrame | None) -> list[str]:
    out = []
    ranked = ranking.filter(pl.col("cost_per_bag").is_not_nan() & pl.col("cost_per_bag")
                            .is_not_null())
    if ranked.height > 1:  # a ranking needs two rules
        top = ranked.row(0, named=True)
        text = (f"{top['variant']} penalises sandbagging most: "
                f"{_v(top['cost_per_bag'], top['cost_per_bag_lo'], top['cost_per_bag_hi'])} "
                "points lost per bag taken (bag points and contract cost, all line-ups)")
        nxt = ranked.row(1, named=True)
        clear = top["cost_per_bag_lo"] > nxt["cost_per_bag_hi"]
        text += (f"; next {nxt['variant']} "
                 f"{_v(nxt['cost_per_bag'], nxt['cost_per_bag_lo'], nxt['cost_per_bag_hi'])}"
                 + (" (the intervals do not overlap)" if clear else " (the intervals overlap)"))
        out.append(text + ". Ranked by cost per bag: " + ", ".join(
            f"{r['variant']} {r['cost_per_bag']:.2f}" for r in ranked.iter_rows(named=True))
            + ".")
    if sand is not None and sand.height:
        first = sand.filter(lineup=sand["lineup"][0]).sort("advantage")
        worst = first.row(0, named=True)
        out.append(
            f"As a strategy, {worst['strategy']} against {worst['opponent']} (line-up "
            f"{worst['lineup']}, both seatings, the same cards) does worst under "
            f"{worst['variant']}: "
            f"{_v(worst['advantage'], worst['advantage_lo'], worst['advantage_hi'], sign=True)} "
            "points per hand. Per rule: " + "; ".join(
                f"{r['variant']} {_v(r['advantage'], r['advantage_lo'], r['advantage_hi'], 1, True)}"
                for r in first.sort(_rank(res.variants, "variant")).iter_rows(named=True)) + ".")
    if length is not None:
        rows = length.filter(lineup=ALL)
        base = rows.filter(variant=res.variants[0])
        others = rows.filter(pl.col("variant") != res.variants[0])
        if base.height and others.height:  # a run of one variant has nothing to pair with
            b = base.row(0, named=True)
            out.append(
                f"Hands per game: {b['variant']} "
                f"{_v(b['n_hands'], b['n_hands_lo'], b['n_hands_hi'])}; paired difference on "
                "the same deals (all line-ups): " + "; ".join(
                    f"{r['variant']} {_v(r['diff'], r['diff_lo'], r['diff_hi'], sign=True)}"
                    for r in others.iter_rows(named=True)) + ".")
    if "winner_changed_rate" in ranking.columns:
        rows = ranking.sort(_rank(res.variants, "variant"))
        out.append(
            "Games the bags decided (the winner changes when each side's bag points of the "
            "game are taken out of its final score; a counterfactual on the same play), all "
            "line-ups: " + "; ".join(
                f"{r['variant']} {100 * r['winner_changed_rate']:.1f}% "
                f"[{100 * r['winner_changed_rate_lo']:.1f}, "
                f"{100 * r['winner_changed_rate_hi']:.1f}]" for r in rows.iter_rows(named=True))
            + ".")
        diff = rows.filter(pl.col("winner_changed_all_rate") != pl.col("winner_changed_rate"))
        if diff.height:
            out.append("Counting the contract cost too (overtricks scored as free): " + "; ".join(
                f"{r['variant']} {100 * r['winner_changed_all_rate']:.1f}% "
                f"[{100 * r['winner_changed_all_rate_lo']:.1f}, "
                f"{100 * r['winner_changed_all_rate_hi']:.1f}]"
                for r in diff.iter_rows(named=True)) + ".")
    return out


def rules_tables(res: Results, accs: dict[str, BlockSums],
                 games: pl.DataFrame | None) -> tuple[dict[str, pl.DataFrame], list[str]]:
    """The rules study's tables (``bag_cost``, ``sandbagging``, ``bag_game_length``,
    ``bag_ranking``) and findings, from the consumers of `bags.bag_consumers`."""
    cost = bag_cost(res, accs["cost"])
    if cost is None:
        return {}, []
    sand = sandbagging(res, accs["sandbagging"], cost) if "sandbagging" in accs else None
    length = bag_game_length(res, accs["length"]) if "length" in accs else None
    ranking = bag_ranking(res, cost, sand, length, games)
    tables = {"bag_ranking": ranking, "bag_cost": cost, "sandbagging": sand,
              "bag_game_length": length}
    return ({k: v for k, v in tables.items() if v is not None},
            _findings(res, ranking, sand, length))
