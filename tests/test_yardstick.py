"""The double-dummy yardstick (issue 9 item 4: `whistlab.yardstick`, ``whistlab yardstick``,
`reports.yardstick`).

Hand-made deals whose double-dummy result is obvious are solved through the same path as a run's
hands; the engine's bitmasks become endplay deals card by card (also from a layout that is not the
standard one); DDS's answer is checked against its own double-dummy table (another entry point of
the library, where the declarer's left-hand opponent leads); a tiny run is solved, its rows
recomputed from the hands table, its sample drawn again, and its command's errors are one line
each; the report shows the section, says that Spades is approximated without spades broken, and
its numbers are recomputed from the yardstick's rows.

Tests that solve deals need the optional extra ``dds`` (endplay, in the test extra); without it
they are skipped and the ones that check the missing-extra error still run.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys

import numpy as np
import pandas as pd
import polars as pl
import pyarrow.parquet as pq
import pytest

import whistlab
from clusters import ratio_interval
from harness import documented_columns
from reports import build_report
from reports.yardstick import read_yardstick
from sim.cards import RANKS, SUITS, Deck, standard_deck
from sim.errors import UserError
from sim.options import PRESETS, rules_to_dict
from whistlab.cli import main
from whistlab.yardstick import (
    APPROXIMATION_NOTE,
    compute_yardstick,
    dd_tricks,
    plan_cell,
    sample_keys,
    to_deal,
)
from written import read_whole_polars

try:
    import endplay  # noqa: F401

    HAVE_ENDPLAY = True
except ImportError:
    HAVE_ENDPLAY = False

needs_dds = pytest.mark.skipif(not HAVE_ENDPLAY, reason="the dds extra (endplay) is not "
                               "installed: pip install 'whistlab[dds]'")

DECK = standard_deck()
C, D, H, S = range(4)
NT = -1


def suit(s: int) -> int:
    """The bitboard of a whole suit (0..3 = C, D, H, S) in the standard layout."""
    return ((1 << 13) - 1) << (13 * s)


def cards(*names: str) -> int:
    return sum(1 << DECK.bit_of(n) for n in names)


def random_deals(k: int, seed: int) -> np.ndarray:
    """uint64[k, 4]: k random deals of 13 cards each."""
    rng = np.random.default_rng(seed)
    out = np.zeros((k, 4), np.uint64)
    for i in range(k):
        order = rng.permutation(52)
        for seat in range(4):
            out[i, seat] = sum(1 << int(b) for b in order[13 * seat:13 * seat + 13])
    return out


# --- hand-made deals ---------------------------------------------------------------------------


@needs_dds
@pytest.mark.parametrize("leader", range(4))
def test_all_thirteen_trumps_take_every_trick(leader):
    """Seat 0 holds the 13 spades: void everywhere else, he ruffs whatever is led and wins what
    he leads, so side 0 takes 13 tricks whoever leads; under no trump he takes only the tricks
    he leads to, and the first lead decides."""
    bits = [b for b in range(52) if not suit(S) >> b & 1]  # the other 39 cards, shuffled
    others = np.random.default_rng(leader).permutation(39)
    hands = [suit(S)] + [sum(1 << bits[i] for i in others[13 * k:13 * k + 13]) for k in range(3)]
    assert dd_tricks([hands], DECK, S, leader).tolist() == [[13, 0]]
    # no trump: seat 0's spades are all winners once he is on lead; led by him, 13 tricks
    if leader == 0:
        assert dd_tricks([hands], DECK, NT, 0).tolist() == [[13, 0]]


@needs_dds
@pytest.mark.parametrize("leader", range(4))
def test_whole_suits_the_leaders_suit_rules(leader):
    """Each seat holds one whole suit (seat 0 clubs, 1 diamonds, 2 hearts, 3 spades). Under no
    trump nobody can follow the leader's suit and nothing else wins: the leader takes all 13.
    With spades trump seat 3 ruffs every trick he does not lead: side 1 takes all 13."""
    hands = [suit(C), suit(D), suit(H), suit(S)]
    side = leader % 2
    assert dd_tricks([hands], DECK, NT, leader)[0, side] == 13
    assert dd_tricks([hands], DECK, NT, leader)[0, 1 - side] == 0
    assert dd_tricks([hands], DECK, S, leader).tolist() == [[0, 13]]
    # with hearts trump seat 2 ruffs instead, and side 0 takes them all
    assert dd_tricks([hands], DECK, H, leader).tolist() == [[13, 0]]


@needs_dds
@pytest.mark.parametrize("leader", range(4))
def test_no_trump_top_cards_of_every_suit(leader):
    """Seat 2 holds A, K, Q of every suit and the JS: under no trump he wins the first trick
    he plays to (an ace) and every card he leads is then the highest of its suit: side 0 takes
    13 tricks whoever leads."""
    top = cards(*[r + s for s in SUITS for r in "AKQ"], "JS")
    rest = [b for b in range(52) if not top >> b & 1]
    hands = [sum(1 << b for b in rest[0:13]), sum(1 << b for b in rest[13:26]), top,
             sum(1 << b for b in rest[26:39])]
    assert dd_tricks([hands], DECK, NT, leader).tolist() == [[13, 0]]


@needs_dds
def test_turning_the_table_swaps_the_sides():
    """Every hand moved one seat to the left, and the lead with it: the other side holds the
    same cards in the same positions, so the two sides' tricks swap."""
    hands = random_deals(3, 11)
    for h in hands:
        for leader in range(4):
            base = dd_tricks([h], DECK, S, leader)[0]
            turned = np.roll(h, 1)  # seat s's cards go to seat s + 1: the other side holds them
            other = dd_tricks([turned], DECK, S, (leader + 1) % 4)[0]
            assert other.tolist() == base[::-1].tolist()


