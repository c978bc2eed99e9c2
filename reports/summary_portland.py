"""The run summary of a Portland whist cell (RULES.md §1): who won, game length, honours held
and scored, points a hand, each with its 95% interval.

Definitions (docs/SCHEMA.md columns):

* games won: the games table's ``winner``; under ``rubber`` a row is a rubber;
* honours held: hands in which one team held all four of A K Q J of trump (``honours_<side>
  = 4``), or three; none under ``trump = "none"``;
* honours scored (``honours = true``): of the hands in which a team held three or four, the
  share in which honours points were scored (``honours_points_<side> > 0``; not when tricks
  had already ended the game under ``honours_order = "tricks_first"``, nor at
  ``honours_barred_at``); and the honours points a hand of each team;
* points a hand: ``points_<side>`` (tricks over the book and honours).
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
    share,
    side_names,
    with_range,
)

__all__ = ["columns", "heading", "legend", "lines", "shape", "summarize_cell"]


def summarize_cell(cell: Cell) -> dict:
    """The figures of one Portland cell (see the module's definitions)."""
    rules = cell.rules
    sides = side_names(4, 2, dummy=bool(rules.get("dummy")))
    m = cell.moments()  # the values of the module's definitions (reports.tallies)
    hands = int(m["four"].sx)

    def count(key):
        return int(round(m[key].total))

    no_trump = rules.get("trump") == "none"
    honours = rules.get("honours", False) and not no_trump
    out = {**cell.head(), "players": 4, "sides": sides, "who": cell.who(sides), "rules": rules,
           "hands": hands, "rubber": bool(rules.get("rubber")),
           "no_trump": no_trump,
           "four": None if no_trump else share(count("four"), hands),
           "three": None if no_trump else share(count("three"), hands),
           "scored": share(count("scored"), count("held")) if honours else None,
           "honours_points": ([m[f"honours_points_{k}"].per_hand() for k in (0, 1)]
                              if honours else None),
           "points": [m[f"points_{k}"].per_hand() for k in (0, 1)]}
    out.update(games_figures(cell, 2))
    return out


# --- text --------------------------------------------------------------------------------

def _game(cell: dict) -> str:
    return "rubber" if cell["rubber"] else "game"


def lines(cell: dict) -> list[str]:
    """One cell in labelled lines."""
    sides, game = cell["sides"], _game(cell)
    wide = max(len(s["name"]) for s in sides)
    rows: list[tuple[str, str]] = []
    if cell.get("won"):
        digits = len(f"{cell['games']:,}")
        label = f"{game.capitalize()}s won"
        for side, won in zip(sides, cell["won"], strict=True):
            rows.append((label, f"{side['name']:<{wide}}  {won.k:>{digits},} {game}s, "
                         f"{with_range(won, 1, percent=True)}"))
        rows.append((f"{game.capitalize()} length", with_range(cell["length"], 2, "hands")))
    if cell["no_trump"]:
        rows.append(("Honours", "none: no trumps in these rules"))
    else:
        rows.append(("Honours held", f"all four by one team in "
                     f"{with_range(cell['four'], 1, 'of hands', percent=True)}, three in "
                     f"{with_range(cell['three'], 1, percent=True)}"))
        if cell["scored"] is None:
            rows.append(("Honours scored", "never: the rules do not count honours"))
        else:
            rows.append(("Honours scored", "in " + with_range(
                cell["scored"], 1, "of the hands where a team held three or four",
                percent=True)))
            for side, e in zip(sides, cell["honours_points"], strict=True):
                rows.append(("Honours scored", f"{side['name']:<{wide}}  "
                             f"{with_range(e, 2, 'points a hand')}"))
    for side, e in zip(sides, cell["points"], strict=True):
        rows.append(("Points a hand", f"{side['name']:<{wide}}  {with_range(e, 2)}"))
    return [cell_title("Portland whist", cell, game), *lines_table(rows), FOOT]


def shape(cell: dict) -> tuple:
    return (bool(cell["rules"].get("dummy")),)


def heading(cell: dict) -> str:
    names = [s["name"] for s in cell["sides"]]
    return " against ".join(names)


def columns(cells: list[dict], run: list[dict] | None = None) -> list[Column]:
    """The columns of the several-cells table."""
    sides = cells[0]["sides"]
    cols = []
    if cells[0]["mode"] == "games":
        game = "rubbers" if all(c["rubber"] for c in run or cells) else "games"
        cols += [Column(f"{game} won %", s["short"],
                        lambda c, k=k: cell_text(c["won"][k], 1, percent=True),
                        lambda c, k=k: c["won"][k], "games won", "points", 1, 100)
                 for k, s in enumerate(sides)]
        cols.append(Column("hands", f"a {game[:-1]}", lambda c: cell_text(c["length"], 2),
                           lambda c: c["length"], "hands a game", "", 2))
    cols += [
        Column("honours held %", "four", lambda c: cell_text(c["four"], 1, percent=True),
               lambda c: c["four"], "four honours held", "points", 1, 100),
        Column("honours held %", "three", lambda c: cell_text(c["three"], 1, percent=True),
               lambda c: c["three"], "three held", "points", 1, 100),
        Column("honours", "scored %", lambda c: cell_text(c["scored"], 1, percent=True),
               lambda c: c["scored"], "honours scored", "points", 1, 100),
    ]
    cols += [Column("honours points a hand", s["short"],
                    lambda c, k=k: cell_text(c["honours_points"][k], 2)
                    if c["honours_points"] else DASH,
                    lambda c, k=k: c["honours_points"][k] if c["honours_points"] else None,
                    "honours points a hand", "", 2) for k, s in enumerate(sides)]
    cols += [Column("points a hand", s["short"], lambda c, k=k: cell_text(c["points"][k], 2),
                    lambda c, k=k: c["points"][k], "points a hand", "", 2)
             for k, s in enumerate(sides)]
    return cols


def legend(cells: list[dict]) -> str:
    parts = []
    if cells[0]["mode"] == "games":
        game = "rubber" if all(c["rubber"] for c in cells) else "game"
        mixed = any(c["rubber"] for c in cells) and game == "game"
        parts.append(f"{game}s won: the share each team won; hands a {game}: how many hands "
                     f"a {game} lasted" + (" (a rubber, for the variants played in rubbers)"
                                           if mixed else ""))
    parts += ["honours held: the share of hands in which one team held all four of A, K, Q, J "
              "of trumps, or three",
              "honours scored: the share of those hands (three or four held) in which honours "
              "were scored; honours points a hand: each team's average from honours",
              "points a hand: each team's average, from tricks over the book and honours"]
    if any(c["swapped"] for c in cells):
        parts.append("swapped: the line-up with its teams in each other's seats")
    return ("; ".join(parts) + f"; {DASH}: nothing to count (no trumps, or honours not scored "
            "in these rules).")

