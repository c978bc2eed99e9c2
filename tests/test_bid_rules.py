"""The RULES.md §4.4 bid and contract keys in the engine equal the scalar reference (tests/reference.py).

Keys: ``min_team_bid``, ``hook``, ``suicide`` (+ ``suicide_min_bid``), ``whiz``, ``mirror``,
``fledu``, ``double_nil``, ``moon``, ``lexington``, ``lexington_points`` (and ``double_blind_nil``,
which the engine added alongside). Three layers (STYLE.md section 11):

* legal bids: for every reachable bidding situation (all bids before the turn, as the reference
  allows them, from two dealers) and every spade count, the engine's mask
  (``sim.spades.bidding.bid_masks``) equals ``reference.legal_bids``, and so does the blind-nil
  decision;
* scoring: ``sim.spades.scoring.score_hands`` equals ``reference.score_hand`` (every component,
  the bags after and the side that wins the game at once) on structured and random hands;
* random play (the ``random`` and ``seed`` players, hands and games): every bid legal by the
  reference in bidding order (with the seat's cards for whiz and mirror), each key's own invariant
  holds, every hand replays to the engine's numbers, and games end when ``reference.game_over``
  says (a hand won at once included).

Also the impossible combinations are refused at load by both. A key the engine does not have yet
fails its tests with "the engine has no rules key ...".
"""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest

from harness import play_lineup, simulate
from harness.spades import check_games, check_offered_bids, ref
from harness.spades import ref_rules as harness_ref_rules
from sim.errors import UserError
from sim.options import PRESETS, rules_from_mapping

STANDARD = PRESETS["spades.standard"]
FIELDS = {f.name for f in dataclasses.fields(STANDARD)}

# name -> keys over spades.standard. Blind nil is made legal from 0-0 where the key allows it, so
# that the blind-nil paths are exercised.
ANY_BLIND = {"blind_nil_min_deficit": 0}
NO_BLIND = {"blind_nil": False}
VARIANTS: dict[str, dict] = {
    "min_team_bid=4": {"min_team_bid": 4, **ANY_BLIND},
    "min_team_bid=7,max_team_bid=13": {"min_team_bid": 7, "max_team_bid": 13, **ANY_BLIND},
    "min_team_bid=4,nil=false": {"min_team_bid": 4, "nil": False, **NO_BLIND},
    "hook": {"hook": True, **ANY_BLIND},
    "hook,nil=false": {"hook": True, "nil": False, **NO_BLIND},
    "suicide": {"suicide": True, **ANY_BLIND},
    "suicide,suicide_min_bid=4": {"suicide": True, "suicide_min_bid": 4, **ANY_BLIND},
    "suicide,hook": {"suicide": True, "hook": True, **ANY_BLIND},
    "whiz": {"whiz": True, **NO_BLIND},
    # issue 19: the hook forbids whiz's count or its nil, giving way where it leaves no bid;
    # suicide with min_team_bid where suicide_min_bid reaches it
    "whiz,hook": {"whiz": True, "hook": True, **NO_BLIND},
    "suicide,suicide_min_bid=4,min_team_bid=4": {"suicide": True, "suicide_min_bid": 4,
                                                 "min_team_bid": 4, **ANY_BLIND},
    "mirror": {"mirror": True, **NO_BLIND},
    "mirror,moon": {"mirror": True, "moon": True, **NO_BLIND},
    "fledu": {"fledu": True, **ANY_BLIND},
    "fledu,hook,min_team_bid=4": {"fledu": True, "hook": True, "min_team_bid": 4, **ANY_BLIND},
    "double_nil": {"double_nil": True, **ANY_BLIND},
    "double_nil,count": {"double_nil": True, "nil_tricks": "count", **ANY_BLIND},
    "moon": {"moon": True, **ANY_BLIND},
    "lexington": {"lexington": True, **ANY_BLIND},
    "moon,lexington,lexington_points": {"moon": True, "lexington": True,
                                        "lexington_points": True, **ANY_BLIND},
    "lexington_points": {"lexington_points": True},
    "double_blind_nil": {"double_blind_nil": True, **ANY_BLIND},
    "double_blind_nil=win": {"double_blind_nil": True, "double_blind_nil_reward": "win",
                             **ANY_BLIND},
}


