"""bench/search_disagreements.py's bookkeeping (issue 21 item 6): every decision of the player is
recorded once with the reference's answer from the same view; a replay from a decision's
position rebuilds the hand exactly (with two players that draw no random numbers, the replay of
the player's own choice gives the hand's margin as played, bids and cards alike); agreements are
worth nothing; the tables add up."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "search_disagreements.py"
spec = importlib.util.spec_from_file_location("search_disagreements", SCRIPT)
dis = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dis)

HANDS = 24


@pytest.fixture(scope="module")
def seed_frame():
    return dis.run("spades.standard", "seed", "expert", HANDS, 5)


def test_every_decision_of_the_player_is_recorded_once(seed_frame):
    f = seed_frame
    assert f.filter(pl.col("kind") == "bid").height == 2 * HANDS
    assert f.filter(pl.col("kind") == "card").height == 2 * 13 * HANDS
    assert set(f["seat"].unique().to_list()) == {0, 2}
    per_hand = f.group_by("hand", "seat", "kind").len()
    assert per_hand.filter(pl.col("kind") == "card")["len"].unique().to_list() == [13]
    # the dealer turns round the table: the player's seats lead trick 1 in half the hands
    assert f.filter(pl.col("situation") == "opening lead").height == HANDS // 2
    cards = f.filter(pl.col("kind") == "card")
    assert sorted(cards["trick"].unique().to_list()) == list(range(1, 14))


def test_a_replay_of_the_players_own_choice_is_the_hand_as_played(seed_frame):
    d = seed_frame.filter(pl.col("differs"))
    assert d.height > 20 and set(d["kind"].unique().to_list()) == {"bid", "card"}
    np.testing.assert_array_equal(d["own_value"].to_numpy(), d["actual"].to_numpy())


def test_agreements_are_worth_nothing_and_the_seed_differs_from_the_expert(seed_frame):
    same = seed_frame.filter(~pl.col("differs"))
    assert (same["worth"] == 0).all() and same["own_value"].is_null().all() | \
        same["own_value"].is_nan().all()
    assert (same["how"] == "same").all()
    assert (seed_frame.filter(pl.col("differs"))["how"] != "same").all()
    assert seed_frame["worth"].abs().sum() > 0


def test_a_player_against_itself_never_differs():
    f = dis.run("spades.standard", "expert", "expert", 8, 3)
    assert f.height == 8 * (2 + 26) and not f["differs"].any()


def test_the_tables_add_up(seed_frame):
    cards = seed_frame.filter(pl.col("kind") == "card")
    table = dis.summarise(cards, ["situation"], HANDS)
    assert table["decisions"].sum() == cards.height
    assert table["differ"].sum() == cards["differs"].sum()
    w = cards.filter(pl.col("differs"))["worth"].to_numpy()
    assert table["per_hand"].sum() == pytest.approx(w.sum() / HANDS)
    lead = cards.filter(pl.col("differs") & (pl.col("situation") == "lead"))["worth"].to_numpy()
    row = table.filter(pl.col("situation") == "lead").row(0, named=True)
    assert row["worth"] == pytest.approx(lead.mean())
    assert row["worth_95"] == pytest.approx(stats.t.ppf(0.975, lead.size - 1) * stats.sem(lead))
    assert "| lead |" in dis.markdown(table, ["situation"])


def test_the_search_gives_its_own_estimate_at_each_differing_card():
    f = dis.run("spades.standard", {"name": "search", "samples": 4, "budget": 16}, "expert", 6,
                2, estimate=True)
    cards = f.filter(pl.col("kind") == "card")
    differ = cards["differs"].to_numpy()
    est = cards["estimate"].to_numpy()
    assert differ.any()
    assert np.isfinite(est[differ]).all() and np.isnan(est[~differ]).all()
