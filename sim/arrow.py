"""Arrow arrays straight from numpy buffers, without pyarrow's pandas check.

``pyarrow.array(ndarray)`` asks whether its argument is a pandas object, and that question imports
pandas (a third of a second, in every worker process). The tables of a block are columns of
numbers and bools, so they are wrapped here as Arrow buffers instead (numbers without a copy,
bools bit-packed): the same arrays, types and values as ``pyarrow.array`` makes of them.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

__all__ = ["array", "repeated", "table", "values"]

_TYPES = {np.dtype(t): pa.from_numpy_dtype(t) for t in
          (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
           np.float32, np.float64)}
_DTYPES = {kind: dtype for dtype, kind in _TYPES.items()}


def array(values: np.ndarray) -> pa.Array:
    """A one-dimensional numpy array of numbers or bools as an Arrow array (no nulls)."""
    values = np.asarray(values)
    if values.ndim != 1:
        raise ValueError(f"an Arrow column is one-dimensional, not of shape {values.shape}")
    if values.dtype == np.bool_:
        bits = np.packbits(values, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), values.size, [None, pa.py_buffer(bits)])
    kind = _TYPES.get(values.dtype)
    if kind is None:
        return pa.array(values)  # anything else, as pyarrow converts it (or refuses)
    return pa.Array.from_buffers(kind, values.size,
                                 [None, pa.py_buffer(np.ascontiguousarray(values))])


def repeated(text: str, n: int) -> pa.Array:
    """A string column holding ``text`` in each of its ``n`` rows."""
    data = text.encode("utf-8")
    offsets = np.arange(n + 1, dtype=np.int64) * len(data)
    kind = pa.string() if offsets[-1] < 2**31 else pa.large_string()
    offsets = offsets.astype(np.int32 if kind == pa.string() else np.int64)
    return pa.Array.from_buffers(kind, n, [None, pa.py_buffer(offsets), pa.py_buffer(data * n)])


def table(columns: dict[str, np.ndarray]) -> pa.Table:
    """A table of numpy columns (`array` each), in the dict's order."""
    return pa.Table.from_arrays([array(v) for v in columns.values()], names=list(columns))


def values(column: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """A column of numbers or bools without nulls (as `array` makes them) back as numpy, read
    from its buffers (``to_numpy`` would import pandas)."""
    kind = column.type
    dtype = np.dtype(bool) if kind == pa.bool_() else _DTYPES.get(kind)
    if dtype is None:
        raise ValueError(f"not a column of numbers or bools: {kind}")
    parts = [np.zeros(0, dtype)]
    for chunk in column.chunks if isinstance(column, pa.ChunkedArray) else [column]:
        if chunk.null_count:
            raise ValueError("a column with nulls")
        n, start, data = len(chunk), chunk.offset, chunk.buffers()[1]
        if dtype == np.bool_:
            bits = np.unpackbits(np.frombuffer(data, np.uint8), bitorder="little")
            parts.append(bits[start:start + n].astype(bool))
        else:
            parts.append(np.frombuffer(data, dtype)[start:start + n])
    return parts[-1] if len(parts) == 2 else np.concatenate(parts)
