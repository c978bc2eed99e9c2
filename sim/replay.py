"""Replay and score hand records (RULES.md §5) on the same vectorised engine as the simulation.

Each record's bids and plays are fed to the engine by a scripted player; the engine checks every
bid and card exactly as it checks a strategy's, derives who played each card and who won each
trick, and scores the hand. Records are grouped by their rules and replayed as batches, each game
by its own ``replay_group`` (``sim.spades.replay``, ``sim.portland.replay``).
"""

from __future__ import annotations

import json
from collections import defaultdict

import numpy as np

from .cards import BIT
from .errors import UserError
from .options import PRESETS, load_rules_in
from .records import read_jsonl

__all__ = ["Scripted", "output_record", "replay_file", "replay_records"]


class Scripted:
    """Plays (and bids) what the records say. Row ``r`` of the engine's batch is record ``r``:
    ``plays`` int8[N, P*T] slots in order of play; Spades' ``bids`` and ``blind`` int8/bool[N, P];
    Norwegian ``declarations`` int8[N, P] (codes of `sim.norwegian.auction`, -1 = none given).
    """

    def __init__(self, plays, bids=None, blind=None, declarations=None, contracts=None,
                 bemo=None, raised=None, no_trump=None, dark=None, auction=None, half=None,
                 reveals=None):
        self.reveals = reveals  # Spades seven_trump_reveal: int8[N, 2] revealer, restorer
        self.half = half  # Spades half_trick_bids: bool[N, P]
        self.auction = auction  # Spades auction: int8[N, K] the calls in order (-1 after)
        self.called = None
        self.no_trump_bids = no_trump  # Spades no_trump_bids: bool[N, P]
        self.dark = dark  # Spades nil_in_the_dark: bool[N, P]
        self.plays, self.blind = plays, blind
        self.raised = raised  # Spades bid_raise: bool[N, P]; ``bids`` are the raised bids
        self.bids = bids if raised is None or bids is None else bids - raised
        self.declarations = declarations
        self.contracts, self.bemo = contracts, bemo  # Spades side contracts: int8[N, 2] by side

    def side_contract(self, view, rng):
        """The record's side contract when this is the stage that offers it (its code is in
        ``view.legal``), its bemo at the bemo stage, else none; a code the stage does not offer
        is returned too, for the engine to refuse."""
        side = (view.seat & 1).astype(np.intp)
        contract, bemo = self.contracts[view.rows, side], self.bemo[view.rows, side]
        bemo_stage = (view.legal >> 8) & 1 == 1  # bit LITTLE_BEMO (sim.spades.contracts)
        offered = (view.legal >> np.clip(contract, 0, 15)) & 1 == 1
        return np.where(bemo_stage, bemo, np.where(offered, contract, 0)).astype(np.int8)

    def declare(self, view, rng):
        return self.declarations[view.rows, view.seat]

    def blind_nil(self, view, rng):
        return self.blind[view.rows, view.seat] & (self.bids[view.rows, view.seat] == 0)

    def raise_bid(self, view, rng):
        return self.raised[view.rows, view.seat]

    def no_trump(self, view, rng):
        return self.no_trump_bids[view.rows, view.seat]

    def in_the_dark(self, view, rng):
        return self.dark[view.rows, view.seat]

    def half_bid(self, view, rng):
        return self.half[view.rows, view.seat]

    def reveal(self, view, rng):
        """The recorded revealer when a non-spade suit is offered, the restorer for spades."""
        who = self.reveals[view.rows, (view.suit == 3).astype(np.intp)]
        return who == view.seat

    def auction_bid(self, view, rng):
        """The record's next call for each row asked (-1 if the record has no more calls: the
        engine refuses it)."""
        if self.called is None:
            self.called = np.zeros(self.auction.shape[0], dtype=np.intp)
        k = self.called[view.rows]
        call = np.where(k < self.auction.shape[1],
                        self.auction[view.rows, np.minimum(k, self.auction.shape[1] - 1)], -1)
        self.called[view.rows] += 1
        return call.astype(np.int8)

    def blind_bid(self, view, rng):
        """Spades blind_bids: the recorded bid when it was blind and not a nil, else 0."""
        bid = self.bids[view.rows, view.seat]
        return np.where(self.blind[view.rows, view.seat] & (bid > 0), bid, 0).astype(np.int8)

    def bid(self, view, rng):
        return self.bids[view.rows, view.seat]

    def play(self, view, rng):
        players = view.tricks.shape[1]
        return BIT[self.plays[view.rows, players * view.trick_no + view.position]]


def output_record(rec: dict, line: int, source: str, tricks, winners, points, components: dict,
                  after: dict, **extra) -> dict:
    """A replayed record: the input plus tricks (checked against a given ``tricks``), winners
    (None in score-sheet mode), points, components and after; ``extra`` keys are added too."""
    if winners is not None and "tricks" in rec and rec["tricks"] != tricks.tolist():
        raise UserError(f"'tricks' {rec['tricks']} disagree with the plays, which give "
                        f"{tricks.tolist()}", source=source, line=line)
    out = dict(rec, tricks=tricks.tolist())
    if winners is not None:  # a dead trick (Spades cancel_spades, RULES.md §4.7): null
        out["winners"] = [None if w < 0 else w for w in winners.tolist()]
    out.update({k: v.tolist() for k, v in extra.items()})
    out.update(points=points.tolist(), components={k: v.tolist() for k, v in components.items()},
               after=after)
    return out


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
        from .games import game_of

        for pos, rec in game_of(value).replay_group(members, value, source):
            out[pos] = rec
    return out


def replay_file(path, rules=None) -> list[dict]:
    items = read_jsonl(path)
    if not items:
        raise UserError("holds no records", source=str(path))
    return replay_records(items, rules, source=str(path))
