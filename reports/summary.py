"""The short summary that ``whistlab run`` prints, computed from the Parquet tables alone."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

__all__ = ["format_summary", "summarize"]


CELL = ["variant", "lineup", "swapped"]


def _scan(results, table: str) -> pl.LazyFrame:
    """A table of a results folder, its labels as plain strings."""
    frame = pl.scan_parquet(Path(results) / table / "*.parquet")
    return frame.with_columns(pl.col("variant", "lineup").cast(pl.String))


def _game(results) -> str:
    manifest = json.loads((Path(results) / "manifest.json").read_text())
    return manifest["experiment"]["cells"][0]["rules"]["game"]


def _games(results, rows: pl.DataFrame) -> pl.DataFrame:
    """The rows with each cell's number of games (0 in a run of independent hands)."""
    folder = Path(results) / "games"
    return _games_of(rows, sorted(folder.glob("*.parquet")) if folder.exists() else None)


def summarize(results: str | Path) -> list[dict]:
    """Per cell of the experiment, the figures of its game (see `summarize_spades`,
    `summarize_portland`)."""
    summaries = {"spades": summarize_spades, "portland": summarize_portland,
                 "norwegian": summarize_norwegian}
    return summaries[_game(results)](results)


def _cell_files(results, table: str, cells: list[dict]) -> list[Path]:
    """The block files of a table for these cells (manifest entries)."""
    folder = Path(results) / table
    keys = [f"{c['variant']}-{c['lineup']}" + ("-swapped" if c["swapped"] else "") for c in cells]
    return [p for k in keys for p in sorted(folder.glob(f"part-{k}-{'[0-9]' * 5}.parquet"))]


def summarize_norwegian(results: str | Path) -> list[dict]:
    """Per cell: hands and games, how often a player chose grand (not forced by an all-pass) and
    how often grand was made (the grand player above the book), mean points per hand of each
    side (player, or partnership in the classic game), and in games how many ended drawn or
    unfinished. Cells with different numbers of players have different columns: each player
    count is read on its own."""
    manifest = json.loads((Path(results) / "manifest.json").read_text())
    by_players: dict[int, list[dict]] = {}
    for cell in manifest["experiment"]["cells"]:
        by_players.setdefault(cell["rules"]["players"], []).append(cell)
    out = []
    for players, cells in by_players.items():
        files = _cell_files(results, "hands", cells)
        if files:
            out += _norwegian_rows(results, players, cells, files)
    return sorted(out, key=lambda row: [row[k] for k in CELL])


def _norwegian_rows(results, players: int, cells: list[dict], files: list[Path]) -> list[dict]:
    sides = 2 if players == 4 else players
    book = 8 if players == 3 else 6  # floor(tricks / 2): 17 tricks with 3 players, else 13

    def taken(s):  # the grand player's tricks; the partnership's in the classic game
        return pl.col(f"tricks_{s}") + (pl.col(f"tricks_{s ^ 2}") if players == 4 else 0)

    grand_tricks = pl.coalesce([pl.when(pl.col("grand_player") == s).then(taken(s))
                                for s in range(players)])
    hands = pl.scan_parquet(files).with_columns(pl.col("variant", "lineup").cast(pl.String))
    rows = hands.group_by(CELL).agg(
        n=pl.len(),
        grand=((pl.col("contract") == 1) & ~pl.col("forced")).mean(),  # 1: GRAND
        made=(grand_tricks > book).sum() / (pl.col("grand_player") >= 0).sum(),
        **{f"points_{s}": pl.col(f"points_{s}").mean() for s in range(sides)},
    ).collect()
    games = _cell_files(results, "games", cells)
    if games:
        ends = pl.scan_parquet(games).with_columns(pl.col("variant", "lineup").cast(pl.String))
        rows = rows.join(ends.group_by(CELL).agg(
            len=pl.len(), draws=pl.col("draw").mean(),
            unfinished=(~pl.col("finished")).mean()).collect(), on=CELL, how="left")
    else:
        rows = rows.with_columns(len=pl.lit(0))
    return [{"game": "norwegian", "players": players, "sides": sides, **row, "hands": row["n"],
             "games": row["len"]} for row in rows.iter_rows(named=True)]


def summarize_portland(results: str | Path) -> list[dict]:
    """Per cell: hands and games, mean points per hand per side (tricks over the book and
    honours), how often a side held all four or three honours."""
    rows = _scan(results, "hands").group_by(CELL).agg(
        n=pl.len(),
        **{f"{part}_{s}": pl.col(f"{part}_{s}").mean()
           for part in ("trick_points", "honours_points", "points") for s in (0, 1)},
        four=((pl.col("honours_0") == 4) | (pl.col("honours_1") == 4)).mean(),
        three=((pl.col("honours_0") == 3) | (pl.col("honours_1") == 3)).mean(),
    ).sort(CELL).collect()
    return [{"game": "portland", **row, "hands": row["n"], "games": row["len"]}
            for row in _games(results, rows).iter_rows(named=True)]


