"""Rows of a batched state: every game's state is a tree of frozen dataclasses whose arrays put
the batch axis first (``[N, ...]``), so one function takes the rows of any of them."""

from __future__ import annotations

import dataclasses

import numpy as np

__all__ = ["take_rows"]


def take_rows(value, rows: np.ndarray, n: int):
    """``value`` with every array whose first axis is the batch (length ``n``) cut to ``rows``,
    through dataclasses, tuples and dicts; other values as they are. Arrays are copied (numpy's
    fancy indexing), so the result shares nothing that a later phase could change."""
    if isinstance(value, np.ndarray):
        return value[rows] if value.ndim and value.shape[0] == n else value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: take_rows(getattr(value, f.name), rows, n)
                   for f in dataclasses.fields(value) if f.init}
        return dataclasses.replace(value, **changes)
    if isinstance(value, dict):
        return {k: take_rows(v, rows, n) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(take_rows(v, rows, n) for v in value)
    return value
