"""Portland whist (RULES.md section 1) against the rules: random-play conformance, scoring by hand,
trick resolution under every trump suit, and the Parquet tables.

Expected values come from tests/reference_portland.py (the independent scalar reference: no numpy,
nothing from sim/) or are worked out by hand in the test; the engine is ``sim.portland``.

* Conformance: every Portland preset and the variants below (book 5, honours_order together,
  honours_barred_at 4, ...) are played by random players as independent hands and as whole games.
  Every hand: each card dealt once, 13 per seat; the dealer holds the turned-up card and trump is
  its suit (-1 under no trump); elder hand (dealer + 1) leads trick 1, every card is played by the
  seat whose turn it is and is legal; every trick winner, trick count, honours count, point and
  score equals the reference's. Games: scores carry over, the dealer moves one seat left, and a
  game ends exactly at the first hand after which the reference's ``game_over`` says so.
* Scoring cases worked by hand (9 tricks -> 3; honours 4 -> 4, 3 -> 2; barred at 4; tricks_first
  against together at the end of a game), for the engine's ``score_hands`` / ``game_over`` and
  for the reference alike.
* Trick resolution with each trump suit C, D, H, S and with no trump, each in a batch of its own:
  the engine resolves tricks by bit order when the trump suit is the highest bit range (spades, or
  no trump) and by the general rule otherwise (sim/tricks.py ``trump_on_top``); both paths must
  equal the reference.
* Parquet: the columns of the hands and games tables of a small run, and their rows against the
  engine's block and the reference's scoring.

Card encoding (sim/cards.py, docs/SCHEMA.md), re-derived here: bit ``13 * suit + rank``, suits C, D,
H, S = 0..3, ranks 2..A = 0..12.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import pyarrow.parquet as pq
import pytest

import sim
from sim.lineup import Lineup
from sim.options import PRESETS, preset_names, rules_to_dict
from sim.portland.game import game_over, play_block
from sim.portland.hand import play_hands
from sim.portland.scoring import score_hands
from sim.portland.tables import block_tables
from strategies import make_strategy
from whistlab.experiment import build_experiment
from whistlab.runner import run_experiment

try:  # tests/ as a package or as a plain directory on sys.path
    from tests import reference_portland as ref
except ImportError:  # pragma: no cover
    import reference_portland as ref

RANKS = "23456789TJQKA"
SUITS = "CDHS"
NAMES = [rank + suit for suit in SUITS for rank in RANKS]  # NAMES[13 * suit + rank]
FULL_DECK = (1 << 52) - 1
FIRST_DEALER = 3  # sim/blocks.py: hand 1 of a game is dealt by seat 3, so seat 0 is elder hand
SEED = 20250601

load = sim.options.load_rules
replace = dataclasses.replace
HONOURS = PRESETS["portland.honours"]

# name -> rules: every Portland preset, then section 1 variants
VARIANTS = {name: PRESETS[name] for name in preset_names("portland")}
VARIANTS.update({
    "book=5": replace(HONOURS, book=5),  # both sides can score tricks in one hand
    "book=5,no honours": replace(PRESETS["portland"], book=5),  # ties at the target play on
    "together": replace(HONOURS, honours_order="together"),
    "barred_at=4": replace(HONOURS, honours_barred_at=4),
    "seven,together,barred_at=5": replace(HONOURS, target_score=7, honours_order="together",
                                          honours_barred_at=5),
})
MODES = ("hands", "games")
SIZES = {"hands": 160, "games": 120}


def card_names(mask: int) -> list[str]:
    mask = int(mask)
    return [NAMES[b] for b in range(52) if mask >> b & 1]


def ref_rules(rules) -> dict:
    """Our rules value as the reference's rules dict."""
    out = rules_to_dict(rules)
    assert out.pop("game") == "portland"
    out.pop("dummy")  # who decides a seat's cards: the trick and scoring rules are the same
    out.pop("rubber")  # games grouped into rubbers: see check_games
    return out


@dataclass(eq=False)
class Run:
    """One block, one row per hand in the engine's order, with the reference's replay of each."""

    rules: object
    mode: str
    result: object
    trump: np.ndarray
    honours: np.ndarray
    tricks: np.ndarray
    plays: np.ndarray
    winners: np.ndarray
    trick_points: np.ndarray
    honours_points: np.ndarray
    points: np.ndarray
    scores_after: np.ndarray
    refs: list


