"""The kitty (RULES.md §4.1 ``kitty``): who takes it, and his discard. The rule is the plug-in
`sim.spades.house.kitty`; these are the helpers it uses (``first_lead`` shares
`lowest_club_holder`) and the view of its decision.

The leftover cards of a deal (and, under ``kitty_extra_trick``, one trick's worth more) lie face
down. Under ``kitty_taker = "two_of_clubs"`` the holder of the lowest club dealt to a hand (the 2C
unless it lies in the kitty) takes it before the bidding; under ``"high_bidder"`` the highest
bidder takes it after the bidding, the earliest bidder on a tie. The taker adds it to his hand and
discards as many distinct cards face down, his choice (the ``discard_kitty`` decision); under
``kitty_extra_trick`` the discard counts as one trick won by him.
"""

from __future__ import annotations

import numpy as np

from ..cards import CLUBS, lowest_bit, popcount
from ..errors import IllegalDecision
from ..views import KittyView

__all__ = ["IllegalDiscard", "high_bidder", "kitty_view", "lowest_club_holder", "take_kitty"]

U64 = np.uint64


class IllegalDiscard(IllegalDecision):
    phase = "kitty"


def _first_from_left(key: np.ndarray, dealer: np.ndarray) -> np.ndarray:
    """int8[N]: the seat with the smallest ``key`` [N, P], the first from the dealer's left on a
    tie."""
    players = key.shape[1]
    seats = (dealer[:, None].astype(np.intp) + 1 + np.arange(players)) % players
    best = np.argmin(np.take_along_axis(key, seats, axis=1), axis=1)
    return seats[np.arange(key.shape[0]), best].astype(np.int8)


def lowest_club_holder(hands: np.ndarray, dealer: np.ndarray, deck) -> np.ndarray:
    """int8[N]: the seat holding the lowest club dealt (``kitty_taker = "two_of_clubs"``)."""
    clubs = hands & deck.suit_masks[CLUBS]
    return _first_from_left(np.where(clubs != 0, lowest_bit(clubs), ~U64(0)), dealer)


def high_bidder(bids: np.ndarray, dealer: np.ndarray) -> np.ndarray:
    """int8[N]: the highest bidder (``kitty_taker = "high_bidder"``), the earliest on a tie."""
    return _first_from_left(-bids.astype(np.int16), dealer)


def kitty_view(hands, twice, kitty, kitty_twice, taker, context) -> KittyView:
    """What the kitty's ``taker`` (int8[N]) sees when he discards: his hand (``hands`` uint64[N,
    P], ``twice`` the cards held twice) with the kitty's cards (``kitty``, ``kitty_twice``),
    how many to discard (as many as the kitty held), and ``context``, the view fields that do
    not change (bids, blind, scores, bags, rules, deck). The engine asks the taker through
    this view; a caller builds it from a position."""
    n = hands.shape[0]
    rows = np.arange(n)
    count = popcount(kitty) + popcount(kitty_twice)
    held, both = hands[rows, taker], twice[rows, taker]
    both = both | (held & kitty) | kitty_twice
    held = held | kitty
    return KittyView(rows=rows, seat=taker, hand=held, kitty=kitty, twice=both,
                     count=count.astype(np.int8), to=np.full(n, -1, np.int8), **context)


def take_kitty(hands, twice, kitty, kitty_twice, taker, context, lineup, rng):
    """The taker adds the kitty to his hand and discards as many cards. Returns the hands and
    ``twice`` after the discard (copies) and the discards (uint64[N])."""
    view = kitty_view(hands, twice, kitty, kitty_twice, taker, context)
    rows, held, both, count = view.rows, view.hand, view.twice, view.count
    discards = lineup.decide(view, "discard_kitty", rng, U64)
    bad = ((discards & ~held) != 0) | (popcount(discards) != count)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise IllegalDiscard(f"must discard {int(count[i])} distinct cards of its hand with the "
                             f"kitty, discarded "
                             f"{' '.join(context['deck'].names_of(int(discards[i]))) or 'none'}",
                             row=i, seat=int(taker[i]))
    hands, twice = hands.copy(), twice.copy()
    hands[rows, taker] = held & ~(discards & ~both)  # a card held twice keeps one copy
    twice[rows, taker] = both & ~discards
    return hands, twice, discards
