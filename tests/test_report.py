"""The report (reports.build_report, `whistlab report`): its files, a self-contained page, and its
numbers recomputed independently from the small tables with pandas, numpy and scipy."""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pandas as pd
import polars as pl
import pytest
from scipy import stats

import whistlab
from clusters import ratio_interval, share_interval
from page import PRELUDE, check_links, raw, table
from reports import build_report
from reports.bags import HandBags, bag_units, bags_per_hand
from reports.data import block_pass, open_results
from reports.stats import mean_ci, proportion_ci, t_quantile, welch_ci
from sim.errors import UserError
from whistlab.cli import main

SEED_BOLD = {"name": "seed", "nil_max_estimate": 2.0, "nil_max_spades": 4}
GAMES = {"name": "t", "games": 60, "seed": 1, "block_size": 30,
         "variants": {"std": "spades.standard",
                      "count": {"preset": "spades.standard", "nil_tricks": "count"}},
         "lineups": {"seed": "seed", "duel": {"sides": ["seed", "random"], "swap": True}}}
HANDS = {"name": "h", "hands": 400, "seed": 2, "block_size": 200,
         "variants": {"std": "spades.standard",
                      "cheap": {"preset": "spades.standard", "bag_penalty": 50}},
         "lineups": {"bold": {"sides": [SEED_BOLD, "seed"], "swap": True}}}


@pytest.fixture(scope="module")
def games_run(tmp_path_factory):
    folder = whistlab.run(GAMES, tmp_path_factory.mktemp("games") / "r", n_jobs=1)
    return folder, build_report(folder, folder / "report")


@pytest.fixture(scope="module")
def hands_run(tmp_path_factory):
    folder = whistlab.run(HANDS, tmp_path_factory.mktemp("hands") / "r", n_jobs=1)
    return folder, build_report(folder, folder / "report")



# --- files and page ---------------------------------------------------------------------------

@pytest.mark.parametrize("run", ["games_run", "hands_run"])
def test_files_and_a_self_contained_page(run, request):
    folder, index = request.getfixturevalue(run)
    out = folder / "report"
    assert index == out / "index.html" and index.is_file()
    assert (out / "summary.md").read_text().startswith("# whistlab report")
    tables = {p.stem for p in (out / "tables").glob("*.csv")}
    figures = sorted((out / "figures").glob("*.png"))
    common = {"nil_rates", "nil_by_hand", "nil_partner_contract", "bags_per_hand", "points",
              "paired_variants", "head_to_head", "points_distribution", "bag_ranking",
              "bag_cost", "sandbagging"}
    games_only = {"games", "bags_per_game", "bag_game_length"}
    if run == "games_run":
        assert tables == common | games_only
    else:
        assert tables == common and not tables & games_only
    assert {"nil_rates", "nil_hands", "bags", "bag_rules", "points_distribution",
            "paired_variants", "head_to_head"} <= {p.stem for p in figures}
    for png in figures:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    page = index.read_text()
    links = check_links(index)
    images = [u for u in links.urls if u.startswith("data:")]
    assert len(images) == len(figures)
    assert links.h2[:5] == [*PRELUDE, "1. Nil", "2. Sandbags", "3. Variants and strategies"]
    assert {"summary", "run", "nil", "bags", "compare", "methods"} <= links.ids
    assert {"#summary", "#nil", "#bags", "#compare", "#methods"} <= set(links.urls)
    assert "tables/nil_rates.csv" in links.urls
    for title in ("Nil, blind nil and double nil by variant", "The partner's contract",
                  "Bags taken and bag penalties per side-hand", "Mean points per hand",
                  "Variants on the same deals", "Head to head over both seatings"):
        assert title in html.unescape(page)
    summary = (out / "summary.md").read_text()
    assert "## 1. Nil" in summary and "## 2. Sandbags" in summary
    assert "## 3. Variants and strategies" in summary


# --- numbers, recomputed ----------------------------------------------------------------------

def seats_long(hands: pd.DataFrame) -> pd.DataFrame:
    parts = []
    for s in range(4):
        p = s ^ 2
        parts.append(pd.DataFrame({
            "variant": hands["variant"], "game_id": hands["game_id"], "seat": s,
            "bid": hands[f"bid_{s}"],
            "blind": hands[f"blind_{s}"], "tricks": hands[f"tricks_{s}"],
            "partner_bid": hands[f"bid_{p}"], "partner_tricks": hands[f"tricks_{p}"],
            "contract": hands[f"contract_{s % 2}"], "dealer": hands["dealer"],
            "hand": hands[f"hand_{s}"].to_numpy(np.uint64)}))
    return pd.concat(parts, ignore_index=True)


