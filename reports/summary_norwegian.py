"""The run summary of a Norwegian whist cell (RULES.md §2): who won, drew or stopped
unfinished, game length, declarations and contracts made, points a hand, with 95% intervals.

Definitions (docs/SCHEMA.md columns; the book is 6 tricks of 13, 8 of 17 with three players):

* two players: the non-dealer declares grand or misère (``contract`` 1 or 2); grand is made
  when the grand player takes more than the book, misère when the declarer takes the book or
  fewer;
* three players: a player bids grand (``forced`` false) or all pass and the dealer must play
  grand (``forced``); made: the grand player above the book;
* four players (the classic game, partnerships): grand or nullo is bid, or all pass and nullo
  is played (``forced``); grand is made when the bidder's team takes more than six tricks,
  a bid nullo when it takes six or fewer; an all-pass nullo has no bidder;
* games: the share won by each side (a player; a team in the classic game), drawn (the top
  score shared) and stopped unfinished at ``max_hands``; points a hand: ``points_<side>``.
"""

from __future__ import annotations

from .summary_base import (
    DASH,
    FOOT,
    Cell,
    Column,
    cell_text,
    cell_title,
    games_figures,
    lines_table,
    seat_list,
    share,
    side_names,
    with_range,
)
from .tallies import DECLARATIONS

__all__ = ["columns", "heading", "legend", "lines", "shape", "summarize_cell"]

HEADS = {"grand": "grand", "misere": "misère", "forced": "forced", "nullo": "nullo",
         "passed": "passed"}


def _players(cell: Cell) -> int:
    return sum(n.startswith("tricks_") for n in cell.columns("hands"))


def summarize_cell(cell: Cell) -> dict:
    """The figures of one Norwegian cell (see the module's definitions)."""
    players = _players(cell)
    n_sides = 2 if players == 4 else players
    sides = side_names(players, n_sides)
    m = cell.moments()  # the values of the module's definitions (reports.tallies)
    hands = int(m["points_0"].sx)

    def count(key):
        return int(round(m[key].total))

    out = {**cell.head(), "players": players, "sides": sides, "who": cell.who(sides),
           "rules": cell.rules, "hands": hands,
           "declared": {key: share(count(key), hands) for key, *_ in DECLARATIONS[players]},
           "made": {key: share(count(f"{key}_made"), count(key))
                    for key, *_ in DECLARATIONS[players] if f"{key}_made" in m},
           "points": [m[f"points_{k}"].per_hand() for k in range(n_sides)]}
    out.update(games_figures(cell, n_sides))
    return out


# --- text --------------------------------------------------------------------------------


def _same_scores(cell: dict) -> bool:
    """Scoring "both" without partners: every player scores the same every hand (RULES.md §2),
    so no game can be won."""
    return cell["rules"].get("scoring") == "both" and cell["players"] != 4


def lines(cell: dict) -> list[str]:
    """One cell in labelled lines."""
    sides = cell["sides"]
    wide = max(len(s["name"]) for s in sides)
    rows: list[tuple[str, str]] = []
    if cell.get("won"):
        digits = len(f"{cell['games']:,}")
        if not any(e.k for e in cell["won"]):
            why = (': under scoring "both" every player scores the same every hand'
                   if _same_scores(cell) else "")
            rows.append(("Games won", "none" + why))
        else:
            for side, e in zip(sides, cell["won"], strict=True):
                rows.append(("Games won", f"{side['name']:<{wide}}  {e.k:>{digits},} games, "
                             f"{with_range(e, 1, percent=True)}"))
        for key, label in (("drawn", "Drawn"), ("unfinished", "Unfinished")):
            e = cell[key]
            if e.k:
                rows.append((label, f"{e.k:,} games, {with_range(e, 1, percent=True)}" + (
                    f", stopped after {cell['rules'].get('max_hands')} hands"
                    if key == "unfinished" else ", the top score shared")))
        rows.append(("Game length", with_range(cell["length"], 2, "hands")))
    for key, _, _, words in DECLARATIONS[cell["players"]]:
        rows.append(("Declarations", f"{words} in "
                     + with_range(cell["declared"][key], 1, "of hands", percent=True)))
    for key, e in cell["made"].items():
        name = {"grand": "grand", "forced": "grand when forced", "misere": "misère",
                "nullo": "nullo"}[key]
        rows.append(("Contracts made", f"{name}: " + (
            f"{e.n:,} played, {with_range(e, 1, 'made', percent=True)}" if e
            else "none played")))
    for side, e in zip(sides, cell["points"], strict=True):
        rows.append(("Points a hand", f"{side['name']:<{wide}}  {with_range(e, 2, sign=True)}"))
    return [cell_title("Norwegian whist", cell), *lines_table(rows), FOOT]


