"""RULES.md §4.4 ``half_trick_bids``: the first partner of a side may bid in halves (3.5); the
second must make the side's total whole. Readings: the first partner's n and a half needs n >= 1;
the second then bids v and a half, v = 0..12 (0 and a half is no nil); the side's contract is the
whole total; ``half_<seat>`` marks a half."""

from __future__ import annotations

import numpy as np
import pytest

from roundtrip import roundtrip
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.scoring import score_hands
from strategies import make_strategy

RULES = load_rules({"half_trick_bids": True})


@pytest.mark.parametrize("extra", [{}, {"max_team_bid": 10}])
@pytest.mark.parametrize("strategy", ["random", "seed"])
def test_halves_come_in_pairs_and_keep_the_limits(strategy, extra):
    rules = load_rules({"half_trick_bids": True, **extra})
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy(strategy)] * 4), 8, 0, 2000,
                                        "hands")
    b = result.outcomes[0].bidding
    rows = np.arange(len(result.dealer))
    assert b.half.any()
    for side in (0, 1):
        assert (b.half[:, side] == b.half[:, side + 2]).all()  # whole totals
        total = b.bids[:, side] + b.bids[:, side + 2] + b.half[:, side]  # two halves: one
        assert (total <= extra.get("max_team_bid", 26)).all()
    for k in range(2):  # the side's first bidder: n and a half with n >= 1
        seat = (result.dealer + 1 + k) % 4
        assert (b.bids[rows, seat][b.half[rows, seat]] >= 1).all()
    # a second partner's 0 and a half is no nil: never blind, never scored as nil
    half_zero = (b.bids == 0) & b.half
    assert not (half_zero & b.blind).any()


def test_the_contract_counts_the_two_halves_as_one_trick():
    # hand 1: side 0 bids 3.5 + 2.5 = 6, takes 6 -> +60; side 1 bids 4 + 3 = 7, takes 7 -> +70
    bids = np.array([[3, 4, 2, 3], [3, 4, 0, 3]], np.int8)
    half = np.array([[True, False, True, False], [True, False, True, False]])
    tricks = np.array([[3, 4, 3, 3], [3, 4, 1, 5]], np.int8)
    s = score_hands(bids, np.zeros((2, 4), bool), tricks, np.zeros((2, 2), np.int32), RULES,
                    half=half)
    # hand 2: side 0 bids 3.5 + 0.5 = 4, takes 4 -> +40, and the 0.5 bidder took a trick:
    # no nil penalty (a half is no nil); side 1 bids 7, takes 9 -> 70 + 2
    assert s.contract.tolist() == [[60, 70], [40, 70]]
    assert s.nil.tolist() == [[0, 0], [0, 0]]
    assert s.overtricks.tolist() == [[0, 0], [0, 2]]


def test_records_replay_halves(tmp_path, capsys):
    rt = roundtrip(tmp_path, "half_trick_bids = true\n")
    assert any("half" in r for r in rt.records)
    assert [r["points"] for r in rt.full] == rt.points == rt.sheet_points()
    lone = dict(rt.sheets[0], half=[True, False, False, False])  # a half without its pair
    assert "half" in rt.refused(tmp_path, lone, capsys)


def test_combinations():
    with pytest.raises(UserError, match="half"):
        load_rules({"half_trick_bids": True, "fledu": True})
