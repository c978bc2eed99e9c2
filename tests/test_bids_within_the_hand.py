"""No bid above the tricks of the hand, at any table and under any bidding rule (issue 17).

RULES.md §3 bids run 0..13 at four players, 13 being every trick; at the other tables of §4.7 (and
with §4.1's kitty and its extra trick) a hand has ``rules.tricks_per_hand`` tricks (8 for six
players with ``no_twos``, 9 with ``single_jokers``, 17 or 18 with two decks), and no bid may go
above them. For every Spades preset, every six-player deck and team shape, the other tables (2, 3,
5 and 8 players, the kitty's extra trick) and the bid rules that six players in pairs may play,
``random`` and ``seed`` players play a few thousand hands: every bid (blind, raised, a joint bid
included) is at most the tricks of the hand, and the hand records the run writes replay through
``sim.replay`` without error, to the engine's points. A last test runs the command line on the
six-player decks (``whistlab run --records``, then ``whistlab replay``).

The scalar reference checks the bids the engine offers, bit by bit, in
tests/test_conformance_big_tables.py and tests/test_conformance_player_counts.py.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from harness import simulate
from roundtrip import roundtrip
from sim.options import PRESETS, preset_names
from sim.replay import replay_records

STANDARD = PRESETS["spades.standard"]

# RULES.md §4.7 six players: each deck (with the jokers and kitty it needs) in each team shape
SIX_DECKS = {"double_minus_2c": {}, "double_jokers": {"jokers": 4},
             "double_kitty": {"kitty": True}, "no_twos": {},
             "single_jokers": {"jokers": 2}}
SIX = {f"six, {deck}, {teams}": {"players": 6, "deck": deck, "teams": teams, **extra}
       for (deck, extra), teams in itertools.product(SIX_DECKS.items(),
                                                     ("three_pairs", "two_threes", "solo"))}
OTHER_TABLES = {
    "two": {"players": 2},
    "three, jokers": {"players": 3, "jokers": 2},
    "five, jokers": {"players": 5, "jokers": 3},
    "three, kitty, extra trick": {"players": 3, "kitty": True, "kitty_extra_trick": True},
    "four, kitty, extra trick": {"kitty": True, "kitty_extra_trick": True},
    "five, kitty, extra trick": {"players": 5, "kitty": True, "kitty_extra_trick": True},
    "six, double_kitty, extra trick": {"players": 6, "deck": "double_kitty", "kitty": True,
                                       "kitty_extra_trick": True},
}
# the bid rules a short hand may meet: at six players in pairs with 8 and 9 tricks (the partner
# keys are for four players), the hook at two threes, and the joint and half bids at four
NO_BLIND = {"blind_nil": False}
NO_TWOS = {"players": 6, "deck": "no_twos"}
SINGLE = {"players": 6, "deck": "single_jokers", "jokers": 2}
BID_RULES = {
    "no_twos, fledu": {**NO_TWOS, "fledu": True},
    "no_twos, nil=false": {**NO_TWOS, "nil": False, **NO_BLIND},
    "no_twos, whiz": {**NO_TWOS, "whiz": True, **NO_BLIND},
    "single_jokers, mirror": {**SINGLE, "mirror": True, **NO_BLIND},
    "no_twos, blind_bids": {**NO_TWOS, "blind_bids": True, "blind_bid_min_deficit": 0},
    "single_jokers, bid_raise": {**SINGLE, "bid_raise": True},
    "no_twos, bid_raise, blind nil always": {**NO_TWOS, "bid_raise": True,
                                             "blind_nil_min_deficit": 0},
    "single_jokers, no_trump_bids, nil_in_the_dark": {**SINGLE, "no_trump_bids": True,
                                                      "nil_in_the_dark": True},
    "no_twos, two threes, hook": {**NO_TWOS, "teams": "two_threes", "hook": True},
    "single_jokers, solo, fledu, blind_bids": {**SINGLE, "teams": "solo", "fledu": True,
                                               "blind_bids": True, "blind_bid_min_deficit": 0},
    "four, partnership_bidding, max_team_bid=20": {"partnership_bidding": True,
                                                   "max_team_bid": 20, **NO_BLIND},
    "four, half_trick_bids, bid_raise": {"half_trick_bids": True, "bid_raise": True},
}
CASES = {**{name: PRESETS[name] for name in preset_names("spades")},
         **{name: dataclasses.replace(STANDARD, **keys)
            for name, keys in {**SIX, **OTHER_TABLES, **BID_RULES}.items()}}
HANDS = 2000
SEED = 1717


@pytest.mark.parametrize("strategy", ["random", "seed"])
@pytest.mark.parametrize("name", list(CASES))
def test_every_bid_within_the_hand_and_the_records_replay(name, strategy):
    rules = CASES[name]
    sim = simulate(rules, strategy, "hands", HANDS, SEED, 1)
    tricks = rules.tricks_per_hand
    assert sim.tricks.sum(axis=1).max() <= tricks
    # the bids after the bidding: blind bids, raises and a joint bid (one seat's) included
    top = int(sim.by_seat("bid").max())
    assert top <= tricks, f"{name}: a bid of {top} with {tricks} tricks a hand"
    # the records replay, to the engine's points
    items = list(enumerate(sim.records, 1))
    replayed = replay_records(items, rules=rules)
    assert [r["points"] for r in replayed] == sim.points.tolist()


@pytest.mark.parametrize("deck", ["no_twos", "single_jokers"])
def test_the_command_line_round_trip(tmp_path, deck):
    """``whistlab run --records`` with random players at six in three pairs, then ``whistlab
    replay`` of the records written: no record is refused (issue 17: bids of 10..13 with 8 or 9
    cards were)."""
    jokers = "jokers = 2\n" if deck == "single_jokers" else ""
    rt = roundtrip(tmp_path, f'players = 6\ndeck = "{deck}"\n{jokers}max_hands = 8\n'
                   "mercy_score = false\n", games=20, block_size=10)
    top = {"no_twos": 8, "single_jokers": 9}[deck]
    assert max(max(r["bids"]) for r in rt.records) <= top
    assert [r["points"] for r in rt.full] == rt.points
    assert rt.sheet_points() == rt.points
