"""The Norwegian report's figures, from its tables (`reports.norwegian`), drawn as the other
reports' are (`reports.figures`: matplotlib's Agg canvas, PNG)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from .figures import COLORS, _errorbars, _figure, _grouped
from .norwegian import LONGEST_CAP, groups
from .portland_figures import cell_labels
from .portland_figures import game_length as portland_game_length

__all__ = ["NORWEGIAN_FIGURES"]

STYLES = {"grand": "-o", "misère": "--s", "nullo": ":^"}


def _firsts(res, frame: pl.DataFrame) -> pl.DataFrame:
    """The rows of the first variant of each player count (the others replay its deals)."""
    return frame.filter(pl.col("variant").is_in([vs[0] for vs in groups(res).values()]))


def declarations(res, t) -> Figure | None:
    dec = t.get("declarations")
    if dec is None or dec.is_empty():
        return None
    dec = cell_labels(res, _firsts(res, dec))
    cells = dec["cell"].unique(maintain_order=True).to_list()
    fig, axes = _figure(14, 9, 2, 2)
    width = 0.5 / max(len(cells), 1)
    for row, (feature, xlabel) in enumerate((("aces_kings", "aces and kings in the hand"),
                                             ("longest_suit", "longest suit (cards)"))):
        rate_ax, made_ax = axes[2 * row], axes[2 * row + 1]
        rows = dec.filter(feature=feature)
        for k, cell in enumerate(cells):
            part = rows.filter(cell=cell)
            dx = (k - (len(cells) - 1) / 2) * width
            grand = part.filter(option="grand")
            _errorbars(rate_ax, grand["value"].cast(pl.Float64) + dx, 100 * grand["rate"],
                       100 * grand["rate_lo"], 100 * grand["rate_hi"], fmt="-o",
                       color=COLORS[k % len(COLORS)], label=cell)
            for option, style in STYLES.items():
                made = part.filter(option=option).filter(pl.col("chosen") > 0)
                if made.height:
                    _errorbars(made_ax, made["value"].cast(pl.Float64) + dx,
                               100 * made["success"], 100 * made["success_lo"],
                               100 * made["success_hi"], fmt=style,
                               color=COLORS[k % len(COLORS)], label=f"{cell}: {option}")
        values = sorted(rows["value"].unique().to_list())
        labels = [f"{v}+" if feature == "longest_suit" and v >= LONGEST_CAP else str(v)
                  for v in values]
        for ax, ylabel in ((rate_ax, "grand declared (% of decisions)"),
                           (made_ax, "contract made (% of those declared)")):
            ax.set_xticks(values, labels)
            ax.set_xlabel(xlabel)
            ax.set_ylabel(ylabel)
            ax.set_ylim(-3, 103)
            ax.grid(alpha=0.3)
        rate_ax.set_title(f"Grand declared, by {xlabel}")
        made_ax.set_title(f"Contracts made, by {xlabel}")
    axes[0].legend(fontsize=7, loc="best")
    axes[1].legend(fontsize=6, loc="best", ncols=2)
    fig.suptitle("Declarations by the chooser's hand: the first variant of each player count "
                 "(95% Wilson intervals)")
    return fig


def _kind(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.with_columns(kind=pl.col("contract") + pl.when(pl.col("forced")).then(
        pl.lit(" (all passed)")).otherwise(pl.lit("")))


def _panels(cells: list[str], series: list[tuple[str, pl.DataFrame]],
            panels: list[tuple[str, float, str, str, float]], title: str) -> Figure:
    """Side-by-side panels of points with intervals over the same cells and series; a panel:
    (column, scale, y label, title, the value of its reference line)."""
    fig, axes = _figure(max(12, 2.8 * len(cells)), 4.8, 1, len(panels))
    for ax, (column, scale, ylabel, name, ref) in zip(axes, panels, strict=True):
        _grouped(ax, cells, series, "cell", column, scale=scale, ylabel=ylabel)
        ax.axhline(ref, color="black", linewidth=0.7, linestyle=":")
        ax.set_title(name)
    if len(series) > 1:
        axes[0].legend(fontsize=7, loc="best")
    fig.suptitle(title)
    return fig


def contracts(res, t) -> Figure | None:
    con = t.get("contracts")
    if con is None or con.is_empty():
        return None
    con = cell_labels(res, con).with_columns(kind=pl.col("contract") + pl.when(
        pl.col("forced")).then(pl.lit(" (all passed)")).otherwise(pl.lit("")))
    kinds = con["kind"].unique(maintain_order=True).to_list()
    return _panels(con["cell"].unique(maintain_order=True).to_list(),
                   [(kind, con.filter(kind=kind)) for kind in kinds],
                   [("success", 100, "% of hands",
                     "Contract made: the declarer's own table value > 0", 50),
                    ("declarer_points", 1, "points per hand",
                     "The declarer's (side's) points per hand", 0)],
                   "Contracts played, by who chose them (95% intervals: Wilson, t)")


def scoring_modes(res, t) -> Figure | None:
    modes = t.get("scoring_modes")
    if modes is None or modes.is_empty():
        return None
    modes = cell_labels(res, modes).with_columns(cell=pl.when(pl.col("cell").str.contains(
        pl.col("scoring"), literal=True)).then(pl.col("cell"))
        .otherwise(pl.col("cell") + " (" + pl.col("scoring") + ")"))
    return _panels(modes["cell"].to_list(), [("", modes)],
                   [("equal_rate", 100, "% of hands",
                     "Every side scored the same (100% under \"both\")", 100),
                    ("total_points", 1, "points per hand",
                     "The sides' points per hand, summed", 0)],
                   "Who scores: the scoring modes (95% intervals: Wilson, t)")


def game_length(res, t) -> Figure | None:
    """The Portland report's drawing (hands per game; the paired differences) on the
    Norwegian tables."""
    fig = portland_game_length(res, {"game_length": t.get("game_length"),
                                     "honours_paired": t.get("norwegian_paired")})
    if fig is not None and len(fig.axes) > 1:
        fig.axes[1].set_xlabel("hands per game, variant minus base (the first variant with "
                               "as many players)")
        fig.axes[1].set_title("On the same deals (paired on game_id)")
    return fig


def game_outcomes(res, t) -> Figure | None:
    outcomes = t.get("game_outcomes")
    if outcomes is None or outcomes.is_empty():
        return None
    outcomes = cell_labels(res, outcomes)
    cells = outcomes["cell"].unique(maintain_order=True).to_list()
    kinds = outcomes["outcome"].unique(maintain_order=True).to_list()
    kinds = [k for k in kinds if k.endswith("wins")] + ["draw", "unfinished"]
    fig, axes = _figure(11, 0.5 * len(cells) + 2.2)
    ax = axes[0]
    y = np.arange(len(cells))[::-1]
    left = np.zeros(len(cells))
    colors = {"draw": "#7f7f7f", "unfinished": "#dddddd"}
    for k, kind in enumerate(kinds):
        share = np.array([outcomes.filter(cell=c, outcome=kind)["share"].sum() for c in cells])
        ax.barh(y, 100 * share, left=left, color=colors.get(kind, COLORS[k % len(COLORS)]),
                edgecolor="white", label=kind)
        left += 100 * share
    ax.set_yticks(y, cells)
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of games")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.suptitle("Who wins: games won by each player (side), drawn, or stopped at max_hands")
    return fig


NORWEGIAN_FIGURES: dict[str, tuple[str, Callable]] = {  # file stem -> (section, drawing)
    "declarations": ("declarations", declarations),
    "contracts": ("choice", contracts),
    "scoring_modes": ("scoring", scoring_modes),
    "game_length": ("length", game_length),
    "game_outcomes": ("length", game_outcomes),
}
