"""Portland whist (RULES.md §1): rules, one hand, games and blocks, tables."""

from .game import play_block, play_blocks
from .hand import deck_for
from .replay import block_records, position_at, replay_group
from .tables import block_tables, missing_columns, written

__all__ = ["block_records", "block_tables", "deck_for", "missing_columns", "play_block", "play_blocks",
           "position_at", "replay_group", "written"]
