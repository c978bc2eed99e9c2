"""RULES.md §4.4 ``partnership_bidding``: each side makes one joint bid (the non-dealing side
first), at least ``min_team_bid`` (4), no nil; ``no_nine_no_blind``: no blind bids and no joint bid
of 9. Reading: the side's first bidder in the rotation from the dealer's left bids for both (his
partner's bid is -1 in the tables, null in records)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sim.cli import main
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.replay import replay_records
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
    rules = tmp_path / "pb.toml"
    rules.write_text("partnership_bidding = true\n")
    out, records = tmp_path / "run", tmp_path / "r.jsonl"
    assert main(["run", "--rules", str(rules), "--strategy", "seed", "--games", "3",
                 "--block-size", "3", "--out", str(out), "--records", str(records),
                 "--n-jobs", "1", "--quiet"]) == 0
    recs = [json.loads(x) for x in records.read_text().splitlines()]
    assert all(r["bids"].count(None) == 2 for r in recs)
    full = replay_records(list(enumerate(recs, 1)))
    sheets = [{k: v for k, v in r.items() if k not in ("hands", "plays")}
              | {"tricks": f["tricks"]} for r, f in zip(recs, full, strict=True)]
    assert [r["points"] for r in replay_records(list(enumerate(sheets, 1)))] == [
        r["points"] for r in full]
    both = dict(sheets[0], bids=[5, 5, 4, 3])  # the partners may not both bid
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(both) + "\n")
    assert main(["replay", str(path), "--out", str(tmp_path / "o.jsonl")]) == 2
    assert "bids for both" in capsys.readouterr().err


def test_combinations_are_checked():
    for bad in ({"no_nine_no_blind": True},
                {"partnership_bidding": True, "no_nine_no_blind": True, "blind_bids": True},
                {"partnership_bidding": True, "suicide": True},
                {"partnership_bidding": True, "team_nil": True}):
        with pytest.raises(UserError):
            load_rules(bad)
