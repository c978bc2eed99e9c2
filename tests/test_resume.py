"""Interrupted, damaged and contested runs (whistlab/runner.py, sim/folder.py): ``kill -9`` part way
leaves only whole block files (temporary files start with '.'), and the same command finishes the
run with files identical, byte for byte, to an uninterrupted run. A damaged block file (truncated,
a flipped byte), or one from another run, is reported by `run` and by `report` (exit code 2, one
line naming it) and nothing else is touched; once deleted, the block is simulated again,
identically. A folder whose manifest is not a whistlab manifest, that holds another experiment, or
blocks made by other code, is refused; one without any block (a run that failed before its first)
is taken over. Two writers never share a folder, and a report does not read one being written.
Killed during ``--records`` or during ``report``, nothing is left under a final name but whole
files, and the next command removes the temporaries. Workers die with a killed parent.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from sim.folder import code_fingerprint, lock_folder, read_journal, verify_files
from whistlab.cli import main
from whistlab.runner import SAMPLE

WHISTLAB = [shutil.which("whistlab")] if shutil.which("whistlab") else [sys.executable, "-m",
                                                                          "whistlab.cli"]

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
    """Relative path -> bytes of every file in a folder. A file that goes while it is read (a
    running writer's temporary file, renamed into place: `sim.folder`) is left out."""
    out = {}
    for p in sorted(folder.rglob("*")):
        try:
            if p.is_file():
                out[str(p.relative_to(folder))] = p.read_bytes()
        except FileNotFoundError:
            continue
    return out


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


@pytest.fixture(scope="module")
def long_whole(tmp_path_factory):
    """The LONG experiment file and its uninterrupted run (the command's output too)."""
    folder = tmp_path_factory.mktemp("long")
    exp = write(folder / "resume.toml", LONG)
    whole = subprocess.run([*WHISTLAB, "run", str(exp), "--n-jobs", "1", "--quiet", "--out",
                            str(folder / "whole")], capture_output=True, text=True, timeout=120)
    assert whole.returncode == 0, whole.stderr
    assert len(parts(folder / "whole")) == LONG_BLOCKS
    return exp, folder / "whole", whole.stdout


@pytest.mark.slow
@pytest.mark.parametrize("moment", [0, 1, 3, LONG_BLOCKS - 2],
                         ids=["lock_taken", "first_block", "third_block", "next_to_last"])
def test_kill_9_then_rerun_gives_identical_files(tmp_path, long_whole, moment):
    """Killed as soon as the run holds the lock (0 blocks), or after ``moment`` blocks."""
    exp, whole, whole_stdout = long_whole
    killed = tmp_path / "killed"
    command = [*WHISTLAB, "run", str(exp), "--n-jobs", "1", "--quiet"]
    proc = subprocess.Popen([*command, "--out", str(killed)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not (holding(killed) if moment == 0
                   else len(list((killed / "hands").glob("part-*.parquet"))) >= moment):
            assert proc.poll() is None, f"the run ended early: {proc.stderr.read()!r}"
            assert time.monotonic() < deadline, "nothing to see after 60 s"
            time.sleep(0.002)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    done = sorted((killed / "hands").glob("part-*.parquet"))
    assert moment <= len(done) < LONG_BLOCKS, "the run was not interrupted part way"

    # Only whole block files under their own names; anything else is a temporary '.' file.
    for path in killed.rglob("*"):
        if path.is_dir() or path.name.startswith("."):
            continue
        if path.name in ("manifest.json", "journal.jsonl", "lock"):
            continue
        if path.parent.name == "records":  # the sample of records, whole (`SAMPLE` lines)
            assert path.name.startswith("sample-") and path.suffix == ".jsonl", path
            assert [json.loads(line)["hand_no"] for line in path.read_text().splitlines()] \
                == [1] * SAMPLE, path
            continue
        assert path.name.startswith("part-") and path.suffix == ".parquet", path
        table = pq.read_table(path)  # whole: reads, with its footer and metadata
        assert table.num_rows == 5000, path
        assert b"whistlab" in pq.read_schema(path).metadata

    rerun = subprocess.run([*command, "--out", str(killed)], capture_output=True, text=True,
                           timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert rerun.stdout.splitlines()[1:] == whole_stdout.splitlines()[1:]  # the summary

    assert not [p for p in killed.rglob(".*")], "temporary files were left behind"
    got, expected = files(killed), files(whole)
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


def flipped_byte(path: Path) -> None:  # one bit in the middle of the largest column chunk
    chunks = pq.read_metadata(path).row_group(0)
    chunk = max((chunks.column(i) for i in range(chunks.num_columns)),
                key=lambda c: c.total_compressed_size)
    data = bytearray(path.read_bytes())
    data[chunk.data_page_offset + chunk.total_compressed_size // 2] ^= 0x01
    path.write_bytes(bytes(data))
    assert pq.read_metadata(path).num_rows == chunks.num_rows  # the footer reads: only a
    # checksum of the whole file can tell


@pytest.mark.parametrize("table, damage", [
    ("hands", truncate), ("hands", garbage), ("hands", empty), ("hands", bad_magic),
    ("hands", flipped_byte), ("games", truncate), ("games", garbage), ("games", flipped_byte),
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


# --- what `report` makes of damaged, foreign and mixed blocks -----------------------------------


def report_cli(capsys, results: Path, out: Path) -> tuple[int, str, str]:
    code = main(["report", str(results), "--out", str(out)])
    stdout, stderr = capsys.readouterr()
    return code, stdout, stderr


@pytest.mark.parametrize("damage", [flipped_byte, truncate, empty],
                         ids=lambda f: f.__name__)
def test_report_names_a_damaged_block(capsys, copy, tmp_path, damage):
    _, _, out = copy
    damaged = out / "hands" / "part-std-rnd-00002.parquet"
    damage(damaged)
    before = files(out)
    line = one_line_error(*report_cli(capsys, out, tmp_path / "report"))
    assert str(damaged) in line and "journal.jsonl" in line and "delete it" in line, line
    assert files(out) == before
    assert not (tmp_path / "report").exists() and not list(tmp_path.glob(".report*"))


@pytest.mark.parametrize("where", ["in_journal", "not_in_journal"])
def test_report_names_a_foreign_block(capsys, copy, tmp_path, where):
    exp, _, out = copy
    other = write(tmp_path / "other.toml", SMALL.replace("seed = 9", "seed = 10"))
    code, _, stderr = run_cli(capsys, other, tmp_path / "other")
    assert code == 0, stderr
    target = out / "games" / "part-short-rnd-00000.parquet"
    if where == "not_in_journal":  # a file where the journal expects none
        journal = out / "journal.jsonl"
        journal.write_text("".join(line for line in journal.read_text().splitlines(True)
                                   if target.name not in line or "games/" not in line))
    shutil.copyfile(tmp_path / "other" / "games" / target.name, target)
    line = one_line_error(*report_cli(capsys, out, tmp_path / "report"))
    assert str(target) in line, line
    assert ("no checksum" if where == "not_in_journal" else "SHA-256 differs") in line, line
    line = one_line_error(*run_cli(capsys, exp, out))  # and the run refuses it too
    assert str(target) in line and "delete it" in line, line


@pytest.fixture(scope="module")
def other_code(tmp_path_factory):
    """A copy of the package's source with one strategy file changed (a comment: any change of
    the source is a change of the code), and the environment that runs it."""
    root = tmp_path_factory.mktemp("other_code")
    here = Path(__file__).resolve().parents[1]
    for package in ("sim", "strategies", "reports"):
        shutil.copytree(here / package, root / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    changed = sorted((root / "strategies").glob("*.py"))[-1]
    changed.write_text(changed.read_text() + "\n# changed: another version of the code\n")
    env = {**os.environ, "PYTHONPATH": str(root)}
    return root, env


def fingerprint(code=None) -> dict:
    """The fingerprint a process computes with this code, or with ``other_code``."""
    root, env = code or (Path(__file__).resolve().parents[1], None)
    out = subprocess.run([sys.executable, "-c", "import json, sim.folder as f; "
                          "print(json.dumps(f.code_fingerprint()))"], env=env, cwd=root,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_the_code_fingerprint_is_in_the_manifest_and_every_block(small, other_code):
    _, reference = small
    ours = code_fingerprint()
    assert ours == fingerprint() and len(ours["sha256"]) == 64
    assert json.loads((reference / "manifest.json").read_text())["code"] == ours
    for path in reference.glob("*/part-*.parquet"):
        assert json.loads(pq.read_schema(path).metadata[b"whistlab"])["code"] == ours, path
    entries = [json.loads(line) for line in (reference / "journal.jsonl").read_text().split()]
    samples = [f"records/{p.name}" for p in (reference / "records").glob("sample-*.jsonl")]
    assert len(samples) == 2  # one per cell (`whistlab.runner.SAMPLE`)
    assert sorted(e["file"] for e in entries) == sorted([*parts(reference), *samples])
    assert all(e["code"] == ours for e in entries)
    assert (reference / "lock").read_bytes() == b""  # no writer now
    theirs = fingerprint(other_code)
    assert theirs["whistlab"] == ours["whistlab"] and theirs["sha256"] != ours["sha256"]


def test_resume_with_changed_code_is_refused(capsys, copy, other_code):
    exp, _, out = copy
    (out / "hands" / "part-std-rnd-00002.parquet").unlink()  # work left to do
    before = files(out)
    run = subprocess.run([*WHISTLAB, "run", str(exp), "--out", str(out), "--n-jobs", "1",
                          "--quiet"], env=other_code[1], cwd=other_code[0], capture_output=True,
                         text=True, timeout=120)
    line = one_line_error(run.returncode, run.stdout, run.stderr)
    ours = code_fingerprint()["sha256"][:12]
    assert str(out) in line and "other code" in line and ours in line, line
    assert "another --out folder or delete this one" in line, line
    assert files(out) == before
    assert run_cli(capsys, exp, out)[0] == 0  # the code that made it resumes it


@pytest.mark.slow
def test_report_warns_about_blocks_of_mixed_code(capsys, copy, tmp_path, other_code):
    exp, reference, out = copy
    theirs = tmp_path / "theirs"
    run = subprocess.run([*WHISTLAB, "run", str(exp), "--out", str(theirs), "--n-jobs", "1",
                          "--quiet"], env=other_code[1], cwd=other_code[0], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    # a folder put together by hand: one block, and its journal lines, from the other code
    swapped = ("hands/part-std-rnd-00001.parquet", "games/part-std-rnd-00001.parquet")
    lines = {json.loads(line)["file"]: line
             for path in (out, theirs) for line in (path / "journal.jsonl").read_text().split()
             if (path == theirs) == (json.loads(line)["file"] in swapped)}
    for name in swapped:
        shutil.copyfile(theirs / name, out / name)
    (out / "journal.jsonl").write_text("".join(lines[f] + "\n" for f in sorted(lines)))
    code, stdout, stderr = report_cli(capsys, out, tmp_path / "report")
    assert code == 0, stderr
    (warning,) = stderr.splitlines()
    assert warning.startswith("whistlab: warning: ") and "2 versions of the code" in warning
    assert code_fingerprint()["sha256"][:12] in warning
    page = (tmp_path / "report" / "index.html").read_text()
    assert "2 versions of the code" in page
    assert "2 versions of the code" in (tmp_path / "report" / "summary.md").read_text()
    code, stdout, stderr = report_cli(capsys, reference, tmp_path / "clean")
    assert code == 0 and stderr == "", stderr  # one code: no warning


# --- a run that failed before its first block --------------------------------------------------


def test_a_folder_without_blocks_is_taken_over(capsys, small, tmp_path, monkeypatch):
    exp, reference = small
    out = tmp_path / "run"
    wrong = write(tmp_path / "wrong.toml", SMALL.replace("seed = 9", "seed = 1"))

    def out_of_memory(*args, **kwargs):
        raise MemoryError

    with monkeypatch.context() as patch:
        patch.setattr("whistlab.runner.run_blocks", out_of_memory)
        with pytest.raises(MemoryError):  # a crash, not a user error: it shows its traceback
            run_cli(capsys, wrong, out)
    capsys.readouterr()
    assert sorted(files(out)) == ["journal.jsonl", "lock", "manifest.json"]  # and no block
    assert json.loads((out / "manifest.json").read_text())["experiment"]["seed"] == 1
    code, _, stderr = run_cli(capsys, exp, out)  # the corrected command
    assert code == 0, stderr
    assert files(out) == files(reference)


def test_a_folder_with_a_block_is_not_taken_over(capsys, copy, tmp_path):
    _, _, out = copy
    for path in [*out.glob("*/part-*")][1:]:
        path.unlink()
    assert len(parts(out)) == 1
    other = write(tmp_path / "other.toml", SMALL.replace("seed = 9", "seed = 1"))
    before = files(out)
    line = one_line_error(*run_cli(capsys, other, out))
    assert "different experiment" in line, line
    assert files(out) == before


@pytest.mark.slow
def test_an_unreachable_scheduler_leaves_nothing(capsys, small, tmp_path):
    pytest.importorskip("distributed")
    exp, _ = small
    out = tmp_path / "run"
    started = time.monotonic()
    line = one_line_error(*run_cli(capsys, exp, out, "--backend", "dask", "--scheduler",
                                   "tcp://127.0.0.1:1"))
    assert time.monotonic() - started < 20  # CONNECT_SECONDS = 5, and the imports
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1 within 5 s" in line, line
    assert not out.exists()


# --- paths the run owns ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["manifest.json", "journal.jsonl", "lock", "hands/x.jsonl",
                                  "games/part-std-rnd-00000.parquet",
                                  "records/part-std-rnd-00000.jsonl"])
def test_records_inside_what_the_run_owns_is_refused(capsys, copy, name):
    exp, _, out = copy
    (out / "hands" / "part-std-rnd-00002.parquet").unlink()  # work left to do
    before = files(out)
    line = one_line_error(*run_cli(capsys, exp, out, "--records", str(out / name)))
    assert line.startswith("whistlab: error: --records: ") and str(out / name) in line, line
    assert "results folder" in line, line
    assert files(out) == before


def test_records_beside_the_tables_is_allowed(capsys, small, tmp_path):
    exp, reference = small
    out = tmp_path / "run"
    code, _, stderr = run_cli(capsys, exp, out, "--records", str(out / "all.jsonl"))
    assert code == 0, stderr
    assert (out / "all.jsonl").stat().st_size > 0


@pytest.mark.parametrize("name", ["hands", "records/report", "yardstick", "manifest.json"])
def test_report_inside_what_the_run_owns_is_refused(capsys, copy, name):
    _, _, out = copy
    before = files(out)
    line = one_line_error(*report_cli(capsys, out, out / name))
    assert line.startswith("whistlab: error: --out: ") and str(out / name) in line, line
    assert files(out) == before


# --- one writer at a time ----------------------------------------------------------------------


def start(command: list[str], env=None) -> subprocess.Popen:
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)


def wait_for(condition, proc: subprocess.Popen, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert proc.poll() is None, f"the run ended early: {proc.communicate()}"
        assert time.monotonic() < deadline, f"no {what} after {seconds} s"
        time.sleep(0.005)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.communicate()


def holding(folder: Path) -> bool:
    """Whether a writer has taken the folder's lock and named itself in it."""
    try:
        return (folder / "lock").read_text().endswith("\n")
    except FileNotFoundError:
        return False


def readers_refused(out: Path, tmp_path: Path) -> list[str]:
    """The one-line errors of `report` and `yardstick` asked to read the folder ``out``."""
    lines = []
    for reader in (["report", str(out), "--out", str(tmp_path / "report")],
                   ["yardstick", str(out), "--sample", "1", "--quiet"]):
        refused = subprocess.run([*WHISTLAB, *reader], capture_output=True, text=True,
                                 timeout=60)
        lines.append(one_line_error(refused.returncode, refused.stdout, refused.stderr))
    return lines


@pytest.mark.slow
def test_a_second_writer_is_refused_naming_the_first(tmp_path):
    exp = write(tmp_path / "long.toml", LONG.replace("hands = 200000", "hands = 2000000"))
    out = tmp_path / "run"
    command = [*WHISTLAB, "run", str(exp), "--out", str(out), "--n-jobs", "1", "--quiet"]
    first = start(command)  # about 400 blocks: busy for the whole test
    try:
        wait_for(lambda: holding(out), first, "lock")
        second = subprocess.run(command, capture_output=True, text=True, timeout=60)
        line = one_line_error(second.returncode, second.stdout, second.stderr)
        assert str(out) in line and f"whistlab run (pid {first.pid} on " in line, line
        assert socket.gethostname() in line and ", started 20" in line, line
        assert "wait for it to finish, or choose another --out folder" in line, line
        wait_for(lambda: parts(out), first, "block file")
        for line in readers_refused(out, tmp_path):
            assert f"is being written by whistlab run (pid {first.pid} " in line, line
        assert first.poll() is None, "the first run ended before the test did"
    finally:
        stop(first)
    assert not (tmp_path / "report").exists() and not (out / "yardstick").exists()
    # only the first run's blocks (and its sample of records), each as the journal has it
    samples = {f"records/{p.name}" for p in (out / "records").glob("sample-*.jsonl")}
    assert set(verify_files(out, read_journal(out))) == {*parts(out), *samples}


@pytest.mark.slow
def test_writers_started_together_one_wins(tmp_path):
    """Two runs into the same new folder at the same moment, a few times over: exactly one
    runs, the other is refused, and the folder is that of one uninterrupted run."""
    exp = write(tmp_path / "small.toml", SMALL)
    whole = tmp_path / "whole"
    assert main(["run", str(exp), "--out", str(whole), "--n-jobs", "1", "--quiet"]) == 0
    other = write(tmp_path / "other.toml", SMALL.replace("seed = 9", "seed = 10"))
    for attempt in range(4):
        out = tmp_path / f"race{attempt}"
        procs = [start([*WHISTLAB, "run", str(e), "--out", str(out), "--n-jobs", "1", "--quiet"])
                 for e in (exp, other)]
        results = [(p.wait(timeout=120), *p.communicate()) for p in procs]
        codes = sorted(code for code, _, _ in results)
        assert codes == [0, 2], results
        winner = [e for e, (code, _, _) in zip((exp, other), results, strict=True) if code == 0]
        loser = next(r for r in results if r[0] == 2)
        line = one_line_error(*loser)
        assert ("is being written by" in line or "different experiment" in line), line
        if winner == [exp]:
            assert files(out) == files(whole)
        else:
            assert json.loads((out / "manifest.json").read_text())["experiment"]["seed"] == 10
            assert len(parts(out)) == len(parts(whole))


def test_report_and_yardstick_are_refused_while_a_writer_holds_the_folder(copy, tmp_path):
    _, _, out = copy
    before = files(out)
    with lock_folder(out, "run"):  # as `whistlab run` holds it while it writes
        for line in readers_refused(out, tmp_path):
            assert f"is being written by whistlab run (pid {os.getpid()} on " in line, line
            assert "when that has finished" in line, line
    assert not (tmp_path / "report").exists()
    assert files(out) == before


def test_a_run_is_refused_while_a_report_reads(capsys, copy):
    exp, _, out = copy
    (out / "hands" / "part-std-rnd-00002.parquet").unlink()
    before = files(out)
    with lock_folder(out, "report", shared=True):  # as `whistlab report` does while it reads
        run = subprocess.run([*WHISTLAB, "run", str(exp), "--out", str(out), "--n-jobs", "1",
                              "--quiet"], capture_output=True, text=True, timeout=60)
    line = one_line_error(run.returncode, run.stdout, run.stderr)
    assert "is being read by another whistlab process" in line, line
    assert files(out) == before


# --- kill -9 during --records and during report -----------------------------------------------

RECORDS = """\
    name = "rec"
    rules = "spades.standard"
    strategy = "random"
    hands = 8000
    seed = 5
    block_size = 1000
"""


def kill_when(command: list[str], condition, attempts: int = 5) -> None:
    """Start ``command`` and ``kill -9`` it as soon as ``condition()`` holds; tried again
    (``attempts``) when the command finished before it was seen."""
    for _ in range(attempts):
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while proc.poll() is None and not condition():
                time.sleep(0.001)
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
                assert proc.wait(timeout=30) == -signal.SIGKILL
                return
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    pytest.fail(f"the command always finished before the moment to kill it: {command}")


@pytest.mark.slow
def test_kill_9_while_writing_records(tmp_path):
    exp = write(tmp_path / "rec.toml", RECORDS)
    target, out = tmp_path / "hands.jsonl", tmp_path / "run"
    command = [*WHISTLAB, "run", str(exp), "--out", str(out), "--n-jobs", "1", "--quiet",
               "--records", str(target)]
    kill_when(command, lambda: any(tmp_path.glob(".hands.jsonl.tmp*")))
    assert not target.exists(), "a part of the records under the final name"
    (stale,) = tmp_path.glob(".hands.jsonl.tmp*")
    rerun = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert not stale.exists() and not list(tmp_path.rglob(".*"))
    whole = tmp_path / "whole.jsonl"
    main(["run", str(exp), "--out", str(tmp_path / "w"), "--n-jobs", "1", "--quiet",
          "--records", str(whole)])
    assert target.read_bytes() == whole.read_bytes()
    assert len(target.read_bytes().splitlines()) == 8000


@pytest.mark.slow
def test_kill_9_while_writing_a_report(tmp_path, small):
    _, reference = small
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    report = out / "report"
    command = [*WHISTLAB, "report", str(out)]
    kill_when(command, lambda: any(out.glob(".report.tmp*/tables/*.csv")))
    assert not report.exists(), "a report folder before the report was whole"
    (stale,) = out.glob(".report.tmp*")
    rerun = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert not stale.exists() and not list(out.rglob(".*"))
    first = files(report)
    # killed again while replacing that report: every file is whole, old or new
    kill_when(command, lambda: any(out.glob(".report.tmp*/figures/*.png")))
    assert files(report) == first
    rerun = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0 and not list(out.rglob(".*")), rerun.stderr
    assert files(report).keys() == first.keys()


def test_stale_temporaries_of_the_manifest_and_journal_are_removed(capsys, copy):
    exp, reference, out = copy
    for name in (".manifest.json.tmp4242", ".journal.jsonl.tmp4242", "hands/.x.parquet.tmp1",
                 ".yardstick.tmp77", ".report.tmp5"):
        path = out / name
        if "yardstick" in name or "report" in name:
            path.mkdir()
            (path / "half.csv").write_text("a,b\n1,")
        else:
            path.write_bytes(b"{half")
    code, _, stderr = run_cli(capsys, exp, out)
    assert code == 0, stderr
    assert files(out) == files(reference) and not list(out.rglob(".*"))


def test_a_journal_line_cut_short_is_forgotten(capsys, copy):
    exp, reference, out = copy
    (out / "hands" / "part-short-rnd-00001.parquet").unlink()
    with open(out / "journal.jsonl", "a") as journal:  # kill -9 in the middle of an append
        journal.write('{"file":"hands/part-short-rnd-00001.parquet","sha256":"ab')
    code, _, stderr = run_cli(capsys, exp, out)
    assert code == 0, stderr
    assert files(out) == files(reference)


def test_a_damaged_journal_line_is_refused(capsys, copy):
    exp, _, out = copy
    (out / "hands" / "part-short-rnd-00001.parquet").unlink()
    lines = (out / "journal.jsonl").read_text().splitlines(True)
    lines[2] = "garbage\n"
    (out / "journal.jsonl").write_text("".join(lines))
    before = files(out)
    line = one_line_error(*run_cli(capsys, exp, out))
    assert "journal.jsonl, line 3: is damaged" in line, line
    assert files(out) == before


# --- workers die with their parent --------------------------------------------------------------


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    kids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(entry.name))
    return kids


def _alive(pid: int, started: str) -> bool:
    """Whether process ``pid`` (started at ``started``, its /proc start time) still runs."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z" and fields[19] == started


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_workers_die_with_a_killed_parent(tmp_path):
    exp = write(tmp_path / "resume.toml", LONG)
    out = tmp_path / "run"
    proc = subprocess.Popen([*WHISTLAB, "run", str(exp), "--out", str(out), "--n-jobs", "2",
                             "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: len(parts(out)) >= 2, proc, "block files")
        family, todo = {}, [proc.pid]
        while todo:  # every descendant: the workers, the resource trackers
            for kid in _children(todo.pop()):
                with contextlib.suppress(OSError):
                    family[kid] = Path(f"/proc/{kid}/stat").read_text().rsplit(
                        ")", 1)[1].split()[19]
                todo.append(kid)
        assert len(family) >= 2, "no worker processes to watch"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    deadline = time.monotonic() + 5
    while any(_alive(p, t) for p, t in family.items()) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [p for p, t in family.items() if _alive(p, t)]
    assert not left, f"still alive 5 s after their parent was killed: {left}"
