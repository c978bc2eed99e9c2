"""The Portland whist report (RULES.md §1, docs/SCHEMA.md): the honours study.

Tables (every estimate ``x`` with ``x_lo`` / ``x_hi``, 95%):

* ``honours_distribution``: per side-hand, how many of A K Q J of trump the side held at the deal
  (``kind = held``, 0..4) and the honours points it scored (``kind = points``: 0, 2, 4), by
  variant (every line-up pooled: the deal does not depend on the players), for both sides
  (``role = all``), the dealer's side and the other side, with intervals over game ids and the exact
  share of the held honours (the deal's combinatorics; the dealer's side holds the turned-up
  card). Variants without trumps hold no honours and are left out;
* ``honours_counted``: of the side-hands that held three or four honours under a variant with
  honours, how many scored them (not under ``honours_order = "tricks_first"`` when the trick
  points ended the game, nor at ``honours_barred_at``);
* ``variance_decomposition``: per cell, at two levels: a side's points per hand (``level =
  hand``; both sides of every hand) and, in whole games, the final score margin
  (``level = game``: side 0 minus side 1; its parts are the game's trick-point margin and
  honours-point margin; under ``rubber`` each game of a rubber). points = tricks + honours
  (trick points and honours points), so Var(points) = Var(tricks) + Var(honours) + 2 Cov(tricks,
  honours); ``residual`` is what the sum misses (0 up to rounding: it checks that the table's
  points are their two parts). Each variant with honours is compared with its counterpart (the
  same rules with honours off) by the ratio of the variances of points on the same game ids;
* ``game_length`` (games runs): hands per game per cell (under ``rubber``: per game of a
  rubber, a rubber's games one cluster);
* ``honours_paired``: each variant with honours minus its counterpart on the same deals, the
  same line-up and seating (paired on ``game_id`` in games runs, under ``rubber`` the first
  game of each rubber: hands per game and the first dealer's side's wins; on ``game_id,
  hand_no`` in hands runs: the dealer's side's margin), with the paired t interval and the
  unpaired (Welch) one, as `compare.paired_variants`;
* ``dealer_advantage``: per cell and hand, the dealer's side (``dealer % 2``) minus the other
  side in points, trick points, honours points, tricks and honours held (``exact``:
  the combinatorial expectation of the honours held, 4/17 with a turned-up trump);
* ``first_dealer`` (games runs): the share of games won by the side that dealt the game's
  first hand (read from the hands table);
* ``points``, ``games``: points per hand per cell and side, wins and hands per game per cell,
  as in the Spades report.

Intervals (`reports.stats`): the unit drawn independently is the game id (a hand in a run of
hands; under ``rubber`` a rubber): a hand's two sides share its cards, a game's hands its score
(which decides whether honours count), and every line-up's hands of a game id its deals. So
every hand-level figure is a ratio of sums over game ids (`frame_stats.cluster_sums`): shares
with Wilson's interval for clustered trials, means by the delta method, per cell's games t
(Wilson for shares) where a game is its own cluster.

Variances: the squared deviations (products, for the covariance) from the cell's means summed
per game id, a ratio of sums over the values whose sampling variance is the delta method's
(`stats.ratio_var`; the means' own error does not change it to first order); chi-square
intervals whose degrees of freedom match that sampling variance (`stats.variance_ci`), which
the fourth moment carries instead of assuming normal data, which points are not (a side scores
0 in most hands); a t interval for the covariance. The ratio of Var(points) with honours to
without pairs the two cells' game ids: the quotient of two ratios over the same clusters, with
the t interval of its logarithm and the two estimates' covariance (`stats.ratio_quotient_ci`).

Memory stays bounded on runs of any size: the cell means are a lazy polars scan grouped by cell
before collecting (streaming); everything else reads one block of every cell at a time
(`data.block_pass`): the hand level summed per cell (variant, role) and game id (`HandSums`:
centred sums of squares about the first pass's means, so nothing cancels), and what needs a
whole game (its length, winner, trick and honours margins, first dealer: all summed from its
hands, so that the games of a rubber are games too) or pairs two cells (`GameSums`,
`FirstGames`).
"""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats

from .compare import PairedVariants, games_table, paired_variants, points_table
from .data import CELL, BlockSums, ClusterPass, Results, block_pass, block_scan, collect, collect_each
from .frame_stats import CLUSTER, cluster_sums, prod, with_ratio, with_ratio_quotient, with_share
from .stats import LEVEL, ratio_var, t_quantile, variance_ci

__all__ = ["DEALER_METRICS", "HONOURS_KEYS", "LEVELS", "PAIRED_GAME_METRICS",
           "PAIRED_HAND_METRICS", "TABLES", "GameSums", "HandSums", "counterparts", "exact_held",
           "means_query", "portland_report", "variance_table"]

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


# --- hand level: the cell means (a lazy scan), then block by block --------------------------------

HELD = [f"h{k}" for k in VALUES["held"]]
SCORED = [f"p{v}" for v in VALUES["points"]]
HONOURS = ["n", *HELD, *SCORED, "h34", "c3", "c4", "c34"]  # per side-hand, summed per game id
HONOURS_PAIRS = [*[("n", x) for x in (*HELD, *SCORED, "h34")], ("h3", "c3"), ("h4", "c4"),
                 ("h34", "c34")]
DECOMPOSED = ["v", "p", "t", "h", "c"]  # values; squared deviations: points, tricks, honours;
#                                         cross products of tricks' and honours' deviations


def means_query(res: Results, hands: pl.LazyFrame | None = None) -> pl.LazyFrame:
    """Per cell the hand sums that give the means, from ``hands`` (default every block's):
    hands ``n``, both sides' trick points, honours points and points (``t_sum``, ``h_sum``,
    ``p_sum``) and side 0 minus side 1 (``tg_sum``, ``hg_sum``)."""
    t, h, p = ([_col(name, s) for s in (0, 1)] for name in ("trick_points", "honours_points",
                                                            "points"))
    hands = res.scan("hands") if hands is None else hands
    return hands.group_by(CELL).agg(
        n=pl.len(),
        t_sum=(t[0] + t[1]).sum(), h_sum=(h[0] + h[1]).sum(), p_sum=(p[0] + p[1]).sum(),
        tg_sum=(t[0] - t[1]).sum(), hg_sum=(h[0] - h[1]).sum())


DEALER_EXPRS = {  # side 0 minus side 1, per hand (times the dealer's sign)
    "points": lambda: _col("points", 0) - _col("points", 1),
    "trick_points": lambda: _col("trick_points", 0) - _col("trick_points", 1),
    "honours_points": lambda: _col("honours_points", 0) - _col("honours_points", 1),
    "tricks": lambda: (_col("tricks", 0) + _col("tricks", 2)) - (_col("tricks", 1)
                                                                 + _col("tricks", 3)),
    "honours": lambda: _col("honours", 0) - _col("honours", 1),
}


def _variance_parts(per: pl.DataFrame, level: str, bases: dict[str, str]) -> pl.DataFrame:
    """From one row per cell and cluster (game id) holding ``v`` (values) and the summed
    squared deviations and cross products ``p``, ``t``, ``h``, ``c`` of one level: per cell
    their `cluster_sums` (``part = cell``), and per variant with honours paired with its
    counterpart on the same game ids, line-up and seating, the cluster sums of both cells'
    ``v`` and ``p`` side by side (``part = pair``: av, ap, bv, bp)."""
    cells = cluster_sums(per, CELL, DECOMPOSED, pairs=[("v", k) for k in DECOMPOSED[1:]])
    out = [cells.with_columns(part=pl.lit("cell"), base=pl.lit(None, pl.String))]
    if bases:
        pairs = pl.DataFrame({"variant": list(bases), "base": list(bases.values())})
        a = per.select(*CELL, CLUSTER, av="v", ap="p").join(pairs, on="variant")
        b = per.select(pl.col("variant").alias("base"), "lineup", "swapped", CLUSTER, bv="v",
                       bp="p")
        both = a.join(b, on=["base", "lineup", "swapped", CLUSTER], how="inner")
        out.append(cluster_sums(both, [*CELL, "base"], ["av", "ap", "bv", "bp"])
                   .with_columns(part=pl.lit("pair")))
    return pl.concat(out, how="diagonal_relaxed").with_columns(level=pl.lit(level))


