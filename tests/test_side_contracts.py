"""The RULES.md §4.4 side contracts in the engine equal the scalar reference (tests/reference.py).

Keys: ``team_nil``, ``team_blind_nil``, ``ten_for_two_hundred`` (+ ``ten_for_200_fail``,
``ten_for_200_exact``, ``tens_are_wheels``), ``mo_a``, ``mo_b``, ``bemo``, ``blind_six`` (+
``blind_six_at_least``), ``blind_moon``. A side contract replaces a side's two bids (their record
entries are null; ``"side_contracts"`` names it by side); bemo comes on top (``"bemo"`` by side).
Layers, as tests/test_bid_rules.py:

* declarations: in every reachable bidding situation (declarations, blind nils and a few bids
  made before the turn, as the reference allows them), what the engine offers a seat — a blind
  side contract, a sighted one, its ordinary bids, a bemo after its bid — equals
  ``reference.legal_side_contracts`` / ``legal_bids`` / ``legal_bemo``;
* scoring: ``sim.spades.scoring.score_hands`` equals ``reference.score_hand`` (every component,
  bemo included, the bags after and the side that wins at once) on structured and random hands,
  from the order in which the tricks were won;
* records: ``sim.replay.replay_records`` scores hand-made records (full ones for Mo and bemo,
  score sheets for the rest) as ``reference.replay_hand`` does, and refuses what it refuses
  (score sheets declaring Mo or bemo included);
* random play (``random`` and ``seed`` players, hands and games): every record's declarations and
  bids are legal by the reference in bidding order, every hand replays to the engine's numbers
  (Mo's leader under ``mo_b`` included), and games end when ``reference.game_over`` says (a blind
  moon made ends it at once).

Impossible combinations are refused at load by both. A key the engine does not have yet fails its
tests with "the engine has no rules key ...".
"""

from __future__ import annotations

import dataclasses
import inspect
from collections import Counter

import numpy as np
import pytest

from harness import simulate
from harness.spades import COMPONENTS, check_games, check_offered_bids, ref, ref_rules
from sim.errors import UserError
from sim.options import PRESETS, rules_from_mapping
from sim.spades.contracts import NAMES as CONTRACT_NAMES
from test_reference import sequenced

STANDARD = PRESETS["spades.standard"]
FIELDS = {f.name for f in dataclasses.fields(STANDARD)}
PARTS = (*COMPONENTS, "bemo") if "bemo" not in COMPONENTS else COMPONENTS

ANY_BLIND = {"blind_nil_min_deficit": 0}  # blind nils legal from 0-0 (precedence with blind moon)
ALL_SIGHTED = {"team_nil": True, "ten_for_two_hundred": True}
ALL_BLIND = {"team_blind_nil": True, "blind_six": True, "blind_moon": True}
VARIANTS: dict[str, dict] = {
    "team_nil": {"team_nil": True, **ANY_BLIND},
    "team_blind_nil": {"team_blind_nil": True, **ANY_BLIND},
    "wheel": {"ten_for_two_hundred": True},
    "wheel,exact,fail=100": {"ten_for_two_hundred": True, "ten_for_200_exact": True,
                             "ten_for_200_fail": 100},
    "tens_are_wheels": {"ten_for_two_hundred": True, "tens_are_wheels": True},
    "tens_are_wheels,exact,lexington_points": {"ten_for_two_hundred": True,
                                               "tens_are_wheels": True,
                                               "ten_for_200_exact": True,
                                               "lexington_points": True},
    "mo_a": {"mo_a": True},
    "mo_b": {"mo_b": True},
    "bemo": {"bemo": True, **ANY_BLIND},
    "blind_six": {"blind_six": True},
    "blind_six_at_least": {"blind_six": True, "blind_six_at_least": True},
    "blind_moon": {"blind_moon": True, **ANY_BLIND},
    "blind_moon,double_blind_nil=win": {"blind_moon": True, "double_blind_nil": True,
                                        "double_blind_nil_reward": "win", **ANY_BLIND},
    "all,mo_b": {**ALL_SIGHTED, **ALL_BLIND, "mo_b": True, "bemo": True, "hook": True,
                 "moon": True, **ANY_BLIND},
    "all,mo_a": {**ALL_SIGHTED, **ALL_BLIND, "mo_a": True, "bemo": True, "tens_are_wheels": True,
                 "ten_for_200_exact": True, "double_nil": True, **ANY_BLIND},
    # issue 19: min_team_bid binds the sides that bid; bemo comes on top of whiz's bids
    "all,mo_a,min_team_bid": {**ALL_SIGHTED, **ALL_BLIND, "mo_a": True, "bemo": True,
                              "min_team_bid": 4, **ANY_BLIND},
    "wheel,bemo,min_team_bid=6": {"ten_for_two_hundred": True, "bemo": True, "min_team_bid": 6},
    "bemo,whiz": {"bemo": True, "whiz": True, "blind_nil": False},
}


