"""The ``whistlab`` command line: every user error is one clear line, exit code 2, nothing written.

Each bad input is fed to ``whistlab.cli.main`` (and a few to the installed ``whistlab`` console command):
the exit code must be 2, standard error exactly one line starting ``whistlab: error:`` with no
traceback, standard output empty, and the ``--out`` folder or file must not exist afterwards
(whistlab/cli.py: "inputs are validated before any output is opened"). The happy paths check what
``presets``, ``run`` and ``replay`` print and write.

Hand records follow RULES.md §5. The hand-built deal `DEAL` below is a golden transcript: its
expected tricks and score are worked out by hand in the comments.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from sim.cards import RANKS
from sim.options import PRESETS, rules_to_dict
from whistlab.cli import main

# --- a hand-built deal (dealer 3, so seat 0 bids first and leads) ------------------------------
# seat 0: the clubs 3..A and 2S; seat 1: all hearts; seat 2: all diamonds; seat 3: 2C and 3S..AS.
DEAL = [
    [r + "C" for r in "3456789TJQKA"] + ["2S"],
    [r + "H" for r in RANKS],
    [r + "D" for r in RANKS],
    ["2C"] + [r + "S" for r in "3456789TJQKA"],
]
# Trick 1 (seat 0 leads): AC 2H 2D 2C -> seat 0 (seat 3 must follow with 2C).
# Trick 2 (seat 0): KC 3H 3D 3S -> seat 3 ruffs; spades are broken.
# Trick 3 (seat 3): 4S 2S 4H 4D -> seat 3 (seat 0 must follow with his only spade).
# Tricks 4..13 (seat 3): a spade, then seat 0's clubs from QC down, hearts and diamonds -> seat 3.
PLAYS = (["AC", "2H", "2D", "2C", "KC", "3H", "3D", "3S", "4S", "2S", "4H", "4D"]
         + [card for s, c, h in zip("56789TJQKA", "QJT9876543", "56789TJQKA", strict=True)
            for card in (s + "S", c + "C", h + "H", h + "D")])
# Bids 2, 1, 1, 9: side 0 (seats 0, 2) bid 3 and took 1 -> set, -30; side 1 (seats 1, 3) bid 10
# and took 12 -> +100 + 2 overtricks = +102, 2 bags.
GOOD = {"game": "spades", "rules": "spades.standard", "dealer": 3, "hands": DEAL,
        "bids": [2, 1, 1, 9], "blind": [False] * 4, "plays": PLAYS}


def _swap(plays, a, b):
    plays = list(plays)
    i, j = plays.index(a), plays.index(b)
    plays[i], plays[j] = plays[j], plays[i]
    return plays


def record(**changes):
    rec = copy.deepcopy(GOOD)
    for key, value in changes.items():
        if value is None:
            rec.pop(key, None)
        else:
            rec[key] = value
    return rec


@pytest.fixture
def exp(tmp_path):
    """A tiny experiment file."""
    path = tmp_path / "tiny.toml"
    path.write_text(textwrap.dedent("""\
        name = "tiny"
        rules = "spades.standard"
        strategy = "random"
        games = 40
        seed = 5
        block_size = 10
    """), encoding="utf-8")
    return path


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def write_records(path: Path, bad) -> Path:
    """A records file: a valid record on line 1, a blank line 2, then ``bad`` on line 3."""
    bad = bad if isinstance(bad, str) else json.dumps(bad)
    path.write_text(json.dumps(GOOD) + "\n\n" + bad + "\n", encoding="utf-8")
    return path


def assert_user_error(capsys, argv, *needles, absent=()):
    """Run ``main(argv)``; check the one-line error and that nothing was written."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("whistlab: error: ")
    assert out == ""
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    for path in absent:
        assert not Path(path).exists(), f"{path} was written"
    return lines[0]


# --- rules -------------------------------------------------------------------------------------


def test_unknown_preset(capsys, exp, tmp_path):
    msg = assert_user_error(capsys, ["run", exp, "--rules", "nosuch", "--out", tmp_path / "out"],
                            "unknown preset 'nosuch'", absent=[tmp_path / "out"])
    for name in ("spades.standard", "spades.short", "spades.openspiel"):
        assert name in msg


