"""The Norwegian report's pages: its sections, table views and notes, rendered by
`reports.render` like the other reports'."""

from __future__ import annotations

import polars as pl

from . import render
from .data import Results
from .norwegian import SHARES
from .norwegian_figures import NORWEGIAN_FIGURES
from .render import Layout, View, by_metric, cell, count, interval, num, pct, text

__all__ = ["norwegian_layout"]


def _flag(name: str, yes: str, no: str = ""):
    return lambda r: yes if r[name] else no


def _views(res: Results) -> list[View]:
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
                  "table value positive). 95% Wilson intervals."),
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
                  "the variant's scoring, doubled if so. 95% Wilson and t intervals."),
        View("scoring", "scoring_modes", "Who scores, per scoring mode",
             [("variant", text("variant")), ("line-up", cell), ("players", text("players")),
              ("scoring", text("scoring")), ("double points", _flag("double_points", "yes")),
              ("hands", count("hands")), ("every side scored the same", pct("equal_rate")),
              ("sides' total per hand", num("total_points", 2, sign=True)),
              ("doubled hands", pct("doubled_rate", 2))],
             note="Every side scored the same: all points_&lt;side&gt; of the hand equal. "
                  "Total: the sum of the sides' points (0 under zero_sum with 2 players; with "
                  "3 the declarer's value is paid by each of the two others). Doubled: the "
                  "grand player took every trick or none, under double_points. 95% Wilson and "
                  "t intervals."),
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
             "(side 0 = seats 0 and 2). 95% t intervals" + (
                 " (hands of one game are not independent: indicative)." if games else ".")))
    return views


def _methods(res: Results) -> list[str]:
    common = render._methods(res)  # built from the tables alone; the intervals; the files
    return [
        common[0], common[1],
        "A run may mix player counts: each table is read per player count (one schema each). "
        "Cells with the same number of players play the same deals (the same game_id, "
        "hand_no): the paired comparisons set each variant against the first variant of the "
        "experiment with as many players.",
        "Declarations by hand: the features are those of the dealt cards of the player who "
        "spoke (aces and kings; longest suit). Made, and 'the choice was right', mean the "
        "declarer's own table value for the hand is positive. In the 2-player game the other "
        "declaration, with the same tricks, scores exactly the negative (misère(k) = "
        "−grand(k)), so made ⇔ better than the other choice on those tricks; with the other "
        "contract the play would have differed, so this is a proxy, not a replay.",
        "Under scoring = \"both\" every player scores the same in every hand (grand(k) = "
        "misère(T − k) for every k, 3-player misère partners alike): games can only be drawn "
        "or stop unfinished at max_hands; the scoring-mode table measures it.",
        common[-1],
    ]


TITLES = {"declarations": "Declarations by the chooser's hand",
          "choice": "Was the declarer's choice right?",
          "scoring": "Who scores: scoring modes and double points",
          "length": "Game length and who wins",  # games runs only
          "cells": "Points per cell"}
INTROS = {
    "declarations": "How often grand (or misère, nullo, pass) is declared by choice, and how "
                    "often a contract so declared is made, overall and by the chooser's aces "
                    "and kings and longest suit.",
    "choice": "Each contract played (chosen, or forced when all passed): how often, how often "
              "made, and the declarer's points per hand.",
    "scoring": "Which sides score under each scoring mode, and the property of scoring "
               "\"both\": every player scores the same in every hand.",
    "length": "Hands per game and the games' outcomes per cell, and each scoring mode and "
              "double points against the base variant (the first with as many players) on the "
              "same deals.",
    "cells": "Mean points per hand per cell and side.",
}


def norwegian_layout(res: Results) -> Layout:
    keys = [k for k in TITLES if res.games_mode or k != "length"]
    return Layout({k: f"{i}. {TITLES[k]}" for i, k in enumerate(keys, 1)},
                  {k: INTROS[k] for k in keys}, _views(res), NORWEGIAN_FIGURES, _methods(res))