def engine_rules(name: str):
    keys = VARIANTS[name]
    missing = sorted(set(keys) - FIELDS)
    if missing:
        pytest.fail(f"the engine has no rules key {missing} yet")
    return dataclasses.replace(STANDARD, **keys)


def code_of(name: str | None) -> int:
    names = list(CONTRACT_NAMES)
    return 0 if name is None else names.index(name)


def names_of(mask) -> list[str]:
    """The contract names of a uint16 mask of codes (bit 0, none, left out)."""
    names = CONTRACT_NAMES
    return sorted(names[c] for c in range(1, len(names)) if int(mask) >> c & 1)


# --- layer 1: what a seat is offered in every reachable situation -----------------------------


def engine_offers(stage: str, seat, bids, blind, contracts, rules) -> np.ndarray:
    """uint16[N] codes open at ``stage`` ("blind", "sighted", "bemo"), from the engine's
    ``sim.spades.bidding._side_contract_masks`` (or a public ``side_contract_masks``)."""
    from sim.spades import bidding

    fn = getattr(bidding, "side_contract_masks", None) or getattr(bidding, "_side_contract_masks",
                                                                  None)
    if fn is None:
        pytest.fail("sim.spades.bidding has no side_contract_masks: adapt engine_offers")
    params = list(inspect.signature(fn).parameters)
    if params[:6] != ["stage", "seat", "bids", "blind", "contracts", "rules"]:
        pytest.fail(f"{fn.__name__}{inspect.signature(fn)}: expected (stage, seat, bids, blind, "
                    "contracts, rules); adapt engine_offers")
    return fn(stage, seat, bids, blind, contracts, rules)


BID_CHOICES = (0, 3, 4, 6, 10, 13)  # a few ordinary bids (a 6 + 4 side: a wheel by tens)


def situations(rd: dict, dealer: int):
    """Every (seat, made, blind, declared) at each turn of a bidding from ``dealer`` whose earlier
    actions the reference allows: a side's first bidder declares any open side contract, or bids
    blind nil where open, or bids one of BID_CHOICES that is legal; the partner of a side contract
    does nothing."""
    order = [(dealer + 1 + k) % 4 for k in range(4)]
    frontier = [({}, {}, (None, None))]
    for turn in range(4):
        seat = order[turn]
        nxt = []
        for made, blind, declared in frontier:
            yield seat, made, blind, declared
            if turn == 3:
                continue
            side = seat % 2
            if declared[side] is not None:
                nxt.append((made, blind, declared))
                continue
            kw = dict(blind_so_far=blind, side_contracts=list(declared))
            offered = ref.legal_side_contracts(seat, made, rd, **kw)
            for code in offered["blind"] + offered["sighted"]:
                nxt.append((made, blind, tuple(code if s == side else declared[s] for s in (0, 1))))
            allowed = ref.legal_bids(seat, made, [0, 0], rd, **kw)
            if allowed["blind_nil"]:
                nxt.append(({**made, seat: 0}, {**blind, seat: True}, declared))
            nxt.extend(({**made, seat: b}, {**blind, seat: False}, declared)
                       for b in BID_CHOICES if b in allowed["bids"])
        frontier = nxt


def as_arrays(rows):
    """(seat int8[N], bids int8[N, 4] -1 = none, blind bool[N, 4], contracts int8[N, 2])."""
    n = len(rows)
    bids = np.full((n, 4), -1, np.int8)
    blind = np.zeros((n, 4), bool)
    contracts = np.zeros((n, 2), np.int8)
    for i, (_, made, bl, declared) in enumerate(rows):
        for s, b in made.items():
            bids[i, s] = b
            blind[i, s] = bl.get(s, False)
        contracts[i] = [code_of(c) for c in declared]
    return np.array([r[0] for r in rows], np.int8), bids, blind, contracts


