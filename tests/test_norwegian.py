"""Norwegian whist (RULES.md section 2) against the rules: what random play reaches, the auction,
the scoring properties, double points, the classic game's scoring by hand, and the games table.

Expected values come from tests/reference_norwegian.py (the independent scalar reference: no numpy,
nothing from sim/) or are worked out by hand in the test; the engine is ``sim.norwegian``.

* Conformance: every Norwegian preset and the variants of the ``norwegian`` table of
  tests/harness/variants.py (3 players zero-sum with double points, 3 players declarer, target
  50, the classic game with other values, small ``max_hands`` so games stop unfinished, no
  ``max_hands`` at all) are played by random players and by the Norwegian ``seed`` player
  (strategies/norwegian_seed.py) as independent hands and whole games in
  tests/test_conformance.py, through the shared invariants (13 cards to each of 2 or 4 players,
  17 to each of 3, no card twice; the auction's leader leads trick 1; scores carried, the first
  hand dealt by seat P - 1 and the deal moving left; games ending as ``game_over`` says or
  unfinished after ``max_hands``) and against the reference (``harness.norwegian.compare``:
  declarer, grand player, leader, contract, trick winners, tricks, points and scores after).
  Here: the play reaches what the variants change.
* The auction on the engine's own columns (section 2): who speaks, in which order, who is silent.
* Scoring properties: under ``"both"`` every seat scores the same every hand and every game that
  ends is drawn; ``"zero_sum"`` and ``"declarer"`` as the table says.
* Double points on random play and on deals built so that the grand player must take every trick
  or none, whatever anyone plays.
* The classic game: scoring examples worked by hand, via ``score_classic`` and via scripted hands
  (deal, bids and every card) played through the engine's ``play_hands``.
* The games table of ``block_tables``.

Card encoding (sim/cards.py, docs/SCHEMA.md): bit ``13 * suit + rank``, suits C, D, H, S = 0..3,
ranks 2..A = 0..12. Declaration codes (sim/norwegian/auction.py): PASS 0, GRAND 1, MISERE 2,
NULLO 3, -1 = the seat did not speak.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
import pytest

import sim
from harness.norwegian import ref, ref_rules
from harness.variants import TABLES, play
from sim.cards import RANKS, SUITS
from sim.lineup import Lineup
from sim.norwegian.auction import DECLARATIONS
from sim.norwegian.game import game_over, play_block
from sim.norwegian.hand import deck_for, play_hands
from sim.norwegian.scoring import grand_value, misere_value, score_classic
from sim.norwegian.tables import block_tables
from sim.options import PRESETS, preset_names
from strategies import make_strategy
from strategies.uniform import RandomStrategy

NAMES = [rank + suit for suit in SUITS for rank in RANKS]  # NAMES[13 * suit + rank]
PASS, GRAND, MISERE, NULLO = 0, 1, 2, 3
CODE_NAMES = {PASS: "pass", GRAND: "grand", MISERE: "misere", NULLO: "nullo"}
KIND_CODES = {"grand": GRAND, "misere": MISERE, "nullo": NULLO}
SEED = TABLES["norwegian"].seed

load = sim.options.load_rules

VARIANTS = TABLES["norwegian"].variants  # name -> rules: every preset, then section 2 variants
MODES = ("hands", "games")
STRATEGIES = ("random", "seed")  # every seat the same player; "seed": strategies/norwegian_seed.py


def block_size(rules, mode: str) -> int:
    return TABLES["norwegian"].sizes(rules, mode, "random")


def card_names(mask: int) -> list[str]:
    mask = int(mask)
    return [NAMES[b] for b in range(52) if mask >> b & 1]


def n_tricks(rules) -> int:
    return 17 if rules.players == 3 else 13


def n_sides(rules) -> int:
    return 2 if rules.players == 4 else rules.players


def random_lineup(players: int) -> Lineup:
    return Lineup([make_strategy("random", game="norwegian")] * players)


def declaration_names(codes) -> list[str]:
    """Engine codes as the record's strings; a seat that did not speak (-1) as "pass" (the
    reference ignores every entry after the first bid, and test_auction_rules shows that -1 only
    ever follows it)."""
    return [CODE_NAMES[c] if c >= 0 else "pass" for c in codes]


def hand_record(res, i: int, declarations, plays) -> dict:
    """RULES.md section 5: one hand of the engine as a record for the reference."""
    players = res.hands.shape[1]
    return {"dealer": int(res.dealer[i]), "declarations": declaration_names(declarations.tolist()),
            "hands": [card_names(res.hands[i, s]) for s in range(players)],
            "plays": [NAMES[s] for s in plays.tolist()],
            "before": {"scores": res.before_scores[i].tolist()}}


def replay(record: dict, rules, where: str) -> dict:
    try:
        return ref.replay_hand(record, ref_rules(rules))
    except ValueError as exc:  # IllegalDeclaration, IllegalPlay, a malformed deal
        pytest.fail(f"{where}: the reference rejects the engine's hand: {exc}")


@dataclass(eq=False)
class Run:
    """A block of the shared harness (tests/harness: its tables, records and replay) with the
    Norwegian columns by name, one row per hand in table order."""

    rules: object
    mode: str
    block: object  # the harness's run
    dealer: np.ndarray
    declarations: np.ndarray
    declarer: np.ndarray
    contract: np.ndarray
    grand_player: np.ndarray
    forced: np.ndarray
    leader: np.ndarray
    tricks: np.ndarray
    points: np.ndarray
    contract_points: np.ndarray
    double: np.ndarray
    doubled: np.ndarray
    scores_after: np.ndarray
    games: dict | None


def run(name: str, mode: str, strategy: str = "random") -> Run:
    block = play("norwegian", name, strategy, mode)
    h = block.hands
    parts = {c: np.array([out["components"][c] for out in block.replayed])
             for c in ("contract", "double")}
    return Run(rules=block.rules, mode=mode, block=block, dealer=h["dealer"],
               declarations=block.by_seat("declaration"),
               **{k: h[k] for k in ("declarer", "contract", "grand_player", "forced", "leader",
                                    "doubled")},
               tricks=block.tricks, points=block.points, contract_points=parts["contract"],
               double=parts["double"], scores_after=block.scores_after, games=block.games)


def test_every_preset_is_covered():
    assert set(preset_names("norwegian")) == {"norwegian", "norwegian.declarer",
                                              "norwegian.zero_sum", "norwegian.three",
                                              "norwegian.double", "norwegian.classic"}
    assert set(preset_names("norwegian")) <= set(VARIANTS)


def test_presets_are_the_rules_md_table():
    assert DECLARATIONS == ("pass", "grand", "misere", "nullo")  # the codes re-derived above
    for name in preset_names("norwegian"):
        assert ref_rules(PRESETS[name]) == ref.PRESETS[name], name
        assert PRESETS[name].max_hands == 200, name
    for name, rules in VARIANTS.items():  # the variants are valid rules for the reference too
        assert ref.resolve_rules(ref_rules(rules)) == ref_rules(rules), name


def test_game_over_against_the_reference():
    """The engine's game_over on every pair and a grid of triples of scores around the targets."""
    for players, target in ((2, 20), (2, 50), (3, 4), (3, 20), (4, 50)):
        rules = load({"preset": "norwegian", "players": players, "target_score": target})
        sides = n_sides(rules)
        values = range(-8, 60, 2) if sides == 2 else range(-6, 26, 2)
        grid = np.array(np.meshgrid(*[list(values)] * sides)).reshape(sides, -1).T.astype(np.int32)
        done, winner = game_over(grid, rules)
        for scores, d, w in zip(grid.tolist(), done.tolist(), winner.tolist(), strict=True):
            want = ref.game_over(scores, {"players": players, "target_score": target})
            assert (d, None if w < 0 else w) == want, (players, target, scores)


