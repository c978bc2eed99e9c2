"""95% confidence intervals, from scipy, for counts and moments aggregated elsewhere.

Nothing here sees a row of the tables: the report aggregates lazily (polars ``group_by``) to
counts ``k`` of ``n``, to moments ``n``, ``sum``, ``sum of squares``, or to the sums over
clusters of cluster totals and their products, and turns those into intervals here.

* proportions of independent trials: Wilson score intervals, ``scipy.stats.binomtest(k,
  n).proportion_ci(0.95, method="wilson")`` (computed here as scipy computes it:
  `proportion_ci`);
* means and paired differences of independent units: Student t intervals from the aggregated
  moments, ``mean ± scipy.t_quantile(0.975, n - 1) * sqrt(var / n)`` (the interval that
  ``scipy.stats.ttest_1samp(x).confidence_interval(0.95)`` gives on the raw values ``x``);
* figures whose rows are not independent (the hands of one game, the seats of one hand, the
  cells that play the same deals): ratios of two sums over independent clusters (the game id),
  ``R = sum(y) / sum(x)`` with ``x`` and ``y`` the clusters' totals (hands and points, bids and
  nils made ...). Their variance is the delta-method (Taylor linearisation) variance of a
  ratio estimator over clusters drawn independently (Cochran, *Sampling Techniques*, 3rd ed.
  1977, §6.4 and §11.8; Wolter, *Introduction to Variance Estimation*, 2nd ed. 2007, §6.5):
  ``Var(R) = m / (m - 1) * sum(e**2) / sum(x)**2`` with the linearised residuals ``e = y - R x``
  over the ``m`` clusters with ``x != 0`` (`ratio_var`). Means get the t interval on ``m - 1``
  degrees of freedom (`ratio_ci`); shares the Wilson interval with the effective number of
  trials ``p (1 - p) / Var(p)`` (the design effect, Kish 1965; Korn and Graubard 1998) and the
  t quantile (`share_ci`). In a run of independent hands every hand is its own game, and
  with one value per cluster (``x = 1``) both reduce to the intervals of independent units
  (t, and Wilson's);
* two ratios over the same clusters (a variant and its base on the same deals): their
  covariance by the same linearisation, ``m / (m - 1) * sum(e_a e_b) / (sum(x_a) sum(x_b))``
  (`two_ratios`); the difference gets the t interval (`ratio_difference_ci`), the quotient
  (a ratio of two variances, each a ratio of summed squared deviations to values) the t
  interval of its logarithm (`ratio_quotient_ci`);
* unpaired differences of two means: Welch's interval, ``t.ppf(0.975, df)`` on
  ``sqrt(var_a / n_a + var_b / n_b)`` with the Welch-Satterthwaite ``df``;
* variances: chi-square intervals ``nu * var / scipy.stats.chi2.ppf((0.975, 0.025), nu)``
  with the effective degrees of freedom ``nu = 2 var**2 / Var(var)`` that match the estimate's
  sampling variance (Satterthwaite), ``Var(var)`` estimated from the squared deviations
  (`variance_ci`; over clusters, by `ratio_var`); for normal data ``nu = n - 1`` and this is the
  textbook interval;
* ratios of two independent variances: ``scipy.stats.f.ppf`` on the same effective degrees of
  freedom (`variance_ratio_ci`; the report's variants share their deals, so it uses
  `ratio_quotient_ci` instead).

The t quantiles and the Wilson interval come from `scipy.special` (``stdtrit``, ``ndtri``), as
``scipy.stats`` computes them, so that a run's summary does not import ``scipy.stats`` (half a
second); the chi-square and F quantiles of the report import it when first needed.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["LEVEL", "mean_ci", "proportion_ci", "ratio_ci", "ratio_difference_ci",
           "ratio_quotient_ci", "ratio_var", "share_ci", "t_quantile", "two_ratios",
           "variance_ci", "variance_ratio_ci", "welch_ci", "wilson"]

LEVEL = 0.95


def proportion_ci(k: int, n: int) -> tuple[float, float, float]:
    """The share ``k / n`` and its 95% Wilson interval; NaNs when ``n`` is 0. The interval of
    ``scipy.stats.binomtest(k, n).proportion_ci(0.95, method="wilson")``, computed with its
    formula (Newcombe 1998), term for term."""
    if n <= 0:
        return (float("nan"),) * 3
    from scipy.special import ndtri

    share = k / n
    k, n = int(k), int(n)
    if not 0 <= k <= n:
        raise ValueError(f"k ({k}) must be in [0, n = {n}]")
    p = k / n
    z = ndtri(0.5 + 0.5 * LEVEL)
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    q = 1 - p
    delta = z / denom * math.sqrt(4 * n * p * q + z**2)
    low = 0.0 if k == 0 else center - delta
    high = 1.0 if k == n else center + delta
    return share, float(low), float(high)


def t_quantile(q: float, df) -> np.ndarray:
    """``scipy.t_quantile(q, df)`` for ``0 < q < 1``, as it computes it: ``stdtrit(df, q)``
    where ``df > 0``, NaN elsewhere."""
    from scipy.special import stdtrit

    df = np.asarray(df, dtype=float)
    with np.errstate(invalid="ignore"):
        out = np.where(df > 0, stdtrit(df, q), np.nan)
    return out[()] if out.ndim == 0 else out


def mean_ci(n, mean, var) -> tuple[np.ndarray, np.ndarray]:
    """The 95% t interval of a mean from its sample's size, mean and variance (ddof 1), as
    arrays; NaN below two values."""
    n, mean, var = (np.asarray(a, dtype=float) for a in (n, mean, var))
    with np.errstate(invalid="ignore", divide="ignore"):
        half = t_quantile(0.5 + LEVEL / 2, n - 1) * np.sqrt(var / n)
    half = np.where(n >= 2, half, np.nan)
    return mean - half, mean + half


def ratio_var(n, sx, sy, sxx, syy, sxy) -> tuple[np.ndarray, np.ndarray]:
    """The ratio ``R = sum(y) / sum(x)`` over ``n`` independent clusters and its delta-method
    variance, from the summed cluster totals ``sx``, ``sy`` and products ``sxx``, ``syy``,
    ``sxy``; returns (R, Var(R)) as arrays.

    Linearised about the estimate, ``R - R0 = sum(e) / sum(x)`` to first order, with the
    residuals ``e_g = y_g - R x_g`` of the clusters (Cochran 1977, §6.4): their sum is 0 by
    construction and their sum of squares ``syy - 2 R sxy + R**2 sxx``, so ``Var(R) = n / (n - 1)
    * sum(e**2) / sum(x)**2`` (the usual ``var(e) / (n mean(x)**2)`` with ``var(e) = sum(e**2) /
    (n - 1)``). ``n`` counts the clusters that hold any ``x`` (a cluster with ``x = 0`` has ``y =
    0`` and adds nothing). NaN when ``sum(x)`` is 0 or below two clusters."""
    n, sx, sy, sxx, syy, sxy = (np.asarray(a, dtype=float) for a in (n, sx, sy, sxx, syy, sxy))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(sx != 0, sy / sx, np.nan)
        ss_e = np.maximum(syy - 2 * r * sxy + r * r * sxx, 0.0)
        var = np.where(n >= 2, n / (n - 1) * ss_e / (sx * sx), np.nan)
    return r, var


def ratio_ci(n, sx, sy, sxx, syy, sxy) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ratio ``R = sum(y) / sum(x)`` over ``n`` clusters and its 95% delta-method interval
    (`ratio_var`), ``R ± t.ppf(0.975, n - 1) * sqrt(Var(R))``; returns (R, lo, hi) as arrays.
    This is ``R ± t * sqrt(var(e) / n) / mean(x)`` over the cluster residuals ``e = y - R x``;
    with one value per cluster (``x = 1``) it is the t interval of the mean of ``y``. NaN when
    ``sum(x)`` is 0; no interval below two clusters."""
    r, var = ratio_var(n, sx, sy, sxx, syy, sxy)
    with np.errstate(invalid="ignore"):
        half = t_quantile(0.5 + LEVEL / 2, np.asarray(n, dtype=float) - 1) * np.sqrt(var)
    return r, r - half, r + half


