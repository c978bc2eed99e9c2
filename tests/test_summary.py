"""The run summary (reports.summarize / format_summary, printed by `whistlab run`): every figure
recomputed independently from the Parquet tables with pandas and numpy, the intervals from
their textbook formulas (Wilson; Student t; the delta method with the game as cluster), the
text checked against those numbers, the seats' names against the engine's tables."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from scipy import stats

import whistlab
from reports import format_summary, summarize
from reports.summary_base import side_names
from sim.spades.table import Table
from written import read_whole

Z = stats.norm.ppf(0.975)
BOLD = {"name": "seed", "nil_max_estimate": 2.0, "nil_max_spades": 4}
SPADES = {"name": "s", "games": 60, "seed": 11, "block_size": 30,
          "variants": {"std": "spades.standard",
                       "noblind": {"preset": "spades.standard", "blind_nil": False}},
          "lineups": {"seed": "seed", "duel": {"sides": [BOLD, "random"], "swap": True}}}
RULES = {"name": "r", "hands": 300, "seed": 3, "block_size": 150,
         "variants": {
             "std": "spades.standard",
             "count": {"preset": "spades.standard", "nil_tricks": "count"},
             "auction": {"preset": "spades.standard", "auction": True},
             "joint": {"preset": "spades.standard", "partnership_bidding": True},
             "exact": {"preset": "spades.standard", "exact": "side"},
             "exact_player": {"preset": "spades.standard", "exact": "player"},
             "highlander": {"preset": "spades.standard", "highlander": True},
             "to_opponents": {"preset": "spades.standard", "set_to_opponents": True},
             "no_minus": {"preset": "spades.standard", "no_minus": True},
             "half": {"preset": "spades.standard", "half_trick_bids": True},
             "declared": {"preset": "spades.standard", "team_nil": True,
                          "ten_for_two_hundred": True, "mo_b": True}},
         "lineups": {"random": "random", "seed": "seed"}}
TABLES = {"name": "t", "games": 30, "seed": 5, "block_size": 30,
          "variants": {"cutthroat": "spades.cutthroat", "three": "spades.three",
                       "five": "spades.five", "pairs": "spades.six",
                       "threes": {"preset": "spades.six", "teams": "two_threes"},
                       "cancel8": "spades.cancel8"}}
PORTLAND = {"name": "p", "game": "portland", "games": 80, "seed": 4, "block_size": 40,
            "variants": {"plain": "portland", "honours": "portland.honours",
                         "laws": "portland.laws", "no_trump": "portland.no_trump",
                         "dummy": "portland.dummy"}}
NORWEGIAN = {"name": "n", "game": "norwegian", "games": 30, "seed": 6, "block_size": 30,
             "variants": {"two": "norwegian", "declarer": "norwegian.declarer",
                          "three": "norwegian.three", "classic": "norwegian.classic"},
             "lineups": {"seed": "seed", "random": "random"}}


def run(spec: dict, tmp_path_factory, name: str, **over) -> Path:
    return whistlab.run({**spec, **over}, tmp_path_factory.mktemp(name) / "r", n_jobs=1)


@pytest.fixture(scope="module")
def spades_games(tmp_path_factory):
    return run(SPADES, tmp_path_factory, "games")


@pytest.fixture(scope="module")
def spades_hands(tmp_path_factory):
    """One cell, independent hands: every hand starts at 0-0, so no blind nil can be bid."""
    spec = {"name": "h", "hands": 400, "seed": 2, "block_size": 200,
            "rules": "spades.standard", "strategy": "seed"}
    return run(spec, tmp_path_factory, "hands")


@pytest.fixture(scope="module")
def rules_run(tmp_path_factory):
    return run(RULES, tmp_path_factory, "rules")


@pytest.fixture(scope="module")
def tables_run(tmp_path_factory):
    return run(TABLES, tmp_path_factory, "tables")


@pytest.fixture(scope="module")
def portland_run(tmp_path_factory):
    return run(PORTLAND, tmp_path_factory, "portland")


@pytest.fixture(scope="module")
def norwegian_run(tmp_path_factory):
    return run(NORWEGIAN, tmp_path_factory, "norwegian")


# --- independent references -------------------------------------------------------------

def cell_key(c: dict) -> str:
    return f"{c['variant']}-{c['lineup']}" + ("-swapped" if c["swapped"] else "")


def table_of(folder: Path, table: str, c: dict) -> pd.DataFrame:
    files = sorted((folder / table).glob(f"part-{cell_key(c)}-[0-9][0-9][0-9][0-9][0-9].parquet"))
    return read_whole(files, c["rules"]["game"])


def wilson(k: int, n: int) -> tuple[float, float, float]:
    """The Wilson score interval written out (not scipy's binomtest)."""
    p = k / n
    centre = (k + Z * Z / 2) / (n + Z * Z)
    half = Z / (n + Z * Z) * np.sqrt(k * (n - k) / n + Z * Z / 4)
    return p, centre - half, centre + half


def t_mean(x) -> tuple[float, float, float]:
    """The mean and its Student t interval, written out."""
    x = np.asarray(x, dtype=float)
    half = stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))
    return x.mean(), x.mean() - half, x.mean() + half


