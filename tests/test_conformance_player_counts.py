"""RULES.md section 4.7 tables without partners — three players (the 2C out, or the last card
undealt; with two jokers), cutthroat four (``partnerships = false``) and five players (without 2D
and 2H; with three jokers) — in the engine equal the scalar reference (tests/reference.py), hand
by hand, card by card and bid by bid.

Each table alone, then with a few house rules still allowed there; ``random`` and ``seed`` players
play independent hands and whole games (``sim.spades.game.play_block``), the block is written as
section 5 records (P entries in bids / blind / tricks / hands, S in ``before``) and every record
is replayed by ``reference.replay_hand``, which accepts each of the engine's bids and plays only
if its own rules allow them; tricks, trick winners, points, all seven components, the scores,
bags (and progressive count) after the hand and the bags taken must equal the engine's arrays;
in games mode the games carry and end as ``reference.game_over`` says
(``tests.harness.check_games``). Then:

* at every bid and every card the engine's players were offered, the engine's choices (its bid
  mask, the blind nil question, ``view.legal``) are exactly the reference's ``legal_bids`` and
  ``legal_plays`` (a recording player wraps the strategy);
* three players with the last card undealt: the hands where that card is the 2C, named by
  ``first_lead`` and ``bag_cancel_card`` (the lowest club dealt leads; nothing is cancelled);
* the engine loads exactly the table and key combinations the reference accepts, and a refusal
  names the same key (every partnership and two-side key at every table, the decks' keys).
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from sim.errors import UserError
from sim.lineup import Lineup
from sim.options import PRESETS, rules_from_mapping
from sim.spades.contracts import NAMES as CONTRACT_NAMES
from sim.spades.game import play_block
from sim.spades.hand import deck_for
from strategies import make_strategy

try:
    from tests.harness import compare_records, ref, ref_rules, simulate
    from tests.test_conformance_card_orders import Recording
except ImportError:  # pragma: no cover
    from harness import compare_records, ref, ref_rules, simulate
    from test_conformance_card_orders import Recording

STANDARD = PRESETS["spades.standard"]

TABLES: dict[str, dict] = {
    "three": {"players": 3},
    "three, last undealt": {"players": 3, "remove": "last"},
    "three with jokers": {"players": 3, "jokers": 2},
    "cutthroat": {"partnerships": False},
    "five": {"players": 5},
    "five with jokers": {"players": 5, "jokers": 3},
}
COMBINATIONS: dict[str, dict] = {
    "three, three_b, dix": {"players": 3, "three_b": True, "dix": True},
    "cutthroat, must_overtrump=opponents, bag_cancel_card=cut": {
        "partnerships": False, "must_overtrump": "opponents", "bag_cancel_card": "cut"},
    "five, fledu, bags_negative": {"players": 5, "fledu": True, "bags_negative": True},
    "three, last undealt, bag_cancel_card=2C, first_lead=two_of_clubs": {
        "players": 3, "remove": "last", "bag_cancel_card": "2C", "first_lead": "two_of_clubs"},
    "three with jokers, jokers_first_wins, must_trump, trick bonuses": {
        "players": 3, "jokers": 2, "trump_order": "jokers_first_wins", "must_trump": True,
        "last_trick_bonus": True, "end_streak": True, "last_trick_ace": True},
    "five with jokers, deuces_high, quicksand, seven_plus=progressive": {
        "players": 5, "jokers": 3, "trump_order": "deuces_high", "quicksand": True,
        "seven_plus": "progressive"},
    "cutthroat, exact=player, double_over, no_minus, nil_tricks=count": {
        "partnerships": False, "exact": "player", "double_over": True, "no_minus": True,
        "nil_tricks": "count"},
    "five, whiz": {"players": 5, "whiz": True, "blind_nil": False},
    "cutthroat, spades_broken=never, mirror, bags_in_units_digit": {
        "partnerships": False, "spades_broken": "never", "mirror": True, "blind_nil": False,
        "bags_in_units_digit": True, "bag_limit": 5, "bag_penalty": 50},
    "three, joker_high_alternate, seven_plus=per_trick, no_overs": {
        "players": 3, "jokers": 2, "trump_order": "joker_high_alternate",
        "seven_plus": "per_trick", "no_overs": True},
    # issue 19: a side is a single player without partners (RULES.md section 4): the keys of a
    # side's bid or contract are his, min_team_bid too, and the hook is every table's
    "three, min_team_bid, moon, lexington, hook": {
        "players": 3, "min_team_bid": 4, "moon": True, "lexington": True, "hook": True},
    "cutthroat, mo_a, wheel, blind six, blind moon, bemo, lexington_points": {
        "partnerships": False, "mo_a": True, "ten_for_two_hundred": True, "blind_six": True,
        "blind_moon": True, "bemo": True, "lexington_points": True},
    "five, mo_b, tens_are_wheels, exact wheel, hook": {
        "players": 5, "mo_b": True, "ten_for_two_hundred": True, "tens_are_wheels": True,
        "ten_for_200_exact": True, "hook": True},
    "cutthroat, blind_six_at_least, moon, min_team_bid": {
        "partnerships": False, "blind_six": True, "blind_six_at_least": True, "moon": True,
        "min_team_bid": 3},
}
VARIANTS = {**TABLES, **COMBINATIONS}

STRATEGIES = ("random", "seed")
SIZES = {("hands", "random"): 40, ("hands", "seed"): 24, ("games", "random"): 5,
         ("games", "seed"): 2}
MAX_HANDS = {"random": 6, "seed": 10}
SEED = 4747


def engine_rules(name: str):
    rules = dataclasses.replace(STANDARD, blind_nil_min_deficit=50, **VARIANTS[name])
    if "blind_nil_min_deficit" in rules.voided_by():  # no blind nil (issue 17: then refused)
        rules = dataclasses.replace(rules, blind_nil_min_deficit=100)
    return rules


def run(name: str, strategy: str, mode: str):
    rules = engine_rules(name)
    if mode == "games":  # random players are set a lot: no mercy rule, so that games last
        rules = dataclasses.replace(rules, max_hands=MAX_HANDS[strategy],
                                    mercy_score=None if strategy == "random" else -200)
    return simulate(rules, strategy, mode, SIZES[mode, strategy], SEED,
                    1 if mode == "hands" else 0)


CASES = [(n, s, m) for n in VARIANTS for s in STRATEGIES for m in ("hands", "games")]


def compare(sim, name: str, rows=None) -> int:
    """`compare_records` after checking the table's shape in the engine's arrays."""
    table = ref.table_of(ref_rules(sim.rules))
    assert sim.bids.shape[1] == table["players"] and sim.points.shape[1] == table["sides"]
    return compare_records(sim, name, rows)


@pytest.mark.parametrize(("name", "strategy", "mode"), CASES)
def test_engine_equals_reference(name, strategy, mode):
    assert compare(run(name, strategy, mode), f"{name}/{strategy}/{mode}") > 0


def test_the_undealt_two_of_clubs():
    """Three players, the last card undealt: the hands where it is the 2C, which names the first
    lead and the bag-cancelling card (the lowest club dealt leads; no bag is cancelled)."""
    name = "three, last undealt, bag_cancel_card=2C, first_lead=two_of_clubs"
    sim = simulate(engine_rules(name), "random", "hands", 600, SEED + 2, 1)
    rows = [i for i, rec in enumerate(sim.records) if "2C" not in sum(rec["hands"], [])]
    assert len(rows) >= 5
    assert all(sim.records[i]["plays"][0] != "2C" for i in rows)
    compare(sim, name, rows)


# --- what the engine offers at each decision ----------------------------------------------------


@dataclasses.dataclass(eq=False)
class Bidding(Recording):
    """Recording (cards), also keeping every bid view (bids after looking and the blind nil
    question) with the seat's cards."""

    bids: list = dataclasses.field(default_factory=list)
    blinds: list = dataclasses.field(default_factory=list)

    def bid(self, view, rng):  # the bids so far copied: the engine fills its array in
        self.bids.append(dataclasses.replace(view, bids=view.bids.copy()))
        return self.inner.bid(view, rng)

    def blind_nil(self, view, rng):
        self.blinds.append(dataclasses.replace(view, bids=view.bids.copy()))
        return self.inner.blind_nil(view, rng)


