"""Random-play conformance harness (STYLE.md section 11, first layer).

Every Spades preset of ``sim.options.PRESETS`` and the section 3 variants below are played by both
strategies, as independent hands and as whole games; every hand of every block is then checked
against the rules, not against the engine:

* the deal: each of the 52 cards dealt exactly once, 13 per seat (RULES.md section 0);
* the bids: legal for the seat given the bids before it and the scores before the hand, as
  ``reference.legal_bids`` says (section 3: nil, blind nil and its deficit, max_team_bid);
* the play: every card played once, by the seat that holds it and whose turn it is, and legal
  (must follow; the spades_broken setting), as ``reference.replay_hand`` checks card by card; 13
  tricks, one winner each, the winners leading the next trick;
* the shapes and dtypes of the documented outcome arrays;
* games: scores and bags carry from hand to hand, the dealer moves one seat left, and a game ends
  exactly when ``reference.game_over`` says it does (target, mercy, max_hands; ties play on).

The reference is tests/reference.py (no numpy, no sim). Batches are small; the point is coverage
of rules and code paths, the statistics are in test_deal.py.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict

import numpy as np
import pytest

from sim.options import PRESETS, preset_names

try:
    from tests.harness import (
        FULL_DECK,
        SPADE_MASK,
        card_names,
        check_offered_bids,
        ref,
        ref_rules,
        simulate,
    )
except ImportError:  # pragma: no cover
    from harness import (
        FULL_DECK,
        SPADE_MASK,
        card_names,
        check_offered_bids,
        ref,
        ref_rules,
        simulate,
    )

STANDARD = PRESETS["spades.standard"]

# name -> rules: every Spades preset, then section 3 variants over spades.standard (each value of
# nil_tricks and spades_broken; the standard preset supplies bags_only and True).
# (the presets of other tables and decks, RULES.md §4.2 and §4.7, are played against the reference
# by tests/test_conformance_big_tables.py)
VARIANTS = {name: PRESETS[name] for name in preset_names("spades")
            if PRESETS[name].table == STANDARD.table and PRESETS[name].jokers == 0}
VARIANTS.update({
    "nil_tricks=count": dataclasses.replace(STANDARD, nil_tricks="count"),
    "nil_tricks=ignored": dataclasses.replace(STANDARD, nil_tricks="ignored"),
    "spades_broken=false": dataclasses.replace(STANDARD, spades_broken=False),
    "spades_broken=never": dataclasses.replace(STANDARD, spades_broken="never"),
    "max_team_bid=9": dataclasses.replace(STANDARD, max_team_bid=9),
    "blind_nil_min_deficit=0": dataclasses.replace(STANDARD, blind_nil_min_deficit=0),
    "nil=false": dataclasses.replace(STANDARD, nil=False, blind_nil=False),
    "max_hands=3,no mercy": dataclasses.replace(STANDARD, max_hands=3, mercy_score=None),
})
STRATEGIES = ("random", "seed")
MODES = ("hands", "games")
# Block sizes: independent hands; whole games (random players' games are short: random bids are
# mostly set, so the mercy rule ends them in two or three hands).
SIZES = {("hands", "random"): 64, ("hands", "seed"): 64, ("games", "random"): 32,
         ("games", "seed"): 8}
SEED = 20251107


def run(name: str, strategy: str, mode: str):
    # hand_offset 1 in hands mode: dealers start at seat 0 rather than the default rotation start
    offset = 1 if mode == "hands" else 0
    return simulate(VARIANTS[name], strategy, mode, SIZES[mode, strategy], SEED, offset)


def test_every_preset_is_covered():
    assert {"spades.standard", "spades.short", "spades.openspiel"} <= set(VARIANTS)
    assert STANDARD.nil_tricks == "bags_only" and STANDARD.spades_broken is True


CASES = [(n, s, m) for n in VARIANTS for s in STRATEGIES for m in MODES]


@pytest.mark.parametrize(("name", "strategy", "mode"), CASES)
def test_conformance(name, strategy, mode):
    sim = run(name, strategy, mode)
    rules = ref_rules(sim.rules)
    assert check_offered_bids(sim, f"{name}/{strategy}/{mode}") > 0  # every bid mask offered
    check_shapes(sim)
    check_deals(sim)
    ref_outs = []
    for i, rec in enumerate(sim.records):
        where = f"{name}/{strategy}/{mode} hand {i} (game {rec['game_id']}, no {rec['hand_no']})"
        check_bids(rec, rules, where)
        check_play_arrays(sim, i, where)
        try:
            out = ref.replay_hand(rec, rules)  # raises on the first illegal bid or card
        except ValueError as exc:
            pytest.fail(f"{where}: the reference rejects the engine's hand: {exc}")
        assert out["winners"] == sim.winners[i].tolist(), where
        assert out["tricks"] == sim.tricks[i].tolist(), where
        ref_outs.append(out)
    if mode == "games":
        check_games(sim, ref_outs, rules, name)
    else:
        check_independent_hands(sim)


# --- the checks ----------------------------------------------------------------------------------


def check_shapes(sim):
    """The documented layouts (BlockResult, HandOutcome, BidResult, TrickResult, HandScore)."""
    res = sim.result
    h = res.hands.shape[0]
    assert h > 0
    expected = {
        "game": (np.int64, (h,)), "hand_no": (np.int16, (h,)), "dealer": (np.int8, (h,)),
        "hands": (np.uint64, (h, 4)), "before_scores": (np.int32, (h, 2)),
        "before_bags": (np.int32, (h, 2)),
    }
    for field, (dtype, shape) in expected.items():
        arr = getattr(res, field)
        assert (arr.dtype, arr.shape) == (np.dtype(dtype), shape), field
    assert sum(o.bidding.bids.shape[0] for o in res.outcomes) == h
    for o in res.outcomes:
        n = o.bidding.bids.shape[0]
        arrays = {
            "bids": (o.bidding.bids, np.int8, (n, 4)), "blind": (o.bidding.blind, np.bool_, (n, 4)),
            "tricks": (o.play.tricks, np.int8, (n, 4)), "plays": (o.play.plays, np.int8, (n, 52)),
            "winners": (o.play.winners, np.int8, (n, 13)),
            "scores_after": (o.scores_after, np.int32, (n, 2)),
            "points": (o.score.points, np.int32, (n, 2)),
            "bags_after": (o.score.bags_after, np.int32, (n, 2)),
        }
        for c in ("contract", "overtricks", "bag_penalty", "nil"):
            arrays[c] = (getattr(o.score, c), np.int32, (n, 2))
        for field, (arr, dtype, shape) in arrays.items():
            assert (arr.dtype, arr.shape) == (np.dtype(dtype), shape), field
    assert ((sim.bids >= 0) & (sim.bids <= 13)).all()
    assert ((sim.winners >= 0) & (sim.winners <= 3)).all()
    if sim.mode == "games":
        g = res.games["n_hands"].shape[0]
        for key, dtype in (("n_hands", np.int16), ("winner", np.int8), ("score_0", np.int32),
                           ("score_1", np.int32), ("bags_0", np.int32), ("bags_1", np.int32)):
            assert (res.games[key].dtype, res.games[key].shape) == (np.dtype(dtype), (g,)), key
    else:
        assert res.games is None


def check_deals(sim):
    """RULES.md section 0: 52 cards, 13 to each of 4 seats, no card twice."""
    hands = sim.result.hands
    assert (np.bitwise_count(hands) == 13).all()
    assert (np.bitwise_or.reduce(hands, axis=1) == np.uint64(FULL_DECK)).all()
    for a in range(4):
        for b in range(a + 1, 4):
            assert not (hands[:, a] & hands[:, b]).any()
    for i, rec in enumerate(sim.records):  # the record's names are the dealt bitboards
        assert [sorted(h) for h in rec["hands"]] == [sorted(card_names(m)) for m in hands[i]]


def check_bids(rec, rules, where):
    """Bids in bidding order, each legal per reference.legal_bids given the earlier bids and the
    scores before the hand; a blind bid is a nil where blind nil is allowed."""
    made = {}
    for k in range(4):
        seat = (rec["dealer"] + 1 + k) % 4  # section 3: bidding starts left of the dealer
        bid = rec["bids"][seat]
        allowed = ref.legal_bids(seat, made, rec["before"]["scores"], rules)
        if rec["blind"][seat]:
            assert bid == 0 and allowed["blind_nil"], f"{where}: seat {seat} blind {bid}"
        else:
            assert bid in allowed["bids"], f"{where}: seat {seat} bid {bid} not in {allowed}"
        made[seat] = bid


def check_play_arrays(sim, i, where):
    """From the engine's arrays alone: every slot played once; the j-th card of a trick belongs
    to seat leader + j, the first leader is left of the dealer, each winner leads next; the
    trick counts are the winners' tally and sum to 13."""
    plays, winners, hands = sim.plays[i], sim.winners[i], sim.result.hands[i]
    assert sorted(plays.tolist()) == list(range(52)), where
    leader = (int(sim.result.dealer[i]) + 1) % 4
    for t in range(13):
        for j in range(4):
            seat = (leader + j) % 4
            slot = int(plays[4 * t + j])
            assert int(hands[seat]) >> slot & 1, f"{where}: trick {t + 1} card not seat {seat}'s"
        leader = int(winners[t])
    assert np.bincount(winners, minlength=4).tolist() == sim.tricks[i].tolist(), where
    assert int(sim.tricks[i].sum()) == 13, where