@pytest.mark.parametrize("name", VARIANTS)
def test_declarations_offered_equal_the_reference(name):
    """Before looking (blind), after looking (sighted): the side contracts the engine offers a
    seat equal ``reference.legal_side_contracts``; its ordinary bids equal ``legal_bids`` (none
    for the partners of a side contract)."""
    from sim.spades.bidding import bid_masks

    rules = engine_rules(name)
    rd = ref_rules(rules)
    rows = [s for dealer in (3, 0) for s in situations(rd, dealer)]
    seat, bids, blind, contracts = as_arrays(rows)
    got = {stage: engine_offers(stage, seat, bids, blind, contracts, rules)
           for stage in ("blind", "sighted")}
    masks = bid_masks(bids, seat, rules)
    bad = []
    for i, (s, made, bl, declared) in enumerate(rows):
        kw = dict(blind_so_far=bl, side_contracts=list(declared))
        want = ref.legal_side_contracts(s, made, rd, **kw)
        for stage in ("blind", "sighted"):
            if names_of(got[stage][i]) != sorted(want[stage]):
                bad.append(f"seat {s} after {made} blind {bl} declared {declared}: {stage} "
                           f"engine {names_of(got[stage][i])}, reference {sorted(want[stage])}")
        want_bids = ref.legal_bids(s, made, [0, 0], rd, **kw)["bids"]
        if declared[s % 2] is None:  # the engine asks only the seats of a side that bids
            mine = [v for v in range(32) if int(masks[i]) >> v & 1]  # every bit
            if mine != want_bids:
                bad.append(f"seat {s} after {made} declared {declared}: bids engine {mine}, "
                           f"reference {want_bids}")
        else:
            assert want_bids == []
    assert not bad, f"{name}: {len(bad)} of {3 * len(rows)} differ, e.g.\n" + "\n".join(bad[:8])


@pytest.mark.parametrize("name", VARIANTS)
def test_bemo_offered_equals_the_reference(name):
    """Right after each bid (blind nil included) the engine offers the bemos
    ``reference.legal_bemo`` allows: to a side's second bidder, no nil, no side contract."""
    rules = engine_rules(name)
    rd = ref_rules(rules)
    rows = []
    for s, made, bl, declared in (x for dealer in (3, 0) for x in situations(rd, dealer)):
        if declared[s % 2] is not None:
            continue
        allowed = ref.legal_bids(s, made, [0, 0], rd, blind_so_far=bl,
                                 side_contracts=list(declared))
        rows.extend((s, {**made, s: b}, {**bl, s: False}, declared)
                    for b in BID_CHOICES if b in allowed["bids"])
        if allowed["blind_nil"]:
            rows.append((s, {**made, s: 0}, {**bl, s: True}, declared))
    seat, bids, blind, contracts = as_arrays(rows)
    got = engine_offers("bemo", seat, bids, blind, contracts, rules)
    bad = []
    for i, (s, made, _, declared) in enumerate(rows):
        want = sorted(ref.legal_bemo(s, made, rd, side_contracts=list(declared)))
        if names_of(got[i]) != want:
            bad.append(f"seat {s} bids {made} declared {declared}: engine {names_of(got[i])}, "
                       f"reference {want}")
    assert not bad, f"{name}: {len(bad)} of {len(rows)} differ, e.g.\n" + "\n".join(bad[:8])


# --- layer 2: scoring from the order of the tricks -------------------------------------------


