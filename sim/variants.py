"""The table of variants: every key of RULES.md (docs/RULES.md, a copy of the specification) with
its status — implemented (a field of the game's rules, with the tests that name it) or not, and why.

The status is computed, not written: a key is implemented when the game's rules value
(`sim.options.PRESETS`) has it as a field; the tests that exercise it are the test files that name
it. ``python -m sim.variants docs/VARIANTS.md`` writes the table; a test keeps the file current and
checks that every key named in docs/RULES.md is catalogued here.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .options import PRESETS, describe, show_value

__all__ = ["CATALOGUE", "NOT_KEYS", "Key", "keys_named_in_rules", "render", "status_of"]

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = ROOT / "docs" / "RULES.md"


@dataclass(frozen=True)
class Key:
    """One RULES.md key of one game, in the section (§) that defines it. ``later``: what is
    planned for a key not implemented yet (an issue), or why it is not simulated (§4.9)."""

    key: str
    game: str
    section: str
    later: str = ""
    beyond: str = ""  # a key the simulator adds to RULES.md's, and why


def _keys(game: str, section: str, names: str, later: str = "") -> list[Key]:
    return [Key(k, game, section, later) for k in names.split()]


ISSUE_6 = "issue 6 (Spades house rules I: bids, contracts, card passing)"
ISSUE_7 = "issue 7 (Spades house rules II: scoring and game end)"
ISSUE_8 = "issue 8 (Spades decks, card orders, leads, player counts)"
NOT_SIMULATED = "not simulated (RULES.md §4.9): "

CATALOGUE: list[Key] = [
    *_keys("portland", "1", "trump book target_score honours honours_order dummy "
           "honours_barred_at rubber"),
    *_keys("norwegian", "2", "players target_score double_points scoring"),
    *[Key(k, "norwegian", "2", beyond="the classic game's values of RULES.md §2 (4, 8, 2) as keys")
      for k in ("grand_value", "grand_fail_value", "nullo_value")],
    Key("max_hands", "norwegian", "2", beyond="games that never reach the target (README, "
        "'Readings')"),
    *_keys("spades", "3", "nil nil_bonus nil_tricks blind_nil blind_nil_bonus "
           "blind_nil_min_deficit spades_broken max_team_bid bag_limit bag_penalty target_score "
           "mercy_score max_hands"),
    *_keys("spades", "4.1", "redeal_poor_hands face_up_cards kitty kitty_taker kitty_extra_trick",
           ISSUE_8),
    *_keys("spades", "4.2", "trump_order jokers jokers_remove jokes_tie seven_trump_reveal",
           ISSUE_8),
    *_keys("spades", "4.3", "first_lead first_trick_clubs first_trick_lowest_club "
           "no_spade_lead_first_trick lead_ace_of_spades must_overtrump must_trump", ISSUE_8),
    *_keys("spades", "4.4", "double_nil double_blind_nil double_blind_nil_reward team_nil "
           "team_blind_nil nil_in_the_dark blind_bids blind_bid_min_deficit min_team_bid "
           "partnership_bidding no_nine_no_blind auction no_trump_bids ten_for_two_hundred "
           "ten_for_200_fail ten_for_200_exact tens_are_wheels mo_a mo_b bemo blind_six "
           "blind_six_at_least moon blind_moon lexington lexington_points half_trick_bids suicide "
           "suicide_min_bid whiz mirror fledu hook bid_raise", ISSUE_6),
    *_keys("spades", "4.5", "nil_pass pass_cards pass_when", ISSUE_6),
    *_keys("spades", "4.6", "three_b no_overs double_over exact quicksand set_to_opponents "
           "book_made highlander exact_pair_bonus seven_plus bags_in_units_digit bag_cancel_card "
           "bags_negative no_minus last_trick_bonus end_streak dix last_trick_ace "
           "last_trick_ace_nil last_trick_deuce last_trick_high_spade", ISSUE_7),
    *_keys("spades", "4.7", "players draw_mode remove partnerships deck teams duplicate_wins "
           "cancel_spades", ISSUE_8),
    *_keys("spades", "4.8", "defeat_score", ISSUE_7),
]

# §4.9 rows: named in the table so that it shows every rule of the seed, never simulated
NOT_SIMULATED_ROWS = {
    "speed spades": "a time limit per play; simulated players have no clock",
    "claims": "a correct claim changes no outcome; simulated players make no false claims",
    "revokes, misdeals, the cut": "simulated players and dealers make no mistakes",
    "ace high/low, 8 and 10 rule, cross-board talk, ace check": "the seed does not define them "
    "well enough to simulate",
    "more than 8 players": "the seed splits them into separate tables",
}

# Words RULES.md writes in code font that are values, variables or names, not keys
NOT_KEYS = frozenset("code false true null portland norwegian spades grand misere pass nullo b k t "
                     "n value no_spades one_spade_or_less no_face_cards jokers_high count left right "
                     "partner replay".split())

TITLES = {"1": "Portland whist", "2": "Norwegian whist", "3": "Spades: the standard game",
          "4.1": "Spades: deal and deck", "4.2": "Spades: card order and trumps",
          "4.3": "Spades: leads and play constraints", "4.4": "Spades: bids and contracts",
          "4.5": "Spades: card passing", "4.6": "Spades: scoring",
          "4.7": "Spades: player counts and team shapes", "4.8": "Spades: game end"}


def keys_named_in_rules(text: str | None = None) -> set[str]:
    """Every identifier RULES.md writes in code font, alone or before ``=`` (``face_up_cards =
    k``), or after a sign (``-ten_for_200_fail``); values in quotes are not identifiers."""
    text = RULES_MD.read_text(encoding="utf-8") if text is None else text
    spans = re.findall(r"`([^`]+)`", text)
    found = {m.group(1) for s in spans if (m := re.match(r"^[+-]?([a-z][a-z0-9_]*)$", s))}
    found |= {k for s in spans for k in re.findall(r"(?:^|, )([a-z][a-z0-9_]*) =", s)}
    # a key name split over a line break inside code font ("kitty_taker =\n  ...")
    found |= set(re.findall(r"`([a-z][a-z0-9_]*) =\s", text))
    return found


def _fields(game: str) -> dict[str, dataclasses.Field]:

    rules = next(r for r in PRESETS.values() if r.game == game)
    return {f.name: f for f in dataclasses.fields(rules)}


def _game_tests(game: str) -> list[Path]:
    """A game's test files: those named after it (Portland, Norwegian), the others (Spades)."""
    others = ("portland", "norwegian", "test_variants")
    return sorted(p for p in (ROOT / "tests").glob("test_*.py")
                  if (game in p.name if game != "spades" else not any(o in p.name for o in others)))