def cluster_ratio(y, x) -> tuple[float, float, float]:
    """sum(y) / sum(x) over games, the delta-method interval written out."""
    y, x = np.asarray(y, dtype=float), np.asarray(x, dtype=float)
    n = len(x)
    r = y.sum() / x.sum()
    se = np.sqrt(np.var(y - r * x, ddof=1) / n) / x.mean()
    half = stats.t.ppf(0.975, n - 1) * se
    return r, r - half, r + half


def same(e, ref, k=None, n=None):
    """An Estimate equals the reference (figure, lo, hi) and counts."""
    assert e is not None
    assert (e.value, e.lo, e.hi) == pytest.approx(tuple(ref), rel=1e-9, abs=1e-12)
    if k is not None:
        assert (e.k, e.n) == (k, n)


def shape(h: pd.DataFrame) -> tuple[int, int]:
    return (sum(c.startswith("tricks_") for c in h.columns),
            sum(c.startswith("score_") for c in h.columns))


def contracts(h: pd.DataFrame, rules: dict) -> tuple[np.ndarray, np.ndarray]:
    """(has a contract, made it) per hand and side, as RULES.md words it: a side's bids above
    nil (n and a half counting n + 1/2 under half_trick_bids) or its joint bid; tricks of nil
    bidders count only under nil_tricks = "count"; exact / highlander per player; the
    auction's declarer 6 + n; a declared side contract by its score."""
    players, sides = shape(h)
    has, made = np.zeros((len(h), sides), bool), np.zeros((len(h), sides), bool)
    for k in range(sides):
        seats = range(k, players, sides)
        bid = {s: h[f"bid_{s}"].to_numpy() + h[f"half_{s}"].to_numpy() * 0.5 for s in seats}
        took = {s: h[f"tricks_{s}"].to_numpy() for s in seats}
        need = sum(np.where(bid[s] > 0, bid[s], 0) for s in seats)
        count = rules["nil_tricks"] == "count"
        got = sum(np.where((bid[s] == 0) & (not count), 0, took[s]) for s in seats)
        if rules["exact"] == "player":
            ok = np.all([(bid[s] <= 0) | (took[s] == bid[s]) for s in seats], axis=0)
        elif rules["highlander"]:
            ok = np.all([(bid[s] <= 0) | (took[s] >= bid[s]) for s in seats], axis=0)
        elif rules["exact"] == "side":
            ok = got == need
        else:
            ok = got >= need
        side_has = need > 0
        declared = h[f"side_contract_{k}"].to_numpy() != 0
        side_has = side_has | declared
        ok = np.where(declared, h[f"contract_{k}"].to_numpy() > 0, ok)
        if rules["auction"]:
            dec = h["auction_declarer"].to_numpy()
            side_has = (dec >= 0) & (dec % sides == k)
            ok = sum(took.values()) >= 6 + h["auction_bid"].to_numpy()
        has[:, k], made[:, k] = side_has, side_has & ok
    return has, made


def spades_reference(folder: Path, c: dict) -> dict:
    h = table_of(folder, "hands", c)
    rules = c["rules"]
    players, sides = shape(h)
    half = h[[f"half_{s}" for s in range(players)]].to_numpy()
    bid = np.where(half, 0.5, 0) + h[[f"bid_{s}" for s in range(players)]].to_numpy()
    blind = h[[f"blind_{s}" for s in range(players)]].to_numpy()
    clean = h[[f"tricks_{s}" for s in range(players)]].to_numpy() == 0
    nil, bnil = (bid == 0) & ~blind, (bid == 0) & blind
    has, made = contracts(h, rules)
    per_game = pd.DataFrame({
        "game_id": h["game_id"],
        "bags": h[[f"bags_taken_{k}" for k in range(sides)]].sum(axis=1) / sides,
        "penalties": (h[[f"bag_penalty_{k}" for k in range(sides)]] < 0).sum(axis=1) / sides,
        "points_lost": h[[f"bag_penalty_{k}" for k in range(sides)]].sum(axis=1) / sides,
        **{f"p{k}": h[f"points_{k}"] for k in range(sides)}}).groupby("game_id")
    totals, hands = per_game.sum(), per_game.size()
    ref = {"hands": len(h), "players": players, "sides": sides,
           "nil_bid": (nil.sum(), (bid >= 0).sum()), "nil_made": ((nil & clean).sum(), nil.sum()),
           "blind_bid": (bnil.sum(), (bid >= 0).sum()),
           "blind_made": ((bnil & clean).sum(), bnil.sum()),
           "made": (made.sum(), has.sum()), "set": (has.sum() - made.sum(), has.sum()),
           "bags": t_mean(totals["bags"]), "penalties": t_mean(totals["penalties"]),
           "penalty_points": t_mean(totals["points_lost"]),
           "points": [cluster_ratio(totals[f"p{k}"], hands) for k in range(sides)]}
    if c["mode"] == "games":
        g = table_of(folder, "games", c)
        ref["games"] = len(g)
        ref["won"] = [((g["winner"] == k).sum(), len(g)) for k in range(sides)]
        ref["length"] = t_mean(g["n_hands"])
    return ref


