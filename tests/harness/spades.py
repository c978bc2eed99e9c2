"""Spades in the shared harness: its `Game` adapter, and the comparison of the engine with the
scalar reference (tests/reference.py), hand by hand, decision by decision and game by game.

`compare_records` replays every record of a run by ``reference.replay_hand`` (which accepts each
bid, discard and play only if its own rules allow it) and compares tricks, trick winners, points,
every score part, the counts after the hand and the bags taken with the engine's; in games mode
how the games go on and end (`check_games`); and every bid decision the engine offered
(`check_offered_bids`: the bids of its mask and its blind nil question are the reference's
``legal_bids``).

Cards are named in records (``"AS"``, ``"BJ"``); the engine's bit layout is ``deck_for(rules)``
of the game (docs/SCHEMA.md ``hand_<seat>``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections import defaultdict
from dataclasses import dataclass

import pytest

import reference as ref
from sim.games import game_of
from sim.lineup import Lineup
from sim.options import PRESETS, rules_to_dict
from sim.spades.contracts import NAMES as CONTRACT_NAMES
from strategies import make_strategy

from .core import GAMES, Game, Run

__all__ = ["COMPONENTS", "Offer", "Offers", "Spades", "check_games", "check_offered_bids",
           "compare_records", "conformance_rules", "engine_row", "engine_view", "ref",
           "ref_rules"]

# the parts of a hand's points: the hands table's <part>_<side> columns (docs/SCHEMA.md), as
# sim.spades.scoring and reference.PARTS
COMPONENTS = ("contract", "overtricks", "bag_penalty", "nil", "bemo", "bonus", "trick_bonus")
GAME_END_KEYS = ("players", "partnerships", "teams", "deck", "jokers", "kitty", "cancel_spades",
                 "target_score", "mercy_score", "defeat_score", "max_hands")
FIRST_DEALER = 3  # the first hand of a game is dealt by seat 3 (mod P): seat 0 bids first


def ref_rules(rules, strict: bool = True) -> dict:
    """Our rules value as the reference's rules dict. Keys the reference does not implement yet
    are left out, and must be at their default (off): a conformance run with such a key on fails
    here rather than compare against a reference that ignores it. ``strict`` false: they are
    left out whatever their value (for the reference's game end, which none of them changes)."""
    return dict(_ref_rules(rules, strict))


@functools.cache
def _ref_rules(rules, strict: bool = True) -> dict:
    out = rules_to_dict(rules)
    assert out.pop("game") == "spades"
    known = set(ref.resolve_rules(None))
    defaults = rules_to_dict(type(rules)())
    unknown = {k: v for k, v in out.items() if k not in known}
    on = {k: v for k, v in unknown.items() if v != defaults[k]}
    assert not (on and strict), f"the scalar reference does not implement {sorted(on)} yet"
    return {k: v for k, v in out.items() if k in known}


def _game_end_rules(rules) -> dict | None:
    """The reference's rules for the game's end (RULES.md §3, §4.8): every key it knows, or,
    where it refuses a key the game's end does not read (the fuzzer's combinations), only
    `GAME_END_KEYS`; None at a table it does not play (two players): the engine's own game end
    is then checked by check_scores and the bag penalties alone."""
    rd = ref_rules(rules, strict=False)
    for candidate in (rd, {k: v for k, v in rd.items() if k in GAME_END_KEYS}):
        try:
            ref.resolve_rules(candidate)
            return candidate
        except ValueError:
            continue
    return None


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
        looks = self.rules.whiz or self.rules.mirror  # only they count the cards
        deck = game_of(self.rules).deck_for(self.rules) if looks else None
        asked, self._asked = self._asked, {}
        for i, (r, s) in enumerate(zip(view.rows, view.seat, strict=True)):
            seat, made, blind, scores, declared = self._state(view, i)
            self.bids.append(Offer(seat, made, blind, scores, declared,
                                   deck.names_of(view.hand[i]) if looks else None,
                                   [v for v in range(32) if int(view.legal[i]) >> v & 1],
                                   asked.pop((int(r), int(s)), None) is not None))
        self.blind_only.extend(asked.values())
        return self.inner.bid(view, rng)


def check_offered_bids(run: Run, name: str) -> int:
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
    for o in run.spy.bids:
        want = ref.legal_bids(o.seat, o.made, o.scores, rd, o.hand, blind_so_far=o.blind,
                              side_contracts=o.declared)
        if o.offered != want["bids"] or o.asked_blind != want["blind_nil"]:
            bad.append(f"seat {o.seat} after {o.made} (blind {o.blind}, declared {o.declared}, "
                       f"scores {o.scores}): engine {o.offered} blind nil {o.asked_blind}, "
                       f"reference {want}")
    for seat, made, blind, scores, declared in run.spy.blind_only:
        if not ref.legal_bids(seat, made, scores, rd, blind_so_far=blind,
                              side_contracts=declared)["blind_nil"]:
            bad.append(f"blind nil asked: seat {seat} after {made} scores {scores}")
    assert not bad, (f"{name}: {len(bad)} of {len(run.spy.bids)} bid decisions differ, "
                     "e.g.\n" + "\n".join(bad[:3]))
    return len(run.spy.bids)


def conformance_rules(keys: dict):
    """The standard rules with ``keys`` on (and blind nil open to a side trailing by 50, so that
    the runs reach it): the rules value a conformance test plays. A key the engine does not
    know fails the test (lists in TOML style become tuples)."""
    standard = PRESETS["spades.standard"]
    missing = sorted(set(keys) - {f.name for f in dataclasses.fields(standard)})
    if missing:
        pytest.fail(f"the engine has no rules key {missing} yet")
    rules = dataclasses.replace(standard, blind_nil_min_deficit=50, **{
        k: tuple(v) if isinstance(v, list) else v for k, v in keys.items()})
    if "blind_nil_min_deficit" in rules.voided_by():  # no blind nil to open it to (a changed
        rules = dataclasses.replace(rules, blind_nil_min_deficit=100)  # value is refused then)
    return rules


def engine_view(run: Run, i: int) -> dict:
    """The engine's row i in the layout of ``reference.replay_hand``."""
    return {
        "tricks": run.tricks[i].tolist(),
        "winners": [None if w < 0 else w for w in run.winners[i].tolist()],  # None: dead
        "points": run.points[i].tolist(),
        "components": {c: v[i].tolist() for c, v in run.components.items()},
        "after": {"scores": run.scores_after[i].tolist(), "bags": run.by_side("bags")[i].tolist()},
    }


def engine_row(run: Run, i: int, rd: dict) -> dict:
    """`engine_view` with the progressive count after the hand where the rules keep one."""
    row = engine_view(run, i)
    if ref._has_progressive(rd):
        row["after"]["progressive"] = run.by_side("progressive")[i].tolist()
    if rd.get("cancel_spades"):  # tricks won by nobody (RULES.md section 4.7)
        row["dead_tricks"] = int(run.hands["dead_tricks"][i])
    if ref._can_win_at_once(rd):  # moon, lexington, ...: the reference says who won at once
        wins = int(run.hands["wins_game"][i])
        row["wins_game"] = None if wins < 0 else wins
    return row


def compare_records(run: Run, name: str, rows=None) -> int:
    """Replay the engine's records (``rows``: some of them; default all) by the reference and
    compare every hand: tricks, winners, points, components, the counts after it and the bags
    taken; in games mode (all rows) also how the games go on and end (`check_games`); and every
    bid decision of the run (`check_offered_bids`). Returns how many hands were compared."""
    rd = ref_rules(run.rules)
    check_offered_bids(run, name)
    taken = run.by_side("bags_taken")
    outs, bad = [], []
    for i in range(len(run.records)) if rows is None else rows:
        rec = run.records[i]
        out = ref.replay_hand(rec, rd)  # raises on a bid or a play the reference forbids
        mine = {**engine_row(run, i, rd), "bags_taken": taken[i].tolist()}
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


def check_games(run: Run, outs, rd, name):
    """Scores carry from hand to hand; a game ends exactly when reference.game_over says, a hand
    won at once (moon, lexington, blind moon, double blind nil "win") included. ``outs``: the
    records replayed by the reference; ``rd``: the reference's rules. A record's ``before`` may
    leave out a progressive count of zeros (RULES.md section 4.6: optional, default zeros)."""
    by_game = defaultdict(list)
    for i, rec in enumerate(run.records):
        by_game[rec["game_id"]].append(i)
    games = run.games
    sides = run.sides
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
        assert [int(games[f"bags_{s}"][g]) for s in range(sides)] == after["bags"], name




class Spades(Game):
    name = "spades"
    components = COMPONENTS

    def lineup(self, rules, strategy):
        offers = Offers(make_strategy(strategy, game="spades"), rules)  # keeps every bid offer
        return Lineup([offers] * rules.players), offers

    def first_dealer(self, rules, players):
        return FIRST_DEALER % players

    def extra_tricks(self, run, i):
        kitty = run.records[i].get("kitty")  # RULES.md 4.1: the discard is the taker's trick
        return {kitty["taker"]: 1} if kitty and run.rules.kitty_extra_trick else {}

    def hands_changed(self, rec):
        return "kitty" in rec or "passed" in rec  # the hands at the start of play (section 5)

    def check_record(self, run, i, where):
        rec = run.records[i]
        bids = [-1 if b is None else b for b in rec["bids"]]  # null: a side contract's partner
        assert bids == run.by_seat("bid")[i].tolist(), f"{where}: bids"
        assert rec["blind"] == run.by_seat("blind")[i].tolist(), f"{where}: blind"

    def replay_columns(self, out):
        wins = out.get("wins_game")
        return {"dead_tricks": out.get("dead_tricks", 0), "wins_game": -1 if wins is None else wins}

    def carried(self, rec):
        before = rec["before"]
        sides = len(before["scores"])
        return {"score": before["scores"], "bags": before["bags"],
                "progressive": before.get("progressive", [0] * sides)}  # optional (section 5)

    def game_ends(self, run, rows, where):
        """The reference's game end after every hand (`_game_end_rules`), the winner and the
        bag penalties paid."""
        rd = _game_end_rules(run.rules)
        wins = run.hands["wins_game"]
        winner = None
        g = int(run.hands["game_id"][rows[0]])
        for k, i in enumerate(rows if rd is not None else (), start=1):
            won = None if wins[i] < 0 else int(wins[i])
            over, winner = ref.game_over(run.scores_after[i].tolist(), k, rd, won)
            assert over == (k == len(rows)), (
                f"{where} hand {k}: game over {over} at {run.scores_after[i].tolist()}")
        if rd is not None:
            assert int(run.games["winner"][g]) == winner, f"{where}: winner"
        paid = (run.by_side("bag_penalty")[rows] < 0).sum(axis=0)
        assert [int(run.games[f"bag_penalties_{s}"][g]) for s in range(run.sides)] == \
            paid.tolist(), f"{where}: bag penalties"


GAMES["spades"] = Spades()
