"""The Portland report's figures, from its tables (`reports.portland`), drawn as the Spades
figures are (`reports.figures`: matplotlib's Agg canvas, PNG)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from .figures import COLORS, _errorbars, _figure, _forest, _grouped

__all__ = ["PORTLAND_FIGURES", "cell_labels"]


def cell_labels(res, frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with a ``cell`` column: the variant's name when every variant has one cell,
    else variant · line-up (swapped)."""
    one = len(res.cells) == len(res.variants)
    if one:
        return frame.with_columns(cell=pl.col("variant"))
    return frame.with_columns(cell=pl.concat_str(
        pl.col("variant"), pl.lit(" · "), pl.col("lineup"),
        pl.when(pl.col("swapped")).then(pl.lit(" (s)")).otherwise(pl.lit(""))))


def _cells(res, frame: pl.DataFrame) -> list[str]:
    return frame["cell"].unique(maintain_order=True).to_list()


def _exact_marks(ax, x, y, label: str | None = "exact (combinatorics)"):
    ax.plot(x, np.asarray(y, float) * 100, "_", color="black", markersize=18, markeredgewidth=2,
            label=label, zorder=3)


def honours_distribution(res, t) -> Figure | None:
    dist = t.get("honours_distribution")
    if dist is None or dist.is_empty():
        return None
    variants = dist["variant"].unique(maintain_order=True).to_list()
    scored = dist.filter(kind="points", role="all", value=0).filter(pl.col("share") < 1)
    scored = scored["variant"].to_list()
    fig, axes = _figure(16, 4.6, 1, 3)
    held = dist.filter(kind="held", role="all")
    labels = ["0", "1", "2", "3", "4"]
    series = [(v, held.filter(variant=v).with_columns(pl.col("value").cast(pl.String)))
              for v in variants]
    _grouped(axes[0], labels, series, "value", "share", ylabel="% of side-hands")
    exact = held.filter(variant=variants[0]).sort("value")
    _exact_marks(axes[0], np.arange(5), exact["exact"])
    axes[0].set_xlabel("honours held (A K Q J of trump) by a side at the deal")
    axes[0].set_title("Honours held, by variant")
    axes[0].legend(fontsize=7, loc="upper left")
    points = dist.filter(kind="points", role="all").filter(pl.col("variant").is_in(scored))
    if scored:
        series = [(v, points.filter(variant=v).with_columns(pl.col("value").cast(pl.String)))
                  for v in scored]
        _grouped(axes[1], ["0", "2", "4"], series, "value", "share", ylabel="% of side-hands")
        axes[1].legend(fontsize=7, loc="upper right")
    else:
        axes[1].text(0.5, 0.5, "no variant scores honours", ha="center", va="center",
                     transform=axes[1].transAxes)
    axes[1].set_xlabel("honours points a side scores in a hand")
    axes[1].set_title("Honours points, variants with honours")
    first = dist.filter(kind="held", variant=variants[0])
    series = [(f"{name} ({variants[0]})", first.filter(role=role).with_columns(
        pl.col("value").cast(pl.String))) for role, name in (("dealer", "dealer's side"),
                                                             ("other", "other side"))]
    _grouped(axes[2], labels, series, "value", "share", ylabel="% of hands")
    width = 0.7 / 2
    for k, role in enumerate(("dealer", "other")):
        ex = first.filter(role=role).sort("value")
        _exact_marks(axes[2], np.arange(5) + (k - 0.5) * width, ex["exact"],
                     label="exact" if k == 0 else None)
    axes[2].set_xlabel("honours held at the deal")
    axes[2].set_title("The dealer's side holds the turned-up trump")
    axes[2].legend(fontsize=7, loc="upper left")
    fig.suptitle("Honours per side-hand, all line-ups pooled (95% Wilson intervals; black: "
                 "exact shares)")
    return fig


PARTS = [("var_tricks", "Var(tricks)"), ("var_honours", "Var(honours)"),
         ("two_cov", "2 Cov(tricks, honours)"), ("var_points", "Var(points) = sum")]


def variance_decomposition(res, t) -> Figure | None:
    var = t.get("variance_decomposition")
    if var is None or var.is_empty():
        return None
    levels = var["level"].unique(maintain_order=True).to_list()
    var = cell_labels(res, var)
    cells = _cells(res, var)
    fig, axes = _figure(max(7, 1.1 * len(cells)) * len(levels) / 1.4 + 2, 4.8, 1, len(levels))
    width = 0.8 / len(PARTS)
    for ax, level in zip(axes, levels, strict=True):
        rows = var.filter(level=level)
        x0 = np.array([cells.index(c) for c in rows["cell"]])
        for k, (col, label) in enumerate(PARTS):
            x = x0 + (k - (len(PARTS) - 1) / 2) * width
            y = rows[col].to_numpy()
            if col == "two_cov":
                lo, hi = 2 * rows["cov_lo"].to_numpy(), 2 * rows["cov_hi"].to_numpy()
            else:
                lo, hi = rows[f"{col}_lo"].to_numpy(), rows[f"{col}_hi"].to_numpy()
            ax.bar(x, y, width, color=COLORS[k], alpha=0.75 if k < 3 else 0.95, label=label)
            _errorbars(ax, x, y, lo, hi, fmt="none", color="black", linewidth=1)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(cells)), cells, rotation=30 if len(cells) > 3 else 0,
                      ha="right" if len(cells) > 3 else "center")
        ax.grid(axis="y", alpha=0.3)
        ax.set_ylabel("variance (points²)")
        ax.set_title("A side's points per hand" if level == "hand" else
                     "Final score margin per game (side 0 − side 1)")
    axes[0].legend(fontsize=8, loc="upper left")
    fig.suptitle("Variance and its decomposition: Var(points) = Var(tricks) + Var(honours) + "
                 "2 Cov (trick points and honours points; 95% intervals)")
    return fig


