"""The Spades expert at the tables without partners (issue 21 item 5, RULES.md §4.7): nil by the
hand's own safety (`strategies.expert.nil_danger`), the nil's own play, and the duplicate
matches and self-play nil figures that justify them (bench/table_matches.py), each on a fixed
seed and sized to hold by many standard errors."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sim.options import PRESETS, load_rules
from sim.spades.hand import deck_for
from strategies import make_strategy
from strategies.expert import nil_danger
from test_seed_strategy import DECK, RNG, bid_view, mask, play
from whistlab.api import simulate
from whistlab.tune import duplicate_points

EXPERT, SEED = make_strategy("expert"), make_strategy("seed")
CUTTHROAT = PRESETS["spades.cutthroat"]


def danger(cards: str, opponents: int) -> float:
    return float(nil_danger(np.array([mask(cards)], np.uint64), DECK, opponents)[0])


def test_nil_danger_counts_the_others_cards_below_each_card_held():
    """RULES.md §4.7 without partners: for each card, the cards of its suit below it the others
    may hold, in rounds (a card from each opponent), less the own cards below it."""
    assert danger("2C 3C 4C", 3) == 0.0  # nothing below the 2; the 3 and 4 go after it
    assert danger("KD", 3) == pytest.approx(11 / 3)  # eleven diamonds below, three opponents
    assert danger("KD", 4) == pytest.approx(11 / 4)  # ... four
    assert danger("2H 5H", 3) == 0.0  # 5H: 3H 4H below (2/3), the 2 first (-1)
    assert danger("2H 9H", 3) == pytest.approx(6 / 3 - 1)  # 9H: six below, the 2 first
    assert danger("AS KS", 3) == -1.0  # spades are not counted (their own limits), no side suit
    assert danger("2C 3C 4C KD AS", 3) == pytest.approx(11 / 3)  # the hand's largest


SAFE = "2C 3C 4C 2D 3D 5D 2H 3H 4H 6H 2S 3S 7C"  # low in every suit, two low spades
UNSAFE = "2C 3C 4C 2D KD 5C 2H 3H 4H 6H 2S 3S 7C"  # KD: ten diamonds below it, the 2 first


def test_bids_nil_without_a_partner_only_with_a_safe_hand():
    safe, unsafe = bid_view(SAFE, rules=CUTTHROAT), bid_view(UNSAFE, rules=CUTTHROAT)
    assert nil_danger(safe.hand, DECK, 3)[0] <= EXPERT.nil_danger_four
    assert nil_danger(unsafe.hand, DECK, 3)[0] > EXPERT.nil_danger_four
    assert EXPERT.bid(safe, RNG)[0] == 0
    assert EXPERT.bid(unsafe, RNG)[0] > 0
    off = dataclasses.replace(EXPERT, solo_nil=False)  # the tuned estimate decides, as at four
    assert off.bid(safe, RNG)[0] == EXPERT.bid(bid_view(SAFE), RNG)[0]


def test_four_players_in_partnerships_bid_as_before():
    """The safety rule is for tables without partners: with partners the tuned estimate."""
    for hand in (SAFE, UNSAFE):
        view = bid_view(hand)
        assert EXPERT.bid(view, RNG)[0] == dataclasses.replace(EXPERT, solo_nil=False).bid(
            view, RNG)[0]


def test_a_nil_without_a_partner_plays_low_when_every_card_wins():
    """Seat 1 bid nil, second to play to the 9H with KH QH: each heart wins for now, the lowest
    leaves the two still to play the chance to overtake it (the seed plays its highest)."""
    trick = [(0, "9H")]
    kw = dict(bids=(3, 0, 3, 3), rules=CUTTHROAT)
    assert play(1, "KH QH 2C", trick, strategy=EXPERT, **kw) == ["QH"]
    assert play(1, "KH QH 2C", trick, strategy=SEED, **kw) == ["KH"]
    # last to play the trick is his whichever card: the highest, as the seed
    last = [(2, "9H"), (3, "4H"), (0, "5H")]
    assert play(1, "KH QH 2C", last, strategy=EXPERT, **kw) == ["KH"]


def _nils(rules: str, strategy: str, hands: int, seed: int) -> tuple[int, int]:
    """(nil bids, nils made) in self-play of ``hands`` independent hands."""
    players = PRESETS[rules].players
    table = simulate(rules, strategy, hands=hands, seed=seed)
    bids = np.stack([table[f"bid_{s}"].to_numpy() for s in range(players)])
    tricks = np.stack([table[f"tricks_{s}"].to_numpy() for s in range(players)])
    return int((bids == 0).sum()), int(((bids == 0) & (tricks == 0)).sum())


def _wilson(made: int, bids: int, z: float = 3.0) -> tuple[float, float]:
    p = made / bids
    centre = (p + z * z / (2 * bids)) / (1 + z * z / bids)
    half = z * np.sqrt(p * (1 - p) / bids + z * z / (4 * bids * bids)) / (1 + z * z / bids)
    return centre - half, centre + half


@pytest.mark.parametrize("rules", ["spades.three", "spades.cutthroat"])
def test_nil_success_in_self_play_at_least_the_seeds(rules):
    """Issue 21: the expert made 3 of 78 nils at three players and 21% at cutthroat, the seed
    about a third and two thirds. Now at least the seed's share, the two intervals (three
    standard errors each) apart: on these 40,000 hands at three 47% of 717 nils against 33% of
    7,561 (intervals 41-53% and 32-35%), at cutthroat 72% of 3,809 against 67% of 19,303
    (70-74% and 66-68%)."""
    expert, seed = _nils(rules, "expert", 40_000, 11), _nils(rules, "seed", 40_000, 11)
    assert expert[0] >= 500
    assert _wilson(expert[1], expert[0])[0] > _wilson(seed[1], seed[0])[1]


@pytest.mark.parametrize("rules, deals", [
    ("spades.three", 4_000), ("spades.cutthroat", 4_000),
    ({"preset": "spades.five", "fledu": True}, 2_000),
    pytest.param("spades.five", 20_000, marks=pytest.mark.slow),
    pytest.param("spades.cancel8", 10_000, marks=pytest.mark.slow),
    pytest.param("spades.six", 10_000, marks=pytest.mark.slow),
], ids=["three", "cutthroat", "five-fledu", "five", "cancel8", "six"])
def test_beats_the_seed_at_the_table(rules, deals):
    """The expert alone against seeds at every other seat, each seat in turn on the same deals
    (bench/table_matches.py's "one A"): points per hand above zero by five standard errors (the
    margins: three +5, cutthroat +7, five under fledu +30, five +1, cancel eight +3, six +6)."""
    d = duplicate_points(load_rules(rules), {"name": "expert"}, {"name": "seed"}, seed=5,
                         block=0, hands=deals)
    assert d.mean() > 5 * d.std(ddof=1) / np.sqrt(d.size)


def test_the_seed_bids_no_looser_nil_without_partners_under_fledu():
    """RULES.md §4.4 fledu at five players: every ordinary bid is 4 or more. The seed no longer
    loosens its nil there (``forced_nil_without_partners``): a hand of about two expected
    tricks (2.75 at four players, scaled by 0.75) bids 4, where it bid nil."""
    five = load_rules({"preset": "spades.five", "fledu": True})
    deck = deck_for(five)
    hand = np.array([deck.mask_of("AH KH 4H AD 7D 3D 9S 4S 8C 5C".split())], np.uint64)
    view = dataclasses.replace(bid_view("2C", seat=1, bids=(-1,) * 5, rules=five), deck=deck,
                               hand=hand)
    assert SEED.estimate(hand, deck)[0] * SEED.scale_five == pytest.approx(2.0625)
    assert SEED.bid(view, RNG)[0] == 4
    assert dataclasses.replace(SEED, forced_nil_without_partners=True).bid(view, RNG)[0] == 0
