"""`seed`: a sound heuristic Spades player (RULES.md §3), every habit a tunable parameter.

Bidding counts likely tricks — aces, guarded kings and queens, top spades, spade length, ruffs in
short suits — and bids nil with a weak hand short of high spades, or blind nil when far behind.
Play follows one of four aims per hand and seat, decided afresh at every card:

* ``duck``   — the seat bid nil: lose every trick (the highest card that still loses, shed high
  cards when void, lead low);
* ``cover``  — the partner bid nil and has not been caught: win the tricks he could be caught in;
* ``shed``   — the side's contract is safe (and the opponents cannot be set): avoid bags by
  losing tricks cheaply;
* ``win``    — otherwise: win tricks economically (sure winners first, partner's winning card left
  alone, the cheapest card that beats the trick), which also sets the opponents.

All decisions are batched bitboard arithmetic over the `sim.views` (no per-hand loops).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from sim.cards import (
    SPADES,
    U64,
    at_or_below,
    first_set,
    highest_bit,
    highest_rank,
    lowest_bit,
    lowest_rank,
    pick,
    popcount,
)

from .base import Strategy, register

__all__ = ["SeedStrategy"]

ZERO = U64(0)


def _suit_cards(hand, deck, suit):
    """uint16-range view of one suit: the suit's cards shifted down to bit 0 (bit r = rank r)."""
    return ((hand & deck.suit_masks[suit]) >> U64(int(deck.offsets[suit]))).astype(np.int64)


