"""Replay and score hand records (RULES.md §5) on the same vectorised engine as the simulation.

Each record's bids and plays are fed to the engine by a scripted player; the engine checks every
bid and card exactly as it checks a strategy's, derives who played each card and who won each
trick, and scores the hand. Records are grouped by their rules and replayed as batches.
"""

from __future__ import annotations

import json
from collections import defaultdict

import numpy as np

from .cards import BIT
from .errors import UserError
from .lineup import Lineup
from .options import load_rules
from .records import parse_records, read_jsonl
from .spades.bidding import IllegalBid, blind_nil_allowed, check_bids
from .spades.hand import deck_for, play_hands
from .spades.scoring import COMPONENTS, score_hands
from .tricks import IllegalPlay

__all__ = ["replay_file", "replay_records"]


class Scripted:
    """Plays what a record says. Row ``r`` of the engine's batch is record ``r``."""

    def __init__(self, recs):
        self.recs = recs

    def blind_nil(self, view, rng):
        return self.recs.blind[view.rows, view.seat]

    def bid(self, view, rng):
        return self.recs.bids[view.rows, view.seat]

    def play(self, view, rng):
        return BIT[self.recs.plays[view.rows, 4 * view.trick_no + view.position]]


def _load(spec, source, line):
    try:
        return load_rules(spec, source=source)
    except UserError as err:
        err.source, err.line = err.source or source, err.line or line
        raise


def replay_records(items: list[tuple[int, dict]], rules=None, source: str = "records"):
    """Score records; returns the output records in input order (input + tricks, points,
    components, after). ``rules`` (a preset, file or rules value) overrides the records' own."""
    fixed = None if rules is None else _load(rules, "--rules", None)
    groups = defaultdict(list)
    for pos, (line, rec) in enumerate(items):
        if rec.get("game", "spades") != "spades":
            raise UserError(f"game {rec['game']!r} cannot be replayed yet (only 'spades')",
                            source=source, line=line, key="game")
        spec = None if fixed is not None else rec.get("rules", "spades.standard")
        groups[json.dumps(spec, sort_keys=True)].append((pos, line, rec))
    out: list[dict | None] = [None] * len(items)
    for key, members in groups.items():
        value = fixed or _load(json.loads(key), source, members[0][1])
        for pos, rec in _replay_group(members, value, source):
            out[pos] = rec
    return out


def _replay_group(members, rules, source):
    deck = deck_for(rules)
    for sheet in (False, True):
        part = [m for m in members if ("plays" not in m[2] and "tricks" in m[2]) == sheet]
        if not part:
            continue
        recs = parse_records([(m[1], m[2]) for m in part], deck, 4, 13, source)
        lines = [m[1] for m in part]
        _check_blind(recs, rules, lines, source)
        try:
            if sheet:
                check_bids(recs.bids, recs.blind, recs.dealer, rules)
                tricks = recs.tricks
                score = score_hands(recs.bids, recs.blind, tricks, recs.bags, rules)
                points, winners = score.points, None
            else:
                lineup = Lineup([Scripted(recs)] * 4)
                outcome = play_hands(recs.hands, recs.dealer, recs.scores, recs.bags, lineup,
                                     rules, np.random.default_rng(0), deck)
                tricks, score, points = outcome.play.tricks, outcome.score, outcome.score.points
                winners = outcome.play.winners
        except (IllegalPlay, IllegalBid) as err:
            err.source, err.line = source, lines[err.row]
            raise
        for i, (pos, line, rec) in enumerate(part):
            if not sheet and "tricks" in rec and rec["tricks"] != tricks[i].tolist():
                raise UserError(f"'tricks' {rec['tricks']} disagree with the plays, which give "
                                f"{tricks[i].tolist()}", source=source, line=line)
            result = dict(rec)
            result["tricks"] = tricks[i].tolist()
            if winners is not None:
                result["winners"] = winners[i].tolist()
            result["points"] = points[i].tolist()
            result["components"] = {c: getattr(score, c)[i].tolist() for c in COMPONENTS}
            result["after"] = {"scores": (recs.scores[i] + points[i]).tolist(),
                               "bags": score.bags_after[i].tolist()}
            yield pos, result


def _check_blind(recs, rules, lines, source):
    """A blind bid must be a nil that the rules allow to that side at that score."""
    for seat in range(4):
        allowed = blind_nil_allowed(np.full(len(lines), seat, np.int8), recs.scores, rules)
        bad = recs.blind[:, seat] & (~allowed | (recs.bids[:, seat] != 0))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise UserError(f"bidding, seat {seat}: a blind bid must be a nil, allowed only with "
                            f"blind_nil = true and a side trailing by at least "
                            f"{rules.blind_nil_min_deficit}", source=source, line=lines[i])


def replay_file(path, rules=None) -> list[dict]:
    items = read_jsonl(path)
    if not items:
        raise UserError("holds no records", source=str(path))
    return replay_records(items, rules, source=str(path))