def ref_rules(rules) -> dict:
    """The reference's rules dict of an engine rules value. Engine keys the reference does not
    know yet (later batches) are left out where they are at their default, so that these tests
    follow the engine's growth; switched on, they fail here."""
    out = harness_ref_rules(rules)
    defaults = {f.name: f.default for f in dataclasses.fields(STANDARD)}
    for key in sorted(set(out) - set(ref.STANDARD)):
        if out[key] != defaults[key]:
            pytest.fail(f"the reference does not know the rules key {key!r}")
        del out[key]
    return out


def engine_rules(name: str):
    keys = VARIANTS[name]
    missing = sorted(set(keys) - FIELDS)
    if missing:
        pytest.fail(f"the engine has no rules key {missing} yet")
    return dataclasses.replace(STANDARD, **keys)


# --- the engine's bid mask, whatever its current signature -----------------------------------


def engine_masks(bids: np.ndarray, seat: np.ndarray, rules, spades: np.ndarray | None):
    """uint32[N] legal-bid masks from ``sim.spades.bidding.bid_masks``: bids int8[N, 4] made so
    far (-1 = not yet), seat int8[N], spades int[N] held (None = cards unknown)."""
    from sim.spades.bidding import bid_masks

    params = list(inspect.signature(bid_masks).parameters)
    if params[:3] != ["bids", "seat", "rules"]:
        pytest.fail(f"bid_masks{inspect.signature(bid_masks)}: expected (bids, seat, rules, "
                    "spades=None); adapt engine_masks")
    if spades is None:
        return bid_masks(bids, seat, rules)
    return bid_masks(bids, seat, rules, spades)


def mask_list(mask) -> list[int]:
    """Every bid of a mask (all 32 bits: a bid above the hand's tricks must show)."""
    return [v for v in range(32) if int(mask) >> v & 1]


def hand_with_spades(n: int) -> list[str]:
    """A 13-card hand holding exactly ``n`` spades (the reference counts them)."""
    spades = [r + "S" for r in ref.RANKS[:n]]
    others = [r + s for s in "HDC" for r in ref.RANKS][: 13 - n]
    return spades + others


# --- layer 1: legal bids in every reachable situation ----------------------------------------


def situations(rd: dict, dealer: int):
    """Every (turn, made) of a bidding from ``dealer`` whose earlier bids the reference allows
    (their cards unknown: whiz and mirror bids of any spade count)."""
    order = [(dealer + 1 + k) % 4 for k in range(4)]
    frontier = [{}]
    for turn in range(4):
        seat = order[turn]
        nxt = []
        for made in frontier:
            yield seat, made
            if turn < 3:
                nxt.extend({**made, seat: b} for b in ref.legal_bids(seat, made, [0, 0], rd)["bids"])
        frontier = nxt


def spade_counts(rules, made: dict) -> list[int]:
    """The spade counts a seat can hold after these bids (whiz / mirror: the bids show some)."""
    if not (rules.whiz or rules.mirror):
        return [0, 4, 13]
    shown = sum(made.values())
    return list(range(0, 14 - shown))


@pytest.mark.parametrize("name", VARIANTS)
def test_bid_masks_equal_the_reference(name):
    rules = engine_rules(name)
    rd = ref_rules(rules)
    rows = []  # (seat, made, spades or None)
    for dealer in (3, 0):
        for seat, made in situations(rd, dealer):
            rows.append((seat, made, None))
            rows.extend((seat, made, n) for n in spade_counts(rules, made))
    bids = np.full((len(rows), 4), -1, np.int8)
    for i, (_, made, _) in enumerate(rows):
        for s, b in made.items():
            bids[i, s] = b
    seat = np.array([r[0] for r in rows], np.int8)
    known = np.array([r[2] is not None for r in rows])
    spades = np.array([r[2] or 0 for r in rows])
    got = np.zeros(len(rows), np.uint32)
    got[~known] = engine_masks(bids[~known], seat[~known], rules, None)
    got[known] = engine_masks(bids[known], seat[known], rules, spades[known])
    bad = []
    for i, (s, made, n) in enumerate(rows):
        hand = None if n is None else hand_with_spades(n)
        want = ref.legal_bids(s, made, [0, 0], rd, hand)["bids"]
        if mask_list(got[i]) != want:
            bad.append(f"seat {s} after {made}, spades {n}: engine {mask_list(got[i])}, "
                       f"reference {want}")
    assert not bad, f"{name}: {len(bad)} of {len(rows)} situations differ, e.g.\n" + "\n".join(
        bad[:8])