class HandSums(ClusterPass):
    """The hand level, one block at a time, summed per game id (a game's hands share its
    score, and every cell's hands of a game id its deals): ``part = honours``: per variant and
    role (both sides, the dealer's side, the other) the `cluster_sums` of the side-hands
    ``n``, those holding k honours (``h<k>``; ``h34``: three or four), scoring v honours
    points (``p<v>``) and holding three (four; three or four) that were scored (``c3``,
    ``c4``, ``c34``); ``part = dealer``: per cell the hands and the dealer's side's margins
    (`DEALER_METRICS`); and the hand level of the variance decomposition (`_variance_parts`:
    a hand's two sides' squared deviations from the cell's means, ``means``)."""

    keys = ["part", "level", "variant", "base", "lineup", "swapped", "role"]

    def __init__(self, res: Results, means: pl.DataFrame, bases: dict[str, str]):
        super().__init__(res)
        self.means = means.select(*CELL, mt=pl.col("t_sum") / (2 * pl.col("n")),
                                  mh=pl.col("h_sum") / (2 * pl.col("n")))
        self.bases = bases

    def sums(self, hands):
        long = pl.concat([hands.select(
            "variant", CLUSTER, role=pl.when(pl.col("dealer") % 2 == side).then(pl.lit("dealer"))
            .otherwise(pl.lit("other")),
            held=pl.col(f"honours_{side}").cast(pl.Int8),
            points=pl.col(f"honours_points_{side}").cast(pl.Int16)) for side in (0, 1)])
        held, points = pl.col("held"), pl.col("points")
        long = long.with_columns(
            n=pl.lit(1), **{f"h{k}": held == k for k in VALUES["held"]},
            **{f"p{v}": points == v for v in VALUES["points"]}, h34=held >= 3,
            c3=(held == 3) & (points > 0), c4=(held == 4) & (points > 0),
            c34=(held >= 3) & (points > 0))
        long = pl.concat([long, long.with_columns(role=pl.lit("all"))])
        honours = cluster_sums(long, ["variant", "role"], HONOURS, pairs=HONOURS_PAIRS)
        sign = _dealer_sign()
        dealer = cluster_sums(hands.select(*CELL, CLUSTER, n=pl.lit(1), **{
            m: sign * x() for m, x in DEALER_EXPRS.items()}), CELL, ["n", *DEALER_METRICS],
            pairs=[("n", m) for m in DEALER_METRICS])
        mine = hands.join(self.means.lazy(), on=CELL, how="inner")
        dt = [_col("trick_points", s) - pl.col("mt") for s in (0, 1)]
        dh = [_col("honours_points", s) - pl.col("mh") for s in (0, 1)]
        dp = [_col("points", s) - pl.col("mt") - pl.col("mh") for s in (0, 1)]
        per = mine.group_by(*CELL, CLUSTER).agg(
            v=2 * pl.len(), p=(dp[0] ** 2 + dp[1] ** 2).sum(), t=(dt[0] ** 2 + dt[1] ** 2).sum(),
            h=(dh[0] ** 2 + dh[1] ** 2).sum(), c=(dt[0] * dh[0] + dt[1] * dh[1]).sum())
        honours, dealer, per = collect_each([honours, dealer, per])
        return pl.concat([honours.with_columns(part=pl.lit("honours")),
                          dealer.with_columns(part=pl.lit("dealer")),
                          _variance_parts(per, "hand", self.bases)], how="diagonal_relaxed")


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
    """Per cell (games runs), from the games of `portland_units`, summed per game id (under
    ``rubber`` a rubber's games share it: one cluster): ``part = games``: the `cluster_sums` of
    ``g`` (games), ``n_hands``, ``wins`` (the first dealer's side won) and ``side1`` (side 1
    dealt first); and the game level of the variance decomposition (`_variance_parts`: the
    squared deviations of the margin and its parts from the cell's mean margins, ``means``)."""

    keys = ["part", "level", "variant", "base", "lineup", "swapped"]

    def __init__(self, res: Results, means: pl.DataFrame, bases: dict[str, str]):
        """``means``: per cell the hand sums of the first pass and the ``games`` count."""
        super().__init__(res)
        self.means = means.select(*CELL, mt=pl.col("tg_sum") / pl.col("games"),
                                  mh=pl.col("hg_sum") / pl.col("games"))
        self.bases = bases

    def block(self, units):
        dt = pl.col("t").cast(pl.Float64) - pl.col("mt")
        dh = pl.col("h").cast(pl.Float64) - pl.col("mh")
        dp = pl.col("margin").cast(pl.Float64) - pl.col("mt") - pl.col("mh")
        per = units.join(self.means, on=CELL, how="inner").group_by(*CELL, CLUSTER).agg(
            g=pl.len(), n_hands=pl.col("n_hands").sum(),
            wins=(pl.col("winner") == pl.col("first_side")).sum(),
            side1=(pl.col("first_side") == 1).sum(),
            v=pl.len(), p=(dp**2).sum(), t=(dt**2).sum(), h=(dh**2).sum(), c=(dt * dh).sum())
        games = cluster_sums(per, CELL, ["g", "n_hands", "wins", "side1"],
                             pairs=[("g", "n_hands"), ("g", "wins")])
        return pl.concat([games.with_columns(part=pl.lit("games")),
                          _variance_parts(per, "game", self.bases)], how="diagonal_relaxed")


