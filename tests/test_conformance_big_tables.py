"""RULES.md §4.7 six and eight players (every deck and team shape, two decks, ``duplicate_wins``,
``cancel_spades``), §4.1 the kitty and §4.2 ``jokes_win`` in the engine against the scalar
reference (tests/reference.py), card by card, and what both refuse.

The variants and these tables' presets are the ``big_tables`` table of tests/harness/variants.py:
tests/test_conformance.py's ``test_engine_equals_reference`` plays them by ``random`` and ``seed``
players as independent hands and whole games, writes the block as section 5 records (two-deck
hands name a card twice; a kitty's taker, cards and discard; dead tricks) and replays every record
by ``reference.replay_hand``; at every bid the engine offered, its mask (every bit) and its blind
nil question are the reference's ``legal_bids``, which runs 0..the tricks of the hand
(``harness.spades.check_offered_bids``: issue 17, six players in three pairs with 8 or 9 cards
were offered bids up to 13, and with 17 or 18 only up to 13). Every deck plays in every team
shape. Here: the cards the engine offers at every position are the reference's, and the engine
and the reference load exactly the same combinations of the new keys.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from harness import play_lineup
from harness.spades import ref, ref_rules
from harness.variants import BIG_PRESETS, CANCEL, TABLES
from sim.games import game_of
from sim.lineup import Lineup
from strategies import make_strategy
from test_conformance_player_counts import refusal, seat_plays

TABLE = TABLES["big_tables"]
VARIANTS = TABLE.variants  # name -> the rules value
SEED = TABLE.seed


def engine_rules(name: str):
    return VARIANTS[name]


def test_every_other_preset_is_here():
    assert {"spades.six", "spades.cancel", "spades.cancel8", "spades.jokers",
            "spades.cutthroat", "spades.three", "spades.five"} <= set(BIG_PRESETS)
    assert set(BIG_PRESETS) <= set(VARIANTS)


# --- the same combinations refused ---------------------------------------------------------------
KEYS = {
    "players": [6, 8], "deck": ["double_minus_2c", "double_kitty", "no_twos"],
    "teams": ["two_threes", "solo"], "duplicate_wins": ["last"], "cancel_spades": [True],
    "kitty": [True], "kitty_taker": ["high_bidder"], "kitty_extra_trick": [True],
    "jokers": [2, 4], "trump_order": ["jokes_win", "jokers_high"], "jokes_tie": ["suit"],
    "dix": [True], "double_nil": [True], "partnerships": [False],
}


def _combinations():
    keys = sorted(KEYS)
    for a, b in itertools.combinations(keys, 2):
        for va, vb in itertools.product(KEYS[a], KEYS[b]):
            yield {a: va, b: vb}
    for players in (6, 8):
        yield {"players": players, **CANCEL, "max_hands": players}
        yield {"players": players, **CANCEL, "max_hands": players, "kitty": True}


def test_the_same_combinations_are_refused():
    differ = []
    for over in _combinations():
        engine, theirs = refusal(over)
        if (engine is None) != (theirs is None):  # which key a refusal names first may differ
            differ.append(f"{over}: engine {engine}, reference {theirs}")
    assert not differ, f"{len(differ)} differ:\n" + "\n".join(differ[:10])


# --- every card the engine offers is the reference's --------------------------------------------


@dataclasses.dataclass(eq=False)
class Recording:
    """Plays as ``inner`` and keeps, at every card, the seats to play and the engine's legal
    cards (``view.seat``, ``view.legal``)."""

    inner: object
    seats: list = dataclasses.field(default_factory=list)
    legal: list = dataclasses.field(default_factory=list)

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def play(self, view, rng):
        self.seats.append(view.seat.copy())
        self.legal.append(view.legal.copy())
        return self.inner.play(view, rng)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_legal_cards_equal_the_reference(name):
    rules = engine_rules(name)
    rd = ref_rules(rules)
    player = Recording(make_strategy("random"))
    n = 30
    run = play_lineup(rules, Lineup([player] * rules.players), "hands", n, SEED + 1)
    deck = game_of(rules).deck_for(rules)
    bad, k = [], 0
    for i, rec in enumerate(run.records):  # rows: the block's
        for k, (t, seat, hand, trick, broken) in enumerate(seat_plays(rec, rd)):
            theirs = sorted(set(ref.legal_plays(hand, trick, broken, rd, trick_no=t)))
            mine = sorted(deck.names_of(player.legal[k][i]))
            assert player.seats[k][i] == seat, (i, t)
            if mine != theirs:
                bad.append(f"hand {i} trick {t}: hand {sorted(hand)} trick {trick} broken "
                           f"{broken}\n  engine    {mine}\n  reference {theirs}")
    assert k + 1 == rules.players * rules.cards_each
    assert not bad, f"{name}: {len(bad)} positions differ, e.g.\n" + "\n".join(bad[:3])
