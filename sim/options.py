"""House rules as one frozen, validated value: declaration, validation, presets and loading.

A game's rules are a frozen dataclass whose fields are declared with `option`, each with its
RULES.md key, default, allowed values and a one-line meaning. From those declarations alone this
module checks types and ranges, rejects unknown keys (listing the known ones), loads a preset name, a
TOML file or an inline table, and lists the presets. Cross-key constraints ("impossible
combinations") are each game's ``check`` method.

A rules TOML file is flat (RULES.md keys), with two optional keys of its own:

    preset = "spades.short"   # the base the other keys override (default: the game's first preset)
    game = "spades"           # optional (default "spades"); must agree with the preset

TOML has no null: an optional key is switched off with ``false`` or ``"off"`` (JSON ``null`` works too
in the inline tables of hand records).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import UserError, did_you_mean, known_names
from .inputs import read_toml

__all__ = [
    "PRESETS",
    "describe",
    "show_value",
    "unknown_preset",
    "load_rules",
    "load_rules_in",
    "option",
    "preset_names",
    "register_preset",
    "rules_from_mapping",
    "rules_to_dict",
]

OFF = (None, False, "off")  # spellings of "switched off" for optional keys


def option(default, doc: str, *, kind, choices=None, minimum=None, maximum=None,
           optional: bool = False, parse=None, shape: str | None = None):
    """Declare one rules key. ``kind`` is the Python type of its value (bool, int, str), or a tuple
    of types when a key mixes them (``spades_broken``: true, false or "never"). ``choices`` lists the
    allowed values of string keys; ``optional`` keys may be switched off (None). A structured key
    (a TOML array or table: ``kind`` list or dict) has ``parse(value)``, which returns the frozen
    value or raises ValueError, and ``shape``, what is allowed, for error messages."""
    meta = dict(doc=doc, kind=kind, choices=choices, minimum=minimum, maximum=maximum,
                optional=optional, parse=parse, shape=shape)
    return dataclasses.field(default=default, metadata=meta)


def describe(meta) -> str:
    """What a key allows, from its declaration (choices, kinds, range), for messages and
    docs/VARIANTS.md."""
    kinds = meta["kind"] if isinstance(meta["kind"], tuple) else (meta["kind"],)
    parts = []
    if meta.get("shape"):
        parts.append(meta["shape"])
    elif meta["choices"]:
        parts.append(" | ".join(show_value(c) for c in meta["choices"]))
    else:
        names = {bool: "true | false", int: "an integer", str: "a string"}
        parts.extend(names[k] for k in kinds if k in names)
    if meta["minimum"] is not None or meta["maximum"] is not None:
        lo = "" if meta["minimum"] is None else meta["minimum"]
        hi = "" if meta["maximum"] is None else meta["maximum"]
        parts[-1] += f" in [{lo}, {hi}]"
    if meta["optional"]:
        parts.append('false / "off" (switched off)')
    return " or ".join(parts)


def show_value(value) -> str:
    """A value as the user wrote it in TOML or JSON (true, "text", 3; off for None)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    if dataclasses.is_dataclass(value):
        value = dataclasses.asdict(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {show_value(v)}" for k, v in value.items()) + "}"
    return "off" if value is None else str(value)


def _coerce(field: dataclasses.Field, value, source) -> Any:
    """Check one value against its declaration; returns it (None for 'off')."""
    meta = field.metadata
    if meta["optional"] and (value is None or value is False or value == "off"):
        return None
    kinds = meta["kind"] if isinstance(meta["kind"], tuple) else (meta["kind"],)
    # bool is a subclass of int: an int key must not accept true/false, nor a bool key 0/1.
    ok = any(type(value) is k for k in kinds)
    if ok and meta["choices"] is not None:
        ok = value in meta["choices"]
    if ok and type(value) is int:
        lo, hi = meta["minimum"], meta["maximum"]
        ok = (lo is None or value >= lo) and (hi is None or value <= hi)
    if ok and meta.get("parse") is not None:
        try:
            return meta["parse"](value)
        except (ValueError, TypeError):  # a value of the wrong shape inside the structure
            ok = False
    if not ok:
        raise UserError(f"{show_value(value)} is not allowed; allowed: {describe(meta)}",
                        source=source, key=field.name)
    return value


