"""The Spades study's figures, drawn from its tables (never from the hands) with the kit
(`reports.kit.figures`): cells, variants and rules are rows, so a figure grows down the page
with the experiment, never wider; a figure that would compare one thing with itself (one
variant, one cell) is not drawn."""

from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from ...kit.figures import COLORS, ROW, dots, errorbars, forest, grid, legend_outside, strips, ticks
from ...nil import FEATURES
from .bag_figures import bag_rules, bags

__all__ = ["FIGURES"]

ALL = "all"
MAX_LINES = 6  # series of a line chart before the variants are pooled into one line
KINDS = ("nil", "blind nil", "double nil")


def _share_axis(ax) -> None:
    ax.set_xlim(left=0)


def _rates(res, rates: pl.DataFrame, series_of: str, names: list[str], title: str,
           bid_label: str) -> Figure:
    """Bid and success rates, a row per variant and a series per ``series_of`` value (with
    one variant: a row per series, a single series)."""
    one = len(res.variants) == 1
    rows = names if one else res.variants
    key = series_of if one else "variant"
    series = ([("", rates)] if one else
              [(n, rates.filter(pl.col(series_of) == n)) for n in names])
    fig, axes = grid(2, 5.5, 1.5 + ROW * len(rows) * (1 if one else max(1, len(names)) ** 0.5))
    dots(axes[0], rows, series, key, "bid_rate", 100, bid_label)
    dots(axes[1], rows, series, key, "success_rate", 100, "made (% of bids)")
    axes[0].set_title("How often it is bid")
    axes[1].set_title("How often it is made")
    for ax in axes:
        _share_axis(ax)
    if not one:
        legend_outside(fig, axes[:1])
    fig.suptitle(title)
    return fig


def nil_rates(res, t) -> Figure | None:
    rates = t["nil_rates"].filter(lineup=ALL, strategy=ALL)
    kinds = [k for k in KINDS if rates.filter(kind=k)["bids"].sum() > 0]
    if not kinds:
        return None
    return _rates(res, rates, "kind", kinds, "Nil, blind nil and double nil (95% intervals)",
                  "bid (% of seat-hands; double nil: of side-hands)")


def nil_strategies(res, t) -> Figure | None:
    rates = t["nil_rates"].filter(kind="nil", lineup=ALL).filter(pl.col("strategy") != ALL)
    strategies = rates["strategy"].unique(maintain_order=True).to_list()
    if len(strategies) < 2:
        return None
    return _rates(res, rates, "strategy", strategies, "Nil by strategy (95% intervals)",
                  "nil bid (% of seat-hands)")


def _series(res, t) -> tuple[str, pl.DataFrame, list[str], str]:
    """What the nil-by-hand lines are: the variants (all of them pooled into one line when
    there are more than `MAX_LINES`: the table's variant "all"), or the strategies when several
    played (every variant's cells: variant "all")."""
    rows = t["nil_by_hand"].filter(kind="nil")
    every = rows.filter(variant=ALL)
    strategies = rows.filter(pl.col("strategy") != ALL)["strategy"].unique(
        maintain_order=True).to_list()
    if len(strategies) > 1:
        return ("strategy", every.filter(pl.col("strategy") != ALL), strategies,
                "per strategy, all variants")
    if len(res.variants) > MAX_LINES:
        pooled = every.filter(strategy=ALL).with_columns(variant=pl.lit("all variants"))
        return "variant", pooled, ["all variants"], f"all {len(res.variants)} variants pooled"
    rows = rows.filter(strategy=ALL).filter(pl.col("variant") != ALL)
    return "variant", rows, res.variants, "per variant" if len(res.variants) > 1 else ""


def _by_feature(ax, rows: pl.DataFrame, by: str, names: list[str], feature: str, value: str,
                min_n: int) -> None:
    """A line per name of the nil bid or success rate over the values of a hand feature;
    points with fewer than ``min_n`` bids (success) or seat-hands (bid rate) left out."""
    rows = rows.filter(feature=feature).filter(
        pl.col("bids" if value == "success_rate" else "n") >= min_n)
    labels = rows.select("value", "label").unique().sort("value")
    index = {v: i for i, v in enumerate(labels["value"])}
    names = [x for x in names if rows.filter(pl.col(by) == x).height]
    width = 0.5 / max(len(names), 1)
    for k, name in enumerate(names):
        r = rows.filter(pl.col(by) == name).sort("value")
        x = np.array([index[v] for v in r["value"]]) + (k - (len(names) - 1) / 2) * width
        errorbars(ax, x, r[value] * 100, r[f"{value}_lo"] * 100, r[f"{value}_hi"] * 100,
                  fmt="o-", color=COLORS[k % len(COLORS)], label=name, linewidth=1)
    ticks(ax, labels["label"].to_list())
    ax.set_xlabel(FEATURES[feature])
    ax.grid(alpha=0.3)


