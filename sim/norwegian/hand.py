"""One Norwegian whist hand for a batch of tables (RULES.md §2): declarations, no-trump play
led by the grand declarer (classic: by the auction's leader), the score tables."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .. import phases
from ..cards import Deck, standard_deck
from ..phases import HandState, Phase, Seating
from ..tricks import PlaySetup, TrickResult
from .auction import Auction, hold_auction
from .rules import NorwegianRules
from .scoring import HandScore, score

__all__ = ["PHASES", "HandOutcome", "NorwegianHand", "deck_for", "play_hand", "play_hands",
           "play_setup", "start_hand"]


def deck_for(rules: NorwegianRules) -> Deck:
    return standard_deck()


def _any_lead(hand, trumped):
    return hand


@dataclass(frozen=True, eq=False)
class NorwegianHand(HandState):
    """The state of a batch of Norwegian hands (struct of arrays, batch axis first). Given at
    the start (`start_hand`): ``hands`` uint64[N, P] the dealt cards, ``dealer`` int8[N],
    ``scores`` int32[N, sides] before the hand. Filled in by the phases (`PHASES`): the
    ``auction`` (declarations, contract, declarer, leader), ``play``, ``score``."""

    hands: np.ndarray
    dealer: np.ndarray
    scores: np.ndarray
    auction: Auction | None = None
    play: TrickResult | None = None
    score: HandScore | None = None



HandOutcome = NorwegianHand  # a state whose phases have all run


def start_hand(hands: np.ndarray, dealer: np.ndarray, scores: np.ndarray) -> NorwegianHand:
    return NorwegianHand(hands=hands, dealer=dealer, scores=scores)


def _declare(hand: NorwegianHand, at: Seating) -> NorwegianHand:
    """The declarations or the auction (RULES.md §2, `sim.norwegian.auction`)."""
    auction = hold_auction(hand.hands, hand.dealer, hand.scores, at.lineup, at.rules, at.rng,
                           at.deck)
    return replace(hand, auction=auction)


def play_setup(hand: NorwegianHand, at: Seating) -> PlaySetup:
    """How the hand's play runs (`sim.tricks.PlaySetup`), once declared: no trumps (a card not of
    the led suit never wins), the auction's leader leads, any card may be led (RULES.md §2)."""
    a = hand.auction
    context = dict(scores=hand.scores, rules=at.rules, declarations=a.declarations,
                   contract=a.contract, declarer=a.declarer, grand_player=a.grand_player)
    no_trump = np.zeros(hand.n, dtype=np.uint64)
    return PlaySetup(hands=hand.hands, leader=a.leader, trump=no_trump, deck=at.deck,
                     lead_rule=_any_lead, context=context)


def _play(hand: NorwegianHand, at: Seating) -> NorwegianHand:
    """The tricks (`play_setup`)."""
    return replace(hand, play=play_setup(hand, at).run(at.lineup, at.rng))


def _score(hand: NorwegianHand, at: Seating) -> NorwegianHand:
    """The score tables (RULES.md §2, `sim.norwegian.scoring`)."""
    return replace(hand, score=score(hand.auction, hand.play.tricks, at.rules))


PHASES = (Phase("declare", _declare), Phase("play", _play), Phase("score", _score))


def play_hand(hand: NorwegianHand, at: Seating, steps: tuple[Phase, ...] | None = None
              ) -> NorwegianHand:
    """Run ``steps`` (default: every phase) over a state (`sim.phases.play_hand`)."""
    steps = phases.pipeline(PHASES, at.rules, at.replay) if steps is None else steps
    return phases.play_hand(hand, at, steps)


def play_hands(hands: np.ndarray, dealer: np.ndarray, scores: np.ndarray, lineup,
               rules: NorwegianRules, rng: np.random.Generator,
               deck: Deck | None = None) -> NorwegianHand:
    """A batch of hands from the deal to the score: `start_hand` and `play_hand`."""
    return play_hand(start_hand(hands, dealer, scores),
                     Seating(rules, deck or deck_for(rules), lineup, rng))