def _tests_naming(key: str, game: str) -> list[str]:
    """The game's test files that name ``key`` (as a word)."""
    word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(key)}(?![A-Za-z0-9_])")
    return [p.name for p in _game_tests(game) if word.search(p.read_text(encoding="utf-8"))]


def status_of(entry: Key) -> tuple[bool, str]:
    """(implemented, the table's status text)."""
    field = _fields(entry.game).get(entry.key)
    if field is None:
        return False, f"not implemented yet: {entry.later}" if entry.later else "not implemented"
    tests = _tests_naming(entry.key, entry.game)
    if not tests:
        return True, "implemented; **no test names it**"
    return True, "implemented; named in " + ", ".join(f"`{t}`" for t in tests)


def render() -> str:
    """docs/VARIANTS.md: one table per RULES.md section, then the §4.9 rows."""
    lines = ["# Variants: every key of RULES.md and its status", "",
             "Generated by `python -m sim.variants docs/VARIANTS.md` from the rules registry "
             "(`sim/*/rules.py`) and the test files; `tests/test_variants.py` keeps it current. "
             "A key is implemented when it is a field of its game's rules, with its default, the "
             "values it allows (its declared range) and its meaning below; the game's test files "
             "that name it are listed (Spades: the test files not named after another game).",
             ""]
    done = total = 0
    for section, title in TITLES.items():
        rows = [k for k in CATALOGUE if k.section == section]
        lines += [f"## §{section} {title}", "",
                  "| key | default | allowed | status | meaning |",
                  "| --- | --- | --- | --- | --- |"]
        fields = _fields(rows[0].game)
        for entry in rows:
            implemented, status = status_of(entry)
            done += implemented
            total += 1
            field = fields.get(entry.key) if implemented else None
            default = f"`{_show(field.default)}`" if field else ""
            allowed = _allowed(field) if field else ""
            meaning = field.metadata.get("doc", "") if field else ""
            beyond = f" (beyond RULES.md: {entry.beyond})" if entry.beyond else ""
            lines.append(f"| `{entry.key}` | {default} | {allowed} | {status}{beyond} | "
                         f"{meaning} |")
        lines.append("")
    lines += ["## §4.9 Not simulated", "", "| rule | why |", "| --- | --- |"]
    lines += [f"| {rule} | {why} |" for rule, why in NOT_SIMULATED_ROWS.items()]
    lines += ["", f"{done} of {total} keys implemented.", ""]
    lines += _combinations()
    return "\n".join(lines)


