"""Writes that fail (issue 17 §4): a read-only folder or a full disk ends every command that writes
(`run`, `--records`, `report`, `replay --out`, `yardstick`, `tune`) in one line naming the file and
the operating system's error, exit code 2, with no temporary file left and nothing half-written
under a final name (sim/files.py).

The failures are real where the machine allows it: a full disk is a tmpfs of a few hundred KiB,
and a read-only folder a tmpfs mounted read-only (as root, which ``chmod`` does not stop), or a
folder without write permission (``chmod 555``) for other users. Where a tmpfs cannot be mounted
those tests are skipped; the in-process tests below them make the same failures by raising
``OSError(ENOSPC)`` / ``OSError(EROFS)`` from the write itself (monkeypatch), and always run.
"""

from __future__ import annotations

import errno
import importlib.util
import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import polars as pl
import pytest

from sim.folder import read_journal, verify_files
from whistlab.cli import main

SMALL = """\
    name = "small"
    games = 6
    seed = 9
    block_size = 2
    [variants]
    std = "spades.standard"
    [lineups]
    rnd = "random"
"""
# about 2.4 MB of blocks (~60 KB each): more than the full disk holds
BIG = """\
    name = "big"
    rules = "spades.standard"
    strategy = "random"
    hands = 40000
    seed = 3
    block_size = 1000
"""
TUNE = """\
    name = "tiny"
    rules = "spades.standard"
    strategy = "seed"
    seed = 2
    [parameters]
    bid_round = [1.5, 5.0]
    [search]
    rounds = 1
    population = 4
    hands = 200
    holdout_hands = 400
"""
FULL = "[Errno 28] No space left on device"


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def one_line_error(capsys, argv: list) -> str:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 2, f"exit code {code}; stderr: {err!r}"
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("whistlab: error: "), err
    assert "Traceback" not in err and out == ""
    return lines[0]


def fill(disk: Path, leave: int = 4096) -> None:
    """Fill ``disk`` but for ``leave`` bytes."""
    room = os.statvfs(disk)
    (disk / "filler").write_bytes(b"\0" * (room.f_bavail * room.f_frsize - leave))


def hidden(folder: Path) -> list[Path]:
    """Temporary files and folders ('.' names) anywhere under ``folder``."""
    return [p for p in folder.rglob(".*")]


# --- real failures: a full tmpfs, a read-only folder ---------------------------------------------


def _mount(where: Path, options: str) -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
                          capture_output=True)
    return done.returncode == 0


def _umount(where: Path) -> None:
    subprocess.run(["umount", "-l", str(where)], capture_output=True)


@pytest.fixture
def full_disk(tmp_path):
    """An empty folder on a filesystem of 384 KiB."""
    where = tmp_path / "full"
    where.mkdir()
    if not _mount(where, "size=384k"):
        pytest.skip("a small tmpfs needs root and mount")
    yield where
    _umount(where)


@pytest.fixture
def read_only(tmp_path):
    """``make(source=None)``: a read-only folder, holding a copy of ``source`` if given."""
    mounted = []

    def make(source: Path | None = None) -> Path:
        where = tmp_path / f"ro{len(mounted)}"
        where.mkdir()
        if os.geteuid() != 0:  # permissions stop other users
            if source is not None:
                shutil.copytree(source, where / source.name)
            for path in [where, *where.rglob("*")]:
                if path.is_dir():
                    path.chmod(0o555)
            mounted.append(("chmod", where))
            return where
        if not _mount(where, "size=16m"):
            pytest.skip("a read-only tmpfs needs mount")
        mounted.append(("mount", where))
        if source is not None:
            shutil.copytree(source, where / source.name)
        assert subprocess.run(["mount", "-o", "remount,ro", str(where)]).returncode == 0
        return where

    yield make
    for kind, where in mounted:
        if kind == "mount":
            _umount(where)
        else:
            for path in [where, *where.rglob("*")]:
                if path.is_dir():
                    path.chmod(0o755)


