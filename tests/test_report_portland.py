"""The Portland report (the honours study of `whistlab report`): its files, a self-contained page,
and its numbers recomputed independently from the small tables with pandas, numpy and scipy."""

from __future__ import annotations

import html
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import whistlab
from clusters import ratio_interval, share_interval
from page import PRELUDE, check_links, raw, table
from reports import build_report
from reports.data import Results
from reports.portland import counterparts
from whistlab.cli import main
from whistlab.experiment import load_experiment

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"name": "h", "game": "portland", "games": 200, "seed": 1, "block_size": 100,
         "variants": {"five": "portland", "five_honours": "portland.honours"},
         "lineups": {"seed": "seed"}}
HANDS = {"name": "hh", "game": "portland", "hands": 400, "seed": 2, "block_size": 200,
         "variants": {"five": "portland", "five_honours": "portland.honours",
                      "nt": "portland.no_trump"},
         "lineups": {"duel": {"sides": ["seed", "random"], "swap": True}}}
CELL = ["variant", "lineup", "swapped"]
SECTIONS_GAMES = ["1. Honours held and scored", "2. Variance: tricks, honours and their "
                  "covariance", "3. Game length", "4. The dealer's side",
                  "5. Points and wins per cell", "6. Hands"]
SECTIONS_HANDS = ["1. Honours held and scored", "2. Variance: tricks, honours and their "
                  "covariance", "3. The dealer's side", "4. Points and wins per cell",
                  "5. Hands"]


@pytest.fixture(scope="module")
def games_run(tmp_path_factory):
    folder = whistlab.run(GAMES, tmp_path_factory.mktemp("pgames") / "r", n_jobs=1)
    return folder, build_report(folder, folder / "report")


@pytest.fixture(scope="module")
def hands_run(tmp_path_factory):
    folder = whistlab.run(HANDS, tmp_path_factory.mktemp("phands") / "r", n_jobs=1)
    return folder, build_report(folder, folder / "report")



def wilson(k: int, n: int) -> tuple[float, float]:
    ci = stats.binomtest(int(k), int(n)).proportion_ci(0.95, method="wilson")
    return ci.low, ci.high


def t_interval(x) -> tuple[float, float]:
    ci = stats.ttest_1samp(np.asarray(x, float), 0).confidence_interval(0.95)
    return ci.low, ci.high


# --- files and page ---------------------------------------------------------------------------

@pytest.mark.parametrize("run", ["games_run", "hands_run"])
def test_files_and_a_self_contained_page(run, request):
    folder, index = request.getfixturevalue(run)
    out = folder / "report"
    assert index == out / "index.html" and index.is_file()
    tables = {p.stem for p in (out / "tables").glob("*.csv")}
    figures = {p.stem for p in (out / "figures").glob("*.png")}
    common = {"honours_distribution", "honours_counted", "variance_decomposition",
              "honours_paired", "dealer_advantage", "points"}
    if run == "games_run":
        assert tables == common | {"game_length", "first_dealer", "games"}
        assert figures == {"honours_distribution", "variance_decomposition", "game_length",
                           "dealer_advantage"}
    else:
        assert tables == common
        assert figures == {"honours_distribution", "variance_decomposition",
                           "dealer_advantage"}
    for png in (out / "figures").glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = index.read_text()
    parsed = check_links(index)
    assert len([u for u in parsed.urls if u.startswith("data:")]) == len(figures)
    assert parsed.h2[:-1] == [*PRELUDE, *(SECTIONS_GAMES if run == "games_run"
                                          else SECTIONS_HANDS)]
    text = html.unescape(page)
    for title in ("Honours held per side-hand, by variant", "A side's points per hand",
                  "The dealer's side minus the other, per hand",
                  "With and without honours on the same deals"):
        assert title in text
    assert ("The final score margin per game" in text) == (run == "games_run")
    summary = (out / "summary.md").read_text()
    assert summary.startswith("# whistlab report")
    assert "## 1. Honours held and scored" in summary and "## 1. Nil" not in summary


# --- honours held and scored ------------------------------------------------------------------

