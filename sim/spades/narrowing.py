"""Narrowing a trick's legal cards (RULES.md §4.2, §4.3), the helpers of the play constraints
(`sim.spades.constraints` and the plug-ins of `sim.spades.house`): cards are uint64 bitboards
per row; a narrowing never leaves a row without a legal card."""

from __future__ import annotations

import numpy as np

from ..cards import CLUBS, at_or_below, highest_bit, lowest_bit, pick
from ..tricks import TrickState

__all__ = ["beating", "lowest_club_lead", "narrow"]


def narrow(legal, subset):
    """``subset`` of ``legal`` where it is not empty, else ``legal``."""
    subset = legal & subset
    return pick(subset != 0, subset, legal)


def beating(s: TrickState, deck):
    """The trumps of the hand that beat the highest trump in the trick (all of them when none
    was played): with two decks and ``duplicate_wins = "last"`` (RULES.md §4.7) the other copy
    of it too."""
    top = highest_bit(s.in_trick & s.trump)
    higher = s.hand & s.trump & ~at_or_below(top, deck)
    if deck.duplicates == "last":
        higher |= s.hand & top
    for group in deck.equal:  # an equal card does not beat (RULES.md §4.2)
        group = np.uint64(group)
        higher &= ~pick((top & group) != 0, group, np.uint64(0))
    return higher


def lowest_club_lead(rules, deck):
    """The play constraint of the first lead (``first_lead = "two_of_clubs" | "lowest_club"``,
    ``first_trick_clubs``, RULES.md §4.3): the first leader (who holds the lowest club dealt,
    `sim.spades.kitty.lowest_club_holder`) leads his lowest club."""
    clubs = deck.suit_masks[CLUBS]

    def part(s: TrickState):
        if s.trick_no or s.position:
            return s.legal
        return narrow(s.legal, lowest_bit(s.hand & clubs))
    return part
