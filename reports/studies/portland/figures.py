"""The Portland study's figures, from its tables (`reports.portland`), drawn with the kit:
cells are rows, so the figures grow down the page with the experiment, never wider."""

from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from ...kit.figures import (
    COLORS,
    ROW,
    cell_labels,
    dots,
    errorbars,
    forest,
    grid,
    legend_below,
    legend_outside,
    no_data,
    strips,
    ticks,
)

__all__ = ["FIGURES", "length_figure"]


def _cells(frame: pl.DataFrame) -> list[str]:
    return frame["cell"].unique(maintain_order=True).to_list()


def _bars(ax, categories: list[str], series: list[tuple[str, pl.DataFrame]], key: str,
          exact: bool = True) -> None:
    """Shares (%) per category on x (short labels: honours 0..4), a bar per series with its
    interval, and the exact share as a black mark."""
    width = 0.8 / max(len(series), 1)
    for k, (label, frame) in enumerate(series):
        x = np.array([categories.index(str(v)) for v in frame[key]]) + (
            k - (len(series) - 1) / 2) * width
        ax.bar(x, 100 * frame["share"], width * 0.9, color=COLORS[k % len(COLORS)],
               alpha=0.75, label=label)
        errorbars(ax, x, 100 * frame["share"], 100 * frame["share_lo"],
                  100 * frame["share_hi"], fmt="none", color="black", linewidth=1)
        if exact:
            ax.plot(x, 100 * frame["exact"], "_", color="black", markersize=14,
                    markeredgewidth=2, label="exact" if k == 0 else None)
    ticks(ax, categories)
    ax.grid(axis="y", alpha=0.3)


def honours_distribution(res, t) -> Figure | None:
    dist = t.get("honours_distribution")
    if dist is None or dist.is_empty():
        return None
    first = dist["variant"][0]
    scored = (dist.filter(kind="points", role="all", value=0).filter(pl.col("share") < 1)
              ["variant"].to_list())
    fig, axes = grid(3, 3.6, 3.6)
    held = dist.filter(kind="held", role="all", variant=first).sort("value")
    _bars(axes[0], ["0", "1", "2", "3", "4"], [(f"{first}, simulated", held)], "value")
    axes[0].set_xlabel("honours (A K Q J of trump) a side holds")
    axes[0].set_ylabel("% of side-hands")
    axes[0].set_title("Honours held")
    points = dist.filter(kind="points", role="all").filter(pl.col("variant").is_in(scored))
    if scored:
        _bars(axes[1], ["0", "2", "4"],
              [(v, points.filter(variant=v).sort("value")) for v in scored], "value",
              exact=False)
        axes[1].set_xlabel("honours points a side scores in a hand")
    else:
        no_data(axes[1], "no variant scores honours")
    axes[1].set_title("Honours points scored")
    roles = [(name, dist.filter(kind="held", variant=first, role=role).sort("value"))
             for role, name in (("dealer", "dealer's side"), ("other", "other side"))]
    _bars(axes[2], ["0", "1", "2", "3", "4"], roles, "value")
    axes[2].set_xlabel("honours held at the deal")
    axes[2].set_title("The dealer's side holds the turn-up")
    for ax in axes:
        legend_below(ax)
    fig.suptitle(f"Honours per side-hand (held: {first}); 95% Wilson intervals, black "
                 "marks: the exact shares")
    return fig


PARTS = [("var_tricks", "Var(tricks)"), ("var_honours", "Var(honours)"),
         ("two_cov", "2 Cov(tricks, honours)"), ("var_points", "Var(points) = sum")]


def variance_decomposition(res, t) -> Figure | None:
    var = t.get("variance_decomposition")
    if var is None or var.is_empty():
        return None
    levels = var["level"].unique(maintain_order=True).to_list()
    var = cell_labels(res, var)
    cells = _cells(var)
    fig, axes = strips(len(levels), len(cells) * 1.6, cols=2)
    step = 0.8 / len(PARTS)
    for ax, level in zip(axes, levels, strict=True):
        rows = var.filter(level=level)
        y0 = np.array([len(cells) - 1 - cells.index(c) for c in rows["cell"]], float)
        for k, (col, label) in enumerate(PARTS):
            y = y0 + ((len(PARTS) - 1) / 2 - k) * step
            x = rows[col].to_numpy()
            if col == "two_cov":
                lo, hi = 2 * rows["cov_lo"].to_numpy(), 2 * rows["cov_hi"].to_numpy()
            else:
                lo, hi = rows[f"{col}_lo"].to_numpy(), rows[f"{col}_hi"].to_numpy()
            ax.barh(y, x, step * 0.9, color=COLORS[k], alpha=0.75 if k < 3 else 0.95,
                    label=label)
            errorbars(ax, y, x, lo, hi, horizontal=True, fmt="none", color="black",
                      linewidth=1)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(range(len(cells))[::-1], cells)
        ax.grid(axis="x", alpha=0.3)
        ax.set_xlabel("variance (points²)")
        ax.set_title("A side's points per hand" if level == "hand" else
                     "Final score margin per game (side 0 − side 1)")
    legend_outside(fig, axes[:1])
    fig.suptitle("Var(points) = Var(tricks) + Var(honours) + 2 Cov, trick points and honours "
                 "points (95% intervals)")
    return fig


