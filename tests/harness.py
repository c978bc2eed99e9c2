"""Shared plumbing of the engine-correctness tests (test_conformance, test_vs_reference).

It runs one block of the vectorised engine, turns it into RULES.md section 5 hand records with
``sim.spades.records.block_records``, and lines the engine's per-hand arrays up with those records (row
``i`` of every array is ``records[i]``). It computes no expected value: the tests derive those from
``tests/reference.py`` (the independent scalar implementation) or by hand.

Card encoding, re-derived here from the documented layout rather than imported from ``sim``: a
hand is a uint64 bitboard, bit ``13 * suit + rank`` with suits C, D, H, S = 0..3 and ranks
2..A = 0..12 (sim/cards.py, docs/SCHEMA.md). That is the standard order's layout only; under a
RULES.md section 4.2 card order the records name the cards, and the tests read those.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

import sim  # noqa: F401  (registers the presets)
from sim.lineup import Lineup
from sim.options import rules_to_dict
from sim.spades.contracts import NAMES as CONTRACT_NAMES
from sim.spades.game import BlockResult, play_block
from sim.spades.records import block_records
from strategies import make_strategy
from whistlab.experiment import build_experiment

try:  # tests/ as a package or as a plain directory on sys.path
    from tests import reference as ref
except ImportError:  # pragma: no cover
    import reference as ref

__all__ = ["NAMES", "FULL_DECK", "SPADE_MASK", "Sim", "card_names", "check_offered_bids", "ref",
           "ref_rules", "simulate"]

RANKS = "23456789TJQKA"
SUITS = "CDHS"
NAMES = [rank + suit for suit in SUITS for rank in RANKS]  # NAMES[13 * suit + rank]
FULL_DECK = (1 << 52) - 1
SPADE_MASK = ((1 << 13) - 1) << 39  # suit 3 = spades: bits 39..51


def card_names(mask: int) -> list[str]:
    """The names of the cards of a bitboard, by the documented encoding."""
    mask = int(mask)
    return [NAMES[b] for b in range(52) if mask >> b & 1]


def ref_rules(rules) -> dict:
    """Our rules value as the reference's rules dict. Keys the reference does not implement yet
    are left out, and must be at their default (off): a conformance run with such a key on fails
    here rather than compare against a reference that ignores it."""
    out = rules_to_dict(rules)
    assert out.pop("game") == "spades"
    known = set(ref.resolve_rules(None))
    defaults = rules_to_dict(type(rules)())
    unknown = {k: v for k, v in out.items() if k not in known}
    on = {k: v for k, v in unknown.items() if v != defaults[k]}
    assert not on, f"the scalar reference does not implement {sorted(on)} yet"
    return {k: v for k, v in out.items() if k in known}


@dataclass(eq=False)
class Sim:
    """One simulated block, flattened to one row per hand in the engine's order.

    Per hand ``i``: ``records[i]`` (section 5 record), ``bids`` int8[H, P], ``blind`` bool[H, P],
    ``tricks`` int8[H, P], ``plays`` int8[H, P * T] (slots in play order), ``winners``
    int8[H, T], ``points`` / ``scores_after`` / ``bags_after`` / ``bags_taken`` /
    ``progressive_after`` and each of ``components`` int32[H, S] (P players, S sides, T tricks:
    4, 2 and 13 at the usual table; RULES.md section 4.7).
    """

    rules: object
    strategy: str
    mode: str
    result: BlockResult
    records: list[dict]
    bids: np.ndarray
    blind: np.ndarray
    tricks: np.ndarray
    plays: np.ndarray
    winners: np.ndarray
    points: np.ndarray
    components: dict[str, np.ndarray]
    bags_after: np.ndarray
    scores_after: np.ndarray
    bags_taken: np.ndarray
    progressive_after: np.ndarray
    offers: Offers = None
    wins_game: np.ndarray = None  # int8[H]: the side that won the game at once, -1 for none


@dataclass(eq=False)
class Offer:
    """One bid decision as the engine put it to a seat: the seat, the bids made before it
    (``{seat: bid}``, nil 0) and which were blind, the scores before the hand, the side
    contracts declared so far (names by side), the seat's cards (names; None when the test has
    no use for them), the bids the engine's mask offered (every bit) and whether the engine
    asked it about a blind nil first."""

    seat: int
    made: dict
    blind: dict
    scores: list
    declared: list
    hand: list | None
    offered: list
    asked_blind: bool


@dataclass(eq=False)
class Offers:
    """Plays as ``inner`` and keeps every bid decision the engine put to it (`Offer`); a blind
    nil question asked of a seat that then does not bid (it declared a side contract) is kept in
    ``blind_only``. The strategy's own calls and answers are unchanged (one object, one group)."""

    inner: object
    rules: object
    bids: list = dataclasses.field(default_factory=list)
    blind_only: list = dataclasses.field(default_factory=list)
    _asked: dict = dataclasses.field(default_factory=dict)

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def _state(self, view, i: int) -> tuple:
        made = {s: int(b) for s, b in enumerate(view.bids[i]) if b >= 0}
        blind = {s: bool(view.blind[i, s]) for s in made}
        declared = ([None] * self.rules.sides if view.contracts is None
                    else [CONTRACT_NAMES[int(c)] for c in view.contracts[i]])
        return int(view.seat[i]), made, blind, view.scores[i].tolist(), declared

    def blind_nil(self, view, rng):
        self._asked = {(int(r), int(s)): self._state(view, i)
                       for i, (r, s) in enumerate(zip(view.rows, view.seat, strict=True))}
        return self.inner.blind_nil(view, rng)

    def bid(self, view, rng):
        from sim.spades.hand import deck_for

        looks = self.rules.whiz or self.rules.mirror  # only they count the cards
        deck = deck_for(self.rules) if looks else None
        asked, self._asked = self._asked, {}
        for i, (r, s) in enumerate(zip(view.rows, view.seat, strict=True)):
            seat, made, blind, scores, declared = self._state(view, i)
            self.bids.append(Offer(seat, made, blind, scores, declared,
                                   deck.names_of(view.hand[i]) if looks else None,
                                   [v for v in range(32) if int(view.legal[i]) >> v & 1],
                                   asked.pop((int(r), int(s)), None) is not None))
        self.blind_only.extend(asked.values())
        return self.inner.bid(view, rng)


