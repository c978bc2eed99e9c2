"""The report's figures, drawn from its tables (never from the hands) with matplotlib's Agg
canvas (no pyplot: nothing global changes in the caller's session) and saved as PNG."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from sim.files import writing

from .bag_figures import bag_rules
from .frame_stats import with_proportion_ci
from .nil import FEATURES

__all__ = ["FIGURES", "make_figures"]

ALL = "all"
DPI = 100
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
          "#7f7f7f", "#bcbd22", "#17becf"]


def _legend(ax, **kw) -> None:
    """The axes' legend, where something on them has a label (a tiny run may plot nothing)."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(**kw)


def _figure(width: float, height: float, rows: int = 1, cols: int = 1):
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(rows, cols, squeeze=False)
    return fig, list(axes.flat)


def _errorbars(ax, x, y, lo, hi, **kw):
    """Points with asymmetric error bars; NaN points are left out."""
    x, y, lo, hi = (np.asarray(a, dtype=float) for a in (x, y, lo, hi))
    ok = np.isfinite(y)
    if not ok.any():
        return
    yerr = np.vstack([np.clip(y - lo, 0, None), np.clip(hi - y, 0, None)])[:, ok]
    ax.errorbar(x[ok], y[ok], yerr=yerr, fmt=kw.pop("fmt", "o"), capsize=3, markersize=5, **kw)


def _grouped(ax, categories: list[str], series: list[tuple[str, pl.DataFrame]], cat_col: str,
             value: str, scale: float = 100.0, ylabel: str = "") -> None:
    """One point with its interval per category (x) and series (dodged side by side)."""
    width = 0.7 / max(len(series), 1)
    index = {c: i for i, c in enumerate(categories)}
    for k, (label, frame) in enumerate(series):
        if frame.is_empty():
            continue
        x = np.array([index[c] for c in frame[cat_col]]) + (k - (len(series) - 1) / 2) * width
        _errorbars(ax, x, frame[value] * scale, frame[f"{value}_lo"] * scale,
                   frame[f"{value}_hi"] * scale, color=COLORS[k % len(COLORS)], label=label)
    ax.set_xticks(range(len(categories)), categories, rotation=30 if len(categories) > 4 else 0,
                  ha="right" if len(categories) > 4 else "center")
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)


def nil_rates(res, t) -> Figure | None:
    rates = t["nil_rates"].filter(lineup=ALL, strategy=ALL)
    kinds = [k for k in ("nil", "blind nil", "double nil")
             if rates.filter(kind=k)["bids"].sum() > 0]
    fig, (left, right) = _figure(11, 4.2, 1, 2)
    series = [(k, rates.filter(kind=k)) for k in kinds]
    _grouped(left, res.variants, series, "variant", "bid_rate",
             ylabel="bid (% of seat-hands; double nil: of side-hands)")
    _grouped(right, res.variants, series, "variant", "success_rate", ylabel="made (% of bids)")
    left.set_title("How often it is bid")
    right.set_title("How often it is made")
    _legend(right, loc="best", fontsize=9)
    fig.suptitle("Nil, blind nil and double nil by variant (95% intervals)")
    return fig


def nil_strategies(res, t) -> Figure | None:
    rates = t["nil_rates"].filter(kind="nil", lineup=ALL).filter(pl.col("strategy") != ALL)
    strategies = rates["strategy"].unique(maintain_order=True).to_list()
    if len(strategies) < 2:
        return None
    fig, (left, right) = _figure(11, 4.2, 1, 2)
    series = [(s, rates.filter(strategy=s)) for s in strategies]
    _grouped(left, res.variants, series, "variant", "bid_rate", ylabel="nil bid (% of seat-hands)")
    _grouped(right, res.variants, series, "variant", "success_rate",
             ylabel="nil made (% of bids)")
    left.set_title("Nil bids by strategy")
    right.set_title("Nil success by strategy")
    _legend(left, loc="best", fontsize=8)
    fig.suptitle("Nil by strategy and variant (95% intervals)")
    return fig


def _pool_strategies(rows: pl.DataFrame) -> pl.DataFrame:
    """Nil-by-hand rows of each strategy summed over the variants, with new intervals."""
    pooled = (rows.filter(pl.col("strategy") != ALL)
              .group_by("feature", "value", "label", "kind", "strategy", maintain_order=True)
              .agg(pl.col("n", "bids", "made").sum()))
    return with_proportion_ci(with_proportion_ci(pooled, "bids", "n", "bid_rate"), "made",
                              "bids", "success_rate")


