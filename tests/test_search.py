"""The ``search`` player (issue 21 item 1, strategies/search.py) and its sampler of the unseen
cards (strategies/sampling.py).

* The sampler's deals against exact enumeration on small positions: every consistent deal and
  nothing else, each as often (chi-square), and at every card of real runs deals that fit what
  the seat has seen; the voids the lead rule reveals are true of the real hands.
* Two-card endings of real hands, valued exactly by an independent oracle (every consistent deal
  enumerated, checked by replaying the record to the position, each candidate played out by
  ``expert`` one decision at a time through `sim.decisions` and scored by `replay`): the search's
  values agree within their Monte Carlo error, it plays the best card, and equal cards have equal
  values.
* A hand-made throw-in at four players in partnerships (the 3C endplays the seat holding the
  KH and the AC) that expert and seed miss.
* A whole run with ``search`` at one seat completes and its records replay to its tables;
  decisions are the same for a fixed seed, and for a block played with others; the rules it does
  not play are refused with one line naming them.
* The other tables of RULES.md §4.7 (three players, cutthroat, five, six with one deck): the
  sampler for two, four and five hidden seats against enumeration, its deals against every view
  of real runs, rollouts of the real deal against the real hand (each side's value the mean of
  the others' taken from its own), two-card endings at three players valued exactly, and a
  hand-made forced finesse at three players that expert and seed miss.
* The tables of two decks (RULES.md §4.7: six players, cancel_spades at six and eight): the
  sampler over the copies against enumeration (two shuffled decks' probabilities), its deals
  against every view of real runs slot by slot, rollouts of the real deal against the real hand.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import json
from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats

import reference
import whistlab
from harness.exact import check_deals, check_estimates, exact_values, splits_of
from sim.cards import BIT, popcount, standard_deck
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.replay import replay_file, view_at
from sim.spades.bidding import bid_view, offered_codes, start_bidding
from sim.spades.combinations import VALUES
from sim.spades.hand import deck_for
from strategies import card_search, forced_answers, make_strategy, search_rules
from strategies import search as search_module
from strategies.card_search import candidates, deal_view, split_copies
from strategies.draw_deals import levels_of
from strategies.forced_answers import Answering, BlindBid, ForcedBid, Raising
from strategies.sampling import NoDeal, deal_hidden, draw
from strategies.search import (
    bid_misfit,
    revealed_voids,
    won_at_once,
)
from strategies.seed import SeedStrategy
from whistlab.cli import main

DECK = standard_deck()
SUITS = "CDHS"


def _consistent(unseen: list[str], counts, voids) -> set[tuple[int, ...]]:
    """Every deal of ``unseen`` to ``len(counts)`` seats with ``counts`` cards and none of a void
    suit (bit s of ``voids[j]``), enumerated card by card."""
    out, hidden = set(), len(counts)
    for seats in itertools.product(range(hidden), repeat=len(unseen)):
        if [seats.count(j) for j in range(hidden)] != list(counts):
            continue
        if any(voids[j] >> SUITS.index(c[1]) & 1 for c, j in zip(unseen, seats, strict=True)):
            continue
        out.add(tuple(DECK.mask_of([c for c, s in zip(unseen, seats, strict=True) if s == j])
                      for j in range(hidden)))
    return out


def _loads(spec: dict) -> bool:
    try:
        load_rules(spec)
    except UserError:
        return False
    return True


def _keys(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 1 << 63, size=n).astype(np.uint64)


# six players with one deck (RULES.md §4.7 deck = "no_twos", 8 cards each), each team shape
SIX = {"six in three pairs": {"preset": "spades.six", "deck": "no_twos"},
       "six in two threes": {"preset": "spades.six", "deck": "no_twos", "teams": "two_threes"},
       "six alone": {"preset": "spades.six", "deck": "no_twos", "teams": "solo"}}
# RULES.md §4.2 at four players: jokers and trump orders whose cards rank as their bits lie
ORDERS = {"spades.jokers": "spades.jokers",
          "bowers": {"preset": "spades.standard", "trump_order": "bowers"},
          "deuces high": {"preset": "spades.standard", "trump_order": "deuces_high"},
          "joker joker deuce ace": {"preset": "spades.jokers",
                                    "trump_order": "joker_joker_deuce_ace"},
          "jokers first wins": {"preset": "spades.jokers", "trump_order": "jokers_first_wins"},
          "joker high alternate": {"preset": "spades.jokers",
                                   "trump_order": "joker_high_alternate"},
          # (jokes_win: no two cards equal, `card_search.none_equal`; the engine resolves)
          "jokes win": {"preset": "spades.jokers", "trump_order": "jokes_win"},
          "jokes win, ties by suit": {"preset": "spades.jokers", "trump_order": "jokes_win",
                                      "jokes_tie": "suit"}}
# RULES.md §4: every example value of a house key (`sim.spades.combinations.VALUES`) that the
# search plays, at four players in partnerships (keys of §3, §4.2 and §4.7 aside: above)
HOUSE = {}
for _value in VALUES:
    _spec = {"preset": "spades.standard", **_value}
    if set(_value) - (search_rules.STANDARD_KEYS | search_rules.TABLE_KEYS
                      | search_rules.CARD_ORDER_KEYS) and _loads(_spec) \
            and search_module.SearchStrategy.refuse(load_rules(_spec)) is None:
        HOUSE[" ".join(f"{k}={v}" for k, v in _value.items())] = _spec
# and a few at the other tables
HOUSE.update({
    "cutthroat, bags_negative, dix": {"preset": "spades.cutthroat", "bags_negative": True,
                                       "dix": True},
    "three, quicksand, end_streak": {"preset": "spades.three", "quicksand": True,
                                     "end_streak": True},
    "five, fledu, bag_cancel_card": {"preset": "spades.five", "fledu": True,
                                     "bag_cancel_card": "QS"},
    "six in pairs, three_b, hook": {**SIX["six in three pairs"], "three_b": True, "hook": True},
    "cutthroat, moon": {"preset": "spades.cutthroat", "moon": True},
    # §4.1's face-up cards after §4.5's exchange: each one its holder's or his receiver's
    # (`strategies.face_up_deals`; tests/test_face_up_deals.py)
    "face-up cards, passing left": {"preset": "spades.standard", "face_up_cards": 3,
                                    "pass_cards": {"count": 3, "direction": "left"}},
    "face-up cards, nil passing": {"preset": "spades.standard", "face_up_cards": 2,
                                   "nil_pass": [1, 2]},
    "three, face-up cards, passing before the bids": {
        "preset": "spades.three", "face_up_cards": 2, "pass_when": "before_bid",
        "pass_cards": {"count": 2, "direction": "right"}},
})
# RULES.md §4.7's tables of two decks (every card twice): six players in each team shape and
# deck, eight, cancel_spades; and house rules there
TWO_DECKS = {"spades.six": "spades.six", "spades.cancel": "spades.cancel",
             "spades.cancel8": "spades.cancel8",
             "six of two decks in two threes, the last copy wins": {
                 "preset": "spades.six", "teams": "two_threes", "duplicate_wins": "last"},
             "six of two decks alone": {"preset": "spades.six", "teams": "solo"},
             "six of two decks and four jokers": {"preset": "spades.six",
                                                  "deck": "double_jokers", "jokers": 4},
             # §4.5's exchanges with two decks (a copy passed: `passed_held`)
             "six of two decks, passing": {"preset": "spades.six",
                                           "pass_cards": {"count": 2, "direction": "left"}},
             "six of two decks, nil passing": {"preset": "spades.six", "nil_pass": [1, 2]},
             # §4.1's face-up cards, a copy dealt twice face up shown twice
             "six of two decks, face-up cards": {"preset": "spades.six", "face_up_cards": 4},
             "six of two decks and jokers, passing before the bids": {
                 "preset": "spades.six", "deck": "double_jokers", "jokers": 4,
                 "pass_when": "before_bid", "pass_cards": {"count": 3, "direction": "partner"}}}
HOUSE.update({
    "six of two decks, must_trump, bag_cancel_card": {"preset": "spades.six",
                                                     "must_trump": True,
                                                     "bag_cancel_card": "7H"},
    "six of two decks, first_lead lowest_club": {"preset": "spades.six",
                                                 "first_lead": "lowest_club"},
    "six of two decks, first_trick_lowest_club": {"preset": "spades.six",
                                                  "first_trick_lowest_club": True},
    "six of two decks, team_nil": {"preset": "spades.six", "team_nil": True},
    "six of two decks, whiz": {"preset": "spades.six", "whiz": True, "blind_nil": False},
    "six of two decks, misdeals": {"preset": "spades.six",
                                   "redeal_poor_hands": ["one_spade_or_less"]},
})
# RULES.md §4.7's two players, who draw their hands (the opponent's hand dealt as the draw makes
# it likely, `strategies.draw_deals`), in each draw mode, and a house rule there
TWO = {"spades.two": {"players": 2},
       "two players, first_decides": {"players": 2, "draw_mode": "first_decides"},
       "two players, first_decides_blind": {"players": 2, "draw_mode": "first_decides_blind"}}
HOUSE["two players, must_trump, bags_negative"] = {"players": 2, "must_trump": True,
                                                   "bags_negative": True}
# §4.5's exchange of cards after the draw (the cards passed each way, `strategies.draw_deals`)
TWO["two players, passing"] = {"players": 2, "pass_cards": {"count": 2, "direction": "left"}}
TWO["two players, first_decides_blind, passing"] = {
    "players": 2, "draw_mode": "first_decides_blind",
    "pass_cards": {"count": 2, "direction": "left"}}
TWO["two players, passing before the bids"] = {
    "players": 2, "draw_mode": "first_decides", "pass_when": "before_bid",
    "pass_cards": {"count": 3, "direction": "right"}}
TABLE = {**SIX, **ORDERS, **HOUSE, **TWO_DECKS, **TWO}


POSITIONS = {  # unseen cards, the hidden seats' counts, their voids (bit s = suit s, C D H S)
    "no voids": (["AS", "KS", "2H", "3H", "4D", "5D", "6C"], (3, 2, 2), (0, 0, 0)),
    "one void each": (["AS", "KS", "2H", "3H", "4D", "5D", "6C"], (3, 2, 2), (1, 8, 0)),
    "every pair": (["2C", "3C", "4D", "5D", "6H", "7H", "8S", "9S"], (3, 3, 2), (4, 2, 1)),
    "a forced suit": (["2C", "3C", "4D", "5D", "6H", "7H", "8S", "9S"], (2, 3, 3), (6, 2, 1)),
    "one seat spades only": (["2C", "3C", "4D", "5D", "6H", "7H", "8S"], (1, 3, 3), (7, 0, 1)),
    # three players (two hidden seats) and five (four: two merged and split, by rejection)
    "three players, voids": (["AS", "KS", "2H", "3H", "4D", "5D", "6C"], (4, 3), (1, 8)),
    "three players, no voids": (["AS", "KS", "2H", "3H", "4D", "6C"], (3, 3), (0, 0)),
    "five players, four voids": (["AS", "KS", "2H", "3H", "4D", "5D", "6C", "7C"], (2, 2, 2, 2),
                                 (1, 2, 4, 8)),
    "five players, two alike": (["AS", "KS", "2H", "3H", "4D", "5D", "6C", "7C"], (3, 2, 2, 1),
                                (1, 0, 4, 0)),
    "five players, unequal": (["AS", "KS", "QS", "2H", "3H", "4D", "5D", "6C"], (1, 3, 2, 2),
                              (0, 9, 6, 1)),
    "six alone: five hidden seats": (["AS", "KS", "2H", "3H", "4D", "5D", "6C", "7C"],
                                     (2, 2, 1, 2, 1), (1, 2, 4, 8, 3)),
}


@pytest.mark.parametrize("name", list(POSITIONS))
def test_deals_are_uniform_over_the_consistent_deals(name):
    unseen, counts, voids = POSITIONS[name]
    want = _consistent(unseen, counts, voids)
    n, k = 2000, 30
    deals = deal_hidden(np.full(n, DECK.mask_of(unseen), np.uint64), np.tile(counts, (n, 1)),
                        np.tile(np.array(voids, np.uint8), (n, 1)), DECK, k, _keys(n, 5))
    seen = collections.Counter(tuple(int(x) for x in d) for d in deals.reshape(-1, len(counts)))
    assert set(seen) == want  # every consistent deal, and none other
    observed = np.array([seen[d] for d in sorted(want)])
    assert stats.chisquare(observed).pvalue > 1e-3, observed


# two decks (RULES.md §4.7): the unseen copies (a card twice where both are unseen), the hidden
# seats' counts, their voids
COPIES = {
    "two decks, no voids": (["AS", "AS", "KS", "QH", "2D", "2D"], (2, 2, 2), (0, 0, 0)),
    "two decks, a spade void": (["AS", "AS", "KS", "QH", "2D", "2D"], (2, 2, 2), (8, 0, 0)),
    "two decks, five hidden seats": (["AS", "AS", "KS", "QH", "2D", "2D"], (2, 1, 1, 1, 1),
                                     (0, 8, 0, 2, 0)),
    "two decks, seven hidden seats": (["AS", "AS", "KS", "QH", "QH", "2D", "3C"],
                                      (1, 1, 1, 1, 1, 1, 1), (0, 8, 4, 0, 0, 0, 2)),
}


def _consistent_copies(unseen: list[str], counts, voids, deck) -> collections.Counter:
    """Every deal of the copies ``unseen`` (a card named twice: both copies) as distinct cards,
    enumerated, counted by what each seat holds (its cards, those twice): two shuffled decks'
    probabilities up to a constant."""
    out, hidden = collections.Counter(), len(counts)
    for seats in itertools.product(range(hidden), repeat=len(unseen)):
        if [seats.count(j) for j in range(hidden)] != list(counts):
            continue
        if any(voids[j] >> SUITS.index(c[1]) & 1 for c, j in zip(unseen, seats, strict=True)):
            continue
        held = [[c for c, s in zip(unseen, seats, strict=True) if s == j] for j in range(hidden)]
        out[tuple(x for h in held for x in (deck.mask_of(set(h)), deck.mask_of(
            {c for c in h if h.count(c) == 2})))] += 1
    return out


@pytest.mark.parametrize("name", list(COPIES))
def test_deals_of_two_decks_are_those_of_two_shuffled_decks(name):
    """The sampler over two decks' copies (`strategies.sampling._tokens`) against enumeration:
    every consistent deal and nothing else, each as often as two shuffled decks deal it (both
    copies of a card to one seat half as often as one to each: chi-square), for three, five
    (merged and split) and seven hidden seats (eight players)."""
    unseen, counts, voids = COPIES[name]
    deck = deck_for(load_rules("spades.six"))
    want = _consistent_copies(unseen, counts, voids, deck)
    held = deck.mask_of(set(unseen))
    twice = deck.mask_of({c for c in unseen if unseen.count(c) == 2})
    n, k = 1500, 20
    deals = deal_hidden(np.tile(np.array([[held, twice]], np.uint64), (n, 1)),
                        np.tile(counts, (n, 1)), np.tile(np.array(voids, np.uint8), (n, 1)),
                        deck, k, _keys(n, 6))
    assert deals.shape == (n, k, len(counts), 2)
    seen = collections.Counter(tuple(int(x) for x in d.reshape(-1))
                               for d in deals.reshape(n * k, -1))
    assert set(seen) == set(want)
    cells = sorted(want)
    expected = np.array([want[c] for c in cells], float)
    observed = np.array([seen[c] for c in cells])
    assert stats.chisquare(observed, expected * n * k / expected.sum()).pvalue > 1e-3
    if len(set(expected)) > 1:  # the weights matter: uniform over the deals is rejected
        assert stats.chisquare(observed).pvalue < 1e-6


def test_draws_follow_the_weights():
    weight = np.array([[0.0, 1.0, 0.0, 3.0, 0.0], [5.0, 0.0, 0.0, 0.0, 0.0],
                       [1e-300, 0.0, 2e-300, 0.0, 0.0]])
    u = np.random.default_rng(3).random((3, 40_000))
    u[:, 0] = np.nextafter(1.0, 0.0)  # the largest uniform: the last cell of positive weight
    got = draw(weight, u)
    for row, w in zip(got, weight, strict=True):
        counts = np.bincount(row, minlength=w.size)
        assert np.all(counts[w == 0] == 0)
        if (w > 0).sum() > 1:
            assert stats.chisquare(counts[w > 0], counts.sum() * w[w > 0] / w.sum()).pvalue > 1e-3


@pytest.mark.parametrize("name", ["every pair", "three players, voids",
                                  "five players, four voids"])
def test_a_rows_deals_are_its_keys_alone(name):
    unseen, counts, voids = POSITIONS[name]
    keys = _keys(3, 9)

    def deals(which, k):
        m = len(which)
        return deal_hidden(np.full(m, DECK.mask_of(unseen), np.uint64), np.tile(counts, (m, 1)),
                           np.tile(np.array(voids, np.uint8), (m, 1)), DECK, k, keys[which])

    together = deals([0, 1, 2], 12)
    for row in range(3):
        assert np.array_equal(deals([row], 12)[0], together[row])
        assert np.array_equal(deals([row], 5)[0], together[row, :5])  # deal s: whatever k


def test_one_deal_a_row_over_many_rows_is_each_rows_first():
    """k = 1 over more than 8,192 rows (the merged sampler of five players draws so): numpy's
    unravel_index gave wrong splits there for an (n, 1) array; each row's deal must be its
    first of two."""
    unseen, counts, voids = POSITIONS["every pair"]
    n = 9000
    args = (np.full(n, DECK.mask_of(unseen), np.uint64), np.tile(counts, (n, 1)),
            np.tile(np.array(voids, np.uint8), (n, 1)), DECK)
    keys = _keys(n, 4)
    assert np.array_equal(deal_hidden(*args, 1, keys), deal_hidden(*args, 2, keys)[:, :1])


def test_a_position_without_a_consistent_deal_is_refused():
    unseen = np.array([DECK.mask_of(["2C", "3C"])], np.uint64)
    with pytest.raises(ValueError, match="void"):  # every seat void in clubs
        deal_hidden(unseen, np.array([[1, 1, 0]]), np.array([[1, 1, 1]], np.uint8), DECK, 2,
                    _keys(1, 0))
    with pytest.raises(ValueError, match="fits"):  # the seat holding both is void in clubs
        deal_hidden(unseen, np.array([[2, 0, 0]]), np.array([[1, 0, 0]], np.uint8), DECK, 2,
                    _keys(1, 0))
    with pytest.raises(ValueError, match="add up"):
        deal_hidden(unseen, np.array([[1, 0, 0]]), np.zeros((1, 3), np.uint8), DECK, 2,
                    _keys(1, 0))


class Sampling:
    """Plays like ``expert``; at every card draws deals of what the seat cannot see and checks
    each against the view: P hands of the rules' size making the deck, the seat's own as dealt,
    every seat holding the cards it played and as many others as it has left, none of a suit it
    has shown void in (or the lead rule revealed)."""

    def __init__(self):
        self.inner = make_strategy("expert", game="spades")
        self.search = make_strategy("search", game="spades")
        self.views = self.revealed = self.passed = 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def play(self, view, rng):
        deals = self.search._deal(view, 6, _keys(len(view), self.views))
        if view.rules.players == 2:  # the draw: the discards it saw are no one's (§4.7)
            assert np.all(np.bitwise_or.reduce(deals, axis=2) & view.discards[:, None] == 0)
            if view.received is not None:  # (§4.5: the opponent holds what it passed him)
                self.passed += _check_passed(view, deals)
        if view.deck.copies == 2:  # (and every legal card searched: no two are equal)
            _check_copies(view, deals, view.voids | revealed_voids(view))
            held = search_module.passed_held(view)  # (§4.5: a copy passed, held as dealt)
            if held is not None:
                assert np.all(deals[..., 0] & held[:, None] == held[:, None])
                self.passed += int((held != 0).any(axis=1).sum())
            cands = candidates(view)
            assert np.all(np.bitwise_or.reduce(cands, axis=1) == view.legal)
            assert np.all(popcount(cands).sum(axis=1) == popcount(view.legal))
            self.views += len(view)
            return self.inner.play(view, rng)
        dealt = np.bitwise_or.reduce(deals, axis=2)  # (two players: the discards held by none)
        assert np.all(dealt & ~view.deck.full_mask == 0)
        assert np.all((dealt == view.deck.full_mask) | (view.rules.players == 2))
        check_deals(view, deals, view.rules.cards_each, view.voids | revealed_voids(view))
        self.views += len(view)
        self.revealed += int(revealed_voids(view).any(axis=1).sum())
        return self.inner.play(view, rng)


def _check_passed(view, deals: np.ndarray) -> int:
    """Two players after an exchange of cards (RULES.md §4.5): in every deal the opponent holds
    the cards the seat passed him and has not played, the seat those he passed it (its own
    hand as dealt, `check_deals`); the rows where he still holds one."""
    rows = np.arange(len(view))
    other = 1 - view.seat.astype(np.intp)
    held = view.passed & ~(view.played | view.in_trick)
    assert np.all(deals[rows, :, other] & held[:, None] == held[:, None])
    mine = deals[rows, :, view.seat.astype(np.intp)]
    assert np.all(mine & view.received[:, None] == view.received[:, None])
    return int((held != 0).sum())


def _per_slot(cards: np.ndarray) -> np.ndarray:
    """int[..., 64]: the copies of each slot in two decks' cards (uint64[..., 2])."""
    bits = (cards[..., None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    return bits.sum(axis=-2).astype(np.int64)


def _check_copies(view, deals: np.ndarray, voids: np.ndarray) -> None:
    """`check_deals` with two decks (RULES.md §4.7), slot by slot: P hands of the rules' size
    making both decks, the seat's own as dealt, every seat holding the copies it played (counted
    from the history, this trick's too) and, of the rest, none of a suit set in ``voids``."""
    n, players = view.tricks.shape
    rows = np.arange(n)
    count = _per_slot(deals)  # [n, k, P, 64]
    assert deals.shape[2:] == (players, 2)
    assert np.all(count.sum(axis=3) == view.rules.cards_each)
    full = _per_slot(np.array([view.deck.full_mask] * 2, np.uint64))
    assert np.all(count.sum(axis=2) == full)
    played = np.zeros((n, players, 64), np.int64)
    slots = np.concatenate([view.history, view.trick_cards], axis=1)
    seats = np.concatenate([view.history_seats, (view.leader[:, None] + np.arange(
        view.position)) % players], axis=1)
    np.add.at(played, (np.repeat(rows, slots.shape[1]), seats.reshape(-1).astype(int),
                       slots.reshape(-1).astype(int)), 1)
    own = _per_slot(np.stack([view.hand, view.twice], axis=1)) + played[rows, view.seat]
    assert np.all(count[rows, :, view.seat] == own[:, None])
    left = count - played[:, None]
    assert np.all(left >= 0)
    suit = view.deck.suit_of_bit[:64]
    for s_ in range(4):
        void = ((voids >> s_) & 1).astype(bool)[:, None, :, None]
        assert not np.any(void & (left > 0) & (suit == s_))


@pytest.mark.parametrize("preset", ["spades.standard", "spades.openspiel", "spades.three",
                                    "spades.cutthroat", "spades.five", "six alone", *ORDERS,
                                    *TWO_DECKS, *TWO])
def test_sampled_deals_fit_every_view_of_real_runs(preset):
    rules = load_rules(TABLE.get(preset, preset))  # (six alone: five hidden seats)
    player = Sampling()
    GAMES["spades"].play_block(rules, Lineup([player] * rules.players), 3, 0, 40, "hands")
    assert player.views == 40 * rules.players * rules.cards_each
    if preset == "spades.openspiel":  # spades led only by a seat holding nothing else
        assert player.revealed > 0
    if "passing" in preset:
        assert player.passed > 0


class FaceUp:
    """Plays like ``seed`` (which bids blind nils); at every blind nil, bid and card draws the
    search's deals and checks that each seat holds the face-up cards it has not played
    (RULES.md §4.1 ``face_up_cards``, public), its own hand its own where it has looked, and
    every card once; with two decks (§4.7, the deals as dealt) that each seat was dealt every
    copy it shows face up, slot by slot, and every copy of both decks is dealt once."""

    def __init__(self):
        self.inner = make_strategy("seed", game="spades")
        self.asked = collections.Counter()
        self.twice = 0  # views where a seat shows both copies of a card face up

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def _check(self, view, deals, kind):
        if view.deck.copies == 2:
            return self._check_copies(view, deals, kind)
        held = view.face_up.copy()
        if kind == "play":
            held &= ~(view.played | view.in_trick)[:, None]
        assert np.all(deals & held[:, None, :] == held[:, None, :])
        every = np.bitwise_or.reduce(deals, axis=2)
        assert np.all(popcount(every) == popcount(deals).sum(axis=2))  # no card twice
        assert np.all(every == view.deck.full_mask)
        if kind == "bid":
            rows = np.arange(len(view))
            assert np.all(deals[rows, :, view.seat.astype(np.intp)] == view.hand[:, None])
        self.asked[kind] += len(view)

    def _check_copies(self, view, deals, kind):
        count = _per_slot(deals)  # [n, k, P, 64]
        assert np.all(count.sum(axis=2) == _per_slot(np.array([view.deck.full_mask] * 2)))
        assert np.all(count.sum(axis=3) == view.rules.cards_each)
        face = _per_slot(np.stack([view.face_up, view.face_up_twice], axis=-1))  # [n, P, 64]
        assert np.all(count >= face[:, None])
        if kind != "blind":
            rows, own = np.arange(len(view)), np.stack([view.hand, view.twice], axis=-1)
            if kind == "bid":
                assert np.all(count[rows, :, view.seat] == _per_slot(own)[:, None])
        self.asked[kind] += len(view)
        self.twice += int((view.face_up_twice != 0).any(axis=1).sum())

    def blind_nil(self, view, rng):
        self._check(view, search_module.deal_blind(view, 5, _keys(len(view), 1)), "blind")
        return self.inner.blind_nil(view, rng)

    def bid(self, view, rng):
        self._check(view, search_module.deal_bidding(view, 5, _keys(len(view), 2)), "bid")
        return self.inner.bid(view, rng)

    def play(self, view, rng):
        search = make_strategy("search", game="spades")
        self._check(view, search._deal(view, 5, _keys(len(view), 3)), "play")
        return self.inner.play(view, rng)


@pytest.mark.parametrize("name", list(HOUSE))
def test_a_search_seat_plays_through_every_house_rule_it_plays(name):
    """Every decision the engine asks a seat under these rules (bids, cards passed and played)
    the search answers: a few hands with it at every other seat (`FaceUp`'s test asks blind
    nils)."""
    rules = load_rules(HOUSE[name])
    search = make_strategy({"name": "search", "samples": 2, "budget": 8}, game="spades")
    lineup = Lineup([search, make_strategy("expert", game="spades")] * (rules.players // 2)
                    + [search] * (rules.players % 2))
    result = GAMES["spades"].play_block(rules, lineup, 3, 0, 6, "hands")
    hands, _ = GAMES["spades"].block_tables(result, 0)
    assert hands.num_rows == 6


@pytest.mark.parametrize("name", [k for k in HOUSE if "pass" in k  # (four players)
                                  and load_rules(HOUSE[k]).players == 4])
def test_the_cards_a_seat_passed_are_dealt_to_their_receiver(name):
    """RULES.md §4.5: the cards the seat to play passed (its view's ``passed``) and their
    receiver has not played are in his real hand (the records' hands, after the exchange), and
    every deal the search draws gives them to him."""
    rules = load_rules(HOUSE[name])
    search = make_strategy("search", game="spades")
    records, _ = _records(rules, Lineup([make_strategy("expert", game="spades")] * 4), 7, 30)
    known = 0
    for rec in [json.loads(json.dumps(r)) for r in records]:
        for k in (0, 6, 19, 33):
            view = view_at({**rec, "plays": rec["plays"][:k]}).view
            held = search_module.passed_held(view)[0]
            for s in range(4):
                real = DECK.mask_of(rec["hands"][s]) & ~DECK.mask_of(rec["plays"][:k])
                assert int(held[s]) & ~real == 0, (name, k, s)
                known += popcount(held[s:s + 1])[0]
            deals = search._deal(view, 8, _keys(1, k))
            assert np.all(deals[0] & held == held)
    assert known > 0


class PassedAtBids:
    """Plays like ``expert``; at every bid after an exchange of cards before the bids (RULES.md
    §4.5 ``pass_when = "before_bid"``) checks the view's ``passed`` and ``received`` against
    the hand's (kept to compare after the block) and that every deal the search's bids draw
    gives the cards the seat passed to their receiver and holds the seat's own hand."""

    def __init__(self):
        self.inner = make_strategy("expert", game="spades")
        self.search = make_strategy("search", game="spades")
        self.seen = []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def bid(self, view, rng):
        self.seen.append((view.rows.copy(), view.seat.copy(), view.passed.copy(),
                          view.received.copy()))
        deals = self.search._deal_bidding(view, 6, _keys(len(view), 5))
        rows, seat = np.arange(len(view)), view.seat.astype(np.intp)
        players = view.bids.shape[1]
        offset = self.offset
        if deals.ndim == 4:  # two decks (§4.7): the seat's cards and those it holds twice
            assert np.all(deals[rows, :, seat, 1] == view.twice[:, None])
            deals = deals[..., 0]
        assert np.all(deals[rows, :, seat] == view.hand[:, None])
        theirs = deals[rows, :, (seat + offset) % players]
        assert np.all(theirs & view.passed[:, None] == view.passed[:, None])
        if view.deck.copies == 1:  # (two decks: he may hold the other copy)
            assert np.all(theirs & view.received[:, None] == 0)  # (now the seat's)
        return self.inner.bid(view, rng)


# one exchange before the bids, and the receiver's seat after the passer's
BEFORE_BIDS = {"four players, to the right": ({"players": 4, "pass_cards": {
                   "count": 3, "direction": "right"}}, 3),
               "two players": ({"players": 2, "pass_cards": {"count": 3, "direction": "right"}},
                               1),
               "six of two decks, to the partner": ({"preset": "spades.six", "pass_cards": {
                   "count": 2, "direction": "partner"}}, 3)}


@pytest.mark.parametrize("name", list(BEFORE_BIDS))
def test_the_bids_deals_after_an_exchange_give_the_cards_passed_to_their_receiver(name):
    spec, offset = BEFORE_BIDS[name]
    rules = load_rules({**spec, "pass_when": "before_bid"})
    players = rules.players
    player = PassedAtBids()
    player.offset = offset
    result = GAMES["spades"].play_block(rules, Lineup([player] * players), 9, 0, 20, "hands")
    (outcome,) = result.outcomes
    assert len(player.seen) == players
    for rows, seat, passed, received in player.seen:
        seat = seat.astype(np.intp)
        assert np.array_equal(passed, outcome.passed[rows, seat])
        assert np.array_equal(received, outcome.passed[rows, (seat - offset) % players])
        assert passed.all() and received.all()


@pytest.mark.parametrize("spec, poor", [
    ({"preset": "spades.standard", "redeal_poor_hands": ["no_spades"]}, 0),
    ({"preset": "spades.six", "redeal_poor_hands": ["one_spade_or_less"]}, 1)])
def test_no_deal_searched_holds_a_hand_that_would_have_been_redealt(spec, poor):
    """RULES.md §4.1 ``redeal_poor_hands``: a seat dealt a poor hand calls a misdeal (the
    expert always does), so the deal played holds none; the real deal fits, and of the deals
    drawn `_fit` drops exactly those where a seat holds one (no spade; with two decks at most
    one, a spade held twice counting two)."""
    rules = load_rules(spec)
    players, deck = rules.players, deck_for(rules)
    search = make_strategy({"name": "search"}, game="spades")
    records, _ = _records(rules, Lineup([make_strategy("expert", game="spades")] * players),
                          8, 20)
    rng, dropped = np.random.default_rng(0), 0
    for rec in [json.loads(json.dumps(r)) for r in records]:
        real = _as_dealt(deck, rec["hands"])
        for k in (0, 9, 30):
            view = view_at({**rec, "plays": rec["plays"][:k]}).view
            assert search._fit(view, real, rng)[0, 0]
            drawn = search._deal(view, 64, _keys(1, k))
            spades = popcount(drawn & deck.suit_masks[3])  # (two decks: each copy held)
            count = spades.sum(axis=3) if drawn.ndim == 4 else spades
            bare = (count <= poor).any(axis=2)
            assert np.array_equal(search._fit(view, drawn, rng), ~bare)
            dropped += int(bare.sum())
    assert dropped > 0


class SearchBids:
    """Plays like ``expert``, but asks ``search`` for every bid and blind nil (its rollouts
    replaced by the test, so it answers as the expert does)."""

    def __init__(self):
        self.inner = make_strategy("expert", game="spades")
        self.search = make_strategy({"name": "search"}, game="spades")

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def blind_nil(self, view, rng):
        return self.search.blind_nil(view, rng)

    def bid(self, view, rng):
        return self.search.bid(view, rng)


@pytest.mark.parametrize("spec, poor", [
    ({"preset": "spades.standard", "redeal_poor_hands": ["no_spades"]}, 0),
    ({"preset": "spades.six", "redeal_poor_hands": ["one_spade_or_less"]}, 1)])
def test_the_bids_deals_hold_no_hand_that_would_have_been_redealt(spec, poor, monkeypatch):
    """RULES.md §4.1 ``redeal_poor_hands``: the misdeals are called before the bids, so the
    deals a blind nil or a bid is searched on (every hand drawn, or every hand but the seat's)
    hold no hand the expert would have called one on; they are drawn among those that do
    (which the uniform deals hold: the test's count of such hands among the deals drawn)."""
    rules = load_rules({**spec, "blind_nil_min_deficit": 0})
    deck = deck_for(rules)
    searched, drawn = collections.defaultdict(list), []

    def rollouts(self, view, hands, i, forced, rng):
        searched[type(view).__name__].append(hands.copy())
        return np.zeros(len(i))

    real_fit = search_module.SearchStrategy._dealt_fit

    def fit(self, view, deals, rng):
        drawn.append(deals.copy())
        return real_fit(self, view, deals, rng)

    monkeypatch.setattr(search_module.SearchStrategy, "_bid_rollouts", rollouts)
    monkeypatch.setattr(search_module.SearchStrategy, "_dealt_fit", fit)
    GAMES["spades"].play_block(rules, Lineup([SearchBids()] * rules.players), 8, 0, 12,
                               "hands")

    def bare(deals):  # bool[..., P]: the seats' hands that would have been redealt
        count = popcount(deals & deck.suit_masks[3])
        if deck.copies == 2:  # ([..., P, 2]: the cards held and those held twice)
            count = count.sum(axis=-1)
        return count <= poor

    assert set(searched) == {"BlindView", "BidView"}
    for kind, hands in searched.items():
        assert not bare(np.concatenate(hands)).any(), kind
    assert sum(int(bare(d).any(axis=-1).sum()) for d in drawn) > 0


@pytest.mark.parametrize("spec", [
    {"bid_raise": True}, {"blind_bids": True, "blind_bid_min_deficit": 0},
    {"no_trump_bids": True}, {"team_nil": True}, {"ten_for_two_hundred": True},
    {"bemo": True}, {"partnership_bidding": True}, {"half_trick_bids": True}])
def test_the_bids_are_searched_where_a_bidding_resumed_at_the_turn_holds_what_came_before(
        spec, monkeypatch):
    """RULES.md §4.4: under ``bid_raise`` (the raises come after every bid), ``blind_bids`` and
    ``no_trump_bids`` (the blind and no-trump bids before the turn are the view's), the side
    contracts and bemos (those declared before the turn are the view's),
    ``partnership_bidding`` (one joint bid per side: no nil, blind or not) and
    ``half_trick_bids`` (the halves bid before the turn are the view's) the search's bids and
    blind nils are searched by rollouts."""
    rules = load_rules({"preset": "spades.standard", "blind_nil_min_deficit": 0, **spec})
    kinds = collections.Counter()

    def rollouts(self, view, hands, i, forced, rng):
        kinds[type(view).__name__] += 1
        return np.zeros(len(i))

    monkeypatch.setattr(search_module.SearchStrategy, "_bid_rollouts", rollouts)
    GAMES["spades"].play_block(rules, Lineup([SearchBids()] * 4), 3, 0, 8, "hands")
    assert set(kinds) == ({"BidView"} if rules.partnership_bidding
                          else {"BlindView", "BidView"}), kinds


class Turns:
    """Plays like ``expert``; keeps, by row and seat, the view of each bid, and asks ``search``
    for every half and no-trump answer (its rollouts replaced by the test)."""

    def __init__(self):
        self.inner = make_strategy("expert", game="spades")
        self.search = make_strategy({"name": "search"}, game="spades")
        self.bid_views, self.checked = {}, collections.Counter()

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def bid(self, view, rng):
        for j, row in enumerate(view.rows):
            self.bid_views[int(row), int(view.seat[j])] = view.take(np.array([j]))
        return self.inner.bid(view, rng)

    def _after_bid(self, name, view, rng):
        before = forced_answers.before_turn(view)
        for j, row in enumerate(view.rows):  # (as at the start of the turn: the bid's view)
            start = self.bid_views[int(row), int(view.seat[j])]
            for field in ("bids", "blind", "half", "no_trump"):
                got, want = getattr(before, field), getattr(start, field)
                assert (got is None) == (want is None), field
                if got is not None:
                    assert np.array_equal(got[j], want[0]), (name, field)
            self.checked[name] += 1
        return getattr(self.search, name)(view, rng)

    def half_bid(self, view, rng):
        return self._after_bid("half_bid", view, rng)

    def no_trump(self, view, rng):
        return self._after_bid("no_trump", view, rng)


def test_the_half_and_no_trump_answers_are_searched_from_the_turns_start(monkeypatch):
    """RULES.md §4.4 ``half_trick_bids`` and ``no_trump_bids``: asked after its bid in its turn,
    the search values each answer by rollouts from the turn's start (`before_turn`: the view
    of its bid, the bid, half and no trump not yet made), its bid as made and the answer forced
    (`Answering`: a half asked before no trump as made), and answers as the rollouts say."""
    rules = load_rules({"preset": "spades.standard", "half_trick_bids": True,
                        "no_trump_bids": True})
    asked = collections.Counter()

    def rollouts(self, view, hands, i, forced, rng):  # (the "yes" answers valued higher)
        assert isinstance(forced, search_module.Answering)
        (name,) = [k for k in forced.answers if k != "half_bid"] or ["half_bid"]
        asked[name] += 1
        return forced.answers[name].astype(float)

    monkeypatch.setattr(search_module.SearchStrategy, "_bid_rollouts", rollouts)
    player = Turns()
    result = GAMES["spades"].play_block(rules, Lineup([player] * 4), 4, 0, 40, "hands")
    hands, _ = GAMES["spades"].block_tables(result, 0)
    assert player.checked["half_bid"] > 0 and player.checked["no_trump"] > 0
    assert asked["half_bid"] > 0 and asked["no_trump"] > 0
    table = hands.to_pydict()
    asked_nt = sum(table[f"no_trump_{s}"].count(True) for s in range(4))
    assert asked_nt == player.checked["no_trump"]  # (every one asked answered yes)


class BlindBids:
    """Plays like ``expert`` (tuned to bid blind when 1 behind); asks ``search`` for every blind
    bid (its rollouts replaced by the test)."""

    def __init__(self):
        self.inner = make_strategy({"name": "expert", "blind_bid_deficit": 1}, game="spades")
        self.search = make_strategy({"name": "search"}, game="spades")
        self.asked = 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def blind_bid(self, view, rng):
        self.asked += len(view)
        return self.search.blind_bid(view, rng)


def test_the_blind_bids_are_searched(monkeypatch):
    """RULES.md §4.4 ``blind_bids``: the search values looking first and each blind bid open by
    rollouts from the turn's start (`BlindBid`), and bids as they say: here, the rollouts
    valuing a blind 3 above every other answer, every blind bid made is 3."""
    rules = load_rules({"preset": "spades.standard", "blind_bids": True,
                        "blind_bid_min_deficit": 0, "blind_nil": False})

    def rollouts(self, view, hands, i, forced, rng):
        assert isinstance(forced, search_module.BlindBid)
        return (forced.value == 3).astype(float)

    monkeypatch.setattr(search_module.SearchStrategy, "_bid_rollouts", rollouts)
    player = BlindBids()
    result = GAMES["spades"].play_block(rules, Lineup([player] * 4), 6, 0, 10, "hands")
    table = GAMES["spades"].block_tables(result, 0)[0].to_pydict()
    made = [table[f"bid_{s}"][r] for s in range(4) for r in range(10) if table[f"blind_{s}"][r]]
    assert player.asked > 0 and len(made) == player.asked and set(made) == {3}


class Raises:
    """Plays like ``expert``; keeps the view of the first bid of each hand and every view of
    the round of raises (RULES.md §4.4 ``bid_raise``), by row."""

    def __init__(self, spec):
        self.inner = make_strategy(spec, game="spades")
        self.first, self.raises = {}, []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def bid(self, view, rng):
        for j, row in enumerate(view.rows):
            if (view.bids[j] < 0).all():
                self.first[int(row)] = view.take(np.array([j]))
        return self.inner.bid(view, rng)

    def raise_bid(self, view, rng):
        self.raises += [(int(row), view.take(np.array([j]))) for j, row in enumerate(view.rows)]
        return self.inner.raise_bid(view, rng)


@pytest.mark.parametrize("spec", ["expert", {"name": "expert", "raise_margin": -13.0,
                                             "raise_total_below": 40}])
def test_a_raise_is_valued_from_the_round_resumed_at_the_seat(spec):
    """RULES.md §4.4 ``bid_raise``: from a seat's view in the round of raises, a rollout of the
    real deal with its real answer (`Raising`: the seats before it raising no more, those
    after it as they did) is the hand as played, valued as the rollout from the first bid with
    that bid forced (`ForcedBid`) values it; the other answer makes another hand. (An expert
    that raises whenever it may would raise again if asked again.)"""
    rules = load_rules({"preset": "spades.standard", "bid_raise": True})
    player = Raises(spec)
    result = GAMES["spades"].play_block(rules, Lineup([player] * 4), 2, 0, 30, "hands")
    records = {r["game_id"]: r for r in
               GAMES["spades"].block_records(result, SimpleNamespace(rules=rules), 0)}
    search = make_strategy({"name": "search", "samples": 2}, game="spades")
    search.__dict__["policy"] = player.inner  # (its rollout strategy: cached_property)
    rng = np.random.default_rng(0)
    same = changed = 0
    for row, view in player.raises:
        rec = records[row]
        real = _as_dealt(DECK, rec["hands"])[0]
        seat = int(view.seat[0])
        first = player.first[row]
        opener = int(first.seat[0])
        made = rec["bids"][opener] - rec.get("raised", [0] * 4)[opener]
        want = search._bid_rollouts(first, real, np.zeros(1, int),
                                    ForcedBid(search.policy, first.seat, np.array([made])), rng)
        if (seat - opener) % 2:  # (the other side's margin)
            want = -want
        place = np.array([(seat - int(view.dealer[0]) - 1) % 4])
        for flip in (False, True):
            answer = np.array([bool(rec.get("raised", [False] * 4)[seat]) ^ flip])
            got = search._bid_rollouts(view, real, np.zeros(1, int),
                                       Raising(search.policy, view.seat, answer, place), rng)
            if not flip:
                assert got[0] == pytest.approx(want[0], abs=1e-9)
                same += 1
            else:
                changed += int(abs(got[0] - want[0]) > 1e-9)
    assert same > 20 and changed > 10


class Contracts:
    """Plays like ``expert``; asks ``search`` for every side contract and bemo (its rollouts
    replaced by the test)."""

    def __init__(self):
        self.inner = make_strategy("expert", game="spades")
        self.search = make_strategy({"name": "search", "search_contracts": True}, game="spades")
        self.asked = collections.Counter()

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def side_contract(self, view, rng):
        stages = forced_answers.contract_stage(view)
        self.asked.update(int(v) for v in stages)
        return self.search.side_contract(view, rng)


@pytest.mark.parametrize("spec, code", [({"team_nil": True}, "team_nil"),
                                        ({"bemo": True, "mo_a": True}, "little_bemo")])
def test_the_side_contracts_are_searched(spec, code, monkeypatch):
    """RULES.md §4.4: with ``search_contracts`` the search values each side contract or bemo
    open by rollouts from the turn's start (`Declaring`), and declares as they say: here, the
    rollouts valuing one code above every other, the sides declare it wherever they are asked
    and it is open; without it (the default) it declares as the expert does."""
    from sim.spades.contracts import NAMES
    rules = load_rules({"preset": "spades.standard", **spec})
    wanted = NAMES.index(code)

    def rollouts(self, view, hands, i, forced, rng):
        assert isinstance(forced, forced_answers.Declaring)
        return (forced.code == wanted).astype(float)

    monkeypatch.setattr(search_module.SearchStrategy, "_bid_rollouts", rollouts)
    player = Contracts()
    result = GAMES["spades"].play_block(rules, Lineup([player] * 4), 5, 0, 12, "hands")
    table = GAMES["spades"].block_tables(result, 0)[0].to_pydict()
    column = "bemo_bid" if "bemo" in code else "side_contract"
    made = [table[f"{column}_{side}"][r] for side in range(2) for r in range(12)]
    assert sum(player.asked.values()) > 0
    assert made.count(wanted) >= 12  # (one side at least in every hand)
    player.search = make_strategy({"name": "search"}, game="spades")  # (the default: off)
    again = GAMES["spades"].play_block(rules, Lineup([player] * 4), 5, 0, 12, "hands")
    table = GAMES["spades"].block_tables(again, 0)[0].to_pydict()
    assert [table[f"{column}_{side}"][r] for side in range(2) for r in range(12)].count(
        wanted) < 12


@pytest.mark.parametrize("players", [4, 6])
def test_the_face_up_cards_are_dealt_to_their_holders(players):
    rules = load_rules({"preset": "spades.standard", "face_up_cards": 3, "players": players,
                        "blind_nil_min_deficit": 0})
    player = FaceUp()
    GAMES["spades"].play_block(rules, Lineup([player] * players), 5, 0, 30, "hands")
    assert player.asked["blind"] > 0 and player.asked["bid"] > 0
    assert player.asked["play"] == 30 * players * rules.cards_each
    assert player.twice > 0 or rules.copies == 1


def _records(rules, lineup, seed, hands):
    result = GAMES["spades"].play_block(rules, lineup, seed, 0, hands, "hands")
    records = GAMES["spades"].block_records(result, SimpleNamespace(rules=rules), 0)
    return sorted(records, key=lambda r: (r["game_id"], r["hand_no"])), result


@pytest.mark.parametrize("preset", ["spades.standard", "spades.openspiel"])
def test_revealed_voids_are_true_of_the_real_hands(preset):
    """RULES.md §3 spades_broken: a spade led while the leader may lead one only holding nothing
    else shows he held only spades; checked against the record's real hands."""
    rules = load_rules(preset)
    records, _ = _records(rules, Lineup([make_strategy("seed", game="spades")] * 4), 4, 40)
    shown = 0
    for rec in records:
        for k in range(4, 52, 3):
            view = view_at({**rec, "plays": rec["plays"][:k]}).view
            revealed = revealed_voids(view)[0]
            for seat in range(4):
                left = DECK.mask_of(rec["hands"][seat]) & ~DECK.mask_of(rec["plays"][:k])
                for s in range(4):
                    if revealed[seat] >> s & 1:
                        shown += 1
                        assert not left & int(DECK.suit_masks[s]), (rec["plays"][:k], seat)
    assert shown > 0


@pytest.mark.parametrize("spec", ["spades.standard",
                                  {"preset": "spades.standard", "partnership_bidding": True}])
def test_the_real_deal_fits_the_bids_of_the_strategy_that_made_them(spec):
    """`bid_misfit` rebuilds each seat's turn of the bidding (the bids before it, the standing)
    from a view of the play: with the real hands the expert's bids are the bids made, in whole
    games (scores other than 0-0) too; uniform deals miss them. Under RULES.md §4.4
    ``partnership_bidding`` the joint bidders' bids (their partners asked nothing)."""
    rules = load_rules(spec)
    expert = make_strategy("expert", game="spades")
    result = GAMES["spades"].play_block(rules, Lineup([expert] * 4), 8, 0, 6, "games")
    records = GAMES["spades"].block_records(result, SimpleNamespace(rules=rules), 0)
    sampled = []
    for rec in records[:40]:
        real = np.array([[[DECK.mask_of(h) for h in rec["hands"]]]], np.uint64)
        for k in (0, 21, 46):
            view = view_at({**rec, "plays": rec["plays"][:k]}).view
            assert bid_misfit(view, real, expert, np.random.default_rng(0))[0, 0] == 0
            deals = deal_view(view, 10, _keys(1, k))
            sampled.append(bid_misfit(view, deals, expert, np.random.default_rng(0)).mean())
    assert any(r["before"]["scores"] != [0, 0] for r in records[:40])
    assert np.mean(sampled) > (1 if rules.partnership_bidding else 2)  # (two bids, not four)


def _check_seen_of(view, real, rec, deck):
    """`seen_of` on the real deal of a two-player record (RULES.md §4.7,
    ``first_decides_blind``): the seat's own discards are those it saw (``discarded`` less
    ``unseen_discards``); the opponent's, drawn (`strategies.draw_deals.their_seen`), are among
    his discards and the seat's unseen ones, none of them a card he would have kept seeing it
    first (value at least the seed's ``draw_keep_at``: such a discard came second, unseen).
    Returns how many the opponent saw."""
    seen = search_module.seen_of(view, real, np.zeros(1, int))[0]
    seat = int(view.seat[0])
    discarded = [deck.mask_of(d) for d in rec["discarded"]]
    unseen = [deck.mask_of(d) for d in rec.get("unseen_discards", [[], []])]
    assert int(seen[seat]) == discarded[seat] & ~unseen[seat]
    other = 1 - seat
    assert int(seen[other]) & ~(discarded[other] | unseen[seat]) == 0
    high = levels_of(deck, "first_decides_blind", SeedStrategy.draw_keep_at) == 0
    assert int(seen[other]) & int(np.bitwise_or.reduce(BIT[np.flatnonzero(high)])) == 0
    return int(popcount(seen[other:other + 1])[0])


def _as_dealt(deck, hands: list[list[str]]) -> np.ndarray:
    """uint64[1, 1, P] the hands of a record as the search's deals hold them; two decks
    (RULES.md §4.7) uint64[1, 1, P, 2], each hand's cards and those it holds twice."""
    if deck.copies == 1:
        return np.array([[[deck.mask_of(h) for h in hands]]], np.uint64)
    return np.array([[[[deck.mask_of(set(h)), deck.mask_of({c for c in h if h.count(c) == 2})]
                       for h in hands]]], np.uint64)


# the players of a table where the expert's defaults would not make the decision to check:
# blind bids (RULES.md §4.4) by any seat whose side trails, so that the bids searched follow some
PLAYERS = {"blind_bid_min_deficit=0 blind_bids=True": {"name": "expert",
                                                       "blind_bid_deficit": 1},
           # and side contracts and bemos (§4.4) declared often, before later seats bid
           "team_nil=True": {"name": "expert", "team_nil_max_estimate": 2.5},
           "team_blind_nil=True": {"name": "expert", "team_blind_nil_deficit": 1},
           "ten_for_two_hundred=True": {"name": "expert", "wheel_min_estimate": 6.0},
           "mo_a=True": {"name": "expert", "little_mo_min_estimate": 5.0},
           "bemo=True": {"name": "expert", "little_bemo_at": 6.0, "big_bemo_at": 7.0},
           "blind_six=True": {"name": "expert", "blind_six_deficit": 1}}


@pytest.mark.parametrize("preset", ["spades.standard", "spades.openspiel", "spades.three",
                                    "spades.cutthroat", "spades.five", *SIX, *ORDERS, *HOUSE,
                                    *TWO_DECKS, *TWO])
def test_rollouts_of_the_real_deal_replay_the_real_hand(preset):
    """With every seat the rollout strategy, a rollout of the real deal from any decision with
    the card (or bid) actually played is the hand as it was played: the search rebuilds the
    play (or the bidding) from a view exactly, and values it by the engine's score (the seat's
    side's points, bags priced, minus the other side's; with more than two sides, minus the
    mean of the others'; in a game of one hand, ``spades.openspiel``, the points as scored,
    the bag penalty included); under every house rule it plays (`HOUSE`: the score's own
    rules, the bid rules), the bags priced being those the hand added to the running count
    (none where the rules count none; a bag-cancelling card's bag not among them)."""
    rules = load_rules(TABLE.get(preset, preset))
    players, sides, cards = rules.players, rules.sides, rules.players * rules.cards_each
    deck = deck_for(rules)  # (three and five players: the 2s out, the slots shifted)
    expert = make_strategy(PLAYERS.get(preset, "expert"), game="spades")
    search = make_strategy({"name": "search", "samples": 2}, game="spades")
    search.__dict__["policy"] = expert  # (its rollout strategy: the players', cached_property)
    result = GAMES["spades"].play_block(rules, Lineup([expert] * players), 12, 0, 4, "games")
    records = [json.loads(json.dumps(r)) for r in  # (as a file of records holds them)
               GAMES["spades"].block_records(result, SimpleNamespace(rules=rules), 0)]
    hands, _ = GAMES["spades"].block_tables(result, 0)
    after_bids = rules.nil_pass or rules.pass_cards and rules.pass_when == "after_bid"
    offset = players // 2 if rules.nil_pass or rules.pass_cards and (  # (partners opposite)
        rules.pass_cards.direction == "partner") else rules.pass_cards.offset \
        if rules.pass_cards else 0
    price = 0 if rules.bagless else rules.bag_penalty / rules.bag_limit
    before = {(r["game_id"], r["hand_no"]): r["before"]["bags"] for r in records}
    scores = {(r["game_id"], r["hand_no"]): r["before"]["scores"] for r in records}
    value = {}  # (game, hand) -> each side's priced points minus the mean of the others'
    for row in hands.to_pylist():
        one_hand = rules.max_hands == 1
        bags = before[row["game_id"], row["hand_no"]]
        counted = [row[f"bags_{s}"] - bags[s] - rules.bag_limit * row[f"bag_penalty_{s}"]
                   // max(rules.bag_penalty, 1) for s in range(sides)]
        pts = np.array([row[f"points_{s}"] if one_hand else
                        row[f"points_{s}"] - row[f"bag_penalty_{s}"] - price * counted[s]
                        for s in range(sides)], dtype=float)
        won = row.get("wins_game", -1)  # a game won at once (§4.4): at least the target's lack
        if won is not None and won >= 0 and rules.target_score is not None:
            lacked = rules.target_score - scores[row["game_id"], row["hand_no"]][won]
            pts[won] = max(pts[won], lacked)
        value[row["game_id"], row["hand_no"]] = pts - (pts.sum() - pts) / (sides - 1)
    checked = declared = their_seen = flags = blind_checked = contracts_checked = 0
    # two players, first_decides_blind: which of the discards the opponent saw no deal says (the
    # rollouts draw them, `seen_of`): not replayed exactly
    unseen_seconds = players == 2 and rules.draw_mode == "first_decides_blind"
    for rec in records[:12]:
        real = _as_dealt(deck, rec["hands"])
        want = value[rec["game_id"], rec["hand_no"]]
        for k in (0, 7, 25, cards - 2):
            view = view_at({**rec, "plays": rec["plays"][:k]}).view
            if unseen_seconds:  # (the opponent's discards seen: `_check_seen_of`)
                their_seen += _check_seen_of(view, real[0], rec, deck)
                continue
            card = np.array([deck.mask_of([rec["plays"][k]])], np.uint64)
            got = search._rollouts(view, real, np.zeros(1, int), np.zeros(1, int), card,
                                   np.random.default_rng(0))
            assert got[0] == pytest.approx(want[view.seat[0] % sides], abs=1e-9)
            checked += 1
        order = [(rec["dealer"] + 1 + j) % players for j in range(players)]
        bidden = real[0]  # the hands bid with: before an exchange after the bids (§4.5)
        if after_bids and "passed" in rec:
            before_pass = []
            for s in range(players):  # (two decks: one copy of each card moved)
                hand = list(rec["hands"][s])
                for card in rec["passed"][(s - offset) % players]:
                    hand.remove(card)
                before_pass.append(hand + rec["passed"][s])
            bidden = _as_dealt(deck, before_pass)[0]
        for j, seat in enumerate(order):
            blind_bid = bool(rules.blind_bids and rec["blind"][seat] and rec["bids"][seat])
            contracts, bemo = _declared_before(rec, order[:j], rules)
            here = [a[0, seat % sides] * (a[0, seat % sides] != b[0, seat % sides])
                    for a, b in zip(_declared_before(rec, order[:j + 1], rules),
                                    (contracts, bemo), strict=True)]
            code, bemo_code = int(here[0]), int(here[1])  # (declared at its turn: §4.4)
            if (rec["blind"][seat] and not blind_bid) or unseen_seconds \
                    or (rec["bids"][seat] is None and not code):
                continue  # (a blind nil, or no bid under the side's contract: not asked)
            first = [None if b is None else b - up for b, up in zip(  # (§4.4 bid_raise: as
                rec["bids"], rec.get("raised", [0] * players), strict=True)]  # first made)
            bids = [first[s] if s in order[:j] else None for s in range(players)]
            declared += int(contracts.any() or bemo.any())
            if rules.nil_pass or rules.pass_cards or rules.blind_bids or rules.bid_raise \
                    or rules.no_trump_bids or rules.partnership_bidding \
                    or rules.half_trick_bids or _declares(rules):
                #   (the replay rebuilds no bidding where cards are exchanged, bids made blind,
                #   raised, no trump, joint (a null bid: a partner's or one still to come) or
                #   halves, or contracts declared: the engine's)
                made = np.array([[-1 if b is None else b for b in bids]], np.int8)
                seen = None if players != 2 else np.array(  # (§4.7: the discards it saw)
                    [[deck.mask_of(d) for d in rec["discarded"]]], np.uint64)
                held, twice = split_copies(bidden)  # (two decks: the cards held twice)
                state = start_bidding(held, np.array([rec["dealer"]], np.int8),
                                      np.array([rec["before"]["scores"]], np.int32),
                                      np.array([rec["before"]["bags"]], np.int32), rules,
                                      twice=twice, bids=made,
                                      blind=np.array([rec["blind"]]) & (made >= 0), seen=seen,
                                      flags={"no_trump": np.array([rec.get(
                                          "no_trump", [False] * players)]) & (made >= 0)},
                                      contracts=contracts, bemo=bemo,
                                      half=np.array([rec.get("half", [False] * players)])
                                      & (made >= 0))
                view = bid_view(state, rules, deck)
            else:
                view = view_at({**rec, "bids": bids, "plays": []}).view
            for stage, declared_code in ((None, code), (forced_answers.BEMO_STAGE, bemo_code)):
                if not declared_code:  # (§4.4: a contract or bemo declared at its turn, forced
                    continue  # from the turn's start: the same hand; none: another, at times)
                if stage is None:
                    blind_codes = offered_codes(rules, "blind")
                    stage = forced_answers.BLIND_STAGE if blind_codes >> declared_code & 1 \
                        else forced_answers.SIGHTED_STAGE
                made = None if stage != forced_answers.BEMO_STAGE else np.array([first[seat]])
                declaring = [forced_answers.Declaring(search.policy, view.seat,
                                                      np.array([a], np.int8), stage, made, {})
                             for a in (declared_code, 0)]
                flags += replays(search, view, bidden, want[seat % sides], *declaring)
                contracts_checked += 1
            if code:
                continue
            if blind_bid:  # (§4.4: its blind bid forced from the turn's start, `BlindBid`:
                #              the same hand; looking first instead: another hand, at times)
                flags += replays(search, view, bidden, want[seat % sides], *[BlindBid(
                    search.policy, view.seat, np.array([a], np.int8)) for a in (first[seat], 0)])
                blind_checked += 1
                continue
            forced = ForcedBid(search.policy, view.seat, np.array([first[seat]]))
            got = search._bid_rollouts(view, bidden, np.zeros(1, int), forced,
                                       np.random.default_rng(0))
            assert got[0] == pytest.approx(want[seat % sides], abs=1e-9)
            checked += 1
            answered = {name: np.array([rec.get(field, [False] * players)[seat]])
                        for name, field, key in (("half_bid", "half", "half_trick_bids"),
                                                 ("no_trump", "no_trump", "no_trump_bids"))
                        if getattr(rules, key)}
            if answered:  # (§4.4: its answers after its bid forced as made: the same hand;
                #            the other answer forced: another hand, where it was asked)
                flags += replays(search, view, bidden, want[seat % sides], *[Answering(
                    search.policy, view.seat, np.array([first[seat]]),
                    {k: v ^ flip for k, v in answered.items()}) for flip in (False, True)])
    assert len(records) >= 4  # (a game of one hand: a record a game)
    if preset in PLAYERS:  # (the decision it is there for was made, before a bid checked)
        assert declared if _declares(rules) else any(
            r["blind"][s] and r["bids"][s] > 0 for r in records[:12] for s in range(players))
    bids = 0 if unseen_seconds else sum(bid is not None and not blind for r in records[:12]
                                        for bid, blind in zip(r["bids"], r["blind"],
                                                              strict=True))
    assert checked == (0 if unseen_seconds else len(records[:12]) * 4) + bids
    assert their_seen > 0 or not unseen_seconds
    assert any(any(r.get("half", ())) for r in records[:12]) or not rules.half_trick_bids
    assert flags > 0 or not (rules.half_trick_bids or rules.no_trump_bids)
    assert blind_checked > 0 and flags > 0 or preset not in PLAYERS or not rules.blind_bids
    assert contracts_checked > 0 and flags > 0 or preset not in PLAYERS or not _declares(rules)


def replays(search, view, dealt, want: float, real, other) -> int:
    """RULES.md §4.4: ``search``'s rollout of the real deal ``dealt`` from ``view`` with the
    seat's decision forced to its real answer (``real``: a rollout policy forcing it) is the
    hand as played, valued ``want`` (asserted); 1 where the ``other`` answer makes another
    hand."""
    got = [search._bid_rollouts(view, dealt, np.zeros(1, int), forced,
                                np.random.default_rng(0))[0] for forced in (real, other)]
    assert got[0] == pytest.approx(want, abs=1e-9)
    return int(abs(got[1] - want) > 1e-9)


def _declares(rules) -> bool:
    """A house rule in force offers side contracts or bemos (RULES.md §4.4)."""
    from sim.spades import house
    return any(rule.contracts for rule in house.in_force(rules))


def _declared_before(rec: dict, before: list[int], rules) -> tuple[np.ndarray, np.ndarray]:
    """int8[1, S] each: the side contracts and bemos of a record (RULES.md §4.4, by side)
    declared at the turns of the seats ``before`` (in bidding order): a side's contract at its
    first player's turn, its bemo at its last's (after his bid)."""
    from sim.spades.contracts import NAMES
    contracts, bemo = np.zeros((1, rules.sides), np.int8), np.zeros((1, rules.sides), np.int8)
    order = before + [s for s in range(rules.players) if s not in before]
    for side in range(rules.sides):
        members = [s for s in order if s % rules.sides == side]
        for key, out, at in (("side_contracts", contracts, members[0]),
                             ("bemo", bemo, members[-1])):
            name = rec.get(key, [None] * rules.sides)[side]
            if name is not None and at in before:
                out[0, side] = NAMES.index(name)
    return contracts, bemo


@pytest.mark.parametrize("preset", ["spades.standard", "bags_in_units_digit=True",
                                    "bag_cancel_card=7H", "bag_cancel_card=cut",
                                    "bags_negative=True"])
def test_the_bags_priced_are_those_the_hand_adds_to_the_count(preset):
    """`counted_bags`: the bags taken (RULES.md §3) where every one is counted; none under
    ``bags_negative`` (each scores -1 instead, §4.6); under ``bag_cancel_card`` one fewer for
    a side that won the card's trick (found by the scalar reference's replay,
    `reference.replay_hand`), never for another."""
    rules = load_rules(TABLE.get(preset, preset))
    records, result = _records(rules, Lineup([make_strategy("expert", game="spades")] * 4), 3,
                               60)
    hands, _ = GAMES["spades"].block_tables(result, 0)
    rows = {(r["game_id"], r["hand_no"]): r for r in hands.to_pylist()}
    cancelled = 0
    for rec in records:
        row = rows[rec["game_id"], rec["hand_no"]]
        score = SimpleNamespace(**{name: np.array([[row[f"{col}_{s}"] for s in range(2)]])
                                   for name, col in (("bag_penalty", "bag_penalty"),
                                                     ("bags_after", "bags"))})
        got = search_module.counted_bags(score, np.array([rec["before"]["bags"]]), rules)[0]
        taken = [row[f"bags_taken_{s}"] for s in range(2)]
        if rules.bags_negative:
            assert got.tolist() == [0, 0]
            continue
        if not rules.bag_cancel_card:
            assert got.tolist() == taken
            continue
        ref = reference.replay_hand(rec, {k: v for k, v in rec["rules"].items()
                                          if k in reference.STANDARD})
        trick = rec["plays"].index(rec["cancel_card"]) // 4  # (named, or cut per deal)
        won = ref["winners"][trick] % 2
        for s in range(2):
            assert taken[s] - got[s] == (1 if s == won and got[s] != taken[s] else 0)
        cancelled += int(taken[won] - got[won])
    if rules.bag_cancel_card:
        assert cancelled > 0


# RULES.md §4.3 (and §4.2's joker_high_alternate): the rules that constrain the play beyond
# following suit or name the first leader
CONSTRAINED = {name: spec for name, spec in {**HOUSE, **ORDERS}.items()
               if search_rules.play_constrained(load_rules(spec))}


@pytest.mark.parametrize("name", list(CONSTRAINED))
def test_under_the_play_rules_only_deals_the_cards_played_fit_are_searched(name):
    """RULES.md §4.3 (``must_trump``, ``must_overtrump``, ``no_spade_lead_first_trick``,
    ``lead_ace_of_spades`` ...; §4.4 ``no_trump_bids``): at views of real hands, the real deal
    fits the cards played (`SearchStrategy._fit`); of the deals drawn, those `_fit` keeps
    replay through the engine's own check of every card (`sim.tricks.PlaySetup.follow`) and
    those it drops do not, or give a "no trump" bidder no spade (under the rules that reveal
    more than voids some are dropped); the deals searched are all kept
    ones where some are; and a hand with the search at a seat plays through."""
    from sim.phases import Seating
    from sim.spades.hand import play_setup
    from sim.tricks import IllegalPlay

    rules = load_rules(CONSTRAINED[name])
    expert = make_strategy("expert", game="spades")
    search = make_strategy({"name": "search", "samples": 8}, game="spades")
    players = rules.players
    records, _ = _records(rules, Lineup([expert] * players), 6, 12 if players > 2 else 60)
    rng = np.random.default_rng(0)
    dropped, deck = 0, deck_for(rules)
    for rec in records:
        real = _as_dealt(deck, rec["hands"])
        for k in (5, 14, 27, 41) if players > 2 else (5, 10, 14, 18, 20, 22, 24):
            if k >= len(rec["plays"]):
                continue
            view = view_at({**rec, "plays": rec["plays"][:k]}).view
            assert search._fit(view, real, rng)[0, 0]
            keys = _keys(1, k)
            drawn = search._deal(view, search._drawn, keys)
            fit = search._fit(view, drawn, rng)
            held = drawn[..., 0] if drawn.ndim == 4 else drawn  # (two decks: the cards held)
            for j in range(drawn.shape[1]):
                hand = search_module._hand_state(view, drawn[:, j], np.zeros(1, int))
                setup = play_setup(hand, Seating(rules, view.deck, Lineup([expert] * players),
                                                 rng))
                so_far = np.concatenate([view.history, view.trick_cards], axis=1)
                bare = view.no_trump is not None and any(  # (§4.4: a "no trump" bid without
                    view.no_trump[0, s] and not held[0, j, s] & view.trump[0]  # a spade)
                    for s in range(players))
                first = view.history_seats[0, 0] if view.trick_no else view.leader[0]
                if fit[0, j]:
                    play = setup.start()
                    assert play.leader[0] == first  # (§4.3 first_lead: the real first leader)
                    setup.follow(play, so_far)
                    assert not bare
                else:
                    dropped += 1
                    play = setup.start()
                    if not bare and play.leader[0] == first:
                        with pytest.raises(IllegalPlay):
                            setup.follow(play, so_far)
            kept = search._deals(view, keys, rng, drawn, fit)
            if fit.any():  # (else the position is left unsearched, `_values`)
                assert search._fit(view, kept, rng).all()
    if rules.must_trump or rules.must_overtrump != "off" \
            or rules.trump_order == "joker_high_alternate":
        assert dropped > 0
    lineup = Lineup([search] + [expert] * (players - 1))
    GAMES["spades"].play_block(rules, lineup, 2, 0, 6, "hands")


@pytest.mark.parametrize("name", ["must_trump=True", "must_overtrump=always"])
def test_the_deals_kept_under_a_play_rule_are_uniform_over_the_deals_it_allows(name):
    """RULES.md §4.3: at late positions of real hands where the play rule says more than the
    voids (some deals the sampler may draw could not have been played so), the first deal of
    each row's draws that `SearchStrategy._fit` keeps is drawn uniformly among every deal the
    engine's replay accepts (enumerated: `harness.exact.splits_of`, each checked by
    `sim.replay.view_at`), and is never one it refuses."""
    from sim.tricks import IllegalPlay

    rules = load_rules(CONSTRAINED[name])
    search = make_strategy({"name": "search", "samples": 1}, game="spades")
    records, _ = _records(rules, Lineup([make_strategy("expert", game="spades")] * 4), 9, 40)
    checked = 0
    for rec in records:
        k = 44  # two cards a seat left: six unseen cards, at most 90 deals
        view = view_at({**rec, "plays": rec["plays"][:k]}).view
        seat, played = int(view.seat[0]), set(rec["plays"][:k])
        others = [(seat + j) % 4 for j in (1, 2, 3)]
        unseen = DECK.names_of(int(view.unseen[0]))
        counts = [sum(c not in played for c in rec["hands"][s]) for s in others]
        voids = view.voids[0] | search_module.revealed_voids(view)[0]
        allowed, drawable = set(), 0
        for split in splits_of(unseen, counts):
            hands = [list(h) for h in rec["hands"]]
            for s, got in zip(others, split, strict=True):
                hands[s] = [c for c in rec["hands"][s] if c in played] + list(got)
            if any(voids[s] >> SUITS.index(c[1]) & 1 for s, got in zip(others, split,
                                                                       strict=True)
                   for c in got):
                continue  # (a deal the voids rule out: the sampler never draws it)
            drawable += 1
            try:
                view_at({**rec, "hands": hands, "plays": rec["plays"][:k]})
            except IllegalPlay:
                continue
            allowed.add(tuple(DECK.mask_of(hands[s]) for s in others))
        if len(allowed) == drawable or len(allowed) < 2:
            continue  # the rule says nothing beyond the voids here, or leaves one deal
        n, m = 3000, 48
        many = view.take(np.zeros(n, np.intp))
        drawn = search._deal(many, m, _keys(n, 11))
        fit = search._fit(many, drawn, np.random.default_rng(0))
        rows = np.flatnonzero(fit.any(axis=1))  # (a row none of whose draws fits: unsearched)
        assert rows.size > n // 2
        first = drawn[rows, np.argmax(fit[rows], axis=1)]
        seen = collections.Counter(tuple(int(d[s]) for s in others) for d in first)
        assert set(seen) <= allowed
        observed = np.array([seen[d] for d in sorted(allowed)])
        assert stats.chisquare(observed).pvalue > 1e-3, observed
        checked += 1
        if checked == 3:
            break
    assert checked > 0


# -- two-card endings valued exactly -----------------------------------------------------------

def _priced(out: dict, side: int, rules) -> float:
    """A replayed hand's margin for ``side``, each bag taken priced at penalty / limit instead
    of the penalty paid (the search's value with its default ``bag_price``): minus the other
    side's points, or the mean of the others' where there are more than two sides."""
    pts = []
    for s in range(rules.sides):
        times = -out["components"]["bag_penalty"][s] // rules.bag_penalty
        taken = out["after"]["bags"][s] - out["before"]["bags"][s] + rules.bag_limit * times
        pts.append(out["points"][s] - out["components"]["bag_penalty"][s]
                   - rules.bag_penalty / rules.bag_limit * taken)
    return pts[side] - (sum(pts) - pts[side]) / (rules.sides - 1)


def _exact(rec: dict, k: int, rules) -> dict[str, np.ndarray]:
    """Each legal card's values over every deal consistent with the position after ``k``
    cards (`harness.exact.exact_values`), each hand's margin with bags priced (`_priced`)."""
    return exact_values(rec, k, rules, deck_for(rules),
                        lambda out, seat: _priced(out, seat % rules.sides, rules))


@pytest.mark.parametrize("preset", ["spades.standard", "spades.three"])
def test_the_search_plays_the_best_card_of_two_card_endings(preset):
    rules = load_rules(preset)
    deck, players = deck_for(rules), rules.players
    last = players * (rules.cards_each - 2)  # the first card of the last trick but one
    records, _ = _records(rules, Lineup([make_strategy("expert", game="spades")] * players),
                          5, 60 if players == 4 else 200)
    scan = make_strategy({"name": "search", "samples": 300, "pool": 1}, game="spades")
    search = make_strategy({"name": "search", "samples": 3000, "budget": 100_000, "pool": 1,
                            "confidence": 0.0}, game="spades")  # uniform deals, best mean
    checked = 0
    for rec in records:
        for k in range(last, last + players):  # the last trick but one: two cards each
            view = view_at({**rec, "plays": rec["plays"][:k]}).view
            cands, mean = scan.estimate(view, np.random.default_rng(k))
            if (cands != 0).sum() < 2 or np.ptp(mean[np.isfinite(mean)]) < 20:
                continue
            exact = _exact(rec, k, rules)
            cands, _ = check_estimates(search, view, exact, deck, 3000)
            for name, v in exact.items():  # equal cards (`candidates`) have equal values
                (rep,) = [c for c in cands[0] if c and int(c) <= deck.mask_of([name])
                          and _equal(view, int(c), deck.mask_of([name]))]
                assert np.array_equal(v, exact[deck.names_of(int(rep))[0]])
            best = max(exact, key=lambda c: exact[c].mean())
            (card,) = deck.names_of(int(search.play(view, np.random.default_rng(1))[0]))
            assert exact[card].mean() == exact[best].mean(), (card, best, exact)
            checked += 1
            if checked == 3:
                return
    pytest.fail(f"only {checked} endings with a clear best card were found")


def test_under_jokes_win_cards_next_in_their_suit_are_searched_apart():
    """RULES.md §4.2 ``jokes_win``: a joker makes its side's cards in the trick joke trumps,
    each just below the natural spade of its rank, so two cards of one suit with no unplayed
    card between them may take different tricks. At two-card endings of real hands where the
    seat holds two such cards (equal under every other order, `_equal`) whose exact values
    differ, both are candidates, each valued as the exact oracle values it (the engine's
    ``jokes_tie`` resolution replayed), and the search plays the better."""
    rules = load_rules(ORDERS["jokes win"])
    deck, last = deck_for(rules), 4 * (rules.cards_each - 2)
    records, _ = _records(rules, Lineup([make_strategy("expert", game="spades")] * 4), 5, 300)
    search = make_strategy({"name": "search", "samples": 3000, "budget": 100_000, "pool": 1,
                            "confidence": 0.0}, game="spades")  # uniform deals, best mean
    checked = 0
    for rec in records:
        for k in range(last, last + 4):
            view = view_at({**rec, "plays": rec["plays"][:k]}).view
            low, high = (deck.mask_of([c]) for c in deck.names_of(int(view.legal[0]))[:2]) \
                if popcount(view.legal)[0] == 2 else (0, 0)
            if not low or not _equal(view, low, high):
                continue
            exact = _exact(rec, k, rules)
            if np.isclose(*(v.mean() for v in exact.values())):
                continue
            cands, _ = check_estimates(search, view, exact, deck, 3000)
            assert sorted(int(c) for c in cands[0]) == [low, high]
            best = max(exact, key=lambda c: exact[c].mean())
            (card,) = deck.names_of(int(search.play(view, np.random.default_rng(1))[0]))
            assert card == best, (card, exact)
            checked += 1
            if checked == 3:
                return
    pytest.fail(f"only {checked} such endings were found")


def test_a_forced_finesse_at_three_players():
    """A hand-made position at three players (RULES.md §4.7; spades may be led any time, a key
    of §3): seat 0 wins the first 15 tricks; seat 2 has shown void in diamonds, hearts and
    spades; seat 0 leads the 4H to the last two tricks, seat 1 (bid 2, no trick yet) holds AH
    QH, and the KH is the one unseen heart: seat 2 holds only clubs, so the KH is seat 0's.
    The QH wins this trick and the AH the last (bid made: +20; seat 0, bid 14, takes 15:
    141 - 10 for its bag; seat 2 -10): -40.5 against the others' mean; the AH first lets the
    KH win the last trick (set: -20; seat 0 takes 16: 142 - 20): -76. One consistent deal, so
    the values are exact; expert and seed play the AH."""
    tricks = ["AD 5D 2D", "KD 6D 3D", "QD 7D 4D", "JD 8D 3C", "TD 9D 4C",
              "JH 3H 2H", "TH 5H 5C", "9H 6H 6C", "8H 7H 7C",
              "AS 3S 2S", "KS 4S 8C", "QS 5S 9C", "JS 6S TC", "TS 7S JC", "9S 8S QC"]
    hands = [[t.split()[seat] for t in tricks] for seat in range(3)]
    for seat, last in enumerate((["KH", "4H"], ["AH", "QH"], ["KC", "AC"])):
        hands[seat] += last
    rec = {"game": "spades", "rules": {"preset": "spades.three", "spades_broken": False},
           "game_id": 0, "hand_no": 1, "dealer": 2, "hands": hands,
           "plays": [c for t in tricks for c in t.split()] + ["4H"],
           "before": {"scores": [0, 0, 0], "bags": [0, 0, 0]}, "bids": [14, 2, 1],
           "blind": [False, False, False]}
    position = view_at(rec)
    view, deck = position.view, position.view.deck
    assert position.seat == 1 and deck.names_of(int(view.unseen[0])) == ["KC", "AC", "KH"]
    search = make_strategy("search", game="spades")
    cands, values = search.estimate(view, np.random.default_rng(0))
    got = {deck.names_of(int(c))[0]: v for c, v in zip(cands[0], values[0], strict=True)}
    assert got == {"QH": -40.5, "AH": -76.0}
    for seed in range(3):
        assert deck.names_of(int(search.play(view, np.random.default_rng(seed))[0])) == ["QH"]
    for name in ("expert", "seed"):
        card = make_strategy(name, game="spades").play(view, np.random.default_rng(0))
        assert deck.names_of(int(card[0])) == ["AH"]


def test_a_throw_in_at_four_players():
    """A hand-made endplay at four players in partnerships (``spades_broken = false``, a key of
    RULES.md §3): seat 0 has won the first ten tricks (its side bid 9 + 2, the other 1 + 1); seats
    2 and 3 have shown void in hearts (trick 9) and clubs (trick 10), so the KH, 5H and AC unseen
    are seat 1's, and seat 0 (AH QH 3C) leads to the last three tricks. The 3C throws seat 1 in
    with its AC, and it must lead a heart into the AQ, whatever it leads and however seat 0
    follows: 12 tricks (110 + 1 bag priced at 10) against a set (-20), +121. The AH first leaves
    the KH a trick (11 tricks against 2 made: +90) unless seat 1 throws the KH under it, which
    the rollout strategy does not. (The QH first makes 12 against the rollout strategy's
    defence too, which plays second hand low under it and lets the AH drop the KH; covering
    would beat it.) The consistent deals differ only in the diamonds, so the values are exact;
    the search plays a card of the best value, expert and seed cash the AH."""
    tricks = ["AS 2S 3S 5S", "KS 2H 4S 6S", "QS 3H 4C 9C", "JS 6H 5C TC", "TS 7H 6C JC",
              "9S 8H 7C QC", "8S 9H 8C JD", "7S TH 8D QD", "JH 4H 9D KD", "KC 2C TD AD"]
    hands = [[t.split()[seat] for t in tricks] for seat in range(4)]  # (seat 0 led each)
    for seat, last in enumerate((["AH", "QH", "3C"], ["KH", "5H", "AC"], ["2D", "3D", "4D"],
                                 ["5D", "6D", "7D"])):
        hands[seat] += last
    rec = {"game": "spades", "rules": {"preset": "spades.standard", "spades_broken": False},
           "game_id": 0, "hand_no": 1, "dealer": 3, "hands": hands,
           "plays": [c for t in tricks for c in t.split()],
           "before": {"scores": [0, 0], "bags": [0, 0]}, "bids": [9, 1, 2, 1],
           "blind": [False] * 4}
    position = view_at(rec)
    view, deck = position.view, position.view.deck
    assert position.seat == 0
    assert sorted(deck.names_of(int(view.unseen[0]))) == sorted(
        ["KH", "5H", "AC", "2D", "3D", "4D", "5D", "6D", "7D"])
    search = make_strategy("search", game="spades")
    cands, values = search.estimate(view, np.random.default_rng(0))
    got = {deck.names_of(int(c))[0]: v for c, v in zip(cands[0], values[0], strict=True) if c}
    assert got["3C"] == 121.0 and got["AH"] == 90.0
    for seed in range(3):
        (card,) = deck.names_of(int(search.play(view, np.random.default_rng(seed))[0]))
        assert got[card] == 121.0, card
    for name in ("expert", "seed"):
        card = make_strategy(name, game="spades").play(view, np.random.default_rng(0))
        assert deck.names_of(int(card[0])) == ["AH"]


def _equal(view, low: int, high: int, gone: int | None = None) -> bool:
    """``low`` and ``high`` (cards of the view's legal ones) are of one class of equal cards:
    of one suit, every card between them played to an earlier trick (or in ``gone``, default
    those) or legal here."""
    if low == high:
        return True
    gone = int(view.played[0]) if gone is None else gone
    suit = next(int(m) for m in view.deck.suit_masks if int(m) & low)
    between = suit & (high - 1) & ~(low | (low - 1))
    return bool(high & suit) and not between & ~(gone | int(view.legal[0]))


def test_candidates_stand_for_every_legal_card_once():
    rules = load_rules("spades.standard")
    records, _ = _records(rules, Lineup([make_strategy("seed", game="spades")] * 4), 6, 10)
    merged = 0
    for rec in records:
        for k in range(0, 52, 5):
            view = view_at({**rec, "plays": rec["plays"][:k]}).view
            cands = [int(c) for c in candidates(view)[0] if c]
            legal = int(view.legal[0])
            assert all(c & legal for c in cands)
            for card in DECK.names_of(legal):
                bit = DECK.mask_of([card])
                assert sum(_equal(view, c, bit) for c in cands if c <= bit) == 1, card
            merged += popcount(view.legal)[0] - len(cands)
    assert merged > 0


def test_jokers_of_equal_rank_are_one_class_and_the_ace_below_them_another():
    """RULES.md §4.2 ``jokers_first_wins``: LJ and BJ rank equal, the first played wins. The
    candidates take the two jokers as one class (either played first wins the same tricks), and
    the AS below them as its own while a joker is unplayed (a joker led beats the other one, the
    AS never does), though no unplayed card lies between the AS and the LJ; once both jokers are
    gone, the AS is a class with the spades below it again."""
    rules = load_rules(ORDERS["jokers first wins"])
    deck = deck_for(rules)
    lj, bj, ace = (deck.mask_of([c]) for c in ("LJ", "BJ", "AS"))
    records, _ = _records(rules, Lineup([make_strategy("seed", game="spades")] * 4), 6, 300)
    seen = collections.Counter()
    for rec in records:
        for k in range(0, 52, 2):
            view = view_at({**rec, "plays": rec["plays"][:k]}).view
            legal = int(view.legal[0])
            cands = {int(c) for c in candidates(view)[0] if c}
            if legal & lj and legal & bj:
                seen["both jokers"] += 1
                assert (lj in cands) != (bj in cands)
            if legal & ace and legal & (lj | bj):
                seen["ace and a joker"] += 1
                assert cands & {lj, bj}  # (the AS's class may take the KS's, below it)
    assert seen["both jokers"] > 0 and seen["ace and a joker"] > 0, seen


class TwoPlayerClasses:
    """Plays like ``expert`` at two players (RULES.md §4.7); at every card checks that the
    candidates stand for every legal card once, a card's class reaching down past the cards the
    seat discarded (nobody holds them): of one suit, every card between two of a class played,
    discarded by the seat or legal here."""

    def __init__(self):
        self.inner = make_strategy("expert", game="spades")
        self.merged_by_discards = 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def play(self, view, rng):
        cands = candidates(view)
        plain = candidates(dataclasses.replace(view, discards=None))
        for r in range(len(view)):
            one = view.take(np.array([r]))
            gone = int(one.played[0]) | int(one.discards[0])
            row = [int(c) for c in cands[r] if c]
            for card in one.deck.names_of(int(one.legal[0])):
                bit = one.deck.mask_of([card])
                assert sum(_equal(one, c, bit, gone) for c in row if c <= bit) == 1, card
            self.merged_by_discards += sum(1 for c in plain[r] if c) - len(row)
        return self.inner.play(view, rng)


def test_at_two_players_the_cards_discarded_join_the_classes_of_equal_cards():
    player = TwoPlayerClasses()
    GAMES["spades"].play_block(load_rules({"players": 2}), Lineup([player] * 2), 4, 0, 60,
                               "hands")
    assert player.merged_by_discards > 0


# -- whole runs ---------------------------------------------------------------------------------

SEARCH = {"name": "search", "samples": 4}


def test_a_run_with_search_at_one_seat_replays_to_its_tables(tmp_path):
    experiment = tmp_path / "search.toml"
    experiment.write_text('name = "search"\nrules = "spades.standard"\ngames = 2\nseed = 9\n'
                          'strategy = [{name = "search", samples = 4}, "expert", '
                          '{name = "search", samples = 4, search_bids = true}, "expert"]\n',
                          encoding="utf-8")
    out, records = tmp_path / "out", tmp_path / "hands.jsonl"
    assert main(["run", str(experiment), "--out", str(out), "--records", str(records)]) == 0
    hands = whistlab.load(out).collect().sort("game_id", "hand_no")
    replayed = replay_file(records)
    assert len(replayed) == hands.height > 2
    for rec, row in zip(replayed, hands.iter_rows(named=True), strict=True):
        assert rec["points"] == [row["points_0"], row["points_1"]]
        assert rec["tricks"] == [row[f"tricks_{s}"] for s in range(4)]


def _block(rules, lineup, seed, size):
    hands, _ = GAMES["spades"].block_tables(GAMES["spades"].play_block(rules, lineup, seed, 0,
                                                                       size, "hands"), 0)
    return hands


def test_decisions_are_reproducible_for_a_fixed_seed():
    rules = load_rules("spades.standard")
    lineup = Lineup([make_strategy(SEARCH, game="spades"),
                     make_strategy("random", game="spades")] * 2)  # random draws too
    one, two = _block(rules, lineup, 2, 6), _block(rules, lineup, 2, 6)
    assert one.equals(two)
    other = _block(rules, lineup, 3, 6)
    assert not one.equals(other)


def test_the_chunks_do_not_change_the_decisions(monkeypatch):
    rules = load_rules("spades.standard")
    lineup = Lineup([make_strategy(SEARCH, game="spades")] * 4)
    whole = _block(rules, lineup, 4, 6)
    monkeypatch.setattr(card_search, "CHUNK", 2 * SEARCH["samples"] * 4)  # two rows a chunk
    assert _block(rules, lineup, 4, 6).equals(whole)


class _NoDealWithAS(search_module.SearchStrategy):
    """The search, but its sampler cannot deal a row whose seat holds the AS (as the merged
    sampler may not, at a rare late position of seven hidden seats: `sampling.NoDeal`)."""

    def _deal(self, view, k, keys):
        if np.any(view.hand & DECK.mask_of(["AS"])):
            raise NoDeal("no deal (test)")
        return super()._deal(view, k, keys)


def test_a_row_whose_deals_cannot_be_drawn_plays_the_rollout_strategys_card():
    """A row the sampler cannot deal (`strategies.sampling.NoDeal`) plays the expert's card,
    unsearched; every other row of the batch decides as it would have (its deals its key's)."""
    search = make_strategy(SEARCH, game="spades")
    refusing = _NoDealWithAS(samples=SEARCH["samples"])
    expert = make_strategy("expert", game="spades")
    met = collections.Counter()

    class Both:
        def __getattr__(self, name):
            return getattr(expert, name)

        def play(self, view, rng):
            want = search.play(view, np.random.default_rng(7))
            got = refusing.play(view, np.random.default_rng(7))
            searched = popcount(np.bitwise_or.reduce(candidates(view), axis=1)) > 1
            bad = searched & (view.hand & DECK.mask_of(["AS"]) != 0)
            assert np.array_equal(got[~bad], want[~bad])
            assert np.array_equal(got[bad], expert.play(view, rng)[bad])
            met["refused"] += int(bad.sum())
            met["searched"] += int((searched & ~bad).sum())
            return want

    _block(load_rules("spades.standard"), Lineup([Both()] * 4), 4, 8)
    assert met["refused"] > 0 and met["searched"] > 0


def test_a_block_played_with_others_decides_as_alone():
    """Blocks of whole games played together (`sim.blocks.play_blocks`) draw each row's
    numbers from its own block's stream: the search's samples too."""
    rules = load_rules("spades.openspiel")  # one-hand games
    lineup = Lineup([make_strategy(SEARCH, game="spades")] * 4)
    game = GAMES["spades"]
    together = dict(game.play_blocks(rules, lineup, 5, [(0, 3, 0), (1, 3, 3)], "games"))
    for block in (0, 1):
        alone = game.play_block(rules, lineup, 5, block, 3, "games")
        a, _ = game.block_tables(alone, 0)
        b, _ = game.block_tables(together[block], 0)
        assert a.equals(b)


# -- refusals ----------------------------------------------------------------------------------

# rules files it does not play, and the key its refusal names
REFUSED_FILES = {"a kitty": ('preset = "spades.three"\nkitty = true\n', "kitty = True"),
                 "six of two decks, face-up cards and passing": (
                     'preset = "spades.six"\nface_up_cards = 2\n'
                     'pass_cards = {count = 2, direction = "left"}\n', "face_up_cards = 2")}


@pytest.mark.parametrize("name", list(REFUSED_FILES))
def test_rules_it_does_not_play_are_refused_naming_them(name, tmp_path, capsys):
    text, key = REFUSED_FILES[name]
    (tmp_path / "rules.toml").write_text(text)
    code = main(["run", "--rules", str(tmp_path / "rules.toml"), "--strategy", "search",
                 "--hands", "4", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert "strategy 'search' does not play custom yet" in err and key in err
    assert not (tmp_path / "out" / "hands").exists()


def test_a_decision_or_a_session_under_rules_it_does_not_play_is_refused(tmp_path):
    spec = {"preset": "spades.six", "deck": "single_jokers", "jokers": 2}
    rules = load_rules(spec)
    records, _ = _records(rules, Lineup([make_strategy("seed", game="spades")] * 6), 1, 1)
    with pytest.raises(UserError, match="does not play these rules yet.*partnerships"):
        whistlab.decide("search", {**records[0], "plays": records[0]["plays"][:5]})
    (tmp_path / "rules.toml").write_text('preset = "spades.six"\ndeck = "single_jokers"\n'
                                         'jokers = 2\n')
    assert main(["play", "--rules", str(tmp_path / "rules.toml"), "--opponents", "search"]) == 2


# each refused table or rule of RULES.md §4, and the keys its message names
REFUSED = {
    "six of two decks, face-up cards and nil passing": ({"players": 6, "face_up_cards": 2,
                                                         "nil_pass": [1, 2]},
                                                        ["face_up_cards = 2"]),
    "six with a kitty": ({"players": 6, "deck": "double_kitty", "kitty": True},
                         ["deck = 'double_kitty'", "kitty = True"]),
    "six players, one deck and jokers": ({"players": 6, "deck": "single_jokers", "jokers": 2},
                                         ["deck = 'single_jokers'", "jokers = 2"]),
    "three players, the last card undealt": ({"preset": "spades.three", "remove": "last"},
                                             ["remove = 'last'"]),
    "three players with jokers": ({"preset": "spades.three", "jokers": 2,
                                   "trump_order": "jokers_high"},
                                  ["jokers = 2", "trump_order = 'jokers_high'"]),
    "five players, a trump reveal": ({"preset": "spades.five", "seven_trump_reveal": True},
                                     ["seven_trump_reveal = True"]),
    "a trump reveal": ({"preset": "spades.standard", "seven_trump_reveal": True},
                       ["seven_trump_reveal = True"]),
    "two exchanges of cards": ({"preset": "spades.standard", "nil_pass": [1, 2],
                                "pass_cards": {"count": 1, "direction": "left"}},
                               ["nil_pass = ", "pass_cards = "]),
    "an auction": ({"preset": "spades.standard", "auction": True}, ["auction = True"]),
    "three players with a kitty": ({"preset": "spades.three", "kitty": True},
                                   ["kitty = True"]),
    "three players, jokers of equal rank": ({"preset": "spades.three", "jokers": 2,
                                             "trump_order": "jokers_first_wins"},
                                            ["jokers = 2", "trump_order = 'jokers_first_wins'"]),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_each_table_and_rule_it_does_not_play_is_named(name):
    spec, keys = REFUSED[name]
    rules = load_rules(spec)
    why = search_module.SearchStrategy.refuse(rules)
    assert why is not None and "three players, cutthroat, five players" in why
    for key in keys:
        assert key in why
    with pytest.raises(UserError, match=f"does not play {name} yet: .*{keys[0]}"):
        make_strategy("search", game="spades", rules=rules, rules_name=name)


@pytest.mark.parametrize("preset", ["spades.standard", "spades.short", "spades.openspiel",
                                    "spades.three", "spades.cutthroat", "spades.five", *TABLE])
def test_the_standard_games_are_played(preset):
    rules = load_rules(TABLE.get(preset, preset))
    made = make_strategy("search", game="spades", rules=rules, rules_name=preset)
    assert made.refuse(rules) is None


def test_a_rollout_it_cannot_play_out_with_is_refused():
    with pytest.raises(UserError, match="rollout 'search'"):
        make_strategy({"name": "search", "rollout": "search"}, game="spades")
    with pytest.raises(UserError, match="rollout 'nobody'"):
        make_strategy({"name": "search", "rollout": "nobody"}, game="spades")
    made = make_strategy({"name": "search", "rollout": "seed", "samples": 2}, game="spades")
    assert make_strategy(json.loads(json.dumps(made.to_dict())), game="spades") == made
    assert made.policy.name == "seed"


def test_a_game_won_at_once_is_valued_as_a_hand_that_reaches_the_target():
    """RULES.md §4.4 ``moon``: a side bidding 13 that takes every trick wins the game at once.
    A hand-made deal (seat 0 all the spades, leading them; his side bids 7 + 6) rolled out by
    the search from seat 3's card: at 120-300 his opponents lacked 380 of the 500 target, his
    side's 1 + 1 set scores -20 (§3), so the hand is worth -(380 + 20) to him (`won_at_once`);
    without ``moon`` the 13 tricks score 130, worth -(130 + 20). Without a target score (a
    game of so many hands) the points stand."""
    ranks = "23456789TJQKA"
    record = {"game": "spades", "dealer": 3, "hands": [[r + s for r in ranks] for s in "SDHC"],
              "before": {"scores": [120, 300], "bags": [0, 0]}, "bids": [7, 1, 6, 1],
              "blind": [False] * 4, "plays": ["2S", "2D", "2H"]}
    search = make_strategy({"name": "search", "samples": 2}, game="spades")
    for moon, want in ((True, -400.0), (False, -150.0)):
        rules = {"preset": "spades.standard", "moon": moon}
        view = view_at({**record, "rules": rules}).view
        assert view.seat[0] == 3
        deck = deck_for(load_rules(rules))
        real = np.array([[[deck.mask_of(h) for h in record["hands"]]]], np.uint64)
        card = np.array([deck.mask_of(["2C"])], np.uint64)
        got = search._rollouts(view, real, np.zeros(1, int), np.zeros(1, int), card,
                               np.random.default_rng(0))
        assert got[0] == want
    points = np.array([[130.0, -20.0]])
    untimed = load_rules({"preset": "spades.standard", "moon": True, "target_score": None,
                          "max_hands": 3})
    scores = np.array([[120, 300]], np.int32)
    assert np.array_equal(won_at_once(points, np.array([0], np.int8), scores, untimed), points)
    assert won_at_once(points, np.array([0], np.int8), scores,
                       load_rules({"preset": "spades.standard", "moon": True}))[0, 0] == 380
    assert won_at_once(points, np.array([-1], np.int8), scores,
                       load_rules({"preset": "spades.standard", "moon": True}))[0, 0] == 130


def test_blind_nil_rollouts_of_the_real_deal_replay_the_real_hand():
    """A blind nil decision (RULES.md §3, offered to a side behind by ``blind_nil_min_deficit``)
    rolled out on the real deal with the decision actually made, the rest bid and played by the
    strategy that played the game (``seed``, which bids blind nils), is the hand as it was
    played, valued as the engine scored it (bags priced)."""
    from sim.spades.bidding import blind_nil_allowed, blind_view, start_bidding

    rules = load_rules("spades.standard")
    seed = make_strategy("seed", game="spades")
    search = make_strategy({"name": "search", "rollout": "seed", "samples": 2}, game="spades")
    result = GAMES["spades"].play_block(rules, Lineup([seed] * 4), 8, 0, 6, "games")
    records = GAMES["spades"].block_records(result, SimpleNamespace(rules=rules), 0)
    hands, _ = GAMES["spades"].block_tables(result, 0)
    value = {}
    for row in hands.to_pylist():
        pts = np.array([row[f"points_{s}"] - row[f"bag_penalty_{s}"] - 10 * row[f"bags_taken_{s}"]
                        for s in range(2)], dtype=float)
        value[row["game_id"], row["hand_no"]] = pts - pts[::-1]
    checked = went_blind = changed = 0
    for rec in records:
        real = np.array([[DECK.mask_of(h) for h in rec["hands"]]], np.uint64)
        order = [(rec["dealer"] + 1 + j) % 4 for j in range(4)]
        for j, seat in enumerate(order):
            bids = np.array([[rec["bids"][s] if s in order[:j] else -1 for s in range(4)]],
                            np.int8)
            blind = np.array([[rec["blind"][s] and s in order[:j] for s in range(4)]])
            scores = np.array([rec["before"]["scores"]], np.int32)
            if not blind_nil_allowed(np.array([seat]), scores, rules)[0]:
                continue
            state = start_bidding(real, np.array([rec["dealer"]], np.int8), scores,
                                  np.array([rec["before"]["bags"]], np.int32), rules,
                                  bids=bids, blind=blind)
            view = blind_view(state, rules, DECK)
            assert int(view.seat[0]) == seat
            forced = forced_answers.BlindNil(search.policy, view.seat,
                                             np.array([rec["blind"][seat]]))
            got = search._bid_rollouts(view, real, np.zeros(1, int), forced,
                                       np.random.default_rng(0))
            assert got[0] == pytest.approx(value[rec["game_id"], rec["hand_no"]][seat % 2])
            flip = forced_answers.BlindNil(search.policy, view.seat,
                                           np.array([not rec["blind"][seat]]))
            other = search._bid_rollouts(view, real, np.zeros(1, int), flip,
                                         np.random.default_rng(0))
            changed += other[0] != got[0]  # the other decision makes another hand
            checked += 1
            went_blind += rec["blind"][seat]
    assert checked > 4 and went_blind > 0 and changed == checked
