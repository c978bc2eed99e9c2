"""The sections on every table (`reports.table_sections`) on the Spades study's page: their
parts, what each leaves out and why, and their findings at the top of the page."""

from __future__ import annotations

from ...kit.page import Finding
from ...kit.study import Part
from ...table_sections import shapes

__all__ = ["TABLE_TABLES", "table_left_out", "table_parts", "table_summary"]

TABLE_TABLES = ("table_seats", "table_sides", "tables_compared")
SHAPES = ("RULES.md §4.7: seat s plays for side s mod S (S sides); where each plays for "
          "himself (three, cutthroat, five, six solo) a side is a player; six players in three "
          "pairs sit three apart, in two threes alternate; cancel spades plays three (eight "
          "players: four) pairs.")


def table_parts(res, tables: dict) -> list[Part]:
    return [
        Part("tables_nil", "Nil at every table",
             "Nil and blind nil bid and made by each side (each player, where each plays for "
             "himself) at each variant's table; by seat at tables of partners. " + SHAPES),
        Part("tables_bags", "Bags at every table",
             "Bags taken and bag penalties paid per side-hand, by side, at each table."),
        Part("tables_wins", "Wins and points at every table",
             ("The share of games each side won, beside the fair share 1 / sides, and "
              "its points per hand." if res.games_mode else
              "Each side's points per hand.")),
        Part("tables", "The tables compared",
             "One row per variant, every line-up and side pooled: how often nil is bid and "
             "made, contracts made, bags and penalties, points"
             + (" and game length." if res.games_mode else ".")),
    ]


def table_left_out(res, tables: dict) -> dict[str, list[str]]:
    """One sentence for each part the run's tables give nothing to show, saying why."""
    found = shapes(res)
    out: dict[str, list[str]] = {}

    def say(key, variants, why):
        if variants:
            out.setdefault(key, []).append(
                f"{', '.join(variants)}: {why}")
    say("tables_nil", [v for v, s in found.items() if s.no_nil],
        "nobody bids nil under the rules ({}), so nil is left out.".format(
            "; ".join(sorted({s.no_nil for s in found.values() if s.no_nil}))))
    blind = [v for v, s in found.items() if s.no_blind_nil and not s.no_nil]
    sides = tables.get("table_sides")
    any_blind = sides is not None and sides["blind_bids"].fill_null(0).sum() > 0
    if any_blind:
        say("tables_nil", blind, "the rules allow no blind nil (blind_nil = false).")
    else:
        out.setdefault("tables_nil", []).append(
            "Nobody bid blind nil in this run, so its columns are left out"
            + (" (it needs a side 100 points behind; each hand here starts at 0–0)."
               if not res.games_mode else "."))
    say("tables_bags", [v for v, s in found.items() if s.no_bags],
        "no bag is counted under its rules, so its bags are left out (–).")
    for why in sorted({s.no_penalty for s in found.values()
                       if s.no_penalty and not s.no_bags}):
        say("tables_bags", [v for v, s in found.items() if s.no_penalty == why
                            and not s.no_bags],
            f"no bag penalty is paid under {why}, so its penalties are left out (–); its "
            "bags are counted.")
    if not res.games_mode:
        out.setdefault("tables_wins", []).append(
            "A run of independent hands plays no games: no wins or game length, only the "
            "points per hand.")
    if len(res.variants) == 1:
        out.setdefault("tables", []).append(
            f"The run plays one table ({res.variants[0]}): its row follows, with no other "
            "to compare it with (no figure).")
    return out


def table_summary(findings: dict[str, list[str]]) -> list[Finding]:
    """The first finding of each section on every table, for the top of the page."""
    out = []
    for key in ("tables_nil", "tables_bags", "tables_wins", "tables"):
        out += [Finding(text, key) for text in findings.get(key, [])[:1]]
    return out
