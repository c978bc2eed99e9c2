"""Who holds each face-up card after an exchange of cards, in the search's deals (one deck).

RULES.md §4.1 ``face_up_cards``: the first cards each player receives are dealt face up and are
public. §4.5 (``pass_cards``, or ``nil_pass`` between the partners of a side with a nil): then
each player passes cards to a receiver unseen. After the exchange a face-up card of a seat A is
A's or his receiver R's, and the seat deciding sees which only where it is A or R itself, or
where the card has been played since. `face_up_holders` draws, per deal, the holder of each
face-up card it cannot place:

* a card of a suit A has shown void in was passed (it is R's); of a suit R has shown void in, it
  was kept (A's);
* else the exchange as a uniformly random choice of the cards A passed makes it likely (a
  reading: no strategy is modelled): of A's ``n`` cards before the exchange, ``c`` were passed;
  those whose fate is known (his face-up cards played since, by A or by R, and those the voids
  place) are taken out of both, and the others' holders are drawn one after another without
  replacement (the hypergeometric law: the next is passed with chance passes left / cards
  left).

The rest of each deal is then dealt uniformly given these holders
(`strategies.card_search.deal_view`, ``known``); a deal is not weighted by how many deals each
choice of holders leaves (the voids' evidence beyond the suits they rule out). Draws are a
function of the row's key (``keys``, `strategies.sampling.uniforms`).
"""

from __future__ import annotations

import numpy as np

from sim.cards import U64, popcount
from sim.spades.house.nil_pass import nil_pass_counts
from sim.spades.passing import receiver_offset
from sim.views import PlayView

from .card_search import played_by
from .sampling import NoDeal, random_bits, uniforms

__all__ = ["deal_each", "exchange_made", "face_up_held", "face_up_holders"]

_HOLDER_STREAM, _DEAL_STREAM = 12, 13  # the random streams of the holders' draws (`uniforms`)
#                                         and of the deals given them (`deal_each`)


def face_up_held(view) -> np.ndarray | None:
    """uint64[n, P]: the cards dealt face up (RULES.md §4.1 ``face_up_cards``, public) that each
    seat but the one deciding still holds as dealt (not yet played, nor passed to the seat
    deciding: those are in its hand); None without face-up cards. With two decks (§4.7)
    uint64[n, P, 2], the copies as dealt (``face_up``, ``face_up_twice``;
    `strategies.card_search.deal_view_copies` takes out those played). After an exchange of
    cards some of them may have been passed on: `face_up_holders`."""
    if view.face_up is None:
        return None
    if view.deck.copies == 2:
        out = np.stack([view.face_up, view.face_up_twice], axis=-1)
        out[np.arange(len(view)), view.seat.astype(np.intp)] = 0
        return out
    gone = view.played | view.in_trick if isinstance(view, PlayView) else U64(0)
    out = view.face_up & ~np.asarray(gone | view.hand, U64).reshape(-1, 1)
    out[np.arange(len(view)), view.seat.astype(np.intp)] = 0
    return out


def exchange_made(view) -> bool:
    """Whether the cards of the view's hand have been exchanged (RULES.md §4.5) and some were
    dealt face up (§4.1), with one deck: the face-up cards' holders are then to be drawn
    (`face_up_holders`; the search refuses the two with two decks)."""
    return (view.face_up is not None and getattr(view, "passed", None) is not None
            and view.deck.copies == 1)