def _nearest_legal(want: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The legal bid closest to ``want``: the highest legal bid not above it, else the lowest."""
    want = np.clip(want, 0, 15).astype(np.int64)
    legal = legal.astype(np.int64)
    below = legal & ((np.int64(2) << want) - 1)
    top = np.where(below != 0, np.floor(np.log2(np.maximum(below, 1))), -1).astype(np.int64)
    low = np.log2(legal & -legal).astype(np.int64)
    return pick(top >= 0, top, low).astype(np.int8)


@register
@dataclasses.dataclass(frozen=True, kw_only=True)
class SeedStrategy(Strategy):
    """A heuristic partnership Spades player; parameters are in tricks unless said otherwise."""

    name = "seed"
    games = ("spades",)

    # -- bidding: expected tricks -------------------------------------------------------------
    ace: float = 1.0  # a side-suit ace
    king: float = 0.75  # a side-suit king with at least one other card of its suit
    queen: float = 0.25  # a side-suit queen with at least two others
    long_side_suit: int = 6  # side-suit honours count nothing from this length on (ruffed)
    spade_honour: float = 1.0  # A♠; K♠ with 2+ spades; Q♠ with 3+ spades
    spade_length_from: int = 4  # each spade from this one on counts `spade_length`
    spade_length: float = 1.0
    ruff: float = 0.75  # per void (2) or singleton (1) side-suit shortness, spades permitting
    bid_round: float = 0.5  # bid floor(estimate + bid_round)
    # -- nil ------------------------------------------------------------------------------------
    nil_max_estimate: float = 1.25  # bid nil only with at most this many expected tricks
    nil_max_spades: int = 3  # ... at most this many spades
    nil_max_spade: int = 8  # ... and no spade above this rank (0 = 2, 8 = T, 12 = A)
    blind_nil_deficit: int = 300  # bid blind nil when the side trails by this much (if legal)
    # -- house rules of bidding (RULES.md §4.4) ---------------------------------------------------
    dark_max_estimate: float = 0.5  # nil_in_the_dark: play a nil face down with a hand this
    #                                  weak (its cards would lose anyway; the bonus is a blind's)
    no_trump_max_spades: int = 2  # no_trump_bids: bid no trump holding at most this many
    no_trump_min_bid: int = 3  # spades, with a bid of at least this
    half_at: float = 0.25  # half_trick_bids: add a half when the estimate exceeds the bid by this
    partner_estimate: float = 3.0  # partnership_bidding: the partner's tricks, unseen
    raise_margin: float = 0.25  # bid_raise: raise when the estimate exceeds the bid by this
    raise_total_below: int = 11  # ... and the four bids total less (tricks are left over)
    blind_bid_deficit: int = 200  # blind_bids: bid blind when the side trails by this much
    blind_bid_value: int = 4  # ... this many tricks (the nearest open blind bid)
    double_blind_nil_deficit: int = 300  # double_blind_nil: join a partner's blind nil when
    #                                       the side trails by this much
    double_nil_max_estimate: float = 2.0  # double_nil: join a partner's nil with at most this
    forced_nil_max_estimate: float = 2.5  # the least ordinary bid open (fledu, min_team_bid ...)
    #                                       is above the wanted bid: bid nil with at most this
    suicide_first_nil: float = 2.5  # suicide: as the side's first bidder, bid nil with at most
    #                                 this many expected tricks (else the partner must)
    # -- side contracts (RULES.md §4.4): before looking, by the side's deficit (a gamble for a
    #    trailing side); after, by the first bidder's estimate (bemo: the partner's bid plus his
    #    own). Measured in self-play (2 x 20,000 hands): every sighted contract declared below
    #    these thresholds lowered the points per side-hand (team nil at any estimate: -1 = never)
    team_blind_nil_deficit: int = 400
    blind_six_deficit: int = 250
    blind_moon_deficit: int = 600
    team_nil_max_estimate: float = -1.0
    wheel_min_estimate: float = 10.0
    little_mo_min_estimate: float = 10.5
    big_mo_min_estimate: float = 11.0
    little_bemo_at: float = 11.5
    big_bemo_at: float = 13.0
    # -- card passing (RULES.md §4.5) ---------------------------------------------------------------
    nil_pass_spades_first: bool = True  # a nil bidder passes his highest spades first, then his
    #                                     highest cards; his partner passes his lowest cards
    partner_pass_high: bool = True  # to a partner without a nil: the highest side-suit cards
    # -- play -----------------------------------------------------------------------------------
    cover_nil: bool = True  # protect a partner's nil
    avoid_bags: bool = True  # duck once the contract is safe
    set_margin: int = 1  # keep winning while the opponents are at most this many tricks
    #                       from being set even when our contract is safe (-1 = never)

    # ---------------------------------------------------------------------------------- bidding
    def estimate(self, hand: np.ndarray, deck) -> np.ndarray:
        """float64[n]: expected tricks of a hand."""
        spades = _suit_cards(hand, deck, SPADES)
        n_sp = popcount(spades.astype(U64)).astype(np.int64)
        est = np.zeros(hand.shape[0])
        short = np.zeros(hand.shape[0])
        for suit in range(4):
            if suit == SPADES:
                continue
            cards = _suit_cards(hand, deck, suit)
            length = popcount(cards.astype(U64)).astype(np.int64)
            live = length < self.long_side_suit
            est += self.ace * (((cards >> 12) & 1) & live)
            est += self.king * (((cards >> 11) & 1) & (length >= 2) & live)
            est += self.queen * (((cards >> 10) & 1) & (length >= 3) & live)
            short += np.maximum(0, 2 - length)
        est += self.spade_honour * (((spades >> 12) & 1)
                                    + ((spades >> 11) & 1) * (n_sp >= 2)
                                    + ((spades >> 10) & 1) * (n_sp >= 3))
        est += self.spade_length * np.maximum(0, n_sp - self.spade_length_from + 1)
        spare = np.maximum(0, n_sp - 1)  # spades left to ruff with after leading/holding one
        est += self.ruff * np.minimum(short, spare)
        return est

    def blind_nil(self, view, rng):
        partner = (view.seat ^ 2).astype(np.intp)
        rows = np.arange(len(view))
        partner_nil = view.bids[rows, partner] == 0
        partner_blind = view.blind[rows, partner]
        double = view.rules.double_blind_nil & partner_blind  # join it (RULES.md §4.4)
        return pick(double, view.deficit >= self.double_blind_nil_deficit,
                    (view.deficit >= self.blind_nil_deficit) & ~partner_nil)

    def auction_bid(self, view, rng):
        """Raise by one while the side's expected tricks (own estimate + partner_estimate)
        cover 6 + n; else pass (a forced dealer bids the least)."""
        most = np.floor(self.estimate(view.hand, view.deck) + self.partner_estimate
                        + self.bid_round).astype(np.int64) - 6
        least = np.log2((view.legal & ~np.uint16(1)) & -(view.legal & ~np.uint16(1))
                        ).astype(np.int64)  # the lowest bid open
        may_pass = (view.legal & 1) != 0
        return np.where((least <= most) | ~may_pass, least, 0).astype(np.int8)

    def half_bid(self, view, rng):
        rows = np.arange(len(view))
        return self.estimate(view.hand, view.deck) - view.bids[rows, view.seat] >= self.half_at

    def in_the_dark(self, view, rng):
        rows = np.arange(len(view))
        blind = view.blind[rows, view.seat]
        return ~blind & (self.estimate(view.hand, view.deck) <= self.dark_max_estimate)

    def no_trump(self, view, rng):
        """No trump with few spades (they would rarely trump anyway) and a bid that rests on
        side-suit winners."""
        rows = np.arange(len(view))
        spades = popcount(view.hand & view.deck.suit_masks[SPADES])
        bid = view.bids[rows, view.seat]
        return (spades <= self.no_trump_max_spades) & (bid >= self.no_trump_min_bid)

    def raise_bid(self, view, rng):
        rows = np.arange(len(view))
        bid = view.bids[rows, view.seat]
        total = np.maximum(view.bids, 0).sum(axis=1)
        return ((self.estimate(view.hand, view.deck) >= bid + self.raise_margin)
                & (total < self.raise_total_below))

    def blind_bid(self, view, rng):
        want = np.full(len(view), self.blind_bid_value, dtype=np.int64)
        bid = _nearest_legal(want, np.maximum(view.legal & ~np.uint16(1), 2))
        return np.where(view.deficit >= self.blind_bid_deficit, bid, 0).astype(np.int8)

    def bid(self, view, rng):
        deck = view.deck
        est = self.estimate(view.hand, deck)
        spades = _suit_cards(view.hand, deck, SPADES)
        n_sp = popcount(spades.astype(U64))
        top_sp = np.where(spades > 0, np.floor(np.log2(np.maximum(spades, 1))), -1)
        partner = (view.seat ^ 2).astype(np.intp)
        partner_bid = view.bids[np.arange(len(view)), partner]
        partner_nil = partner_bid == 0
        rules = view.rules
        may_nil = (view.legal & 1) != 0
        safe_nil = (n_sp <= self.nil_max_spades) & (top_sp <= self.nil_max_spade)
        limit = np.where(partner_nil, self.double_nil_max_estimate if rules.double_nil else -1.0,
                         self.nil_max_estimate)
        joint = self.partner_estimate if rules.partnership_bidding else 0.0  # one bid for two
        want = np.maximum(1, np.floor(est + joint + self.bid_round)).astype(np.int64)
        ordinary = view.legal & ~np.uint16(1)
        least = np.log2(np.maximum(ordinary & -ordinary, 1)).astype(np.int64)
        # a rule puts every ordinary bid above the wanted one: a weak hand prefers nil
        limit = np.where((least > want) & (limit >= 0),
                         np.maximum(limit, self.forced_nil_max_estimate), limit)
        if rules.suicide:  # the side's first bidder decides who bids the side's nil
            limit = np.where(partner_bid < 0, np.maximum(limit, self.suicide_first_nil), limit)
        nil = may_nil & (est <= limit) & (safe_nil | (limit > self.nil_max_estimate))
        nil |= ordinary == 0  # nothing but nil is left (a partner's high bid under max_team_bid)
        bid = pick(nil, 0, _nearest_legal(want, np.maximum(ordinary, 2)))
        if view.half is not None and rules.half_trick_bids:  # after a partner's half: v and a
            halved = view.half[np.arange(len(view)), partner]  # half, v near est - 0.5
            v = np.clip(np.floor(est), 0, 12).astype(np.int64)
            bid = np.where(halved, _nearest_legal(v, view.legal), bid).astype(np.int8)
        return bid

    # ------------------------------------------------------------------------ side contracts
    def side_contract(self, view, rng):
        """The first open code whose condition holds, strongest first; else none."""
        from sim.spades import contracts as sc

        if getattr(view, "hand", None) is None:  # blind (a BlindView): how far the side trails
            wants = [(sc.BLIND_MOON, view.deficit >= self.blind_moon_deficit),
                     (sc.TEAM_BLIND_NIL, view.deficit >= self.team_blind_nil_deficit),
                     (sc.BLIND_SIX, view.deficit >= self.blind_six_deficit)]
        else:
            est = self.estimate(view.hand, view.deck)
            rows = np.arange(len(view))
            side_est = np.maximum(view.bids[rows, view.seat ^ 2], 0) + est
            wants = [(sc.BIG_BEMO, side_est >= self.big_bemo_at),
                     (sc.LITTLE_BEMO, side_est >= self.little_bemo_at),
                     (sc.BIG_MO, est >= self.big_mo_min_estimate),
                     (sc.LITTLE_MO, est >= self.little_mo_min_estimate),
                     (sc.WHEEL, est >= self.wheel_min_estimate),
                     (sc.TEAM_NIL, est <= self.team_nil_max_estimate)]
        code = np.zeros(len(view), dtype=np.int8)
        for c, wanted in reversed(wants):  # the earlier in the list wins
            open_ = (view.legal >> c) & 1 == 1
            code = np.where(open_ & wanted, c, code).astype(np.int8)
        return code

    # ------------------------------------------------------------------------------- passing
    def pass_cards(self, view, rng):
        """A nil bidder sheds his dangers (highest spades, then highest cards) to his partner,
        who sends back his lowest cards; partners without a nil pass high side-suit cards (the
        receiver's strength); to an opponent, the lowest side-suit cards (spades are kept)."""
        spades = view.deck.suit_masks[SPADES]
        rows = np.arange(len(view))
        mine = view.bids[rows, view.seat] == 0
        partners = view.to == (view.seat ^ 2)
        theirs = view.bids[rows, view.seat ^ 2] == 0
        chosen = np.zeros(len(view), dtype=U64)
        for k in range(int(view.count.max())):
            left = view.hand & ~chosen
            side = first_set(left & ~spades, left)
            high_spade = highest_bit(left & spades) if self.nil_pass_spades_first else ZERO
            shed = first_set(high_spade, highest_rank(left))
            give = pick(partners & ~theirs & self.partner_pass_high, highest_rank(side),
                        lowest_rank(side))
            card = pick(partners & mine, shed, pick(partners & theirs, lowest_rank(left), give))
            chosen |= card * (view.count > k)
        return chosen

    # ------------------------------------------------------------------------------------ play
    def play(self, view, rng):
        rules, deck = view.rules, view.deck
        seat = view.seat
        side0 = (seat & 1) == 0
        b, t = view.bids.astype(np.int16), view.tricks.astype(np.int16)
        # Contract arithmetic per side (RULES.md §3): a nil bidder's tricks count toward the
        # partner's contract only under nil_tricks = "count".
        counted = t if rules.nil_tricks == "count" else t * (b != 0)
        need0 = b[:, 0] + b[:, 2] - counted[:, 0] - counted[:, 2]
        need1 = b[:, 1] + b[:, 3] - counted[:, 1] - counted[:, 3]
        need, opp_need = pick(side0, need0, need1), pick(side0, need1, need0)
        left = 13 - view.trick_no
        settable = (opp_need > 0) & (left - opp_need <= self.set_margin) & (self.set_margin >= 0)
        at = np.arange(len(view)) * 4
        my_bid = b.reshape(-1)[at + seat]
        partner = seat ^ 2
        partner_nil = (b.reshape(-1)[at + partner] == 0) & (t.reshape(-1)[at + partner] == 0)

        duck = my_bid == 0
        cover = ~duck & partner_nil & self.cover_nil
        shed = ~duck & ~cover & (need <= 0) & ~settable & self.avoid_bags

        legal, trump = view.legal, view.trump
        side_cards = first_set(legal & ~trump, legal)  # prefer non-trumps
        outranked = at_or_below(view.unseen, deck)  # at or below an unseen card of its suit
        boss = legal & ~outranked  # cards that no unseen card outranks
        if view.position == 0:
            low = self._lowest_rank(side_cards, deck)
            win = first_set(lowest_bit(first_set(boss & ~trump, boss)),
                          self._from_longest(legal & ~trump, deck), low)
            high = first_set(lowest_bit(boss), highest_bit(side_cards))
            return pick(duck | shed, low, pick(cover, high, win))

        w = view.winning
        higher = ~at_or_below(w, deck)  # cards that outrank w in its suit, and all other suits
        beat = pick((w & trump) != ZERO, legal & trump & higher,
                        (legal & view.led & higher) | (legal & trump))
        lose = legal & ~beat
        lowest_loser = lowest_bit(first_set(lose & ~trump, lose))
        lowest_any = lowest_bit(side_cards)
        # duck and shed: the highest card that still loses (non-trumps first); when every card
        # wins, duck plays its highest (the nil is lost: keep low cards for later) and shed its
        # lowest winner.
        highest_loser = highest_bit(first_set(lose & ~trump, lose, legal))
        duck_card = highest_loser
        shed_card = pick(lose != ZERO, highest_loser, lowest_bit(beat))
        # win: leave partner's sure winner alone; last to play, win as cheaply as possible;
        # second, only with a sure winner; third, with a sure winner or else the highest card.
        last = view.position == view.tricks.shape[1] - 1
        partner_winning = view.winning_seat == partner
        partner_safe = partner_winning & (last | ((w & ~outranked) != ZERO))
        sure_beat = beat & ~outranked
        if last:
            take = lowest_bit(beat)
        elif view.position == 1:
            take = lowest_bit(sure_beat)
        else:
            take = pick(sure_beat != ZERO, lowest_bit(sure_beat), highest_bit(beat))
        win_card = pick(partner_safe, lowest_any, first_set(take, lowest_loser, lowest_bit(beat)))
        # cover: win the trick while the nil partner is still to play or is winning it.
        danger = ~view.has_played(partner) | partner_winning
        cover_card = pick(danger & (beat != ZERO), highest_bit(beat), win_card)
        return pick(duck, duck_card,
                    pick(shed, shed_card, pick(cover, cover_card, win_card)))

    @staticmethod
    def _lowest_rank(cards, deck):
        """The card of lowest rank among ``cards`` (ties: the lowest suit index)."""
        offsets = [U64(int(o)) for o in deck.offsets]
        ranks = np.zeros_like(cards)  # bit r: some card of rank r
        for off in offsets:
            ranks |= cards >> off
        rank = lowest_bit(ranks)
        out = np.zeros_like(cards)
        for off in offsets[::-1]:
            hit = (cards >> off) & rank  # the minimal rank: no stray bit of the next suit
            out = pick(hit != ZERO, hit << off, out)
        return out

    @staticmethod
    def _from_longest(cards, deck):
        """The lowest card of the longest suit among ``cards`` (ties: the lowest suit index)."""
        best_len, best = popcount(cards & deck.suit_masks[0]), cards & deck.suit_masks[0]
        for mask in deck.suit_masks[1:]:
            suit = cards & mask
            length = popcount(suit)
            longer = length > best_len
            best_len, best = pick(longer, length, best_len), pick(longer, suit, best)
        return lowest_bit(best)
