"""RULES.md §4.4 ``bid_raise``: after all bids, each player in bidding order may raise his own bid
by one, never lower. Readings: a nil or blind bid is not raised; a raise stays within 13 and
``max_team_bid``. Raises are recorded (``raised_<seat>``, records' ``raised``) and replayed."""

from __future__ import annotations

import numpy as np

from roundtrip import roundtrip
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from strategies import make_strategy


def test_raises_follow_the_rule():
    rules = load_rules({"bid_raise": True, "max_team_bid": 10})
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy("random")] * 4), 2, 0, 3000,
                                        "hands")
    b = result.outcomes[0].bidding
    first = b.bids - b.flags["raised"]  # the bids as made
    assert b.flags["raised"].any()
    assert not (b.flags["raised"] & ((first < 1) | b.blind)).any()  # never a nil or a blind bid
    assert (b.bids <= 13).all()
    side_totals = b.bids[:, [0, 1]] + b.bids[:, [2, 3]]
    assert (side_totals <= 10).all()  # max_team_bid holds after the raises


def test_the_seed_raises_a_strong_hand_when_tricks_are_left_over():
    rules = load_rules({"bid_raise": True})
    seed = make_strategy("seed")
    result = GAMES["spades"].play_block(rules, Lineup([seed] * 4), 2, 0, 3000, "hands")
    o = result.outcomes[0]
    est = np.stack([seed.estimate(result.hands[:, s], GAMES["spades"].deck_for(rules))
                    for s in range(4)], axis=1)
    first = o.bidding.bids - o.bidding.flags["raised"]
    up = o.bidding.flags["raised"]
    assert up.any()
    assert (est[up] >= first[up] + seed.raise_margin).all()


def test_records_replay_raises_in_full_and_on_score_sheets(tmp_path, capsys):
    rt = roundtrip(tmp_path, "bid_raise = true\n")
    assert any("raised" in r for r in rt.records)
    assert [r["points"] for r in rt.full] == rt.points == rt.sheet_points()
    # a raised nil (bid 0, recorded as 1 raised) is refused, with the record's line
    bad = dict(rt.sheets[0], bids=[1, 3, 3, 3], raised=[True, False, False, False],
               tricks=[0, 4, 5, 4])
    assert "may not be raised" in rt.refused(tmp_path, bad, capsys)