@pytest.mark.parametrize("name", VARIANTS)
def test_blind_nil_allowed_equals_the_reference(name):
    """A blind nil is allowed where the section 3 conditions hold and nil is legal at that turn
    (the engine: ``blind_nil_allowed`` and bit 0 of the mask before looking, as run_bidding asks)."""
    from sim.spades.bidding import blind_nil_allowed

    rules = engine_rules(name)
    rd = ref_rules(rules)
    bad = []
    for level in (True, False):
        for seat, made in situations(rd, 3):
            scores = [0, 0] if level else [0, 150] if seat % 2 == 0 else [150, 0]  # trailing
            bids = np.full((1, 4), -1, np.int8)
            for s, b in made.items():
                bids[0, s] = b
            seats = np.array([seat], np.int8)
            unseen = engine_masks(bids, seats, rules, None)
            got = bool(blind_nil_allowed(seats, np.array([scores], np.int32), rules)[0]
                       and int(unseen[0]) & 1)
            want = ref.legal_bids(seat, made, scores, rd)["blind_nil"]
            if got != want:
                bad.append(f"seat {seat} after {made}, scores {scores}: engine {got}, ref {want}")
    assert not bad, f"{name}: {len(bad)} differ, e.g.\n" + "\n".join(bad[:8])


def test_blind_nil_min_deficit_zero_allows_a_leading_side():
    """RULES.md section 3: ``blind_nil_min_deficit`` "(0 = always)" — a side leading the score may
    bid blind nil too (the reference's reading since section 3)."""
    from sim.spades.bidding import blind_nil_allowed

    rules = dataclasses.replace(STANDARD, blind_nil_min_deficit=0)
    seat = np.array([0], np.int8)
    leading = np.array([[150, 0]], np.int32)  # side 0 leads by 150
    assert ref.legal_bids(0, {}, [150, 0], ref_rules(rules))["blind_nil"] is True
    assert bool(blind_nil_allowed(seat, leading, rules)[0]), (
        "blind_nil_allowed(seat 0, scores [150, 0], blind_nil_min_deficit=0) is False")


def test_moon_never_forbids_a_nil():
    """A nil cannot make a moon ("neither bid nil"): after a partner's 13 and the opponents'
    double nil, the second partner may still bid nil."""
    rules = engine_rules("moon")
    bids = np.array([[0, 13, 0, -1]], np.int8)  # dealer 3: seats 0, 1, 2 bid; seat 3's turn
    got = mask_list(engine_masks(bids, np.array([3], np.int8), rules, None)[0])
    want = ref.legal_bids(3, {0: 0, 1: 13, 2: 0}, [0, 0], ref_rules(rules))["bids"]
    assert want == [0] + list(range(1, 14))
    assert got == want


def same_components(engine: dict, reference: dict) -> dict:
    """The engine's components (every part of ``sim.spades.scoring.COMPONENTS``) in the
    reference's layout: the reference's parts, plus any other engine part that is not zero (so a
    mismatch shows)."""
    return {c: v for c, v in engine.items() if c in reference or any(v)}


# --- layer 2: scoring --------------------------------------------------------------------------


