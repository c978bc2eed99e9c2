"""Pluggable players. Each is registered by name; see `strategies.base` for the interface."""

from . import (  # noqa: F401  (register)
    expert,
    norwegian_expert,
    norwegian_seed,
    portland_expert,
    portland_seed,
    search,
    search_whist,
    seed,
    uniform,
)
from .base import STRATEGIES, Strategy, make_strategy

__all__ = ["STRATEGIES", "Strategy", "make_strategy"]