def structured_cases():
    """(bids, blind, winners, declared, bemo, bags_before): the hand-derived situations of
    tests/test_reference.py and their edges (codes in names; bids None under a contract)."""
    n = None
    s0 = [0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0]  # side 0 takes all 13
    run8 = [1, 0, 2, 0, 2, 0, 2, 0, 2, 1, 0, 3, 2]  # side 0: tricks 2-9 in a row, 10 in all
    run5 = [0, 2, 0, 2, 0, 1, 0, 2, 0, 2, 2, 3, 1]
    first7 = [1, 3, 1, 3, 1, 3, 1, 0, 2, 0, 2, 0, 2]  # side 1: the first 7, then none
    first10 = [1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 0, 2, 0]
    first6 = [0, 2, 0, 2, 0, 2, 1, 3, 1, 3, 0, 1, 3]  # side 0: the first 6 and trick 11
    first9 = [0, 2, 0, 2, 0, 2, 0, 2, 0, 1, 3, 1, 3]
    eleven = [0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 1, 3]  # side 0 takes 11
    six = [0, 2, 0, 2, 0, 2, 1, 3, 1, 3, 1, 3, 1]
    return [
        ([n, 3, n, 4], [0] * 4, first7, ("team_nil", None), (None, None), [9, 0]),
        ([n, 3, n, 4], [0] * 4, run5, ("team_nil", None), (None, None), [9, 0]),
        ([n, 3, n, 4], [0] * 4, first7, ("team_blind_nil", None), (None, None), [0, 0]),
        ([n, 3, n, 4], [0] * 4, eleven, ("wheel", None), (None, None), [9, 0]),
        ([n, 3, n, 4], [0] * 4, s0, ("wheel", None), (None, None), [8, 0]),
        ([n, 3, n, 4], [0] * 4, run8, ("wheel", None), (None, None), [0, 0]),
        ([n, 3, n, 4], [0] * 4, six, ("wheel", None), (None, None), [0, 0]),
        ([6, 1, 4, 1], [0] * 4, eleven, (None, None), (None, None), [5, 0]),  # tens are wheels
        ([6, 0, 4, 3], [0] * 4, s0, (None, None), (None, None), [5, 9]),
        ([10, 1, 0, 2], [0] * 4, eleven, (None, None), (None, None), [0, 0]),
        ([n, 2, n, 2], [0] * 4, run8, ("big_mo", None), (None, None), [0, 0]),
        ([n, 2, n, 2], [0] * 4, run8, ("little_mo", None), (None, None), [0, 0]),
        ([n, 2, n, 2], [0] * 4, run5, ("little_mo", None), (None, None), [0, 0]),
        ([3, n, 3, n], [0] * 4, first7, (None, "little_mo"), (None, None), [0, 0]),
        ([3, n, 3, n], [0] * 4, first7, (None, "big_mo"), (None, None), [0, 0]),
        ([3, n, 3, n], [0] * 4, first10, (None, "big_mo"), (None, None), [0, 0]),
        ([n, n, n, n], [0] * 4, run8, ("big_mo", "little_mo"), (None, None), [0, 0]),
        ([2, 3, 3, 3], [0] * 4, first6, (None, None), ("little_bemo", None), [0, 0]),
        ([2, 3, 3, 3], [0] * 4, first6, (None, None), ("big_bemo", "little_bemo"), [0, 0]),
        ([5, 1, 4, 2], [0] * 4, first9, (None, None), ("big_bemo", None), [9, 0]),
        ([6, 1, 4, 1], [0] * 4, first9, (None, None), ("big_bemo", None), [0, 0]),
        ([n, 1, n, 1], [0] * 4, eleven, ("blind_six", None), (None, None), [5, 0]),
        ([n, 1, n, 1], [0] * 4, six, ("blind_six", None), (None, None), [5, 0]),
        ([n, 1, n, 1], [0] * 4, first7, ("blind_six", None), (None, None), [5, 0]),
        ([n, 1, n, 1], [0] * 4, s0, ("blind_moon", None), (None, None), [0, 0]),
        ([n, 1, n, 1], [0] * 4, eleven, ("blind_moon", None), (None, None), [0, 0]),
        ([0, n, 0, n], [1, 0, 0, 0], first7, (None, "blind_moon"), (None, None), [0, 0]),
        ([0, n, 0, n], [1, 0, 1, 0], s0, (None, "team_blind_nil"), (None, None), [0, 0]),
        ([13, n, 0, n], [0] * 4, s0, (None, "team_nil"), (None, None), [0, 0]),
    ]


CODES = ("team_nil", "team_blind_nil", "wheel", "little_mo", "big_mo", "blind_six", "blind_moon")


def random_cases(rng: np.random.Generator, rd: dict, n: int = 400):
    """Random winners (often a side's long runs and first tricks), declarations among the keys
    on, bids (some summing to 10, some nil), bemos, bags before."""
    codes = [c for c in CODES if ref._contract_on(c, rd)]
    cases = []
    for _ in range(n):
        winners = rng.integers(0, 4, 13)
        if rng.random() < 0.5:  # a side wins a stretch of k tricks from some trick on
            side, k = rng.integers(0, 2), rng.integers(5, 14)
            start = rng.integers(0, 14 - k)
            winners[start:start + k] = side + 2 * rng.integers(0, 2, k)
        declared = [None, None]
        bids: list = [None] * 4
        blind = [False] * 4
        bemo = [None, None]
        for side in (0, 1):
            if codes and rng.random() < 0.5:
                declared[side] = codes[rng.integers(len(codes))]
                continue
            pair = ([6, 4] if rng.random() < 0.2 else
                    (rng.integers(0, 14, 2) * (rng.random(2) > 0.25)).tolist())
            for k, s in enumerate((side, side + 2)):
                bids[s] = int(pair[k])
                blind[s] = bids[s] == 0 and rng.random() < 0.4
            if rd["bemo"] and 0 not in pair and rng.random() < 0.6:
                bemo[side] = ("little_bemo", "big_bemo")[rng.integers(0, 2)]
        cases.append((bids, blind, winners.tolist(), tuple(declared), tuple(bemo),
                      rng.integers(0, 10, 2).tolist()))
    return cases