# --- tables ------------------------------------------------------------------------------------

def honours_tables(res: Results, sums_: pl.DataFrame) -> tuple[pl.DataFrame | None,
                                                               pl.DataFrame | None,
                                                               pl.DataFrame | None]:
    """``honours_distribution`` and ``honours_counted`` from the honours parts of `HandSums`,
    and per variant (both sides) the shares of side-hands holding three or four honours
    (``three``) and of those that scored them (``counted``), with their intervals."""
    rules = _rules(res)
    trumps = [v for v in res.variants if rules[v].get("trump", "turn_up") != "none"]
    if not trumps:
        return None, None, None
    sums_ = sums_.filter(pl.col("variant").is_in(trumps))
    parts = []
    for kind, names in (("held", HELD), ("points", SCORED)):
        for name, value in zip(names, VALUES[kind], strict=True):
            part = with_share(sums_, "share", "n", name)
            parts.append(part.select(
                "variant", "role", pl.lit(kind).alias("kind"),
                pl.lit(value, pl.Int16).alias("value"),
                pl.col(f"s_{name}").cast(pl.Int64).alias("side_hands"),
                pl.col("s_n").cast(pl.Int64).alias("n"), "share", "share_lo", "share_hi"))
    dist = pl.concat(parts)
    exact = [exact_held(r, v) if k == "held" else float("nan")
             for r, v, k in dist.select("role", "value", "kind").iter_rows()]
    dist = dist.with_columns(pl.Series("exact", exact))
    dist = dist.sort(_rank(trumps, "variant"), _rank(list(ROLES), "role"),
                     _rank(list(VALUES), "kind"), "value")
    both = sums_.filter(role="all")
    pooled = with_share(with_share(both, "three", "n", "h34"), "counted", "h34", "c34").select(
        "variant", pl.col("s_n").cast(pl.Int64).alias("n"),
        pl.col("s_h34").cast(pl.Int64).alias("held"),
        pl.col("s_c34").cast(pl.Int64).alias("scored"),
        *[f"{k}{e}" for k in ("three", "counted") for e in ("", "_lo", "_hi")])
    scored = [v for v in trumps if rules[v].get("honours")]
    counted = None
    if scored:
        rows = both.filter(pl.col("variant").is_in(scored))
        counted = pl.concat([
            with_share(rows, "counted_rate", f"h{k}", f"c{k}").select(
                "variant", pl.lit(k, pl.Int8).alias("held"),
                pl.col(f"s_h{k}").cast(pl.Int64).alias("side_hands"),
                pl.col(f"s_c{k}").cast(pl.Int64).alias("counted"), "counted_rate",
                "counted_rate_lo", "counted_rate_hi") for k in (3, 4)])
        counted = counted.sort(_rank(scored, "variant"), "held")
    return dist, counted, pooled