def random_lineup() -> Lineup:
    return Lineup([make_strategy("random")] * 4)


def ref_inputs(rules, hands, dealer, turn_up, plays, before) -> dict:
    """The reference's arguments for one hand of the engine."""
    return dict(hands=[card_names(m) for m in hands], dealer=int(dealer),
                turn_up=NAMES[int(turn_up)] if rules.trump == "turn_up" else None,
                plays=[NAMES[int(s)] for s in plays], scores_before=[int(x) for x in before],
                rules=ref_rules(rules))


@functools.cache
def run(name: str, mode: str) -> Run:
    rules = VARIANTS[name]
    offset = 1 if mode == "hands" else 0  # hands mode: dealers start at seat 0
    result = play_block(rules, random_lineup(), SEED, 0, SIZES[mode], mode, hand_offset=offset)

    def cat(get):
        return np.concatenate([get(o) for o in result.outcomes])

    plays = cat(lambda o: o.play.plays)
    refs = [ref.replay_hand(**ref_inputs(rules, result.hands[i], result.dealer[i],
                                         result.turn_up[i], plays[i], result.before_scores[i]))
            for i in range(plays.shape[0])]
    return Run(rules=rules, mode=mode, result=result, trump=cat(lambda o: o.trump),
               honours=cat(lambda o: o.honours), tricks=cat(lambda o: o.play.tricks),
               plays=plays, winners=cat(lambda o: o.play.winners),
               trick_points=cat(lambda o: o.score.trick_points),
               honours_points=cat(lambda o: o.score.honours_points),
               points=cat(lambda o: o.score.points), scores_after=cat(lambda o: o.scores_after),
               refs=refs)


def test_every_preset_is_covered():
    assert set(preset_names("portland")) == {"portland", "portland.seven", "portland.honours",
                                             "portland.long", "portland.no_trump",
                                             "portland.dummy", "portland.laws"}
    assert set(preset_names("portland")) <= set(VARIANTS)
    with pytest.raises(sim.errors.UserError, match="target_score = 5"):
        load({"preset": "portland.seven", "rubber": True})


def test_presets_are_the_rules_md_table():
    base = ref_rules(PRESETS["portland"])
    assert base == ref.PORTLAND
    for name in preset_names("portland"):
        if name == "portland.dummy":  # RULES.md section 1: the plain game, a dummy at seat 3
            assert PRESETS[name].dummy and ref_rules(PRESETS[name]) == ref.PORTLAND
            continue
        if name == "portland.laws":  # honours, barred at 4, rubbers (the hands: see check_games)
            assert PRESETS[name].rubber
            assert ref_rules(PRESETS[name]) == {**ref.PORTLAND, "honours": True,
                                                "honours_barred_at": 4}
            continue
        assert ref_rules(PRESETS[name]) == ref.PRESETS[name], name


# --- conformance ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "mode"), [(n, m) for n in VARIANTS for m in MODES])
def test_conformance(name, mode):
    r = run(name, mode)
    check_shapes(r)
    check_deals_and_turn_up(r, name)
    for i, out in enumerate(r.refs):
        where = f"{name}/{mode} hand {i} (game {int(r.result.game[i])}, no {r.result.hand_no[i]})"
        check_play_arrays(r, i, where)
        assert out["errors"] == [], f"{where}: the reference rejects the play: {out['errors']}"
        assert out["winners"] == r.winners[i].tolist(), where
        assert out["tricks"] == r.tricks[i].tolist(), where
        assert out["honours"] == r.honours[i].tolist(), where
        assert out["trick_points"] == r.trick_points[i].tolist(), where
        assert out["honours_points"] == r.honours_points[i].tolist(), (where, out)
        assert out["points"] == r.points[i].tolist(), where
        assert out["after"] == r.scores_after[i].tolist(), where
    if mode == "games":
        check_games(r, name)
    else:
        check_independent_hands(r)


