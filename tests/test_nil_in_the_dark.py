"""RULES.md §4.4 ``nil_in_the_dark``: the nil bidder shuffles his hand face down and at each turn
plays the first card from the top of that pile that is legal; scored as blind nil. Blind nil in
the dark (without looking at all) is scored as Big Mo (``mo_b``: 250)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from roundtrip import roundtrip
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.scoring import score_hands
from strategies import make_strategy
from tolerance import check_distribution

RULES = load_rules({"nil_in_the_dark": True})


class DarkNil:
    """Bids nil and plays it in the dark; its own card choice is the lowest legal card, which
    the engine must override."""

    def __getattr__(self, name):
        return getattr(make_strategy("random"), name)

    def blind_nil(self, view, rng):
        return np.zeros(len(view), bool)

    def bid(self, view, rng):
        return np.zeros(len(view), np.int8)

    def in_the_dark(self, view, rng):
        return np.ones(len(view), bool)

    def play(self, view, rng):
        return view.legal & ~(view.legal - np.uint64(1))


def play_dark(n=6000):
    rules = load_rules({"nil_in_the_dark": True, "blind_nil": False})
    result = GAMES["spades"].play_block(rules, Lineup([DarkNil()] * 4), 3, 0, n, "hands")
    return result


def test_the_engine_plays_for_a_dark_seat():
    """The dark seat's own choice (always its lowest legal card) is overridden: following suit
    with two cards of the led suit, it plays the lower one only about half the time."""
    result = play_dark(2000)
    o = result.outcomes[0]
    lower = total = 0
    for i in range(len(result.dealer)):
        held = [int(h) for h in o.held[i]]
        leader = (int(result.dealer[i]) + 1) % 4
        plays = o.play.plays[i].reshape(13, 4)
        for t in range(13):
            led = int(plays[t, 0]) // 13
            for j, slot in enumerate(plays[t].tolist()):
                seat = (leader + j) % 4
                same = [b for b in range(13 * led, 13 * led + 13) if held[seat] >> b & 1]
                if j and len(same) == 2:
                    total += 1
                    lower += slot == same[0]
                held[seat] &= ~(1 << slot)
            leader = int(o.play.winners[i, t])
    assert total > 1000
    assert abs(lower / total - 0.5) < 5 * (0.25 / total) ** 0.5


def test_the_first_lead_in_the_dark_is_uniform_over_the_legal_leads():
    """Leading trick 1 in the dark, each legal lead is equally likely: the led card's position
    among the leader's legal leads (sorted by slot), relative to their number k, is uniform; we
    test hands with k = 9 non-spades (9 categories, 1/9 each)."""
    result = play_dark(40000)
    o = result.outcomes[0]
    counts, n = Counter(), 0
    spades = ((1 << 13) - 1) << 39
    for i in np.flatnonzero(np.ones(len(result.dealer), bool)):
        leader = (int(result.dealer[i]) + 1) % 4
        hand = int(o.held[i, leader])
        legal = [b for b in range(52) if hand >> b & 1 and not (1 << b) & spades]
        if len(legal) != 9:
            continue
        counts[legal.index(int(o.play.plays[i, 0]))] += 1
        n += 1
    assert n > 2000
    from fractions import Fraction

    check_distribution(counts, {k: Fraction(1, 9) for k in range(9)}, n, "dark first lead")


def test_scored_as_blind_nil_and_a_blind_one_as_big_mo():
    bids = np.array([[0, 3, 4, 3]] * 4, np.int8)
    blind = np.array([[False] * 4, [False] * 4, [True, False, False, False],
                      [True, False, False, False]])
    dark = np.array([[True, False, False, False]] * 4)
    tricks = np.array([[0, 4, 5, 4], [1, 4, 4, 4], [0, 4, 5, 4], [2, 4, 3, 4]], np.int8)
    s = score_hands(bids, blind, tricks, np.zeros((4, 2), np.int32), RULES, flags={"dark": dark})
    # dark nil made +200 (blind_nil_bonus), failed -200; blind in the dark made +250, failed -250
    assert s.nil[:, 0].tolist() == [200, -200, 250, -250]


def test_records_replay_dark_nils(tmp_path):
    rt = roundtrip(tmp_path, "nil_in_the_dark = true\nblind_nil_min_deficit = 0\n", games=6,
                   block_size=3)
    assert any("dark" in r for r in rt.records)
    assert [r["points"] for r in rt.full] == rt.points == rt.sheet_points()
