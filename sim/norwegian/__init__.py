"""Norwegian whist (RULES.md §2): rules, the auction, one hand, games and blocks, tables."""

from .game import play_block
from .hand import deck_for
from .tables import block_tables


def replay_group(members, rules, source):
    from .replay import replay_group  # sim.replay imports the games: import on use

    return replay_group(members, rules, source)


def block_records(result, cell, game_offset):
    from .replay import block_records

    return block_records(result, cell, game_offset)


__all__ = ["block_records", "block_tables", "deck_for", "play_block", "replay_group"]
