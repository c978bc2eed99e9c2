"""The figures of the sections on every table (`reports.table_sections`): a row per variant
(its table), each side a point of its own colour nudged apart within the row (side k: the side
of seat k), and the tables compared, a row per variant. More tables make a figure taller, never
wider (`reports.kit.figures`)."""

from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ...kit.figures import COLORS, DPI, MAX_WIDTH, ROW, errorbars, legend_outside

__all__ = ["FIGURES"]

ALL = "all"
MIN_HEIGHT = 2.6  # inches: a figure of one table stays readable


def _panels(panels: int, rows: int, row: float, cols: int) -> tuple[Figure, list]:
    """Panels side by side over the same ``rows`` rows, ``cols`` to a line."""
    cols = max(1, min(panels, cols))
    lines = -(-panels // cols)
    height = max(MIN_HEIGHT, lines * (1.5 + row * rows))
    fig = Figure(figsize=(MAX_WIDTH, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    axes = list(fig.subplots(lines, cols, squeeze=False, sharey=True).flat)
    for ax in axes[panels:]:
        fig.delaxes(ax)
    return fig, axes[:panels]


def _variants(res, frame: pl.DataFrame) -> list[str]:
    return [v for v in res.variants if frame.filter(variant=v).height]


def _by_side(res, t, panels: list[tuple[str, str, float]], title: str,
             fair: str | None = None) -> Figure | None:
    """A row per variant, a point per side; ``panels``: (column, title, scale); ``fair``: the
    panel's column beside which each row's fair share (1 / sides) is marked."""
    sides = t.get("table_sides")
    if sides is None:
        return None
    rows = sides.filter(pl.col("lineup") == ALL, pl.col("side") != ALL)
    panels = [p for p in panels if p[0] in rows.columns
              and rows[p[0]].is_not_null().any()]
    variants = _variants(res, rows)
    if not panels or not variants:
        return None
    most = int(rows["sides"].max())
    step = min(0.8 / most, 0.2)
    fig, axes = _panels(len(panels), len(variants), ROW + 0.05 * most, cols=2)
    y0 = {v: len(variants) - 1 - i for i, v in enumerate(variants)}
    for ax, (col, name, scale) in zip(axes, panels, strict=True):
        for k in range(most):
            part = rows.filter(pl.col("side") == str(k))
            if not part.height:
                continue
            n = part["sides"].to_numpy()
            y = np.array([y0[v] for v in part["variant"]]) + ((n - 1) / 2 - k) * step
            errorbars(ax, y, part[col].to_numpy().astype(float) * scale,
                      part[f"{col}_lo"].to_numpy().astype(float) * scale,
                      part[f"{col}_hi"].to_numpy().astype(float) * scale, horizontal=True,
                      color=COLORS[k % len(COLORS)], markersize=4, capsize=2,
                      label=f"side {k} (seat {k}, its partners)")
        if col == fair:
            share = rows.unique("variant").select("variant", "sides")
            for v, s in share.iter_rows():
                ax.vlines(100 / s, y0[v] - 0.45, y0[v] + 0.45, color="black", linewidth=1.2,
                          label="fair share (1 / sides)")
        ax.set_title(name)
        ax.grid(axis="x", alpha=0.3)
        ax.set_yticks(list(y0.values()), list(y0))
        ax.set_ylim(-0.6, len(variants) - 0.4)
    legend_outside(fig)
    fig.suptitle(title)
    return fig


def tables_nil(res, t) -> Figure | None:
    return _by_side(res, t, [("nil_bid_rate", "Nil bid (% of bids)", 100),
                             ("nil_success", "Nil made (% of nil bids)", 100)],
                    "Nil by side at each table, every line-up pooled (95% intervals)")


def tables_bags(res, t) -> Figure | None:
    return _by_side(res, t, [("bags_per_side_hand", "Bags per side-hand", 1),
                             ("penalties_per_100", "Bag penalties per 100 side-hands", 1)],
                    "Bags by side at each table, every line-up pooled (95% intervals)")


def tables_wins(res, t) -> Figure | None:
    return _by_side(res, t, [("win_rate", "Games won (%), and the fair share", 100),
                             ("points_per_hand", "Points per hand", 1)],
                    "Wins and points by side at each table, every line-up pooled "
                    "(95% intervals)", fair="win_rate")


COMPARED = [("nil_bid_rate", "Nil bid (% of bids)", 100),
            ("nil_success", "Nil made (% of nil bids)", 100),
            ("bags_per_side_hand", "Bags per side-hand", 1),
            ("penalties_per_100", "Bag penalties per 100 side-hands", 1),
            ("points_per_side_hand", "Points per side-hand", 1),
            ("hands_per_game", "Hands per game", 1)]


def tables_compared(res, t) -> Figure | None:
    frame = t.get("tables_compared")
    if frame is None or frame.height < 2:
        return None
    panels = [p for p in COMPARED if p[0] in frame.columns and frame[p[0]].is_not_null().any()]
    labels = [f"{r['variant']} ({r['players']}/{r['sides']})"
              for r in frame.iter_rows(named=True)]
    fig, axes = _panels(len(panels), len(labels), ROW, cols=3)
    y = np.arange(len(labels))[::-1].astype(float)
    for ax, (col, name, scale) in zip(axes, panels, strict=True):
        errorbars(ax, y, frame[col].to_numpy().astype(float) * scale,
                  frame[f"{col}_lo"].to_numpy().astype(float) * scale,
                  frame[f"{col}_hi"].to_numpy().astype(float) * scale, horizontal=True,
                  color=COLORS[0])
        ax.set_title(name)
        ax.grid(axis="x", alpha=0.3)
        ax.set_yticks(y, labels)
        ax.set_ylim(-0.6, len(labels) - 0.4)
    fig.suptitle("The tables compared, every line-up and side pooled (players/sides; "
                 "95% intervals)")
    return fig


FIGURES = {  # file stem -> (section, drawing)
    "tables_nil": ("tables_nil", tables_nil),
    "tables_bags": ("tables_bags", tables_bags),
    "tables_wins": ("tables_wins", tables_wins),
    "tables_compared": ("tables", tables_compared),
}
