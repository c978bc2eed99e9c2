"""The report's figures: drawing helpers shared by the studies, and `make_figures`, which
draws a study's registry of figures with matplotlib's Agg canvas (no pyplot: nothing global
changes in the caller's session) and saves them as PNG.

Every figure holds at any number of cells: it is at most `MAX_WIDTH` inches wide (`grid`
wraps panels into rows; cells are laid out down the page, one row each, by `dots` and
`forest`, so that more cells make a figure taller, never wider; `make_figures` narrows
anything wider), its legends stand outside the data (`legend_outside`), and its text has
the sizes of `STYLE` (readable at the page's width, where a figure is shown at its own size).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import matplotlib as mpl
import numpy as np
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from sim.files import writing

__all__ = ["COLORS", "DPI", "MAX_WIDTH", "ROW", "STYLE", "Drawing", "cell_labels", "dots",
           "errorbars", "forest", "grid", "legend_below", "legend_outside", "make_figures",
           "no_data",
           "strips", "ticks"]

DPI = 100
MAX_WIDTH = 11.0   # inches: 1,100 pixels, within the page's body at any window of 1,200 or more
ROW = 0.3          # inches a row of a figure whose rows are cells
LEGEND_LINE = 0.22  # inches a line of a legend below the panels takes
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
          "#7f7f7f", "#bcbd22", "#17becf"]
STYLE = {"font.size": 11, "axes.titlesize": 11.5, "axes.labelsize": 11,
         "xtick.labelsize": 10.5, "ytick.labelsize": 10.5, "legend.fontsize": 10.5,
         "figure.titlesize": 12.5, "axes.titlelocation": "left"}

Drawing = Callable[..., Figure | None]  # (res, tables) -> a figure, or None when it has none


def grid(panels: int, panel_width: float, panel_height: float,
         cols: int | None = None) -> tuple[Figure, list]:
    """A figure of ``panels`` panels wrapped into rows of at most ``cols`` (as many as fit
    in `MAX_WIDTH`), each about ``panel_width`` × ``panel_height`` inches; returns it with
    its axes, row by row (the unused places of the last row removed)."""
    fit = max(1, int(MAX_WIDTH // panel_width))
    cols = max(1, min(panels, cols or fit, fit))
    rows = math.ceil(panels / cols)
    fig = Figure(figsize=(min(MAX_WIDTH, cols * panel_width), rows * panel_height), dpi=DPI,
                 layout="constrained")
    FigureCanvasAgg(fig)
    axes = list(fig.subplots(rows, cols, squeeze=False).flat)
    for ax in axes[panels:]:
        fig.delaxes(ax)
    return fig, axes[:panels]


def strips(panels: int, rows: int, cols: int = 3) -> tuple[Figure, list]:
    """Panels side by side over the same ``rows`` rows (cells, rules, ...: labelled on the
    first panel of each line), at most ``cols`` to a line and as many lines as needed; the
    figure is `MAX_WIDTH` wide and grows with the rows."""
    cols = max(1, min(panels, cols))
    lines = math.ceil(panels / cols)
    fig = Figure(figsize=(MAX_WIDTH, lines * (1.3 + ROW * rows)), dpi=DPI,
                 layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(lines, cols, squeeze=False, sharey=True)
    flat = list(axes.flat)
    for ax in flat[panels:]:
        fig.delaxes(ax)
    return fig, flat[:panels]


def legend_outside(fig: Figure, axes=None, title: str | None = None) -> None:
    """One legend for the figure, below its panels (outside the data), each label once;
    none when nothing is labelled."""
    handles, labels = {}, []
    for ax in axes if axes is not None else fig.axes:
        for h, label in zip(*ax.get_legend_handles_labels(), strict=True):
            if label not in handles and not label.startswith("_"):
                handles[label] = h
                labels.append(label)
    if not labels:
        return
    width = max(len(x) for x in labels)
    cols = max(1, min(len(labels), int(fig.get_figwidth() * 9 // (width + 4))))
    # the legend's lines are added to the figure's height, so that the panels keep theirs (a
    # figure of one row of cells would otherwise give its panels no height at all)
    lines = math.ceil(len(labels) / cols) + (title is not None)
    fig.set_figheight(fig.get_figheight() + LEGEND_LINE * lines + 0.1)
    fig.legend([handles[x] for x in labels], labels, loc="outside lower center", ncols=cols,
               title=title, frameon=False)


def legend_below(ax, cols: int = 2) -> None:
    """The panel's own legend, under it (outside the data): for panels whose colours mean
    different things."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=cols, frameon=False)


