"""The run summary of a Spades cell: who won, game length, contracts made and set, nil and
blind nil, bags and bag penalties, points a hand (RULES.md §3, §4), each with its 95% interval.

Definitions (docs/SCHEMA.md columns):

* a side's contract: the sum of its players' bids above nil (a bid of n and a half counts
  n + 1/2 under `half_trick_bids`, and 0 and a half is no nil), or its joint bid
  (`partnership_bidding`); under `auction` the declarer's 6 + n; a side contract declared
  instead of bids (team nil, wheel, Mo, blind six, blind moon) is one too;
* made: the side took at least its contract, counting a nil bidder's tricks only under
  ``nil_tricks = "count"``; exactly its contract under ``exact = "side"``; each bidder his own
  bid under ``exact = "player"`` (exactly) and `highlander` (at least); a side contract is made
  when it scored (``contract_<side> > 0``); set: not made. Tricks, not points, decide, so the
  scoring rules (`no_minus`, `set_to_opponents`, `double_over` ...) do not change the count;
* nil, blind nil: a bid of 0, not blind or blind, as a share of the players' bids (a seat
  with ``bid = -1`` did not bid); made: the bidder took no trick;
* bags: ``bags_taken_<side>``; bag penalties: the hands in which a side paid one
  (``bag_penalty_<side> < 0``) and the points they cost; both per side and game (per hand in a
  run of independent hands);
* points a hand: ``points_<side>``.
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
    number,
    seat_list,
    share,
    side_names,
    with_range,
)

__all__ = ["columns", "heading", "legend", "lines", "shape", "summarize_cell"]


def _shape(cell: Cell) -> tuple[int, int]:
    """(players, sides) of the cell's table: a ``tricks_<seat>`` column per seat and a
    ``score_<side>`` column per side."""
    names = cell.columns("hands")
    return (sum(n.startswith("tricks_") for n in names),
            sum(n.startswith("score_") for n in names))


def summarize_cell(cell: Cell) -> dict:
    """The figures of one Spades cell (see the module's definitions)."""
    players, n_sides = _shape(cell)
    sides = side_names(players, n_sides)
    m = cell.moments()  # the values of the module's definitions (reports.tallies)
    total = {k: int(round(v.total)) for k, v in m.items() if k in
             ("bids", "nil", "nil_made", "blind", "blind_made", "contracts", "made")}
    hands = int(m["bids"].sx)
    out = {**cell.head(), "players": players, "sides": sides, "who": cell.who(sides),
           "rules": cell.rules, "hands": hands, "games": 0,
           "nil_bid": share(total["nil"], total["bids"]),
           "nil_made": share(total["nil_made"], total["nil"]),
           "blind_bid": share(total["blind"], total["bids"]),
           "blind_made": share(total["blind_made"], total["blind"]),
           "contracts": total["contracts"],
           "made": share(total["made"], total["contracts"]),
           "set": share(total["contracts"] - total["made"], total["contracts"]),
           "bags": m["bags"].per_game(),
           "penalties": m["penalties"].per_game(),
           "penalty_points": m["penalty_points"].per_game(),
           "points": [m[f"points_{k}"].per_hand() for k in range(n_sides)]}
    out.update(games_figures(cell, n_sides))
    return out


# --- text --------------------------------------------------------------------------------

NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 8: "eight"}


def _team(cell: dict) -> str:
    return "team" if cell["players"] > len(cell["sides"]) else "player"


def _unit(cell: dict) -> str:
    return "game" if cell["mode"] == "games" else "hand"


def _nil(cell: dict, kind: str) -> str:
    """``798 bids, 10.9% of all bids (10.2–11.6%); 72.1% made (68.8–75.1%)``, or why there
    is nothing to show."""
    bid, made = cell[f"{kind}_bid"], cell[f"{kind}_made"]
    rules = cell["rules"]
    name = "nil" if kind == "nil" else "blind nil"
    if bid is None:
        return f"no {name} was bid: nobody bid a number of tricks"
    if bid.k == 0:
        why = ""
        if not rules.get("nil", True) or (kind == "blind" and not rules.get("blind_nil", True)):
            why = " (the rules do not allow it)"
        elif (kind == "blind" and cell["mode"] == "hands"
              and (rules.get("blind_nil_min_deficit") or 0) > 0):
            why = (f" (it needs a {_team(cell)} {rules['blind_nil_min_deficit']} points behind; "
                   "each hand here starts at 0–0)")
        return f"no {name} was bid" + why
    return (f"{bid.k:,} bids, {with_range(bid, 1, 'of all bids', percent=True)}; "
            f"{with_range(made, 1, 'made', percent=True)}")


