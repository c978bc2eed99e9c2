"""The public information the engine hands to strategies (sim/views.py), recomputed here from the
play so far: ``voids``, the suits each seat has shown void in, in every game and player count."""

from __future__ import annotations

import numpy as np
import pytest

from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import PRESETS
from strategies import make_strategy


def history_voids(view) -> np.ndarray:
    """uint8[n, P] from the earlier tricks alone: a card off the led suit shows a void in it."""
    n, players = view.tricks.shape
    out = np.zeros((n, players), np.uint8)
    if not view.history.size:
        return out
    suit = view.deck.suit_of_bit
    history = view.history.reshape(n, -1, players)
    seats = view.history_seats.reshape(n, -1, players)
    for i in range(n):
        for cards, who in zip(history[i], seats[i], strict=True):
            led = suit[cards[0]]
            for c, s in zip(cards[1:], who[1:], strict=True):
                if suit[c] != led:
                    out[i, s] |= 1 << led
    return out


class Checking:
    """Plays like ``random``; checks each view's ``voids``: exactly the earlier tricks' at a
    lead, only growing within a trick, and true of the acting seat's own hand."""

    def __init__(self, game):
        self.inner = make_strategy("random", game=game)
        self.leads = self.voids = 0

    def __getattr__(self, name):  # bids and declarations as `random`
        return getattr(self.inner, name)

    def play(self, view, rng):
        want = history_voids(view)
        if view.position == 0:
            assert np.array_equal(view.voids, want)
            self.leads += len(view)
        else:
            assert np.array_equal(view.voids & want, want)
        rows = np.arange(len(view))
        mine = view.voids[rows, view.seat]
        for s, mask in enumerate(view.deck.suit_masks):
            shown = (mine >> s) & 1 == 1
            assert not np.any(shown & ((view.hand & mask) != 0)), "a void seat holds the suit"
        self.voids += int(view.voids.any(axis=1).sum())
        return self.inner.play(view, rng)


@pytest.mark.parametrize("preset", ["spades.standard", "portland", "norwegian",
                                    "norwegian.three", "norwegian.classic"])
def test_voids_are_the_public_record_of_failing_to_follow(preset):
    rules = PRESETS[preset]
    player = Checking(rules.game)
    lineup = Lineup([player] * getattr(rules, "players", 4))
    GAMES[rules.game].play_block(rules, lineup, 11, 0, 60, "hands")
    tricks = rules.tricks_per_hand
    assert player.leads == 60 * tricks
    assert player.voids > 0  # voids do occur, so the checks above bite
