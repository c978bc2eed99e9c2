"""The Norwegian whist report (`whistlab report` on a Norwegian run): its files, a self-contained
page, and its numbers recomputed independently from the Parquet tables with pandas, numpy and
scipy."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import whistlab
from clusters import ratio_interval, share_interval
from page import PRELUDE, check_links
from reports import build_report
from sim.norwegian.scoring import grand_value, misere_value
from test_report_portland import t_interval, table, wilson
from whistlab.cli import main

GAMES = {"name": "n", "game": "norwegian", "games": 120, "seed": 11, "block_size": 60,
         "variants": {"both": {"preset": "norwegian", "max_hands": 60},
                      "zero_sum": {"preset": "norwegian.zero_sum", "max_hands": 60},
                      "double": {"preset": "norwegian.double", "max_hands": 60},
                      "three": {"preset": "norwegian.three", "max_hands": 40},
                      "classic": "norwegian.classic"},
         "lineups": {"random": "random"}}
HANDS = {"name": "nh", "game": "norwegian", "hands": 300, "seed": 12, "block_size": 150,
         "variants": {"both": "norwegian", "declarer": "norwegian.declarer",
                      "three": "norwegian.three"},
         "lineups": {"random": "random"}}
PLAYERS = {"both": 2, "zero_sum": 2, "double": 2, "declarer": 2, "three": 3, "classic": 4}
SUIT_MASKS = [((1 << 13) - 1) << (13 * s) for s in range(4)]  # bits of C, D, H, S
ACES_KINGS = sum(3 << (13 * s + 11) for s in range(4))


def run_and_report(tmp_path_factory, experiment: dict):
    """The results folder of ``experiment`` and its report's index.html."""
    folder = whistlab.run(experiment, tmp_path_factory.mktemp(experiment["name"]) / "r", n_jobs=1)
    return folder, build_report(folder, folder / "report")


@pytest.fixture(scope="module")
def games_run(tmp_path_factory):
    return run_and_report(tmp_path_factory, GAMES)


@pytest.fixture(scope="module")
def hands_run(tmp_path_factory):
    return run_and_report(tmp_path_factory, HANDS)


def raw(folder, variant: str, name: str = "hands") -> pd.DataFrame:
    """One variant's rows (the variants' player counts differ, and so do their columns)."""
    frame = pd.concat(pd.read_parquet(p) for p in sorted((folder / name).glob(
        f"part-{variant}-*.parquet")))
    for col in ("variant", "lineup"):
        frame[col] = frame[col].astype(str)
    return frame.reset_index(drop=True)