@pytest.mark.parametrize("name", VARIANTS)
def test_scoring_equals_the_reference(name):
    from sim.spades.scoring import score_hands

    rules = engine_rules(name)
    rd = ref_rules(rules)
    usable = [c for c in structured_cases()
              if all(x is None or ref._contract_on(x, rd) for x in c[3])
              and (rd["bemo"] or c[4] == (None, None))]
    cases = usable + random_cases(np.random.default_rng(2027), rd)
    winners = np.array([c[2] for c in cases], np.int8)
    tricks = np.stack([(winners == s).sum(axis=1) for s in range(4)], axis=1).astype(np.int8)
    bids = np.array([[-1 if b is None else b for b in c[0]] for c in cases], np.int8)
    blind = np.array([c[1] for c in cases], bool)
    contracts = np.array([[code_of(x) for x in c[3]] for c in cases], np.int8)
    bemo = np.array([[code_of(x) for x in c[4]] for c in cases], np.int8)
    bags = np.array([c[5] for c in cases], np.int32)
    params = list(inspect.signature(score_hands).parameters)
    if params[5:8] != ["contracts", "bemo", "winners"]:
        pytest.fail(f"score_hands{inspect.signature(score_hands)}: expected (..., rules, "
                    "contracts, bemo, winners)")
    got = score_hands(bids, blind, tricks, bags, rules, contracts, bemo, winners)
    bad = []
    for i, (b, bl, w, declared, bm, bg) in enumerate(cases):
        t = tricks[i].tolist()
        want = ref.score_hand(b, [bool(x) for x in bl], t, [0, 0], bg, rd,
                              side_contracts=list(declared), bemo=list(bm), winners=w)
        mine = {"points": got.points[i].tolist(),
                "components": {c: getattr(got, c)[i].tolist() for c in PARTS},
                "bags": got.bags_after[i].tolist(),
                "wins_game": None if got.wins_game[i] < 0 else int(got.wins_game[i])}
        theirs = {"points": want["points"], "components": want["components"],
                  "bags": want["after"]["bags"], "wins_game": want.get("wins_game")}
        if mine != theirs:
            bad.append(f"bids {b} blind {bl} winners {w} tricks {t} contracts {declared} bemo "
                       f"{bm} bags {bg}: engine {mine}, ref {theirs}")
    assert not bad, f"{name}: {len(bad)} of {len(cases)} differ, e.g.\n" + "\n".join(bad[:5])


# --- layer 3: hand-made records through sim.replay ---------------------------------------------

FREE = {"spades_broken": False}  # the sequenced deals lead spades in trick 10 (test_reference)


def played(bids, winners, *, dealer=3, leader=None, **extra) -> dict:
    lead = (dealer + 1) % 4 if leader is None else leader
    hands, plays = sequenced(winners, lead)
    return {"game": "spades", "dealer": dealer, "hands": hands, "bids": list(bids),
            "blind": [False] * 4, "plays": plays, **extra}


def sheet(bids, tricks, *, dealer=3, blind=None, scores=(0, 0), bags=(0, 0), **extra) -> dict:
    return {"game": "spades", "dealer": dealer, "bids": list(bids),
            "blind": [bool(b) for b in (blind or [0] * 4)], "tricks": list(tricks),
            "before": {"scores": list(scores), "bags": list(bags)}, **extra}


n = None
RUN_OF_8 = [1, 0, 2, 0, 2, 0, 2, 0, 2, 1, 0, 3, 2]
FIRST_7 = [1, 3, 1, 3, 1, 3, 1, 0, 2, 0, 2, 0, 2]
FIRST_6 = [0, 2, 0, 2, 0, 2, 1, 3, 1, 3, 0, 1, 3]
# (rules over spades.standard, record): the hand-derived cases of tests/test_reference.py
RECORDS = [
    ({"team_nil": True}, sheet([n, 3, n, 4], [0, 6, 0, 7], bags=(9, 0),
                               side_contracts=["team_nil", None])),
    ({"team_nil": True}, sheet([n, 3, n, 4], [1, 6, 0, 6], bags=(9, 0),
                               side_contracts=["team_nil", None])),
    ({"team_blind_nil": True}, sheet([n, 3, n, 4], [0, 6, 0, 7],
                                     side_contracts=["team_blind_nil", None])),
    ({"ten_for_two_hundred": True, "ten_for_200_exact": True},
     sheet([n, 1, n, 1], [6, 1, 5, 1], bags=(9, 0), side_contracts=["wheel", None])),
    ({"ten_for_two_hundred": True, "ten_for_200_fail": 100},
     sheet([n, 1, n, 1], [5, 2, 4, 2], side_contracts=["wheel", None])),
    ({"ten_for_two_hundred": True, "tens_are_wheels": True}, sheet([6, 1, 4, 1], [7, 1, 5, 0])),
    ({"blind_six": True}, sheet([n, 1, n, 1], [4, 2, 4, 3], side_contracts=["blind_six", None])),
    ({"blind_six": True, "blind_six_at_least": True},
     sheet([n, 1, n, 1], [4, 2, 4, 3], bags=(5, 0), side_contracts=["blind_six", None])),
    ({"blind_moon": True}, sheet([n, 1, n, 1], [7, 0, 6, 0], side_contracts=["blind_moon", None])),
    ({"blind_moon": True}, sheet([n, 1, n, 1], [7, 1, 5, 0], side_contracts=["blind_moon", None])),
    ({"blind_moon": True, "blind_nil_min_deficit": 0},
     sheet([0, n, 0, n], [0, 7, 0, 6], blind=[1, 0, 0, 0], side_contracts=[None, "blind_moon"])),
    ({"hook": True, "team_nil": True},
     sheet([n, 6, n, 7], [0, 6, 0, 7], side_contracts=["team_nil", None])),
    ({"mo_a": True, **FREE}, played([n, 2, n, 2], RUN_OF_8, side_contracts=["big_mo", None])),
    ({"mo_a": True, **FREE}, played([n, 2, n, 2], RUN_OF_8, side_contracts=["little_mo", None])),
    ({"mo_b": True, **FREE}, played([3, n, 3, n], FIRST_7, leader=1,
                                    side_contracts=[None, "little_mo"])),
    ({"mo_b": True, **FREE}, played([3, n, 3, n], FIRST_7, leader=1,
                                    side_contracts=[None, "big_mo"])),
    ({"mo_b": True, **FREE}, played([n, 3, n, 3], FIRST_7, dealer=0, leader=2,
                                    side_contracts=["little_mo", None])),
    ({"bemo": True, **FREE}, played([2, 3, 3, 3], FIRST_6, bemo=["little_bemo", None])),
    ({"bemo": True, **FREE}, played([2, 3, 3, 3], FIRST_6, bemo=["big_bemo", "little_bemo"])),
]


