"""A Spades hand as a value (issue 19 item 1, `sim.spades.hand`): a `SpadesHand` state and pure
phases over it. A rules value runs only the phases its rules bring; a state stopped after any
phase resumes to the hand the whole pipeline plays, also when copied or cut to some rows; a phase
never changes the state it was given."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sim.blocks import stock_groups
from sim.deal import deal
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.dealing import deal_from_order
from sim.spades.hand import PHASES, Seating, SpadesHand, deck_for, pipeline, play_hand, start_hand
from strategies import make_strategy

# rules (a preset and keys) under which each optional phase runs, RULES.md §4.1-4.6
BRINGS = {
    "kitty_before_bids": {"preset": "spades.standard", "jokers": 2, "kitty": True,
                          "kitty_taker": "two_of_clubs"},
    "cancel_card": {"preset": "spades.standard", "bag_cancel_card": "cut"},
    "pass_before_bids": {"preset": "spades.standard", "pass_cards": {"count": 2, "direction": "partner"},
                         "pass_when": "before_bid"},
    "reveal": {"preset": "spades.standard", "seven_trump_reveal": True},
    "kitty_after_bids": {"preset": "spades.jokers", "kitty": True, "kitty_taker": "high_bidder"},
    "pass_after_bids": {"preset": "spades.standard", "nil_pass": [2, 3]},
    "kitty_extra_trick": {"preset": "spades.standard", "kitty": True, "jokers": 2,
                          "kitty_extra_trick": True},
}
ALWAYS = ("bid", "play", "score")


def _rules(table):
    return load_rules(table, source="test")


def test_standard_spades_runs_only_bid_play_score():
    assert tuple(p.name for p in pipeline(_rules({"preset": "spades.standard"}))) == ALWAYS


@pytest.mark.parametrize("name", sorted(BRINGS))
def test_a_phase_runs_exactly_where_its_rule_is_in_force(name):
    names = [p.name for p in pipeline(_rules(BRINGS[name]))]
    assert name in names
    assert set(ALWAYS) <= set(names)
    assert names == [p.name for p in PHASES if p.name in names]  # in the hand's order
    for other, table in BRINGS.items():  # the other cases' rules do not bring it ...
        if other != name and name not in _brought_together(other, name):
            assert name not in [p.name for p in pipeline(_rules(table))], other


def _brought_together(case, name):
    """Phases two cases share by construction (a kitty case brings the kitty's phases)."""
    shared = {"kitty_extra_trick": {"kitty_before_bids"}}  # kitty_taker's default: two_of_clubs
    return shared.get(case, set())


def test_a_replayed_record_gives_what_the_deal_phases_decide():
    """Replay (RULES.md §5) gives the kitty, the passing's outcome and the cancel card: those
    phases do not run; the record's decisions feed the rest."""
    for table in BRINGS.values():
        rules = _rules(table)
        replayed = [p.name for p in pipeline(rules, replay=True)]
        assert not {"kitty_before_bids", "kitty_after_bids", "cancel_card", "pass_before_bids",
                    "pass_after_bids"} & set(replayed)
        assert set(ALWAYS) <= set(replayed)


CASES = {  # rules, strategy
    "standard, seed": ({"preset": "spades.standard"}, "seed"),
    "standard, random": ({"preset": "spades.standard"}, "random"),
    "kitty to the high bidder, seed": (BRINGS["kitty_after_bids"], "seed"),
    "passing before the bids, seed": (BRINGS["pass_before_bids"], "seed"),
    "nil pass and the cut card, random": ({**BRINGS["pass_after_bids"],
                                          "bag_cancel_card": "cut"}, "random"),
    "seven trump reveal, seed": (BRINGS["reveal"], "seed"),
    "six players, two decks, seed": ({"preset": "spades.six"}, "seed"),
}


def _start(case, n=96, seed=11):
    table, strategy = CASES[case]
    rules = _rules(table)
    deck = deck_for(rules)
    dealer = (np.arange(n) % rules.players).astype(np.int8)
    dealt = deal_from_order(stock_groups(deck, seed, 0, 0, np.arange(n)), dealer, rules,
                            deck.copies)
    zeros = np.zeros((n, rules.sides), np.int32)
    hand = start_hand(dealt.hands, dealer, zeros, zeros, progressive=zeros, dealt=dealt)
    lineup = Lineup([make_strategy(strategy)] * rules.players)
    return rules, deck, lineup, hand


def _facts(hand: SpadesHand, rows=slice(None)) -> dict:
    """What a finished hand decided, per row."""
    b, play, score = hand.bidding, hand.play, hand.score
    return {"bids": b.bids[rows], "blind": b.blind[rows], "held": hand.hands[rows],
            "passed": hand.passed[rows], "kitty": hand.house_state["kitty_discards"][rows],
            "trump": hand.house_state["trump"][rows], "cancel": hand.house_state["cancel_card"][rows],
            "plays": play.plays[rows], "tricks": play.tricks[rows],
            "points": score.points[rows], "bags": score.bags_after[rows]}


def _equal(a: dict, b: dict) -> None:
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_state_stopped_after_any_phase_resumes_to_the_same_hand(case):
    rules, deck, lineup, start = _start(case)
    phases = pipeline(rules)
    whole = play_hand(start, Seating(rules, deck, lineup, np.random.default_rng(3)), phases)
    assert (whole.play.tricks.sum(axis=1) == rules.tricks_per_hand).all()
    for k in range(len(phases) + 1):
        at = Seating(rules, deck, lineup, np.random.default_rng(3))
        stopped = play_hand(start, at, phases[:k])
        resumed = play_hand(stopped.copy(), at, phases[k:])
        _equal(_facts(whole), _facts(resumed))


@pytest.mark.parametrize("case", sorted(c for c in CASES if c.endswith("seed")))
def test_rows_taken_after_any_phase_resume_as_in_the_batch(case):
    """The seed player decides without drawing random numbers, so the rows of a state cut after
    any phase play on exactly as they did within the whole batch."""
    rules, deck, lineup, start = _start(case)
    phases = pipeline(rules)
    whole = play_hand(start, Seating(rules, deck, lineup, np.random.default_rng(3)), phases)
    rows = np.arange(1, start.n, 3)
    for k in range(len(phases) + 1):
        stopped = play_hand(start, Seating(rules, deck, lineup, np.random.default_rng(3)),
                            phases[:k])
        part = play_hand(stopped.take(rows), Seating(rules, deck, lineup,
                                                     np.random.default_rng(4)), phases[k:])
        assert part.n == rows.size
        _equal(_facts(whole, rows), _facts(part))


def _snapshot(value):
    """Every array reachable from a state, copied."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if dataclasses.is_dataclass(value):
        return {f.name: _snapshot(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def _same(a, b, path="state"):
    if isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, b, err_msg=path)
    elif isinstance(a, dict):
        for key in a:
            _same(a[key], b[key], f"{path}.{key}")


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_phase_leaves_the_state_it_was_given_as_it_was(case):
    rules, deck, lineup, hand = _start(case)
    at = Seating(rules, deck, lineup, np.random.default_rng(3))
    for phase in pipeline(rules):
        before = _snapshot(hand)
        after = phase.step(hand, at)
        _same(before, _snapshot(hand))
        assert after is not hand
        hand = after


OTHER_GAMES = {"portland": ({"game": "portland"}, "portland"),
               "portland, dummy": ({"game": "portland", "dummy": True}, "portland"),
               "norwegian, three players": ({"game": "norwegian", "players": 3}, "norwegian"),
               "norwegian, classic": ({"preset": "norwegian.classic"}, "norwegian")}


@pytest.mark.parametrize("case", sorted(OTHER_GAMES))
def test_portland_and_norwegian_hands_stop_and_resume_after_any_phase(case):
    """The same protocol (`sim.phases`) for the other games: a state stopped after any phase and
    copied (`take` of every row) resumes to the hand the whole pipeline plays."""
    import importlib

    from sim.phases import Seating as Seat

    table, game = OTHER_GAMES[case]
    rules = load_rules(table, source="test")
    module = importlib.import_module(f"sim.{game}.hand")
    deck = module.deck_for(rules)
    n = 80
    dealer = (np.arange(n) % rules.players).astype(np.int8)
    hands = deal(deck, dealer, rules.players, np.random.default_rng(5))
    each = 52 // rules.players
    scores = np.zeros((n, rules.sides if game == "norwegian" else 2), np.int32)
    held = hands[np.arange(n), dealer]  # the turned-up card: one of the dealer's
    turn_up = np.argmax((held[:, None] >> np.arange(52, dtype=np.uint64)) & 1, axis=1)
    start = (module.start_hand(hands, dealer, turn_up.astype(np.int8), scores)
             if game == "portland" else module.start_hand(hands, dealer, scores))
    lineup = Lineup([make_strategy("seed", game=game)] * rules.players)
    phases = module.PHASES
    whole = module.play_hand(start, Seat(rules, deck, lineup, np.random.default_rng(2)))
    assert (whole.play.tricks.sum(axis=1) == each).all()
    for k in range(len(phases) + 1):
        at = Seat(rules, deck, lineup, np.random.default_rng(2))
        stopped = module.play_hand(start, at, phases[:k])
        resumed = module.play_hand(stopped.take(np.arange(n)), at, phases[k:])
        np.testing.assert_array_equal(resumed.play.plays, whole.play.plays)
        np.testing.assert_array_equal(resumed.score.points, whole.score.points)
        np.testing.assert_array_equal(resumed.scores_after, whole.scores_after)