@pytest.mark.parametrize("offset", [0, 5, 11])
@pytest.mark.parametrize("name", ["norwegian", "norwegian.three", "norwegian.classic"])
def test_hands_mode_dealer_rotation(name, offset):
    rules = PRESETS[name]
    p = rules.players
    res = play_block(rules, random_lineup(p), SEED, 0, 9, "hands", hand_offset=offset)
    assert res.dealer.tolist() == [(p - 1 + offset + i) % p for i in range(9)]
    assert (res.outcomes[0].play.tricks.sum(axis=1) == n_tricks(rules)).all()


def test_variants_are_exercised():
    """Guard against a vacuous harness: random play reaches the cases the rules differ on."""
    two = run("norwegian", "hands")
    assert set(two.contract.tolist()) == {GRAND, MISERE}  # the non-dealer chooses either
    three = run("norwegian.three", "hands")
    assert three.forced.any() and not three.forced.all()  # all passed: the dealer plays grand
    speaker = (three.grand_player - three.dealer) % 3  # 1, 2: dealer's left, next; 0: dealer
    assert set(speaker[~three.forced].tolist()) == {0, 1, 2}
    classic = run("norwegian.classic", "hands")
    assert set(classic.contract.tolist()) == {GRAND, NULLO}
    assert classic.forced.any() and (classic.declarer >= 0).any()
    # classic grand made (the bidding side scores) and failed (the other side scores)
    grand = classic.contract == GRAND
    side = classic.declarer.astype(np.intp) % 2
    rows = np.arange(side.size)
    assert (grand & (classic.points[rows, side] > 0)).any()
    assert (grand & (classic.points[rows, 1 - side] > 0)).any()
    # games: won, drawn, stopped unfinished
    assert (run("norwegian.zero_sum", "games").games["winner"] >= 0).any()
    assert run("norwegian", "games").games["draw"].any()
    assert run("three,target=4", "games").games["draw"].any()
    limited = run("declarer,max_hands=6", "games").games
    assert limited["finished"].any() and not limited["finished"].all()
    assert not run("three,max_hands=3", "games").games["finished"].any()
    assert (run("classic,max_hands=4", "games").games["n_hands"] == 4).any()
    assert run("classic,unlimited", "games").games["finished"].all()
    assert (run("classic,unlimited", "games").games["n_hands"] > 1).all()


