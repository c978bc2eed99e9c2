"""The bag rules study of the report (`reports.bags`, `reports.bag_rules`): every table recomputed
independently from the Parquet tables with pandas and scipy on a small run of three bag rules,
the "bags decided the game" counterfactual on hand-made games whose answer is known, and the
ranking sentence."""

from __future__ import annotations

import html
from types import SimpleNamespace

import numpy as np
import pandas as pd
import polars as pl
import pytest
from scipy import stats

import whistlab
from clusters import share_interval
from page import PRELUDE, check_links, raw, table
from reports import build_report
from reports.bag_rules import _findings, bag_ranking
from reports.bags import GameBags, winner_changed

SANDBAGGER = {"name": "seed", "avoid_bags": False}
STUDY = {"name": "bags-test", "games": 40, "seed": 3, "block_size": 20,
         "variants": {"std": "spades.standard",
                      "three_b": {"preset": "spades.standard", "three_b": True},
                      "double": {"preset": "spades.standard", "double_over": True}},
         "lineups": {"seed": "seed", "sandbagger": {"sides": [SANDBAGGER, "seed"], "swap": True}}}


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    folder = whistlab.run(STUDY, tmp_path_factory.mktemp("bags") / "r", n_jobs=1)
    build_report(folder, folder / "report")
    return folder



def ratio(clusters: pd.DataFrame, x: str, y: str) -> tuple[float, float, float]:
    """sum(y) / sum(x) over clusters, with the delta-method 95% interval written out: the
    residuals y - R x, their standard error over the clusters, divided by mean(x)."""
    r = clusters[y].sum() / clusters[x].sum()
    e = clusters[y] - r * clusters[x]
    n = len(clusters)
    half = stats.t.ppf(0.975, n - 1) * np.sqrt(e.var(ddof=1) / n) / clusters[x].mean()
    return r, r - half, r + half


def side_hands(hands: pd.DataFrame) -> pd.DataFrame:
    """One row per side and hand: bags taken, bag cost, contract cost (nil_tricks bags_only)."""
    parts = []
    for s in (0, 1):
        bids = hands[[f"bid_{s}", f"bid_{s + 2}"]].to_numpy()
        tricks = hands[[f"tricks_{s}", f"tricks_{s + 2}"]].to_numpy()
        bid = np.clip(bids, 0, None).sum(axis=1)
        taken = np.where(bids > 0, tricks, 0).sum(axis=1)
        over = (bid > 0) & (taken > bid) & (hands[f"side_contract_{s}"].to_numpy() == 0)
        contract = hands[f"contract_{s}"].to_numpy()
        parts.append(pd.DataFrame({
            "variant": hands["variant"], "lineup": hands["lineup"], "swapped": hands["swapped"],
            "game_id": hands["game_id"], "side": s, "h": 1, "t": hands[f"bags_taken_{s}"],
            "b": -(hands[f"overtricks_{s}"] + hands[f"bag_penalty_{s}"]),
            "c": np.where(over, np.maximum(10 * bid - contract, 0), 0),
            "bid": bid, "over": over, "contract": contract}))
    long = pd.concat(parts, ignore_index=True)
    long["T"] = long["b"] + long["c"]
    return long


# --- what bags cost ---------------------------------------------------------------------------

def test_bag_cost_per_rule_recomputed(study):
    long = side_hands(raw(study))
    csv = table(study, "bag_cost")
    pooled = csv[(csv["lineup"] == "all") & (csv["strategy"] == "all")].set_index("variant")
    assert set(pooled.index) == {"std", "three_b", "double"}
    for variant, rows in long.groupby("variant"):
        clusters = rows.groupby("game_id")[["h", "t", "b", "c", "T"]].sum()  # every cell's
        got = pooled.loc[variant]
        assert got["games"] == len(clusters) == 40
        assert got["side_hands"] == len(rows) and got["bags_taken"] == rows["t"].sum()
        for name, (x, y) in {"bags_per_side_hand": ("h", "t"),
                             "bag_cost_per_side_hand": ("h", "b"),
                             "contract_cost_per_side_hand": ("h", "c"),
                             "cost_per_side_hand": ("h", "T"), "bag_cost_per_bag": ("t", "b"),
                             "cost_per_bag": ("t", "T")}.items():
            want = ratio(clusters, x, y)
            assert (got[name], got[f"{name}_lo"], got[f"{name}_hi"]) == pytest.approx(want), name