def _by_feature(ax, t, feature: str, value: str, by: str = "variant", names=(),
                min_n: int = 10) -> None:
    """One line per variant (or per strategy, all variants pooled) of the nil bid or success
    rate over the values of a hand feature; points with fewer than ``min_n`` bids (success) or
    seat-hands (bid rate) are left out."""
    rows = t["nil_by_hand"].filter(feature=feature, kind="nil")
    rows = rows.filter(strategy=ALL) if by == "variant" else _pool_strategies(rows)
    rows = rows.filter(pl.col("bids" if value == "success_rate" else "n") >= min_n)
    labels = rows.select("value", "label").unique().sort("value")
    index = {v: i for i, v in enumerate(labels["value"])}
    series = [x for x in names if rows.filter(pl.col(by) == x).height]
    width = 0.6 / max(len(series), 1)
    for k, name in enumerate(series):
        r = rows.filter(pl.col(by) == name).sort("value")
        x = np.array([index[v] for v in r["value"]]) + (k - (len(series) - 1) / 2) * width
        _errorbars(ax, x, r[value] * 100, r[f"{value}_lo"] * 100, r[f"{value}_hi"] * 100,
                   fmt="o-", color=COLORS[k % len(COLORS)], label=name, linewidth=1)
    ax.set_xticks(range(len(index)), labels["label"].to_list())
    ax.set_xlabel(FEATURES[feature])
    ax.grid(alpha=0.3)


def nil_spades(res, t) -> Figure | None:
    strategies = (t["nil_by_hand"].filter(pl.col("strategy") != ALL)["strategy"]
                  .unique(maintain_order=True).to_list())
    by_strategy = len(strategies) > 1
    fig, axes = _figure(12, 7.5, 2, 2)
    for col, feature in enumerate(("spade_length", "top_spade")):
        _by_feature(axes[col], t, feature, "success_rate", names=res.variants)
        if by_strategy:
            _by_feature(axes[2 + col], t, feature, "success_rate", by="strategy",
                        names=strategies)
        else:
            _by_feature(axes[2 + col], t, feature, "bid_rate", names=res.variants, min_n=30)
    axes[0].set_ylabel("nil made (% of nil bids)")
    axes[2].set_ylabel("nil made (% of nil bids)" if by_strategy
                       else "nil bid (% of seat-hands)")
    axes[0].set_title("Nil success by spade length, per variant")
    axes[1].set_title("Nil success by highest spade, per variant")
    if by_strategy:
        axes[2].set_title("Nil success by spade length, per strategy (all variants)")
        axes[3].set_title("Nil success by highest spade, per strategy (all variants)")
    else:
        axes[2].set_title("Nil bids by spade length")
        axes[3].set_title("Nil bids by highest spade")
    _legend(axes[1], loc="best", fontsize=8)
    _legend(axes[3 if by_strategy else 1], loc="best", fontsize=8)
    fig.suptitle("The nil bidder's spades (points with at least 10 nil bids; 95% intervals)")
    return fig


def nil_features(res, t) -> Figure | None:
    fig, axes = _figure(14, 4.2, 1, 3)
    for ax, feature in zip(axes, ("high_cards", "partner_bid", "position"), strict=True):
        _by_feature(ax, t, feature, "success_rate", names=res.variants)
        ax.set_title(f"Nil success by {FEATURES[feature]}")
    axes[0].set_ylabel("nil made (% of nil bids)")
    _legend(axes[0], loc="best", fontsize=8)
    fig.suptitle("Nil success by the bidder's aces and kings, the partner's bid and the bidding "
                 "position (1st = left of the dealer; at least 10 bids; 95% intervals)")
    return fig


def nil_contract(res, t) -> Figure | None:
    rows = t["nil_partner_contract"].filter(strategy=ALL)
    states = [s for s in ("none", "nil", "blind nil") if rows.filter(partner_nil=s).height]
    fig, (ax,) = _figure(9, 4.2)
    names = {"none": "no nil", "nil": "one partner bid nil", "blind nil": "one partner bid blind nil"}
    _grouped(ax, res.variants, [(names[s], rows.filter(partner_nil=s)) for s in states],
             "variant", "made_rate", ylabel="contract made (% of side-hands)")
    _legend(ax, loc="best", fontsize=9)
    ax.set_title("What a nil does to the partner's contract (95% intervals)")
    return fig


