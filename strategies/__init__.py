"""Pluggable players. Each is registered by name; see `strategies.base` for the interface."""

from . import expert, norwegian_seed, portland_seed, seed, uniform  # noqa: F401  (register)
from .base import STRATEGIES, Strategy, make_strategy

__all__ = ["STRATEGIES", "Strategy", "make_strategy"]
