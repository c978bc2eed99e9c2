"""One decision from a position (issue 20 item 1): a hand record cut at any decision of the
engine's own run, given to `whistlab.decide`, gives the decision the engine's strategy made
there, from the view the engine showed it (`sim.replay.view_at`).

The engine plays blocks with a recording strategy (every view it was shown, its answer, and for
the strategies that draw random numbers the generator's state before the question); the hands
are written as records (`block_records`, RULES.md §5) and cut before each decision: the bids
made before the seat's turn (the others null), or the cards played before the card. For
``seed`` and ``expert`` (which draw no random number) blocks of many hands are cut at sampled
decisions; for ``random`` each hand is a block of its own, so that the strategy's one-row
question at a position draws what the engine's did, given the engine's generator as it stood
(``seed=`` takes a Generator)."""

from __future__ import annotations

import copy
import dataclasses
from types import SimpleNamespace

import numpy as np
import pytest

import whistlab
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.tricks import IllegalPlay
from strategies import make_strategy


class Recording:
    """Answers as ``inner``; keeps each question asked: (method, the view's arrays copied, the
    answers, the generator's state before it when ``keep_rng``)."""

    def __init__(self, inner, keep_rng=False):
        self.inner, self.keep_rng, self.asked = inner, keep_rng, []

    def __getattr__(self, name):
        method = getattr(self.inner, name)

        def answer(view, rng):
            before = copy.deepcopy(rng) if self.keep_rng else None
            out = method(view, rng)
            fields = {f.name: np.copy(getattr(view, f.name)) for f in dataclasses.fields(view)
                      if isinstance(getattr(view, f.name), np.ndarray)}
            if name == "play":  # the play's position in its trick, and the trick
                fields.update(position=view.position, trick_no=view.trick_no)
            if len(view):  # (the auction asks no row once decided)
                self.asked.append((name, fields, np.asarray(out).copy(), before))
            return out
        return answer


def _records(rules, result):
    records = GAMES[rules.game].block_records(result, SimpleNamespace(rules=rules), 0)
    return sorted(records, key=lambda r: (r["game_id"], r["hand_no"]))


def _prefixes(rules, rec):
    """Every decision of a record, in the order the engine asks them: (kind, seat, the record
    cut before it, the answer in the record's terms, blind)."""
    players = len(rec["hands"])
    order = [(rec["dealer"] + 1 + j) % players for j in range(players)]
    base = {k: v for k, v in rec.items() if k not in ("plays", "bids", "blind", "declarations")}
    out = []
    if rules.game == "spades":
        for j, seat in enumerate(order):
            bids = [rec["bids"][s] if s in order[:j] else None for s in range(players)]
            blind = [rec["blind"][s] if s in order[:j] else False for s in range(players)]
            out.append(("bid", seat, {**base, "bids": bids, "blind": blind},
                        rec["bids"][seat], rec["blind"][seat]))
        base = {**base, "bids": rec["bids"], "blind": rec["blind"]}
    if rules.game == "norwegian":
        said = rec["declarations"]
        speakers = order[:1] if players == 2 else [s for s in order if said[s] is not None]
        for j, seat in enumerate(speakers):
            given = [said[s] if s in speakers[:j] else None for s in range(players)]
            out.append(("declare", seat, {**base, "declarations": given}, said[seat], False))
        base = {**base, "declarations": said}
    plays = rec["plays"]
    for k in range(len(plays)):
        out.append(("play", None, {**base, "plays": plays[:k]}, plays[k], False))
    return out


