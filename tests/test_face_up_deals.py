"""The search's deals with face-up cards after an exchange of cards (RULES.md §4.1
``face_up_cards`` with §4.5 ``pass_cards`` or ``nil_pass``, one deck;
`strategies.face_up_deals`): checked against the real hands of played records, and the law of
the holders drawn against the hypergeometric law of a uniformly random choice of the cards
passed, derived here."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from sim.cards import popcount, standard_deck
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.passing import receiver_offset
from strategies import make_strategy
from strategies import search as search_module
from strategies.face_up_deals import face_up_holders
from strategies.search import deal_bidding, revealed_voids

DECK = standard_deck()
RULES = {  # each: its rules, and the cards each seat passes (None: the nil sides', by the bids)
    "passing left after the bids": ({"face_up_cards": 3,
                                     "pass_cards": {"count": 3, "direction": "left"}}, 3),
    "passing to the partner before the bids": ({"face_up_cards": 4, "pass_when": "before_bid",
                                                "pass_cards": {"count": 2,
                                                               "direction": "partner"}}, 2),
    "passing right, two face-up cards": ({"face_up_cards": 2,
                                          "pass_cards": {"count": 1, "direction": "right"}}, 1),
    "nil passing": ({"face_up_cards": 3, "nil_pass": [2, 3]}, None),
}


class Drawing:
    """Plays as ``seed`` (with nils, for ``nil_pass``); at the cards of the tricks ``at`` keeps
    the view and the search's deals of it (`SearchStrategy._deal`), to be checked against the
    real hands once the hands are recorded."""

    def __init__(self, at: tuple[int, ...], k: int = 32):
        self.inner = make_strategy({"name": "seed", "nil_max_estimate": 2.5}, game="spades")
        self.search = make_strategy("search", game="spades")
        self.at, self.k, self.kept = at, k, []

    def __getattr__(self, attr):
        return getattr(self.inner, attr)

    def play(self, view, rng):
        if view.trick_no in self.at:
            keys = _keys(len(view), 1000 * view.trick_no + view.position)
            self.kept.append((view, self.search._deal(view, self.k, keys)))
        return self.inner.play(view, rng)


def _played(rules, drawing: Drawing, hands: int, seed: int) -> list[tuple]:
    """(view of one row, its deals uint64[k, P], its record) for every view ``drawing`` kept;
    the record found by the row (a hand a game), checked to hold the view's hand."""
    result = GAMES["spades"].play_block(rules, Lineup([drawing] * rules.players), seed, 0, hands,
                                        "hands")
    records = {r["game_id"]: r for r in
               GAMES["spades"].block_records(result, SimpleNamespace(rules=rules), 0)}
    out = []
    for view, deals in drawing.kept:
        for j, row in enumerate(view.rows):
            rec = records[int(row)]
            seat = int(view.seat[j])
            assert view.hand[j] & ~np.uint64(DECK.mask_of(rec["hands"][seat])) == 0
            out.append((view.take(np.array([j])), deals[j], rec))
    return out


def _keys(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 1 << 63, size=n).astype(np.uint64)


@pytest.mark.parametrize("name", list(RULES))
def test_each_face_up_card_is_dealt_to_its_holder_or_his_receiver(name):
    """At views of the play, in every deal the search draws: every card once, the seat's hand
    its own, each seat as many cards as it holds and none of a suit it showed void in; each
    face-up card not yet played held by its first holder or by his receiver; where the seat
    deciding can tell (its own face-up cards, those of the seat passing to it, a seat that
    passed nothing), by the seat holding it in fact (the record's hands: after the exchange)."""
    spec, _ = RULES[name]
    rules = load_rules({"preset": "spades.standard", **spec})
    players = rules.players
    offset = receiver_offset(rules, nil=bool(rules.nil_pass))
    checked = free = 0
    for view, deals, rec in _played(rules, Drawing(at=(0, 3, 7, 11)), 24, 3):
        real = [DECK.mask_of(h) for h in rec["hands"]]
        passes = [len(p) for p in rec.get("passed", [[]] * players)]
        voids = (view.voids | revealed_voids(view))[0]
        seat = int(view.seat[0])
        gone = int(view.played[0] | view.in_trick[0])
        assert np.all(np.bitwise_or.reduce(deals, axis=1) == DECK.full_mask)
        assert np.all(popcount(deals).sum(axis=1) == 52)  # every card once
        assert np.all(deals[:, seat] == real[seat])  # (as dealt: its cards left and played)
        for s in range(players):
            assert np.all(popcount(deals[:, s]) == 13)
            for suit in range(4):
                if voids[s] >> suit & 1:  # (none of the suit left; those played apart)
                    left = deals[:, s] & ~np.uint64(gone) & DECK.suit_masks[suit]
                    assert not left.any(), (name, s, suit)
        for a in range(players):
            r = (a + offset) % players
            for card in rec.get("face_up", [[]] * players)[a]:
                bit = DECK.mask_of([card])
                if bit & gone:
                    continue
                at_a, at_r = (deals[:, a] & bit) != 0, (deals[:, r] & bit) != 0
                assert np.all(at_a | at_r), (name, card)
                holder = next(s for s in range(players) if real[s] & bit)
                if seat in (a, r) or passes[a] == 0:
                    assert np.all((deals[:, holder] & bit) != 0), (name, card)
                else:
                    free += 1
                checked += 1
    assert checked > 300 and free > 50, (checked, free)


