"""The Spades report at every table of RULES.md §4.7 (three players, cutthroat, five, six in
three pairs, two threes or solo, cancel spades with six or eight, and the four-player
partnership game beside them): nil per seat and side, bags per side, wins and points per side,
and the tables compared, one row per variant.

A table has P seats and S sides; seat ``s`` plays for side ``s mod S`` (`sim.spades.table`),
and its hands table has a column ``<name>_<seat>`` per seat and ``<name>_<side>`` per side
(docs/SCHEMA.md). Each variant is read with its own columns; a run's variants may play
different tables.

* nil, blind nil (per seat-hand): a bid of 0, not blind or blind, among the seat-hands in which
  the seat bid (``bid_<seat> >= 0``; −1 = no bid, a side contract); made = the bidder took no
  trick. Per side: its seats' seat-hands together; "all": every seat;
* bags (per side-hand): ``bags_taken_<side>``; a penalty = a side-hand with
  ``bag_penalty_<side> < 0``, and its points; per hand ("all"): every side's bags of a hand;
* points per hand: ``points_<side>``; per side-hand ("all"): every side's points over the
  side-hands;
* contracts made: of the side-hands with a contract (``contract_<side> != 0``), the share that
  scored it (``> 0``), as in `reports.nil`;
* wins (whole-games runs): the share of games each side won (the games table's ``winner``),
  beside the fair share 1 / S; hands per game (``n_hands``).

Every figure is a ratio of sums over game ids (`frame_stats.cluster_sums`): a game's hands
share its score, a hand's seats and sides its cards, and every cell plays the same deals for
the same game id, so a row over seats, sides or the cells of a variant (lineup "all") sums
each game id's rows into one cluster. Means get the delta-method t interval
(`frame_stats.with_ratio`), shares Wilson's interval for clustered trials (`with_share`; a
share of one cell's games, one trial per game id, is Wilson's own interval). The blocks are read
one at a time (`data.block_pass`), each summed to its clusters before the next.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import polars as pl
import pyarrow.parquet as pq

from .data import CELL, ClusterPass, Results, block_pass, collect, scan_blocks
from .frame_stats import CLUSTER, cluster_sums, drop_cluster_sums, with_ratio, with_share
from .kit.cells import estimate

__all__ = ["Shape", "TableSums", "four_in_partnerships", "other_tables", "shapes",
           "table_section"]

ALL = "all"
NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 8: "eight"}


@dataclass(frozen=True)
class Shape:
    """One variant's table: P seats, S sides (seat s plays for side s mod S), and what its
    rules leave out (one sentence each, or None)."""

    players: int
    sides: int
    rules: dict

    def members(self, side: int) -> list[int]:
        return list(range(side, self.players, self.sides))

    @property
    def usual(self) -> bool:
        """Four players in two partnerships: the table of the report's first sections."""
        return self.players == 4 and self.sides == 2

    @property
    def description(self) -> str:
        many = NUMBERS.get(self.players, str(self.players))
        if self.players == self.sides:
            text = f"{many} players, each for himself"
        elif self.players == 2 * self.sides:
            text = f"{many} players in {NUMBERS.get(self.sides, self.sides)} pairs"
        else:
            size = self.players // self.sides
            text = (f"{many} players in {NUMBERS.get(self.sides, self.sides)} teams of "
                    f"{NUMBERS.get(size, size)}")
        return text + (", cancel spades" if self.rules.get("cancel_spades") else "")

    def side_name(self, side: int) -> str:
        seats = self.members(side)
        if len(seats) == 1:
            return f"seat {seats[0]}"
        return "seats " + "+".join(map(str, seats))

    @cached_property
    def _rules(self):
        from sim.options import load_rules

        try:
            return load_rules(self.rules)
        except Exception:  # rules of another whistlab: read what the manifest says
            return None

    @property
    def no_nil(self) -> str | None:
        """The rule under which nobody bids nil, if any."""
        return self._rules.nilless if self._rules is not None else (
            "nil = false" if not self.rules.get("nil", True) else None)

    @property
    def no_blind_nil(self) -> str | None:
        return self.no_nil or ("blind_nil = false" if not self.rules.get("blind_nil", True)
                                else None)

    @property
    def no_bags(self) -> str | None:
        """The rule under which no bag is counted (RULES.md §4.6), if any."""
        return self._rules.bagless if self._rules is not None else None

    @property
    def no_penalty(self) -> str | None:
        """Why the table pays no bag penalty, if it pays none."""
        if self.no_bags:
            return self.no_bags
        if self.rules.get("cancel_spades"):
            return "cancel spades (RULES.md §4.7)"
        if not self.rules.get("bag_penalty", 100):
            return "bag_penalty = 0"
        return None


