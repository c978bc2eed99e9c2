"""How a table's cells read: formatters from a row (a dict) to the text of one cell.

Every formatter returns "–" for a missing value (None or NaN), so a table never shows "nan".
Intervals are written after the estimate in brackets, 95% as everywhere in the reports."""

from __future__ import annotations

import math
from collections.abc import Callable

__all__ = ["Cell", "by_metric", "cell", "count", "estimate", "interval", "missing", "num", "pct",
           "text"]

Cell = Callable[[dict], str]


def missing(x) -> bool:
    """Whether ``x`` is a value a table cannot show (None or NaN)."""
    return x is None or (isinstance(x, float) and math.isnan(x))


def pct(name: str, digits: int = 1, sign: bool = False) -> Cell:
    """A share as a percentage (a difference of shares, ``sign``: in percentage points) with
    its interval; one more digit when the interval is under five units of the last digit."""
    def fmt(r):
        if missing(r[name]):
            return "–"
        lo, hi = r.get(f"{name}_lo"), r.get(f"{name}_hi")
        narrow = not missing(lo) and not missing(hi) and 100 * (hi - lo) < 5 * 10 ** -digits
        f = f"{{:{'+' if sign else ''}.{digits + narrow}f}}"
        out = f.format(100 * r[name]) + (" pp" if sign else "%")
        if missing(lo) or missing(hi):
            return out
        return f"{out} [{f.format(100 * lo)}, {f.format(100 * hi)}]"
    return fmt


def num(name: str, digits: int = 2, lo: str | None = None, hi: str | None = None,
        sign: bool = False) -> Cell:
    """A number with its interval (columns ``name_lo``/``name_hi`` unless given)."""
    lo, hi = lo or f"{name}_lo", hi or f"{name}_hi"
    f = f"{{:{'+' if sign else ''}.{digits}f}}"

    def fmt(r):
        if missing(r[name]):
            return "–"
        if missing(r.get(lo)) or missing(r.get(hi)):
            return f.format(r[name])
        return f"{f.format(r[name])} [{f.format(r[lo])}, {f.format(r[hi])}]"
    return fmt


def interval(lo: str, hi: str, digits: int = 2, scale: float = 1.0, unit: str = "") -> Cell:
    """An interval alone; signed, or as percentages (``unit="%"``, ``scale=100``)."""
    def fmt(r):
        if missing(r[lo]) or missing(r[hi]):
            return "–"
        f = f"{{:{'' if unit else '+'}.{digits}f}}"
        return f"[{f.format(scale * r[lo])}, {f.format(scale * r[hi])}]{unit}"
    return fmt


def by_metric(percent: Cell, number: Cell, shares: tuple[str, ...] = ("win", "win_0")) -> Cell:
    """Shares (win rates) as percentages, other metrics as numbers."""
    return lambda r: percent(r) if r["metric"] in shares else number(r)


def count(name: str) -> Cell:
    return lambda r: "–" if missing(r[name]) else f"{int(r[name]):,}"


def text(name: str) -> Cell:
    return lambda r: "" if r[name] is None else str(r[name])


def cell(r: dict) -> str:
    """A cell's line-up, "(swapped)" where its sides' seats were exchanged."""
    return r["lineup"] + (" (swapped)" if r.get("swapped") else "")


def estimate(r: dict, name: str, digits: int = 2, scale: float = 1.0, sign: bool = False,
             unit: str = "") -> str:
    """``r[name]`` with its interval in a sentence: "74.6% [74.3, 74.9]"."""
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    v, lo, hi = (scale * r[k] for k in (name, f"{name}_lo", f"{name}_hi"))
    return f"{f.format(v)}{unit} [{f.format(lo)}, {f.format(hi)}]"
