"""The report's clustered intervals recomputed from raw rows with pandas and scipy, written from
their definitions rather than from `reports.stats` (which sums products of cluster totals):
the tests compare the report's tables with these.

* `ratio_interval`: ``R = sum(y) / sum(x)`` over clusters; the residuals ``e = y - R x`` of the
  cluster totals, ``Var(R) = m / (m - 1) * sum(e**2) / sum(x)**2`` over the ``m`` clusters with
  ``x != 0``; ``R ± t(0.975, m - 1) sqrt(Var)``;
* `share_interval`: the same share with Wilson's interval for ``n_eff = p (1 - p) / Var(p)``
  trials and the t quantile: the two roots of ``(p - pi)**2 = q**2 pi (1 - pi) / n_eff``
  (Wilson's interval for independent trials, ``scipy.stats.binomtest``'s, where every cluster is
  one trial; ``sum(x)`` trials where ``p`` is 0 or 1); none from a single cluster.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

__all__ = ["cluster_totals", "ratio_interval", "share_interval"]


def cluster_totals(frame: pd.DataFrame, cluster, x: str, y: str) -> pd.DataFrame:
    """The totals of ``x`` and ``y`` per cluster (``cluster``: a column or columns)."""
    return frame.groupby(cluster)[[x, y]].sum()


def _ratio(totals: pd.DataFrame, x: str, y: str) -> tuple[float, float, int]:
    kept = totals[totals[x] != 0]
    m = len(kept)
    r = kept[y].sum() / kept[x].sum()
    e = kept[y] - r * kept[x]
    var = m / (m - 1) * (e**2).sum() / kept[x].sum() ** 2 if m > 1 else np.nan
    return float(r), float(var), m


def ratio_interval(frame: pd.DataFrame, cluster, x: str, y: str) -> tuple[float, float, float]:
    r, var, m = _ratio(cluster_totals(frame, cluster, x, y), x, y)
    if m < 2:  # no interval from one cluster
        return r, np.nan, np.nan
    half = stats.t.ppf(0.975, m - 1) * np.sqrt(var)
    return r, r - half, r + half


def share_interval(frame: pd.DataFrame, cluster, x: str, y: str) -> tuple[float, float, float]:
    totals = cluster_totals(frame, cluster, x, y)
    totals = totals[totals[x] != 0]  # the clusters of the share: those with a trial
    p, var, m = _ratio(totals, x, y)
    if m < 2:  # no interval from one cluster
        return p, np.nan, np.nan
    trials = totals[x].sum()
    if (totals[x] == 1).all() or p in (0.0, 1.0):
        ci = stats.binomtest(int(totals[y].sum()), int(trials)).proportion_ci(
            0.95, method="wilson") if (totals[x] == 1).all() else None
        if ci is not None:
            return p, float(ci.low), float(ci.high)
        n_eff, q = trials, stats.t.ppf(0.975, m - 1)
    else:
        n_eff, q = p * (1 - p) / var, stats.t.ppf(0.975, m - 1)
    # (p - pi)^2 n = q^2 pi (1 - pi)  <=>  (n + q^2) pi^2 - (2 n p + q^2) pi + n p^2 = 0
    roots = np.sort(np.roots([n_eff + q * q, -(2 * n_eff * p + q * q), n_eff * p * p]).real)
    lo, hi = roots
    return p, (0.0 if p == 0 else float(lo)), (1.0 if p == 1 else float(hi))
