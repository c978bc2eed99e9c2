"""whistlab: experiments on the engine (`sim`) with the strategies (`strategies`), run on every
core or a Dask cluster into Parquet tables, and the ``whistlab`` command.

The notebook API is `simulate`, `run` and `load` (`whistlab.api`), and one decision of a
strategy from a position, `decide` and `view_at` (`whistlab.decisions`)::

    >>> import whistlab
    >>> hands = whistlab.simulate(rules="spades.short", strategy="random", hands=10_000, seed=1)
    >>> whistlab.decide("expert", record)        # a hand record up to a decision

They are imported on first use, so that worker processes, which import `whistlab.runner`, do
not load polars."""

import importlib

from sim import __version__

__all__ = ["__version__", "decide", "load", "run", "simulate", "view_at"]

_LAZY = {"load": "api", "run": "api", "simulate": "api", "decide": "decisions",
         "view_at": "decisions"}  # name -> the module of this package that holds it


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'whistlab' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
