"""The games, by the ``game`` name of their rules: each module plays a block and builds its tables
(``play_block``, ``block_tables``, ``deck_for``); rules and presets register in `sim.options`."""

from __future__ import annotations

from types import ModuleType

from . import norwegian, portland, spades
from .norwegian import rules as _norwegian_rules  # noqa: F401  (registers the presets)
from .portland import rules as _portland_rules  # noqa: F401  (registers the presets)
from .spades import rules as _spades_rules  # noqa: F401  (registers the presets)

__all__ = ["GAMES", "game_of"]

GAMES: dict[str, ModuleType] = {"spades": spades, "portland": portland,
                                 "norwegian": norwegian}


def game_of(rules) -> ModuleType:
    return GAMES[rules.game]