def test_rules_file_unknown_key(capsys, exp, tmp_path):
    rules = write(tmp_path / "house.toml", """\
        preset = "spades.short"
        bag_limt = 7
    """)
    n_keys = len(rules_to_dict(PRESETS["spades.short"])) + 1  # and 'preset'
    assert_user_error(capsys, ["run", exp, "--rules", rules, "--out", tmp_path / "out"],
                      str(rules), "'bag_limt'", "did you mean 'bag_limit'",
                      f"{n_keys} in all", "whistlab presets spades.short",
                      absent=[tmp_path / "out"])


@pytest.mark.parametrize("body, key", [
    ('nil = "yes"', "nil"),
    ("bag_limit = true", "bag_limit"),
    ("nil_bonus = 1.5", "nil_bonus"),
    ('nil_tricks = "sometimes"', "nil_tricks"),
    ('spades_broken = "always"', "spades_broken"),
    ("target_score = true", "target_score"),
])
def test_rules_file_wrong_type(capsys, exp, tmp_path, body, key):
    rules = write(tmp_path / "house.toml", f'game = "spades"\n{body}\n')
    assert_user_error(capsys, ["run", exp, "--rules", rules, "--out", tmp_path / "out"],
                      str(rules), f"'{key}'", "allowed", absent=[tmp_path / "out"])


@pytest.mark.parametrize("body, key", [
    ("bag_limit = 0", "bag_limit"),
    ("nil_bonus = -100", "nil_bonus"),
    ("mercy_score = 50", "mercy_score"),
    ("max_team_bid = 27", "max_team_bid"),
    ("max_hands = 0", "max_hands"),
])
def test_rules_file_out_of_range(capsys, exp, tmp_path, body, key):
    rules = write(tmp_path / "house.toml", f'preset = "spades.standard"\n{body}\n')
    assert_user_error(capsys, ["run", exp, "--rules", rules, "--out", tmp_path / "out"],
                      str(rules), f"'{key}'", "allowed", absent=[tmp_path / "out"])


@pytest.mark.parametrize("body, key", [
    ("nil = false\nblind_nil = true", "blind_nil"),
    # With nil each partner may bid 0, so only without nil is a team cap of 1 unplayable.
    ("nil = false\nblind_nil = false\nmax_team_bid = 1", "max_team_bid"),
    ("target_score = false", "target_score"),
    ('target_score = "off"\nmax_hands = false', "target_score"),
    ("target_score = 100\nmercy_score = false\nmax_hands = 3\nbag_penalty = 0", None),
])
def test_rules_file_impossible_combination(capsys, exp, tmp_path, body, key):
    rules = write(tmp_path / "house.toml", f'game = "spades"\n{body}\n')
    argv = ["run", exp, "--rules", rules, "--out", tmp_path / "out", "--quiet"]
    if key is None:  # the control case: a playable combination is accepted
        assert main([str(a) for a in argv]) == 0
        return
    assert_user_error(capsys, argv, str(rules), f"'{key}'", absent=[tmp_path / "out"])


def test_rules_file_invalid_toml(capsys, exp, tmp_path):
    rules = write(tmp_path / "house.toml", "preset = spades.short\n")
    assert_user_error(capsys, ["run", exp, "--rules", rules, "--out", tmp_path / "out"],
                      str(rules), "not valid TOML", absent=[tmp_path / "out"])


def test_rules_file_missing(capsys, exp, tmp_path):
    assert_user_error(capsys, ["run", exp, "--rules", tmp_path / "none.toml", "--out",
                               tmp_path / "out"], "none.toml", absent=[tmp_path / "out"])


def test_rules_file_unknown_base_preset(capsys, exp, tmp_path):
    rules = write(tmp_path / "house.toml", 'preset = "spades.long"\n')
    assert_user_error(capsys, ["run", exp, "--rules", rules, "--out", tmp_path / "out"],
                      str(rules), "'preset'", "spades.long", "spades.standard",
                      absent=[tmp_path / "out"])


# --- experiment files --------------------------------------------------------------------------

TINY = "block_size = 10\n"