@needs_dds
def test_against_the_double_dummy_table():
    """The leader's side's tricks (SolveBoard from the leader) equal endplay's double-dummy
    table (CalcDDtable) read at the declarer on the leader's right, in every strain."""
    from endplay.dds import calc_dd_table
    from endplay.types import Denom, Player

    for h in random_deals(3, 5):
        table = calc_dd_table(to_deal(h, DECK, NT, 0))
        for trump, denom in ((C, Denom.clubs), (H, Denom.hearts), (S, Denom.spades),
                             (NT, Denom.nt)):
            for leader in range(4):
                declarer = Player((leader - 1) % 4)
                by_declarer = table[denom, declarer]
                ours = dd_tricks([h], DECK, trump, leader)[0]
                assert ours[declarer % 2] == by_declarer, (trump, leader)
                assert ours.sum() == 13


# --- the engine's bitmasks as endplay deals ----------------------------------------------------


def endplay_names(hand) -> set[str]:
    """An endplay hand's cards in whistlab's names, from each card's rank (``Rank.RA``) and
    suit (``Denom`` 0..3 = S, H, D, C)."""
    return {card.rank.name[1:] + "SHDC"[int(card.suit)] for card in hand}


@needs_dds
def test_to_deal_card_by_card():
    from endplay.types import Denom, Player

    for i, h in enumerate(random_deals(5, 3)):
        trump, leader = [C, D, H, S, NT][i], i % 4
        deal = to_deal(h, DECK, trump, leader)
        for seat in range(4):
            ours = set(DECK.names_of(h[seat]))
            assert len(ours) == 13
            assert endplay_names(deal[Player(seat)]) == ours, seat
        assert deal.first == Player(leader)
        assert deal.trump == {C: Denom.clubs, D: Denom.diamonds, H: Denom.hearts,
                              S: Denom.spades, NT: Denom.nt}[trump]
    # the named example: North's AS, East's 2C
    h = [cards("AS") | (suit(H) & ~cards("AH")), cards("2C", "AH") | (suit(D) & ~cards("2D")),
         0, 0]
    rest = [b for b in range(52) if not (h[0] | h[1]) >> b & 1]
    h[2] = sum(1 << b for b in rest[:13])
    h[3] = sum(1 << b for b in rest[13:])
    deal = to_deal(h, DECK, S, 1)
    assert "AS" in endplay_names(deal.north) and "2C" in endplay_names(deal.east)
    assert "AH" in endplay_names(deal.east) and "AH" not in endplay_names(deal.north)