def nil_hands(res, t) -> Figure | None:
    """Nil success (and how often it is bid) by the bidder's hand: spades, aces and kings,
    the partner's bid, the bidding position."""
    by, rows, names, which = _series(res, t)
    if rows.filter(pl.col("bids") >= 10).is_empty():
        return None
    features = ["spade_length", "top_spade", "high_cards", "partner_bid", "position"]
    fig, axes = grid(6, 3.6, 3.3)
    for ax, feature in zip(axes, features, strict=False):
        _by_feature(ax, rows, by, names, feature, "success_rate", 10)
        ax.set_title(f"made, by {FEATURES[feature]}")
        ax.set_ylim(-3, 103)
    _by_feature(axes[5], rows, by, names, "spade_length", "bid_rate", 30)
    axes[5].set_title("bid, by spade length")
    axes[0].set_ylabel("nil made (% of nil bids)")
    axes[3].set_ylabel("nil made (% of nil bids)")
    axes[5].set_ylabel("nil bid (% of seat-hands)")
    if len(names) > 1:
        legend_outside(fig)
    fig.suptitle("The nil bidder's hand" + (f" ({which})" if which else "")
                 + ": points with at least 10 nil bids (30 seat-hands for the bid rate); "
                   "95% intervals")
    return fig


def nil_contract(res, t) -> Figure | None:
    rows = t["nil_partner_contract"].filter(strategy=ALL)
    names = {"none": "no nil", "nil": "one partner bid nil",
             "blind nil": "one partner bid blind nil"}
    states = [s for s in names if rows.filter(partner_nil=s)["side_hands"].sum() > 0]
    if len(states) < 2:
        return None
    rows = rows.with_columns(state=pl.col("partner_nil").replace_strict(names, default=None))
    one = len(res.variants) == 1
    labels = [names[s] for s in states]
    fig, (ax,) = grid(1, 8, 1.5 + ROW * (len(labels) if one else len(res.variants)
                                         * len(states) ** 0.5))
    if one:
        dots(ax, labels, [("", rows)], "state", "made_rate", 100, "contract made (% of "
             "side-hands)")
    else:
        dots(ax, res.variants, [(names[s], rows.filter(partner_nil=s)) for s in states],
             "variant", "made_rate", 100, "contract made (% of side-hands)")
        legend_outside(fig)
    ax.set_title("What a nil does to the partner's contract (95% intervals)")
    return fig


