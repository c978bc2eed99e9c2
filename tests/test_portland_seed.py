"""The Portland `seed` player: its habits are parameters that change its play, and it beats
random play on the same deals."""

from __future__ import annotations

import whistlab
from sim.lineup import Lineup
from sim.options import PRESETS
from sim.portland.game import play_block
from strategies import make_strategy

RULES = PRESETS["portland"]


def block(**params):
    lineup = Lineup([make_strategy({"name": "seed", **params}, game="portland")] * 4)
    return play_block(RULES, lineup, 11, 0, 300, "hands")


def walk(result):
    """Yield, for every card played: hand index, trick, position, seat, the seat's cards before
    the play, the led suit (-1 leading), the trump suit and the card's slot."""
    out = result.outcomes[0]
    for i in range(result.hands.shape[0]):
        held = [int(h) for h in result.hands[i]]
        leader = (int(result.dealer[i]) + 1) % 4
        for t in range(13):
            led = -1
            for j in range(4):
                seat = (leader + j) % 4
                slot = int(out.play.plays[i, 4 * t + j])
                yield i, t, j, seat, held[seat], led, int(out.trump[i]), slot
                if j == 0:
                    led = slot // 13
                held[seat] &= ~(1 << slot)
            leader = int(out.play.winners[i, t])


def suit_cards(hand, suit):
    return (hand >> (13 * suit)) & 0x1FFF


def test_no_ruffing_when_ruff_is_off():
    ruffs = {True: 0, False: 0}
    for ruff in (True, False):
        for _, _, _, _, hand, led, trump, slot in walk(block(ruff=ruff)):
            void = led >= 0 and suit_cards(hand, led) == 0
            side_cards = any(suit_cards(hand, s) for s in range(4) if s != trump)
            if void and side_cards and slot // 13 == trump:
                ruffs[ruff] += 1
    assert ruffs[False] == 0 and ruffs[True] > 50


def test_drawing_trumps_is_a_parameter():
    def trump_leads(**params):
        return sum(1 for _, t, j, _, _, _, trump, slot in walk(block(**params))
                   if j == 0 and t < 4 and slot // 13 == trump)

    assert trump_leads(draw_trumps_at=99.0) < trump_leads(draw_trumps_at=3.0)


def test_seed_beats_random_on_the_same_deals():
    hands = whistlab.simulate(rules="portland", strategy=["seed", "random", "seed", "random"],
                         hands=2000, seed=3)
    swapped = whistlab.simulate(rules="portland", strategy=["random", "seed", "random", "seed"],
                           hands=2000, seed=3)
    # the same deals both ways round: seed's side scores more in both seatings
    assert hands["points_0"].mean() > hands["points_1"].mean() + 0.5
    assert swapped["points_1"].mean() > swapped["points_0"].mean() + 0.5
    assert (hands["hand_0"] == swapped["hand_0"]).all()