def check_shapes(r: Run):
    res = r.result
    h = res.hands.shape[0]
    assert h > 0
    for field, dtype, shape in (("game", np.int64, (h,)), ("hand_no", np.int16, (h,)),
                                ("dealer", np.int8, (h,)), ("hands", np.uint64, (h, 4)),
                                ("turn_up", np.int8, (h,)), ("before_scores", np.int32, (h, 2))):
        arr = getattr(res, field)
        assert (arr.dtype, arr.shape) == (np.dtype(dtype), shape), field
    assert sum(o.trump.shape[0] for o in res.outcomes) == h
    for o in res.outcomes:
        n = o.trump.shape[0]
        for field, arr, dtype, shape in (
                ("trump", o.trump, np.int8, (n,)), ("honours", o.honours, np.int8, (n, 2)),
                ("tricks", o.play.tricks, np.int8, (n, 4)),
                ("plays", o.play.plays, np.int8, (n, 52)),
                ("winners", o.play.winners, np.int8, (n, 13)),
                ("trick_points", o.score.trick_points, np.int32, (n, 2)),
                ("honours_points", o.score.honours_points, np.int32, (n, 2)),
                ("points", o.score.points, np.int32, (n, 2)),
                ("scores_after", o.scores_after, np.int32, (n, 2))):
            assert (arr.dtype, arr.shape) == (np.dtype(dtype), shape), field
    if r.mode == "games":
        g = res.games["n_hands"].shape[0]
        for key, dtype in (("n_hands", np.int16), ("winner", np.int8), ("score_0", np.int32),
                           ("score_1", np.int32)):
            assert (res.games[key].dtype, res.games[key].shape) == (np.dtype(dtype), (g,)), key
    else:
        assert res.games is None


