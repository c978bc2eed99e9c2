"""`expert` for Portland whist (issue 9 item 3): card counting, signals and trump control.

(Figures: see the end of this docstring.)

What it knows (all public, RULES.md §1 and §0): the cards still out (``view.unseen``), the suits
each seat has shown void in (``view.voids``), the turned-up trump that the dealer holds until he
plays it, and in dummy whist the cards laid face up (``view.visible``). From these it keeps, for
each other seat, the cards that seat may still hold (``_Table.poss``), so that the trumps out are
counted exactly and an opponent shown void in a suit is known to ruff it when he may hold trumps.

Skills, each a parameter:

* ``count`` — a card "holds" when no opponent still to play to the trick may beat it: a higher
  card of the suit that he may hold, or a trump when he is void in the led suit (RULES.md §0).
  The expert wins with the cheapest card that holds, leaves a partner's holding card alone (never
  ruffs it), and in second hand plays low unless it holds a winner.
* ``draw_margin`` — trump control: lead trumps while the side holds the majority of the trumps
  still out, counted exactly (own + the partner's expected share, or his cards in dummy whist,
  against the opponents' expected share; seats void in trumps hold none); stop when the
  opponents are out of trumps.
* ``keep_trumps`` — keep that many trumps for control: ruff with the last ones only late.
* ``safe_leads`` — never lead a side suit in which an opponent is void and may hold trumps
  (unless nothing else can be led), nor cash a winner he would ruff.
* ``lead_partner_void`` — lead a suit the partner is void in while he may still hold trumps
  (and the player after him is not void in it too with trumps: he would overruff).
* ``return_lead`` — read the partner's leads: lead back the side suit he led first.
* ``read_discards`` — read the partner's discards: do not lead a suit he threw a low card of when
  void (his "weakest suit"); lead a suit he threw a high card of (rank ``signal_rank`` or more).
* ``discard_weakest`` — give the signal: discard from the weakest side suit (the one with the
  lowest top card, never a winner), low; a high card only from a suit with winners to spare.
* ``lead_low`` — lead low from a long suit unless holding its top card or the top of a
  sequence (two touching cards, no card out between them).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from sim.cards import U64, at_or_below, bit_index, first_set, highest_bit, lowest_bit, pick, popcount

from .base import Strategy, register

__all__ = ["PortlandExpert"]

ZERO = U64(0)


def _void_mask(voids: np.ndarray, deck) -> np.ndarray:
    """uint64[n]: the cards of every suit flagged in ``voids`` (uint8[n], bit s = suit s)."""
    out = np.zeros(voids.shape, dtype=U64)
    for s, mask in enumerate(deck.suit_masks):
        out |= mask * ((voids >> s) & 1).astype(U64)
    return out


def _rank(card: np.ndarray, deck) -> np.ndarray:
    """int[n]: the rank (0 = 2 .. 12 = A) of one-bit bitboards in their suit; -1 for 0."""
    slot = bit_index(card).astype(np.int16)
    suit = deck.suit_of_bit[slot & 63]
    return np.where(card != ZERO, slot - deck.offsets[np.maximum(suit, 0)], -1)


class _Table:
    """What the acting seat knows of the others' hands, per relative seat k = 1 (left-hand
    opponent), 2 (partner), 3 (right-hand opponent): ``poss[k]`` the cards seat k may hold,
    ``later[k]`` whether it is still to play to this trick."""

    def __init__(self, view):
        n = len(view)
        deck, seat = view.deck, view.seat.astype(np.intp)
        rows = np.arange(n)
        unseen = view.unseen
        # the dealer took the turned-up trump into his hand (RULES.md §1 `trump`): its holder
        # is known until he plays it (not under no trump, where no card is turned up)
        elder = view.leader if view.trick_no == 0 else view.history_seats[:, 0]
        dealer = (elder.astype(np.intp) + 3) % 4
        turned = ZERO if view.turn_up is None else view.turn_up & unseen & pick(
            view.trump != ZERO, ~ZERO, ZERO)
        # dummy whist (RULES.md §1 `dummy`): seat 3's hand lies face up; playing it, seat 1
        # sees his own: the seat whose hand is ``visible`` is known card for card
        owner = np.where(seat == 3, 1, 3) if view.visible is not None else np.full(n, -1)
        self.poss, self.later, self.full = {}, {}, {}
        for k in (1, 2, 3):
            other = (seat + k) % 4
            void = _void_mask(view.voids[rows, other], deck)
            guess = (unseen & ~turned & ~void) | pick(other == dealer, turned, ZERO)
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

    count: bool = True  # win with the cheapest card that holds against the players still to come
    draw_margin: float = 1.5  # lead trumps while own + partner's - opponents' expected >= this
    keep_trumps: int = 0  # trumps kept for control until the last this-many tricks
    safe_cash: bool = True  # cash no winner an opponent would ruff (void, may hold trumps)
    safe_leads: bool = True  # no lead into an opponent's void while he may hold trumps
    cash_first: bool = False  # cash side winners before drawing trumps (as the seed)
    lead_partner_void: bool = True  # lead partner's void suit while he may hold trumps
    return_lead: bool = True  # lead back the side suit partner led first
    read_discards: bool = False  # avoid the suit partner discarded low, lead the one he threw high
    discard_weakest: bool = True  # discard from the weakest side suit (else the lowest card)
    lead_low: bool = True  # lead low from a long suit unless holding its top or a sequence
    cover_honours: bool = False  # second hand: cover an honour led with a higher one
    ruff_second: bool = False  # second hand: ruff low even when the fourth hand may overruff
    avoid_tenace: bool = True  # do not lead from a short suit headed by an outranked honour
    lead_singleton: bool = True  # lead a side singleton to ruff it later (holding trumps)
    force_short: bool = False  # lead into an opponent's void when the side is short of trumps
    ruff_first: bool = False  # lead partner's void before drawing trumps and cashing
    trump_top: bool = False  # draw with the highest trump (else its top only when it holds)
    risk_cards: int = 0  # an opponent who may hold at most this many cards of a suit may ruff it
    sequence_rank: int = 0  # lead the top of a sequence only from this rank up (0 = 2, 12 = A)
    encourage: bool = False  # holding a winner of the suit led, follow with a high spot card
    read_follows: bool = True  # lead a suit partner followed high in (a trick he did not win)
    signal_rank: int = 4  # a discard of this rank or higher asks for the suit (0 = 2, 12 = A)

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
            poss = pick(table.later[k], table.poss[k], ZERO)
            in_suit |= poss & led
            void = (poss & led) == ZERO
            if self.risk_cards:  # may be void: few cards of the suit left that he may hold
                void |= table.later[k] & (popcount(poss & led) <= self.risk_cards)
            trumps |= pick(void | ((led & trump) != ZERO), poss & trump, ZERO)
        return in_suit, trumps

    def _holding(self, view, cards, led, table):
        """The cards of ``cards`` that no opponent still to play may beat in a trick of ``led``
        (with ``count`` off: the cards no unseen card outranks, as the seed)."""
        deck, trump = view.deck, view.trump
        if not self.count:
            return cards & ~at_or_below(table.unseen, deck)
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
        holds = self._holding(view, beat, view.led, table)
        partner_winning = view.winning_seat == (view.seat ^ 2)
        partner_safe = partner_winning & (self._holding(view, w, view.led, table) != ZERO)
        following = (legal & view.led) != ZERO
        last = view.position == 3
        if last:
            take = lowest_bit(beat)
        elif view.position == 1:  # second hand low, unless holding a winner
            take = lowest_bit(holds)
            if self.cover_honours:  # cover an honour led (J or higher) with the cheapest honour
                cover = lowest_bit(beat & view.led & ~trump)
                honour = (_rank(w, deck) >= 9) & ((w & trump) == ZERO)
                take = first_set(take, pick(honour, cover, ZERO))
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
            spots = mine & at_or_below(table.unseen, deck)
            spot = highest_bit(spots)
            strong = ((mine & ~spots) != ZERO) & (_rank(spot, deck) >= self.signal_rank)
            low_follow = pick(strong & ((view.led & trump) == ZERO), spot, low_follow)
        side = legal & ~trump
        if not self.discard_weakest:
            discard = lowest_bit(first_set(side, legal))
            return pick(following, low_follow, discard)
        winners = legal & ~at_or_below(table.unseen, deck)
        best, best_top = np.zeros(len(view), dtype=U64), np.full(len(view), 99, np.int16)
        for mask in deck.suit_masks:
            suit = side & mask
            top = _rank(highest_bit(suit), deck).astype(np.int16)
            weak = (suit != ZERO) & ((suit & winners) == ZERO) & (top < best_top)
            best, best_top = pick(weak, suit, best), np.where(weak, top, best_top)
        # only winners in the side suits: a winner of the longest one (it has some to spare)
        longest = np.zeros(len(view), dtype=U64)
        for mask in deck.suit_masks:
            suit = side & mask
            longest = pick(popcount(suit) > popcount(longest), suit, longest)
        discard = first_set(lowest_bit(best), lowest_bit(longest), lowest_bit(legal))
        return pick(following, low_follow, discard)

    # leading ---------------------------------------------------------------------------------
    def _lead(self, view, table):
        deck, legal, trump, hand = view.deck, view.legal, view.trump, view.hand
        n = len(view)
        side = legal & ~trump
        unseen = table.unseen
        boss = legal & ~at_or_below(unseen, deck)
        opp_trumps = [table.poss[k] & trump for k in (1, 3)]
        part_trumps = table.poss[2] & trump
        # suits an opponent is void in while he may hold trumps: a lead there is ruffed
        unsafe = np.zeros(n, dtype=U64)
        part_void = np.zeros(n, dtype=U64)
        overruff = np.zeros(n, dtype=U64)  # suits right-hand opp. would overruff partner in
        for mask in deck.suit_masks:
            for i, k in enumerate((1, 3)):
                void = popcount(table.poss[k] & mask) <= self.risk_cards
                unsafe |= pick(void & (opp_trumps[i] != ZERO), mask & ~trump, ZERO)
                if k == 3:
                    overruff |= pick(void & (opp_trumps[i] != ZERO), mask, ZERO)
            pvoid = (table.poss[2] & mask) == ZERO
            part_void |= pick(pvoid & (part_trumps != ZERO), mask & ~trump, ZERO)
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
        trump_lead = pick(draw, highest_bit(trumps) if self.trump_top else
                          self._suit_lead(view, trumps, unseen), ZERO)

        # cash a winner the opponents cannot ruff
        cash = lowest_bit(boss & ~trump & (~unsafe if self.safe_cash else ~ZERO))

        # a suit the partner is void in while he may hold trumps (not one RHO would overruff)
        ruff_lead = ZERO
        if self.lead_partner_void:
            ruff_lead = lowest_bit(side & part_void & ~overruff & ~unsafe)

        # the partner's suits: the side suit he led first, a suit he discarded high in
        wanted = np.zeros(n, dtype=U64)
        unwanted = np.zeros(n, dtype=U64)
        partner = view.seat ^ 2
        suit_of = deck.suit_of_bit
        hist, seats = view.history, view.history_seats
        for t in range(view.trick_no):
            led_slot = hist[:, 4 * t]
            led_mask = deck.suit_masks[np.maximum(suit_of[led_slot], 0)]
            if self.return_lead:
                first = (seats[:, 4 * t] == partner) & (wanted == ZERO)
                wanted |= pick(first, led_mask & ~trump, ZERO)
            won = seats[:, 4 * t + 4] if t + 1 < view.trick_no else view.seat
            if self.read_discards or self.read_follows:
                for j in range(1, 4):
                    slot = hist[:, 4 * t + j]
                    card = U64(1) << slot.astype(U64)
                    rank = slot - deck.offsets[np.maximum(suit_of[slot], 0)]
                    if self.read_follows:  # a high spot under a trick he did not win
                        under = (seats[:, 4 * t + j] == partner) & ((card & led_mask) != ZERO) & (
                            (card & trump) == ZERO) & (won != partner)
                        wanted |= pick(under & (rank >= self.signal_rank), led_mask, ZERO)
                    off = (seats[:, 4 * t + j] == partner) & ((card & led_mask) == ZERO) & (
                        (card & trump) == ZERO) & self.read_discards
                    mask = deck.suit_masks[np.maximum(suit_of[slot], 0)]
                    high = rank >= self.signal_rank
                    wanted |= pick(off & high, mask, ZERO)
                    unwanted |= pick(off & ~high, mask, ZERO)
        wanted &= ~unwanted
        partners_suit = self._suit_lead(view, safe & wanted, unseen)

        # the longest safe side suit (not one partner called weak), else any side suit
        def longest(cards):
            best = np.zeros(n, dtype=U64)
            for mask in deck.suit_masks:
                suit = cards & mask
                best = pick(popcount(suit) > popcount(best), suit, best)
            return best

        # a suit headed by a lone honour that a card out outranks (K x, Q x x: a tenace to keep)
        tenace = np.zeros(n, dtype=U64)
        singleton = np.zeros(n, dtype=U64)
        for mask in deck.suit_masks:
            suit = side & mask
            top = highest_bit(suit)
            lead = self._suit_lead(view, suit, unseen)
            lone = (_rank(top, deck) >= 9) & (lead != top) & (popcount(suit) <= 3)
            tenace |= pick(lone & self.avoid_tenace, suit, ZERO)
            single = (popcount(suit) == 1) & ((suit & boss) == ZERO)
            singleton |= pick(single & self.lead_singleton, suit, ZERO)
        # a singleton to ruff the suit later, while holding trumps and not drawing them
        has_trumps = ((hand & trump) != ZERO) & opp_out
        short_lead = lowest_bit(pick(has_trumps, singleton & safe & ~wanted, ZERO))
        long_lead = first_set(longest(safe & ~unwanted & ~tenace), longest(safe & ~unwanted),
                              longest(safe), longest(side))
        long_lead = self._suit_lead(view, long_lead, unseen)
        low_trump = lowest_bit(legal & trump)
        first = [cash, trump_lead] if self.cash_first else [trump_lead, cash]
        first = [ruff_lead, *first] if self.ruff_first else [*first, ruff_lead]
        return first_set(*first, partners_suit, short_lead, long_lead, low_trump,
                         lowest_bit(legal))

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
        outranked = (top & at_or_below(unseen, deck)) != ZERO
        sequence = ((nxt & cards) != ZERO) & (_rank(top, deck) >= self.sequence_rank)
        return pick(~outranked | sequence, top, lowest_bit(cards))
