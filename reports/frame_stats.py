"""The intervals of `reports.stats` added to polars frames of aggregated counts and moments.

The report's sections aggregate lazily (polars ``group_by``) to counts ``k`` of ``n`` or to the
moments ``n``, ``<name>_s1`` (sum) and ``<name>_s2`` (sum of squares), as `sums` writes them;
the functions here turn those columns into figures with their 95% intervals. (The run summary
needs none of this, so that ``whistlab run`` does not import polars: `reports.tallies`.)
"""

from __future__ import annotations

import numpy as np
import polars as pl

from .stats import mean_ci, proportion_ci, welch_ci

__all__ = ["moments", "paired", "sums", "with_means", "with_proportion_ci"]


def with_proportion_ci(frame: pl.DataFrame, k: str, n: str, name: str,
                       scale: float = 1.0) -> pl.DataFrame:
    """Add ``name``, ``name_lo``, ``name_hi``: the share ``k / n`` (times ``scale``, e.g. 100 for
    a rate per 100) with its Wilson interval, one scipy call per row (the frames are small)."""
    rows = [proportion_ci(a, b) for a, b in zip(frame[k].to_list(), frame[n].to_list(),
                                                strict=True)]
    est = np.array(rows, dtype=float).reshape(-1, 3) * scale
    return frame.with_columns(pl.Series(name, est[:, 0]), pl.Series(f"{name}_lo", est[:, 1]),
                              pl.Series(f"{name}_hi", est[:, 2]))


def moments(frame: pl.DataFrame, prefix: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Size, mean and variance (ddof 1) from the summed moments ``n``, ``<prefix>_s1`` (sum) and
    ``<prefix>_s2`` (sum of squares) that the block-by-block passes accumulate."""
    n = frame["n"].to_numpy().astype(float)
    s1 = frame[f"{prefix}_s1"].to_numpy().astype(float)
    s2 = frame[f"{prefix}_s2"].to_numpy().astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s1 / n
        var = np.maximum(s2 - s1 * mean, 0.0) / (n - 1)
    return n, mean, var


def paired(frame: pl.DataFrame) -> dict[str, np.ndarray]:
    """The paired comparison of summed moments ``a`` (a cell), ``b`` (its base) and ``d`` (their
    differences per paired unit): ``n``, the means ``a``, ``b``, ``d``, the t intervals
    ``a_lo``/``a_hi`` and ``d_lo``/``d_hi``, and the unpaired (Welch) ``u_lo``/``u_hi``."""
    n, a, a_var = moments(frame, "a")
    _, b, b_var = moments(frame, "b")
    _, d, d_var = moments(frame, "d")
    (a_lo, a_hi), (d_lo, d_hi) = mean_ci(n, a, a_var), mean_ci(n, d, d_var)
    u_lo, u_hi = welch_ci(n, a, a_var, n, b, b_var)
    return dict(n=n, a=a, b=b, d=d, a_lo=a_lo, a_hi=a_hi, d_lo=d_lo, d_hi=d_hi, u_lo=u_lo,
                u_hi=u_hi)


def sums(name: str, expr: pl.Expr) -> list[pl.Expr]:
    """Aggregations of the moments of ``expr``: ``<name>_s1`` (sum) and ``<name>_s2`` (sum of
    squares), as floats, so that groups and blocks add up and `with_means` finishes them."""
    x = expr.cast(pl.Float64)
    return [x.sum().alias(f"{name}_s1"), (x * x).sum().alias(f"{name}_s2")]


def with_means(frame: pl.DataFrame, names: list[str], n: str = "n",
               scale: float = 1.0) -> pl.DataFrame:
    """Replace the summed moments ``<name>_s1``, ``<name>_s2`` of each name by the mean
    ``<name>`` (times ``scale``) and its 95% t interval ``<name>_lo``, ``<name>_hi``."""
    for name in names:
        size, mean, var = moments(frame.rename({n: "n"}) if n != "n" else frame, name)
        lo, hi = mean_ci(size, mean, var)
        frame = frame.with_columns(pl.Series(name, mean * scale),
                                   pl.Series(f"{name}_lo", lo * scale),
                                   pl.Series(f"{name}_hi", hi * scale)
                                   ).drop(f"{name}_s1", f"{name}_s2")
    return frame