@pytest.mark.parametrize("run", ["games_run", "hands_run"])
def test_nil_rates_match_a_direct_count(run, request):
    folder, _ = request.getfixturevalue(run)
    long = seats_long(raw(folder))
    csv = table(folder, "nil_rates").set_index(["kind", "variant", "lineup", "strategy"])
    assert long["bid"].eq(0).sum() > 0
    for variant, rows in long.groupby("variant"):
        nil = rows["bid"].eq(0) & ~rows["blind"]
        got = csv.loc[("nil", variant, "all", "all")]
        assert got["n"] == len(rows) and got["bids"] == nil.sum()
        assert got["made"] == (nil & rows["tricks"].eq(0)).sum()
        assert got["success_rate"] == pytest.approx((nil & rows["tricks"].eq(0)).sum()
                                                    / nil.sum())
        # every cell's seat-hands of one game id (the same deals) are one cluster
        mine = rows.assign(nil=nil, made=nil & rows["tricks"].eq(0))
        _, lo, hi = share_interval(mine, "game_id", "nil", "made")
        assert (got["success_rate_lo"], got["success_rate_hi"]) == pytest.approx((lo, hi))
        _, lo, hi = share_interval(mine.assign(n=1), "game_id", "n", "nil")
        assert (got["bid_rate_lo"], got["bid_rate_hi"]) == pytest.approx((lo, hi))
        blind = rows["bid"].eq(0) & rows["blind"]
        assert csv.loc[("blind nil", variant, "all", "all")]["bids"] == blind.sum()
        sides = rows[rows["seat"] < 2]
        double = sides["bid"].eq(0) & sides["partner_bid"].eq(0)
        got = csv.loc[("double nil", variant, "all", "all")]
        assert got["n"] == len(sides) and got["bids"] == double.sum()


def test_nil_by_hand_features_from_the_bitmasks(hands_run):
    folder, _ = hands_run
    long = seats_long(raw(folder))
    hand = long["hand"].to_numpy(np.uint64)
    spades = (hand >> np.uint64(39)) & np.uint64(0x1FFF)
    long["spade_length"] = np.bitwise_count(spades)
    top = np.full(len(long), -1)
    for rank in range(13):  # the highest set bit wins: ranks in increasing order
        top[(spades >> np.uint64(rank)) & np.uint64(1) == 1] = rank
    long["top_spade"] = top
    aces_kings = sum(np.uint64(1) << np.uint64(13 * s + r) for s in range(4) for r in (11, 12))
    long["high_cards"] = np.bitwise_count(hand & aces_kings)
    long["position"] = (long["seat"] - long["dealer"] - 1) % 4
    long["nil"] = long["bid"].eq(0) & ~long["blind"]
    long["made"] = long["nil"] & long["tricks"].eq(0)
    csv = table(folder, "nil_by_hand")
    csv = csv[(csv["kind"] == "nil") & (csv["strategy"] == "all")]
    for feature in ("spade_length", "top_spade", "high_cards", "position", "partner_bid"):
        # each variant, and (variant "all") every variant's cells together
        every = pd.concat([long, long.assign(variant="all")])
        want = (every.groupby(["variant", feature])
                .agg(n=("nil", "size"), bids=("nil", "sum"), made=("made", "sum"))
                .reset_index().rename(columns={feature: "value"}))
        got = csv[csv["feature"] == feature][["variant", "value", "n", "bids", "made"]]
        merged = want.merge(got, on=["variant", "value"], how="outer", suffixes=("", "_csv"))
        assert len(merged) == len(want) == len(got)
        for col in ("n", "bids", "made"):
            assert (merged[col] == merged[f"{col}_csv"]).all(), feature
    # the pooled rows' intervals: every variant's seat-hands of one game id one cluster
    three = long[long["spade_length"] == 3]
    got = csv[(csv["feature"] == "spade_length") & (csv["value"] == 3)
              & (csv["variant"] == "all")].iloc[0]
    _, lo, hi = share_interval(three, "game_id", "nil", "made")
    assert (got["success_rate_lo"], got["success_rate_hi"]) == pytest.approx((lo, hi))