def _columns(res: Results, variant: str) -> list[str]:
    for c in res.cells:
        if c["variant"] == variant:
            files = sorted((res.path / "hands").glob(f"part-{res.cell_key(c)}-*.parquet"))
            if files:
                return pq.read_schema(files[0]).names
    return []


def shapes(res: Results) -> dict[str, Shape]:
    """Each variant's table, from its hands table's columns (a ``tricks_<seat>`` per seat, a
    ``score_<side>`` per side) and its rules in the manifest."""
    out = {}
    for v in res.variants:
        rules = next(c.get("rules", {}) for c in res.cells if c["variant"] == v)
        names = _columns(res, v)
        players = sum(n.startswith("tricks_") for n in names)
        sides = sum(n.startswith("score_") for n in names)
        if not players:  # no block yet: what the rules say
            players = rules.get("players", 4)
            sides = 2 if players == 4 and rules.get("partnerships", True) else players
        out[v] = Shape(players, sides, rules)
    return out


def four_in_partnerships(res: Results, found: dict[str, Shape]) -> Results | None:
    """The run's cells of four players in two partnerships, which the report's first sections
    cover (None when it has none), with the others named."""
    keep = [c for c in res.cells if found[c["variant"]].usual]
    if not keep:
        return None
    return res.only(keep, "other tables, which the sections on every table cover")


def other_tables(found: dict[str, Shape]) -> list[str]:
    return [v for v, s in found.items() if not s.usual]


# --- sums, block by block -----------------------------------------------------------------

SEAT_NAMES = ["n", "nil", "nil_made", "blind", "blind_made"]
SEAT_PAIRS = [("n", "nil"), ("nil", "nil_made"), ("n", "blind"), ("blind", "blind_made")]
SIDE_NAMES = ["hands", "h", "points", "bags", "pens", "penalty", "contracts", "made",
              *SEAT_NAMES]
SIDE_PAIRS = [("hands", "points"), ("h", "points"), ("hands", "bags"), ("h", "bags"),
              ("h", "pens"), ("h", "penalty"), ("contracts", "made"), *SEAT_PAIRS]
GAME_NAMES = ["g", "won", "length"]
GAME_PAIRS = [("g", "won"), ("g", "length")]


def _nil(seats: list[int]) -> dict[str, pl.Expr]:
    """The nil counts of some seats of a hand (summed over them)."""
    def total(expr_of):
        return pl.sum_horizontal(expr_of(s).cast(pl.Int32) for s in seats)

    def nil(s, blind):
        b = pl.col(f"blind_{s}")
        return (pl.col(f"bid_{s}") == 0) & (b if blind else ~b)

    return {"n": total(lambda s: pl.col(f"bid_{s}") >= 0),
            "nil": total(lambda s: nil(s, False)),
            "nil_made": total(lambda s: nil(s, False) & (pl.col(f"tricks_{s}") == 0)),
            "blind": total(lambda s: nil(s, True)),
            "blind_made": total(lambda s: nil(s, True) & (pl.col(f"tricks_{s}") == 0))}