def check_spades(folder: Path, cells: list[dict]):
    for c in cells:
        ref = spades_reference(folder, c)
        assert (c["hands"], c["players"], len(c["sides"])) == (
            ref["hands"], ref["players"], ref["sides"])
        for key in ("nil_bid", "nil_made", "blind_bid", "blind_made", "made", "set"):
            k, n = (int(x) for x in ref[key])
            if n == 0:
                assert c[key] is None, (c["variant"], key)
            else:
                same(c[key], wilson(k, n), k, n)
        assert c["contracts"] == ref["made"][1]
        for key in ("bags", "penalties", "penalty_points"):
            same(c[key], ref[key])
        for e, r in zip(c["points"], ref["points"], strict=True):
            same(e, r)
        if c["mode"] == "games":
            assert c["games"] == ref["games"]
            for e, (k, n) in zip(c["won"], ref["won"], strict=True):
                same(e, wilson(int(k), n), int(k), n)
            same(c["length"], ref["length"])


def check_rows(text: str, cells: list[dict], expected: dict):
    """Each cell's table row shows the expected (figure, lo, hi) triples (times their scale),
    a dash for None."""
    rows = parse_rows(text, cells)
    assert set(rows) == set(expected)
    for key, row in rows.items():
        assert len(row) == len(expected[key]), key
        for printed, (ref, scale) in zip(row, expected[key], strict=True):
            if ref is None:
                assert printed == "–", key
            else:
                close(printed, ref[0], scale)


# --- Spades -------------------------------------------------------------------------------

def test_spades_games_figures_recomputed(spades_games):
    cells = summarize(spades_games)
    assert [(c["variant"], c["lineup"], c["swapped"]) for c in cells] == [
        (v, lineup, s) for v in ("std", "noblind") for lineup, s in
        (("seed", False), ("duel", False), ("duel", True))]
    check_spades(spades_games, cells)
    noblind = [c for c in cells if c["variant"] == "noblind"]
    assert all(c["blind_bid"].k == 0 and c["blind_made"] is None for c in noblind)
    assert sum(c["blind_bid"].k for c in cells if c["variant"] == "std") > 0


def test_spades_hands_figures_recomputed(spades_hands):
    (cell,) = summarize(spades_hands)
    check_spades(spades_hands, [cell])
    assert cell["games"] == 0 and "won" not in cell
    assert cell["blind_bid"].k == 0 and cell["blind_made"] is None


def test_contracts_by_tricks_under_every_rule(rules_run):
    """Made and set by tricks, whatever the scoring: the same counts as a pandas reading of
    the rules, and, where the score's sign tells made from set, the same as that sign."""
    cells = summarize(rules_run)
    check_spades(rules_run, cells)
    faithful = {"std", "count", "joint", "exact", "exact_player", "highlander", "half",
                "declared"}
    seen = set()
    for c in cells:
        h = table_of(rules_run, "hands", c)
        score = np.stack([h[f"contract_{k}"].to_numpy() for k in (0, 1)], axis=1)
        has, made = contracts(h, c["rules"])
        if c["variant"] in faithful:
            assert np.array_equal(has, score != 0), c["variant"]
            assert np.array_equal(made, score > 0), c["variant"]
            seen.add(c["variant"])
        elif c["variant"] == "no_minus":  # a set scores 0, not a negative score
            assert c["set"].k == (has & (score == 0)).sum() > 0 and not (score < 0).any()
        elif c["variant"] == "to_opponents":  # a set scores 0, the opponents its shortfall
            assert c["set"].k > 0 and not (score < 0).any()
    assert seen == faithful
    # the rules' features were played: half bids, joint bids, declared side contracts
    by = {(c["variant"], c["lineup"]): table_of(rules_run, "hands", c) for c in cells}
    assert by["half", "random"]["half_0"].any()
    assert (by["joint", "random"][[f"bid_{s}" for s in range(4)]] == -1).any().any()
    assert (by["declared", "random"]["side_contract_0"] != 0).any()
    auction = next(c for c in cells if c["variant"] == "auction")
    assert auction["nil_bid"] is None and auction["made"].n == auction["hands"]