def check_games(sim, ref_outs, rules, name):
    """Scores and bags carry over (as the reference scores them), the dealer moves left, and
    each game stops at the first hand after which reference.game_over says it is over."""
    res = sim.result
    games = res.games
    by_game = defaultdict(list)
    for i, rec in enumerate(sim.records):
        by_game[rec["game_id"]].append(i)
    n_games = games["n_hands"].shape[0]
    assert sorted(by_game) == list(range(n_games))
    for g, rows in by_game.items():
        rows.sort(key=lambda i: sim.records[i]["hand_no"])
        assert [sim.records[i]["hand_no"] for i in rows] == list(range(1, len(rows) + 1))
        after = {"scores": [0, 0], "bags": [0, 0]}
        for k, i in enumerate(rows, start=1):
            rec, out = sim.records[i], ref_outs[i]
            where = f"{name} game {g} hand {k}"
            assert rec["before"] == after, where
            if k > 1:  # section 0: the dealer moves one seat left after every hand
                assert rec["dealer"] == (sim.records[rows[k - 2]]["dealer"] + 1) % 4, where
            elif name == "spades.openspiel":  # section 3: seat 0 bids first and leads
                assert rec["dealer"] == 3, where
            over, winner = ref.game_over(out["after"]["scores"], k, rules)
            assert over == (k == len(rows)), f"{where}: game_over is {over} at {out['after']}"
            after = out["after"]
        assert int(games["n_hands"][g]) == len(rows)
        assert int(games["winner"][g]) == winner
        assert [int(games["score_0"][g]), int(games["score_1"][g])] == after["scores"]
        assert [int(games["bags_0"][g]), int(games["bags_1"][g])] == after["bags"]


