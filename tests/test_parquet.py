"""The Parquet tables: readable as is by pandas, polars and DuckDB; zstd; the experiment in the
key-value metadata; columns and types exactly as docs/SCHEMA.md documents them (parsed from its
markdown tables, so the doc and the code cannot drift); and the scoring invariants of RULES.md §3
hold on every row."""

from __future__ import annotations

import json

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from harness import documented_columns
from harness.schema import documented_written
from sim.options import PRESETS, load_rules, rules_to_dict
from sim.spades.tables import BROUGHT, absent_columns
from whistlab.experiment import build_experiment
from whistlab.runner import run_experiment

SEATS, SIDES = range(4), range(2)
RULES = "spades.short"  # bag_limit 5: bag penalties are frequent, so their invariants are tested
SEED = 4242


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("parquet")
    exp = build_experiment({"name": "parquet", "rules": RULES, "strategy": "seed", "games": 40,
                            "seed": SEED, "block_size": 10})
    run_experiment(exp, out, n_jobs=1)
    return out


@pytest.fixture(scope="module")
def hands(results):
    return pd.read_parquet(results / "hands")


@pytest.fixture(scope="module")
def games(results):
    return pd.read_parquet(results / "games")


# --- readers -----------------------------------------------------------------------------------


@pytest.mark.parametrize("table, key", [("hands", ["game_id", "hand_no"]), ("games", ["game_id"])])
def test_pandas_polars_duckdb_agree(results, table, key):
    folder = results / table
    by_pandas = pd.read_parquet(folder)
    by_polars = pl.read_parquet(f"{folder}/*.parquet").to_pandas()
    by_duckdb = duckdb.sql(f"select * from '{folder}/*.parquet'").df()
    assert len(by_pandas) == len(by_polars) == len(by_duckdb) > 0
    frames = [f.sort_values(key).reset_index(drop=True) for f in (by_pandas, by_polars, by_duckdb)]
    pd.testing.assert_frame_equal(frames[0], frames[1])
    pd.testing.assert_frame_equal(frames[0], frames[2])


def test_duckdb_aggregates(results, hands):
    got = duckdb.sql(f"select count(*), sum(points_0), max(hand_no), count(distinct game_id) "
                     f"from '{results}/hands/*.parquet'").fetchall()[0]
    assert got == (len(hands), int(hands.points_0.sum()), int(hands.hand_no.max()), 40)


def test_zstd_and_metadata(results):
    parts = sorted(results.glob("*/part-*.parquet"))
    assert len(parts) == 8  # 4 blocks x (hands, games)
    for path in parts:
        meta = pq.ParquetFile(path).metadata
        for rg in range(meta.num_row_groups):
            for col in range(meta.num_columns):
                assert meta.row_group(rg).column(col).compression == "ZSTD", (path, col)
        info = json.loads(pq.read_schema(path).metadata[b"whistlab"])
        exp = info["experiment"]
        (cell,) = exp["cells"]
        assert cell["rules"] == rules_to_dict(PRESETS[RULES])
        assert cell["variant"] == RULES and cell["lineup"] == "seed" and not cell["swapped"]
        assert [s["name"] for s in cell["seats"]] == ["seed"] * 4
        assert cell["seats"][0]["nil_max_estimate"] == 1.25  # parameters are recorded too
        assert exp["seed"] == SEED and exp["block_size"] == 10
        assert exp["mode"] == "games" and exp["count"] == 40
        assert info["cell"] == 0 and info["block"] == int(path.stem.split("-")[-1])
        assert "version" in info
    manifest = json.loads((results / "manifest.json").read_text())
    assert manifest["experiment"] == exp


# --- the documented schema ---------------------------------------------------------------------


@pytest.mark.parametrize("table", ["hands", "games"])
def test_columns_and_types_are_documented(results, table):
    """The file holds the documented columns but those its rules do not bring (docs/SCHEMA.md,
    "written"), each of the documented type."""
    schema = pq.read_schema(sorted((results / table).glob("part-*.parquet"))[0])
    actual = {field.name: str(field.type) for field in schema}
    documented = documented_columns("spades", table)  # harness.schema reads docs/SCHEMA.md
    if table == "hands":
        absent = absent_columns(load_rules(RULES))
        assert absent and set(absent) <= set(documented)
        documented = {k: v for k, v in documented.items() if k not in absent}
    assert set(actual) - set(documented) == set(), "columns missing from docs/SCHEMA.md"
    assert set(documented) - set(actual) == set(), "documented columns missing from the file"
    assert actual == documented


def test_written_says_which_rule_brings_a_column():
    """docs/SCHEMA.md's "written" cell of each hands column: "with <the rule>" for the columns
    a rule brings (`BROUGHT`), "always" for the others."""
    written = documented_written("hands")  # harness.schema reads docs/SCHEMA.md
    assert set(BROUGHT) <= set(written)
    for name, cell in written.items():
        want = ("with " + BROUGHT[name][2].replace('\\"', '"')) if name in BROUGHT else "always"
        assert cell == want, (name, cell)


