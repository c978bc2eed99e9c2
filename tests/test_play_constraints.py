"""RULES.md §4.3 leads and play constraints: every card the engine's players chose is checked,
trick by trick, against the rule written out again here from RULES.md (the hands re-derived from
the plays, the spades of the rules' card order); each rule also changes what is played."""

from __future__ import annotations

import numpy as np
import pytest

from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.hand import deck_for
from strategies import make_strategy


def played(over: dict, strategy: str, n: int = 300, seed: int = 4):
    """Hands as lists of (seat, [cards of trick 1..13 in order]) with each seat's hand before
    every trick, for a block of independent hands."""
    rules = load_rules(over)
    deck = deck_for(rules)
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy(strategy)] * 4), seed, 0, n,
                                        "hands")
    out = result.outcomes[0]
    names = np.array([x or "?" for x in deck.names])
    spades = set(deck.names_of(deck.suit_masks[3]))
    clubs = deck.names_of(deck.suit_masks[0])  # weakest first
    hands = [[set(deck.names_of(h)) for h in row] for row in out.held]
    plays = names[out.play.plays].reshape(n, 13, 4)
    seats = out.play.seats.reshape(n, 13, 4)
    return rules, deck, spades, clubs, hands, plays, seats, out


def walk(over, strategy, check, n=300):
    """Call ``check(ctx)`` for every card played, with the seat's hand before it."""
    _, _, spades, clubs, hands, plays, seats, _ = played(over, strategy, n)
    calls = 0
    for i in range(n):
        held = [set(h) for h in hands[i]]
        broken = False
        for t in range(13):
            trick = []
            for j in range(4):
                seat, card = int(seats[i, t, j]), plays[i, t, j]
                check(dict(t=t, j=j, seat=seat, card=card, hand=set(held[seat]), trick=list(trick),
                           seats=list(seats[i, t, :j]), spades=spades, clubs=clubs,
                           broken=broken))
                held[seat].discard(card)
                trick.append(card)
                calls += 1
            broken |= any(c in spades for c in trick)
    return calls


def suit(card, spades):
    return "S" if card in spades else card[1]


def test_first_lead_two_of_clubs_and_lowest_club():
    def check(c):
        if c["t"] == 0 and c["j"] == 0:
            assert c["card"] == "2C"
    assert walk({"first_lead": "two_of_clubs"}, "seed", check)

    def lowest(c):
        if c["t"] == 0 and c["j"] == 0:  # 2C is out with jokers: the 3C holder leads it
            assert c["card"] == "3C"
    walk({"first_lead": "lowest_club", "jokers": 2}, "random", lowest)


@pytest.mark.parametrize("strategy", ["random", "seed"])
def test_first_trick_clubs(strategy):
    def check(c):
        if c["t"] != 0:
            return
        if c["j"] == 0:
            assert c["card"] == "2C"
        elif c["card"] in c["spades"]:  # a spade on trick 1 only from a hand of spades
            assert c["hand"] <= c["spades"]
    walk({"first_trick_clubs": True}, strategy, check)


@pytest.mark.parametrize("strategy", ["random", "seed"])
def test_first_trick_lowest_club(strategy):
    def check(c):
        if c["t"] != 0:
            return
        mine = [x for x in c["clubs"] if x in c["hand"]]
        if mine:
            assert c["card"] == mine[0]
        elif c["hand"] - c["spades"]:
            assert c["card"] not in c["spades"]
    walk({"first_trick_lowest_club": True}, strategy, check)


def test_no_spade_lead_first_trick():
    def check(c):
        if c["t"] == 0 and c["j"] == 0 and c["hand"] - c["spades"]:
            assert c["card"] not in c["spades"]
    walk({"no_spade_lead_first_trick": True, "spades_broken": False}, "random", check)


def test_lead_ace_of_spades():
    aces = []

    def check(c):
        if c["j"] == 0 and not c["broken"] and c["card"] in c["spades"]:
            if c["card"] == "AS":
                aces.append(c["t"])
            else:  # another spade before spades are broken: only from a hand of spades
                assert c["hand"] <= c["spades"]
    walk({"lead_ace_of_spades": True}, "random", check)
    assert aces  # the ace was led before spades were broken


def _beats(card, top, spades_order):
    return spades_order.index(card) > spades_order.index(top)


