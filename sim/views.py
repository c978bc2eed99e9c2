"""What a strategy sees when it decides: batched, read-only views of the table.

Every array has the batch axis first; row ``i`` is one hand, ``rows[i]`` its index in the engine's
whole batch (a scripted player uses it to look up its record). A view holds only public information
plus the acting seat's own hand: a strategy cannot see other hands.

Bitboards are ``uint64`` in the layout of ``deck`` (see `sim.cards`). Seats are 0..P-1 clockwise;
in partnership games the partner of seat ``s`` is ``s ^ 2`` and its side is ``s & 1`` (RULES.md §0).

Each view's docstring lists its fields in a table, one line each: the name, its dtype and shape
as the engine passes it (``n`` rows, ``P`` seats, ``S`` sides, ``k`` cards of the earlier tricks,
``j`` of this one; ``a | b`` where the decision asked decides which; ``int`` and ``bool`` a Python
value shared by the batch), and its meaning. A field marked "or None" is None where the rules or
the game have none. Every view also has ``rules`` (the rules value) and ``deck`` (the card
layout, `sim.cards.Deck`). tests/test_views.py checks every dtype and shape listed against the
arrays real runs of every game pass.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .cards import BIT, Deck, at_or_below

__all__ = ["BidView", "BlindView", "DeclareView", "DrawView", "KittyView", "PassView",
           "PlayView", "RedealView", "RevealView"]


def deficits(seat: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """int[N]: how far the seat's side trails the best other side (negative: it leads);
    ``scores``: int[N, S], seat s plays for side s mod S (Spades tables, RULES.md §4.7)."""
    rows = np.arange(seat.shape[0])
    if scores.shape[1] == 2:  # the usual table: the other side
        side = (seat & 1).astype(np.intp)
        return scores[rows, 1 - side] - scores[rows, side]
    side = (seat % scores.shape[1]).astype(np.intp)
    others = scores.astype(np.int64).copy()
    others[rows, side] = np.iinfo(np.int64).min
    return (others.max(axis=1) - scores[rows, side]).astype(np.int32)


def _rows(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``a[idx]`` (rows of ``a``); a C-ordered row of 2, 4 or 8 bytes (bids, voids, tricks,
    scores ...) is gathered as one integer, several times faster than numpy's row copies."""
    if a.ndim == 2 and a.shape[1] > 1 and a.flags.c_contiguous:
        width = a.shape[1] * a.itemsize
        if width in (2, 4, 8) and a.ctypes.data % width == 0:
            whole = a.view(f"u{width}").reshape(-1)
            return whole[idx].view(a.dtype).reshape(-1, a.shape[1])
    return a[idx]


class _Batched:
    """Row selection shared by the views: arrays are indexed, everything else is kept."""

    def take(self, idx: np.ndarray, without: tuple[str, ...] = ()):
        """The view of the rows ``idx``; the arrays named in ``without`` are left out (None: a
        caller that does not read them spares their copies)."""
        changes = {f.name: None if f.name in without else _rows(getattr(self, f.name), idx)
                   for f in dataclasses.fields(self)
                   if isinstance(getattr(self, f.name), np.ndarray)}
        return dataclasses.replace(self, **changes)

    def __len__(self) -> int:
        return self.rows.shape[0]


