"""The clustered intervals of `reports.stats` on hand-made numbers: they reduce to the intervals
of independent units where every cluster holds one unit, they do not narrow when rows are copied
within their clusters (two cells that played alike), and the two-ratio forms match the
linearisation written out per cluster."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats

from reports.frame_stats import cluster_sums, two_ratio_args, with_ratio, with_share
from reports.stats import (
    proportion_ci,
    ratio_ci,
    ratio_difference_ci,
    ratio_quotient_ci,
    share_ci,
    two_ratios,
)

RNG = np.random.default_rng(22)


def sums(x, y):
    x, y = np.asarray(x, float), np.asarray(y, float)
    return len(x), x.sum(), y.sum(), (x * x).sum(), (y * y).sum(), (x * y).sum()


def test_one_unit_per_cluster_is_the_interval_of_independent_units():
    y = RNG.normal(3, 2, 50)
    _, lo, hi = ratio_ci(*sums(np.ones(50), y))
    ci = stats.ttest_1samp(y, 0).confidence_interval(0.95)
    assert (lo, hi) == pytest.approx((ci.low, ci.high))
    k = (RNG.random(80) < 0.3).astype(float)
    assert share_ci(*sums(np.ones(80), k)) == pytest.approx(proportion_ci(int(k.sum()), 80))
    # a paired difference over clusters of one: the t interval of the differences
    a, b = RNG.normal(1, 1, 40), RNG.normal(0.5, 1, 40)
    b = b + 0.8 * a  # correlated, as two cells on the same deals
    ones = np.ones(40)
    cross = ((ones * ones).sum(), (ones * b).sum(), (a * ones).sum(), (a * b).sum())
    d, lo, hi = ratio_difference_ci(40, sums(ones, a)[1:], sums(ones, b)[1:], cross)
    ci = stats.ttest_1samp(a - b, 0).confidence_interval(0.95)
    assert (d, lo, hi) == pytest.approx(((a - b).mean(), ci.low, ci.high))


def test_copies_within_a_cluster_do_not_narrow_the_interval():
    """Two cells that played every deal alike pool to the same share: the clustered interval is
    that of one cell, the interval of independent trials narrows by about 1/sqrt(2)."""
    games = 300
    frame = pl.DataFrame({"game_id": np.repeat(np.arange(games), 3),
                          "bid": (RNG.random(3 * games) < 0.4).astype(int)})
    frame = frame.with_columns(made=pl.col("bid") * (RNG.random(3 * games) < 0.7).astype(int))
    twice = pl.concat([frame.with_columns(cell=pl.lit(c)) for c in ("a", "b")])
    one = with_share(cluster_sums(frame.with_columns(k=pl.lit(1)), ["k"], ["bid", "made"]),
                     "p", "bid", "made").row(0, named=True)
    two = with_share(cluster_sums(twice.with_columns(k=pl.lit(1)), ["k"], ["bid", "made"]),
                     "p", "bid", "made").row(0, named=True)
    assert two["p"] == pytest.approx(one["p"])
    assert two["p_hi"] - two["p_lo"] == pytest.approx(one["p_hi"] - one["p_lo"], rel=1e-9)
    k, n = int(twice["made"].sum()), int(twice["bid"].sum())
    _, lo, hi = proportion_ci(k, n)
    assert (hi - lo) < 0.75 * (one["p_hi"] - one["p_lo"])
    mean = with_ratio(cluster_sums(twice.with_columns(k=pl.lit(1), n=pl.lit(1)), ["k"],
                                   ["n", "made"]), "m", "n", "made").row(0, named=True)
    alone = with_ratio(cluster_sums(frame.with_columns(k=pl.lit(1), n=pl.lit(1)), ["k"],
                                    ["n", "made"]), "m", "n", "made").row(0, named=True)
    assert mean["m_hi"] - mean["m_lo"] == pytest.approx(alone["m_hi"] - alone["m_lo"], rel=1e-9)


def test_two_ratios_match_the_linearisation_per_cluster():
    """Var and Cov of two ratios over the same clusters against the influence of each cluster
    written out: z_g = (y_g - R x_g) / sum(x), Var = m / (m - 1) sum(z_a**2), Cov likewise."""
    m = 60
    xa, xb = RNG.integers(1, 12, m).astype(float), RNG.integers(1, 12, m).astype(float)
    ya = xa * 2 + RNG.normal(0, 3, m)
    yb = 0.5 * ya + xb + RNG.normal(0, 2, m)
    frame = pl.DataFrame({"game_id": np.arange(m), "k": 1, "ax": xa, "ay": ya, "bx": xb,
                          "by": yb})
    total = cluster_sums(frame, ["k"], ["ax", "ay", "bx", "by"])
    n, a, b, cross = two_ratio_args(total, ("ax", "ay"), ("bx", "by"))
    ra, rb, va, vb, cov = (float(v[0]) for v in two_ratios(n, a, b, cross))
    za = (ya - ya.sum() / xa.sum() * xa) / xa.sum()
    zb = (yb - yb.sum() / xb.sum() * xb) / xb.sum()
    c = m / (m - 1)
    assert (ra, rb) == pytest.approx((ya.sum() / xa.sum(), yb.sum() / xb.sum()))
    assert (va, vb, cov) == pytest.approx((c * (za**2).sum(), c * (zb**2).sum(),
                                           c * (za * zb).sum()))
    q, lo, hi = (float(v[0]) for v in ratio_quotient_ci(n, a, b, cross))
    half = stats.t.ppf(0.975, m - 1) * np.sqrt(c * ((za / ra - zb / rb) ** 2).sum())
    assert (q, lo, hi) == pytest.approx((ra / rb, ra / rb * np.exp(-half),
                                         ra / rb * np.exp(half)))


def test_no_interval_from_one_cluster_and_exact_ends():
    assert np.isnan(ratio_ci(*sums([3.0], [2.0]))[1])
    assert np.isnan(share_ci(*sums([3.0], [2.0]))[1])
    p, lo, hi = share_ci(*sums([2, 3, 4], [0, 0, 0]))  # nothing made: 0 and above
    assert (p, lo) == (0, 0) and 0 < hi < 1
    p, lo, hi = share_ci(*sums([2, 3, 4], [2, 3, 4]))
    assert (p, hi) == (1, 1) and 0 < lo < 1