def numbers(text: str) -> list[float]:
    return [float(x.replace("−", "-").replace(",", ""))
            for x in re.findall(r"[+−-]?\d[\d,]*\.?\d*", text)]


def close(printed: str, value: float, scale: float = 1.0):
    """A printed number equals the value to its last printed digit."""
    digits = len(printed.split(".")[1]) if "." in printed else 0
    assert abs(float(printed.replace("−", "-").replace(",", "")) - value * scale) <= (
        0.5 * 10 ** -digits + 1e-9), (printed, value * scale)


def ranges(line: str) -> list[tuple[str, str, str]]:
    """``figure (lo–hi)`` and ``+x (+lo to +hi)`` triples of a line, as printed."""
    num = r"[+−]?\d[\d,]*(?:\.\d+)?"
    return re.findall(rf"({num})%?(?: [a-z ]+)? \(({num})(?:–| to )({num})%?\)", line)


def test_one_cell_in_words(spades_games, tmp_path):
    """A one-cell run's lines: each figure and interval as recomputed, teams named by seats."""
    one = whistlab.run({**SPADES, "variants": {"std": "spades.standard"},
                   "lineups": {"seed": "seed"}}, tmp_path / "one", n_jobs=1)
    (cell,) = summarize(one)
    ref = spades_reference(one, cell)
    text = format_summary([cell])
    lines = text.splitlines()
    assert lines[0] == (f"Spades (std), seed at every seat: {ref['games']} games, "
                        f"{ref['hands']:,} hands")
    labelled, label = [], ""
    for line in lines[1:-1]:
        label = line[:15].strip() or label
        labelled.append((label, line[15:]))
    labels = [lab for lab, _ in labelled]
    assert list(dict.fromkeys(labels)) == ["Games won", "Game length", "Contracts", "Nil",
                                           "Blind nil", "Bags", "Bag penalties",
                                           "Points a hand"]
    assert lines[-1] == "In brackets: 95% confidence intervals."
    won = [t for lab, t in labelled if lab == "Games won"]
    assert won[0].startswith("North–South (seats 0 and 2)")
    assert won[1].startswith("East–West (seats 1 and 3)")
    for t, (k, n) in zip(won, ref["won"], strict=True):
        assert f" {k} games, " in t
        (triple,) = ranges(t)
        for printed, value in zip(triple, wilson(k, n), strict=True):
            close(printed, value, 100)
    expect = {"Game length": [ref["length"]],
              "Contracts": [wilson(*ref["made"]), wilson(*ref["set"])],
              "Nil": [wilson(*ref["nil_bid"]), wilson(*ref["nil_made"])],
              "Blind nil": [wilson(*ref["blind_bid"]), wilson(*ref["blind_made"])],
              "Bags": [ref["bags"]], "Bag penalties": [ref["penalties"]],
              "Points a hand": ref["points"]}
    percent = {"Contracts", "Nil", "Blind nil"}
    for label, refs in expect.items():
        triples = [tr for lab, t in labelled if lab == label for tr in ranges(t)]
        assert len(triples) == len(refs), label
        for triple, r in zip(triples, refs, strict=True):
            for printed, value in zip(triple, r, strict=True):
                close(printed, value, 100 if label in percent else 1)
    contracts_line = next(t for lab, t in labelled if lab == "Contracts")
    assert contracts_line.startswith(f"{ref['made'][1]:,} team contracts: ")
    nil_line = next(t for lab, t in labelled if lab == "Nil")
    assert nil_line.startswith(f"{ref['nil_bid'][0]:,} bids, ")
    pen_line = next(t for lab, t in labelled if lab == "Bag penalties")
    close(re.search(r"costing (\S+) points", pen_line).group(1), -ref["penalty_points"][0])
    assert "North–South (seats 0 and 2)" in [t for lab, t in labelled
                                               if lab == "Points a hand"][0]
    assert not re.search(r"nan|None|inf|side 0|side-hand", text)


