"""Replay and score hand records (RULES.md §5) on the same vectorised engine as the simulation.

Each record's bids and plays are fed to the engine by a scripted player; the engine checks every
bid and card exactly as it checks a strategy's, derives who played each card and who won each
trick, and scores the hand. Records are grouped by their rules and replayed as batches, each game
by its own ``replay_group`` (``sim.spades.replay``, ``sim.portland.replay``). A record up to a
decision is replayed to that position (`view_at`, each game's ``position_at``: issue 20 item 1).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping

from .decisions import Position
from .errors import UserError
from .games import game_of
from .options import PRESETS, load_rules_in
from .records import read_jsonl

__all__ = ["replay_file", "replay_records", "view_at"]


def replay_records(items: list[tuple[int, dict]], rules=None, source: str = "records"):
    """Score records; returns the output records in input order (input + tricks, points,
    components, after). ``rules`` (a preset, file or rules value) overrides the records' own."""
    fixed = None if rules is None else load_rules_in(rules, "--rules")
    groups = defaultdict(list)
    for pos, (line, rec) in enumerate(items):
        spec = _rules_spec(rec, source, line)  # (which checks the record's game)
        spec = None if fixed is not None else spec
        groups[json.dumps(spec, sort_keys=True)].append((pos, line, rec))
    out: list[dict | None] = [None] * len(items)
    for key, members in groups.items():
        value = fixed or load_rules_in(json.loads(key), source, line=members[0][1])
        for pos, rec in game_of(value).replay_group(members, value, source):
            out[pos] = rec
    return out


def _rules_spec(rec: dict, source: str, line: int | None):
    """A record's own rules (RULES.md §5 ``rules``; default: its game's first preset)."""
    game = rec.get("game", "spades")
    if not isinstance(game, str) or game not in {r.game for r in PRESETS.values()}:
        raise UserError(f"game {game!r} cannot be replayed yet", source=source, line=line,
                        key="game")
    default = next(n for n, r in PRESETS.items() if r.game == game)  # the game's first
    return rec.get("rules", default)


def view_at(record: Mapping, rules=None, seat: int | None = None, source: str = "position",
            line: int | None = None) -> Position:
    """The decision a hand record up to it stops at (RULES.md §5; a *record prefix*), as a
    `sim.decisions.Position`: who decides what, and the view the engine shows him there.

    ``record``: a hand record (a dict, as one line of a records file) whose decisions stop at
    the one asked: Spades ``bids`` null for the seats yet to bid, Norwegian ``declarations``
    null for the seats yet to speak, ``plays`` the cards played so far (each game's
    ``position_at`` says what it rebuilds: `sim.spades.replay.position_at`,
    `sim.portland.replay.position_at`, `sim.norwegian.replay.position_at`). ``rules`` (a preset,
    a rules file or table, or a rules value) overrides the record's own; ``seat``, if given,
    must be the seat to decide (a `UserError` says whose turn it is otherwise). Everything the
    record says up to the decision is replayed by the engine and checked as in `replay_records`;
    a record with no decision left (every card played) is refused."""
    if not isinstance(record, Mapping):
        raise UserError("a position is a hand record (a JSON object, RULES.md §5)",
                        source=source, line=line)
    record = dict(record)
    value = load_rules_in(rules if rules is not None else _rules_spec(record, source, line),
                          source, line=line)
    position = game_of(value).position_at(record, value, source, line)
    if seat is not None and seat != position.seat:
        raise UserError(f"it is seat {position.seat}'s turn ({position.kind}), not seat "
                        f"{seat}'s", source=source, line=line)
    return position


def replay_file(path, rules=None) -> list[dict]:
    items = read_jsonl(path)
    if not items:
        raise UserError("holds no records", source=str(path))
    return replay_records(items, rules, source=str(path))