def test_partner_contract_rates(games_run):
    folder, _ = games_run
    long = seats_long(raw(folder))
    sides = long[(long["seat"] < 2) & (long["contract"] != 0)]
    one_nil = sides["bid"].eq(0) ^ sides["partner_bid"].eq(0)
    csv = table(folder, "nil_partner_contract")
    csv = csv[csv["strategy"] == "all"]
    for variant, rows in sides.groupby("variant"):
        mine = csv[csv["variant"] == variant].set_index("partner_nil")
        none = rows[~(rows["bid"].eq(0) | rows["partner_bid"].eq(0))]
        assert mine.loc["none", "side_hands"] == len(none)
        assert mine.loc["none", "made"] == (none["contract"] > 0).sum()
        ones = rows[one_nil.loc[rows.index]]
        assert mine["side_hands"].drop("none").sum() == len(ones)
        assert mine["made"].drop("none").sum() == (ones["contract"] > 0).sum()


@pytest.mark.parametrize("run", ["games_run", "hands_run"])
def test_bags_per_hand(run, request):
    folder, _ = request.getfixturevalue(run)
    hands = raw(folder)
    csv = table(folder, "bags_per_hand")
    pooled = csv[(csv["lineup"] == "all") & (csv["side"] == "both")].set_index("variant")
    for variant, rows in hands.groupby("variant"):
        per_hand = (rows["bags_taken_0"] + rows["bags_taken_1"]) / 2
        got = pooled.loc[variant]
        assert got["side_hands"] == 2 * len(rows)
        assert got["bags_per_side_hand"] == pytest.approx(per_hand.mean())
        _, lo, hi = ratio_interval(rows.assign(h=2, b=2 * per_hand), "game_id", "h", "b")
        assert (got["bags_per_side_hand_lo"], got["bags_per_side_hand_hi"]) == pytest.approx(
            (lo, hi))
        penalties = (rows["bag_penalty_0"] < 0).sum() + (rows["bag_penalty_1"] < 0).sum()
        assert got["penalties"] == penalties
        assert got["penalties_per_100"] == pytest.approx(100 * penalties / (2 * len(rows)))
    cells = csv[(csv["lineup"] != "all") & (csv["side"] == "1")]
    for r in cells.itertuples():
        rows = hands[(hands["variant"] == r.variant) & (hands["lineup"] == r.lineup)
                     & (hands["swapped"] == r.swapped)]
        assert r.bags_per_side_hand == pytest.approx(rows["bags_taken_1"].mean())


def test_bags_per_game_and_the_winner_changed(games_run):
    folder, _ = games_run
    hands, games = raw(folder), raw(folder, "games")
    keys = ["variant", "lineup", "swapped", "game_id"]
    hands = hands.assign(bags=hands["bags_taken_0"] + hands["bags_taken_1"],
                         bag_0=hands["overtricks_0"] + hands["bag_penalty_0"],
                         bag_1=hands["overtricks_1"] + hands["bag_penalty_1"])
    per_game = hands.groupby(keys).agg(bags=("bags", "sum"), bag_0=("bag_0", "sum"),
                                       bag_1=("bag_1", "sum"))
    both = games.merge(per_game.reset_index(), on=keys)
    assert len(both) == len(games)
    # the bags' points of the whole game (overtricks + penalties) taken out of the final scores
    cf0, cf1 = both["score_0"] - both["bag_0"], both["score_1"] - both["bag_1"]
    both["changed"] = ((both["winner"] == 0) & (cf1 > cf0)) | ((both["winner"] == 1)
                                                               & (cf0 > cf1))
    csv = table(folder, "bags_per_game")
    pooled = csv[csv["lineup"] == "all"].set_index("variant")
    for variant, rows in both.groupby("variant"):
        got = pooled.loc[variant]
        assert got["games"] == len(rows)
        assert got["bags_per_game"] == pytest.approx(rows["bags"].mean())
        # the variant's cells share their game ids (the same deals): one cluster each
        _, lo, _ = ratio_interval(rows.assign(g=1), "game_id", "g", "bags")
        assert got["bags_per_game_lo"] == pytest.approx(lo)
        assert got["winner_changed"] == rows["changed"].sum()
        penalties = rows["bag_penalties_0"] + rows["bag_penalties_1"]
        assert got["penalties_per_game"] == pytest.approx(penalties.mean())


