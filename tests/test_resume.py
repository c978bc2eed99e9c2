"""Interrupted and damaged runs (sim/runner.py): ``kill -9`` part way leaves only whole block files
(temporary files start with '.'), and the same command finishes the run with files identical, byte
for byte, to an uninterrupted run. A damaged block file, or one from another experiment, is
reported (exit code 2, one line naming it and saying to delete it) and nothing else is touched;
once deleted, the block is simulated again, identically. A folder whose manifest is not a whistlab
manifest, or that holds another experiment, is refused.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from sim.cli import main

WHISTLAB = [shutil.which("whistlab")] if shutil.which("whistlab") else [sys.executable, "-m",
                                                                          "sim.cli"]

# ~40 blocks of 5,000 independent hands of the `seed` player: about 2 s for the whole run.
LONG = """\
    name = "resume"
    rules = "spades.standard"
    strategy = "seed"
    hands = 200000
    seed = 11
    block_size = 5000
"""
LONG_BLOCKS = 40

# Small and quick, in games mode (a hands and a games table), two cells of three blocks.
SMALL = """\
    name = "small"
    games = 6
    seed = 9
    block_size = 2
    [variants]
    std = "spades.standard"
    short = "spades.short"
    [lineups]
    rnd = "random"
"""


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def files(folder: Path) -> dict[str, bytes]:
    """Relative path -> bytes of every file in a folder."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def parts(folder: Path) -> dict[str, bytes]:
    return {k: v for k, v in files(folder).items() if Path(k).name.startswith("part-")}


def run_cli(capsys, exp: Path, out: Path, *extra) -> tuple[int, str, str]:
    code = main(["run", str(exp), "--out", str(out), "--n-jobs", "1", "--quiet", *extra])
    stdout, stderr = capsys.readouterr()
    return code, stdout, stderr


def one_line_error(code: int, stdout: str, stderr: str) -> str:
    assert code == 2, f"exit code {code}; stderr: {stderr!r}"
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("whistlab: error: ") and "Traceback" not in stderr
    assert stdout == ""
    return lines[0]


# --- kill -9 -----------------------------------------------------------------------------------


