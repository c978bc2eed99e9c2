"""Card passing (RULES.md §4.5: ``pass_cards``, ``pass_when``, ``nil_pass``).

Every exchange is recomputed here from the tables: each seat passes the right number of its own
cards to the right seat, the hands at the start of play are the dealt ones after the exchanges,
the bids see the passed hands exactly when ``pass_when = "before_bid"``; records written by
``run --records`` hold the hands at the start of play and replay to the same scores; the players'
choices follow their parameters; a bad pass is refused.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from sim.cards import popcount, standard_deck
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.passing import IllegalPass
from strategies import make_strategy
from whistlab.cli import main

DECK = standard_deck()
SPADES = int(DECK.suit_masks[3])
OFFSET = {"left": 1, "partner": 2, "right": 3}


def play(rules, strategy="random", size=400, mode="hands", seed=3):
    lineup = Lineup([make_strategy(strategy)] * 4)
    result = GAMES["spades"].play_block(rules, lineup, seed, 0, size, mode)
    return result


def rows_of(result):
    """(dealt hands, outcome, row in the outcome) for every hand of a block result."""
    start = 0
    for o in result.outcomes:
        n = o.play.tricks.shape[0]
        for i in range(n):
            yield result.hands[start + i], o, i
        start += n


def expected_counts(rules, bids, blind):
    """Cards each seat passes in each round, derived from RULES.md §4.5 by hand."""
    rounds = []
    if rules.pass_cards is not None:
        rounds.append(([rules.pass_cards.count] * 4, OFFSET[rules.pass_cards.direction]))
    if rules.nil_pass is not None:
        n, m = rules.nil_pass
        counts = []
        for seat in range(4):
            side = (seat, seat ^ 2)
            nils = [s for s in side if bids[s] == 0]
            counts.append(0 if not nils else m if any(blind[s] for s in nils) else n)
        rounds.append((counts, 2))
    return rounds


CASES = {
    "left_after": {"pass_cards": {"count": 3, "direction": "left"}},
    "right_before": {"pass_cards": {"count": 2, "direction": "right"}, "pass_when": "before_bid"},
    "partner_before": {"pass_cards": {"count": 1, "direction": "partner"},
                       "pass_when": "before_bid"},
    "nil_pass": {"nil_pass": [1, 2], "blind_nil_min_deficit": 0},
    "both": {"pass_cards": {"count": 1, "direction": "left"}, "nil_pass": [2, 3]},
}


@pytest.mark.parametrize("strategy", ["random", "seed"])
@pytest.mark.parametrize("case", list(CASES))
def test_exchanges_follow_the_rules(case, strategy):
    rules = load_rules(CASES[case])
    result = play(rules, strategy)
    seen_nil = False
    for dealt, o, i in rows_of(result):
        bids, blind = o.bidding.bids[i], o.bidding.blind[i]
        rounds = expected_counts(rules, bids, blind)
        total = [sum(c[s] for c, _ in rounds) for s in range(4)]
        passed = [int(x) for x in o.passed[i]]
        held = [int(x) for x in o.held[i]]
        dealt = [int(x) for x in dealt]
        # each seat passed as many cards as the rounds ask (a card passed on is counted once)
        assert [bin(p).count("1") for p in passed] == total, (case, bids, blind)
        assert all(bin(h).count("1") == 13 for h in held)
        assert sum(held) == (1 << 52) - 1 == sum(dealt)
        if len(rounds) == 1:  # one exchange: the cards moved exactly as passed
            (counts, offset), = rounds
            for s in range(4):
                giver = (s - offset) % 4
                assert held[s] == (dealt[s] & ~passed[s]) | passed[giver]
                assert passed[s] & ~dealt[s] == 0  # only his own cards
        seen_nil |= rules.nil_pass is not None and any(total)
    assert seen_nil or rules.nil_pass is None


def test_bids_see_the_passed_hand_only_when_passing_comes_first():
    """Under whiz a player bids his spades (or nil): before the bidding, the spades he holds
    after the passing; after it, those he was dealt."""
    for when in ("before_bid", "after_bid"):
        rules = load_rules({"pass_cards": {"count": 3, "direction": "left"}, "pass_when": when,
                            "whiz": True, "blind_nil": False})
        result = play(rules)
        for dealt, o, i in rows_of(result):
            hands = o.held[i] if when == "before_bid" else dealt
            for s in range(4):
                spades = bin(int(hands[s]) & SPADES).count("1")
                assert o.bidding.bids[i, s] in (0, spades)


def test_the_seed_nil_bidder_sheds_high_spades_and_his_partner_sends_low_cards():
    rules = load_rules({"nil_pass": [1, 1]})
    result = play(rules, "seed", size=2000)
    checked = 0
    for dealt, o, i in rows_of(result):
        for s in range(4):
            p = int(o.passed[i, s])
            if not p:
                continue
            hand = int(dealt[s])
            if o.bidding.bids[i, s] == 0 and o.bidding.bids[i, s ^ 2] != 0 and hand & SPADES:
                # his highest spade
                assert p == 1 << (hand & SPADES).bit_length() - 1
                checked += 1
            elif o.bidding.bids[i, s ^ 2] == 0 and o.bidding.bids[i, s] != 0:
                # the partner of a nil: his lowest card by rank (lowest suit on a tie)
                low = min((b for b in range(52) if hand >> b & 1), key=lambda b: (b % 13, b // 13))
                assert p == 1 << low
                checked += 1
    assert checked > 50


def test_records_hold_the_played_hands_and_replay_to_the_same_scores(tmp_path):
    out = tmp_path / "run"
    records = tmp_path / "records.jsonl"
    rules = tmp_path / "pass.toml"
    rules.write_text('nil_pass = [1, 2]\npass_cards = { count = 2, direction = "right" }\n')
    assert main(["run", "--rules", str(rules), "--strategy", "seed", "--games", "6",
                 "--block-size", "3", "--out", str(out), "--records", str(records),
                 "--n-jobs", "1", "--quiet"]) == 0
    scored = tmp_path / "scored.jsonl"
    assert main(["replay", str(records), "--out", str(scored)]) == 0
    recs = [json.loads(line) for line in records.read_text().splitlines()]
    outs = [json.loads(line) for line in scored.read_text().splitlines()]
    import pandas as pd

    table = pd.read_parquet(out / "hands").sort_values(["game_id", "hand_no"])
    assert len(recs) == len(table)
    for rec, got, (_, row) in zip(recs, outs, table.iterrows(), strict=True):
        assert "passed" in rec
        assert got["points"] == [row["points_0"], row["points_1"]]
        for s in range(4):
            assert DECK.names_of(int(row[f"passed_{s}"])) == rec["passed"][s]


def test_a_replayed_play_shows_each_seat_the_cards_it_passed_and_a_bad_list_is_refused():
    """The play's views show the seat to play the cards it passed (`PlayView.passed`) and those
    passed to it (``received``), in a live hand and in the same position rebuilt from its
    record (the record's ``passed``); a
    record whose ``passed`` is not a list of card names by seat is refused, named."""
    from types import SimpleNamespace

    from sim.replay import view_at

    rules = load_rules({"pass_cards": {"count": 2, "direction": "left"}})
    live = []

    class Noting:
        def __getattr__(self, name):
            return getattr(make_strategy("seed"), name)

        def play(self, view, rng):
            live.append((view.trick_no, view.position, view.seat.copy(), view.passed.copy(),
                         view.received.copy()))
            return make_strategy("seed").play(view, rng)

    result = GAMES["spades"].play_block(rules, Lineup([Noting()] * 4), 2, 0, 1, "hands")
    (rec,) = json.loads(json.dumps(GAMES["spades"].block_records(
        result, SimpleNamespace(rules=rules), 0)))
    for k in (0, 5, 22, 51):
        trick, position, seat, passed, received = live[k]
        view = view_at({**rec, "plays": rec["plays"][:k]}).view
        assert (view.trick_no, view.position, int(view.seat[0])) == (trick, position, seat[0])
        assert int(view.passed[0]) == int(passed[0]) == DECK.mask_of(rec["passed"][seat[0]])
        right = (seat[0] - 1) % 4  # (passing to the left: the cards come from the right)
        assert int(view.received[0]) == int(received[0]) == DECK.mask_of(rec["passed"][right])
    for bad, says in ((["2C"], "must list the cards each of the 4 seats passed"),
                      ([["XX"], [], [], []], "not a card of this deck")):
        with pytest.raises(UserError, match=says):
            view_at({**rec, "passed": bad, "plays": rec["plays"][:5]})


# one exchange (the seat that passes to each seat: its offset before it) or two
RECEIVED = {"pass_cards to the right": ({"pass_cards": {"count": 2, "direction": "right"}}, 3),
            "pass_cards to the partner": ({"pass_cards": {"count": 1, "direction": "partner"}},
                                          2),
            "nil_pass": ({"nil_pass": [1, 2]}, 2),
            "two players": ({"players": 2, "pass_cards": {"count": 3, "direction": "left"}},
                            1),
            "three pairs of six": ({"preset": "spades.six", "deck": "no_twos",
                                    "teams": "three_pairs", "nil_pass": [1, 2]}, 3),
            "two exchanges": ({"nil_pass": [1, 2],
                               "pass_cards": {"count": 1, "direction": "left"}}, None)}


@pytest.mark.parametrize("case", list(RECEIVED))
def test_each_play_view_shows_the_cards_passed_to_the_seat(case):
    """`PlayView.received` (RULES.md §4.5): at every card, the cards the seat's passer passed
    (his ``passed``, as the hand's outcome keeps it for its records), whichever cards it has
    played since; with two exchanges none (whose cards a seat holds is not said)."""
    spec, offset = RECEIVED[case]
    rules = load_rules(spec)
    players = rules.players
    seen = []

    class Noting:
        def __getattr__(self, name):
            return getattr(make_strategy("seed"), name)

        def play(self, view, rng):
            seen.append((view.rows.copy(), view.seat.copy(), view.received
                         if view.received is None else view.received.copy()))
            return make_strategy("seed").play(view, rng)

    result = GAMES["spades"].play_block(rules, Lineup([Noting()] * players), 5, 0, 60, "hands")
    (outcome,) = result.outcomes  # (one batch: the views' rows are its rows)
    passed = outcome.passed
    assert passed.any()
    for rows, seat, received in seen:
        if offset is None:
            assert received is None
            continue
        assert np.array_equal(received, passed[rows, (seat.astype(int) - offset) % players])


class BadPasser:
    def __getattr__(self, name):
        return getattr(make_strategy("random"), name)

    def pass_cards(self, view, rng):
        return view.hand & ~(view.hand - np.uint64(1))  # one card, whatever the count


def test_a_bad_pass_is_refused():
    rules = load_rules({"pass_cards": {"count": 2, "direction": "left"}})
    with pytest.raises(IllegalPass, match="must pass 2 of its own cards"):
        GAMES["spades"].play_block(rules, Lineup([BadPasser()] * 4), 1, 0, 5, "hands")
    assert issubclass(IllegalPass, UserError)


def test_passing_keys_are_checked():
    for bad in ({"nil_pass": [1]}, {"nil_pass": [1, 13]}, {"pass_cards": {"count": 0,
                                                                          "direction": "left"}},
                {"pass_cards": {"count": 2, "direction": "across"}}, {"pass_when": "before_bid"},
                {"nil_pass": [1, 2], "nil": False, "blind_nil": False}):
        with pytest.raises(UserError):
            load_rules(bad)
    assert popcount(np.array([SPADES], np.uint64))[0] == 13


# --- issue 19: two decks (RULES.md §4.7), a card held twice ------------------------------------

TWO_DECKS = {
    "left before": {"pass_cards": {"count": 3, "direction": "left"}, "pass_when": "before_bid"},
    "right, solo": {"pass_cards": {"count": 2, "direction": "right"}, "teams": "solo"},
    "left, double_jokers, two threes": {"pass_cards": {"count": 4, "direction": "left"},
                                        "deck": "double_jokers", "jokers": 4,
                                        "teams": "two_threes"},
}


@pytest.mark.parametrize("strategy", ["random", "seed"])
@pytest.mark.parametrize("case", list(TWO_DECKS))
def test_two_deck_passes_move_one_copy(case, strategy):
    """Each seat passes ``count`` different cards of its own (one copy of a card it holds
    twice: a reading, as the kitty's discard), and its hand at the start of play is the one
    dealt, less what it passed, plus what its neighbour passed to it, counted copy by copy;
    the table still holds the two decks."""
    from collections import Counter

    from sim.spades.hand import deck_for

    rules = load_rules({"players": 6, **TWO_DECKS[case]})
    deck = deck_for(rules)
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy(strategy)] * 6), 4, 0, 300,
                                        "hands")
    out = result.outcomes[0]
    offset = rules.pass_cards.offset

    def cards(h, t):
        return Counter(deck.names_of(int(h))) + Counter(deck.names_of(int(t)))

    whole = sum((Counter(deck.names_of(int(h))) for h in result.hands[0]), Counter())
    whole += sum((Counter(deck.names_of(int(t))) for t in result.twice[0]), Counter())
    moved_twice = 0
    for i in range(300):
        table = Counter()
        for s in range(6):
            giver = (s - offset) % 6
            passed = Counter(deck.names_of(int(out.passed[i, s])))
            assert sum(passed.values()) == rules.pass_cards.count
            dealt = cards(result.hands[i, s], result.twice[i, s])
            assert not passed - dealt  # his own cards
            held = cards(out.held[i, s], out.twice[i, s])
            want = dealt - passed + Counter(deck.names_of(int(out.passed[i, giver])))
            assert held == want, (case, i, s)
            assert sum(held.values()) == rules.cards_each
            moved_twice += any(n == 2 for n in held.values()) and any(
                dealt[c] != held[c] for c in held)
            table += held
        assert table == whole
    assert moved_twice > 0


@pytest.mark.parametrize("over", [{"pass_cards": {"count": 2, "direction": "partner"}},
                                  {"nil_pass": [1, 2], "blind_nil_min_deficit": 0}])
def test_three_pairs_pass_to_the_partner_opposite(over):
    """Issue 19, six players in three pairs (RULES.md §4.7: partners 0-3, 1-4, 2-5; one deck,
    no_twos): the partner of pass_cards and nil_pass sits three seats on; nil_pass counts the
    nils of the seat's own pair."""
    rules = load_rules({"players": 6, "deck": "no_twos", **over})
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy("random")] * 6), 2, 0, 500,
                                        "hands")
    out = result.outcomes[0]
    b = out.bidding
    seen = 0
    for i in range(500):
        dealt, held, passed = (result.hands[i].tolist(), out.held[i].tolist(),
                               out.passed[i].tolist())
        for s in range(6):
            p = (s + 3) % 6
            nils = [x for x in (s, p) if b.bids[i, x] == 0]
            want = 2 if "pass_cards" in over else (
                0 if not nils else 2 if any(b.blind[i, x] for x in nils) else 1)
            assert bin(passed[s]).count("1") == want
            assert held[s] == (dealt[s] & ~passed[s]) | passed[p]
            seen += want > 0
    assert seen > 100


