"""The Portland study's table views."""

from __future__ import annotations

import polars as pl

from ...data import Results
from ...kit.cells import by_metric, cell, count, interval, num, pct, text
from ...kit.tables import View
from ...portland import VALUES

__all__ = ["portland_views"]

ROLE_NAMES = {"all": "both sides", "dealer": "the dealer's side", "other": "the other side"}


def _pivot(frame: pl.DataFrame, kind: str) -> pl.DataFrame:
    """Honours distribution rows of one kind as one row per (variant, role), the share of each
    value in columns ``s<value>``, ``s<value>_lo``, ``s<value>_hi``, ``e<value>`` (exact)."""
    rows = frame.filter(kind=kind)
    if rows.is_empty():
        return rows
    out = []
    for (variant, role), part in rows.group_by("variant", "role", maintain_order=True):
        r = {"variant": variant, "role": ROLE_NAMES.get(role, role), "n": part["n"][0]}
        for d in part.iter_rows(named=True):
            v = d["value"]
            r |= {f"s{v}": d["share"], f"s{v}_lo": d["share_lo"], f"s{v}_hi": d["share_hi"],
                  f"e{v}": d["exact"]}
        mean = sum(d["value"] * d["share"] for d in part.iter_rows(named=True))
        r["mean"] = mean
        out.append(r)
    return pl.DataFrame(out)


def _exact_row(frame: pl.DataFrame) -> pl.DataFrame:
    """The exact shares as one more row (role "exact")."""
    first = frame.head(1)
    if first.is_empty():
        return frame
    exact = {c: first[f"e{c[1:]}"][0] if c.startswith("s") and "_" not in c else None
             for c in frame.columns}
    exact |= {"variant": "exact (combinatorics)", "role": first["role"][0], "n": None,
              "mean": sum(v * first[f"e{v}"][0] for v in VALUES["held"])}
    return pl.concat([frame, pl.DataFrame([exact], schema=frame.schema)])


def _scored(frame: pl.DataFrame) -> pl.DataFrame:
    """The variants that scored honours at least once."""
    return frame.filter(pl.col("s0") < 1) if "s0" in frame.columns else frame


def _held_view(frame: pl.DataFrame, role: str) -> pl.DataFrame:
    rows = _pivot(frame.filter(role=role), "held")
    return _exact_row(rows)


def _two_cov(r: dict) -> str:
    if r["cov"] is None or r["cov"] != r["cov"]:
        return "–"
    return f"{2 * r['cov']:+.3f} [{2 * r['cov_lo']:+.3f}, {2 * r['cov_hi']:+.3f}]"


def _share(r: dict) -> str:
    s = r["honours_share"]
    return "–" if s is None or s != s else f"{100 * s:.0f}%"


