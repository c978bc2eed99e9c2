"""The Norwegian whist `expert` (strategies/norwegian_expert.py): each skill changes the decision
on a hand-made position (the regression declaration, the thresholds by scoring mode, spoiling
under "declarer" scoring, card-counting discards by the cards played and by a shown void), and
it plays legally under every preset."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import strategies.norwegian_expert as ne
from sim.cards import popcount
from sim.games import game_of
from sim.lineup import Lineup
from sim.norwegian.auction import GRAND, MISERE, NULLO, PASS
from sim.options import PRESETS, load_rules
from strategies import make_strategy
from strategies.norwegian_expert import NorwegianExpert
from test_norwegian_seed import CLASSIC, THREE, TWO, ZERO_SUM, cards, declares, play_view, plays
from whistlab.api import simulate

DECLARER = PRESETS["norwegian.declarer"]
THREE_ZERO_SUM = load_rules({"preset": "norwegian.three", "scoring": "zero_sum"})


def expert(**params) -> NorwegianExpert:
    return make_strategy({"name": "expert", **params}, game="norwegian")


def seed():
    return make_strategy("seed", game="norwegian")


def test_make_strategy_gives_the_norwegian_expert():
    e = make_strategy("expert", game="norwegian")
    assert type(e) is NorwegianExpert and e == NorwegianExpert()
    off = expert(count_discard=False)
    assert make_strategy(off.to_dict(), game="norwegian") == off
    for f in dataclasses.fields(NorwegianExpert):
        assert type(f.default) in (bool, int, float), f.name
    assert type(make_strategy("expert")).__name__ == "ExpertStrategy"  # Spades' own


# -------------------------------------------------------------------------------- declaring
def test_two_players_the_regression_value_counts_voids_toward_misere():
    # six aces, kings and queens but two void suits: the seed's value 5.25 says grand; the
    # regression value (40.9 < 43.8: each void -3.39, shortness lets one discard) misère
    voids = "AS KS QS 2S 3S 4S AH KH 5H 6H 7H 8H 9H"
    value = expert().model_value(np.array([cards(voids)], np.uint64))[0]
    assert value == pytest.approx(40.86, abs=0.01)
    assert declares(seed(), TWO, voids) == GRAND
    assert declares(expert(), TWO, voids) == MISERE
    assert declares(expert(void_value=0.0), TWO, voids) == GRAND
    assert declares(expert(declare_model=False), TWO, voids) == GRAND
    # four aces and kings, a balanced hand: 45.1, grand as with the seed
    assert declares(expert(), TWO, "AS KS 2S 3S AH 4H 9H KD 5D TD 6C 7C 8C") == GRAND
    assert declares(expert(), TWO, "AS 2S 7S 8S KH 3H 9H 4D 9D TD 5C 6C JC") == MISERE


def test_three_players_pass_under_zero_sum_only():
    strong = "AS KS 2S 3S 7S AH KH 4H 8H AD 5D 9D TD 6C 7C 8C 9C"  # the seed's value 6.5
    assert declares(seed(), THREE_ZERO_SUM, strong) == GRAND
    assert declares(expert(), THREE_ZERO_SUM, strong) == PASS
    assert declares(expert(zero_sum_grand_at_three=6.0), THREE_ZERO_SUM, strong) == GRAND
    assert declares(expert(), THREE, strong) == GRAND  # "both": the seed's threshold


def test_classic_nullo_up_to_four():
    four = "AS KS 2S 3S AH 4H 9H KD 5D TD 6C 7C 8C"  # 4 aces and kings: the value 4.0
    assert declares(seed(), CLASSIC, four) == PASS
    assert declares(expert(), CLASSIC, four) == NULLO
    assert declares(expert(nullo_at=3.0), CLASSIC, four) == PASS


# ------------------------------------------------------------------------------------ play
def test_declarer_scoring_opponents_spoil_the_contract():
    # the declarer (seat 1) chose grand; the dealer (seat 0) follows last: only the declarer
    # scores, so the dealer takes the trick to spoil him rather than duck as a misère player
    def view(rules):
        return play_view(rules, 0, "TS 2S 5H", trick=[(1, "9S")], declarer=1, grand_player=1)

    assert plays(seed(), view(DECLARER)) == "2S"
    assert plays(expert(), view(DECLARER)) == "TS"
    assert plays(expert(spoil_declarer=False), view(DECLARER)) == "2S"
    assert plays(expert(), view(ZERO_SUM)) == "TS"
    assert plays(expert(), view(TWO)) == "2S"  # "both": his own table


def test_misere_throws_the_card_the_played_cards_leave_most_dangerous():
    # seat 1 (misère) cannot follow spades. The king and queen of diamonds are gone, so only
    # the ace outranks the jack; the ace and king of hearts are both still out over the queen:
    # the jack is likelier to win a trick later. The seed throws the highest rank.
    earlier = [[(0, "KD"), (1, "2D")], [(0, "QD"), (1, "3D")]]
    view = play_view(TWO, 1, "QH JD 2C", trick=[(0, "9S")], earlier=earlier)
    assert plays(seed(), view) == "QH"
    assert plays(expert(), view) == "JD"
    assert plays(expert(count_discard=False), view) == "QH"
    # with no diamonds played the queen of hearts is the higher card and as dangerous
    assert plays(expert(), play_view(TWO, 1, "QH JD 2C", trick=[(0, "9S")])) == "QH"


def test_nullo_discard_reads_one_opponents_void():
    # classic nullo, seat 3 cannot follow spades; opponents are seats 0 and 2. Seat 0 showing
    # out of hearts leaves only seat 2 to hold a heart over the queen: she becomes the card
    # likeliest to win and is thrown first (the seed needs every opponent void to see it).
    def view(first, second):
        earlier = [[(1, "2H"), (2, "3H"), (3, "4H"), (0, first)],
                   [(1, "6H"), (2, "7H"), (3, "8H"), (0, second)]]
        return play_view(CLASSIC, 3, "QH 9D 5C", trick=[(0, "5S"), (1, "6S"), (2, "7S")],
                         earlier=earlier, contract=NULLO, declarer=-1, grand_player=-1)

    followed, void = view("5H", "9H"), view("2C", "3C")
    assert plays(expert(), followed) == "9D"
    assert plays(expert(), void) == "QH"
    assert plays(seed(), followed) == plays(seed(), void) == "QH"


@pytest.mark.parametrize("rules", ["norwegian", "norwegian.declarer", "norwegian.zero_sum",
                                   "norwegian.three", "norwegian.double", "norwegian.classic",
                                   {"preset": "norwegian.three", "scoring": "zero_sum"},
                                   {"preset": "norwegian.three", "scoring": "declarer"}])
def test_legal_play_under_every_preset(rules):
    players = load_rules(rules).players
    # the engine raises on an illegal card or declaration; expert against seed at every seat
    table = simulate(rules, ["expert"] + ["seed"] * (players - 1), hands=600)
    assert table.height == 600
    table = simulate(rules, "expert", hands=600)
    assert table.height == 600


# ------------------------------------------------------------ lead_odds: the same numbers
def _lead_odds_written_out(view, seat, wants, ally):
    """`NorwegianExpert.lead_odds` as first written (issue 9): float64[n, 52] over every row and
    slot, ``miss ** above`` per opponent. The faster one must give these very numbers."""
    unseen = view.unseen
    share = 1.0 / np.maximum(popcount(unseen), 1).astype(np.float64)
    above = popcount(unseen[:, None] & ne._ABOVE[None, :])
    below = popcount(unseen[:, None] & ne._BELOW[None, :])
    odds = np.ones(above.shape)
    left = view.rules.cards_each - view.trick_no
    for q in range(view.tricks.shape[1]):
        qs = np.full_like(seat, q)
        opp = (qs != seat) & (qs != ally)
        if not opp.any():
            continue
        miss = (1.0 - np.clip((left - view.has_played(qs)) * share, 0, 1))[:, None]
        over = 1.0 - miss ** above
        over = np.where(wants(qs)[:, None], over, over * miss ** below)
        void = ((view.voids[:, q, None] >> ne._SUIT[None, :].astype(np.uint8)) & 1) == 1
        odds *= 1.0 - over * (opp[:, None] & ~void)
    return odds


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool((a.view(np.uint64) == b.view(np.uint64)).all())


def test_miss_powers_are_the_powers_written_out():
    # every (cards left, cards unseen) pair and every count 0..12, laid out as lead_odds had them
    left, unseen = (g.ravel() for g in np.meshgrid(np.arange(53), np.arange(53)))
    unseen = unseen.astype(np.uint8)  # a popcount
    share = 1.0 / np.maximum(unseen, 1).astype(np.float64)
    miss = (1.0 - np.clip(left * share, 0, 1))[:, None]
    counts = np.random.default_rng(21).integers(0, 13, size=(left.size, 52)).astype(np.uint8)
    counts[:, :13] = np.arange(13)
    assert _same_bits(ne._miss_powers(left, unseen, counts), miss ** counts)


class _CheckedExpert(NorwegianExpert):
    """The expert, checking on every card it plays that `lead_odds` (every row, every slot)
    equals `_lead_odds_written_out` bit for bit."""

    def play(self, view, rng):
        seat = view.seat.astype(np.int64)
        wants, ally_of = self._aims(view, view.tricks.shape[1])
        rows = np.arange(len(view))
        every_slot = np.broadcast_to(np.arange(52), (len(view), 52))
        got = self.lead_odds(view, seat, wants, ally_of(seat), rows, every_slot)
        assert _same_bits(got, _lead_odds_written_out(view, seat, wants, ally_of(seat)))
        return super().play(view, rng)


@pytest.mark.parametrize("rules", ["norwegian", "norwegian.zero_sum", "norwegian.three",
                                   "norwegian.classic",
                                   {"preset": "norwegian.three", "scoring": "declarer"}])
def test_lead_odds_are_the_formula_written_out(rules):
    rules = load_rules(rules)
    lineup = Lineup([_CheckedExpert()] * rules.players)
    result = game_of(rules).play_block(rules, lineup, 2026, 1, 400, "hands")
    assert result.game.shape[0] == 400
