"""Experiment grids (whistlab/experiment.py): rules variants x line-ups become cells, in order; a line-up
with ``swap = true`` adds a cell with the sides' seats exchanged; the single-cell form; the command
line's ``--rules`` / ``--strategy`` replacing the whole tables; one-line errors (exit code 2) that
name the file and the key; every shipped experiment file builds and a tiny version of it runs; and
common random numbers across the cells of one run (every cell plays the same deals).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import polars as pl
import pytest

from sim.options import PRESETS, load_rules
from strategies import make_strategy
from whistlab.cli import main
from whistlab.experiment import BLOCK_SIZES, NAME, build_experiment, load_experiment
from whistlab.runner import block_path, run_experiment

EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"
SHIPPED = sorted(EXPERIMENTS.glob("*.toml"))
SEATS = range(4)


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def seat(spec) -> dict:
    return make_strategy(spec).to_dict()


GRID = {
    "name": "grid",
    "hands": 8,
    "seed": 3,
    "block_size": 4,
    "variants": {"std": "spades.standard", "count": {"preset": "spades.standard",
                                                       "nil_tricks": "count"}},
    "lineups": {"all_seed": "seed",
                "duel": {"sides": [{"name": "seed", "avoid_bags": False}, "random"],
                         "swap": True},
                "table": ["seed", "random", "random", "seed"]},
}


# --- the grid ----------------------------------------------------------------------------------


def test_variants_times_lineups_in_order():
    exp = build_experiment(GRID)
    assert [c.key for c in exp.cells] == [
        "std-all_seed", "std-duel", "std-duel-swapped", "std-table",
        "count-all_seed", "count-duel", "count-duel-swapped", "count-table",
    ]
    assert [(c.variant, c.lineup, c.swapped) for c in exp.cells][:4] == [
        ("std", "all_seed", False), ("std", "duel", False), ("std", "duel", True),
        ("std", "table", False)]
    std, count = PRESETS["spades.standard"], load_rules({"preset": "spades.standard",
                                                         "nil_tricks": "count"})
    for cell in exp.cells:
        assert cell.rules == (std if cell.variant == "std" else count)
    assert std != count
    assert exp.mode == "hands" and exp.count == 8 and exp.n_blocks == 2


def test_swapped_lineup_moves_every_player_one_seat_left():
    exp = build_experiment(GRID)
    cells = {c.key: c for c in exp.cells}
    a, b = seat({"name": "seed", "avoid_bags": False}), seat("random")
    assert a != seat("seed")
    assert cells["std-duel"].seats == (a, b, a, b)  # side 0 = seats 0 and 2
    assert cells["std-duel-swapped"].seats == (b, a, b, a)
    assert cells["std-all_seed"].seats == (seat("seed"),) * 4
    assert cells["std-table"].seats == tuple(seat(s) for s in ["seed", "random", "random", "seed"])
    # a per-seat table with swap: each player moved one seat left (seat i plays at seat i - 1)
    exp = build_experiment({"hands": 4, "lineups": {
        "t": {"seats": ["seed", "random", {"name": "seed", "cover_nil": False}, "random"],
              "swap": True}}})
    original, swapped = (c.seats for c in exp.cells)
    assert [c.swapped for c in exp.cells] == [False, True]
    assert swapped == tuple(original[(i + 1) % 4] for i in SEATS)


def test_swap_false_adds_no_cell():
    exp = build_experiment({"hands": 4, "lineups": {"d": {"sides": ["seed", "random"],
                                                           "swap": False}}})
    assert [c.key for c in exp.cells] == ["spades.standard-d"]


@pytest.mark.parametrize("table, key", [
    ({}, "spades.standard-seed"),
    ({"rules": "spades.short", "strategy": "random"}, "spades.short-random"),
    ({"rules": "spades.openspiel", "strategy": {"name": "seed", "nil_max_estimate": 0.5}},
     "spades.openspiel-seed"),
    ({"strategy": "random"}, "spades.standard-random"),
])
def test_single_cell_form_is_named_after_preset_and_strategy(table, key):
    exp = build_experiment({"games": 4, **table})
    assert [c.key for c in exp.cells] == [key]
    assert exp.cells[0].swapped is False


def test_single_cell_form_with_inline_rules_and_seat_list():
    exp = build_experiment({"games": 4, "rules": {"preset": "spades.short", "bag_penalty": 200},
                            "strategy": ["seed", "random", "seed", "random"]})
    (cell,) = exp.cells
    assert NAME.match(cell.variant) and NAME.match(cell.lineup)
    assert cell.rules.bag_penalty == 200
    assert cell.seats == tuple(seat(s) for s in ["seed", "random", "seed", "random"])


def test_variant_rules_file_is_relative_to_the_experiment_file(tmp_path, monkeypatch):
    folder = tmp_path / "study"
    folder.mkdir()
    write(folder / "house.toml", 'preset = "spades.short"\nbag_penalty = 200\n')
    path = write(folder / "exp.toml", """\
        hands = 4
        [variants]
        house = "house.toml"
        plain = "spades.short"
    """)
    monkeypatch.chdir(tmp_path)  # not the experiment's folder
    exp = load_experiment(path)
    assert [c.variant for c in exp.cells] == ["house", "plain"]
    assert exp.cells[0].rules.bag_penalty == 200
    assert exp.cells[1].rules == PRESETS["spades.short"]


# --- the command line replaces whole tables ----------------------------------------------------

GRID_FILE = """\
    name = "grid"
    hands = 8
    seed = 2
    block_size = 4
    [variants]
    std = "spades.standard"
    short = "spades.short"
    [lineups]
    seed = "seed"
    duel = { sides = ["seed", "random"], swap = true }
