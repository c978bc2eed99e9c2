"""Results are a pure function of the experiment: n_jobs, block order, grouping and resuming never
change a byte of the Parquet output (STYLE.md practice 7), and the deals do not depend on the rules
or the players (common random numbers, STYLE.md practice 8; `sim.spades.game`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from whistlab.cli import main
from whistlab.experiment import build_experiment
from whistlab.runner import block_path, run_block, run_experiment, write_block

SEATS = range(4)


def experiment(**changes):
    table = {"name": "repro", "strategy": ["seed", "random", "seed", "random"], "games": 40,
             "seed": 20261130, "block_size": 10}
    if "hands" in changes:
        table.pop("games")
    table.update(changes)
    return build_experiment(table)


def part_files(folder: Path) -> dict[str, bytes]:
    """Relative path -> bytes of every Parquet part file of a results folder."""
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.glob("*/part-*.parquet"))}


def assert_same_results(a: Path, b: Path) -> None:
    files_a, files_b = part_files(a), part_files(b)
    assert files_a, f"no part files in {a}"
    assert list(files_a) == list(files_b)
    for name in files_a:
        assert files_a[name] == files_b[name], f"{name} differs"
    for table in ("hands", "games"):
        if (a / table).exists():
            assert pq.read_table(a / table).equals(pq.read_table(b / table))


def run_one_block(exp, block: int, out: Path) -> None:
    """Simulate and write one block of the experiment's only cell, as a worker and the runner do."""
    cell, done, files = run_block(exp, 0, block)
    write_block(files, out, exp.cells[cell], done)


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    """The reference run: every block in order in this process."""
    out = tmp_path_factory.mktemp("serial")
    run_experiment(experiment(), out, n_jobs=1)
    return out


@pytest.mark.parametrize("mode", ["games", "hands"])
def test_n_jobs_does_not_change_a_byte(tmp_path, mode):
    exp = experiment(**({"hands": 60} if mode == "hands" else {}))
    run_experiment(exp, tmp_path / "one", n_jobs=1)
    run_experiment(exp, tmp_path / "two", n_jobs=2)
    assert_same_results(tmp_path / "one", tmp_path / "two")
    n_parts = len(list((tmp_path / "one" / "hands").glob("*.parquet")))
    assert n_parts == exp.n_blocks == (4 if mode == "games" else 6)
    assert (tmp_path / "one" / "games").exists() == (mode == "games")


def test_block_order_and_grouping_do_not_matter(serial, tmp_path):
    exp = experiment()
    backwards = tmp_path / "backwards"
    for block in reversed(range(exp.n_blocks)):
        run_one_block(exp, block, backwards)
    assert_same_results(serial, backwards)
    # Two blocks by hand, the rest by the runner in parallel (which skips finished blocks).
    mixed = tmp_path / "mixed"
    run_one_block(exp, 3, mixed)
    run_one_block(exp, 1, mixed)
    run_experiment(exp, mixed, n_jobs=2)
    assert_same_results(serial, mixed)


def test_resume_restores_identical_files(serial, tmp_path):
    exp = experiment()
    resumed = tmp_path / "resumed"
    shutil.copytree(serial, resumed)
    for table in ("hands", "games"):
        block_path(resumed, table, exp.cells[0], 2).unlink()
    kept = {p: p.stat().st_mtime_ns for p in resumed.glob("*/part-*.parquet")}
    run_experiment(exp, resumed, n_jobs=1)
    assert_same_results(serial, resumed)
    for path, mtime in kept.items():  # finished blocks are not simulated again
        assert path.stat().st_mtime_ns == mtime, f"{path} was rewritten"


