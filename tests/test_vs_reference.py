"""Spades' scalar reference against ``sim.replay`` and the engine's bid masks (STYLE.md section
11): records of whole games replay alike, illegal plays and bids are refused alike.

The ``vs_reference`` variant table (tests/harness/variants.py: section 3 rule sets with
non-default numbers, whole games by both strategies; random players' games made longer, no mercy
rule and six hands, so that the carried state varies; ``blind_nil_min_deficit`` small so that
random players bid blind nil often) is compared with the reference hand by hand by
tests/test_conformance.py's ``test_engine_equals_reference``. Here ``sim.replay.replay_records``
(full records and score-sheet records) must equal the reference too, and must reject what the
reference rejects; the simulated hands reach every scoring case the comparison is meant to test.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import numpy as np
import pytest

from harness.spades import ref, ref_rules
from harness.variants import TABLES, play
from sim.errors import UserError
from sim.options import PRESETS
from sim.replay import replay_records
from sim.tricks import IllegalPlay as EngineIllegalPlay

STANDARD, OPENSPIEL = PRESETS["spades.standard"], PRESETS["spades.openspiel"]
replace = dataclasses.replace


def run(name: str, strategy: str):
    return play("vs_reference", name, strategy, "games")


CASES = [(n, s) for n, s, _ in TABLES["vs_reference"].cases()]


def output_view(out: dict) -> dict:
    """A replay output record in the same layout (winners absent in score-sheet mode)."""
    return {k: out.get(k) for k in ("tricks", "winners", "points", "components", "after")}


@pytest.mark.parametrize(("name", "strategy"), CASES)
def test_replay_records_equals_reference(name, strategy):
    sim = run(name, strategy)
    rules = ref_rules(sim.rules)
    items = list(enumerate(sim.records, start=1))
    expected = [ref.replay_hand(rec, rules) for rec in sim.records]
    # the records' own inline rules, then the same rules given as an override
    for outs in (replay_records(items), replay_records(items, rules=sim.rules)):
        for (line, rec), out, exp in zip(items, outs, expected, strict=True):
            assert output_view(out) == exp, f"{name}/{strategy} line {line}"
            assert {k: out[k] for k in rec} == rec  # the input is kept as it was
    # score-sheet mode: bids + tricks only, as a user's score sheet would give them
    sheets = [(line, {"game": "spades", "dealer": rec["dealer"], "bids": rec["bids"],
                      "blind": rec["blind"], "tricks": exp["tricks"], "before": rec["before"]})
              for (line, rec), exp in zip(items, expected, strict=True)]
    for (line, _), out, exp in zip(sheets, replay_records(sheets, rules=sim.rules), expected,
                                   strict=True):
        assert output_view(out) == {**exp, "winners": None}, f"{name}/{strategy} sheet {line}"


def test_the_comparison_covers_the_scoring_cases():
    """The simulated hands reach every scoring branch that the comparison is meant to test."""
    seen = Counter()
    for name, strategy in CASES:
        sim = run(name, strategy)
        parts = sim.components
        for i, rec in enumerate(sim.records):
            bids, blind, tricks = rec["bids"], rec["blind"], sim.tricks[i]
            seen["carried score"] += any(rec["before"]["scores"])
            seen["carried bags"] += any(rec["before"]["bags"])
            for side in (0, 1):
                seats = (side, side + 2)
                nils = [s for s in seats if bids[s] == 0]
                seen["double nil"] += len(nils) == 2
                for s in nils:
                    kind = "blind nil" if blind[s] else "nil"
                    seen[f"{kind} {'made' if tricks[s] == 0 else 'failed'}"] += 1
                seen["set"] += parts["contract"][i, side] < 0
                seen["bag penalty"] += parts["bag_penalty"][i, side] < 0
                seen["penalty on carried bags"] += (parts["bag_penalty"][i, side] < 0
                                                    and rec["before"]["bags"][side] > 0)
    cases = ("carried score", "carried bags", "double nil", "nil made", "nil failed",
             "blind nil made", "blind nil failed", "set", "bag penalty", "penalty on carried bags")
    for case in cases:
        assert seen[case] >= 3, (case, seen)


# --- the replay rejects what the reference rejects ---------------------------------------------


def first_illegal_substitute(rec: dict, rules: dict):
    """The record with its first constrained play (a seat holding a card it may not play) replaced
    by such a card, plus the (trick, seat) of that play; None if no play was constrained."""
    hands = [list(h) for h in rec["hands"]]
    leader = (rec["dealer"] + 1) % 4
    broken = False
    plays = rec["plays"]
    for t in range(13):
        trick = plays[4 * t: 4 * t + 4]
        for j, card in enumerate(trick):
            seat = (leader + j) % 4
            legal = ref.legal_plays(hands[seat], trick[:j], broken, rules)
            illegal = [c for c in hands[seat] if c not in legal]
            if illegal:
                bad = list(plays)
                bad[4 * t + j] = illegal[0]
                return rec | {"plays": bad}, t + 1, seat
            hands[seat].remove(card)
        broken = broken or any(c[1] == "S" for c in trick)
        leader = ref.trick_winner(trick, leader)
    return None


@pytest.mark.parametrize("name", ["standard", "openspiel", "free spades, max_team_bid 11"])
def test_illegal_plays_rejected_like_the_reference(name):
    sim = run(name, "random")
    rules = ref_rules(sim.rules)
    tested = 0
    for rec in sim.records[:30]:
        found = first_illegal_substitute(rec, rules)
        if found is None:
            continue
        bad, trick, seat = found
        with pytest.raises(ref.IllegalPlay, match=rf"trick {trick}, seat {seat}\b"):
            ref.replay_hand(bad, rules)
        with pytest.raises(EngineIllegalPlay) as err:
            replay_records([(7, bad)])
        assert (err.value.trick, err.value.seat, err.value.line) == (trick, seat, 7)
        assert re.search(rf"trick {trick}, seat {seat}\b", str(err.value))
        tested += 1
    assert tested >= 10


def illegal_bid_records():
    """(label, rules value, record) with one illegal bid each, per reference.legal_bids."""
    no_nil = replace(STANDARD, nil=False, blind_nil=False)
    base = {"game": "spades", "dealer": 3, "blind": [False] * 4}
    return [
        # nil = false: the minimum bid is 1, seat 1's 0 is illegal
        ("nil under nil=false", no_nil, base | {"bids": [4, 0, 5, 4]}),
        # max_team_bid = 13 (OpenSpiel): seat 0 bids 7, then partner seat 2 bids 7: 14 > 13
        ("team bid 14 > 13", OPENSPIEL, base | {"bids": [7, 0, 7, 0]}),
        # blind nil at 0-0 with the standard deficit of 100
        ("blind nil not trailing", STANDARD, base | {"bids": [4, 0, 5, 4],
                                                     "blind": [False, True, False, False]}),
        # a blind bid that is not nil (section 3 knows blind nil only)
        ("blind 3", STANDARD, base | {"bids": [4, 3, 5, 1], "blind": [False, True, False, False],
                                      "before": {"scores": [200, 0], "bags": [0, 0]}}),
    ]


@pytest.mark.parametrize("mode", ["full record", "score sheet"])
@pytest.mark.parametrize("case", range(4))
def test_illegal_bids_rejected_like_the_reference(case, mode):
    label, rules, rec = illegal_bid_records()[case]
    if mode == "full record":  # a legal-looking play of a simulated deal
        model = run("standard", "random").records[0]  # game 0, hand 1: dealer 3, from 0-0
        assert model["dealer"] == rec["dealer"] and model["before"]["scores"] == [0, 0]
        rec = rec | {"hands": model["hands"], "plays": model["plays"]}
    else:
        rec = rec | {"tricks": [4, 1, 5, 3]}
    with pytest.raises(ref.IllegalBid):
        ref.replay_hand(rec, ref_rules(rules))
    with pytest.raises(UserError):
        out = replay_records([(1, rec)], rules=rules)
        pytest.fail(f"{label} ({mode}) accepted by sim.replay: points {out[0]['points']}, "
                    f"components {out[0]['components']}")


def test_sim_and_reference_agree_on_bid_masks_where_both_are_defined():
    """The bids a seat may make, engine mask vs reference list, over partner bids and rules.

    With nil = false and max_team_bid the engine keeps room for the partner still to bid (at
    least 1), so its first partner's range may be one narrower than the reference's; that is the
    only allowed difference (the reference would then leave the partner no legal bid)."""
    from sim.spades.bidding import bid_masks

    for rules in (STANDARD, OPENSPIEL, replace(STANDARD, max_team_bid=9),
                  replace(STANDARD, nil=False, blind_nil=False, max_team_bid=10)):
        rd = ref_rules(rules)
        for partner in range(-1, 14):
            made = {} if partner < 0 else {2: partner}
            want = ref.legal_bids(0, made, [0, 0], rd)["bids"]
            if not want:
                continue
            bids = np.array([[-1, -1, partner, -1]], np.int8)
            mask = int(bid_masks(bids, np.zeros(1, np.int8), rules)[0])
            got = [v for v in range(32) if mask >> v & 1]  # every bit of the uint32 mask
            if partner < 0 and not rules.nil and rules.max_team_bid is not None:
                assert got == [b for b in want if b <= rules.max_team_bid - 1]
            else:
                assert got == want, (rules, partner)