def test_what_the_rules_make_a_bag_cost(study):
    long = side_hands(raw(study))
    pooled = table(study, "bag_cost").query("lineup == 'all' and strategy == 'all'").set_index(
        "variant")
    # the standard game: +1 a bag, -100 each 10; nothing through the contract
    assert (long.query("variant == 'std'")["c"] == 0).all()
    assert pooled.loc["std", "contract_cost_per_side_hand"] == 0
    # three_b: -10 an overtrick in overtricks, nil bidders' bags cost nothing there
    assert 0 < pooled.loc["three_b", "bag_cost_per_bag"] <= 10
    # double_over: twice the bid or more loses twice its value (-20 x bid), so such a hand costs
    # 30 x bid through the contract; fewer overtricks cost nothing there
    over = long.query("variant == 'double' and over")
    doubled = over["contract"] == -20 * over["bid"]
    assert doubled.any() and (over["c"] == np.where(doubled, 30 * over["bid"], 0)).all()
    assert (over.loc[~doubled, "contract"] == 10 * over.loc[~doubled, "bid"]).all()
    assert pooled.loc["double", "contract_cost_per_side_hand"] > 0


def test_bag_cost_by_strategy(study):
    long = side_hands(raw(study)).query("lineup == 'sandbagger'")
    # the sandbagger holds side 0 unswapped, side 1 swapped
    long["strategy"] = np.where((long["side"] == 1) == long["swapped"],
                                "seed(avoid_bags=False)", "seed")
    csv = table(study, "bag_cost").query("lineup == 'sandbagger'")
    assert set(csv["strategy"]) == {"seed(avoid_bags=False)", "seed", "all"}
    for (variant, strategy), rows in long.groupby(["variant", "strategy"]):
        clusters = rows.groupby("game_id")[["h", "t", "T"]].sum()
        got = csv[(csv["variant"] == variant) & (csv["strategy"] == strategy)].iloc[0]
        assert (got["cost_per_bag"], got["cost_per_bag_lo"], got["cost_per_bag_hi"]) == \
            pytest.approx(ratio(clusters, "t", "T"))
    seed_only = table(study, "bag_cost").query("lineup == 'seed'")
    assert list(seed_only["strategy"].unique()) == ["all"]  # one strategy: no duplicate rows


# --- the sandbagger head to head --------------------------------------------------------------

def test_sandbagging_paired_over_both_seatings(study):
    hands = raw(study).query("lineup == 'sandbagger'")
    hands = hands.assign(margin=hands["points_0"] - hands["points_1"])
    csv = table(study, "sandbagging").set_index("variant")
    assert set(csv["strategy"]) == {"seed(avoid_bags=False)"} and set(csv["opponent"]) == {"seed"}
    for variant, rows in hands.groupby("variant"):
        both = rows[~rows["swapped"]].merge(rows[rows["swapped"]], on=["game_id", "hand_no"],
                                            suffixes=("", "_s"))
        both["adv"] = (both["margin"] - both["margin_s"]) / 2  # the team is side 1 swapped
        clusters = both.groupby("game_id").agg(x=("adv", "size"), y=("adv", "sum"))
        got = csv.loc[variant]
        assert got["hands"] == len(both) and got["games"] == len(clusters)
        assert (got["advantage"], got["advantage_lo"], got["advantage_hi"]) == pytest.approx(
            ratio(clusters, "x", "y"))
        assert got["mean_unswapped"] == pytest.approx(both["margin"].mean())
        assert got["mean_swapped"] == pytest.approx(-both["margin_s"].mean())


# --- game length ------------------------------------------------------------------------------

def test_game_length_paired_with_the_standard_game(study):
    games = raw(study, "games")
    keys = ["lineup", "swapped", "game_id"]
    pairs = games.merge(games[games["variant"] == "std"][[*keys, "n_hands"]], on=keys,
                        suffixes=("", "_base"))
    pairs["d"] = pairs["n_hands"] - pairs["n_hands_base"]
    csv = table(study, "bag_game_length")
    for variant, rows in pairs.groupby("variant"):
        per_id = rows.groupby("game_id")[["n_hands", "n_hands_base", "d"]].mean()
        got = csv[(csv["variant"] == variant) & (csv["lineup"] == "all")].iloc[0]
        assert got["base"] == "std" and got["games"] == len(per_id) == 40
        assert got["n_hands"] == pytest.approx(per_id["n_hands"].mean())
        assert got["n_hands_base"] == pytest.approx(per_id["n_hands_base"].mean())
        assert got["diff"] == pytest.approx(per_id["d"].mean())
        if variant != "std":
            ci = stats.ttest_1samp(per_id["d"], 0).confidence_interval(0.95)
            assert (got["diff_lo"], got["diff_hi"]) == pytest.approx((ci.low, ci.high))
        for (lineup, swapped), cell in rows.groupby(["lineup", "swapped"]):
            row = csv[(csv["variant"] == variant) & (csv["lineup"] == lineup)
                      & (csv["swapped"] == swapped)].iloc[0]
            assert row["diff"] == pytest.approx(cell["d"].mean()) and row["games"] == len(cell)


