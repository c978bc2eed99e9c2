"""Experiment files: what to simulate — a grid of rules variants × player line-ups, run as cells.

An experiment is a small TOML file (examples in experiments/)::

    name = "nil"
    games = 20000                  # whole games; or  hands = 200000  (independent hands from 0-0)
    seed = 20261130
    block_size = 5000              # games (or hands) per block: the unit of work and of randomness
                                   # (default 20,000 games or 50,000 hands: BLOCK_SIZES)

    [variants]                     # name = a preset, a rules file (relative to this file) or a table
    standard = "spades.standard"
    count = { preset = "spades.standard", nil_tricks = "count" }

    [lineups]                      # name = who plays
    seed = "seed"                                       # one strategy at every seat
    cautious = { name = "seed", nil_max_estimate = 0.5 }  # ... with parameters
    duel = { sides = ["seed", "random"], swap = true }  # side 0 (seats 0, 2) vs side 1 (1, 3)
    table = ["seed", "random", "seed", "random"]        # one per seat

Every variant is played with every line-up; a line-up with ``swap = true`` is played a second time
with the sides' seats exchanged (each player moved one seat left). All cells play the same deals:
duplicate deals, so that cells compare pairwise. A single cell can be written with the keys
``rules`` and ``strategy`` instead of the two tables.

Unknown keys, wrong types and impossible values are rejected with the file, the key and what is
allowed. The command line's options override the file's values (``--rules`` and ``--strategy``
replace the whole table of variants or line-ups).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.errors import UserError, did_you_mean
from sim.inputs import read_toml, shipped, shipped_file
from sim.limits import MAX_BLOCK, MAX_BLOCKS, MAX_COUNT, check_block
from sim.options import PRESETS, load_rules, rules_to_dict, show_value
from strategies import make_strategy
from strategies.base import BY_GAME

__all__ = ["BLOCK_SIZES", "DEFAULT_EXPERIMENT", "Cell", "Experiment", "build_experiment",
           "check_name", "check_size", "load_experiment", "with_overrides"]

DEFAULT_EXPERIMENT = shipped("experiments") / "default.toml"
# block_size where an experiment gives none, by mode: large enough that a block's fixed costs
# (starting it, each call of the hand loop, its Parquet files) are small beside its hands
# (issue 19: 50,000-hand blocks cost 16% less CPU per hand than 5,000 and take 19% less disk),
# and whole games many enough that the batch stays large while most games are still running;
# a block of 20,000 games takes about 300 MB (Spades, four players)
BLOCK_SIZES = {"hands": 50_000, "games": 20_000}
# Variant and line-up names become parts of file names (part-<variant>-<lineup>-00000.parquet,
# '-' separating them): letters, digits, '_' and '.', not starting with '.'; an experiment's name
# is a folder's (results/<name>/) and may also hold '-'.
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.]{0,63}")
FOLDER_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")


@dataclass(frozen=True)
class Cell:
    """One cell of the grid: a rules variant and a line-up (one strategy spec dict per seat)."""

    variant: str
    rules: Any
    lineup: str
    seats: tuple[dict, ...]
    swapped: bool = False

    @property
    def key(self) -> str:
        """The cell's name in file names: ``variant-lineup`` (``-swapped`` when swapped)."""
        return f"{self.variant}-{self.lineup}" + ("-swapped" if self.swapped else "")

    def to_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "rules": rules_to_dict(self.rules),
                "lineup": self.lineup, "seats": list(self.seats), "swapped": self.swapped}


