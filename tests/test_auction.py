"""RULES.md §4.4 ``auction``: in turn each player bids n >= 1 (promising 6 + n tricks for his
side) or passes, every bid higher than the last; a player who passed is out; when the others have
passed, the last bidder's side is declarer. Declarer makes 6 + n -> +10 (6 + n); else 0.
Defenders score 10 for every trick the declarer takes above or below 6 + n. Readings: bids go up
to 7; if the first three pass, the dealer must bid."""

from __future__ import annotations

import numpy as np
import pytest

from roundtrip import roundtrip
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.auction import auction_points
from strategies import make_strategy

RULES = load_rules({"auction": True})


def test_the_rules_md_example():
    # bid 2 (8 tricks), the declaring side (seat 1's, side 1) takes 6: declarer 0, defenders 20;
    # takes 10: declarer 80, defenders 20
    side_tricks = np.array([[7, 6], [3, 10]])
    got = auction_points(np.array([2, 2], np.int8), np.array([1, 3], np.int8), side_tricks)
    assert got.tolist() == [[20, 0], [20, 80]]


@pytest.mark.parametrize("strategy", ["random", "seed"])
def test_calls_follow_the_auction_rules(strategy):
    result = GAMES["spades"].play_block(RULES, Lineup([make_strategy(strategy)] * 4), 6, 0,
                                        2000, "hands")
    a = result.outcomes[0].bidding.auction
    for i in range(len(result.dealer)):
        calls = [c for c in a.calls[i].tolist() if c >= 0]
        seat, high, high_seat, out = (int(result.dealer[i]) + 1) % 4, 0, -1, set()
        k = 0
        while True:
            if len(out) == 3 and high_seat >= 0:
                break
            if seat in out or seat == high_seat:
                seat = (seat + 1) % 4
                continue
            call = calls[k]
            k += 1
            if call:
                assert high < call <= 7
                high, high_seat = call, seat
            else:
                assert not (len(out) == 3 and high_seat < 0), "the dealer may not pass"
                out.add(seat)
            seat = (seat + 1) % 4
        assert k == len(calls)
        assert (a.bid[i], a.declarer[i]) == (high, high_seat)


def test_points_and_no_bags():
    result = GAMES["spades"].play_block(RULES, Lineup([make_strategy("seed")] * 4), 6, 0, 500,
                                        "games")
    hands, _ = GAMES["spades"].block_tables(result, 0)
    df = hands.to_pandas()
    for _, row in df.iterrows():
        side = row["auction_declarer"] % 2
        target = 6 + row["auction_bid"]
        taken = row[f"tricks_{side}"] + row[f"tricks_{side + 2}"]
        want = [0, 0]
        want[side] = 10 * target if taken >= target else 0
        want[1 - side] = 10 * abs(taken - target)
        assert [row["points_0"], row["points_1"]] == want
    assert (df[["bags_0", "bags_1"]] == 0).all().all()


def test_records_replay_in_full_and_on_score_sheets(tmp_path, capsys):
    rt = roundtrip(tmp_path, "auction = true\n")
    assert [r["points"] for r in rt.full] == rt.points == rt.sheet_points()
    bad = dict(rt.sheets[0], auction=[2, 1, 0, 0, 0])  # 1 after 2 is not higher
    assert "line 1" in rt.refused(tmp_path, bad, capsys)


def test_an_auction_replaces_the_bid_rules():
    with pytest.raises(UserError, match="auction"):
        load_rules({"auction": True, "bid_raise": True})