def check_offered_bids(run: Sim, name: str) -> int:
    """Every bid decision of ``run`` against the reference, which derives the legal bids from
    RULES.md itself (section 3, 0..the tricks of the hand at every table of section 4.7, the
    section 4.4 rules): the bids the engine offered are exactly ``reference.legal_bids``, and it
    asked about a blind nil exactly where the reference allows one. Returns how many decisions
    were compared. (Two decks under whiz or mirror are left out: a bit mask cannot name a card
    held twice, and the spade count needs it.)"""
    rd = ref_rules(run.rules)
    if (run.rules.whiz or run.rules.mirror) and run.rules.copies == 2:
        return 0
    bad = []
    for o in run.offers.bids:
        want = ref.legal_bids(o.seat, o.made, o.scores, rd, o.hand, blind_so_far=o.blind,
                              side_contracts=o.declared)
        if o.offered != want["bids"] or o.asked_blind != want["blind_nil"]:
            bad.append(f"seat {o.seat} after {o.made} (blind {o.blind}, declared {o.declared}, "
                       f"scores {o.scores}): engine {o.offered} blind nil {o.asked_blind}, "
                       f"reference {want}")
    for seat, made, blind, scores, declared in run.offers.blind_only:
        if not ref.legal_bids(seat, made, scores, rd, blind_so_far=blind,
                              side_contracts=declared)["blind_nil"]:
            bad.append(f"blind nil asked: seat {seat} after {made} scores {scores}")
    assert not bad, (f"{name}: {len(bad)} of {len(run.offers.bids)} bid decisions differ, "
                     "e.g.\n" + "\n".join(bad[:3]))
    return len(run.offers.bids)


# as sim.spades.scoring and reference.PARTS
COMPONENTS = ("contract", "overtricks", "bag_penalty", "nil", "bemo", "bonus", "trick_bonus")


@functools.cache
def simulate(rules, strategy: str, mode: str, size: int, seed: int, hand_offset: int = 0) -> Sim:
    """Play block 0 of ``size`` games or hands with one strategy in every seat (cached: several
    tests look at the same deterministic block)."""
    offers = Offers(make_strategy(strategy), rules)  # what the engine offered at each bid
    lineup = Lineup([offers] * rules.players)
    result = play_block(rules, lineup, seed, 0, size, mode, hand_offset=hand_offset)
    # a tuple-valued key (jokers_remove, nil_pass) is written as a list, as in a rules file
    table = {k: list(v) if isinstance(v, tuple) else v for k, v in rules_to_dict(rules).items()}
    exp = build_experiment({"rules": table, "strategy": strategy, mode: size, "seed": seed,
                            "block_size": size})
    assert exp.rules == rules  # the inline table round-trips to the same rules value
    by_key = {(r["game_id"], r["hand_no"]): r for r in block_records(result, exp, 0)}
    records = [by_key[(int(g), int(h))] for g, h in zip(result.game, result.hand_no, strict=True)]
    assert len(by_key) == len(records) == result.hands.shape[0]

    outs = result.outcomes

    def cat(get):
        return np.concatenate([get(o) for o in outs])

    return Sim(
        rules=rules, strategy=strategy, mode=mode, result=result, records=records,
        bids=cat(lambda o: o.bidding.bids), blind=cat(lambda o: o.bidding.blind),
        tricks=cat(lambda o: o.play.tricks), plays=cat(lambda o: o.play.plays),
        winners=cat(lambda o: o.play.winners), points=cat(lambda o: o.score.points),
        components={c: cat(lambda o, c=c: getattr(o.score, c)) for c in COMPONENTS},
        bags_after=cat(lambda o: o.score.bags_after), scores_after=cat(lambda o: o.scores_after),
        bags_taken=cat(lambda o: o.score.bags_taken),
        progressive_after=cat(lambda o: o.score.progressive_after), offers=offers,
        wins_game=cat(lambda o: o.score.wins_game),
    )


