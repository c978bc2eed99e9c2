"""Portland whist hand records (RULES.md §5 with `turn_up`): simulated records replay to exactly
the simulated scores, score-sheet records score by hand-worked numbers, bad records are refused."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from whistlab.cli import main

SHEET = {"game": "portland", "rules": "portland.honours", "dealer": 3,
         "before": {"scores": [0, 0]}}


@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("portland_records")
    exp = tmp / "exp.toml"
    exp.write_text('game = "portland"\nrules = "portland.honours"\nstrategy = "seed"\n'
                   "games = 60\nseed = 5\nblock_size = 30\n", encoding="utf-8")
    records = tmp / "hands.jsonl"
    assert main(["run", str(exp), "--out", str(tmp / "out"), "--records", str(records),
                 "--n-jobs", "1", "--quiet"]) == 0
    table = pl.read_parquet(tmp / "out" / "hands" / "*.parquet").sort(["game_id", "hand_no"])
    return tmp, records, table


def replay(tmp, records, *extra):
    out = tmp / f"replayed{len(extra)}.jsonl"
    assert main(["replay", str(records), "--out", str(out), *extra]) == 0
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_records_replay_to_the_simulated_scores(simulated, capsys):
    tmp, records, table = simulated
    out = replay(tmp, records)
    assert len(out) == table.height
    for key, column in (("points", "points"), ("honours", "honours")):
        got = np.array([r[key] for r in out])
        assert (got == table.select(f"{column}_0", f"{column}_1").to_numpy()).all(), key
    after = np.array([r["after"]["scores"] for r in out])
    assert (after == table.select("score_0", "score_1").to_numpy()).all()
    tricks = np.array([r["tricks"] for r in out])
    assert (tricks == table.select([f"tricks_{s}" for s in range(4)]).to_numpy()).all()
    # the turned-up card is in the dealer's hand and names the trump suit of the table
    suits = "CDHS"
    for r, trump in zip(out, table["trump"].to_list(), strict=True):
        assert r["turn_up"] in r["hands"][r["dealer"]]
        assert suits.index(r["turn_up"][-1]) == trump


def test_replay_under_other_rules_drops_the_honours(simulated):
    tmp, records, table = simulated
    out = replay(tmp, records, "--rules", "portland")
    honours_points = np.array([r["components"]["honours_points"] for r in out])
    trick_points = np.array([r["components"]["trick_points"] for r in out])
    assert (honours_points == 0).all()
    assert (trick_points == table.select("trick_points_0", "trick_points_1").to_numpy()).all()
    assert (table["honours_points_0"] + table["honours_points_1"]).sum() > 0  # they mattered


def sheet(tmp_path, **fields):
    path = tmp_path / "sheet.jsonl"
    path.write_text(json.dumps({**SHEET, **fields}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code = main(["replay", str(path), "--out", str(out)])
    return code, (json.loads(out.read_text()) if code == 0 else None)


def test_score_sheet_cases(tmp_path):
    # 9 tricks for side 0 (5 + 4): 9 - 6 = 3 points; side 1 takes 4 tricks, under the book: 0.
    # Four honours to side 0 at 0-0: the 3 trick points do not end the game (target 5), so the
    # honours count: 3 + 4 = 7.
    code, r = sheet(tmp_path, tricks=[5, 2, 4, 2], honours=[4, 0])
    assert code == 0 and r["points"] == [7, 0]
    assert r["components"] == {"trick_points": [3, 0], "honours_points": [4, 0]}
    # three honours to side 1 (2 points), side 0 at 4: its 3 trick points end the game at 7, so
    # under tricks_first nobody's honours count.
    code, r = sheet(tmp_path, tricks=[5, 2, 4, 2], honours=[0, 3], before={"scores": [4, 0]})
    assert code == 0 and r["points"] == [3, 0] and r["after"]["scores"] == [7, 0]
    # together: both count: side 1 gets its 2 honours points
    code, r = sheet(tmp_path, rules={"preset": "portland.honours", "honours_order": "together"},
                    tricks=[5, 2, 4, 2], honours=[0, 3], before={"scores": [4, 0]})
    assert code == 0 and r["points"] == [3, 2]


@pytest.mark.parametrize("change, words", [
    ({"honours": None}, ["honours"]),
    ({"honours": [3, 3]}, ["more than the 4 honours"]),
    ({"tricks": [5, 2, 4, 1]}, ["total 13"]),
])
def test_bad_score_sheets(tmp_path, capsys, change, words):
    fields = {"tricks": [5, 2, 4, 2], "honours": [4, 0], **change}
    fields = {k: v for k, v in fields.items() if v is not None}
    code, _ = sheet(tmp_path, **fields)
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("whistlab: error:") and err.count("\n") == 1
    assert "line 1" in err and all(w in err for w in words)


def test_bad_full_records(simulated, tmp_path, capsys):
    _, records, _ = simulated
    first = json.loads(records.read_text().splitlines()[0])
    cases = []
    no_turn_up = dict(first)
    no_turn_up.pop("turn_up")
    cases.append((no_turn_up, "'turn_up' is needed"))
    elsewhere = dict(first, turn_up=first["hands"][(first["dealer"] + 1) % 4][0])
    cases.append((elsewhere, "not in the dealer's hand"))
    # a revoke: swap the second card of the first trick with a card of another suit that the
    # same player holds, if the player could follow
    plays = list(first["plays"])
    leader = (first["dealer"] + 1) % 4
    second = (leader + 1) % 4
    led = plays[0][-1]
    other = [c for c in first["hands"][second] if c[-1] != led and c not in plays[:4]]
    if plays[1][-1] == led and other:
        j = plays.index(other[0])
        plays[1], plays[j] = plays[j], plays[1]
        cases.append((dict(first, plays=plays), "does not follow suit"))
    for record, words in cases:
        path = tmp_path / "bad.jsonl"
        path.write_text(json.dumps(record) + "\n", encoding="utf-8")
        assert main(["replay", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("whistlab: error:") and "line 1" in err and words in err, err