def test_independent_hands_without_blind_nil(spades_hands):
    """No games, no blind nil (nobody trails at 0-0): said in words, never nan."""
    text = format_summary(summarize(spades_hands))
    lines = text.splitlines()
    assert lines[0].endswith(": 400 hands, each dealt afresh from no score")
    assert not any(line.startswith(("Games won", "Game length")) for line in lines)
    assert ("Blind nil      no blind nil was bid (it needs a team 100 points behind; each hand "
            "here starts at 0–0)") in lines
    assert "a hand for each team" in next(x for x in lines if x.startswith("Bags"))
    assert "nan" not in text and "None" not in text


def parse_rows(text: str, cells: list[dict]) -> dict:
    """The table rows by cell: the entries after the variant (and line-up, when the run has
    several)."""
    lineups = len({(c["lineup"], c["swapped"]) for c in cells}) > 1
    rows = {}
    for line in text.splitlines():
        tokens = line.split()
        for c in cells:
            name = [c["variant"]] + ([c["lineup"]] if lineups else []) + (
                ["swapped"] if c["swapped"] else [])
            if tokens[:len(name)] == name and (len(tokens) == len(name) or
                                               tokens[len(name)] != "swapped"):
                rows[cell_key(c)] = tokens[len(name):]
    return rows


def test_several_cells_as_a_table(spades_games):
    """One row per cell; each entry the recomputed figure; the legend in words; the widest
    interval of each column; the line-up's teams by their seats."""
    cells = summarize(spades_games)
    text = format_summary(cells)
    lines = text.splitlines()
    assert lines[0] == "Spades: 60 games for each of 2 variants × 3 line-ups"
    assert "games won %" in lines[1] and "points a hand" in lines[1]
    assert lines[2].split() == ["variant", "line-up", "N–S", "E–W", "a", "game", "made", "%",
                                "bid", "made", "bid", "made", "taken", "penalties", "N–S", "E–W"]
    rows = parse_rows(text, cells)
    assert len(rows) == len(cells) == 6
    widest = {}
    for c in cells:
        ref = spades_reference(spades_games, c)
        row = rows[cell_key(c)]
        shares = [ref["won"][0], ref["won"][1]]
        for printed, (k, n) in zip(row[:2], shares, strict=True):
            close(printed, k / n, 100)
        close(row[2], ref["length"][0])
        for printed, key in zip(row[3:8], ("made", "nil_bid", "nil_made", "blind_bid",
                                           "blind_made"), strict=True):
            k, n = ref[key]
            if n == 0:
                assert printed == "–"
            else:
                close(printed, k / n, 100)
        close(row[8], ref["bags"][0])
        close(row[9], ref["penalties"][0])
        for printed, r in zip(row[10:], ref["points"], strict=True):
            close(printed, r[0])
        for key, r in (("games won", [wilson(*w) for w in shares]),
                       ("hands a game", [ref["length"]]),
                       ("points a hand", ref["points"])):
            for v, lo, hi in r:
                scale = 100 if key == "games won" else 1
                widest[key] = max(widest.get(key, 0), (v - lo) * scale, (hi - v) * scale)
    blob = " ".join(lines)
    assert "games won: the share of games each team won" in blob
    assert "swapped: the line-up with its teams in each other's seats" in blob
    for key, half in widest.items():
        close(re.search(rf"{key} ±(\d[\d,.]*\d|\d)", blob).group(1), half)
    assert ("Line-up duel: North–South (seats 0 and 2) seed(nil_max_estimate=2.0, "
            "nil_max_spades=4); East–West (seats 1 and 3) random; swapped: the same teams in "
            "each other's seats.") in blob
    assert max(len(line) for line in lines) <= 110
    assert not re.search(r"nan|None|side 0|side-hand|\(s\)", text)


def test_long_names_put_the_variant_above_its_line_ups(spades_games):
    """Variant and line-up names too long to sit side by side within 110 columns: each
    variant on a line of its own, its line-ups' rows indented under it, the same figures."""
    cells = summarize(spades_games)
    long = [{**c, "variant": c["variant"] + "_with_a_long_name_of_sixty_characters_or_so_"}
            for c in cells]
    lines = format_summary(long).splitlines()
    flat = format_summary(cells).splitlines()
    assert max(len(line) for line in lines) <= 110
    assert lines[1].startswith("variant ") and lines[2].startswith("  line-up ")
    rows = lines[3:3 + len(cells) + 2]
    assert flat[3].startswith("std  ")  # short names: side by side
    assert rows[0] == long[0]["variant"] and rows[4] == long[3]["variant"]
    assert [line.split()[0] for line in rows if line.startswith("  ")] == [
        c["lineup"] for c in long]
    figures = [line.split()[1:] if "swapped" not in line else line.split()[2:]
               for line in rows if line.startswith("  ")]
    assert figures == [line.split(c["lineup"] + (" swapped" if c["swapped"] else ""), 1)[1]
                       .split() for line, c in zip(flat[3:3 + len(cells)], cells, strict=True)]


