"""The sandbags section's figures: the bag rules in the order of their cost per bag (with the
sandbagger's cost, the change in game length and the games the bags decided), and bags and
their penalties by variant. Both compare variants: a run of one variant has neither."""

from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from ...kit.figures import COLORS, ROW, dots, errorbars, grid, legend_outside, strips

__all__ = ["bag_rules", "bags"]

ALL = "all"


def _points(ax, y, frame, col, scale=1.0, offset=0.0, **kw):
    """One point with its interval per rule (NaN left out), rules as rows."""
    errorbars(ax, y + offset, frame[col].to_numpy().astype(float) * scale,
              frame[f"{col}_lo"].to_numpy().astype(float) * scale,
              frame[f"{col}_hi"].to_numpy().astype(float) * scale, horizontal=True, **kw)


def bag_rules(res, t) -> Figure | None:
    ranking = t.get("bag_ranking")
    if ranking is None or ranking.height < 2:
        return None
    panels = [("cost", "Cost per bag taken (points)")]
    if "sandbagger_advantage" in ranking.columns:
        panels.append(("sand", "Sandbagging team vs its opponents (points per hand)"))
    if "n_hands_diff" in ranking.columns:
        panels.append(("length", f"Hands per game minus {res.variants[0]}'s (paired)"))
    if "winner_changed_rate" in ranking.columns:
        panels.append(("decided", "Games the bags decided (%)"))
    labels = [f"{r['rank']}. {r['variant']}" for r in ranking.iter_rows(named=True)]
    fig, axes = strips(len(panels), len(labels), cols=2)
    y = np.arange(len(labels))[::-1].astype(float)
    for ax, (kind, title) in zip(axes, panels, strict=True):
        if kind == "cost":
            _points(ax, y, ranking, "cost_per_bag", offset=0.12, color=COLORS[0],
                    label="cost per bag: bags + contract")
            _points(ax, y, ranking, "bag_cost_per_bag", offset=-0.12, color=COLORS[1],
                    fmt="s", label="cost per bag: bag points alone")
        elif kind == "sand":
            _points(ax, y, ranking, "sandbagger_advantage", color=COLORS[2])
        elif kind == "length":
            base = ranking.filter(pl.col("variant") != res.variants[0])
            _points(ax, y[[i for i, v in enumerate(ranking["variant"]) if v != res.variants[0]]],
                    base, "n_hands_diff", color=COLORS[3])
        else:
            _points(ax, y, ranking, "winner_changed_rate", scale=100, offset=0.12,
                    color=COLORS[4], label="bags decided: bag points out")
            _points(ax, y, ranking, "winner_changed_all_rate", scale=100, offset=-0.12,
                    color=COLORS[5], fmt="s", label="bags decided: and the contract cost")
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_title(title)
        ax.grid(axis="x", alpha=0.3)
        ax.set_yticks(y, labels)
        ax.set_ylim(-0.6, len(labels) - 0.4)
    legend_outside(fig)
    fig.suptitle("The bag rules, ranked by what a bag costs (1 = penalises sandbagging most; "
                 "every line-up; 95% intervals)")
    return fig


def bags(res, t) -> Figure | None:
    if len(res.variants) < 2:
        return None
    hands = t["bags_per_hand"].filter(lineup=ALL, side="both")
    games = t.get("bags_per_game")
    panels = [(hands, "bags_per_side_hand", 1, "bags per side per hand", "Bags per side-hand"),
              (hands, "penalties_per_100", 1, "per 100 side-hands", "Bag penalties")]
    if games is not None:
        g = games.filter(lineup=ALL)
        panels += [(g, "bags_per_game", 1, "bags per game (both sides)", "Bags per game"),
                   (g, "winner_changed_rate", 100, "% of games", "Bags decided the game")]
    fig, axes = grid(len(panels), 5.5, 1.4 + ROW * len(res.variants))
    for ax, (frame, col, scale, label, title) in zip(axes, panels, strict=True):
        dots(ax, res.variants, [("", frame)], "variant", col, scale, label)
        ax.set_xlim(left=0)
        ax.set_title(title)
    fig.suptitle("Sandbags by variant, all line-ups pooled (95% intervals)")
    return fig
