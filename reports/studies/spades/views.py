"""The Spades study's table views of its nil and comparison sections (the sandbags section's
are `bag_views`), and the nil section's tables by the bidder's hand."""

from __future__ import annotations

import polars as pl

from ...data import Results
from ...kit.cells import by_metric, cell, count, interval, num, pct, text
from ...kit.tables import Column, Table, View, clearest

__all__ = ["ALL", "compare_views", "feature_tables", "nil_views"]

ALL = "all"
FEATURE_NAMES = {"spade_length": "spade length", "top_spade": "highest spade",
                 "high_cards": "aces and kings", "partner_bid": "the partner's bid",
                 "position": "bidding position"}


def _bid(rates: pl.DataFrame) -> pl.DataFrame:
    """The nil rates of the kinds (nil, blind nil, double nil) bid at least once in the run."""
    return rates.filter(pl.col("bids").sum().over("kind") > 0)


def nil_views(res: Results) -> list[View]:
    rate = [("bid", pct("bid_rate", 2)), ("made", count("made")),
            ("success", pct("success_rate"))]
    many_strategies = res.strategies["strategy"].n_unique() > 1
    views = [
        View("nil", "nil_rates", "Nil, blind nil and double nil by variant",
             [("kind", text("kind")), ("variant", text("variant")),
              ("seat-/side-hands", count("n")), ("bids", count("bids")), *rate],
             rows=lambda f: _bid(f).filter(lineup=ALL, strategy=ALL),
             top=lambda f: f.filter(kind="nil"),
             note="n: seat-hands for nil and blind nil, side-hands for double nil. "
                  "Intervals: 95% Wilson for trials clustered by game id (every line-up's "
                  "seat-hands of one game id together). A kind never bid in the run is left "
                  "out."),
    ]
    if many_strategies:
        views.append(View(
            "nil", "nil_rates", "By strategy (all line-ups)",
            [("kind", text("kind")), ("variant", text("variant")),
             ("strategy", text("strategy")), ("seat-/side-hands", count("n")),
             ("bids", count("bids")), *rate],
            rows=lambda f: _bid(f).filter(pl.col("lineup") == ALL, pl.col("strategy") != ALL),
            top=lambda f: f.filter(kind="nil")))
    if len(res.lineups) > 1 or any(c["swapped"] for c in res.cells):
        views.append(View(
            "nil", "nil_rates", "By line-up (all strategies of the line-up)",
            [("kind", text("kind")), ("variant", text("variant")), ("line-up", text("lineup")),
             ("seat-/side-hands", count("n")), ("bids", count("bids")), *rate],
            rows=lambda f: _bid(f).filter(pl.col("lineup") != ALL, pl.col("strategy") == ALL),
            markdown=False, folded=True))
    views.append(View(
        "nil", "nil_partner_contract", "The partner's contract",
        [("variant", text("variant")), ("nil on the side", text("partner_nil")),
         ("side-hands with a contract", count("side_hands")), ("made", count("made")),
         ("contract made", pct("made_rate"))],
        rows=lambda f: f.filter(strategy=ALL),
        note="A side's contract is made when contract_<side> > 0 and set when < 0; with one "
             "partner nil it is the other partner's bid alone."))
    if many_strategies:
        views.append(View(
            "nil", "nil_partner_contract", "The partner's contract, by the side's strategy",
            [("variant", text("variant")), ("strategy", text("strategy")),
             ("nil on the side", text("partner_nil")), ("side-hands", count("side_hands")),
             ("contract made", pct("made_rate"))],
            rows=lambda f: f.filter(pl.col("strategy") != ALL), markdown=False, folded=True))
    return views