def test_the_swapped_cell_names_who_sat_where(spades_games):
    cells = {cell_key(c): c for c in summarize(spades_games)}
    assert cells["std-duel"]["who"].startswith("North–South (seats 0 and 2) seed(")
    assert cells["std-duel-swapped"]["who"] == (
        "North–South (seats 0 and 2) random; East–West (seats 1 and 3) "
        "seed(nil_max_estimate=2.0, nil_max_spades=4)")
    line = format_summary([cells["std-duel-swapped"]]).splitlines()[0]
    assert line.startswith("Spades (std), line-up duel swapped (North–South (seats 0 and 2) "
                           "random; East–West")


# --- seats and sides ----------------------------------------------------------------------

@pytest.mark.parametrize("players, sides", [(4, 2), (2, 2), (3, 3), (4, 4), (5, 5), (6, 3),
                                            (6, 2), (6, 6), (8, 4)])
def test_side_names_are_the_engines_sides(players, sides):
    """Each named side holds exactly the seats the engine scores together."""
    names = side_names(players, sides)
    members = Table(players, sides).members
    assert [n["seats"] for n in names] == [list(m) for m in members]
    for n in names:
        seats = n["seats"]
        if (players, sides) == (4, 2):
            assert n["name"] == {0: "North–South (seats 0 and 2)",
                                 1: "East–West (seats 1 and 3)"}[seats[0]]
        elif len(seats) == 1:
            assert n["name"] == f"seat {seats[0]}"
        else:
            assert n["name"] == ("seats " + ", ".join(map(str, seats[:-1]))
                                 + f" and {seats[-1]}")


def test_every_table_named_by_its_seats(tables_run):
    """Cutthroat, three, five, six in pairs and in threes, eight: the figures recomputed, each
    group of the table headed by its sides, the figure of a side that side's own."""
    cells = summarize(tables_run)
    check_spades(tables_run, cells)
    text = format_summary(cells)
    for heading in ("Four players, each playing for himself (a column per seat: 0, 1, 2 "
                    "and 3):",
                    "Three players, each playing for himself (a column per seat: 0, 1 and 2):",
                    "Five players, each playing for himself (a column per seat: 0, 1, 2, 3 "
                    "and 4):",
                    "Six players in three teams: seats 0 and 3, seats 1 and 4, seats 2 and 5:",
                    "Six players in two teams: seats 0, 2 and 4 against seats 1, 3 and 5:",
                    "Eight players in four teams: seats 0 and 4, seats 1 and 5, seats 2 and 6, "
                    "seats 3 and 7:"):
        assert heading in text.splitlines()
    for variant in ("threes", "five"):
        cell = next(c for c in cells if c["variant"] == variant)
        ref = spades_reference(tables_run, cell)
        lines = format_summary([cell]).splitlines()
        points = [line[15:] for line in lines if line[15:].startswith("seat")][-len(ref["points"]):]
        names = [s["name"] for s in side_names(*shape(table_of(tables_run, "hands", cell)))]
        for line, name, r in zip(points, names, ref["points"], strict=True):
            assert line.startswith(name + "  ")
            for printed, value in zip(ranges(line)[0], r, strict=True):
                close(printed, value)
    assert any(line.startswith("Games won      seats 0, 2 and 4  ")
               for line in format_summary([c for c in cells if c["variant"] == "threes"])
               .splitlines())
    assert "nan" not in text and "None" not in text


# --- Portland -----------------------------------------------------------------------------