def _decompose(sums_: pl.DataFrame, level: str, per_unit: int,
               means: dict[str, pl.Expr]) -> pl.DataFrame:
    """Variances, covariance, intervals and residual from the cluster sums of one level
    (`_variance_parts`, ``part = cell``).

    ``per_unit``: values per unit (2 sides per hand; 1 margin per game). With ``N`` values,
    var = sum(q) / (N - 1) for the summed squared deviations q (from the cell's means); as a
    ratio of sums over the clusters (games: their hands share the score; under ``rubber`` a
    rubber's games), ``sum(q) / sum(v)`` times ``N / (N - 1)``, its sampling variance is the
    ratio's (`stats.ratio_var`: the delta method over clusters; the means' own error does not
    change it to first order, the derivative of a sum of squared deviations with respect to
    the mean being zero there). With one unit per cluster (a run of hands; games without
    rubbers) this is ``(n / (N - 1))**2 * var(q) / n`` over the ``n`` units."""
    g = sums_["m_v"].to_numpy().astype(float)
    size = sums_["s_v"].to_numpy().astype(float)
    scale = size / (size - 1)
    out = sums_.select(pl.lit(level).alias("level"), *CELL,
                       pl.Series("units", (size / per_unit).astype(np.int64)),
                       pl.Series("n", size.astype(np.int64)),
                       *[e.alias(f"mean_{k}") for k, e in means.items()])
    est = {}
    for key in ("p", "t", "h", "c"):
        ratio, var_ratio = ratio_var(g, size, sums_[f"s_{key}"].to_numpy(),
                                     sums_[prod("v", "v")].to_numpy(),
                                     sums_[prod(key, key)].to_numpy(),
                                     sums_[prod("v", key)].to_numpy())
        value, var_value = scale * ratio, scale**2 * var_ratio
        est[key] = value
        if key == "c":
            with np.errstate(invalid="ignore"):
                half = t_quantile(0.5 + LEVEL / 2, g - 1) * np.sqrt(var_value)
            out = out.with_columns(pl.Series("cov", value), pl.Series("cov_lo", value - half),
                                   pl.Series("cov_hi", value + half))
            continue
        lo, hi, nu = variance_ci(value, var_value)
        name = {v: k for k, v in PARTS.items()}[key]
        out = out.with_columns(pl.Series(f"var_{name}", value), pl.Series(f"var_{name}_lo", lo),
                               pl.Series(f"var_{name}_hi", hi), pl.Series(f"df_{name}", nu))
    with np.errstate(invalid="ignore", divide="ignore"):
        share = (est["h"] + 2 * est["c"]) / est["p"]
    return out.with_columns(
        pl.Series("two_cov", 2 * est["c"]),
        pl.Series("residual", est["p"] - est["t"] - est["h"] - 2 * est["c"]),
        pl.Series("honours_share", share))


def _ratios(pairs: pl.DataFrame) -> pl.DataFrame:
    """Each honours variant's Var(points) over its counterpart's (same level, line-up and
    seating) on the same game ids: the quotient of two ratios over the same clusters and the
    t interval of its logarithm (`stats.ratio_quotient_ci`, the covariance of the two cells'
    estimates included: they share their deals), times the two variances' ``N / (N - 1)``."""
    out = with_ratio_quotient(pairs, "var_ratio", ("av", "ap"), ("bv", "bp"))
    na, nb = pl.col("s_av"), pl.col("s_bv")
    ddof = (na / (na - 1)) / (nb / (nb - 1))
    return out.select("level", *CELL, "base", *[(pl.col(f"var_ratio{e}") * ddof).alias(
        f"var_ratio{e}") for e in ("", "_lo", "_hi")])