def scoring_cases(rng: np.random.Generator, n_random: int = 400):
    """(bids, blind, tricks, bags_before) rows: the section 4.4 situations by hand, then random."""
    cases = [
        # double nil: both made, one failed, both failed; with a blind nil; both blind
        ([0, 3, 0, 4], [0, 0, 0, 0], [0, 7, 0, 6], [0, 0]),
        ([0, 3, 0, 4], [0, 0, 0, 0], [1, 6, 0, 6], [9, 0]),
        ([0, 3, 0, 4], [0, 0, 0, 0], [1, 6, 2, 4], [8, 3]),
        ([0, 3, 0, 4], [1, 0, 0, 0], [0, 7, 0, 6], [0, 0]),
        ([0, 3, 0, 4], [1, 0, 1, 0], [0, 7, 0, 6], [0, 0]),
        ([0, 3, 0, 4], [1, 0, 1, 0], [0, 7, 1, 5], [0, 0]),
        # moon: 7 + 6 taking 13, taking 12; 13 with a nil partner; lexington 7 + 5 taking 12, 13,
        # 11; other side's moon
        ([7, 0, 6, 0], [0, 0, 0, 0], [7, 0, 6, 0], [0, 0]),
        ([7, 1, 6, 2], [0, 0, 0, 0], [7, 1, 5, 0], [0, 0]),
        ([13, 1, 0, 2], [0, 0, 0, 0], [13, 0, 0, 0], [0, 0]),
        ([7, 1, 5, 2], [0, 0, 0, 0], [7, 1, 5, 0], [0, 0]),
        ([7, 1, 5, 2], [0, 0, 0, 0], [8, 0, 5, 0], [5, 0]),
        ([7, 1, 5, 2], [0, 0, 0, 0], [6, 2, 5, 0], [0, 0]),
        ([1, 7, 1, 6], [0, 0, 0, 0], [0, 6, 0, 7], [0, 9]),
        ([1, 7, 1, 5], [0, 0, 0, 0], [0, 6, 1, 6], [0, 0]),
        # lexington_points: bid 5 taking 12; a nil in the side made / failed; 11 tricks
        ([3, 1, 2, 1], [0, 0, 0, 0], [6, 1, 6, 0], [7, 0]),
        ([0, 1, 5, 1], [0, 0, 0, 0], [0, 1, 12, 0], [0, 0]),
        ([0, 1, 5, 1], [0, 0, 0, 0], [2, 1, 10, 0], [0, 0]),
        ([0, 1, 0, 1], [0, 0, 0, 0], [2, 1, 10, 0], [0, 0]),
        ([3, 1, 2, 1], [0, 0, 0, 0], [6, 2, 5, 0], [0, 0]),
    ]
    for _ in range(n_random):
        bids = rng.integers(0, 14, 4) * (rng.random(4) > 0.3)  # many nils
        blind = (bids == 0) & (rng.random(4) < 0.4)
        cuts = np.sort(rng.integers(0, 14, 3))  # 13 tricks split in 4, some sides sweeping
        tricks = np.diff(np.concatenate([[0], cuts, [13]]))
        if rng.random() < 0.2:
            tricks = np.zeros(4, int)
            tricks[rng.integers(0, 4)] = 13 - rng.integers(0, 2)
            tricks[rng.integers(0, 4)] += 13 - tricks.sum()
        cases.append((bids.tolist(), blind.astype(int).tolist(), tricks.tolist(),
                      rng.integers(0, 10, 2).tolist()))
    return cases