def wilson(p, n, q) -> tuple[np.ndarray, np.ndarray]:
    """The Wilson score interval of a share ``p`` of ``n`` trials (``n`` may be an effective
    number, and infinite) with the quantile ``q``: the ``pi`` with ``(p - pi)**2 <= q**2 pi (1 -
    pi) / n``, i.e. ``(p + q**2 / 2n) / (1 + q**2 / n) ± q / (1 + q**2 / n) * sqrt(p (1 - p) / n
    + q**2 / 4n**2)`` (Wilson 1927; `proportion_ci`'s formula with ``z`` -> ``q``); 0 and 1 exact
    at ``p = 0`` and ``p = 1``."""
    p, n, q = (np.asarray(a, dtype=float) for a in (p, n, q))
    with np.errstate(invalid="ignore", divide="ignore"):
        a = q * q / n
        center = (p + a / 2) / (1 + a)
        half = q / (1 + a) * np.sqrt(p * (1 - p) / n + a / (4 * n))
    lo = np.where(p <= 0, 0.0, center - half)
    hi = np.where(p >= 1, 1.0, center + half)
    return lo, hi


def share_ci(n, sx, sy, sxx, syy, sxy) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The share ``p = sum(y) / sum(x)`` (``y`` successes among ``x`` trials per cluster, over
    ``n`` independent clusters) and its 95% interval; returns (p, lo, hi) as arrays.

    The Wilson interval for clustered trials: the trials count as ``n_eff = p (1 - p) /
    Var(p)``, ``Var(p)`` the ratio's delta-method variance over clusters (`ratio_var`), i.e. the
    ``sum(x)`` trials divided by the design effect (Kish, *Survey Sampling*, 1965, §8.2), with
    the t quantile on ``n - 1`` degrees of freedom in place of the normal one (Korn and
    Graubard, Survey Methodology 24, 1998, 193-201; Dean and Pagano, J. Survey Statistics and
    Methodology 3, 2015, 484-503). Where every cluster agrees
    (``p`` 0 or 1, no variance to measure) the trials count as ``sum(x)``. No interval below
    two clusters. Where every cluster is one trial (``sum(x) = n``: the trials are
    independent) this is Wilson's own interval of ``sum(y)`` of ``n`` (`proportion_ci`)."""
    n, sx = np.asarray(n, dtype=float), np.asarray(sx, dtype=float)
    p, var = ratio_var(n, sx, sy, sxx, syy, sxy)
    from scipy.special import ndtri

    with np.errstate(invalid="ignore", divide="ignore"):
        inside = (p > 0) & (p < 1)
        single = sx == n  # every cluster one trial
        n_eff = np.where(single | ~inside, sx, p * (1 - p) / var)
        q = np.where(single, ndtri(0.5 + 0.5 * LEVEL), t_quantile(0.5 + LEVEL / 2, n - 1))
    lo, hi = wilson(p, n_eff, q)
    none = ~(n >= 2) | ~np.isfinite(p)
    return p, np.where(none, np.nan, lo), np.where(none, np.nan, hi)


