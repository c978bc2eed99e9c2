"""What every game's run summary shares: one cell's tallies, the estimates with their 95%
intervals, the names of the seats and sides, and the plain-text layout (`reports.summary`).

Estimates, from the counts and moments that each block's tallies hold (`reports.tallies`:
taken as the block is written and kept in its file's metadata, so the summary reads no table
and imports no polars; `reports.stats` turns them into intervals):

* shares (games won, nil made, contracts set ...): ``k`` of ``n`` with the Wilson interval
  (`stats.proportion_ci`); per-hand shares count each hand (seat, side) as an independent
  trial (the block tallies keep counts, not each game's; the report's tables cluster them by
  game id);
* a figure per game (hands a game, bags a game): the t interval of the mean over games
  (`stats.mean_ci`);
* a figure per hand in a whole-games run (points a hand): the ratio of two sums with the game as
  cluster, since a game's hands are not independent (`stats.ratio_ci`); in a run of independent
  hands every hand is its own game, and the same interval is the t interval over hands.
"""

from __future__ import annotations

import json
import math
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from sim.games import GAMES

from .labels import seat_labels
from .stats import mean_ci, proportion_ci, ratio_ci
from .tallies import add, file_tallies

__all__ = ["DASH", "FOOT", "WIDTH", "Cell", "Column", "Estimate", "Moments", "cell_text",
           "cell_title", "cells_of", "games_figures", "lines_table", "number", "pct",
           "seat_list", "share", "side_names", "table", "widest", "with_range", "wrap"]

WIDTH = 110  # the summary's lines stay within this many columns where the names allow
DASH = "–"   # en dash: ranges (49.0–50.3) and a figure with nothing to count


@dataclass(frozen=True)
class Estimate:
    """A figure and its 95% interval; ``k`` of ``n`` for a share."""

    value: float
    lo: float
    hi: float
    k: int | None = None
    n: int | None = None

    @property
    def half(self) -> float:
        """The larger distance from the figure to an end of its interval."""
        return max(self.value - self.lo, self.hi - self.value)


def share(k, n) -> Estimate | None:
    """``k`` of ``n`` with its Wilson interval; None when there is nothing to count."""
    k, n = int(k), int(n)
    if n <= 0:
        return None
    value, lo, hi = proportion_ci(k, n)
    return Estimate(value, lo, hi, k, n)


def _estimate(value, lo, hi) -> Estimate | None:
    value, lo, hi = (float(np.asarray(a)) for a in (value, lo, hi))
    if not math.isfinite(value):
        return None
    if not (math.isfinite(lo) and math.isfinite(hi)):  # one game: a figure without interval
        lo = hi = value
    return Estimate(value, lo, hi)


@dataclass(frozen=True)
class Moments:
    """Per-game totals ``y`` of a per-hand value and the hands ``x`` of each game, summed over
    the ``n`` games: ``sx``, ``sy``, ``sxx``, ``syy``, ``sxy``."""

    n: int
    sx: float
    sy: float
    sxx: float
    syy: float
    sxy: float

    @property
    def total(self) -> float:
        return self.sy

    def per_hand(self) -> Estimate | None:
        """The value's mean per hand, ``sum y / sum x``, the game as cluster."""
        return _estimate(*ratio_ci(self.n, self.sx, self.sy, self.sxx, self.syy, self.sxy))

    def per_game(self) -> Estimate | None:
        """The mean of the game totals ``y``."""
        if self.n <= 0:
            return None
        mean = self.sy / self.n
        var = max(self.syy - self.sy * mean, 0.0) / (self.n - 1) if self.n > 1 else math.nan
        return _estimate(mean, *mean_ci(self.n, mean, var))


def games_figures(cell: Cell, sides: int) -> dict:
    """From the games table's tallies: ``games``, the share each side won (``won``), games
    without a winner (``no_winner``; Norwegian whist: ``drawn`` and ``unfinished``) and hands a
    game (``length``); empty in a run of independent hands."""
    games = cell.tallies().get("games")
    if cell.mode != "games" or games is None:
        return {"games": 0}
    n = games["n"]
    out = {"games": n, "won": [share(k, n) for k in games["won"]],
           "no_winner": share(games["none"], n) if games["none"] else None,
           "length": Moments(n, n, games["hands"], n, games["hands2"], games["hands"]).per_game()}
    out.update({k: share(games[k], n) for k in ("drawn", "unfinished") if k in games})
    return out