@pytest.mark.parametrize("name", VARIANTS)
def test_scoring_equals_the_reference(name):
    from sim.spades.scoring import COMPONENTS, score_hands

    rules = engine_rules(name)
    rd = ref_rules(rules)
    cases = scoring_cases(np.random.default_rng(2026))
    bids = np.array([c[0] for c in cases], np.int8)
    blind = np.array([c[1] for c in cases], bool)
    tricks = np.array([c[2] for c in cases], np.int8)
    bags = np.array([c[3] for c in cases], np.int32)
    assert (tricks.sum(axis=1) == 13).all() and (tricks >= 0).all()
    got = score_hands(bids, blind, tricks, bags, rules)
    wins = getattr(got, "wins_game", None)
    if wins is None:
        pytest.fail("HandScore has no wins_game (int8[N], -1 = nobody wins at once)")
    bad = []
    for i, (b, bl, t, bg) in enumerate(cases):
        want = ref.score_hand(b, [bool(x) for x in bl], t, [0, 0], bg, rd)
        mine = {
            "points": got.points[i].tolist(),
            "components": same_components({c: getattr(got, c)[i].tolist() for c in COMPONENTS},
                                          want["components"]),
            "bags": got.bags_after[i].tolist(),
            "wins_game": None if wins[i] < 0 else int(wins[i]),
        }
        theirs = {"points": want["points"], "components": want["components"],
                  "bags": want["after"]["bags"], "wins_game": want.get("wins_game")}
        if mine != theirs:
            bad.append(f"bids {b} blind {bl} tricks {t} bags {bg}: engine {mine}, ref {theirs}")
    assert not bad, f"{name}: {len(bad)} of {len(cases)} differ, e.g.\n" + "\n".join(bad[:5])


# --- layer 3: random play --------------------------------------------------------------------

STRATEGIES = ("random", "seed")
SIZES = {("hands", "random"): 48, ("hands", "seed"): 48, ("games", "random"): 16,
         ("games", "seed"): 6}
SEED = 4404


def run(name: str, strategy: str, mode: str):
    rules = engine_rules(name)
    if mode == "games" and strategy == "random":
        rules = dataclasses.replace(rules, max_hands=5)  # games of a few hands, the state carried
    return simulate(rules, strategy, mode, SIZES[mode, strategy], SEED, 1 if mode == "hands" else 0)


def engine_wins(sim) -> np.ndarray:
    return sim.hands["wins_game"]  # the side that won the game at once, -1 for none


def spades_held(rec: dict, seat: int) -> int:
    return sum(1 for c in rec["hands"][seat] if c[1] == "S")


def check_invariants(rules, rec: dict, where: str) -> None:
    """Each key's rule on the bids, stated directly (not through the reference)."""
    bids, blind = rec["bids"], rec["blind"]
    order = [(rec["dealer"] + 1 + k) % 4 for k in range(4)]
    for side in (0, 1):
        first, second = [s for s in order if s % 2 == side]
        a, b = bids[first], bids[second]
        if rules.min_team_bid is not None:
            assert (a == 0 and b == 0) or a + b >= rules.min_team_bid, where
        if rules.suicide:
            assert a == 0 or b == 0, where
    for seat in range(4):
        if rules.whiz:
            assert bids[seat] in (0, spades_held(rec, seat)) and not blind[seat], where
        if rules.mirror:
            assert bids[seat] == spades_held(rec, seat) and not blind[seat], where
        if rules.fledu:
            assert bids[seat] == 0 or bids[seat] >= 4, where
        if rules.suicide and rules.suicide_min_bid is not None:
            assert bids[seat] == 0 or bids[seat] >= rules.suicide_min_bid, where


def check_bids_in_order(rec: dict, rd: dict, where: str) -> None:
    made = {}
    for k in range(4):
        seat = (rec["dealer"] + 1 + k) % 4
        allowed = ref.legal_bids(seat, made, rec["before"]["scores"], rd, rec["hands"][seat])
        bid = rec["bids"][seat]
        if rec["blind"][seat]:
            assert bid == 0 and allowed["blind_nil"], f"{where}: seat {seat} blind nil {allowed}"
        else:
            assert bid in allowed["bids"], f"{where}: seat {seat} bid {bid} not in {allowed}"
        made[seat] = bid


CASES = [(n, s, m) for n in VARIANTS for s in STRATEGIES for m in ("hands", "games")]


