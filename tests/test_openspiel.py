"""The engine against OpenSpiel's Spades, hand by hand (STYLE.md section 11: an authority).

tests/fixtures/openspiel_spades.jsonl.gz holds 3000 hands that OpenSpiel 2.0.2 played with
uniform random choices (tests/fixtures/make_openspiel_fixture.py), as RULES.md section 5 records
with OpenSpiel's own result under ``"openspiel"``: ``points`` per side and ``tricks`` per seat.
Every record is replayed by ``sim.replay.replay_records`` under ``spades.openspiel``; the engine
must accept every bid and card (OpenSpiel only makes legal moves) and score exactly what
OpenSpiel scored.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import sim  # noqa: F401  (registers the presets)
from sim.replay import replay_records

FIXTURE = Path(__file__).with_name("fixtures") / "openspiel_spades.jsonl.gz"


@pytest.fixture(scope="module")
def items() -> list[tuple[int, dict]]:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as fh:
        return [(n, json.loads(line)) for n, line in enumerate(fh, start=1)]


@pytest.fixture(scope="module")
def replayed(items) -> list[dict]:
    return replay_records(items, rules="spades.openspiel", source=str(FIXTURE))


def test_fixture_is_complete(items):
    assert len(items) == 3000


def test_points_equal_openspiel(items, replayed):
    wrong = [(line, rec["bids"], out["tricks"], out["points"], rec["openspiel"]["points"])
             for (line, rec), out in zip(items, replayed, strict=True)
             if out["points"] != rec["openspiel"]["points"]]
    assert not wrong, f"{len(wrong)} of {len(items)} hands differ, first: {wrong[:5]}"


def test_tricks_equal_openspiel(items, replayed):
    wrong = [line for (line, rec), out in zip(items, replayed, strict=True)
             if out["tricks"] != rec["openspiel"]["tricks"]]
    assert not wrong, f"{len(wrong)} hands differ in trick counts, first lines: {wrong[:10]}"


def test_outputs_are_consistent(items, replayed):
    """From 0-0: after = points; points = the sum of the components; 13 winners per hand whose
    tally is the trick count."""
    for (line, _), out in zip(items, replayed, strict=True):
        comps = out["components"]
        assert [sum(comps[c][s] for c in comps) for s in (0, 1)] == out["points"], line
        assert out["after"]["scores"] == out["points"], line
        assert len(out["winners"]) == 13, line
        assert [out["winners"].count(s) for s in range(4)] == out["tricks"], line


def test_records_own_rules_give_the_same(items, replayed):
    """Each record names ``"rules": "spades.openspiel"`` itself; without the override the replay
    must be identical."""
    assert all(rec["rules"] == "spades.openspiel" for _, rec in items)
    assert replay_records(items) == replayed
