"""The bag rules figure (`reports.bag_rules`): the rules in the order of their cost per bag, with
the sandbagger's cost, the change in game length and the games the bags decided."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

__all__ = ["bag_rules"]


def _points(ax, y, frame, col, scale=1.0, offset=0.0, **kw):
    """One point with its interval per rule (NaN left out)."""
    est = frame[col].to_numpy().astype(float) * scale
    lo = frame[f"{col}_lo"].to_numpy().astype(float) * scale
    hi = frame[f"{col}_hi"].to_numpy().astype(float) * scale
    ok = np.isfinite(est)
    err = np.vstack([np.clip(est - lo, 0, None), np.clip(hi - est, 0, None)])
    err = np.nan_to_num(err)
    ax.errorbar(est[ok], y[ok] + offset, xerr=err[:, ok], fmt=kw.pop("fmt", "o"), capsize=3,
                markersize=5, **kw)


def bag_rules(res, t) -> Figure | None:
    from .figures import COLORS, _figure

    ranking = t.get("bag_ranking")
    if ranking is None or ranking.is_empty():
        return None
    panels = [("cost", "Cost per bag taken (points)")]
    if "sandbagger_advantage" in ranking.columns:
        panels.append(("sand", "Sandbagging team vs its opponents: points per hand"))
    if "n_hands_diff" in ranking.columns:
        panels.append(("length", f"Hands per game minus {res.variants[0]}'s (paired)"))
    if "winner_changed_rate" in ranking.columns:
        panels.append(("decided", "Games the bags decided (%)"))
    labels = [f"{r['rank']}. {r['variant']}" for r in ranking.iter_rows(named=True)]
    fig, axes = _figure(4.2 * len(panels), 1.6 + 0.32 * len(labels), 1, len(panels))
    y = np.arange(len(labels))[::-1].astype(float)
    for ax, (kind, title) in zip(axes, panels, strict=True):
        if kind == "cost":
            _points(ax, y, ranking, "cost_per_bag", offset=0.12, color=COLORS[0],
                    label="bags + contract")
            _points(ax, y, ranking, "bag_cost_per_bag", offset=-0.12, color=COLORS[1],
                    fmt="s", label="bag points alone")
            ax.legend(fontsize=8, loc="lower right")
        elif kind == "sand":
            _points(ax, y, ranking, "sandbagger_advantage", color=COLORS[2])
        elif kind == "length":
            _points(ax, y, ranking, "n_hands_diff", color=COLORS[3])
        else:
            _points(ax, y, ranking, "winner_changed_rate", scale=100, offset=0.12,
                    color=COLORS[4], label="bag points out")
            _points(ax, y, ranking, "winner_changed_all_rate", scale=100, offset=-0.12,
                    color=COLORS[5], fmt="s", label="and the contract cost")
            ax.legend(fontsize=8, loc="lower right")
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_title(title, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        ax.set_yticks(y, labels if ax is axes[0] else [""] * len(labels), fontsize=8)
    fig.suptitle("The bag rules, ranked by what a bag costs (1 = penalises sandbagging most; "
                 "every line-up; 95% intervals)", fontsize=10)
    return fig
