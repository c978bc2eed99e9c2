"""The Norwegian study's figures, from its tables (`reports.norwegian`), drawn with the kit:
cells are rows (or, by the chooser's hand, a panel per player count with a line per line-up),
so the figures grow down the page with the experiment, never wider."""

from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...kit.figures import COLORS, cell_labels, dots, errorbars, grid, legend_outside, strips
from ...norwegian import LONGEST_CAP, groups
from ..portland.figures import length_figure

__all__ = ["FIGURES"]

STYLES = {"grand": "-o", "misère": "--s", "nullo": ":^"}
FEATURES = {"aces_kings": "aces and kings in the hand", "longest_suit": "longest suit (cards)"}


def _by_hand(res, t, feature: str) -> Figure | None:
    """Per player count (its first variant: the others replay its deals), the share of
    decisions that declared grand and the share of declared contracts made, by a feature of
    the chooser's hand; a line per line-up."""
    dec = t.get("declarations")
    if dec is None or dec.is_empty():
        return None
    dec = dec.filter(feature=feature)
    firsts = [(players, vs[0]) for players, vs in groups(res).items()
              if dec.filter(variant=vs[0]).height]
    if not firsts:
        return None
    lineups = [(lu, sw) for lu in res.lineups for sw in (False, True)
               if dec.filter(lineup=lu, swapped=sw).height]
    fig, axes = grid(2 * len(firsts), 3.6, 3.2, cols=len(firsts))
    step = 0.4 / max(len(lineups), 1)
    values = sorted(dec["value"].unique().to_list())
    labels = [f"{v}+" if feature == "longest_suit" and v >= LONGEST_CAP else str(v)
              for v in values]
    for col, (players, variant) in enumerate(firsts):
        rate_ax, made_ax = axes[col], axes[len(firsts) + col]
        for k, (lineup, swapped) in enumerate(lineups):
            part = dec.filter(variant=variant, lineup=lineup, swapped=swapped)
            dx = (k - (len(lineups) - 1) / 2) * step
            color = COLORS[k % len(COLORS)]
            grand = part.filter(option="grand")
            errorbars(rate_ax, grand["value"].cast(pl.Float64) + dx, 100 * grand["rate"],
                      100 * grand["rate_lo"], 100 * grand["rate_hi"], fmt="-o", color=color)
            for option, style in STYLES.items():
                made = part.filter(option=option).filter(pl.col("chosen") > 0)
                errorbars(made_ax, made["value"].cast(pl.Float64) + dx, 100 * made["success"],
                          100 * made["success_lo"], 100 * made["success_hi"], fmt=style,
                          color=color, markersize=4)
        rate_ax.set_title(f"{players} players ({variant}): grand declared")
        made_ax.set_title(f"{players} players ({variant}): contract made")
        for ax in (rate_ax, made_ax):
            ax.set_xticks(values, labels)
            ax.set_ylim(-3, 103)
            ax.grid(alpha=0.3)
        made_ax.set_xlabel(FEATURES[feature])
    axes[0].set_ylabel("% of decisions")
    axes[len(firsts)].set_ylabel("% of those declared")
    options = [o for o in STYLES if dec.filter(option=o, chosen=0).height < dec.filter(
        option=o).height]
    handles = [Line2D([], [], color=COLORS[k % len(COLORS)], marker="o",
                      label=lu + (" (swapped)" if sw else ""))
               for k, (lu, sw) in enumerate(lineups)]
    handles += [Line2D([], [], color="black", linestyle=STYLES[o][:-1] or "-",
                       marker=STYLES[o][-1], label=o) for o in options]
    fig.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 6),
               frameon=False)
    fig.suptitle(f"Declarations by the chooser's {FEATURES[feature].split(' (')[0]} "
                 "(95% Wilson intervals)")
    return fig


def declarations(res, t) -> Figure | None:
    return _by_hand(res, t, "aces_kings")


def declarations_longest(res, t) -> Figure | None:
    return _by_hand(res, t, "longest_suit")