def feature_tables(res: Results, tables: dict) -> list[Table]:
    """Nil success by each feature of the bidder's hand: a row per value, a column per
    variant (made % and the number of nil bids), folded."""
    out = []
    for feature, name in FEATURE_NAMES.items():
        rows = tables["nil_by_hand"].filter(feature=feature, kind="nil", strategy=ALL)
        labels = rows.select("value", "label").unique().sort("value")
        variants = [v for v in res.variants if rows.filter(variant=v).height]
        body = []
        for value, label in labels.iter_rows():
            line = [label]
            for v in variants:
                r = rows.filter(variant=v, value=value)
                if r.height and r["bids"][0] > 0:
                    d = r.row(0, named=True)
                    line.append(f"{100 * d['success_rate']:.0f}% ({d['bids']:,})")
                else:
                    line.append("–")
            body.append(line)
        if body:
            out.append(Table(
                "nil", f"Nil success by {name}, per variant (made %, and the nil bids)",
                "", [Column(name, False), *[Column(v, True) for v in variants]], body, None,
                "tables/nil_by_hand.csv", folded=True,
                markdown=feature in ("spade_length", "top_spade"), stacked=True))
    return out


def compare_views(res: Results) -> list[View]:
    unit = "game" if res.games_mode else "hand"
    views = [
        View("compare", "points", "Mean points per hand",
             [("variant", text("variant")), ("line-up", cell), ("side", text("side")),
              ("strategy", text("strategy")), ("hands", count("hands")),
              ("points per hand", num("mean_points", 2))],
             note="95% intervals: " + ("the ratio of points to hands over the games, the "
                                         "game as cluster (delta method)." if res.games_mode
                                         else "t over the hands.")),
    ]
    if res.games_mode:
        views.append(View(
            "compare", "games", "Wins and game length",
            [("variant", text("variant")), ("line-up", cell), ("side 0", text("strategy_0")),
             ("side 1", text("strategy_1")), ("games", count("games")),
             ("side 0 wins", pct("win_rate_0")), ("hands per game", num("n_hands", 2))]))
    main = "margin" if res.games_mode else "points_0"
    paired_cols = [("variant", text("variant")), ("vs", text("base")), ("line-up", cell),
                   ("metric", text("description")), (f"paired {unit}s", count("n")),
                   ("difference [paired 95%]",
                    by_metric(pct("diff", sign=True), num("diff", 3, sign=True))),
                   ("unpaired 95%", by_metric(interval("unpaired_lo", "unpaired_hi", 2, 100, " pp"),
                                              interval("unpaired_lo", "unpaired_hi", 3))),
                   ("unpaired / paired width", num("width_ratio", 1))]
    views += [
        View("compare", "paired_variants", "Variants on the same deals: "
             + ("final score margin (side 0 − side 1)" if res.games_mode
                else "points of side 0 per hand"),
             paired_cols, rows=lambda f: f.filter(metric=main), top=clearest,
             note=f"Each variant minus {res.variants[0]}, the same line-up and seating, "
                  f"paired on {' and '.join(res.key)}: paired 95% t interval of the mean "
                  "difference; the unpaired (Welch) interval treats the two cells as "
                  "independent samples. Shown first when the table is long: the clearest "
                  "differences (largest against their interval)."),
        View("compare", "paired_variants", "Other metrics on the same deals", paired_cols,
             rows=lambda f: f.filter(pl.col("metric") != main), markdown=False, folded=True),
        View("compare", "head_to_head", "Head to head over both seatings",
             [("line-up", text("lineup")), ("team (side 0)", text("strategy")),
              ("opponent", text("opponent")), ("variant", text("variant")),
              ("metric", text("description")), ("deals", count("n")),
              ("advantage [paired 95%]", by_metric(pct("advantage"),
                                                   num("advantage", 3, sign=True))),
              ("unpaired 95%", by_metric(interval("unpaired_lo", "unpaired_hi", 2, 100, "%"),
                                         interval("unpaired_lo", "unpaired_hi", 3))),
              ("unswapped", by_metric(pct("mean_unswapped"),
                                      num("mean_unswapped", 3, sign=True))),
              ("swapped", by_metric(pct("mean_swapped"), num("mean_swapped", 3, sign=True)))],
             note="Per deal (" + ", ".join(res.key) + ") the team's value averaged over its "
                  "two seatings; 'unswapped' and 'swapped': each seating alone. The unpaired "
                  "interval takes the two seatings as independent samples."),
    ]
    return views
