"""The sums behind the run summary, one block at a time, in numpy alone.

The summary that ``whistlab run`` prints (`reports.summary`) needs, per cell, a few counts and
moments of per-hand values (nil bids made, contracts set, points ...). Each block's are taken
from its tables as the block is written (`whistlab.runner`) and kept in its ``hands`` file's
metadata under ``"summary"``, so that printing the summary reads a few hundred bytes per block
instead of scanning the tables, and the command need not import polars. A block holds whole
games, so the moments of game totals add up over blocks. A file without them (made before they
were kept) has them taken here from its columns (`file_tallies`).

A block's tallies::

    {"n": games (hands in a run of independent hands),
     "moments": {value: [sx, sy, sxx, syy, sxy]},   # x: a game's hands, y: its total of value
     "games": {"n": ..., "hands": ..., "hands2": ..., "none": ..., "won": [...],
               "drawn": ..., "unfinished": ...}}       # from the games table; whole games only

The values of each game are defined in `reports.summary_spades`, `summary_portland` and
`summary_norwegian`, whose module docstrings say what each counts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pyarrow.parquet as pq

from sim import arrow
from sim.games import GAMES

__all__ = ["DECLARATIONS", "add", "block_tallies", "file_tallies", "hand_values"]

Columns = Mapping[str, np.ndarray]


def _count(masks) -> np.ndarray:
    """How many of the boolean arrays ``masks`` hold in each row."""
    return np.sum([np.asarray(m, dtype=np.int32) for m in masks], axis=0, dtype=np.int32)


def _seats(cols: Columns) -> tuple[int, int]:
    """(players, sides): a ``tricks_<seat>`` column per seat, a ``points_<side>`` per side."""
    return (sum(n.startswith("tricks_") for n in cols),
            sum(n.startswith("points_") for n in cols))


def _contract(rules: dict, cols: Columns, seats: list[int], side: int,
              sides: int) -> tuple[np.ndarray, np.ndarray]:
    """(the side had a contract, and made it) in each hand (`reports.summary_spades`)."""
    n = len(cols["hand_no"])
    # a bid of n and a half (half_trick_bids) is worth n + 1/2; 0 and a half is not nil
    bid = {s: cols[f"bid_{s}"].astype(np.float64)
           + cols.get(f"half_{s}", np.zeros(n, bool)).astype(np.float64) / 2 for s in seats}
    tricks = {s: cols[f"tricks_{s}"].astype(np.float64) for s in seats}
    count_nil = rules.get("nil_tricks", "bags_only") == "count"
    contract = sum(np.where(bid[s] > 0, bid[s], 0.0) for s in seats)
    # a nil bidder's tricks help the contract only under nil_tricks = "count"; a partner who
    # did not bid (bid -1: the side's joint bid) counts
    counted = sum(tricks[s] if count_nil else np.where(bid[s] == 0, 0.0, tricks[s])
                  for s in seats)
    if rules.get("exact") == "player":
        made = np.logical_and.reduce([(bid[s] <= 0) | (tricks[s] == bid[s]) for s in seats])
    elif rules.get("highlander"):
        made = np.logical_and.reduce([(bid[s] <= 0) | (tricks[s] >= bid[s]) for s in seats])
    elif rules.get("exact") == "side":
        made = counted == contract
    else:
        made = counted >= contract
    has = contract > 0
    declared = cols.get(f"side_contract_{side}")
    if declared is not None:  # a declared side contract (§4.4): made if it scored
        declared = declared != 0
        has = declared | has
        made = np.where(declared, cols[f"contract_{side}"] > 0, made)
    if rules.get("auction"):  # the declarer's side contracts for 6 + n tricks (§4.4)
        declarer = cols["auction_declarer"].astype(np.int64)
        has = (declarer >= 0) & (declarer % sides == side)
        made = sum(tricks[s] for s in seats) >= 6 + cols["auction_bid"].astype(np.float64)
    return has, has & made


def _spades(rules: dict, cols: Columns) -> dict[str, np.ndarray]:
    players, n_sides = _seats(cols)
    seats = range(players)
    n = len(cols["hand_no"])
    bid = [cols[f"bid_{s}"] for s in seats]
    blind = [cols[f"blind_{s}"] for s in seats]
    half = [cols.get(f"half_{s}", np.zeros(n, bool)) for s in seats]
    zero = [(b == 0) & ~h for b, h in zip(bid, half, strict=True)]  # 0 and a half is no nil
    clean = [cols[f"tricks_{s}"] == 0 for s in seats]
    nil = [z & ~bl for z, bl in zip(zero, blind, strict=True)]
    bnil = [z & bl for z, bl in zip(zero, blind, strict=True)]
    contracts = [_contract(rules, cols, list(range(k, players, n_sides)), k, n_sides)
                 for k in range(n_sides)]
    penalty = [cols[f"bag_penalty_{k}"].astype(np.float64) for k in range(n_sides)]
    return {
        "bids": _count(b >= 0 for b in bid),
        "nil": _count(nil), "nil_made": _count(a & c for a, c in zip(nil, clean, strict=True)),
        "blind": _count(bnil),
        "blind_made": _count(a & c for a, c in zip(bnil, clean, strict=True)),
        "contracts": _count(has for has, _ in contracts),
        "made": _count(made for _, made in contracts),
        "bags": sum(cols[f"bags_taken_{k}"].astype(np.float64) for k in range(n_sides))
        / n_sides,
        "penalties": _count(p < 0 for p in penalty) / n_sides,
        "penalty_points": sum(penalty) / n_sides,
        **{f"points_{k}": cols[f"points_{k}"] for k in range(n_sides)},
    }


def _portland(rules: dict, cols: Columns) -> dict[str, np.ndarray]:
    held = [cols[f"honours_{k}"] for k in (0, 1)]
    scored = (cols["honours_points_0"] > 0) | (cols["honours_points_1"] > 0)
    three_or_four = (held[0] >= 3) | (held[1] >= 3)
    return {"four": (held[0] == 4) | (held[1] == 4),
            "three": (held[0] == 3) | (held[1] == 3),
            "held": three_or_four,
            "scored": three_or_four & scored,
            **{f"points_{k}": cols[f"points_{k}"] for k in (0, 1)},
            **{f"honours_points_{k}": cols[f"honours_points_{k}"] for k in (0, 1)}}


# Norwegian whist's declarations (RULES.md §2) each table can show: (key, contract, forced,
# words); the keys a player can make or fail: grand above the book, misère and a bid nullo at or
# below it (an all-pass nullo has no bidder to make it)
DECLARATIONS = {
    2: [("grand", 1, False, "the non-dealer chose grand"),
        ("misere", 2, False, "the non-dealer chose misère")],
    3: [("grand", 1, False, "a player bid grand"),
        ("forced", 1, True, "all passed and the dealer had to play grand")],
    4: [("grand", 1, False, "grand was bid"),
        ("nullo", 3, False, "nullo was bid"),
        ("passed", 3, True, "all passed and nullo was played")],
}
MADE = {"grand": "grand", "forced": "grand", "misere": "low", "nullo": "low"}


def _norwegian(rules: dict, cols: Columns) -> dict[str, np.ndarray]:
    players, n_sides = _seats(cols)
    book = 8 if players == 3 else 6  # the book: 6 tricks of 13, 8 of 17 with three players
    tricks = np.stack([cols[f"tricks_{s}"] for s in range(players)], axis=1).astype(np.int64)
    if players == 4:  # the classic game: a seat's tricks and its partner's
        tricks = tricks + np.roll(tricks, -2, axis=1)

    def taken(seat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(the tricks of ``seat``'s side, whether there is such a seat: -1 is none)."""
        seat = seat.astype(np.int64)
        there = (seat >= 0) & (seat < players)
        got = np.take_along_axis(tricks, np.where(there, seat, 0)[:, None], axis=1)[:, 0]
        return got, there

    values: dict[str, np.ndarray] = {}
    for key, code, forced, _ in DECLARATIONS[players]:
        chosen = (cols["contract"] == code) & (cols["forced"] == forced)
        values[key] = chosen
        if key in MADE:
            if MADE[key] == "grand":
                got, there = taken(cols["grand_player"])
                made = there & (got > book)
            else:
                got, there = taken(cols["declarer"])
                made = there & (got <= book)
            values[f"{key}_made"] = chosen & made
    values.update({f"points_{k}": cols[f"points_{k}"] for k in range(n_sides)})
    return values