CASES = {  # rules, strategies compared on sampled decisions of whole games
    "spades.standard": ({"preset": "spades.standard"}, ["seed", "expert"]),
    "spades.openspiel": ({"preset": "spades.openspiel"}, ["seed", "expert"]),
    "spades, hook and max_team_bid": ({"preset": "spades.standard", "hook": True,
                                       "max_team_bid": 10}, ["seed"]),
    "spades.cutthroat": ({"preset": "spades.cutthroat"}, ["seed"]),
    "portland": ({"preset": "portland"}, ["seed", "expert"]),
    "portland.dummy": ({"preset": "portland.dummy"}, ["seed"]),
    "norwegian": ({"preset": "norwegian"}, ["seed", "expert"]),
    "norwegian.three": ({"preset": "norwegian.three"}, ["seed"]),
    "norwegian.classic": ({"preset": "norwegian.classic"}, ["seed"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_decision_from_a_record_prefix_is_the_engines(case):
    table, names = CASES[case]
    rules = load_rules(table, source="test")
    for name in names:
        strategy = make_strategy(name, game=rules.game)
        result = GAMES[rules.game].play_block(rules, Lineup([strategy] * rules.players), 7, 0,
                                              12, "games")
        records = _records(rules, result)
        decisions = [(rec, d) for rec in records for d in _prefixes(rules, rec)]
        pick = np.random.default_rng(1).choice(len(decisions), 60, replace=False)
        kinds = set()
        for i in pick:
            rec, (kind, seat, prefix, answer, blind) = decisions[i]
            got = whistlab.decide(name, prefix)
            assert (got.kind, got.answer, got.blind) == (kind, answer, blind), (case, name, i)
            assert seat is None or got.seat == seat
            kinds.add(kind)
        assert "play" in kinds


def _one_hand_blocks(rules, strategy, hands, keep_rng):
    """``hands`` blocks of one hand each (hand mode: the dealer rotating with the block),
    played by a recording ``strategy``; yields (record, the questions asked)."""
    for block in range(hands):
        recording = Recording(strategy, keep_rng)
        result = GAMES[rules.game].play_block(rules, Lineup([recording] * rules.players), 3,
                                              block, 1, "hands", hand_offset=block)
        (rec,) = _records(rules, result)
        yield rec, recording.asked


def _turns(asked):
    """The questions grouped by decision: a Spades turn is its blind nil question (where asked)
    and its bid; every other question is one decision."""
    turns = []
    for method, view, answer, rng in asked:
        if method == "bid" and turns and turns[-1][0][0] == "blind_nil":
            turns[-1].append((method, view, answer, rng))
        else:
            turns.append([(method, view, answer, rng)])
    return turns


@pytest.mark.parametrize("table", [
    {"preset": "spades.standard", "blind_nil_min_deficit": 0},  # a blind nil offered at 0-0
    {"preset": "spades.openspiel"},
    {"preset": "portland"},
    {"preset": "norwegian.three"}], ids=["spades, blind nil", "openspiel", "portland", "three"])
def test_random_from_the_engines_generator_decides_as_in_the_engine_and_sees_its_view(table):
    """Every decision of a hand, asked of ``random`` from the record cut there with the engine's
    generator as it stood before the question: the same answer, from the same view."""
    rules = load_rules(table, source="test")
    strategy = make_strategy("random", game=rules.game)
    blind_nils = chosen = 0
    for rec, asked in _one_hand_blocks(rules, strategy, 6, keep_rng=True):
        turns = _turns(asked)
        prefixes = _prefixes(rules, rec)
        assert len(turns) == len(prefixes)
        for questions, (kind, _, prefix, answer, blind) in zip(turns, prefixes, strict=True):
            got = whistlab.decide("random", prefix, seed=copy.deepcopy(questions[0][3]))
            assert (got.kind, got.answer, got.blind) == (kind, answer, blind)
            chosen += blind
            shown = questions[-1][1]  # the last question's view: the bid, declaration or card
            view = got.position.view
            for name, value in shown.items():
                mine = getattr(view, name)
                assert np.array_equal(np.asarray(mine), np.asarray(value)), (kind, name)
                assert np.asarray(mine).dtype == np.asarray(value).dtype, (kind, name)
            if questions[0][0] == "blind_nil":
                blind_nils += 1
                assert got.position.blind is not None
                for name, value in questions[0][1].items():
                    assert np.array_equal(getattr(got.position.blind, name), value), name
            elif kind == "bid":
                assert got.position.blind is None
    if rules.game == "spades" and rules.blind_nil:
        assert blind_nils > 0 and chosen > 0  # offered, and once chosen


def test_a_blind_nil_offered_late_in_a_game_is_asked_from_the_position():
    """Whole games of spades.standard: a side trailing by 100 is offered a blind nil (RULES.md
    §3); the positions of those turns show it, and the bids equal the engine's."""
    rules = load_rules("spades.standard", source="test")
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy("expert")] * 4), 5, 0, 30,
                                        "games")
    offered = 0
    for rec in _records(rules, result):
        scores = rec["before"]["scores"]
        if abs(scores[0] - scores[1]) < 100:
            continue
        for _kind, seat, prefix, answer, blind in _prefixes(rules, rec)[:4]:
            got = whistlab.decide("expert", prefix)
            assert (got.answer, got.blind) == (answer, blind)
            trailing = scores[1 - seat % 2] - scores[seat % 2] >= 100
            assert (got.position.blind is not None) == trailing
            offered += trailing
    assert offered > 0


def _deal():
    suits = "SHDC"
    return [[r + s for r in "AKQJT98765432"] for s in suits]


def test_a_position_built_in_code_and_its_refusals():
    record = {"dealer": 3, "hands": _deal(), "bids": [None] * 4}
    first = whistlab.view_at(record)
    assert (first.kind, first.seat) == ("bid", 0)
    assert first.view.legal.dtype == np.uint32 and int(first.view.legal[0]) == (1 << 14) - 1
    with pytest.raises(UserError, match="it is seat 0's turn"):
        whistlab.view_at(record, seat=2)
    with pytest.raises(UserError, match="in turn from the dealer's left"):
        whistlab.view_at({**record, "bids": [None, 3, None, None]})
    with pytest.raises(UserError, match="'plays' before every seat has bid"):
        whistlab.view_at({**record, "plays": ["AS"]})
    done = {**record, "bids": [13, 0, 0, 0]}
    assert whistlab.decide("seed", done).answer == "2S"  # seat 0 leads: spades only
    with pytest.raises(IllegalPlay, match="2C is not in the player's hand"):
        whistlab.view_at({**done, "plays": ["AS", "2C"]})
    whole = {**done, "plays": [c for t in range(13) for c in
                               [_deal()[s][t] for s in range(4)]]}
    with pytest.raises(UserError, match="the hand is over"):
        whistlab.view_at(whole)
    with pytest.raises(UserError, match="a position in the bidding is not rebuilt under auction"):
        whistlab.view_at({"dealer": 3, "hands": _deal()},
                         rules={"preset": "spades.standard", "auction": True})
    with pytest.raises(UserError, match="the dealer's follows the non-dealer's"):
        whistlab.view_at({"game": "norwegian", "dealer": 0, "hands": _deal()[:2],
                          "declarations": ["grand", None]})
    with pytest.raises(UserError, match="unknown strategy"):
        whistlab.decide("nosuch", record)


def test_the_bidding_refusals_name_the_rules():
    from sim.spades.replay import bidding_refusals

    assert bidding_refusals(load_rules("spades.standard", source="t")) == []
    assert bidding_refusals(load_rules({"preset": "spades.standard", "whiz": True,
                                        "blind_nil": False}, source="t")) == []
    refused = bidding_refusals(load_rules({"preset": "spades.standard", "bid_raise": True,
                                           "pass_cards": {"count": 1, "direction": "left"},
                                           "mo_a": True}, source="t"))
    assert set(refused) == {"bid_raise", "pass_cards", "mo_a"}