@needs_dds
def test_to_deal_from_another_layout():
    """A layout whose suits lie in other bit ranges (spades lowest, clubs highest) and whose
    names say which card is where: the deal is read from the names' ranks, card by card."""
    order = "SHDC"  # bit ranges: spades 0..12, hearts 13..25, diamonds 26..38, clubs 39..51
    names = tuple(r + s for s in order for r in RANKS) + ("",) * 12
    masks = np.zeros(4, np.uint64)
    for i, s in enumerate(order):
        masks[SUITS.index(s)] = np.uint64(((1 << 13) - 1) << (13 * i))
    other = Deck(names=names, suit_masks=masks)
    from endplay.types import Player

    std = random_deals(2, 9)
    for h in std:
        moved = [sum(1 << other.bit_of(n) for n in DECK.names_of(x)) for x in h]
        deal = to_deal(moved, other, S, 0)
        for seat in range(4):
            assert endplay_names(deal[Player(seat)]) == set(DECK.names_of(h[seat]))
        assert dd_tricks([moved], other, S, 2).tolist() == dd_tricks([h], DECK, S, 2).tolist()


def test_a_bad_deal_is_refused():
    h = random_deals(1, 1)[0].copy()
    h[1] = h[0]  # seat 1 holds seat 0's cards: 26 cards missing
    with pytest.raises(UserError, match="not a deal of the 52 cards"):
        dd_tricks([h], DECK, S, 0)


# --- which variants are solved ------------------------------------------------------------------


def cell(preset: str, **changes) -> dict:
    rules = rules_to_dict(PRESETS[preset])
    rules.update(changes)
    return {"variant": preset, "lineup": "x", "swapped": False, "rules": rules}


@pytest.mark.parametrize("preset, changes, needle", [
    ("spades.three", {}, "3 players"),
    ("spades.five", {}, "5 players"),
    ("spades.six", {}, "6 players"),
    ("spades.cutthroat", {}, "cutthroat"),
    ("spades.jokers", {}, "suits of"),
    ("norwegian", {}, "2 players"),
    ("norwegian.three", {}, "3 players"),
    ("spades.standard", {"trump_order": "suit_ladder"}, "suit_ladder"),
    ("spades.standard", {"trump_order": "bowers"}, "bowers"),
    ("spades.standard", {"pass_cards": {"count": 3, "direction": "left"}}, "card passing"),
    ("spades.standard", {"nil_pass": [1, 1]}, "card passing"),
])
def test_unsolvable_variants_are_skipped_with_a_reason(preset, changes, needle):
    plan = plan_cell(cell(preset, **changes))
    assert plan.skip is not None and needle in plan.skip, plan.skip


@pytest.mark.parametrize("preset, changes, expect", [
    ("spades.standard", {}, ["spades_broken"]),
    ("spades.openspiel", {}, ["spades_broken = never"]),
    ("spades.standard", {"spades_broken": False}, []),
    ("spades.standard", {"must_trump": True, "first_lead": "two_of_clubs"},
     ["spades_broken", "first_lead = two_of_clubs", "must_trump"]),
    ("portland", {}, []),
    ("portland.no_trump", {}, []),
    ("portland.dummy", {}, []),
    ("norwegian.classic", {}, []),
])
def test_solvable_variants_and_their_approximations(preset, changes, expect):
    plan = plan_cell(cell(preset, **changes))
    assert plan.skip is None
    assert [a.split(":")[0] for a in plan.approximations] == expect


# --- the sample ----------------------------------------------------------------------------------


