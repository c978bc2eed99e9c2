"""The notes on the methods every study's page ends with (its own come between)."""

from __future__ import annotations

__all__ = ["FILES", "FROM_TABLES", "INTERVALS", "pairing"]

FROM_TABLES = ("Built from the Parquet tables and manifest.json of the results folder alone; "
               "nothing was simulated again.")
INTERVALS = ("Every interval is 95%. Proportions: Wilson score intervals, "
             "scipy.stats.binomtest(k, n).proportion_ci(0.95, method='wilson'). Means and "
             "paired differences: Student t intervals from the count, mean and variance "
             "aggregated in polars, mean ± scipy.stats.t.ppf(0.975, n − 1) · sd / √n. Unpaired "
             "differences: Welch's interval.")
FILES = ("Every table is in tables/*.csv with full precision and the interval bounds in "
         "*_lo / *_hi columns (each table's CSV is linked beside it); the figures are in "
         "figures/*.png.")


def pairing(res) -> str:
    return ("Paired comparisons use the duplicate deals: every cell plays the same cards for "
            f"the same {' and '.join(res.key)}, so a per-deal difference removes the luck of "
            "the cards.")