def side_hands(hands: pd.DataFrame) -> pd.DataFrame:
    parts = []
    for s in (0, 1):
        parts.append(pd.DataFrame({
            "variant": hands["variant"], "lineup": hands["lineup"],
            "swapped": hands["swapped"], "game_id": hands["game_id"],
            "hand_no": hands["hand_no"],
            "role": np.where(hands["dealer"] % 2 == s, "dealer", "other"),
            "held": hands[f"honours_{s}"], "honours": hands[f"honours_points_{s}"],
            "tricks": hands[f"trick_points_{s}"], "points": hands[f"points_{s}"]}))
    return pd.concat(parts, ignore_index=True)


def exact(role: str, k: int) -> float:
    """Counted by hand: the turned-up card (an honour 4 times in 13) is the dealer's side's."""
    def hyper(k, honours, cards, mine):
        if not 0 <= k <= honours:
            return 0.0
        return comb(honours, k) * comb(cards - honours, mine - k) / comb(cards, mine)
    if role == "all":
        return hyper(k, 4, 52, 26)
    if role == "other":
        k = 4 - k
    return 4 / 13 * hyper(k - 1, 3, 51, 25) + 9 / 13 * hyper(k, 4, 51, 25)


@pytest.mark.parametrize("run", ["games_run", "hands_run"])
def test_honours_distribution(run, request):
    folder, _ = request.getfixturevalue(run)
    long = side_hands(raw(folder))
    long = long[long["variant"] != "nt"]   # no trump: no honours, left out
    csv = table(folder, "honours_distribution")
    assert set(csv["variant"]) == {"five", "five_honours"}
    assert len(csv) == 2 * 3 * (5 + 3)
    for (variant, role, kind), rows in csv.groupby(["variant", "role", "kind"]):
        mine = long[long["variant"] == variant]
        if role != "all":
            mine = mine[mine["role"] == role]
        col = "held" if kind == "held" else "honours"
        counts = mine[col].value_counts()
        for r in rows.itertuples():
            k = int(counts.get(r.value, 0))
            assert (r.side_hands, r.n) == (k, len(mine))
            assert r.share == pytest.approx(k / len(mine))
            # a hand's two sides, a game's hands and every line-up's hands of a game id (the
            # same deals) are one cluster
            want = share_interval(mine.assign(x=1, y=mine[col] == r.value), "game_id", "x", "y")
            assert (r.share_lo, r.share_hi) == pytest.approx(want[1:])
            if kind == "held":
                assert r.exact == pytest.approx(exact(role, r.value))
            else:
                assert np.isnan(r.exact)
    # without honours nothing is scored
    assert set(csv.query("variant == 'five' and kind == 'points' and value > 0")["side_hands"]
               ) == {0}
    assert sum(exact("dealer", k) for k in range(5)) == pytest.approx(1.0)


def test_honours_counted(games_run):
    folder, _ = games_run
    long = side_hands(raw(folder))
    csv = table(folder, "honours_counted")
    assert set(csv["variant"]) == {"five_honours"}
    for r in csv.itertuples():
        rows = long[(long["variant"] == r.variant) & (long["held"] == r.held)]
        counted = (rows["honours"] > 0).sum()
        assert (r.side_hands, r.counted) == (len(rows), counted)
        want = share_interval(rows.assign(x=1, y=rows["honours"] > 0), "game_id", "x", "y")
        assert (r.counted_rate_lo, r.counted_rate_hi) == pytest.approx(want[1:])
    # honours held and counted score 4 for four, 2 for three
    scored = long[(long["variant"] == "five_honours") & (long["honours"] > 0)]
    assert (scored["honours"] == np.where(scored["held"] == 4, 4, 2)).all()


# --- variance and its decomposition -----------------------------------------------------------

