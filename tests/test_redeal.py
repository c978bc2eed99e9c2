"""RULES.md §4.1 ``redeal_poor_hands``: poor hands are recognised as the conditions say, a player
who always calls leaves no poor hand to be played, and the number of misdeals per hand follows
the exact geometric law derived here from the deal's combinatorics."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from sim.blocks import stacked
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.hand import deck_for
from sim.spades.redeal import poor_hands
from strategies import make_strategy
from tolerance import check_distribution

FACES = {"J", "Q", "K"}


def redeals(result) -> np.ndarray:
    """int8[H]: the misdeals of each hand of a block, in the order of its hands (the plug-in's
    state, `sim.spades.house.redeal_poor_hands`)."""
    return stacked(result.outcomes, lambda o: o.house_state["redeals"])


def play(over, strategy="seed", n=20000, mode="hands", seed=3):
    rules = load_rules(over)
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy(strategy)] * 4), seed, 0, n,
                                        mode)
    return rules, result


def test_poor_hands_by_each_condition():
    rules = load_rules({"redeal_poor_hands": ["no_spades", "no_face_cards"]})
    deck = deck_for(rules)
    rng = np.random.default_rng(1)
    from sim.deal import deal

    hands = deal(deck, np.zeros(3000, np.int8), 4, rng)
    got = poor_hands(hands, rules, deck)
    for i in range(300):
        for seat in range(4):
            cards = deck.names_of(hands[i, seat])
            spades = sum(c[1] == "S" for c in cards)
            faces = sum(c[0] in FACES for c in cards)
            assert got[i, seat] == (spades == 0 or faces == 0)
    one = load_rules({"redeal_poor_hands": ["one_spade_or_less"]})
    spades = np.bitwise_count(hands & deck.suit_masks[3])
    assert (poor_hands(hands, one, deck) == (spades <= 1)).all()


def test_a_player_who_always_calls_plays_no_poor_hand():
    rules, result = play({"redeal_poor_hands": ["one_spade_or_less"]}, n=4000)
    assert not poor_hands(result.hands, rules, deck_for(rules)).any()
    assert redeals(result).max() >= 1


def _p_some_hand_void_in_spades() -> Fraction:
    """P(at least one of the four hands has no spade), by inclusion-exclusion: one given hand
    void C(39,13)/C(52,13); two given hands void C(26,13)/C(52,13); three 1/C(52,13) (the fourth
    holds all 13 spades); four impossible."""
    total = comb(52, 13)
    return Fraction(4 * comb(39, 13) - 6 * comb(26, 13) + 4, total)


def test_misdeals_follow_the_geometric_law():
    p = _p_some_hand_void_in_spades()
    _, result = play({"redeal_poor_hands": ["no_spades"]}, n=40000)
    counts = np.minimum(redeals(result), 3)
    # a deal is poor with probability p, independently: P(k misdeals) = p^k (1 - p)
    probs = {0: 1 - p, 1: p * (1 - p), 2: p**2 * (1 - p), 3: p**3}  # 3: three or more
    observed = {k: int((counts == k).sum()) for k in range(4)}
    check_distribution(observed, probs, counts.size, "misdeals per hand")


def test_the_same_seed_redeals_the_same_cards_in_every_cell():
    over = {"redeal_poor_hands": ["one_spade_or_less"]}
    a = play(over, "seed", n=2000, mode="games")[1]
    b = play({**over, "nil_bonus": 50}, "seed", n=2000, mode="games")[1]
    first_a, first_b = a.hand_no == 1, b.hand_no == 1
    assert (a.hands[first_a] == b.hands[first_b]).all()
    assert (redeals(a)[first_a] == redeals(b)[first_b]).all()


def test_records_carry_the_misdeals(tmp_path):
    from roundtrip import roundtrip

    rt = roundtrip(tmp_path, 'redeal_poor_hands = ["one_spade_or_less", "no_face_cards"]\n',
                   strategy="seed", games=6)
    assert [r["points"] for r in rt.full] == rt.points
    assert [r.get("redeals", 0) for r in rt.records] == rt.table.redeals.tolist()


@pytest.mark.parametrize("value", [[], ["no_hearts"], ["no_spades", "no_spades"], "no_spades"])
def test_bad_conditions_are_refused(value):
    with pytest.raises(UserError, match="redeal_poor_hands"):
        load_rules({"redeal_poor_hands": value})


def test_two_decks_count_a_spade_held_twice():
    """Issue 19, six players with two decks (RULES.md §4.7): a hand holding one spade twice
    holds two, and is not poor under one_spade_or_less; a player who always calls plays no
    hand of one spade or none, counted copy by copy."""
    rules, result = play({"players": 6, "redeal_poor_hands": ["one_spade_or_less"]}, n=3000)
    deck = deck_for(rules)
    spades = (np.bitwise_count(result.hands & deck.suit_masks[3])
              + np.bitwise_count(result.twice & deck.suit_masks[3]))
    assert (spades >= 2).all() and redeals(result).max() >= 1
    hands = np.full((1, 6), np.uint64(1) << np.uint64(deck.bit_of("AS")), np.uint64)
    twice = hands.copy()  # the AS twice: two spades
    assert not poor_hands(hands, rules, deck, twice).any()
    assert poor_hands(hands, rules, deck).all()
