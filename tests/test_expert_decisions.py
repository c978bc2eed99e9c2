"""The experts made faster decide exactly as before (issue 21 item 4): every bid, declaration and
card of fixed deals, per rules value × line-up × mode, agrees with the digests stored by the code
before the change (tests/data/expert_decisions.json, made by ``python tests/expert_decisions.py``;
see that module for the cells)."""

from __future__ import annotations

import json

import pytest

import expert_decisions as ed
from sim.options import load_rules
from strategies import make_strategy

STORED = json.loads(ed.STORED.read_text(encoding="utf-8"))
CELLS = ed.cells()
# Spades' expert was not changed by the speed work; its cells (a third of the time) run in the
# full pass only.
QUICK = ("norwegian", "portland")


def _game(cell) -> str:
    return load_rules(ed.rules_names()[cell[0]]).game


def test_every_cell_has_a_stored_digest():
    assert {ed.cell_key(*cell) for cell in CELLS} == set(STORED)


@pytest.mark.parametrize(
    "cell", [c if _game(c) in QUICK else pytest.param(c, marks=pytest.mark.slow) for c in CELLS],
    ids=[ed.cell_key(*c) for c in CELLS])
def test_same_decisions(cell):
    assert ed.records_digest(*cell) == STORED[ed.cell_key(*cell)]


@pytest.mark.parametrize("game, change", [
    ("norwegian", {"count_discard": False}),  # the discards by `lead_odds`
    ("portland", {"discard_weakest": False}),
])
def test_a_changed_decision_shows(monkeypatch, game, change):
    """The digest sees one skill turned off (the comparison can fail)."""
    rules = "norwegian.zero_sum" if game == "norwegian" else "portland"
    monkeypatch.setattr(ed, "lineups", lambda g, n: {
        "expert": [make_strategy({"name": "expert", **change}, game=g)] * n})
    changed = ed.records_digest(rules, "expert", "hands")
    assert changed["records"] == STORED[f"{rules}/expert/hands"]["records"] == 600
    assert changed["sha256"] != STORED[f"{rules}/expert/hands"]["sha256"]
