"""Trick play for a batch of hands in lockstep (RULES.md §0): shared by every game.

All hands of the batch play trick ``t``, position ``j`` at the same time; only *who* sits at position
``j`` differs per hand. Game rules enter as data — the trump suit's bits per hand (0 = no trump) —
and as one function that restricts the leader's choice (spades broken, RULES.md §3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .cards import SUITS, Deck, bit_index, highest_bit, popcount
from .errors import UserError
from .views import PlayView

__all__ = ["IllegalPlay", "TrickResult", "play_tricks"]

U64 = np.uint64


class IllegalPlay(UserError):
    """A strategy or a record chose a card the rules forbid. ``row`` is the hand in the batch."""

    def __init__(self, message: str, *, row: int, trick: int, seat: int, card: str):
        self.row, self.trick, self.seat, self.card = row, trick, seat, card
        super().__init__(f"trick {trick}, seat {seat}: {card} {message}")


@dataclass(frozen=True, eq=False)
class TrickResult:
    """tricks: int8[N, P] tricks won per seat; plays: int8[N, T*P] slot of every card in order of
    play (trick by trick, leader first); winners: int8[N, T] the winner of each trick."""

    tricks: np.ndarray
    plays: np.ndarray
    winners: np.ndarray


def play_tricks(hands: np.ndarray, leader: np.ndarray, trump: np.ndarray, deck: Deck,
                lead_rule: Callable[[np.ndarray, np.ndarray], np.ndarray], lineup, rng,
                context: dict) -> TrickResult:
    """Play out every trick of a batch of hands.

    hands: uint64[N, P] (not modified); leader: int8[N] first leader; trump: uint64[N] trump bits;
    lead_rule(hand, trumped) -> legal leads, with ``trumped: bool[N]`` true once a trump was played
    to an earlier trick; context: the view fields that do not change during play (bids, blind,
    scores, bags, rules).
    """
    n, players = hands.shape
    n_tricks = int(popcount(hands[:1, 0])[0]) if n else 0
    hands = hands.copy()
    flat = hands.reshape(-1)  # flat[P*i + seat] is hands[i, seat]
    base = np.arange(n, dtype=np.intp) * players
    rows = np.arange(n)
    suit_of_bit = deck.suit_of_bit
    tricks = np.zeros((n, players), dtype=np.int8)
    plays = np.zeros((n, n_tricks * players), dtype=np.int8)
    winners = np.zeros((n, n_tricks), dtype=np.int8)
    played = np.zeros(n, dtype=U64)
    trumped = np.zeros(n, dtype=bool)
    leader = leader.astype(np.int8)
    for t in range(n_tricks):
        trick = np.zeros((n, players), dtype=U64)
        trick_flat = trick.reshape(-1)
        led = np.zeros(n, dtype=U64)
        in_trick = np.zeros(n, dtype=U64)
        for j in range(players):
            seat = (leader + j) % players
            idx = base + seat
            hand = flat[idx]
            if j == 0:
                legal = lead_rule(hand, trumped)
            else:
                follow = hand & led
                legal = np.where(follow != 0, follow, hand)
            view = PlayView(rows=rows, seat=seat, hand=hand, legal=legal, position=j,
                            trick_no=t, leader=leader, trick=trick, in_trick=in_trick, led=led,
                            trump=trump,
                            played=played, tricks=tricks, deck=deck, **context)
            card = lineup.decide(view, "play", rng, U64)
            bad = ((card & ~legal) != 0) | (popcount(card) != 1)
            if bad.any():
                raise _illegal(np.flatnonzero(bad)[0], t, seat, hand, legal, led, card, deck,
                               lead_rule)
            slot = bit_index(card)
            plays[:, t * players + j] = slot
            flat[idx] = hand ^ card
            trick_flat[idx] = card
            in_trick = in_trick | card
            if j == 0:
                led = deck.suit_masks[suit_of_bit[slot]]
        trumps = in_trick & trump
        win_card = highest_bit(np.where(trumps != 0, trumps, in_trick & led))
        winner = (trick == win_card[:, None]).argmax(axis=1).astype(np.int8)
        tricks[rows, winner] += 1
        winners[:, t] = winner
        trumped |= trumps != 0
        played |= in_trick
        leader = winner
    return TrickResult(tricks=tricks, plays=plays, winners=winners)


def _illegal(row, t, seat, hand, legal, led, card, deck: Deck, lead_rule) -> IllegalPlay:
    """Explain, for one offending hand, why its card was not legal."""
    c, h, lg = int(card[row]), int(hand[row]), int(legal[row])
    names = deck.names_of(c)
    shown = names[0] if len(names) == 1 else "+".join(names) or "no card"
    if len(names) != 1:
        why = "is not one card"
    elif not c & h:
        why = "is not in the player's hand"
    elif int(led[row]):
        suit = SUITS[[i for i, m in enumerate(deck.suit_masks) if int(m) == int(led[row])][0]]
        why = f"does not follow suit ({suit} was led and the player holds {suit})"
    else:
        reason = getattr(lead_rule, "reason", "may not be led now")
        why = f"{reason} (legal leads: {' '.join(deck.names_of(lg))})"
    return IllegalPlay(why, row=int(row), trick=t + 1, seat=int(seat[row]), card=shown)
