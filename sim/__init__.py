"""whistlab's engine: vectorised whist-family card games."""

from .spades import rules as _spades_rules  # noqa: F401  (registers the Spades presets)

__version__ = "0.1.0"
