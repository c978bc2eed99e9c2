"""Portland whist (RULES.md section 1) against the rules: what random play reaches, scoring by
hand, trick resolution under every trump suit, and the Parquet tables.

Expected values come from tests/reference_portland.py (the independent scalar reference: no numpy,
nothing from sim/) or are worked out by hand in the test; the engine is ``sim.portland``.

* Conformance: every Portland preset and the variants of the ``portland`` table of
  tests/harness/variants.py (book 5, honours_order together, honours_barred_at 4, ...) are played
  by random players as independent hands and whole games in tests/test_conformance.py, through
  the shared invariants and against the reference (``harness.portland.compare``: every trick
  winner, trick count, honours count, point and score; games ending as ``game_over`` says, in
  rubbers under ``rubber``). Here: the play reaches what the variants change.
* Scoring cases worked by hand (9 tricks -> 3; honours 4 -> 4, 3 -> 2; barred at 4; tricks_first
  against together at the end of a game), for the engine's ``score_hands`` / ``game_over`` and
  for the reference alike.
* Trick resolution with each trump suit C, D, H, S and with no trump, each in a batch of its own:
  the engine resolves tricks by bit order when the trump suit is the highest bit range (spades, or
  no trump) and by the general rule otherwise (sim/tricks.py ``trump_on_top``); both paths must
  equal the reference.
* Parquet: the columns of the hands and games tables of a small run, and their rows against the
  engine's block and the reference's scoring.

Card encoding (sim/cards.py, docs/SCHEMA.md): bit ``13 * suit + rank``, suits C, D, H, S = 0..3,
ranks 2..A = 0..12.
"""

from __future__ import annotations

import functools

import numpy as np
import pyarrow.parquet as pq
import pytest

import sim
from harness.portland import ref, ref_rules
from harness.variants import TABLES, play
from sim.cards import RANKS, SUITS
from sim.lineup import Lineup
from sim.options import PRESETS, preset_names
from sim.portland.game import game_over, play_block
from sim.portland.hand import play_hands
from sim.portland.scoring import score_hands
from sim.portland.tables import block_tables
from strategies import make_strategy
from whistlab.experiment import build_experiment
from whistlab.runner import run_experiment

NAMES = [rank + suit for suit in SUITS for rank in RANKS]  # NAMES[13 * suit + rank]
SEED = TABLES["portland"].seed

load = sim.options.load_rules
HONOURS = PRESETS["portland.honours"]
VARIANTS = TABLES["portland"].variants  # name -> rules: every preset, then section 1 variants


def card_names(mask: int) -> list[str]:
    mask = int(mask)
    return [NAMES[b] for b in range(52) if mask >> b & 1]


def random_lineup() -> Lineup:
    return Lineup([make_strategy("random")] * 4)


def ref_inputs(rules, hands, dealer, turn_up, plays, before) -> dict:
    """The reference's arguments for one hand of the engine."""
    return dict(hands=[card_names(m) for m in hands], dealer=int(dealer),
                turn_up=NAMES[int(turn_up)] if rules.trump == "turn_up" else None,
                plays=[NAMES[int(s)] for s in plays], scores_before=[int(x) for x in before],
                rules=ref_rules(rules))


def run(name: str, mode: str):
    return play("portland", name, "random", mode)


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
        if name == "portland.laws":  # honours, barred at 4, rubbers (harness.portland's games)
            assert PRESETS[name].rubber
            assert ref_rules(PRESETS[name]) == {**ref.PORTLAND, "honours": True,
                                                "honours_barred_at": 4}
            continue
        assert ref_rules(PRESETS[name]) == ref.PRESETS[name], name


def test_deals_and_dealers():
    """Section 0: 52 cards, 13 to each seat, none twice; hand 1 of a game dealt by seat 3, hands
    mode dealing from seat 0 (the block's hand offset 1); every trump suit turned up."""
    for mode in ("hands", "games"):
        r = run("portland", mode)
        hands = r.by_seat("hand")
        assert (np.bitwise_count(hands) == 13).all()
        assert (np.bitwise_xor.reduce(hands, axis=1) == np.uint64((1 << 52) - 1)).all()
    hands = run("portland", "hands")
    assert hands.hands["dealer"].tolist() == [i % 4 for i in range(len(hands))]
    assert set(hands.hands["trump"].tolist()) == {0, 1, 2, 3}
    assert (run("portland.no_trump", "hands").hands["trump"] == -1).all()


def test_variants_are_exercised():
    """Guard against a vacuous harness: random play reaches the situations the rules differ on."""
    hon = run("portland.honours", "hands")
    honours, honours_points = hon.by_side("honours"), hon.by_side("honours_points")
    assert (honours_points == 4).any() and (honours_points == 2).any()
    assert ((honours == 2).all(axis=1)).any()  # 2-2 splits, scoring nothing
    assert not run("portland", "hands").by_side("honours_points").any()  # off by default
    # barred: a side at 4 or more before the hand held 3+ honours and scored none for them
    barred = run("barred_at=4", "games")
    at4 = barred.scores_before >= 4
    assert (at4 & (barred.by_side("honours") >= 3)).any()
    assert not (at4 & (barred.by_side("honours_points") > 0)).any()
    # tricks_first: a game ended by tricks while a side held 3+ honours that were not counted
    first = run("portland.honours", "games")
    ended = (first.scores_before + first.by_side("trick_points") >= 5).any(axis=1)
    assert (ended[:, None] & (first.by_side("honours") >= 3)).any()
    # together: honours and trick points of the last hand both counted
    tog = run("together", "games")
    both = ((tog.by_side("trick_points") > 0).any(axis=1)
            & (tog.by_side("honours_points") > 0).any(axis=1))
    assert (both & (tog.scores_after.max(axis=1) >= 5)).any()
    # book 5: both sides score trick points in one hand
    assert (run("book=5", "hands").by_side("trick_points") > 0).all(axis=1).any()
    # rubbers: a second (and third) game within a rubber, from 0-0
    assert (run("portland.laws", "games").hands["game_no"] > 1).any()


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
