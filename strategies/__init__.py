"""Pluggable players. Each is registered by name; see `strategies.base` for the interface."""

from . import seed, uniform  # noqa: F401  (register "seed" and "random")
from .base import STRATEGIES, Strategy, make_strategy

__all__ = ["STRATEGIES", "Strategy", "make_strategy"]
