"""whistlab's engine: vectorised whist-family card games."""

from . import spades as _spades  # noqa: F401  (registers the Spades presets)
from .spades import rules as _spades_rules  # noqa: F401

__version__ = "0.1.0"
