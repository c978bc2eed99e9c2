"""A corpus of malformed inputs (issue 17 §4): every one is answered by one line, exit 2, nothing.

Each case writes its input files into an empty folder, runs one ``whistlab`` command on them (in
process, from that folder, so that a default ``results/`` would land there too) and checks what a
user sees: exit code 2, exactly one line ``whistlab: error: ...`` on standard error with no
traceback, nothing on standard output, the line naming the input (the file, or the command-line
option) and the case's own words (the key, the line, what is allowed), and not one file written
beside the inputs.

The classes of the corpus (`CLASSES` counts them; the closing test asserts at least 100 cases):

- ``encoding``: binary junk, text that is not UTF-8, UTF-16 and UTF-32 text, in each kind of input
  file (rules, experiment, tune, strategy, records);
- ``shape``: a value of the wrong shape (a list or table where a string or number is expected, a
  string where a table is, ...) at the keys of every file kind, inline rules and records included;
- ``path``: folders, empty names and ``.`` where a file is expected, on the command line and
  inside files;
- ``depth``: JSON and TOML nested far deeper than any input needs;
- ``name``: experiment, variant, line-up and tune names that are not plain names (they become
  folder and file names);
- ``unknown``: names of presets, games, keys, strategies and parameters that do not exist, each
  answered with the nearest known names, and named by the option when typed on the command line.

A UTF-8 byte-order mark is not an error (sim/inputs.py skips it): `test_utf8_bom_is_accepted`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from whistlab.cli import main

TINY = 'name = "tiny"\nstrategy = "random"\ngames = 4\nseed = 5\nblock_size = 2\n'
RULES = 'preset = "spades.standard"\nnil_bonus = 50\n'
TUNE = ('name = "t"\nrules = "spades.standard"\nstrategy = "seed"\nseed = 1\n'
        "[parameters]\nbid_round = [0.0, 1.0]\n"
        "[search]\nrounds = 1\npopulation = 2\nhands = 20\nholdout_hands = 20\n")
STRATEGY = 'name = "seed"\nbid_round = 0.5\n'
# a score-sheet record (RULES.md §5): bids and tricks only
RECORD = {"game": "spades", "rules": "spades.standard", "dealer": 3, "bids": [3, 3, 3, 3],
          "tricks": [4, 3, 3, 3]}

# the command that reads each kind of file, given its path: {f} the file, {out} an output path
COMMAND = {
    "rules": ["run", "exp.toml", "--rules", "{f}", "--out", "out", "--quiet"],
    "experiment": ["run", "{f}", "--out", "out", "--quiet"],
    "tune": ["tune", "{f}", "--out", "out", "--quiet", "--n-jobs", "1"],
    "strategy": ["run", "exp.toml", "--strategy", "{f}", "--out", "out", "--quiet"],
    "records": ["replay", "{f}", "--out", "out.jsonl"],
}
FILE = {"rules": "bad_rules.toml", "experiment": "bad_exp.toml", "tune": "bad_tune.toml",
        "strategy": "bad_strategy.toml", "records": "bad.jsonl"}
GOOD_TEXT = {"rules": RULES, "experiment": TINY, "tune": TUNE, "strategy": STRATEGY,
             "records": json.dumps(RECORD) + "\n"}

CASES = []  # (class, id, files {name: bytes}, argv, needles)


def case(cls: str, name: str, files: dict, argv: list, *needles: str) -> None:
    files = {k: v.encode() if isinstance(v, str) else v for k, v in files.items()}
    CASES.append(pytest.param(cls, files, argv, needles, id=f"{cls}-{name}"))


def file_case(cls: str, name: str, kind: str, content, *needles: str) -> None:
    """A bad file of ``kind`` read by its command; the message must name the file."""
    argv = [a.replace("{f}", FILE[kind]) for a in COMMAND[kind]]
    case(cls, f"{kind}-{name}", {"exp.toml": TINY, FILE[kind]: content}, argv, FILE[kind],
         *needles)


# --- encoding: binary junk and text that is not UTF-8 -------------------------------------------
JUNK = bytes(range(256)) * 4
for kind in COMMAND:
    good = GOOD_TEXT[kind]
    file_case("encoding", "binary", kind, JUNK, "binary")
    file_case("encoding", "png", kind, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + JUNK[:64],
              "binary")
    file_case("encoding", "latin1", kind, good.encode() + '# café\n'.encode("latin-1"),
              "not UTF-8", "line")
    file_case("encoding", "utf16", kind, good.encode("utf-16"), "UTF-16")
    file_case("encoding", "utf32", kind, good.encode("utf-32"), "UTF-32")
    file_case("encoding", "cut-multibyte", kind, good.encode() + "# é".encode()[:-1],
              "not UTF-8")

# --- shape: a value of the wrong shape at a key -------------------------------------------------
for body, needles in [
    ('preset = ["spades.standard"]', ["'preset'"]),
    ("preset = { name = 'spades.standard' }", ["'preset'"]),
    ("preset = 3", ["'preset'"]),
    ('game = ["spades"]', ["'game'"]),
    ("game = {}", ["'game'"]),
    ("game = 1", ["'game'"]),
    ('redeal_poor_hands = "yes"', ["'redeal_poor_hands'"]),
    ("redeal_poor_hands = [1, 2]", ["'redeal_poor_hands'"]),
    ("redeal_poor_hands = { bad = 1 }", ["'redeal_poor_hands'"]),
    ("redeal_poor_hands = 1", ["'redeal_poor_hands'"]),
    ("jokers_remove = 1", ["'jokers_remove'"]),
    ('jokers_remove = "2C"', ["'jokers_remove'"]),
    ("jokers_remove = [1, 2]", ["'jokers_remove'"]),
    ('jokers_remove = [["2C"]]', ["'jokers_remove'"]),
    ("jokers_remove = { a = 1 }", ["'jokers_remove'"]),
    ("nil_bonus = [100]", ["'nil_bonus'"]),
    ("nil_bonus = { value = 100 }", ["'nil_bonus'"]),
    ('nil_bonus = "100"', ["'nil_bonus'"]),
    ("nil_bonus = 100.5", ["'nil_bonus'"]),
    ('nil = "yes"', ["'nil'"]),
    ('nil_tricks = ["count"]', ["'nil_tricks'"]),
    ("trump_order = {}", ["'trump_order'"]),
    ("spades_broken = []", ["'spades_broken'"]),
    ('pass_cards = "two"', ["'pass_cards'"]),
    ("bag_cancel_card = [1]", ["'bag_cancel_card'"]),
    ("first_lead = { seat = 1 }", ["'first_lead'"]),
]:
    key = needles[0].strip("'")
    file_case("shape", key + "-" + body.split("=", 1)[1].strip()[:12], "rules",
              'preset = "spades.standard"\n' + body + "\n" if "preset" not in body else body + "\n",
              *needles)

for body, needles in [
    ('name = ["tiny"]', ["'name'"]),
    ("name = {}", ["'name'"]),
    ('rules = ["spades.standard"]', ["'rules'"]),
    ("rules = 1", ["'rules'"]),
    ('variants = ["spades.standard"]', ["'variants'"]),
    ("variants = { a = [1] }", ["variant a"]),
    ("variants = { a = 1 }", ["variant a"]),
    ('variants = { a = { preset = ["spades.short"] } }', ["'preset'"]),
    ("strategy = 1", ["'strategy'"]),
    ('strategy = { name = ["seed"] }', ["'strategy'"]),
    ("strategy = { name = 1 }", ["'strategy'"]),
    ("strategy = {}", ["'strategy'"]),
    ("strategy = [1, 2, 3, 4]", ["'strategy'"]),
    ('strategy = { name = "seed", bid_round = [0.5] }', ["'bid_round'"]),
    ('strategy = { name = "seed", bid_round = { v = 1 } }', ["'bid_round'"]),
    ("lineups = { a = 1 }", ["lineups.a"]),
    ('lineups = { a = { sides = "seed" } }', ["lineups.a"]),
    ('lineups = { a = { sides = ["seed", ["random"]] } }', ["lineups.a"]),
    ("lineups = { a = { seats = 1 } }", ["lineups.a"]),
    ('lineups = { a = { sides = ["seed", "seed"], swap = "yes" } }', ["lineups.a"]),
    ('lineups = ["seed"]', ["'lineups'"]),
    ('games = "10"', ["'games'"]),
    ("games = 1.5", ["'games'"]),
    ("games = true", ["'games'"]),
    ("hands = [1]", ["'hands'"]),
    ("seed = [1]", ["'seed'"]),
    ("block_size = {}", ["'block_size'"]),
    ('game = ["spades"]', ["'game'"]),
    ("game = 1", ["'game'"]),
]:
    key = body.split("=", 1)[0].strip()
    lines = [line for line in TINY.splitlines() if not line.startswith(key + " ")]
    if key in ("games", "hands"):
        lines = [line for line in lines if not line.startswith(("games", "hands"))]
    if key in ("variants", "rules"):
        lines = [line for line in lines if not line.startswith(("rules", "variants"))]
    if key in ("lineups", "strategy"):
        lines = [line for line in lines if not line.startswith(("strategy", "lineups"))]
    file_case("shape", key + "-" + body.split("=", 1)[1].strip()[:14], "experiment",
              "\n".join(lines) + "\n" + body + "\n", *needles)

for body, needles in [
    ('rules = ["spades.standard"]', ["'rules'"]),
    ("strategy = 1", ["'strategy'"]),
    ("strategy = { name = [] }", ["'strategy'"]),
    ('opponents = ["seed"]', ["'opponents'"]),
    ("name = ['t']", ["'name'"]),
    ('seed = "1"', ["'seed'"]),
]:
    key = body.split("=", 1)[0].strip()
    text = "\n".join(line for line in TUNE.splitlines() if not line.startswith(key + " "))
    file_case("shape", "tune-" + key, "tune", body + "\n" + text + "\n", *needles)
for body, needles in [
    ('parameters = ["bid_round"]', ["'parameters'"]),
    ('parameters = { bid_round = "wide" }', ["bid_round"]),
    ("parameters = { bid_round = [1] }", ["bid_round"]),
    ('parameters = { bid_round = [0.0, "x"] }', ["bid_round"]),
    ("parameters = { bid_round = { lo = 0 } }", ["bid_round"]),
    ('search = ["rounds"]', ["'search'"]),
    ('search = { rounds = "x" }', ["rounds"]),
    ("search = { rounds = [1] }", ["rounds"]),
]:
    head = TUNE.split("[parameters]")[0]
    tail = "[search]" + TUNE.split("[search]")[1] if body.startswith("parameters") else ""
    params = "[parameters]\nbid_round = [0.0, 1.0]\n" if body.startswith("search") else ""
    file_case("shape", "tune-" + body[:18].replace(" ", ""), "tune",
              head + body + "\n" + params + tail, *needles)

for body, needles in [
    ('name = ["seed"]', ["'name'"]),
    ("name = 1", ["'name'"]),
    ("bid_round = 0.5", ["'name'"]),
    ('name = "seed"\nbid_round = [0.5]', ["'bid_round'"]),
    ('name = "seed"\nbid_round = { x = 1 }', ["'bid_round'"]),
]:
    file_case("shape", "strategy-" + body[:16].replace(" ", ""), "strategy", body + "\n",
              *needles)

for change, needles in [
    ({"rules": ["spades.standard"]}, ["line 1"]),
    ({"rules": 1}, ["line 1"]),
    ({"rules": {"preset": ["spades.standard"]}}, ["line 1", "'preset'"]),
    ({"rules": {"nil_bonus": [100]}}, ["line 1", "'nil_bonus'"]),
    ({"rules": {"redeal_poor_hands": "yes"}}, ["line 1", "'redeal_poor_hands'"]),
    ({"rules": {"jokers_remove": {"a": 1}}}, ["line 1", "'jokers_remove'"]),
    ({"game": ["spades"]}, ["line 1", "'game'"]),
    ({"game": {}}, ["line 1", "'game'"]),
    ({"dealer": "3"}, ["line 1", "'dealer'"]),
    ({"dealer": [3]}, ["line 1", "'dealer'"]),
    ({"bids": "3333"}, ["line 1", "'bids'"]),
    ({"bids": {"a": 1}}, ["line 1", "'bids'"]),
    ({"tricks": {"a": 1}}, ["line 1", "'tricks'"]),
    ({"before": [0, 0]}, ["line 1", "'before'"]),
    ({"before": {"scores": "0"}}, ["line 1", "'before.scores'"]),
    ({"before": {"bags": {"a": 1}}}, ["line 1", "'before.bags'"]),
    ({"blind": 1}, ["line 1", "'blind'"]),
    ({"hands": {"a": 1}, "plays": []}, ["line 1", "'hands'"]),
    ({"hands": "AS", "plays": []}, ["line 1", "'hands'"]),
]:
    file_case("shape", "record-" + "-".join(f"{k}" for k in change) + str(len(CASES)), "records",
              json.dumps({**RECORD, **change}) + "\n", *needles)
for text, needles in [("[1, 2, 3]", ["line 1", "object"]), ('"a record"', ["line 1", "object"]),
                      ("null", ["line 1", "object"])]:
    file_case("shape", "record-not-object-" + text[:4], "records", text + "\n", *needles)

# --- path: folders, empty names and "." where a file is expected ---------------------------------
EXP = {"exp.toml": TINY}
for value in (".", "", "/", "folder", "folder/"):
    case("path", f"rules-option-{value!r}", {**EXP, "folder/keep": ""},
         ["run", "exp.toml", "--rules", value, "--out", "out", "--quiet"], "rules")
for value in (".", "", "folder"):
    case("path", f"experiment-rules-{value!r}", {"folder/keep": "",
         "e.toml": TINY + f'rules = "{value}"\n'}, ["run", "e.toml", "--out", "out", "--quiet"],
         "e.toml", "'rules'")
    case("path", f"experiment-variant-{value!r}", {"folder/keep": "",
         "e.toml": TINY + f'[variants]\na = "{value}"\n'},
         ["run", "e.toml", "--out", "out", "--quiet"], "e.toml", "variants")
    case("path", f"record-rules-{value!r}", {"folder/keep": "",
         "r.jsonl": json.dumps({**RECORD, "rules": value}) + "\n"},
         ["replay", "r.jsonl", "--out", "out.jsonl"], "r.jsonl", "line 1")
    case("path", f"tune-rules-{value!r}", {"folder/keep": "",
         "t.toml": TUNE.replace('rules = "spades.standard"', f'rules = "{value}"')},
         ["tune", "t.toml", "--out", "out", "--quiet"], "t.toml", "rules")
for command in (["run", "{}", "--out", "out", "--quiet"], ["tune", "{}", "--out", "out"],
                ["replay", "{}", "--out", "out.jsonl"]):
    for value in ("folder", "."):
        case("path", f"{command[0]}-argument-{value!r}", {"folder/keep": ""},
             [a.replace("{}", value) for a in command], "folder" if value == "folder" else "'.'")
    case("path", f"{command[0]}-argument-empty", {}, [a.replace("{}", "") for a in command],
         "''" if command[0] != "run" else "")
case("path", "strategy-file-is-a-folder", {**EXP, "dir.toml/keep": ""},
     ["run", "exp.toml", "--strategy", "dir.toml", "--out", "out", "--quiet"], "dir.toml",
     "folder")
case("path", "experiment-strategy-file-is-a-folder", {"dir.toml/keep": "",
     "e.toml": TINY.replace('strategy = "random"', 'strategy = "dir.toml"')},
     ["run", "e.toml", "--out", "out", "--quiet"], "dir.toml", "folder")
case("path", "report-of-a-file", {"notes.txt": "hello\n"}, ["report", "notes.txt"], "notes.txt")
case("path", "report-of-nothing", {}, ["report", "missing"], "missing")

# --- depth: nesting far beyond any input ----------------------------------------------------------
DEEP = 100_000
file_case("depth", "json-array", "records", "[" * DEEP + "]" * DEEP + "\n", "line 1")
file_case("depth", "json-in-rules", "records", json.dumps(
    {**RECORD, "rules": "RULES"}).replace('"RULES"', '{"a":' * DEEP + "1" + "}" * DEEP) + "\n",
    "line 1")
file_case("depth", "json-moderate", "records",
          json.dumps({**RECORD, "before": {"scores": [[[[[[[[[[[[0]]]]]]]]]]]]}}) + "\n",
          "line 1", "'before.scores'")
for kind in ("rules", "experiment", "tune"):
    file_case("depth", f"toml-array-{kind}", kind,
              GOOD_TEXT[kind].split("[")[0] + "deep = " + "[" * 5000 + "]" * 5000 + "\n",
              "deep")

# --- name: names that become folder and file names ----------------------------------------------
for name in ["../escaped", "a/b", "", ".", "..", ".hidden", "abc\n", "a b", "x" * 65,
             "tab\there", "semi;colon", "caf\u00e9", "-dash"]:
    body = TINY.replace('name = "tiny"', "name = " + json.dumps(name))
    case("name", f"experiment-{name[:10]!r}", {"e.toml": body},
         ["run", "e.toml", "--quiet"], "e.toml", "'name'", "letters")
for name in ["abc\n", "a/b", "../x", ".hidden", "a-b"]:
    case("name", f"variant-{name!r}", {"e.toml": TINY + "[variants]\n"
                                       + json.dumps(name) + ' = "spades.standard"\n'},
         ["run", "e.toml", "--out", "out", "--quiet"], "e.toml", "variants", "letters")
    case("name", f"lineup-{name!r}", {"e.toml": TINY.replace('strategy = "random"\n', "")
                                      + "[lineups]\n" + json.dumps(name) + ' = "random"\n'},
         ["run", "e.toml", "--out", "out", "--quiet"], "e.toml", "lineups", "letters")
case("name", "tune-escaped", {"t.toml": TUNE.replace('name = "t"', 'name = "../x"')},
     ["tune", "t.toml", "--quiet"], "t.toml", "'name'", "letters")

# --- unknown: a name that is not known, answered with the nearest known ones ----------------------
case("unknown", "rules-option-preset", EXP, ["run", "exp.toml", "--rules", "spades.standrd",
     "--out", "out"], "--rules: unknown preset 'spades.standrd'", "did you mean 'spades.standard'")
case("unknown", "strategy-option", EXP, ["run", "exp.toml", "--strategy", "exprt", "--out",
     "out"], "--strategy: unknown strategy 'exprt'", "did you mean 'expert'")
case("unknown", "presets-command", {}, ["presets", "portland.honors"],
     "unknown preset 'portland.honors'", "did you mean 'portland.honours'")
file_case("unknown", "experiment-preset", "experiment",
          TINY + 'rules = "spades.shrot"\n', "'rules'", "did you mean 'spades.short'")
file_case("unknown", "experiment-key", "experiment", TINY + "blocksize = 3\n",
          "'blocksize'", "did you mean 'block_size'")
file_case("unknown", "experiment-strategy", "experiment",
          TINY.replace('"random"', '"randon"'), "'strategy'", "did you mean 'random'")
file_case("unknown", "experiment-parameter", "experiment",
          TINY.replace('"random"', '{ name = "seed", bid_rond = 0.5 }'), "'bid_rond'",
          "did you mean 'bid_round'")
file_case("unknown", "rules-key", "rules", RULES + "bag_limt = 5\n", "'bag_limt'",
          "did you mean 'bag_limit'")
file_case("unknown", "rules-preset", "rules", 'preset = "spades.cuttroat"\n', "'preset'",
          "did you mean 'spades.cutthroat'")
file_case("unknown", "rules-game", "rules", 'game = "portlnd"\n', "'game'",
          "did you mean 'portland'")
file_case("unknown", "tune-key", "tune", TUNE.replace("seed = 1", "sed = 1"), "'sed'",
          "did you mean 'seed'")
file_case("unknown", "record-preset", "records",
          json.dumps({**RECORD, "rules": "spades.standart"}) + "\n", "line 1",
          "did you mean 'spades.standard'")
file_case("unknown", "record-rules-key", "records",
          json.dumps({**RECORD, "rules": {"nil_bonuss": 50}}) + "\n", "line 1", "'nil_bonuss'",
          "did you mean 'nil_bonus'")

CLASSES = {}
for param in CASES:
    CLASSES[param.values[0]] = CLASSES.get(param.values[0], 0) + 1


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.mark.parametrize("cls, files, argv, needles", CASES)
def test_bad_input(capsys, tmp_path, monkeypatch, cls, files, argv, needles):
    for name, content in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not name.endswith("/keep"):
            path.write_bytes(content)
    monkeypatch.chdir(tmp_path)
    before = _files(tmp_path)
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2, (code, err[-2000:])
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err[-2000:]
    assert lines[0].startswith("whistlab: error: ")
    assert len(lines[0]) < 1000, lines[0]
    assert out == ""
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    assert _files(tmp_path) == before, "something was written"


def test_corpus_size():
    """The issue asks for at least 100 cases over its classes; every class has cases."""
    assert sum(CLASSES.values()) >= 100, CLASSES
    assert set(CLASSES) == {"encoding", "shape", "path", "depth", "name", "unknown"}


@pytest.mark.parametrize("kind", ["rules", "experiment", "strategy", "records"])
def test_utf8_bom_is_accepted(capsys, tmp_path, monkeypatch, kind):
    """A UTF-8 file with a byte-order mark reads as the same file without it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp.toml").write_text(TINY, encoding="utf-8")
    results = []
    for bom in (b"", b"\xef\xbb\xbf"):
        (tmp_path / FILE[kind]).write_bytes(bom + GOOD_TEXT[kind].encode())
        argv = [a.replace("{f}", FILE[kind]) for a in COMMAND[kind]]
        at = argv.index("--out") + 1
        argv[at] = f"{len(bom)}{argv[at]}"
        assert main(argv) == 0, capsys.readouterr().err
        capsys.readouterr()
        target = tmp_path / argv[at]
        results.append(target.read_text() if target.is_file()
                       else sorted(p.name for p in (target / "hands").iterdir()))
    assert results[0] == results[1]
