"""The Portland whist report (RULES.md §1, docs/SCHEMA.md): the honours study.

Tables (every estimate ``x`` with ``x_lo`` / ``x_hi``, 95%):

* ``honours_distribution``: per side-hand, how many of A K Q J of trump the side held at the deal
  (``kind = held``, 0..4) and the honours points it scored (``kind = points``: 0, 2, 4), by
  variant (every line-up pooled: the deal does not depend on the players), for both sides
  (``role = all``), the dealer's side and the other side, with Wilson intervals and the exact
  share of the held honours (the deal's combinatorics; the dealer's side holds the turned-up
  card). Variants without trumps hold no honours and are left out;
* ``honours_counted``: of the side-hands that held three or four honours under a variant with
  honours, how many scored them (not under ``honours_order = "tricks_first"`` when the trick
  points ended the game, nor at ``honours_barred_at``);
* ``variance_decomposition``: per cell, at two levels: a side's points per hand (``level =
  hand``; both sides of every hand, the hand as unit) and, in whole games, the final score margin
  (``level = game``: side 0 minus side 1; its parts are the game's trick-point margin and
  honours-point margin; under ``rubber`` each game of a rubber). points = tricks + honours
  (trick points and honours points), so Var(points) = Var(tricks) + Var(honours) + 2 Cov(tricks,
  honours); ``residual`` is what the sum misses (0 up to rounding: it checks that the table's
  points are their two parts). Each variant with honours is compared with its counterpart (the
  same rules with honours off) by the ratio of the variances of points;
* ``game_length`` (games runs): hands per game per cell (under ``rubber``: per game of a
  rubber), t intervals;
* ``honours_paired``: each variant with honours minus its counterpart on the same deals, the
  same line-up and seating (paired on ``game_id`` in games runs, under ``rubber`` the first
  game of each rubber: hands per game and the first dealer's side's wins; on ``game_id,
  hand_no`` in hands runs: the dealer's side's margin), with the paired t interval and the
  unpaired (Welch) one, as `compare.paired_variants`;
* ``dealer_advantage``: per cell and hand, the dealer's side (``dealer % 2``) minus the other
  side in points, trick points, honours points, tricks and honours held, t intervals (``exact``:
  the combinatorial expectation of the honours held, 4/17 with a turned-up trump);
* ``first_dealer`` (games runs): the share of games won by the side that dealt the game's
  first hand (read from the hands table), Wilson intervals;
* ``points``, ``games``: points per hand per cell and side, wins and hands per game per cell,
  as in the Spades report.

Memory stays bounded on runs of any size: the hand-level statistics are lazy polars scans
grouped by cell before collecting (streaming); the variances take two such passes (the cell
means first, then the sums of squared deviations from them: centred sums, so nothing cancels);
what needs a whole game (its length, winner, trick and honours margins, first dealer: all
summed from its hands, so that the games of a rubber are games too) or pairs two cells reads one
block of every cell at a time (`data.block_pass`).

Variance intervals (see `stats.variance_ci`): chi-square intervals whose degrees of freedom
match the estimate's sampling variance, estimated from the spread of the per-unit squared
deviations (the fourth moment) instead of assuming normal data, which points are not (a side
scores 0 in most hands). At the hand level the unit is the hand (its two sides' squared
deviations together), since the two sides of one hand are not independent. The covariance has
a t interval from the same per-unit products. In games runs the hands of one game are not
independent either (the score decides whether honours count): hand-level intervals there, as
the t intervals of the dealer's advantage, are indicative.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats

from .compare import PairedVariants, games_table, paired_variants, points_table
from .data import CELL, BlockSums, Results, block_pass, collect, collect_each
from .frame_stats import sums, with_means, with_proportion_ci
from .stats import LEVEL, proportion_ci, variance_ci, variance_ratio_ci

__all__ = ["DEALER_METRICS", "HONOURS_KEYS", "LEVELS", "PAIRED_GAME_METRICS",
           "PAIRED_HAND_METRICS", "TABLES", "counterparts", "exact_held", "portland_report"]

TABLES = ("honours_distribution", "honours_counted", "variance_decomposition", "game_length",
          "honours_paired", "dealer_advantage", "first_dealer")
HONOURS_KEYS = ("honours", "honours_order", "honours_barred_at")  # off: the counterpart
ROLES = ("all", "dealer", "other")
VALUES = {"held": (0, 1, 2, 3, 4), "points": (0, 2, 4)}
LEVELS = {"hand": "a side's points per hand",
          "game": "final score margin per game (side 0 minus side 1)"}
DEALER_METRICS = {
    "points": "points per hand",
    "trick_points": "trick points per hand",
    "honours_points": "honours points per hand",
    "tricks": "tricks per hand",
    "honours": "honours held (A K Q J of trump)",
}
PAIRED_GAME_METRICS = {"n_hands": "hands per game",
                       "first_win": "share of games the first dealer's side wins"}
PAIRED_HAND_METRICS = {"dealer_margin": "points per hand, the dealer's side minus the other"}
# (t)ricks, (h)onours, (p)oints, (c)ovariance: the parts of the decomposition
PARTS = {"points": "p", "tricks": "t", "honours": "h"}


def _col(name: str, side: int) -> pl.Expr:
    return pl.col(f"{name}_{side}").cast(pl.Float64)


def _dealer_sign() -> pl.Expr:
    """+1 when the dealer sits on side 0, -1 on side 1: sign * (x_0 - x_1) is the dealer's
    side minus the other."""
    return (1 - 2 * (pl.col("dealer").cast(pl.Int16) % 2)).cast(pl.Float64)


def _rank(names: list[str], col: str) -> pl.Expr:
    return pl.col(col).replace_strict({v: i for i, v in enumerate(names)}, default=len(names),
                                      return_dtype=pl.Int32)


def _order(res: Results, frame: pl.DataFrame, *more: str) -> pl.DataFrame:
    keys = [_rank(res.variants, "variant")]
    if "lineup" in frame.columns:
        keys += [_rank(res.lineups, "lineup"), pl.col("swapped")]
    return frame.sort([*keys, *more], maintain_order=True)


def _rules(res: Results) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for c in res.cells:
        out.setdefault(c["variant"], c.get("rules", {}))
    return out


def counterparts(res: Results) -> dict[str, str]:
    """Each variant with honours -> the first variant of the experiment with the same rules but
    honours off (``honours``, ``honours_order``, ``honours_barred_at`` aside)."""
    rules = _rules(res)

    def rest(r):
        return {k: v for k, v in r.items() if k not in HONOURS_KEYS}

    out = {}
    for v in res.variants:
        if rules[v].get("honours"):
            match = [w for w in res.variants
                     if not rules[w].get("honours") and rest(rules[w]) == rest(rules[v])]
            if match:
                out[v] = match[0]
    return out


def exact_held(role: str, k: int) -> float:
    """The probability that a side holds ``k`` of the four honours of the trump suit at the
    deal (RULES.md §1: the dealer's last card is turned up and is a trump). Both sides pooled:
    hypergeometric, 4 honours among 52 cards, 26 on the side. The dealer's side holds the
    turned-up card, an honour with probability 4/13; the other 51 cards fall at random, 25 of
    them to the dealer's side; the other side holds the rest."""
    hyper = stats.hypergeom.pmf
    if role == "all":
        return float(hyper(k, 52, 4, 26))
    if role == "other":
        k = 4 - k
    return float(4 / 13 * hyper(k - 1, 51, 3, 25) + 9 / 13 * hyper(k, 51, 4, 25))


EXACT_DEALER_HONOURS = 4 / 17  # E[held by the dealer's side] - E[held by the other side]


# --- hand level: lazy scans --------------------------------------------------------------------

def _hand_queries(res: Results) -> tuple[pl.LazyFrame, pl.LazyFrame, pl.LazyFrame]:
    """Three aggregations of the hands table: honours counts by (variant, role, held, points);
    per cell the sums that give the means; per cell the moments of the dealer's margins."""
    hands = res.scan("hands")
    long = pl.concat([hands.select(
        "variant", role=pl.when(pl.col("dealer") % 2 == side).then(pl.lit("dealer"))
        .otherwise(pl.lit("other")),
        held=pl.col(f"honours_{side}").cast(pl.Int8),
        points=pl.col(f"honours_points_{side}").cast(pl.Int16)) for side in (0, 1)])
    counts = long.group_by("variant", "role", "held", "points").agg(side_hands=pl.len())
    t, h, p = ([_col(name, s) for s in (0, 1)] for name in ("trick_points", "honours_points",
                                                            "points"))
    means = hands.group_by(CELL).agg(
        n=pl.len(),
        t_sum=(t[0] + t[1]).sum(), h_sum=(h[0] + h[1]).sum(), p_sum=(p[0] + p[1]).sum(),
        tg_sum=(t[0] - t[1]).sum(), hg_sum=(h[0] - h[1]).sum())
    sign = _dealer_sign()
    margins = {
        "points": p[0] - p[1], "trick_points": t[0] - t[1], "honours_points": h[0] - h[1],
        "tricks": (_col("tricks", 0) + _col("tricks", 2)) - (_col("tricks", 1)
                                                            + _col("tricks", 3)),
        "honours": _col("honours", 0) - _col("honours", 1),
    }
    dealer = hands.group_by(CELL).agg(
        pl.len().alias("n"), *[e for m, x in margins.items() for e in sums(m, sign * x)])
    return counts, means, dealer


def _game_counts(res: Results) -> pl.LazyFrame:
    """Per cell, the games played: under ``rubber`` a row of the games table is a rubber of
    two or three games, and ``games_won_<side>`` counts them (without rubbers, the row's game);
    results written before rubbers existed have one game a row."""
    games = res.scan("games")
    if "games_won_0" in games.collect_schema().names():
        count = (pl.col("games_won_0").cast(pl.Int64) + pl.col("games_won_1")).sum()
    else:
        count = pl.len().cast(pl.Int64)
    return games.group_by(CELL).agg(count.alias("games"))


def _centred_hand_sums(res: Results, means: pl.DataFrame) -> pl.DataFrame:
    """Per cell, the second pass: for each hand the squared deviations of its two sides from
    the cell's means (trick points, honours points, points) and the cross products, summed
    over the two sides; their sums and sums of squares over the hands."""
    mu = means.select(*CELL, mt=pl.col("t_sum") / (2 * pl.col("n")),
                      mh=pl.col("h_sum") / (2 * pl.col("n")))
    hands = res.scan("hands").join(mu.lazy(), on=CELL, how="inner")
    dt = [_col("trick_points", s) - pl.col("mt") for s in (0, 1)]
    dh = [_col("honours_points", s) - pl.col("mh") for s in (0, 1)]
    dp = [_col("points", s) - pl.col("mt") - pl.col("mh") for s in (0, 1)]
    q = {"t": dt[0] ** 2 + dt[1] ** 2, "h": dh[0] ** 2 + dh[1] ** 2,
         "c": dt[0] * dh[0] + dt[1] * dh[1], "p": dp[0] ** 2 + dp[1] ** 2}
    return collect(hands.group_by(CELL).agg(
        pl.len().alias("units"), *[e for k, x in q.items() for e in sums(k, x)]))


# --- game level: block by block ----------------------------------------------------------------

def portland_units(res: Results, block: int) -> pl.DataFrame:
    """One block of every cell as the units that pair across cells (`data.block_pass`).

    games runs, one row per cell and game (``game_id``; under ``rubber`` each game of a rubber:
    ``game_no``), from its hands: n_hands, winner (from the game's final scores), margin (the
    final score, side 0 minus side 1: the sum of the hands' points), t and h (its trick points
    and honours points, side 0 minus side 1; t + h = margin), first_side (the side that dealt
    the game's first hand); hands runs, one row per cell and hand: dealer_margin (points, the
    dealer's side minus the other)."""
    files = res.block_files("hands", block)
    hands = pl.scan_parquet(files).with_columns(pl.col("variant", "lineup").cast(pl.String))
    if not res.games_mode:
        return hands.select(*CELL, *res.key, dealer_margin=_dealer_sign() * (
            _col("points", 0) - _col("points", 1))).collect()
    if "game_no" not in hands.collect_schema().names():  # results from before rubbers
        hands = hands.with_columns(game_no=pl.lit(1, pl.Int8))
    last = pl.col("hand_no").arg_max()
    return hands.group_by([*CELL, "game_id", "game_no"]).agg(
        n_hands=pl.len(),
        winner=(pl.col("score_1").get(last) > pl.col("score_0").get(last)).cast(pl.Int8),
        margin=(pl.col("points_0").cast(pl.Int32) - pl.col("points_1")).sum(),
        t=(pl.col("trick_points_0").cast(pl.Int32) - pl.col("trick_points_1")).sum(),
        h=(pl.col("honours_points_0").cast(pl.Int32) - pl.col("honours_points_1")).sum(),
        first_side=(pl.col("dealer").get(pl.col("hand_no").arg_min()) % 2).cast(pl.Int8),
    ).collect()


class FirstGames(PairedVariants):
    """`compare.PairedVariants` on the games that start from the same deal in every cell: all
    games, or under ``rubber`` the first game of each rubber (the later games of a rubber
    start wherever the earlier ones ended)."""

    def block(self, units):
        if "game_no" in units.columns:
            units = units.filter(pl.col("game_no") == 1)
        return super().block(units)


class GameSums(BlockSums):
    """Per cell (games runs): games, the first dealer's side's wins, the moments of the game
    length, and the centred sums of the margin's decomposition (deviations from the cell means
    of the first pass)."""

    keys = CELL

    def __init__(self, res: Results, means: pl.DataFrame):
        """``means``: per cell the hand sums of the first pass and the ``games`` count."""
        super().__init__(res)
        self.means = means.select(*CELL, mt=pl.col("tg_sum") / pl.col("games"),
                                  mh=pl.col("hg_sum") / pl.col("games"))

    def block(self, units):
        dt = pl.col("t").cast(pl.Float64) - pl.col("mt")
        dh = pl.col("h").cast(pl.Float64) - pl.col("mh")
        dp = pl.col("margin").cast(pl.Float64) - pl.col("mt") - pl.col("mh")
        q = {"t": dt**2, "h": dh**2, "c": dt * dh, "p": dp**2}
        return units.join(self.means, on=CELL, how="inner").group_by(CELL).agg(
            pl.len().alias("units"),
            (pl.col("winner") == pl.col("first_side")).sum().cast(pl.Int64).alias("first_wins"),
            (pl.col("first_side") == 1).sum().cast(pl.Int64).alias("first_side_1"),
            *sums("n_hands", pl.col("n_hands")), *[e for k, x in q.items() for e in sums(k, x)])


# --- tables ------------------------------------------------------------------------------------

def honours_tables(res: Results, counts: pl.DataFrame) -> tuple[pl.DataFrame | None,
                                                                pl.DataFrame | None]:
    """``honours_distribution`` and ``honours_counted`` from the honours counts."""
    rules = _rules(res)
    trumps = [v for v in res.variants if rules[v].get("trump", "turn_up") != "none"]
    if not trumps:
        return None, None
    counts = counts.filter(pl.col("variant").is_in(trumps))
    both = counts.group_by("variant", "held", "points").agg(pl.col("side_hands").sum())
    counts = pl.concat([counts, both.with_columns(role=pl.lit("all")).select(counts.columns)])
    parts = []
    for kind, values in VALUES.items():
        grid = pl.DataFrame({"variant": trumps}).join(
            pl.DataFrame({"role": list(ROLES)}), how="cross").join(
            pl.DataFrame({"value": list(values)}, schema={"value": pl.Int16}), how="cross")
        got = counts.group_by("variant", "role", pl.col(kind).cast(pl.Int16).alias("value")).agg(
            pl.col("side_hands").sum())
        part = grid.join(got, on=["variant", "role", "value"], how="left").with_columns(
            pl.lit(kind).alias("kind"), pl.col("side_hands").fill_null(0).cast(pl.Int64))
        parts.append(part)
    dist = pl.concat(parts).with_columns(n=pl.col("side_hands").sum().over(
        "variant", "role", "kind"))
    dist = with_proportion_ci(dist, "side_hands", "n", "share")
    exact = [exact_held(r, v) if k == "held" else float("nan")
             for r, v, k in dist.select("role", "value", "kind").iter_rows()]
    dist = dist.with_columns(pl.Series("exact", exact)).select(
        "variant", "role", "kind", "value", "side_hands", "n", "share", "share_lo", "share_hi",
        "exact")
    dist = dist.sort(_rank(trumps, "variant"), _rank(list(ROLES), "role"),
                     _rank(list(VALUES), "kind"), "value")
    scored = [v for v in trumps if rules[v].get("honours")]
    counted = None
    if scored:
        rows = counts.filter(pl.col("role") == "all", pl.col("variant").is_in(scored),
                             pl.col("held") >= 3)
        counted = rows.group_by("variant", "held").agg(
            side_hands=pl.col("side_hands").sum(),
            counted=pl.col("side_hands").filter(pl.col("points") > 0).sum())
        grid = pl.DataFrame({"variant": scored}).join(
            pl.DataFrame({"held": [3, 4]}, schema={"held": pl.Int8}), how="cross")
        counted = grid.join(counted, on=["variant", "held"], how="left").with_columns(
            pl.col("side_hands", "counted").fill_null(0).cast(pl.Int64))
        counted = with_proportion_ci(counted, "counted", "side_hands", "counted_rate")
        counted = counted.sort(_rank(scored, "variant"), "held")
    return dist, counted


def _decompose(sums_: pl.DataFrame, level: str, per_unit: int,
               means: dict[str, pl.Expr]) -> pl.DataFrame:
    """Variances, covariance, intervals and residual from the centred sums of one level.

    ``per_unit``: values per unit (2 sides per hand; 1 margin per game). With ``N`` values in
    ``n`` units, var = sum(q) / (N - 1) for the per-unit sums q of squared deviations; its
    sampling variance is estimated as (n / (N - 1))**2 * var(q) / n (delta method: the means'
    own error does not change it to first order)."""
    n = sums_["units"].to_numpy().astype(float)
    size = per_unit * n
    scale = n / (size - 1)
    out = sums_.select(pl.lit(level).alias("level"), *CELL, "units",
                       pl.Series("n", size.astype(np.int64)), *[e.alias(f"mean_{k}")
                                                                  for k, e in means.items()])
    est, nus = {}, {}
    for key in ("p", "t", "h", "c"):
        s1 = sums_[f"{key}_s1"].to_numpy()
        s2 = sums_[f"{key}_s2"].to_numpy()
        with np.errstate(invalid="ignore", divide="ignore"):
            var_q = np.maximum(s2 - s1 * s1 / n, 0.0) / (n - 1)
            value = s1 / (size - 1)
            var_value = scale**2 * var_q / n
        est[key] = value
        if key == "c":
            with np.errstate(invalid="ignore"):
                half = stats.t.ppf(0.5 + LEVEL / 2, n - 1) * np.sqrt(var_value)
            out = out.with_columns(pl.Series("cov", value), pl.Series("cov_lo", value - half),
                                   pl.Series("cov_hi", value + half))
            continue
        lo, hi, nu = variance_ci(value, var_value)
        name = {v: k for k, v in PARTS.items()}[key]
        nus[key] = nu
        out = out.with_columns(pl.Series(f"var_{name}", value), pl.Series(f"var_{name}_lo", lo),
                               pl.Series(f"var_{name}_hi", hi), pl.Series(f"df_{name}", nu))
    with np.errstate(invalid="ignore", divide="ignore"):
        share = (est["h"] + 2 * est["c"]) / est["p"]
    return out.with_columns(
        pl.Series("two_cov", 2 * est["c"]),
        pl.Series("residual", est["p"] - est["t"] - est["h"] - 2 * est["c"]),
        pl.Series("honours_share", share))


def _with_ratio(res: Results, frame: pl.DataFrame) -> pl.DataFrame:
    """Each honours variant's Var(points) over its counterpart's (same level, line-up and
    seating), with the F interval of two independent variance estimates; the cells share
    their deals, which correlates the two estimates positively: the interval is then wider
    than it needs to be."""
    bases = counterparts(res)
    frame = frame.with_columns(base=pl.col("variant").replace_strict(
        bases, default=None, return_dtype=pl.String))
    ref = frame.select("level", "lineup", "swapped", pl.col("variant").alias("base"),
                       pl.col("var_points").alias("var_base"),
                       pl.col("df_points").alias("df_base"))
    frame = frame.join(ref, on=["level", "base", "lineup", "swapped"], how="left",
                       maintain_order="left")
    ratio = (frame["var_points"] / frame["var_base"]).to_numpy()
    lo, hi = variance_ratio_ci(ratio, frame["df_points"].to_numpy(),
                               frame["df_base"].to_numpy())
    return frame.with_columns(pl.Series("var_ratio", ratio), pl.Series("var_ratio_lo", lo),
                              pl.Series("var_ratio_hi", hi)).drop("df_base")


def variance_table(res: Results, means: pl.DataFrame, hand_sums: pl.DataFrame,
                   game_sums: pl.DataFrame | None) -> pl.DataFrame:
    hand = hand_sums.join(means, on=CELL, how="left", maintain_order="left")
    two_n = 2 * pl.col("n")
    parts = [_decompose(hand, "hand", 2, {
        "points": pl.col("p_sum") / two_n, "tricks": pl.col("t_sum") / two_n,
        "honours": pl.col("h_sum") / two_n})]
    if game_sums is not None:
        game = game_sums.join(means, on=CELL, how="left", maintain_order="left")
        games = pl.col("games")
        parts.append(_decompose(game, "game", 1, {
            "points": (pl.col("tg_sum") + pl.col("hg_sum")) / games,
            "tricks": pl.col("tg_sum") / games, "honours": pl.col("hg_sum") / games}))
    out = _with_ratio(res, pl.concat(parts))
    out = out.with_columns(description=pl.col("level").replace_strict(LEVELS, default=""))
    first = ["level", "description", *CELL, "base", "units", "n"]
    out = out.select(*first, pl.exclude(*first))
    return out.sort(_rank(list(LEVELS), "level"), _rank(res.variants, "variant"),
                    _rank(res.lineups, "lineup"), "swapped")


def game_tables(res: Results, game_sums: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``game_length`` and ``first_dealer`` per cell from the block sums."""
    length = with_means(game_sums.select(*CELL, pl.col("units").alias("games"),
                                         "n_hands_s1", "n_hands_s2"), ["n_hands"], n="games")
    first = game_sums.select(
        *CELL, pl.col("units").alias("games"),
        pl.when(pl.col("first_side_1") == pl.col("units")).then(pl.lit("1"))
        .when(pl.col("first_side_1") == 0).then(pl.lit("0")).otherwise(pl.lit("both"))
        .alias("first_side"), pl.col("first_wins").alias("wins"))
    first = with_proportion_ci(first, "wins", "games", "win_rate")
    return _order(res, length), _order(res, first)


def dealer_table(res: Results, dealer: pl.DataFrame) -> pl.DataFrame:
    rules = _rules(res)
    parts = []
    for metric, description in DEALER_METRICS.items():
        part = dealer.select(*CELL, pl.lit(metric).alias("metric"),
                             pl.lit(description).alias("description"), pl.col("n").alias("hands"),
                             pl.col(f"{metric}_s1").alias("advantage_s1"),
                             pl.col(f"{metric}_s2").alias("advantage_s2"))
        parts.append(with_means(part, ["advantage"], n="hands"))
    out = pl.concat(parts)
    turn_up = {v for v, r in rules.items() if r.get("trump", "turn_up") != "none"}
    exact = [(EXACT_DEALER_HONOURS if v in turn_up else 0.0) if m == "honours" else float("nan")
             for v, m in out.select("variant", "metric").iter_rows()]
    out = out.with_columns(pl.Series("exact", exact))
    return out.sort(_rank(list(DEALER_METRICS), "metric"), _rank(res.variants, "variant"),
                    _rank(res.lineups, "lineup"), "swapped")


# --- findings ----------------------------------------------------------------------------------

def _ci(r: dict, name: str, digits: int = 2, scale: float = 1.0, sign: bool = False,
        unit: str = "") -> str:
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    v, lo, hi = (scale * r[k] for k in (name, f"{name}_lo", f"{name}_hi"))
    return f"{f.format(v)}{unit} [{f.format(lo)}, {f.format(hi)}]"


def _where(res: Results, r: dict) -> str:
    one = len(res.lineups) == 1 and not any(c["swapped"] for c in res.cells)
    return r["variant"] if one else (f"{r['variant']} ({r['lineup']}"
                                     + (", swapped" if r["swapped"] else "") + ")")


def _findings(res: Results, t: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"honours": [], "variance": [], "length": [], "dealer": []}
    dist, counted = t.get("honours_distribution"), t.get("honours_counted")
    if dist is not None:
        v = dist["variant"][0]
        rows = dist.filter(variant=v, role="all", kind="held")
        three = rows.filter(pl.col("value") >= 3)
        k, n = int(three["side_hands"].sum()), int(rows["n"][0])
        share, lo, hi = proportion_ci(k, n)
        exact = float(three["exact"].sum())
        four = rows.filter(value=4).row(0, named=True)
        out["honours"].append(
            f"A side holds three or four of the trump honours in {100 * share:.1f}% "
            f"[{100 * lo:.1f}, {100 * hi:.1f}] of its hands ({v}; exact {100 * exact:.1f}%), "
            f"all four in {_ci(four, 'share', 1, 100, unit='%')} (exact "
            f"{100 * four['exact']:.1f}%).")
        d = dist.filter(variant=v, kind="held", role="dealer")
        o = dist.filter(variant=v, kind="held", role="other")
        d3 = d.filter(pl.col("value") >= 3)
        o3 = o.filter(pl.col("value") >= 3)
        out["honours"].append(
            f"The dealer's side, which holds the turned-up trump, has three or four in "
            f"{100 * d3['share'].sum():.1f}% of hands (exact {100 * d3['exact'].sum():.1f}%), "
            f"the other side in {100 * o3['share'].sum():.1f}% (exact "
            f"{100 * o3['exact'].sum():.1f}%).")
    if counted is not None:
        rules = _rules(res)
        for v in counted["variant"].unique(maintain_order=True):
            rows = counted.filter(variant=v)
            k, n = int(rows["counted"].sum()), int(rows["side_hands"].sum())
            if not n:
                continue
            share, lo, hi = proportion_ci(k, n)
            why = []
            if rules[v].get("honours_order", "tricks_first") == "tricks_first":
                why.append("the trick points ended the game")
            if rules[v].get("honours_barred_at") is not None:
                why.append(f"the side had {rules[v]['honours_barred_at']} points or more")
            out["honours"].append(
                f"{v}: three or four honours held were scored in {100 * share:.1f}% "
                f"[{100 * lo:.1f}, {100 * hi:.1f}] of {n:,} side-hands"
                + (f"; not when {' or '.join(why)}." if k < n and why else "."))
    var = t["variance_decomposition"]
    for r in var.filter(pl.col("var_ratio").is_not_nan()).iter_rows(named=True):
        unit = "a side's points per hand" if r["level"] == "hand" else "the final margin"
        out["variance"].append(
            f"{_where(res, r)} vs {r['base']}: honours multiply the variance of {unit} by "
            f"{_ci(r, 'var_ratio')} (Var {r['var_points']:.3f} with, split as tricks "
            f"{r['var_tricks']:.3f} + honours {r['var_honours']:.3f} + 2 Cov "
            f"{r['two_cov']:+.3f}; honours' share {100 * r['honours_share']:.0f}%).")
    length = t.get("game_length")
    paired = t.get("honours_paired")
    if length is not None and length.height:
        lo, hi = length["n_hands"].min(), length["n_hands"].max()
        if length.height == 1:
            r = length.row(0, named=True)
            out["length"].append(f"Games last {_ci(r, 'n_hands')} hands on average.")
        else:
            out["length"].append(f"Games last {lo:.2f} to {hi:.2f} hands on average across "
                                 "cells.")
    if paired is not None:
        for r in paired.filter(metric="n_hands").iter_rows(named=True):
            out["length"].append(
                f"{_where(res, r)} minus {r['base']} on the same deals: "
                f"{_ci(r, 'diff', 3, sign=True)} hands per game ({r['mean']:.2f} vs "
                f"{r['mean_base']:.2f}; paired interval {r['width_ratio']:.1f}× narrower than "
                "the unpaired one).")
    dealer = t["dealer_advantage"]
    for r in dealer.filter(metric="points").iter_rows(named=True):
        h = dealer.filter(metric="honours", variant=r["variant"], lineup=r["lineup"],
                          swapped=r["swapped"]).row(0, named=True)
        out["dealer"].append(
            f"{_where(res, r)}: the dealer's side scores {_ci(r, 'advantage', 3, sign=True)} "
            f"points per hand more than the other; it holds {h['advantage']:+.3f} more honours "
            f"(exact {h['exact']:+.3f}).")
    first = t.get("first_dealer")
    if first is not None:
        for r in first.iter_rows(named=True):
            out["dealer"].append(
                f"{_where(res, r)}: the side that deals first (side {r['first_side']}) wins "
                f"{_ci(r, 'win_rate', 1, 100, unit='%')} of {r['games']:,} games.")
    return out


# --- the report's sections ---------------------------------------------------------------------

def portland_report(res: Results) -> dict:
    """Every table of the Portland report and the findings of each section:
    ``{"tables": {...}, "findings": {section: [...]}}``."""
    counts_q, means_q, dealer_q = _hand_queries(res)
    counts, means, dealer = collect_each([counts_q, means_q, dealer_q])
    hand_sums = _centred_hand_sums(res, means)
    if res.games_mode:
        means = means.join(collect(_game_counts(res)), on=CELL, how="left")

    bases = counterparts(res)
    game_sums = GameSums(res, means) if res.games_mode else None
    paired = None
    if bases:
        metrics = ({"n_hands": pl.col("n_hands").cast(pl.Float64),
                    "first_win": (pl.col("winner") == pl.col("first_side")).cast(pl.Float64)}
                   if res.games_mode else {"dealer_margin": pl.col("dealer_margin")})
        paired = FirstGames(res, bases=bases, metrics=metrics)
    block_pass(res, [c for c in (game_sums, paired) if c is not None], portland_units)

    dist, counted = honours_tables(res, counts)
    game_total = game_sums.total() if game_sums is not None else None
    tables = {"honours_distribution": dist, "honours_counted": counted,
              "variance_decomposition": variance_table(res, means, hand_sums, game_total)}
    if game_total is not None:
        tables["game_length"], tables["first_dealer"] = game_tables(res, game_total)
    if paired is not None:
        tables["honours_paired"] = paired_variants(
            res, paired, PAIRED_GAME_METRICS if res.games_mode else PAIRED_HAND_METRICS)
    tables["dealer_advantage"] = dealer_table(res, dealer)
    tables["points"] = points_table(res)
    tables["games"] = games_table(res)
    tables = {k: v for k, v in tables.items() if v is not None}
    return {"tables": tables, "findings": _findings(res, tables)}

