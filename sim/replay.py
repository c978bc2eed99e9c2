"""Replay and score hand records (RULES.md §5) on the same vectorised engine as the simulation.

Each record's bids and plays are fed to the engine by a scripted player; the engine checks every
bid and card exactly as it checks a strategy's, derives who played each card and who won each
trick, and scores the hand. Records are grouped by their rules and replayed as batches, each game
by its own ``replay_group`` (``sim.spades.replay``, ``sim.portland.replay``).
"""

from __future__ import annotations

import json
from collections import defaultdict

from .errors import UserError
from .games import game_of
from .options import PRESETS, load_rules_in
from .records import read_jsonl

__all__ = ["replay_file", "replay_records"]


def replay_records(items: list[tuple[int, dict]], rules=None, source: str = "records"):
    """Score records; returns the output records in input order (input + tricks, points,
    components, after). ``rules`` (a preset, file or rules value) overrides the records' own."""
    fixed = None if rules is None else load_rules_in(rules, "--rules")
    groups = defaultdict(list)
    for pos, (line, rec) in enumerate(items):
        game = rec.get("game", "spades")
        if not isinstance(game, str) or game not in {r.game for r in PRESETS.values()}:
            raise UserError(f"game {game!r} cannot be replayed yet", source=source, line=line,
                            key="game")
        default = next(n for n, r in PRESETS.items() if r.game == game)  # the game's first
        spec = None if fixed is not None else rec.get("rules", default)
        groups[json.dumps(spec, sort_keys=True)].append((pos, line, rec))
    out: list[dict | None] = [None] * len(items)
    for key, members in groups.items():
        value = fixed or load_rules_in(json.loads(key), source, line=members[0][1])
        for pos, rec in game_of(value).replay_group(members, value, source):
            out[pos] = rec
    return out


def replay_file(path, rules=None) -> list[dict]:
    items = read_jsonl(path)
    if not items:
        raise UserError("holds no records", source=str(path))
    return replay_records(items, rules, source=str(path))