@pytest.mark.parametrize("strategy", ["random", "seed"])
@pytest.mark.parametrize("mode", ["opponents", "always", "must_trump"])
def test_must_trump_and_overtrump(strategy, mode):
    over = {"must_trump": True} if mode == "must_trump" else {"must_overtrump": mode}
    order = deck_for(load_rules(over)).names_of(deck_for(load_rules(over)).suit_masks[3])
    forced = []

    def check(c):
        if c["j"] == 0:
            return
        spades = c["spades"]
        led = suit(c["trick"][0], spades)
        mine = [x for x in c["hand"] if suit(x, spades) == led]
        if mine:
            assert suit(c["card"], spades) == led  # following suit comes first
            if not (mode == "must_trump" and led == "S"):
                return
        trumps_in = [x for x in c["trick"] if x in spades]
        top = max(trumps_in, key=order.index) if trumps_in else None
        my_spades = [x for x in c["hand"] if x in spades]
        if mode == "must_trump":
            if my_spades:
                assert c["card"] in spades
                higher = [x for x in my_spades if top is None or _beats(x, top, order)]
                if higher:
                    assert c["card"] in higher
                    forced.append(1)
            return
        if led == "S" or top is None:
            return
        holder = c["seats"][c["trick"].index(top)]
        winning_top = max(c["trick"], key=lambda x: (x in spades, order.index(x)
                                                     if x in spades else -1)) == top
        higher = [x for x in my_spades if _beats(x, top, order)]
        due = higher and winning_top and (mode == "always" or (holder - c["seat"]) % 2 == 1)
        if due:
            assert c["card"] in higher
            forced.append(1)
    walk(over, strategy, check)
    assert forced


def test_big_joker_led_calls_the_highest_spade():
    over = {"trump_order": "joker_high_alternate", "jokers": 2}
    deck = deck_for(load_rules(over))
    order = deck.names_of(deck.suit_masks[3])
    calls = []

    def check(c):
        if c["j"] and c["trick"][0] == "BJ" and (c["seat"] - c["seats"][0]) % 2 == 1:
            mine = [x for x in c["hand"] if x in c["spades"]]
            if mine:
                assert c["card"] == max(mine, key=order.index)
                calls.append(1)
    walk(over, "random", check, n=2000)
    assert calls


def test_illegal_records_name_the_rule(tmp_path, capsys):
    from roundtrip import roundtrip

    rt = roundtrip(tmp_path, 'first_lead = "two_of_clubs"\n', games=2)
    assert [r["points"] for r in rt.full] == rt.points
    rec = dict(rt.records[0])
    plays = list(rec["plays"])
    lead_hand = next(h for h in rec["hands"] if "2C" in h)
    other = next(c for c in lead_hand if c != "2C" and c[1] != "S")
    plays[plays.index(other)], plays[0] = "2C", other
    err = rt.refused(tmp_path, dict(rec, plays=plays), capsys)
    assert "first_lead" in err and "trick 1" in err


@pytest.mark.parametrize("over, key", [
    ({"first_lead": "two_of_clubs", "jokers": 2}, "first_lead"),
    ({"first_lead": "lowest_club", "mo_b": True}, "first_lead"),
    ({"lead_ace_of_spades": True, "spades_broken": False}, "lead_ace_of_spades"),
    ({"must_trump": True, "must_overtrump": "always"}, "must_overtrump"),
    ({"must_trump": True, "trump_order": "suit_ladder"}, "trump_order"),
    ({"first_lead": "two_of_clubs", "trump_order": "deuces_high"}, "first_lead"),
    ({"jokers": 2, "jokers_remove": ["AS", "2D"], "lead_ace_of_spades": True}, "jokers_remove"),
    ({"jokers": 2, "jokers_remove": ["9S", "2D"], "last_trick_high_spade": True},
     "jokers_remove"),
])

def test_impossible_play_rules_are_refused(over, key):
    with pytest.raises(UserError, match=key):
        load_rules(over)


def test_a_leader_of_only_spades_may_lead_any_under_lead_ace_of_spades():
    seen = []

    def check(c):
        if c["j"] == 0 and not c["broken"] and c["hand"] <= c["spades"] and len(c["hand"]) > 1:
            seen.append(c["card"])
    walk({"lead_ace_of_spades": True}, "random", check, n=3000)
    assert any(card != "AS" for card in seen)
