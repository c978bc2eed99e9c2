"""The tolerance of the statistical tests (STYLE.md section 11): counts against exact probabilities.

Each observed count is binomial(N, p) under the null hypothesis and must lie within ``SIGMAS``
standard deviations of ``N p``; a table as a whole must pass a chi-square test whose
Wilson-Hilferty normal deviate is below ``SIGMAS``, bins with an expected count below 20 pooled.
Shared by tests/test_deal.py and the Portland and Norwegian combinatorics tests.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["SIGMAS", "binomial_z", "check_distribution", "chi_square_z", "wilson_hilferty"]

SIGMAS = 5.0


def binomial_z(observed, n: int, p) -> np.ndarray:
    """Standardised deviation of binomial(n, p) counts."""
    p = np.asarray(p, dtype=float)
    return (np.asarray(observed, dtype=float) - n * p) / np.sqrt(n * p * (1 - p))


def wilson_hilferty(x: float, df: int) -> float:
    """The normal deviate of a chi-square statistic ``x`` with ``df`` degrees of freedom:
    ``((x / df)^(1/3) - (1 - 2 / (9 df))) / sqrt(2 / (9 df))``."""
    return ((x / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))


def chi_square_z(observed, expected, df: int) -> float:
    """The Wilson-Hilferty deviate of the chi-square statistic of counts against expectations."""
    observed = np.asarray(observed, dtype=float)
    expected = np.asarray(expected, dtype=float)
    return wilson_hilferty(float(((observed - expected) ** 2 / expected).sum()), df)


def check_distribution(observed: dict, probs: dict, n: int, what: str):
    """Counts of categories against exact probabilities (which must total 1): no count in an
    impossible category or outside the categories, every category within SIGMAS, and a
    chi-square over the categories, rare ones pooled."""
    assert sum(probs.values()) == 1, what
    assert all(observed.get(k, 0) == 0 for k, p in probs.items() if p == 0), what  # impossible
    assert set(observed) <= set(probs), (what, set(observed) - set(probs))
    probs = {k: p for k, p in probs.items() if p > 0}
    big = [k for k in probs if n * probs[k] >= 20]
    small = [k for k in probs if k not in big]
    obs = [observed.get(k, 0) for k in big]
    exp = [n * float(probs[k]) for k in big]
    if small:
        obs.append(sum(observed.get(k, 0) for k in small))
        exp.append(n * float(sum(probs[k] for k in small)))
    assert sum(obs) == n, what
    z = binomial_z(obs, n, np.array(exp) / n)
    assert np.abs(z).max() < SIGMAS, (what, dict(zip(big + ["rest"], z.round(2), strict=False)))
    assert chi_square_z(obs, exp, len(obs) - 1) < SIGMAS, what
