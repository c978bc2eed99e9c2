"""The short summary that ``whistlab run`` prints, computed from the Parquet tables alone."""

from __future__ import annotations

from pathlib import Path

import polars as pl

__all__ = ["format_summary", "summarize"]


def summarize(results: str | Path) -> dict[str, float]:
    """Nil and blind nil bid and success rates (per seat-hand), bags per side per hand, bag
    penalties per side per 100 hands, mean points per side; hands and games (0 in a run of
    independent hands) counted."""
    hands = pl.scan_parquet(Path(results) / "hands" / "*.parquet")
    seats, sides = range(4), range(2)
    nil = [(pl.col(f"bid_{s}") == 0) & ~pl.col(f"blind_{s}") for s in seats]
    blind = [(pl.col(f"bid_{s}") == 0) & pl.col(f"blind_{s}") for s in seats]
    made = [pl.col(f"tricks_{s}") == 0 for s in seats]

    def total(exprs):
        return pl.sum_horizontal([e.cast(pl.Int64) for e in exprs]).sum()

    row = hands.select(
        n=pl.len(),
        nil=total(nil),
        nil_made=total([a & b for a, b in zip(nil, made, strict=True)]),
        blind=total(blind),
        blind_made=total([a & b for a, b in zip(blind, made, strict=True)]),
        bags=pl.sum_horizontal([pl.col(f"overtricks_{s}") for s in sides]).sum(),
        penalty_points=pl.sum_horizontal([pl.col(f"bag_penalty_{s}") for s in sides]).sum(),
        penalties=total([pl.col(f"bag_penalty_{s}") < 0 for s in sides]),
        **{f"points_{s}": pl.col(f"points_{s}").mean() for s in sides},
    ).collect().row(0, named=True)
    n = row["n"]
    games = Path(results) / "games"
    return {
        "hands": n,
        "games": pl.scan_parquet(games / "*.parquet").select(pl.len()).collect().item()
        if games.exists() else 0,
        "nil_bid_rate": row["nil"] / (4 * n),
        "nil_success_rate": row["nil_made"] / row["nil"] if row["nil"] else float("nan"),
        "blind_nil_bid_rate": row["blind"] / (4 * n),
        "blind_nil_success_rate": (row["blind_made"] / row["blind"] if row["blind"]
                                   else float("nan")),
        "bags_per_side_hand": row["bags"] / (2 * n),
        "bag_penalties_per_100_side_hands": 100 * row["penalties"] / (2 * n),
        "bag_penalty_points_per_100_side_hands": 100 * row["penalty_points"] / (2 * n),
        "mean_points_side_0": row["points_0"],
        "mean_points_side_1": row["points_1"],
    }


def format_summary(s: dict[str, float]) -> str:
    return "\n".join([
        f"hands {s['hands']:,}" + (f"  games {s['games']:,}" if s["games"] else ""),
        f"nil        bid by {s['nil_bid_rate']:7.2%} of seats, made {s['nil_success_rate']:7.2%}",
        f"blind nil  bid by {s['blind_nil_bid_rate']:7.2%} of seats, "
        f"made {s['blind_nil_success_rate']:7.2%}",
        f"bags       {s['bags_per_side_hand']:.3f} per side per hand; "
        f"{s['bag_penalties_per_100_side_hands']:.2f} penalties "
        f"({s['bag_penalty_points_per_100_side_hands']:.1f} points) per 100 side-hands",
        f"points     side 0 {s['mean_points_side_0']:+.2f}, side 1 "
        f"{s['mean_points_side_1']:+.2f} per hand",
    ])
