"""The Norwegian study (RULES.md §2): declarations by the chooser's hand, contracts made, the
scoring modes, game length and who wins (`reports.norwegian` computes it; `views` and
`figures` lay it out with the kit)."""

from __future__ import annotations

import polars as pl

from ...kit.cells import estimate
from ...kit.page import Finding
from ...kit.study import Computed, Layout, Part, Study
from ...kit.tables import clearest
from ...norwegian import groups, norwegian_report
from ...stats import proportion_ci
from .. import methods
from ..hands_part import hands_part
from .figures import FIGURES
from .hands import hands_section
from .views import norwegian_views

__all__ = ["STUDY"]

TABLES = ("declarations", "contracts", "scoring_modes", "game_length", "game_outcomes",
          "norwegian_paired", "points")


def compute(res) -> Computed:
    report = norwegian_report(res)
    return Computed(res, report["tables"], report["findings"], hands=hands_section(res))


def _methods(res) -> list[str]:
    return [
        methods.FROM_TABLES,
        *methods.intervals(res),
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
        methods.FILES,
    ]


def _parts(res) -> list[Part]:
    parts = [
        Part("declarations", "Declarations by the chooser's hand",
             "How often grand (or misère, nullo, pass) is declared by choice, and how often a "
             "contract so declared is made, overall and by the chooser's aces and kings and "
             "longest suit."),
        Part("choice", "Was the declarer's choice right?",
             "Each contract played (chosen, or forced when all passed): how often, how often "
             "made, and the declarer's points per hand."),
        Part("scoring", "Who scores: scoring modes and double points",
             "Which sides score under each scoring mode, and the property of scoring "
             "\"both\": every player scores the same in every hand."),
    ]
    if res.games_mode:
        parts.append(Part("length", "Game length and who wins",
                          "Hands per game and the games' outcomes per cell, and each scoring "
                          "mode and double points against the base variant (the first with as "
                          "many players) on the same deals."))
    parts.append(Part("cells", "Points per cell", "Mean points per hand per cell and side."))
    return parts


def _left_out(res, tables) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"summary": []}
    if not res.games_mode:
        out["summary"].append("The run plays independent hands (no games), so game length "
                              "and who wins are left out.")
    if "norwegian_paired" not in tables:
        out["summary"].append("No two variants have the same number of players, so none is "
                              "compared with another on the same deals.")
    return out


def _where(res, r: dict) -> str:
    return r["variant"] + ("" if len(res.lineups) == 1 else f", {r['lineup']}")


def _summary(res, tables) -> list[Finding]:
    out = []
    dec = tables.get("declarations")
    modes = tables.get("scoring_modes")
    if modes is not None:
        both = modes.filter(scoring="both")
        if both.height:
            k, n = int(both["equal"].sum()), int(both["hands"].sum())
            share, lo, hi = proportion_ci(k, n)
            out.append(Finding(
                f"Under scoring \"both\" every player scored the same in {100 * share:.1f}% "
                f"[{100 * lo:.1f}, {100 * hi:.1f}] of {n:,} hands: such a game has no winner.",
                "scoring"))
    if dec is not None:
        for players, variants in groups(res).items():
            rows = dec.filter(variant=variants[0], lineup=res.lineups[0], swapped=False,
                              feature="all", option="grand")
            if not rows.height:
                continue
            r = rows.row(0, named=True)
            text = (f"{players} players ({_where(res, r)}): grand is declared by choice in "
                    f"{estimate(r, 'rate', 1, 100, unit='%')} of decisions")
            if r["chosen"]:
                text += f" and made in {estimate(r, 'success', 1, 100, unit='%')}"
            out.append(Finding(text + ".", "declarations"))
    length = tables.get("game_length")
    if length is not None and length.height:
        finished = length.filter(pl.col("finished") > 0)
        if finished.height > 1:
            ordered = finished.sort("n_hands")
            a, b = ordered.row(0, named=True), ordered.row(-1, named=True)
            out.append(Finding(f"Games last from {estimate(a, 'n_hands', 1)} hands "
                               f"({_where(res, a)}) to {estimate(b, 'n_hands', 1)} "
                               f"({_where(res, b)}).", "length"))
        elif finished.height:
            r = finished.row(0, named=True)
            out.append(Finding(f"Games last {estimate(r, 'n_hands', 1)} hands.", "length"))
    paired = tables.get("norwegian_paired")
    if paired is not None:
        metric = "n_hands" if res.games_mode else "points_0"
        rows = clearest(paired.filter(metric=metric))
        if rows.height:
            r = rows.row(0, named=True)
            out.append(Finding(f"On the same deals, {r['variant']} minus {r['base']} "
                               f"({r['lineup']}): {r['description']} "
                               f"{estimate(r, 'diff', 2, sign=True)}.",
                               "length" if res.games_mode else "choice"))
    return out


def layout(computed: Computed) -> Layout:
    res, tables = computed.res, computed.tables
    left_out = _left_out(res, tables)
    parts = [*_parts(res), hands_part(res, computed.hands, left_out)]
    return Layout(parts, norwegian_views(res), FIGURES, _methods(res),
                  summary=_summary(res, tables), left_out=left_out,
                  hands={"hands": computed.hands.diagrams})


STUDY = Study("norwegian", compute, layout, TABLES, tuple(FIGURES))
