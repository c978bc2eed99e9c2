"""A results folder as the report reads it: the manifest, lazy scans of the Parquet tables, the
seats in long form with their hand features, and the run's blocks one at a time.

Two ways of reading keep memory bounded however many hands a run holds:

* lazy scans (``pl.scan_parquet``) aggregated with ``group_by`` before anything is collected,
  for every statistic of one cell (rates, means, distributions); collected with polars'
  streaming engine;
* block by block, for whatever pairs rows of different cells (the same deal in two variants or
  two seatings) or sums a game's hands: all cells play the same deals block by block (same
  ``block_size``, same ``game_id`` range), so pairing never needs more than one block of every
  cell in memory (about what the simulator held to write it).
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq

from sim.errors import UserError
from sim.folder import JOURNAL, FolderWarning, block_files, describe_code, read_journal, verify_files
from sim.games import GAMES

from .labels import seat_labels

__all__ = ["CELL", "BlockSums", "ClusterPass", "Results", "block_pass", "block_scan", "block_units",
           "check_blocks", "collect", "collect_each", "game_units", "label", "open_results",
           "seat_rows"]

CELL = ["variant", "lineup", "swapped"]
SEATS, SIDES = range(4), range(2)

# Card bits (docs/SCHEMA.md): bit 13 * suit + rank, suits C, D, H, S = 0..3, ranks 2..A = 0..12.
SPADES = ((1 << 13) - 1) << 39                              # bits 39..51
ACES_KINGS = sum(3 << (13 * suit + 11) for suit in range(4))  # ranks K (11) and A (12)
RANKS = "23456789TJQKA"


def collect(frame: pl.LazyFrame) -> pl.DataFrame:
    """Collect an aggregated query with polars' streaming engine (bounded memory)."""
    return frame.collect(engine="streaming")


