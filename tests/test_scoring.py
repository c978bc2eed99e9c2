"""Worked scoring cases from the authorities (STYLE.md section 11), through the engine twice:

* the vectorised ``sim.spades.scoring.score_hands`` (one-row batches), and
* score-sheet hand records (RULES.md section 5: bids and tricks, no cards) replayed by
  ``sim.replay.replay_records``.

Every expected number is derived by hand in the comment next to it from RULES.md section 3, the
seed's examples quoted there, or pagat (John McLeod, "Spades",
https://www.pagat.com/auctionwhist/spades.html, as quoted in tests/test_reference.py). Sides:
side 0 = seats 0 and 2, side 1 = seats 1 and 3. Unless a test says otherwise the rules are
spades.standard: nil 100, blind nil 200, bags 10 -> -100, nil_tricks "bags_only".
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import sim  # noqa: F401  (registers the presets)
from sim.options import PRESETS, load_rules
from sim.replay import replay_records
from sim.spades.scoring import score_hands

STANDARD = PRESETS["spades.standard"]
PARTS = ("contract", "overtricks", "bag_penalty", "nil")


@pytest.fixture(params=["score_hands", "replay"])
def score(request):
    """score(bids, tricks, rules=..., blind=..., scores=..., bags=...) by one of the two paths;
    returns {"points": [2], "components": {part: [2]}, "after": {"scores", "bags"}}."""
    path = request.param

    def run(bids, tricks, rules=STANDARD, blind=(False,) * 4, scores=(0, 0), bags=(0, 0)):
        rules = load_rules(rules)
        if path == "score_hands":
            hs = score_hands(np.array([bids], np.int8), np.array([blind], bool),
                             np.array([tricks], np.int8), np.array([bags], np.int32), rules)
            points = hs.points[0].tolist()
            return {"points": points,
                    "components": {c: getattr(hs, c)[0].tolist() for c in PARTS},
                    "after": {"scores": [s + p for s, p in zip(scores, points, strict=True)],
                              "bags": hs.bags_after[0].tolist()}}
        rec = {"game": "spades", "dealer": 3, "bids": list(bids), "blind": list(blind),
               "tricks": list(tricks), "before": {"scores": list(scores), "bags": list(bags)}}
        out = replay_records([(1, rec)], rules=rules)[0]
        assert "winners" not in out  # score-sheet mode: no play, no trick winners
        return {k: out[k] for k in ("points", "components", "after")}

    return run


def parts(out, side):
    """(contract, overtricks, bag_penalty, nil) of one side."""
    return tuple(out["components"][c][side] for c in PARTS)


# --- the seed's examples (RULES.md section 3, bag_limit / bag_penalty row) ---------------------


def test_bid_5_take_8_is_53(score):
    # Side 0 bids 3 + 2 = 5 and takes 5 + 3 = 8: 10 * 5 + (8 - 5) = 53, 3 bags.
    # Side 1 bids 4 + 4 = 8 and takes 2 + 3 = 5 < 8: set, -10 * 8 = -80.
    out = score([3, 4, 2, 4], [5, 2, 3, 3])
    assert parts(out, 0) == (50, 3, 0, 0)
    assert parts(out, 1) == (-80, 0, 0, 0)
    assert out["points"] == [53, -80]
    assert out["after"] == {"scores": [53, -80], "bags": [3, 0]}


def test_108_with_8_bags_then_53_is_61_with_1_bag(score):
    # Seed: 108 (8 bags) + 53 = 161 with 8 + 3 = 11 bags; 11 >= 10 pays 100 and keeps 11 - 10 = 1
    # bag: 161 - 100 = 61. The hand's points: 53 - 100 = -47.
    out = score([3, 4, 2, 4], [5, 2, 3, 3], scores=(108, 0), bags=(8, 0))
    assert parts(out, 0) == (50, 3, -100, 0)
    assert out["points"][0] == -47
    assert out["after"]["scores"][0] == 61
    assert out["after"]["bags"][0] == 1


@pytest.mark.parametrize("nil_tricks", ["ignored", "bags_only", "count"])
def test_nil_made_partner_set_is_plus_50(score, nil_tricks):
    # Seed: seat 0 bids nil and takes 0 (+100); seat 2 bids 5 and takes 4 (set: -50): +50.
    # The nil bidder took no trick, so the nil_tricks reading cannot matter: "ignored" -50 + 100;
    # "bags_only" adds the nil bidder's 0 tricks as bags: the same +50, 0 bags; "count" counts
    # them toward the 5: 4 + 0 = 4 < 5, still set: +50.
    # Side 1: 4 + 4 = 8 bid, 5 + 4 = 9 taken: 80 + 1 = 81.
    rules = dataclasses.replace(STANDARD, nil_tricks=nil_tricks)
    out = score([0, 4, 5, 4], [0, 5, 4, 4], rules=rules)
    assert parts(out, 0) == (-50, 0, 0, 100)
    assert out["points"] == [50, 81]
    assert out["after"]["bags"] == [0, 1]


@pytest.mark.parametrize(
    ("nil_tricks", "side0", "bags0"),
    [
        # Seat 0's nil fails with 1 trick (-100); seat 2 bids 5 and takes 5.
        # ignored (the seed's -50): 5 >= 5 made, +50; the nil trick is nothing: 50 - 100 = -50.
        ("ignored", (50, 0, 0, -100), 0),
        # bags_only (pagat's usual rule): made +50; the nil trick is 1 bag: 50 + 1 - 100 = -49.
        ("bags_only", (50, 1, 0, -100), 1),
        # count: 5 + 1 = 6 >= 5 made, 1 overtrick: 50 + 1 - 100 = -49.
        ("count", (50, 1, 0, -100), 1),
    ],
)
def test_nil_failed_partner_made_by_nil_tricks(score, nil_tricks, side0, bags0):
    # Side 1: 4 + 4 = 8 bid, 4 + 3 = 7 taken: set, -80.
    rules = dataclasses.replace(STANDARD, nil_tricks=nil_tricks)
    out = score([0, 4, 5, 4], [1, 4, 5, 3], rules=rules)
    assert parts(out, 0) == side0
    assert out["points"] == [sum(side0), -80]
    assert out["after"]["bags"] == [bags0, 0]


def test_nil_tricks_do_not_rescue_the_partner_under_bags_only(score):
    # pagat: "when a nil fails, the tricks won by the nil bidder do not count towards making the
    # partner's bid, but do count as bags". Seat 0 nil takes 2; seat 2 bids 4 and takes 3:
    # set -40, 2 bags +2, nil -100: -138. Under "count": 3 + 2 = 5 >= 4 made: 40 + 1 - 100 = -59.
    out = score([0, 4, 4, 2], [2, 5, 3, 3])
    assert parts(out, 0) == (-40, 2, 0, -100) and out["points"][0] == -138
    out = score([0, 4, 4, 2], [2, 5, 3, 3], rules=dataclasses.replace(STANDARD, nil_tricks="count"))
    assert parts(out, 0) == (40, 1, 0, -100) and out["points"][0] == -59


# --- pagat's sandbagging example ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("taken", "points", "score_after", "bags_after"),
    [
        # pagat, "Scoring": "Suppose a team whose score is 337 bids 5 tricks. If they win 7 tricks
        # they score 52, taking their score to 389. If they win 8 tricks they score 53, but lose
        # 100 because they now have 10 bags, and their score becomes 290 (337 + 53 - 100). If they
        # win 9 tricks they score 54 and lose 100, bringing their score to 291." (337 = 7 bags:
        # pagat keeps the bags in the units digit.)
        (7, 52, 389, 9),  # 50 + 2; 7 + 2 = 9 bags, below 10
        (8, 53 - 100, 290, 0),  # 50 + 3; 7 + 3 = 10 bags: -100, 0 left
        (9, 54 - 100, 291, 1),  # 50 + 4; 7 + 4 = 11 bags: -100, 1 left
    ],
)
def test_pagat_337(score, taken, points, score_after, bags_after):
    # Side 0 bids 2 + 3 = 5, seat 2 takes 3 and seat 0 the rest of `taken`; side 1 (bids 4 + 4)
    # takes the other 13 - taken tricks.
    out = score([2, 4, 3, 4], [taken - 3, 0, 3, 13 - taken], scores=(337, 0), bags=(7, 0))
    assert out["points"][0] == points
    assert out["after"]["scores"][0] == score_after
    assert out["after"]["bags"][0] == bags_after


# --- blind nil ---------------------------------------------------------------------------------


def test_blind_nil_made_is_plus_200(score):
    # Side 0 trails 0 - 150 (>= 100: blind nil allowed). Seat 0 blind nil takes 0: +200; seat 2
    # bids 4 and takes 5: 40 + 1. Side 0: 241. Side 1: 3 + 3 = 6 bid, 4 + 4 = 8 taken: 62.
    out = score([0, 3, 4, 3], [0, 4, 5, 4], blind=(True, False, False, False), scores=(0, 150))
    assert parts(out, 0) == (40, 1, 0, 200)
    assert out["points"] == [241, 62]
    assert out["after"]["scores"] == [241, 212]


def test_blind_nil_failed_is_minus_200(score):
    # Seat 0 blind nil takes 1: -200, and under bags_only that trick is 1 bag; seat 2 bids 4 and
    # takes 4: +40. Side 0: 40 + 1 - 200 = -159. Side 1: 6 bid, 4 + 4 = 8 taken: 62.
    out = score([0, 3, 4, 3], [1, 4, 4, 4], blind=(True, False, False, False), scores=(0, 150))
    assert parts(out, 0) == (40, 1, 0, -200)
    assert out["points"] == [-159, 62]


def test_blind_and_plain_nil_on_one_side(score):
    # Seat 0 blind nil takes 0 (+200), seat 2 plain nil takes 2 (-100; 2 bags under bags_only):
    # no contract. Side 0: 200 - 100 + 2 = 102. Side 1: 5 + 4 = 9 bid, 6 + 5 = 11 taken: 92.
    out = score([0, 5, 0, 4], [0, 6, 2, 5], blind=(True, False, False, False), scores=(0, 100))
    assert parts(out, 0) == (0, 2, 0, 100)
    assert out["points"] == [102, 92]


# --- double nil --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("nil_tricks", "side0"),
    [
        # Seats 0 and 2 both bid nil and both fail (1 and 2 tricks): -100 - 100 = -200, no
        # contract. Their 3 tricks: "count" -> every trick of a side without a contract is a bag
        # (OpenSpiel): +3; "bags_only" -> all are nil tricks, so bags: +3; "ignored": nothing.
        ("count", (0, 3, 0, -200)),
        ("bags_only", (0, 3, 0, -200)),
        ("ignored", (0, 0, 0, -200)),
    ],
)
def test_double_nil_failed(score, nil_tricks, side0):
    # Side 1: 3 + 4 = 7 bid, 6 + 4 = 10 taken: 70 + 3 = 73.
    out = score([0, 3, 0, 4], [1, 6, 2, 4], rules=dataclasses.replace(STANDARD,
                                                                        nil_tricks=nil_tricks))
    assert parts(out, 0) == side0
    assert out["points"] == [sum(side0), 73]
    assert out["after"]["bags"] == [side0[1], 3]


@pytest.mark.parametrize("nil_tricks", ["count", "bags_only", "ignored"])
def test_double_nil_made(score, nil_tricks):
    # Both nils take 0: +100 + 100 = 200 in every reading. Side 1: 7 bid, 13 taken: 70 + 6 = 76.
    out = score([0, 3, 0, 4], [0, 7, 0, 6], rules=dataclasses.replace(STANDARD,
                                                                        nil_tricks=nil_tricks))
    assert out["points"] == [200, 76]
    assert parts(out, 0) == (0, 0, 0, 200)


def test_one_nil_made_one_failed(score):
    # Seat 0 nil takes 0 (+100), seat 2 nil takes 3 (-100, 3 bags): 0 + 3 = 3.
    # Side 1: 4 + 4 = 8 bid, 10 taken: 82.
    out = score([0, 4, 0, 4], [0, 5, 3, 5])
    assert parts(out, 0) == (0, 3, 0, 0)
    assert out["points"] == [3, 82]


# --- bag penalties -----------------------------------------------------------------------------


def test_short_preset_5_bags_cost_50(score):
    # spades.short: every 5 bags cost 50. 3 bags before; bid 5 take 8: 53, 3 + 3 = 6 bags:
    # -50, 6 - 5 = 1 left. Points 53 - 50 = 3.
    out = score([3, 4, 2, 4], [5, 2, 3, 3], rules="spades.short", bags=(3, 0))
    assert parts(out, 0) == (50, 3, -50, 0)
    assert out["points"][0] == 3
    assert out["after"]["bags"] == [1, 0]


def test_short_preset_exactly_5_bags(score):
    # 4 bags before; side 0 bids 5, takes 4 + 2 = 6: 51, 4 + 1 = 5 bags: -50, 0 left: 1.
    # Side 1: 8 bid, 4 + 3 = 7 taken: -80.
    out = score([3, 4, 2, 4], [4, 4, 2, 3], rules="spades.short", bags=(4, 0))
    assert parts(out, 0) == (50, 1, -50, 0)
    assert out["points"] == [1, -80]
    assert out["after"]["bags"] == [0, 0]


def test_two_bag_penalties_in_one_hand(score):
    # 9 bags before; side 0 bids 1 + 1 = 2 and takes 13: 20 + 11; 9 + 11 = 20 bags: two
    # penalties, -200, 0 left: 20 + 11 - 200 = -169. Side 1 bids 1 + 1, takes 0: -20.
    out = score([1, 1, 1, 1], [7, 0, 6, 0], bags=(9, 0))
    assert parts(out, 0) == (20, 11, -200, 0)
    assert out["points"] == [-169, -20]
    assert out["after"]["bags"] == [0, 0]


def test_set_side_keeps_its_bags(score):
    # A set side takes no overtricks; its carried 9 bags stay 9. Side 0 bids 4 + 4 = 8, takes
    # 3 + 3 = 6: -80. Side 1 bids 2 + 2 = 4, takes 4 + 3 = 7: 40 + 3, 8 + 3 = 11 bags: -100,
    # 1 left: -57.
    out = score([4, 2, 4, 2], [3, 4, 3, 3], scores=(100, 100), bags=(9, 8))
    assert out["points"] == [-80, -57]
    assert out["after"] == {"scores": [20, 43], "bags": [9, 1]}


# --- records carrying their own rules (RULES.md section 5) -------------------------------------


def test_record_with_an_inline_rules_table():
    # Section 5: "rules": "... or an inline table of keys (over the game's default preset)".
    # Over spades.standard with nil_tricks = "ignored", the failed-nil case above is -50; under
    # spades.short's own table (preset key) with the same key, the same -50.
    base = {"game": "spades", "dealer": 3, "bids": [0, 4, 5, 4], "tricks": [1, 4, 5, 3]}
    with_preset = base | {"rules": {"preset": "spades.short", "nil_tricks": "ignored"}}
    assert replay_records([(1, with_preset)])[0]["points"] == [-50, -80]
    plain = base | {"rules": {"nil_tricks": "ignored"}}
    assert replay_records([(1, plain)])[0]["points"] == [-50, -80]