@pytest.mark.parametrize(("name", "strategy", "mode"), CASES)
def test_random_play_conforms(name, strategy, mode):
    sim = run(name, strategy, mode)
    from sim.spades.scoring import COMPONENTS

    rules = sim.rules
    rd = ref_rules(rules)
    assert check_offered_bids(sim, f"{name}/{strategy}/{mode}") > 0  # every bid mask offered
    wins = engine_wins(sim)
    parts = sim.components
    outs = []
    for i, rec in enumerate(sim.records):
        where = f"{name}/{strategy}/{mode} record {i}: {rec['bids']} blind {rec['blind']}"
        check_invariants(rules, rec, where)
        check_bids_in_order(rec, rd, where)
        out = ref.replay_hand(rec, rd)
        engine = {"tricks": sim.tricks[i].tolist(), "winners": sim.winners[i].tolist(),
                  "points": sim.points[i].tolist(),
                  "components": same_components({c: parts[c][i].tolist() for c in COMPONENTS},
                                                out["components"]),
                  "after": {"scores": sim.scores_after[i].tolist(),
                            "bags": sim.by_side("bags")[i].tolist()},
                  "wins_game": None if wins[i] < 0 else int(wins[i])}
        assert engine == {**out, "wins_game": out.get("wins_game")}, where
        outs.append(out)
    if mode == "games":
        check_games(sim, outs, rd, name)


def test_the_random_play_reaches_the_rules():
    """The random hands do reach what each key changes (else 'every bid legal' proves little)."""
    def hands(name):
        return run(name, "random", "hands")

    def fourth_hooked(sim):  # the fourth bidder's forbidden bid was a bid 0..13
        n = 0
        for rec in sim.records:
            last = rec["dealer"]  # the dealer bids last
            others = sum(rec["bids"]) - rec["bids"][last]
            n += 0 <= 13 - others <= 13
        return n

    assert fourth_hooked(hands("hook")) >= 5
    assert any(rec["bids"].count(0) >= 2 for rec in hands("suicide").records)
    double_nils = [rec for name in ("double_nil", "double_nil,count") for rec in hands(name).records
                   if rec["bids"][0] == rec["bids"][2] == 0 or rec["bids"][1] == rec["bids"][3] == 0]
    assert len(double_nils) >= 3
    # min_team_bid: some first partner bid 1..3, so his partner's bid was constrained
    low_first = 0
    for rec in hands("min_team_bid=4").records:
        first_two = [(rec["dealer"] + 1 + k) % 4 for k in range(2)]
        low_first += any(0 < rec["bids"][s] < 4 for s in first_two)
    assert low_first >= 5
    whiz = hands("whiz")
    assert (whiz.by_seat("bid") == 0).any() and (whiz.by_seat("bid") > 0).any()
    assert (hands("fledu").by_seat("bid") >= 4).any()
    sides = hands("moon").by_seat("bid").reshape(-1, 2, 2)  # [:, k, s] is seat 2k + s
    assert ((sides[:, 0] + sides[:, 1]) == 13).any()  # some side bid 13


def test_a_hand_won_at_once_ends_the_game():
    """Games under double blind nil "win" with players that make one now and then: side 1 always
    bids blind nil and ducks, side 0 plays its highest card; the engine's games end at the first
    hand the reference says is won at once, with that side the winner."""
    from sim.cards import highest_bit, lowest_bit
    from sim.lineup import Lineup
    from strategies.uniform import RandomStrategy

    if "double_blind_nil" not in FIELDS:
        pytest.fail("the engine has no rules key ['double_blind_nil'] yet")

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class High(RandomStrategy):
        def blind_nil(self, view, rng):
            return np.zeros(len(view), bool)

        def play(self, view, rng):
            return highest_bit(view.legal)

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Duck(RandomStrategy):  # blind nil, then a card below the one winning the trick
        def blind_nil(self, view, rng):
            return np.ones(len(view), bool)

        def play(self, view, rng):
            if view.position == 0:
                return lowest_bit(view.legal)
            below = view.legal & (view.winning - np.uint64(1))  # lower rank, or a lower suit
            return np.where(below != 0, highest_bit(below), lowest_bit(view.legal))

    rules = dataclasses.replace(STANDARD, **VARIANTS["double_blind_nil=win"], max_hands=6,
                                mercy_score=None)
    lineup = Lineup([High(), Duck(), High(), Duck()])
    run = play_lineup(rules, lineup, "games", 200, SEED)
    rd = ref_rules(rules)
    h = run.hands
    wins, bids_, blind_, tricks_ = (h["wins_game"], run.by_seat("bid"), run.by_seat("blind"),
                                    run.tricks)
    won_at_once = 0
    for i in range(len(run)):
        bids = [int(b) for b in bids_[i]]
        blind = [bool(b) for b in blind_[i]]
        tricks = [int(t) for t in tricks_[i]]
        want = ref.wins_game(bids, tricks, rd, blind)
        assert (None if wins[i] < 0 else int(wins[i])) == want, (bids, blind, tricks)
        if want is not None:
            won_at_once += 1
            g = int(h["game_id"][i])
            assert int(run.games["n_hands"][g]) == int(h["hand_no"][i])  # the game's last
            assert int(run.games["winner"][g]) == want
    assert won_at_once >= 3


