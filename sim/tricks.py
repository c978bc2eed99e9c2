"""Trick play for a batch of hands in lockstep (RULES.md §0): shared by every game.

All hands of the batch play trick ``t``, position ``j`` at the same time; only *who* sits at position
``j`` differs per hand. Game rules enter as data — the trump suit's bits per hand (0 = no trump) —
and as one function that restricts the leader's choice (spades broken, RULES.md §3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .cards import BIT, SUITS, Deck, bit_index, highest_bit, pick, popcount
from .errors import UserError
from .views import PlayView

__all__ = ["IllegalPlay", "TrickResult", "TrickState", "play_tricks"]

U64 = np.uint64


class IllegalPlay(UserError):
    """A strategy or a record chose a card the rules forbid. ``row`` is the hand in the batch."""

    def __init__(self, message: str, *, row: int, trick: int, seat: int, card: str):
        self.row, self.trick, self.seat, self.card = row, trick, seat, card
        super().__init__(f"trick {trick}, seat {seat}: {card} {message}")


@dataclass(frozen=True, eq=False)
class TrickState:
    """What a play constraint (``play_tricks(constraint=...)``) sees at one card: uint64[N]
    ``hand``, ``legal`` (the cards legal by following suit and the lead rule), ``led`` (the led
    suit's bits; 0 for the leader), ``led_card`` (0 for the leader), ``trump``, ``winning``
    (the card winning the trick so far, 0 for the leader), ``in_trick``; int8[N] ``seat`` and
    ``winning_seat`` (-1 for the leader); ``position`` and ``trick_no`` (0-based ints, shared by
    the batch)."""

    hand: np.ndarray
    legal: np.ndarray
    led: np.ndarray
    led_card: np.ndarray
    trump: np.ndarray
    winning: np.ndarray
    in_trick: np.ndarray
    seat: np.ndarray
    winning_seat: np.ndarray
    position: int
    trick_no: int


@dataclass(frozen=True, eq=False)
class TrickResult:
    """tricks: int8[N, P] tricks won per seat; plays: int8[N, T*P] slot of every card in order of
    play (trick by trick, leader first); winners: int8[N, T] the winner of each trick; seats:
    int8[N, T*P] the seat that played each card of ``plays``."""

    tricks: np.ndarray
    plays: np.ndarray
    winners: np.ndarray
    seats: np.ndarray | None = None


def play_tricks(hands: np.ndarray, leader: np.ndarray, trump: np.ndarray, deck: Deck,
                lead_rule: Callable[[np.ndarray, np.ndarray], np.ndarray], lineup, rng,
                context: dict, dummy: int | None = None, no_trump: np.ndarray | None = None,
                dark: np.ndarray | None = None,
                constraint: Callable[[TrickState], np.ndarray] | None = None,
                twice: np.ndarray | None = None, resolve: Callable | None = None) -> TrickResult:
    """Play out every trick of a batch of hands.

    hands: uint64[N, P] (not modified); leader: int8[N] first leader; trump: uint64[N] trump bits;
    lead_rule(hand, trumped) -> legal leads, with ``trumped: bool[N]`` true once a trump was played
    to an earlier trick; context: the view fields that do not change during play (bids, blind,
    scores, bags, rules); dummy: a seat whose hand lies face up (Portland dummy whist): its
    remaining cards are visible in every view, and when it plays, its partner's hand is;
    no_trump: bool[N, P] seats that may not trump (Spades ``no_trump_bids``): void in a led
    non-trump suit, such a seat discards a non-trump card if it holds one; dark: bool[N, P] seats
    playing in the dark (Spades ``nil_in_the_dark``): the engine plays for them the first legal
    card of their hand shuffled face down (a uniformly random order drawn from ``rng``);
    constraint(state) -> legal: a game's further restrictions of the legal cards (Spades
    RULES.md §4.3: first-trick rules, must trump ...), given a `TrickState`; it returns a subset
    of ``state.legal`` that is never empty where ``state.legal`` is not; twice: uint64[N, P] the
    cards each seat holds both copies of (two decks, RULES.md §4.7): playing one leaves the other
    in the hand, and the views' ``played`` are the cards whose every copy is played; identical
    cards in a trick compare as ``deck.duplicates`` says, and under ``"cancel"`` a trick may be
    dead: its winner is -1, nobody counts it and its leader leads again;
    resolve(cards, seats, led, trump) -> (winning card, winning seat): a game's own trick
    resolution (Spades RULES.md §4.2 ``jokes_win``) from the cards played so far (lists of
    uint64[N] and int8[N] in order of play), replacing the comparison by card order.
    """
    n, players = hands.shape
    n_tricks = int(popcount(hands[:1, 0])[0]) if n else 0
    if n and twice is not None:
        n_tricks += int(popcount(twice[:1, 0])[0])
    dealt = hands.reshape(-1)  # dealt[P*i + seat] is hands[i, seat]
    base = np.arange(n, dtype=np.intp) * players
    rows = np.arange(n)
    # seat_at[j][leader]: who plays j-th in a trick led by `leader`
    seat_at = [np.array([(lead + j) % players for lead in range(players)], np.int8)
               for j in range(players)]
    suit_of_bit = deck.suit_of_bit
    # Spades and every game whose trump suit, if any, has the highest bit range: a card beats
    # the winning card iff it follows or trumps and has a higher bit (see `beats` below).
    trump_on_top = bool(np.all(trump == trump[:1])) and (
        n == 0 or int(trump[0]) == 0 or int(trump[0]) > int(deck.full_mask & ~trump[0]))
    tricks = np.zeros((n, players), dtype=np.int8)
    plays = np.zeros((n_tricks * players, n), dtype=np.int8)  # transposed: rows written whole
    winners = np.zeros((n_tricks, n), dtype=np.int8)
    played = np.zeros(n, dtype=U64)
    seat_order = np.zeros((n_tricks * players, n), dtype=np.int8)  # who played each card
    unplayed = np.full(n, ~U64(0))  # ~(played | cards of the current trick)
    trumped = np.zeros(n, dtype=bool)
    voids = np.zeros((n, players), dtype=np.uint8)  # bit s: the seat failed to follow suit s
    if dark is not None:  # a face-down pile per dark seat: a random priority per card slot
        pile = np.zeros((n, players, 64), dtype=np.float32)
        where = np.flatnonzero(dark.any(axis=1))
        pile[where] = rng.random((where.size, players, 64), dtype=np.float32)
    two_decks = twice is not None
    if two_decks:  # per-seat hands: a card leaves a hand once both copies are played
        remain, twice = dealt.copy(), twice.reshape(-1).copy()
        once = np.zeros(n, dtype=U64)  # cards one copy of which is played
    ties_to_last = deck.duplicates == "last"
    cancel = deck.duplicates == "cancel"
    leader = leader.astype(np.intp)
    for t in range(n_tricks):
        led = np.zeros(n, dtype=U64)
        led_card = np.zeros(n, dtype=U64)
        in_trick = np.zeros(n, dtype=U64)
        win_card = np.zeros(n, dtype=U64)  # the card winning the trick so far
        win_seat = np.full(n, -1, dtype=np.int8)
        cards, seats = [], []  # this trick's cards in order of play (for `resolve`, cancel)
        cancelled = np.zeros(n, dtype=U64)  # cards played twice to this trick (cancel_spades)
        for j in range(players):
            seat = seat_at[j][leader]
            at = base + seat
            hand = remain[at] if two_decks else dealt[at] & unplayed
            if j == 0:
                legal = lead_rule(hand, trumped)
            else:
                follow = hand & led
                legal = pick(follow != 0, follow, hand)
                if no_trump is not None:  # void, no trump allowed while another card is held
                    off = legal & ~trump
                    barred = no_trump[rows, seat] & (follow == 0) & ((led & trump) == 0)
                    legal = pick(barred & (off != 0), off, legal)
            free = legal  # legal before the game's constraint
            if constraint is not None:
                legal = constraint(TrickState(hand=hand, legal=legal, led=led, trump=trump,
                                              led_card=led_card,
                                              winning=win_card, in_trick=in_trick, seat=seat,
                                              winning_seat=win_seat, position=j, trick_no=t))
            if dummy is not None:  # everyone sees the dummy; playing it, its partner sees his own
                on_table = dealt[base + dummy] & unplayed
                partner = dealt[base + (dummy ^ 2)] & unplayed
                context["visible"] = pick(seat == dummy, partner, on_table)
            view = PlayView(rows=rows, seat=seat, hand=hand, legal=legal, position=j,
                            trick_no=t, leader=leader, in_trick=in_trick, led=led, trump=trump,
                            winning=win_card, winning_seat=win_seat, played=played,
                            history=plays[: t * players].T, history_seats=seat_order[
                                : t * players].T, tricks=tricks, voids=voids, deck=deck,
                            **context)
            card = lineup.decide(view, "play", rng, U64)
            if dark is not None:
                blind_rows = np.flatnonzero(dark[rows, seat])
                if blind_rows.size:
                    card[blind_rows] = _first_in_pile(legal[blind_rows],
                                                      pile[blind_rows, seat[blind_rows]])
            bad = ((card & ~legal) != 0) | (popcount(card) != 1)
            if bad.any():
                raise _illegal(np.flatnonzero(bad)[0], t, seat, hand, legal, led, card, deck,
                               lead_rule, free, constraint)
            slot = bit_index(card)
            plays[t * players + j] = slot
            if two_decks:
                other = (twice[at] & card) != 0  # the second copy stays in the hand
                twice[at] &= ~card
                remain[at] = pick(other, hand, hand & ~card)
                cancelled |= in_trick & card
            in_trick = in_trick | card
            unplayed &= ~card
            if j == 0:
                led_card = card
                led_suit = suit_of_bit[slot]
                led = deck.suit_masks[led_suit]
                led_bit = np.left_shift(1, led_suit).astype(np.uint8)
            else:  # a card off the led suit shows the seat void in it (public knowledge)
                voids[rows, seat] |= led_bit * ((card & led) == 0)
            seat_order[t * players + j] = seat
            if resolve is not None or cancel:
                cards.append(card)
                seats.append(seat)
                win_card, win_seat = (resolve(cards, seats, led, trump) if resolve is not None
                                      else _uncancelled(cards, seats, cancelled, led, trump))
                continue
            # The highest trump wins, else the highest card of the led suit (RULES.md §0); two
            # cards of one suit compare as integers since a higher bit is a stronger card (an
            # identical card beats the first copy under duplicate_wins = "last", §4.7).
            higher = (card >= win_card) if ties_to_last else (card > win_card)
            if deck.ladder:  # RULES.md §4.2 suit_ladder: the highest card of the highest suit
                beats = higher
            elif trump_on_top:
                beats = ((card & (trump | led)) != 0) & higher
            else:
                beats = pick((win_card & trump) != 0,
                             ((card & trump) != 0) & higher,
                             ((card & trump) != 0) | (((card & led) != 0) & higher))
            for group in deck.equal:  # equal cards (RULES.md §4.2): the first played wins
                beats &= ((card & group) == 0) | ((win_card & group) == 0)
            win_card = pick(beats, card, win_card)
            win_seat = pick(beats, seat, win_seat)
        winners[t] = win_seat
        trumped |= (in_trick & trump) != 0
        if cancel:  # a dead trick (RULES.md §4.7 cancel_spades): nobody wins, its leader leads
            won = np.flatnonzero(win_seat >= 0)
            tricks[won, win_seat[won]] += 1
            leader = np.where(win_seat >= 0, win_seat, leader)
        else:
            tricks[rows, win_seat] += 1
            leader = win_seat.astype(np.intp)
        if two_decks:  # `played`: the cards of which no copy is left to play
            played |= (once & in_trick) | cancelled
            once |= in_trick
        else:
            played |= in_trick
    return TrickResult(tricks=tricks, plays=plays.T.copy(), winners=winners.T.copy(),
                       seats=seat_order.T.copy())


def _uncancelled(cards, seats, cancelled, led, trump):
    """The winning card and seat of a trick so far when identical cards cancel (RULES.md §4.7
    ``cancel_spades``): the highest card not cancelled among the trumps, else among the led
    suit's cards; (0, -1) when there is none (a dead trick, so far)."""
    live = np.bitwise_or.reduce(cards) & ~cancelled
    trumps = live & trump
    card = pick(trumps != 0, highest_bit(trumps), highest_bit(live & led))
    seat = np.full(card.shape, -1, dtype=np.int8)
    for c, s in zip(cards, seats, strict=True):
        seat = pick(c == card, s, seat)
    return card, seat