def game_length(res, t) -> Figure | None:
    length = t.get("game_length")
    if length is None or length.is_empty():
        return None
    paired = t.get("honours_paired")
    paired = paired.filter(metric="n_hands") if paired is not None else None
    panels = 2 if paired is not None and paired.height else 1
    length = cell_labels(res, length)
    cells = _cells(res, length)
    fig, axes = _figure(6.5 * panels, 4.6, 1, panels)
    x = np.array([cells.index(c) for c in length["cell"]])
    axes[0].bar(x, length["n_hands"], 0.6, color=COLORS[0], alpha=0.75)
    _errorbars(axes[0], x, length["n_hands"], length["n_hands_lo"], length["n_hands_hi"],
               fmt="none", color="black", linewidth=1)
    axes[0].set_xticks(range(len(cells)), cells, rotation=30 if len(cells) > 3 else 0,
                       ha="right" if len(cells) > 3 else "center")
    axes[0].set_ylabel("hands per game")
    axes[0].grid(axis="y", alpha=0.3)
    axes[0].set_title("Hands per game (95% t intervals)")
    if panels == 2:
        r = cell_labels(res, paired)
        labels = [f"{c} − {b}" for c, b in zip(r["cell"], r["base"], strict=True)]
        _forest(axes[1], labels, r["diff"], r["diff_lo"], r["diff_hi"], r["unpaired_lo"],
                r["unpaired_hi"])
        axes[1].set_xlabel("hands per game, with honours minus without")
        axes[1].set_title("Honours on the same deals (paired on game_id)")
        axes[1].legend(fontsize=8, loc="best")
    fig.suptitle("Game length by variant")
    return fig


def dealer_advantage(res, t) -> Figure | None:
    dealer = t.get("dealer_advantage")
    if dealer is None or dealer.is_empty():
        return None
    first = t.get("first_dealer")
    panels = 3 if first is not None and first.height else 2
    dealer = cell_labels(res, dealer)
    cells = _cells(res, dealer)
    fig, axes = _figure(5.5 * panels, 4.6, 1, panels)
    series = [(name, dealer.filter(metric=m)) for m, name in (
        ("points", "points"), ("trick_points", "trick points"),
        ("honours_points", "honours points"))]
    _grouped(axes[0], cells, series, "cell", "advantage", scale=1,
             ylabel="dealer's side minus the other, per hand")
    axes[0].axhline(0, color="black", linewidth=0.8)
    axes[0].set_title("Points per hand")
    low, high = axes[0].get_ylim()
    axes[0].set_ylim(low, high + 0.25 * (high - low))  # room for the legend above the points
    axes[0].legend(fontsize=8, loc="upper center", ncols=3)
    series = [(name, dealer.filter(metric=m)) for m, name in (
        ("tricks", "tricks won"), ("honours", "honours held"))]
    _grouped(axes[1], cells, series, "cell", "advantage", scale=1,
             ylabel="dealer's side minus the other, per hand")
    exact = dealer.filter(metric="honours")
    width = 0.7 / 2
    x = np.array([cells.index(c) for c in exact["cell"]]) + 0.5 * width
    axes[1].plot(x, exact["exact"], "_", color="black", markersize=14, markeredgewidth=2,
                 label="honours, exact (4/17)")
    axes[1].axhline(0, color="black", linewidth=0.8)
    axes[1].set_title("Tricks and honours held per hand")
    low, high = axes[1].get_ylim()
    axes[1].set_ylim(low, high + 0.25 * (high - low))
    axes[1].legend(fontsize=8, loc="upper center", ncols=3)
    if panels == 3:
        first = cell_labels(res, first)
        _grouped(axes[2], _cells(res, first), [("side that dealt first", first)], "cell",
                 "win_rate", ylabel="% of games won")
        axes[2].axhline(50, color="black", linewidth=0.8)
        axes[2].set_title("Games won by the side that deals first")
    fig.suptitle("The dealer's side (dealer % 2) against the other side (95% intervals)")
    return fig


PORTLAND_FIGURES: dict[str, tuple[str, Callable]] = {  # file stem -> (section, drawing)
    "honours_distribution": ("honours", honours_distribution),
    "variance_decomposition": ("variance", variance_decomposition),
    "game_length": ("length", game_length),
    "dealer_advantage": ("dealer", dealer_advantage),
}
