"""The Python API (whistlab/api.py): ``whistlab.simulate`` returns a polars DataFrame with the
columns of docs/SCHEMA.md; ``whistlab.run`` runs a table of keys, a file or an `Experiment`, with
keyword overrides, exactly as ``whistlab run`` does; ``whistlab.load`` is a LazyFrame over a
results folder equal to
reading its Parquet; bad calls raise `sim.errors.UserError`, a ValueError, worded as the command
line words it."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

import sim
import whistlab
from harness import documented_columns
from sim.errors import UserError
from whistlab.cli import main
from whistlab.experiment import build_experiment
from whistlab.runner import run_experiment
from written import read_whole_polars, whole_polars

TYPES = {"string": pl.String, "bool": pl.Boolean, "int8": pl.Int8, "int16": pl.Int16,
         "int32": pl.Int32, "int64": pl.Int64, "uint64": pl.UInt64}


def documented(table: str) -> dict[str, pl.DataType]:
    """Column name -> polars type of a Spades table at four seats (docs/SCHEMA.md, read by
    `harness.schema`)."""
    return {name: TYPES[kind] for name, kind in documented_columns("spades", table).items()}


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def manifest(out: Path) -> dict:
    return json.loads((Path(out) / "manifest.json").read_text())["experiment"]


def part_bytes(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(Path(out).glob("*/part-*"))}


# --- simulate ----------------------------------------------------------------------------------


def test_simulate_hands_has_the_documented_columns():
    df = whistlab.simulate(rules="spades.short", strategy="random", hands=300, seed=1, block_size=100)
    assert isinstance(df, pl.DataFrame)
    assert dict(df.schema) == documented("hands")
    assert list(df.columns[:3]) == ["variant", "lineup", "swapped"]
    assert df.height == 300
    assert df["game_id"].to_list() == list(range(300))
    assert (df["hand_no"] == 1).all()
    assert df.select("variant", "lineup", "swapped").unique().rows() == [
        ("spades.short", "random", False)]
    # the four hands are a partition of the deck
    hands = df.select(*(pl.col(f"hand_{s}") for s in range(4))).to_numpy()
    assert all(int(a) | int(b) | int(c) | int(d) == (1 << 52) - 1 for a, b, c, d in hands)


def test_simulate_games_has_the_documented_columns():
    games = whistlab.simulate(strategy="random", games=12, seed=2, block_size=5, table="games")
    assert isinstance(games, pl.DataFrame)
    assert dict(games.schema) == documented("games")
    assert games.height == 12 and games["game_id"].to_list() == list(range(12))
    hands = whistlab.simulate(strategy="random", games=12, seed=2, block_size=5)
    assert dict(hands.schema) == documented("hands")
    assert hands.height == games["n_hands"].cast(pl.Int64).sum()
    last = hands.group_by("game_id").agg(pl.col("hand_no").max()).sort("game_id")
    assert last["hand_no"].to_list() == games["n_hands"].to_list()


def test_simulate_equals_a_run_of_the_same_cell(tmp_path):
    spec = {"rules": {"preset": "spades.standard", "nil_tricks": "count"},
            "strategy": ["seed", "random", "seed", "random"]}
    df = whistlab.simulate(**spec, hands=500, seed=3, block_size=200)
    out = whistlab.run({"name": "simulate", **spec, "hands": 500, "seed": 3, "block_size": 200},
                  tmp_path / "run", n_jobs=1)
    assert df.equals(whistlab.load(out).collect())


def test_simulate_is_reproducible_and_n_jobs_free():
    a = whistlab.simulate(strategy="seed", hands=400, seed=7, block_size=100)
    b = whistlab.simulate(strategy="seed", hands=400, seed=7, block_size=100, n_jobs=2)
    c = whistlab.simulate(strategy="seed", hands=400, seed=8, block_size=100)
    assert a.equals(b)
    assert not a.equals(c)


# --- run ---------------------------------------------------------------------------------------

TABLE = {"name": "api", "strategy": "random", "games": 6, "seed": 4, "block_size": 3}


def test_run_a_table(tmp_path):
    out = whistlab.run(TABLE, tmp_path / "out", n_jobs=1)
    assert Path(out) == tmp_path / "out"
    assert manifest(out) == build_experiment(TABLE).to_dict()
    assert sorted(p.name for p in (Path(out) / "games").iterdir()) == [
        "part-spades.standard-random-00000.parquet", "part-spades.standard-random-00001.parquet"]


def test_run_a_table_with_overrides(tmp_path):
    out = whistlab.run(TABLE, tmp_path / "out", n_jobs=1, seed=5, block_size=2)
    assert manifest(out) == build_experiment({**TABLE, "seed": 5, "block_size": 2}).to_dict()


@pytest.mark.parametrize("override", [{"hands": 8}, {"rules": "spades.short"},
                                      {"strategy": "seed"}],
                         ids=["hands_replaces_games", "rules_replaces_variants",
                              "strategy_replaces_lineups"])
def test_run_a_table_overrides_replace_like_a_file(tmp_path, override):
    """``hands=`` replaces the table's ``games`` (and ``rules=`` its variants, ``strategy=`` its
    line-ups), as the same override does for an experiment file."""
    table = {"name": "api", "games": 6, "seed": 4, "block_size": 3,
             "variants": {"a": "spades.standard", "b": "spades.openspiel"},
             "lineups": {"r": "random", "s": {"sides": ["seed", "random"]}}}
    path = write(tmp_path / "api.toml", """\
        name = "api"
        games = 6
        seed = 4
        block_size = 3
        [variants]
        a = "spades.standard"
        b = "spades.openspiel"
        [lineups]
        r = "random"
        s = { sides = ["seed", "random"] }
    """)
    from_file = whistlab.run(path, tmp_path / "file", n_jobs=1, **override)
    from_table = whistlab.run(table, tmp_path / "table", n_jobs=1, **override)
    assert manifest(from_table) == manifest(from_file)
    assert part_bytes(from_table) == part_bytes(from_file)


def test_run_a_file_with_overrides(tmp_path):
    path = write(tmp_path / "exp.toml", """\
        name = "fromfile"
        rules = "spades.standard"
        strategy = "seed"
        games = 1000
        seed = 1
        block_size = 500
    """)
    out = whistlab.run(path, tmp_path / "out", n_jobs=1, hands=40, block_size=20, seed=9,
                  rules="spades.short", strategy="random")
    exp = manifest(out)
    assert (exp["mode"], exp["count"], exp["block_size"], exp["seed"]) == ("hands", 40, 20, 9)
    assert [(c["variant"], c["lineup"]) for c in exp["cells"]] == [("spades.short", "random")]
    assert str(path) != str(out) and not (Path(out) / "games").exists()
    assert whistlab.load(out).collect().height == 40
    # the same as the command line with the same options
    code = main(["run", str(path), "--hands", "40", "--block-size", "20", "--seed", "9",
                         "--rules", "spades.short", "--strategy", "random", "--out",
                         str(tmp_path / "cli"), "--n-jobs", "1", "--quiet"])
    assert code == 0
    assert part_bytes(out) == part_bytes(tmp_path / "cli")


def test_run_a_path_as_string(tmp_path):
    path = write(tmp_path / "exp.toml", 'strategy = "random"\nhands = 10\nblock_size = 5\n')
    out = whistlab.run(str(path), str(tmp_path / "out"), n_jobs=1)
    assert whistlab.load(out).collect().height == 10


def test_run_an_experiment_and_resume(tmp_path):
    exp = build_experiment(TABLE)
    out = whistlab.run(exp, tmp_path / "out", n_jobs=1)
    first = part_bytes(out)
    (Path(out) / "hands" / "part-spades.standard-random-00001.parquet").unlink()
    (Path(out) / "games" / "part-spades.standard-random-00001.parquet").unlink()
    assert whistlab.run(exp, out, n_jobs=1) == out
    assert part_bytes(out) == first
    reference = run_experiment(exp, tmp_path / "reference", n_jobs=1)
    assert part_bytes(reference) == first


def test_run_an_experiment_does_not_ignore_overrides(tmp_path):
    """Overrides with an `Experiment` are either applied or refused, never silently dropped."""
    exp = build_experiment(TABLE)
    try:
        out = whistlab.run(exp, tmp_path / "out", n_jobs=1, games=2)
    except (UserError, TypeError):
        return
    assert manifest(out)["count"] == 2, "games=2 was silently ignored"


def test_run_errors_are_user_errors(tmp_path):
    with pytest.raises(UserError, match="colour"):
        whistlab.run({**TABLE, "colour": 1}, tmp_path / "a", n_jobs=1)
    with pytest.raises(UserError, match="no such experiment file"):
        whistlab.run(tmp_path / "missing.toml", tmp_path / "b", n_jobs=1)
    whistlab.run(TABLE, tmp_path / "c", n_jobs=1)
    with pytest.raises(UserError, match="different experiment"):
        whistlab.run({**TABLE, "seed": 99}, tmp_path / "c", n_jobs=1)


# --- load --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    table = {"name": "load", "games": 8, "seed": 6, "block_size": 3,
             "variants": {"std": "spades.standard", "short": "spades.short"},
             "lineups": {"r": "random", "d": {"sides": ["seed", "random"], "swap": True}}}
    return whistlab.run(table, tmp_path_factory.mktemp("load"), n_jobs=1)


@pytest.mark.parametrize("table", ["hands", "games"])
def test_load_is_a_lazy_frame_equal_to_the_parquet(results, table):
    lazy = whistlab.load(results) if table == "hands" else whistlab.load(results, table)
    assert isinstance(lazy, pl.LazyFrame)
    df = lazy.collect()
    files = sorted((Path(results) / table).glob("*.parquet"))
    assert df.equals(read_whole_polars(files).select(df.columns))  # whole: docs/SCHEMA.md
    assert dict(df.schema) == documented(table)
    keys = ["variant", "lineup", "swapped", "game_id"] + (["hand_no"] if table == "hands" else [])
    by_pyarrow = pl.concat([whole_polars(pl.from_arrow(pq.read_table(f))) for f in files],
                          how="diagonal").sort(keys)
    assert df.sort(keys).equals(by_pyarrow.select(df.columns))
    assert df.select("variant", "lineup", "swapped").n_unique() == 6
    if table == "games":
        assert df.height == 6 * 8


def test_load_streams_a_query(results):
    counts = (whistlab.load(results).group_by("variant", "lineup", "swapped")
              .agg(pl.len().alias("n")).collect())
    assert counts.height == 6
    games = whistlab.load(results, "games").collect()
    assert counts["n"].sum() == games["n_hands"].cast(pl.Int64).sum()


# --- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs", [{}, {"hands": 10, "games": 10}])
def test_simulate_needs_hands_or_games(kwargs):
    with pytest.raises(UserError, match="hands= or games="):
        whistlab.simulate(strategy="random", **kwargs)


@pytest.mark.parametrize("kwargs, needle", [
    ({"hands": 0}, "hands"), ({"games": 0}, "games"), ({"hands": -3}, "hands"),
    ({"hands": 10, "strategy": "nosuch"}, "nosuch"),
    ({"hands": 10, "rules": "spades.nope"}, "spades.nope"),
    ({"hands": 10, "rules": {"preset": "spades.standard", "colour": 1}}, "colour"),
])
def test_simulate_bad_values(kwargs, needle):
    with pytest.raises(UserError) as err:
        whistlab.simulate(**{"strategy": "random", **kwargs})
    assert needle in str(err.value)


def test_load_without_tables(tmp_path, results):
    with pytest.raises(UserError, match="no hands table"):
        whistlab.load(tmp_path)  # an empty folder
    with pytest.raises(UserError, match="no hands table"):
        whistlab.load(tmp_path / "missing")
    (tmp_path / "hands.parquet").write_bytes(b"")  # a file is not a table folder
    with pytest.raises(UserError):
        whistlab.load(tmp_path / "hands.parquet")
    hands_only = whistlab.run({"strategy": "random", "hands": 5}, tmp_path / "h", n_jobs=1)
    assert whistlab.load(hands_only).collect().height == 5
    with pytest.raises(UserError, match="no games table"):
        whistlab.load(hands_only, "games")
    with pytest.raises(UserError):
        whistlab.load(results, "nosuch")


def test_the_api_is_visible():
    """``dir(whistlab)`` shows the notebook API, although it is imported on first use."""
    assert {"simulate", "run", "load", "decide", "view_at"} <= set(dir(whistlab))
    assert set(whistlab.__all__) == {"__version__", "simulate", "run", "load", "decide",
                                     "view_at"}
    assert whistlab.decide.__module__ == "whistlab.decisions"
    assert whistlab.__version__ == sim.__version__


@pytest.mark.parametrize("kwargs", [{"hands": 0}, {"hands": 10, "strategy": "sed"},
                                    {"hands": 10, "rules": "spades.standrd"}])
def test_bad_arguments_are_value_errors_with_the_command_lines_message(capsys, tmp_path,
                                                                        kwargs):
    """Python code catches ValueError; the message is the one the command line prints."""
    with pytest.raises(ValueError) as err:
        whistlab.simulate(**{"strategy": "random", **kwargs})
    argv = ["run", "--out", str(tmp_path / "out"), "--quiet"]
    argv += [x for k, v in kwargs.items() for x in (f"--{k}", str(v))]
    assert main(argv) == 2
    line = capsys.readouterr().err.strip()
    if "hands" in kwargs and kwargs["hands"] == 0:
        assert "hands" in str(err.value) and "hands" in line  # argparse words it its own way
    else:
        assert line.endswith(str(err.value).split(": ", 1)[-1]), (line, str(err.value))
