"""RULES.md §4.4 ``bid_raise``: after all bids, each player in bidding order may raise his own bid
by one, never lower. Readings: a nil or blind bid is not raised; a raise stays within 13 and
``max_team_bid``. Raises are recorded (``raised_<seat>``, records' ``raised``) and replayed."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from sim.cli import main
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.replay import replay_records
from strategies import make_strategy


def test_raises_follow_the_rule():
    rules = load_rules({"bid_raise": True, "max_team_bid": 10})
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy("random")] * 4), 2, 0, 3000,
                                        "hands")
    b = result.outcomes[0].bidding
    first = b.bids - b.raised  # the bids as made
    assert b.raised.any()
    assert not (b.raised & ((first < 1) | b.blind)).any()  # never a nil or a blind bid
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
    first = o.bidding.bids - o.bidding.raised
    up = o.bidding.raised
    assert up.any()
    assert (est[up] >= first[up] + seed.raise_margin).all()


def test_records_replay_raises_in_full_and_on_score_sheets(tmp_path, capsys):
    rules = tmp_path / "r.toml"
    rules.write_text("bid_raise = true\n")
    out, records = tmp_path / "run", tmp_path / "r.jsonl"
    assert main(["run", "--rules", str(rules), "--strategy", "random", "--games", "4",
                 "--block-size", "2", "--out", str(out), "--records", str(records),
                 "--n-jobs", "1", "--quiet"]) == 0
    recs = [json.loads(x) for x in records.read_text().splitlines()]
    assert any("raised" in r for r in recs)
    table = pd.read_parquet(out / "hands").sort_values(["game_id", "hand_no"])
    want = table[["points_0", "points_1"]].values.tolist()
    full = replay_records(list(enumerate(recs, 1)))
    sheets = [{k: v for k, v in r.items() if k not in ("hands", "plays")}
              | {"tricks": f["tricks"]} for r, f in zip(recs, full, strict=True)]
    assert [r["points"] for r in full] == want
    assert [r["points"] for r in replay_records(list(enumerate(sheets, 1)))] == want
    # a raised nil (bid 0, recorded as 1 raised) is refused, with the record's line
    bad = dict(sheets[0], bids=[1, 3, 3, 3], raised=[True, False, False, False],
               tricks=[0, 4, 5, 4])
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(bad) + "\n")
    assert main(["replay", str(path), "--out", str(tmp_path / "o.jsonl")]) == 2
    assert "may not be raised" in capsys.readouterr().err
