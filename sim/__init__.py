"""whistlab's engine: vectorised whist-family card games (RULES.md), below the strategies and
the application (`whistlab`: experiments, runs, the command line) and the reports."""

__version__ = "0.1.0"

from .spades import rules as _spades_rules  # noqa: F401, E402, I001  (Spades' presets first)
from . import games as _games  # noqa: F401, E402  (registers every game's presets)
