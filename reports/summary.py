"""The summary that ``whistlab run`` prints, computed from the Parquet tables alone.

`summarize` reads a results folder into one dict of figures per cell (each an `Estimate` with
its 95% interval, or None where there was nothing to count); `format_summary` writes them in
players' words: one cell as labelled lines, several as a table with one row per cell. The
figures of each game are defined in `summary_spades`, `summary_portland` and
`summary_norwegian`; the estimates and intervals in `summary_base`.
"""

from __future__ import annotations

from pathlib import Path

from . import summary_norwegian, summary_portland, summary_spades
from .summary_base import WIDTH, Estimate, cells_of, table, widest, wrap

__all__ = ["Estimate", "format_summary", "summarize"]

GAMES = {"spades": summary_spades, "portland": summary_portland,
         "norwegian": summary_norwegian}
TITLES = {"spades": "Spades", "portland": "Portland whist", "norwegian": "Norwegian whist"}


def summarize(results: str | Path) -> list[dict]:
    """Per cell of the run (variant, line-up, swapped; in the experiment's order), the figures
    of its game: see the definitions in `summary_spades`, `summary_portland`,
    `summary_norwegian`."""
    return [GAMES[c.rules.get("game", "spades")].summarize_cell(c)
            for c in cells_of(results)]


def format_summary(cells: list[dict]) -> str:
    """One cell in labelled lines; several as a table, one row per cell, under a heading per
    table shape (players and sides), then a legend, each column's widest 95% interval and the
    line-ups."""
    if not cells:
        return "no finished block of hands yet"
    module = GAMES[cells[0]["game"]]
    if len(cells) == 1:
        return "\n".join(module.lines(cells[0]))
    groups: dict[tuple, list[dict]] = {}
    for cell in cells:
        groups.setdefault(module.shape(cell), []).append(cell)
    named = (len({c["variant"] for c in cells}) > 1,
             len({(c["lineup"], c["swapped"]) for c in cells}) > 1)
    out = [_title(cells)]
    every = []
    for group in groups.values():
        if len(groups) > 1:
            out += ["", module.heading(group[0]) + ":"]
        cols = module.columns(group, cells)
        out += table(group, cols, named)
        every.append((group, cols))
    out.append("")
    out += wrap(module.legend(cells))
    spans = widest(every)
    if spans:
        out += wrap(f"The widest 95% confidence interval of each column: {spans}.")
    out += _lineups(cells)
    return "\n".join(out)


def _title(cells: list[dict]) -> str:
    """``Spades: 200 games for each of 6 variants × 3 line-ups``."""
    unit = ("independent hands" if cells[0]["mode"] != "games"
            else "rubbers" if all(c.get("rubber") for c in cells) else "games")
    counts = sorted({c["games"] if cells[0]["mode"] == "games" else c["hands"] for c in cells})
    size = f"{counts[0]:,}" + (f" to {counts[-1]:,}" if len(counts) > 1 else "") + f" {unit}"
    variants = len({c["variant"] for c in cells})
    lineups = len({(c["lineup"], c["swapped"]) for c in cells})
    grid = [f"{variants} variants"] * (variants > 1) + [f"{lineups} line-ups"] * (lineups > 1)
    of = " × ".join(grid) if variants * lineups == len(cells) else f"{len(cells)} cells"
    return f"{TITLES[cells[0]['game']]}: {size} for each of {of}"


def _lineups(cells: list[dict]) -> list[str]:
    """Who played in each line-up that does not put one strategy at every seat."""
    seen: dict[str, str] = {}
    for c in cells:
        if c["swapped"] or not c["who"] or c["who"].endswith("at every seat"):
            continue
        seen.setdefault(c["lineup"], c["who"])
    swapped = {c["lineup"] for c in cells if c["swapped"]}
    out = []
    for name, who in seen.items():
        text = f"Line-up {name}: {who}" + ("; swapped: the same teams in each other's seats"
                                           if name in swapped else "") + "."
        out += wrap(text, WIDTH)
    return out
