"""The Norwegian study's table views."""

from __future__ import annotations

import polars as pl

from ...data import Results
from ...kit.cells import by_metric, cell, count, interval, num, pct, text
from ...kit.tables import LIMIT, View, clearest
from ...norwegian import SHARES

__all__ = ["norwegian_views"]


def _flag(name: str, yes: str, no: str = ""):
    return lambda r: yes if r[name] else no


def norwegian_views(res: Results) -> list[View]:
    games = res.games_mode
    rate = [("decisions", count("decisions")), ("declared", count("chosen")),
            ("declared (%)", pct("rate")), ("made", count("made")), ("made (%)", pct("success"))]
    by_value = [("variant", text("variant")), ("line-up", cell), ("option", text("option"))]
    views = [
        View("declarations", "declarations", "Declarations by choice, every hand",
             [("variant", text("variant")), ("line-up", cell), ("players", text("players")),
              ("option", text("option")), *rate],
             rows=lambda f: f.filter(feature="all"),
             note="Decisions: declarations made by choice (2 players: the non-dealer's; 3: "
                  "each grand or pass said until the first grand; classic: each pass and the "
                  "first bid). Made: the contract so declared was made (the declarer's own "
                  "table value positive). 95% Wilson intervals for decisions clustered by "
                  "game id (a game's, and a hand's, decisions together)."),
        View("declarations", "declarations", "Grand by the chooser's aces and kings",
             [*by_value, ("aces and kings", text("label")), *rate],
             rows=lambda f: f.filter(feature="aces_kings", option="grand"),
             note="Aces and kings among the chooser's dealt cards (13, or 17 with 3 players)."),
        View("declarations", "declarations", "Every option by the chooser's aces and kings",
             [*by_value, ("aces and kings", text("label")), *rate],
             rows=lambda f: f.filter(feature="aces_kings"), markdown=False, folded=True),
        View("declarations", "declarations", "Every option by the chooser's longest suit",
             [*by_value, ("longest suit", text("label")), *rate],
             rows=lambda f: f.filter(feature="longest_suit"), markdown=False, folded=True,
             note="8+: eight cards or more."),
        View("choice", "contracts", "Contracts played and made",
             [("variant", text("variant")), ("line-up", cell), ("contract", text("contract")),
              ("chosen by", text("chosen_by")), ("hands", count("hands")),
              ("share of hands", pct("share")), ("made", count("made")),
              ("made (%)", pct("success")),
              ("declarer's points per hand", num("declarer_points", 2, sign=True))],
             note="Made: the declarer's own table value is positive — grand: more tricks than "
                  "the book (6; 8 with 3 players; classic: the bidding side more than six); "
                  "misère: at most 6 tricks; nullo: the bidder's side at most six. The "
                  "declarer's points: its own (classic: its side's) points for the hand under "
                  "the variant's scoring, doubled if so. 95% intervals over game ids: Wilson "
                  "for clustered trials, and the delta method for the points."),
        View("scoring", "scoring_modes", "Who scores, per scoring mode",
             [("variant", text("variant")), ("line-up", cell), ("players", text("players")),
              ("scoring", text("scoring")), ("double points", _flag("double_points", "yes")),
              ("hands", count("hands")), ("every side scored the same", pct("equal_rate")),
              ("sides' total per hand", num("total_points", 2, sign=True)),
              ("doubled hands", pct("doubled_rate", 2))],
             note="Every side scored the same: all points_<side> of the hand equal. "
                  "Total: the sum of the sides' points (0 under zero_sum with 2 players; with "
                  "3 the declarer's value is paid by each of the two others). Doubled: the "
                  "grand player took every trick or none, under double_points. 95% intervals "
                  "over game ids: Wilson for clustered trials, and the delta method for the "
                  "total."),
    ]
    if games:
        paired_cols = [("variant", text("variant")), ("vs", text("base")), ("line-up", cell),
                       ("metric", text("description")), ("paired games", count("n")),
                       ("variant's", by_metric(pct("mean"), num("mean", 2), SHARES)),
                       ("base's", by_metric(pct("mean_base"), num("mean_base", 2), SHARES)),
                       ("difference [paired 95%]", by_metric(
                           pct("diff", sign=True), num("diff", 2, sign=True), SHARES)),
                       ("unpaired 95%", by_metric(
                           interval("unpaired_lo", "unpaired_hi", 1, 100, " pp"),
                           interval("unpaired_lo", "unpaired_hi", 2), SHARES))]
        views += [
            View("length", "game_length", "Hands per game",
                 [("variant", text("variant")), ("line-up", cell),
                  ("players", text("players")), ("first dealer", text("first_dealer")),
                  ("games", count("games")), ("hands per game", num("n_hands", 2)),
                  ("finished", count("finished")),
                  ("hands per finished game", num("n_hands_finished", 2))],
                 note="95% t intervals. An unfinished game (stopped at max_hands) counts its "
                      "max_hands hands in the first column."),
            View("length", "game_outcomes", "Who wins",
                 [("variant", text("variant")), ("line-up", cell), ("outcome", text("outcome")),
                  ("games", count("games")), ("count", count("count")),
                  ("share", pct("share"))],
                 note="A player (classic: a side) wins with the unique highest score at or "
                      "over the target; a shared top score is a draw; unfinished: stopped at "
                      "max_hands. Seat 0 is the first to declare (seat P − 1 deals the first "
                      "hand). 95% Wilson intervals."),
            View("length", "norwegian_paired", "Scoring modes and double points on the same "
                 "deals: hands per game", paired_cols,
                 rows=lambda f: f.filter(metric="n_hands"),
                 note="Each variant minus the experiment's first variant with the same number "
                      "of players, the same line-up and seating, paired on game_id (the same "
                      "sequence of deals): paired 95% t interval; the unpaired (Welch) "
                      "interval treats the two cells as independent samples."),
            View("length", "norwegian_paired", "On the same deals: who wins", paired_cols,
                 rows=lambda f: f.filter(pl.col("metric") != "n_hands")),
        ]
    else:
        views.append(View(
            "choice", "norwegian_paired", "Variants on the same hands",
            [("variant", text("variant")), ("vs", text("base")), ("line-up", cell),
             ("metric", text("description")), ("paired hands", count("n")),
             ("difference [paired 95%]", by_metric(pct("diff", sign=True),
                                                   num("diff", 3, sign=True), SHARES))],
            note="Each variant minus the first variant with the same number of players, "
                 "paired on game_id and hand_no; 95% t intervals."))
    views.append(View(
        "cells", "points", "Mean points per hand",
        [("variant", text("variant")), ("line-up", cell), ("side", text("side")),
         ("strategy", text("strategy")), ("hands", count("hands")),
         ("points per hand", num("mean_points", 3))], folded=True,
        note="A side is a player with 2 or 3 players and a partnership in the classic game "
             "(side 0 = seats 0 and 2). 95% intervals over " + (
                 "games, the game as cluster (delta method)." if games else "hands (t).")))
    first = _first_cells(res)
    for view in views:
        if view.top is None:
            view.top = clearest if view.table == "norwegian_paired" else first
    return views


def _first_cells(res: Results):
    """The rows a long table shows first: its first line-up's (unswapped), and for a table by
    the chooser's hand, its first variant's too."""
    def top(frame: pl.DataFrame) -> pl.DataFrame:
        rows = frame.filter(lineup=res.lineups[0], swapped=False)
        if "value" in rows.columns and rows.height > 2 * LIMIT:
            rows = rows.filter(variant=rows["variant"][0])
        return rows
    return top
