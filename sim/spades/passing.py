"""Card passing (RULES.md §4.5) for a batch of hands: the exchange the two passing rules share.

The rules are plug-ins (`sim.spades.house`): ``pass_cards = {count, direction}`` (every player
passes ``count`` cards to the left, the right or his partner, before or after the bidding:
``pass_when``) and ``nil_pass = [n, m]`` (after the bidding, the partners of a side with a nil
bidder exchange ``n`` cards each, ``m`` when a blind nil is among them). Each player chooses his
cards from the hand he holds before the exchange, without seeing what he receives (the decisions
are asked of all four seats, then applied at once): `pass_round`, over a hand's state
`exchange`, each seat's view `pass_view`.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..cards import popcount
from ..errors import IllegalDecision
from ..views import PassView

__all__ = ["IllegalPass", "exchange", "pass_round", "pass_view", "receiver_offset"]


class IllegalPass(IllegalDecision):
    phase = "card passing"


def pass_view(hands: np.ndarray, seat: int, counts: np.ndarray, offset: int, context: dict,
              twice: np.ndarray | None = None, rows: np.ndarray | None = None) -> PassView:
    """What ``seat`` sees when it chooses the cards it passes, in the rows ``rows`` of the batch
    (default every row): its hand before the exchange (``hands`` uint64[N, P]), how many cards
    (``counts`` int8[N, P]) and to whom (``seat + offset``), and ``context``, the fields of
    `sim.views.PassView` that do not change (bids, blind, scores, bags, rules, deck). The
    engine's exchange asks each seat through this view; a caller builds it from a position."""
    rows = np.arange(hands.shape[0]) if rows is None else rows
    players = hands.shape[1]
    seats = np.full(rows.size, seat, np.int8)
    return PassView(rows=rows, seat=seats, hand=hands[rows, seat], count=counts[rows, seat],
                    to=(seats + offset % players) % players,
                    **{k: (v[rows] if isinstance(v, np.ndarray) else v)
                       for k, v in context.items()},
                    twice=None if twice is None else twice[rows, seat])


def pass_round(hands: np.ndarray, counts: np.ndarray, offset: int, context: dict, lineup,
               rng: np.random.Generator, twice: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """One exchange: seat ``s`` passes ``counts[:, s]`` cards to seat ``s + offset`` (mod P).
    Returns (the hands after it, the cards they hold twice, uint64[N, P] the cards each seat
    passed). ``context``: the view fields of `sim.views.PassView` that do not change (bids,
    blind, scores, bags, rules, deck); a strategy's cards are checked: ``count`` cards of its
    own hand. ``twice``: uint64[N, P] the cards each seat holds both copies of (two decks,
    RULES.md §4.7; None with one deck): a seat passes ``count`` different cards (a reading,
    as the kitty's discard: a card held twice keeps one copy), and one receiving a card it
    holds then holds it twice."""
    passed = np.zeros_like(hands)
    players = hands.shape[1]
    offset %= players
    for seat in range(players):
        idx = np.flatnonzero(counts[:, seat] > 0)
        if not idx.size:
            continue
        view = pass_view(hands, seat, counts, offset, context, twice, idx)
        cards = lineup.decide(view, "pass_cards", rng, np.uint64)
        bad = ((cards & ~view.hand) != 0) | (popcount(cards) != view.count)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise IllegalPass(f"must pass {int(view.count[i])} of its own cards, passed "
                              f"{' '.join(context['deck'].names_of(int(cards[i]))) or 'none'}",
                              row=int(idx[i]), seat=seat)
        passed[idx, seat] = cards
    received = passed[:, [(s - offset) % players for s in range(players)]]  # s - offset's
    if twice is None:
        return (hands & ~passed) | received, None, passed
    once = (hands & ~twice & ~passed) | (twice & passed)  # one copy left after passing
    kept = twice & ~passed
    return once | kept | received, kept | (once & received), passed


def receiver_offset(rules, nil: bool = False) -> int:
    """The receiver's seat minus the passer's (mod P) in one exchange of cards (RULES.md §4.5):
    the partner's (his seat at the table, §4.7 pairs) under ``nil_pass`` (``nil``) and for
    ``pass_cards`` to the partner, else the ``pass_cards`` direction's."""
    if nil or rules.pass_cards.direction == "partner":
        return int(rules.table.partner_of(0))
    return rules.pass_cards.offset


def exchange(hand, at, counts: np.ndarray, offset: int, context: dict):
    """One exchange over a Spades hand's state (`sim.spades.hand.SpadesHand`, ``at`` its
    `sim.phases.Seating`): `pass_round`, the hand's cards after it, with two decks the cards
    held twice moving with them (RULES.md §4.7), and the cards passed added to ``passed``."""
    two_decks = at.deck.copies == 2
    hands, held_twice, cards = pass_round(hand.hands, counts, offset, context, at.lineup, at.rng,
                                          hand.twice if two_decks else None)
    return replace(hand, hands=hands, twice=held_twice if two_decks else hand.twice,
                   passed=hand.passed | cards)