@pytest.mark.parametrize("body, needles", [
    ("games = 40\nrepeats = 3", ["'repeats'", "allowed keys", "block_size"]),
    ('games = "40"', ["'games'", "an integer in [1, 1000000000]"]),
    ("games = true", ["'games'"]),
    ("games = 0", ["'games'"]),
    ("games = 40\nseed = -1", ["'seed'"]),
    ("games = 40\nseed = 1.5", ["'seed'"]),
    ("games = 40\nhands = 40", ["'games'", "'hands'"]),
    ("games = 40\nname = 3", ["'name'"]),
    ("games = 40\nrules = 3", ["'rules'"]),
    ("games = 40\nstrategy = 'chess'", ["'chess'", "known strategies", "seed", "random"]),
    ('games = 40\nstrategy = ["random", "seed"]', ["'strategy'", "4"]),
    ("games = 40\nstrategy = { name = 'seed', bluff = 1.0 }",
     ["'bluff'", "seed", "allowed", "strategies.seed.SeedStrategy"]),
    ("games = 40\nstrategy = { name = 'seed', ace = 'high' }", ["'ace'", "float"]),
    ("games = 40\nstrategy = { name = 'seed', cover_nil = 1 }", ["'cover_nil'", "bool"]),
    ("games = 40\nstrategy = { name = 'random', ace = 1.0 }", ["'ace'", "random"]),
    ("games = 40\nrules = 'spades.nosuch'", ["unknown preset"]),
    ("games = = 40", ["not valid TOML"]),
])
def test_experiment_file_errors(capsys, tmp_path, body, needles):
    path = write(tmp_path / "bad.toml", TINY + body + "\n")
    msg = assert_user_error(capsys, ["run", path, "--out", tmp_path / "out"], *needles,
                            absent=[tmp_path / "out"])
    if "unknown preset" not in needles:  # a rules value names its own source
        assert str(path) in msg


def test_experiment_file_missing(capsys, tmp_path):
    assert_user_error(capsys, ["run", tmp_path / "none.toml", "--out", tmp_path / "out"],
                      "none.toml", absent=[tmp_path / "out"])


def test_unknown_strategy_on_command_line(capsys, exp, tmp_path):
    assert_user_error(capsys, ["run", exp, "--strategy", "chess", "--out", tmp_path / "out"],
                      "unknown strategy 'chess'", "seed", "random", absent=[tmp_path / "out"])


def test_inline_rules_in_experiment_name_the_file(capsys, tmp_path):
    """A bad key in an experiment's inline rules table: the message must say which file."""
    path = write(tmp_path / "bad.toml",
                 TINY + "games = 40\nrules = { preset = 'spades.short', bag_limt = 3 }\n")
    assert_user_error(capsys, ["run", path, "--out", tmp_path / "out"], "'bag_limt'", str(path),
                      absent=[tmp_path / "out"])


# --- command-line values (argparse) ------------------------------------------------------------


@pytest.mark.parametrize("args, needles", [
    (["--hands", "0"], ["--hands", "'0'"]),
    (["--hands", "many"], ["--hands", "'many'"]),
    (["--hands", "-3"], ["--hands"]),
    (["--games", "2.5"], ["--games"]),
    (["--hands", "10", "--games", "10"], ["--games", "--hands"]),
    (["--seed", "-1"], ["--seed"]),
    (["--block-size", "0"], ["--block-size"]),
    (["--n-jobs", "two"], ["--n-jobs"]),
    (["--frobnicate"], ["--frobnicate"]),
])
def test_bad_run_options(capsys, exp, tmp_path, args, needles):
    assert_user_error(capsys, ["run", exp, *args, "--out", tmp_path / "out"], *needles,
                      absent=[tmp_path / "out"])


def test_n_jobs_zero(capsys, exp, tmp_path):
    """joblib has no meaning for n_jobs = 0: the command must say so, not crash mid-run."""
    assert_user_error(capsys, ["run", exp, "--n-jobs", "0", "--out", tmp_path / "out"],
                      "n-jobs", absent=[tmp_path / "out"])


@pytest.mark.parametrize("argv, needles", [
    (["rn"], ["unknown command 'rn'", "did you mean 'run'", "commands: run, report"]),
    (["reprt", "x"], ["unknown command 'reprt'", "did you mean 'report'"]),
    (["simulate"], ["unknown command 'simulate'", "commands:"]),
    (["presets", "spades.nosuch"], ["unknown preset 'spades.nosuch'", "spades.standard"]),
    (["replay"], ["records"]),
])
def test_bad_commands(capsys, argv, needles):
    assert_user_error(capsys, argv, *needles)