def replay_one(rec: dict, keys: dict):
    from sim.replay import replay_records

    missing = sorted(set(keys) - FIELDS)
    if missing:
        pytest.fail(f"the engine has no rules key {missing} yet")
    return replay_records([(1, rec)], rules=dataclasses.replace(STANDARD, **keys))[0]


def output_view(out: dict) -> dict:
    comp = dict(out["components"])
    comp.setdefault("bemo", [0, 0])
    return {"tricks": out["tricks"], "winners": out.get("winners"), "points": out["points"],
            "components": comp, "after": out["after"], "wins_game": out.get("wins_game")}


@pytest.mark.parametrize("case", range(len(RECORDS)))
def test_records_replay_like_the_reference(case):
    keys, rec = RECORDS[case]
    want = ref.replay_hand(rec, {**keys})
    got = replay_one(rec, keys)
    assert output_view(got) == output_view(want), (keys, rec.get("side_contracts"),
                                                   rec.get("bemo"), rec["bids"])


# (rules, record): refused by the reference (IllegalBid or a malformed record)
ILLEGAL = [
    ({}, sheet([n, 3, n, 4], [4, 3, 3, 3], side_contracts=["team_nil", None])),  # key off
    ({"mo_a": True}, sheet([3, n, 4, n], [4, 3, 3, 3], side_contracts=[None, "wheel"])),
    ({"team_nil": True}, sheet([0, 3, n, 4], [4, 3, 3, 3], side_contracts=["team_nil", None])),
    ({"team_nil": True}, sheet([n, 3, 0, 4], [4, 3, 3, 3], side_contracts=["team_nil", None])),
    ({"team_nil": True}, sheet([n, 3, n, 4], [4, 3, 3, 3])),  # null bids, no contract
    ({"team_nil": True, "blind_nil_min_deficit": 0},  # a blind flag on a side contract's seat
     sheet([n, 3, n, 4], [4, 3, 3, 3], blind=[1, 0, 0, 0], side_contracts=["team_nil", None])),
    ({"team_nil": True}, sheet([n, 3, n, 4], [4, 3, 3, 3], side_contracts=["team_null", None])),
    # mo_b: both sides declare Mo (only one may lead trick 1)
    ({"mo_b": True, **FREE}, played([n, n, n, n], FIRST_7, side_contracts=["little_mo", "big_mo"])),
    ({"mo_b": True, **FREE}, played([n, n, n, n], FIRST_7, leader=1,
                                    side_contracts=["little_mo", "big_mo"])),
    # blind moon first: the opponents may not complete a double blind nil
    ({"blind_moon": True, "blind_nil_min_deficit": 0},
     sheet([0, n, 0, n], [0, 7, 0, 6], blind=[1, 0, 1, 0], side_contracts=[None, "blind_moon"])),
    ({"blind_moon": True, "blind_nil_min_deficit": 0, **FREE},
     played([0, n, 0, n], FIRST_7, blind=[True, False, True, False],
            side_contracts=[None, "blind_moon"])),
    # bemo: off, with a nil, on a side contract
    ({**FREE}, played([2, 3, 3, 3], FIRST_6, bemo=["little_bemo", None])),
    ({"bemo": True, **FREE}, played([0, 3, 5, 3], FIRST_6, bemo=["little_bemo", None])),
    ({"bemo": True, "blind_nil_min_deficit": 0, **FREE},
     played([0, 3, 5, 3], FIRST_6, blind=[True, False, False, False], bemo=["big_bemo", None])),
    ({"bemo": True, "team_nil": True, **FREE},
     played([n, 3, n, 3], FIRST_6, side_contracts=["team_nil", None], bemo=["big_bemo", None])),
    # Mo and bemo on a score sheet: they need the order of the tricks
    ({"mo_a": True}, sheet([n, 2, n, 2], [5, 2, 5, 1], side_contracts=["big_mo", None])),
    ({"mo_b": True}, sheet([n, 2, n, 2], [5, 2, 5, 1], side_contracts=["little_mo", None])),
    ({"bemo": True}, sheet([2, 2, 3, 2], [5, 2, 5, 1], bemo=["little_bemo", None])),
    # mo_b: the plays start with the Mo side's leader, not the dealer's left
    ({"mo_b": True, **FREE}, played([3, n, 3, n], FIRST_7, leader=0,
                                    side_contracts=[None, "little_mo"])),
]