@dataclass(frozen=True, eq=False)
class BlindView(_Batched):
    """Before looking at the cards: a Spades seat's decision to bid blind (RULES.md §3
    ``blind_nil``; §4.4 ``blind_bids`` and the side contracts declared blind).

    Fields:
        rows          int64[n]                the rows' indices in the engine's batch
        seat          int8[n]                 the seat deciding
        dealer        int8[n]                 the dealer
        legal         uint32[n] | uint16[n]   uint32: the bids open to the seat (bit v = bid v,
                                              v = 0 .. the tricks of the hand; before looking
                                              they do not depend on the cards); uint16 when a
                                              side contract is asked (``side_contract``): the
                                              codes open to the side (bit c = code c of
                                              `sim.spades.contracts`, bit 0 = none)
        bids          int8[n, P]              the bids made so far (0 = nil; -1 = not yet, or
                                              never: the partners of a side contract)
        blind         bool[n, P]              which of them were bid blind
        scores        int32[n, S]             the sides' game scores before this hand
        bags          int32[n, S]             the sides' bags before this hand
        contracts     int8[n, S]              the side contracts declared so far (0 = none)
        bemo          int8[n, S]              the bemos declared so far (0 = none)
        half          bool[n, P]              the half bids so far (``half_trick_bids``)
        face_up       uint64[n, P]            the cards dealt face up (§4.1), or None
        face_up_twice uint64[n, P]            two decks (§4.7): those of them dealt twice to
                                              the seat, or None
        trump_suit    int8[n]                 the trump suit (``seven_trump_reveal``), or None
        kitty_taker   int8[n]                 who took the kitty before the bidding (§4.1), or
                                              None
        discards      uint64[n]               two players: the seat's own discards that it saw
                                              drawing its hand (§4.7), or None
        progressive   int32[n, S]             the progressive bonuses each side has earned this
                                              game (§4.6 ``seven_plus = "progressive"``,
                                              ``highlander``), or None without one
        passed        uint64[n]               the cards this seat passed before the bids
                                              (§4.5 ``pass_when = "before_bid"``), or None
        received      uint64[n]               the cards passed to it before the bids, or None
                                              (or with two exchanges)
        no_trump      bool[n, P]              §4.4 ``no_trump_bids``: the "no trump" bids made
                                              so far (public, as the bids), or None
        cancel_card   int8[n]                 §4.6 ``bag_cancel_card``: the slot of the hand's
                                              bag-cancelling card (named, or cut per deal:
                                              public), or None
    """

    rows: np.ndarray
    seat: np.ndarray
    dealer: np.ndarray
    legal: np.ndarray
    bids: np.ndarray
    blind: np.ndarray
    scores: np.ndarray
    bags: np.ndarray
    rules: object
    deck: Deck
    contracts: np.ndarray | None = None
    bemo: np.ndarray | None = None
    half: np.ndarray | None = None
    face_up: np.ndarray | None = None
    face_up_twice: np.ndarray | None = None
    trump_suit: np.ndarray | None = None
    kitty_taker: np.ndarray | None = None
    discards: np.ndarray | None = None
    progressive: np.ndarray | None = None
    passed: np.ndarray | None = None
    received: np.ndarray | None = None
    no_trump: np.ndarray | None = None
    cancel_card: np.ndarray | None = None

    @property
    def deficit(self) -> np.ndarray:
        """int32[n]: how far the deciding seat's side trails the best other side (negative =
        leads); seat s plays for side s mod S (RULES.md §4.7)."""
        return deficits(self.seat, self.scores)


@dataclass(frozen=True, eq=False)
class BidView(BlindView):
    """A Spades decision after looking at the cards: the bid (RULES.md §3), and the decisions of
    §4.4 asked with it (a side contract after looking, a bemo, a half, no trump, the dark, a
    raise, an auction's call). Every field of `BlindView` (``legal``: uint32 the bids open;
    uint16 the codes of a side contract or bemo, ``side_contract``, or the calls of the
    ``auction``, ``auction_bid``: bit 0 pass, bit n a bid of n), and:

    Fields:
        hand          uint64[n]               the seat's cards
        twice         uint64[n]               the cards of ``hand`` held twice (two decks,
                                              RULES.md §4.7), or None
    """

    hand: np.ndarray = None
    twice: np.ndarray | None = None


@dataclass(frozen=True, eq=False)
class PassView(_Batched):
    """Cards to pass (Spades card passing, RULES.md §4.5).

    Fields:
        rows          int64[n]                the rows' indices in the engine's batch
        seat          int8[n]                 the seat passing
        hand          uint64[n]               its cards
        count         int8[n]                 how many of them it passes
        to            int8[n]                 to whom (the partner, or the left or right
                                              neighbour)
        bids          int8[n, P]              the bids so far (all -1 when passing before the
                                              bidding)
        blind         bool[n, P]              which of them were bid blind
        scores        int32[n, S]             the sides' game scores before this hand
        bags          int32[n, S]             the sides' bags before this hand
        twice         uint64[n]               the cards of ``hand`` held twice (two decks,
                                              §4.7), or None
    """

    rows: np.ndarray
    seat: np.ndarray
    hand: np.ndarray
    count: np.ndarray
    to: np.ndarray
    bids: np.ndarray
    blind: np.ndarray
    scores: np.ndarray
    bags: np.ndarray
    rules: object
    deck: Deck
    twice: np.ndarray | None = None


