"""The test harness: one protocol for every game (`simulate` → `Run`), the invariants every game
shares (`check_invariants`), each game's comparison with its scalar reference (`compare`), and the
variant tables those comparisons run over (`harness.variants`).

Modules: ``core`` (the protocol), ``invariants``, ``schema`` (docs/SCHEMA.md's columns), one per
game (``spades``, ``portland``, ``norwegian``: the game's adapter and reference comparison) and
``variants``. tests/ is on ``sys.path`` under pytest, so ``from harness import ...`` works from
every test module.
"""

from __future__ import annotations

from . import norwegian, portland, spades
from .core import GAMES, MODES, Run, altered, play_lineup, simulate, strategies_of
from .invariants import CHECKS, check_invariants
from .schema import documented_columns

__all__ = ["CHECKS", "COMPARE", "GAMES", "MODES", "Run", "altered", "check_invariants",
           "compare", "documented_columns", "play_lineup", "simulate", "strategies_of"]

COMPARE = {"spades": spades.compare_records, "portland": portland.compare,
           "norwegian": norwegian.compare}


def compare(run: Run, name: str) -> int:
    """The engine against the game's scalar reference on every hand of ``run`` (and, in games
    mode, every game); returns how many hands were compared."""
    return COMPARE[run.rules.game](run, name)