def errorbars(ax, x, y, lo, hi, horizontal: bool = False, **kw) -> None:
    """Points with asymmetric error bars (along x when ``horizontal``); NaN points left out."""
    x, y, lo, hi = (np.asarray(a, dtype=float) for a in (x, y, lo, hi))
    ok = np.isfinite(y)
    if not ok.any():
        return
    err = np.nan_to_num(np.vstack([np.clip(y - lo, 0, None), np.clip(hi - y, 0, None)]))[:, ok]
    style = dict(fmt=kw.pop("fmt", "o"), capsize=kw.pop("capsize", 3),
                 markersize=kw.pop("markersize", 5))
    if horizontal:
        ax.errorbar(y[ok], x[ok], xerr=err, **style, **kw)
    else:
        ax.errorbar(x[ok], y[ok], yerr=err, **style, **kw)


def ticks(ax, labels: list[str], axis: str = "x") -> None:
    """Category labels at 0, 1, ...; on x, slanted only when they are too long to stand
    side by side (never short numbers)."""
    positions = range(len(labels))
    if axis == "y":
        ax.set_yticks(positions, labels)
        return
    width = ax.get_position().width * ax.figure.get_figwidth()  # inches of the panel
    crowded = sum(len(x) for x in labels) * 0.09 > width * 0.9
    ax.set_xticks(positions, labels, rotation=30 if crowded else 0,
                  ha="right" if crowded else "center")


def dots(ax, categories: list[str], series: list[tuple[str, pl.DataFrame]], key: str,
         value: str, scale: float = 1.0, label: str = "", reference: float | None = None
         ) -> None:
    """One point with its interval per category (a row, top to bottom) and series (nudged
    apart within the row): more categories make the panel taller, never wider."""
    y = {c: len(categories) - 1 - i for i, c in enumerate(categories)}
    step = 0.7 / max(len(series), 1)
    for k, (name, frame) in enumerate(series):
        frame = frame.filter(pl.col(key).is_in(categories))
        if frame.is_empty():
            continue
        rows = np.array([y[c] for c in frame[key]]) - (k - (len(series) - 1) / 2) * step
        errorbars(ax, rows, frame[value] * scale, frame[f"{value}_lo"] * scale,
                  frame[f"{value}_hi"] * scale, horizontal=True,
                  color=COLORS[k % len(COLORS)], label=name or None)
    ax.set_yticks(list(y.values()), list(y))
    ax.set_ylim(-0.6, len(categories) - 0.4)
    if reference is not None:
        ax.axvline(reference, color="black", linewidth=0.8)
    ax.set_xlabel(label)
    ax.grid(axis="x", alpha=0.3)


def forest(ax, labels: list[str], est, lo, hi, ulo=None, uhi=None, scale: float = 1.0,
           zero: float | None = 0.0) -> None:
    """A row per label (top to bottom): the estimate and its interval (thick), with the
    unpaired interval (thin) when given; a line at ``zero``."""
    y = np.arange(len(labels))[::-1]
    est, lo, hi = (np.asarray(a, float) * scale for a in (est, lo, hi))
    if ulo is not None:
        ulo, uhi = (np.asarray(a, float) * scale for a in (ulo, uhi))
        ax.hlines(y, ulo, uhi, color="#999999", linewidth=1, label="unpaired 95%")
    ax.hlines(y, lo, hi, color="#1f77b4", linewidth=4, alpha=0.8,
              label="paired 95%" if ulo is not None else "95%")
    ax.plot(est, y, "o", color="#0b3d66", markersize=4)
    if zero is not None:
        ax.axvline(zero, color="black", linewidth=0.8)
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.6, len(labels) - 0.4)
    ax.grid(axis="x", alpha=0.3)


def no_data(ax, why: str) -> None:
    """A panel that says why it has nothing to show."""
    ax.text(0.5, 0.5, why, ha="center", va="center", transform=ax.transAxes, wrap=True)
    ax.set_xticks([])
    ax.set_yticks([])


def cell_labels(res, frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with a ``cell`` column: the variant's name when every variant has one cell,
    else variant · line-up ("(s)": the sides' seats swapped)."""
    if len(res.cells) == len(res.variants):
        return frame.with_columns(cell=pl.col("variant"))
    return frame.with_columns(cell=pl.concat_str(
        pl.col("variant"), pl.lit(" · "), pl.col("lineup"),
        pl.when(pl.col("swapped")).then(pl.lit(" (s)")).otherwise(pl.lit(""))))


def make_figures(res, tables: dict[str, pl.DataFrame], folder: Path,
                 registry: dict[str, tuple[str, Drawing]]) -> dict[str, Path]:
    """Draw every figure of ``registry`` (stem -> (section, drawing)) that the tables allow
    into ``folder`` in the report's `STYLE`; returns stem -> PNG path."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for stem, (_, draw) in registry.items():
        with mpl.rc_context(STYLE):
            fig = draw(res, tables)
            if fig is None:
                continue
            width, height = fig.get_size_inches()
            if width > MAX_WIDTH:
                fig.set_size_inches(MAX_WIDTH, height)
            path = folder / f"{stem}.png"
            with writing(path):
                fig.savefig(path, dpi=DPI)
        out[stem] = path
    return out
