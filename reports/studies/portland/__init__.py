"""The Portland study: the honours study (RULES.md §1; `reports.portland` computes it,
`views` and `figures` lay it out with the kit)."""

from __future__ import annotations

import polars as pl

from ...kit.cells import estimate
from ...kit.page import Finding
from ...kit.study import Computed, Layout, Part, Study
from ...portland import portland_report
from .. import methods
from ..hands_part import hands_part
from .figures import FIGURES
from .hands import hands_section
from .views import portland_views

__all__ = ["STUDY"]

TABLES = ("honours_distribution", "honours_counted", "variance_decomposition", "game_length",
          "honours_paired", "dealer_advantage", "first_dealer", "points", "games")


def compute(res) -> Computed:
    report = portland_report(res)
    return Computed(res, report["tables"], report["findings"], hands=hands_section(res))


def _methods(res) -> list[str]:
    return [
        methods.FROM_TABLES,
        *methods.intervals(res),
        "Variances and the covariance (of a side's points per hand, both sides of every hand; "
        "of a game's final margin): the squared deviations (products) from the cell's mean "
        "summed over its values, divided by n − 1, a ratio of sums over the game ids whose "
        "sampling variance Var(s²) is the delta method's (under rubber = true a rubber's "
        "games are one cluster); chi-square intervals ν·s² / scipy.stats.chi2.ppf((0.975, "
        "0.025), ν) with ν = 2 s⁴ / Var(s²) (Satterthwaite: for normal data n − 1; points are "
        "far from normal), and a t interval for the covariance.",
        "The ratio of Var(points) with honours to the same rules without, on the same deals: "
        "the quotient of the two cells' variances over the game ids they share, exp(log R ± "
        "t.ppf(0.975, m − 1) · sd) with Var(log R) by the delta method, the covariance of the "
        "two cells' estimates included (they play the same deals).",
        "Var(points) = Var(tricks) + Var(honours) + 2 Cov(tricks, honours) holds exactly "
        "(the residual column of variance_decomposition.csv); 'honours' share' is "
        "(Var(honours) + 2 Cov) / Var(points): what honours add to the variance.",
        methods.pairing(res) + " A variant's counterpart: the experiment's first variant with "
        "the same rules and honours off.",
        methods.FILES,
    ]


def _parts(res) -> list[Part]:
    games = res.games_mode
    parts = [
        Part("honours", "Honours held and scored",
             "How many of A, K, Q, J of trump a side holds at the deal (per side-hand, all "
             "line-ups pooled), against the exact shares of the deal; the honours points it "
             "scores; and how often three or four honours held go unscored."),
        Part("variance", "Variance: tricks, honours and their covariance",
             "The variance of a side's points per hand"
             + (" and of the final score margin per game" if games else "")
             + ", with and without honours, split as Var(tricks) + Var(honours) + "
               "2 Cov(tricks, honours), where tricks are the trick points (tricks over the "
               "book) and honours the honours points."),
    ]
    if games:
        parts.append(Part("length", "Game length",
                          "Hands per game in each cell, and each variant with honours against "
                          "the same rules without on the same deals."))
    parts += [
        Part("dealer", "The dealer's side",
             "The dealer's side (dealer % 2) holds the turned-up trump. Its points, tricks and "
             "honours per hand against the other side's"
             + (", and the share of games won by the side that dealt first." if games else
                "; with and without honours on the same deals.")),
        Part("cells", "Points and wins per cell",
             "Mean points per hand per cell and side"
             + (", wins and game length." if games else ".")),
    ]
    return parts


def _left_out(res, tables) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    if not res.games_mode:
        out["summary"] = ["The run plays independent hands (no games), so game length and "
                          "the games won by the side that deals first are left out."]
    if "honours_paired" not in tables:
        key = "length" if res.games_mode else "dealer"
        out[key] = ["No variant has a counterpart without honours among the run's variants, "
                    "so nothing is compared with and without honours on the same deals."]
    return out


def _summary(res, tables) -> list[Finding]:
    out = []
    dist = tables.get("honours_distribution")
    if dist is not None and dist.height:
        v = dist["variant"][0]
        four = dist.filter(variant=v, role="all", kind="held", value=4)
        if four.height:
            r = four.row(0, named=True)
            out.append(Finding(f"A side holds all four trump honours in "
                               f"{estimate(r, 'share', 1, 100, unit='%')} of its hands "
                               f"(exact: {100 * r['exact']:.1f}%).", "honours"))
    var = tables["variance_decomposition"].filter(pl.col("var_ratio").is_not_nan())
    for r in var.filter(level="hand").head(2).iter_rows(named=True):
        out.append(Finding(f"Honours multiply the variance of a side's points per hand by "
                           f"{estimate(r, 'var_ratio')} ({r['variant']} against {r['base']}).",
                           "variance"))
    paired = tables.get("honours_paired")
    if paired is not None and res.games_mode:
        for r in paired.filter(metric="n_hands").head(2).iter_rows(named=True):
            out.append(Finding(f"Honours change the length of a game by "
                               f"{estimate(r, 'diff', 2, sign=True)} hands ({r['variant']} "
                               f"against {r['base']}, on the same deals).", "length"))
    dealer = tables["dealer_advantage"].filter(metric="points")
    if dealer.height:
        r = dealer.row(0, named=True)
        out.append(Finding(f"The dealer's side scores {estimate(r, 'advantage', 3, sign=True)}"
                           f" points per hand more than the other ({r['variant']}).", "dealer"))
    return out


def layout(computed: Computed) -> Layout:
    res, tables = computed.res, computed.tables
    left_out = _left_out(res, tables)
    parts = [*_parts(res), hands_part(res, computed.hands, left_out)]
    return Layout(parts, portland_views(res), FIGURES, _methods(res),
                  summary=_summary(res, tables), left_out=left_out,
                  hands={"hands": computed.hands.diagrams})


STUDY = Study("portland", compute, layout, TABLES, tuple(FIGURES))
