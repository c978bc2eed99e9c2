"""bench/whist_matches.py's bookkeeping (issue 21: the search at Portland and Norwegian whist):
a strategy against itself is level on every deal, the seatings are every side in turn, and a
clearly stronger strategy shows a positive margin."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

from sim.options import load_rules

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))  # (the script imports its neighbour expert_match)
spec = importlib.util.spec_from_file_location("whist_matches", BENCH / "whist_matches.py")
matches = importlib.util.module_from_spec(spec)
spec.loader.exec_module(matches)


def test_a_strategy_against_itself_is_level_on_every_deal():
    for preset in ("portland", "norwegian.zero_sum", "norwegian.three"):
        rules = load_rules(preset)
        d = matches.hands_block(rules, {"name": "expert"}, {"name": "expert"}, 3, 0, 40)
        assert d.shape == (40,) and np.all(d == 0)
        w = matches.games_block(rules, {"name": "expert"}, {"name": "expert"}, 3, 0, 4)
        assert np.allclose(w, 1 / matches.sides_of(rules))


def test_expert_beats_random_and_the_figures_are_per_deal():
    out = matches.match("portland.no_trump", {"name": "expert"}, {"name": "random"}, 60, 0, 30,
                        5, 1)
    assert out["deals"] == 60 and out["points"] - out["points_95"] > 0
    assert out["sides"] == 2 and "wins" not in out