@pytest.mark.parametrize("over", [
    {"jokers": 2, "kitty": True, "pass_cards": {"count": 3, "direction": "left"}},
    {"jokers": 2, "kitty": True, "kitty_taker": "high_bidder", "nil_pass": [1, 2]},
    {"players": 6, "deck": "double_kitty", "kitty": True, "pass_when": "before_bid",
     "pass_cards": {"count": 2, "direction": "right"}, "first_lead": "two_of_clubs"},
])
def test_records_with_a_kitty_and_passing_replay(over):
    """The kitty's checks of a replayed record (RULES.md §4.1: the taker's dealt hand, the
    holder of the lowest club dealt) look through the passing (§4.5: the record's ``passed``):
    found by the fuzzer of tests/test_combinations.py (issue 19)."""
    from sim.replay import replay_records

    rules = load_rules(over)
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy("seed")] * rules.players),
                                        6, 0, 200, "hands")
    from sim.spades.records import block_records
    from whistlab.experiment import build_experiment

    table = {k: list(v) if isinstance(v, tuple) else v for k, v in over.items()}
    exp = build_experiment({"rules": table, "strategy": "seed", "hands": 200, "seed": 6,
                            "block_size": 200})
    records = block_records(result, exp, 0)
    out = replay_records(list(enumerate(records, 1)))
    assert [o["points"] for o in out] == result.outcomes[0].score.points.tolist()