def test_the_sample_is_seeded_exact_and_order_free(tmp_path):
    ids = []
    for i in range(3):
        frame = pl.DataFrame({"game_id": np.arange(100 * i, 100 * i + 100, dtype=np.int64),
                              "hand_no": np.ones(100, np.int16)})
        frame.write_parquet(tmp_path / f"{i}.parquet")
        ids.append(tmp_path / f"{i}.parquet")
    dup = tmp_path / "dup.parquet"  # another cell of the same deals
    pl.read_parquet(ids[1]).write_parquet(dup)
    a = sample_keys(ids + [dup], 40, seed=3)
    assert len(a) == 40 == len(set(a.tolist()))
    assert np.array_equal(a, sample_keys([dup, ids[2], ids[0], ids[1]], 40, seed=3))
    assert not np.array_equal(a, sample_keys(ids, 40, seed=4))
    assert set((a >> 16).tolist()) <= set(range(300)) and set((a & 0xFFFF).tolist()) == {1}
    # a larger sample holds the smaller one (the smallest hashes first), and all is all
    assert set(a.tolist()) <= set(sample_keys(ids, 80, seed=3).tolist())
    assert len(sample_keys(ids, 1000, seed=3)) == 300
    # the sample is spread over the deals: each third of the ids gets some of the 40
    counts = np.bincount((a >> 16) // 100, minlength=3)
    assert (counts > 0).all(), counts


# --- a tiny run ----------------------------------------------------------------------------------


RUN = {"name": "ys", "hands": 48, "seed": 5, "block_size": 16,
       "variants": {"std": "spades.standard",
                    "pass": {"preset": "spades.standard",
                             "pass_cards": {"count": 1, "direction": "left"}},
                    "mo": {"preset": "spades.standard", "mo_b": True, "seven_trump_reveal": True}},
       "lineups": {"duel": {"sides": ["seed", "random"], "swap": True}}}
SAMPLE = 12


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    if not HAVE_ENDPLAY:
        pytest.skip("the dds extra (endplay) is not installed")
    folder = whistlab.run(RUN, tmp_path_factory.mktemp("yardstick") / "r", n_jobs=1)
    info = compute_yardstick(folder, sample=SAMPLE, seed=2, n_jobs=1)
    return folder, info


def test_the_run_is_solved_beside_its_tables(run):
    folder, info = run
    parts = sorted((folder / "yardstick").glob("part-*.parquet"))
    assert parts and all(p.name.split("-")[1] in ("std", "mo") for p in parts)
    assert json.loads((folder / "yardstick" / "manifest.json").read_text()) == info
    assert info["variants"]["pass"]["solved"] is False
    assert "card passing" in info["variants"]["pass"]["skip"]
    assert info["note"] == APPROXIMATION_NOTE
    y = pl.read_parquet(parts)
    assert y.columns == ["variant", "lineup", "swapped", "game_id", "hand_no", "dealer",
                         "trump", "leader", "declarer", "dd_tricks_0", "dd_tricks_1",
                         "tricks_0", "tricks_1"]
    # every solvable cell on the same SAMPLE deals
    assert y.height == info["rows"] == 4 * SAMPLE
    keys = y.group_by("variant", "swapped").agg(pl.struct("game_id", "hand_no").sort())
    assert keys["game_id"].n_unique() == 1
    assert ((y["dd_tricks_0"].cast(pl.Int16) + y["dd_tricks_1"]) == 13).all()
    # one block per file, as the hands table: blocks of 16 hands
    for p in parts:
        block = int(p.stem.split("-")[-1])
        got = pl.read_parquet(p)["game_id"]
        assert ((got // 16) == block).all()
    # the same deal, trump and leader is solved once: at most one solve per deal and variant
    assert info["solved"] <= 2 * SAMPLE


def test_columns_and_types_are_documented(run):
    """The yardstick's files hold exactly the columns and types of docs/SCHEMA.md's table."""
    folder, _ = run
    for part in sorted((folder / "yardstick").glob("part-*.parquet")):
        schema = pq.read_schema(part)
        assert {f.name: str(f.type) for f in schema} == documented_columns("spades", "yardstick")
        meta = json.loads(schema.metadata[b"whistlab"])
        assert meta["yardstick"]["seed"] == 2 and meta["cell"] == part.stem[5:-6]


def test_each_row_recomputed_from_the_hands_table(run):
    """Each row's leader, trump and double-dummy tricks again, from the hands table alone."""
    folder, _ = run
    y = pl.read_parquet(folder / "yardstick" / "*.parquet")
    std = read_whole_polars(folder / "hands" / "part-std-*.parquet")
    hands = std.vstack(read_whole_polars(folder / "hands" / "part-mo-*.parquet")
                       .select(std.columns))
    joined = y.join(hands, on=["variant", "lineup", "swapped", "game_id", "hand_no"])
    assert joined.height == y.height
    for r in joined.iter_rows(named=True):
        leader = (r["dealer"] + 1) % 4
        if r[f"side_contract_{1 - leader % 2}"] in (4, 5):  # Mo (RULES.md §4.4): its side leads
            leader = (leader + 1) % 4
        assert r["leader"] == leader
        assert r["trump"] == r["trump_right"]
        hs = [r[f"hand_{s}"] for s in range(4)]
        assert dd_tricks([hs], DECK, r["trump"], leader)[0].tolist() == [r["dd_tricks_0"],
                                                                         r["dd_tricks_1"]]
        assert r["tricks_0"] == r["tricks_0_right"] + r["tricks_2"]
        assert r["tricks_1"] == r["tricks_1_right"] + r["tricks_3"]


def test_the_same_seed_the_same_yardstick_any_n_jobs(run, tmp_path):
    folder, info = run
    first = pl.read_parquet(folder / "yardstick" / "*.parquet")
    again = compute_yardstick(folder, sample=SAMPLE, seed=2, n_jobs=2)
    assert pl.read_parquet(folder / "yardstick" / "*.parquet").equals(first)
    assert again["deals"] == info["deals"] and again["rows"] == info["rows"]
    other = compute_yardstick(folder, sample=SAMPLE, seed=3, n_jobs=1)
    keys = pl.read_parquet(folder / "yardstick" / "*.parquet").select("game_id", "hand_no")
    assert other["deals"] == SAMPLE
    assert not keys.sort(pl.all()).equals(first.select("game_id", "hand_no").sort(pl.all()))
    compute_yardstick(folder, sample=SAMPLE, seed=2, n_jobs=1)  # as the other tests expect
    assert pl.read_parquet(folder / "yardstick" / "*.parquet").equals(first)
    assert not list(folder.glob(".yardstick*"))  # no temporary folder left


@needs_dds
@pytest.mark.parametrize("preset, trumps", [("portland", {0, 1, 2, 3}),
                                            ("portland.no_trump", {-1})])
def test_portland_trump_and_elder_hand(tmp_path, preset, trumps):
    folder = whistlab.run({"name": "p", "rules": preset, "hands": 40, "seed": 1, "block_size": 40},
                     tmp_path / "p", n_jobs=1)
    compute_yardstick(folder, sample=10, seed=1, n_jobs=1)
    y = pl.read_parquet(folder / "yardstick" / "*.parquet")
    hands = pl.read_parquet(folder / "hands" / "*.parquet")  # Portland writes every column
    joined = y.join(hands, on=["game_id", "hand_no"])
    assert joined.height == 10
    assert (joined["trump"] == joined["trump_right"]).all()
    assert set(joined["trump"].to_list()) <= trumps
    assert (joined["leader"] == (joined["dealer"] + 1) % 4).all()
    r = joined.row(0, named=True)
    hs = [r[f"hand_{s}"] for s in range(4)]
    assert dd_tricks([hs], DECK, r["trump"], r["leader"])[0, 0] == r["dd_tricks_0"]


@needs_dds
def test_norwegian_grand_hands_only(tmp_path):
    folder = whistlab.run({"name": "n", "rules": "norwegian.classic", "hands": 60, "seed": 1,
                      "block_size": 60}, tmp_path / "n", n_jobs=1)
    info = compute_yardstick(folder, sample=20, seed=1, n_jobs=1)
    y = pl.read_parquet(folder / "yardstick" / "*.parquet")
    hands = pl.read_parquet(folder / "hands" / "*.parquet")  # Norwegian writes every column
    sampled = hands.join(y.select("game_id", "hand_no"), on=["game_id", "hand_no"])
    joined = y.join(hands, on=["game_id", "hand_no"])
    assert (joined["contract"] == 1).all() and (joined["trump"] == -1).all()
    assert (joined["leader"] == joined["leader_right"]).all()
    assert (joined["declarer"] == joined["declarer_right"]).all()
    assert info["cells"][0]["left_out"] + y.height == 20
    assert sampled.height == y.height
    assert "nullo" in info["variants"]["norwegian.classic"]["left_out"]


# --- the command ---------------------------------------------------------------------------------


def one_error_line(capsys, argv, *needles):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 2, err
    assert "Traceback" not in err and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("whistlab: error: "), err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


@needs_dds
def test_the_command(run, capsys):
    folder, _ = run
    assert main(["yardstick", str(folder), "--sample", "5", "--seed", "9", "--n-jobs", "1",
                 "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert f"yardstick: {folder / 'yardstick'}" in out
    assert "sample: 5 deals (seed 9)" in out and "skipped pass: card passing" in out
    assert "without the spades-broken rule" in out
    assert json.loads((folder / "yardstick" / "manifest.json").read_text())["deals"] == 5
    compute_yardstick(folder, sample=SAMPLE, seed=2, n_jobs=1)  # back for the other tests


def test_command_errors(tmp_path, capsys):
    one_error_line(capsys, ["yardstick", tmp_path / "none"], "no such results folder")
    (tmp_path / "file").write_text("x")
    one_error_line(capsys, ["yardstick", tmp_path / "file"], "is a file")
    (tmp_path / "empty").mkdir()
    one_error_line(capsys, ["yardstick", tmp_path / "empty"], "no manifest.json")
    for bad in (["--sample", "0"], ["--sample", "many"], ["--n-jobs", "0"], ["--seed", "-1"]):
        one_error_line(capsys, ["yardstick", tmp_path / "empty", *bad], bad[0])
    assert not (tmp_path / "empty" / "yardstick").exists()


@needs_dds
def test_command_errors_on_runs(tmp_path, capsys):
    two = whistlab.run({"name": "t", "rules": "norwegian", "hands": 8, "seed": 1}, tmp_path / "two",
                  n_jobs=1)
    one_error_line(capsys, ["yardstick", two], "no variant of this run can be solved",
                   "2 players")
    assert not (two / "yardstick").exists()
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "manifest.json").write_text((two / "manifest.json").read_text())
    one_error_line(capsys, ["yardstick", bare], "no hands table")
    (bare / "manifest.json").write_text("{}")
    one_error_line(capsys, ["yardstick", bare], "not a whistlab manifest")
    # a hands table whose cards are not a deal: named by game and hand, nothing written
    std = whistlab.run({"name": "s", "rules": "spades.standard", "hands": 8, "seed": 1},
                  tmp_path / "std", n_jobs=1)
    part = next((std / "hands").glob("*.parquet"))
    pl.read_parquet(part).with_columns(hand_1=pl.col("hand_0")).write_parquet(part)
    (std / "journal.jsonl").write_text(re.sub(  # as if the run had written it: its checksum
        r'("file":"hands/[^"]+","sha256":")[0-9a-f]+"',
        rf'\g<1>{hashlib.sha256(part.read_bytes()).hexdigest()}"',
        (std / "journal.jsonl").read_text()))
    one_error_line(capsys, ["yardstick", std, "--sample", "3", "--n-jobs", "1"],
                   "not a deal of the 52 cards", "game ")
    assert not (std / "yardstick").exists() and not list(std.glob(".yardstick*"))


def test_without_endplay_the_error_says_how_to_install(tmp_path, capsys, monkeypatch):
    folder = whistlab.run({"name": "s", "rules": "spades.standard", "hands": 8, "seed": 1},
                     tmp_path / "s", n_jobs=1)
    for name in [m for m in sys.modules if m == "endplay" or m.startswith("endplay.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "endplay", None)  # import endplay raises ImportError
    one_error_line(capsys, ["yardstick", folder, "--quiet"], "pip install 'whistlab[dds]'")
    assert not (folder / "yardstick").exists()
    # the core keeps working: the report of the run, without the section
    index = build_report(folder, folder / "report")
    assert "Double-dummy yardstick" not in index.read_text()


# --- the report ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def report(run):
    folder, _ = run
    compute_yardstick(folder, sample=SAMPLE, seed=2, n_jobs=1)
    index = build_report(folder, folder / "report")
    return folder, index


def test_the_report_section(report):
    folder, index = report
    page = index.read_text()
    assert "Double-dummy yardstick" in page
    assert "approximated without the spades-broken rule" in page
    md = (folder / "report" / "summary.md").read_text()
    assert "## Double-dummy yardstick" in md and "without the spades-broken rule" in md
    assert md.index("## Double-dummy yardstick") < md.index("## How to read this report")
    assert "pass: skipped, card passing" in md
    for name in ("yardstick_tricks", "yardstick_bids"):
        assert (folder / "report" / "tables" / f"{name}.csv").is_file()


def test_the_report_numbers_from_the_rows(report):
    """simulated − DD of side 0 of the unswapped duel in std, and its interval, from the
    yardstick rows with numpy and scipy; the share of contracts DD would make, from the bids."""
    folder, _ = report
    y = pl.read_parquet(folder / "yardstick" / "*.parquet").filter(variant="std",
                                                                     swapped=False)
    diff = (y["tricks_0"].cast(pl.Int16) - y["dd_tricks_0"]).to_numpy().astype(float)
    table = pl.read_csv(folder / "report" / "tables" / "yardstick_tricks.csv")
    row = table.filter(variant="std", lineup="duel", swapped=False, side=0).row(0, named=True)
    assert row["side_hands"] == len(diff)
    assert row["diff"] == pytest.approx(diff.mean())
    # the sampled hands of one game share its score: the game id is the cluster
    frame = pd.DataFrame({"g": y["game_id"].to_numpy(), "n": 1, "d": diff})
    assert (row["diff_lo"], row["diff_hi"]) == pytest.approx(
        ratio_interval(frame, "g", "n", "d")[1:])
    assert row["abs_diff"] == pytest.approx(np.abs(diff).mean())
    assert row["strategy"] == "seed"
    hands = read_whole_polars(folder / "hands" / "part-std-duel-0*.parquet")
    j = y.join(hands, on=["game_id", "hand_no"])
    bid = j.select(b=pl.when(pl.col("bid_0") > 0).then(pl.col("bid_0")).otherwise(0)
                   + pl.when(pl.col("bid_2") > 0).then(pl.col("bid_2")).otherwise(0),
                   ok=(pl.col("bid_0") >= 0) & (pl.col("bid_2") >= 0)
                   & (pl.col("side_contract_0") == 0), dd=pl.col("dd_tricks_0"))
    bid = bid.filter(pl.col("ok") & (pl.col("b") > 0))
    bids = pl.read_csv(folder / "report" / "tables" / "yardstick_bids.csv")
    b = bids.filter(variant="std", lineup="duel", swapped=False, side=0).row(0, named=True)
    assert b["contracts"] == bid.height
    assert b["dd_made"] == pytest.approx((bid["dd"] >= bid["b"]).mean())
    assert b["bid_minus_dd"] == pytest.approx((bid["b"] - bid["dd"]).mean())


def test_no_yardstick_no_section(report):
    folder, _ = report
    out = folder / "report2"
    (out / "tables").mkdir(parents=True)
    (out / "tables" / "yardstick_bids.csv").write_text("stale")
    moved = folder / "yardstick.away"
    (folder / "yardstick").rename(moved)
    try:
        assert read_yardstick(folder) is None
        page = build_report(folder, out).read_text()
        assert "Double-dummy yardstick" not in page
        assert not (out / "tables" / "yardstick_bids.csv").exists()
    finally:
        moved.rename(folder / "yardstick")
