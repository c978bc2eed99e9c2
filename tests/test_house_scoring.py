"""RULES.md §4.6 scoring keys and §4.8 ``defeat_score``, scored by hand from RULES.md's wording and
examples (the scalar reference is checked against the engine by tests/test_conformance_scoring.py);
every worked example of §4.6 is here, with edge cases derived by hand."""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import standard_deck
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.game import game_over
from sim.spades.scoring import score_hands
from strategies import make_strategy

PARTS = ("contract", "overtricks", "nil", "bag_penalty", "bonus", "trick_bonus", "bags_after",
         "bags_taken", "progressive_after")


def score(over: dict, bids, tricks, bags_before=(0, 0), progressive=(0, 0), play=None):
    """Side 0 = seats 0 and 2; returns per side each part, ``points`` and the counts after.
    ``play``: (plays, seats, winners, cancel_card) of the hand (`tricks_played`)."""
    plays, seats, winners = play[:3] if play is not None else (None, None, None)
    s = score_hands(np.array([bids], np.int8), np.zeros((1, 4), bool),
                    np.array([tricks], np.int8), np.array([bags_before], np.int32),
                    load_rules(over), winners=winners, plays=plays, seats=seats,
                    progressive=np.array([progressive], np.int32),
                    state=None if play is None else {"cancel_card": play[3]})
    return {k: getattr(s, k)[0].tolist() for k in PARTS} | {"points": s.points[0].tolist()}


FILLER = ("3C", "4C", "5C", "6C")  # a trick that earns no bonus: led and won by seat 0


def tricks_played(last=(), cancel="2D"):
    """A hand of 13 tricks for the trick bonuses: ``last`` gives the final tricks as (leader,
    [cards in order of play], winner); the earlier ones are `FILLER` won by seat 0. Returns
    (plays, seats, winners, cancel_card) for `score_hands` and the tricks per seat."""
    deck = standard_deck()
    tricks = [(0, list(FILLER), 0)] * (13 - len(last)) + list(last)
    plays = [deck.bit_of(c) for _, cards, _ in tricks for c in cards]
    seats = [(lead + j) % 4 for lead, _, _ in tricks for j in range(4)]
    winners = [w for _, _, w in tricks]
    taken = [winners.count(s) for s in range(4)]
    arrays = (np.array([plays], np.int8), np.array([seats], np.int8),
              np.array([winners], np.int8), np.array([deck.bit_of(cancel)], np.int8))
    return arrays, taken


def test_quicksand_rules_md_example():
    # bid 7 (4 + 3): takes 7 -> 70, takes 5 -> -20, takes 9 -> 50; no bags
    for taken, want in ((7, 70), (5, -20), (9, 50)):
        got = score({"quicksand": True}, [4, 3, 3, 3], [taken - 3, 3, 3, 10 - taken])
        assert got["points"][0] == want, taken
        # the overtricks' -10 each is their price, in the overtricks component
        assert got["overtricks"][0] == -10 * max(taken - 7, 0)
        assert got["bag_penalty"] == [0, 0]


def test_double_over_rules_md_example():
    # bid 2 (1 + 1), takes 4 -> -40
    assert score({"double_over": True}, [1, 5, 1, 5], [2, 4, 2, 5])["contract"][0] == -40


def test_three_b():
    # made: bid 5, takes 7 -> 50 - 20 = 30, no bags; set: bid 5 takes 4 -> -50;
    # a failed nil (seat 1 nil, 2 tricks) costs -100 and 10 per trick: -120
    made = score({"three_b": True}, [3, 0, 2, 6], [4, 2, 3, 4])
    assert made["contract"][0] == 50 and made["overtricks"][0] == -20
    assert made["points"][0] == 30 and made["overtricks"][1] == 0
    assert made["nil"][1] == -120
    assert score({"three_b": True}, [3, 4, 2, 4], [2, 5, 2, 4])["contract"][0] == -50


def test_no_overs():
    got = score({"no_overs": True}, [3, 4, 2, 4], [4, 1, 4, 4], bags_before=(9, 0))
    assert got["contract"][0] == 50 and got["overtricks"][0] == 0 and got["bag_penalty"] == [0, 0]


