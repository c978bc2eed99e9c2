"""`seed` for Norwegian whist: the seed document's advice (RULES.md §2), each piece a parameter.

Declaring adds up a hand value (`NorwegianSeed.hand_value`): aces and kings, ``queen`` per queen,
``long_value`` for a suit of ``long_suit`` cards or more (a long suit is a danger in misère), and
``low_value`` per low card (rank ``low_rank`` or lower) short of the average, minus as much per low
card over it (many low cards make a misère; ``spread_value`` rewards their spreading over the
suits). Grand is declared from ``grand_at`` (2 players), ``grand_at_three`` (3 players: 17 cards,
alone against two; the seat before the dealer may bid from ``dealer_discount`` less rather than
leave grand to the dealer's unseen hand) or ``classic_grand_at`` (the classic game; there nullo
up to ``nullo_at``, else pass).

Play has one aim per hand and seat, to win tricks or to lose them:

* winning (the grand player; both sides of a classic grand): cash the sure winners of a long suit
  (``run_length`` cards or more), then lead it from the top to exhaust the opponents, then the
  other sure winners, then the longest suit from the top (its lowest card when opponents who want
  tricks likely hold a higher one, ``top_risk``); follow with the cheapest card that wins, never
  overtaking the partner's sure winner, and only with a sure winner when the partner plays after
  (``leave_to_ally``); else play the lowest card, keeping sure winners when void;
* losing (misère, the 3-player misère team, classic nullo): lead from short suits first
  (``shed_short``) to get void (their lowest card against opponents who want tricks, else their
  highest), else the lowest card in the rank band ``lead_from``..``lead_to``
  (the seed's "lead middle cards" is e.g. 3..8), never a sure winner if avoidable; follow with the
  highest card that still loses (``duck_high``); forced to win, win with the highest card unless
  someone after wants the trick; when void throw the highest card, sure winners first
  (``void_throw_high``); a partner sure to take the trick is the time to throw the highest card
  of the suit (``ally_throw_high``): the side takes it anyway.

A card is a sure winner when no unseen card of its suit outranks it, or when every opponent has
shown void in its suit (``read_voids``). Under ``scoring = "zero_sum"`` the declarer's opponents
score minus the declarer's value, so with ``spoil`` they play against the declarer's contract
rather than by their own table (2 players: the declarer's own aim; 3 players: to win tricks).

Defaults were measured (paired deals, seed against seed with one parameter changed); where they
differ from the seed's numbers the seed's are in the comments. The seed's literal rule — grand
with 4 aces and kings, middle-card leads — is ``grand_at=4.0, queen=0.0, low_value=0.0,
long_value=1.0, lead_from=3, lead_to=8``.

Batched bitboard arithmetic over `sim.views` (loops over suits, ranks and seats only).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np

from sim.cards import (
    U64,
    at_or_below,
    first_set,
    highest_bit,
    highest_rank,
    lowest_bit,
    lowest_rank,
    pick,
    popcount,
    rank_major,
    suit_major,
)
from sim.norwegian.auction import GRAND, MISERE, NULLO, PASS

from .base import CARDS, RANK, TRICKS, VALUE, Strategy, param, register

__all__ = ["NorwegianSeed"]

ZERO = U64(0)
ACE, KING, QUEEN = 12, 11, 10  # ranks (0 = 2)


@lru_cache(maxsize=8)
def _rank_masks(deck) -> tuple[np.uint64, ...]:
    """``masks[r]``: the cards of rank ``r`` (0 = 2 ... 12 = A) of every suit."""
    out = []
    for r in range(13):
        m = 0
        for s, offset in enumerate(deck.offsets):
            if int(deck.suit_masks[s]) >> (int(offset) + r) & 1:
                m |= 1 << (int(offset) + r)
        out.append(U64(m))
    return tuple(out)


def _lengths(x: np.ndarray, deck) -> np.ndarray:
    """int64[n, 4]: cards of each suit."""
    return np.stack([popcount(x & m) for m in deck.suit_masks], axis=1).astype(np.int64)


# _SUIT_SETS[v]: the cards of the suits whose bits are set in v (bit s = suit s, standard layout)
_SUIT_SETS = np.array([sum(((1 << 13) - 1) << (13 * s) for s in range(4) if v >> s & 1)
                       for v in range(16)], dtype=U64)




@register
@dataclasses.dataclass(frozen=True, kw_only=True)
class NorwegianSeed(Strategy):
    """A heuristic Norwegian whist player: declarations and no-trump play (RULES.md §2)."""

    name = "seed"
    games = ("norwegian",)

    # -- declaring: the hand value (see `hand_value`) --------------------------------------
    grand_at: float = param(3.0, VALUE)  # 2 players: declare grand from this hand value (seed: 4
    #                                      aces+kings, with queen = low_value = 0)
    queen: float = param(0.75, VALUE)  # what a queen adds to the hand value (an ace or a king adds 1)
    long_suit: int = param(6, CARDS)  # a suit this long (seed: 6+) is a danger in misère ...
    long_value: float = param(0.5, VALUE)  # ... adding this to the hand value (pushing toward grand)
    low_rank: int = param(4, RANK)  # a card of this rank or lower is low (0 = 2, 4 = 6)
    low_value: float = param(1.0, VALUE)  # subtracted per low card over the average (low_rank + 1 in 13
    #                                       cards: many low cards favour misère), added per low card
    #                                       under it
    spread_value: float = param(0.0, VALUE)  # added per suit without a low card (low cards evenly spread
    #                                          favour misère; measured to add nothing beyond their
    #                                          number)
    grand_at_three: float = param(5.0, VALUE)  # 3 players (17 cards, alone against two): grand from this
    #                                            (under zero_sum scoring passing pays: higher is better)
    dealer_discount: float = param(0.0, VALUE)  # 3 players: the seat before the dealer bids from this
    #                                             less
    classic_grand_at: float = param(4.5, VALUE)  # classic game: bid grand from this hand value
    nullo_at: float = param(3.0, VALUE)  # classic game: bid nullo up to this hand value (else pass)
    # -- play: winning tricks ------------------------------------------------------------------
    run_length: int = param(5, CARDS)  # run a suit this long (seed: 5+) first: its sure winners, then
    #                                    its top
    top_risk: float = param(0.5, TRICKS)  # lead from the top of the longest suit unless opponents who
    #                                       want tricks hold this many higher cards (expected): then its
    #                                       lowest card
    leave_to_ally: bool = True  # partner plays after: take only with a sure winner
    # -- play: losing tricks -------------------------------------------------------------------
    lead_from: int = param(0, RANK)  # lead the lowest card of ranks from this (seed, middle cards: 3 =
    #                                  5) ...
    lead_to: int = param(12, RANK)  # ... to this (seed: 8 = T); else the lowest card that can lose
    shed_short: int = param(2, CARDS)  # lead first from suits this short (singletons, doubletons; 0 =
    #                                    off)
    duck_high: bool = True  # follow with the highest card that still loses (else the lowest)
    void_throw_high: bool = True  # when void throw the highest card, sure winners first (else
    #                               the lowest card)
    ally_throw_high: bool = True  # partner sure to take the trick: throw the highest card
    # -- both ----------------------------------------------------------------------------------
    read_voids: bool = True  # cards of a suit every opponent has shown void in are sure winners
    spoil: bool = True  # zero_sum scoring: the declarer's opponents play against the contract

    # -------------------------------------------------------------------------------- declaring
    def hand_value(self, hand: np.ndarray, deck) -> np.ndarray:
        """float64[n]: aces and kings + ``queen`` per queen + ``long_value`` with a suit of
        ``long_suit`` cards or more + ``low_value`` per low card short of the average
        (``low_rank + 1`` in 13 cards, pro rata in 17; minus as much per low card over it) +
        ``spread_value`` per suit without a low card."""
        ranks = _rank_masks(deck)
        low = U64(0)
        for m in ranks[: self.low_rank + 1]:
            low |= m
        lows = _lengths(hand & low, deck)
        return (popcount(hand & (ranks[ACE] | ranks[KING])).astype(np.float64)
                + self.queen * popcount(hand & ranks[QUEEN])
                + self.long_value * (_lengths(hand, deck).max(axis=1) >= self.long_suit)
                + self.low_value * ((self.low_rank + 1) * popcount(hand) / 13 - lows.sum(axis=1))
                + self.spread_value * (lows == 0).sum(axis=1))

    def declare(self, view, rng):
        value = self.hand_value(view.hand, view.deck)
        players = view.rules.players
        if players == 2:
            return np.where(value >= self.grand_at, GRAND, MISERE).astype(np.int8)
        if players == 3:
            before_dealer = view.seat == (view.dealer + 2) % 3
            at = self.grand_at_three - self.dealer_discount * before_dealer
            return np.where(value >= at, GRAND, PASS).astype(np.int8)
        return np.where(value >= self.classic_grand_at, GRAND,
                        np.where(value <= self.nullo_at, NULLO, PASS)).astype(np.int8)

    # ------------------------------------------------------------------------------------ play
    def _aims(self, view, players: int):
        """Functions of a seat array: whether it wants tricks, and its partner (-1 for none)."""
        grand, declarer = view.grand_player, view.declarer
        spoiling = self._spoiling(view, players)

        def wants(q):
            if players == 4:
                return view.contract == GRAND
            own = q == grand
            # zero_sum: the opponents score minus the declarer's value, so they want what makes
            # the declarer fail: in both games that is the declarer's own aim
            return np.where(q == declarer, own, declarer == grand) if spoiling else own

        def ally(q):
            if players == 4:
                return q ^ 2
            if players == 3:
                return np.where(q == grand, -1, 3 - q - grand)
            return np.full(q.shape, -1)

        return wants, ally

    def _spoiling(self, view, players: int) -> bool:
        """The declarer's opponents play against his contract (``spoil``, "zero_sum")."""
        return self.spoil and players < 4 and view.rules.scoring == "zero_sum"

    def play(self, view, rng):
        deck, legal, hand = view.deck, view.legal, view.hand
        players = view.tricks.shape[1]
        ranks = _rank_masks(deck)
        seat = view.seat.astype(np.int64)
        wants, ally_of = self._aims(view, players)
        want = wants(seat)
        ally = ally_of(seat)

        def is_opp(q):
            return (q != seat) & (q != ally)

        # suits every opponent has shown void in: a lead there is the side's trick
        dead_bits = np.full(len(view), 15 if self.read_voids else 0, dtype=np.uint8)
        if self.read_voids:
            for q in range(players):
                dead_bits &= pick(is_opp(q), view.voids[:, q], np.uint8(15))
        dead = _SUIT_SETS[dead_bits]
        outranked = at_or_below(view.unseen, deck)  # cards some unseen card of the suit beats
        boss = hand & (~outranked | dead)  # sure winners if led
        if view.position == 0:
            opp_win = np.zeros(len(view), dtype=bool)
            opp_cards = np.zeros(len(view))
            left = view.rules.cards_each - view.trick_no
            for q in range(players):
                qs = np.full_like(seat, q)
                opp_win |= is_opp(qs) & wants(qs)
                opp_cards += left * is_opp(qs)
            opp_share = opp_cards / np.maximum(popcount(view.unseen), 1)
            return pick(want, self._lead_win(view, legal, hand, boss, ranks, opp_win, opp_share),
                        self._lead_lose(legal, hand, boss, ranks, deck, opp_win))

        # who plays after this seat in the current trick
        rest_opp = np.zeros(len(view), dtype=bool)
        rest_opp_win = np.zeros(len(view), dtype=bool)
        rest_ally = np.zeros(len(view), dtype=bool)
        for k in range(1, players - view.position):
            q = (seat + k) % players
            rest_opp |= is_opp(q)
            rest_opp_win |= is_opp(q) & wants(q)
            rest_ally |= q == ally
        led, w = view.led, view.winning
        following = (legal & led) != ZERO
        beat = legal & led & ~at_or_below(w, deck)
        under = legal & led & ~beat
        w_sure = (w & ~(outranked & ~dead)) != ZERO
        ally_takes = (view.winning_seat == ally) & (~rest_opp | w_sure)

        # wanting tricks: the cheapest sure winner; with nobody after wanting the trick the
        # cheapest card that beats, else the highest; partner's sure trick left alone
        sure_beat = lowest_bit(beat & boss)
        take = first_set(sure_beat, pick(rest_opp_win, highest_bit(beat), lowest_bit(beat)))
        take = pick(~rest_opp, lowest_bit(beat), take)
        leave = self.leave_to_ally & rest_ally & (sure_beat == ZERO)
        discard = lowest_rank(first_set(legal & ~boss, legal))  # keep sure winners
        give = pick(following, lowest_bit(legal & led), discard)
        win_card = pick((beat != ZERO) & ~ally_takes & ~leave, take, give)

        # losing tricks: duck as high as possible; forced, win high unless someone after may
        # overtake; void, throw the highest card
        duck = highest_bit(under) if self.duck_high else lowest_bit(under)
        forced = pick(rest_opp_win, lowest_bit(beat), highest_bit(beat))
        follow = first_set(duck, forced)
        if self.ally_throw_high:
            follow = pick(ally_takes, highest_bit(legal & led), follow)
        if self.void_throw_high:  # sure winners first, they would take a trick later
            throw = highest_rank(first_set(legal & boss, legal))
        else:
            throw = lowest_rank(legal)
        lose_card = pick(following, follow, throw)
        return pick(want, win_card, lose_card)

    def _lead_win(self, view, legal, hand, boss, ranks, opp_win, opp_share):
        deck = view.deck
        # the longest suit (the first of equal length), without a reduction over a short axis
        best, longest = popcount(hand & deck.suit_masks[0]), np.zeros(len(view), dtype=np.intp)
        for s, mask in enumerate(deck.suit_masks[1:], start=1):
            length = popcount(hand & mask)
            longer = length > best
            best, longest = np.maximum(best, length), np.where(longer, s, longest)
        suit = legal & deck.suit_masks[longest]
        run = suit * (best >= self.run_length)
        # from the top, unless opponents who want tricks likely hold a higher card: then low
        top = highest_bit(suit)
        higher = popcount(view.unseen & deck.suit_masks[longest] & ~at_or_below(top, deck))
        low = opp_win & (higher * opp_share >= self.top_risk)
        return first_set(highest_bit(boss & run), highest_bit(run), highest_bit(boss & legal),
                         pick(low, lowest_bit(suit), top))

    def _lead_lose(self, legal, hand, boss, ranks, deck, opp_win):
        safe = legal & ~boss  # some unseen card outranks it (or nobody is void)
        band = U64(0)
        for m in ranks[max(self.lead_from, 0): self.lead_to + 1]:
            band |= m
        short = ZERO
        for mask in deck.suit_masks:
            length = popcount(hand & mask)
            short = short | mask * ((length > 0) & (length <= self.shed_short))
        low = lowest_rank(first_set(safe & band, safe, legal))
        # short suits first: against opponents who want tricks their lowest card, else their
        # highest (opponents who duck leave it to us anyway; best done while it can still lose)
        shed = rank_major(safe & short)
        short_card = suit_major(pick(opp_win, lowest_bit(shed), highest_bit(shed)))
        return first_set(short_card, low)
