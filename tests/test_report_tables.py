"""The report at every Spades table of RULES.md §4.7 (issue 22 item 5): a run of three players,
cutthroat, five, six in three pairs, two threes or solo, cancel spades with six and eight, the
jokers and kitty, and two players is reported, not refused (`reports.table_sections`); its
figures are recomputed here from the raw Parquet rows with pandas and scipy (`clusters`: the
game id the cluster, every cell's rows of one game id together), and a refused report leaves no
folder behind."""

from __future__ import annotations

import struct
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

import whistlab
from clusters import ratio_interval, share_interval
from page import PRELUDE, check_links, table
from reports import build_report
from reports.kit.figures import DPI, MAX_WIDTH
from sim.errors import UserError
from whistlab.cli import main

TABLES = {"three": ("spades.three", 3, 3), "cutthroat": ("spades.cutthroat", 4, 4),
          "five": ("spades.five", 5, 5), "six_pairs": ("spades.six", 6, 3),
          "six_threes": ({"preset": "spades.six", "teams": "two_threes"}, 6, 2),
          "six_solo": ({"preset": "spades.six", "teams": "solo"}, 6, 6),
          "cancel": ("spades.cancel", 6, 3), "cancel8": ("spades.cancel8", 8, 4),
          "jokers_kitty": ({"preset": "spades.jokers", "kitty": True,
                            "kitty_taker": "high_bidder"}, 4, 2)}
GAMES = {"name": "tables", "games": 12, "seed": 7, "block_size": 6,
         "variants": {"standard": "spades.standard",
                      **{v: rules for v, (rules, _, _) in TABLES.items()}},
         "lineups": {"seed": "seed", "random": "random"}}
HANDS = {"name": "table_hands", "hands": 120, "seed": 8, "block_size": 60,
         "variants": {"three": "spades.three", "cancel": "spades.cancel",
                      "two": {"preset": "spades.standard", "players": 2}},
         "lineups": {"seed": "seed"}}
SECTIONS = ["Nil at every table", "Bags at every table", "Wins and points at every table",
            "The tables compared"]


@pytest.fixture(scope="module")
def games_run(tmp_path_factory):
    folder = whistlab.run(GAMES, tmp_path_factory.mktemp("tables") / "r", n_jobs=1)
    return folder, build_report(folder, folder / "report")


@pytest.fixture(scope="module")
def hands_run(tmp_path_factory):
    folder = whistlab.run(HANDS, tmp_path_factory.mktemp("table_hands") / "r", n_jobs=1)
    return folder, build_report(folder, folder / "report")


def rows_of(folder, variant: str, name: str = "hands") -> pd.DataFrame:
    """One variant's rows of a Parquet table (its own columns: tables differ)."""
    files = sorted((folder / name).glob(f"part-{variant}-*.parquet"))
    frame = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    for col in ("variant", "lineup"):
        frame[col] = frame[col].astype(str)
    return frame


def png_size(path) -> tuple[int, int]:
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    return width, height


# --- the page ---------------------------------------------------------------------------------

def test_a_run_of_every_table_is_reported(games_run):
    folder, index = games_run
    out = folder / "report"
    links = check_links(index)
    assert links.h2[:2] == PRELUDE
    titles = [h.split(". ", 1)[1] for h in links.h2[2:] if ". " in h]
    assert titles[:3] == ["Nil", "Sandbags", "Variants and strategies"]  # standard, jokers_kitty
    assert titles[3:7] == SECTIONS
    assert {"tables_nil", "tables_bags", "tables_wins", "tables"} <= links.ids
    tables = {p.stem for p in (out / "tables").glob("*.csv")}
    assert {"table_seats", "table_sides", "tables_compared", "nil_rates"} <= tables
    for stem in ("tables_nil", "tables_bags", "tables_wins", "tables_compared"):
        png = out / "figures" / f"{stem}.png"
        width, height = png_size(png)
        assert width <= MAX_WIDTH * DPI and 180 <= height <= 20 * DPI, (stem, width, height)
    text = (out / "summary.md").read_text()
    assert "Sections 1–3 cover the variants of four players in two partnerships (standard, " \
           "jokers_kitty)" in text
    assert ("cancel, cancel8: no bag penalty is paid under cancel spades (RULES.md §4.7), so "
            "its penalties are left out") in text
    assert "cancel, cancel8: the rules allow no blind nil" in text
    compared = table(folder, "tables_compared")
    assert compared["variant"].tolist() == list(GAMES["variants"])  # one row per table
    shape = compared.set_index("variant")
    for v, (_, players, sides) in TABLES.items():
        assert (shape.loc[v, "players"], shape.loc[v, "sides"]) == (players, sides)
    assert shape.loc[["cancel", "cancel8"], "penalties_per_100"].isna().all()
    assert shape.loc[["cancel", "cancel8"], "blind_bid_rate"].isna().all()
    assert shape.drop(["cancel", "cancel8"])["penalties_per_100"].notna().all()
    # every row of the compared table is in the page, not only the first twelve
    page = index.read_text()
    section = page[page.index('id="tables"'):page.index('id="methods"')]
    assert all(f"<td>{v}</td>" in section for v in GAMES["variants"])


