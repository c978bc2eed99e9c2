"""docs/VARIANTS.md, the table of every RULES.md key and its status (sim/variants.py), is current,
complete and honest: every key RULES.md names is catalogued, every implemented key is a rules
field that a test names, and no rules field is missing from the table."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from sim.games import GAMES  # noqa: F401  (registers the presets)
from sim.options import PRESETS
from sim.variants import CATALOGUE, NOT_KEYS, keys_named_in_rules, render, status_of

ROOT = Path(__file__).resolve().parent.parent


def test_the_document_is_current():
    on_disk = (ROOT / "docs" / "VARIANTS.md").read_text(encoding="utf-8")
    assert on_disk == render(), "regenerate: python -m sim.variants docs/VARIANTS.md"


def test_every_key_rules_md_names_is_catalogued():
    named = keys_named_in_rules()
    catalogued = {k.key for k in CATALOGUE if not k.beyond}
    assert named - NOT_KEYS == catalogued
    assert not NOT_KEYS & catalogued


def test_the_key_finder_reads_code_font():
    text = ("`alpha`, `beta = 3`, `-gamma_x`, `\"delta\"`, `players = 4, partnerships = false`, "
            "`kitty_taker =\n  \"x\"`, `AS`, `2C`")
    assert keys_named_in_rules(text) == {"alpha", "beta", "gamma_x", "players", "partnerships",
                                         "kitty_taker"}


def test_every_rules_field_is_in_the_table():
    for game in ("spades", "portland", "norwegian"):
        rules = next(r for r in PRESETS.values() if r.game == game)
        fields = {f.name for f in dataclasses.fields(rules)}
        listed = {k.key for k in CATALOGUE if k.game == game}
        assert fields <= listed, (game, fields - listed)


def test_implemented_keys_are_named_by_a_test_and_the_rest_say_why():
    for entry in CATALOGUE:
        implemented, status = status_of(entry)
        if implemented:
            assert "no test names it" not in status, entry
        else:
            assert entry.later and entry.later in status, entry
    assert sum(status_of(k)[0] for k in CATALOGUE) >= 29