# --- the auction (section 2) ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["norwegian", "norwegian.three", "norwegian.classic",
                                  "three,declarer", "classic,values"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_auction_rules(name, mode, strategy):
    r = run(name, mode, strategy)
    players = r.rules.players
    dealer = r.dealer.astype(np.int64)
    for i in range(dealer.size):
        d, decl = int(dealer[i]), r.declarations[i].tolist()
        where = f"{name}/{mode} hand {i}: dealer {d}, declarations {decl}"
        declarer, grand = int(r.declarer[i]), int(r.grand_player[i])
        contract, leader, forced = int(r.contract[i]), int(r.leader[i]), bool(r.forced[i])
        if players == 2:
            # only the non-dealer chooses; the dealer has the opposite; the grand player leads
            chooser = 1 - d
            assert decl[chooser] in (GRAND, MISERE), where
            assert decl[d] == GRAND + MISERE - decl[chooser], where
            assert (declarer, contract, forced) == (chooser, decl[chooser], False), where
            assert grand == (chooser if decl[chooser] == GRAND else d), where
            assert leader == grand, where
            continue
        # from the dealer's left; the first bid decides and the seats after it do not speak
        order = [(d + j) % players for j in range(1, players + 1)]
        said = [decl[s] for s in order]
        first = next((j for j, c in enumerate(said) if c not in (PASS, -1)), None)
        if first is None:
            assert said == [PASS] * players and forced, where
        else:
            assert said[:first] == [PASS] * first and not forced, where
            assert said[first + 1:] == [-1] * (players - 1 - first), where
        bidder = None if first is None else order[first]
        if players == 3:
            # grand or pass; all pass: the dealer must play grand; the grand player leads
            if first is not None:
                assert said[first] == GRAND, where
            assert declarer == grand == leader == (d if first is None else bidder), where
            assert contract == GRAND, where
        else:
            # classic: grand or nullo or pass; all pass -> nullo, no declarer, the player right of
            # the dealer leads; grand: left of the bidder leads; nullo: right of the bidder
            if first is None:
                assert (contract, declarer, grand, leader) == (NULLO, -1, -1, (d + 3) % 4), where
            elif said[first] == GRAND:
                assert (contract, declarer, grand) == (GRAND, bidder, bidder), where
                assert leader == (bidder + 1) % 4, where
            else:
                assert said[first] == NULLO, where
                assert (contract, declarer, grand) == (NULLO, bidder, -1), where
                assert leader == (bidder + 3) % 4, where


# --- scoring properties --------------------------------------------------------------------------

BOTH = [n for n, r in VARIANTS.items() if r.players < 4 and r.scoring == "both"]


def test_both_tables_agree():
    """Why "both" gives every seat the same points: with T odd, T = 2b + 1, and the misère side
    holding t = T - k tricks when the grand player has k,
      k > b:  grand 2(k - b);  t = 2b + 1 - k <= b, so misère 2(b + 1 - t) = 2(k - b);
      k <= b: grand -2(b + 1 - k);  t = 2b + 1 - k > b, so misère -2(t - b) = -2(b + 1 - k).
    So grand_value(k) == misere_value(T - k) for every k, with 13 and with 17 tricks."""
    for tricks in (13, 17):
        k = np.arange(tricks + 1)
        assert (grand_value(k, tricks) == misere_value(tricks - k, tricks)).all()
        assert [ref.grand_value(int(x), {"players": 2 if tricks == 13 else 3}) for x in k] == \
            grand_value(k, tricks).tolist()


@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_both_scores_every_seat_alike(name, mode, strategy):
    r = run(name, mode, strategy)
    assert (r.points == r.points[:, :1]).all(), name
    assert (r.scores_after == r.scores_after[:, :1]).all(), name
    if mode == "games":  # equal scores: every game that ends is a draw
        games = r.games
        assert (games["winner"] == -1).all(), name
        assert (games["draw"] == games["finished"]).all(), name