def face_up_holders(view, k: int, keys: np.ndarray, also: np.ndarray | None = None,
                    voids: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(uint64[n, k, P], bool[n, k]): per row ``k`` draws of the face-up cards each seat but the
    one deciding holds, after an exchange of cards (module docstring; one deck), and whether
    each draw fits the hands' sizes. ``view``: a `PlayView`, or a `BidView` after an exchange
    before the bids; ``keys`` uint64[n], the rows' keys; ``also`` (uint64[n, P]): the other
    cards known to be held (those the seat passed, `strategies.search.passed_held`), which with
    these may not outnumber a seat's cards: a holder whose hand is full takes no more, and a
    draw that leaves a card no room (late in a hand, earlier draws having filled both hands)
    does not fit (`deal_each` rejects it). ``voids`` (uint8[n, P], bit s = suit s): the suits
    each seat has shown it holds none of, the view's by default (the search adds those a spade
    lead reveals, `strategies.search.revealed_voids`)."""
    held = face_up_held(view)
    n, players = held.shape
    out = np.repeat(held[:, None], k, axis=1)
    also = np.zeros((n, players), U64) if also is None else also
    rules, deck = view.rules, view.deck
    seat = view.seat.astype(np.intp)
    offset = receiver_offset(rules, nil=bool(rules.nil_pass))
    passes = (np.full((n, players), rules.pass_cards.count, np.int64) if rules.pass_cards
              else nil_pass_counts(view.bids, view.blind, rules, view.half).astype(np.int64))
    if isinstance(view, PlayView):
        shown = played_by(view)
        voids = view.voids if voids is None else voids
    else:  # (before the play: nothing played, no void shown)
        shown, voids = np.zeros((n, players), U64), np.zeros((n, players), np.uint8)
    held_now = popcount(view.hand).astype(np.int64)[:, None] + popcount(
        shown[np.arange(n), seat]).astype(np.int64)[:, None] - popcount(shown).astype(np.int64)
    void_cards = np.zeros((n, players), U64)  # the cards of the suits each seat showed void in
    for s, suit in enumerate(deck.suit_masks.astype(U64)):
        void_cards |= np.where((voids >> s) & 1 == 1, suit, U64(0))
    todo = []  # per seat A: his receiver, the cards to draw a holder for, passes and pool left
    for a in range(players):  # (first every card of known fate placed, the others taken out)
        r = (a + offset) % players
        open_ = (seat != a) & (seat != r) & (passes[:, a] > 0)
        cards = np.where(open_, held[:, a], U64(0))  # A's unplayed face-up cards, fate unknown
        moved = cards & void_cards[:, a] & ~void_cards[:, r]  # (he showed none of the suit)
        kept = cards & void_cards[:, r] & ~moved  # (his receiver showed none of it)
        free = cards & ~moved & ~kept
        dealt_up = view.face_up[:, a]
        gone = (popcount(dealt_up & shown[:, r]).astype(np.int64)
                + popcount(moved).astype(np.int64))  # passes accounted for
        known = (popcount(dealt_up & (shown[:, a] | shown[:, r])).astype(np.int64)
                 + popcount(moved | kept).astype(np.int64))  # A's cards of known fate
        out[:, :, a] &= ~(moved | free)[:, None]
        out[:, :, r] |= moved[:, None]
        todo.append((a, r, free, np.maximum(passes[:, a] - gone, 0),
                     np.maximum(rules.cards_each - known, 1)))
    room = held_now[:, None, :] - popcount(out | also[:, None, :]).astype(np.int64)  # [n, k, P]
    for a, r, free, passes_left, pool_left in todo:
        left = np.repeat(passes_left[:, None], k, axis=1)
        pool = np.repeat(pool_left[:, None], k, axis=1)
        rest = free
        for j in range(int(popcount(free).max(initial=0))):  # (at most face_up_cards, 4)
            low = rest & (~rest + U64(1))  # the lowest card left (0 where none)
            some = (low != 0)[:, None]
            u = uniforms(keys, _HOLDER_STREAM, np.arange(k) * 64 + a * 8 + j)  # [n, k]
            go = some & (((u * pool < left) & (room[:, :, r] > 0)) | (room[:, :, a] <= 0))
            stay = some & ~go
            out[:, :, r] |= np.where(go, low[:, None], U64(0))
            out[:, :, a] |= np.where(stay, low[:, None], U64(0))
            room[:, :, r] -= go
            room[:, :, a] -= stay
            left -= go
            pool -= some
            rest = rest & ~low
    fits = (room >= 0).all(axis=2)
    return out, fits


def deal_each(view, k: int, keys: np.ndarray, known: np.ndarray, fits: np.ndarray | None,
              deal) -> np.ndarray:
    """uint64[n, k, P]: for each row and draw ``j`` of the cards each seat surely holds
    (``known`` uint64[n, k, P], `face_up_holders`), one deal given them: ``deal(rows, keys,
    known)`` of the view's rows repeated ``k`` times (``rows``, its `take`), each with a key of
    its own drawn from the row's (``keys``), and those known cards (uint64[n k, P]), giving
    uint64[n k, 1, P]. A draw of holders that does not fit (``fits`` bool[n, k] false) or
    leaves no deal (the voids shown leave a holder's other cards too few to come from) is
    rejected: its place taken by one of its row's draws that dealt (`_dealt_or_not`); a row
    none of whose draws dealt raises `strategies.sampling.NoDeal` (the search then plays the
    rollout strategy's card there)."""
    n = len(view)
    each = random_bits(keys, _DEAL_STREAM, np.arange(k)).reshape(-1)
    known = known.reshape(n * k, -1)
    tried = np.ones(n * k, bool) if fits is None else fits.reshape(-1)
    some, ok_some = _dealt_or_not(view, np.repeat(np.arange(n), k)[tried], each[tried],
                                  known[tried], deal)
    dealt = np.zeros((n * k,) + some.shape[1:], U64)
    ok = np.zeros(n * k, bool)
    dealt[tried], ok[tried] = some, ok_some
    dealt, ok = dealt.reshape((n, k) + dealt.shape[2:]), ok.reshape(n, k)
    if ok.all():
        return dealt
    if not ok.any(axis=1).all():
        raise NoDeal("face-up cards after an exchange: no draw of their holders leaves a deal")
    first = np.argmax(ok, axis=1)  # [n]: a draw of the row that dealt
    rows = np.nonzero(~ok)[0]
    dealt[~ok] = dealt[rows, first[rows]]
    return dealt


def _dealt_or_not(view, rows: np.ndarray, keys: np.ndarray, known: np.ndarray, deal
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(uint64[m, 1, P] the deals, bool[m] which were dealt) of the view's rows ``rows`` with
    ``keys`` and ``known`` (one each), halving the rows where `deal` raises
    `strategies.sampling.NoDeal` until the draws that leave no deal are found (each draw's
    deal its key's alone, whatever the other rows)."""
    if not len(rows):
        return np.zeros((0, 1, known.shape[1]), U64), np.zeros(0, bool)
    try:
        return deal(view.take(rows), keys, known), np.ones(len(rows), bool)
    except NoDeal:
        if len(rows) == 1:
            players = known.shape[1]
            return np.zeros((1, 1, players), U64), np.zeros(1, bool)
        half = len(rows) // 2
        a, ok_a = _dealt_or_not(view, rows[:half], keys[:half], known[:half], deal)
        b, ok_b = _dealt_or_not(view, rows[half:], keys[half:], known[half:], deal)
        return np.concatenate([a, b]), np.concatenate([ok_a, ok_b])