def made_and_points(hands: pd.DataFrame, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Per hand: the declarer's contract made (RULES.md §2: own table value > 0; NaN when all
    passed in the classic game) and the declarer's (side's) points."""
    d = hands["declarer"].to_numpy().astype(int)
    rows = np.arange(len(hands))
    tricks = hands[[f"tricks_{s}" for s in range(players)]].to_numpy().astype(int)
    sides = 2 if players == 4 else players
    points = hands[[f"points_{s}" for s in range(sides)]].to_numpy().astype(float)
    contract = hands["contract"].to_numpy()
    if players < 4:
        k = tricks[rows, d]
        book = 8 if players == 3 else 6
        made = np.where(contract == 2, k <= book, k > book).astype(float)
        return made, points[rows, d]
    ok = d >= 0
    k = tricks[rows, d % 4] + tricks[rows, (d + 2) % 4]
    made = np.where(ok, np.where(contract == 3, k <= 6, k > 6), np.nan)
    return made, np.where(ok, points[rows, d % 2], np.nan)


# --- files and page ---------------------------------------------------------------------------


def stems(folder, ext: str) -> set[str]:
    return {p.stem for p in folder.glob(f"*.{ext}")}


@pytest.mark.parametrize("run", ["games_run", "hands_run"])
def test_files_and_a_self_contained_page(run, request):
    folder, index = request.getfixturevalue(run)
    out = folder / "report"
    assert index == out / "index.html" and index.is_file()
    tables, figures = stems(out / "tables", "csv"), stems(out / "figures", "png")
    common = {"declarations", "contracts", "scoring_modes", "norwegian_paired", "points"}
    sections = ["1. Declarations by the chooser's hand", "2. Was the declarer's choice right?",
                "3. Who scores: scoring modes and double points"]
    if run == "games_run":
        assert tables == common | {"game_length", "game_outcomes"}
        assert figures == {"declarations", "declarations_longest", "contracts",
                           "scoring_modes", "game_length", "game_outcomes"}
        sections += ["4. Game length and who wins", "5. Points per cell", "6. Hands"]
    else:
        assert tables == common
        assert figures == {"declarations", "declarations_longest", "contracts",
                           "scoring_modes"}
        sections += ["4. Points per cell", "5. Hands"]
    for png in (out / "figures").glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = check_links(index)
    assert page.h2 == [*PRELUDE, *sections, "How to read this report"]
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert [line[3:] for line in summary.splitlines() if line.startswith("## ")] == [
        "Summary", *sections, "How to read this report"]


# --- the "both" property ----------------------------------------------------------------------

def test_the_both_property_is_stated_and_measured(games_run):
    folder, _ = games_run
    summary = (folder / "report" / "summary.md").read_text(encoding="utf-8")
    hands = {v: raw(folder, v) for v in ("both", "double", "three")}
    n = sum(len(h) for h in hands.values())
    assert (f'Scoring "both": every player scored the same points in 100.0% of {n:,} hands '
            "(both, double, three)") in summary
    assert "grand(k) = misère(T − k) for every trick count k" in summary
    for h in hands.values():   # the property itself, from the Parquet
        pts = h.filter(like="points_").to_numpy()
        assert (pts == pts[:, :1]).all()
    modes = table(folder, "scoring_modes").set_index("variant")
    for v, h in hands.items():
        assert modes.loc[v, "equal"] == modes.loc[v, "hands"] == len(h)
        assert modes.loc[v, "equal_rate"] == 1.0
    # no game can be won under "both": every game is drawn or unfinished
    won = drawn = unfinished = games = 0
    for v in hands:
        g = raw(folder, v, "games")
        assert (g["winner"] == -1).all()
        assert (g["draw"] == g["finished"]).all()
        games += len(g)
        drawn += int(g["draw"].sum())
        unfinished += int((~g["finished"]).sum())
    assert drawn + unfinished == games and won == 0
    assert f"of {games:,} games 0 were won, {drawn:,} drawn" in summary
    assert modes.loc["zero_sum", "equal"] == 0 and modes.loc["classic", "equal_rate"] < 1


def test_the_other_declaration_scores_the_negative():
    """What the report's "choice was right" rests on (RULES.md §2 tables): with the same tricks
    k the other declaration's table gives -value (13 tricks), and grand(k) = misère(T - k)."""
    k = np.arange(14)
    assert np.array_equal(misere_value(k, 13), -grand_value(k, 13))
    for tricks in (13, 17):
        k = np.arange(tricks + 1)
        assert np.array_equal(grand_value(k, tricks), misere_value(tricks - k, tricks))


# --- declarations and contracts ---------------------------------------------------------------

def decisions(hands: pd.DataFrame, players: int) -> pd.DataFrame:
    """One row per declaration made by choice, with the chooser's hand features."""
    made, _ = made_and_points(hands, players)
    rows = []
    for s in range(players):
        hand = hands[f"hand_{s}"].to_numpy().astype(np.uint64)
        longest = np.max([np.bitwise_count(hand & np.uint64(m)) for m in SUIT_MASKS], axis=0)
        part = pd.DataFrame({
            "variant": hands["variant"], "lineup": hands["lineup"],
            "game_id": hands["game_id"], "seat": s,
            "declarer": hands["declarer"], "decision": hands[f"declaration_{s}"],
            "made": made, "aces_kings": np.bitwise_count(hand & np.uint64(ACES_KINGS)),
            "longest_suit": np.minimum(longest, 8)})
        rows.append(part[part["seat"] == part["declarer"]] if players == 2
                    else part[part["decision"] >= 0])
    return pd.concat(rows)