def test_portland_figures_recomputed(portland_run):
    cells = summarize(portland_run)
    assert [c["variant"] for c in cells] == list(PORTLAND["variants"])
    rows = {}  # the table's entries by cell, from the reference
    for c in cells:
        h, g = table_of(portland_run, "hands", c), table_of(portland_run, "games", c)
        by = h.groupby("game_id")
        held = h[["honours_0", "honours_1"]].to_numpy()
        four, three = (held == 4).any(axis=1), (held == 3).any(axis=1)
        assert c["hands"] == len(h) and c["games"] == len(g)
        won = [wilson((g["winner"] == k).sum(), len(g)) for k in (0, 1)]
        points = [cluster_ratio(by[f"points_{k}"].sum(), by.size()) for k in (0, 1)]
        for k in (0, 1):
            same(c["won"][k], won[k])
            same(c["points"][k], points[k])
        same(c["length"], t_mean(g["n_hands"]))
        if c["rules"]["trump"] == "none":
            assert c["four"] is None and c["three"] is None
            held_share = [None, None]
        else:
            held_share = [wilson(four.sum(), len(h)), wilson(three.sum(), len(h))]
            same(c["four"], held_share[0], four.sum(), len(h))
            same(c["three"], held_share[1], three.sum(), len(h))
        scored = (h[["honours_points_0", "honours_points_1"]] > 0).any(axis=1).to_numpy()
        honours = [None, None, None]
        if c["rules"]["honours"]:
            k, n = (scored & (held >= 3).any(axis=1)).sum(), (held >= 3).any(axis=1).sum()
            honours = [wilson(k, n)] + [
                cluster_ratio(by[f"honours_points_{s}"].sum(), by.size()) for s in (0, 1)]
            same(c["scored"], honours[0], k, n)
            assert 0 < k < n
            for s in (0, 1):
                same(c["honours_points"][s], honours[1 + s])
        else:
            assert c["scored"] is None and c["honours_points"] is None and not scored.any()
        rows[cell_key(c)] = ([(r, 100) for r in won] + [(t_mean(g["n_hands"]), 1)]
                             + [(r, 100) for r in held_share] + [(honours[0], 100)]
                             + [(r, 1) for r in honours[1:]] + [(r, 1) for r in points])
    check_rows(format_summary(cells), cells, rows)
    by = {c["variant"]: format_summary([c]).splitlines() for c in cells}
    assert "Honours scored  never: the rules do not count honours" in by["plain"]
    assert "Honours        none: no trumps in these rules" in by["no_trump"]
    assert by["laws"][1].startswith("Rubbers won     North–South (seats 0 and 2)")
    assert any(line.startswith("Rubber length") for line in by["laws"])
    assert any("East–West (seat 1 with the dummy at seat 3)" in line for line in by["dummy"])
    k = int((table_of(portland_run, "games", cells[0])["winner"] == 0).sum())
    assert f"North–South (seats 0 and 2)  {k:>2} games, " in by["plain"][1]
    text = format_summary(cells)
    assert "honours held: the share of hands in which one team held all four" in " ".join(
        text.splitlines())
    assert "nan" not in text and "None" not in text


# --- Norwegian ----------------------------------------------------------------------------

def norwegian_reference(h: pd.DataFrame, players: int) -> dict:
    """Declarations and contracts made, as RULES.md §2 words them."""
    book = 8 if players == 3 else 6
    tricks = h[[f"tricks_{s}" for s in range(players)]].to_numpy()
    if players == 4:
        tricks = tricks + tricks[:, [2, 3, 0, 1]]  # the partnership's tricks

    def of(col):
        seat = h[col].to_numpy()
        return np.where(seat >= 0, tricks[np.arange(len(h)), np.maximum(seat, 0)], -1)

    contract, forced = h["contract"].to_numpy(), h["forced"].to_numpy()
    grand_up, declarer_takes = of("grand_player") > book, of("declarer")
    kinds = {2: {"grand": (contract == 1, grand_up),
                 "misere": (contract == 2, declarer_takes <= book)},
             3: {"grand": ((contract == 1) & ~forced, grand_up),
                 "forced": ((contract == 1) & forced, grand_up)},
             4: {"grand": (contract == 1, grand_up),
                 "nullo": ((contract == 3) & ~forced, declarer_takes <= book),
                 "passed": ((contract == 3) & forced, None)}}[players]
    return kinds


