"""Spades (RULES.md §3, and §4 as its keys land): rules, bidding, one hand, scoring, games and
blocks, tables."""

from .game import play_block, play_blocks
from .hand import deck_for
from .records import block_records
from .replay import position_at, replay_group
from .tables import block_tables, missing_columns, written

__all__ = ["block_records", "block_tables", "deck_for", "missing_columns", "play_block", "play_blocks",
           "position_at", "replay_group", "written"]