def variance_table(res: Results, means: pl.DataFrame, hand_sums: pl.DataFrame,
                   game_sums: pl.DataFrame | None) -> pl.DataFrame:
    """``variance_decomposition`` from the cluster sums of the two levels (`HandSums`,
    `GameSums`) and the cell means."""
    cells = hand_sums.filter(part="cell")
    hand = cells.join(means, on=CELL, how="left", maintain_order="left")
    two_n = 2 * pl.col("n")
    parts = [_decompose(hand, "hand", 2, {
        "points": pl.col("p_sum") / two_n, "tricks": pl.col("t_sum") / two_n,
        "honours": pl.col("h_sum") / two_n})]
    pairs = [hand_sums.filter(part="pair")]
    if game_sums is not None:
        game = game_sums.filter(part="cell").join(means, on=CELL, how="left",
                                                  maintain_order="left")
        games = pl.col("games")
        parts.append(_decompose(game, "game", 1, {
            "points": (pl.col("tg_sum") + pl.col("hg_sum")) / games,
            "tricks": pl.col("tg_sum") / games, "honours": pl.col("hg_sum") / games}))
        pairs.append(game_sums.filter(part="pair"))
    out = pl.concat(parts)
    bases = counterparts(res)
    out = out.with_columns(base=pl.col("variant").replace_strict(
        bases, default=None, return_dtype=pl.String))
    ref = out.select("level", "lineup", "swapped", pl.col("variant").alias("base"),
                     pl.col("var_points").alias("var_base"))
    out = out.join(ref, on=["level", "base", "lineup", "swapped"], how="left",
                   maintain_order="left")
    pairs = [p for p in pairs if p.height]  # none: no variant has a counterpart in the run
    if pairs:
        out = out.join(_ratios(pl.concat(pairs, how="diagonal_relaxed")),
                       on=["level", *CELL, "base"], how="left", maintain_order="left")
    else:
        out = out.with_columns(pl.lit(None, pl.Float64).alias(f"var_ratio{e}")
                               for e in ("", "_lo", "_hi"))
    out = out.with_columns(pl.col("var_ratio", "var_ratio_lo", "var_ratio_hi")
                           .fill_null(float("nan")))
    out = out.with_columns(description=pl.col("level").replace_strict(LEVELS, default=""))
    first = ["level", "description", *CELL, "base", "units", "n"]
    out = out.select(*first, pl.exclude(*first))
    return out.sort(_rank(list(LEVELS), "level"), _rank(res.variants, "variant"),
                    _rank(res.lineups, "lineup"), "swapped")


