"""The intervals of `reports.stats` added to polars frames of aggregated counts and moments.

The report's sections aggregate lazily (polars ``group_by``) to counts ``k`` of ``n``, to the
moments ``n``, ``<name>_s1`` (sum) and ``<name>_s2`` (sum of squares), as `sums` writes them,
or, where the rows are not independent (the hands of one game, the seats of one hand, the
cells that play the same deals), to sums over clusters (the game id) of the clusters' totals
and their products, as `cluster_sums` writes them; the functions here turn those columns into
figures with their 95% intervals. (The run summary needs none of this, so that ``whistlab
run`` does not import polars: `reports.tallies`.)
"""

from __future__ import annotations

import numpy as np
import polars as pl

from .stats import (
    mean_ci,
    proportion_ci,
    ratio_ci,
    ratio_difference_ci,
    ratio_quotient_ci,
    share_ci,
    welch_ci,
)

__all__ = ["CLUSTER", "cluster_sums", "drop_cluster_sums", "moments", "paired", "prod",
           "ratio_args", "sums", "two_ratio_args", "with_cluster_means", "with_means",
           "with_proportion_ci", "with_ratio", "with_ratio_difference", "with_ratio_quotient",
           "with_share"]

CLUSTER = "game_id"  # the unit drawn independently: a game, or a hand in a run of hands, with
#                      every cell's rows of that id (the same deals)


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


# --- clusters ------------------------------------------------------------------------------------

def prod(a: str, b: str) -> str:
    """The column of the summed products of the cluster totals ``a`` and ``b``."""
    a, b = sorted((a, b))
    return f"s_{a}*{b}"


def cluster_sums(frame: pl.DataFrame | pl.LazyFrame, keys: list[str], names: list[str],
                 cluster: str = CLUSTER, pairs=None, summed: bool = False):
    """Per group of ``keys``, from rows that each belong to a cluster (column ``cluster``):
    ``clusters`` (how many clusters the group has rows in), and for every name its clusters'
    total summed (``s_<x>``), the clusters with a nonzero total (``m_<x>``: the clusters of a
    ratio over ``x``) and the sums of the products of the totals (``prod(x, y)``, for every
    pair of names, or the pairs given); the rows are summed to their cluster first (unless
    ``summed``: one row per group and cluster already). Every column adds up over disjoint sets
    of clusters (blocks: a game id never spans two), and `with_ratio`, `with_share` finish
    them. Lazy in, lazy out."""
    totals = (frame.with_columns(pl.col(names).cast(pl.Float64)) if summed else
              frame.group_by(*keys, cluster).agg(pl.col(names).cast(pl.Float64).sum()))
    if pairs is None:
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i:]]
    pairs = {tuple(sorted(p)) for p in pairs} | {(x, x) for p in pairs for x in p}
    return totals.group_by(keys).agg(
        pl.len().alias("clusters"), *[pl.col(x).sum().alias(f"s_{x}") for x in names],
        *[(pl.col(x) != 0).sum().alias(f"m_{x}") for x in names],
        *[(pl.col(a) * pl.col(b)).sum().alias(prod(a, b)) for a, b in sorted(pairs)])


def drop_cluster_sums(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` without the columns of `cluster_sums`."""
    return frame.drop([c for c in frame.columns if c == "clusters"
                       or c.startswith(("s_", "m_"))])


def ratio_args(frame: pl.DataFrame, x: str, y: str) -> tuple[np.ndarray, ...]:
    """The arguments of `stats.ratio_ci` for ``sum(y) / sum(x)`` from `cluster_sums`: the
    clusters with some ``x``, ``sx``, ``sy``, ``sxx``, ``syy``, ``sxy``."""
    def col(name):
        return frame[name].to_numpy().astype(float)
    return (col(f"m_{x}"), col(f"s_{x}"), col(f"s_{y}"), col(prod(x, x)), col(prod(y, y)),
            col(prod(x, y)))


def _finish(frame: pl.DataFrame, name: str, est, scale: float) -> pl.DataFrame:
    value, lo, hi = (np.asarray(a, dtype=float) * scale for a in est)
    return frame.with_columns(pl.Series(name, value), pl.Series(f"{name}_lo", lo),
                              pl.Series(f"{name}_hi", hi))


def with_ratio(frame: pl.DataFrame, name: str, x: str, y: str,
               scale: float = 1.0) -> pl.DataFrame:
    """Add ``name`` = sum(y) / sum(x) (times ``scale``) with its 95% delta-method t interval
    over clusters, ``name_lo`` / ``name_hi`` (`stats.ratio_ci`), from `cluster_sums`."""
    return _finish(frame, name, ratio_ci(*ratio_args(frame, x, y)), scale)


def with_share(frame: pl.DataFrame, name: str, x: str, y: str,
               scale: float = 1.0) -> pl.DataFrame:
    """Add the share ``name`` = sum(y) / sum(x) (successes ``y`` of trials ``x``; times
    ``scale``) with its 95% Wilson interval for clustered trials (`stats.share_ci`), from
    `cluster_sums`."""
    return _finish(frame, name, share_ci(*ratio_args(frame, x, y)), scale)


def with_cluster_means(frame: pl.DataFrame, names: list[str], x: str,
                       scale: float = 1.0) -> pl.DataFrame:
    """`with_ratio` of each name over ``x`` (e.g. points per hand over the hands), named as
    the name."""
    for name in names:
        frame = with_ratio(frame, name, x, name, scale)
    return frame


def two_ratio_args(frame: pl.DataFrame, a: tuple[str, str], b: tuple[str, str],
                   n: str = "clusters") -> tuple:
    """The arguments of `stats.two_ratios` for ``sum(a_y) / sum(a_x)`` and ``sum(b_y) /
    sum(b_x)`` over the same clusters, from `cluster_sums` of the four totals side by side
    (``n``: the clusters that hold both)."""
    def col(name):
        return frame[name].to_numpy().astype(float)

    def one(x, y):
        return (col(f"s_{x}"), col(f"s_{y}"), col(prod(x, x)), col(prod(y, y)),
                col(prod(x, y)))
    (ax, ay), (bx, by) = a, b
    cross = (col(prod(ax, bx)), col(prod(ax, by)), col(prod(ay, bx)), col(prod(ay, by)))
    return col(n), one(ax, ay), one(bx, by), cross


def with_ratio_difference(frame: pl.DataFrame, name: str, a: tuple[str, str],
                          b: tuple[str, str], scale: float = 1.0) -> pl.DataFrame:
    """Add ``name`` = sum(a_y) / sum(a_x) - sum(b_y) / sum(b_x) over the same clusters, with
    its 95% interval (`stats.ratio_difference_ci`)."""
    return _finish(frame, name, ratio_difference_ci(*two_ratio_args(frame, a, b)), scale)


def with_ratio_quotient(frame: pl.DataFrame, name: str, a: tuple[str, str],
                        b: tuple[str, str], scale: float = 1.0) -> pl.DataFrame:
    """Add ``name`` = (sum(a_y) / sum(a_x)) / (sum(b_y) / sum(b_x)) over the same clusters,
    with its 95% interval (`stats.ratio_quotient_ci`)."""
    return _finish(frame, name, ratio_quotient_ci(*two_ratio_args(frame, a, b)), scale)