def two_ratios(n, a, b, cross) -> tuple[np.ndarray, ...]:
    """Two ratios over the same ``n`` clusters (a variant's cells and its base's on the same
    deals): ``a`` and ``b`` are each ``(sx, sy, sxx, syy, sxy)`` as for `ratio_var`, ``cross``
    the sums of the products of their cluster totals ``(x_a x_b, x_a y_b, y_a x_b, y_a y_b)``.
    Returns ``(R_a, R_b, Var(R_a), Var(R_b), Cov(R_a, R_b))``: the covariance by the same
    linearisation, ``n / (n - 1) * sum(e_a e_b) / (sum(x_a) sum(x_b))`` with ``sum(e_a e_b) =
    sum(y_a y_b) - R_b sum(y_a x_b) - R_a sum(x_a y_b) + R_a R_b sum(x_a x_b)``."""
    ra, va = ratio_var(n, *a)
    rb, vb = ratio_var(n, *b)
    n = np.asarray(n, dtype=float)
    xx, xy, yx, yy = (np.asarray(c, dtype=float) for c in cross)
    with np.errstate(invalid="ignore", divide="ignore"):
        s_ab = yy - rb * yx - ra * xy + ra * rb * xx
        cov = np.where(n >= 2, n / (n - 1) * s_ab / (np.asarray(a[0], dtype=float)
                                                     * np.asarray(b[0], dtype=float)), np.nan)
    return ra, rb, va, vb, cov