@dataclass(frozen=True, eq=False)
class KittyView(PassView):
    """The kitty's taker discards (Spades ``kitty``, RULES.md §4.1): ``count`` distinct cards of
    ``hand`` (his cards with the kitty's) to the discard pile (``to`` = -1); the bids are all -1
    when he takes it before the bidding. Every field of `PassView`, and:

    Fields:
        kitty         uint64[n]               the kitty he took
        twice         uint64[n]               the cards he holds both copies of (two decks;
                                              else 0)
    """

    kitty: np.ndarray = None
    twice: np.ndarray = None


@dataclass(frozen=True, eq=False)
class DrawView(_Batched):
    """Two-player Spades' draw (RULES.md §4.7): keep the ``first`` of the two cards taken from
    the stock, or discard it and keep the second.

    Fields:
        rows          int64[n]                the rows' indices in the engine's batch
        seat          int8[n]                 the seat drawing
        hand          uint64[n]               the cards it kept so far
        first         uint64[n]               the first card (one card)
        second        uint64[n]               the second card when the player sees both
                                              (``draw_mode = "see_both"``), else 0
        seen          uint64[n]               its own discards that it saw
        scores        int32[n, S]             the game scores before this hand
        bags          int32[n, S]             the bags before this hand
    """

    rows: np.ndarray
    seat: np.ndarray
    hand: np.ndarray
    first: np.ndarray
    second: np.ndarray
    seen: np.ndarray
    scores: np.ndarray
    bags: np.ndarray
    rules: object
    deck: Deck


@dataclass(frozen=True, eq=False)
class RedealView(_Batched):
    """A poor hand (Spades ``redeal_poor_hands``, RULES.md §4.1): call a misdeal or play it.

    Fields:
        rows          int64[n]                the rows' indices in the engine's batch
        seat          int8[n]                 the seat deciding
        dealer        int8[n]                 the dealer
        hand          uint64[n]               its cards (poor by one of the rules' conditions)
        scores        int32[n, S]             the sides' game scores before this hand
        bags          int32[n, S]             the sides' bags before this hand
    """

    rows: np.ndarray
    seat: np.ndarray
    dealer: np.ndarray
    hand: np.ndarray
    scores: np.ndarray
    bags: np.ndarray
    rules: object
    deck: Deck


@dataclass(frozen=True, eq=False)
class RevealView(_Batched):
    """Show seven or more cards of ``suit`` and make it trump (Spades ``seven_trump_reveal``,
    RULES.md §4.2).

    Fields:
        rows          int64[n]                the rows' indices in the engine's batch
        seat          int8[n]                 the seat deciding
        dealer        int8[n]                 the dealer
        hand          uint64[n]               its cards
        suit          int8[n]                 the suit it may reveal (3: restore spades after
                                              another suit was revealed)
        scores        int32[n, S]             the sides' game scores before this hand
        bags          int32[n, S]             the sides' bags before this hand
        face_up       uint64[n, P]            the cards dealt face up (§4.1), or None
        face_up_twice uint64[n, P]            two decks: those dealt twice to the seat, or None
        cancel_card   int8[n]                 the slot of the bag-cancelling card (§4.6), or
                                              None
    """

    rows: np.ndarray
    seat: np.ndarray
    dealer: np.ndarray
    hand: np.ndarray
    suit: np.ndarray
    scores: np.ndarray
    bags: np.ndarray
    rules: object
    deck: Deck
    face_up: np.ndarray | None = None
    face_up_twice: np.ndarray | None = None
    cancel_card: np.ndarray | None = None