CODES = {"grand": 1, "misère": 2, "nullo": 3, "pass": 0}


@pytest.mark.parametrize("run", ["games_run", "hands_run"])
def test_declarations(run, request):
    folder, _ = request.getfixturevalue(run)
    csv = table(folder, "declarations")
    variants = GAMES["variants"] if run == "games_run" else HANDS["variants"]
    assert set(csv["variant"]) == set(variants)
    options = {2: {"grand", "misère"}, 3: {"grand", "pass"}, 4: {"grand", "nullo", "pass"}}
    for variant in variants:
        players = PLAYERS[variant]
        long = decisions(raw(folder, variant), players)
        mine = csv[csv["variant"] == variant]
        assert set(mine["option"]) == options[players]
        assert (mine["players"] == players).all()
        for r in mine.itertuples():
            group = long if r.feature == "all" else long[long[r.feature] == r.value]
            chosen = group[group["decision"] == CODES[r.option]]
            assert (r.decisions, r.chosen) == (len(group), len(chosen))
            assert r.rate == pytest.approx(len(chosen) / len(group))
            # the decisions of a game (of a hand, with three or four players) are one cluster
            want = share_interval(group.assign(x=1, y=group["decision"] == CODES[r.option]),
                                  "game_id", "x", "y")
            assert (r.rate_lo, r.rate_hi) == pytest.approx(want[1:], nan_ok=True)
            if r.option == "pass":
                assert np.isnan(r.made) and np.isnan(r.success)
                continue
            made = int(chosen["made"].sum())
            assert r.made == made
            if len(chosen):
                want = share_interval(chosen.assign(x=1), "game_id", "x", "made")
                assert (r.success_lo, r.success_hi) == pytest.approx(want[1:], nan_ok=True)
        # every value of a feature is a row; the decisions add up to the whole
        for feature in ("aces_kings", "longest_suit"):
            rows = mine[(mine["feature"] == feature) & (mine["option"] == "grand")]
            assert set(rows["value"]) == set(long[feature])
            assert rows["decisions"].sum() == len(long)


@pytest.mark.parametrize("run", ["games_run", "hands_run"])
def test_contracts(run, request):
    folder, _ = request.getfixturevalue(run)
    csv = table(folder, "contracts")
    variants = GAMES["variants"] if run == "games_run" else HANDS["variants"]
    names = {1: "grand", 2: "misère", 3: "nullo"}
    for variant in variants:
        players = PLAYERS[variant]
        hands = raw(folder, variant)
        made, points = made_and_points(hands, players)
        hands = hands.assign(made=made, dpoints=points, name=hands["contract"].map(names))
        mine = csv[csv["variant"] == variant]
        assert mine["hands"].sum() == len(hands)
        assert len(mine) == hands.groupby(["name", "forced"]).ngroups
        for r in mine.itertuples():
            rows = hands[(hands["name"] == r.contract) & (hands["forced"] == r.forced)]
            assert (r.hands, r.cell_hands) == (len(rows), len(hands))
            mine_rows = (hands["name"] == r.contract) & (hands["forced"] == r.forced)
            want = share_interval(hands.assign(x=1, y=mine_rows), "game_id", "x", "y")
            assert (r.share_lo, r.share_hi) == pytest.approx(want[1:])
            decided = rows[rows["dpoints"].notna()]
            assert (r.decided, r.made) == (len(decided), int(decided["made"].sum()))
            if not len(decided):   # the classic game's all-pass nullo: nobody declared
                assert players == 4 and r.forced and np.isnan(r.success)
                continue
            assert r.success == pytest.approx(decided["made"].mean())
            assert r.declarer_points == pytest.approx(decided["dpoints"].mean())
            if decided["dpoints"].std() > 0:
                want = ratio_interval(decided.assign(x=1), "game_id", "x", "dpoints")
                assert (r.declarer_points_lo, r.declarer_points_hi) == pytest.approx(want[1:])
    # the 2-player declarer scores its own table under every scoring mode: made <=> points > 0
    for variant in (v for v in variants if PLAYERS[v] == 2):
        hands = raw(folder, variant)
        made, points = made_and_points(hands, 2)
        assert np.array_equal(made == 1, points > 0)