def _side(shape: Shape, sides: list[int], who: str) -> list[pl.Expr]:
    """The per-hand values of some sides (summed over them), as ``who``'s row."""
    def total(name, cast=pl.Int32):
        return pl.sum_horizontal(pl.col(f"{name}_{k}").cast(cast) for k in sides)

    seats = [s for k in sides for s in shape.members(k)]
    return [pl.lit(who).alias("who"), pl.lit(1, pl.Int32).alias("hands"),
            pl.lit(len(sides), pl.Int32).alias("h"), total("points").alias("points"),
            total("bags_taken").alias("bags"),
            pl.sum_horizontal((pl.col(f"bag_penalty_{k}") < 0).cast(pl.Int32)
                              for k in sides).alias("pens"),
            total("bag_penalty").alias("penalty"),
            pl.sum_horizontal((pl.col(f"contract_{k}") != 0).cast(pl.Int32)
                              for k in sides).alias("contracts"),
            pl.sum_horizontal((pl.col(f"contract_{k}") > 0).cast(pl.Int32)
                              for k in sides).alias("made"),
            *[e.alias(n) for n, e in _nil(seats).items()]]


def table_units(res: Results, block: int) -> dict[str, list]:
    """One block of every cell: its hands files and (whole-games runs) its games files."""
    files = res.block_files("hands", block)
    names = {f.name for f in files}
    games = ([f for f in res.block_files("games", block) if f.name in names]
             if res.games_mode else [])
    return {"hands": files, "games": games}


def _of(files, variant: str) -> list:
    """The files of one variant (``part-<variant>-<lineup>[-swapped]-<block>.parquet``)."""
    return [f for f in files if f.name.split("-")[1] == variant]