VALUES: dict[str, Callable[[dict, Columns], dict[str, np.ndarray]]] = {
    "spades": _spades, "portland": _portland, "norwegian": _norwegian}


def hand_values(game: str, rules: dict, cols: Columns) -> dict[str, np.ndarray]:
    """The summary's per-hand values of ``game`` (one array per value, a row per hand) from
    the columns of a ``hands`` table, every column there (docs/SCHEMA.md)."""
    return VALUES[game](rules, cols)


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    """``sum(a * b)``, summed by numpy rather than BLAS (whose threads would spin on the
    workers' cores)."""
    return float(np.multiply(a, b).sum())


def _moments(values: dict[str, np.ndarray], game_id: np.ndarray | None) -> dict:
    """``n`` and, per value, the moments of its game totals with the games' hands; every hand
    its own game when ``game_id`` is None (a run of independent hands)."""
    if game_id is None:
        out = {}
        for key, v in values.items():
            v = v.astype(np.float64)
            n = float(v.size)
            sy = float(v.sum())
            out[key] = [n, sy, n, _dot(v, v), sy]
        return {"n": len(next(iter(values.values()))), "moments": out}
    first = int(game_id.min()) if game_id.size else 0
    index = (game_id - first).astype(np.intp)
    x = np.bincount(index).astype(np.float64)
    games = x > 0
    x = x[games]
    out = {}
    for key, v in values.items():
        y = np.bincount(index, weights=v.astype(np.float64), minlength=games.size)[games]
        out[key] = [float(x.sum()), float(y.sum()), _dot(x, x), _dot(y, y), _dot(x, y)]
    return {"n": int(games.sum()), "moments": out}