def check_decomposition(r, t, h, p, clusters):
    """``t``, ``h``, ``p`` the values of one cell (side-hands, or games) and the cluster
    (game id) of each: the variances, the covariance and their intervals over clusters."""
    t, h, p = (np.asarray(a, float) for a in (t, h, p))
    clusters = np.asarray(clusters)
    assert np.array_equal(p, t + h)
    n = len(p)
    assert r.n == n
    assert r.mean_points == pytest.approx(p.mean())
    assert r.var_points == pytest.approx(np.var(p, ddof=1))
    assert r.var_tricks == pytest.approx(np.var(t, ddof=1))
    assert r.var_honours == pytest.approx(np.var(h, ddof=1), abs=1e-12)
    cov = np.cov(t, h, ddof=1)[0, 1]
    assert r.cov == pytest.approx(cov, abs=1e-12)
    assert r.var_points == pytest.approx(r.var_tricks + r.var_honours + 2 * r.cov)
    assert abs(r.residual) < 1e-9

    def sampling_var(d):
        """The sampling variance of sum(d) / (n - 1) over the clusters: the estimate moves
        with its clusters' sums of d (the deviations' squares or products) less their share of
        the estimate, sum(d) / n per value (the delta method for a ratio of sums)."""
        frame = pd.DataFrame({"g": clusters, "d": d, "v": 1.0}).groupby("g").sum()
        e = frame["d"] - d.sum() / n * frame["v"]
        m = len(frame)
        return m / (m - 1) * (e**2).sum() / (n - 1) ** 2, m

    for name, x in (("points", p), ("tricks", t), ("honours", h)):
        s2 = np.var(x, ddof=1)
        var_s2, _ = sampling_var((x - x.mean()) ** 2)
        lo, hi = getattr(r, f"var_{name}_lo"), getattr(r, f"var_{name}_hi")
        if s2 == 0:
            assert lo == hi == 0
            continue
        nu = 2 * s2**2 / var_s2  # the chi-square of the same variance (Satterthwaite)
        assert lo == pytest.approx(nu * s2 / stats.chi2.ppf(0.975, nu))
        assert hi == pytest.approx(nu * s2 / stats.chi2.ppf(0.025, nu))
        assert lo < s2 < hi
    var_c, m = sampling_var((t - t.mean()) * (h - h.mean()))
    half = stats.t.ppf(0.975, m - 1) * np.sqrt(var_c)
    assert (r.cov_lo, r.cov_hi) == pytest.approx((cov - half, cov + half), abs=1e-12)


@pytest.mark.parametrize("run", ["games_run", "hands_run"])
def test_variance_decomposition_per_hand(run, request):
    folder, _ = request.getfixturevalue(run)
    hands = raw(folder)
    csv = table(folder, "variance_decomposition")
    rows = csv[csv["level"] == "hand"]
    assert len(rows) == hands.groupby(CELL).ngroups
    for r in rows.itertuples():
        cell = hands[(hands["variant"] == r.variant) & (hands["lineup"] == r.lineup)
                     & (hands["swapped"] == r.swapped)]
        t = np.concatenate([cell["trick_points_0"], cell["trick_points_1"]])
        h = np.concatenate([cell["honours_points_0"], cell["honours_points_1"]])
        p = np.concatenate([cell["points_0"], cell["points_1"]])
        check_decomposition(r, t, h, p, np.concatenate([cell["game_id"], cell["game_id"]]))
        assert r.units == len(cell)


def test_variance_decomposition_per_game(games_run):
    folder, _ = games_run
    hands, games = raw(folder), raw(folder, "games")
    keys = [*CELL, "game_id"]
    per_game = hands.assign(t=hands["trick_points_0"] - hands["trick_points_1"],
                            h=hands["honours_points_0"] - hands["honours_points_1"]
                            ).groupby(keys)[["t", "h"]].sum().reset_index()
    both = games.merge(per_game, on=keys)
    assert len(both) == len(games)
    csv = table(folder, "variance_decomposition")
    rows = csv[csv["level"] == "game"]
    assert len(rows) == 2
    for r in rows.itertuples():
        cell = both[(both["variant"] == r.variant) & (both["lineup"] == r.lineup)]
        margin = cell["score_0"] - cell["score_1"]
        check_decomposition(r, cell["t"], cell["h"], margin, cell["game_id"])