def test_a_run_of_one_table_alone_is_reported(hands_run, tmp_path):
    folder, index = hands_run
    text = (folder / "report" / "summary.md").read_text()
    assert "this run plays none" in text and "## 1. Nil at every table" in text
    assert "A run of independent hands plays no games" in text
    sides = table(folder, "table_sides")
    assert "win_rate" not in sides.columns and "games" not in sides.columns
    assert set(sides["variant"]) == {"three", "cancel", "two"}
    assert sides.query("variant == 'two' and lineup == 'all'")["side"].tolist() == [
        "0", "1", "all"]
    # a run of one table: the tables compared is one row, without a figure
    copy = {**HANDS, "variants": {"three": "spades.three"}, "name": "three"}
    alone = whistlab.run(copy, tmp_path / "three", n_jobs=1)
    assert main(["report", str(alone)]) == 0
    assert not (alone / "report" / "figures" / "tables_compared.png").exists()
    assert (alone / "report" / "figures" / "tables_nil.png").exists()
    assert "The run plays one table (three)" in (alone / "report" / "summary.md").read_text()


# --- the numbers, recomputed from the raw rows -------------------------------------------------

def _check(got: pd.Series, name: str, expected: tuple[float, float, float], scale=1.0):
    value, lo, hi = (scale * x for x in expected)
    assert got[name] == pytest.approx(value, rel=1e-9, abs=1e-12), name
    if np.isnan(lo):
        assert np.isnan(got[f"{name}_lo"]), name
    else:
        assert got[f"{name}_lo"] == pytest.approx(lo, rel=1e-7, abs=1e-9), name
        assert got[f"{name}_hi"] == pytest.approx(hi, rel=1e-7, abs=1e-9), name


@pytest.mark.parametrize("variant", list(TABLES))
def test_nil_per_seat_and_side_match_the_raw_rows(games_run, variant):
    folder, _ = games_run
    _, players, sides = TABLES[variant]
    hands = rows_of(folder, variant)
    seats = table(folder, "table_seats").query(f"variant == '{variant}'")
    by_side = table(folder, "table_sides").query(f"variant == '{variant}'")
    long = []
    for s in range(players):
        bid, blind, tricks = hands[f"bid_{s}"], hands[f"blind_{s}"], hands[f"tricks_{s}"]
        long.append(pd.DataFrame({
            "lineup": hands["lineup"], "swapped": hands["swapped"],
            "game_id": hands["game_id"], "seat": s, "side": s % sides,
            "n": (bid >= 0).astype(int), "nil": ((bid == 0) & ~blind).astype(int),
            "made": ((bid == 0) & ~blind & (tricks == 0)).astype(int)}))
    long = pd.concat(long, ignore_index=True)
    assert long["nil"].sum() > 0
    for seat in [*map(str, range(players)), "all"]:
        mine = long if seat == "all" else long[long["seat"] == int(seat)]
        got = seats.query(f"lineup == 'all' and seat == '{seat}'").iloc[0]
        assert got["bids"] == mine["n"].sum() and got["nil_bids"] == mine["nil"].sum()
        _check(got, "nil_bid_rate", share_interval(mine, "game_id", "n", "nil"))
        if mine["nil"].sum():
            _check(got, "nil_success", share_interval(mine, "game_id", "nil", "made"))
    for side in range(sides):
        mine = long[long["side"] == side]
        got = by_side.query(f"lineup == 'all' and side == '{side}'").iloc[0]
        _check(got, "nil_bid_rate", share_interval(mine, "game_id", "n", "nil"))
    # one cell: its own game ids, one game each
    cell = long[(long["lineup"] == "random")]
    got = seats.query("lineup == 'random' and seat == 'all'").iloc[0]
    _check(got, "nil_bid_rate", share_interval(cell, "game_id", "n", "nil"))


