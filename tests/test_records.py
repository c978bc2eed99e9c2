"""Hand records (RULES.md §5): ``run --records`` writes one record per row of the hands table, and
``replay`` gives back exactly the table's tricks, points, parts, scores and bags; replaying under
other rules rescores as the scalar reference (tests/reference.py) and hand arithmetic say; score-sheet
records (bids and tricks only) are scored too."""

from __future__ import annotations

import json
import textwrap

import pandas as pd
import pytest

import reference as ref
from sim.options import PRESETS, rules_to_dict
from whistlab.cli import main

SEATS, SIDES = range(4), range(2)
PARTS = ("contract", "overtricks", "bag_penalty", "nil")
OUTPUT_KEYS = {"tricks", "points", "components", "after"}


def read_jsonl(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture(scope="module", params=[("games", "spades.standard"), ("hands", "spades.openspiel")],
                ids=["games-standard", "hands-openspiel"])
def run(request, tmp_path_factory):
    """A tiny run of the seed player with its records, and their replay."""
    mode, rules = request.param
    tmp = tmp_path_factory.mktemp("records")
    exp = tmp / "exp.toml"
    exp.write_text(textwrap.dedent(f"""\
        name = "records"
        rules = "{rules}"
        strategy = "seed"
        {mode} = {12 if mode == "games" else 40}
        seed = 31
        block_size = 5
    """), encoding="utf-8")
    records = tmp / "hands.jsonl"
    argv = ["run", str(exp), "--out", str(tmp / "out"), "--records", str(records), "--n-jobs", "1",
            "--quiet"]
    assert main(argv) == 0
    replayed = tmp / "replayed.jsonl"
    assert main(["replay", str(records), "--out", str(replayed)]) == 0
    return {"tmp": tmp, "records": records, "rules": rules, "mode": mode,
            "hands": pd.read_parquet(tmp / "out" / "hands"),
            "input": read_jsonl(records), "output": read_jsonl(replayed)}


def card_mask(names) -> int:
    """Bitboard of docs/SCHEMA.md: bit 13 * suit + rank, suits C D H S, ranks 2..A."""
    return sum(1 << (13 * "CDHS".index(n[1]) + "23456789TJQKA".index(n[0])) for n in names)


def test_one_record_per_row(run):
    hands, recs = run["hands"], run["input"]
    assert len(recs) == len(hands) >= 12
    assert len(hands) > 12 or run["mode"] == "hands"
    assert [(r["game_id"], r["hand_no"]) for r in recs] == list(
        zip(hands.game_id, hands.hand_no, strict=True))


def test_records_hold_the_table(run):
    for rec, row in zip(run["input"], run["hands"].itertuples(), strict=True):
        assert rec["game"] == "spades"
        assert rec["rules"] == rules_to_dict(PRESETS[run["rules"]])
        assert rec["dealer"] == row.dealer
        assert rec["bids"] == [getattr(row, f"bid_{s}") for s in SEATS]
        assert rec["blind"] == [getattr(row, f"blind_{s}") for s in SEATS]
        assert [card_mask(h) for h in rec["hands"]] == [getattr(row, f"hand_{s}") for s in SEATS]
        assert sorted(rec["plays"]) == sorted(c for h in rec["hands"] for c in h)


def test_before_is_the_previous_after(run):
    hands = run["hands"]
    for rec, (_, row) in zip(run["input"], hands.iterrows(), strict=True):
        if rec["hand_no"] == 1:
            assert rec["before"] == {"scores": [0, 0], "bags": [0, 0]}
        else:
            prev = hands[(hands.game_id == row.game_id) & (hands.hand_no == row.hand_no - 1)]
            assert rec["before"]["scores"] == [int(prev[f"score_{s}"].iloc[0]) for s in SIDES]
            assert rec["before"]["bags"] == [int(prev[f"bags_{s}"].iloc[0]) for s in SIDES]


def test_replay_reproduces_the_table(run):
    assert len(run["output"]) == len(run["hands"])
    for out, row in zip(run["output"], run["hands"].itertuples(), strict=True):
        assert out["tricks"] == [getattr(row, f"tricks_{s}") for s in SEATS]
        assert out["points"] == [getattr(row, f"points_{s}") for s in SIDES]
        assert out["after"]["scores"] == [getattr(row, f"score_{s}") for s in SIDES]
        assert out["after"]["bags"] == [getattr(row, f"bags_{s}") for s in SIDES]
        for part in PARTS:
            assert out["components"][part] == [getattr(row, f"{part}_{s}") for s in SIDES]


def test_replay_output_is_input_plus_results(run):
    for rec, out in zip(run["input"], run["output"], strict=True):
        assert OUTPUT_KEYS <= set(out)
        assert set(PARTS) <= set(out["components"])
        assert {k: out[k] for k in rec} == rec  # the input, unchanged
        assert set(out) - set(rec) >= OUTPUT_KEYS
        assert len(out["winners"]) == 13 and sum(out["tricks"]) == 13


def test_replay_agrees_with_the_scalar_reference(run):
    for rec, out in zip(run["input"], run["output"], strict=True):
        expected = ref.replay_hand(rec, run["rules"])
        for key in ("tricks", "winners", "points", "after"):
            assert out[key] == expected[key], (rec["game_id"], rec["hand_no"], key)


def test_replay_under_other_rules(run, capsys, tmp_path):
    """``--rules spades.short`` rescores every recorded hand whose bags before it are possible
    under it (bag_limit 5, penalty 50, as the scalar reference says), and the scores do change;
    a hand that had 5 or more bags before it is refused (issue 17: impossible under a limit of
    5), naming its line."""
    late = [i for i, r in enumerate(run["input"]) if max(r["before"].get("bags", [0])) >= 5]
    if late:
        assert main(["replay", str(run["records"]), "--rules", "spades.short"]) == 2
        err = capsys.readouterr().err
        assert f"line {late[0] + 1}: 'before.bags' must be a list of 2 integers in [0, 4]" in err
    kept = [r for i, r in enumerate(run["input"]) if i not in late]
    path = write_records(tmp_path / "possible.jsonl", kept)
    assert main(["replay", str(path), "--rules", "spades.short"]) == 0
    short = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(short) == len(kept)
    changed = 0
    output = [o for i, o in enumerate(run["output"]) if i not in late]
    for rec, out, std in zip(kept, short, output, strict=True):
        assert {k: out[k] for k in rec} == rec
        expected = ref.replay_hand(rec, "spades.short")
        assert out["points"] == expected["points"]
        assert out["after"] == expected["after"]
        assert out["tricks"] == std["tricks"]  # the play itself is the same
        changed += out["points"] != std["points"]
    assert changed > 0


def write_records(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def sheet(bids, tricks, scores=(0, 0), bags=(0, 0), **extra):
    return {"dealer": 3, "bids": list(bids), "tricks": list(tricks),
            "before": {"scores": list(scores), "bags": list(bags)}, **extra}


def test_short_rules_bag_penalty_by_hand(tmp_path, capsys):
    """Side 0 holds 4 bags and takes 1 overtrick (bid 3 + 2, takes 6): standard rules 51 with 5
    bags; spades.short (bag_limit 5, penalty 50) 51 - 50 = 1 with 0 bags."""
    path = write_records(tmp_path / "one.jsonl",
                         [sheet([3, 3, 2, 4], [3, 4, 3, 3], scores=(100, 100), bags=(4, 0))])
    assert main(["replay", str(path)]) == 0
    (std,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main(["replay", str(path), "--rules", "spades.short"]) == 0
    (short,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # side 1 (seats 1, 3): bid 7, took 7 -> +70 under both
    assert std["points"] == [51, 70] and std["after"] == {"scores": [151, 170], "bags": [5, 0]}
    assert short["points"] == [1, 70] and short["after"] == {"scores": [101, 170], "bags": [0, 0]}
    assert short["components"]["bag_penalty"] == [-50, 0]


@pytest.mark.parametrize("rec, points, after, components", [
    # RULES.md §3 seed example: side 0 bids 5 (3 + 2), takes 8 -> +53; from 108 with 8 bags: 161,
    # 11 bags, pays 100 -> 61 with 1 bag. Side 1 bids 4 (1 + 3), takes 5 -> +41, 1 bag.
    (sheet([3, 1, 2, 3], [5, 2, 3, 3], scores=(108, 50), bags=(8, 0)), [53 - 100, 41],
     {"scores": [61, 91], "bags": [1, 1]},
     {"contract": [50, 40], "overtricks": [3, 1], "bag_penalty": [-100, 0], "nil": [0, 0]}),
    # Seed: a made nil with the partner bidding 5 and taking 4 -> -50 + 100 = +50. Side 1 bids 8
    # and takes 9 -> +81.
    (sheet([0, 4, 5, 4], [0, 5, 4, 4]), [50, 81], {"scores": [50, 81], "bags": [0, 1]},
     {"contract": [-50, 80], "overtricks": [0, 1], "bag_penalty": [0, 0], "nil": [100, 0]}),
    # A failed nil (1 trick, a bag under "bags_only") with the partner making 5 exactly:
    # 50 - 100 + 1 = -49. Side 1 bids 7, takes 7 -> +70.
    (sheet([0, 3, 5, 4], [1, 3, 5, 4]), [-49, 70], {"scores": [-49, 70], "bags": [1, 0]},
     {"contract": [50, 70], "overtricks": [1, 0], "bag_penalty": [0, 0], "nil": [-100, 0]}),
    # Blind nil made, trailing by 150: +200; the partner bids 4 and takes 5 -> +41. Side 1 bids
    # 7 and takes 8 -> +71.
    (sheet([0, 3, 4, 4], [0, 4, 5, 4], scores=(0, 150), blind=[True, False, False, False]),
     [241, 71], {"scores": [241, 221], "bags": [1, 1]},
     {"contract": [40, 70], "overtricks": [1, 1], "bag_penalty": [0, 0], "nil": [200, 0]}),
])
def test_score_sheet_mode(tmp_path, capsys, rec, points, after, components):
    path = write_records(tmp_path / "sheet.jsonl", [rec])
    assert main(["replay", str(path)]) == 0
    (out,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {k: out[k] for k in rec} == rec
    assert OUTPUT_KEYS <= set(out)
    assert out["tricks"] == rec["tricks"]
    assert out["points"] == points
    assert out["after"] == after
    assert {k: out["components"][k] for k in PARTS} == components
    expected = ref.replay_hand(rec, "spades.standard")
    assert (expected["points"], expected["after"]) == (points, after)


def test_score_sheet_many_records_in_order(tmp_path, capsys):
    recs = [sheet([3, 1, 2, 3], [5, 2, 3, 3]), sheet([0, 4, 5, 4], [0, 5, 4, 4]),
            sheet([2, 2, 2, 2], [4, 3, 3, 3], rules="spades.short")]
    path = write_records(tmp_path / "sheet.jsonl", recs)
    assert main(["replay", str(path)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["bids"] for o in out] == [r["bids"] for r in recs]
    # the third record's own rules (spades.short): side 0 bids 4, takes 7 -> 43; side 1 bids 4,
    # takes 6 -> 42
    assert out[2]["points"] == [43, 42]
    assert out[2]["after"] == {"scores": [43, 42], "bags": [3, 2]}


def test_records_with_their_own_rules_are_grouped(run, capsys, tmp_path):
    """Records under different rules in one file are each scored under their own rules, and
    the output keeps the input order (a spades.short record with at most 4 bags before it, the
    most its bag_limit of 5 leaves)."""
    recs = []
    for i, rec in enumerate(run["input"][:10]):
        rec = dict(rec)
        rec["rules"] = "spades.short" if i % 2 else rules_to_dict(PRESETS["spades.standard"])
        if i % 2:
            rec["before"] = {**rec["before"], "bags": [min(b, 4) for b in rec["before"]["bags"]]}
        recs.append(rec)
    path = write_records(tmp_path / "mixed.jsonl", recs)
    assert main(["replay", str(path)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for i, (rec, o) in enumerate(zip(recs, out, strict=True)):
        assert (o["game_id"], o["hand_no"]) == (rec["game_id"], rec["hand_no"])
        expected = ref.replay_hand(rec, "spades.short" if i % 2 else "spades.standard")
        assert o["points"] == expected["points"] and o["after"] == expected["after"]