@pytest.mark.parametrize("name", [n for n, r in VARIANTS.items() if r.scoring == "zero_sum"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_zero_sum(name, mode, strategy):
    """The declarer's value v to the declarer, -v to each opponent: with 2 players the hand sums
    to 0; with 3 the declarer (the grand player) scores v and each of the two opponents -v."""
    r = run(name, mode, strategy)
    rows = np.arange(r.points.shape[0])
    v = r.points[rows, r.declarer.astype(np.intp)]
    assert (v != 0).all()  # the tables have no 0
    others = np.arange(r.rules.players)[None, :] != r.declarer[:, None]
    assert (r.points[others] == -np.repeat(v, r.rules.players - 1)).all(), name
    if r.rules.players == 2:
        assert (r.points.sum(axis=1) == 0).all(), name
    else:
        assert (r.points.sum(axis=1) == -v).all(), name
        assert (r.declarer == r.grand_player).all(), name


@pytest.mark.parametrize("name", [n for n, r in VARIANTS.items() if r.scoring == "declarer"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_declarer_scoring(name, mode, strategy):
    """Only the player who chose scores: the non-dealer with 2 players, the grand player with 3."""
    r = run(name, mode, strategy)
    rows = np.arange(r.points.shape[0])
    others = np.arange(r.rules.players)[None, :] != r.declarer[:, None]
    assert not r.points[others].any(), name
    assert (r.points[rows, r.declarer.astype(np.intp)] != 0).all(), name
    if r.rules.players == 2:
        assert (r.declarer == 1 - r.dealer).all(), name
    else:
        assert (r.declarer == r.grand_player).all(), name


# --- double points -------------------------------------------------------------------------------

DOUBLE = [n for n, r in VARIANTS.items() if r.double_points]


@pytest.mark.parametrize("name", DOUBLE)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_double_points_flags(name, mode, strategy):
    """doubled iff the grand player took 0 or all T tricks; the double part then equals the table
    part (every score twice), else 0."""
    r = run(name, mode, strategy)
    rows = np.arange(r.points.shape[0])
    k = r.tricks[rows, r.grand_player.astype(np.intp)]
    assert (r.doubled == ((k == 0) | (k == n_tricks(r.rules)))).all(), name
    assert (r.double == np.where(r.doubled[:, None], r.contract_points, 0)).all(), name
    assert (r.points == r.contract_points + r.double).all(), name


@pytest.mark.parametrize("name", [n for n, r in VARIANTS.items() if not r.double_points])
def test_without_double_points_nothing_is_doubled(name):
    r = run(name, "hands")
    assert not r.doubled.any() and not r.double.any()


@pytest.mark.parametrize("base", ["norwegian", "norwegian.zero_sum", "norwegian.three"])
def test_double_points_doubles_the_same_hand(base):
    """The same block under double_points: random play ignores the rules' scoring, so the hands
    are played the same; the points are the plain ones, twice where doubled."""
    plain_rules = PRESETS[base]
    double_rules = dataclasses.replace(plain_rules, double_points=True)
    p = plain_rules.players
    plain = play_block(plain_rules, random_lineup(p), SEED + 7, 0, 3000, "hands").outcomes[0]
    double = play_block(double_rules, random_lineup(p), SEED + 7, 0, 3000, "hands").outcomes[0]
    assert (plain.play.plays == double.play.plays).all()  # precondition: the same hands
    assert (plain.auction.declarations == double.auction.declarations).all()
    rows = np.arange(plain.play.tricks.shape[0])
    k = plain.play.tricks[rows, plain.auction.grand_player.astype(np.intp)]
    sweep = (k == 0) | (k == n_tricks(plain_rules))
    assert (double.score.doubled == sweep).all() and not plain.score.doubled.any()
    factor = np.where(sweep, 2, 1)[:, None]
    assert (double.score.points == factor * plain.score.points).all()


@dataclasses.dataclass(frozen=True, kw_only=True)
class GrandFirst(RandomStrategy):
    """Random play, grand at the first chance (2 players: the non-dealer; 3: the dealer's left)."""

    name = "grand_first"  # a test player: not registered

    def declare(self, view, rng):
        return np.full(len(view), GRAND, dtype=np.int8)


def sweep_deals(players: int, n: int, seed: int):
    """Deals where the grand player (the dealer's left, under GrandFirst) must take every trick
    (even-numbered pairs of rows) or none (odd), whatever anyone plays.

    2 players, suits a and b (the other two undealt): high = a 8..A (7) + b 9..A (6), low = a 2..7
    + b 2..8. Every high card beats every low card of its suit. The high holder wins trick 1
    (leading, or following the low holder's lead: it holds both suits then) and leads every
    trick after, which the low holder can only follow lower or discard on.
    3 players: sweeper = all 13 of suit s + A of the three others + K of one of them: it leads
    trick 1 and every trick, and no one can beat its lead (s: nobody else holds one; the others:
    an ace, or a king whose ace it holds). Loser = ranks 2..5 of every suit + the 6 of suit s:
    every card of it is below every other card of its suit, and every suit has 8+ cards outside it
    of which at most one is undealt, so an opponent follows its lead of trick 1 higher; then an
    opponent leads every trick, which the loser follows lower or discards on.
    """
    rng = np.random.default_rng(seed)
    hands = np.zeros((n, players), dtype=np.uint64)
    dealer = (np.arange(n) % players).astype(np.int8)
    wins = (np.arange(n) // players) % 2 == 0
    for i in range(n):
        suits = rng.permutation(4).tolist()
        grand = (int(dealer[i]) + 1) % players
        if players == 2:
            a, b = suits[:2]
            high = [13 * a + r for r in range(6, 13)] + [13 * b + r for r in range(7, 13)]
            low = [13 * a + r for r in range(6)] + [13 * b + r for r in range(7)]
            cards = {grand: high if wins[i] else low, 1 - grand: low if wins[i] else high}
        else:
            s, x = suits[:2]
            if wins[i]:
                mine = [13 * s + r for r in range(13)] + [13 * t + 12 for t in suits[1:]]
                mine.append(13 * x + 11)
            else:
                mine = [13 * t + r for t in range(4) for r in range(4)] + [13 * s + 4]
            rest = rng.permutation([c for c in range(52) if c not in mine]).tolist()
            others = [(grand + 1) % 3, (grand + 2) % 3]
            cards = {grand: mine, others[0]: rest[:17], others[1]: rest[17:34]}
        for seat, slots in cards.items():
            assert len(slots) == (13 if players == 2 else 17)
            hands[i, seat] = np.uint64(sum(1 << c for c in slots))
    return hands, dealer, wins


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("scoring", ["both", "declarer", "zero_sum"])
def test_double_points_on_sweeps(players, scoring):
    """Sweeps (all T tricks to the grand player) and whitewashes (none), worked by hand:
    2 players: grand 13 tricks = 2(13-6) = 14, misère 0 tricks = 2(6+1) = 14; grand 0 = -2(6+1)
    = -14, misère 13 = -2(13-6) = -14. 3 players: grand 17 = 2(17-8) = 18, misère team 0 =
    2(8+1) = 18; grand 0 = -18, misère 17 = -18. Doubled: 28 / -28, 36 / -36."""
    n = 48
    hands, dealer, wins = sweep_deals(players, n, SEED + players)
    base = {"players": players, "scoring": scoring}
    plain_rules = load({"preset": "norwegian", **base})
    double_rules = load({"preset": "norwegian", **base, "double_points": True})
    value = {2: 14, 3: 18}[players]
    zeros = np.zeros((n, players), dtype=np.int32)
    lineup = Lineup([GrandFirst()] * players)
    for rules, factor in ((plain_rules, 1), (double_rules, 2)):
        out = play_hands(hands, dealer, zeros, lineup, rules, np.random.default_rng(SEED),
                         deck_for(rules))
        grand = out.auction.grand_player.astype(np.int64)
        assert (grand == (dealer + 1) % players).all()
        k = out.play.tricks[np.arange(n), grand]
        assert (k == np.where(wins, n_tricks(rules), 0)).all()
        assert (out.score.doubled == (factor == 2)).all()
        v = factor * np.where(wins, value, -value)[:, None]  # the grand (= declarer) player's
        seats = np.arange(players)[None, :]
        want = {"both": np.broadcast_to(v, (n, players)),
                "declarer": np.where(seats == grand[:, None], v, 0),
                "zero_sum": np.where(seats == grand[:, None], v, -v)}[scoring]
        assert (out.score.points == want).all(), (scoring, factor)
        for i in range(n):  # and the reference replays each hand to the same points
            res = SimpleNamespace(dealer=dealer, hands=hands, before_scores=zeros)
            rec = hand_record(res, i, out.auction.declarations[i], out.play.plays[i])
            got = replay(rec, rules, f"sweep hand {i}")
            assert got["points"] == out.score.points[i].tolist(), i
            assert got["winners"] == out.play.winners[i].tolist(), i


# --- the classic game: scoring by hand -----------------------------------------------------------

CLASSIC = PRESETS["norwegian.classic"]
CLASSIC_VALUES = VARIANTS["classic,values"]  # grand 3, failed grand 5, nullo 1

# (rules, contract, declarer, tricks per seat, points per side), side 0 = seats 0 and 2
CLASSIC_CASES = [
    # side 0 bids grand (seat 0) and takes 5 + 4 = 9: 4 * (9 - 6) = 12
    (CLASSIC, GRAND, 0, [5, 1, 4, 3], [12, 0]),
    # side 0 bids grand (seat 2) and takes 6: failed, side 1 (7 tricks) scores 8 * (7 - 6) = 8
    (CLASSIC, GRAND, 2, [3, 4, 3, 3], [0, 8]),
    # seat 1 bids grand, side 1 takes exactly 7: 4 * 1 = 4
    (CLASSIC, GRAND, 1, [3, 4, 3, 3], [0, 4]),
    # seat 3 bids grand, side 1 takes all 13: 4 * 7 = 28
    (CLASSIC, GRAND, 3, [0, 6, 0, 7], [0, 28]),
    # seat 3 bids grand, side 1 takes none: side 0 scores 8 * (13 - 6) = 56
    (CLASSIC, GRAND, 3, [7, 0, 6, 0], [56, 0]),
    # nullo (seat 1), sides 8 / 5: side 1 scores 2 * (8 - 6) = 4, side 0 scores 0 (5 <= 6)
    (CLASSIC, NULLO, 1, [4, 2, 4, 3], [0, 4]),
    # nullo, sides 6 / 7: side 0 scores 2 * (7 - 6) = 2
    (CLASSIC, NULLO, 0, [3, 3, 3, 4], [2, 0]),
    # all passed (nullo, no declarer), sides 12 / 1: side 1 scores 2 * (12 - 6) = 12
    (CLASSIC, NULLO, -1, [6, 0, 6, 1], [0, 12]),
    # other values: grand made with 10 -> 3 * 4 = 12; failed with 4 -> opponents 5 * (9 - 6) = 15;
    # nullo 9 / 4 -> side 1 scores 1 * (9 - 6) = 3
    (CLASSIC_VALUES, GRAND, 2, [5, 1, 5, 2], [12, 0]),
    (CLASSIC_VALUES, GRAND, 0, [2, 5, 2, 4], [0, 15]),
    (CLASSIC_VALUES, NULLO, 3, [4, 2, 5, 2], [0, 3]),
]


@pytest.mark.parametrize("case", range(len(CLASSIC_CASES)))
def test_score_classic_by_hand(case):
    rules, contract, declarer, tricks, points = CLASSIC_CASES[case]
    got = score_classic(np.array([contract], np.int8), np.array([declarer], np.int8),
                        np.array([tricks], np.int8), rules)
    assert got.dtype == np.int32 and got.tolist() == [points]
    # the reference agrees with the hand-worked numbers
    decl = ["pass"] * 4
    if declarer >= 0:
        decl[declarer] = CODE_NAMES[contract]
    dealer = (declarer - 1) % 4 if declarer >= 0 else 0  # the bidder speaks first
    assert ref.score_hand(decl, tricks, ref_rules(rules), dealer=dealer) == points


class Script:
    """A scripted player for every seat: ``declarations[row, seat]`` (codes) when asked, and the
    card ``plays[row, P * trick + position]`` (slots in order of play)."""

    def __init__(self, declarations: np.ndarray, plays: np.ndarray, players: int):
        self.declarations, self.plays, self.players = declarations, plays, players

    def declare(self, view, rng):
        return self.declarations[view.rows, view.seat].astype(np.int8)

    def play(self, view, rng):
        slot = self.plays[view.rows, self.players * view.trick_no + view.position]
        return np.uint64(1) << slot.astype(np.uint64)


def chain_deal() -> list[list[int]]:
    """The scripted classic deal: seat s holds 3..A of suit s (C, D, H, S for seats 0..3) and the 2
    of suit s + 1. A lead of one's own suit wins (nobody else holds it, but the holder of its 2
    must follow with the 2 while it still has it); a lead of one's 2 ("passing") loses the trick
    to the next seat, which must follow with its own suit."""
    return [[13 * s + r for r in range(1, 13)] + [13 * ((s + 1) % 4)] for s in range(4)]


def chain_plays(leader: int, segments: list[tuple[int, int, bool]]) -> list[int]:
    """The 52 cards of a chain deal's hand. ``segments``: (seat, own leads, then pass?) in order;
    the first seat is ``leader``. Followers follow with their lowest card of the led suit, else
    discard: the 2 first by a seat that never passes, else their highest card of their own suit."""
    held = [set(h) for h in chain_deal()]
    passes = {seat for seat, _, p in segments if p}
    order = []
    for seat, n, p in segments:
        order += [(seat, "own")] * n + ([(seat, "pass")] if p else [])
    assert len(order) == 13 and order[0][0] == leader
    plays = []
    for seat, what in order:
        card = max(c for c in held[seat] if c // 13 == seat) if what == "own" else \
            13 * ((seat + 1) % 4)
        trick = [card]
        held[seat].remove(card)
        for j in range(1, 4):
            s = (seat + j) % 4
            follow = [c for c in held[s] if c // 13 == card // 13]
            deuce = 13 * ((s + 1) % 4)
            if follow:
                c = min(follow)
            elif deuce in held[s] and s not in passes:
                c = deuce
            else:
                c = max(c for c in held[s] if c // 13 == s)
            held[s].remove(c)
            trick.append(c)
        plays += trick
    assert not any(held)
    return plays


# (rules, dealer, declarations by seat (None: never asked), leader, segments, tricks per seat,
#  points per side)
SCRIPTED = [
    # dealer 3, seat 0 bids grand; seat 1 (left of the bidder) leads. Seat 1 passes (t1, seat 2
    # wins), seat 2 runs 7 hearts (t2-8), passes (t9, seat 3), seat 3 passes (t10, seat 0), seat 0
    # passes (t11, seat 1), seat 1 runs 2 diamonds (t12-13). Tricks 1 / 3 / 8 / 1 by seat: side 0
    # 1 + 8 = 9 -> 4 * (9 - 6) = 12.
    (CLASSIC, 3, [GRAND, None, None, None], 1,
     [(1, 0, True), (2, 7, True), (3, 0, True), (0, 0, True), (1, 2, False)],
     [1, 3, 8, 1], [12, 0]),
    # dealer 0: seat 1 passes, seat 2 bids grand; seat 3 leads and runs 3 spades (seat 2 follows
    # with its 2 of spades), passes (t4, seat 0), seat 0 runs 5 clubs (t5-9), passes (t10, seat
    # 1), seat 1 runs 3 diamonds (t11-13). Tricks 6 / 4 / 0 / 3: side 0 6 (failed), side 1
    # 4 + 3 = 7 -> 8 * (7 - 6) = 8.
    (CLASSIC, 0, [None, PASS, GRAND, None], 3,
     [(3, 3, True), (0, 5, True), (1, 3, False)], [6, 4, 0, 3], [0, 8]),
    # dealer 0: seat 1 bids nullo; seat 0 (right of the bidder) leads and runs 4 clubs, passes
    # (t5, seat 1), seat 1 runs 3, passes (t9, seat 2), seat 2 runs 3, passes (t13, seat 3).
    # Tricks 4 / 4 / 4 / 1: sides 8 / 5 -> side 1 scores 2 * (8 - 6) = 4, side 0 nothing.
    (CLASSIC, 0, [None, NULLO, None, None], 0,
     [(0, 4, True), (1, 3, True), (2, 3, True), (3, 0, False)], [4, 4, 4, 1], [0, 4]),
    # dealer 2, all pass: nullo, seat 1 (right of the dealer) leads, runs 12 diamonds and passes
    # (t13, seat 2). Tricks 0 / 12 / 1 / 0: sides 1 / 12 -> side 0 scores 2 * (12 - 6) = 12.
    (CLASSIC, 2, [PASS, PASS, PASS, PASS], 1, [(1, 12, True), (2, 0, False)],
     [0, 12, 1, 0], [12, 0]),
    # other values. Dealer 0, seat 1 bids grand; seat 2 leads, runs 12 hearts, passes (t13, seat
    # 3). Sides 12 / 1: failed, side 0 scores 5 * (12 - 6) = 30 (48 with the default 8).
    (CLASSIC_VALUES, 0, [None, GRAND, None, None], 2, [(2, 12, True), (3, 0, False)],
     [0, 0, 12, 1], [30, 0]),
    # dealer 3, seat 0 bids grand; seat 1 passes at once (t1, seat 2), seat 2 runs its 11 other
    # hearts (t2-12), passes (t13, seat 3). Sides 12 / 1: 3 * (12 - 6) = 18.
    (CLASSIC_VALUES, 3, [GRAND, None, None, None], 1,
     [(1, 0, True), (2, 11, True), (3, 0, False)], [0, 0, 12, 1], [18, 0]),
    # the nullo hand above with nullo_value 1: side 1 scores 1 * (8 - 6) = 2
    (CLASSIC_VALUES, 0, [None, NULLO, None, None], 0,
     [(0, 4, True), (1, 3, True), (2, 3, True), (3, 0, False)], [4, 4, 4, 1], [0, 2]),
]


def test_classic_scripted_hands():
    """Scripted hands (deal, bids, every card) through the engine's play_hands: the auction, the
    tricks and the points worked out by hand above; the reference replays them alike."""
    deal = chain_deal()
    hands_one = [np.uint64(sum(1 << c for c in h)) for h in deal]
    before = [[10, 20], [0, 0], [45, 3], [7, 49], [0, 0], [1, 2], [3, 4]]
    for rules in (CLASSIC, CLASSIC_VALUES):
        cases = [(i, c) for i, c in enumerate(SCRIPTED) if c[0] is rules]
        n = len(cases)
        hands = np.array([hands_one] * n, dtype=np.uint64)
        dealer = np.array([c[1] for _, c in cases], dtype=np.int8)
        decl = np.array([[PASS if x is None else x for x in c[2]] for _, c in cases], np.int8)
        plays = np.array([chain_plays(c[3], c[4]) for _, c in cases], dtype=np.int8)
        scores = np.array([before[i] for i, _ in cases], dtype=np.int32)
        out = play_hands(hands, dealer, scores, Lineup([Script(decl, plays, 4)] * 4), rules,
                         np.random.default_rng(0), deck_for(rules))
        for row, (i, (_, _, said, leader, _, tricks, points)) in enumerate(cases):
            where = f"scripted hand {i}"
            assert out.auction.declarations[row].tolist() == [-1 if x is None else x
                                                              for x in said], where
            assert int(out.auction.leader[row]) == leader, where
            assert (plays[row] == out.play.plays[row]).all(), where
            assert out.play.tricks[row].tolist() == tricks, where
            side = [tricks[0] + tricks[2], tricks[1] + tricks[3]]
            assert sum(side) == 13 and out.score.points[row].tolist() == points, (where, side)
            assert out.scores_after[row].tolist() == [b + p for b, p in zip(before[i], points,
                                                                                strict=True)]
            assert bool(out.auction.forced[row]) == all(x == PASS for x in said), where
            res = SimpleNamespace(dealer=dealer, hands=hands, before_scores=scores)
            got = replay(hand_record(res, row, out.auction.declarations[row], plays[row]), rules,
                         where)
            assert (got["tricks"], got["points"], got["leader"]) == (tricks, points, leader)


# --- the games table -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["norwegian", "norwegian.zero_sum", "declarer,max_hands=6",
                                  "three,zero_sum,double", "three,max_hands=3",
                                  "norwegian.classic", "classic,max_hands=4"])
def test_games_table(name):
    r = run(name, "games")
    rules, res = r.rules, r.block.result
    hands, games = block_tables(res, 100)
    hands, games = hands.to_pandas(), games.to_pandas()
    sides, players = n_sides(rules), rules.players
    assert len(hands) == res.hands.shape[0] and len(games) == block_size(rules, "games")
    assert games.game_id.tolist() == list(range(100, 100 + len(games)))
    assert list(zip(hands.game_id, hands.hand_no, strict=True)) == sorted(
        zip(hands.game_id, hands.hand_no, strict=True))
    for col in ([f"declaration_{s}" for s in range(players)] + [f"tricks_{s}" for s in range(players)]
                + [f"hand_{s}" for s in range(players)]
                + [f"{c}_{s}" for c in ("points", "score") for s in range(sides)]
                + ["declarer", "contract", "grand_player", "leader", "forced", "doubled"]):
        assert col in hands.columns, col
    by_game = hands.groupby("game_id")
    limit = rules.max_hands
    for g in games.itertuples():
        rows = by_game.get_group(g.game_id)
        final = [getattr(g, f"score_{s}") for s in range(sides)]
        assert g.n_hands == len(rows), g.game_id
        assert rows.hand_no.tolist() == list(range(1, g.n_hands + 1))
        assert final == [int(rows[f"points_{s}"].sum()) for s in range(sides)], g.game_id
        assert final == [int(rows[f"score_{s}"].iloc[-1]) for s in range(sides)], g.game_id
        reached = max(final) >= rules.target_score
        assert limit is None or g.n_hands <= limit
        assert g.finished == reached, g.game_id
        if not g.finished:
            assert g.n_hands == limit and g.winner == -1 and not g.draw, g.game_id
        else:
            # no earlier hand reached the target
            before = rows[[f"score_{s}" for s in range(sides)]].to_numpy()[:-1]
            assert (before < rules.target_score).all(), g.game_id
            top = [s for s in range(sides) if final[s] == max(final)]
            assert g.winner == (top[0] if len(top) == 1 else -1), g.game_id
            assert g.draw == (len(top) > 1), g.game_id
    # the table's rows are the engine's block, and its records replayed
    order = np.lexsort((res.hand_no, res.game))
    replayed = r.block.replayed
    for s in range(players):
        assert (hands[f"hand_{s}"].to_numpy() == res.hands[order, s]).all()
        assert hands[f"tricks_{s}"].tolist() == [out["tricks"][s] for out in replayed]
    for s in range(sides):
        assert hands[f"points_{s}"].tolist() == [out["points"][s] for out in replayed]
