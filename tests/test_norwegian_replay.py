"""Norwegian whist output, records and replay (RULES.md §2, §5; docs/SCHEMA.md).

Records written by ``run --records`` replay to the simulated tables exactly, in full and in
score-sheet mode, and to the independent scalar reference (tests/reference_norwegian.py); bad
records are refused with their line; the tables have the documented columns for 2, 3 and 4
players; runs are byte-identical whatever ``n_jobs``; line-ups fit the number of players.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pytest

import reference_norwegian as ref
from harness import documented_columns
from sim.replay import replay_records
from whistlab.cli import main
from whistlab.experiment import build_experiment

TYPES = {"string": pl.String, "bool": pl.Boolean, "int8": pl.Int8, "int16": pl.Int16, "int32": pl.Int32,
         "int64": pl.Int64, "uint64": pl.UInt64}
PRESETS = ("norwegian", "norwegian.three", "norwegian.classic", "norwegian.zero_sum",
           "norwegian.double", "norwegian.declarer")


def run(tmp_path_factory, preset: str, **opts) -> tuple[Path, list[dict]]:
    out = tmp_path_factory.mktemp(preset.replace(".", "_"))
    records = out / "records.jsonl"
    args = ["run", "--rules", preset, "--strategy", "random", "--games", "12",
            "--block-size", "5", "--seed", "7", "--out", str(out / "run"), "--records",
            str(records), "--n-jobs", "1", "--quiet"]
    for key, value in opts.items():
        args += [f"--{key.replace('_', '-')}", str(value)]
    assert main(args) == 0
    return out / "run", [json.loads(line) for line in records.read_text().splitlines()]


@pytest.fixture(scope="module", params=PRESETS)
def simulated(request, tmp_path_factory):
    return request.param, *run(tmp_path_factory, request.param)


def hands_table(results: Path) -> pd.DataFrame:
    frame = pd.read_parquet(results / "hands")
    return frame.sort_values(["game_id", "hand_no"]).reset_index(drop=True)


def test_replay_reproduces_the_tables(simulated):
    preset, results, records = simulated
    table = hands_table(results)
    assert len(records) == len(table) > 12
    out = replay_records([(i + 1, r) for i, r in enumerate(records)])
    players = len(records[0]["hands"])
    sides = 2 if players == 4 else players
    for i, rec in enumerate(out):
        row = table.iloc[i]
        assert rec["tricks"] == [row[f"tricks_{s}"] for s in range(players)]
        assert rec["points"] == [row[f"points_{s}"] for s in range(sides)]
        assert rec["after"]["scores"] == [row[f"score_{s}"] for s in range(sides)]
        assert rec["declarer"] == (None if row["declarer"] < 0 else row["declarer"])
        assert rec["leader"] == row["leader"] and rec["doubled"] == row["doubled"]
        codes = [-1 if d is None else ref_code(d) for d in records[i]["declarations"]]
        assert codes == [row[f"declaration_{s}"] for s in range(players)]


def ref_code(name: str) -> int:
    return ("pass", "grand", "misere", "nullo").index(name)


def test_score_sheet_mode_agrees_with_the_plays(simulated):
    preset, results, records = simulated
    full = replay_records([(i + 1, r) for i, r in enumerate(records)])
    sheets = [{k: v for k, v in r.items() if k not in ("hands", "plays")} | {"tricks": f["tricks"]}
              for r, f in zip(records, full, strict=True)]
    scored = replay_records([(i + 1, r) for i, r in enumerate(sheets)])
    for a, b in zip(full, scored, strict=True):
        assert (a["points"], a["after"], a["components"]) == (b["points"], b["after"],
                                                               b["components"])
        assert "winners" not in b


def test_replay_agrees_with_the_reference(simulated):
    """The scalar reference plays each record out itself (seats that did not speak are given
    as "pass": the reference ignores entries after the first bid)."""
    preset, results, records = simulated
    out = replay_records([(i + 1, r) for i, r in enumerate(records)])
    for rec, got in zip(records, out, strict=True):
        rules = {k: v for k, v in rec["rules"].items() if k not in ("game", "max_hands")}
        said = [d or "pass" for d in rec["declarations"]]
        want = ref.replay_hand(dict(rec, declarations=said), rules)
        assert got["tricks"] == want["tricks"] and got["winners"] == want["winners"]
        assert got["points"] == want["points"] and got["after"]["scores"] == want["after"]
        assert got["leader"] == want["leader"] and got["declarer"] == want["declarer"]


def test_components_add_up(simulated):
    preset, results, records = simulated
    for rec in replay_records([(i + 1, r) for i, r in enumerate(records)]):
        parts = rec["components"]
        assert [a + b for a, b in zip(parts["contract"], parts["double"], strict=True)] \
            == rec["points"]
        assert any(parts["double"]) == (rec["doubled"] and any(parts["contract"]))


# --- documented columns ------------------------------------------------------------------------


def documented(table: str, players: int) -> dict:
    """docs/SCHEMA.md's Norwegian columns as polars types (`harness.schema`)."""
    sides = 2 if players == 4 else players
    return {name: TYPES[kind] for name, kind in
            documented_columns("norwegian", table, players, sides).items()}