@dataclass(frozen=True)
class Results:
    """A checked results folder: its manifest and where its tables are."""

    path: Path
    manifest: dict = field(repr=False)
    left_out: str | None = None  # what of the run this report leaves out, and why
    notes: tuple[str, ...] = ()  # what `check_blocks` found doubtful (mixed code, no checksums)

    def only(self, cells: list[dict], why: str) -> Results:
        """The same results restricted to ``cells`` (the others named in ``left_out``)."""
        gone = [c["variant"] for c in self.cells if c not in cells]
        manifest = {**self.manifest, "experiment": {**self.experiment, "cells": cells}}
        left = f"Not in this report: {', '.join(dict.fromkeys(gone))} ({why})."
        return Results(self.path, manifest, left if gone else None, self.notes)

    @property
    def experiment(self) -> dict:
        return self.manifest["experiment"]

    @property
    def game(self) -> str:
        """The game the run played (``spades``, ``portland``): the rules of its first cell."""
        return self.cells[0].get("rules", {}).get("game", "spades")

    @property
    def mode(self) -> str:
        return self.experiment["mode"]

    @property
    def games_mode(self) -> bool:
        return self.mode == "games"

    @property
    def key(self) -> list[str]:
        """What identifies a deal in every cell: a hand, or a whole game (its deals)."""
        return ["game_id"] if self.games_mode else ["game_id", "hand_no"]

    @property
    def cells(self) -> list[dict]:
        return self.experiment["cells"]

    @property
    def variants(self) -> list[str]:
        """Variant names in the experiment's order; the first is the base of comparisons."""
        return list(dict.fromkeys(c["variant"] for c in self.cells))

    @property
    def lineups(self) -> list[str]:
        return list(dict.fromkeys(c["lineup"] for c in self.cells))

    def scan(self, table: str = "hands") -> pl.LazyFrame:
        """Every block of a table of the cells, lazily (`scan_blocks`)."""
        files = [p for c in self.cells
                 for p in sorted((self.path / table).glob(
                     f"part-{self.cell_key(c)}-{'[0-9]' * 5}.parquet"))]  # the cell's blocks
        return scan_blocks(files, self.game)

    @staticmethod
    def cell_key(cell: dict) -> str:
        return f"{cell['variant']}-{cell['lineup']}" + ("-swapped" if cell["swapped"] else "")

    def block_files(self, table: str, block: int) -> list[Path]:
        """The files of one block, one per cell that has finished it."""
        paths = (self.path / table / f"part-{self.cell_key(c)}-{block:05d}.parquet"
                 for c in self.cells)
        return [p for p in paths if p.exists()]

    @cached_property
    def n_blocks(self) -> int:
        """Blocks per cell that the experiment asks for."""
        return -(-self.experiment["count"] // self.experiment["block_size"])

    @cached_property
    def blocks_done(self) -> dict[str, int]:
        """Finished blocks per cell (a run interrupted part way has fewer than `n_blocks`)."""
        return {self.cell_key(c): sum((self.path / "hands" / f"part-{self.cell_key(c)}-{b:05d}"
                                       ".parquet").exists() for b in range(self.n_blocks))
                for c in self.cells}

    @property
    def complete(self) -> bool:
        return all(n == self.n_blocks for n in self.blocks_done.values())

    @cached_property
    def strategies(self) -> pl.DataFrame:
        """Each cell's seats: variant, lineup, swapped, seat, strategy (a short label)."""
        rows = [{"variant": c["variant"], "lineup": c["lineup"], "swapped": c["swapped"],
                 "seat": seat, "strategy": label}
                for c, labels in zip(self.cells, seat_labels(self.cells), strict=True)
                for seat, label in enumerate(labels)]
        return pl.DataFrame(rows, schema={"variant": pl.String, "lineup": pl.String,
                                          "swapped": pl.Boolean, "seat": pl.Int8,
                                          "strategy": pl.String})

    @cached_property
    def sides(self) -> pl.DataFrame:
        """Each cell's sides: variant, lineup, swapped, side, strategy (``A + B`` when the two
        partners play differently)."""
        return (self.strategies.with_columns(side=pl.col("seat") % 2)
                .group_by([*CELL, "side"], maintain_order=True)
                .agg(pl.col("strategy").unique(maintain_order=True).str.join(" + ")))

    def side_label(self, variant: str, lineup: str, swapped: bool, side: int) -> str:
        row = self.sides.filter(variant=variant, lineup=lineup, swapped=swapped, side=side)
        return row["strategy"][0] if row.height else "?"

    @cached_property
    def twins(self) -> list[dict]:
        """Line-ups played both ways round: per line-up, the side-0 team of the unswapped cell
        (its strategy label, the opponents' label) and the side that team holds in the swapped
        cell, read from the manifest's seats (the swap moves every player one seat)."""
        out = []
        for lineup in self.lineups:
            plain = [c for c in self.cells if c["lineup"] == lineup and not c["swapped"]]
            swapped = [c for c in self.cells if c["lineup"] == lineup and c["swapped"]]
            if not plain or not swapped:
                continue

            def team(cell, side):
                return sorted(json.dumps(cell["seats"][s], sort_keys=True) for s in (side,
                                                                                    side + 2))
            ours = team(plain[0], 0)
            sides = [s for s in SIDES if team(swapped[0], s) == ours]
            if not sides:
                continue
            v = plain[0]["variant"]
            out.append({"lineup": lineup, "side_swapped": 1 if 1 in sides else sides[0],
                        "strategy": self.side_label(v, lineup, False, 0),
                        "opponent": self.side_label(v, lineup, False, 1)})
        return out


def _manifest_ok(manifest) -> bool:
    try:
        exp = manifest["experiment"]
        return (exp["mode"] in ("hands", "games") and isinstance(exp["count"], int)
                and isinstance(exp["block_size"], int) and len(exp["cells"]) > 0
                and all({"variant", "lineup", "swapped", "seats"} <= set(c)
                        for c in exp["cells"]))
    except (KeyError, TypeError):
        return False


def open_results(results: str | Path) -> Results:
    """Check that ``results`` is a results folder of ``whistlab run`` and read its manifest."""
    path = Path(results)
    if not path.exists():
        raise UserError("no such results folder", source=str(path))
    if not path.is_dir():
        raise UserError("is a file, not a results folder of `whistlab run`", source=str(path))
    manifest_path = path / "manifest.json"
    if not manifest_path.is_file():
        raise UserError("is not a results folder of `whistlab run` (no manifest.json)",
                        source=str(path))
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        manifest = None
    if not _manifest_ok(manifest):
        raise UserError("is not a whistlab manifest", source=str(manifest_path))
    res = Results(path, manifest)
    if not any((path / "hands").glob("*.parquet")):
        raise UserError("has no hands table yet (hands/*.parquet): no block of the run has "
                        "finished; run it (again) first", source=str(path))
    if res.games_mode and not any((path / "games").glob("*.parquet")):
        raise UserError("is a whole-games run without a games table (games/*.parquet)",
                        source=str(path))
    return res


def check_blocks(res: Results) -> Results:
    """Verify every block file of the folder against its journal (`sim.folder`): a file that is
    damaged, replaced or foreign is a `UserError` naming it. Returns ``res`` with ``notes``,
    each also a `sim.folder.FolderWarning`: blocks made by different code, or a folder from
    before whistlab kept checksums (then each file's Parquet footer is checked instead)."""



    advice = "delete it and run `whistlab run` again to simulate that block anew"
    entries = read_journal(res.path)
    notes = []
    if entries is None:
        for path in block_files(res.path):
            try:
                pq.read_metadata(path)
            except Exception:  # any unreadable footer: not a whole Parquet file
                raise UserError(f"is damaged (not a whole Parquet file); {advice}",
                                source=str(path)) from None
        notes.append(f"The results folder has no {JOURNAL} (a folder made by a whistlab that "
                     "did not keep block checksums): its blocks are not verified.")
    else:
        found = verify_files(res.path, entries, advice=advice)
        codes = {json.dumps(e.get("code"), sort_keys=True): e.get("code")
                 for e in found.values()}
        codes.setdefault(json.dumps(res.manifest.get("code"), sort_keys=True),
                         res.manifest.get("code"))
        if len(codes) > 1:
            notes.append(f"The run's blocks were made by {len(codes)} versions of the code ("
                         + "; ".join(describe_code(c) for c in codes.values())
                         + "): its results mix them.")
    for note in notes:
        warnings.warn(f"{res.path}: {note}", FolderWarning, stacklevel=2)
    return Results(res.path, res.manifest, res.left_out, (*res.notes, *notes))


def seat_rows(res: Results, hands: pl.LazyFrame | None = None) -> pl.LazyFrame:
    """The hands table (``hands``, default every block's) in long form, lazily: one row per seat
    and hand (``seat``, ``side``, ``game_id``),
    with the seat's bid, tricks, partner (seat ^ 2), its side's contract score and the features
    of its dealt cards: spade length, highest spade rank (-1 = none, 0..12 = 2..A), aces and
    kings, bidding position (0 = first to bid, left of the dealer). Strategies are not joined
    here: aggregate by cell and seat first, then `label` the small result."""
    hands = res.scan("hands") if hands is None else hands
    parts = []
    for s in SEATS:
        p = s ^ 2
        parts.append(hands.select(
            *CELL, "game_id", "dealer",
            seat=pl.lit(s, pl.Int8), side=pl.lit(s % 2, pl.Int8),
            bid=pl.col(f"bid_{s}"), blind=pl.col(f"blind_{s}"), tricks=pl.col(f"tricks_{s}"),
            partner_bid=pl.col(f"bid_{p}"), partner_blind=pl.col(f"blind_{p}"),
            partner_tricks=pl.col(f"tricks_{p}"),
            contract=pl.col(f"contract_{s % 2}"),
            hand=pl.col(f"hand_{s}"),
        ))
    spades = pl.col("hand") & pl.lit(SPADES, pl.UInt64)
    return pl.concat(parts).with_columns(
        spade_length=spades.bitwise_count_ones().cast(pl.Int8),
        # bit 63 - leading zeros is the highest set bit; spades start at bit 39
        top_spade=pl.when(spades == 0).then(-1)
        .otherwise(63 - 39 - spades.bitwise_leading_zeros().cast(pl.Int16)).cast(pl.Int8),
        high_cards=(pl.col("hand") & pl.lit(ACES_KINGS, pl.UInt64)).bitwise_count_ones()
        .cast(pl.Int8),
        position=((pl.col("seat").cast(pl.Int16) - pl.col("dealer") - 1) % 4).cast(pl.Int8),
        nil=(pl.col("bid") == 0) & ~pl.col("blind"),
        blind_nil=(pl.col("bid") == 0) & pl.col("blind"),
        made=pl.col("tricks") == 0,
    ).drop("hand")


def label(res: Results, counts: pl.DataFrame, by: str = "seat") -> pl.DataFrame:
    """Give aggregated rows (keyed by the cell and ``seat`` or ``side``) their ``strategy``:
    the seat's, or the side's (``A + B`` when the partners differ)."""
    if by == "seat":
        return counts.join(res.strategies, on=[*CELL, "seat"], how="left")
    return counts.join(res.sides, on=[*CELL, "side"], how="left")


def collect_each(frames: list[pl.LazyFrame]) -> list[pl.DataFrame]:
    """Collect several aggregations of the same scan, each streaming on its own (no shared,
    cached sub-plan: that cache would hold the rows in memory)."""
    return pl.collect_all(frames, engine="streaming",
                          optimizations=pl.QueryOptFlags(comm_subplan_elim=False))


def block_units(res: Results, block: int) -> pl.DataFrame:
    """One block of every cell as the units that pair across cells: hands (hands mode) or games
    (games mode; their hands summed), one row per cell and deal key (`game_units`)."""
    files = res.block_files("hands", block)
    games = None
    if res.games_mode:
        games_files = [f for f in res.block_files("games", block)
                       if f.name in {h.name for h in files}]
        games = pl.scan_parquet(games_files).with_columns(
            pl.col("variant", "lineup").cast(pl.String))
    return game_units(res, scan_blocks(files, res.game), games)


def game_units(res: Results, hands: pl.LazyFrame, games: pl.LazyFrame | None) -> pl.DataFrame:
    """The units that pair across cells from one block's ``hands`` and ``games`` (lazily), one
    row per cell and deal key, with the columns

    hands mode: points_0, points_1, bags (both sides' bags taken, ``bags_taken_<side>``);
    games mode: winner, n_hands, score_0, score_1, bags (the game's bags taken, both sides),
    bag_penalties (hands with a penalty, both sides), penalty_0 / penalty_1 (the sides'
    bag-penalty points, <= 0)."""
    bags = pl.col("bags_taken_0").cast(pl.Int32) + pl.col("bags_taken_1")
    if not res.games_mode:
        return hands.select(*CELL, *res.key, "points_0", "points_1", bags=bags).collect()
    per_game = hands.group_by([*CELL, "game_id"]).agg(
        bags=bags.sum(),
        penalty_0=pl.col("bag_penalty_0").cast(pl.Int32).sum(),
        penalty_1=pl.col("bag_penalty_1").cast(pl.Int32).sum())
    games = games.select(
        "variant", "lineup", "swapped", "game_id", "n_hands", "winner", "score_0", "score_1",
        bag_penalties=pl.col("bag_penalties_0") + pl.col("bag_penalties_1"))
    return games.join(per_game, on=[*CELL, "game_id"], how="inner").collect()


class BlockSums:
    """Counts and moments summed block by block (`block_pass`): ``block(units)`` returns a small
    frame of group keys and additive columns for one block; `total` adds the blocks up."""

    keys: list[str] = []

    def __init__(self, res: Results):
        self.res = res
        self.parts: list[pl.DataFrame] = []

    def block(self, units: pl.DataFrame) -> pl.DataFrame | None:
        raise NotImplementedError

    def add(self, units: pl.DataFrame) -> None:
        part = self.block(units)
        if part is not None and part.height:
            self.parts.append(part)

    def total(self) -> pl.DataFrame | None:
        if not self.parts:
            return None
        return (pl.concat(self.parts).group_by(self.keys, maintain_order=True)
                .agg(pl.exclude(self.keys).sum()))


class ClusterPass(BlockSums):
    """`BlockSums` of one block's rows read lazily (`block_scan`, the units of `block_pass`
    with ``units_of=block_scan``): ``sums(hands)`` turns the block's hands (a LazyFrame) into
    a frame of `frame_stats.cluster_sums` (or anything additive) keyed by ``keys``; a game
    id never spans two blocks, so the blocks' sums add up to the run's."""

    def sums(self, hands: pl.LazyFrame) -> pl.DataFrame | pl.LazyFrame | None:
        raise NotImplementedError

    def block(self, units):
        out = self.sums(units)
        return collect(out) if isinstance(out, pl.LazyFrame) else out

    def total(self) -> pl.DataFrame | None:
        """The blocks' sums added up (a block may lack a part or a column: diagonal)."""
        if not self.parts:
            return None
        return (pl.concat(self.parts, how="diagonal_relaxed")
                .group_by(self.keys, maintain_order=True).agg(pl.exclude(self.keys).sum()))


def block_scan(res: Results, block: int, table: str = "hands") -> pl.LazyFrame:
    """One block of every cell's ``table``, lazily (`scan_blocks`)."""
    return scan_blocks(res.block_files(table, block), res.game)


def block_pass(res: Results, consumers: list[BlockSums], units_of=None) -> None:
    """Feed every finished block's units (``units_of(res, block)``, by default `block_units`)
    to each consumer, one block at a time."""
    if not consumers:
        return
    units_of = units_of or block_units
    for block in range(res.n_blocks):
        if res.block_files("hands", block):
            units = units_of(res, block)
            for consumer in consumers:
                consumer.add(units)


_POLARS = {np.dtype(np.int8): pl.Int8, np.dtype(np.int16): pl.Int16,
           np.dtype(np.uint64): pl.UInt64, np.dtype(np.bool_): pl.Boolean}


def scan_blocks(files, game: str) -> pl.LazyFrame:
    """Block files of one table as one LazyFrame, the labels as plain strings, with every column
    of the game's table: a file whose rules do not bring a column (docs/SCHEMA.md, "written";
    `sim.spades.tables.BROUGHT`) gets it back with the value it holds there. Files of variants
    with other columns stand side by side (a variant's files share its rules)."""
    groups: dict[str, list[Path]] = {}
    for path in map(Path, files):  # part-<variant>-<lineup>[-swapped]-<block>.parquet
        groups.setdefault(path.name.split("-")[1], []).append(path)
    frames = []
    for group in groups.values():
        frame = pl.scan_parquet(group)
        missing = GAMES[game].missing_columns(pq.read_schema(group[0]).names)
        if missing:
            frame = frame.with_columns(pl.lit(value.item(), dtype=_POLARS[value.dtype]).alias(name)
                                       for name, value in missing.items())
        frames.append(frame)
    frame = frames[0] if len(frames) == 1 else pl.concat(frames, how="diagonal")
    return frame.with_columns(pl.col("variant", "lineup").cast(pl.String))
