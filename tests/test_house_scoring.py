"""RULES.md §4.6 scoring keys (issue 7, first batch) and §4.8 ``defeat_score``, scored by hand
from RULES.md's wording and examples. The scalar reference does not implement them yet (the test
harness refuses to compare with one of them on); these cases are the hand-worked check."""

from __future__ import annotations

import numpy as np
import pytest

from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.game import game_over
from sim.spades.scoring import score_hands
from strategies import make_strategy


def score(over: dict, bids, tricks, bags_before=(0, 0)):
    """Side 0 = seats 0 and 2; returns per side (contract, overtricks, nil, bag_penalty, total)."""
    s = score_hands(np.array([bids], np.int8), np.zeros((1, 4), bool),
                    np.array([tricks], np.int8), np.array([bags_before], np.int32),
                    load_rules(over))
    return {k: getattr(s, k)[0].tolist() for k in ("contract", "overtricks", "nil",
                                                    "bag_penalty")} | {
        "points": s.points[0].tolist()}


def test_quicksand_rules_md_example():
    # bid 7 (4 + 3): takes 7 -> 70, takes 5 -> -20, takes 9 -> 50; no bags
    for taken, want in ((7, 70), (5, -20), (9, 50)):
        got = score({"quicksand": True}, [4, 3, 3, 3], [taken - 3, 3, 3, 10 - taken])
        assert got["points"][0] == want, taken
        assert got["overtricks"][0] == 0


def test_double_over_rules_md_example():
    # bid 2 (1 + 1), takes 4 -> -40
    assert score({"double_over": True}, [1, 5, 1, 5], [2, 4, 2, 5])["contract"][0] == -40


def test_three_b():
    # made: bid 5, takes 7 -> 50 - 20 = 30, no bags; set: bid 5 takes 4 -> -50;
    # a failed nil (seat 1 nil, 2 tricks) costs -100 and 10 per trick: -120
    made = score({"three_b": True}, [3, 0, 2, 6], [4, 2, 3, 4])
    assert made["contract"][0] == 30 and made["overtricks"] == [0, 0]
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