# --- seats and sides ---------------------------------------------------------------------

COMPASS = {(0, 2): ("North–South", "N–S"), (1, 3): ("East–West", "E–W")}


def seat_list(players: int) -> str:
    """``0, 1 and 2``."""
    return ", ".join(map(str, range(players - 1))) + f" and {players - 1}"


def _seats(seats: list[int]) -> str:
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


def side_names(players: int, sides: int, dummy: bool = False) -> list[dict]:
    """Each side's seats and names: seat ``s`` plays for side ``s mod sides`` (RULES.md §0 and
    §4.7; `sim.spades.table.Table`). Four players in two partnerships are North–South (seats 0
    and 2) and East–West (seats 1 and 3), as OpenSpiel numbers the seats from North; other
    sides are named by their seats. ``name`` is the full name, ``short`` a column heading."""
    out = []
    for k in range(sides):
        seats = list(range(k, players, sides))
        if players == 4 and sides == 2:
            name, short = COMPASS[tuple(seats)]
            if dummy and k == 1:  # Portland dummy whist: seat 1 plays seat 3's dummy hand
                name += " (seat 1 with the dummy at seat 3)"
            else:
                name += f" ({_seats(seats)})"
        else:
            name = _seats(seats)
            short = "+".join(map(str, seats))
        out.append({"seats": seats, "name": name, "short": short})
    return out


# --- one cell ----------------------------------------------------------------------------

@dataclass
class Cell:
    """One cell of a results folder (a variant played by a line-up, maybe swapped): its
    manifest entry and the block files of its tables."""

    path: Path
    mode: str            # "games" or "hands" (a run of independent hands)
    spec: dict           # the manifest's cell: variant, lineup, swapped, rules, seats
    strategies: list[str] = field(default_factory=list)  # a short label per seat
    _tallies: dict | None = field(default=None, repr=False)

    @property
    def key(self) -> str:
        c = self.spec
        return f"{c['variant']}-{c['lineup']}" + ("-swapped" if c["swapped"] else "")

    @property
    def rules(self) -> dict:
        return self.spec["rules"]

    def files(self, table: str) -> list[Path]:
        return sorted((self.path / table).glob(f"part-{self.key}-{'[0-9]' * 5}.parquet"))

    @property
    def game(self) -> str:
        return self.rules.get("game", "spades")

    def columns(self, table: str) -> list[str]:
        """The table's columns, those its rules do not bring included (docs/SCHEMA.md)."""
        files = self.files(table)
        if not files:
            return []
        names = pq.read_schema(files[0]).names
        return names + list(GAMES[self.game].missing_columns(names))

    def tallies(self) -> dict:
        """The cell's tallies (`reports.tallies`): each block's, from its ``hands`` file's
        metadata (taken from its tables when the file has none), added up."""
        if self._tallies is None:
            total = None
            for hands in self.files("hands"):
                meta = json.loads(pq.read_schema(hands).metadata[b"whistlab"])
                block = meta.get("summary")
                if block is None:  # written before the tallies were kept
                    games = hands.parent.parent / "games" / hands.name
                    block = file_tallies(hands, games if self.mode == "games" else None,
                                         self.game, self.rules, self.mode)
                total = add(total, block)
            self._tallies = total or {"n": 0, "moments": {}}
        return self._tallies

    def moments(self) -> dict[str, Moments]:
        """Each summary value's moments over the cell's games (`reports.tallies`)."""
        t = self.tallies()
        return {k: Moments(t["n"], *v) for k, v in t["moments"].items()}

    def head(self) -> dict:
        c = self.spec
        return {"game": self.game, "variant": c["variant"],
                "lineup": c["lineup"], "swapped": c["swapped"], "mode": self.mode}

    def who(self, sides: list[dict]) -> str:
        """Who played: "seed at every seat", or each side's strategies ("" if unknown)."""
        if not self.strategies:
            return ""
        if len(set(self.strategies)) == 1:
            return f"{self.strategies[0]} at every seat"
        parts = []
        for side in sides:
            labels = list(dict.fromkeys(self.strategies[s] for s in side["seats"]
                                        if s < len(self.strategies)))
            parts.append(f"{side['name']} {' + '.join(labels)}")
        return "; ".join(parts)