def _by_table(results, table: str) -> dict[tuple[int, int], list[Path]]:
    """The block files of a Spades table grouped by the table of players they hold (RULES.md
    §4.7: seats, sides), which fixes their columns."""
    import pyarrow.parquet as pq

    groups: dict[tuple[int, int], list[Path]] = {}
    for path in sorted((Path(results) / table).glob("*.parquet")):
        names = pq.read_schema(path).names
        shape = (sum(n.startswith("tricks_") for n in names),
                 sum(n.startswith("score_") for n in names))
        groups.setdefault(shape, []).append(path)
    return groups


def summarize_spades(results: str | Path) -> list[dict]:
    """Per cell of the experiment: nil and blind nil bid and success rates (per seat-hand), bags
    per side per hand, bag penalties per side per 100 hands, mean points per side (the first
    two sides'; every side's in ``mean_points``); hands and games (0 in a run of independent
    hands) counted. Cells of different tables (RULES.md §4.7) are read apart."""
    games: dict[int, list[Path]] = {}  # by sides: a games table has a score per side
    if (Path(results) / "games").exists():
        for (_, sides), files in _by_table(results, "games").items():
            games.setdefault(sides, []).extend(files)
    cells = []
    for (players, sides), files in _by_table(results, "hands").items():
        rows = _spades_rows(_labelled(files), players, sides)
        for row in _games_of(rows, games.get(sides)).iter_rows(named=True):
            cells.append(_rates(row, players, sides))
    return sorted(cells, key=lambda c: tuple(c[k] for k in CELL))


def _labelled(files) -> pl.LazyFrame:
    return pl.scan_parquet(files).with_columns(pl.col("variant", "lineup").cast(pl.String))


def _games_of(rows: pl.DataFrame, files) -> pl.DataFrame:
    """The rows with each cell's number of games (0 in a run of independent hands)."""
    if files:
        games = _labelled(files).group_by(CELL).len().collect()
    else:
        games = pl.DataFrame(schema={**rows.select(CELL).schema, "len": pl.UInt32})
    return rows.join(games, on=CELL, how="left").with_columns(pl.col("len").fill_null(0))


def _spades_rows(hands: pl.LazyFrame, players: int, n_sides: int) -> pl.DataFrame:
    seats, sides = range(players), range(n_sides)
    nil = [(pl.col(f"bid_{s}") == 0) & ~pl.col(f"blind_{s}") for s in seats]
    blind = [(pl.col(f"bid_{s}") == 0) & pl.col(f"blind_{s}") for s in seats]
    made = [pl.col(f"tricks_{s}") == 0 for s in seats]

    def total(exprs):
        return pl.sum_horizontal([e.cast(pl.Int64) for e in exprs]).sum()

    rows = hands.group_by(CELL).agg(
        n=pl.len(),
        nil=total(nil),
        nil_made=total([a & b for a, b in zip(nil, made, strict=True)]),
        blind=total(blind),
        blind_made=total([a & b for a, b in zip(blind, made, strict=True)]),
        bags=pl.sum_horizontal([pl.col(f"bags_taken_{s}") for s in sides]).sum(),
        penalty_points=pl.sum_horizontal([pl.col(f"bag_penalty_{s}") for s in sides]).sum(),
        penalties=total([pl.col(f"bag_penalty_{s}") < 0 for s in sides]),
        **{f"points_{s}": pl.col(f"points_{s}").mean() for s in sides},
    ).sort(CELL).collect()
    return rows


def _rates(row: dict, players: int = 4, sides: int = 2) -> dict:
    n = row["n"]
    return {
        "game": "spades",
        **{k: row[k] for k in CELL},
        "hands": n,
        "games": row["len"],
        "players": players,
        "nil_bid_rate": row["nil"] / (players * n),
        "nil_success_rate": row["nil_made"] / row["nil"] if row["nil"] else float("nan"),
        "blind_nil_bid_rate": row["blind"] / (players * n),
        "blind_nil_success_rate": (row["blind_made"] / row["blind"] if row["blind"]
                                   else float("nan")),
        "bags_per_side_hand": row["bags"] / (sides * n),
        "bag_penalties_per_100_side_hands": 100 * row["penalties"] / (sides * n),
        "bag_penalty_points_per_100_side_hands": 100 * row["penalty_points"] / (sides * n),
        "mean_points_side_0": row["points_0"],
        "mean_points_side_1": row["points_1"],
        "mean_points": [row[f"points_{s}"] for s in range(sides)],
    }