def test_norwegian_figures_recomputed(norwegian_run):
    cells = summarize(norwegian_run)
    rows = {}
    for c in cells:
        h, g = table_of(norwegian_run, "hands", c), table_of(norwegian_run, "games", c)
        players = c["rules"]["players"]
        sides = 2 if players == 4 else players
        assert c["players"] == players and len(c["sides"]) == sides
        kinds = norwegian_reference(h, players)
        assert list(c["declared"]) == list(kinds)
        declared, made_shares = [], []
        for key, (chosen, made) in kinds.items():
            declared.append(wilson(chosen.sum(), len(h)))
            same(c["declared"][key], declared[-1], chosen.sum(), len(h))
            if made is None:
                assert key not in c["made"]
                continue
            k, n = (chosen & made).sum(), chosen.sum()
            made_shares.append(wilson(k, n) if n else None)
            if n:
                same(c["made"][key], made_shares[-1], k, n)
            else:
                assert c["made"][key] is None
        by = h.groupby("game_id")
        won = [wilson((g["winner"] == k).sum(), len(g)) for k in range(sides)]
        points = [cluster_ratio(by[f"points_{k}"].sum(), by.size()) for k in range(sides)]
        for k in range(sides):
            same(c["won"][k], won[k])
            same(c["points"][k], points[k])
        ends = [wilson(g["draw"].sum(), len(g)), wilson((~g["finished"]).sum(), len(g))]
        same(c["drawn"], ends[0])
        same(c["unfinished"], ends[1])
        same(c["length"], t_mean(g["n_hands"]))
        rows[cell_key(c)] = ([(r, 100) for r in won + ends] + [(t_mean(g["n_hands"]), 1)]
                             + [(r, 100) for r in declared + made_shares]
                             + [(r, 1) for r in points])
    check_rows(format_summary(cells), cells, rows)
    by = {(c["variant"], c["lineup"]): format_summary([c]).splitlines() for c in cells}
    two = by["two", "seed"]
    assert 'Games won       none: under scoring "both" every player scores the same every hand' \
        in two
    assert any(line.startswith("Drawn") for line in two)
    assert any("the non-dealer chose misère in" in line for line in two)
    assert any(line.startswith("Games won       seat 0 ") for line in by["declarer", "seed"])
    assert any("all passed and the dealer had to play grand in" in line
               for line in by["three", "seed"])
    classic = by["classic", "seed"]
    assert any(line.startswith("Games won       North–South (seats 0 and 2)")
               for line in classic)
    assert any("nullo was bid in" in line for line in classic)
    text = format_summary(cells)
    for heading in ("Two players, each playing for himself (a column per seat: 0 and 1):",
                    "Three players, each playing for himself (a column per seat: 0, 1 and 2):",
                    "Four players in two teams: North–South (seats 0 and 2) against East–West "
                    "(seats 1 and 3):"):
        assert heading in text.splitlines()
    assert "nan" not in text and "None" not in text


# --- the tallies kept in the block files -------------------------------------------------

def _strip_tallies(folder: Path) -> None:
    """Rewrite every hands file of ``folder`` without its ``summary`` tallies, as a file made
    before they were kept (the table itself unchanged)."""
    for path in (folder / "hands").glob("*.parquet"):
        table = pq.read_table(path)
        meta = dict(table.schema.metadata)
        block = json.loads(meta[b"whistlab"])
        assert "summary" in block  # the runner keeps them
        del block["summary"]
        meta[b"whistlab"] = json.dumps(block).encode()
        pq.write_table(table.replace_schema_metadata(meta), path)


@pytest.mark.parametrize("name", ["spades_games", "spades_hands", "rules_run", "tables_run",
                                  "portland_run", "norwegian_run"])
def test_kept_tallies_equal_the_tables(name, request, tmp_path):
    """The tallies each block keeps (taken by the runner from the tables in memory, before the
    columns its rules do not bring are left out) equal those taken again from the files as
    written (`reports.tallies.file_tallies`), so the summary says the same either way."""
    folder = request.getfixturevalue(name)
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    _strip_tallies(copy)
    kept, taken = summarize(folder), summarize(copy)
    assert len(kept) == len(taken) > 0
    for a, b in zip(kept, taken, strict=True):
        assert a.keys() == b.keys()
        for key in a:
            assert _close(a[key], b[key]), (key, a[key], b[key])
    assert format_summary(kept) == format_summary(taken)


def _close(a, b) -> bool:
    """Equal, floats to 1e-9 relative (sums taken in another order)."""
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if hasattr(a, "__dataclass_fields__"):
        return _close(vars(a), vars(b))
    if isinstance(a, float):
        return b == pytest.approx(a, rel=1e-9, abs=1e-12, nan_ok=True)
    return a == b


def test_tallies_follow_the_tables(spades_hands, tmp_path):
    """The summary reads the tallies, not a copy of the figures: a block whose kept tallies
    are changed prints other figures (so the test above could fail)."""
    copy = tmp_path / "copy"
    shutil.copytree(spades_hands, copy)
    path = sorted((copy / "hands").glob("*.parquet"))[0]
    table = pq.read_table(path)
    meta = dict(table.schema.metadata)
    block = json.loads(meta[b"whistlab"])
    block["summary"]["moments"]["nil"][1] += 25  # 25 more nil bids in this block
    meta[b"whistlab"] = json.dumps(block).encode()
    pq.write_table(table.replace_schema_metadata(meta), path)
    (before,), (after,) = summarize(spades_hands), summarize(copy)
    assert after["nil_bid"].k == before["nil_bid"].k + 25


def test_the_summary_imports_no_polars(spades_games):
    """Printing a run's summary reads the kept tallies: neither the tables nor polars (whose
    import alone costs ``whistlab run`` about 0.2 s of CPU)."""
    code = ("import sys; from reports import format_summary, summarize; "
            f"format_summary(summarize({str(spades_games)!r})); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('polars', 'pandas')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[1])
    assert out.stdout.strip() == "[]"