# --- bags decide a game -----------------------------------------------------------------------

def test_bags_decided_recomputed(study):
    hands, games = raw(study), raw(study, "games")
    keys = ["variant", "lineup", "swapped", "game_id"]
    for s in (0, 1):
        hands[f"bag_{s}"] = hands[f"overtricks_{s}"] + hands[f"bag_penalty_{s}"]
    long = side_hands(hands)
    cost = long.pivot_table(index=keys, columns="side", values="c", aggfunc="sum")
    per_game = hands.groupby(keys)[["bag_0", "bag_1"]].sum().join(cost).reset_index()
    both = games.merge(per_game, on=keys)
    cf = [both[f"score_{s}"] - both[f"bag_{s}"] for s in (0, 1)]
    changed = ((both["winner"] == 0) & (cf[1] > cf[0])) | ((both["winner"] == 1) & (cf[0] > cf[1]))
    cf_all = [cf[s] + both[s] for s in (0, 1)]
    changed_all = (((both["winner"] == 0) & (cf_all[1] > cf_all[0]))
                   | ((both["winner"] == 1) & (cf_all[0] > cf_all[1])))
    csv = table(study, "bags_per_game").query("lineup == 'all'").set_index("variant")
    for variant in ("std", "three_b", "double"):
        mine = both["variant"] == variant
        got = csv.loc[variant]
        k, n = int(changed[mine].sum()), int(mine.sum())
        assert got["winner_changed"] == k and got["games"] == n
        # the variant's cells play the same deals: its games of one game id are one cluster
        want = share_interval(both[mine].assign(g=1, changed=changed[mine]), "game_id", "g",
                              "changed")
        assert (got["winner_changed_rate"], got["winner_changed_rate_lo"],
                got["winner_changed_rate_hi"]) == pytest.approx(want)
        ci = stats.binomtest(k, n).proportion_ci(0.95, method="wilson")
        assert got["winner_changed_rate_hi"] - got["winner_changed_rate_lo"] != pytest.approx(
            ci.high - ci.low)  # not the interval of independent games
        assert got["winner_changed_all"] == changed_all[mine].sum()
    cells = table(study, "bags_per_game").query("lineup != 'all'")
    for r in cells.itertuples():  # per cell the games are independent: Wilson's own
        cell = ((both["variant"] == r.variant) & (both["lineup"] == r.lineup)
                & (both["swapped"] == r.swapped))
        ci = stats.binomtest(int(changed[cell].sum()), int(cell.sum())).proportion_ci(
            0.95, method="wilson")
        assert (r.winner_changed_rate_lo, r.winner_changed_rate_hi) == pytest.approx(
            (ci.low, ci.high))
    # the contract cost given back too can only add games under double_over (never remove)
    assert csv.loc["double", "winner_changed_all"] >= csv.loc["double", "winner_changed"]
    assert csv.loc["std", "winner_changed_all"] == csv.loc["std", "winner_changed"]


def test_bags_decided_on_hand_made_games():
    # final scores, the winner, and each side's bag points and contract cost of the whole game
    games = pl.DataFrame({
        "variant": ["v"] * 6, "lineup": ["l"] * 6, "swapped": [False] * 6,
        "game_id": list(range(6)), "n_hands": [9] * 6, "bag_penalties": [0, 1, 2, 0, 0, 0],
        "winner": [0, 0, 1, 0, 1, 0],
        "score_0": [510, 510, 300, 505, 400, 520],
        "score_1": [480, 480, 520, 500, 510, 480],
        "bag_0": [40, -100, -250, 5, 0, 0],      # side 0's overtricks + bag penalties
        "bag_1": [0, 0, 0, 0, 0, -60],           # side 1's: 40 overtricks, one penalty
        "ccost_0": [0, 0, 0, 0, 120, 0], "ccost_1": [0, 0, 0, 0, 0, 0],
        "taken_0": [40, 10, 25, 5, 3, 0], "taken_1": [0, 0, 0, 0, 0, 8],
        "penalty_0": [0, -100, -200, 0, 0, 0], "penalty_1": [0, 0, 0, 0, 0, -100]})
    # 0: 470 < 480 without the bags: side 1 would have won; 1: the penalty cost side 0, it won
    # anyway; 2: side 0 loses 250 to bags, 550 > 520; 3: 500 = 500, a tie is no change;
    # 4: only the contract cost (an exact set) decides it; 5: the loser's penalty did: 540 > 520.
    assert games.select(winner_changed())["winner"].to_list() == [True, False, True, False,
                                                                  False, True]
    assert games.select(winner_changed(contract=True))["winner"].to_list() == [
        True, False, True, False, True, True]
    acc = GameBags(SimpleNamespace(games_mode=True))
    acc.add({"games": games, "hands": None})
    row = acc.total().filter(lineup="l").row(0, named=True)
    assert (row["s_g"], row["s_changed"], row["s_changed_all"]) == (6, 3, 4)
    assert row["s_bags"] == 91 and row["s_penalty_points"] == -400


