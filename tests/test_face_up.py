"""RULES.md §4.1 ``face_up_cards``: the first k cards each player receives are dealt face up —
they are in his hand, k of them, the first k of the deal's order — and every strategy sees all of
them, at the blind-nil decision, the bids and the play."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sim.blocks import deal_rng, stacked
from sim.deal import shuffled
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.hand import deck_for
from strategies import make_strategy
from strategies.seed import SeedStrategy


def face_up(result) -> np.ndarray:
    """uint64[H, P]: the face-up cards of each hand of a block, in the order of its hands (the
    plug-in's state, `sim.spades.house.face_up_cards`)."""
    return stacked(result.outcomes, lambda o: o.house_state["face_up"])


@dataclasses.dataclass(frozen=True, kw_only=True)
class Watcher(SeedStrategy):
    """The seed player, noting the face-up cards each view shows it."""

    seen: list = dataclasses.field(default_factory=list, compare=False)
    twice_seen: list = dataclasses.field(default_factory=list, compare=False)

    def _note(self, kind, view):
        self.seen.append((kind, view.rows, view.face_up))
        if view.face_up_twice is not None:  # (two decks)
            self.twice_seen.append((kind, view.rows, view.face_up_twice))

    def blind_nil(self, view, rng):
        self._note("blind_nil", view)
        return super().blind_nil(view, rng)

    def bid(self, view, rng):
        self._note("bid", view)
        return super().bid(view, rng)

    def play(self, view, rng):
        self._note("play", view)
        return super().play(view, rng)


@pytest.mark.parametrize("k", [1, 4])
def test_face_up_cards_are_the_first_dealt_and_every_view_shows_them(k):
    rules = load_rules({"face_up_cards": k, "blind_nil_min_deficit": 0})
    watcher = Watcher(blind_nil_deficit=0)
    n = 500
    result = GAMES["spades"].play_block(rules, Lineup([watcher] * 4), 8, 0, n, "hands")
    face = face_up(result)
    assert (np.bitwise_count(face) == k).all()
    assert ((face & ~result.hands) == 0).all()  # each seat's face-up cards are its own
    # the first k cards of the deal's order, to the dealer's left first (sim.deal)
    deck = deck_for(rules)
    order = shuffled(np.flatnonzero(deck.natural >= 0).astype(np.int8), n,
                     deal_rng(8, 0, 1, 0))
    for i in range(20):
        for position in range(4 * k):
            seat = (int(result.dealer[i]) + 1 + position) % 4
            assert face[i, seat] >> np.uint64(order[position, i]) & np.uint64(1)
    kinds = set()
    for kind, rows, shown in watcher.seen:
        kinds.add(kind)
        assert (shown == face[rows]).all()
    assert kinds == {"blind_nil", "bid", "play"}


def test_without_the_rule_no_card_is_face_up():
    result = GAMES["spades"].play_block(load_rules({}), Lineup([make_strategy("seed")] * 4), 8,
                                        0, 200, "hands")
    assert (face_up(result) == 0).all()


def test_the_seed_looks_at_its_face_up_cards_before_a_blind_nil():
    rules = load_rules({"face_up_cards": 4, "blind_nil_min_deficit": 0})
    counts = []
    for cap in (0.0, 13.0):
        lineup = Lineup([SeedStrategy(blind_nil_deficit=0, face_up_blind_nil_max=cap)] * 4)
        result = GAMES["spades"].play_block(rules, lineup, 8, 0, 2000, "hands")
        blind = result.outcomes[0].bidding.blind
        counts.append(int(blind.sum()))
    assert counts[0] < counts[1]


def test_records_show_the_face_up_cards(tmp_path):
    from roundtrip import roundtrip

    rt = roundtrip(tmp_path, "face_up_cards = 2\n", strategy="seed", games=3)
    assert [r["points"] for r in rt.full] == rt.points == rt.sheet_points()
    for rec in rt.records:
        assert [len(c) for c in rec["face_up"]] == [2, 2, 2, 2]
        assert all(set(c) <= set(h) for c, h in zip(rec["face_up"], rec["hands"], strict=True))


def test_two_decks_show_the_face_up_cards():
    """Issue 19, six players with two decks (RULES.md §4.7): the face-up cards are cards of the
    hand, a card dealt twice face up to one seat shown twice (``face_up_twice``, issue 21: as
    the hand's ``twice``): 3 copies each, every view shows them."""
    rules = load_rules({"players": 6, "face_up_cards": 3, "blind_nil_min_deficit": 0})
    watcher = Watcher(blind_nil_deficit=0)
    result = GAMES["spades"].play_block(rules, Lineup([watcher] * 6), 8, 0, 400, "hands")
    face = face_up(result)
    twice = stacked(result.outcomes, lambda o: o.house_state["face_up_twice"])
    counts = np.bitwise_count(face) + np.bitwise_count(twice)
    assert (counts == 3).all() and (twice != 0).any()
    assert ((face & ~result.hands) == 0).all() and ((twice & ~face) == 0).all()
    assert ((twice & ~stacked(result.outcomes, lambda o: o.twice)) == 0).all()
    for _, rows, shown in watcher.seen:
        assert (shown == face[rows]).all()
    for _, rows, shown in watcher.twice_seen:
        assert (shown == twice[rows]).all()
    assert {kind for kind, _, _ in watcher.twice_seen} == {"blind_nil", "bid", "play"}
