"""RULES.md §4.7 two-player Spades: no deal — the players draw their hands from the stock, two
cards at a time, keeping one; each draw is re-derived here from the stock, each draw mode's
information checked, the hands' law against exact probabilities, and every score recomputed."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

from sim.blocks import stock_groups
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.draw import draw_hands
from sim.spades.hand import deck_for
from strategies import make_strategy
from strategies.seed import SeedStrategy
from test_player_counts import own_score
from tolerance import check_distribution

MODES = ("see_both", "first_decides", "first_decides_blind")


def play(over, strategy="random", n=400, mode="hands", seed=9):
    rules = load_rules({"players": 2, **over})
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy(strategy)] * 2), seed, 0, n,
                                        mode)
    return rules, result


@pytest.mark.parametrize("draw_mode", MODES)
@pytest.mark.parametrize("strategy", ["random", "seed"])
def test_each_draw_keeps_one_of_the_two_top_cards(draw_mode, strategy):
    rules, result = play({"draw_mode": draw_mode}, strategy, n=300)
    deck = deck_for(rules)
    stock = stock_groups(deck, 9, 0, 1, np.arange(300), group=300)
    for i in range(300):
        kept = [set(deck.names_of(h)) for h in result.hands[i]]
        gone = [set(deck.names_of(h)) for h in result.discarded[i]]
        assert [len(k) for k in kept] == [13, 13] and [len(g) for g in gone] == [13, 13]
        for r in range(26):
            seat = (int(result.dealer[i]) + 1 + r) % 2  # the non-dealer draws first
            pair = {deck.names[stock[2 * r, i]], deck.names[stock[2 * r + 1, i]]}
            assert len(pair & kept[seat]) == 1 and len(pair & gone[seat]) == 1


@dataclasses.dataclass(frozen=True, kw_only=True)
class Watcher(SeedStrategy):
    seen: list = dataclasses.field(default_factory=list, compare=False)

    def draw(self, view, rng):
        self.seen.append(view)
        return super().draw(view, rng)


@pytest.mark.parametrize("draw_mode", MODES)
def test_what_each_draw_mode_shows(draw_mode):
    rules = load_rules({"players": 2, "draw_mode": draw_mode})
    deck = deck_for(rules)
    stock = stock_groups(deck, 4, 0, 1, np.arange(200), group=200)
    watcher = Watcher()
    zeros = np.zeros((200, 2), np.int32)
    hands, discards, seen = draw_hands(stock, np.zeros(200, np.int8), zeros, zeros, rules, deck,
                                       Lineup([watcher] * 2), np.random.default_rng(1))
    shows_second = all((v.second != 0).all() for v in watcher.seen)
    assert shows_second == (draw_mode == "see_both")
    assert all((v.second == 0).all() for v in watcher.seen) == (draw_mode != "see_both")
    if draw_mode == "first_decides_blind":  # a discard is unseen when the first card was kept
        assert ((seen & ~discards) == 0).all() and (seen != discards).any()
    else:
        assert (seen == discards).all()


def test_the_seed_keeps_the_stronger_card_when_it_sees_both():
    rules, result = play({"draw_mode": "see_both"}, "seed", n=200)
    deck = deck_for(rules)
    stock = stock_groups(deck, 9, 0, 1, np.arange(200), group=200)

    def value(card):  # RULES.md: spades are trumps; then the rank
        return (card[1] == "S", "23456789TJQKA".index(card[0]))

    for i in range(50):
        kept = [set(deck.names_of(h)) for h in result.hands[i]]
        for r in range(26):
            seat = (int(result.dealer[i]) + 1 + r) % 2
            a, b = deck.names[stock[2 * r, i]], deck.names[stock[2 * r + 1, i]]
            best = a if value(a) >= value(b) else b
            assert best in kept[seat]


def test_with_random_draws_each_card_is_kept_by_the_first_drawer_one_time_in_four():
    # a random player keeps either card of a pair with probability 1/2, and a card is in a
    # given player's pairs with probability 1/2: P(card in the non-dealer's hand) = 1/4
    rules, result = play({}, "random", n=20000)
    deck = deck_for(rules)
    elder = ((result.dealer.astype(int) + 1) % 2)
    hand = result.hands[np.arange(result.hands.shape[0]), elder]
    for b in (0, 12, 30, 51):
        held = int(((hand >> np.uint64(b)) & np.uint64(1)).sum())
        check_distribution({1: held, 0: hand.size - held}, {1: Fraction(1, 4), 0: Fraction(3, 4)},
                           hand.size, deck.names[b])


@pytest.mark.parametrize("strategy", ["random", "seed"])
def test_each_player_scores_his_own_contract(strategy):
    rules, result = play({}, strategy, n=60, mode="games")
    bags = {}
    for h, out in enumerate(result.outcomes):
        rows = np.flatnonzero(result.hand_no == h + 1)
        for k, row in enumerate(rows):
            mine = bags.setdefault(int(result.game[row]), [0, 0])
            for seat in range(2):
                points, mine[seat] = own_score(int(out.bidding.bids[k, seat]),
                                               bool(out.bidding.blind[k, seat]),
                                               int(out.play.tricks[k, seat]), mine[seat], rules)
                assert out.score.points[k, seat] == points


def test_records_replay(tmp_path):
    from roundtrip import roundtrip

    rt = roundtrip(tmp_path, 'players = 2\ndraw_mode = "first_decides"\n', strategy="seed",
                   games=3)
    assert [r["points"] for r in rt.full] == rt.points == rt.sheet_points()
    assert all(len(r["discarded"]) == 2 and len(r["hands"]) == 2 for r in rt.records)


@pytest.mark.parametrize("over, key", [
    ({"players": 2, "jokers": 2}, "jokers"),
    ({"players": 2, "redeal_poor_hands": ["no_spades"]}, "redeal_poor_hands"),
    ({"players": 2, "face_up_cards": 1}, "face_up_cards"),
    ({"draw_mode": "first_decides"}, "draw_mode"),
    ({"players": 2, "double_nil": True}, "double_nil"),
])
def test_refused(over, key):
    with pytest.raises(UserError, match=key):
        load_rules(over)