def test_points_and_games_per_cell(games_run):
    folder, _ = games_run
    hands, games = raw(folder), raw(folder, "games")
    points = table(folder, "points")
    for r in points.itertuples():
        rows = hands[(hands["variant"] == r.variant) & (hands["lineup"] == r.lineup)
                     & (hands["swapped"] == r.swapped)]
        x = rows[f"points_{r.side}"]
        # the hands of a game share its score: the game is the cluster
        want = ratio_interval(rows.assign(n=1), "game_id", "n", f"points_{r.side}")
        assert (r.hands, r.mean_points, r.mean_points_lo, r.mean_points_hi) == pytest.approx(
            (len(x), *want))
        ci = stats.ttest_1samp(x, 0).confidence_interval(0.95)  # hands taken as independent
        assert r.mean_points_hi - r.mean_points_lo != pytest.approx(ci.high - ci.low)
    for r in table(folder, "games").itertuples():
        rows = games[(games["variant"] == r.variant) & (games["lineup"] == r.lineup)
                     & (games["swapped"] == r.swapped)]
        assert r.games == len(rows) and r.wins_0 == (rows["winner"] == 0).sum()
        assert r.n_hands == pytest.approx(rows["n_hands"].mean())
    duel = table(folder, "games").query("lineup == 'duel'")
    assert set(duel["strategy_0"]) == {"seed", "random"}


def test_paired_variant_difference_games(games_run):
    folder, _ = games_run
    games = raw(folder, "games")
    games["margin"] = games["score_0"] - games["score_1"]
    base = games[(games["variant"] == "std") & (games["lineup"] == "seed")]
    other = games[(games["variant"] == "count") & (games["lineup"] == "seed")]
    pairs = other.merge(base, on="game_id", suffixes=("", "_base"))
    diff = pairs["margin"] - pairs["margin_base"]
    csv = table(folder, "paired_variants")
    got = csv[(csv["variant"] == "count") & (csv["lineup"] == "seed")
              & (csv["metric"] == "margin")].iloc[0]
    assert got["base"] == "std" and got["n"] == len(pairs) == 60
    assert got["diff"] == pytest.approx(diff.mean())
    ci = stats.ttest_1samp(diff, 0).confidence_interval(0.95)
    assert (got["diff_lo"], got["diff_hi"]) == pytest.approx((ci.low, ci.high))
    unpaired = stats.ttest_ind(pairs["margin"], pairs["margin_base"],
                               equal_var=False).confidence_interval(0.95)
    assert (got["unpaired_lo"], got["unpaired_hi"]) == pytest.approx(
        (unpaired.low, unpaired.high))
    win = csv[(csv["variant"] == "count") & (csv["lineup"] == "seed")
              & (csv["metric"] == "win_0")].iloc[0]
    assert win["diff"] == pytest.approx(((pairs["winner"] == 0).astype(float)
                                         - (pairs["winner_base"] == 0)).mean())


def test_paired_variant_difference_hands(hands_run):
    folder, _ = hands_run
    hands = raw(folder)
    csv = table(folder, "paired_variants")
    for swapped in (False, True):
        cell = hands[(hands["lineup"] == "bold") & (hands["swapped"] == swapped)]
        pairs = cell[cell["variant"] == "cheap"].merge(
            cell[cell["variant"] == "std"], on=["game_id", "hand_no"], suffixes=("", "_base"))
        diff = pairs["points_0"] - pairs["points_0_base"]
        got = csv[(csv["variant"] == "cheap") & (csv["swapped"] == swapped)
                  & (csv["metric"] == "points_0")].iloc[0]
        assert got["n"] == len(pairs) == 400
        assert got["diff"] == pytest.approx(diff.mean())
        ci = stats.ttest_1samp(diff, 0).confidence_interval(0.95)
        assert (got["diff_lo"], got["diff_hi"]) == pytest.approx((ci.low, ci.high))


def test_head_to_head_hands(hands_run):
    folder, _ = hands_run
    hands = raw(folder)
    hands["margin"] = hands["points_0"] - hands["points_1"]
    csv = table(folder, "head_to_head")
    assert set(csv["strategy"]) == {"seed(nil_max_estimate=2.0, nil_max_spades=4)"}
    assert set(csv["opponent"]) == {"seed"}
    for variant in ("std", "cheap"):
        mine = hands[hands["variant"] == variant]
        plain, swapped = mine[~mine["swapped"]], mine[mine["swapped"]]
        # the bold team holds side 0 unswapped and side 1 swapped
        both = plain.merge(swapped, on=["game_id", "hand_no"], suffixes=("", "_s"))
        adv = (both["margin"] - both["margin_s"]) / 2
        got = csv[(csv["variant"] == variant) & (csv["metric"] == "points")].iloc[0]
        assert got["n"] == len(adv) == 400
        assert got["advantage"] == pytest.approx(adv.mean())
        ci = stats.ttest_1samp(adv, 0).confidence_interval(0.95)
        assert (got["advantage_lo"], got["advantage_hi"]) == pytest.approx((ci.low, ci.high))
        assert got["mean_unswapped"] == pytest.approx(both["margin"].mean())
        assert got["mean_swapped"] == pytest.approx(-both["margin_s"].mean())