def check_independent_hands(sim):
    """Hands mode: every hand from 0-0 with no bags, its own game, dealers rotating."""
    res = sim.result
    assert not res.before_scores.any() and not res.before_bags.any()
    assert (res.hand_no == 1).all()
    assert res.game.tolist() == list(range(res.hands.shape[0]))
    assert (np.diff(res.dealer.astype(int)) % 4 == 1).all()


# --- the variants are live: each rule shows up in the random play ------------------------------


def spade_leads(sim):
    """Count spade leads by a leader still holding another suit, before / after spades broke."""
    before = after = 0
    for i in range(len(sim.records)):
        held = [int(m) for m in sim.result.hands[i]]
        leader = (int(sim.result.dealer[i]) + 1) % 4
        broken = False
        for t in range(13):
            trick = [int(s) for s in sim.plays[i, 4 * t: 4 * t + 4]]
            lead = trick[0]
            if lead >= 39 and held[leader] & ~SPADE_MASK:
                after += broken
                before += not broken
            for j, slot in enumerate(trick):
                held[(leader + j) % 4] &= ~(1 << slot)
            broken = broken or any(s >= 39 for s in trick)
            leader = int(sim.winners[i, t])
    return before, after


def test_variants_are_exercised():
    """Guard against a vacuous harness: the random players' hands do reach the rules that the
    variants change (otherwise 'every play legal' would prove little)."""
    hands = {name: run(name, "random", "hands") for name in VARIANTS}
    # spades_broken = False: spades led before any was played (illegal under True and "never")
    assert spade_leads(hands["spades_broken=false"])[0] > 0
    # True: spade leads after spades broke while holding other suits (illegal under "never")
    assert spade_leads(hands["spades.standard"])[1] > 0
    assert spade_leads(hands["spades.standard"])[0] == 0
    assert spade_leads(hands["spades_broken=never"]) == (0, 0)
    # blind nil from 0-0 only with min deficit 0; nil itself is bid when allowed
    assert hands["blind_nil_min_deficit=0"].blind.any()
    assert not hands["spades.standard"].blind.any()
    assert (hands["spades.standard"].bids == 0).any()
    # max_team_bid: some side bids exactly the limit
    side = hands["max_team_bid=9"].bids.reshape(-1, 2, 2).sum(axis=1)
    assert side.max() == 9
    # blind nil in games (a side trailing by 100 or more), and games that end by each rule
    games = run("spades.standard", "random", "games")
    assert games.blind.any()
    assert (games.scores_after <= -200).any()  # mercy
    seed_games = run("spades.standard", "seed", "games")
    assert (seed_games.scores_after >= 500).any()  # target