def test_replay_records_report_the_win_at_once():
    """sim.replay on score sheets: a moon made gives ``wins_game`` as the reference does."""
    from sim.replay import replay_records

    rules = engine_rules("moon,lexington,lexington_points")
    rd = ref_rules(rules)
    for bids, tricks in (([7, 0, 6, 0], [7, 0, 6, 0]), ([7, 1, 5, 2], [8, 0, 5, 0]),
                         ([7, 1, 5, 2], [6, 2, 5, 0]), ([3, 1, 2, 1], [6, 1, 6, 0])):
        rec = {"game": "spades", "dealer": 3, "bids": bids, "blind": [False] * 4, "tricks": tricks}
        want = ref.replay_hand(rec, rd)
        out = replay_records([(1, rec)], rules=rules)[0]
        assert (out["points"], out.get("wins_game")) == (want["points"], want["wins_game"]), bids


# (variant, bids in bidding order, blind in bidding order): one illegal bid each
ILLEGAL = [
    ("hook", [3, 4, 5, 1], None),  # the fourth makes 3 + 4 + 5 + 1 = 13
    ("hook", [6, 7, 0, 0], [0, 0, 0, 1]),  # a blind nil making 13
    ("min_team_bid=4", [1, 3, 1, 5], None),  # the first side bids 1 + 1 < 4
    ("min_team_bid=4", [2, 3, 0, 5], None),  # a nil after a partner's 2 < 4
    ("suicide", [3, 0, 4, 5], None),  # no nil in the first side
    ("suicide,suicide_min_bid=4", [0, 2, 5, 0], None),  # 2 < 4
    ("fledu", [5, 2, 4, 4], None),
    ("moon", [0, 6, 0, 7], None),  # 6 + 7 = 13 after the other side's double nil
]


def _by_seat(dealer: int, by_turn: list) -> list:
    out = [None] * 4
    for k, v in enumerate(by_turn):
        out[(dealer + 1 + k) % 4] = v
    return out


# whiz and mirror bids are checked against the cards: full records only (a score sheet has no
# cards, so the engine does not check them there; docs/SCHEMA.md says so)
ILLEGAL_CASES = [(case, mode) for case in range(len(ILLEGAL) + 2)
                 for mode in ("full record", "score sheet")
                 if case < len(ILLEGAL) or mode == "full record"]


@pytest.mark.parametrize(("case", "mode"), ILLEGAL_CASES)
def test_illegal_bids_rejected_like_the_reference(case, mode):
    """sim.replay refuses what reference.replay_hand refuses (IllegalBid), in full records (the
    cards of a simulated deal) and on score sheets; whiz and mirror need the cards."""
    from sim.replay import replay_records

    if case < len(ILLEGAL):
        name, by_turn, blind_by_turn = ILLEGAL[case]
    else:
        name, by_turn, blind_by_turn = ("whiz", "mirror")[case - len(ILLEGAL)], None, None
    model = run(name, "random", "hands").records[0]
    dealer = model["dealer"]
    if by_turn is None:  # every seat bids its spades, but the first one more (13: one less)
        by_turn = [spades_held(model, (dealer + 1 + k) % 4) for k in range(4)]
        by_turn[0] = by_turn[0] + 1 if by_turn[0] < 13 else 12
    rec = {"game": "spades", "dealer": dealer, "bids": _by_seat(dealer, by_turn),
           "blind": [bool(b) for b in _by_seat(dealer, blind_by_turn or [0] * 4)]}
    if mode == "full record":
        rec |= {"hands": model["hands"], "plays": model["plays"]}
    else:
        rec |= {"tricks": [4, 1, 5, 3]}
    rules = engine_rules(name)
    with pytest.raises(ref.IllegalBid):
        ref.replay_hand(rec, ref_rules(rules))
    with pytest.raises(UserError):
        out = replay_records([(1, rec)], rules=rules)
        pytest.fail(f"{name} ({mode}) bids {rec['bids']} blind {rec['blind']} accepted by "
                    f"sim.replay: points {out[0]['points']}")