def _games(cols: Columns, sides: int) -> dict:
    """What the summary counts in a ``games`` table: games, their hands and squares, games
    without a winner, each side's wins, and (Norwegian whist) games drawn and unfinished."""
    hands = cols["n_hands"].astype(np.float64)
    winner = cols["winner"]
    out = {"n": int(hands.size), "hands": float(hands.sum()), "hands2": _dot(hands, hands),
           "none": int((winner < 0).sum()), "won": [int((winner == k).sum()) for k in range(sides)]}
    if "draw" in cols:
        out.update(drawn=int(cols["draw"].sum()), unfinished=int((~cols["finished"]).sum()))
    return out


def block_tallies(game: str, rules: dict, mode: str, hands: Columns,
                  games: Columns | None = None) -> dict:
    """One block's tallies (see the module) from its tables' columns: ``hands`` with every
    column, ``games`` in a run of whole games (``mode == "games"``)."""
    values = hand_values(game, rules, hands)
    out = _moments(values, hands["game_id"] if mode == "games" else None)
    if mode == "games" and games is not None:
        out["games"] = _games(games, _seats(hands)[1])
    return out


def add(a: dict | None, b: dict) -> dict:
    """The tallies of two sets of blocks together (``a`` None: none yet)."""
    if a is None:
        return b
    out = {"n": a["n"] + b["n"],
           "moments": {k: [p + q for p, q in zip(v, b["moments"][k], strict=True)]
                       for k, v in a["moments"].items()}}
    if "games" in a:
        g, h = a["games"], b["games"]
        out["games"] = {k: ([p + q for p, q in zip(v, h[k], strict=True)] if k == "won"
                            else v + h[k]) for k, v in g.items()}
    return out


def file_columns(path, game: str) -> dict[str, np.ndarray]:
    """A block file's columns as numpy, the columns its rules do not bring put back with the
    value they hold (`sim.spades.tables.missing_columns`)."""
    table = pq.read_table(path)
    cols = {name: arrow.values(table.column(name)) for name in table.column_names
            if name not in ("variant", "lineup")}
    for name, value in GAMES[game].missing_columns(table.column_names).items():
        cols[name] = np.full(table.num_rows, value)
    return cols


def file_tallies(hands_path, games_path, game: str, rules: dict, mode: str) -> dict:
    """A block's tallies read from its files (for a file written without them)."""
    games = file_columns(games_path, game) if games_path is not None else None
    return block_tallies(game, rules, mode, file_columns(hands_path, game), games)