def test_scoring_modes(games_run):
    folder, _ = games_run
    csv = table(folder, "scoring_modes").set_index("variant")
    scoring = {"both": "both", "zero_sum": "zero_sum", "double": "both", "three": "both",
               "classic": "classic"}
    for variant, players in ((v, PLAYERS[v]) for v in GAMES["variants"]):
        hands = raw(folder, variant)
        pts = hands.filter(like="points_").to_numpy().astype(float)
        r = csv.loc[variant]
        assert (r["players"], r["scoring"]) == (players, scoring[variant])
        assert r["double_points"] == (variant == "double")
        assert r["hands"] == len(hands)
        assert r["equal"] == (pts == pts[:, :1]).all(axis=1).sum()
        total = pts.sum(axis=1)
        assert r["total_points"] == pytest.approx(total.mean())
        if total.std() > 0:
            want = ratio_interval(hands.assign(x=1, total=total), "game_id", "x", "total")
            assert (r["total_points_lo"], r["total_points_hi"]) == pytest.approx(want[1:])
        assert r["doubled"] == hands["doubled"].sum()
    assert csv.loc["zero_sum", "total_points"] == 0   # two players: zero-sum exactly
    assert csv.loc["double", "doubled"] > 0


# --- games: length, outcomes, pairs -----------------------------------------------------------

def test_game_length_and_outcomes(games_run):
    folder, _ = games_run
    length = table(folder, "game_length").set_index("variant")
    outcomes = table(folder, "game_outcomes")
    for variant in GAMES["variants"]:
        players = PLAYERS[variant]
        games, hands = raw(folder, variant, "games"), raw(folder, variant)
        r = length.loc[variant]
        assert (r["games"], r["finished"]) == (len(games), games["finished"].sum())
        assert r["first_dealer"] == players - 1
        assert set(hands.loc[hands["hand_no"] == 1, "dealer"]) == {players - 1}
        assert r["n_hands"] == pytest.approx(games["n_hands"].mean())
        if games["n_hands"].std() > 0:
            assert (r["n_hands_lo"], r["n_hands_hi"]) == pytest.approx(
                t_interval(games["n_hands"]))
        else:   # every game stopped at max_hands
            assert r["n_hands_lo"] == r["n_hands_hi"] == r["n_hands"]
        done = games.loc[games["finished"], "n_hands"]
        if len(done) > 1:
            assert r["n_hands_finished"] == pytest.approx(done.mean())
        sides = 2 if players == 4 else players
        who = "side" if players == 4 else "player"
        expected = {f"{who} {s} wins": (games["winner"] == s).sum() for s in range(sides)}
        expected |= {"draw": games["draw"].sum(), "unfinished": (~games["finished"]).sum()}
        mine = outcomes[outcomes["variant"] == variant].set_index("outcome")
        assert list(mine.index) == list(expected)
        assert mine["count"].sum() == len(games)
        for outcome, k in expected.items():
            assert mine.loc[outcome, "count"] == k
            assert (mine.loc[outcome, "share_lo"], mine.loc[outcome, "share_hi"]) == \
                pytest.approx(wilson(k, len(games)))


