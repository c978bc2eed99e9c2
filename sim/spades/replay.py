"""Replay of Spades hand records (RULES.md §5): bids and blind flags, then the plays or, in
score-sheet mode, the tricks alone."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..lineup import Lineup
from ..records import ints, parse_records
from ..replay import Scripted, output_record
from ..tricks import IllegalPlay
from .bidding import IllegalBid, blind_nil_allowed, check_bids
from .hand import deck_for, play_hands
from .scoring import COMPONENTS, score_hands

__all__ = ["replay_group"]


class _Bids:
    """Parses each record's bids, blind flags and bags before the hand into arrays."""

    def __init__(self, n: int):
        self.bids = np.zeros((n, 4), np.int8)
        self.blind = np.zeros((n, 4), bool)
        self.bags = np.zeros((n, 2), np.int32)

    def __call__(self, i, rec, err):
        self.bids[i] = ints(rec, "bids", 4, 0, 13, err)
        b = rec.get("blind", [False] * 4)
        if not isinstance(b, list) or len(b) != 4 or any(type(v) is not bool for v in b):
            raise err("'blind' must be a list of 4 true/false")
        self.blind[i] = b
        before = rec.get("before", {}) or {}
        self.bags[i] = ints(before, "bags", 2, 0, 10**6, err) if "bags" in before else 0


def replay_group(members, rules, source):
    """Score records ``(position, line, record)`` that share ``rules``; yields (position,
    output record)."""
    deck = deck_for(rules)
    for sheet in (False, True):
        part = [m for m in members if ("plays" not in m[2] and "tricks" in m[2]) == sheet]
        if not part:
            continue
        extra = _Bids(len(part))
        recs = parse_records([(m[1], m[2]) for m in part], deck, 4, 13, source, extra)
        lines = [m[1] for m in part]
        _check_blind(recs, extra, rules, lines, source)
        try:
            if sheet:
                check_bids(extra.bids, extra.blind, recs.dealer, rules)
                tricks = recs.tricks
                score = score_hands(extra.bids, extra.blind, tricks, extra.bags, rules)
                points, winners = score.points, None
            else:
                lineup = Lineup([Scripted(recs.plays, extra.bids, extra.blind)] * 4)
                outcome = play_hands(recs.hands, recs.dealer, recs.scores, extra.bags, lineup,
                                     rules, np.random.default_rng(0), deck, passing=False)
                tricks, score, points = outcome.play.tricks, outcome.score, outcome.score.points
                winners = outcome.play.winners
        except (IllegalPlay, IllegalBid) as err:
            err.source, err.line = source, lines[err.row]
            raise
        for i, (pos, line, rec) in enumerate(part):
            out = output_record(
                rec, line, source, tricks[i], None if winners is None else winners[i], points[i],
                {c: getattr(score, c)[i] for c in COMPONENTS},
                {"scores": (recs.scores[i] + points[i]).tolist(),
                 "bags": score.bags_after[i].tolist()})
            if score.wins_game[i] >= 0:  # a moon or lexington made (RULES.md §4.4)
                out["wins_game"] = int(score.wins_game[i])
            yield pos, out


def _check_blind(recs, bids, rules, lines, source):
    """A blind bid must be a nil that the rules allow to that side at that score."""
    for seat in range(4):
        allowed = blind_nil_allowed(np.full(len(lines), seat, np.int8), recs.scores, rules)
        bad = bids.blind[:, seat] & (~allowed | (bids.bids[:, seat] != 0))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise UserError(f"bidding, seat {seat}: a blind bid must be a nil, allowed only with "
                            f"blind_nil = true and a side trailing by at least "
                            f"{rules.blind_nil_min_deficit}", source=source, line=lines[i])