def _combinations() -> list[str]:
    """The Spades keys: where each applies and what refuses it (issue 19 item 8), computed by
    loading example values (`sim.spades.combinations`)."""
    from .spades.combinations import TABLES, VALUES, applies, key_of, refused_with

    lines = ["## Spades: where each key applies, and what refuses it", "",
             "Computed by loading each key's example value (`sim/spades/combinations.py`) at "
             "every table shape and deck of RULES.md §4.7 (the shapes below), then at four "
             "players with every other key's example value (at its own table for a key of "
             "another table). A key combines with every key not listed against it. Each refusal "
             "quotes the words of RULES.md it rests on (`sim/spades/says.py`): two sentences "
             "that contradict each other, a rule that another leaves without effect, a rule "
             "worded for partners or for two sides at a table without them, a key that needs "
             "another.", "",
             "Table shapes: " + "; ".join(f"{name} (`{_table(t)}`)" if t else f"{name} "
                                          "(the standard table)" for name, t in TABLES.items()),
             ""]
    shape_keys = {k for t in TABLES.values() for k in t}
    entries = [k for k in CATALOGUE if k.game == "spades"]
    examples = {key_of(v) for v in VALUES}
    lines += ["`cancel_spades` is a game of its own (RULES.md §4.7: its deck, order and "
              "scoring): it takes no other key but the game's end, `blind_nil = false` and "
              "`spades_broken`, `lead_ace_of_spades`; the other keys are not shown against it.",
              ""]
    for entry in entries:
        key = entry.key
        lines.append(f"### §{entry.section} `{key}`")
        lines.append("")
        if key not in examples:
            used = [name for name, t in TABLES.items() if key in t]
            lines += [f"- a key of the table: the shapes {', '.join(used)}", ""]
            continue
        value = next(v for v in VALUES if key_of(v) == key)
        lines.append(f"- example: `{_table(value)}`")
        where = applies(key)
        refused = {name: err for name, err in where.items() if err is not None}
        if not refused:
            lines.append(f"- tables: all {len(where)} shapes")
        else:
            ok = [name for name, err in where.items() if err is None]
            lines.append(f"- tables: {', '.join(ok) or 'none of the shapes'}; refused at:")
            for message, names in _grouped(refused).items():
                lines.append(f"  - {', '.join(names)}: {message}")
        table = "four" if key not in shape_keys or where.get("four") is None else next(
            name for name, err in where.items() if err is None)
        against = refused_with(key, table)
        if key != "cancel_spades":
            against.pop("cancel_spades", None)
        else:
            against = {}
            lines.append("- refused with: every key but those above")
            lines.append("")
            continue
        if not against:
            lines.append("- refused with: no other key")
        else:
            lines.append("- refused with:")
            for message, names in _grouped(against).items():
                lines.append(f"  - {', '.join(f'`{n}`' for n in names)}: {message}")
        lines.append("")
    return lines


def _grouped(errors: dict) -> dict[str, list[str]]:
    """{message (key named first): [the names that give it]}, in order."""
    out: dict[str, list[str]] = {}
    for name, err in errors.items():
        text = err.message.replace("|", "\\|")
        out.setdefault(text, []).append(name)
    return out


def _table(value: dict) -> str:
    return ", ".join(f"{k} = {_show(v)}" for k, v in value.items())


def _allowed(field: dataclasses.Field) -> str:
    """The values a key allows, as its declaration states them (ranges included)."""

    return describe(field.metadata).replace("|", "\\|")


def _show(value) -> str:

    return show_value(value)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = render()
    if argv:
        Path(argv[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