def log_ratio_interval(a, b) -> tuple[float, float, float]:
    """Var(a) / Var(b) and its interval, ``a`` and ``b`` each ``(values, game ids)`` of a cell
    on the same game ids: per game id, each cell's squared deviations from its mean less its
    variance's share, relative to its sum; the log of the ratio moves by the difference of the
    two (the delta method), t on the game ids."""
    z, n, var = {}, {}, {}
    for name, (x, g) in (("a", a), ("b", b)):
        x = np.asarray(x, float)
        q = pd.DataFrame({"g": np.asarray(g), "q": (x - x.mean()) ** 2, "v": 1.0}).groupby(
            "g").sum()
        z[name] = (q["q"] - q["q"].sum() / len(x) * q["v"]) / q["q"].sum()
        n[name], var[name] = len(q), np.var(x, ddof=1)
    assert n["a"] == n["b"]
    m = n["a"]
    half = stats.t.ppf(0.975, m - 1) * np.sqrt(m / (m - 1) * ((z["a"] - z["b"]) ** 2).sum())
    ratio = var["a"] / var["b"]
    return ratio, ratio * np.exp(-half), ratio * np.exp(half)


@pytest.mark.parametrize("run", ["games_run", "hands_run"])
def test_variance_ratio_to_the_variant_without_honours(run, request):
    folder, _ = request.getfixturevalue(run)
    hands = raw(folder)
    csv = table(folder, "variance_decomposition")
    rows = csv[(csv["variant"] == "five_honours") & (csv["level"] == "hand")]
    assert len(rows) == hands.query("variant == 'five'").groupby(CELL).ngroups

    def side_hands(variant, r):
        cell = hands[(hands["variant"] == variant) & (hands["lineup"] == r.lineup)
                     & (hands["swapped"] == r.swapped)]
        return (np.concatenate([cell["points_0"], cell["points_1"]]),
                np.concatenate([cell["game_id"], cell["game_id"]]))

    for r in rows.itertuples():
        base = csv[(csv["variant"] == "five") & (csv["lineup"] == r.lineup)
                   & (csv["swapped"] == r.swapped) & (csv["level"] == r.level)].iloc[0]
        assert r.base == "five"
        ratio, lo, hi = log_ratio_interval(side_hands(r.variant, r), side_hands("five", r))
        assert r.var_ratio == pytest.approx(ratio) == pytest.approx(
            r.var_points / base.var_points)
        assert (r.var_ratio_lo, r.var_ratio_hi) == pytest.approx((lo, hi))
        assert r.var_ratio_lo > 1  # honours add variance, clearly even on 400 hands
        # the F interval of two independent estimates ignores that the cells share deals
        f_lo = ratio / stats.f.ppf(0.975, r.df_points, base.df_points)
        assert r.var_ratio_lo != pytest.approx(f_lo)
    assert csv[csv["variant"] != "five_honours"]["var_ratio"].isna().all()
    if run == "games_run":  # the final margins, one per game
        games = raw(folder, "games").assign(margin=lambda g: g["score_0"] - g["score_1"])
        r = csv[(csv["variant"] == "five_honours") & (csv["level"] == "game")].iloc[0]

        def margins(variant):
            cell = games[games["variant"] == variant].sort_values("game_id")
            return cell["margin"], cell["game_id"]
        got = log_ratio_interval(margins("five_honours"), margins("five"))
        assert (r.var_ratio, r.var_ratio_lo, r.var_ratio_hi) == pytest.approx(got)


def test_counterparts_of_the_honours_study():
    exp = load_experiment(ROOT / "experiments" / "honours.toml")
    res = Results(Path("unused"), {"experiment": exp.to_dict()})
    assert counterparts(res) == {"five_honours": "five", "seven_honours": "seven",
                                 "ten_honours": "ten"}


# --- game length ------------------------------------------------------------------------------