# --- impossible combinations ------------------------------------------------------------------

# Refused at load by RULES.md / the brief of these keys.
IMPOSSIBLE = [
    ({"min_team_bid": 10, "max_team_bid": 9}, "min_team_bid"),
    ({"hook": True, "mirror": True, "blind_nil": False}, ("hook", "mirror")),  # no effect
    ({"whiz": True}, "whiz"),  # blind_nil is on by default
    ({"mirror": True}, "mirror"),
    ({"mirror": True, "whiz": True, "blind_nil": False}, ("mirror", "whiz")),
    ({"suicide_min_bid": 4}, "suicide_min_bid"),
]
# Refused by the reference's readings: otherwise a reachable turn has no legal bid.
NO_BID_LEFT = [
    ({"whiz": True, "blind_nil": False, "min_team_bid": 4}, ("whiz", "min_team_bid")),
    ({"whiz": True, "nil": False, "blind_nil": False}, ("whiz", "nil")),
    ({"mirror": True, "nil": False, "blind_nil": False}, ("mirror", "nil")),
    ({"mirror": True, "blind_nil": False, "fledu": True}, ("mirror", "fledu")),
    ({"mirror": True, "blind_nil": False, "suicide": True}, ("mirror", "suicide")),
    ({"mirror": True, "blind_nil": False, "min_team_bid": 4}, ("mirror", "min_team_bid")),
    ({"suicide": True, "min_team_bid": 4}, ("suicide", "min_team_bid")),
    ({"suicide": True, "suicide_min_bid": 3, "min_team_bid": 4}, ("suicide", "min_team_bid")),
    ({"mirror": True, "blind_nil": False, "max_team_bid": 12}, ("mirror", "max_team_bid")),
    ({"suicide": True, "nil": False, "blind_nil": False}, ("suicide", "nil")),
]


def _rejects(table: dict, keys) -> None:
    keys = (keys,) if isinstance(keys, str) else keys
    with pytest.raises(ValueError, match="|".join(keys)):
        ref.resolve_rules(table)
    try:
        rules_from_mapping(table)
    except UserError as err:
        assert err.key in keys or any(k in str(err) for k in keys), str(err)
    else:
        pytest.fail(f"the engine accepts {table}")


@pytest.mark.parametrize(("table", "keys"), IMPOSSIBLE)
def test_impossible_combinations_are_refused(table, keys):
    _rejects(table, keys)


@pytest.mark.parametrize(("table", "keys"), NO_BID_LEFT)
def test_combinations_leaving_no_bid_are_refused(table, keys):
    _rejects(table, keys)


@pytest.mark.slow
def test_every_bid_masks_row_is_non_empty_for_accepted_rules():
    """For each accepted variant, the engine never offers an empty mask (a player with no legal
    bid): already implied by test_bid_masks_equal_the_reference where the reference has a bid,
    stated here on its own for the diagnosis."""
    for name in VARIANTS:
        rules = engine_rules(name)
        rd = ref_rules(rules)
        for seat, made in situations(rd, 3):
            bids = np.full((1, 4), -1, np.int8)
            for s, b in made.items():
                bids[0, s] = b
            for n in spade_counts(rules, made):
                mask = engine_masks(bids, np.array([seat], np.int8), rules, np.array([n]))
                assert int(mask[0]) != 0, (name, seat, made, n)