@pytest.mark.parametrize("name", ["passing left after the bids", "passing right, two face-up cards",
                                  "passing to the partner before the bids"])
def test_the_cards_passed_follow_a_uniformly_random_choice_of_the_cards(name):
    """Before any card is played (no void shown), how many of a seat's face-up cards the deals
    give to his receiver follows the hypergeometric law of a choice of ``c`` cards passed
    among his ``n`` (derived here: P(m) = C(f, m) C(n - f, c - m) / C(n, c) for the ``f``
    face-up cards whose fate the seat deciding cannot tell); chi-square over m."""
    spec, c = RULES[name]
    rules = load_rules({"preset": "spades.standard", **spec})
    players, n, f = rules.players, rules.cards_each, spec["face_up_cards"]
    offset = receiver_offset(rules)
    most = min(f, c)  # (no more passed than c)
    law = np.array([math.comb(f, m) * math.comb(n - f, c - m) / math.comb(n, c)
                    for m in range(most + 1)])
    counts = np.zeros(f + 1)
    drawing = Drawing(at=(0,), k=64)
    for view, deals, rec in _played(rules, drawing, 60, 5):
        if view.position:  # (the first card of the hand: nothing played)
            continue
        seat = int(view.seat[0])
        for a in range(players):
            r = (a + offset) % players
            if seat in (a, r):
                continue
            up = np.uint64(DECK.mask_of(rec["face_up"][a]))
            assert np.all((deals[:, a] | deals[:, r]) & up == up)
            counts += np.bincount(popcount(deals[:, r] & up).astype(int), minlength=f + 1)
    assert not counts[most + 1:].any()
    expected = law * counts.sum()
    chi2 = float(((counts[:most + 1] - expected) ** 2 / expected).sum())
    assert counts.sum() > 3000 and chi2 < 25, (counts, expected)  # (<= 4 dof: p < 1e-4)


def test_the_bids_after_an_exchange_deal_the_face_up_cards_so_too():
    """RULES.md §4.5 ``pass_when = "before_bid"``: the deals of a bid (`deal_bidding`) after the
    exchange give each face-up card to its holder or his receiver, the seat's own hand its own."""
    spec, _ = RULES["passing to the partner before the bids"]
    rules = load_rules({"preset": "spades.standard", **spec})
    asked = []

    class Checking:
        def __init__(self):
            self.inner = make_strategy("seed", game="spades")

        def __getattr__(self, attr):
            return getattr(self.inner, attr)

        def bid(self, view, rng):
            deals = deal_bidding(view, 16, _keys(len(view), 7))  # [n, 16, P]
            rows, seat = np.arange(len(view)), view.seat.astype(np.intp)
            assert np.all(deals[rows, :, seat] == view.hand[:, None])
            assert np.all(np.bitwise_or.reduce(deals, axis=2) == DECK.full_mask)
            assert np.all(popcount(deals).sum(axis=2) == 52)
            for a in range(4):  # (passing to the partner: a face-up card stays in its pair)
                up = view.face_up[:, a]
                pair = deals[:, :, a] | deals[:, :, (a + 2) % 4]
                assert np.all(pair & up[:, None] == up[:, None])
            asked.append(len(view))
            return self.inner.bid(view, rng)

    GAMES["spades"].play_block(rules, Lineup([Checking()] * 4), 2, 0, 20, "hands")
    assert sum(asked) > 0


def test_a_void_shown_places_the_face_up_cards_of_its_suit(monkeypatch):
    """A seat that has shown it holds no card of a suit passed his face-up card of it (every
    draw gives it to his receiver); a receiver void in it shows it was kept. The search's deals
    read the voids a spade lead reveals too (`revealed_voids`: a spade led unbroken shows the
    leader held only spades; a deal giving him the face-up card would contradict the play)."""
    spec, _ = RULES["passing left after the bids"]
    rules = load_rules({"preset": "spades.standard", **spec})
    offset = receiver_offset(rules)
    forced = kept = 0
    for view, _, rec in _played(rules, Drawing(at=(2,), k=1), 12, 9):
        seat = int(view.seat[0])
        gone = int(view.played[0] | view.in_trick[0])
        for a in range(4):
            r = (a + offset) % 4
            left = [c for c in rec["face_up"][a] if not DECK.mask_of([c]) & gone]
            if seat in (a, r) or not left:
                continue
            suit = "CDHS".index(left[0][1])
            bit = np.uint64(DECK.mask_of([left[0]]))
            for void_seat, at in ((a, r), (r, a)):
                voids = view.voids.copy()
                voids[0, void_seat] |= np.uint8(1 << suit)
                voids[0, at] &= np.uint8(~(1 << suit) & 0xFF)
                held, _ = face_up_holders(view, 16, _keys(1, a), voids=voids)
                assert np.all(held[0, :, at] & bit == bit)
                monkeypatch.setattr(search_module, "revealed_voids", lambda v, vs=voids: vs)
                deals = make_strategy("search", game="spades")._deal(view, 16, _keys(1, a))
                monkeypatch.undo()
                assert np.all(deals[0, :, at] & bit == bit)
                forced += void_seat == a
                kept += void_seat == r
    assert forced > 10 and kept > 10