def test_exact_side_and_player():
    # side 0 bids 3 + 2 = 5: takes 5 as 4 + 1 -> side-exact made (+50), player-exact set (-50);
    # takes 6 -> set either way (-50)
    assert score({"exact": "side"}, [3, 4, 2, 4], [4, 4, 1, 4])["contract"][0] == 50
    assert score({"exact": "player"}, [3, 4, 2, 4], [4, 4, 1, 4])["contract"][0] == -50
    assert score({"exact": "player"}, [3, 4, 2, 4], [3, 4, 2, 4])["contract"][0] == 50
    assert score({"exact": "side"}, [3, 4, 2, 3], [4, 4, 2, 3])["contract"][0] == -50


def test_set_to_opponents():
    # side 0 bids 6, takes 4: scores 0, side 1 (bid 5, takes 9: 50 + 4) gets 10 x 2 more
    got = score({"set_to_opponents": True}, [3, 3, 3, 2], [2, 5, 2, 4])
    assert got["contract"] == [0, 50 + 20] and got["overtricks"] == [0, 4]


def test_no_minus_keeps_nil_failures():
    got = score({"no_minus": True}, [3, 0, 3, 5], [2, 1, 2, 8])
    assert got["contract"][0] == 0  # set: 0 instead of -60
    assert got["nil"][1] == -100


def test_no_minus_floors_only_a_set_side():
    # issue 17: side 0 bids 1 + 3 = 4 and takes 8 (twice its bid): made, double_over -80
    # stands; side 1 bids 7 + 6 = 13 and takes 5: set, 0 instead of -130
    bids, tricks = [1, 7, 3, 6], [5, 3, 3, 2]
    assert score({"double_over": True, "no_minus": True}, bids, tricks)["points"] == [-80, 0]
    for way in ({"three_b": True}, {"quicksand": True}):  # made there too
        got = score({"double_over": True, "no_minus": True, **way}, bids, tricks)
        assert got["points"] == [-80, 0], way
    # exact: taking more is a set, so even the doubled side scores 0
    for exact in ("side", "player"):
        got = score({"exact": exact, "double_over": True, "no_minus": True}, bids, tricks)
        assert got["points"] == [0, 0], exact


def test_bags_negative():
    got = score({"bags_negative": True}, [3, 4, 2, 4], [4, 1, 4, 4], bags_before=(9, 0))
    assert got["overtricks"][0] == -3 and got["bag_penalty"] == [0, 0]


def test_defeat_score_ends_the_game():
    rules = load_rules({"defeat_score": True, "target_score": 300, "mercy_score": False})
    done, winner = game_over(np.array([[-300, 20], [-299, 20]], np.int32), 5, rules)
    assert done.tolist() == [True, False] and winner.tolist() == [1, -1]


@pytest.mark.parametrize("over", [{"three_b": True}, {"no_overs": True}, {"quicksand": True},
                                  {"exact": "player"}, {"double_over": True, "no_minus": True},
                                  {"set_to_opponents": True, "bags_negative": True},
                                  {"defeat_score": True, "mercy_score": False}])
def test_whole_games_play_to_the_end(over):
    rules = load_rules(over)
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy("seed")] * 4), 2, 0, 200,
                                        "games")
    hands, games = GAMES["spades"].block_tables(result, 0)
    g = games.to_pandas()
    assert (g.winner >= 0).all()
    h = hands.to_pandas()
    points = h.groupby("game_id")[["points_0", "points_1"]].sum()
    assert (points.values == g[["score_0", "score_1"]].values).all()


def test_one_way_of_scoring_the_contract():
    for bad in ({"three_b": True, "quicksand": True}, {"exact": "side", "three_b": True},
                {"bags_negative": True, "no_overs": True}, {"exact": "team"}):
        with pytest.raises(UserError):
            load_rules(bad)


def test_highlander_rules_md_example():
    # Tom (seat 0) bids 5 takes 4, Harry (seat 2) bids 3 takes 4: -80 + 5 = -75, no bags
    got = score({"highlander": True}, [5, 2, 3, 2], [4, 2, 4, 3])
    assert got["contract"][0] == -80 and got["overtricks"][0] == 5 and got["points"][0] == -75
    assert got["bags_after"] == [0, 0] and got["bags_taken"][0] == 0  # 8 of 8: no overtrick


