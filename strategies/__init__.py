"""Pluggable players. Each is registered by name; see `strategies.base` for the interface."""

from . import uniform  # noqa: F401  (registers "random")
from .base import STRATEGIES, Strategy, make_strategy

__all__ = ["STRATEGIES", "Strategy", "make_strategy"]
