"""Cross-check fixture against OpenSpiel's Spades engine (tests/fixtures/openspiel_spades.jsonl.gz).

The fixture is made by tests/fixtures/make_openspiel_fixture.py (its docstring explains how
OpenSpiel's rules map to RULES.md's ``spades.openspiel``). These tests need no OpenSpiel except the
last one, which regenerates the first hands live and is skipped without ``pyspiel``.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

from sim.cards import RANKS, SUITS

FIXTURES = Path(__file__).with_name("fixtures")
FIXTURE = FIXTURES / "openspiel_spades.jsonl.gz"
SCRIPT = FIXTURES / "make_openspiel_fixture.py"

DECK = {r + s for r in RANKS for s in SUITS}


@pytest.fixture(scope="module")
def records() -> list[dict]:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def side_of(seat: int) -> int:
    return seat % 2


def card_strength(card: str, led: str) -> int:
    """Trick order: any spade beats any card of the led suit, which beats any other card."""
    tier = 2 if card[1] == "S" else (1 if card[1] == led else 0)
    return 100 * tier + RANKS.index(card[0])


def play_out(rec: dict) -> list[int]:
    """Replay the plays under spades.openspiel, asserting legality; return tricks per seat.

    Seat left of the dealer leads trick 1; clockwise; must follow suit; spades trump; the winner
    leads; spades may be led only by a player holding nothing but spades (never "broken").
    """
    hands = [set(h) for h in rec["hands"]]
    plays = rec["plays"]
    tricks = [0] * 4
    leader = (rec["dealer"] + 1) % 4
    for t in range(13):
        cards = plays[4 * t : 4 * t + 4]
        seats = [(leader + i) % 4 for i in range(4)]
        led = cards[0][1]
        for i, (seat, card) in enumerate(zip(seats, cards, strict=True)):
            hand = hands[seat]
            where = f"trick {t + 1}, seat {seat}, card {card}"
            assert card in hand, f"{where}: not in hand"
            if i == 0:
                assert card[1] != "S" or all(c[1] == "S" for c in hand), f"{where}: spade lead"
            else:
                assert card[1] == led or all(c[1] != led for c in hand), f"{where}: revoke"
            hand.remove(card)

        best = max(range(4), key=lambda i: card_strength(cards[i], led))
        leader = seats[best]
        tricks[leader] += 1
    assert not any(hands)
    return tricks


def expected_points(bids: list[int], tricks: list[int]) -> list[int]:
    """Our reading of spades.openspiel for one hand from 0-0 (bag limit 10, penalty 100)."""
    points = [0, 0]
    for side in (0, 1):
        seats = [s for s in range(4) if side_of(s) == side]
        contract = sum(bids[s] for s in seats)  # a nil contributes 0
        taken = sum(tricks[s] for s in seats)  # nil bidders' tricks count too
        if taken < contract:
            points[side] -= 10 * contract
        else:
            overtricks = taken - contract
            points[side] += 10 * contract + overtricks
            if overtricks >= 10:
                points[side] -= 100
        for s in seats:
            if bids[s] == 0:
                points[side] += -100 if tricks[s] else 100
    return points


def test_fixture_size(records):
    assert len(records) == 3000
    assert FIXTURE.stat().st_size < 600_000


def test_integrity(records):
    for n, rec in enumerate(records):
        where = f"record {n}"
        assert rec["game"] == "spades", where
        assert rec["rules"] == "spades.openspiel", where
        assert rec["dealer"] == 3, where
        assert rec["blind"] == [False] * 4, where
        hands = rec["hands"]
        assert len(hands) == 4 and all(len(h) == 13 for h in hands), where
        dealt = [c for h in hands for c in h]
        assert len(set(dealt)) == 52 and set(dealt) == DECK, where
        assert len(rec["plays"]) == 52 and sorted(rec["plays"]) == sorted(dealt), where
        bids = rec["bids"]
        assert len(bids) == 4 and all(isinstance(b, int) and 0 <= b <= 13 for b in bids), where
        assert bids[0] + bids[2] <= 13 and bids[1] + bids[3] <= 13, where
        os_ = rec["openspiel"]
        assert os_["returns"] == [os_["points"][side_of(s)] for s in range(4)], where
        assert sum(os_["tricks"]) == 13, where


def test_points_rederived(records):
    """Per-side points from bids + replayed tricks equal OpenSpiel's for every record."""
    mismatches = []
    for n, rec in enumerate(records):
        tricks = play_out(rec)
        assert tricks == rec["openspiel"]["tricks"], f"record {n}: trick counts"
        points = expected_points(rec["bids"], tricks)
        if points != rec["openspiel"]["points"]:
            mismatches.append((n, rec["bids"], tricks, points, rec["openspiel"]["points"]))
    assert not mismatches, mismatches[:10]


def test_fixture_covers_the_edge_cases(records):
    """The random hands exercise nil, double nil, counted nil tricks and the bag penalty."""
    seen = Counter()
    for rec in records:
        bids, tricks = rec["bids"], rec["openspiel"]["tricks"]
        for side in (0, 1):
            seats = (side, side + 2)
            contract = sum(bids[s] for s in seats)
            taken = sum(tricks[s] for s in seats)
            nils = [s for s in seats if bids[s] == 0]
            seen["double_nil"] += len(nils) == 2
            seen["nil_made"] += any(tricks[s] == 0 for s in nils)
            seen["nil_failed"] += any(tricks[s] > 0 for s in nils)
            # contract made only thanks to the failed nil bidder's tricks
            seen["nil_tricks_count"] += (
                bool(nils)
                and contract > 0
                and (taken >= contract > taken - sum(tricks[s] for s in nils))
            )
            seen["set"] += taken < contract
            seen["bag_penalty"] += taken - contract >= 10
    for case in ("double_nil", "nil_made", "nil_failed", "nil_tricks_count", "set", "bag_penalty"):
        assert seen[case] > 0, (case, seen)


def test_live_regeneration_matches(records):
    pytest.importorskip("pyspiel")
    spec = importlib.util.spec_from_file_location("make_openspiel_fixture", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    live = list(module.generate(25, module.DEFAULT_SEED))
    assert live == records[:25]
    for rec in live:
        assert module.check_record(rec) == []