NUMBERS = {2: "Two players", 3: "Three players", 4: "Four players in two teams"}


def shape(cell: dict) -> tuple[int]:
    return (cell["players"],)


def heading(cell: dict) -> str:
    players = cell["players"]
    if players == 4:
        return f"{NUMBERS[4]}: " + " against ".join(s["name"] for s in cell["sides"])
    return f"{NUMBERS[players]}, each playing for himself (a column per seat: {seat_list(players)})"


def columns(cells: list[dict], run: list[dict] | None = None) -> list[Column]:
    """The columns of the several-cells table for cells of one player count."""
    first = cells[0]
    sides, players = first["sides"], first["players"]
    cols = []
    if first["mode"] == "games":
        cols += [Column("games won %", s["short"],
                        lambda c, k=k: cell_text(c["won"][k], 1, percent=True),
                        lambda c, k=k: c["won"][k], "games won", "points", 1, 100)
                 for k, s in enumerate(sides)]
        cols += [Column("games %", head, lambda c, k=k: cell_text(c[k], 1, percent=True),
                        lambda c, k=k: c[k], f"games {k}", "points", 1, 100)
                 for k, head in (("drawn", "drawn"), ("unfinished", "unfin."))]
        cols.append(Column("hands", "a game", lambda c: cell_text(c["length"], 2),
                           lambda c: c["length"], "hands a game", "", 2))
    cols += [Column("declared %", HEADS[key],
                    lambda c, k=key: cell_text(c["declared"][k], 1, percent=True),
                    lambda c, k=key: c["declared"][k], f"{HEADS[key]} declared", "points", 1, 100)
             for key, *_ in DECLARATIONS[players]]
    cols += [Column("made %", HEADS[key],
                    lambda c, k=key: cell_text(c["made"][k], 1, percent=True),
                    lambda c, k=key: c["made"][k], f"{HEADS[key]} made", "points", 1, 100)
             for key in first["made"]]
    cols += [Column("points a hand", s["short"], lambda c, k=k: cell_text(c["points"][k], 2, sign=True),
                    lambda c, k=k: c["points"][k], "points a hand", "", 2)
             for k, s in enumerate(sides)]
    return cols


def legend(cells: list[dict]) -> str:
    parts = []
    if cells[0]["mode"] == "games":
        drawn = "the top score shared"
        if any(_same_scores(c) for c in cells):
            drawn += ' (always so under scoring "both" without partners: every player scores '
            drawn += "the same)"
        parts.append("games won: the share each player (team in the classic game) won; drawn: "
                     f"{drawn}; unfin.: stopped unfinished at the rules' max_hands; hands a "
                     "game: how many hands a game lasted")
    shown = {c["players"] for c in cells}
    if 2 in shown:
        parts.append("two players: grand or misère as the non-dealer chose it")
    if 3 in shown:
        parts.append("three players: grand bid, or forced on the dealer when all passed")
    if 4 in shown:
        parts.append("four players: grand or nullo bid, or all passed (nullo)")
    parts += ["declared: the share of hands; made: the share of those the declarer made "
              "(grand: more than the book; misère, nullo: the book or fewer)",
              "points a hand: each side's average"]
    if any(c["swapped"] for c in cells):
        parts.append("swapped: the line-up with its sides in each other's seats")
    return "; ".join(parts) + f"; {DASH}: nothing to count."
