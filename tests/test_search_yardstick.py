"""bench/search_yardstick.py's figures (issue 21 item 2c) on side-hands made by hand: which side
is whose in the duel's two seatings, the tricks against double dummy, the tricks short of a
contract double-dummy play makes (none for a side with a nil, or whose contract DD misses), and
the self-play distance, each paired deal by deal."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import polars as pl
import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "search_yardstick.py"
spec = importlib.util.spec_from_file_location("search_yardstick", SCRIPT)
ys = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ys)


def rows(lineup, swapped, deal, side, strategy, tricks, dd, contract, nil=False):
    return {"lineup": lineup, "swapped": swapped, "game_id": deal, "hand_no": 0, "hand_0": 1,
            "side": side, "strategy": strategy, "tricks": tricks, "dd": dd,
            "contract": contract, "nil": nil}


def frame():
    out = []
    # deal 0: DD 7-6; search's side takes 5 as side 0, 4 as side 1 (short of its 5: DD makes 6)
    out += [rows("duel", False, 0, 0, "search", 5, 7, 6), rows("duel", False, 0, 1, "expert", 8, 6, 5),
            rows("duel", True, 0, 0, "expert", 9, 7, 6), rows("duel", True, 0, 1, "search", 4, 6, 5)]
    # deal 1: DD 3-10; a search side with a nil and one whose contract DD misses: no shortfall
    out += [rows("duel", False, 1, 0, "search", 2, 3, 3, nil=True),
            rows("duel", False, 1, 1, "expert", 11, 10, 9),
            rows("duel", True, 1, 0, "expert", 3, 3, 4), rows("duel", True, 1, 1, "search", 10, 10, 11)]
    # deal 2: DD 6-7, all even
    out += [rows("duel", False, 2, 0, "search", 6, 6, 6), rows("duel", False, 2, 1, "expert", 7, 7, 7),
            rows("duel", True, 2, 0, "expert", 6, 6, 6), rows("duel", True, 2, 1, "search", 7, 7, 7)]
    for deal, (s, e) in enumerate([(2, 0), (1, 1), (3, 1)]):  # self-play: |sim - DD| per side
        for side in (0, 1):
            out += [rows("search", False, deal, side, "search", 0, s, 0),
                    rows("expert", False, deal, side, "expert", 0, e, 0)]
    return pl.DataFrame(out)


def test_the_figures_are_the_side_hands_read_as_the_docstring_says():
    fig = ys.figures(frame())
    assert fig["deals"] == 3
    search = np.array([((5 - 7) + (4 - 6)) / 2, ((2 - 3) + (10 - 10)) / 2, 0.0])
    assert fig["diff_search"][0] == pytest.approx(search.mean())
    assert fig["diff_expert"][0] == pytest.approx(-search.mean())
    assert fig["diff_paired"][0] == pytest.approx(2 * search.mean())
    short_search = np.array([(1 + 1) / 2, 0, 0])  # deal 0: 6 - 5 and 5 - 4
    assert fig["short_search"][0] == pytest.approx(short_search.mean())
    assert fig["short_expert"][0] == 0
    assert fig["contracts_search"] == 4 and fig["failed_search"] == 2  # both on deal 0
    assert fig["contracts_expert"] == 5 and fig["failed_expert"] == 0
    assert fig["abs_search"][0] == pytest.approx(2.0) and fig["abs_expert"][0] == pytest.approx(2 / 3)
    half = ys.interval(np.array([2 - 0, 1 - 1, 3 - 1], float))[1]
    assert fig["abs_paired"] == pytest.approx((4 / 3, half))
    assert "| simulated − DD tricks, in the duel |" in ys.markdown(fig)
