"""bench/ismcts_match.py's bookkeeping (issue 20 item 3): a deal is played twice with the sides'
seats swapped, each side's points and CPU seconds are read from the right seats, the figures are
the means and 95% t intervals the docstring says, and a deal's result does not depend on the
process that plays it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

pytest.importorskip("pyspiel")

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "ismcts_match.py"
spec = importlib.util.spec_from_file_location("ismcts_match", SCRIPT)
match = importlib.util.module_from_spec(spec)
spec.loader.exec_module(match)

TASK = {"strategy": "seed", "sims": 3, "uct_c": 200.0, "seed": 7, "stand_in": False, "deal": 4}


def test_a_deal_is_played_twice_with_the_sides_swapped(monkeypatch):
    calls = []

    def play(bots, cards):
        calls.append(([type(bot).__name__ for bot in bots], list(cards)))
        return [10.0, -20.0, 10.0, -20.0], [1.0, 2.0, 3.0, 4.0]

    monkeypatch.setattr(match, "play", play)
    row = match.one_deal(TASK)
    assert calls[0][1] == calls[1][1] == match.deal_of(7, 4)
    assert sorted(calls[0][1]) == list(range(52))
    assert calls[0][0] == ["WhistlabBot", "ISMCTSBot", "WhistlabBot", "ISMCTSBot"]
    assert calls[1][0] == ["ISMCTSBot", "WhistlabBot", "ISMCTSBot", "WhistlabBot"]
    assert row["a"] == [10.0, -20.0] and row["b"] == [-20.0, 10.0]
    assert row["cpu_a"] == [4.0, 6.0] and row["cpu_b"] == [6.0, 4.0]


def test_the_figures_are_paired_means_with_t_intervals():
    rng = np.random.default_rng(1)
    rows = [{"a": rng.normal(30, 50, 2).tolist(), "b": rng.normal(0, 50, 2).tolist(),
             "cpu_a": [0.01, 0.02], "cpu_b": [1.0, 3.0]} for _ in range(25)]
    s = match.summary(rows)
    per_deal = [np.mean(np.subtract(r["a"], r["b"])) for r in rows]
    low, high = stats.t.interval(0.95, len(rows) - 1, loc=np.mean(per_deal),
                                 scale=stats.sem(per_deal))
    assert s["margin"] == pytest.approx(np.mean(per_deal))
    assert (s["margin"] - s["half"], s["margin"] + s["half"]) == pytest.approx((low, high))
    assert s["a"] == pytest.approx(np.mean([r["a"] for r in rows]))
    assert s["cpu_a"] == pytest.approx(0.015) and s["cpu_b"] == pytest.approx(2.0)


def test_a_deal_gives_the_same_result_wherever_it_is_played():
    first, again = match.one_deal(TASK), match.one_deal(TASK)
    assert (first["a"], first["b"]) == (again["a"], again["b"])
    assert all(value % 1 == 0 for value in first["a"] + first["b"])  # OpenSpiel's points


def test_whistlabs_search_can_hold_the_whistlab_side():
    """``--strategy search`` is whistlab's search (issue 21 item 2), not OpenSpiel's ISMCTS."""
    from strategies.search import SearchStrategy

    bot = match.make_bot("search", 1, 3, 200.0, 5)
    assert type(bot).__name__ == "WhistlabBot" and isinstance(bot.strategy, SearchStrategy)
    assert type(match.make_bot(match.OPPONENT, 1, 3, 200.0, 5)).__name__ == "ISMCTSBot"
    row = match.one_deal({**TASK, "strategy": "search"})
    assert all(value % 1 == 0 for value in row["a"] + row["b"])
    assert sum(row["a"]) != 0 or sum(row["b"]) != 0


def test_a_strategy_table_can_hold_the_whistlab_side():
    from strategies.search import SearchStrategy

    names = match.strategies_of('["expert", {"name": "search", "bag_price": 0, "bid_weight": 0}]')
    assert names[0] == "expert" and names[1].startswith("{")
    bot = match.make_bot(names[1], 0, 3, 200.0, 5)
    assert isinstance(bot.strategy, SearchStrategy)
    assert (bot.strategy.bag_price, bot.strategy.bid_weight) == (0.0, 0.0)
    assert match.strategies_of("expert,seed") == ["expert", "seed"]
