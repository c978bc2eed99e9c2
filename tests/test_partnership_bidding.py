"""RULES.md §4.4 ``partnership_bidding``: each side makes one joint bid (the non-dealing side
first), at least ``min_team_bid`` (4), no nil; ``no_nine_no_blind``: no blind bids and no joint bid
of 9. Reading: the side's first bidder in the rotation from the dealer's left bids for both (his
partner's bid is -1 in the tables, null in records)."""

from __future__ import annotations

import numpy as np
import pytest

from roundtrip import roundtrip
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from strategies import make_strategy


def bidding(rules, strategy="random", n=2000):
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy(strategy)] * 4), 9, 0, n,
                                        "hands")
    return result.dealer, result.outcomes[0].bidding


@pytest.mark.parametrize("extra", [{}, {"no_nine_no_blind": True},
                                   {"min_team_bid": 6, "max_team_bid": 11}])
def test_one_joint_bid_per_side_from_its_first_bidder(extra):
    rules = load_rules({"partnership_bidding": True, **extra})
    dealer, b = bidding(rules)
    rows = np.arange(dealer.size)
    for k in range(4):  # the k-th seat from the dealer's left
        seat = (dealer + 1 + k) % 4
        bid = b.bids[rows, seat]
        if k < 2:  # the first bidder of each side (the non-dealing side first)
            lo, hi = extra.get("min_team_bid", 4), extra.get("max_team_bid", 13)
            assert ((bid >= lo) & (bid <= hi)).all()
        else:
            assert (bid == -1).all()
    assert not (b.bids == 0).any() and not b.blind.any()
    if extra.get("no_nine_no_blind"):
        assert not (b.bids == 9).any()
    else:
        assert (b.bids == 9).any()


def test_the_seed_bids_for_two():
    rules = load_rules({"partnership_bidding": True})
    _, joint = bidding(rules, "seed")
    _, alone = bidding(load_rules({"nil": False, "blind_nil": False}), "seed")
    # a joint bid adds partner_estimate (3) to the bidder's own count
    first = joint.bids[joint.bids >= 0].mean()
    assert first > alone.bids.mean() + 2


def test_records_and_score_sheets(tmp_path, capsys):
    rt = roundtrip(tmp_path, "partnership_bidding = true\n", "seed", games=3, block_size=3)
    assert all(r["bids"].count(None) == 2 for r in rt.records)
    assert [r["points"] for r in rt.full] == rt.points == rt.sheet_points()
    both = dict(rt.sheets[0], bids=[5, 5, 4, 3])  # the partners may not both bid
    assert "bids for both" in rt.refused(tmp_path, both, capsys)


@pytest.mark.parametrize("strategy", ["random", "seed"])
def test_side_contracts_replace_the_joint_bid(strategy):
    """Issue 19: under partnership bidding a side's joint bidder may declare a side contract
    instead (the wheel, Mo, blind six, blind moon; RULES.md §4.4), the partner bidding nothing,
    and bemo on top of the joint bid; team nil stays refused (partnership bidding has no nil)."""
    rules = load_rules({"partnership_bidding": True, "ten_for_two_hundred": True, "mo_a": True,
                        "blind_six": True, "blind_moon": True, "bemo": True,
                        "blind_nil": False})
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy(strategy)] * 4), 3, 0, 3000,
                                        "hands")
    b = result.outcomes[0].bidding
    declared = b.contracts != 0
    for side in (0, 1):
        bidders = (b.bids[:, side] >= 0).astype(int) + (b.bids[:, side + 2] >= 0)
        assert (bidders == np.where(declared[:, side], 0, 1)).all()  # one joint bid, or none
        joint = np.maximum(b.bids[:, side], b.bids[:, side + 2])
        assert ((b.bemo[:, side] == 0) | ((joint > 0) & ~declared[:, side])).all()
    assert declared.any() and (b.bemo != 0).any()
    with pytest.raises(UserError, match="team_nil"):
        load_rules({"partnership_bidding": True, "team_nil": True})


def test_combinations_are_checked():
    for bad in ({"no_nine_no_blind": True},
                {"partnership_bidding": True, "no_nine_no_blind": True, "blind_bids": True},
                {"partnership_bidding": True, "suicide": True},
                {"partnership_bidding": True, "team_nil": True}):
        with pytest.raises(UserError):
            load_rules(bad)


@pytest.mark.parametrize("teams", ["three_pairs", "two_threes"])
def test_six_players_bid_one_joint_bid_per_side(teams):
    """Issue 19: RULES.md §4.4 "each side makes one joint bid" at six players (RULES.md §4.7):
    the side's first bidder in the rotation bids for its two or three players, at least
    min_team_bid (4), no nil; the others bid nothing."""
    rules = load_rules({"players": 6, "teams": teams, "partnership_bidding": True})
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy("random")] * 6), 7, 0, 600,
                                        "hands")
    b = result.outcomes[0].bidding
    for i in range(600):
        order = [(int(result.dealer[i]) + 1 + j) % 6 for j in range(6)]
        for side in range(rules.sides):
            seats = [s for s in order if s % rules.sides == side]
            assert b.bids[i, seats[0]] >= 4
            assert (b.bids[i, seats[1:]] == -1).all()


def test_the_hook_forbids_the_last_joint_bid_that_makes_the_total():
    """Issue 19: RULES.md §4.4 hook, "the last bidder may not make the total of all bids equal
    the number of tricks", under partnership bidding: the second joint bid may not complete 13
    (where another bid is left)."""
    rules = load_rules({"partnership_bidding": True, "hook": True})
    dealer, b = bidding(rules, n=3000)
    totals = np.maximum(b.bids, 0).sum(axis=1)
    assert (totals != 13).all()
    dealer, b = bidding(load_rules({"partnership_bidding": True}), n=3000)
    assert (np.maximum(b.bids, 0).sum(axis=1) == 13).any()  # the test can fail


def test_fledu_with_a_joint_minimum_below_4():
    """Issue 19: fledu ("every bid is at least 4") raises a joint minimum below 4; at 4 or more
    it has no effect and is refused."""
    _, b = bidding(load_rules({"partnership_bidding": True, "fledu": True, "min_team_bid": 2}))
    assert b.bids[b.bids >= 0].min() == 4
    _, b = bidding(load_rules({"partnership_bidding": True, "min_team_bid": 2}))
    assert b.bids[b.bids >= 0].min() == 2
    with pytest.raises(UserError, match="fledu"):
        load_rules({"partnership_bidding": True, "fledu": True})