def _first_in_pile(legal: np.ndarray, priority: np.ndarray) -> np.ndarray:
    """The legal card highest in its hand's face-down pile: ``priority`` float32[n, 64] in [0, 1)
    per slot."""
    slots = np.arange(64, dtype=np.uint64)
    held = ((legal[:, None] >> slots) & np.uint64(1)).astype(bool)
    return BIT[np.argmax(np.where(held, priority + 1, 0), axis=1)]


def _illegal(row, t, seat, hand, legal, led, card, deck: Deck, lead_rule, free,
             constraint) -> IllegalPlay:
    """Explain, for one offending hand, why its card was not legal."""
    c, h, lg = int(card[row]), int(hand[row]), int(legal[row])
    names = deck.names_of(c)
    shown = names[0] if len(names) == 1 else "+".join(names) or "no card"
    if len(names) != 1:
        why = "is not one card"
    elif not c & h:
        why = "is not in the player's hand"
    elif c & int(free[row]):  # allowed by suit and lead, forbidden by the game's constraint
        reason = getattr(constraint, "reason", "is not allowed by the play rules")
        why = f"{reason} (legal: {' '.join(deck.names_of(lg))})"
    elif int(led[row]) and h & int(led[row]):
        suit = SUITS[[i for i, m in enumerate(deck.suit_masks) if int(m) == int(led[row])][0]]
        why = f"does not follow suit ({suit} was led and the player holds {suit})"
    elif int(led[row]):
        why = ("may not trump: the player bid no trump and holds another card (legal: "
               f"{' '.join(deck.names_of(lg))})")
    else:
        reason = getattr(lead_rule, "reason", "may not be led now")
        why = f"{reason} (legal leads: {' '.join(deck.names_of(lg))})"
    return IllegalPlay(why, row=int(row), trick=t + 1, seat=int(seat[row]), card=shown)