def format_summary(cells: list[dict]) -> str:
    """One cell in sentences; several as a table, one row per cell."""
    if cells[0]["game"] == "portland":
        return _format_portland(cells)
    if cells[0]["game"] == "norwegian":
        return _format_norwegian(cells)
    if len(cells) == 1:
        return _format_cell(cells[0])
    wide_v = max(7, *(len(c["variant"]) for c in cells))
    wide_l = max(6, *(len(c["lineup"]) + 4 * c["swapped"] for c in cells))
    head = (f"{'variant':<{wide_v}}  {'lineup':<{wide_l}}  {'hands':>9}  {'nil':>6} {'made':>6}"
            f"  {'blind':>6} {'made':>6}  {'bags':>5} {'pen/100':>7}  {'pts 0':>7} {'pts 1':>7}")
    rows = [head]
    for c in cells:
        lineup = c["lineup"] + (" (s)" if c["swapped"] else "")
        rows.append(
            f"{c['variant']:<{wide_v}}  {lineup:<{wide_l}}  {c['hands']:>9,}"
            f"  {c['nil_bid_rate']:6.1%} {c['nil_success_rate']:6.1%}"
            f"  {c['blind_nil_bid_rate']:6.1%} {c['blind_nil_success_rate']:6.1%}"
            f"  {c['bags_per_side_hand']:5.2f} {c['bag_penalties_per_100_side_hands']:7.2f}"
            f"  {c['mean_points_side_0']:+7.1f} {c['mean_points_side_1']:+7.1f}")
    rows.append("nil, blind: share of seats bidding it and share made; bags per side per hand; "
                "bag penalties per 100 side-hands; mean points per hand of sides 0 and 1 (of "
                "the first two where a table has more); "
                "(s) = sides' seats swapped")
    return "\n".join(rows)


def _format_cell(s: dict) -> str:
    return "\n".join([
        f"hands {s['hands']:,}" + (f"  games {s['games']:,}" if s["games"] else ""),
        f"nil        bid by {s['nil_bid_rate']:7.2%} of seats, made {s['nil_success_rate']:7.2%}",
        f"blind nil  bid by {s['blind_nil_bid_rate']:7.2%} of seats, "
        f"made {s['blind_nil_success_rate']:7.2%}",
        f"bags       {s['bags_per_side_hand']:.3f} per side per hand; "
        f"{s['bag_penalties_per_100_side_hands']:.2f} penalties "
        f"({s['bag_penalty_points_per_100_side_hands']:.1f} points) per 100 side-hands",
        "points     " + ", ".join(f"side {k} {p:+.2f}" for k, p in enumerate(s["mean_points"]))
        + " per hand",
    ])


def _format_portland(cells: list[dict]) -> str:
    rows = [f"{'variant':<18} {'lineup':<14} {'hands':>9} {'games':>7}  {'pts 0':>6} {'pts 1':>6}"
            f"  {'tricks 0':>8} {'tricks 1':>8}  {'honours 0':>9} {'honours 1':>9}"
            f"  {'4 hon':>6} {'3 hon':>6}"]
    for c in cells:
        lineup = c["lineup"] + (" (s)" if c["swapped"] else "")
        rows.append(f"{c['variant']:<18} {lineup:<14} {c['hands']:>9,} {c['games']:>7,}"
                    f"  {c['points_0']:6.3f} {c['points_1']:6.3f}"
                    f"  {c['trick_points_0']:8.3f} {c['trick_points_1']:8.3f}"
                    f"  {c['honours_points_0']:9.3f} {c['honours_points_1']:9.3f}"
                    f"  {c['four']:6.1%} {c['three']:6.1%}")
    rows.append("mean points per hand of sides 0 and 1, in all, from tricks over the book and "
                "from honours; hands in which a side held 4 or 3 honours")
    return "\n".join(rows)


def _format_norwegian(cells: list[dict]) -> str:
    sides = max(c["sides"] for c in cells)
    games = any(c["games"] for c in cells)
    head = (f"{'variant':<20} {'lineup':<14} {'hands':>9} {'games':>7}  {'grand':>6} {'made':>6}"
            f"  " + " ".join(f"{f'pts {s}':>6}" for s in range(sides))
            + (f"  {'drawn':>6} {'unfin.':>6}" if games else ""))
    rows = [head]
    for c in cells:
        lineup = c["lineup"] + (" (s)" if c["swapped"] else "")
        pts = " ".join(f"{c[f'points_{s}']:+6.2f}" if f"points_{s}" in c and c[f"points_{s}"]
                       is not None else f"{'':>6}" for s in range(sides))
        row = (f"{c['variant']:<20} {lineup:<14} {c['hands']:>9,} {c['games']:>7,}"
               f"  {c['grand']:6.1%} {c['made']:6.1%}  {pts}")
        if games:
            row += f"  {c.get('draws') or 0:6.1%} {c.get('unfinished') or 0:6.1%}"
        rows.append(row)
    rows.append("grand: hands in which a player chose grand (the 2-player non-dealer's other "
                "choice is misère; an all-pass grand or nullo is not chosen); made: the grand "
                "player (side) above the book, chosen or forced; mean points per hand of each "
                "side (player; partnership in the classic game); games drawn (a shared top "
                "score: always so under scoring \"both\", where every player scores the same) "
                "and stopped unfinished at max_hands")
    return "\n".join(rows)