def test_head_to_head_games(games_run):
    folder, _ = games_run
    games = raw(folder, "games")
    games = games[games["lineup"] == "duel"]
    csv = table(folder, "head_to_head")
    for variant in ("std", "count"):
        mine = games[games["variant"] == variant]
        both = mine[~mine["swapped"]].merge(mine[mine["swapped"]], on="game_id",
                                            suffixes=("", "_s"))
        score = ((both["score_0"] - both["score_1"]) + (both["score_1_s"] - both["score_0_s"])) / 2
        win = ((both["winner"] == 0).astype(float) + (both["winner_s"] == 1)) / 2
        rows = csv[csv["variant"] == variant].set_index("metric")
        assert rows.loc["score", "strategy"] == "seed"
        assert rows.loc["score", "opponent"] == "random"
        assert rows.loc["score", "advantage"] == pytest.approx(score.mean())
        assert rows.loc["win", "advantage"] == pytest.approx(win.mean())
        assert rows.loc["win", "n"] == len(both) == 60


# --- intervals --------------------------------------------------------------------------------

@pytest.mark.parametrize("run", ["games_run", "hands_run"])
def test_every_interval_contains_its_estimate(run, request):
    folder, _ = request.getfixturevalue(run)
    checked = 0
    for path in (folder / "report" / "tables").glob("*.csv"):
        frame = pd.read_csv(path)
        for lo in [c for c in frame.columns if c.endswith("_lo")]:
            name = lo[:-3]
            est = frame[name] if name in frame.columns else None
            if est is None:
                continue
            ok = est.notna() & frame[lo].notna()
            assert (frame.loc[ok, lo] <= est[ok] + 1e-9).all(), (path.name, name)
            assert (est[ok] <= frame.loc[ok, f"{name}_hi"] + 1e-9).all(), (path.name, name)
            checked += ok.sum()
    assert checked > 100


def test_intervals_shrink_with_n(tmp_path):
    small, big = proportion_ci(30, 100), proportion_ci(300, 1000)
    assert small[0] == big[0] == 0.3
    assert big[2] - big[1] < (small[2] - small[1]) / 3
    lo1, hi1 = mean_ci([100, 10000], [1.0, 1.0], [4.0, 4.0])
    assert (hi1 - lo1)[1] == pytest.approx((hi1 - lo1)[0] / 10, rel=0.02)
    wlo, whi = welch_ci(100, 1.0, 4.0, 100, 0.5, 4.0)
    assert wlo < 0.5 < whi
    # on real tables: four times the hands, about half the interval
    spec = {**HANDS, "lineups": {"seed": "seed"}, "variants": {"std": "spades.standard"}}
    widths = []
    for n in (200, 800):
        folder = whistlab.run({**spec, "hands": n}, tmp_path / str(n), n_jobs=1)
        res = open_results(folder)
        acc = HandBags(res)
        block_pass(res, [acc], bag_units)
        row = bags_per_hand(res, acc).filter(lineup="all", side="both").row(0, named=True)
        widths.append(row["bags_per_side_hand_hi"] - row["bags_per_side_hand_lo"])
    assert 0.35 < widths[1] / widths[0] < 0.65



