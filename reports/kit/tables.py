"""A report's tables as a person reads them: a `View` picks a table's rows and columns and
formats them (`reports.kit.cells`); `shown` turns it into a `Table`, the value the page
templates lay out.

A long table is shortened to what matters (the view's ``top`` rows, else its first ``LIMIT``)
with the whole table one click away (a collapsed ``<details>`` block) and its CSV linked.
Columns whose every cell is a number (an estimate with its interval, a count, a share) are
right-aligned; a text column with the same value in every row is said once above the table;
a table of many intervals puts each under its estimate, so that it fits the page."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import polars as pl

from .cells import Cell

__all__ = ["LIMIT", "Column", "Table", "View", "clearest", "markdown_table", "shown"]

LIMIT = 12  # rows shown before the fold
STACKED = 3  # columns with intervals from which a table puts each under its estimate
NUMBER = re.compile(r"^[+\-−]?\[?[+\-−]?\d[\d,.]*")
INTERVAL = re.compile(r"\d \[")


@dataclass
class View:
    """Some rows and columns of a table, formatted. ``rows`` picks the rows (all of them
    by default); ``top`` the ones that matter when there are more than `LIMIT` (the first
    `LIMIT` by default); ``folded``: the whole table collapsed; ``markdown``: also in
    summary.md."""

    section: str
    table: str
    title: str
    columns: list[tuple[str, Cell]]
    rows: Callable[[pl.DataFrame], pl.DataFrame] = lambda f: f
    markdown: bool = True
    folded: bool = False
    note: str = ""
    top: Callable[[pl.DataFrame], pl.DataFrame] | None = None


@dataclass
class Column:
    name: str
    numeric: bool


@dataclass
class Table:
    """A table laid out: its columns, every row's cells as text, the rows shown before the
    fold (``head``; all of them when it is None) and the CSV it comes from."""

    key: str
    title: str
    note: str
    columns: list[Column]
    rows: list[list[str]]
    head: list[list[str]] | None
    csv: str
    folded: bool
    markdown: bool
    constant: list[tuple[str, str]] = field(default_factory=list)
    """Text columns with one value in every row, said once above the table, not repeated."""
    stacked: bool = False
    """Intervals under their estimates (a table of many intervals, to fit the page)."""

    def split(self, value: str) -> tuple[str, str]:
        """An estimate and its interval, or its count in brackets ("", when it has none)."""
        at = value.find(" [")
        at = value.find(" (") if at < 0 else at
        return (value, "") if at < 0 else (value[:at], value[at + 1:])


def clearest(frame: pl.DataFrame, column: str = "diff") -> pl.DataFrame:
    """A ``top`` for tables of differences: the rows whose difference is largest against its
    interval's width (the clearest), first."""
    width = pl.col(f"{column}_hi") - pl.col(f"{column}_lo")
    return (frame.with_columns(_z=(pl.col(column) / width).abs())
            .filter(pl.col("_z").is_finite())  # no interval (one deal), or no difference
            .sort("_z", descending=True).drop("_z").head(LIMIT))


def _numeric(values: list[str]) -> bool:
    shown = [v for v in values if v not in ("", "–")]
    return bool(shown) and all(NUMBER.match(v) for v in shown)


def _cells(view: View, frame: pl.DataFrame) -> list[list[str]]:
    return [[fmt(r) for _, fmt in view.columns] for r in frame.iter_rows(named=True)]


def shown(view: View, tables: dict[str, pl.DataFrame], key: str) -> Table | None:
    """The view laid out from its table in ``tables``; None when the table is missing or
    the view keeps none of its rows."""
    frame = tables.get(view.table)
    if frame is None:
        return None
    rows = view.rows(frame)
    if not rows.height:
        return None
    body = _cells(view, rows)
    head = None
    if len(body) > LIMIT and not view.folded:
        top = view.top(rows) if view.top is not None else rows
        head = _cells(view, top.head(LIMIT))
    columns = [Column(name, _numeric([line[i] for line in body]))
               for i, (name, _) in enumerate(view.columns)]
    same = [i for i, c in enumerate(columns) if len(body) > 1 and not c.numeric
            and len({line[i] for line in body}) == 1]
    constant = [(columns[i].name, body[0][i]) for i in same]

    def keep(lines):
        return None if lines is None else [[v for i, v in enumerate(line) if i not in same]
                                           for line in lines]
    columns = [c for i, c in enumerate(columns) if i not in same]
    body = keep(body)
    stacked = sum(any(INTERVAL.search(line[i]) for line in body)
                  for i in range(len(columns))) >= STACKED
    return Table(key, view.title, view.note, columns, body, keep(head),
                 f"tables/{view.table}.csv", view.folded, view.markdown, constant, stacked)


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A GitHub-flavoured Markdown table."""
    def line(cells):
        return "| " + " | ".join(c.replace("|", "/") for c in cells) + " |"
    return "\n".join([line(header), line(["---"] * len(header)), *map(line, rows)])