def contracts(res, t) -> Figure | None:
    con = t.get("contracts")
    if con is None or con.is_empty():
        return None
    con = cell_labels(res, con).with_columns(kind=pl.col("contract") + pl.when(
        pl.col("forced")).then(pl.lit(" (all passed)")).otherwise(pl.lit("")))
    cells = con["cell"].unique(maintain_order=True).to_list()
    kinds = con["kind"].unique(maintain_order=True).to_list()
    series = [(kind, con.filter(kind=kind)) for kind in kinds]
    fig, axes = strips(2, len(cells) * 1.2, cols=2)
    dots(axes[0], cells, series, "cell", "success", 100, "% of hands", reference=50)
    axes[0].set_title("Contract made: the declarer's own table value > 0")
    dots(axes[1], cells, series, "cell", "declarer_points", 1, "points per hand", reference=0)
    axes[1].set_title("The declarer's (side's) points per hand")
    legend_outside(fig, axes[:1])
    fig.suptitle("Contracts played, by who chose them (95% intervals: Wilson, t)")
    return fig


def scoring_modes(res, t) -> Figure | None:
    modes = t.get("scoring_modes")
    if modes is None or modes.is_empty():
        return None
    modes = cell_labels(res, modes).with_columns(cell=pl.when(pl.col("cell").str.contains(
        pl.col("scoring"), literal=True)).then(pl.col("cell"))
        .otherwise(pl.col("cell") + " (" + pl.col("scoring") + ")"))
    cells = modes["cell"].to_list()
    fig, axes = strips(2, len(cells), cols=2)
    dots(axes[0], cells, [("", modes)], "cell", "equal_rate", 100, "% of hands",
         reference=100)
    axes[0].set_title("Every side scored the same (100% under \"both\")")
    dots(axes[1], cells, [("", modes)], "cell", "total_points", 1, "points per hand",
         reference=0)
    axes[1].set_title("The sides' points per hand, summed")
    fig.suptitle("Who scores: the scoring modes (95% intervals: Wilson, t)")
    return fig


def game_length(res, t) -> Figure | None:
    paired = t.get("norwegian_paired")
    return length_figure(res, t.get("game_length"),
                         paired.filter(metric="n_hands") if paired is not None else None,
                         "hands per game, variant minus base",
                         "On the same deals (base: the first variant with as many players)")


def game_outcomes(res, t) -> Figure | None:
    outcomes = t.get("game_outcomes")
    if outcomes is None or outcomes.is_empty():
        return None
    outcomes = cell_labels(res, outcomes)
    cells = outcomes["cell"].unique(maintain_order=True).to_list()
    kinds = outcomes["outcome"].unique(maintain_order=True).to_list()
    kinds = [k for k in kinds if k.endswith("wins")] + ["draw", "unfinished"]
    fig, (ax,) = grid(1, 11, 1.6 + 0.3 * len(cells))
    y = np.arange(len(cells))[::-1]
    left = np.zeros(len(cells))
    colors = {"draw": "#7f7f7f", "unfinished": "#dddddd"}
    for k, kind in enumerate(kinds):
        share = np.array([outcomes.filter(cell=c, outcome=kind)["share"].sum() for c in cells])
        ax.barh(y, 100 * share, left=left, color=colors.get(kind, COLORS[k % len(COLORS)]),
                edgecolor="white", label=kind)
        left += 100 * share
    ax.set_yticks(y, cells)
    ax.set_ylim(-0.6, len(cells) - 0.4)
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of games")
    legend_outside(fig)
    fig.suptitle("Who wins: games won by each player (side), drawn, or stopped at max_hands")
    return fig


FIGURES = {  # file stem -> (section, drawing)
    "declarations": ("declarations", declarations),
    "declarations_longest": ("declarations", declarations_longest),
    "contracts": ("choice", contracts),
    "scoring_modes": ("scoring", scoring_modes),
    "game_length": ("length", game_length),
    "game_outcomes": ("length", game_outcomes),
}
