"""The Dask backend (whistlab/runner.py ``backend="dask"``): blocks run on a real distributed cluster
(separate worker processes) give Parquet files identical, byte for byte, to a serial run — on a
cluster given by its scheduler address, on a local cluster the runner starts itself, and from the
command line (``--backend dask --scheduler ADDRESS``). ``--scheduler`` without ``--backend dask``
is a one-line error (exit code 2)."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("distributed")  # a guard only: dask[distributed] is in the test extra

from distributed import LocalCluster  # noqa: E402

from whistlab.cli import main  # noqa: E402
from whistlab.experiment import build_experiment  # noqa: E402
from whistlab.runner import run_experiment  # noqa: E402

GAMES = {"name": "dask_games", "games": 8, "seed": 4, "block_size": 2,
         "lineups": {"rnd": "random", "duel": {"sides": ["seed", "random"]}}}
HANDS = {"name": "dask_hands", "hands": 3000, "seed": 5, "block_size": 500,
         "variants": {"std": "spades.standard", "short": "spades.short"},
         "lineups": {"duel": {"sides": ["seed", "random"], "swap": True}}}


def files(folder: Path, pattern: str = "*/part-*") -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.glob(pattern))}


def assert_identical(a: Path, b: Path, pattern: str = "*/part-*") -> None:
    got, expected = files(a, pattern), files(b, pattern)
    assert expected, f"no part files in {b}"
    assert list(got) == list(expected)
    for name in expected:
        assert got[name] == expected[name], f"{name} differs"
    assert (a / "manifest.json").read_bytes() == (b / "manifest.json").read_bytes()
    assert not list(a.rglob(".*")), "temporary files left behind"


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    """Serial reference runs (joblib, one process) of both experiments."""
    out = {}
    for name, table in (("games", GAMES), ("hands", HANDS)):
        out[name] = run_experiment(build_experiment(table), tmp_path_factory.mktemp(name),
                                   n_jobs=1)
    return out


@pytest.mark.parametrize("mode", ["games", "hands"])
def test_cluster_gives_identical_files(cluster, serial, tmp_path, mode):
    exp = build_experiment(GAMES if mode == "games" else HANDS)
    out = run_experiment(exp, tmp_path / "dask", backend="dask",
                         scheduler=cluster.scheduler_address)
    assert_identical(out, serial[mode])
    n_files = len(exp.cells) * exp.n_blocks * (2 if mode == "games" else 1)
    assert len(files(out)) == n_files
    assert len(exp.cells) == (2 if mode == "games" else 4)


def test_cluster_resumes_a_partial_run(cluster, serial, tmp_path):
    out = tmp_path / "partial"
    shutil.copytree(serial["games"], out)
    gone = ["hands/part-spades.standard-rnd-00001.parquet",
            "games/part-spades.standard-rnd-00001.parquet",
            "hands/part-spades.standard-rnd-00003.parquet",  # a games file without its hands
            "hands/part-spades.standard-duel-00002.parquet",
            "games/part-spades.standard-duel-00002.parquet"]
    for name in gone:
        (out / name).unlink()
    run_experiment(build_experiment(GAMES), out, backend="dask",
                   scheduler=cluster.scheduler_address)
    assert_identical(out, serial["games"])


def test_records_on_the_cluster(cluster, tmp_path):
    exp = build_experiment({**HANDS, "hands": 400, "block_size": 100})
    a = run_experiment(exp, tmp_path / "dask", backend="dask",
                       scheduler=cluster.scheduler_address, records=True)
    b = run_experiment(exp, tmp_path / "serial", n_jobs=1, records=True)
    assert_identical(a, b)
    assert_identical(a, b, "records/part-*.jsonl")
    assert len(files(a, "records/part-*.jsonl")) == len(exp.cells) * exp.n_blocks


@pytest.mark.filterwarnings("ignore:Port .* is already in use")  # the dashboard's port
def test_local_cluster_started_by_the_runner(serial, tmp_path):
    exp = build_experiment(GAMES)
    out = run_experiment(exp, tmp_path / "own", backend="dask", n_jobs=2)
    assert_identical(out, serial["games"])


def write(path: Path, table: dict) -> Path:
    lines = [f'name = "{table["name"]}"', f'games = {table["games"]}',
             f'seed = {table["seed"]}', f'block_size = {table["block_size"]}',
             "[lineups]", 'rnd = "random"', 'duel = { sides = ["seed", "random"] }']
    path.write_text(textwrap.dedent("\n".join(lines)) + "\n", encoding="utf-8")
    return path


def test_cli_backend_dask_with_scheduler(cluster, serial, tmp_path, capsys):
    exp = write(tmp_path / "exp.toml", GAMES)
    out = tmp_path / "cli"
    code = main(["run", str(exp), "--backend", "dask", "--scheduler",
                 cluster.scheduler_address, "--out", str(out), "--quiet"])
    stdout, stderr = capsys.readouterr()
    assert code == 0, stderr
    assert stdout.startswith(f"results: {out}")
    assert_identical(out, serial["games"])


@pytest.mark.parametrize("backend", [[], ["--backend", "loky"]], ids=["default", "loky"])
def test_scheduler_needs_backend_dask(tmp_path, capsys, backend):
    exp = write(tmp_path / "exp.toml", GAMES)
    out = tmp_path / "out"
    code = main(["run", str(exp), *backend, "--scheduler", "tcp://127.0.0.1:1", "--out",
                 str(out), "--quiet"])
    stdout, stderr = capsys.readouterr()
    assert code == 2
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("whistlab: error: "), stderr
    assert "--scheduler" in lines[0] and "--backend dask" in lines[0]
    assert stdout == ""
    assert not out.exists()