@dataclass(frozen=True)
class Experiment:
    """A validated experiment: its cells, and how many games or hands each cell plays."""

    name: str
    cells: tuple[Cell, ...]
    mode: str  # "games" or "hands"
    count: int
    seed: int
    block_size: int
    source: str | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """Everything that determines the results (written into the manifest and Parquet)."""
        return {"name": self.name, "cells": [c.to_dict() for c in self.cells],
                "mode": self.mode, "count": self.count, "seed": self.seed,
                "block_size": self.block_size}

    @property
    def n_blocks(self) -> int:
        """Blocks per cell."""
        return -(-self.count // self.block_size)

    def block_sizes(self) -> list[int]:
        full, rest = divmod(self.count, self.block_size)
        return [self.block_size] * full + ([rest] if rest else [])

    @property
    def rules(self):
        """The rules of a single-variant experiment."""
        variants = {c.variant: c.rules for c in self.cells}
        if len(variants) != 1:
            raise ValueError("this experiment has several variants: use .cells")
        return next(iter(variants.values()))

    @property
    def lineup(self) -> tuple[dict, ...]:
        """The seats of a single-cell experiment."""
        if len(self.cells) != 1:
            raise ValueError("this experiment has several cells: use .cells")
        return self.cells[0].seats


KEYS = {  # key -> (python types, meaning)
    "name": ((str,), "a string"),
    "game": ((str,), 'a game: "spades", "portland" or "norwegian"'),
    "rules": ((str, dict), "a preset name, a rules file or an inline table"),
    "variants": ((dict,), "a table: variant name = a preset, a rules file or an inline table"),
    "strategy": ((str, dict, list), "a strategy name, a table with 'name', or a list, one per "
                 "seat"),
    "lineups": ((dict,), "a table: line-up name = a strategy, a list (one per seat) or {sides, "
                "swap}"),
    "games": ((int,), f"an integer in [1, {MAX_COUNT}]"),
    "hands": ((int,), f"an integer in [1, {MAX_COUNT}]"),
    "seed": ((int,), "a non-negative integer"),
    "block_size": ((int,), f"an integer in [1, {MAX_BLOCK}]"),
}
# the sizes of a run (sim/limits.py): bounded so that a mistyped one is refused before anything
# starts, not left to hang or run out of memory
LIMITS = {"games": MAX_COUNT, "hands": MAX_COUNT, "block_size": MAX_BLOCK}


def _seats(spec, source, key, game, players: int = 4, n_sides: int | None = None,
           rules=None, rules_name: str | None = None) -> tuple[tuple[dict, ...], bool]:
    """The seats of a line-up spec for a game of ``players`` in ``n_sides`` sides (under
    ``rules``, named ``rules_name``, if given: a strategy refuses rules it does not play), and
    whether it is also played swapped. ``sides`` names one strategy per side: the partnerships
    (seat s plays for side s mod n_sides: 0, 2 and 1, 3 with four players), or the players
    themselves."""
    swap = False
    if n_sides is None:
        n_sides = 2 if players == 4 else players
    if isinstance(spec, dict) and ("sides" in spec or "seats" in spec):
        extra = set(spec) - {"sides", "seats", "swap"}
        if extra or ("sides" in spec) == ("seats" in spec):
            raise UserError(f"a line-up table has 'sides' ({n_sides} strategies) or 'seats' "
                            f"({players}), and optionally 'swap'; got {sorted(spec)}",
                            source=source, key=key)
        swap = spec.get("swap", False)
        if type(swap) is not bool:
            raise UserError(f"swap = {show_value(swap)} is not allowed; allowed: true | false",
                            source=source, key=key)
        if swap and n_sides != 2:
            raise UserError(f"swap exchanges two sides' seats: this game has {n_sides} sides; "
                            "list the rotations as line-ups instead", source=source, key=key)
        if "sides" in spec:
            sides = spec["sides"]
            if not isinstance(sides, list) or len(sides) != n_sides:
                raise UserError(f"'sides' needs a list of {n_sides} strategies (side 0 first)",
                                source=source, key=key)
            spec = [sides[s % n_sides] for s in range(players)]
        else:
            spec = spec["seats"]
    seats = spec if isinstance(spec, list) else [spec] * players
    if len(seats) != players:
        raise UserError(f"a list of strategies needs one per seat ({players}), got {len(seats)}",
                        source=source, key=key)
    return tuple(make_strategy(s, source, key, game, rules, rules_name).to_dict()
                 for s in seats), swap


def default_strategy(game: str) -> str:
    """The game's own heuristic player, ``seed``, where it has one."""
    return "seed" if (game, "seed") in BY_GAME else "random"


def check_name(name, source, key, pattern=NAME) -> str:
    """``name`` if it is a plain name (``pattern``: `NAME`, or `FOLDER_NAME`), else a `UserError`
    saying what is allowed."""
    if not isinstance(name, str) or not pattern.fullmatch(name):
        shown = repr(name) if isinstance(name, str) else show_value(name)
        dash = ", '-'" if pattern is FOLDER_NAME else ""
        raise UserError(f"name {shown} is not allowed; allowed: 1 to 64 letters, digits, "
                        f"'_'{dash} and '.', not starting with '.'", source=source, key=key)
    return name


def _label(spec, fallback: str) -> str:
    """A cell name for the single-cell form: the preset or strategy name when it is one."""
    if isinstance(spec, dict):
        spec = spec.get("name")
    return spec if isinstance(spec, str) and NAME.fullmatch(spec) else fallback


def _named(table, key, source) -> dict:
    for name in table:
        check_name(name, source, key)
    if not table:
        raise UserError("needs at least one entry", source=source, key=key)
    return table


def build_experiment(table: Mapping[str, Any], source: str | None = None,
                     base_dir: Path | None = None, given: Mapping[str, str] = {}) -> Experiment:
    """The experiment of a table of its keys, read from ``source`` (relative rules files are
    found from ``base_dir``); ``given`` names the keys that came from elsewhere (the command
    line: ``{"rules": "--rules"}``), so that an error names what the user typed."""

    def at(key: str) -> dict:  # where a key's value was written, for UserError
        return {"source": given[key], "key": None} if key in given else {"source": source,
                                                                          "key": key}

    for key, value in table.items():
        if key not in KEYS:
            raise UserError(f"unknown key{did_you_mean(key, KEYS)}; allowed keys: "
                            f"{', '.join(KEYS)}", source=source,
                            key=key)
        types, meaning = KEYS[key]
        bad_int = type(value) is int and (value < (0 if key == "seed" else 1)
                                          or value > LIMITS.get(key, value))
        if type(value) not in types or bad_int:
            raise UserError(f"{show_value(value)} is not allowed; allowed: {meaning}", **at(key))
    if "name" in table:
        check_name(table["name"], source, "name", FOLDER_NAME)
    for one, many in (("games", "hands"), ("rules", "variants"), ("strategy", "lineups")):
        if one in table and many in table:
            raise UserError(f"give either '{one}' or '{many}', not both", source=source, key=many)
    games = sorted({r.game for r in PRESETS.values()})
    game = table.get("game")
    if game is not None and game not in games:
        raise UserError(f"{show_value(game)} is not implemented yet; allowed: "
                        f"{' | '.join(show_value(g) for g in games)}", source=source, key="game")
    default_rules = next(n for n, r in PRESETS.items() if r.game == (game or "spades"))
    rules_spec = table.get("rules", default_rules)
    variants = _named(table["variants"] if "variants" in table
                      else {_label(rules_spec, "custom"): rules_spec}, "variants", source)
    rules_of = {}
    for vname, spec in variants.items():
        if (isinstance(spec, str) and spec and spec not in PRESETS and base_dir is not None
                and "rules" not in given):
            candidate = base_dir / spec
            spec = str(candidate) if candidate.exists() else spec
        inline = f"{source}: variant {vname}" if source else f"variant {vname}"
        try:
            rules_of[vname] = load_rules(spec, source=inline)
        except UserError as err:
            if not isinstance(spec, str):
                raise  # an inline table's errors already name the file and the variant
            where = at(f"variants.{vname}" if "variants" in table else "rules")
            if where["key"] is None:  # the command line's: as it is, named by the option
                err.source = err.source or where["source"]
                raise
            raise UserError(str(err), **where) from None
    game = game or next(iter(rules_of.values())).game  # the game of the variants, if not given
    for vname, rules in rules_of.items():
        if rules.game != game:
            raise UserError(f"variant {vname} is a {rules.game} variant in a {game} experiment",
                            source=source, key="variants")
    strategy_spec = table.get("strategy", default_strategy(game))
    lineups = _named(table["lineups"] if "lineups" in table
                     else {_label(strategy_spec, "custom"): strategy_spec}, "lineups", source)
    cells = []
    for vname, rules in rules_of.items():
        for lname, lspec in lineups.items():
            where = at(f"lineups.{lname}" if "lineups" in table else "strategy")
            seats, swap = _seats(lspec, where["source"], where["key"], game, rules.players,
                                 getattr(rules, "sides", None), rules, vname)
            cells.append(Cell(vname, rules, lname, seats))
            if swap:
                cells.append(Cell(vname, rules, lname, seats[1:] + seats[:1], swapped=True))
    mode = "hands" if "hands" in table else "games"
    exp = Experiment(name=table.get("name", "experiment"), cells=tuple(cells), mode=mode,
                     count=table.get(mode, 1000), seed=table.get("seed", 0),
                     block_size=table.get("block_size", BLOCK_SIZES[mode]), source=source)
    check_size(exp, at)
    return exp


def check_size(exp: Experiment, at=None) -> None:
    """Refuse, before anything starts, a count or a block size out of range, more blocks than
    `MAX_BLOCKS` per cell, or a block that would not fit in the memory available
    (sim/limits.py). ``at(key)``: where the key was written (default: the experiment's file)."""
    at = at or (lambda key: {"source": exp.source, "key": key})
    for name, value, top in ((exp.mode, exp.count, MAX_COUNT),
                             ("block_size", exp.block_size, MAX_BLOCK)):
        if type(value) is not int or not 1 <= value <= top:
            raise UserError(f"{show_value(value)} is not allowed; allowed: an integer in [1, "
                            f"{top}]", **at(name))
    size = min(exp.block_size, exp.count)
    if exp.n_blocks > MAX_BLOCKS:
        raise UserError(f"{exp.mode} = {exp.count} in blocks of {exp.block_size} is "
                        f"{exp.n_blocks:,} blocks per cell; at most {MAX_BLOCKS:,}: raise "
                        "block_size", **at("block_size"))
    for rules in {id(c.rules): c.rules for c in exp.cells}.values():
        why = check_block(rules, exp.mode, size)
        if why:
            raise UserError(why + " (lower block_size)", **at("block_size"))


def load_experiment(path: str | Path | None = None, overrides: Mapping[str, Any] = (),
                    named=lambda key: "--" + key.replace("_", "-")):
    """Read an experiment file (default: experiments/default.toml; a bare name such as ``nil``:
    that experiment of whistlab's own, `sim.inputs.shipped_file`) and apply overrides (the
    command line's values: ``games`` replaces ``hands`` and vice versa, ``rules`` the variants,
    ``strategy`` the line-ups); ``named(key)`` is how an error names an override (its
    command-line option)."""
    path = DEFAULT_EXPERIMENT if path is None else shipped_file(path, "experiments")
    table = read_toml(path, "experiment file")
    base_dir = Path(path).parent
    build_experiment(table, str(path), base_dir)  # the file alone must be valid
    options = {key: named(key) for key in overrides}
    return build_experiment(with_overrides(table, overrides), str(path), base_dir, options)


def with_overrides(table: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """An experiment table with the command line's values: ``games`` replaces ``hands`` and vice
    versa, ``rules`` the variants, ``strategy`` the line-ups, any other key itself. A file's
    ``block_size`` is for its own mode: where the command line plays the other (``--hands`` on a
    file of games), the other mode's default applies (`BLOCK_SIZES`) unless ``block_size`` is
    given too."""
    replaced = {"games": ("games", "hands"), "hands": ("games", "hands"),
                "rules": ("rules", "variants"), "strategy": ("strategy", "lineups")}
    table = dict(table)
    file_mode = "hands" if "hands" in table else "games"
    if any(mode in overrides and mode != file_mode for mode in ("games", "hands")):
        table.pop("block_size", None)
    for key in overrides:
        for old in replaced.get(key, ()):
            table.pop(old, None)
    table.update(overrides)
    return table
