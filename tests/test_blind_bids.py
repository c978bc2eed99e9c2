"""RULES.md §4.4 ``blind_bids`` ("the seed's trailing blind bid"): a player whose side trails by
``blind_bid_min_deficit`` may bid 1..7 before looking. Reading: the side's contract is the sum of
its bids as usual; made, each blind bid trick scores 20 instead of 10 and the side's overtricks are
not scored (no points, no bags); set, -10 per bid trick as usual."""

from __future__ import annotations

import json

import numpy as np
import pytest

from roundtrip import roundtrip
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.scoring import score_hands
from strategies import make_strategy
from whistlab.cli import main

RULES = load_rules({"blind_bids": True})


def score(bids, blind, tricks, rules=RULES):
    s = score_hands(np.array([bids], np.int8), np.array([blind]), np.array([tricks], np.int8),
                    np.zeros((1, 2), np.int32), rules)
    return s.contract[0].tolist(), s.overtricks[0].tolist()


def test_made_blind_bid_scores_twenty_a_trick_and_no_overtricks():
    # side 0: seat 0 blind 4, seat 2 bids 3 -> contract 7; takes 9 (5 + 4).
    # made: 20 * 4 + 10 * 3 = 110; the 2 overtricks are not scored.
    # side 1: bids 2 + 3 = 5, takes 4: set, -50.
    assert score([4, 2, 3, 3], [True, False, False, False], [5, 1, 4, 3]) == ([110, -50], [0, 0])


def test_set_blind_bid_costs_ten_a_trick():
    # side 0: blind 5 + 4 = 9, takes 8: set, -90 (blind tricks cost 10 like the others);
    # side 1: 2 + 3 = 5, takes 5: +50
    assert score([5, 2, 4, 3], [True, False, False, False], [4, 2, 4, 3]) == ([-90, 50], [0, 0])


def test_without_the_rule_a_blind_flag_on_a_bid_changes_nothing():
    plain = load_rules({})
    assert score([4, 2, 3, 3], [True, False, False, False], [5, 1, 4, 3], plain) == (
        [70, -50], [2, 0])


def test_only_trailing_sides_bid_blind_and_only_one_to_seven():
    rules = load_rules({"blind_bids": True, "blind_bid_min_deficit": 150})
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy("random")] * 4), 4, 0, 60,
                                        "games")
    seen = 0
    start = 0
    for o in result.outcomes:
        n = o.play.tricks.shape[0]
        before = result.before_scores[start:start + n]
        start += n
        for s in range(4):
            blind_bid = o.bidding.blind[:, s] & (o.bidding.bids[:, s] > 0)
            trailing = before[:, 1 - (s & 1)] - before[:, s & 1] >= 150
            assert not (blind_bid & ~trailing).any()
            assert (o.bidding.bids[blind_bid, s] <= 7).all()
            seen += int(blind_bid.sum())
    assert seen > 0


def test_records_replay_blind_bids(tmp_path):
    rt = roundtrip(tmp_path, "blind_bids = true\nblind_bid_min_deficit = 0\n")
    assert [r["points"] for r in rt.full] == rt.points == rt.sheet_points()
    assert any(b > 0 and f for r in rt.records for b, f in zip(r["bids"], r["blind"],
                                                                strict=True))


def test_a_blind_bid_of_eight_or_by_a_leading_side_is_refused(tmp_path, capsys):
    rec = {"game": "spades", "rules": {"blind_bids": True}, "dealer": 3,
           "bids": [8, 3, 3, 3], "blind": [True, False, False, False],
           "before": {"scores": [0, 200]}, "tricks": [5, 3, 3, 2]}
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(rec) + "\n" + json.dumps(rec | {"bids": [4, 3, 3, 3],
                                                                "before": {"scores": [0, 50]}})
                    + "\n")
    assert main(["replay", str(path), "--out", str(tmp_path / "o.jsonl")]) == 2
    assert "line 1" in capsys.readouterr().err
    with pytest.raises(UserError):
        load_rules({"blind_bid_min_deficit": 50})
