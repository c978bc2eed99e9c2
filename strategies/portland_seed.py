"""`seed` for Portland whist: the seed document's advice (RULES.md §1), each piece a parameter.

* lead the top card of the longest suit (``lead_longest``), after cashing sure winners;
* draw trumps — lead them — while the side is likely to hold at least ``draw_trumps_at`` of the
  trumps still out (own trumps plus a fair share of the unseen ones);
* signal when not trying to win (``signal``): from strength (holding the top card still out in
  the suit) play the highest card that loses, else the lowest; and read the partner's signal
  when leading (``read_signal``): lead a suit in which partner showed a card of rank
  ``signal_rank`` or higher;
* ruff losers (``ruff``) but never ruff the partner's winning trick, and keep ``keep_trumps``
  trumps back for control unless the trick is worth it (the last ``keep_trumps`` tricks);
* otherwise win as cheaply as possible, and leave the partner's sure winner alone.

Batched bitboard arithmetic over `sim.views.PlayView`, as the Spades player.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from sim.cards import U64, at_or_below, first_set, highest_bit, lowest_bit, pick, popcount

from .base import CARDS, RANK, TRICKS, Strategy, param, register

__all__ = ["PortlandSeed"]

ZERO = U64(0)


@register
@dataclasses.dataclass(frozen=True, kw_only=True)
class PortlandSeed(Strategy):
    """A heuristic Portland whist partner (no bidding: every decision is a card)."""

    name = "seed"
    games = ("portland",)

    lead_longest: bool = True  # lead the top of the longest suit (else its lowest card)
    draw_trumps_at: float = param(5.0, TRICKS)  # lead trumps while own + expected partner's trumps reach
    #                                             this
    signal: bool = True  # high card from strength when not winning, low otherwise
    read_signal: bool = True  # lead the suit partner signalled
    signal_rank: int = param(8, RANK)  # a card of this rank or higher is a signal (0 = 2, 8 = T, 12 = A)
    ruff: bool = True  # ruff side-suit losers (never partner's winning trick)
    keep_trumps: int = param(1, CARDS)  # trumps kept for control until the last this-many tricks

    def play(self, view, rng):
        deck, legal, trump = view.deck, view.legal, view.trump
        outranked = at_or_below(view.unseen, deck)
        boss = legal & ~outranked  # cards no unseen card outranks
        side = legal & ~trump
        if view.position == 0:
            return self._lead(view, legal, trump, boss, side)
        w = view.winning
        higher = ~at_or_below(w, deck)
        beat = pick((w & trump) != ZERO, legal & trump & higher,
                    (legal & view.led & higher) | (legal & trump))
        following = (legal & view.led) != ZERO
        partner = view.seat ^ 2
        partner_winning = view.winning_seat == partner
        last = view.position == view.tricks.shape[1] - 1
        partner_safe = partner_winning & (last | ((w & ~outranked) != ZERO))
        lose = legal & ~beat
        # not trying to win: signal (high from strength in the suit played, else low)
        strong = (view.hand & view.led & ~outranked) != ZERO
        low = lowest_bit(first_set(lose & ~trump, lose, legal))
        high_loser = highest_bit(first_set(lose & ~trump, lose))
        give = pick(strong & following & (lose != ZERO) & self.signal, high_loser, low)
        # trying to win: cheapest sufficient card; ruffing only when allowed and worth it
        trumps_left = popcount(view.hand & trump)
        late = (13 - view.trick_no) <= self.keep_trumps
        may_ruff = self.ruff & ((trumps_left > self.keep_trumps) | late)
        ruffing = ~following & ((beat & trump) != ZERO)
        sure = lowest_bit(beat & ~outranked)
        if last:  # fourth hand: the cheapest card that wins
            take = lowest_bit(beat)
        elif view.position == 1:  # second hand: only a sure winner
            take = sure
        else:  # third hand: a sure winner, else the cheapest card that wins now
            take = first_set(sure, lowest_bit(beat))
        wants = ((take != ZERO) & ~partner_safe
                 & (~ruffing | (may_ruff & ~partner_winning)))  # never ruff partner's trick
        return pick(wants, take, give)

    def _lead(self, view, legal, trump, boss, side):
        deck = view.deck
        # cash a sure winner in a side suit first
        cash = lowest_bit(boss & ~trump)
        # draw trumps while the side likely holds enough of those still out
        mine = popcount(view.hand & trump).astype(np.float64)
        out = popcount(view.unseen & trump).astype(np.float64)
        draw = (trump != ZERO) & (mine > 0) & (mine + out / 3 >= self.draw_trumps_at)
        trump_lead = pick(draw, highest_bit(first_set(boss & trump, legal & trump)), ZERO)
        # partner's signal: a suit where partner showed a card of signal_rank or higher
        signalled = ZERO
        if self.read_signal:
            shown = view.shown_by(view.seat ^ 2)
            ranks = U64(sum(1 << r for r in range(self.signal_rank, 13)))
            for suit, offset in enumerate(deck.offsets):
                hot = (shown & (ranks << U64(int(offset))) & deck.suit_masks[suit]) != ZERO
                mine_in = side & deck.suit_masks[suit]
                signalled = pick(hot & (signalled == ZERO) & (mine_in != ZERO),
                                 lowest_bit(mine_in), signalled)
        # the longest side suit: its top card (or its lowest)
        best_len, best = popcount(side & deck.suit_masks[0]), side & deck.suit_masks[0]
        for mask in deck.suit_masks[1:]:
            suit = side & mask
            longer = popcount(suit) > best_len
            best_len, best = pick(longer, popcount(suit), best_len), pick(longer, suit, best)
        longest = highest_bit(best) if self.lead_longest else lowest_bit(best)
        return first_set(cash, trump_lead, signalled, longest, lowest_bit(legal))