"""


def _cells(out: Path) -> list[tuple]:
    cells = json.loads((out / "manifest.json").read_text())["experiment"]["cells"]
    return [(c["variant"], c["lineup"], c["swapped"]) for c in cells]


def _parts(out: Path) -> list[str]:
    return sorted(p.name for p in (out / "hands").glob("part-*.parquet"))


@pytest.mark.parametrize("args, cells", [
    ([], [("std", "seed", False), ("std", "duel", False), ("std", "duel", True),
          ("short", "seed", False), ("short", "duel", False), ("short", "duel", True)]),
    (["--rules", "spades.short"],
     [("spades.short", "seed", False), ("spades.short", "duel", False),
      ("spades.short", "duel", True)]),
    (["--strategy", "random"], [("std", "random", False), ("short", "random", False)]),
    (["--rules", "spades.openspiel", "--strategy", "random"],
     [("spades.openspiel", "random", False)]),
])
def test_cli_rules_and_strategy_replace_the_tables(tmp_path, capsys, args, cells):
    path = write(tmp_path / "grid.toml", GRID_FILE)
    out = tmp_path / "out"
    assert main(["run", str(path), *args, "--out", str(out), "--n-jobs", "1", "--quiet"]) == 0
    capsys.readouterr()
    assert _cells(out) == cells
    keys = [f"{v}-{lu}" + ("-swapped" if s else "") for v, lu, s in cells]
    assert _parts(out) == sorted(f"part-{k}-{b:05d}.parquet" for k in keys for b in range(2))
    hands = pl.read_parquet(out / "hands" / "*.parquet")
    assert set(hands.select("variant", "lineup", "swapped").unique().rows()) == set(cells)


def test_cli_count_override_keeps_the_grid(tmp_path, capsys):
    path = write(tmp_path / "grid.toml", GRID_FILE)
    out = tmp_path / "out"
    assert main(["run", str(path), "--games", "2", "--block-size", "1", "--out", str(out),
                 "--n-jobs", "1", "--quiet"]) == 0
    capsys.readouterr()
    assert len(_cells(out)) == 6
    assert len(_parts(out)) == 12
    assert len(list((out / "games").glob("part-*.parquet"))) == 12



def test_default_block_sizes_by_mode(tmp_path):
    """Without block_size a block is BLOCK_SIZES[mode]; a file's block_size is for its own mode
    (the command line playing the other mode gets that mode's default) and an explicit one is
    kept (issue 19)."""
    one = {"rules": "spades.standard", "strategy": "seed"}
    assert build_experiment({**one, "hands": 10**6}).block_size == BLOCK_SIZES["hands"] == 50_000
    assert build_experiment({**one, "games": 10**5}).block_size == BLOCK_SIZES["games"] == 20_000
    games_file = write(tmp_path / "games.toml", 'rules = "spades.standard"\ngames = 100\n'
                       "block_size = 7\n")
    assert load_experiment(games_file).block_size == 7
    assert load_experiment(games_file, {"games": 50}).block_size == 7
    assert load_experiment(games_file, {"hands": 10**6}).block_size == 50_000
    assert load_experiment(games_file, {"hands": 10**5, "block_size": 9}).block_size == 9
    assert load_experiment(None, {"hands": 10**6}).block_size == 50_000  # the default experiment
    assert load_experiment(None).block_size == 5000  # its own, for its games

# --- errors: one line, exit code 2, the file and the key, nothing written ----------------------

BASE = 'name = "bad"\ngames = 4\nblock_size = 2\n'

ERRORS = {
    "unknown_top_level_key": (BASE + 'colour = "red"\n', ["colour", "unknown key"]),
    "rules_and_variants": (BASE + 'rules = "spades.standard"\n[variants]\na = "spades.short"\n',
                           ["'variants'", "rules"]),
    "strategy_and_lineups": (BASE + 'strategy = "seed"\n[lineups]\na = "random"\n',
                             ["'lineups'", "strategy"]),
    "empty_variants": (BASE + "[variants]\n", ["variants"]),
    "empty_lineups": (BASE + "[lineups]\n", ["lineups"]),
    "variant_name_with_dash": (BASE + '[variants]\n"no-dash" = "spades.standard"\n',
                               ["variants", "no-dash"]),
    "variant_name_with_space": (BASE + '[variants]\n"no space" = "spades.standard"\n',
                                ["variants", "no space"]),
    "lineup_name_with_dash": (BASE + '[lineups]\n"no-dash" = "seed"\n', ["lineups", "no-dash"]),
    "variant_unknown_rules_key": (
        BASE + '[variants]\nok = "spades.standard"\n'
        'odd = { preset = "spades.standard", colour = 1 }\n', ["variant odd", "colour"]),
    "variant_unknown_preset_in_table": (
        BASE + '[variants]\nodd = { preset = "spades.nope" }\n', ["odd", "spades.nope"]),
    "variant_unknown_preset": (BASE + '[variants]\nok = "spades.standard"\nodd = "spades.nope"\n',
                               ["odd", "spades.nope"]),
    "variant_missing_rules_file": (BASE + '[variants]\nodd = "nosuch.toml"\n',
                                   ["odd", "nosuch.toml"]),
    "lineup_unknown_strategy": (BASE + '[lineups]\nok = "seed"\nfoo = "nosuch"\n',
                                ["foo", "nosuch"]),
    "lineup_unknown_parameter": (BASE + '[lineups]\nfoo = { name = "seed", wobble = 1 }\n',
                                 ["wobble"]),
    "lineup_sides_unknown_parameter": (
        BASE + '[lineups]\nfoo = { sides = [{ name = "seed", wobble = 1 }, "seed"] }\n',
        ["wobble"]),
    "sides_of_three": (BASE + '[lineups]\nfoo = { sides = ["seed", "random", "seed"] }\n',
                       ["lineups.foo", "sides"]),
    "seats_of_three": (BASE + '[lineups]\nfoo = ["seed", "random", "seed"]\n',
                       ["lineups.foo", "4"]),
    "swap_yes": (BASE + '[lineups]\nfoo = { sides = ["seed", "random"], swap = "yes" }\n',
                 ["lineups.foo", "swap", "yes"]),
    "lineup_table_unknown_key": (BASE + '[lineups]\nfoo = { sides = ["seed", "random"], '
                                 'swop = true }\n', ["lineups.foo", "swop"]),
    "game_euchre": (BASE + 'game = "euchre"\n', ["'game'", "euchre", "not implemented"]),
    "game_norwegian_spades_rules": (BASE + 'game = "norwegian"\nrules = "spades.standard"\n',
                                    ["spades variant in a norwegian experiment"]),
    "norwegian_seats_of_four": ('games = 10\nrules = "norwegian"\nstrategy = ["random", '
                                '"random", "random", "random"]\n',
                                ["'strategy'", "one per seat (2)"]),
    "norwegian_sides_of_two_for_three": (
        'games = 10\nrules = "norwegian.three"\n[lineups]\nduel = { sides = ["random", '
        '"random"] }\n', ["lineups.duel", "3 strategies"]),
    "norwegian_swap_three": (
        'games = 10\nrules = "norwegian.three"\n[lineups]\nduel = { sides = ["random", '
        '"random", "random"], swap = true }\n', ["lineups.duel", "3 sides"]),
    "variants_not_a_table": (BASE + 'variants = "spades.standard"\n', ["variants"]),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_experiment_errors(tmp_path, capsys, case):
    body, needles = ERRORS[case]
    path = write(tmp_path / f"{case}.toml", body)
    out = tmp_path / "out"
    code = main(["run", str(path), "--out", str(out), "--n-jobs", "1", "--quiet"])
    stdout, stderr = capsys.readouterr()
    assert code == 2, f"exit code {code}; stderr: {stderr!r}"
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("whistlab: error: ") and "Traceback" not in stderr
    assert stdout == ""
    assert str(path) in lines[0], f"the message does not name the file: {lines[0]}"
    for needle in needles:
        assert needle in lines[0], f"{needle!r} not in: {lines[0]}"
    assert not out.exists(), "something was written"


# --- the shipped experiments -------------------------------------------------------------------


def test_shipped_experiments_exist():
    assert {p.name for p in SHIPPED} >= {"default.toml", "nil.toml", "bags.toml"}


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_experiment_builds(path):
    exp = load_experiment(path)
    assert exp.cells
    keys = [c.key for c in exp.cells]
    assert len(set(keys)) == len(keys)
    assert all(NAME.match(c.variant) and NAME.match(c.lineup) for c in exp.cells)
    assert exp.mode in ("games", "hands") and exp.count >= 1 and exp.block_size >= 1
    for cell in exp.cells:
        assert len(cell.seats) == cell.rules.players
        if cell.swapped:  # right after its unswapped twin
            twin = exp.cells[exp.cells.index(cell) - 1]
            assert (twin.variant, twin.lineup, twin.swapped) == (cell.variant, cell.lineup, False)
            assert cell.seats == twin.seats[1:] + twin.seats[:1]
    json.dumps(exp.to_dict())  # the manifest can be written


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_experiment_tiny_run(path, tmp_path):
    exp = load_experiment(path, {"games": 20, "block_size": 10})
    assert exp.mode == "games" and exp.count == 20 and exp.n_blocks == 2
    assert [c.key for c in exp.cells] == [c.key for c in load_experiment(path).cells]
    out = run_experiment(exp, tmp_path / "out", n_jobs=2)
    for table in ("hands", "games"):
        expected = sorted(block_path(out, table, c, b).name for c in exp.cells for b in range(2))
        assert sorted(p.name for p in (out / table).iterdir()) == expected
    for cell in exp.cells:  # cells of different player counts have different columns
        games = pl.read_parquet([block_path(out, "games", cell, b) for b in range(2)])
        hands = pl.read_parquet([block_path(out, "hands", cell, b) for b in range(2)])
        assert sorted(games["game_id"].to_list()) == list(range(20))
        assert hands.height == games["n_hands"].cast(pl.Int64).sum()


# --- common random numbers across cells --------------------------------------------------------

CRN = {
    "name": "crn",
    "seed": 20261130,
    "block_size": 10,
    "variants": {"std": "spades.standard", "short": "spades.short",
                 "count": {"preset": "spades.standard", "nil_tricks": "count"}},
    "lineups": {"seed": "seed", "duel": {"sides": ["seed", "random"], "swap": True},
                "rnd": "random"},
}
DEAL = ["dealer", *(f"hand_{s}" for s in SEATS)]


@pytest.fixture(scope="module", params=["games", "hands"])
def crn_run(request, tmp_path_factory):
    mode = request.param
    exp = build_experiment({**CRN, mode: 20})
    out = run_experiment(exp, tmp_path_factory.mktemp(f"crn-{mode}"), n_jobs=2)
    return mode, exp, pl.read_parquet(out / "hands" / "*.parquet")


def test_every_cell_is_in_the_tables(crn_run):
    mode, exp, hands = crn_run
    assert len(exp.cells) == 12
    cells = set(hands.select("variant", "lineup", "swapped").unique().rows())
    assert cells == {(c.variant, c.lineup, c.swapped) for c in exp.cells}
    # the cells really played differently: the test below is not comparing copies
    bids = hands.filter(pl.col("hand_no") == 1).group_by("variant", "lineup", "swapped").agg(
        pl.col("bid_0").sort_by("game_id"))
    assert len({tuple(b) for b in bids["bid_0"].to_list()}) > 1


def test_common_random_numbers_across_cells(crn_run):
    mode, exp, hands = crn_run
    n_cells = len(exp.cells)
    keys = ["game_id", "hand_no"]
    first = hands.filter(pl.col("hand_no") == 1)
    # every cell has every game's first hand, dealt alike in every cell
    counts = first.group_by("game_id").agg(pl.len(), *(pl.col(c).n_unique() for c in DEAL))
    assert sorted(counts["game_id"]) == list(range(20))
    assert (counts["len"] == n_cells).all()
    for col in DEAL:
        assert (counts[col] == 1).all(), f"{col} differs between cells in a first hand"
    # in hands mode every hand is a first hand; in games mode, every later hand that several
    # cells reach is dealt alike too (hand h of game g: the same cards in every cell)
    every = hands.group_by(keys).agg(pl.len(), *(pl.col(c).n_unique() for c in DEAL))
    if mode == "hands":
        assert (hands["hand_no"] == 1).all() and every.height == 20
    else:
        # games last different numbers of hands in different cells
        assert every["len"].max() == n_cells and every["len"].min() < n_cells
    for col in DEAL:
        bad = every.filter(pl.col(col) > 1)
        assert bad.height == 0, f"{col} differs between cells: {bad.head()}"
