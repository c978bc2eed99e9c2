"""Dummy whist (RULES.md §1 `dummy`): seat 3's hand lies face up from the end of the deal and is
played by its partner, seat 1, who sees both hands."""

from __future__ import annotations

import dataclasses

import numpy as np

import sim
from sim.blocks import deal_groups
from sim.lineup import Lineup
from sim.options import PRESETS
from sim.portland.game import play_block
from sim.portland.hand import deck_for, play_hands
from strategies import make_strategy


@dataclasses.dataclass(frozen=True, kw_only=True)
class Spy:
    """Plays uniformly at random and records, per call, the seat, its hand and what it sees."""

    seen: list = dataclasses.field(default_factory=list)

    def play(self, view, rng):
        self.seen.append((view.seat.copy(), view.hand.copy(), view.visible.copy(),
                          view.played | view.in_trick))
        return make_strategy("random").play(view, rng)


def test_everyone_sees_the_dummy_and_its_player_sees_his_own_hand():
    rules = PRESETS["portland.dummy"]
    deck = deck_for(rules)
    n = 200
    dealer = np.full(n, 3, np.int8)
    hands, turn_up = deal_groups(deck, dealer, 7, 0, 1, np.arange(n), group=n, last=True)
    spy = Spy()
    play_hands(hands, dealer, turn_up, np.zeros((n, 2), np.int32), Lineup([spy] * 4), rules,
               np.random.default_rng(1), deck)
    assert len(spy.seen) == 52
    for seat, hand, visible, gone in spy.seen:
        dummy_left = hands[:, 3] & ~gone
        partner_left = hands[:, 1] & ~gone
        assert (visible == np.where(seat == 3, partner_left, dummy_left)).all()
        assert (hand == np.take_along_axis(hands, seat[:, None].astype(np.intp), 1)[:, 0]
                & ~gone).all()


def test_seat_1_plays_the_dummy():
    """With a dummy, whatever strategy is named for seat 3, seat 1's plays it: the tables of
    [random, seed, random, seed] and [random, seed, random, random] are identical, and differ
    without the dummy."""
    def tables(rules, fourth):
        lineup = Lineup([make_strategy(s, game="portland")
                         for s in ("random", "seed", "random", fourth)])
        result = play_block(rules, lineup, 3, 0, 400, "hands")
        return result.outcomes[0].play.plays

    dummy, plain = PRESETS["portland.dummy"], PRESETS["portland"]
    assert (tables(dummy, "seed") == tables(dummy, "random")).all()
    assert (tables(plain, "seed") != tables(plain, "random")).any()
    assert sim.options.load_rules("portland.dummy").dummy
