"""RULES.md §4.3 ``first_trick_lowest_club``, the whole rule: "on trick 1 everyone plays his lowest
club" (void in clubs: any non-spade; a reading: this overrides following the led suit on trick
1, as the rule names the card).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the legality: `constraint`, the play constraint slot ``first_trick_lowest_club`` of
  `sim.spades.constraints`;
- the voids trick 1 shows: `void_rule` (`sim.tricks.play_card`): a card off the led suit shows
  no void of it there, a card other than a club shows a club void.
"""

from __future__ import annotations

import numpy as np

from ...cards import CLUBS, lowest_bit, pick
from ...options import option
from ...tricks import TrickState
from ..narrowing import narrow
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "on trick 1 everyone plays his lowest club (void in clubs: any "
                "non-spade)", kind=bool)


def constraint(rules, deck):
    """Trick 1: the lowest club held, else any card but a spade (where one is held)."""
    clubs = deck.suit_masks[CLUBS]

    def part(s: TrickState):
        if s.trick_no:
            return s.legal
        own = s.hand & clubs
        return pick(own != 0, lowest_bit(own), narrow(s.hand, ~s.trump))
    return part


def void_rule(play, card):
    """uint8[N]: the suits a card of trick 1 shows its player holds none of (bit s = suit s),
    as `constraint` allows it: a club shows nothing (the lowest, whatever was led); any other
    card shows he holds no club, and a trump other than a club that he holds nothing but trumps
    (a non-trump was his to play if he held one). None after trick 1: the led suit's rule."""
    if play.trick:
        return None
    deck = play.deck
    suit = deck.suit_bit_of_bit[np.bitwise_count(card - np.uint64(1))]
    off = suit != np.uint8(1 << CLUBS)
    others = np.zeros(len(card), np.uint8)  # the suits that are not the trump suit, per row
    for s, mask in enumerate(deck.suit_masks):
        if int(mask):
            others |= np.where((mask & play.trump) == 0, np.uint8(1 << s), np.uint8(0))
    trumps = off & ((card & play.trump) != 0)
    return (np.where(off, np.uint8(1 << CLUBS), np.uint8(0))
            | np.where(trumps, others, np.uint8(0)))


RULE = HouseRule(key="first_trick_lowest_club", section="§4.3",
                 in_force=lambda r: r.first_trick_lowest_club,
                 constraint={"first_trick_lowest_club": constraint},
                 void_rule=void_rule)