@pytest.mark.parametrize("case", range(len(ILLEGAL)))
def test_illegal_records_refused_like_the_reference(case):
    keys, rec = ILLEGAL[case]
    with pytest.raises(ValueError):
        ref.replay_hand(rec, {**keys})
    try:
        out = replay_one(rec, keys)
    except UserError:
        return
    except ValueError as exc:  # pragma: no cover - a raw error instead of a user error
        pytest.fail(f"sim.replay raised a bare {type(exc).__name__} (not a UserError): {exc}")
    pytest.fail(f"{keys}: bids {rec['bids']} blind {rec['blind']} side_contracts "
                f"{rec.get('side_contracts')} bemo {rec.get('bemo')} accepted by sim.replay: "
                f"points {out['points']}")


# --- layer 4: random play --------------------------------------------------------------------

STRATEGIES = ("random", "seed")
SIZES = {("hands", "random"): 64, ("hands", "seed"): 48, ("games", "random"): 16,
         ("games", "seed"): 6}
SEED = 4444


def run(name: str, strategy: str, mode: str):
    rules = engine_rules(name)
    if mode == "games":
        rules = dataclasses.replace(rules, max_hands=5 if strategy == "random" else 12)
    return simulate(rules, strategy, mode, SIZES[mode, strategy], SEED, 1 if mode == "hands" else 0)


def engine_row(sim, i: int) -> dict:
    bemo, wins = sim.by_side("bemo"), sim.hands["wins_game"]
    return {"tricks": sim.tricks[i].tolist(), "winners": sim.winners[i].tolist(),
            "points": sim.points[i].tolist(),
            "components": {**{c: sim.components[c][i].tolist() for c in COMPONENTS},
                           "bemo": bemo[i].tolist()},
            "after": {"scores": sim.scores_after[i].tolist(), "bags": sim.by_side("bags")[i].tolist()},
            "wins_game": None if wins[i] < 0 else int(wins[i])}


def check_record_shape(rules, rec: dict, where: str) -> None:
    """The brief's record layout, stated directly: the partners of a side contract have a null
    bid (and no blind flag), everybody else an int; names only of keys that are on."""
    declared = rec.get("side_contracts", [None, None])
    bemo = rec.get("bemo", [None, None])
    for seat in range(4):
        covered = declared[seat % 2] is not None
        assert (rec["bids"][seat] is None) == covered, where
        assert not (covered and rec["blind"][seat]), where
    for side in (0, 1):
        if declared[side] is not None:
            assert bemo[side] is None, where
        if bemo[side] is not None:
            assert rules.bemo and 0 not in (rec["bids"][side], rec["bids"][side + 2]), where


CASES = [(n_, s, m) for n_ in VARIANTS for s in STRATEGIES for m in ("hands", "games")]