def check_deals_and_turn_up(r: Run, name: str):
    """Section 0: 52 cards, 13 to each seat. Section 1: the turned-up card is the dealer's, and
    trump is its suit (-1 with trump = "none", and then no honours)."""
    res = r.result
    hands = res.hands
    assert (np.bitwise_count(hands) == 13).all(), name
    assert (np.bitwise_or.reduce(hands, axis=1) == np.uint64(FULL_DECK)).all(), name
    assert (np.bitwise_xor.reduce(hands, axis=1) == np.uint64(FULL_DECK)).all(), name  # disjoint
    rows = np.arange(hands.shape[0])
    assert ((res.turn_up >= 0) & (res.turn_up < 52)).all(), name
    dealer_hand = hands[rows, res.dealer.astype(np.intp)]
    assert ((dealer_hand >> res.turn_up.astype(np.uint64)) & np.uint64(1)).all(), name
    if r.rules.trump == "none":
        assert (r.trump == -1).all() and not r.honours.any() and not r.honours_points.any()
    else:
        assert (r.trump == res.turn_up // 13).all(), name


def check_play_arrays(r: Run, i: int, where: str):
    """From the engine's arrays alone: every slot played once; the j-th card of a trick belongs
    to seat leader + j; elder hand (dealer + 1) leads trick 1 and each winner leads the next; the
    trick counts are the winners' tally and sum to 13."""
    plays, winners, hands = r.plays[i], r.winners[i], r.result.hands[i]
    assert sorted(plays.tolist()) == list(range(52)), where
    leader = (int(r.result.dealer[i]) + 1) % 4
    for t in range(13):
        for j in range(4):
            seat = (leader + j) % 4
            assert int(hands[seat]) >> int(plays[4 * t + j]) & 1, f"{where}: trick {t + 1}"
        leader = int(winners[t])
    assert np.bincount(winners, minlength=4).tolist() == r.tricks[i].tolist(), where
    assert int(r.tricks[i].sum()) == 13, where


def check_games(r: Run, name: str):
    """Scores carry over, the dealer moves one seat left (hand 1 dealt by seat 3), and each game
    stops at the first hand after which the reference's game_over says it is over."""
    res, games = r.result, r.result.games
    rules = ref_rules(r.rules)
    by_game = defaultdict(list)
    for i, g in enumerate(res.game.tolist()):
        by_game[g].append(i)
    n_games = games["n_hands"].shape[0]
    assert sorted(by_game) == list(range(n_games)), name
    for g, rows in by_game.items():
        rows.sort(key=lambda i: int(res.hand_no[i]))
        assert [int(res.hand_no[i]) for i in rows] == list(range(1, len(rows) + 1))
        scores, won, game_no = [0, 0], [0, 0], 1
        for k, i in enumerate(rows, start=1):
            where = f"{name} game {g} hand {k}"
            out = r.refs[i]
            assert res.before_scores[i].tolist() == scores, where
            assert int(res.game_no[i]) == game_no, where
            assert int(res.dealer[i]) == (FIRST_DEALER + k - 1) % 4, where
            assert (out["game_over"], out["winner"]) == ref.game_over(out["after"], rules)
            scores = out["after"]
            if out["game_over"]:
                won[out["winner"]] += 1
            # without rubbers a unit is one game; with them (laws), games until two are won,
            # each from 0-0
            unit_over = out["game_over"] and (not r.rules.rubber or max(won) == 2)
            assert unit_over == (k == len(rows)), f"{where}: over at {out['after']}, won {won}"
            if out["game_over"] and not unit_over:
                scores, game_no = [0, 0], game_no + 1
        assert int(games["n_hands"][g]) == len(rows), name
        assert int(games["winner"][g]) == r.refs[rows[-1]]["winner"], name
        assert [int(games["score_0"][g]), int(games["score_1"][g])] == scores, name
        assert [int(games["games_won_0"][g]), int(games["games_won_1"][g])] == won, name


def check_independent_hands(r: Run):
    """Hands mode: every hand from 0-0, its own game, dealers rotating from seat 0."""
    res = r.result
    assert not res.before_scores.any()
    assert (res.hand_no == 1).all()
    assert res.game.tolist() == list(range(res.hands.shape[0]))
    assert res.dealer.tolist() == [i % 4 for i in range(res.hands.shape[0])]


def test_variants_are_exercised():
    """Guard against a vacuous harness: random play reaches the situations the rules differ on."""
    hon = run("portland.honours", "hands")
    assert (hon.honours_points == 4).any() and (hon.honours_points == 2).any()
    assert ((hon.honours == 2).all(axis=1)).any()  # 2-2 splits, scoring nothing
    assert not run("portland", "hands").honours_points.any()  # honours off by default
    # barred: a side at 4 or more before the hand held 3+ honours and scored none for them
    barred = run("barred_at=4", "games")
    at4 = barred.result.before_scores >= 4
    assert (at4 & (barred.honours >= 3)).any()
    assert not (at4 & (barred.honours_points > 0)).any()
    # tricks_first: a game ended by tricks while a side held 3+ honours that were not counted
    first = run("portland.honours", "games")
    ended = (first.result.before_scores + first.trick_points >= 5).any(axis=1)
    assert (ended[:, None] & (first.honours >= 3)).any()
    # together: honours and trick points of the last hand both counted
    tog = run("together", "games")
    both = (tog.trick_points > 0).any(axis=1) & (tog.honours_points > 0).any(axis=1)
    assert (both & (tog.scores_after.max(axis=1) >= 5)).any()
    # book 5: both sides score trick points in one hand
    assert (run("book=5", "hands").trick_points > 0).all(axis=1).any()
    # every trump suit turned up
    assert set(run("portland", "hands").trump.tolist()) == {0, 1, 2, 3}


# --- scoring by hand -----------------------------------------------------------------------------

# (rules, tricks per seat, honours per side, scores before,
#  trick points, honours points, scores after, (game over, winner))
CASES = {
    "9 tricks -> 3, other side 0": (
        "portland", [5, 2, 4, 2], [0, 0], [0, 0], [3, 0], [0, 0], [3, 0], (False, None)),
    "13 tricks -> 7, game": (
        "portland", [0, 6, 0, 7], [0, 0], [0, 0], [0, 7], [0, 0], [0, 7], (True, 1)),
    "6-7 -> 0-1": (
        "portland", [3, 3, 3, 4], [0, 0], [2, 2], [0, 1], [0, 0], [2, 3], (False, None)),
    "honours off: 4 held, nothing": (
        "portland", [3, 3, 3, 4], [4, 0], [0, 0], [0, 1], [0, 0], [0, 1], (False, None)),
    "4 honours -> 4": (
        "portland.honours", [3, 3, 3, 4], [4, 0], [0, 0], [0, 1], [4, 0], [4, 1], (False, None)),
    "3 honours -> 2": (
        "portland.honours", [3, 3, 3, 4], [1, 3], [0, 0], [0, 1], [0, 2], [0, 3], (False, None)),
    "2-2 -> nothing": (
        "portland.honours", [4, 3, 3, 3], [2, 2], [0, 0], [1, 0], [0, 0], [1, 0], (False, None)),
    "honours end the game (tricks first, tricks do not)": (
        "portland.honours", [4, 3, 3, 3], [0, 4], [3, 2], [1, 0], [0, 4], [4, 6], (True, 1)),
    "barred at 4: side at 4 scores no honours": (
        "barred_at=4", [3, 3, 3, 4], [4, 0], [4, 0], [0, 1], [0, 0], [4, 1], (False, None)),
    "barred at 4: side at 3 does": (
        "barred_at=4", [3, 3, 3, 4], [4, 0], [3, 0], [0, 1], [4, 0], [7, 1], (True, 0)),
    "barred at 4: the other side at 3 does": (
        "barred_at=4", [3, 3, 3, 4], [1, 3], [4, 3], [0, 1], [0, 2], [4, 6], (True, 1)),
    # a side at 4 takes 7 tricks: the game ends on tricks, the other side's honours don't count
    "tricks first: tricks end the game, honours not counted": (
        "portland.honours", [4, 3, 3, 3], [0, 4], [4, 2], [1, 0], [0, 0], [5, 2], (True, 0)),
    # the same hand scored together: both count, the higher total wins
    "together: both counted, higher total wins": (
        "together", [4, 3, 3, 3], [0, 4], [4, 2], [1, 0], [0, 4], [5, 6], (True, 1)),
    "together: both over the target, higher wins": (
        "together", [5, 3, 3, 2], [0, 4], [4, 1], [2, 0], [0, 4], [6, 5], (True, 0)),
    "together: equal totals play on": (
        "together", [4, 3, 3, 3], [1, 3], [4, 3], [1, 0], [0, 2], [5, 5], (False, None)),
    "barred at 4: the side at 4 holds 3, scores nothing": (
        "barred_at=4", [4, 3, 3, 3], [1, 3], [2, 4], [1, 0], [0, 0], [3, 4], (False, None)),
    "together, barred at 5: the side at 5 holds 4, scores nothing": (
        "seven,together,barred_at=5", [4, 3, 3, 3], [0, 4], [2, 5], [1, 0], [0, 0], [3, 5],
        (False, None)),
}


def case_rules(name):
    return VARIANTS[name]


@pytest.mark.parametrize("case", CASES)
def test_scoring_case(case):
    name, tricks, honours, before, tp, hp, after, over = CASES[case]
    rules = case_rules(name)
    got = score_hands(np.array([tricks], np.int8), np.array([honours], np.int8),
                      np.array([before], np.int32), rules)
    assert got.trick_points.tolist() == [tp], case
    assert got.honours_points.tolist() == [hp], case
    assert got.points.tolist() == [[a - b for a, b in zip(after, before, strict=True)]], case
    done, winner = game_over(np.array([after], np.int32), rules)
    assert (bool(done[0]), None if winner[0] < 0 else int(winner[0])) == over, case
    # the reference agrees with the hand-worked numbers
    want = ref.score_hand(tricks, honours, before, ref_rules(rules))
    assert (want["trick_points"], want["honours_points"], want["after"]) == (tp, hp, after)
    assert ref.game_over(after, ref_rules(rules)) == over


def test_tricks_first_tie_at_the_target_counts_honours():
    """RULES.md section 1, honours_order = "tricks_first": "trick points are added first; if that
    ends the game, honours are not counted". With book 5 both sides can score tricks: at 4-3, a
    6-7 split makes it 5-5, which does not end the game (equal scores play on), so side 0's three
    honours count: 7-5, side 0 wins. (With book 6 trick points alone can never tie at the target.)
    """
    rules = VARIANTS["book=5"]
    tricks, honours, before = [3, 3, 3, 4], [3, 1], [4, 3]
    want = ref.score_hand(tricks, honours, before, ref_rules(rules))
    assert (want["trick_points"], want["honours_points"], want["after"]) == ([1, 2], [2, 0], [7, 5])
    got = score_hands(np.array([tricks], np.int8), np.array([honours], np.int8),
                      np.array([before], np.int32), rules)
    assert got.honours_points.tolist() == [[2, 0]], (
        f"engine: trick points {got.trick_points.tolist()}, honours points "
        f"{got.honours_points.tolist()}: honours dropped although 5-5 does not end the game")


@pytest.mark.parametrize("target", [5, 7, 10])
def test_game_over_against_the_reference(target):
    """Every pair of scores 0..13: a side at or over the target with the scores different."""
    rules = load({"preset": "portland", "target_score": target})
    grid = np.array([(a, b) for a in range(14) for b in range(14)], np.int32)
    done, winner = game_over(grid, rules)
    for (a, b), d, w in zip(grid.tolist(), done.tolist(), winner.tolist(), strict=True):
        assert (d, None if w < 0 else w) == ref.game_over([a, b], {"target_score": target})


# --- trick resolution under each trump suit ------------------------------------------------------


@functools.cache
def deals(n: int = 480):
    """Dealt hands, dealers and turn-ups of a Portland hands block (any rules: deals are shared)."""
    res = play_block(PRESETS["portland"], random_lineup(), SEED + 1, 0, n, "hands")
    return res.hands, res.dealer, res.turn_up


@pytest.mark.parametrize("trump", ["C", "D", "H", "S", None])
def test_trick_resolution_per_trump_suit(trump):
    """One batch whose hands all have the same trump suit (or none): spades and no trump take the
    engine's bit-order path, clubs, diamonds and hearts its general path. Every winner equals the
    reference's, and the cases that separate the two paths do occur: a trump winning over a card
    of a higher bit range, and a higher-ranged off-suit card losing to the led suit."""
    hands, dealer, turn_up = deals()
    if trump is None:
        rules, rows = PRESETS["portland.no_trump"], np.arange(hands.shape[0])
    else:
        rules, rows = PRESETS["portland"], np.flatnonzero(turn_up // 13 == SUITS.index(trump))
    assert rows.size > 60
    zeros = np.zeros((rows.size, 2), np.int32)
    out = play_hands(hands[rows], dealer[rows], turn_up[rows], zeros, random_lineup(), rules,
                     np.random.default_rng(SEED + 2))
    assert (out.trump == (-1 if trump is None else SUITS.index(trump))).all()
    trump_over_higher = off_suit_loses = 0
    for k, i in enumerate(rows.tolist()):
        got = ref.replay_hand(**ref_inputs(rules, hands[i], dealer[i], turn_up[i],
                                           out.play.plays[k], [0, 0]))
        assert got["errors"] == [] and got["trump"] == trump, got["errors"]
        assert got["winners"] == out.play.winners[k].tolist(), (trump, k)
        assert got["tricks"] == out.play.tricks[k].tolist(), (trump, k)
        assert got["points"] == out.score.points[k].tolist(), (trump, k)
        leader = (int(dealer[i]) + 1) % 4
        for t in range(13):
            slots = out.play.plays[k, 4 * t: 4 * t + 4].tolist()
            win = slots[(int(out.play.winners[k, t]) - leader) % 4]
            higher = [s for s in slots if s > win]
            trump_over_higher += trump is not None and win // 13 == SUITS.index(trump) and any(
                s // 13 != win // 13 for s in higher)
            off_suit_loses += any(s // 13 not in (win // 13, slots[0] // 13) for s in higher)
            leader = int(out.play.winners[k, t])
    assert off_suit_loses > 0
    assert trump_over_higher > 0 or trump in ("S", None)


def test_reference_trick_winner_by_hand():
    # hearts trump: the low trump beats the ace led; no trump in the trick: the led suit wins
    assert ref.trick_winner(["AC", "2H", "KC", "AS"], 1, "H") == 2
    assert ref.trick_winner(["AC", "3H", "KH", "AS"], 1, "H") == 3
    assert ref.trick_winner(["TC", "2D", "KC", "AS"], 0, "H") == 2
    assert ref.trick_winner(["TC", "2D", "KC", "AS"], 0, None) == 2
    assert ref.trick_winner(["TC", "2D", "KC", "AS"], 0, "S") == 3
    assert ref.legal_plays(["AC", "2H", "3C"], ["KC"]) == ["AC", "3C"]
    assert ref.legal_plays(["AD", "2H"], ["KC"]) == ["AD", "2H"]


def test_reference_rejects_an_illegal_play():
    """The reference reports a revoke and a card not held (the yardstick is not vacuous)."""
    hands, dealer, turn_up = deals()
    rules = PRESETS["portland"]
    out = play_hands(hands[:1], dealer[:1], turn_up[:1], np.zeros((1, 2), np.int32),
                     random_lineup(), rules, np.random.default_rng(1))
    args = ref_inputs(rules, hands[0], dealer[0], turn_up[0], out.play.plays[0], [0, 0])
    assert ref.replay_hand(**args)["errors"] == []
    plays, trump = args["plays"], args["turn_up"][1]
    elder = (args["dealer"] + 1) % 4
    stranger = [c for c in NAMES if c not in args["hands"][elder]][0]
    errs = ref.replay_hand(**{**args, "plays": [stranger]})["errors"]
    assert errs == [f"trick 1, seat {elder}, card {stranger!r}: not in the player's hand"]
    # the first follower who holds the led suit and another suit plays the other suit instead
    held = [list(h) for h in args["hands"]]
    leader = elder
    for t in range(13):
        trick = plays[4 * t: 4 * t + 4]
        for j in range(1, 4):
            seat = (leader + j) % 4
            other = [c for c in held[seat] if c[1] != trick[0][1]]
            if other and len(other) < len(held[seat]):
                errs = ref.replay_hand(**{**args, "plays": plays[: 4 * t + j] + [other[0]]})
                assert errs["errors"][0].startswith(f"trick {t + 1}, seat {seat}, card "
                                                    f"{other[0]!r}: does not follow suit")
                return
        for j, card in enumerate(trick):
            held[(leader + j) % 4].remove(card)
        leader = ref.trick_winner(trick, leader, trump)
    pytest.fail("no revoke opportunity in this hand")


# --- Parquet -------------------------------------------------------------------------------------

HAND_COLUMNS = (["variant", "lineup", "swapped", "game_id", "hand_no", "game_no", "dealer", "trump",
                 "turn_up"]
                + [f"tricks_{s}" for s in range(4)]
                + [f"{c}_{side}" for c in ("honours", "trick_points", "honours_points", "points",
                                           "score") for side in range(2)]
                + [f"hand_{s}" for s in range(4)])
GAME_COLUMNS = ["variant", "lineup", "swapped", "game_id", "n_hands", "winner", "score_0",
                "score_1", "games_won_0", "rubber_points_0", "games_won_1", "rubber_points_1"]


@pytest.fixture(scope="module")
def parquet_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("portland_parquet")
    exp = build_experiment({"name": "portland", "rules": "portland.honours", "strategy": "random",
                            "games": 40, "seed": SEED, "block_size": 20})
    run_experiment(exp, out, n_jobs=1)
    return out


def test_parquet_columns(parquet_run):
    hands = pq.read_table(parquet_run / "hands")
    games = pq.read_table(parquet_run / "games")
    assert sorted(hands.column_names) == sorted(HAND_COLUMNS)
    assert len(hands.column_names) == len(HAND_COLUMNS)
    assert games.column_names == GAME_COLUMNS
    assert str(hands.schema.field("hand_0").type) == "uint64"
    assert games.num_rows == 40 and hands.num_rows >= 40


def test_parquet_rows(parquet_run):
    """Block 0 of the run is the engine's block 0 (the same seed), and every row's points and
    scores are the reference's scoring of its tricks and honours."""
    hands = pq.read_table(parquet_run / "hands").to_pandas().sort_values(["game_id", "hand_no"])
    games = pq.read_table(parquet_run / "games").to_pandas().sort_values("game_id")
    assert (hands.variant == "portland.honours").all() and not hands.swapped.any()
    result = play_block(HONOURS, random_lineup(), SEED, 0, 20, "games")
    want, want_games = block_tables(result, 0)
    first = hands[hands.game_id < 20].reset_index(drop=True)
    for col in want.column_names:
        assert first[col].tolist() == want.column(col).to_pylist(), col
    first_games = games[games.game_id < 20].reset_index(drop=True)
    for col in want_games.column_names:
        assert first_games[col].tolist() == want_games.column(col).to_pylist(), col

    rules = ref_rules(HONOURS)
    scores = {}
    for row in hands.itertuples():
        before = scores.get(row.game_id, [0, 0])
        tricks = [getattr(row, f"tricks_{s}") for s in range(4)]
        honours = [row.honours_0, row.honours_1]
        dealt = [card_names(getattr(row, f"hand_{s}")) for s in range(4)]
        assert NAMES[row.turn_up] in dealt[row.dealer] and row.trump == row.turn_up // 13
        assert honours == ref.honours_held(dealt, SUITS[row.trump])
        got = ref.score_hand(tricks, honours, before, rules)
        assert [row.trick_points_0, row.trick_points_1] == got["trick_points"]
        assert [row.honours_points_0, row.honours_points_1] == got["honours_points"]
        assert [row.points_0, row.points_1] == got["points"]
        assert [row.score_0, row.score_1] == got["after"]
        scores[row.game_id] = got["after"]
    for g in games.itertuples():
        final = scores[g.game_id]
        assert [g.score_0, g.score_1] == final
        assert (True, g.winner) == ref.game_over(final, rules)
        assert g.n_hands == (hands.game_id == g.game_id).sum()
