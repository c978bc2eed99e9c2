"""Trick play for a batch of hands in lockstep (RULES.md §0): shared by every game.

All hands of the batch play trick ``t``, position ``j`` at the same time; only *who* sits at position
``j`` differs per hand. Game rules enter as data — the trump suit's bits per hand (0 = no trump) —
and as one function that restricts the leader's choice (spades broken, RULES.md §3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace

import numpy as np

from .cards import BIT, SUITS, Deck, highest_bit, pick, popcount
from .errors import UserError
from .streams import rows_of
from .views import PlayView

__all__ = ["IllegalPlay", "Play", "PlaySetup", "TrickResult", "TrickState", "check_card",
           "finish_play", "legal_cards", "play_card", "play_tricks", "play_view", "start_play"]

U64 = np.uint64
_ONE = U64(1)


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


@dataclass(eq=False)
class Play:
    """The trick play of a batch of N hands in lockstep, as a value: everything the play phase has
    decided so far. Every row is at the same card (trick ``trick``, position ``position`` in it);
    only who sits there differs. `start_play` makes one, `legal_cards` and `play_view` say what
    the seat to play may do and sees, `play_card` plays one card for every row, and `result`
    gives the finished play; `copy` and `take` (rows) let a caller branch from any card.

    Layouts: ``dealt`` uint64[N * P], ``dealt[P * i + s]`` the cards seat ``s`` of row ``i`` held
    at the start; ``remain`` the same layout for two decks (a card leaves a hand once both copies
    are played), ``twice`` its second copies; ``plays`` / ``seats`` int8[T * P, N] the slot and
    the player of every card in order of play (transposed: one card of the whole batch is a
    contiguous row); ``winners`` int8[T, N]; ``tricks`` int8[N, P]; ``voids`` uint8[N, P] bit s:
    the seat did not follow a lead of suit s (public); ``played`` uint64[N] the cards of the
    finished tricks (two decks: those of which no copy is left); ``unplayed`` the complement of
    ``played`` and this trick's cards; ``trumped`` bool[N] a trump was played to a finished
    trick. The trick in progress: ``leader`` int8[N], ``led`` (the led suit's bits), ``led_card``,
    ``in_trick``, ``winning`` uint64[N] and ``winning_seat`` int8[N] (0 and -1 before the lead),
    and its cards and seats in order of play (``cards``, ``card_seats``: lists of arrays), with
    ``cancelled`` the cards played twice to it (RULES.md §4.7 ``cancel_spades``). An array a view
    shows is never changed in place (a card makes new ones), so a view stays what it was.
    """

    deck: Deck
    trump: np.ndarray
    dealt: np.ndarray
    n_tricks: int
    players: int
    trump_on_top: bool  # see `_trump_on_top`
    leader: np.ndarray
    tricks: np.ndarray
    plays: np.ndarray
    seats: np.ndarray
    winners: np.ndarray
    played: np.ndarray
    unplayed: np.ndarray
    trumped: np.ndarray
    voids: np.ndarray
    remain: np.ndarray | None = None
    twice: np.ndarray | None = None
    once: np.ndarray | None = None
    trick: int = 0
    position: int = 0
    led: np.ndarray | None = None
    led_card: np.ndarray | None = None
    led_bit: np.ndarray | None = None
    in_trick: np.ndarray | None = None
    winning: np.ndarray | None = None
    winning_seat: np.ndarray | None = None
    cards: list = field(default_factory=list)
    card_seats: list = field(default_factory=list)
    cancelled: np.ndarray | None = None
    rows: np.ndarray | None = None  # intp[N] 0..N-1
    base: np.ndarray | None = None  # intp[N] P * row: a row's first index in ``dealt``
    seat: np.ndarray | None = None  # int8[N] the seat to play (kept by `_next_seat`)
    at: np.ndarray | None = None  # intp[N] its index in `dealt`: P * row + seat
    hand: np.ndarray | None = None  # uint64[N] its cards
    blank: tuple | None = None  # `_blanks`: a trick before its lead
    resolve: Callable | None = None  # a game's own trick resolution (`play_card`)
    void_rule: Callable | None = None  # a rule's own reading of the voids a card shows (`play_card`)

    def __len__(self) -> int:
        return self.leader.shape[0]

    @property
    def done(self) -> bool:
        return self.trick >= self.n_tricks

    def copy(self) -> Play:
        return self.take(np.arange(len(self)))

    def take(self, rows: np.ndarray) -> Play:
        """The play of the rows ``rows`` (a copy: branching it leaves this one as it is)."""
        rows = np.asarray(rows)
        flat = (rows[:, None] * self.players + np.arange(self.players)).reshape(-1)
        changes = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("dealt", "remain", "twice"):
                value = None if value is None else value[flat]
            elif f.name in ("plays", "seats", "winners"):
                value = value[:, rows]
            elif f.name in ("cards", "card_seats"):
                value = [v[rows] for v in value]
            elif f.name in ("rows", "base", "blank"):
                value = None
            elif isinstance(value, np.ndarray):
                value = value[rows]
            changes[f.name] = value
        taken = replace(self, **changes)
        _next_seat(taken)
        return taken

    def result(self) -> TrickResult:
        """The finished play (its arrays as [N, ...] views of this play's, not copies)."""
        return TrickResult(tricks=self.tricks, plays=self.plays.T, winners=self.winners.T,
                           seats=self.seats.T)


def start_play(hands: np.ndarray, leader: np.ndarray, trump: np.ndarray, deck: Deck,
               twice: np.ndarray | None = None, resolve: Callable | None = None,
               void_rule: Callable | None = None) -> Play:
    """The play of a batch of hands before its first card: ``hands`` uint64[N, P] (not
    modified), ``leader`` int8[N] the first leader, ``trump`` uint64[N] the trump suit's bits
    (0 = no trump), ``twice`` uint64[N, P] the cards each seat holds both copies of (two decks,
    RULES.md §4.7), ``resolve`` a game's own trick resolution and ``void_rule`` a rule's own
    reading of the voids a card shows (`play_card`)."""
    n, players = hands.shape
    n_tricks = int(popcount(hands[:1, 0])[0]) if n else 0
    if n and twice is not None:
        n_tricks += int(popcount(twice[:1, 0])[0])
    dealt = hands.reshape(-1)
    two_decks = twice is not None
    play = Play(deck=deck, trump=trump, dealt=dealt, n_tricks=n_tricks, players=players,
                trump_on_top=_trump_on_top(trump, deck), leader=leader.astype(np.int8),
                tricks=np.zeros((n, players), dtype=np.int8),
                plays=np.zeros((n_tricks * players, n), dtype=np.int8),
                seats=np.zeros((n_tricks * players, n), dtype=np.int8),
                winners=np.zeros((n_tricks, n), dtype=np.int8),
                played=np.zeros(n, dtype=U64), unplayed=np.full(n, ~U64(0)),
                trumped=np.zeros(n, dtype=bool), voids=np.zeros((n, players), dtype=np.uint8),
                remain=dealt.copy() if two_decks else None,
                twice=twice.reshape(-1).copy() if two_decks else None,
                once=np.zeros(n, dtype=U64) if two_decks else None, resolve=resolve,
                void_rule=void_rule)
    play.blank = _blanks(n)
    _new_trick(play)
    return play


def _blanks(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Read-only uint64 zeros, int8 -1s and uint8 zeros for N rows: what a trick holds before its
    lead (shared by every trick, since no array a view shows is changed in place)."""
    blanks = (np.zeros(n, dtype=U64), np.full(n, -1, dtype=np.int8), np.zeros(n, dtype=np.uint8))
    for blank in blanks:
        blank.flags.writeable = False
    return blanks


# _SEAT_AT[P][j][leader]: who plays j-th in a trick led by ``leader`` at a table of P players
_SEAT_AT = {p: np.array([[(lead + j) % p for lead in range(p)] for j in range(p)], np.int8)
            for p in range(2, 9)}


def _next_seat(play: Play) -> None:
    """The seat to play, its index in ``dealt`` and its cards, after the position changed."""
    play.seat = _SEAT_AT[play.players][play.position][play.leader]
    if play.rows is None or play.rows.shape[0] != len(play):  # new, or taken
        play.rows = np.arange(len(play), dtype=np.intp)
        play.base = play.rows * play.players
    play.at = play.base + play.seat
    play.hand = (play.remain[play.at] if play.remain is not None
                 else play.dealt[play.at] & play.unplayed)


def _new_trick(play: Play) -> None:
    if play.blank is None or play.blank[0].shape[0] != len(play):  # taken rows
        play.blank = _blanks(len(play))
    zeros, minus, bits = play.blank
    play.position = 0
    play.led = zeros
    play.led_card = zeros
    play.led_bit = bits  # bit s: suit s was led
    play.in_trick = zeros
    play.winning = zeros  # the card winning the trick so far
    play.winning_seat = minus
    play.cards, play.card_seats = [], []  # for `resolve` and cancel_spades
    # cards played twice to this trick (cancel_spades; changed in place, so its own array)
    play.cancelled = np.zeros(len(play), dtype=U64) if play.remain is not None else zeros
    _next_seat(play)


def legal_cards(play: Play, lead_rule: Callable[[np.ndarray, np.ndarray], np.ndarray],
                no_trump: np.ndarray | None = None,
                constraint: Callable[[TrickState], np.ndarray] | None = None):
    """The cards the seat to play may play, uint64[N], and those it could before the game's
    ``constraint`` (for explaining a refusal): follow suit (RULES.md §0), the leader restricted by
    ``lead_rule(hand, trumped)``; ``no_trump`` bool[N, P] seats that may not trump (Spades
    ``no_trump_bids``: void in a led non-trump suit, such a seat discards a non-trump card if it
    holds one); ``constraint(state) -> legal`` a game's further restrictions (Spades RULES.md
    §4.3), given a `TrickState`, returning a subset of ``state.legal`` never empty where that is
    not."""
    hand, seat, led, trump = play.hand, play.seat, play.led, play.trump
    if play.position == 0:
        legal = lead_rule(hand, play.trumped)
    else:
        follow = hand & led
        legal = pick(follow != 0, follow, hand)
        if no_trump is not None:  # void, no trump allowed while another card is held
            off = legal & ~trump
            barred = no_trump[play.rows, seat] & (follow == 0) & ((led & trump) == 0)
            legal = pick(barred & (off != 0), off, legal)
    free = legal
    if constraint is not None:
        legal = constraint(TrickState(hand=hand, legal=legal, led=led, trump=trump,
                                      led_card=play.led_card, winning=play.winning,
                                      in_trick=play.in_trick, seat=seat,
                                      winning_seat=play.winning_seat, position=play.position,
                                      trick_no=play.trick))
    return legal, free


def play_view(play: Play, legal: np.ndarray, context: dict, dummy: int | None = None,
              rows: np.ndarray | None = None) -> PlayView:
    """What the seat to play sees (`sim.views.PlayView`): the play so far and ``context``, the
    fields that do not change during the play (bids, scores, rules ...), of which ``private``
    (name -> [N, P], by seat) shows each seat its own row only (Spades: the cards it passed);
    ``dummy``: a seat whose hand lies face up (Portland dummy whist: its remaining cards are
    visible to every seat, and playing it, its partner's hand is); ``rows``: the rows' indices
    in the caller's batch."""
    n, players, t = len(play), play.players, play.trick
    seat = play.seat
    if "private" in context:
        context = {**context, **{name: by_seat[np.arange(n), seat] for name, by_seat
                                 in context["private"].items()}}
        del context["private"]
    if dummy is not None:
        base = np.arange(n, dtype=np.intp) * players
        on_table = play.dealt[base + dummy] & play.unplayed
        partner = play.dealt[base + (dummy ^ 2)] & play.unplayed
        context = {**context, "visible": pick(seat == dummy, partner, on_table)}
    return PlayView(rows=np.arange(n) if rows is None else rows, seat=seat, hand=play.hand,
                    legal=legal, position=play.position, trick_no=t, leader=play.leader,
                    in_trick=play.in_trick, led=play.led, trump=play.trump,
                    winning=play.winning, winning_seat=play.winning_seat, played=play.played,
                    history=play.plays[: t * players].T,
                    history_seats=play.seats[: t * players].T,
                    trick_cards=play.plays[t * players: t * players + play.position].T,
                    tricks=play.tricks,
                    voids=play.voids, deck=play.deck,
                    twice=None if play.twice is None else play.twice[play.at],
                    trump_on_top=_by_bits(play), **context)


def play_card(play: Play, card: np.ndarray, resolve: Callable | None = None) -> None:
    """Play ``card`` (uint64[N], one legal card per row) for the seat to play, and finish the
    trick when it is its last card: the highest trump wins it, else the highest card of the led
    suit (RULES.md §0), or as ``play.deck`` says (card layouts, §4.2; identical cards, §4.7), or
    as ``resolve(cards, seats, led, trump) -> (winning card, winning seat)`` says (a game's own
    trick resolution, Spades §4.2 ``jokes_win``; default: the play's own, `start_play`).

    The card shows its player void in the led suit if it is off it (``voids``, public), or in
    the suits ``play.void_rule(play, card)`` (uint8[N], bit s = suit s) says, where a rule lets
    a player leave a suit he holds and the function reads that trick otherwise (None: the led
    suit's rule; Spades §4.3 ``first_trick_lowest_club``)."""
    deck, players = play.deck, play.players
    resolve = play.resolve if resolve is None else resolve
    seat, j, t = play.seat, play.position, play.trick
    trump = play.trump
    at = t * players + j
    play.plays[at] = np.bitwise_count(card - _ONE)  # the card's slot
    play.seats[at] = seat
    if play.remain is not None:
        here = play.at
        hand = play.remain[here]
        other = (play.twice[here] & card) != 0  # the second copy stays in the hand
        play.twice[here] &= ~card
        play.remain[here] = pick(other, hand, hand & ~card)
        play.cancelled |= play.in_trick & card
    play.in_trick = play.in_trick | card
    play.unplayed &= ~card
    if j == 0:
        slot = play.plays[at]
        play.led_card = card
        play.led = deck.suit_mask_of_bit[slot]
        play.led_bit = deck.suit_bit_of_bit[slot]
    shown = None if play.void_rule is None else play.void_rule(play, card)
    if shown is None and j:  # a card off the led suit shows the seat void in it (public)
        shown = play.led_bit * ((card & play.led) == 0)
    if shown is not None:  # a new array, as every one a view holds: views are snapshots
        voids = play.voids.copy()
        voids.reshape(-1)[play.at] |= shown
        play.voids = voids
    led = play.led
    win_card, win_seat = play.winning, play.winning_seat
    if resolve is not None or deck.duplicates == "cancel":
        play.cards.append(card)
        play.card_seats.append(seat)
        win_card, win_seat = (resolve(play.cards, play.card_seats, led, trump)
                              if resolve is not None
                              else _uncancelled(play.cards, play.card_seats, play.cancelled,
                                                led, trump))
    elif j == 0:  # the lead wins so far
        win_card, win_seat = card, seat
    elif _by_bits(play):
        # the card counts by its bit if it follows or trumps (trumps lie above every other
        # suit), else not at all; of two identical cards (two decks) the first stays winning
        counts = card & (trump | led)
        beats = counts > win_card
        win_card = np.maximum(win_card, counts)
        win_seat = pick(beats, seat, win_seat)
    else:
        # Two cards of one suit compare as integers since a higher bit is a stronger card (an
        # identical card beats the first copy under duplicate_wins = "last", RULES.md §4.7).
        higher = (card >= win_card) if deck.duplicates == "last" else (card > win_card)
        if deck.ladder:  # RULES.md §4.2 suit_ladder: the highest card of the highest suit
            beats = higher
        elif play.trump_on_top:
            beats = ((card & (trump | led)) != 0) & higher
        else:
            beats = pick((win_card & trump) != 0,
                         ((card & trump) != 0) & higher,
                         ((card & trump) != 0) | (((card & led) != 0) & higher))
        for group in deck.equal:  # equal cards (RULES.md §4.2): the first played wins
            beats &= ((card & group) == 0) | ((win_card & group) == 0)
        win_card = pick(beats, card, win_card)
        win_seat = pick(beats, seat, win_seat)
    play.winning, play.winning_seat = win_card, win_seat
    if j + 1 < players:
        play.position = j + 1
        _next_seat(play)
        return
    play.winners[t] = win_seat
    play.trumped = play.trumped | ((play.in_trick & trump) != 0)
    play.tricks = play.tricks.copy()
    if deck.duplicates == "cancel":  # a dead trick (§4.7 cancel_spades): its leader leads again
        won = np.flatnonzero(win_seat >= 0)
        play.tricks[won, win_seat[won]] += 1
        play.leader = np.where(win_seat >= 0, win_seat, play.leader).astype(np.int8)
    else:
        play.tricks.reshape(-1)[play.base + win_seat] += 1
        play.leader = win_seat  # a new array at each card: never changed in place
    if play.remain is not None:  # `played`: the cards of which no copy is left to play
        play.played = play.played | (play.once & play.in_trick) | play.cancelled
        play.once = play.once | play.in_trick
    else:
        play.played = play.played | play.in_trick
    play.trick = t + 1
    _new_trick(play)


def _by_bits(play: Play) -> bool:
    """Whether a card beats the winning card iff it follows suit or trumps and has a higher bit:
    the trump suit on top (`_trump_on_top`), no game's own resolution, no suit ladder, no cards
    of equal rank, and of two identical cards the first wins (RULES.md §4.2, §4.7)."""
    deck = play.deck
    return (play.trump_on_top and play.resolve is None and not deck.ladder and not deck.equal
            and deck.duplicates == "first")


def _trump_on_top(trump: np.ndarray, deck: Deck) -> bool:
    """Whether the trump suit, where there is one, is the same for the batch and lies above every
    other suit's bits (Spades, and every game whose trump suit has the highest bit range): then a
    card beats the winning card iff it follows or trumps and has a higher bit (a shortcut of the
    general comparison, which gives the same answer; it holds for any rows taken)."""
    if not trump.size:
        return True
    first = int(trump[0])
    return bool(np.all(trump == first)) and (first == 0
                                             or first > int(deck.full_mask & ~trump[0]))


def play_tricks(hands: np.ndarray, leader: np.ndarray, trump: np.ndarray, deck: Deck,
                lead_rule: Callable[[np.ndarray, np.ndarray], np.ndarray], lineup, rng,
                context: dict, dummy: int | None = None, no_trump: np.ndarray | None = None,
                dark: np.ndarray | None = None,
                constraint: Callable[[TrickState], np.ndarray] | None = None,
                twice: np.ndarray | None = None, resolve: Callable | None = None,
                void_rule: Callable | None = None) -> TrickResult:
    """Play out every trick of a batch of hands, the strategies of ``lineup`` choosing each card.

    The arguments are those of `start_play` (``hands``, ``leader``, ``trump``, ``deck``,
    ``twice``), `legal_cards` (``lead_rule``, ``no_trump``, ``constraint``), `play_view`
    (``context``, ``dummy``) and `play_card` (``resolve``, ``void_rule``), and ``dark``: bool[N, P] seats
    playing in the dark (Spades ``nil_in_the_dark``): the engine plays for them the first legal
    card of their hand shuffled face down (a uniformly random order drawn from ``rng``). A card
    that is not legal is refused (`IllegalPlay`, naming the rule that forbids it)."""
    play = start_play(hands, leader, trump, deck, twice, resolve, void_rule)
    return finish_play(play, lead_rule, lineup, rng, context, dummy=dummy, no_trump=no_trump,
                       dark=dark, constraint=constraint, resolve=resolve).result()


def finish_play(play: Play, lead_rule: Callable[[np.ndarray, np.ndarray], np.ndarray], lineup,
                rng, context: dict, dummy: int | None = None, no_trump: np.ndarray | None = None,
                dark: np.ndarray | None = None,
                constraint: Callable[[TrickState], np.ndarray] | None = None,
                resolve: Callable | None = None) -> Play:
    """Play out the rest of ``play`` (changed and returned), from whatever card it is at, the
    strategies of ``lineup`` choosing each card: the loop of `play_tricks`, whose arguments
    these are. A seat in the ``dark`` plays the first legal card of its remaining cards
    shuffled face down (drawn from ``rng`` here: given the cards it played so far, the order of
    the rest is still uniform)."""
    n, players = len(play), play.players
    if dark is not None:  # a face-down pile per dark seat: a random priority per card slot
        pile = np.zeros((n, players, 64), dtype=np.float32)
        where = np.flatnonzero(dark.any(axis=1))
        pile[where] = rows_of(rng, where).random((where.size, players, 64), dtype=np.float32)
    while not play.done:
        legal, free = legal_cards(play, lead_rule, no_trump, constraint)
        seat = play.seat
        card = lineup.decide(play_view(play, legal, context, dummy), "play", rng, U64)
        if dark is not None:
            blind_rows = np.flatnonzero(dark[np.arange(n), seat])
            if blind_rows.size:
                card[blind_rows] = _first_in_pile(legal[blind_rows],
                                                  pile[blind_rows, seat[blind_rows]])
        check_card(play, card, legal, free, lead_rule, constraint)
        play_card(play, card, resolve)
    return play


def check_card(play: Play, card: np.ndarray, legal: np.ndarray, free: np.ndarray, lead_rule,
               constraint=None) -> None:
    """Refuse (`IllegalPlay`, naming the rule that forbids it) a ``card`` (uint64[N]) that is not
    one card of ``legal``, the seat to play's legal cards (``free``: those before the game's
    ``constraint``, `legal_cards`): the check of every card a strategy or a record plays."""
    bad = ((card & ~legal) != 0) | (popcount(card) != 1)
    if bad.any():
        raise _illegal(np.flatnonzero(bad)[0], play.trick, play.seat, play.hand, legal,
                       play.led, card, play.deck, lead_rule, free, constraint)


@dataclass(frozen=True, eq=False)
class PlaySetup:
    """How a hand's play runs, everything `play_tricks` takes but the players and the random
    stream, as each game's ``play_setup`` builds it from a hand state (its play phase runs it):
    the arguments of `start_play` (``hands``, ``leader``, ``trump``, ``deck``, ``twice``,
    ``resolve``), `legal_cards` (``lead_rule``, ``no_trump``, ``constraint``) and `play_view`
    (``context``, ``dummy``), and ``dark`` (`play_tricks`). `run` plays it out; `start`,
    `follow` and `view` rebuild a position of it from the cards played so far and show the
    seat to play what the engine shows it there."""

    hands: np.ndarray
    leader: np.ndarray
    trump: np.ndarray
    deck: Deck
    lead_rule: Callable[[np.ndarray, np.ndarray], np.ndarray]
    context: dict
    dummy: int | None = None
    no_trump: np.ndarray | None = None
    dark: np.ndarray | None = None
    constraint: Callable[[TrickState], np.ndarray] | None = None
    twice: np.ndarray | None = None
    resolve: Callable | None = None
    void_rule: Callable | None = None

    def run(self, lineup, rng) -> TrickResult:
        """Every trick, the strategies of ``lineup`` choosing the cards (`play_tricks`)."""
        return play_tricks(self.hands, self.leader, self.trump, self.deck, self.lead_rule,
                           lineup, rng, self.context, dummy=self.dummy, no_trump=self.no_trump,
                           dark=self.dark, constraint=self.constraint, twice=self.twice,
                           resolve=self.resolve, void_rule=self.void_rule)

    def finish(self, play: Play, lineup, rng) -> Play:
        """``play`` (rebuilt by `start` and `follow`, or cut from such a play by `Play.take`)
        played out to its last card by the strategies of ``lineup`` (`finish_play`): the rest
        of the hand as the engine plays it; ``play`` is changed and returned."""
        return finish_play(play, self.lead_rule, lineup, rng, self.context, dummy=self.dummy,
                           no_trump=self.no_trump, dark=self.dark, constraint=self.constraint,
                           resolve=self.resolve)

    def start(self) -> Play:
        """The play before its first card (`start_play`)."""
        return start_play(self.hands, self.leader, self.trump, self.deck, self.twice,
                          self.resolve, self.void_rule)

    def legal(self, play: Play) -> tuple[np.ndarray, np.ndarray]:
        """The cards the seat to play may play, and those before the constraint
        (`legal_cards`)."""
        return legal_cards(play, self.lead_rule, self.no_trump, self.constraint)

    def follow(self, play: Play, plays: np.ndarray) -> Play:
        """``play`` after the cards ``plays`` (int8[N, k]: slots in order of play, one card of
        every row at a time), each checked as the engine checks a strategy's (`check_card`);
        ``play`` is changed and returned."""
        for k in range(plays.shape[1]):
            legal, free = self.legal(play)
            card = BIT[plays[:, k]]
            check_card(play, card, legal, free, self.lead_rule, self.constraint)
            play_card(play, card)
        return play

    def fits(self, play: Play, plays: np.ndarray) -> np.ndarray:
        """bool[N]: whether each row's cards ``plays`` (as `follow`'s) could have been played
        from its hands: every card one of the legal cards of its seat at its turn. ``play``
        follows every card, legal or not (its hands must hold them), and is changed."""
        ok = np.ones(len(plays), dtype=bool)
        for k in range(plays.shape[1]):
            legal, _ = self.legal(play)
            card = BIT[plays[:, k]]
            ok &= (card & legal) != 0
            play_card(play, card)
        return ok

    def view(self, play: Play, rows: np.ndarray | None = None) -> PlayView:
        """What the seat to play sees (`play_view`): the view the engine shows it there."""
        legal, _ = self.legal(play)
        return play_view(play, legal, self.context, self.dummy, rows)


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
