"""The bounds every number of a run stays within, in one place (issue 17 §2).

Results are small-dtype columns (STYLE.md practice 2; docs/SCHEMA.md): a hand's ``points_*`` and
their components are int16, the running ``score_*`` int32, ``hand_no`` int16. The rules keys'
declared ranges (``option(minimum=, maximum=)`` in each game's ``rules.py``) are chosen so that
no hand and no whole game can leave those dtypes (tests/test_ranges.py derives the worst cases
from the declarations): a hand scores at most `POINTS_MAX`, a game lasts at most `HAND_LIMIT`
hands, so no score passes ``HAND_LIMIT * POINTS_MAX`` < `SCORE_LIMIT`.

The sizes of a run are bounded too, so that a mistyped count is refused before anything starts
instead of hanging or running out of memory: `MAX_COUNT` games or hands per cell, `MAX_BLOCK`
per block, `MAX_BLOCKS` blocks per cell, and a block's estimated memory (`block_bytes`) within
what the machine has free (`available_memory`).
"""

from __future__ import annotations

import os

import numpy as np

__all__ = ["BONUS_MAX", "GAME_HANDS", "HAND_BYTES", "HAND_GUARD", "HAND_LIMIT", "MAX_BLOCK",
           "MAX_BLOCKS", "MAX_COUNT", "POINTS_MAX", "SCORE_LIMIT", "TARGET_LIMIT",
           "available_memory", "block_bytes", "check_block"]

POINTS_MAX = int(np.iinfo(np.int16).max)  # a hand's points and each component: int16 columns
HAND_LIMIT = int(np.iinfo(np.int16).max)  # hand_no and n_hands are int16: the longest game
HAND_GUARD = 10_000  # a game still running after this many hands (no max_hands) is reported
# the largest score a game reaches (HAND_LIMIT hands of at most POINTS_MAX is 1.07e9 at worst,
# and the declared ranges keep a hand far below POINTS_MAX); also the bound of a hand record's
# ``before`` scores: two of them differ by less than int32's 2.1e9, and one plus a hand's points
# stays an int32
SCORE_LIMIT = 10**9
TARGET_LIMIT = 10**6  # target, mercy and deficit keys: far inside SCORE_LIMIT
BONUS_MAX = 1000  # Spades' bonus keys: nil_bonus, blind_nil_bonus, ten_for_200_fail

MAX_COUNT = 10**9  # games or hands per cell of an experiment (or of a tune's evaluation)
MAX_BLOCK = 10**7  # games or hands per block
MAX_BLOCKS = 100_000  # blocks per cell (one Parquet file each)
# Memory of one hand row of a block at four players: its arrays, tables and hand records. Peak
# RSS measured 0.9-1.3 KB per row without records (spades.standard, portland, norwegian.three;
# six players 1.6 KB), and a hand record holds about 3 KB more while the block is written.
HAND_BYTES = 4096
GAME_HANDS = 16  # hands budgeted per game of a block (the shipped games average 2-10)


def block_bytes(rules, mode: str, size: int) -> int:
    """An estimate of the memory a block of ``size`` games or hands (``mode``) takes: `HAND_BYTES`
    per hand row, more with more players, `GAME_HANDS` rows per game (fewer under a smaller
    ``max_hands``)."""
    per_hand = HAND_BYTES * max(rules.players, 4) // 4
    rows = 1
    if mode == "games":
        limit = getattr(rules, "max_hands", None)
        rows = GAME_HANDS if limit is None else min(GAME_HANDS, limit)
    return size * rows * per_hand


def available_memory() -> int:
    """Bytes the machine can give a run now: MemAvailable of /proc/meminfo where there is one,
    else the physical memory."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover (no sysconf: no check)
        return 2**63


def check_block(rules, mode: str, size: int) -> str | None:
    """Why a block of ``size`` games or hands would not fit in memory (None if it would)."""
    need, free = block_bytes(rules, mode, size), available_memory()
    if need <= free:
        return None
    unit = "game" if mode == "games" else "hand"
    largest = free // max(block_bytes(rules, mode, 1), 1)
    return (f"a block of {size:,} {unit}s needs about {_gb(need)} of memory ({_gb(need // size)} "
            f"per {unit}), and {_gb(free)} is available: at most {largest:,} {unit}s per block")


def _gb(n: int) -> str:
    if n >= 2**30:
        return f"{n / 2**30:.1f} GB"
    if n >= 2**20:
        return f"{n / 2**20:.1f} MB"
    return f"{n / 2**10:.1f} KB"