def test_highlander_both_made_and_the_progressive_bonus():
    # bids 4 + 2 take 5 + 3 (8 tricks, 2 over): 60 + 10, and 7+ tricks: the bonus; the third
    # time in the game it is 30; side 1 (bids 2 + 1, takes 1 + 4) fails: -30 + 5 x 3
    got = score({"highlander": True}, [4, 2, 2, 1], [5, 1, 3, 4], progressive=(2, 0))
    assert got["contract"] == [60, -30] and got["overtricks"] == [10, 15]
    assert got["bonus"] == [30, 0] and got["progressive_after"] == [3, 0]
    # 6 tricks made exactly: no bonus; a nil partner is scored by the nil alone; side 1
    # (3 + 3, takes 4 + 3) made with 7 tricks: its first bonus, 10
    got = score({"highlander": True}, [6, 3, 0, 3], [6, 4, 0, 3])
    assert got["contract"][0] == 60 and got["bonus"] == [0, 10] and got["nil"][0] == 100
    assert got["progressive_after"] == [0, 1]


def test_highlander_with_no_minus_and_double_over():
    # issue 19: a side set under highlander scores 0 for its contract under no_minus (Tom and
    # Harry: -80 -> 0, Harry's overtrick +5); under double_over bidders taking twice the side bid
    # (1 + 2, taking 3 + 4) lose 20 x 3 instead of 30 + 6 x 5, the 7-trick bonus standing
    got = score({"highlander": True, "no_minus": True}, [5, 2, 3, 2], [4, 2, 4, 3])
    assert got["contract"][0] == 0 and got["overtricks"][0] == 5
    got = score({"highlander": True, "double_over": True}, [1, 1, 2, 1], [3, 2, 4, 4])
    assert got["contract"] == [-60, -40] and got["overtricks"] == [0, 0]
    assert got["bonus"] == [10, 0]
    got = score({"highlander": True, "double_over": True}, [1, 3, 2, 4], [3, 2, 4, 4])
    assert got["contract"] == [-60, -70] and got["overtricks"] == [0, 0]


def test_exact_pair_rules_md_example():
    # Tom bids 3 takes 3, Harry bids 4 takes 4: 70 + 30 = 100; one off: no bonus
    assert score({"exact_pair_bonus": True}, [3, 3, 4, 3], [3, 3, 4, 3])["points"][0] == 100
    got = score({"exact_pair_bonus": True}, [3, 3, 4, 3], [4, 3, 3, 3])
    assert got["bonus"][0] == 0 and got["points"][0] == 70
    # half of 50 is 25: down to 20 (a nil partner who takes none is exact too); 80: 40
    assert score({"exact_pair_bonus": True}, [5, 5, 0, 3], [5, 5, 0, 3])["bonus"] == [20, 40]


@pytest.mark.parametrize("bid, want", [(7, 80), (8, 100), (9, 120), (6, 60)])
def test_seven_plus_per_trick_rules_md_example(bid, want):
    got = score({"seven_plus": "per_trick"}, [bid - 3, 1, 3, 1], [bid - 3, 1, 3, 13 - bid - 1])
    assert got["contract"][0] + got["bonus"][0] == want
    assert score({"seven_plus": "per_trick"}, [bid - 3, 1, 3, 1],
                 [bid - 4, 1, 3, 14 - bid])["bonus"][0] == 0  # set: no bonus


def test_seven_plus_progressive():
    # bid 7 takes 9: 70, the second bonus of the game (20), the 2 overtricks not scored
    got = score({"seven_plus": "progressive"}, [4, 1, 3, 1], [5, 1, 4, 3], bags_before=(9, 0),
                progressive=(1, 0))
    assert got["contract"][0] == 70 and got["bonus"][0] == 20 and got["overtricks"][0] == 0
    assert got["progressive_after"] == [2, 0] and got["bags_after"][0] == 9
    assert got["bags_taken"][0] == 2  # taken, though not scored