@pytest.mark.parametrize(("name", "strategy", "mode"), CASES)
def test_random_play_conforms(name, strategy, mode):
    sim = run(name, strategy, mode)
    rules = sim.rules
    rd = ref_rules(rules)
    check_offered_bids(sim, f"{name}/{strategy}/{mode}")  # every bid mask offered
    outs = []
    for i, rec in enumerate(sim.records):
        where = (f"{name}/{strategy}/{mode} record {i}: bids {rec['bids']} blind {rec['blind']} "
                 f"side_contracts {rec.get('side_contracts')} bemo {rec.get('bemo')}")
        check_record_shape(rules, rec, where)
        out = ref.replay_hand(rec, rd)  # checks every declaration and bid in bidding order
        assert engine_row(sim, i) == {**out, "wins_game": out.get("wins_game")}, where
        outs.append(out)
    if mode == "games":
        check_games(sim, outs, rd, name)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_replay_records_equal_the_engine(strategy):
    """The simulated records, replayed by sim.replay (full records, and score sheets where no Mo
    or bemo was declared), give the engine's numbers."""
    from sim.replay import replay_records

    for name in ("all,mo_b", "all,mo_a"):
        sim = run(name, strategy, "hands")
        items = [(i + 1, rec) for i, rec in enumerate(sim.records)]
        for (line, _), out in zip(items, replay_records(items, rules=sim.rules), strict=True):
            assert output_view(out) == engine_row(sim, line - 1), f"{name} line {line}"
        sheets = []
        for line, rec in items:
            kinds = set(rec.get("side_contracts", [])) | set(rec.get("bemo", []))
            if kinds & {"little_mo", "big_mo", "little_bemo", "big_bemo"}:
                continue
            sheets.append((line, {k: v for k, v in rec.items() if k not in ("hands", "plays")}
                           | {"tricks": sim.tricks[line - 1].tolist()}))
        assert len(sheets) >= 5
        for (line, _), out in zip(sheets, replay_records(sheets, rules=sim.rules), strict=True):
            mine = engine_row(sim, line - 1) | {"winners": None}
            assert output_view(out) == mine, f"{name} score sheet line {line}"


def test_the_random_play_reaches_the_rules():
    """The random hands declare every side contract and bemo, and Mo and bemo are made now and
    then (else 'every declaration legal' proves little)."""
    seen: Counter = Counter()
    made: Counter = Counter()
    for name in ("all,mo_b", "all,mo_a", "bemo"):
        for strategy in STRATEGIES:
            sim = run(name, strategy, "hands")
            for i, rec in enumerate(sim.records):
                row = engine_row(sim, i)
                for side, code in enumerate(rec.get("side_contracts", [None, None])):
                    if code is not None:
                        seen[code] += 1
                        made[code] += row["components"]["contract"][side] > 0
                for side, code in enumerate(rec.get("bemo", [None, None])):
                    if code is not None:
                        seen[code] += 1
                        made[code] += row["components"]["bemo"][side] > 0
    for code in (*CODES, "little_bemo", "big_bemo"):
        assert seen[code] >= 2, f"{code} declared {seen[code]} times: {dict(seen)}"
    assert sum(made.values()) >= 5, dict(made)
    # tens are wheels: some side's bids total 10 without a nil, scored +200 or -200
    sim = run("tens_are_wheels", "random", "hands")
    tens = [sim.components["contract"][i][side] for i, rec in enumerate(sim.records)
            for side in (0, 1) if not {None, 0} & {rec["bids"][side], rec["bids"][side + 2]}
            and rec["bids"][side] + rec["bids"][side + 2] == 10]
    assert len(tens) >= 2 and all(abs(c) == 200 for c in tens), tens


def test_mo_b_side_leads_trick_one():
    """Under mo_b a side declaring Mo leads trick 1 by its first player from the dealer's left;
    the records' first card is that seat's."""
    sim = run("mo_b", "random", "hands")
    mo = 0
    for rec in sim.records:
        declared = rec.get("side_contracts", [None, None])
        lead = ref.first_leader(rec["dealer"], declared, ref_rules(sim.rules))
        assert rec["plays"][0] in rec["hands"][lead], (rec["dealer"], declared)
        mo += any(c in ("little_mo", "big_mo") for c in declared)
    assert mo >= 5


# --- impossible combinations ------------------------------------------------------------------

IMPOSSIBLE = [
    ({"mo_a": True, "mo_b": True}, ("mo_a", "mo_b")),
    ({"tens_are_wheels": True}, "tens_are_wheels"),
    ({"ten_for_200_exact": True}, "ten_for_200_exact"),
    ({"ten_for_200_fail": 100}, "ten_for_200_fail"),
    ({"blind_six_at_least": True}, "blind_six_at_least"),
    ({"blind_moon": True, "suicide": True}, ("suicide", "blind_moon")),
    ({"mo_a": True, "whiz": True, "blind_nil": False}, ("whiz", "mo_a")),
    ({"blind_six": True, "mirror": True, "blind_nil": False}, ("mirror", "blind_six")),
    ({"bemo": True, "suicide": True}, ("suicide", "bemo")),
    ({"team_nil": True, "whiz": True, "blind_nil": False}, ("whiz", "team_nil")),
]


@pytest.mark.parametrize(("table", "keys"), IMPOSSIBLE)
def test_impossible_combinations_are_refused(table, keys):
    keys = (keys,) if isinstance(keys, str) else keys
    with pytest.raises(ValueError, match="|".join(keys)):
        ref.resolve_rules(table)
    try:
        rules_from_mapping(table)
    except UserError as err:
        assert err.key in keys or any(k in str(err) for k in keys), str(err)
    else:
        pytest.fail(f"the engine accepts {table}")
