"""95% confidence intervals, from scipy, for counts and moments aggregated elsewhere.

Nothing here sees a row of the tables: the report aggregates lazily (polars ``group_by``) to
counts ``k`` of ``n`` or to moments ``n``, ``sum``, ``sum of squares`` and turns those into
intervals here.

* proportions: Wilson score intervals, ``scipy.stats.binomtest(k, n).proportion_ci(0.95,
  method="wilson")`` (computed here as scipy computes it: `proportion_ci`);
* means and paired differences: Student t intervals from the aggregated moments, ``mean ±
  scipy.t_quantile(0.975, n - 1) * sqrt(var / n)`` (the interval that
  ``scipy.stats.ttest_1samp(x).confidence_interval(0.95)`` gives on the raw values ``x``);
* ratios of two sums over independent clusters (bags per side-hand, points per bag, with the
  game as cluster: its hands are not independent): the delta-method (linearisation) interval
  ``R ± t.ppf(0.975, n - 1) * sqrt(var(y - R x) / n) / mean(x)`` over the ``n`` cluster totals
  ``x``, ``y`` (`ratio_ci`);
* unpaired differences of two means: Welch's interval, ``t.ppf(0.975, df)`` on
  ``sqrt(var_a / n_a + var_b / n_b)`` with the Welch-Satterthwaite ``df``;
* variances: chi-square intervals ``nu * var / scipy.stats.chi2.ppf((0.975, 0.025), nu)``
  with the effective degrees of freedom ``nu = 2 var**2 / Var(var)`` that match the estimate's
  sampling variance (Satterthwaite), ``Var(var)`` estimated from the squared deviations
  (`variance_ci`); for normal data ``nu = n - 1`` and this is the textbook interval;
* ratios of two variances: ``scipy.stats.f.ppf`` on the same effective degrees of freedom.

The t quantiles and the Wilson interval come from `scipy.special` (``stdtrit``, ``ndtri``), as
``scipy.stats`` computes them, so that a run's summary does not import ``scipy.stats`` (half a
second); the chi-square and F quantiles of the report import it when first needed.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["LEVEL", "mean_ci", "proportion_ci", "ratio_ci", "t_quantile", "variance_ci",
           "variance_ratio_ci", "welch_ci"]

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


def ratio_ci(n, sx, sy, sxx, syy, sxy) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ratio ``R = sum(y) / sum(x)`` over ``n`` clusters and its 95% delta-method interval,
    from the summed cluster totals ``sx``, ``sy`` and products ``sxx``, ``syy``, ``sxy``; returns
    (R, lo, hi) as arrays. The linearised residual ``e = y - R x`` has the sample variance
    ``(syy - 2 R sxy + R**2 sxx) / (n - 1)`` (its mean is 0 by construction), and ``R``'s standard
    error is ``sqrt(var(e) / n) / mean(x)``; t with ``n - 1`` degrees of freedom. NaN when
    ``sum(x)`` is 0; no interval below two clusters."""
    n, sx, sy, sxx, syy, sxy = (np.asarray(a, dtype=float) for a in (n, sx, sy, sxx, syy, sxy))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(sx != 0, sy / sx, np.nan)
        var_e = np.maximum(syy - 2 * r * sxy + r * r * sxx, 0.0) / (n - 1)
        half = t_quantile(0.5 + LEVEL / 2, n - 1) * np.sqrt(var_e / n) / (sx / n)
    half = np.where(n >= 2, np.abs(half), np.nan)
    return r, r - half, r + half


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