def test_game_length_and_its_paired_difference(games_run):
    folder, _ = games_run
    games = raw(folder, "games")
    csv = table(folder, "game_length").set_index("variant")
    for variant, rows in games.groupby("variant"):
        got = csv.loc[variant]
        assert got["games"] == len(rows) == 200
        assert got["n_hands"] == pytest.approx(rows["n_hands"].mean())
        assert (got["n_hands_lo"], got["n_hands_hi"]) == pytest.approx(t_interval(
            rows["n_hands"]))
    pairs = games[games["variant"] == "five_honours"].merge(
        games[games["variant"] == "five"], on=["lineup", "swapped", "game_id"],
        suffixes=("", "_base"))
    diff = pairs["n_hands"] - pairs["n_hands_base"]
    paired = table(folder, "honours_paired")
    got = paired[paired["metric"] == "n_hands"].iloc[0]
    assert (got["variant"], got["base"], got["n"]) == ("five_honours", "five", 200)
    assert got["diff"] == pytest.approx(diff.mean())
    assert (got["diff_lo"], got["diff_hi"]) == pytest.approx(t_interval(diff))
    welch = stats.ttest_ind(pairs["n_hands"], pairs["n_hands_base"],
                            equal_var=False).confidence_interval(0.95)
    assert (got["unpaired_lo"], got["unpaired_hi"]) == pytest.approx((welch.low, welch.high))
    # honours bring the target nearer: shorter games on the same deals
    assert got["diff_hi"] < 0


# --- the dealer's side ------------------------------------------------------------------------

@pytest.mark.parametrize("run", ["games_run", "hands_run"])
def test_dealer_advantage(run, request):
    folder, _ = request.getfixturevalue(run)
    hands = raw(folder)
    sign = np.where(hands["dealer"] % 2 == 0, 1, -1)
    margins = {
        "points": hands["points_0"] - hands["points_1"],
        "trick_points": hands["trick_points_0"] - hands["trick_points_1"],
        "honours_points": hands["honours_points_0"] - hands["honours_points_1"],
        "tricks": (hands["tricks_0"].astype(int) + hands["tricks_2"] - hands["tricks_1"]
                   - hands["tricks_3"]),
        "honours": hands["honours_0"].astype(int) - hands["honours_1"],
    }
    csv = table(folder, "dealer_advantage")
    assert len(csv) == 5 * hands.groupby(CELL).ngroups
    for r in csv.itertuples():
        mask = ((hands["variant"] == r.variant) & (hands["lineup"] == r.lineup)
                & (hands["swapped"] == r.swapped)).to_numpy()
        x = (sign * margins[r.metric].to_numpy())[mask].astype(float)
        assert r.hands == len(x)
        assert r.advantage == pytest.approx(x.mean(), abs=1e-12)
        if x.std() > 0:  # the hands of a game share its score: the game is the cluster
            frame = pd.DataFrame({"g": hands["game_id"].to_numpy()[mask], "n": 1, "x": x})
            want = ratio_interval(frame, "g", "n", "x")
            assert (r.advantage_lo, r.advantage_hi) == pytest.approx(want[1:])
        if r.metric == "honours":
            assert r.exact == pytest.approx(0.0 if r.variant == "nt" else 4 / 17)


def test_first_dealer_wins(games_run):
    folder, _ = games_run
    hands, games = raw(folder), raw(folder, "games")
    first = hands[hands["hand_no"] == 1][[*CELL, "game_id", "dealer"]]
    assert set(first["dealer"]) == {3}   # seat 3 deals first: side 1
    both = games.merge(first, on=[*CELL, "game_id"])
    csv = table(folder, "first_dealer").set_index("variant")
    for variant, rows in both.groupby("variant"):
        got = csv.loc[variant]
        wins = (rows["winner"] == rows["dealer"] % 2).sum()
        assert (got["games"], got["wins"], str(got["first_side"])) == (len(rows), wins, "1")
        assert (got["win_rate_lo"], got["win_rate_hi"]) == pytest.approx(wilson(wins,
                                                                                len(rows)))