def conformance_rules(keys: dict):
    """The standard rules with ``keys`` on (and blind nil open to a side trailing by 50, so that
    the runs reach it): the rules value a conformance test plays. A key the engine does not
    know fails the test (lists in TOML style become tuples)."""
    import pytest

    from sim.options import PRESETS

    standard = PRESETS["spades.standard"]
    missing = sorted(set(keys) - {f.name for f in dataclasses.fields(standard)})
    if missing:
        pytest.fail(f"the engine has no rules key {missing} yet")
    rules = dataclasses.replace(standard, blind_nil_min_deficit=50, **{
        k: tuple(v) if isinstance(v, list) else v for k, v in keys.items()})
    if "blind_nil_min_deficit" in rules.voided_by():  # no blind nil to open it to (a changed
        rules = dataclasses.replace(rules, blind_nil_min_deficit=100)  # value is refused then)
    return rules


def engine_view(run: Sim, i: int) -> dict:
    """The engine's row i in the layout of ``reference.replay_hand``."""
    return {
        "tricks": run.tricks[i].tolist(),
        "winners": [None if w < 0 else w for w in run.winners[i].tolist()],  # None: dead
        "points": run.points[i].tolist(),
        "components": {c: run.components[c][i].tolist() for c in COMPONENTS},
        "after": {"scores": run.scores_after[i].tolist(), "bags": run.bags_after[i].tolist()},
    }


def engine_row(run: Sim, i: int, rd: dict) -> dict:
    """`engine_view` with the progressive count after the hand where the rules keep one."""
    row = engine_view(run, i)
    if ref._has_progressive(rd):
        row["after"]["progressive"] = run.progressive_after[i].tolist()
    if rd.get("cancel_spades"):  # tricks won by nobody (RULES.md section 4.7)
        row["dead_tricks"] = int((run.winners[i] < 0).sum())
    if ref._can_win_at_once(rd):  # moon, lexington, ...: the reference says who won at once
        row["wins_game"] = None if run.wins_game[i] < 0 else int(run.wins_game[i])
    return row


def compare_records(run: Sim, name: str, rows=None) -> int:
    """Replay the engine's records (``rows``: some of them; default all) by the reference and
    compare every hand: tricks, winners, points, components, the counts after it and the bags
    taken; in games mode (all rows) also how the games go on and end (`check_games`); and every
    bid decision of the run (`check_offered_bids`). Returns how many hands were compared."""
    rd = ref_rules(run.rules)
    check_offered_bids(run, name)
    outs, bad = [], []
    for i in range(len(run.records)) if rows is None else rows:
        rec = run.records[i]
        out = ref.replay_hand(rec, rd)  # raises on a bid or a play the reference forbids
        mine = {**engine_row(run, i, rd), "bags_taken": run.bags_taken[i].tolist()}
        theirs = {**out, "bags_taken": ref.bags_taken(
            rec["bids"], out["tricks"], rd, side_contracts=rec.get("side_contracts"),
            winners=out["winners"])}
        if mine != theirs:
            bad.append(f"record {i}: {rec}\n  engine    {mine}\n  reference {theirs}")
        outs.append(out)
    assert not bad, (f"{name}: {len(bad)} of {len(outs)} hands differ, e.g.\n"
                     + "\n".join(bad[:2]))
    if run.mode == "games" and rows is None:
        check_games(run, outs, rd, name)
    return len(outs)


def check_games(run: Sim, outs, rd, name):
    """Scores carry from hand to hand; a game ends exactly when reference.game_over says, a hand
    won at once (moon, lexington, blind moon, double blind nil "win") included. ``outs``: the
    records replayed (sim.replay); ``rd``: the reference's rules. A record's ``before`` may leave
    out a progressive count of zeros (RULES.md section 4.6: optional, default zeros)."""
    by_game = defaultdict(list)
    for i, rec in enumerate(run.records):
        by_game[rec["game_id"]].append(i)
    games = run.result.games
    sides = run.points.shape[1]
    for g, rows in by_game.items():
        rows.sort(key=lambda i: run.records[i]["hand_no"])
        after = {"scores": [0] * sides, "bags": [0] * sides}
        winner = None
        for k, i in enumerate(rows, start=1):
            rec, out = run.records[i], outs[i]
            where = f"{name} game {g} hand {k}"
            zeros = {"progressive": [0] * sides}
            assert {**zeros, **rec["before"]} == {**zeros, **after}, where
            over, winner = ref.game_over(out["after"]["scores"], k, rd, out.get("wins_game"))
            assert over == (k == len(rows)), f"{where}: game_over {over} at {out['after']}"
            after = out["after"]
        assert int(games["winner"][g]) == winner, name
        assert [int(games[f"score_{s}"][g]) for s in range(sides)] == after["scores"], name
