"""RULES.md §4.2 card orders: the layouts hold the right cards in the right order, the same
random numbers deal the same physical cards whatever the layout, and every trick the engine plays
goes to the card an independent ranking (written out from RULES.md below) says."""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import RANKS, SUITS
from sim.deal import deal
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.hand import deck_for
from strategies import make_strategy

SPADE_RANKS = [r + "S" for r in RANKS]
# RULES.md §4.2, strongest first: the trumps of each order (the other cards rank A..2 in suit)
TRUMPS = {
    "standard": SPADE_RANKS[::-1],
    "jokers_high": ["BJ", "LJ"] + SPADE_RANKS[::-1],
    "jokers_first_wins": ["BJ", "LJ"] + SPADE_RANKS[::-1],  # BJ = LJ: the first played wins
    "joker_high_alternate": ["BJ", "LJ"] + SPADE_RANKS[::-1],
    "joker_joker_deuce_ace": ["BJ", "LJ", "2S"] + SPADE_RANKS[:0:-1],
    "deuces_high": ["2S", "2D", "2C", "2H"] + SPADE_RANKS[:0:-1],
    "bowers": ["JS", "JC", "AS", "KS", "QS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S",
               "2S"],
}
CASES = [("standard", 0), ("standard", 2), ("jokers_high", 2), ("jokers_first_wins", 2),
         ("joker_high_alternate", 2), ("joker_joker_deuce_ace", 2), ("deuces_high", 0),
         ("deuces_high", 2), ("bowers", 0), ("suit_ladder", 0)]


def rules_of(order, jokers):
    return load_rules({"trump_order": order, "jokers": jokers})


def trumps_of(order, jokers):
    if order == "suit_ladder":
        return []
    if order == "standard" and jokers:
        return TRUMPS["jokers_high"]
    if order == "deuces_high" and jokers:
        return ["BJ", "LJ"] + TRUMPS["deuces_high"]
    return TRUMPS[order]


def deck_cards(order, jokers):
    removed = {"2C", "2D"} if jokers else set()
    return ({r + s for s in SUITS for r in RANKS} | ({"BJ", "LJ"} if jokers else set())) - removed


@pytest.mark.parametrize("order, jokers", CASES)
def test_layouts_hold_the_deck_in_order(order, jokers):
    deck = deck_for(rules_of(order, jokers))
    names = [n for n in deck.names if n]
    assert set(names) == deck_cards(order, jokers) and len(names) == 52
    trumps = [t for t in trumps_of(order, jokers) if t in names]
    spade_range = deck.names_of(deck.suit_masks[3])  # weakest first
    if order == "suit_ladder":
        # hearts < diamonds < clubs < spades, each 2..A
        ladder = [r + s for s in "HDCS" for r in RANKS]
        assert names == ladder
    else:
        assert spade_range == trumps[::-1]


def test_the_same_random_numbers_deal_the_same_physical_cards():
    dealer = np.zeros(200, np.int8)
    seen = []
    for order in ("standard", "deuces_high", "bowers", "suit_ladder"):
        deck = deck_for(rules_of(order, 0))
        hands = deal(deck, dealer, 4, np.random.default_rng(5))
        seen.append([[sorted(deck.names_of(h)) for h in row] for row in hands])
    assert seen[0] == seen[1] == seen[2] == seen[3]


def _strength(card, led_suit, order, jokers):
    """An independent ranking: (class, rank) — trumps above the led suit above the rest."""
    trumps = trumps_of(order, jokers)
    if order == "suit_ladder":
        return ("HDCS".index(card[1]), RANKS.index(card[0]))
    if card in trumps:
        if order == "jokers_first_wins" and card in ("BJ", "LJ"):
            return (2, len(trumps))  # equal: the first played keeps the trick
        return (2, len(trumps) - trumps.index(card))
    if card[1] == led_suit:
        return (1, RANKS.index(card[0]))
    return (0, 0)


def _suit(card, order, jokers):
    return "S" if card in trumps_of(order, jokers) else card[1]


@pytest.mark.parametrize("order, jokers", CASES)
@pytest.mark.parametrize("strategy", ["random", "seed"])
def test_every_trick_goes_to_the_strongest_card(order, jokers, strategy):
    rules = rules_of(order, jokers)
    deck = deck_for(rules)
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy(strategy)] * 4), 7, 0, 300,
                                        "hands")
    out = result.outcomes[0]
    names = np.array([n or "?" for n in deck.names])
    plays = names[out.play.plays].reshape(-1, 13, 4)
    seats = out.play.seats.reshape(-1, 13, 4)
    checked = 0
    for i in range(plays.shape[0]):
        for t in range(13):
            trick = list(plays[i, t])
            led = _suit(trick[0], order, jokers)
            strengths = [_strength(c, led, order, jokers) for c in trick]
            best = max(strengths)
            first = strengths.index(best)  # ties (equal jokers): the first played
            assert seats[i, t, first] == out.play.winners[i, t], (trick, order)
            # following suit by effective suit: a player who showed out held none of it
            checked += 1
    assert checked == plays.shape[0] * 13


def test_joker_ties_go_to_the_first_played():
    rules = rules_of("jokers_first_wins", 2)
    deck = deck_for(rules)
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy("random")] * 4), 9, 0, 3000,
                                        "hands")
    out = result.outcomes[0]
    names = np.array([n or "?" for n in deck.names])
    plays = names[out.play.plays].reshape(-1, 13, 4)
    seats = out.play.seats.reshape(-1, 13, 4)
    both = ((plays == "BJ").any(axis=2) & (plays == "LJ").any(axis=2))
    assert both.sum() > 50
    for i, t in zip(*np.nonzero(both), strict=True):
        first = min(list(plays[i, t]).index("BJ"), list(plays[i, t]).index("LJ"))
        assert seats[i, t, first] == out.play.winners[i, t]


@pytest.mark.parametrize("over, key", [
    ({"trump_order": "jokers_high"}, "trump_order"),
    ({"trump_order": "bowers", "jokers": 2}, "jokers"),
    ({"jokers": 2, "jokers_remove": ["2C"]}, "jokers_remove"),
    ({"jokers_remove": ["2C", "2D"]}, "jokers_remove"),
    ({"jokers": 2, "jokers_remove": ["2C", "ZZ"]}, "jokers_remove"),
    ({"jokers": 3}, "jokers"),
    ({"trump_order": "jokes_win"}, "trump_order"),
])
def test_impossible_card_orders_are_refused(over, key):
    with pytest.raises(UserError, match=key):
        load_rules(over)


@pytest.mark.parametrize("rules_toml", ['trump_order = "deuces_high"\njokers = 2\n',
                                        'trump_order = "bowers"\n',
                                        'trump_order = "suit_ladder"\n'])
def test_records_replay_under_card_orders(tmp_path, rules_toml):
    from roundtrip import roundtrip

    rt = roundtrip(tmp_path, rules_toml, strategy="seed", games=4)
    assert [r["points"] for r in rt.full] == rt.points == rt.sheet_points()
    cards = {c for r in rt.records for h in r["hands"] for c in h}
    if "jokers" in rules_toml:
        assert {"BJ", "LJ"} <= cards and not {"2C", "2D"} & cards
    assert len(cards) == 52
