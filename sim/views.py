"""What a strategy sees when it decides: batched, read-only views of the table.

Every array has the batch axis first; row ``i`` is one hand, ``rows[i]`` its index in the engine's
whole batch (a scripted player uses it to look up its record). A view holds only public information
plus the acting seat's own hand: a strategy cannot see other hands.

Bitboards are ``uint64`` in the layout of ``deck`` (see `sim.cards`). Seats are 0..P-1 clockwise;
in partnership games the partner of seat ``s`` is ``s ^ 2`` and its side is ``s & 1`` (RULES.md §0).
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
    """Before looking at the cards: the decision to bid blind (RULES.md §3 `blind_nil`).

    rows: int64[n]; seat: int8[n] the seat deciding; dealer: int8[n];
    legal: uint32[n] the ordinary bids open to the seat (bit v = bid v, v = 0..the tricks of the
    hand; they do not depend on the cards) — or, when a side contract is asked
    (``side_contract``), the codes open to the side (bit c = code c of `sim.spades.contracts`,
    bit 0 = none); bids: int8[n, P] bids made so far
    (-1 = not yet, or never: the partners of a side contract do not bid), blind: bool[n, P];
    scores, bags: int32[n, sides] running game score and bags before this hand; contracts,
    bemo: int8[n, 2] per side the side contracts and bemos declared so far (0 = none).
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
    half: np.ndarray | None = None  # bool[n, 4]: half bids so far (``half_trick_bids``)
    face_up: np.ndarray | None = None  # uint64[n, 4]: the cards dealt face up (public, §4.1)
    trump_suit: np.ndarray | None = None  # int8[n]: the trump suit (``seven_trump_reveal``)
    kitty_taker: np.ndarray | None = None  # int8[n]: who took the kitty before the bidding (§4.1)

    @property
    def deficit(self) -> np.ndarray:
        """int32[n]: how far the deciding seat's side trails the best other side (negative =
        leads); seat s plays for side s mod S (RULES.md §4.7)."""
        return deficits(self.seat, self.scores)


@dataclass(frozen=True, eq=False)
class BidView(BlindView):
    """A bid after looking: ``hand``: uint64[n] the seat's cards."""

    hand: np.ndarray = None


@dataclass(frozen=True, eq=False)
class PassView(_Batched):
    """Cards to pass (Spades card passing, RULES.md §4.5): ``count`` int8[n] cards of ``hand``
    uint64[n] to seat ``to`` int8[n] (the partner, or the left or right neighbour); bids:
    int8[n, 4] and blind: bool[n, 4] so far (all -1 / false when passing before the bidding);
    scores, bags: int32[n, 2] before this hand."""

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
    twice: np.ndarray | None = None  # uint64[n]: the cards of ``hand`` held twice (two decks)


@dataclass(frozen=True, eq=False)
class KittyView(PassView):
    """The kitty's taker discards (Spades ``kitty``, RULES.md §4.1): ``count`` int8[n] distinct
    cards of ``hand`` (his cards with the kitty's) to the discard pile (``to`` = -1); ``kitty``
    uint64[n] the kitty he took; ``twice`` uint64[n] the cards he holds both copies of (two
    decks; else 0); bids and blind are all -1 / false when he takes it before the bidding."""

    kitty: np.ndarray = None
    twice: np.ndarray = None


@dataclass(frozen=True, eq=False)
class DrawView(_Batched):
    """Two-player Spades' draw (RULES.md §4.7): keep the ``first`` of the two cards taken from
    the stock (uint64[n], one card), or discard it and keep the second. ``second``: the second
    card when the player sees both (``draw_mode = "see_both"``), else 0; ``hand``: the cards kept
    so far; ``seen``: the own discards the player saw; scores, bags: int32[n, 2]."""

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
    rows: int64[n]; seat: int8[n]; dealer: int8[n]; hand: uint64[n] the seat's cards (poor by
    one of the rules' conditions); scores, bags: int32[n, 2] before this hand."""

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
    RULES.md §4.2; ``suit`` = 3: restore spades after another suit was revealed).
    rows: int64[n]; seat, dealer, suit: int8[n]; hand: uint64[n] the seat's cards; scores,
    bags: int32[n, 2] before this hand; face_up: uint64[n, 4] (``face_up_cards``) or None."""

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


@dataclass(frozen=True, eq=False)
class DeclareView(_Batched):
    """A declaration in Norwegian whist (RULES.md §2), after looking at the cards.

    rows: int64[n]; seat: int8[n] the seat deciding; dealer: int8[n]; hand: uint64[n] its cards;
    legal: uint8[n] the declarations open to it, bit ``c`` = code ``c`` of
    `sim.norwegian.auction` (PASS 0, GRAND 1, MISERE 2, NULLO 3); declarations: int8[n, P] said
    so far (-1 = not yet, or never: an auction ends at its first bid); scores: int32[n, sides]
    before this hand (sides = seats with 2 or 3 players, the two partnerships with 4).
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
    """One card to play.

    rows: int64[n]; seat: int8[n] the seat to play; hand: uint64[n] its cards;
    legal: uint64[n] the cards it may play (never 0); position: int, 0 = leading, same for the
    whole batch; trick_no: int, 0-based; leader: int8[n] who led this trick;
    in_trick: uint64[n] the cards played to this trick so far;
    led: uint64[n] bits of the led suit (0 when leading); trump: uint64[n] bits of the trump suit
    (0 = no trump); winning: uint64[n] the card now winning the trick — the highest trump, else
    the highest card of the led suit (RULES.md §0) — and winning_seat: int8[n] its player (0 and
    -1 when leading); played: uint64[n] every card of the earlier tricks; history: int8[n, k]
    and history_seats: int8[n, k] the slot and the player of every card of the earlier tricks in
    order of play (`shown` sums them up per seat); tricks: int8[n, P] tricks won so far this
    hand; voids: uint8[n, P] per seat the suits it has shown void in (bit s = suit s: it did
    not follow a lead of that suit, this trick included); scores: int32[n, sides] before this
    hand. Game-specific (None where the game has none):
    bids: int8[n, P]; blind: bool[n, P]; bags: int32[n, sides] (Spades); turn_up: uint64[n] the
    dealer's turned-up card, public (Portland); visible: uint64[n] the other cards the player
    sees (Portland dummy whist: the dummy's, face up; playing the dummy, its partner's own);
    contracts, bemo: int8[n, 2] the sides' side contracts and bemos, no_trump: bool[n, P] the
    "no trump" bids (Spades, RULES.md §4.4);
    declarations: int8[n, P] (Norwegian, codes of `sim.norwegian.auction`), contract: int8[n]
    GRAND, MISERE or NULLO (the declarer's), declarer: int8[n] who chose (-1: the classic
    game's all-pass nullo), grand_player: int8[n] who plays grand (-1 under nullo; the others
    play misère, or in the classic game's grand defend).
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
    turn_up: np.ndarray | None = None
    visible: np.ndarray | None = None
    contracts: np.ndarray | None = None
    bemo: np.ndarray | None = None
    no_trump: np.ndarray | None = None
    declarations: np.ndarray | None = None
    contract: np.ndarray | None = None
    declarer: np.ndarray | None = None
    grand_player: np.ndarray | None = None
    face_up: np.ndarray | None = None  # uint64[n, P]: Spades cards dealt face up (RULES.md §4.1)
    # every row has the same trump suit (or none) and its bits lie above every other suit's, so
    # that a card beats the winning card iff it follows suit or trumps and has a higher bit
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
