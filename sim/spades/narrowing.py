"""Narrowing a trick's legal cards (RULES.md §4.2, §4.3), the helpers of the play constraints
(`sim.spades.constraints` and the plug-ins of `sim.spades.house`): cards are uint64 bitboards
per row; a narrowing never leaves a row without a legal card."""

from __future__ import annotations

import numpy as np

from ..cards import at_or_below, highest_bit, pick
from ..tricks import TrickState

__all__ = ["beating", "narrow"]


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
