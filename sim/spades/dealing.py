"""A Spades deal from a shuffled deck (RULES.md §0, §4.1, §4.7): hands, kitty, and what the
plug-ins set apart (the face-up cards of §4.1 ``face_up_cards``: `sim.spades.house`).

The deck is dealt one card at a time clockwise from the dealer's left, ``cards_each`` cards each;
the next ``kitty_size`` cards are the kitty (§4.1), the rest stay undealt (three players'
``remove = "last"``). With two decks (§4.7) a hand is two bitboards: ``hands``, the cards it holds,
and ``twice``, the cards it holds both copies of.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import BIT
from ..deal import gather_copies, gather_order, hands_from_order, to_seats
from .house import in_force

__all__ = ["Dealt", "deal_from_order"]

U64 = np.uint64


@dataclass(frozen=True, eq=False)
class Dealt:
    """One deal per row, by seat: ``hands`` and ``twice`` (two decks; else zeros) uint64[N, P];
    the kitty ``kitty`` and ``kitty_twice`` uint64[N] (zeros without one); ``house``: the
    plug-ins' values of the deal, name -> [N] or [N, P] array (``deals``: the face-up cards;
    ``misdeal``: the misdeals called), which the hand's plug-in state starts from; ``seen``
    uint64[N, P] the discards each seat saw drawing its hand (two players, RULES.md §4.7), else
    None."""

    hands: np.ndarray
    twice: np.ndarray
    kitty: np.ndarray
    kitty_twice: np.ndarray
    house: dict
    seen: np.ndarray | None = None


def deal_from_order(order: np.ndarray, dealer: np.ndarray, rules, copies: int = 1) -> Dealt:
    """Deal shuffled decks ``order`` (int8[cards, N] slots, top card first, as
    `sim.blocks.stock_groups` draws them) under ``rules``."""
    players, each, k = rules.players, rules.cards_each, rules.kitty_size
    n = order.shape[1]
    zeros = np.zeros((n, players), dtype=U64)
    if copies == 1:
        hands, twice = hands_from_order(order, players, each), zeros
    else:
        hands, twice = gather_order(order, players, each)
    kitty, kitty_twice = gather_copies(BIT[order[each * players: each * players + k]].reshape(k, n))
    house = {name: cards for rule in in_force(rules) if rule.deals  # face_up_cards
             for name, cards in rule.deals(order, dealer, rules).items()}
    return Dealt(hands=to_seats(hands, dealer), twice=to_seats(twice, dealer), kitty=kitty,
                 kitty_twice=kitty_twice, house=house)