PRESETS: dict[str, Any] = {}  # preset name -> rules value, in registration order


def register_preset(name: str, rules) -> None:
    rules.check()
    PRESETS[name] = rules


def preset_names(game: str | None = None) -> list[str]:
    return [n for n, r in PRESETS.items() if game is None or r.game == game]


def rules_to_dict(rules) -> dict[str, Any]:
    """The keys of a rules value, in declaration order, with ``game`` first."""
    return {"game": rules.game, **dataclasses.asdict(rules)}


def unknown_preset(name: str, source=None) -> UserError:
    return UserError(f"unknown preset '{name}'"
                     + known_names(name, PRESETS, "known presets", "listed by: whistlab presets"),
                     source=source, key="preset" if source else None)


DEFAULT_GAME = "spades"


def rules_from_mapping(table: Mapping[str, Any], source=None):
    """Build rules from a flat table of RULES.md keys over a preset: the ``preset`` key, else the
    first preset of the ``game`` key (default: spades)."""
    table = dict(table)
    base_name = table.pop("preset", None)
    game = table.pop("game", None)
    for key, value in (("preset", base_name), ("game", game)):
        if value is not None and not isinstance(value, str):
            raise UserError(f"{show_value(value)} is not allowed; allowed: a {key} name",
                            source=source, key=key)
    if base_name is None:
        candidates = preset_names(game or DEFAULT_GAME)
        if not candidates:
            games = sorted({r.game for r in PRESETS.values()})
            raise UserError(f"unknown game {show_value(game)}{did_you_mean(game, games)}; known "
                            f"games: {', '.join(games)}",
                            source=source, key="game")
        base_name = candidates[0]
    if base_name not in PRESETS:
        raise unknown_preset(base_name, source)
    base = PRESETS[base_name]
    if game is not None and game != base.game:
        raise UserError(f"'{game}' does not match preset '{base_name}' (a {base.game} preset)",
                        source=source, key="game")
    fields = {f.name: f for f in dataclasses.fields(base)}
    changes = {}
    for key, value in table.items():
        if key not in fields:
            raise UserError("unknown key" + known_names(
                key, ["preset", "game", *fields], f"allowed keys for {base.game}",
                f"shown with their values by: whistlab presets {base_name}"), source=source,
                key=key)
        changes[key] = _coerce(fields[key], value, source)
    rules = dataclasses.replace(base, **changes)
    try:
        rules.check()
    except UserError as err:
        err.source = err.source or source
        raise
    return rules


def load_rules(spec, source: str | None = None):
    """Rules from a preset name, a TOML file path, an inline mapping, or a rules value itself.
    ``source`` names where an inline mapping came from, for error messages."""
    if dataclasses.is_dataclass(spec) and not isinstance(spec, type):
        return spec
    if isinstance(spec, Mapping):
        return rules_from_mapping(spec, source=source or "inline rules")
    if not isinstance(spec, str | Path):
        raise UserError(f"{show_value(spec)} is not allowed; allowed: a preset name, a rules "
                        "file or a table of rules keys", source=source)
    spec = str(spec)
    if spec in PRESETS:
        return PRESETS[spec]
    path = Path(spec)
    if spec and path.suffix != ".toml" and not path.exists():
        raise unknown_preset(spec)
    return rules_from_mapping(read_toml(spec, "rules file"), source=spec)


def load_rules_in(spec, source: str, key: str | None = "rules", line: int | None = None):
    """Rules given inside a user's file (``source``, at ``key`` and ``line``) or on the command
    line (``source`` the option, ``key`` None): a preset name, a rules file or an inline table.
    Every error is reported at that place; a referenced file's own error follows it."""
    if not isinstance(spec, str | Path | Mapping) and not dataclasses.is_dataclass(spec):
        raise UserError(f"{show_value(spec)} is not allowed; allowed: a preset name, a rules "
                        "file or a table of rules keys", source=source, line=line, key=key)
    try:
        return load_rules(spec, source=source)
    except UserError as err:
        if isinstance(spec, Mapping):
            err.source, err.line = err.source or source, err.line or line
            raise
        raise UserError(str(err), source=source, line=line, key=key) from None
