"""The table views of the sections on every table (`reports.table_sections`): nil by side and
seat, bags by side, wins and points by side, and the tables compared, one row per variant."""

from __future__ import annotations

import polars as pl

from ...kit.cells import count, num, pct, text
from ...kit.tables import Table, View, shown

__all__ = ["ALL", "compared_tables", "table_views"]

ALL = "all"


def _any(tables: dict, name: str) -> bool:
    frame = tables.get("table_sides")
    return frame is not None and name in frame.columns and bool(
        frame.filter(pl.col(name).fill_null(0) > 0).height)


def _pooled(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.filter(lineup=ALL)


def _totals(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows of every side of a table ("all"): the head of a long table."""
    return frame.filter(side=ALL)


def _views(res, tables: dict) -> tuple[list[View], View]:
    """The views of the sections, in page order, and the one of the tables compared."""
    blind = _any(tables, "blind_bids")
    games = res.games_mode and "win_rate" in tables["table_sides"].columns
    several = len(res.cells) > len(res.variants)
    who = [("variant", text("variant")), ("side", text("seats")), ("strategy", text("strategy"))]
    nil = [("bids", count("bids")), ("nil bid", pct("nil_bid_rate")),
           ("nil made", pct("nil_success"))]
    if blind:
        nil += [("blind nil bid", pct("blind_bid_rate", 2)),
                ("blind nil made", pct("blind_success"))]
    views = [
        View("tables_nil", "table_sides", "Nil by side (a player where each plays for himself)",
             [*who, *nil], rows=_pooled, top=_totals,
             note="Bids: seat-hands in which the side's players bid (bid ≥ 0); nil bid: the "
                  "share of them that were nil (not blind), made: the share of nil bids whose "
                  "bidder took no trick. 'every seat': the table's seats together. 95% "
                  "intervals: Wilson's for trials clustered by game id (a game's hands and a "
                  "hand's seats together). Shown first when the table is long: each table's "
                  "seats together; the whole table below."),
        View("tables_nil", "table_seats", "Nil by seat, at tables of partners",
             [("variant", text("variant")), ("seat", text("seat")),
              ("strategy", text("strategy")), *nil],
             rows=lambda f: _pooled(f).filter(pl.col("seat") != ALL).join(
                 tables["table_sides"].filter(pl.col("players") > pl.col("sides"))
                 .select("variant").unique(), on="variant", how="semi"),
             markdown=False, folded=True),
        View("tables_bags", "table_sides", "Bags and bag penalties by side",
             [*who, ("side-hands", count("side_hands")),
              ("bags per side-hand", num("bags_per_side_hand", 3)),
              ("penalties per 100 side-hands", num("penalties_per_100", 2)),
              ("penalty points per side-hand", num("penalty_points_per_side_hand", 2))],
             rows=_pooled, top=_totals,
             note="Bags: bags_taken_<side>, the bags as the standard game counts them; a "
                  "penalty: a side-hand with a bag penalty (bag_penalty_<side> < 0). 'every "
                  "seat': every side's side-hands together. – : the rules count no bag, or pay "
                  "no bag penalty (said above). 95% intervals: ratios of sums over game ids "
                  "(delta method), penalties Wilson's for clustered trials."),
    ]
    wins = [*who]
    if games:
        wins += [("games", count("games")), ("games won", pct("win_rate")),
                 ("fair share", pct("fair_share"))]
    wins += [("side-hands", count("side_hands")), ("points per hand", num("points_per_hand", 1))]
    views.append(View(
        "tables_wins", "table_sides", "Wins and points per hand by side" if games
        else "Points per hand by side", wins,
        rows=lambda f: _pooled(f).filter(pl.col("side") != ALL),
        note=("Games won: the share of the games each side won, beside the fair share 1 / "
              "sides (Wilson's interval; over a variant's cells, clustered by game id). "
              if games else "")
             + "Points per hand: the side's points over the hands, a ratio of sums over game "
               "ids (delta method)."))
    if several:
        views.append(View(
            "tables_wins", "table_sides", "By line-up",
            [("variant", text("variant")), ("line-up", text("lineup")),
             ("swapped", lambda r: "yes" if r["swapped"] else ""), *who[1:],
             *([("games won", pct("win_rate"))] if games else []),
             ("points per hand", num("points_per_hand", 1)), ("nil bid", pct("nil_bid_rate")),
             ("bags per side-hand", num("bags_per_side_hand", 3))],
            rows=lambda f: f.filter(pl.col("lineup") != ALL, pl.col("side") != ALL),
            markdown=False, folded=True))
    compared = [("variant", text("variant")), ("table", text("table")),
                ("hands", count("hands")), *([("games", count("games"))] if games else []),
                ("nil bid", pct("nil_bid_rate")), ("nil made", pct("nil_success"))]
    if blind:
        compared.append(("blind nil bid", pct("blind_bid_rate", 2)))
    compared += [("contracts made", pct("contracts_made_rate")),
                 ("bags per side-hand", num("bags_per_side_hand", 3)),
                 ("penalties per 100 side-hands", num("penalties_per_100", 2)),
                 ("points per side-hand", num("points_per_side_hand", 1))]
    if games:
        compared.append(("hands per game", num("hands_per_game", 2)))
    return views, View(
        "tables", "tables_compared", "The tables compared", compared,
        note="One row per variant, every line-up, seat and side pooled. Contracts made: of the "
             "side-hands with a contract (contract_<side> ≠ 0), the share that scored it "
             "(> 0). Per side-hand: over every side's side-hands. 95% intervals clustered by "
             "game id (the game's hands, seats and sides, and every cell's rows of that id, "
             "together). Tables of different sizes deal different cards: compare them by "
             "their own rows, not hand by hand.")


def table_views(res, tables: dict) -> list[View]:
    """The views of the sections on nil, bags, and wins and points, in page order."""
    return _views(res, tables)[0]


def compared_tables(res, tables: dict) -> list[Table]:
    """The tables compared, one row per variant: every row shown, however many tables."""
    table = shown(_views(res, tables)[1], tables, "tables")
    if table is None:
        return []
    table.head = None
    return [table]
