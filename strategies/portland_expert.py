"""`expert` for Portland whist (issue 9 item 3): card counting, signals and trump control.

What it knows (all public, RULES.md §0 and §1): the cards still out (``view.unseen``), the suits
each seat has shown void in (``view.voids``), the turned-up trump that the dealer holds until he
plays it (§1 ``trump``), and in dummy whist the hand laid face up (§1 ``dummy``:
``view.visible``, the dummy's or, playing the dummy, the partner's own). From these `_Table` keeps
the cards each other seat may still hold, so that the trumps out are counted exactly and a seat
shown void in a suit is known to ruff it while he may hold trumps.

Skills, each a parameter; "measured" is the expert against itself with that one skill flipped
(``python bench/expert_match.py --rules portland --a expert --b '{"name": "expert", ...}'
--hands 100000 --games 6000 --n-jobs 1``, duplicate deals, both seatings, 95% t intervals; the
expert's gain in points per hand and its share of games). Kept, each better on than off:

* ``count`` — a card "holds" when no opponent still to play may beat it: a higher card of the
  suit he may hold, or a trump where he is void in the led suit. Win with the cheapest card
  that holds (second hand: only then, else low), never ruff or overtake a partner's card that
  holds, ruff a partner's card that the fourth hand would ruff (+0.317 ± 0.004, 61.3% ± 0.6%;
  off = the seed's "no unseen card outranks it").
* ``draw_margin = 1.5`` — trump control: lead trumps while own trumps + the partner's expected
  share − the opponents' expected share of the trumps out reach 1.5, the unseen trumps shared
  among the seats not shown void in trumps (a face-up hand counted card for card); never once
  both opponents are out. Never drawing costs 0.115 ± 0.003 (54.1% ± 0.5%); a margin of 1.0
  0.005 ± 0.004, of 2.0 0.019 ± 0.001.
* ``keep_trumps = 0`` — ruff whenever it wins the trick: keeping one trump back for control (the
  seed's habit) costs 0.169 ± 0.003 (55.9% ± 0.4%).
* ``safe_cash`` — cash no winner that an opponent void in its suit may ruff (+0.029 ± 0.002,
  51.5% ± 0.4%); ``cash_first = False`` — draw trumps before cashing side winners (cashing
  first, as the seed: −0.028 ± 0.002, 51.2% ± 0.3%).
* ``lead_low`` — lead low from a long suit unless holding its top card or the top of a sequence
  (two touching cards: no card out between them); the seed leads its top (+0.093 ± 0.003,
  53.5% ± 0.4%). ``avoid_tenace`` — not from a short suit headed by an outranked honour (K x,
  Q x x) while another suit can be led (+0.0012 ± 0.0008). ``lead_singleton`` — holding trumps
  while the opponents may hold some, lead a side singleton to ruff the suit later
  (+0.009 ± 0.002).
* ``lead_partner_void`` — lead a suit the partner is void in while he may hold trumps and the
  fourth hand is not void in it too (he would overruff) (+0.0014 ± 0.0009).
* Signals given: ``discard_weakest`` — discard the lowest card of the weakest side suit (its top
  card lowest; never a winner), so that a low discard says "not this suit"; the seed throws its
  lowest slot, the clubs whatever they hold (+0.030 ± 0.002, 50.9% ± 0.3%).
* Signals read: ``read_follows`` with ``signal_rank = 4`` — lead a suit in which the partner
  played a card of rank 6 or higher to a trick he did not win (he plays his lowest when not
  winning, so a higher card shows the cards above it) (+0.006 ± 0.002); a threshold of 7
  (the 9) measured 0.002 ± 0.001 worse.

Tried and left out (the figure is what turning it on costs the expert, points per hand):

* ``safe_leads`` — never lead (not only cash) a side suit in which an opponent is void while
  he may hold trumps: −0.005 ± 0.002 (forcing him to ruff a loser shortens his trumps);
  ``force_short`` — lead into such a void only when short of trumps: −0.003 ± 0.002 (measured
  with ``safe_leads`` on).
* ``return_lead`` — lead back the partner's first side suit: −0.004 ± 0.002.
* ``read_discards`` — lead the suit partner discarded high in, avoid the one he discarded low
  in: −0.0007 ± 0.0007; ``encourage`` — holding a winner in the suit led, follow with the
  highest spot card ("lead it"): −0.013 ± 0.002 (it throws cards that win later tricks).
* ``cover_honours`` — second hand covers an honour led: −0.007 ± 0.001; ``ruff_second`` —
  second hand ruffs low where the fourth may overruff: −0.016 ± 0.001.
* ``risk_cards = 1`` — treat an opponent who may hold at most one card of the suit as void:
  −0.029 ± 0.002; ``sequence_rank = 10`` (sequences only from the queen): −0.002 ± 0.001.
* ``ruff_first`` — lead the partner's void before drawing trumps: −0.013 ± 0.002;
  ``trump_top`` — draw with the highest trump always: −0.031 ± 0.001.

Against the seed (``--a expert --b seed --hands 100000 --games 6000 --n-jobs 1``):

* ``portland``: +1.563 ± 0.005 points per hand, 89.8% ± 0.5% of games;
* ``portland.honours``: +1.402 ± 0.006 points per hand, 74.8% ± 0.6% of games;
* against the seed with ``keep_trumps = 0`` (its worst habit removed): +1.343 ± 0.006 (portland);
  20,000 deals of ``portland.no_trump``: +1.86 ± 0.02, ``portland.dummy``: +1.53 ± 0.01.

Batched bitboard arithmetic over `sim.views.PlayView` as the seed's (loops over seats, suits and
earlier tricks only).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np

from sim.cards import (
    U64,
    at_or_below,
    bit_index,
    bits_of,
    first_set,
    highest_bit,
    lowest_bit,
    pick,
    popcount,
)

from .base import CARDS, RANK, TRICKS, Strategy, param, register

__all__ = ["PortlandExpert"]

ZERO = U64(0)


def _only(cond, cards) -> np.ndarray:
    """uint64[n]: ``cards`` where ``cond``, else none (``pick(cond, cards, ZERO)`` in one step)."""
    return np.multiply(cards, cond, dtype=U64)


@lru_cache(maxsize=8)
def _suit_sets(deck) -> np.ndarray:
    """uint64[16]: the cards of the suits whose bits are set in the index (bit s = suit s)."""
    masks = [int(m) for m in deck.suit_masks]
    return np.array([sum(m for s, m in enumerate(masks) if v >> s & 1) for v in range(16)],
                    dtype=U64)


def _void_mask(voids: np.ndarray, deck) -> np.ndarray:
    """uint64[n]: the cards of every suit flagged in ``voids`` (uint8[n], bit s = suit s)."""
    return _suit_sets(deck)[voids & 15]


@lru_cache(maxsize=8)
def _ranks(deck) -> np.ndarray:
    """int16[65]: by slot (`bit_index`: 64 for no card), the rank in its suit (0 = 2 .. 12 = A);
    -1 for no card."""
    slot = np.arange(64, dtype=np.int16)
    rank = slot - deck.offsets[np.maximum(deck.suit_of_bit[slot], 0)]
    return np.append(rank, np.int16(-1)).astype(np.int16)


def _rank(card: np.ndarray, deck) -> np.ndarray:
    """int16[n]: the rank (0 = 2 .. 12 = A) of one-bit bitboards in their suit; -1 for 0."""
    return _ranks(deck)[bit_index(card)]


def _weakest_discard(legal, side, outranked, deck) -> np.ndarray:
    """uint64[n]: the lowest card of the weakest side suit (of those without a winner — a card
    not in ``outranked`` — the one whose top card is lowest), else of the longest side suit,
    else the lowest card."""
    winners = legal & ~outranked
    best, best_top = np.zeros(len(legal), dtype=U64), np.full(len(legal), 99, np.int16)
    for mask in deck.suit_masks:
        suit = side & mask
        top = _rank(highest_bit(suit), deck).astype(np.int16)
        weak = (suit != ZERO) & ((suit & winners) == ZERO) & (top < best_top)
        best, best_top = pick(weak, suit, best), np.where(weak, top, best_top)
    # only winners in the side suits: a winner of the longest one (it has some to spare)
    return first_set(lowest_bit(best), lowest_bit(_longest_suit(side, deck)), lowest_bit(legal))


def _longest_suit(cards, deck) -> np.ndarray:
    """uint64[n]: the cards of the longest suit of ``cards`` (the first of equal length)."""
    best = np.zeros(len(cards), dtype=U64)
    for mask in deck.suit_masks:
        suit = cards & mask
        best = pick(popcount(suit) > popcount(best), suit, best)
    return best


def _first_longest(deck, *options) -> np.ndarray:
    """``first_set(*(_longest_suit(o, deck) for o in options))``, each later option looked at
    only on the rows the earlier ones left empty."""
    out = _longest_suit(options[0], deck)
    for cards in options[1:]:
        empty = np.flatnonzero(out == ZERO)
        if not empty.size:
            break
        out[empty] = _longest_suit(cards[empty], deck)
    return out


class _Table:
    """What the acting seat knows of the others' hands, per relative seat k = 1 (left-hand
    opponent), 2 (partner), 3 (right-hand opponent): ``poss[k]`` the cards seat k may hold,
    ``later[k]`` whether it is still to play to this trick."""

    def __init__(self, view):
        n = len(view)
        deck, seat = view.deck, view.seat
        unseen = view.unseen
        # the dealer took the turned-up trump into his hand (RULES.md §1 `trump`): its holder
        # is known until he plays it (not under no trump, where no card is turned up)
        elder = view.leader if view.trick_no == 0 else view.history_seats[:, 0]
        dealer = (elder + 3) & 3
        turned = ZERO if view.turn_up is None else (
            view.turn_up & unseen & _only(view.trump != ZERO, ~ZERO))
        # dummy whist (RULES.md §1 `dummy`): seat 3's hand lies face up; playing it, seat 1
        # sees his own: the seat whose hand is ``visible`` is known card for card
        owner = np.where(seat == 3, 1, 3) if view.visible is not None else np.full(n, -1)
        voids = view.voids.reshape(-1)  # uint8[row * 4 + seat]
        first = np.arange(n) * 4
        self.poss, self.later, self.full = {}, {}, {}
        for k in (1, 2, 3):
            other = (seat + k) & 3
            void = _void_mask(voids[first + other], deck)
            guess = (unseen & ~turned & ~void) | _only(other == dealer, turned)
            self.full[k] = other == owner
            self.poss[k] = guess if view.visible is None else pick(self.full[k], view.visible,
                                                                   guess)
            self.later[k] = ~view.has_played(other)
        self.unseen = unseen


@register
@dataclasses.dataclass(frozen=True, kw_only=True)
class PortlandExpert(Strategy):
    """A counting, signalling Portland whist partner (every decision is a card)."""

    name = "expert"
    games = ("portland",)

    # Kept: each measured better on than off (points per hand against the expert with it
    # flipped, 100,000 duplicate deals of `portland`; see the module docstring).
    count: bool = True  # win with the cheapest card that holds against the seats to come (+0.317)
    draw_margin: float = param(1.5, TRICKS)  # lead trumps while own + partner's - opponents' expected >=
    #                                          this (never drawing: -0.115; 1.0: -0.005; 2.0: -0.019)
    keep_trumps: int = param(0, CARDS)  # trumps kept back until the last this-many tricks (1: -0.169)
    safe_cash: bool = True  # cash no winner an opponent would ruff (void, may hold trumps) (+0.029)
    cash_first: bool = False  # cash side winners before drawing trumps, as the seed (-0.028)
    lead_low: bool = True  # lead low from a long suit unless holding its top or a sequence (+0.093)
    avoid_tenace: bool = True  # no lead from a short suit headed by an outranked honour (+0.001)
    lead_singleton: bool = True  # lead a side singleton to ruff it later, holding trumps (+0.009)
    lead_partner_void: bool = True  # lead partner's void suit while he may hold trumps (+0.001)
    discard_weakest: bool = True  # discard from the weakest side suit, else the lowest slot (+0.030)
    read_follows: bool = True  # lead a suit partner followed high in, a trick he lost (+0.006)
    signal_rank: int = param(4, RANK)  # partner's card of this rank or higher is a signal, 0 = 2 (7:
    #                                    -0.002)
    # Tried, no better: off (what turning each on costs).
    safe_leads: bool = False  # no lead at all into an opponent's void with trumps (-0.005)
    force_short: bool = False  # ... but when short of trumps, do (with safe_leads on: -0.003)
    return_lead: bool = False  # lead back the side suit partner led first (-0.004)
    read_discards: bool = False  # the suit partner discarded high in; not the one low (-0.001)
    encourage: bool = False  # holding a winner of the suit led, follow with a high spot (-0.013)
    cover_honours: bool = False  # second hand: cover an honour led with a higher one (-0.007)
    ruff_second: bool = False  # second hand: ruff low where the fourth may overruff (-0.016)
    risk_cards: int = param(0, CARDS)  # an opponent with at most this many cards of a suit may ruff (1:
    #                                    -0.029)
    sequence_rank: int = param(0, RANK)  # lead the top of a sequence only from this rank up (10: -0.002)
    ruff_first: bool = False  # lead partner's void before drawing trumps and cashing (-0.013)
    trump_top: bool = False  # draw with the highest trump, not only when it holds (-0.031)

    # ----------------------------------------------------------------------------------------
    def play(self, view, rng):
        table = _Table(view)
        if view.position == 0:
            return self._lead(view, table)
        return self._follow(view, table)

    # what beats what ---------------------------------------------------------------------------
    def _threats(self, view, table, led):
        """(cards of ``led`` and trumps that the opponents still to play may hold and play to a
        trick of the suit ``led``): a trump only where he is void in ``led`` (or ``led`` is
        trump)."""
        trump = view.trump
        in_suit = np.zeros(len(view), dtype=U64)
        trumps = np.zeros(len(view), dtype=U64)
        for k in (1, 3):
            poss = _only(table.later[k], table.poss[k])
            in_suit |= poss & led
            void = (poss & led) == ZERO
            if self.risk_cards:  # may be void: few cards of the suit left that he may hold
                void |= table.later[k] & (popcount(poss & led) <= self.risk_cards)
            trumps |= _only(void | ((led & trump) != ZERO), poss & trump)
        return in_suit, trumps

    def _holding(self, view, cards, led, table):
        """The cards of ``cards`` that no opponent still to play may beat in a trick of ``led``
        (with ``count`` off: the cards no unseen card outranks, as the seed)."""
        deck, trump = view.deck, view.trump
        if not self.count:
            return cards & ~view.outranked
        in_suit, trumps = self._threats(view, table, led)
        ruffed = (trumps != ZERO) & ((led & trump) == ZERO)
        side = cards & led & ~trump & ~at_or_below(in_suit, deck)
        return pick(ruffed, ZERO, side) | (cards & trump & ~at_or_below(trumps, deck))

    # following -------------------------------------------------------------------------------
    def _follow(self, view, table):
        deck, legal, trump, w = view.deck, view.legal, view.trump, view.winning
        higher = ~at_or_below(w, deck)
        beat = pick((w & trump) != ZERO, legal & trump & higher,
                    (legal & view.led & higher) | (legal & trump))
        partner_winning = view.winning_seat == (view.seat ^ 2)  # never second hand
        partner_safe = partner_winning & (self._holding(view, w, view.led, table) != ZERO) \
            if partner_winning.any() else partner_winning
        following = (legal & view.led) != ZERO
        last = view.position == 3
        if not last:
            holds = self._holding(view, beat, view.led, table)
        if last:
            take = lowest_bit(beat)
        elif view.position == 1:  # second hand low, unless holding a winner
            take = lowest_bit(holds)
            if self.cover_honours:  # cover an honour led (J or higher) with the cheapest honour
                cover = lowest_bit(beat & view.led & ~trump)
                honour = (_rank(w, deck) >= 9) & ((w & trump) == ZERO)
                take = first_set(take, _only(honour, cover))
            if self.ruff_second:  # void: ruff low even where the fourth hand may overruff
                take = first_set(take, pick(following, ZERO, lowest_bit(beat & trump)))
        else:  # third hand: a holding card, else the cheapest card that wins now
            take = first_set(lowest_bit(holds), pick(partner_winning, ZERO, lowest_bit(beat)))
        # trump control: keep the last trumps for late in the hand (RULES.md §1 strategy notes)
        trumps_left = popcount(view.hand & trump)
        late = (13 - view.trick_no) <= self.keep_trumps
        ruffing = ~following & ((take & trump) != ZERO)
        may_ruff = (trumps_left > self.keep_trumps) | late
        wants = (take != ZERO) & ~partner_safe & (~ruffing | may_ruff)
        return pick(wants, take, self._give(view, table, following))

    def _give(self, view, table, following):
        """A card when not trying to win: the lowest of the led suit, or a discard."""
        deck, legal, trump = view.deck, view.legal, view.trump
        low_follow = lowest_bit(legal & view.led)
        if self.encourage:  # holding a winner of the suit: the highest spot card says "lead it"
            mine = legal & view.led
            spots = mine & view.outranked
            spot = highest_bit(spots)
            strong = ((mine & ~spots) != ZERO) & (_rank(spot, deck) >= self.signal_rank)
            low_follow = pick(strong & ((view.led & trump) == ZERO), spot, low_follow)
        side = legal & ~trump
        if not self.discard_weakest:
            discard = lowest_bit(first_set(side, legal))
            return pick(following, low_follow, discard)
        void = np.flatnonzero(~following)  # the discards, on their rows only
        low_follow[void] = _weakest_discard(legal[void], side[void], view.outranked[void], deck)
        return low_follow

    # leading ---------------------------------------------------------------------------------
    def _lead(self, view, table):
        deck, legal, trump, hand = view.deck, view.legal, view.trump, view.hand
        n = len(view)
        side = legal & ~trump
        unseen = table.unseen
        boss = legal & ~view.outranked
        opp_trumps = [table.poss[k] & trump for k in (1, 3)]
        part_trumps = table.poss[2] & trump
        # suits an opponent is void in while he may hold trumps: a lead there is ruffed
        unsafe = np.zeros(n, dtype=U64)
        part_void = np.zeros(n, dtype=U64)
        overruff = np.zeros(n, dtype=U64)  # suits right-hand opp. would overruff partner in
        for mask in deck.suit_masks:
            for i, k in enumerate((1, 3)):
                void = popcount(table.poss[k] & mask) <= self.risk_cards
                unsafe |= _only(void & (opp_trumps[i] != ZERO), mask & ~trump)
                if k == 3:
                    overruff |= _only(void & (opp_trumps[i] != ZERO), mask)
            pvoid = (table.poss[2] & mask) == ZERO
            part_void |= _only(pvoid & (part_trumps != ZERO), mask & ~trump)
        safe = side & ~unsafe if self.safe_leads else side

        # trump control: draw while the side holds the majority of the trumps still out,
        # counted exactly: the unseen trumps shared among the seats that may hold them (a seat
        # shown void holds none; a hand face up holds exactly its own)
        mine = popcount(hand & trump).astype(np.float64)
        out = popcount(unseen & trump).astype(np.float64)
        guessed = {k: ~table.full[k] & ((table.poss[k] & trump) != ZERO) for k in (1, 2, 3)}
        holders = sum(g.astype(np.float64) for g in guessed.values())
        share = out / np.maximum(holders, 1)
        expect = {k: np.where(table.full[k], popcount(table.poss[k] & trump).astype(np.float64),
                              np.where(guessed[k], share, 0.0)) for k in (1, 2, 3)}
        opp_out = (opp_trumps[0] | opp_trumps[1]) != ZERO
        balance = mine + expect[2] - expect[1] - expect[3]
        draw = ((legal & trump) != ZERO) & opp_out & (balance >= self.draw_margin)
        if self.force_short:  # fewer trumps than the opponents: make them ruff (shorten them)
            safe = pick(balance < 0, side, safe)
        trumps = legal & trump
        trump_lead = _only(draw, highest_bit(trumps) if self.trump_top else
                          self._suit_lead(view, trumps, unseen))

        # cash a winner the opponents cannot ruff
        cash = lowest_bit(boss & ~trump & (~unsafe if self.safe_cash else ~ZERO))

        # a suit the partner is void in while he may hold trumps (not one RHO would overruff)
        ruff_lead = ZERO
        if self.lead_partner_void:
            ruff_lead = lowest_bit(side & part_void & ~overruff & ~unsafe)

        # the partner's suits: the side suit he led first, a suit he followed or discarded high in
        wanted, unwanted = self._partners_suits(view)
        partners_suit = self._suit_lead(view, safe & wanted, unseen)

        # a suit headed by a lone honour that a card out outranks (K x, Q x x: a tenace to keep)
        tenace = np.zeros(n, dtype=U64)
        singleton = np.zeros(n, dtype=U64)
        for mask in deck.suit_masks:
            suit = side & mask
            top = highest_bit(suit)
            lead = self._suit_lead(view, suit, unseen)
            lone = (_rank(top, deck) >= 9) & (lead != top) & (popcount(suit) <= 3)
            tenace |= _only(lone & self.avoid_tenace, suit)
            single = (popcount(suit) == 1) & ((suit & boss) == ZERO)
            singleton |= _only(single & self.lead_singleton, suit)
        # a singleton to ruff the suit later, while holding trumps and not drawing them
        has_trumps = ((hand & trump) != ZERO) & opp_out
        short_lead = lowest_bit(_only(has_trumps, singleton & safe & ~wanted))
        # the longest safe side suit (not one partner called weak), else any side suit
        long_lead = _first_longest(deck, safe & ~unwanted & ~tenace, safe & ~unwanted, safe, side)
        long_lead = self._suit_lead(view, long_lead, unseen)
        low_trump = lowest_bit(legal & trump)
        first = [cash, trump_lead] if self.cash_first else [trump_lead, cash]
        first = [ruff_lead, *first] if self.ruff_first else [*first, ruff_lead]
        return first_set(*first, partners_suit, short_lead, long_lead, low_trump,
                         lowest_bit(legal))

    def _partners_suits(self, view):
        """(the suits the partner asked for, the suits he called weak) by the earlier tricks
        (``read_follows``, ``read_discards``, ``return_lead``), the second taken out of the
        first."""
        n, done = len(view), view.trick_no
        if done == 0:
            return np.zeros(n, dtype=U64), np.zeros(n, dtype=U64)
        deck, partner = view.deck, view.seat ^ 2
        # the earlier tricks as the play keeps them, rows last (a row's value broadcasts along
        # the batch): slots and seats int8[trick, position in the trick (0 led), row]
        slots = view.history[:, :4 * done].T.reshape(done, 4, n)
        seats = view.history_seats[:, :4 * done].T.reshape(done, 4, n)
        is_partner = seats == partner
        followed_by_him = is_partner[:, 1:].any(axis=1)  # bool[trick, row]: he did not lead
        his = (slots * is_partner).sum(axis=1, dtype=np.int8)  # int8[trick, row]: his card
        led = deck.suit_bit_of_bit[slots[:, 0]]  # uint8[trick, row]: the suit led (1 << s)
        suit = deck.suit_bit_of_bit[his]  # ... and his
        by_partner = followed_by_him & ((bits_of(his) & view.trump) == ZERO)  # not a trump
        followed = suit == led
        high = _ranks(deck)[his] >= self.signal_rank
        per_trick = np.zeros(his.shape, dtype=np.uint8)  # the suits asked for (bit s = suit s)
        weak = np.zeros(his.shape, dtype=np.uint8)  # ... and called weak
        if self.read_follows:  # a high spot under a trick he did not win (won: the next
            # trick's leader, this seat for the last)
            won = np.concatenate([seats[1:, 0], view.seat[None, :].astype(seats.dtype)])
            per_trick |= led * (by_partner & followed & (won != partner) & high)
        if self.read_discards:  # a discard: high asks for its suit, low calls it weak
            off = by_partner & ~followed
            per_trick |= suit * (off & high)
            weak |= suit * (off & ~high)
        sets = _suit_sets(deck)
        wanted = sets[np.bitwise_or.reduce(per_trick, axis=0)]
        if self.return_lead:  # the first side suit he led while nothing was read before it
            before = np.zeros_like(per_trick)
            np.bitwise_or.accumulate(per_trick[:-1], axis=0, out=before[1:])
            side_led = sets[led] & ~view.trump  # uint64[trick, row]
            first = is_partner[:, 0] & (before == 0) & (side_led != ZERO)
            t = np.argmax(first, axis=0)
            wanted |= _only(first.any(axis=0), side_led[t, np.arange(n)])
        unwanted = sets[np.bitwise_or.reduce(weak, axis=0)]
        return wanted & ~unwanted, unwanted

    def _suit_lead(self, view, cards, unseen):
        """The card to lead from ``cards`` (one suit per row, or 0): its top when it is a
        winner or the top of a sequence (no card out between it and the next one held), else
        (``lead_low``) its lowest."""
        deck = view.deck
        top = highest_bit(cards)
        if not self.lead_low:
            return top
        below = (cards | unseen) & at_or_below(top, deck) & ~top
        nxt = highest_bit(below)
        outranked = (top & view.outranked) != ZERO
        sequence = ((nxt & cards) != ZERO) & (_rank(top, deck) >= self.sequence_rank)
        return pick(~outranked | sequence, top, lowest_bit(cards))