def seat_plays(rec: dict, rd: dict):
    """Each card of a record in order as the reference sees it before it is played: (trick_no,
    the seat's cards — a card held twice (two decks) listed twice —, the trick so far, spades
    broken before this trick)."""
    players = len(rec["hands"])
    spade = {c: ref.card_suit(c, rd) == "S" for h in rec["hands"] for c in h}
    held = [list(h) for h in rec["hands"]]
    seat = ref.first_leader(rec["dealer"], rec.get("side_contracts"), rd, rec["hands"])
    broken = False
    for start in range(0, len(rec["plays"]), players):
        trick = rec["plays"][start:start + players]
        for k, card in enumerate(trick):
            who = (seat + k) % players
            yield start // players + 1, list(held[who]), trick[:k], broken
            held[who].remove(card)
        broken = broken or any(spade[c] for c in trick)
        won = ref.trick_winner(trick, seat, rd)
        seat = seat if won is None else won  # a dead trick (cancel_spades) is led again


@pytest.mark.parametrize("name", list(VARIANTS))
def test_offered_bids_and_cards_equal_the_reference(name):
    """Games of random players (the scores open blind nil to the trailing players): every bid
    mask, blind nil question and legal-card mask the engine made is the reference's."""
    rules = dataclasses.replace(engine_rules(name), max_hands=4, mercy_score=None)
    rd = ref_rules(rules)
    player = Bidding(make_strategy("random"))
    result = play_block(rules, Lineup([player] * rules.players), SEED + 1, 0, 6, "games")
    deck = deck_for(rules)
    bad = []
    for view in player.bids:
        for i in range(len(view)):
            made = {s: int(b) for s, b in enumerate(view.bids[i]) if b >= 0}
            want = ref.legal_bids(int(view.seat[i]), made, view.scores[i].tolist(), rd,
                                  deck.names_of(view.hand[i]))
            got = [v for v in range(32) if int(view.legal[i]) >> v & 1]  # every bit
            if got != want["bids"]:
                bad.append(f"bid: seat {view.seat[i]} bids {made} engine {got} reference {want}")
    asked = 0
    for view in player.blinds:
        for i in range(len(view)):
            made = {s: int(b) for s, b in enumerate(view.bids[i]) if b >= 0}
            want = ref.legal_bids(int(view.seat[i]), made, view.scores[i].tolist(), rd)
            asked += 1
            if not want["blind_nil"]:
                bad.append(f"blind nil asked: seat {view.seat[i]} scores {view.scores[i]}")
    assert not bad, f"{name}: {len(bad)} bid decisions differ, e.g.\n" + "\n".join(bad[:3])
    assert len(player.bids) > 0
    if rules.blind_nil:
        assert asked > 0, f"{name}: no blind nil was ever open"

    # the cards: hand by hand, in each hand's order of play
    by_call = iter(player.legal)
    legal_at = {}  # (hand number, trick, position) -> legal masks of that hand's rows
    for hand_no in range(1, len(result.outcomes) + 1):
        for t in range(rules.cards_each):
            for j in range(rules.players):
                t_, j_, legal = next(by_call)
                assert (t_, j_) == (t, j)
                legal_at[hand_no, t, j] = legal
    assert next(by_call, None) is None
    positions = 0
    for hand_no, out in enumerate(result.outcomes, start=1):
        for i in range(out.play.plays.shape[0]):
            rec = {"side_contracts": [CONTRACT_NAMES[c] for c in out.bidding.contracts[i]],
                   "dealer": int(result.dealer[result.hand_no == hand_no][i]),
                   "hands": [deck.names_of(h) for h in out.held[i]],
                   "plays": [deck.names[s] for s in out.play.plays[i]]}
            for k, (t, hand, trick, broken) in enumerate(seat_plays(rec, rd)):
                theirs = sorted(ref.legal_plays(hand, trick, broken, rd, trick_no=t))
                mine = sorted(deck.names_of(legal_at[hand_no, t - 1, k % rules.players][i]))
                positions += 1
                if mine != theirs:
                    bad.append(f"hand {hand_no}/{i} trick {t}: hand {sorted(hand)} trick {trick} "
                               f"broken {broken}\n  engine    {mine}\n  reference {theirs}")
    assert not bad, f"{name}: {len(bad)} of {positions} positions differ, e.g.\n" + "\n".join(
        bad[:3])
    assert positions == sum(o.play.plays.size for o in result.outcomes)


