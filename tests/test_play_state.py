"""The play phase as a value (issue 19 item 1, `sim.tricks.Play`): a play can be rebuilt from a
record's cards up to any card, copied, cut to some rows and resumed, and what a seat sees there
(`play_view`, the function the engine itself uses) is what the strategy saw in the engine's own
run. Checked on Spades (standard, two decks, no-trump bids' constraint), Portland (no trump) and
Norwegian three players."""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import BIT
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.constraints import constraint_for
from sim.spades.hand import deck_for, lead_rule_for
from sim.tricks import legal_cards, play_card, play_tricks, play_view, start_play
from strategies import make_strategy


class Recording:
    """A strategy that plays like ``inner`` and keeps every play view it was shown."""

    def __init__(self, inner):
        self.inner, self.views = inner, []

    def play(self, view, rng):
        self.views.append(view)
        return self.inner.play(view, rng)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def _deal(deck, n, players, rng):
    """Random deals of the whole deck, cards_each = cards // players (the rest undealt)."""
    real = np.flatnonzero([bool(x) for x in deck.names])
    each = real.size // players
    order = np.argsort(rng.random((n, real.size)), axis=1)[:, : each * players]
    slots = real[order]
    hands = np.zeros((n, players), np.uint64)
    for seat in range(players):
        hands[:, seat] = np.bitwise_or.reduce(BIT[slots[:, seat::players]], axis=1)
    return hands


CASES = {
    "spades": ({}, "seed"),
    "spades, one card spades never led": ({"spades_broken": "never"}, "random"),
    "portland, no trump": ({"game": "portland", "trump": "none"}, "random"),
    "norwegian, three players": ({"game": "norwegian", "players": 3}, "random"),
}


def _engine_run(case, n=64, seed=5):
    """The engine's own play of a batch, with the views its strategy saw."""
    table, strategy = CASES[case]
    rules = load_rules(table, source="test")
    deck = deck_for(rules) if rules.game == "spades" else __import__(
        f"sim.{rules.game}.hand", fromlist=["deck_for"]).deck_for(rules)
    rng = np.random.default_rng(seed)
    hands = _deal(deck, n, rules.players, rng)
    leader = rng.integers(0, rules.players, n).astype(np.int8)
    trump = np.full(n, deck.suit_masks[3] if rules.game == "spades" else 0, np.uint64)
    lead = lead_rule_for(rules, deck) if rules.game == "spades" else (lambda h, t: h)
    constraint = constraint_for(rules, deck) if rules.game == "spades" else None
    recording = Recording(make_strategy(strategy, game=rules.game))
    context = dict(scores=np.zeros((n, rules.players), np.int32), rules=rules)
    if rules.game == "spades":  # what the Spades players read of the bidding
        context.update(scores=np.zeros((n, 2), np.int32), bags=np.zeros((n, 2), np.int32),
                       bids=rng.integers(1, 5, (n, 4)).astype(np.int8),
                       blind=np.zeros((n, 4), bool), contracts=np.zeros((n, 2), np.int8),
                       bemo=np.zeros((n, 2), np.int8))
    result = play_tricks(hands, leader, trump, deck, lead, Lineup([recording] * rules.players),
                         np.random.default_rng(seed), context, constraint=constraint)
    return dict(hands=hands, leader=leader, trump=trump, deck=deck, lead=lead,
                constraint=constraint, context=context, result=result,
                views=recording.views)


def _replayed(run, upto: int, rows=None):
    """A play rebuilt from the run's cards 0..upto-1 (one card of every row at a time)."""
    pick = slice(None) if rows is None else rows
    play = start_play(run["hands"][pick], run["leader"][pick], run["trump"][pick], run["deck"])
    plays = run["result"].plays[pick]
    for k in range(upto):
        legal, _ = legal_cards(play, run["lead"], constraint=run["constraint"])
        card = BIT[plays[:, k]]
        assert np.all(card & legal == card), f"card {k} of the record is not legal here"
        play_card(play, card)
    return play


@pytest.fixture(scope="module", params=list(CASES))
def run(request):
    return _engine_run(request.param)


def test_replaying_every_card_gives_the_engines_play(run):
    play = _replayed(run, run["result"].plays.shape[1])
    assert play.done
    got, want = play.result(), run["result"]
    for name in ("tricks", "plays", "winners", "seats"):
        assert np.array_equal(getattr(got, name), getattr(want, name)), name


@pytest.mark.parametrize("card", [0, 1, 7, 20, 33])
def test_the_view_at_any_card_is_what_the_strategy_saw(run, card):
    if card >= len(run["views"]):
        pytest.skip("a shorter hand")
    play = _replayed(run, card)
    legal, _ = legal_cards(play, run["lead"], constraint=run["constraint"])
    view = play_view(play, legal, run["context"])
    seen = run["views"][card]
    for name in ("seat", "hand", "legal", "leader", "in_trick", "led", "winning",
                 "winning_seat", "played", "history", "history_seats", "tricks", "voids"):
        assert np.array_equal(getattr(view, name), getattr(seen, name)), name
    assert (view.position, view.trick_no) == (seen.position, seen.trick_no)


def test_a_copy_and_some_rows_resume_apart(run):
    n_cards = run["result"].plays.shape[1]
    middle = n_cards // 2
    play = _replayed(run, middle)
    rows = np.array([3, 0, 17, 17, 40])
    part = play.take(rows)
    copy = play.copy()
    plays = run["result"].plays
    for k in range(middle, n_cards):  # the part goes on alone: the whole play is not moved
        play_card(part, BIT[plays[rows, k]])
    assert play.trick == copy.trick and np.array_equal(play.plays, copy.plays)
    assert np.array_equal(play.tricks, copy.tricks)
    assert np.array_equal(part.result().plays, plays[rows])
    assert np.array_equal(part.result().tricks, run["result"].tricks[rows])
    assert np.array_equal(part.result().winners, run["result"].winners[rows])
    for k in range(middle, n_cards):
        play_card(copy, BIT[plays[:, k]])
    assert np.array_equal(copy.result().tricks, run["result"].tricks)


def test_two_decks_resume_from_any_card():
    """Six players with two decks (RULES.md §4.7): the play of a row taken mid-hand ends as the
    whole batch's did; a card held twice stays in the hand until both copies are played."""
    from sim.spades.game import play_block

    rules = load_rules("spades.six", source="test")
    lineup = Lineup([make_strategy("random")] * rules.players)
    block = play_block(rules, lineup, 3, 0, 20, "hands")
    out = block.outcomes[0]
    deck = deck_for(rules)
    hands, twice = out.held, out.twice
    trump = np.full(hands.shape[0], deck.suit_masks[3], np.uint64)
    leader = out.play.seats[:, 0]
    play = start_play(hands, leader, trump, deck, twice)
    n_cards = out.play.plays.shape[1]
    for k in range(n_cards // 3):
        play_card(play, BIT[out.play.plays[:, k]])
    part = play.take(np.array([5, 2]))
    for k in range(n_cards // 3, n_cards):
        play_card(part, BIT[out.play.plays[[5, 2], k]])
    assert np.array_equal(part.result().tricks, out.play.tricks[[5, 2]])
    assert np.array_equal(part.result().winners, out.play.winners[[5, 2]])
