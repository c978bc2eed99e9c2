"""Every run writes a sample of hand records (issue 22 item 4; `whistlab.runner.SAMPLE`): each
cell's ``records/sample-<cell>.jsonl`` holds the records of the first hands of its block 0, the
same whatever ``n_jobs``; it changes no table; it is journaled and verified like a block file,
restored when deleted, refused by name when damaged, and removed when its block 0 is not done."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

import whistlab.runner as runner
from sim.errors import UserError
from sim.folder import read_journal
from whistlab.experiment import build_experiment
from whistlab.runner import SAMPLE, run_experiment, sample_path

GAMES = {"name": "sample", "games": 40, "seed": 5, "block_size": 20,
         "variants": {"std": "spades.standard", "short": "spades.short"},
         "lineups": {"seed": "seed"}}
HANDS = {"name": "sample", "rules": "spades.standard", "strategy": "random", "hands": 300,
         "seed": 5, "block_size": 100}


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def tables(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.glob("*/part-*.parquet"))}


@pytest.fixture(scope="module")
def games_run(tmp_path_factory):
    """A whole-games run with every record (``records=True``) and its experiment."""
    exp = build_experiment(GAMES)
    out = tmp_path_factory.mktemp("games") / "run"
    run_experiment(exp, out, n_jobs=1, records=True)
    return exp, out


@pytest.mark.parametrize("mode", ["games", "hands"])
def test_the_sample_is_the_first_hands_of_block_0(games_run, tmp_path, mode):
    if mode == "games":
        exp, out = games_run
    else:
        exp = build_experiment(HANDS)
        out = tmp_path / "run"
        run_experiment(exp, out, n_jobs=1, records=True)
    for cell in exp.cells:
        every = (out / "records" / f"part-{cell.key}-00000.jsonl").read_text().splitlines()
        sample = sample_path(out, cell).read_text().splitlines()
        assert len(every) > SAMPLE and sample == every[:SAMPLE], cell.key
        keys = [(r["game_id"], r["hand_no"]) for r in map(json.loads, sample)]
        assert keys == sorted(keys) and keys[-1][0] < exp.block_size
        if mode == "hands":
            assert keys == [(g, 1) for g in range(SAMPLE)]
        else:  # whole games from the first: game 0 hand 1, 2, ...
            assert keys[0] == (0, 1) and len({g for g, _ in keys}) > 1


def test_a_default_run_writes_it_and_journals_it(games_run, tmp_path):
    """Without ``records``: only the samples in records/, the same bytes, in the journal."""
    exp, reference = games_run
    out = tmp_path / "run"
    run_experiment(exp, out, n_jobs=2)
    assert sorted(p.name for p in (out / "records").iterdir()) == sorted(
        sample_path(out, c).name for c in exp.cells)
    journal = read_journal(out)
    for cell in exp.cells:
        data = sample_path(out, cell).read_bytes()
        assert data == sample_path(reference, cell).read_bytes()  # n_jobs 2 against 1
        entry = journal[f"records/sample-{cell.key}.jsonl"]
        assert entry["sha256"] == hashlib.sha256(data).hexdigest() and entry["bytes"] == len(data)
    assert tables(out) == tables(reference)


def test_the_tables_do_not_depend_on_the_sample(games_run, tmp_path, monkeypatch):
    exp, reference = games_run
    monkeypatch.setattr(runner, "SAMPLE", 0)
    out = tmp_path / "run"
    run_experiment(exp, out, n_jobs=1)
    assert all(sample_path(out, c).read_bytes() == b"" for c in exp.cells)
    assert tables(out) == tables(reference)


def copy_of(reference: Path, out: Path) -> Path:
    shutil.copytree(reference, out, ignore=shutil.ignore_patterns("lock"))
    return out


def test_a_deleted_sample_is_restored_and_only_block_0_played_again(games_run, tmp_path):
    exp, reference = games_run
    out = copy_of(reference, tmp_path / "run")
    cell = exp.cells[1]
    sample_path(out, cell).unlink()
    kept = {p: p.stat().st_mtime_ns for p in out.glob("*/part-*.parquet")}
    run_experiment(exp, out, n_jobs=1)
    assert sample_path(out, cell).read_bytes() == sample_path(reference, cell).read_bytes()
    rewritten = {p.name for p, t in kept.items() if p.stat().st_mtime_ns != t}
    assert rewritten == {f"part-{cell.key}-00000.parquet"}  # its hands and games files


@pytest.mark.parametrize("damage", ["changed", "foreign"])
def test_a_damaged_sample_is_refused_by_name(games_run, tmp_path, damage):
    exp, reference = games_run
    out = copy_of(reference, tmp_path / "run")
    path = sample_path(out, exp.cells[0])
    if damage == "changed":
        path.write_bytes(path.read_bytes().replace(b'"hand_no":1,', b'"hand_no":9,', 1))
    else:  # a sample of a cell this experiment does not have, not in the journal
        path = path.with_name("sample-other-seed.jsonl")
        path.write_bytes(sample_path(out, exp.cells[1]).read_bytes())
    with pytest.raises(UserError) as err:
        run_experiment(exp, out, n_jobs=1)
    assert str(path) in str(err.value)
    path.unlink()
    run_experiment(exp, out, n_jobs=1)
    assert sample_path(out, exp.cells[0]).read_bytes() == \
        sample_path(reference, exp.cells[0]).read_bytes()


def test_the_sample_of_a_block_0_not_done_is_removed(games_run, tmp_path, monkeypatch):
    """What a run killed between block 0's renames leaves: its sample without its hands file.
    The next run removes it before playing anything (here it fails at once)."""
    exp, reference = games_run
    out = copy_of(reference, tmp_path / "run")
    cell = exp.cells[0]
    (out / "hands" / f"part-{cell.key}-00000.parquet").unlink()
    assert sample_path(out, cell).exists()

    def broken(*args, **kwargs):
        raise RuntimeError("no block today")
        yield

    monkeypatch.setattr(runner, "run_blocks", broken)
    with pytest.raises(RuntimeError):
        run_experiment(exp, out, n_jobs=1)
    assert not sample_path(out, cell).exists()
    assert sample_path(out, exp.cells[1]).exists()  # block 0 of the other cell is done
    monkeypatch.undo()
    run_experiment(exp, out, n_jobs=1)
    assert sample_path(out, cell).read_bytes() == sample_path(reference, cell).read_bytes()