# --- the ranking and the pages ----------------------------------------------------------------

def test_the_ranking_names_the_rule_with_the_largest_cost(study):
    ranking = table(study, "bag_ranking")
    assert list(ranking["rank"]) == [1, 2, 3]
    assert ranking["cost_per_bag"].is_monotonic_decreasing
    cost = table(study, "bag_cost").query("lineup == 'all' and strategy == 'all'")
    top = cost.loc[cost["cost_per_bag"].idxmax(), "variant"]
    assert ranking["variant"][0] == top
    sentence = f"{top} penalises sandbagging most: "
    assert sentence in (study / "report" / "summary.md").read_text()
    assert sentence in html.unescape((study / "report" / "index.html").read_text())
    sand = table(study, "sandbagging")
    for r in ranking.itertuples():
        want = sand.loc[sand["variant"] == r.variant, "advantage"].iloc[0]
        assert r.sandbagger_advantage == pytest.approx(want)


def test_the_ranking_on_a_hand_made_cost_table():
    rules = ["standard", "mild", "harsh", "free"]
    cost = pl.DataFrame({"variant": rules, "lineup": ["all"] * 4, "strategy": ["all"] * 4,
                         "bags_per_side_hand": [1.0, 1.1, 0.9, 1.2],
                         "bag_cost_per_bag": [3.5, 1.0, 8.0, -1.0],
                         "cost_per_bag": [3.5, 1.0, 8.0, -1.0],
                         "cost_per_bag_lo": [3.4, 0.9, 7.5, -1.0],
                         "cost_per_bag_hi": [3.6, 1.1, 8.5, -1.0],
                         "cost_per_side_hand": [3.4, 1.1, 7.2, -1.2]})
    res = SimpleNamespace(variants=rules)
    ranking = bag_ranking(res, cost, None, None, None)
    assert ranking["variant"].to_list() == ["harsh", "standard", "mild", "free"]
    assert ranking["rank"].to_list() == [1, 2, 3, 4]
    found = _findings(res, ranking, None, None)
    assert found[0].startswith("harsh penalises sandbagging most: 8.00")
    assert "next standard 3.50 [3.40, 3.60] (the intervals do not overlap)" in found[0]
    # the largest cost wins wherever it stands, whatever the experiment's order
    again = bag_ranking(res, cost.reverse(), None, None, None)
    assert _findings(res, again, None, None)[0].startswith("harsh penalises")


def test_the_pages_say_what_each_measure_is(study):
    summary = (study / "report" / "summary.md").read_text()
    page = (study / "report" / "index.html").read_text()
    parser = check_links(study / "report" / "index.html")
    assert parser.h2[len(PRELUDE) + 1] == "2. Sandbags"
    for text in (summary, html.unescape(page)):
        for title in ("The bag rules ranked: which penalises sandbagging most",
                      "What bags cost, by rule (all line-ups)",
                      "The cost of sandbagging as a strategy",
                      "Game length, each rule against std",
                      "Bags per game, and the games bags decided"):
            assert title in text
        for measure in ("Bags taken: the bags a side takes in a hand", "Bag cost: what the bags",
                        "Contract cost: what overtricks cost", "Cost per bag:",
                        "this is a counterfactual on the same play"):
            assert measure in text
    assert (study / "report" / "figures" / "bag_rules.png").read_bytes()[:4] == b"\x89PNG"
    assert '<img alt="bag_rules" src="data:image/png;base64,' in page  # embedded
    assert "[bag_rules](figures/bag_rules.png)" in summary