def portland_views(res: Results) -> list[View]:
    games = res.games_mode
    held_cols = [("variant", text("variant")), ("side-hands", count("n")),
                 *[(f"{v} held", pct(f"s{v}")) for v in VALUES["held"]],
                 ("mean held", num("mean", 3))]
    points_cols = [("variant", text("variant")), ("side-hands", count("n")),
                   *[(f"{v} points", pct(f"s{v}")) for v in VALUES["points"]],
                   ("mean honours points", num("mean", 3))]
    def var_cols(unit: str) -> list:
        return [("variant", text("variant")), ("line-up", cell), ("vs", text("base")),
                (unit, count("n")), ("mean", num("mean_points", 3)),
                ("Var(points) [95%]", num("var_points", 3)),
                ("Var(tricks)", num("var_tricks", 3)), ("Var(honours)", num("var_honours", 3)),
                ("2 Cov(tricks, honours)", _two_cov), ("honours' share", _share),
                ("ratio to vs [95%]", num("var_ratio", 3))]

    views = [
        View("honours", "honours_distribution", "Honours held per side-hand, by variant",
             held_cols, rows=lambda f: _held_view(f, "all"),
             note="Both sides of every hand, all line-ups pooled; 95% Wilson intervals for "
                  "side-hands clustered by game id (a hand's two sides, a game's hands and "
                  "every line-up's hands of a game id together). The last row: the exact "
                  "shares (hypergeometric: 4 honours among 52 cards, 26 on a side)."),
        View("honours", "honours_distribution", "Honours points per side-hand, by variant",
             points_cols, rows=lambda f: _scored(_pivot(f.filter(role="all"), "points")),
             note="4 for four honours, 2 for three, when counted (variants with honours)."),
        View("honours", "honours_distribution", "Honours held by the dealer's side and the "
             "other side", [("variant", text("variant")), ("side", text("role")),
                            *held_cols[1:]],
             rows=lambda f: pl.concat([_held_view(f, "dealer"), _held_view(f, "other")]),
             note="The dealer's side holds the turned-up trump: an honour in 4 hands of 13. "
                  "Exact rows: that card, then 3 or 4 honours among the other 51 cards, 25 of "
                  "them on the dealer's side.", markdown=False, folded=True),
        View("honours", "honours_counted", "Three or four honours held, and scored",
             [("variant", text("variant")), ("held", text("held")),
              ("side-hands", count("side_hands")), ("scored", count("counted")),
              ("scored (%)", pct("counted_rate"))],
             note="Not scored: under honours_order = \"tricks_first\" when the trick points "
                  "ended the game, or at honours_barred_at. 95% Wilson intervals for "
                  "side-hands clustered by game id."),
        View("variance", "variance_decomposition", "A side's points per hand",
             var_cols("side-hands"),
             rows=lambda f: f.filter(level="hand"),
             note="Side-hands (both sides of every hand); points = trick points + honours "
                  "points. Intervals over game ids: chi-square with effective degrees of "
                  "freedom for the variances, t for the covariance; the ratio to the variant "
                  "without honours: t on its logarithm, the two cells paired by game id."),
    ]
    if games:
        views += [
            View("variance", "variance_decomposition", "The final score margin per game",
                 var_cols("games"), rows=lambda f: f.filter(level="game"),
                 note="Side 0's final score minus side 1's; tricks and honours: the game's "
                      "trick points and honours points, side 0 minus side 1."),
            View("length", "game_length", "Hands per game",
                 [("variant", text("variant")), ("line-up", cell), ("games", count("games")),
                  ("hands per game [95%]", num("n_hands", 3))],
                 note="95% t intervals over games; under rubber = true, per game of a "
                      "rubber, a rubber's games one cluster."),
        ]
    paired_cols = [("variant", text("variant")), ("vs", text("base")), ("line-up", cell),
                   ("metric", text("description")),
                   ("paired " + ("games" if games else "hands"), count("n")),
                   ("with honours", by_metric(pct("mean"), num("mean", 3), ("first_win",))),
                   ("without", by_metric(pct("mean_base"), num("mean_base", 3),
                                         ("first_win",))),
                   ("difference [paired 95%]", by_metric(pct("diff", sign=True),
                                                         num("diff", 3, sign=True),
                                                         ("first_win",))),
                   ("unpaired 95%", by_metric(interval("unpaired_lo", "unpaired_hi", 2, 100,
                                                       " pp"),
                                              interval("unpaired_lo", "unpaired_hi", 3),
                                              ("first_win",))),
                   ("unpaired / paired width", num("width_ratio", 1))]
    views.append(View(
        "length" if games else "dealer", "honours_paired",
        "With and without honours on the same deals", paired_cols,
        note="Each variant with honours minus the same rules without, the same line-up and "
             f"seating, paired on {' and '.join(res.key)}"
             + (" (under rubber = true, the first game of each rubber)" if games else "")
             + ": paired 95% t interval; the unpaired (Welch) interval treats the two cells as "
               "independent samples."))
    views += [
        View("dealer", "dealer_advantage", "The dealer's side minus the other, per hand",
             [("variant", text("variant")), ("line-up", cell), ("metric", text("description")),
              ("hands", count("hands")), ("advantage [95%]", num("advantage", 3, sign=True)),
              ("exact", num("exact", 3, sign=True))],
             note="The dealer's side is side dealer % 2; 95% intervals over "
             + ("games, the game as cluster (delta method)" if games else "hands (t)")
             + ". Tricks: tricks won by the side's two seats; honours: A K Q J of trump held "
               "at the deal (exact: 4/17 with a turned-up trump)."),
    ]
    if games:
        views.append(View(
            "dealer", "first_dealer", "Games won by the side that deals first",
            [("variant", text("variant")), ("line-up", cell), ("games", count("games")),
             ("side", text("first_side")), ("wins", count("wins")),
             ("won [95%]", pct("win_rate"))],
            note="The side of the dealer of the game's first hand (seat 3, side 1, unless the "
                 "game is not the first of a rubber); 95% Wilson intervals over games (a "
                 "rubber's games one cluster)."))
    views.append(View(
        "cells", "points", "Mean points per hand",
        [("variant", text("variant")), ("line-up", cell), ("side", text("side")),
         ("strategy", text("strategy")), ("hands", count("hands")),
         ("points per hand", num("mean_points", 3))], folded=True,
        note="95% intervals over " + ("games, the game as cluster (delta method)."
                                       if games else "hands (t).")))
    if games:
        views.append(View(
            "cells", "games", "Wins and game length",
            [("variant", text("variant")), ("line-up", cell), ("side 0", text("strategy_0")),
             ("side 1", text("strategy_1")), ("games", count("games")),
             ("side 0 wins", pct("win_rate_0")), ("hands per game", num("n_hands", 2))],
            folded=True, note="From the games table: under rubber = true a row is a rubber "
                              "(its winner, its hands)."))
    return views