def test_paired_dealer_margin_in_hands_runs(hands_run):
    folder, _ = hands_run
    hands = raw(folder)
    hands["margin"] = np.where(hands["dealer"] % 2 == 0, 1, -1) * (hands["points_0"]
                                                                   - hands["points_1"])
    csv = table(folder, "honours_paired")
    assert set(csv["metric"]) == {"dealer_margin"} and len(csv) == 2
    for r in csv.itertuples():
        cell = hands[(hands["lineup"] == r.lineup) & (hands["swapped"] == r.swapped)]
        pairs = cell[cell["variant"] == r.variant].merge(
            cell[cell["variant"] == r.base], on=["game_id", "hand_no"], suffixes=("", "_b"))
        diff = pairs["margin"] - pairs["margin_b"]
        assert r.n == len(pairs) == 400
        assert r.diff == pytest.approx(diff.mean())
        assert (r.diff_lo, r.diff_hi) == pytest.approx(t_interval(diff))


# --- rubbers: the games of a rubber are games ---------------------------------------------------

RUBBERS = {"name": "ru", "game": "portland", "games": 60, "seed": 5, "block_size": 30,
           "variants": {"rubber": {"preset": "portland", "rubber": True},
                        "laws": "portland.laws"},
           "lineups": {"seed": "seed"}}


def test_rubbers(tmp_path):
    folder = whistlab.run(RUBBERS, tmp_path / "r", n_jobs=1)
    build_report(folder, folder / "report")
    hands, rubbers = raw(folder), raw(folder, "games")
    hands = hands.sort_values([*CELL, "game_id", "hand_no"])
    keys = [*CELL, "game_id", "game_no"]
    games = hands.assign(
        t=hands["trick_points_0"] - hands["trick_points_1"],
        h=hands["honours_points_0"] - hands["honours_points_1"]).groupby(keys).agg(
        n_hands=("hand_no", "size"), t=("t", "sum"), h=("h", "sum"),
        first_dealer=("dealer", "first"), score_0=("score_0", "last"),
        score_1=("score_1", "last")).reset_index()
    games["margin"] = games["score_0"] - games["score_1"]   # scores start at 0-0 every game
    games["winner"] = (games["score_1"] > games["score_0"]).astype(int)
    won = rubbers.groupby("variant")[["games_won_0", "games_won_1"]].sum().sum(axis=1)
    assert (games.groupby("variant").size() == won).all() and (won > 60).all()

    var = table(folder, "variance_decomposition")
    for r in var[var["level"] == "game"].itertuples():
        cell = games[games["variant"] == r.variant]  # a rubber's games: one cluster
        check_decomposition(r, cell["t"], cell["h"], cell["margin"], cell["game_id"])
    length = table(folder, "game_length").set_index("variant")
    first = table(folder, "first_dealer").set_index("variant")
    for variant, cell in games.groupby("variant"):
        assert length.loc[variant, "games"] == len(cell)
        assert length.loc[variant, "n_hands"] == pytest.approx(cell["n_hands"].mean())
        wins = (cell["winner"] == cell["first_dealer"] % 2).sum()
        assert (first.loc[variant, "games"], first.loc[variant, "wins"]) == (len(cell), wins)
        assert first.loc[variant, "first_side"] == "both"  # game 2 starts wherever game 1 ended
    # pairs: the first game of each rubber, which starts on the same deal in both variants
    ones = games[games["game_no"] == 1]
    pairs = ones[ones["variant"] == "laws"].merge(ones[ones["variant"] == "rubber"],
                                                  on="game_id", suffixes=("", "_base"))
    diff = pairs["n_hands"] - pairs["n_hands_base"]
    got = table(folder, "honours_paired").query("metric == 'n_hands'").iloc[0]
    assert (got["variant"], got["base"], got["n"]) == ("laws", "rubber", 60)
    assert got["diff"] == pytest.approx(diff.mean())
    assert (got["diff_lo"], got["diff_hi"]) == pytest.approx(t_interval(diff))


# --- the command line -------------------------------------------------------------------------

def test_whistlab_report_command(games_run, tmp_path, capsys):
    folder, _ = games_run
    assert main(["report", str(folder), "--out", str(tmp_path / "rep")]) == 0
    assert "report:" in capsys.readouterr().out
    assert (tmp_path / "rep" / "index.html").is_file()
    assert (tmp_path / "rep" / "tables" / "honours_distribution.csv").is_file()
    assert main(["report", str(folder)]) == 0   # RESULTS/report, over the earlier one
    assert (folder / "report" / "figures" / "game_length.png").is_file()