# --- what both refuse ---------------------------------------------------------------------------

TABLE_SHAPES = [{"players": 3}, {"players": 5}, {"partnerships": False}, {}]
NON_DEFAULT = {"double_blind_nil_reward": "win", "min_team_bid": 4, "suicide_min_bid": 4,
               "max_team_bid": 12, "ten_for_200_fail": 100}
TABLE_KEYS = [k for k in (*ref.PARTNER_KEYS, *ref.TWO_SIDE_KEYS) if k != "nil_pass"]
REFUSALS = [{**shape, key: NON_DEFAULT.get(key, True)}
            for shape, key in itertools.product(TABLE_SHAPES, TABLE_KEYS)]
DECK_ITEMS = [("players", 3), ("players", 5), ("partnerships", False), ("remove", "last"),
              ("jokers", 2), ("jokers", 3), ("jokers_remove", ["2C", "2H"]),
              ("trump_order", "jokers_high"), ("trump_order", "deuces_high"),
              ("bag_cancel_card", "2C"), ("bag_cancel_card", "2D"),
              ("first_lead", "two_of_clubs"), ("first_trick_clubs", True),
              ("must_overtrump", "opponents"), ("three_b", True), ("dix", True)]
REFUSALS += [dict(items) for n in (2, 3) for items in itertools.combinations(DECK_ITEMS, n)
             if len({k for k, _ in items}) == n]
# two players (the draw) are not in the reference: tests/test_two_players.py re-derives them
REFUSALS += [{"players": 6}, {"players": 3, "remove": "first"}]


def refusal(table: dict) -> tuple[str | None, str | None]:
    """(the key the engine names when it refuses ``table``, the reference's message), None for
    an accepted table."""
    try:
        rules_from_mapping(table)
        engine = None
    except UserError as err:
        engine = err.key
    try:
        ref.resolve_rules(table)
        reference = None
    except ValueError as err:
        reference = str(err)
    return engine, reference


def test_the_same_combinations_are_refused():
    """Every partnership and two-side key at every table, and the deck's keys in pairs and
    threes with the player counts: the engine loads exactly what the reference accepts, and a
    refusal names the same key (the reference's message starts with it)."""
    seen = {repr(table): refusal(table) for table in REFUSALS}
    differ = [f"{table}: engine {key}, reference {why}" for table, (key, why) in seen.items()
              if (key is None) != (why is None) or (key and not why.startswith(key))]
    assert not differ, f"{len(differ)} of {len(seen)} differ:\n" + "\n".join(differ[:10])
    assert sum(why is not None for _, why in seen.values()) >= 150