def bags(res, t) -> Figure | None:
    hands = t["bags_per_hand"].filter(lineup=ALL, side="both")
    games = t.get("bags_per_game")
    panels = 2 + (2 if games is not None else 0)
    fig, axes = _figure(4 * panels, 4.2, 1, panels)
    one = [("all line-ups", hands)]
    _grouped(axes[0], res.variants, one, "variant", "bags_per_side_hand", scale=1,
             ylabel="bags per side per hand")
    axes[0].set_title("Bags per side-hand")
    _grouped(axes[1], res.variants, one, "variant", "penalties_per_100", scale=1,
             ylabel="bag penalties per 100 side-hands")
    axes[1].set_title("Bag penalties")
    if games is not None:
        g = [("all line-ups", games.filter(lineup=ALL))]
        _grouped(axes[2], res.variants, g, "variant", "bags_per_game", scale=1,
                 ylabel="bags per game (both sides)")
        axes[2].set_title("Bags per game")
        _grouped(axes[3], res.variants, g, "variant", "winner_changed_rate",
                 ylabel="% of games")
        axes[3].set_title("Bags decided the game")
    fig.suptitle("Sandbags by variant, all line-ups pooled (95% intervals)")
    return fig


def points_distribution(res, t) -> Figure | None:
    dist = t["points_distribution"]
    binned = (dist.with_columns(bin=(pl.col("points") // 10) * 10)
              .group_by("variant", "bin").agg(pl.col("share").sum()).sort("bin"))
    cum = dist.sort("points").group_by("variant", maintain_order=True).agg(
        lo=pl.col("points").filter(pl.col("share").cum_sum() >= 0.002).first(),
        hi=pl.col("points").filter(pl.col("share").cum_sum() >= 0.998).first())
    fig, (ax,) = _figure(11, 4.5)
    for k, variant in enumerate(res.variants):
        r = binned.filter(variant=variant)
        if r.height:
            ax.step(r["bin"] + 5, r["share"] * 100, where="mid", color=COLORS[k % len(COLORS)],
                    label=variant, linewidth=1.2)
    if cum.height:
        ax.set_xlim(cum["lo"].min() - 10, cum["hi"].max() + 10)
    ax.set_xlabel("points a side scores in a hand (bins of 10)")
    ax.set_ylabel("% of side-hands")
    ax.set_title("Distribution of points per hand per side (all line-ups; 99.6% of hands shown)")
    ax.grid(alpha=0.3)
    _legend(ax, loc="best", fontsize=8)
    return fig


def _cell_label(row: dict) -> str:
    return f"{row['variant']} · {row['lineup']}" + (" (swapped)" if row["swapped"] else "")


def _forest(ax, labels: list[str], est, lo, hi, ulo=None, uhi=None, scale=1.0, zero=0.0):
    y = np.arange(len(labels))[::-1]
    est, lo, hi = (np.asarray(a, float) * scale for a in (est, lo, hi))
    if ulo is not None:
        ulo, uhi = (np.asarray(a, float) * scale for a in (ulo, uhi))
        ax.hlines(y, ulo, uhi, color="#999999", linewidth=1, label="unpaired 95%")
    ax.hlines(y, lo, hi, color="#1f77b4", linewidth=4, alpha=0.8,
              label="paired 95%" if ulo is not None else "95%")
    ax.plot(est, y, "o", color="#0b3d66", markersize=4)
    ax.axvline(zero, color="black", linewidth=0.8)
    ax.set_yticks(y, labels, fontsize=8)
    ax.grid(axis="x", alpha=0.3)


def outcomes(res, t) -> Figure | None:
    points = t["points"]
    games = t.get("games")
    cells = points.filter(side=0)
    labels = [_cell_label(r) for r in cells.iter_rows(named=True)]
    panels = 3 if games is not None else 1
    fig, axes = _figure(5 * panels, 1.2 + 0.32 * len(labels), 1, panels)
    y = np.arange(len(labels))[::-1]
    for side, offset, color in ((0, 0.15, COLORS[0]), (1, -0.15, COLORS[1])):
        r = points.filter(side=side)
        axes[0].errorbar(r["mean_points"], y + offset,
                         xerr=[r["mean_points"] - r["mean_points_lo"],
                               r["mean_points_hi"] - r["mean_points"]],
                         fmt="o", color=color, capsize=2, markersize=4, label=f"side {side}")
    axes[0].set_yticks(y, labels, fontsize=8)
    axes[0].set_xlabel("mean points per hand")
    _legend(axes[0], fontsize=8, loc="best")
    axes[0].grid(axis="x", alpha=0.3)
    axes[0].set_title("Points per hand")
    if games is not None:
        g = cells.select("variant", "lineup", "swapped").join(
            games, on=["variant", "lineup", "swapped"], how="left", maintain_order="left")
        _forest(axes[1], labels, g["win_rate_0"], g["win_rate_0_lo"], g["win_rate_0_hi"],
                scale=100, zero=50)
        axes[1].set_xlabel("% of games side 0 wins")
        axes[1].set_title("Side 0 wins")
        _forest(axes[2], labels, g["n_hands"], g["n_hands_lo"], g["n_hands_hi"],
                zero=float(g["n_hands"].mean()))
        axes[2].set_xlabel("hands per game (line: mean of the cells)")
        axes[2].set_title("Game length")
        for ax in axes[1:]:
            ax.set_yticklabels([])
    fig.suptitle("Each cell: variant · line-up (95% intervals)")
    return fig


def paired(res, t) -> Figure | None:
    frame = t.get("paired_variants")
    if frame is None or frame.is_empty():
        return None
    metrics = frame["metric"].unique(maintain_order=True).to_list()
    rows_per = frame.filter(metric=metrics[0]).height
    fig, axes = _figure(4.2 * len(metrics), 1.5 + 0.3 * rows_per, 1, len(metrics))
    for ax, metric in zip(axes, metrics, strict=True):
        r = frame.filter(metric=metric)
        scale = 100 if metric == "win_0" else 1
        labels = [f"{x['variant']} · {x['lineup']}" + (" (s)" if x["swapped"] else "")
                  for x in r.iter_rows(named=True)]
        _forest(ax, labels, r["diff"], r["diff_lo"], r["diff_hi"], r["unpaired_lo"],
                r["unpaired_hi"], scale=scale)
        ax.set_title(r["description"][0] + (" (percentage points)" if scale == 100 else ""),
                     fontsize=9)
        if ax is not axes[0]:
            ax.set_yticklabels([])
    _legend(axes[0], fontsize=8, loc="best")
    fig.suptitle(f"Each variant minus {res.variants[0]} on the same deals, per line-up: paired "
                 "interval (thick) and the unpaired one (thin) that ignores the pairing")
    return fig


def head_to_head(res, t) -> Figure | None:
    frame = t.get("head_to_head")
    if frame is None or frame.is_empty():
        return None
    metrics = frame["metric"].unique(maintain_order=True).to_list()
    rows_per = frame.filter(metric=metrics[0]).height
    fig, axes = _figure(5.5 * len(metrics), 1.6 + 0.32 * rows_per, 1, len(metrics))
    for ax, metric in zip(axes, metrics, strict=True):
        r = frame.filter(metric=metric)
        win = metric == "win"
        labels = [f"{x['lineup']} · {x['variant']}" for x in r.iter_rows(named=True)]
        _forest(ax, labels, r["advantage"], r["advantage_lo"], r["advantage_hi"],
                r["unpaired_lo"], r["unpaired_hi"], scale=100 if win else 1,
                zero=50 if win else 0)
        ax.set_title(r["description"][0], fontsize=9)
        ax.set_xlabel("% of games" if win else "points")
        if ax is not axes[0]:
            ax.set_yticklabels([])
    _legend(axes[0], fontsize=8, loc="best")
    teams = "; ".join(f"{x['lineup']}: {x['strategy']} vs {x['opponent']}"
                      for x in frame.unique("lineup", maintain_order=True).iter_rows(named=True))
    fig.suptitle(f"Head to head over both seatings ({teams})", fontsize=10)
    return fig


FIGURES: dict[str, tuple[str, Callable]] = {  # file stem -> (section, drawing)
    "nil_rates": ("nil", nil_rates),
    "nil_strategies": ("nil", nil_strategies),
    "nil_spades": ("nil", nil_spades),
    "nil_features": ("nil", nil_features),
    "nil_contract": ("nil", nil_contract),
    "bag_rules": ("bags", bag_rules),
    "bags": ("bags", bags),
    "points_distribution": ("compare", points_distribution),
    "outcomes": ("compare", outcomes),
    "paired_variants": ("compare", paired),
    "head_to_head": ("compare", head_to_head),
}


def make_figures(res, tables: dict[str, pl.DataFrame], folder: Path,
                 registry: dict[str, tuple[str, Callable]] | None = None) -> dict[str, Path]:
    """Draw every figure of ``registry`` (default: the Spades report's `FIGURES`) that the
    tables allow into ``folder``; returns stem -> PNG path."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for stem, (_, draw) in (FIGURES if registry is None else registry).items():
        fig = draw(res, tables)
        if fig is None:
            continue
        path = folder / f"{stem}.png"
        with writing(path):
            fig.savefig(path, dpi=DPI)
        out[stem] = path
    return out