@pytest.mark.parametrize("variant", list(TABLES))
def test_bags_points_and_wins_per_side_match_the_raw_rows(games_run, variant):
    folder, _ = games_run
    _, players, sides = TABLES[variant]
    hands = rows_of(folder, variant)
    games = rows_of(folder, variant, "games")
    got_sides = table(folder, "table_sides").query(f"variant == '{variant}'")
    cancel = variant.startswith("cancel")
    per_side = []
    for k in range(sides):
        per_side.append(pd.DataFrame({
            "lineup": hands["lineup"], "game_id": hands["game_id"], "side": k, "h": 1,
            "bags": hands[f"bags_taken_{k}"].astype(int),
            "pens": (hands[f"bag_penalty_{k}"] < 0).astype(int),
            "points": hands[f"points_{k}"].astype(int)}))
    per_side = pd.concat(per_side, ignore_index=True)
    for k in [*range(sides), "all"]:
        mine = per_side if k == "all" else per_side[per_side["side"] == k]
        got = got_sides.query(f"lineup == 'all' and side == '{k}'").iloc[0]
        assert got["side_hands"] == len(mine)
        _check(got, "bags_per_side_hand", ratio_interval(mine, "game_id", "h", "bags"))
        _check(got, "points_per_side_hand", ratio_interval(mine, "game_id", "h", "points"))
        if cancel:  # cancel spades pays no bag penalty: left out
            assert np.isnan(got["penalties_per_100"])
        else:
            _check(got, "penalties_per_100", share_interval(mine, "game_id", "h", "pens"), 100)
        if k != "all":
            won = games.assign(g=1, won=(games["winner"] == k).astype(int))
            assert got["games"] == len(games) and got["wins"] == won["won"].sum()
            assert got["fair_share"] == pytest.approx(1 / sides)
            _check(got, "win_rate", share_interval(won, "game_id", "g", "won"))
            cell = won[won["lineup"] == "seed"]  # one game per game id: Wilson's own interval
            one = got_sides.query(f"lineup == 'seed' and side == '{k}'").iloc[0]
            _check(one, "win_rate", share_interval(cell, "game_id", "g", "won"))
    everything = got_sides.query("lineup == 'all' and side == 'all'").iloc[0]
    length = games.assign(g=1)
    _check(everything, "hands_per_game", ratio_interval(length, "game_id", "g", "n_hands"))
    hands_per = hands.assign(one=1, total=sum(hands[f"points_{k}"] for k in range(sides)))
    _check(everything, "points_per_hand", ratio_interval(hands_per, "game_id", "one", "total"))
    compared = table(folder, "tables_compared").set_index("variant").loc[variant]
    for name in ("nil_bid_rate", "bags_per_side_hand", "hands_per_game"):
        assert compared[name] == pytest.approx(everything[name])


def test_points_per_hand_of_a_run_of_hands(hands_run):
    """Independent hands: every hand its own game id (the t interval over hands)."""
    folder, _ = hands_run
    hands = rows_of(folder, "two").assign(one=1)
    got = table(folder, "table_sides").query("variant == 'two' and lineup == 'all'")
    for k in (0, 1):
        row = got.query(f"side == '{k}'").iloc[0]
        _check(row, "points_per_hand", ratio_interval(hands, "game_id", "one", f"points_{k}"))


# --- refusals ---------------------------------------------------------------------------------

def _nothing_left(parent, before: set) -> None:
    """``parent`` holds what it held before, and no temporary of a report."""
    assert {p.name for p in parent.iterdir()} == before


def test_a_refused_report_leaves_no_folder_behind(hands_run, tmp_path, monkeypatch):
    folder, _ = hands_run
    # refused before any work: the folders of --out are not made
    new = tmp_path / "new"
    with pytest.raises(UserError, match="no such results folder"):
        build_report(tmp_path / "missing", new / "deeper" / "report")
    assert not new.exists()
    # refused while building (a study that refuses its run): nothing of it stays, not even the
    # folders made for --out, nor an earlier report's files
    from reports.studies import STUDIES

    def refuse(res):
        raise UserError("this run is refused", source=str(res.path))
    monkeypatch.setitem(STUDIES, "spades", replace(STUDIES["spades"], compute=refuse))
    before = {p.name for p in tmp_path.iterdir()}
    with pytest.raises(UserError, match="this run is refused"):
        build_report(folder, new / "deeper" / "report")
    assert not new.exists()
    _nothing_left(tmp_path, before)
    assert main(["report", str(folder), "--out", str(new / "report")]) == 2
    assert not new.exists()
    earlier = folder / "report"
    files = sorted(p.relative_to(earlier) for p in earlier.rglob("*"))
    with pytest.raises(UserError, match="this run is refused"):
        build_report(folder, earlier)
    assert sorted(p.relative_to(earlier) for p in earlier.rglob("*")) == files
    assert not list(folder.glob(".report.tmp*"))
