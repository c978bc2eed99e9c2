"""whistlab: experiments on the engine (`sim`) with the strategies (`strategies`), run on every
core or a Dask cluster into Parquet tables, and the ``whistlab`` command.

The notebook API is `simulate`, `run` and `load` (`whistlab.api`)::

    >>> import whistlab
    >>> hands = whistlab.simulate(rules="spades.short", strategy="random", hands=10_000, seed=1)

It is imported on first use, so that worker processes, which import `whistlab.runner`, do not
load polars."""

from sim import __version__

__all__ = ["__version__", "load", "run", "simulate"]


def __getattr__(name):
    if name in ("load", "run", "simulate"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'whistlab' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
