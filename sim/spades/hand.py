"""One Spades hand for a batch of tables: bid, play 13 tricks, score (RULES.md §3)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import SPADES, Deck, pick, standard_deck
from ..tricks import TrickResult, play_tricks
from .bidding import BidResult, run_bidding
from .rules import SpadesRules
from .scoring import HandScore, score_hands

__all__ = ["HandOutcome", "deck_for", "lead_rule_for", "play_hands"]


def deck_for(rules: SpadesRules) -> Deck:
    """The card layout of a rules value (RULES.md §4.2 card orders will add layouts here)."""
    return standard_deck()


def lead_rule_for(rules: SpadesRules, deck: Deck):
    """The leader's restriction under ``spades_broken`` (RULES.md §3). Returns
    ``lead(hand, broken) -> legal`` where ``broken: bool[N]`` says a spade was played to an
    earlier trick. A leader holding only spades may always lead one."""
    spades = deck.suit_masks[SPADES]

    def free(hand, broken):
        return hand

    def until_broken(hand, broken):
        others = hand & ~spades
        return pick(broken | (others == 0), hand, others)

    def never(hand, broken):
        others = hand & ~spades
        return pick(others == 0, hand, others)

    until_broken.reason = "may not be led: spades are not broken and the leader holds other suits"
    never.reason = "may not be led: spades are led only by a player holding nothing else"
    return {True: until_broken, False: free, "never": never}[rules.spades_broken]


@dataclass(frozen=True, eq=False)
class HandOutcome:
    """The bids, the play and the score of a batch of hands; ``scores_after``: int32[N, 2]."""

    bidding: BidResult
    play: TrickResult
    score: HandScore
    scores_after: np.ndarray


def play_hands(hands: np.ndarray, dealer: np.ndarray, scores: np.ndarray, bags: np.ndarray,
               lineup, rules: SpadesRules, rng: np.random.Generator,
               deck: Deck | None = None) -> HandOutcome:
    """hands: uint64[N, 4] dealt cards; dealer: int8[N]; scores, bags: int32[N, 2] before the hand.
    The seat left of the dealer bids first and leads the first trick; spades are trump."""
    deck = deck or deck_for(rules)
    bidding = run_bidding(hands, dealer, scores, bags, rules, deck, lineup, rng)
    trump = np.full(hands.shape[0], deck.suit_masks[SPADES])
    context = dict(bids=bidding.bids, blind=bidding.blind, scores=scores, bags=bags, rules=rules)
    play = play_tricks(hands, (dealer + 1) % 4, trump, deck, lead_rule_for(rules, deck), lineup,
                       rng, context)
    score = score_hands(bidding.bids, bidding.blind, play.tricks, bags, rules)
    return HandOutcome(bidding=bidding, play=play, score=score,
                       scores_after=scores + score.points)