def cells_of(results: str | Path) -> list[Cell]:
    """The cells of a results folder with a finished block of hands, in the manifest's order."""
    path = Path(results)
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    experiment = manifest["experiment"]
    try:  # strategy labels are a nicety: a manifest without seats still reads
        labels = seat_labels(experiment["cells"])
    except Exception:
        labels = [[] for _ in experiment["cells"]]
    cells = [Cell(path, experiment.get("mode", "games"), spec, seats)
             for spec, seats in zip(experiment["cells"], labels, strict=True)]
    return [c for c in cells if c.files("hands")]


# --- text --------------------------------------------------------------------------------

def pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}"


def number(x: float, digits: int, sign: bool = False) -> str:
    if round(x, digits) == 0:
        x, sign = 0.0, False  # no "-0.00", no "+0.00"
    text = f"{x:+,.{digits}f}" if sign else f"{x:,.{digits}f}"
    return text.replace("-", "−")  # a minus sign, not a hyphen


def with_range(e: Estimate, digits: int, unit: str = "", percent: bool = False,
               sign: bool = False) -> str:
    """A figure, its unit and its 95% interval: ``49.6% (49.0–50.3%)``, ``9.15 hands
    (8.60–9.70)``, ``+31.8 (+27.4 to +36.2)``."""
    unit = f" {unit}" if unit else ""
    scale = 100 if percent else 1
    for _ in range(2):  # up to two more decimals, until the interval shows round the figure
        shown = [round(x * scale, digits) for x in (e.lo, e.value, e.hi)]
        if not ((shown[0] == shown[1] and e.lo < e.value)
                or (shown[2] == shown[1] and e.hi > e.value)):
            break
        digits += 1
    if percent:
        return (f"{pct(e.value, digits)}%{unit} ({pct(e.lo, digits)}{DASH}"
                f"{pct(e.hi, digits)}%)")
    if sign:
        return (f"{number(e.value, digits, True)}{unit} ({number(e.lo, digits, True)} to "
                f"{number(e.hi, digits, True)})")
    return (f"{number(e.value, digits)}{unit} ({number(e.lo, digits)}{DASH}"
            f"{number(e.hi, digits)})")


FOOT = "In brackets: 95% confidence intervals."


def cell_title(game: str, cell: dict, unit: str = "game") -> str:
    """``Spades (spades.standard), seed at every seat: 25,000 games, 222,893 hands``: the
    game, the variant, who played (the line-up's name when its seats differ) and how much."""
    who = cell["who"]
    if cell["swapped"] or not who.endswith("at every seat"):
        who = f"line-up {cell['lineup']}" + (" swapped" if cell["swapped"] else "") + (
            f" ({who})" if who else "")
    if cell["mode"] == "games":
        size = f"{cell['games']:,} {unit}s, {cell['hands']:,} hands"
    else:
        size = f"{cell['hands']:,} hands, each dealt afresh from no score"
    return f"{game} ({cell['variant']}), {who}: {size}"


def lines_table(rows: list[tuple[str, str]]) -> list[str]:
    """Labelled lines: the labels in one column, a label shown once for its run of lines."""
    wide = max(len(label) for label, _ in rows) + 2
    out, last = [], None
    for label, text in rows:
        out.append(f"{'' if label == last else label:<{wide}}{text}".rstrip())
        last = label
    return out


def wrap(text: str, width: int = WIDTH) -> list[str]:
    return textwrap.wrap(text, width, break_on_hyphens=False)


@dataclass(frozen=True)
class Column:
    """A column of the several-cells table: its heading (``group`` above ``head``; neighbouring
    columns of one group share it), what it shows (``cell -> text``), and for the line of
    widest intervals the estimate behind it (``cell -> Estimate``, or None), the name it has
    there (``key``; columns of one key share an entry), its unit and decimals and the scale
    from the estimate to the text (100 for shares shown in %)."""

    group: str
    head: str
    text: Callable[[dict], str]
    interval: Callable[[dict], Estimate | None] | None = None
    key: str = ""
    unit: str = ""
    digits: int = 1
    scale: float = 1.0


