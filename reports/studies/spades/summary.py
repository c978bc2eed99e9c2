"""The Spades study's summary at the top of its page: a few findings in plain words, each
with its 95% interval, taken from the tables the sections show."""

from __future__ import annotations

import polars as pl

from ...kit.cells import estimate
from ...kit.page import Finding
from ...kit.tables import clearest

__all__ = ["summary"]

ALL = "all"


def _nil(res, tables) -> list[Finding]:
    rates = tables["nil_rates"].filter(lineup=ALL, strategy=ALL)
    out = []
    for kind in ("nil", "blind nil"):
        rows = rates.filter(kind=kind).filter(pl.col("bids") > 0)
        if not rows.height:
            continue
        if rows.height == 1:
            r = rows.row(0, named=True)
            out.append(Finding(
                f"{kind.capitalize()} is bid in {estimate(r, 'bid_rate', 2, 100, unit='%')} "
                f"of seat-hands and made in {estimate(r, 'success_rate', 1, 100, unit='%')} of "
                f"its {r['bids']:,} bids.", "nil"))
        else:
            ordered = rows.sort("success_rate")
            lo, hi = ordered.row(0, named=True), ordered.row(-1, named=True)
            out.append(Finding(
                f"{kind.capitalize()} is made in {estimate(lo, 'success_rate', 1, 100, unit='%')}"
                f" of bids under {lo['variant']} up to "
                f"{estimate(hi, 'success_rate', 1, 100, unit='%')} under {hi['variant']}.",
                "nil"))
    return out


def _bags(res, tables) -> list[Finding]:
    out = []
    ranking = tables.get("bag_ranking")
    if ranking is not None and ranking.height > 1:
        top = ranking.row(0, named=True)
        out.append(Finding(
            f"{top['variant']} penalises sandbagging most: a bag taken costs "
            f"{estimate(top, 'cost_per_bag')} points (bag points and contract cost).", "bags"))
    games = tables.get("bags_per_game")
    if games is not None:
        first = games.filter(lineup=ALL, variant=res.variants[0])
        if first.height:
            r = first.row(0, named=True)
            out.append(Finding(
                f"A game of {r['variant']} brings {estimate(r, 'bags_per_game', 1)} bags (both "
                f"sides); the bags decide {estimate(r, 'winner_changed_rate', 1, 100, unit='%')}"
                " of games (the winner changes without their points).", "bags"))
    else:
        hands = tables["bags_per_hand"].filter(lineup=ALL, side="both", variant=res.variants[0])
        if hands.height:
            r = hands.row(0, named=True)
            out.append(Finding(f"A side takes {estimate(r, 'bags_per_side_hand', 2)} bags a hand "
                               f"under {r['variant']}.", "bags"))
    return out


def _compare(res, tables) -> list[Finding]:
    out = []
    games = tables.get("games")
    if games is not None and games.height:
        if games.height == 1:
            r = games.row(0, named=True)
            out.append(Finding(f"Games last {estimate(r, 'n_hands', 2)} hands; side 0 wins "
                               f"{estimate(r, 'win_rate_0', 1, 100, unit='%')} of them.",
                               "compare"))
        else:
            ordered = games.sort("n_hands")
            a, b = ordered.row(0, named=True), ordered.row(-1, named=True)

            def where(r):
                return f"{r['variant']}, {r['lineup']}" + (" swapped" if r["swapped"] else "")
            out.append(Finding(f"Games last from {estimate(a, 'n_hands', 2)} hands ({where(a)})"
                               f" to {estimate(b, 'n_hands', 2)} ({where(b)}).", "compare"))
    paired = tables.get("paired_variants")
    if paired is not None and paired.height:
        main = "margin" if res.games_mode else "points_0"
        rows = clearest(paired.filter(metric=main))
        if rows.height:
            r = rows.row(0, named=True)
            clear = r["diff_lo"] > 0 or r["diff_hi"] < 0
            unit = "per game" if res.games_mode else "per hand"
            out.append(Finding(
                f"{'The clearest' if clear else 'No clear'} difference on the same deals"
                f"{':' if clear else '; the largest:'} {r['variant']} minus {r['base']} "
                f"({r['lineup']}{', swapped' if r['swapped'] else ''}), {r['description']} "
                f"{estimate(r, 'diff', 2, sign=True)} {unit}.", "compare"))
    h2h = tables.get("head_to_head")
    if h2h is not None:
        metric = "win" if res.games_mode else "points"
        for r in h2h.filter(metric=metric).head(3).iter_rows(named=True):
            value = ("wins " + estimate(r, "advantage", 1, 100, unit="% of games")
                     if metric == "win"
                     else estimate(r, "advantage", 2, sign=True) + " points per hand")
            out.append(Finding(f"{r['strategy']} against {r['opponent']} ({r['lineup']}, "
                               f"{r['variant']}, both seatings): {value}.", "compare"))
    return out


def summary(res, tables: dict) -> list[Finding]:
    return [*_nil(res, tables), *_bags(res, tables), *_compare(res, tables)]