def points_distribution(res, t) -> Figure | None:
    dist = t["points_distribution"]
    binned = (dist.with_columns(bin=(pl.col("points") // 10) * 10)
              .group_by("variant", "bin").agg(pl.col("share").sum()).sort("bin"))
    cum = dist.sort("points").group_by("variant", maintain_order=True).agg(
        lo=pl.col("points").filter(pl.col("share").cum_sum() >= 0.002).first(),
        hi=pl.col("points").filter(pl.col("share").cum_sum() >= 0.998).first())
    variants = [v for v in res.variants if binned.filter(variant=v).height]
    if not variants:
        return None
    small = len(variants) > 3  # small multiples, each against the first variant
    fig, axes = grid(len(variants), 2.75, 2.3) if small else grid(1, 9, 3.6)
    base = binned.filter(variant=variants[0])
    for k, variant in enumerate(variants):
        ax = axes[k] if small else axes[0]
        r = binned.filter(variant=variant)
        if small and k:
            ax.step(base["bin"] + 5, base["share"] * 100, where="mid", color="#bbbbbb",
                    linewidth=1, label=f"{variants[0]} (in every panel)")
        ax.step(r["bin"] + 5, r["share"] * 100, where="mid",
                color=COLORS[0 if small else k % len(COLORS)], linewidth=1.2,
                label=None if small else variant)
        if small:
            ax.set_title(variant)
    for ax in axes:
        ax.set_xlim(cum["lo"].min() - 10, cum["hi"].max() + 10)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("% of side-hands")
    if small:
        fig.supxlabel("points a side scores in a hand (bins of 10)")
    else:
        axes[0].set_xlabel("points a side scores in a hand (bins of 10)")
    if len(variants) > 1:
        legend_outside(fig)
    fig.suptitle("Points a side scores in a hand (all line-ups; the middle 99.6% shown)")
    return fig


def _cell_label(row: dict) -> str:
    return f"{row['variant']} · {row['lineup']}" + (" (s)" if row["swapped"] else "")


def outcomes(res, t) -> Figure | None:
    """Each cell's points per hand, side 0's wins and game length (several cells only)."""
    points = t["points"]
    games = t.get("games")
    cells = points.filter(side=0)
    if cells.height < 2:
        return None
    labels = [_cell_label(r) for r in cells.iter_rows(named=True)]
    fig, axes = strips(3 if games is not None else 1, len(labels))
    y = np.arange(len(labels))[::-1]
    for side, offset in ((0, 0.15), (1, -0.15)):
        r = points.filter(side=side)
        errorbars(axes[0], y + offset, r["mean_points"], r["mean_points_lo"],
                  r["mean_points_hi"], horizontal=True, color=COLORS[side], label=f"side {side}")
    axes[0].set_yticks(y, labels)
    axes[0].set_xlabel("mean points per hand")
    axes[0].grid(axis="x", alpha=0.3)
    axes[0].set_title("Points per hand")
    if games is not None:
        g = cells.select("variant", "lineup", "swapped").join(
            games, on=["variant", "lineup", "swapped"], how="left", maintain_order="left")
        forest(axes[1], labels, g["win_rate_0"], g["win_rate_0_lo"], g["win_rate_0_hi"],
               scale=100, zero=50)
        axes[1].set_xlabel("% of games side 0 wins")
        axes[1].set_title("Side 0 wins")
        forest(axes[2], labels, g["n_hands"], g["n_hands_lo"], g["n_hands_hi"], zero=None)
        axes[2].set_xlabel("hands per game")
        axes[2].set_title("Game length")
    legend_outside(fig, axes[:1])
    fig.suptitle("Each cell: variant · line-up ((s): seats swapped; 95% intervals)")
    return fig


def _metric_strips(frame: pl.DataFrame, labels_of, value: str, percent: str,
                   zero_of) -> Figure:
    """A panel per metric of ``frame`` over the same rows, the paired interval (thick)
    beside the unpaired one (thin)."""
    metrics = frame["metric"].unique(maintain_order=True).to_list()
    rows = frame.filter(metric=metrics[0]).height
    fig, axes = strips(len(metrics), rows, cols=2 if len(metrics) == 4 else 3)
    for ax, metric in zip(axes, metrics, strict=True):
        r = frame.filter(metric=metric)
        share = metric == percent
        forest(ax, [labels_of(x) for x in r.iter_rows(named=True)], r[value],
               r[f"{value}_lo"], r[f"{value}_hi"], r["unpaired_lo"], r["unpaired_hi"],
               scale=100 if share else 1, zero=zero_of(metric))
        ax.set_title(r["description"][0] + (" (%)" if share else ""), fontsize=10.5,
                     wrap=True)
    legend_outside(fig, axes[:1])
    return fig


def paired(res, t) -> Figure | None:
    frame = t.get("paired_variants")
    if frame is None or frame.is_empty():
        return None
    fig = _metric_strips(frame, _cell_label, "diff", "win_0", lambda m: 0.0)
    fig.suptitle(f"Each variant minus {res.variants[0]} on the same deals: the paired "
                 "interval, and the unpaired one that ignores the pairing")
    return fig


def head_to_head(res, t) -> Figure | None:
    frame = t.get("head_to_head")
    if frame is None or frame.is_empty():
        return None
    fig = _metric_strips(frame, lambda x: f"{x['lineup']} · {x['variant']}", "advantage",
                         "win", lambda m: 50.0 if m == "win" else 0.0)
    fig.suptitle("Head to head over both seatings: the side-0 team's advantage")
    return fig


FIGURES = {  # file stem -> (section, drawing)
    "nil_rates": ("nil", nil_rates),
    "nil_strategies": ("nil", nil_strategies),
    "nil_hands": ("nil", nil_hands),
    "nil_contract": ("nil", nil_contract),
    "bag_rules": ("bags", bag_rules),
    "bags": ("bags", bags),
    "points_distribution": ("compare", points_distribution),
    "outcomes": ("compare", outcomes),
    "paired_variants": ("compare", paired),
    "head_to_head": ("compare", head_to_head),
}
