"""RULES.md section 4.7 tables without partners — three players (the 2C out, or the last card
undealt; with two jokers), cutthroat four (``partnerships = false``) and five players (without 2D
and 2H; with three jokers) — in the engine against the scalar reference (tests/reference.py),
card by card and bid by bid.

Each table alone, then with a few house rules still allowed there (the ``player_counts`` table of
tests/harness/variants.py); tests/test_conformance.py's ``test_engine_equals_reference`` plays
them by ``random`` and ``seed`` players as independent hands and whole games and replays every
record (P entries in bids / blind / tricks / hands, S in ``before``) by ``reference.replay_hand``.
Here:

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

from harness import play_lineup, simulate
from harness.spades import compare_records, ref, ref_rules
from harness.variants import PLAYER_COUNTS, TABLES
from sim.errors import UserError
from sim.games import game_of
from sim.lineup import Lineup
from sim.options import rules_from_mapping
from strategies import make_strategy
from test_conformance_card_orders import Recording

VARIANTS = PLAYER_COUNTS  # name -> the keys switched on
SEED = TABLES["player_counts"].seed


def engine_rules(name: str):
    return TABLES["player_counts"].variants[name]


def compare(sim, name: str, rows=None) -> int:
    """`compare_records` after checking the table's shape in the engine's arrays."""
    table = ref.table_of(ref_rules(sim.rules))
    assert sim.players == table["players"] and sim.sides == table["sides"]
    return compare_records(sim, name, rows)


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
    the seat to play, its cards — a card held twice (two decks) listed twice —, the trick so far,
    spades broken before this trick)."""
    players = len(rec["hands"])
    spade = {c: ref.card_suit(c, rd) == "S" for h in rec["hands"] for c in h}
    held = [list(h) for h in rec["hands"]]
    seat = ref.first_leader(rec["dealer"], rec.get("side_contracts"), rd, rec["hands"])
    broken = False
    for start in range(0, len(rec["plays"]), players):
        trick = rec["plays"][start:start + players]
        for k, card in enumerate(trick):
            who = (seat + k) % players
            yield start // players + 1, who, list(held[who]), trick[:k], broken
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
    run = play_lineup(rules, Lineup([player] * rules.players), "games", 6, SEED + 1)
    deck = game_of(rules).deck_for(rules)
    n_hands = int(run.hands["hand_no"].max())
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
    for hand_no in range(1, n_hands + 1):
        for t in range(rules.cards_each):
            for j in range(rules.players):
                t_, j_, seats, legal = next(by_call)
                assert (t_, j_) == (t, j)
                legal_at[hand_no, t, j] = seats, legal
    assert next(by_call, None) is None
    positions = 0
    for hand_no in range(1, n_hands + 1):
        # the engine's rows of hand hand_no: the games still playing, in game order
        for i, rec in enumerate(r for r in run.records if r["hand_no"] == hand_no):
            for k, (t, seat, hand, trick, broken) in enumerate(seat_plays(rec, rd)):
                theirs = sorted(ref.legal_plays(hand, trick, broken, rd, trick_no=t))
                seats, legal = legal_at[hand_no, t - 1, k % rules.players]
                assert seats[i] == seat, (hand_no, i, t)
                mine = sorted(deck.names_of(legal[i]))
                positions += 1
                if mine != theirs:
                    bad.append(f"hand {hand_no}/{i} trick {t}: hand {sorted(hand)} trick {trick} "
                               f"broken {broken}\n  engine    {mine}\n  reference {theirs}")
    assert not bad, f"{name}: {len(bad)} of {positions} positions differ, e.g.\n" + "\n".join(
        bad[:3])
    assert positions == sum(len(rec["plays"]) for rec in run.records)


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