def _pooled(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` and its rows again as every cell of their variant (lineup "all")."""
    return pl.concat([frame, frame.with_columns(lineup=pl.lit(ALL),
                                                swapped=pl.lit(None, pl.Boolean))])


class TableSums(ClusterPass):
    """The cluster sums of the sections, one block at a time: ``part`` "seat" (``who`` a seat
    or "all") or "side" (``who`` a side or "all"), per cell and per variant over its cells
    (lineup "all")."""

    keys = ["part", "variant", "lineup", "swapped", "who"]

    def __init__(self, res: Results, found: dict[str, Shape]):
        super().__init__(res)
        self.found = found

    def sums(self, units):
        keys = ["variant", "lineup", "swapped", "who"]
        seat_parts, side_parts = [], []
        games_mode = self.res.games_mode
        for v, shape in self.found.items():
            files = _of(units["hands"], v)
            if not files:
                continue
            # one block of the variant's cells in memory, as the simulator held it
            mine = collect(scan_blocks(files, self.res.game))
            for s in range(shape.players):
                seat_parts.append(mine.select(*CELL, CLUSTER, who=pl.lit(str(s)),
                                              **_nil([s])))
            seat_parts.append(mine.select(*CELL, CLUSTER, who=pl.lit(ALL),
                                          **_nil(list(range(shape.players)))))
            for k in range(shape.sides):
                side_parts.append(mine.select(*CELL, CLUSTER, *_side(shape, [k], str(k))))
            side_parts.append(mine.select(*CELL, CLUSTER,
                                          *_side(shape, list(range(shape.sides)), ALL)))
            games = _of(units["games"], v)
            if games_mode and games:
                played = pl.read_parquet(games, columns=["variant", "lineup", "swapped",
                                                         CLUSTER, "n_hands", "winner"])
                played = played.with_columns(pl.col("variant", "lineup").cast(pl.String))
                for k in range(shape.sides):
                    side_parts.append(played.select(
                        *CELL, CLUSTER, who=pl.lit(str(k)), g=pl.lit(1, pl.Int32),
                        won=(pl.col("winner") == k).cast(pl.Int32),
                        length=pl.col("n_hands").cast(pl.Int32)))
                side_parts.append(played.select(
                    *CELL, CLUSTER, who=pl.lit(ALL), g=pl.lit(1, pl.Int32),
                    won=(pl.col("winner") >= 0).cast(pl.Int32),
                    length=pl.col("n_hands").cast(pl.Int32)))
        if not seat_parts:
            return None
        side_names = SIDE_NAMES + (GAME_NAMES if games_mode else [])
        sides = pl.concat(side_parts, how="diagonal_relaxed")
        sides = sides.with_columns(pl.col(n).fill_null(0) if n in sides.columns
                                   else pl.lit(0, pl.Int32).alias(n) for n in side_names)
        seat = cluster_sums(_pooled(pl.concat(seat_parts)), keys, SEAT_NAMES, pairs=SEAT_PAIRS)
        side = cluster_sums(_pooled(sides), keys, side_names,
                            pairs=SIDE_PAIRS + (GAME_PAIRS if games_mode else []))
        return pl.concat([seat.with_columns(part=pl.lit("seat")),
                          side.with_columns(part=pl.lit("side"))],
                         how="diagonal_relaxed").select(*self.keys, pl.exclude(self.keys))


# --- tables -------------------------------------------------------------------------------

def _labels(res: Results, found: dict[str, Shape], part: str) -> pl.DataFrame:
    """Each cell's seats (``part`` "seat") or sides ("side") with their strategies (``A + B``
    when a side's players differ), and the variant's pooled rows (lineup "all": every line-up's
    labels, joined with " / " when they differ)."""
    rows = []
    for c, labels in zip(res.cells, res.strategies.partition_by(
            CELL, maintain_order=True, as_dict=False), strict=True):
        shape = found[c["variant"]]
        seat_label = labels.sort("seat")["strategy"].to_list()
        units = (range(shape.players) if part == "seat" else range(shape.sides))
        for u in units:
            seats = [u] if part == "seat" else shape.members(u)
            label = " + ".join(dict.fromkeys(seat_label[s] for s in seats))
            rows.append({"variant": c["variant"], "lineup": c["lineup"],
                         "swapped": c["swapped"], "who": str(u), "strategy": label})
        rows.append({"variant": c["variant"], "lineup": c["lineup"], "swapped": c["swapped"],
                     "who": ALL, "strategy": " / ".join(dict.fromkeys(seat_label))})
    frame = pl.DataFrame(rows, schema={"variant": pl.String, "lineup": pl.String,
                                       "swapped": pl.Boolean, "who": pl.String,
                                       "strategy": pl.String})
    pooled = (frame.group_by("variant", "who", maintain_order=True)
              .agg(pl.col("strategy").unique(maintain_order=True).str.join(" / "))
              .with_columns(lineup=pl.lit(ALL), swapped=pl.lit(None, pl.Boolean)))
    return pl.concat([frame, pooled.select(frame.columns)])


def _order(res: Results, frame: pl.DataFrame, unit: str) -> pl.DataFrame:
    rank_v = {v: i for i, v in enumerate(res.variants)}
    rank_l = {ALL: -1} | {v: i for i, v in enumerate(res.lineups)}
    return frame.sort(
        pl.col("variant").replace_strict(rank_v, default=len(rank_v), return_dtype=pl.Int32),
        pl.col("lineup").replace_strict(rank_l, default=len(rank_l), return_dtype=pl.Int32),
        "swapped", pl.col(unit) == ALL,
        pl.col(unit).replace(ALL, "-1").cast(pl.Int32), nulls_last=False)


def _nil_rates(frame: pl.DataFrame) -> pl.DataFrame:
    frame = with_share(frame, "nil_bid_rate", "n", "nil")
    frame = with_share(frame, "nil_success", "nil", "nil_made")
    frame = with_share(frame, "blind_bid_rate", "n", "blind")
    return with_share(frame, "blind_success", "blind", "blind_made")


NIL_COLUMNS = ["bids", "nil_bids", "nil_bid_rate", "nil_bid_rate_lo", "nil_bid_rate_hi",
               "nil_made", "nil_success", "nil_success_lo", "nil_success_hi", "blind_bids",
               "blind_bid_rate", "blind_bid_rate_lo", "blind_bid_rate_hi", "blind_made",
               "blind_success", "blind_success_lo", "blind_success_hi"]


def _counts(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.with_columns(
        pl.col("s_n").cast(pl.Int64).alias("bids"), pl.col("s_nil").cast(pl.Int64).alias(
            "nil_bids"), pl.col("s_nil_made").cast(pl.Int64).alias("nil_made"),
        pl.col("s_blind").cast(pl.Int64).alias("blind_bids"),
        pl.col("s_blind_made").cast(pl.Int64).alias("blind_made"))


def _shape_columns(found: dict[str, Shape]) -> pl.DataFrame:
    return pl.DataFrame({"variant": list(found),
                         "table": [s.description for s in found.values()],
                         "players": [s.players for s in found.values()],
                         "sides": [s.sides for s in found.values()]},
                        schema={"variant": pl.String, "table": pl.String,
                                "players": pl.Int64, "sides": pl.Int64})


def _blank(variants: list[str], names: list[str]) -> list[pl.Expr]:
    """The columns ``names`` (with their intervals, where they have them) empty for the
    ``variants``."""
    return [pl.when(pl.col("variant").is_in(variants)).then(None).otherwise(pl.col(c)).alias(c)
            for c in names]


def _no_nil(frame: pl.DataFrame, found: dict[str, Shape]) -> pl.DataFrame:
    """Nil and blind nil left empty where the rules allow none."""
    def cols(prefix):
        return [c for c in NIL_COLUMNS if c.startswith(prefix) and c in frame.columns]
    return frame.with_columns(
        *_blank([v for v, s in found.items() if s.no_nil], cols("nil_")),
        *_blank([v for v, s in found.items() if s.no_blind_nil], cols("blind_")))


def table_seats(res: Results, found: dict[str, Shape], total: pl.DataFrame) -> pl.DataFrame:
    """variant, table, lineup ("all" = the variant's cells), swapped, seat ("all" = every
    seat), strategy: bids (seat-hands with a bid), nil_bids, nil_bid_rate, nil_made,
    nil_success, and the same for blind nil (``blind_*``), with 95% intervals."""
    frame = _counts(_nil_rates(total.filter(part="seat")))
    frame = frame.rename({"who": "seat"}).join(
        _labels(res, found, "seat").rename({"who": "seat"}),
        on=["variant", "lineup", "swapped", "seat"], how="left", nulls_equal=True)
    frame = _no_nil(frame.join(_shape_columns(found).select("variant", "table"), on="variant"),
                    found)
    frame = frame.select("variant", "table", "lineup", "swapped", "seat", "strategy",
                         *NIL_COLUMNS)
    return _order(res, frame, "seat")


def table_sides(res: Results, found: dict[str, Shape], total: pl.DataFrame) -> pl.DataFrame:
    """variant, table, players, sides, lineup ("all" = the variant's cells), swapped, side
    ("all" = every side), seats, strategy: hands, side_hands, points_per_hand (the side's, or
    every side's, points per hand), points_per_side_hand, bags_per_side_hand, bags_per_hand,
    penalties (side-hands with a bag penalty), penalties_per_100 (per 100 side-hands),
    penalty_points_per_side_hand, contracts, contracts_made_rate, the nil columns of
    `table_seats` over the side's seats, and in whole-games runs games, wins, win_rate (of a
    side; for "all" the games with a winner), fair_share (1 / sides) and hands_per_game; each
    estimate with its 95% interval. A rule that counts no bag, or pays no bag penalty,
    leaves those columns empty."""
    frame = total.filter(part="side")
    frame = with_ratio(frame, "points_per_hand", "hands", "points")
    frame = with_ratio(frame, "points_per_side_hand", "h", "points")
    frame = with_ratio(frame, "bags_per_side_hand", "h", "bags")
    frame = with_ratio(frame, "bags_per_hand", "hands", "bags")
    frame = with_share(frame, "penalties_per_100", "h", "pens", scale=100)
    frame = with_ratio(frame, "penalty_points_per_side_hand", "h", "penalty")
    frame = with_share(frame, "contracts_made_rate", "contracts", "made")
    frame = _counts(_nil_rates(frame))
    games = res.games_mode and "s_g" in frame.columns
    if games:
        frame = with_share(frame, "win_rate", "g", "won")
        frame = with_ratio(frame, "hands_per_game", "g", "length")
    frame = frame.with_columns(
        pl.col("s_hands").cast(pl.Int64).alias("hands"),
        pl.col("s_h").cast(pl.Int64).alias("side_hands"),
        pl.col("s_pens").cast(pl.Int64).alias("penalties"),
        pl.col("s_contracts").cast(pl.Int64).alias("contracts"),
        *([pl.col("s_g").cast(pl.Int64).alias("games"),
           pl.col("s_won").cast(pl.Int64).alias("wins")] if games else []))
    frame = frame.rename({"who": "side"}).join(
        _labels(res, found, "side").rename({"who": "side"}),
        on=["variant", "lineup", "swapped", "side"], how="left", nulls_equal=True)
    frame = frame.join(_shape_columns(found), on="variant")
    seats = pl.DataFrame(
        [{"variant": v, "side": str(k), "seats": s.side_name(k)}
         for v, s in found.items() for k in range(s.sides)]
        + [{"variant": v, "side": ALL, "seats": "every seat"} for v in found],
        schema={"variant": pl.String, "side": pl.String, "seats": pl.String})
    frame = frame.join(seats, on=["variant", "side"], how="left")
    frame = _no_nil(frame, found)
    bagless = [v for v, s in found.items() if s.no_bags]
    penaltyless = [v for v, s in found.items() if s.no_penalty]

    def blank(names, variants):
        return [pl.when(pl.col("variant").is_in(variants)).then(None).otherwise(pl.col(c))
                .alias(c) for n in names for c in (n, f"{n}_lo", f"{n}_hi")]
    frame = frame.with_columns(
        *blank(["bags_per_side_hand", "bags_per_hand"], bagless),
        *blank(["penalties_per_100", "penalty_points_per_side_hand"], penaltyless),
        pl.when(pl.col("variant").is_in(penaltyless)).then(None)
        .otherwise(pl.col("penalties")).alias("penalties"))
    est = ["points_per_hand", "points_per_side_hand", "bags_per_side_hand", "bags_per_hand"]
    cols = ["variant", "table", "players", "sides", "lineup", "swapped", "side", "seats",
            "strategy", "hands", "side_hands",
            *[c for n in est for c in (n, f"{n}_lo", f"{n}_hi")], "penalties",
            *[c for n in ("penalties_per_100", "penalty_points_per_side_hand")
              for c in (n, f"{n}_lo", f"{n}_hi")],
            "contracts", "contracts_made_rate", "contracts_made_rate_lo",
            "contracts_made_rate_hi", *NIL_COLUMNS]
    if games:
        frame = frame.with_columns(
            fair_share=pl.when(pl.col("side") == ALL).then(None)
            .otherwise(1 / pl.col("sides")),
            **{c: pl.when(pl.col("side") == ALL).then(None).otherwise(pl.col(c))
               for c in ("win_rate", "win_rate_lo", "win_rate_hi")},
            **{c: pl.when(pl.col("side") == ALL).then(pl.col(c)).otherwise(None)
               for c in ("hands_per_game", "hands_per_game_lo", "hands_per_game_hi")})
        cols += ["games", "wins", "win_rate", "win_rate_lo", "win_rate_hi", "fair_share",
                 "hands_per_game", "hands_per_game_lo", "hands_per_game_hi"]
    return _order(res, drop_cluster_sums(frame).select(cols), "side")


COMPARED = ["nil_bid_rate", "nil_success", "blind_bid_rate", "blind_success",
            "contracts_made_rate", "bags_per_side_hand", "bags_per_hand", "penalties_per_100",
            "points_per_side_hand", "hands_per_game"]


def tables_compared(sides: pl.DataFrame) -> pl.DataFrame:
    """One row per variant (its table), every cell and side pooled: variant, table, players,
    sides, hands, games, and the estimates of `COMPARED` with their intervals."""
    rows = sides.filter(lineup=ALL, side=ALL)
    names = [n for n in COMPARED if n in rows.columns]
    return rows.select("variant", "table", "players", "sides", "hands",
                       *(["games"] if "games" in rows.columns else []),
                       "nil_bids", "blind_bids",
                       *[c for n in names for c in (n, f"{n}_lo", f"{n}_hi")])


# --- findings -----------------------------------------------------------------------------

def _pct(r: dict, name: str) -> str:
    return estimate(r, name, 1, 100, unit="%")


def _extremes(rows: pl.DataFrame, name: str) -> tuple[dict, dict]:
    ordered = rows.sort(name)
    return ordered.row(0, named=True), ordered.row(-1, named=True)


def _findings(res: Results, sides: pl.DataFrame) -> dict[str, list[str]]:
    """Each section's findings, with their 95% intervals."""
    out: dict[str, list[str]] = {"tables_nil": [], "tables_bags": [], "tables_wins": [],
                                 "tables": []}
    pooled = sides.filter(lineup=ALL, side=ALL)
    nil = pooled.filter(pl.col("nil_bids") > 0)
    if nil.height > 1:
        lo, hi = _extremes(nil, "nil_bid_rate")
        out["tables_nil"].append(
            f"Nil is bid least at {lo['variant']} ({lo['table']}): "
            f"{_pct(lo, 'nil_bid_rate')} of bids; most at {hi['variant']} ({hi['table']}): "
            f"{_pct(hi, 'nil_bid_rate')}.")
        lo, hi = _extremes(nil, "nil_success")
        out["tables_nil"].append(
            f"Nil is made least often at {lo['variant']}: {_pct(lo, 'nil_success')} of its "
            f"{lo['nil_bids']:,} bids; most often at {hi['variant']}: "
            f"{_pct(hi, 'nil_success')} of {hi['nil_bids']:,}.")
    elif nil.height == 1:
        r = nil.row(0, named=True)
        out["tables_nil"].append(f"Nil is bid in {_pct(r, 'nil_bid_rate')} of bids and made "
                                 f"in {_pct(r, 'nil_success')} of its {r['nil_bids']:,} bids.")
    bags = pooled.filter(pl.col("bags_per_side_hand").is_not_null())
    if bags.height > 1:
        lo, hi = _extremes(bags, "bags_per_side_hand")
        out["tables_bags"].append(
            f"A side takes from {estimate(lo, 'bags_per_side_hand')} bags a hand "
            f"({lo['variant']}) to {estimate(hi, 'bags_per_side_hand')} ({hi['variant']}).")
    elif bags.height == 1:
        r = bags.row(0, named=True)
        out["tables_bags"].append(f"A side takes {estimate(r, 'bags_per_side_hand')} bags a "
                                  "hand.")
    if "win_rate" in sides.columns:
        each = sides.filter(pl.col("lineup") == ALL, pl.col("side") != ALL)
        off = each.filter((pl.col("win_rate_lo") > pl.col("fair_share"))
                          | (pl.col("win_rate_hi") < pl.col("fair_share")))
        if off.height:
            out["tables_wins"].append(
                f"{off.height} of {each.height} sides' 95% intervals of their share of games "
                "leave out the fair share 1 / sides (by chance alone about 1 in 20 would): "
                + "; ".join(
                    f"{r['variant']} {r['seats']} {_pct(r, 'win_rate')} (fair "
                    f"{100 * r['fair_share']:.1f}%)" for r in off.iter_rows(named=True)) + ".")
        elif each.height:
            out["tables_wins"].append(
                "Every side's 95% interval of its share of games holds the fair share "
                "(1 / sides) at every table.")
        length = pooled.filter(pl.col("hands_per_game").is_not_null())
        if length.height > 1:
            lo, hi = _extremes(length, "hands_per_game")
            out["tables"].append(f"Games last from {estimate(lo, 'hands_per_game', 1)} hands "
                                 f"({lo['variant']}) to {estimate(hi, 'hands_per_game', 1)} "
                                 f"({hi['variant']}).")
    return out


def table_section(res: Results, found: dict[str, Shape] | None = None) -> dict:
    """The tables (``table_seats``, ``table_sides``, ``tables_compared``) and each section's
    findings."""
    found = found or shapes(res)
    sums = TableSums(res, found)
    block_pass(res, [sums], table_units)
    total = sums.total()
    seats = table_seats(res, found, total)
    sides = table_sides(res, found, total)
    tables = {"table_seats": seats, "table_sides": sides,
              "tables_compared": tables_compared(sides)}
    return {"tables": tables, "findings": _findings(res, sides)}