def test_tables_have_the_documented_columns(simulated):
    preset, results, records = simulated
    players = len(records[0]["hands"])
    for table in ("hands", "games"):
        frame = pl.read_parquet(results / table / "*.parquet")
        assert dict(frame.schema) == documented(table, players), table


# --- bad records -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def three_record(tmp_path_factory) -> dict:
    """The first record of a run of norwegian.three (one run for every bad-record case)."""
    return run(tmp_path_factory, "norwegian.three")[1][0]


BAD = {
    "unknown_name": (lambda r: r | {"declarations": ["grand", "nullo", None]},
                     "'declarations' must be a list of 3"),
    "too_few": (lambda r: r | {"declarations": ["grand", None]}, "list of 3"),
    "silent_at_turn": (lambda r: r | {"declarations": [None, None, None]},
                       "may not stay silent at its turn"),
    "scores_of_two": (lambda r: r | {"before": {"scores": [0, 0]}},
                      "'before.scores' must be a list of 3"),
    "tricks_total": (lambda r: {k: v for k, v in r.items() if k not in ("hands", "plays")}
                     | {"tricks": [6, 6, 6]}, "'tricks' must total 17"),
    "hand_size": (lambda r: r | {"hands": [h[:13] for h in r["hands"]]}, "lists of 17 cards"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_records_are_refused_with_their_line(tmp_path, three_record, capsys, case):
    good = three_record
    change, needle = BAD[case]
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(change(dict(good))) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["replay", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and needle in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_two_player_declarations_must_be_opposite(tmp_path, tmp_path_factory, capsys):
    rec = run(tmp_path_factory, "norwegian")[1][0]
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(rec | {"declarations": ["grand", "grand"]}) + "\n")
    assert main(["replay", str(path), "--out", str(tmp_path / "o.jsonl")]) == 2
    assert "the dealer has the opposite" in capsys.readouterr().err


def test_a_changed_declaration_changes_who_leads(tmp_path_factory):
    """Score-sheet: 3 players, dealer 2; seat 0 bids grand -> seat 0 plays alone; if seat 0
    passes and seat 1 bids, seat 1 does: the same tricks score for different players."""
    base = {"game": "norwegian", "rules": "norwegian.three", "dealer": 2,
            "tricks": [10, 4, 3]}
    first, second = replay_records([
        (1, base | {"declarations": ["grand", None, None]}),
        (2, base | {"declarations": ["pass", "grand", None]})])
    # grand with 10 of 17 (book 8): +4; misère team with 7: 2(9-7) = +4 ("both")
    assert first["points"] == [4, 4, 4] and first["grand_player"] == 0
    # grand with 4: -2(9-4) = -10; misère team with 13: -2(13-8) = -10
    assert second["points"] == [-10, -10, -10] and second["grand_player"] == 1


# --- reproducibility and line-ups ---------------------------------------------------------------


def test_identical_files_whatever_n_jobs(tmp_path):
    files = {}
    for jobs in (1, 2):
        out = tmp_path / f"jobs{jobs}"
        assert main(["run", "--rules", "norwegian.three", "--strategy", "random", "--games",
                     "30", "--block-size", "10", "--seed", "3", "--out", str(out), "--n-jobs",
                     str(jobs), "--quiet"]) == 0
        files[jobs] = {p.relative_to(out): p.read_bytes() for p in out.glob("*/part-*")}
    assert files[1] == files[2] and len(files[1]) == 6


def test_lineups_fit_the_number_of_players():
    exp = build_experiment({
        "games": 10, "variants": {"two": "norwegian", "three": "norwegian.three",
                                  "classic": "norwegian.classic"},
        "lineups": {"all": "random"}})
    assert [len(c.seats) for c in exp.cells] == [2, 3, 4]
    duel = build_experiment({"games": 10, "rules": "norwegian", "lineups": {
        "duel": {"sides": ["random", {"name": "random"}], "swap": True}}})
    assert [c.swapped for c in duel.cells] == [False, True]
    assert [len(c.seats) for c in duel.cells] == [2, 2]


def test_deals_are_shared_by_cells_with_the_same_players(tmp_path):
    """Duplicate deals: the scoring modes of the 2-player game see the same cards."""
    out = tmp_path / "grid"
    exp = tmp_path / "grid.toml"
    exp.write_text('games = 20\nblock_size = 10\nseed = 5\n[variants]\nboth = "norwegian"\n'
                   'zero = "norwegian.zero_sum"\n[lineups]\nr = "random"\n')
    assert main(["run", str(exp), "--out", str(out), "--n-jobs", "1", "--quiet"]) == 0
    frame = pd.read_parquet(out / "hands")
    first = frame[frame.hand_no == 1].sort_values(["variant", "game_id"])
    both, zero = (first[first.variant == v][["hand_0", "hand_1"]].to_numpy()
                  for v in ("both", "zero"))
    assert np.array_equal(both, zero)


def test_summary_of_a_run_mixing_player_counts(tmp_path, capsys):
    """Variants of 2, 3 and 4 players in one run: the summary reads each count's columns."""
    exp = tmp_path / "mixed.toml"
    exp.write_text('games = 6\nblock_size = 3\n[variants]\ntwo = "norwegian"\n'
                   'three = "norwegian.three"\nclassic = "norwegian.classic"\n'
                   '[lineups]\nr = "random"\n')
    assert main(["run", str(exp), "--out", str(tmp_path / "out"), "--n-jobs", "1",
                 "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    headings = {"Two players": "two", "Three players": "three", "Four players": "classic"}
    under, rows = None, {}
    for line in lines:
        under = next((v for h, v in headings.items() if line.startswith(h)), under)
        if line.split() and line.split()[0] in ("two", "three", "classic"):
            rows[line.split()[0]] = (under, line.split())
    assert {v: under for v, (under, _) in rows.items()} == {v: v for v in rows}
    assert set(rows) == {"two", "three", "classic"}
    frame = pd.read_parquet(tmp_path / "out" / "hands", filters=[("variant", "==", "two")])
    points = frame[["points_0", "points_1"]].mean()
    # the last columns: each side's points a hand (two sides, three players, two teams)
    assert [float(x.replace("−", "-")) for x in rows["two"][1][-2:]] == pytest.approx(
        points.to_list(), abs=0.005)
    assert len(rows["three"][1]) - len(rows["two"][1]) == 1 + 1  # a seat more, twice