def test_cli_resume_and_n_jobs(tmp_path, capsys):
    exp = tmp_path / "exp.toml"
    exp.write_text('strategy = "random"\ngames = 40\nseed = 9\nblock_size = 10\n',
                   encoding="utf-8")
    one, two = tmp_path / "one", tmp_path / "two"
    assert main(["run", str(exp), "--out", str(one), "--n-jobs", "1", "--quiet"]) == 0
    summary = capsys.readouterr().out.splitlines()[1:]
    assert main(["run", str(exp), "--out", str(two), "--n-jobs", "2", "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == summary
    assert_same_results(one, two)
    for table in ("hands", "games"):
        (part,) = (two / table).glob("part-*-00001.parquet")
        part.unlink()
    assert main(["run", str(exp), "--out", str(two), "--n-jobs", "2", "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == summary
    assert_same_results(one, two)


@pytest.mark.parametrize("change", [["--seed", "10"], ["--rules", "spades.short"],
                                    ["--strategy", "seed"], ["--block-size", "20"],
                                    ["--games", "30"]])
def test_rerun_into_other_experiments_folder_is_refused(tmp_path, capsys, change):
    exp = tmp_path / "exp.toml"
    exp.write_text('strategy = "random"\ngames = 20\nseed = 9\nblock_size = 10\n',
                   encoding="utf-8")
    out = tmp_path / "out"
    assert main(["run", str(exp), "--out", str(out), "--n-jobs", "1", "--quiet"]) == 0
    capsys.readouterr()
    before = {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    code = main(["run", str(exp), *change, "--out", str(out), "--n-jobs", "1", "--quiet"])
    stdout, stderr = capsys.readouterr()
    assert code == 2
    assert stdout == ""
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("whistlab: error: ")
    assert str(out) in lines[0] and "different experiment" in lines[0]
    assert {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()} == before


def _deals(folder: Path) -> pd.DataFrame:
    cols = ["game_id", "hand_no", "dealer", *(f"hand_{s}" for s in SEATS),
            *(f"bid_{s}" for s in SEATS)]
    return pd.read_parquet(folder / "hands", columns=cols)


@pytest.mark.parametrize("mode", ["games", "hands"])
def test_deals_do_not_depend_on_rules_or_players(tmp_path, mode):
    """Common random numbers: hand ``h`` of game ``g`` gets the same cards in every cell of an
    experiment with the same seed and block size, whatever the strategies or the rules."""
    count = {"hands": 60} if mode == "hands" else {"games": 40}
    cells = {
        "random": experiment(strategy="random", **count),
        "seed": experiment(strategy="seed", **count),
        "short": experiment(strategy="seed", rules="spades.short", **count),
    }
    deals = {}
    for name, exp in cells.items():
        run_experiment(exp, tmp_path / name, n_jobs=1)
        deals[name] = _deals(tmp_path / name)
    base = deals["random"]
    for name in ("seed", "short"):
        both = base.merge(deals[name], on=["game_id", "hand_no"], suffixes=("", "_other"))
        # every game's first hand at least is played in both cells
        assert both["hand_no"].eq(1).sum() == (60 if mode == "hands" else 40)
        for col in ("dealer", *(f"hand_{s}" for s in SEATS)):
            assert (both[col] == both[f"{col}_other"]).all(), (name, col)
        # ... while the players' decisions differ: the test is not vacuous
        assert (both["bid_0"] != both["bid_0_other"]).any()


def test_other_seed_other_deals(tmp_path):
    run_experiment(experiment(strategy="random"), tmp_path / "a", n_jobs=1)
    run_experiment(experiment(strategy="random", seed=1), tmp_path / "b", n_jobs=1)
    a, b = _deals(tmp_path / "a"), _deals(tmp_path / "b")
    first = a[a.hand_no == 1].merge(b[b.hand_no == 1], on="game_id")
    assert (first["hand_0_x"] != first["hand_0_y"]).all()


def test_part_metadata_names_the_block(serial):
    cell = experiment().cells[0]
    for table in ("hands", "games"):
        for block in range(4):
            meta = pq.read_schema(block_path(serial, table, cell, block)).metadata[b"whistlab"]
            assert json.loads(meta)["block"] == block and json.loads(meta)["cell"] == 0