@dataclass(frozen=True, eq=False)
class DeclareView(_Batched):
    """A declaration in Norwegian whist (RULES.md §2), after looking at the cards.

    Fields:
        rows          int64[n]                the rows' indices in the engine's batch
        seat          int8[n]                 the seat deciding
        dealer        int8[n]                 the dealer
        hand          uint64[n]               its cards
        legal         uint8[n]                the declarations open to it, bit c = code c of
                                              `sim.norwegian.auction` (PASS 0, GRAND 1,
                                              MISERE 2, NULLO 3)
        declarations  int8[n, P]              said so far (-1 = not yet, or never: an auction
                                              ends at its first bid)
        scores        int32[n, S]             the game scores before this hand (S = P with 2
                                              or 3 players, the two partnerships with 4)
    """

    rows: np.ndarray
    seat: np.ndarray
    dealer: np.ndarray
    hand: np.ndarray
    legal: np.ndarray
    declarations: np.ndarray
    scores: np.ndarray
    rules: object
    deck: Deck


@dataclass(frozen=True, eq=False)
class PlayView(_Batched):
    """One card to play, in every game (RULES.md §0).

    Fields:
        rows          int64[n]                the rows' indices in the engine's batch
        seat          int8[n]                 the seat to play (Portland dummy whist: the
                                              dummy's seat when its partner plays its card)
        hand          uint64[n]               its cards
        legal         uint64[n]               the cards it may play (never 0)
        position      int                     its place in the trick, 0 = leading (the same
                                              for the whole batch)
        trick_no      int                     the trick, 0-based
        leader        int8[n]                 who led this trick
        in_trick      uint64[n]               the cards played to this trick so far
        led           uint64[n]               the led suit's cards (0 when leading)
        trump         uint64[n]               the trump suit's cards (0 = no trump)
        winning       uint64[n]               the card now winning the trick: the highest
                                              trump, else the highest card of the led suit
                                              (0 when leading)
        winning_seat  int8[n]                 its player (-1 when leading)
        played        uint64[n]               every card of the earlier tricks
        history       int8[n, k]              the slot of every card of the earlier tricks, in
                                              order of play (`shown` sums them up per seat)
        history_seats int8[n, k]              who played each of them
        trick_cards   int8[n, j]              the slot of every card of this trick so far, in
                                              order of play from the leader's (j = position;
                                              seat (leader + q) mod P played the q-th)
        tricks        int8[n, P]              the tricks each seat won so far this hand
        voids         uint8[n, P]             per seat the suits it has shown void in (bit s =
                                              suit s: it did not follow a lead of that suit,
                                              this trick included; §4.3
                                              first_trick_lowest_club: trick 1 shows the
                                              voids its rule proves, `sim.tricks.play_card`)
        scores        int32[n, S]             the game scores before this hand
        bids          int8[n, P]              Spades: the bids (0 = nil, -1 = none), or None
        blind         bool[n, P]              Spades: which were bid blind, or None
        bags          int32[n, S]             Spades: the bags before this hand, or None
        dealer        int8[n]                 Spades: the dealer, or None (the seat before the
                                              first leader unless a rule names him, §4.3)
        contracts     int8[n, S]              Spades: the side contracts (§4.4), or None
        bemo          int8[n, S]              Spades: the bemos (§4.4), or None
        no_trump      bool[n, P]              Spades ``no_trump_bids``: the "no trump" bids,
                                              or None
        half          bool[n, P]              Spades ``half_trick_bids``: which bids are n and a
                                              half, or None
        face_up       uint64[n, P]            Spades: the cards dealt face up (§4.1), or None
        face_up_twice uint64[n, P]            Spades, two decks (§4.7): those of them dealt
                                              twice to the seat, or None
        cancel_card   int8[n]                 Spades ``bag_cancel_card``: the slot of the
                                              hand's bag-cancelling card (named, or cut per
                                              deal: public, §4.6), or None
        passed        uint64[n]               Spades: the cards this seat passed (§4.5), or
                                              None without passing
        received      uint64[n]               Spades: the cards passed to this seat (§4.5), or
                                              None without passing (or with two exchanges,
                                              ``pass_cards`` and ``nil_pass``)
        discards      uint64[n]               Spades, two players: the seat's own discards
                                              that it saw drawing its hand (§4.7), or None
        progressive   int32[n, S]             Spades: the progressive bonuses each side has
                                              earned this game (§4.6), or None without one
        twice         uint64[n]               the cards of ``hand`` held twice (two decks,
                                              RULES.md §4.7), or None
        turn_up       uint64[n]               Portland: the dealer's turned-up card, public,
                                              or None
        visible       uint64[n]               Portland dummy whist: the other cards the player
                                              sees (the dummy's, face up; playing the dummy,
                                              its partner's own), or None
        declarations  int8[n, P]              Norwegian: the declarations (codes of
                                              `sim.norwegian.auction`), or None
        contract      int8[n]                 Norwegian: GRAND, MISERE or NULLO (the
                                              declarer's), or None
        declarer      int8[n]                 Norwegian: who chose (-1: the classic game's
                                              all-pass nullo), or None
        grand_player  int8[n]                 Norwegian: who plays grand (-1 under nullo; the
                                              others play misère, or in the classic game's
                                              grand defend), or None
        trump_on_top  bool                    every row has the same trump suit (or none) and
                                              its bits lie above every other suit's
    """

    rows: np.ndarray
    seat: np.ndarray
    hand: np.ndarray
    legal: np.ndarray
    position: int
    trick_no: int
    leader: np.ndarray
    in_trick: np.ndarray
    led: np.ndarray
    trump: np.ndarray
    winning: np.ndarray
    winning_seat: np.ndarray
    played: np.ndarray
    history: np.ndarray
    history_seats: np.ndarray
    tricks: np.ndarray
    voids: np.ndarray
    scores: np.ndarray
    rules: object
    deck: Deck
    bids: np.ndarray | None = None
    blind: np.ndarray | None = None
    bags: np.ndarray | None = None
    dealer: np.ndarray | None = None
    turn_up: np.ndarray | None = None
    visible: np.ndarray | None = None
    contracts: np.ndarray | None = None
    bemo: np.ndarray | None = None
    no_trump: np.ndarray | None = None
    half: np.ndarray | None = None
    declarations: np.ndarray | None = None
    contract: np.ndarray | None = None
    declarer: np.ndarray | None = None
    grand_player: np.ndarray | None = None
    face_up: np.ndarray | None = None
    face_up_twice: np.ndarray | None = None
    cancel_card: np.ndarray | None = None
    passed: np.ndarray | None = None
    received: np.ndarray | None = None
    discards: np.ndarray | None = None
    progressive: np.ndarray | None = None
    trick_cards: np.ndarray | None = None  # (None only in views built by hand, in tests)
    twice: np.ndarray | None = None
    # (then a card beats the winning card iff it follows suit or trumps and has a higher bit)
    trump_on_top: bool = False

    def has_played(self, seat: np.ndarray) -> np.ndarray:
        """bool[n]: whether ``seat`` has already played to this trick."""
        players = self.tricks.shape[1]
        after = np.subtract(seat, self.leader, dtype=np.int16, casting="unsafe")  # the seats
        if players & (players - 1):  # from the leader to ``seat``, clockwise
            after += np.int16(players) * (after < 0)
        else:
            after &= np.int16(players - 1)
        return after < self.position

    @cached_property
    def shown(self) -> np.ndarray:
        """uint64[n, P]: the cards each seat played to the earlier tricks."""
        players = self.tricks.shape[1]
        return np.stack([self.shown_by(np.full(len(self), s)) for s in range(players)], axis=1)

    def shown_by(self, seat: np.ndarray) -> np.ndarray:
        """uint64[n]: the cards ``seat`` (one per row) played to the earlier tricks."""
        mine = self.history_seats == seat[:, None]
        return np.bitwise_or.reduce(BIT[self.history] * mine, axis=1).astype(np.uint64)

    @cached_property
    def outranked(self) -> np.ndarray:
        """uint64[n]: every slot at or below an unseen card of its suit (`unseen`,
        `sim.cards.at_or_below`): the cards held that are not sure winners of their suit."""
        return at_or_below(self.unseen, self.deck)

    @cached_property
    def unseen(self) -> np.ndarray:
        """uint64[n]: cards neither played nor in this seat's hand nor otherwise visible to it
        (held out of sight by the others)."""
        seen = self.played | self.in_trick | self.hand
        return self.deck.full_mask & ~(seen if self.visible is None else seen | self.visible)