def test_bags_in_units_digit_rules_md_example():
    # bid 5 takes 9: 50 points and 4 bags, written 54; a later 6 bags: 10 -> -100, 0 bags
    got = score({"bags_in_units_digit": True}, [3, 1, 2, 1], [5, 2, 4, 2])
    assert got["points"][0] == 50 and got["bags_after"][0] == 4
    assert 10 * (got["points"][0] // 10) + got["bags_after"][0] == 54
    got = score({"bags_in_units_digit": True}, [3, 1, 2, 1], [5, 2, 6, 0], bags_before=(4, 0))
    assert got["overtricks"][0] == 0 and got["bag_penalty"][0] == -100
    assert got["points"][0] == -50 and got["bags_after"][0] == 0


def test_bags_in_units_digit_under_quicksand():
    # issue 19: bid 5 takes 9 under quicksand: 50 - 40, and the 4 overtricks are bags, counted
    # in the units digit (8 before: 12, -100, 2 left)
    got = score({"bags_in_units_digit": True, "quicksand": True}, [3, 1, 2, 1], [5, 2, 4, 2],
                bags_before=(8, 0))
    assert got["contract"][0] == 50 and got["overtricks"][0] == -40
    assert got["bag_penalty"][0] == -100 and got["bags_after"][0] == 2
    got = score({"quicksand": True}, [3, 1, 2, 1], [5, 2, 4, 2], bags_before=(8, 0))
    assert got["bag_penalty"][0] == 0 and got["bags_after"][0] == 8  # no bags without it


def test_book_made():
    # bids 6 + 4 = 10: each side scores 10 x its bid whatever happens, no bags that hand
    got = score({"book_made": True}, [3, 2, 3, 2], [2, 4, 2, 5], bags_before=(9, 9))
    assert got["contract"] == [60, 40] and got["overtricks"] == [0, 0]
    assert got["bags_after"] == [9, 9] and got["bag_penalty"] == [0, 0]
    # a nil is scored as usual; bids totalling 11: the ordinary scoring
    got = score({"book_made": True}, [4, 0, 3, 3], [2, 1, 3, 7])
    assert got["contract"] == [70, 30] and got["nil"] == [0, -100] and got["bags_after"] == [0, 0]
    assert score({"book_made": True}, [6, 1, 4, 0], [6, 1, 3, 3])["contract"][0] == -100


def test_bag_cancel_card():
    # side 0 (bid 5) takes 7 with the trick holding 2D: 2 bags -> 1 bag, 51 points
    play, taken = tricks_played([(0, ["2D", "3D", "AD", "4D"], 2)])
    # side 0 won all 13 tricks: bids 3 + 2 leave 8 bags, one cancelled
    got = score({"bag_cancel_card": "2D"}, [3, 1, 2, 1], taken, play=play)
    assert taken[0] + taken[2] == 13 and got["bags_taken"][0] == 8
    assert got["overtricks"][0] == 7 and got["bags_after"][0] == 7
    # the card in a trick won by side 1 (set: nothing to cancel)
    (play, taken) = tricks_played([(0, ["3D", "2D", "4D", "AD"], 3)])
    got = score({"bag_cancel_card": "2D"}, [3, 2, 2, 1], taken, play=play)
    assert got["overtricks"] == [7, 0] and got["bags_after"] == [7, 0]
    got = score({"bag_cancel_card": "2D"}, [3, 0, 2, 0], taken, play=play)
    assert got["bags_after"] == [7, 0]  # side 1: two nils, one failed: its 1 bag cancelled
    assert got["bags_taken"] == [7, 1]


LAST = {  # final tricks (leader, cards, winner) and the trick bonus each earns, per side
    "last_trick_bonus": ([(1, ["KH", "AH", "2H", "3H"], 2)], [10, 0]),
    "end_streak": ([(0, ["KH", "AH", "2H", "3H"], 1)] * 3, [0, 30]),
    "last_trick_ace": ([(1, ["KH", "AH", "2H", "3H"], 2)], [10, 0]),
    "last_trick_deuce": ([(3, ["2H", "3C", "4C", "5C"], 3)], [0, 30]),
    "last_trick_high_spade": ([(0, ["2H", "9S", "4H", "5H"], 1)], [0, 0]),
}


@pytest.mark.parametrize("key", sorted(LAST))
def test_trick_bonuses(key):
    last, want = LAST[key]
    play, taken = tricks_played(last)
    assert score({key: True}, [3, 3, 3, 3], taken, play=play)["trick_bonus"] == want


def test_trick_bonus_edges():
    # end streak broken by one trick; the ace of spades on the last trick is 20
    play, taken = tricks_played([(0, ["KH", "AH", "2H", "3H"], 1),
                                 (1, ["KH", "AH", "2H", "3H"], 2),
                                 (2, ["2S", "KS", "AS", "3S"], 0)])
    assert score({"end_streak": True}, [3, 3, 3, 3], taken, play=play)["trick_bonus"] == [0, 0]
    assert score({"last_trick_ace": True}, [3, 3, 3, 3], taken,
                 play=play)["trick_bonus"] == [20, 0]
    # a spade 2 is not a deuce bonus; the high spade with the bid exactly made is 10
    play, taken = tricks_played([(0, ["3H", "2S", "4H", "5H"], 1)])
    assert score({"last_trick_deuce": True}, [3, 3, 3, 3], taken,
                 play=play)["trick_bonus"] == [0, 0]
    play, taken = tricks_played([(0, ["2H", "9S", "4H", "5H"], 1)])
    assert taken[1] == 1
    assert score({"last_trick_high_spade": True}, [3, 1, 3, 3], taken,
                 play=play)["trick_bonus"] == [0, 10]
    play, taken = tricks_played([(0, ["2H", "8S", "4H", "5H"], 1)])
    assert score({"last_trick_high_spade": True}, [3, 1, 3, 3], taken,
                 play=play)["trick_bonus"] == [0, 0]  # 8S is not high


def test_dix():
    # 9S wins: spades led 10; another spade in it 5; alone 1; 9S not winning: nothing
    cases = [((0, ["2S", "9S", "3S", "4S"], 1), [0, 10]),
             ((0, ["2H", "9S", "3S", "4H"], 1), [0, 5]),
             ((0, ["2H", "9S", "3H", "4H"], 1), [0, 1]),
             ((0, ["2H", "9S", "TS", "4H"], 2), [0, 0])]
    for trick, want in cases:
        play, taken = tricks_played([trick])
        assert score({"dix": True}, [3, 3, 3, 3], taken, play=play)["trick_bonus"] == want


def test_last_trick_ace_nil():
    # seat 1 bid nil and plays AH to the last trick (losing to a spade): +20 for side 1
    play, taken = tricks_played([(0, ["2H", "AH", "3S", "4H"], 2)])
    got = score({"last_trick_ace_nil": True}, [3, 0, 3, 3], taken, play=play)
    assert got["trick_bonus"] == [0, 20]


def test_trick_bonuses_need_the_plays():
    with pytest.raises(ValueError, match="dix"):
        score({"dix": True}, [3, 3, 3, 3], [3, 3, 3, 4])


def test_house_scoring_combinations_refused():
    for bad, key in (({"highlander": True, "three_b": True}, "highlander"),
                     ({"highlander": True, "seven_plus": "per_trick"}, "highlander"),
                     ({"bags_in_units_digit": True, "no_overs": True}, "bags_in_units_digit"),
                     ({"bags_in_units_digit": True, "bag_limit": 11}, "bags_in_units_digit"),
                     ({"bag_cancel_card": "2D", "three_b": True}, "bag_cancel_card"),
                     ({"bag_cancel_card": "1D"}, "bag_cancel_card"),
                     ({"seven_plus": "twice"}, "seven_plus"),
                     ({"auction": True, "book_made": True}, "auction")):
        with pytest.raises(UserError, match=key):
            load_rules(bad)


@pytest.mark.parametrize("over", [{"highlander": True}, {"seven_plus": "progressive"},
                                  {"book_made": True, "exact_pair_bonus": True},
                                  {"bags_in_units_digit": True, "bag_cancel_card": "cut"},
                                  {"seven_plus": "per_trick", "dix": True, "end_streak": True,
                                   "last_trick_ace": True, "last_trick_ace_nil": True,
                                   "last_trick_deuce": True, "last_trick_high_spade": True,
                                   "last_trick_bonus": True}])
def test_more_whole_games(over):
    test_whole_games_play_to_the_end(over)


@pytest.mark.parametrize("over", [{"no_overs": True}, {"three_b": True}, {"quicksand": True}])
def test_no_bags_counted_for_an_exact_wheel_either(over):
    # a wheel (side 0) of 12 tricks under ten_for_200_exact keeps 2 bags, but these rules count
    # none: 200 and the bags stay at 8 (found by the conformance runs against the reference)
    rules = load_rules({"ten_for_two_hundred": True, "ten_for_200_exact": True, **over})
    s = score_hands(np.array([[-1, 1, -1, 1]], np.int8), np.zeros((1, 4), bool),
                    np.array([[6, 0, 6, 1]], np.int8), np.array([[8, 0]], np.int32), rules,
                    contracts=np.array([[3, 0]], np.int8))
    assert s.points[0, 0] == 200 and s.bags_after[0].tolist() == [8, 0]
    assert s.bags_taken[0, 0] == 2
