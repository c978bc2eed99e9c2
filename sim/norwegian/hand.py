"""One Norwegian whist hand for a batch of tables (RULES.md §2): declarations, no-trump play
led by the grand declarer (classic: by the auction's leader), the score tables."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import Deck, standard_deck
from ..tricks import TrickResult, play_tricks
from .auction import Auction, hold_auction
from .rules import NorwegianRules
from .scoring import HandScore, score

__all__ = ["HandOutcome", "deck_for", "play_hands"]


def deck_for(rules: NorwegianRules) -> Deck:
    return standard_deck()


def _any_lead(hand, trumped):
    return hand


@dataclass(frozen=True, eq=False)
class HandOutcome:
    """The auction, play and score of a batch of hands; ``scores_after``: int32[N, sides]."""

    auction: Auction
    play: TrickResult
    score: HandScore
    scores_after: np.ndarray


def play_hands(hands: np.ndarray, dealer: np.ndarray, scores: np.ndarray, lineup,
               rules: NorwegianRules, rng: np.random.Generator,
               deck: Deck | None = None) -> HandOutcome:
    """hands: uint64[N, P] dealt cards; dealer: int8[N]; scores: int32[N, sides] before the
    hand. There are no trumps: a card not of the led suit never wins."""
    deck = deck or deck_for(rules)
    auction = hold_auction(hands, dealer, scores, lineup, rules, rng, deck)
    context = dict(scores=scores, rules=rules, declarations=auction.declarations,
                   contract=auction.contract, declarer=auction.declarer,
                   grand_player=auction.grand_player)
    no_trump = np.zeros(hands.shape[0], dtype=np.uint64)
    play = play_tricks(hands, auction.leader, no_trump, deck, _any_lead, lineup, rng, context)
    points = score(auction, play.tricks, rules)
    return HandOutcome(auction=auction, play=play, score=points,
                       scores_after=scores + points.points)
