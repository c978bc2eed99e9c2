"""whistlab's engine: vectorised whist-family card games.

The notebook API is `simulate`, `run` and `load` (see `sim.api`); it is imported on first use, so
that the engine's worker processes do not load polars."""

from .spades import rules as _spades_rules  # noqa: F401, I001  (Spades' presets list first)
from . import games as _games  # noqa: F401  (registers every game's presets)

__version__ = "0.1.0"
__all__ = ["load", "run", "simulate"]


def __getattr__(name):
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'sim' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