def length_figure(res, length: pl.DataFrame | None, paired: pl.DataFrame | None,
                  paired_label: str, paired_title: str) -> Figure | None:
    """Hands per game per cell and, where given, the paired differences on the same deals:
    shared by the Portland and Norwegian studies."""
    if length is None or length.is_empty():
        return None
    length = cell_labels(res, length)
    cells = _cells(length)
    pairs = cell_labels(res, paired) if paired is not None and paired.height else None
    rows = max(len(cells), pairs.height if pairs is not None else 0)
    fig, axes = grid(2 if pairs is not None else 1, 5.5, 1.4 + ROW * rows)
    forest(axes[0], cells, length["n_hands"], length["n_hands_lo"], length["n_hands_hi"],
           zero=None)
    axes[0].set_xlabel("hands per game")
    axes[0].set_title("Hands per game (95% t intervals)")
    if pairs is not None:
        labels = [f"{c} − {b}" for c, b in zip(pairs["cell"], pairs["base"], strict=True)]
        forest(axes[1], labels, pairs["diff"], pairs["diff_lo"], pairs["diff_hi"],
               pairs["unpaired_lo"], pairs["unpaired_hi"])
        axes[1].set_xlabel(paired_label)
        axes[1].set_title(paired_title)
        legend_outside(fig, axes[1:])
    fig.suptitle("Game length")
    return fig


def game_length(res, t) -> Figure | None:
    paired = t.get("honours_paired")
    return length_figure(res, t.get("game_length"),
                         paired.filter(metric="n_hands") if paired is not None else None,
                         "hands per game, with honours minus without",
                         "Honours on the same deals (paired)")


def dealer_advantage(res, t) -> Figure | None:
    dealer = t.get("dealer_advantage")
    if dealer is None or dealer.is_empty():
        return None
    first = t.get("first_dealer")
    dealer = cell_labels(res, dealer)
    cells = _cells(dealer)
    panels = 3 if first is not None and first.height else 2
    fig, axes = strips(panels, len(cells) * 1.5)
    dots(axes[0], cells, [(name, dealer.filter(metric=m)) for m, name in (
        ("points", "points"), ("trick_points", "trick points"),
        ("honours_points", "honours points"))], "cell", "advantage",
        label="dealer's side minus the other, per hand", reference=0)
    axes[0].set_title("Points per hand")
    dots(axes[1], cells, [(name, dealer.filter(metric=m)) for m, name in (
        ("tricks", "tricks won"), ("honours", "honours held"))], "cell", "advantage",
        label="dealer's side minus the other, per hand", reference=0)
    exact = dealer.filter(metric="honours")
    y = np.array([len(cells) - 1 - cells.index(c) for c in exact["cell"]]) - 0.7 / 4
    axes[1].plot(exact["exact"], y, "|", color="black", markersize=12, markeredgewidth=2,
                 label="honours held, exact (4/17)")
    axes[1].set_title("Tricks and honours held per hand")
    if panels == 3:
        first = cell_labels(res, first)
        dots(axes[2], cells, [("side that dealt first", first)], "cell", "win_rate", 100,
             "% of games won", reference=50)
        axes[2].set_title("Games won by the side that deals first")
    legend_outside(fig)
    fig.suptitle("The dealer's side (dealer % 2) against the other side (95% intervals)")
    return fig


FIGURES = {  # file stem -> (section, drawing)
    "honours_distribution": ("honours", honours_distribution),
    "variance_decomposition": ("variance", variance_decomposition),
    "game_length": ("length", game_length),
    "dealer_advantage": ("dealer", dealer_advantage),
}