def test_standard_spades_writes_no_constant_column(tmp_path):
    """Under spades.standard every column of the hands table but the cell's labels varies in a
    run of some hundred whole games (issue 19: a rule that is off writes nothing)."""
    exp = build_experiment({"name": "std", "rules": "spades.standard", "strategy": "seed",
                            "games": 400, "seed": 7, "block_size": 400})
    out = run_experiment(exp, tmp_path / "std", n_jobs=1)
    table = pq.read_table(out / "hands")
    constant = [name for name in table.column_names
                if name not in ("variant", "lineup", "swapped") and len(
                    pc.unique(table.column(name))) == 1]
    assert constant == [], constant


def test_schema_doc_parser_sees_placeholders():
    cols = documented_columns("spades", "hands")
    assert {"bid_0", "bid_3", "hand_3", "points_1", "score_0"} <= set(cols)
    assert not any("<" in c for c in cols)


# --- invariants (RULES.md §3) ------------------------------------------------------------------


def test_rows_in_game_then_hand_order(hands):
    keys = list(zip(hands.game_id, hands.hand_no, strict=True))
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)
    # hand numbers run 1..n without gaps; the dealer moves left each hand, seat 3 deals first
    assert (hands.groupby("game_id").hand_no.transform("cumcount") + 1 == hands.hand_no).all()
    assert ((3 + hands.hand_no - 1) % 4 == hands.dealer).all()


def test_deals_are_whole_decks(hands):
    dealt = hands[[f"hand_{s}" for s in SEATS]].to_numpy(np.uint64)
    assert (np.bitwise_count(dealt) == 13).all()
    union = np.bitwise_or.reduce(dealt, axis=1)
    assert (union == np.uint64((1 << 52) - 1)).all()
    total = sum(np.bitwise_count(dealt[:, s]).astype(int) for s in SEATS)
    assert (np.bitwise_count(union).astype(int) == total).all()  # no card dealt twice


def test_bids_and_tricks(hands):
    tricks = hands[[f"tricks_{s}" for s in SEATS]].to_numpy(int)
    bids = hands[[f"bid_{s}" for s in SEATS]].to_numpy(int)
    blind = hands[[f"blind_{s}" for s in SEATS]].to_numpy(bool)
    assert (tricks.sum(axis=1) == 13).all()
    assert (tricks >= 0).all() and ((bids >= 0) & (bids <= 13)).all()
    assert (bids[blind] == 0).all()  # a blind bid is a nil


def test_points_are_the_sum_of_parts(hands):
    for side in SIDES:
        parts = sum(hands[f"{p}_{side}"].astype(int)
                    for p in ("contract", "overtricks", "bag_penalty", "nil"))
        assert (hands[f"points_{side}"] == parts).all()


def test_scores_are_running_sums(hands):
    for side in SIDES:
        running = hands.groupby("game_id")[f"points_{side}"].cumsum()
        assert (hands[f"score_{side}"] == running).all()


def test_bags_and_bag_penalties(hands):
    rules = PRESETS[RULES]
    for side in SIDES:
        bags = hands[f"bags_{side}"].astype(int)
        assert bags.between(0, rules.bag_limit - 1).all()
        before = bags.groupby(hands.game_id).shift(1, fill_value=0)
        total = before + hands[f"overtricks_{side}"]
        times = total // rules.bag_limit
        assert (hands[f"bag_penalty_{side}"] == -rules.bag_penalty * times).all()
        assert (bags == total - rules.bag_limit * times).all()
    assert (hands.bag_penalty_0 < 0).any() and (hands.bag_penalty_1 < 0).any()


def test_games_match_their_hands(hands, games):
    assert games.game_id.tolist() == list(range(40))
    last = hands.groupby("game_id").tail(1).set_index("game_id")
    counts = hands.groupby("game_id").size()
    g = games.set_index("game_id")
    assert (g.n_hands == counts).all()
    for side in SIDES:
        assert (g[f"score_{side}"] == last[f"score_{side}"]).all()
        assert (g[f"bags_{side}"] == last[f"bags_{side}"]).all()
        paid = (hands[f"bag_penalty_{side}"] < 0).groupby(hands.game_id).sum()
        assert (g[f"bag_penalties_{side}"] == paid).all()


def test_winner_has_the_higher_score(games):
    assert games.winner.isin([0, 1]).all()
    won = np.where(games.winner == 0, games.score_0, games.score_1)
    lost = np.where(games.winner == 0, games.score_1, games.score_0)
    assert (won > lost).all()


def test_games_end_exactly_when_the_rules_say(hands):
    """A game ends after the first hand that reaches the target or the mercy score with unequal
    scores (RULES.md §3 `target_score`, `mercy_score`; ties play on)."""
    rules = PRESETS[RULES]
    top = hands[["score_0", "score_1"]].max(axis=1)
    bottom = hands[["score_0", "score_1"]].min(axis=1)
    over = ((top >= rules.target_score) | (bottom <= rules.mercy_score)) & (
        hands.score_0 != hands.score_1)
    is_last = ~hands.game_id.duplicated(keep="last")
    assert (over == is_last).all()
