"""whistlab's engine: vectorised whist-family card games.

The notebook API is `simulate`, `run` and `load` (see `sim.api`)."""

from .spades import rules as _spades_rules  # noqa: F401  (registers the Spades presets)

__version__ = "0.1.0"

from .api import load, run, simulate  # noqa: E402  (after __version__, which the runner reads)

__all__ = ["load", "run", "simulate"]