def test_variants_paired_on_the_same_deals(games_run):
    folder, _ = games_run
    paired = table(folder, "norwegian_paired")
    # every variant against the first with as many players; three and classic have none
    assert set(zip(paired["variant"], paired["base"], strict=True)) == {
        ("zero_sum", "both"), ("double", "both")}
    assert set(paired["metric"]) == {"n_hands", "unfinished", "draw", "win_0", "win_1"}
    base_hands = raw(folder, "both")
    base = raw(folder, "both", "games")
    for variant in ("zero_sum", "double"):
        # the deals are the same: the same cards for the same game_id and hand_no
        both = raw(folder, variant).merge(base_hands, on=["game_id", "hand_no"],
                                          suffixes=("", "_b"))
        assert len(both) > 0
        assert (both["hand_0"] == both["hand_0_b"]).all()
        assert (both["hand_1"] == both["hand_1_b"]).all()
        games = raw(folder, variant, "games").merge(base, on=["lineup", "swapped", "game_id"],
                                                    suffixes=("", "_b"))
        assert len(games) == GAMES["games"]
        values = {"n_hands": lambda g, s: g[f"n_hands{s}"].astype(float),
                  "unfinished": lambda g, s: (~g[f"finished{s}"]).astype(float),
                  "draw": lambda g, s: g[f"draw{s}"].astype(float),
                  "win_0": lambda g, s: (g[f"winner{s}"] == 0).astype(float),
                  "win_1": lambda g, s: (g[f"winner{s}"] == 1).astype(float)}
        for metric, value in values.items():
            r = paired[(paired["variant"] == variant) & (paired["metric"] == metric)].iloc[0]
            a, b = value(games, ""), value(games, "_b")
            diff = a - b
            assert r["n"] == len(games)
            assert (r["mean"], r["mean_base"], r["diff"]) == pytest.approx(
                (a.mean(), b.mean(), diff.mean()))
            if diff.std() > 0:
                assert (r["diff_lo"], r["diff_hi"]) == pytest.approx(t_interval(diff))
            if a.std() > 0 and b.std() > 0:
                welch = stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
                assert (r["unpaired_lo"], r["unpaired_hi"]) == pytest.approx(
                    (welch.low, welch.high))


def test_hands_run_pairs_hands(hands_run):
    folder, _ = hands_run
    paired = table(folder, "norwegian_paired")
    assert set(paired["variant"]) == {"declarer"} and set(paired["base"]) == {"both"}
    a, b = raw(folder, "declarer"), raw(folder, "both")
    pairs = a.merge(b, on=["game_id", "hand_no"], suffixes=("", "_b"))
    assert len(pairs) == HANDS["hands"]
    r = paired[paired["metric"] == "points_0"].iloc[0]
    diff = pairs["points_0"].astype(float) - pairs["points_0_b"]
    assert r["diff"] == pytest.approx(diff.mean())
    assert (r["diff_lo"], r["diff_hi"]) == pytest.approx(t_interval(diff))


@pytest.mark.parametrize("run", ["games_run", "hands_run"])
def test_points_per_side(run, request):
    folder, _ = request.getfixturevalue(run)
    csv = table(folder, "points")
    variants = GAMES["variants"] if run == "games_run" else HANDS["variants"]
    for variant in variants:
        hands = raw(folder, variant)
        sides = 2 if PLAYERS[variant] == 4 else PLAYERS[variant]
        mine = csv[csv["variant"] == variant].sort_values("side")
        assert list(mine["side"]) == list(range(sides))
        assert set(mine["strategy"]) == {"random"}
        for r in mine.itertuples():
            x = hands[f"points_{r.side}"].astype(float)
            assert (r.hands, r.mean_points) == (len(x), pytest.approx(x.mean()))
            want = ratio_interval(hands.assign(x=1, y=x), "game_id", "x", "y")
            assert (r.mean_points_lo, r.mean_points_hi) == pytest.approx(want[1:])


def test_whistlab_report_command(games_run, tmp_path, capsys):
    folder, _ = games_run
    assert main(["report", str(folder), "--out", str(tmp_path / "rep")]) == 0
    assert "report:" in capsys.readouterr().out
    assert (tmp_path / "rep" / "tables" / "declarations.csv").is_file()
    assert (tmp_path / "rep" / "figures" / "game_outcomes.png").is_file()