def test_kill_9_then_rerun_gives_identical_files(tmp_path):
    exp = write(tmp_path / "resume.toml", LONG)
    killed, whole = tmp_path / "killed", tmp_path / "whole"
    command = [*WHISTLAB, "run", str(exp), "--n-jobs", "1", "--quiet"]
    proc = subprocess.Popen([*command, "--out", str(killed)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(list((killed / "hands").glob("part-*.parquet"))) < 3:
            assert proc.poll() is None, f"the run ended early: {proc.stderr.read()!r}"
            assert time.monotonic() < deadline, "no block file after 60 s"
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    done = sorted((killed / "hands").glob("part-*.parquet"))
    assert 3 <= len(done) < LONG_BLOCKS, "the run was not interrupted part way"

    # Only whole block files under their own names; anything else is a temporary '.' file.
    for path in killed.rglob("*"):
        if path.is_dir() or path.name.startswith("."):
            continue
        if path.name in ("manifest.json", "journal.jsonl", "lock"):
            continue
        assert path.name.startswith("part-") and path.suffix == ".parquet", path
        table = pq.read_table(path)  # whole: reads, with its footer and metadata
        assert table.num_rows == 5000, path
        assert b"whistlab" in pq.read_schema(path).metadata

    rerun = subprocess.run([*command, "--out", str(killed)], capture_output=True, text=True,
                           timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    whole_run = subprocess.run([*command, "--out", str(whole)], capture_output=True, text=True,
                               timeout=120)
    assert whole_run.returncode == 0, whole_run.stderr
    assert rerun.stdout.splitlines()[1:] == whole_run.stdout.splitlines()[1:]  # the summary

    assert not [p for p in killed.rglob(".*")], "temporary files were left behind"
    got, expected = files(killed), files(whole)
    assert len(parts(whole)) == LONG_BLOCKS
    assert list(got) == list(expected)
    for name in expected:
        assert got[name] == expected[name], f"{name} differs from the uninterrupted run"


# --- damaged and foreign block files -----------------------------------------------------------


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """The small experiment file and a finished reference run of it."""
    folder = tmp_path_factory.mktemp("small")
    exp = write(folder / "small.toml", SMALL)
    out = folder / "reference"
    code = main(["run", str(exp), "--out", str(out), "--n-jobs", "1", "--quiet"])
    assert code == 0
    assert len(parts(out)) == 2 * 2 * 3  # two tables x two cells x three blocks
    return exp, out


@pytest.fixture
def copy(small, tmp_path):
    """A copy of the reference run to damage."""
    exp, reference = small
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    return exp, reference, out


def assert_refused_then_restored(capsys, exp, reference, out, damaged: Path):
    """The rerun names ``damaged`` and changes nothing; after deleting it the rerun restores it."""
    before = files(out)
    line = one_line_error(*run_cli(capsys, exp, out))
    assert str(damaged) in line, line
    assert "delete it" in line, line
    assert files(out) == before, "the refused rerun changed, added or removed files"
    damaged.unlink()
    code, _, stderr = run_cli(capsys, exp, out)
    assert code == 0, stderr
    assert files(out) == files(reference)


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def garbage(path: Path) -> None:
    path.write_bytes(b"this is not a parquet file\n" * 20)


def empty(path: Path) -> None:
    path.write_bytes(b"")


def bad_magic(path: Path) -> None:  # whole length, but the trailing magic bytes are gone
    data = path.read_bytes()
    path.write_bytes(data[:-4] + b"XXXX")


@pytest.mark.parametrize("table, damage", [
    ("hands", truncate), ("hands", garbage), ("hands", empty), ("hands", bad_magic),
    ("games", truncate), ("games", garbage),
], ids=lambda x: x if isinstance(x, str) else x.__name__)
def test_damaged_block_is_reported_not_lost(capsys, copy, table, damage):
    exp, reference, out = copy
    damaged = out / table / "part-short-rnd-00001.parquet"
    damage(damaged)
    assert_refused_then_restored(capsys, exp, reference, out, damaged)


@pytest.mark.parametrize("source", ["other_seed", "other_block", "other_cell"])
def test_foreign_block_is_reported_not_lost(capsys, copy, tmp_path, source):
    exp, reference, out = copy
    target = out / "hands" / "part-std-rnd-00001.parquet"
    if source == "other_seed":  # the same cell and block of another experiment
        other = write(tmp_path / "other.toml", SMALL.replace("seed = 9", "seed = 10"))
        code, _, stderr = run_cli(capsys, other, tmp_path / "other")
        assert code == 0, stderr
        foreign = tmp_path / "other" / "hands" / target.name
    elif source == "other_block":
        foreign = reference / "hands" / "part-std-rnd-00002.parquet"
    else:
        foreign = reference / "hands" / "part-short-rnd-00001.parquet"
    assert foreign.read_bytes() != target.read_bytes()
    shutil.copyfile(foreign, target)
    assert_refused_then_restored(capsys, exp, reference, out, target)


def test_deleted_blocks_and_stale_temporary_files(capsys, copy):
    exp, reference, out = copy
    for name in ("hands/part-std-rnd-00000.parquet", "games/part-std-rnd-00000.parquet",
                 "hands/part-short-rnd-00002.parquet", "games/part-short-rnd-00002.parquet"):
        (out / name).unlink()
    # what a killed run can leave: a half-written temporary file (and, for a block killed
    # between its two files, a finished games file without its hands file)
    (out / "hands" / ".part-std-rnd-00000.parquet.tmp4242").write_bytes(b"PAR1 half")
    shutil.copyfile(reference / "games" / "part-std-rnd-00000.parquet",
                    out / "games" / "part-std-rnd-00000.parquet")
    kept = {p: p.stat().st_mtime_ns for p in (out / "hands").glob("part-*.parquet")}
    code, _, stderr = run_cli(capsys, exp, out)
    assert code == 0, stderr
    assert files(out) == files(reference)
    for path, mtime in kept.items():
        assert path.stat().st_mtime_ns == mtime, f"finished block {path} was rewritten"


# --- the manifest ------------------------------------------------------------------------------


@pytest.mark.parametrize("content", [b"garbage {", b"", b"\xff\xfe\x00\x01", b"{}", b"[]",
                                     b"null", b'"text"', b"42"],
                         ids=["garbage", "empty", "binary", "object", "list", "null", "string",
                              "number"])
def test_garbage_manifest_is_refused(capsys, copy, content):
    exp, _, out = copy
    (out / "hands" / "part-std-rnd-00001.parquet").unlink()  # work left to do
    (out / "manifest.json").write_bytes(content)
    before = files(out)
    line = one_line_error(*run_cli(capsys, exp, out))
    assert "manifest.json" in line, line
    assert files(out) == before


def test_garbage_manifest_in_a_fresh_folder_is_refused(capsys, small, tmp_path):
    exp, _ = small
    out = tmp_path / "run"
    out.mkdir()
    (out / "manifest.json").write_text("not json at all")
    line = one_line_error(*run_cli(capsys, exp, out))
    assert "manifest.json" in line
    assert files(out) == {"manifest.json": b"not json at all"}


@pytest.mark.parametrize("change", [
    ("seed = 9", "seed = 8"),
    ("games = 6", "games = 8"),
    ("block_size = 2", "block_size = 3"),
    ('rnd = "random"', 'rnd = "seed"'),
    ('short = "spades.short"', 'short = { preset = "spades.short", bag_penalty = 60 }'),
    ('short = "spades.short"', 'short = "spades.short"\nthird = "spades.openspiel"'),
    ('name = "small"', 'name = "renamed"'),
], ids=["seed", "games", "block_size", "lineup", "variant_rules", "added_variant", "name"])
def test_changed_experiment_file_is_refused(capsys, copy, change):
    exp, _, out = copy
    path = write(out.parent / "exp.toml", exp.read_text())  # the same experiment, own file
    code, _, stderr = run_cli(capsys, path, out)
    assert code == 0, stderr  # a finished run: nothing to do
    before = files(out)
    text = path.read_text()
    assert change[0] in text
    path.write_text(text.replace(*change), encoding="utf-8")
    line = one_line_error(*run_cli(capsys, path, out))
    assert str(out) in line and "different experiment" in line, line
    assert files(out) == before