def game_tables(res: Results, game_sums: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``game_length`` and ``first_dealer`` per cell from the cluster sums of `GameSums`
    (intervals over game ids: a rubber's games are one cluster)."""
    sums_ = game_sums.filter(part="games")
    length = with_ratio(sums_, "n_hands", "g", "n_hands").select(
        *CELL, pl.col("s_g").cast(pl.Int64).alias("games"), "n_hands", "n_hands_lo",
        "n_hands_hi")
    first = with_share(sums_, "win_rate", "g", "wins").select(
        *CELL, pl.col("s_g").cast(pl.Int64).alias("games"),
        pl.when(pl.col("s_side1") == pl.col("s_g")).then(pl.lit("1"))
        .when(pl.col("s_side1") == 0).then(pl.lit("0")).otherwise(pl.lit("both"))
        .alias("first_side"), pl.col("s_wins").cast(pl.Int64).alias("wins"), "win_rate",
        "win_rate_lo", "win_rate_hi")
    return _order(res, length), _order(res, first)


def dealer_table(res: Results, sums_: pl.DataFrame) -> pl.DataFrame:
    """``dealer_advantage`` from the dealer parts of `HandSums`: per cell and metric the mean
    per hand of the dealer's side's margin, its interval over games."""
    rules = _rules(res)
    parts = []
    for metric, description in DEALER_METRICS.items():
        part = with_ratio(sums_, "advantage", "n", metric)
        parts.append(part.select(*CELL, pl.lit(metric).alias("metric"),
                                 pl.lit(description).alias("description"),
                                 pl.col("s_n").cast(pl.Int64).alias("hands"), "advantage",
                                 "advantage_lo", "advantage_hi"))
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


def _findings(res: Results, t: dict, pooled: pl.DataFrame | None) -> dict[str, list[str]]:
    """The sections' findings from the tables and ``pooled`` (`honours_tables`' shares of
    three or four honours held and scored, per variant)."""
    out: dict[str, list[str]] = {"honours": [], "variance": [], "length": [], "dealer": []}
    dist, counted = t.get("honours_distribution"), t.get("honours_counted")
    if dist is not None and pooled is not None:
        v = dist["variant"][0]
        rows = dist.filter(variant=v, role="all", kind="held")
        three = rows.filter(pl.col("value") >= 3)
        exact = float(three["exact"].sum())
        four = rows.filter(value=4).row(0, named=True)
        p = pooled.filter(variant=v).row(0, named=True)
        out["honours"].append(
            f"A side holds three or four of the trump honours in "
            f"{_ci(p, 'three', 1, 100, unit='%')} of its hands ({v}; exact {100 * exact:.1f}%), "
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
    if counted is not None and pooled is not None:
        rules = _rules(res)
        for v in counted["variant"].unique(maintain_order=True):
            p = pooled.filter(variant=v).row(0, named=True)
            k, n = p["scored"], p["held"]
            if not n:
                continue
            why = []
            if rules[v].get("honours_order", "tricks_first") == "tricks_first":
                why.append("the trick points ended the game")
            if rules[v].get("honours_barred_at") is not None:
                why.append(f"the side had {rules[v]['honours_barred_at']} points or more")
            out["honours"].append(
                f"{v}: three or four honours held were scored in "
                f"{_ci(p, 'counted', 1, 100, unit='%')} of {n:,} side-hands"
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
    means = collect(means_query(res))
    if res.games_mode:
        means = means.join(collect(_game_counts(res)), on=CELL, how="left")
    bases = counterparts(res)
    hand_sums = HandSums(res, means, bases)
    block_pass(res, [hand_sums], block_scan)
    hand_total = hand_sums.total()

    game_sums = GameSums(res, means, bases) if res.games_mode else None
    paired = None
    if bases:
        metrics = ({"n_hands": pl.col("n_hands").cast(pl.Float64),
                    "first_win": (pl.col("winner") == pl.col("first_side")).cast(pl.Float64)}
                   if res.games_mode else {"dealer_margin": pl.col("dealer_margin")})
        paired = FirstGames(res, bases=bases, metrics=metrics)
    block_pass(res, [c for c in (game_sums, paired) if c is not None], portland_units)

    dist, counted, pooled = honours_tables(res, hand_total.filter(part="honours"))
    game_total = game_sums.total() if game_sums is not None else None
    tables = {"honours_distribution": dist, "honours_counted": counted,
              "variance_decomposition": variance_table(res, means, hand_total, game_total)}
    if game_total is not None:
        tables["game_length"], tables["first_dealer"] = game_tables(res, game_total)
    if paired is not None:
        tables["honours_paired"] = paired_variants(
            res, paired, PAIRED_GAME_METRICS if res.games_mode else PAIRED_HAND_METRICS)
    tables["dealer_advantage"] = dealer_table(res, hand_total.filter(part="dealer"))
    tables["points"] = points_table(res)
    tables["games"] = games_table(res)
    tables = {k: v for k, v in tables.items() if v is not None}
    return {"tables": tables, "findings": _findings(res, tables, pooled)}