def _name(cell: dict) -> tuple[str, str]:
    return cell["variant"], cell["lineup"] + (" swapped" if cell["swapped"] else "")


def table(cells: list[dict], columns: list[Column], named: tuple[bool, bool]) -> list[str]:
    """One row per cell: its name (``named``: whether the variant, the line-up are shown),
    then the columns, right-aligned under two heading lines (a group's heading centred over
    its columns). When variant and line-up side by side would make the rows wider than
    `WIDTH`, each variant gets a line of its own and its line-ups' rows are indented under it."""
    texts = [[col.text(c) for col in columns] for c in cells]
    widths = [max(len(col.head), *(len(t[j]) for t in texts)) for j, col in enumerate(columns)]
    runs: list[tuple[str, list[int]]] = []
    for j, col in enumerate(columns):
        if runs and runs[-1][0] == col.group:
            runs[-1][1].append(j)
        else:
            runs.append((col.group, [j]))
    for group, idx in runs:  # widen a run's first column to fit its group's heading
        short = len(group) - (sum(widths[j] for j in idx) + len(idx) - 1)
        if short > 0:
            widths[idx[0]] += short
    body = sum(sum(widths[j] for j in idx) + len(idx) - 1 + 2 for _, idx in runs)
    names = [_name(c) for c in cells]
    shown = [n for n, show in zip(zip(*names, strict=True), named, strict=True) if show]
    heads = [h for h, show in zip(("variant", "line-up"), named, strict=True) if show]
    lead = [max(len(h), *(len(x) for x in col)) for h, col in zip(heads, shown, strict=True)]
    nested = all(named) and sum(lead) + 2 + body > WIDTH
    if nested:  # the variant on a line of its own, above its line-ups
        lead = [max(len("variant"), 2 + max(len(n[1]) for n in names))]
        heads = ["variant", "  line-up"]
    top = [f"{heads[0]:<{lead[0]}}" if nested else " " * sum(lead) + "  " * (len(lead) - 1)]
    bottom = [f"{heads[-1]:<{lead[0]}}"] if nested else [
        "  ".join(f"{h:<{w}}" for h, w in zip(heads, lead, strict=True))]
    for group, idx in runs:
        wide = sum(widths[j] for j in idx) + len(idx) - 1
        top.append(f"{group:^{wide}}")
        bottom.append(" ".join(f"{columns[j].head:>{widths[j]}}" for j in idx))
    out = ["  ".join(top).rstrip(), "  ".join(bottom).rstrip()]
    variant = None
    for name, row in zip(names, texts, strict=True):
        if nested:
            if name[0] != variant:
                out.append(name[0])
                variant = name[0]
            first = [f"{'  ' + name[1]:<{lead[0]}}"]
        else:
            first = ["  ".join(f"{x:<{w}}" for x, w, show in zip(
                name, lead if all(named) else lead * 2, named, strict=False) if show)]
        parts = first + [" ".join(f"{row[j]:>{widths[j]}}" for j in idx) for _, idx in runs]
        out.append("  ".join(parts).rstrip())
    return out


def widest(groups: list[tuple[list[dict], list[Column]]]) -> str:
    """The widest 95% interval of each kind of column over the tables, as ``key ±x unit``."""
    top: dict[str, tuple[float, Column]] = {}
    for cells, columns in groups:
        for col in columns:
            if col.interval is None:
                continue
            for c in cells:
                e = col.interval(c)
                if e is not None and e.half * col.scale >= top.get(col.key, (-1.0,))[0]:
                    top[col.key] = (e.half * col.scale, col)
    return "; ".join(f"{key} ±{number(half, col.digits)}" + (f" {col.unit}" if col.unit else "")
                     for key, (half, col) in top.items())


def cell_text(e: Estimate | None, digits: int = 1, percent: bool = False,
              sign: bool = False) -> str:
    """A table entry: the figure alone (its interval is in the widest-interval line), or a
    dash when there was nothing to count."""
    if e is None:
        return DASH
    return pct(e.value, digits) if percent else number(e.value, digits, sign)