def lines(cell: dict) -> list[str]:
    """One cell in labelled lines."""
    team, unit = _team(cell), _unit(cell)
    sides = cell["sides"]
    wide = max(len(s["name"]) for s in sides)
    rows: list[tuple[str, str]] = []
    if cell.get("won"):
        digits = len(f"{cell['games']:,}")
        for side, won in zip(sides, cell["won"], strict=True):
            rows.append(("Games won", f"{side['name']:<{wide}}  {won.k:>{digits},} games, "
                         f"{with_range(won, 1, percent=True)}"))
        if cell["no_winner"] is not None:
            e = cell["no_winner"]
            rows.append(("Games won", f"{'no winner (tied)':<{wide}}  {e.k:>{digits},} games, "
                         f"{with_range(e, 1, percent=True)}"))
        rows.append(("Game length", with_range(cell["length"], 2, "hands")))
    if cell["made"] is None:
        rows.append(("Contracts", "no contract was bid"))
    else:
        rows.append(("Contracts", f"{cell['contracts']:,} {team} contracts: "
                     f"{with_range(cell['made'], 1, 'made', percent=True)}, "
                     f"{with_range(cell['set'], 1, 'set', percent=True)}"))
    rows.append(("Nil", _nil(cell, "nil")))
    rows.append(("Blind nil", _nil(cell, "blind")))
    digits = 2 if unit == "game" else 3
    rows.append(("Bags", with_range(cell["bags"], digits, f"a {unit} for each {team}")))
    penalties = cell["penalties"]
    if penalties is None or penalties.value == 0:
        rows.append(("Bag penalties", "no bag penalty was paid"))
    else:
        rows.append(("Bag penalties",
                     with_range(penalties, digits, f"a {unit} for each {team}")
                     + f", costing {number(-cell['penalty_points'].value, 1)} points a {unit}"))
    for side, points in zip(sides, cell["points"], strict=True):
        rows.append(("Points a hand", f"{side['name']:<{wide}}  "
                     f"{with_range(points, 1, sign=True)}"))
    return [cell_title("Spades", cell), *lines_table(rows), FOOT]


def shape(cell: dict) -> tuple[int, int]:
    return cell["players"], len(cell["sides"])


def heading(cell: dict) -> str:
    """``Four players in two teams: North–South (seats 0 and 2) against East–West ...``."""
    players, sides = shape(cell)
    many = NUMBERS.get(players, str(players)).capitalize()
    names = [s["name"] for s in cell["sides"]]
    if players == sides:
        return f"{many} players, each playing for himself (a column per seat: {seat_list(players)})"
    teams = NUMBERS.get(sides, str(sides))
    return f"{many} players in {teams} teams: " + (
        " against ".join(names) if sides == 2 else ", ".join(names))


def _percent(key):
    return lambda c: cell_text(c[key], 1, percent=True)


def _any_blind(run: list[dict]) -> bool:
    return any(c["blind_bid"] is not None and c["blind_bid"].k for c in run)


def _any_penalty(run: list[dict]) -> bool:
    return any(c["penalties"] is not None and c["penalties"].value > 0 for c in run)


def columns(cells: list[dict], run: list[dict] | None = None) -> list[Column]:
    """The columns of the several-cells table for cells of one table shape; the blind nil and
    bag penalty columns only where some cell of the ``run`` has one."""
    run = run or cells
    first = cells[0]
    sides, unit = first["sides"], _unit(first)
    games = first["mode"] == "games"
    digits = 2 if games else 3
    cols = []
    if games:
        cols += [Column("games won %", s["short"],
                        lambda c, k=k: cell_text(c["won"][k], 1, percent=True),
                        lambda c, k=k: c["won"][k], "games won", "points", 1, 100)
                 for k, s in enumerate(sides)]
        cols.append(Column("hands", "a game", lambda c: cell_text(c["length"], 2),
                           lambda c: c["length"], "hands a game", "", 2))
    cols += [
        Column("contracts", "made %", _percent("made"), lambda c: c["made"],
               "contracts made", "points", 1, 100),
        Column("nil %", "bid", _percent("nil_bid"), lambda c: c["nil_bid"],
               "nil bid", "points", 1, 100),
        Column("nil %", "made", _percent("nil_made"), lambda c: c["nil_made"],
               "nil made", "points", 1, 100),
    ]
    if _any_blind(run):
        cols += [Column("blind nil %", "bid", _percent("blind_bid"), lambda c: c["blind_bid"],
                        "blind nil bid", "points", 1, 100),
                 Column("blind nil %", "made", _percent("blind_made"),
                        lambda c: c["blind_made"], "blind nil made", "points", 1, 100)]
    cols.append(Column(f"bags a {unit}", "taken", lambda c: cell_text(c["bags"], digits),
                       lambda c: c["bags"], "bags", "", digits))
    if _any_penalty(run):
        cols.append(Column(f"bags a {unit}", "penalties",
                           lambda c: cell_text(c["penalties"], digits),
                           lambda c: c["penalties"], "bag penalties", "", digits))
    cols += [Column("points a hand", s["short"],
                    lambda c, k=k: cell_text(c["points"][k], 1, sign=True),
                    lambda c, k=k: c["points"][k], "points a hand", "", 1)
             for k, s in enumerate(sides)]
    return cols


def legend(cells: list[dict]) -> str:
    """The several-cells table's columns in words."""
    unit = _unit(cells[0])
    kinds = {_team(c) for c in cells}
    each = "each team (or player)" if len(kinds) == 2 else f"each {kinds.pop()}"
    parts = []
    if cells[0]["mode"] == "games":
        parts.append(f"games won: the share of games {each} won; hands a game: how many "
                     "hands a game lasted")
    parts += ["contracts made: the share of contracts (bids added up by team) that took their "
              "tricks",
              "nil" + (", blind nil" if _any_blind(cells) else "") + ": the share of all bids, "
              "and of those the share made",
              f"bags a {unit}: taken" + (", and penalties paid," if _any_penalty(cells) else "")
              + f" by {each}",
              f"points a hand: the average of {each}"]
    if any(c["swapped"] for c in cells):
        parts.append("swapped: the line-up with its teams in each other's seats")
    text = "; ".join(parts) + f"; {DASH}: nothing to count."
    if not _any_blind(cells):
        why = ""
        if all(not c["rules"].get("blind_nil", True) for c in cells):
            why = " (the rules do not allow it)"
        elif all(c["mode"] == "hands" for c in cells):
            why = " (it needs a team 100 points behind; each hand here starts at 0–0)"
        text += f" No blind nil was bid{why}."
    if not _any_penalty(cells):
        text += " No bag penalty was paid."
    return text
