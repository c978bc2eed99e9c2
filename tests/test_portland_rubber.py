"""Rubbers (RULES.md §1, laws of short whist): best of three games of 5 points; a game is worth
3, 2 or 1 when the losers have 0, 1-2 or 3-4 points; 2 more for winning the rubber."""

from __future__ import annotations

import polars as pl
import pytest

import whistlab
from whistlab.experiment import build_experiment
from whistlab.runner import run_experiment


@pytest.fixture(scope="module")
def laws(tmp_path_factory):
    out = tmp_path_factory.mktemp("laws")
    exp = build_experiment({"rules": "portland.laws", "strategy": "random", "games": 300,
                            "seed": 4, "block_size": 150})
    run_experiment(exp, out, n_jobs=1)
    return (pl.read_parquet(out / "hands" / "*.parquet").sort("game_id", "hand_no"),
            pl.read_parquet(out / "games" / "*.parquet").sort("game_id"))


def value(loser: int) -> int:
    return 3 if loser == 0 else 2 if loser <= 2 else 1


def test_rubber_points_by_hand(laws):
    hands, games = laws
    for rubber in games.iter_rows(named=True):
        rows = hands.filter(pl.col("game_id") == rubber["game_id"])
        points, won = [0, 0], [0, 0]
        for _, game in rows.group_by("game_no", maintain_order=True):
            last = game.row(-1, named=True)
            final = [last["score_0"], last["score_1"]]
            winner = 0 if final[0] > final[1] else 1
            assert max(final) >= 5 and final[0] != final[1]  # every game was played out
            # scores start from 0-0 in every game of the rubber
            first = game.row(0, named=True)
            assert first["score_0"] - first["points_0"] == 0
            assert first["score_1"] - first["points_1"] == 0
            won[winner] += 1
            points[winner] += value(final[1 - winner])
        assert max(won) == 2 and sum(won) in (2, 3)
        assert rubber["winner"] == won.index(2)
        points[rubber["winner"]] += 2
        assert [rubber["games_won_0"], rubber["games_won_1"]] == won
        assert [rubber["rubber_points_0"], rubber["rubber_points_1"]] == points
        assert rubber["n_hands"] == rows.height


def test_three_game_rubbers_happen(laws):
    _, games = laws
    played = games["games_won_0"] + games["games_won_1"]
    assert (played == 2).sum() > 50 and (played == 3).sum() > 50


def test_without_rubbers_points_are_zero(tmp_path):
    h = whistlab.simulate(rules="portland.honours", strategy="random", games=50, seed=1,
                     table="games")
    assert (h["rubber_points_0"] == 0).all() and (h["rubber_points_1"] == 0).all()
    assert ((h["games_won_0"] + h["games_won_1"]) == 1).all()