def read_only_error() -> str:
    return "[Errno 30] Read-only file system" if os.geteuid() == 0 else "[Errno 13] Permission"


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished run of SMALL (its experiment file beside it) and its records file."""
    where = tmp_path_factory.mktemp("finished")
    exp, folder, records = write(where / "small.toml", SMALL), where / "run", where / "h.jsonl"
    assert main(["run", str(exp), "--out", str(folder), "--n-jobs", "1", "--quiet",
                 "--records", str(records)]) == 0
    return folder, records


@pytest.mark.parametrize("n_jobs", ["1", "2"])
def test_run_onto_a_full_disk(capsys, tmp_path, full_disk, n_jobs):
    exp = write(tmp_path / "big.toml", BIG)
    out = full_disk / "run"
    line = one_line_error(capsys, ["run", exp, "--out", out, "--n-jobs", n_jobs, "--quiet"])
    assert line.startswith(f"whistlab: error: cannot write {out}/") and line.endswith(FULL), line
    assert not hidden(full_disk), "temporaries left behind"
    done = verify_files(out, read_journal(out))  # what was written is whole and journaled
    assert 0 < len(done) < 40


def test_records_onto_a_full_disk(capsys, tmp_path, full_disk):
    exp = write(tmp_path / "small.toml", 'games = 6\nseed = 9\nblock_size = 2\n'
                'strategy = "random"\n')
    fill(full_disk)  # less room than the records need
    target = full_disk / "hands.jsonl"
    line = one_line_error(capsys, ["run", exp, "--out", tmp_path / "run", "--n-jobs", "1",
                                   "--quiet", "--records", target])
    assert line == f"whistlab: error: cannot write {target}: {FULL}", line
    assert not target.exists() and not hidden(full_disk)


def test_report_onto_a_full_disk(capsys, finished, full_disk):
    folder, _ = finished
    fill(full_disk, leave=32 * 1024)  # less room than the report needs (its figures alone)
    out = full_disk / "report"
    line = one_line_error(capsys, ["report", folder, "--out", out])
    assert line.startswith(f"whistlab: error: cannot write {out}") and line.endswith(FULL), line
    assert not out.exists() and not hidden(full_disk)


def test_replay_onto_a_full_disk(capsys, finished, full_disk):
    _, records = finished
    fill(full_disk)
    target = full_disk / "scored.jsonl"
    line = one_line_error(capsys, ["replay", records, "--out", target])
    assert line == f"whistlab: error: cannot write {target}: {FULL}", line
    assert not target.exists() and not hidden(full_disk)


def test_yardstick_onto_a_full_disk(capsys, finished, full_disk):
    pytest.importorskip("endplay")
    folder, _ = finished
    run = full_disk / "run"
    shutil.copytree(folder, run)
    fill(full_disk, 8192)
    line = one_line_error(capsys, ["yardstick", run, "--sample", "20", "--n-jobs", "1",
                                   "--quiet"])
    assert line.startswith(f"whistlab: error: cannot write {run}/yardstick"), line
    assert line.endswith(FULL), line
    assert not (run / "yardstick").exists() and not hidden(full_disk)


def test_tune_onto_a_full_disk(capsys, tmp_path, full_disk):
    tune = write(tmp_path / "tune.toml", TUNE)
    fill(full_disk)
    out = full_disk / "tuned"
    line = one_line_error(capsys, ["tune", tune, "--out", out, "--n-jobs", "1", "--quiet"])
    assert line.startswith(f"whistlab: error: cannot write {out}/") and line.endswith(FULL), line
    assert not hidden(full_disk)


def test_run_into_a_read_only_folder(capsys, tmp_path, read_only):
    exp = write(tmp_path / "big.toml", BIG)
    where = read_only()
    out = where / "run"
    line = one_line_error(capsys, ["run", exp, "--out", out, "--n-jobs", "1", "--quiet"])
    assert line.startswith(f"whistlab: error: cannot write {out}: {read_only_error()}"), line
    assert not out.exists()


def test_resume_in_a_read_only_folder(capsys, finished, tmp_path, read_only):
    folder, _ = finished
    copy = tmp_path / "run"
    shutil.copytree(folder, copy)
    (copy / "hands" / "part-std-rnd-00001.parquet").unlink()
    (copy / "lock").unlink()  # a folder of a whistlab before the lock: it must be made
    where = read_only(copy)
    exp = folder.parent / "small.toml"
    out = where / "run"
    line = one_line_error(capsys, ["run", exp, "--out", out, "--n-jobs", "1", "--quiet"])
    assert line.startswith(f"whistlab: error: cannot write {out}/lock: {read_only_error()}")


def test_report_of_a_read_only_folder_elsewhere_works(capsys, finished, tmp_path, read_only):
    folder, _ = finished
    where = read_only(folder)
    assert main(["report", str(where / "run"), "--out", str(tmp_path / "report")]) == 0
    assert (tmp_path / "report" / "index.html").stat().st_size > 0
    capsys.readouterr()
    line = one_line_error(capsys, ["report", where / "run"])  # its default: inside the folder
    assert line.startswith(f"whistlab: error: cannot write {where / 'run' / 'report'}"), line
    assert read_only_error() in line


def test_replay_yardstick_and_tune_into_a_read_only_folder(capsys, finished, tmp_path,
                                                            read_only):
    folder, records = finished
    where = read_only(folder)
    line = one_line_error(capsys, ["replay", records, "--out", where / "scored.jsonl"])
    assert line == (f"whistlab: error: cannot write {where / 'scored.jsonl'}: "
                    f"{read_only_error()}"), line
    if importlib.util.find_spec("endplay"):
        line = one_line_error(capsys, ["yardstick", where / "run", "--sample", "5", "--quiet",
                                       "--n-jobs", "1"])
        assert line.startswith(f"whistlab: error: cannot write {where / 'run'}"), line
    tune = write(tmp_path / "tune.toml", TUNE)
    line = one_line_error(capsys, ["tune", tune, "--out", where / "tuned", "--n-jobs", "1",
                                   "--quiet"])
    assert line.startswith(f"whistlab: error: cannot write {where / 'tuned'}"), line


# --- the same failures made in-process (any machine) ---------------------------------------------


def no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_block_write_fails(capsys, tmp_path, monkeypatch):
    exp = write(tmp_path / "big.toml", BIG)
    out = tmp_path / "run"
    writes = []
    real = Path.write_bytes

    def third_fails(self, data):  # the third block's: block 0 writes its sample and hands
        writes.append(self)
        if len(writes) == 4:
            real(self, data[: len(data) // 2])  # a part written, then the disk is full
            no_space()
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", third_fails)
    line = one_line_error(capsys, ["run", exp, "--out", out, "--n-jobs", "1", "--quiet"])
    assert line == (f"whistlab: error: cannot write {out}/hands/part-spades.standard-random-"
                    f"00002.parquet: {FULL}"), line
    assert not hidden(out)
    assert sorted(verify_files(out, read_journal(out))) == [
        *(f"hands/part-spades.standard-random-0000{b}.parquet" for b in (0, 1)),
        "records/sample-spades.standard-random.jsonl"]
    monkeypatch.undo()
    assert main(["run", str(exp), "--out", str(out), "--n-jobs", "1", "--quiet"]) == 0


def test_report_write_fails_as_polars_says_it(capsys, tmp_path, monkeypatch):
    folder = tmp_path / "run"
    assert main(["run", str(write(tmp_path / "small.toml", SMALL)), "--out", str(folder),
                 "--n-jobs", "1", "--quiet"]) == 0
    capsys.readouterr()

    def polars_full(self, path, *args, **kwargs):  # polars' OSError has no errno
        raise OSError("No space left on device (os error 28)")

    monkeypatch.setattr(pl.DataFrame, "write_csv", polars_full)
    out = tmp_path / "report"
    line = one_line_error(capsys, ["report", folder, "--out", out])
    assert line.startswith(f"whistlab: error: cannot write {out}/tables/") and \
        line.endswith(f".csv: {FULL}"), line
    assert not out.exists() and not hidden(tmp_path)


def test_records_rename_fails(capsys, tmp_path, monkeypatch):
    exp = write(tmp_path / "small.toml", 'games = 6\nseed = 9\nblock_size = 2\n'
                'strategy = "random"\n')
    target = tmp_path / "hands.jsonl"
    real = Path.replace

    def read_only_target(self, other):
        if Path(other) == target:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real(self, other)

    monkeypatch.setattr(Path, "replace", read_only_target)
    line = one_line_error(capsys, ["run", exp, "--out", tmp_path / "run", "--n-jobs", "1",
                                   "--quiet", "--records", target])
    assert line == f"whistlab: error: cannot write {target}: [Errno 30] Read-only file system"
    assert not target.exists() and not hidden(tmp_path)


def test_an_os_error_no_command_expected_is_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("whistlab.cli.cmd_presets", lambda args: open(tmp_path / "x" / "y", "w"))
    line = one_line_error(capsys, ["presets"])
    assert line == f"whistlab: error: {tmp_path / 'x' / 'y'}: [Errno 2] No such file or directory"