def test_out_is_an_existing_file(capsys, exp, tmp_path):
    """``--out`` naming a file, not a folder: a clear error, the file untouched."""
    target = write(tmp_path / "notes.txt", "keep me\n")
    assert_user_error(capsys, ["run", exp, "--out", target, "--quiet"], str(target))
    assert target.read_text() == "keep me\n"


def test_records_target_is_a_folder(capsys, exp, tmp_path):
    """``--records`` naming a folder: a clear error before anything is simulated."""
    folder = tmp_path / "recs"
    folder.mkdir()
    assert_user_error(capsys, ["run", exp, "--records", folder, "--out", tmp_path / "out",
                               "--quiet"], str(folder), absent=[tmp_path / "out"])


def test_replay_out_is_a_folder(capsys, tmp_path):
    records = tmp_path / "good.jsonl"
    records.write_text(json.dumps(GOOD) + "\n", encoding="utf-8")
    folder = tmp_path / "scored"
    folder.mkdir()
    assert_user_error(capsys, ["replay", records, "--out", folder], str(folder))


# --- hand records ------------------------------------------------------------------------------


def test_golden_record_replays(capsys, tmp_path):
    """The control for every bad record below: the hand-built deal is legal and scores as
    worked out by hand."""
    records = tmp_path / "good.jsonl"
    records.write_text(json.dumps(GOOD) + "\n", encoding="utf-8")
    assert main(["replay", str(records)]) == 0
    (out,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out["tricks"] == [1, 0, 0, 12]
    assert out["winners"] == [0] + [3] * 12
    assert out["points"] == [-30, 102]
    assert out["after"] == {"scores": [-30, 102], "bags": [0, 2]}


@pytest.mark.parametrize("bad, needles", [
    ("{not json", ["not valid JSON"]),
    ('["a", "list"]', ["JSON object"]),
    (record(plays=None), ["'plays'"]),
    (record(hands=None), ["'hands'"]),
    (record(bids=None), ["'bids'"]),
    (record(dealer=None), ["'dealer'"]),
    (record(dealer=4), ["'dealer'"]),
    (record(bids=[2, 1, 1]), ["'bids'"]),
    (record(bids=[2, 1, 1, 14]), ["'bids'"]),
    (record(blind=[False, False]), ["'blind'"]),
    (record(before={"scores": [0, 0], "bag": [0, 0]}), ["'before'"]),
    (record(hands=[DEAL[0][:-1] + ["1S"], *DEAL[1:]]), ["'1S'", "not a card"]),
    (record(hands=[DEAL[0][:-1] + ["AS"], *DEAL[1:]]), ["'hands'", "twice"]),
    (record(hands=[DEAL[0][:-1], *DEAL[1:]]), ["'hands'", "13"]),
    (record(plays=PLAYS[:-1]), ["'plays'", "52"]),
    (record(plays=[*PLAYS, "2C"]), ["'plays'", "52"]),
    (record(plays=["10H" if c == "TH" else c for c in PLAYS]), ["'10H'", "not a card"]),
    (record(tricks=[1, 0, 0, 11], hands=None, plays=None), ["'tricks'", "13"]),
    (record(rules="spades.nosuch"), ["unknown preset 'spades.nosuch'"]),
    (record(game="hearts"), ["'hearts'"]),
], ids=["not-json", "not-object", "no-plays", "no-hands", "no-bids", "no-dealer", "bad-dealer",
        "3-bids", "bid-14", "short-blind", "bad-before", "bad-card-in-hands", "card-twice",
        "12-cards", "51-plays", "53-plays", "bad-card-in-plays", "tricks-sum-12", "bad-preset",
        "other-game"])
def test_malformed_records(capsys, tmp_path, bad, needles):
    path = write_records(tmp_path / "bad.jsonl", bad)
    out = tmp_path / "scored.jsonl"
    assert_user_error(capsys, ["replay", path, "--out", out], f"{path}, line 3", *needles,
                      absent=[out])


@pytest.mark.parametrize("bad, needles", [
    # seat 3 holds 2C but ruffs the club lead with 3S
    (record(plays=_swap(PLAYS, "2C", "3S")),
     ["trick 1", "seat 3", "3S", "does not follow suit"]),
    # seat 0 leads 2S to trick 1 while holding clubs
    (record(plays=_swap(PLAYS, "AC", "2S")),
     ["trick 1", "seat 0", "2S", "spades are not broken"]),
    # seat 1 plays a diamond he does not hold
    (record(plays=["AC", "2D", *PLAYS[2:]]), ["trick 1", "seat 1", "2D", "not in the player's hand"]),
    # trick 3: seat 0 holds 2S and must follow the spade lead, but plays QC
    (record(plays=_swap(PLAYS, "2S", "QC")), ["trick 3", "seat 0", "QC", "does not follow suit"]),
], ids=["revoke", "spade-lead-unbroken", "card-not-held", "revoke-trick-3"])
def test_illegal_play_in_record(capsys, tmp_path, bad, needles):
    path = write_records(tmp_path / "bad.jsonl", bad)
    out = tmp_path / "scored.jsonl"
    assert_user_error(capsys, ["replay", path, "--out", out], f"{path}, line 3", *needles,
                      absent=[out])


@pytest.mark.parametrize("bad, needles", [
    # no nil under these rules: the minimum bid is 1
    (record(rules={"preset": "spades.standard", "nil": False, "blind_nil": False},
            bids=[0, 1, 3, 9]), ["bidding", "seat 0", "bid 0"]),
    # ... also in score-sheet mode (bids and tricks only)
    (record(rules={"preset": "spades.standard", "nil": False, "blind_nil": False},
            bids=[0, 1, 3, 9], tricks=[1, 0, 0, 12], hands=None, plays=None),
     ["bidding", "seat 0", "bid 0"]),
    # spades.openspiel: a side bids at most 13; seat 2 bids 7 over his partner's 7
    (record(rules="spades.openspiel", bids=[7, 1, 7, 1]), ["bidding", "seat 2", "bid 7"]),
    # blind nil at 0-0: blind nil needs a side trailing by 100
    (record(bids=[0, 1, 3, 9], blind=[True, False, False, False]),
     ["bidding", "seat 0", "blind", "100"]),
    # blind nil where the rules have none
    (record(rules="spades.openspiel", bids=[0, 1, 3, 9], blind=[True, False, False, False],
            before={"scores": [0, 300], "bags": [0, 0]}), ["bidding", "seat 0", "blind"]),
    # a blind bid that is not a nil
    (record(blind=[True, False, False, False], before={"scores": [0, 300], "bags": [0, 0]}),
     ["bidding", "seat 0", "blind", "nil"]),
], ids=["nil-without-nil", "nil-without-nil-score-sheet", "max-team-bid", "blind-not-trailing",
        "blind-nil-off", "blind-not-nil"])
def test_illegal_bid_in_record(capsys, tmp_path, bad, needles):
    path = write_records(tmp_path / "bad.jsonl", bad)
    out = tmp_path / "scored.jsonl"
    assert_user_error(capsys, ["replay", path, "--out", out], f"{path}, line 3", *needles,
                      absent=[out])


def test_blind_nil_allowed_when_trailing(capsys, tmp_path):
    """The control for the blind nil cases: trailing by 300, seat 0's blind nil is legal (and
    lost: he takes trick 1), -200 with partner's set 1-bid: -10."""
    rec = record(bids=[0, 1, 1, 9], blind=[True, False, False, False],
                 before={"scores": [0, 300], "bags": [0, 0]})
    path = tmp_path / "blind.jsonl"
    path.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    (out,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # side 0: nil bidder took 1 trick -> -200 blind nil, 1 bag (bags_only); seat 2 bid 1, took 0
    # -> -10. Side 1: bid 10, took 12 -> +102.
    assert out["components"]["nil"] == [-200, 0]
    assert out["points"] == [-10 + 1 - 200, 102]


def test_inline_rules_in_record_name_the_file(capsys, tmp_path):
    """A bad value in a record's inline rules: the message must name the records file."""
    path = write_records(tmp_path / "bad.jsonl", record(rules={"game": "spades", "nil": "yes"}))
    assert_user_error(capsys, ["replay", path], f"{path}, line 3", "'nil'")


def test_empty_and_missing_records_file(capsys, tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    assert_user_error(capsys, ["replay", empty, "--out", tmp_path / "o.jsonl"], str(empty),
                      absent=[tmp_path / "o.jsonl"])
    assert_user_error(capsys, ["replay", tmp_path / "none.jsonl"], "none.jsonl")


def test_replay_bad_rules_option(capsys, tmp_path):
    path = tmp_path / "good.jsonl"
    path.write_text(json.dumps(GOOD) + "\n", encoding="utf-8")
    assert_user_error(capsys, ["replay", path, "--rules", "nosuch", "--out", tmp_path / "o.jsonl"],
                      "unknown preset 'nosuch'", absent=[tmp_path / "o.jsonl"])


# --- the real console command ------------------------------------------------------------------


def _whistlab():
    exe = shutil.which("whistlab")
    return [exe] if exe else [sys.executable, "-m", "whistlab.cli"]


def _console(args, cwd):
    return subprocess.run([*_whistlab(), *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


def test_console_command_is_installed():
    assert shutil.which("whistlab"), "the `whistlab` console script is not on PATH"


@pytest.mark.parametrize("case", ["preset", "rules_key", "record"])
def test_console_errors(tmp_path, exp, case):
    out = tmp_path / "out"
    if case == "preset":
        args = ["run", exp, "--rules", "nosuch", "--out", out]
    elif case == "rules_key":
        rules = write(tmp_path / "house.toml", 'game = "spades"\nbag_limit = true\n')
        args = ["run", exp, "--rules", rules, "--out", out]
    else:
        args = ["replay", write_records(tmp_path / "bad.jsonl", record(plays=_swap(PLAYS, "2C", "3S"))),
                "--out", out]
    proc = _console(args, tmp_path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("whistlab: error: ")
    assert proc.stdout == ""
    assert not out.exists()


def test_console_presets(tmp_path):
    proc = _console(["presets"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == list(PRESETS)


# --- happy paths -------------------------------------------------------------------------------


def test_presets_lists_one_per_line(capsys):
    assert main(["presets"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == list(PRESETS)
    assert {"spades.standard", "spades.short", "spades.openspiel"} <= set(lines)


def test_presets_shows_one_preset(capsys):
    assert main(["presets", "spades.short"]) == 0
    lines = capsys.readouterr().out.splitlines()
    shown = dict(line.split(" = ", 1) for line in lines)
    assert list(shown) == list(rules_to_dict(PRESETS["spades.short"]))
    values = {k: json.loads(v) for k, v in shown.items()}
    assert values["game"] == "spades"
    assert values["target_score"] == 250
    assert values["bag_limit"] == 5
    assert values["bag_penalty"] == 50
    assert values["max_hands"] is None


def test_run_prints_summary(capsys, exp, tmp_path):
    out = tmp_path / "out"
    assert main(["run", str(exp), "--out", str(out), "--n-jobs", "1", "--quiet"]) == 0
    stdout, stderr = capsys.readouterr()
    assert stderr == ""
    lines = stdout.splitlines()
    assert lines[0] == f"results: {out}"
    n = len(pd.read_parquet(out / "hands"))
    assert lines[1] == f"Spades (spades.standard), random at every seat: 40 games, {n:,} hands"
    labels = [line[:15].strip() for line in lines[2:-1]]
    assert [x for x in dict.fromkeys(labels) if x] == [
        "Games won", "Game length", "Contracts", "Nil", "Blind nil", "Bags", "Bag penalties",
        "Points a hand"]
    assert lines[2][15:].startswith("North–South (seats 0 and 2)")
    assert lines[-1] == "In brackets: 95% confidence intervals."
    assert "nan" not in stdout
    assert (out / "manifest.json").exists()


def test_run_overrides(capsys, exp, tmp_path):
    out = tmp_path / "out"
    argv = ["run", str(exp), "--hands", "30", "--block-size", "7", "--seed", "3",
            "--rules", "spades.short", "--strategy", "seed", "--out", str(out), "--quiet"]
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines()[1] == (
        "Spades (spades.short), seed at every seat: 30 hands, each dealt afresh from no score")
    manifest = json.loads((out / "manifest.json").read_text())["experiment"]
    assert manifest["mode"] == "hands" and manifest["count"] == 30
    assert manifest["block_size"] == 7 and manifest["seed"] == 3
    assert manifest["cells"][0]["rules"] == rules_to_dict(PRESETS["spades.short"])
    assert [s["name"] for s in manifest["cells"][0]["seats"]] == ["seed"] * 4
    assert len(list((out / "hands").glob("*.parquet"))) == 5  # 7 + 7 + 7 + 7 + 2


def test_replay_stdout_and_out_file(capsys, tmp_path):
    path = tmp_path / "two.jsonl"
    other = record(bids=[1, 1, 1, 10])
    path.write_text(json.dumps(GOOD) + "\n" + json.dumps(other) + "\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    printed = capsys.readouterr().out
    target = tmp_path / "scored.jsonl"
    assert main(["replay", str(path), "--out", str(target)]) == 0
    assert capsys.readouterr().out == ""
    assert target.read_text(encoding="utf-8") == printed
    first, second = [json.loads(line) for line in printed.splitlines()]
    assert first["points"] == [-30, 102]
    # side 0 bid 2, took 1 -> -20; side 1 bid 11, took 12 -> +111
    assert second["points"] == [-20, 111]


# --- the command line a newcomer meets (issue 18 §2) ------------------------------------------


def test_bare_whistlab_prints_help(capsys):
    assert main([]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith("usage: whistlab")
    for word in ("run", "report", "replay", "presets", "tune", "yardstick", "start with:",
                 "whistlab run", "whistlab presets"):
        assert word in out


@pytest.mark.parametrize("argv", [["--help"], ["run", "--help"], ["report", "--help"],
                                  ["replay", "--help"], ["tune", "--help"],
                                  ["presets", "--help"], ["yardstick", "--help"]])
def test_help_texts_are_plain_text(capsys, argv):
    """No reStructuredText or Markdown markup in what --help prints."""
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "``" not in out and "`" not in out, out


def test_run_help_names_the_strategies_and_the_presets_command(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    from strategies import STRATEGIES

    for name in STRATEGIES:
        assert name in out
    assert "whistlab presets" in out
    from sim.inputs import shipped_names

    for name in shipped_names("experiments"):
        assert name in out


def test_a_finished_run_says_so_and_force_runs_afresh(capsys, exp, tmp_path):
    out = tmp_path / "out"
    assert main(["run", exp, "--out", out, "--quiet", "--n-jobs", "1"]) == 0
    first = capsys.readouterr()
    assert "already held" not in first.err
    mine = out / "notes.txt"
    mine.write_text("mine\n")
    before = {p.name: p.stat().st_mtime_ns for p in (out / "hands").iterdir()}
    assert main(["run", exp, "--out", out, "--quiet", "--n-jobs", "1"]) == 0
    again = capsys.readouterr()
    note = [line for line in again.err.splitlines() if line.startswith("whistlab: note:")]
    assert len(note) == 1, again.err
    for words in (str(out), "nothing was simulated", "--force", "--out"):
        assert words in note[0]
    assert again.out == first.out  # the same (earlier) results
    assert main(["run", exp, "--out", out, "--quiet", "--n-jobs", "1", "--force"]) == 0
    fresh = capsys.readouterr()
    assert "whistlab: note" not in fresh.err
    assert fresh.out == first.out  # the same experiment and seed: the same numbers
    after = {p.name: p.stat().st_mtime_ns for p in (out / "hands").iterdir()}
    assert after.keys() == before.keys()
    assert all(after[k] != before[k] for k in after), "--force did not simulate again"
    assert mine.read_text() == "mine\n", "--force deleted a file that is not whistlab's"


def test_the_progress_bar_counts_hands_or_games(capsys, exp, tmp_path):
    assert main(["run", exp, "--out", tmp_path / "g", "--n-jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert "40/40" in err and "game/s" in err, err
    assert main(["run", exp, "--out", tmp_path / "h", "--n-jobs", "1", "--hands", "30"]) == 0
    err = capsys.readouterr().err
    assert "30/30" in err and "hand/s" in err, err
    assert "block" not in err
