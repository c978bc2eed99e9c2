"""RULES.md §4.4 ``no_trump_bids``: a player holding at least one spade may bid ``n`` no trump; he
may not play a spade when void in a non-spade led suit (he may lead spades or follow spades).
Made: +20 per bid trick; set: -20 per bid trick. Reading: the no-trump bid is part of the side's
contract; its bid tricks count 20 instead of 10, made or set; a no-trump player holding only
spades plays one."""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import standard_deck
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.scoring import score_hands
from sim.tricks import IllegalPlay
from strategies import make_strategy

DECK = standard_deck()
SPADES = int(DECK.suit_masks[3])
RULES = load_rules({"no_trump_bids": True})


def suit(slot: int) -> int:
    return slot // 13  # bit 13 * suit + rank; spades = 3


@pytest.mark.parametrize("strategy", ["random", "seed"])
def test_a_no_trump_player_never_trumps_while_holding_another_card(strategy):
    result = GAMES["spades"].play_block(RULES, Lineup([make_strategy(strategy)] * 4), 5, 0,
                                        1500, "hands")
    o = result.outcomes[0]
    checked = 0
    for i in range(len(result.dealer)):
        held = [int(h) for h in o.held[i]]
        leader = (int(result.dealer[i]) + 1) % 4
        plays = o.play.plays[i].reshape(13, 4)
        for t in range(13):
            led = suit(int(plays[t, 0]))
            for j, slot in enumerate(plays[t].tolist()):
                seat = (leader + j) % 4
                hand = held[seat]
                void = not any(hand >> b & 1 for b in range(13 * led, 13 * led + 13))
                if (j and o.bidding.flags["no_trump"][i, seat] and void and led != 3
                        and hand & ~SPADES):
                    assert suit(slot) != 3, (i, t, seat)
                    checked += 1
                held[seat] &= ~(1 << slot)
            leader = int(o.play.winners[i, t])
    assert checked > 100
    # bids of no trump are made only by players holding a spade, and with a bid of 1 or more
    nt = o.bidding.flags["no_trump"]
    assert not (nt & (o.bidding.bids < 1)).any()
    spades_held = np.array([[int(h) & SPADES != 0 for h in row] for row in o.held])
    assert not (nt & ~spades_held).any()


def test_no_trump_bid_tricks_count_twenty():
    bids = np.array([[4, 3, 2, 3], [4, 3, 2, 3]], np.int8)
    no_trump = np.array([[True, False, False, False]] * 2)
    tricks = np.array([[4, 3, 3, 3], [2, 4, 3, 4]], np.int8)
    s = score_hands(bids, np.zeros((2, 4), bool), tricks, np.zeros((2, 2), np.int32), RULES,
                    flags={"no_trump": no_trump})
    # made: side 0 bids 4 NT + 2 = 6, takes 7: 20*4 + 10*2 = 100, 1 overtrick; side 1: 6 of 6
    # set: side 0 takes 5 of 6: -(20*4 + 10*2) = -100; side 1 takes 8 of 6: 60 + 2 bags
    assert s.contract.tolist() == [[100, 60], [-100, 60]]
    assert s.overtricks.tolist() == [[1, 0], [0, 2]]


class Trumper:
    """Bids 3 no trump, then plays a spade whenever void in a led side suit while holding other
    cards — the one thing a no-trump bidder may not do."""

    def __getattr__(self, name):
        return getattr(make_strategy("random"), name)

    def bid(self, view, rng):
        return np.full(len(view), 3, np.int8)

    def no_trump(self, view, rng):
        return np.ones(len(view), bool)

    def play(self, view, rng):
        spades = np.uint64(SPADES)
        spade = view.hand & spades
        want = ((view.position > 0) & ((view.hand & view.led) == 0) & (spade != 0)
                & ((view.led & spades) == 0) & ((view.hand & ~spades) != 0))
        lowest = view.legal & ~(view.legal - np.uint64(1))
        return np.where(want, spade & ~(spade - np.uint64(1)), lowest)


def test_the_engine_refuses_a_trump_by_a_no_trump_player():
    rules = load_rules({"no_trump_bids": True, "spades_broken": False})
    with pytest.raises(IllegalPlay, match="may not trump"):
        GAMES["spades"].play_block(rules, Lineup([Trumper()] * 4), 1, 0, 200, "hands")


class Watching:
    """Plays like ``seed``; keeps what every bid view shows of the no-trump bids so far."""

    def __init__(self):
        self.inner = make_strategy("seed")
        self.seen = []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def bid(self, view, rng):
        self.seen.append((view.rows.copy(), view.seat.copy(), view.bids.copy(),
                          view.no_trump.copy()))
        return self.inner.bid(view, rng)


def test_the_bid_views_show_the_no_trump_bids_made_before_the_turn():
    """A "no trump" bid is public as the bid is (the play's views show it): every later bidder's
    view shows it, and a seat yet to bid shows none."""
    player = Watching()
    result = GAMES["spades"].play_block(RULES, Lineup([player] * 4), 7, 0, 300, "hands")
    final = result.outcomes[0].bidding.flags["no_trump"]
    shown = 0
    for rows, seat, bids, no_trump in player.seen:
        before = bids >= 0  # the seats that bid before this turn
        assert np.array_equal(no_trump, final[rows] & before)
        assert not no_trump[np.arange(rows.size), seat].any()
        shown += int(no_trump.sum())
    assert shown > 0
