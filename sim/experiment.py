"""Experiment files: what to simulate — rules, players, how many hands or games, seed, block size.

An experiment is a small TOML file (see experiments/default.toml):

    name = "default"
    rules = "spades.standard"      # a preset, a rules file (relative to this file) or an inline table
    strategy = "seed"              # every seat; or a list of four; a table adds parameters:
                                   #   strategy = { name = "seed", nil_max_tricks = 1.0 }
    games = 20000                  # whole games; or  hands = 200000  (independent hands from 0-0)
    seed = 20261130
    block_size = 1000              # games (or hands) per block: the unit of work and of randomness

Unknown keys, wrong types and impossible values are rejected with the file, the key and what is
allowed. The command line's options override the file's values.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import UserError
from .options import load_rules, rules_to_dict, show_value

__all__ = ["DEFAULT_EXPERIMENT", "Experiment", "load_experiment"]

DEFAULT_EXPERIMENT = Path(__file__).resolve().parent.parent / "experiments" / "default.toml"


@dataclass(frozen=True)
class Experiment:
    """A validated experiment. ``lineup`` holds one strategy spec (a dict) per seat."""

    name: str
    rules: Any
    rules_label: str
    lineup: tuple[dict, ...]
    mode: str  # "games" or "hands"
    count: int
    seed: int
    block_size: int
    source: str | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """Everything that determines the results (written into the manifest and Parquet)."""
        return {"name": self.name, "rules_label": self.rules_label,
                "rules": rules_to_dict(self.rules), "lineup": list(self.lineup),
                "mode": self.mode, "count": self.count, "seed": self.seed,
                "block_size": self.block_size}

    @property
    def n_blocks(self) -> int:
        return -(-self.count // self.block_size)

    def block_sizes(self) -> list[int]:
        full, rest = divmod(self.count, self.block_size)
        return [self.block_size] * full + ([rest] if rest else [])


KEYS = {  # key -> (python types, meaning)
    "name": ((str,), "a string"),
    "rules": ((str, dict), "a preset name, a rules file or an inline table"),
    "strategy": ((str, dict, list), "a strategy name, a table with 'name', or a list of 4"),
    "games": ((int,), "a positive integer"),
    "hands": ((int,), "a positive integer"),
    "seed": ((int,), "a non-negative integer"),
    "block_size": ((int,), "a positive integer"),
}


def _lineup(spec, source) -> tuple[dict, ...]:
    from strategies import make_strategy  # strategies depend on sim, not the other way round

    seats = spec if isinstance(spec, list) else [spec] * 4
    if len(seats) != 4:
        raise UserError(f"a list of strategies needs one per seat (4), got {len(seats)}",
                        source=source, key="strategy")
    return tuple(make_strategy(s, source).to_dict() for s in seats)


def build_experiment(table: Mapping[str, Any], source: str | None = None,
                     base_dir: Path | None = None) -> Experiment:
    for key, value in table.items():
        if key not in KEYS:
            raise UserError(f"unknown key; allowed keys: {', '.join(KEYS)}", source=source,
                            key=key)
        types, meaning = KEYS[key]
        bad_int = type(value) is int and value < (0 if key == "seed" else 1)
        if type(value) not in types or bad_int:
            raise UserError(f"{show_value(value)} is not allowed; allowed: {meaning}", source=source,
                            key=key)
    if "games" in table and "hands" in table:
        raise UserError("give either 'games' or 'hands', not both", source=source, key="hands")
    mode = "hands" if "hands" in table else "games"
    rules_spec = table.get("rules", "spades.standard")
    if isinstance(rules_spec, str) and rules_spec.endswith(".toml") and base_dir is not None:
        candidate = base_dir / rules_spec
        rules_spec = str(candidate) if candidate.exists() else rules_spec
    rules = load_rules(rules_spec, source=f"{source}: rules" if source else None)
    label = rules_spec if isinstance(rules_spec, str) else "inline"
    return Experiment(
        name=table.get("name", "experiment"), rules=rules, rules_label=label,
        lineup=_lineup(table.get("strategy", "seed"), source), mode=mode,
        count=table.get(mode, 1000), seed=table.get("seed", 0),
        block_size=table.get("block_size", 1000), source=source)


def load_experiment(path: str | Path | None = None, overrides: Mapping[str, Any] = ()):
    """Read an experiment file (default: experiments/default.toml) and apply overrides (the
    command line's values, already parsed; ``games`` replaces ``hands`` and vice versa)."""
    path = Path(path) if path else DEFAULT_EXPERIMENT
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError("no such experiment file", source=str(path)) from None
    except tomllib.TOMLDecodeError as err:
        raise UserError(f"not valid TOML: {err}", source=str(path)) from None
    build_experiment(table, str(path), path.parent)  # the file alone must be valid
    overrides = dict(overrides)
    if "games" in overrides or "hands" in overrides:
        table.pop("games", None)
        table.pop("hands", None)
    table.update(overrides)
    return build_experiment(table, str(path), path.parent)

