"""Rows of a batched state: every game's state is a tree of frozen dataclasses whose arrays put
the batch axis first (``[N, ...]``), so one function takes the rows of any of them."""

from __future__ import annotations

import dataclasses

import numpy as np

__all__ = ["join_rows", "take_rows"]


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


def join_rows(values, counts):
    """The rows of several states of one kind, one after another (`take_rows` undone): every
    array whose first axis holds each value's ``counts[i]`` rows is concatenated, through
    dataclasses, tuples and dicts; anything else is the first value's."""
    first = values[0]
    if isinstance(first, np.ndarray):
        batch = first.ndim and all(isinstance(v, np.ndarray) and v.ndim and v.shape[0] == c
                                   for v, c in zip(values, counts, strict=True))
        return np.concatenate(values) if batch else first
    if dataclasses.is_dataclass(first) and not isinstance(first, type):
        changes = {f.name: join_rows([getattr(v, f.name) for v in values], counts)
                   for f in dataclasses.fields(first) if f.init}
        return dataclasses.replace(first, **changes)
    if isinstance(first, dict):
        return {k: join_rows([v[k] for v in values], counts) for k in first}
    if isinstance(first, tuple):
        return tuple(join_rows([v[i] for v in values], counts) for i in range(len(first)))
    return first