def ratio_difference_ci(n, a, b, cross) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``R_a - R_b`` of `two_ratios` and its 95% interval: t on ``n - 1`` degrees of freedom
    with ``Var = Var(R_a) + Var(R_b) - 2 Cov``; returns (difference, lo, hi)."""
    ra, rb, va, vb, cov = two_ratios(n, a, b, cross)
    d = ra - rb
    with np.errstate(invalid="ignore"):
        half = (t_quantile(0.5 + LEVEL / 2, np.asarray(n, dtype=float) - 1)
                * np.sqrt(np.maximum(va + vb - 2 * cov, 0.0)))
    return d, d - half, d + half


def ratio_quotient_ci(n, a, b, cross) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``R_a / R_b`` of `two_ratios` (both positive) and its 95% interval, from the t interval
    of its logarithm (a quotient is skewed; its log is nearly symmetric): ``Var(log R_a - log
    R_b) = Var(R_a) / R_a**2 + Var(R_b) / R_b**2 - 2 Cov / (R_a R_b)``, ``exp(log(R_a / R_b) ±
    t.ppf(0.975, n - 1) * sqrt(that))``; returns (quotient, lo, hi)."""
    ra, rb, va, vb, cov = two_ratios(n, a, b, cross)
    with np.errstate(invalid="ignore", divide="ignore"):
        quotient = ra / rb
        var_log = np.maximum(va / ra**2 + vb / rb**2 - 2 * cov / (ra * rb), 0.0)
        half = t_quantile(0.5 + LEVEL / 2, np.asarray(n, dtype=float) - 1) * np.sqrt(var_log)
        lo, hi = quotient * np.exp(-half), quotient * np.exp(half)
    ok = (ra > 0) & (rb > 0)
    return quotient, np.where(ok, lo, np.nan), np.where(ok, hi, np.nan)


def welch_ci(n_a, mean_a, var_a, n_b, mean_b, var_b) -> tuple[np.ndarray, np.ndarray]:
    """The 95% interval of ``mean_a - mean_b`` for two independent samples (Welch)."""
    n_a, mean_a, var_a, n_b, mean_b, var_b = (np.asarray(a, dtype=float) for a in
                                              (n_a, mean_a, var_a, n_b, mean_b, var_b))
    with np.errstate(invalid="ignore", divide="ignore"):
        ua, ub = var_a / n_a, var_b / n_b
        se = np.sqrt(ua + ub)
        df = (ua + ub) ** 2 / (ua**2 / (n_a - 1) + ub**2 / (n_b - 1))
        half = t_quantile(0.5 + LEVEL / 2, df) * se
    half = np.where(se > 0, half, 0.0)
    diff = mean_a - mean_b
    return diff - half, diff + half


def variance_ci(var, var_var) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The 95% interval of a variance estimate ``var`` whose sampling variance is estimated as
    ``var_var``; returns (lo, hi, nu), as arrays.

    A chi-square interval, ``nu * var / chi2.ppf(0.975, nu)`` to ``nu * var / chi2.ppf(0.025,
    nu)``, with the effective degrees of freedom ``nu = 2 var**2 / var_var``: the scaled
    chi-square whose variance matches the estimate's (Satterthwaite). With normal data
    ``var_var = 2 var**2 / (n - 1)``, so ``nu = n - 1`` and this is the usual normal-theory
    interval; with the report's skewed, discrete points the fourth moment that ``var_var``
    carries widens it as it should (the plain ``n - 1`` interval would not). A zero variance
    (a constant, e.g. honours points without the honours rule) has the interval [0, 0]."""
    from scipy import stats

    var, var_var = (np.asarray(a, dtype=float) for a in (var, var_var))
    with np.errstate(invalid="ignore", divide="ignore"):
        nu = 2 * var**2 / var_var
        lo = nu * var / stats.chi2.ppf(0.5 + LEVEL / 2, nu)
        hi = nu * var / stats.chi2.ppf(0.5 - LEVEL / 2, nu)
    exact = (var_var <= 0) | (var <= 0)  # a constant, or a variance known without error
    lo, hi = np.where(exact, np.maximum(var, 0), lo), np.where(exact, np.maximum(var, 0), hi)
    return lo, hi, nu


def variance_ratio_ci(ratio, nu_a, nu_b) -> tuple[np.ndarray, np.ndarray]:
    """The 95% interval of ``ratio = var_a / var_b`` from two independent variance estimates
    with effective degrees of freedom ``nu_a``, ``nu_b`` (see `variance_ci`):
    ``ratio / f.ppf(0.975, nu_a, nu_b)`` to ``ratio / f.ppf(0.025, nu_a, nu_b)``."""
    from scipy import stats

    ratio, nu_a, nu_b = (np.asarray(a, dtype=float) for a in (ratio, nu_a, nu_b))
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = ratio / stats.f.ppf(0.5 + LEVEL / 2, nu_a, nu_b)
        hi = ratio / stats.f.ppf(0.5 - LEVEL / 2, nu_a, nu_b)
    return lo, hi