def test_intervals_are_scipy_stats_own():
    """`reports.stats` computes the Wilson interval and the t quantiles with scipy.special so
    that a run's summary does not import scipy.stats: the same floats as scipy.stats gives."""
    for k, n in [(0, 1), (1, 1), (0, 7), (7, 7), (3, 7), (30, 100), (1, 10**6), (469477, 4000000),
                 (2, 3), (999_999, 10**6), (123_456_789, 987_654_321)]:
        ci = stats.binomtest(k, n, p=k / n).proportion_ci(0.95, method="wilson")
        assert proportion_ci(k, n) == (k / n, float(ci.low), float(ci.high))
    assert proportion_ci(np.int64(3), np.int64(7)) == proportion_ci(3, 7)
    df = np.array([-1.0, 0.0, 0.5, 1.0, 2.0, 3.0, 17.0, 99.0, 1e3, 12345.0, 1e6, 1e9, np.nan])
    assert_same = np.testing.assert_array_equal
    assert_same(t_quantile(0.975, df), stats.t.ppf(0.975, df))
    for one in df:
        assert_same(t_quantile(0.975, one), stats.t.ppf(0.975, one))
    n, mean, var = np.array([1, 2, 50, 10**6]), np.array([0.5, 1, 2, 3.0]), np.array([1, 2, 3, 4.0])
    lo, hi = mean_ci(n, mean, var)
    with np.errstate(invalid="ignore", divide="ignore"):
        half = stats.t.ppf(0.975, n - 1) * np.sqrt(var / n)
    assert_same(lo[1:], (mean - half)[1:])
    assert_same(hi[1:], (mean + half)[1:])

# --- errors and the command line ---------------------------------------------------------------

def test_a_bad_results_folder_is_a_user_error(tmp_path, hands_run):
    with pytest.raises(UserError, match="no such results folder"):
        build_report(tmp_path / "missing", tmp_path / "out")
    (tmp_path / "file").write_text("x")
    with pytest.raises(UserError, match="is a file, not a results folder"):
        build_report(tmp_path / "file", tmp_path / "out")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match=r"not a results folder of `whistlab run` \(no "
                                        r"manifest.json\)"):
        build_report(tmp_path / "empty", tmp_path / "out")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "manifest.json").write_text("{not json")
    with pytest.raises(UserError, match="manifest.json: is not a whistlab manifest"):
        build_report(tmp_path / "bad", tmp_path / "out")
    folder, _ = hands_run
    (tmp_path / "nohands").mkdir()
    (tmp_path / "nohands" / "manifest.json").write_text((folder / "manifest.json").read_text())
    with pytest.raises(UserError, match="has no hands table yet"):
        build_report(tmp_path / "nohands", tmp_path / "out")
    with pytest.raises(UserError, match="is a file; give a folder"):
        build_report(folder, tmp_path / "file")
    assert not (tmp_path / "out").exists()


def test_whistlab_report_command_on_an_unfinished_run(hands_run, tmp_path, capsys):
    folder, _ = hands_run
    copy = tmp_path / "r"  # the run without block 1 of the two "cheap" cells
    (copy / "hands").mkdir(parents=True)
    (copy / "manifest.json").write_text((folder / "manifest.json").read_text())
    for path in (folder / "hands").glob("*.parquet"):
        if not (path.name.startswith("part-cheap-") and path.name.endswith("-00001.parquet")):
            (copy / "hands" / path.name).write_bytes(path.read_bytes())
    assert len(list((copy / "hands").glob("*.parquet"))) == 6
    res = open_results(copy)
    assert not res.complete
    assert res.blocks_done == {"std-bold": 2, "std-bold-swapped": 2, "cheap-bold": 1,
                               "cheap-bold-swapped": 1}

    assert main(["report", str(copy), "--out", str(tmp_path / "rep")]) == 0
    assert re.search(r"report: .*rep/index.html", capsys.readouterr().out)
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "The run is not finished: 6 of 8 blocks are on disk" in page
    paired = pd.read_csv(tmp_path / "rep" / "tables" / "paired_variants.csv")
    assert set(paired["n"]) == {200}  # deals found in both cells
    h2h = pd.read_csv(tmp_path / "rep" / "tables" / "head_to_head.csv").set_index("variant")
    assert h2h.loc["std", "n"] == 400 and h2h.loc["cheap", "n"] == 200

    assert main(["report", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert "whistlab: error:" in err and "no such results folder" in err
    assert main(["report", str(tmp_path)]) == 2
    assert "no manifest.json" in capsys.readouterr().err


def test_manifest_strategies_label_the_seats(games_run):
    folder, _ = games_run
    manifest = json.loads((folder / "manifest.json").read_text())
    res = open_results(folder)
    assert len(res.strategies) == 4 * len(manifest["experiment"]["cells"])
    swapped = res.strategies.filter(lineup="duel", swapped=True, variant="std").sort("seat")
    assert swapped["strategy"].to_list() == ["random", "seed", "random", "seed"]
    assert res.twins == [{"lineup": "duel", "side_swapped": 1, "strategy": "seed",
                          "opponent": "random"}]
    assert res.scan().collect_schema()["variant"] == pl.String
