"""One Portland whist hand for a batch of tables (RULES.md §1): trump from the turned-up card,
elder hand leads, 13 tricks, tricks over the book and honours."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import BIT, RANKS, Deck, popcount, standard_deck
from ..lineup import Lineup
from ..tricks import TrickResult, play_tricks
from .rules import PortlandRules
from .scoring import HandScore, score_hands

__all__ = ["HandOutcome", "deck_for", "honours_held", "play_hands", "trump_of"]

DUMMY = 3  # the dummy's seat in dummy whist; its partner, seat 1, plays it

# A, K, Q and J of each suit in the standard layout (bit 13 * suit + rank): the honours
HONOUR_RANKS = sum(1 << RANKS.index(r) for r in "AKQJ")


def deck_for(rules: PortlandRules) -> Deck:
    return standard_deck()


def trump_of(turn_up: np.ndarray, deck: Deck, rules: PortlandRules) -> np.ndarray:
    """int8[N]: the trump suit, the turned-up card's (RULES.md §1 `trump`), -1 for no trump."""
    if rules.trump == "none":
        return np.full(turn_up.shape, -1, dtype=np.int8)
    return deck.suit_of_bit[turn_up]


def honours_held(hands: np.ndarray, trump_suit: np.ndarray, deck: Deck) -> np.ndarray:
    """int8[N, 2]: how many of A K Q J of trump each side holds at the deal (0 with no trump)."""
    offsets = deck.offsets[np.maximum(trump_suit, 0)].astype(np.uint64)
    mask = (np.uint64(HONOUR_RANKS) << offsets) * (trump_suit >= 0)
    side = np.stack([hands[:, 0] | hands[:, 2], hands[:, 1] | hands[:, 3]], axis=1)
    return popcount(side & mask[:, None]).astype(np.int8)


def _any_lead(hand, trumped):
    return hand


@dataclass(frozen=True, eq=False)
class HandOutcome:
    """The play and the score of a batch of hands; ``trump``: int8[N] (-1 = none), ``honours``:
    int8[N, 2] held per side, ``scores_after``: int32[N, 2]."""

    trump: np.ndarray
    honours: np.ndarray
    play: TrickResult
    score: HandScore
    scores_after: np.ndarray


def play_hands(hands: np.ndarray, dealer: np.ndarray, turn_up: np.ndarray, scores: np.ndarray,
               lineup, rules: PortlandRules, rng: np.random.Generator,
               deck: Deck | None = None) -> HandOutcome:
    """hands: uint64[N, 4] dealt cards; dealer: int8[N]; turn_up: int8[N] the slot of the
    dealer's last card, turned up and public (it stays in the dealer's hand); scores: int32[N, 2]
    before the hand. Elder hand (left of the dealer) leads; any card may be led."""
    deck = deck or deck_for(rules)
    trump_suit = trump_of(turn_up, deck, rules)
    trump = np.where(trump_suit >= 0, deck.suit_masks[np.maximum(trump_suit, 0)], np.uint64(0))
    context = dict(scores=scores, rules=rules, turn_up=BIT[turn_up])
    if rules.dummy:  # seat 3 is the dummy, played by its partner seat 1 (RULES.md §1 `dummy`)
        lineup = Lineup([*lineup.strategies[:3], lineup.strategies[1]])
    play = play_tricks(hands, (dealer + 1) % 4, trump, deck, _any_lead, lineup, rng, context,
                       dummy=DUMMY if rules.dummy else None)
    honours = honours_held(hands, trump_suit, deck)
    score = score_hands(play.tricks, honours, scores, rules)
    return HandOutcome(trump=trump_suit, honours=honours, play=play, score=score,
                       scores_after=scores + score.points)
