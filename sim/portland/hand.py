"""One Portland whist hand for a batch of tables (RULES.md §1): trump from the turned-up card,
elder hand leads, 13 tricks, tricks over the book and honours."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .. import phases
from ..cards import BIT, RANKS, Deck, popcount, standard_deck
from ..lineup import Lineup
from ..phases import HandState, Phase, Seating
from ..tricks import PlaySetup, TrickResult
from .rules import PortlandRules
from .scoring import HandScore, score_hands

__all__ = ["PHASES", "HandOutcome", "PortlandHand", "deck_for", "honours_held", "play_hand",
           "play_hands", "play_setup", "start_hand", "trump_of"]

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
class PortlandHand(HandState):
    """The state of a batch of Portland hands (struct of arrays, batch axis first). Given at the
    start (`start_hand`): ``hands`` uint64[N, 4] the dealt cards, ``dealer`` int8[N],
    ``turn_up`` int8[N] the slot of the dealer's last card, turned up and public (it stays in
    his hand), ``scores`` int32[N, 2] before the hand. Filled in by the phases (`PHASES`):
    ``trump`` int8[N] (-1 = none) and ``honours`` int8[N, 2] held per side, ``play``,
    ``score``."""

    hands: np.ndarray
    dealer: np.ndarray
    turn_up: np.ndarray
    scores: np.ndarray
    trump: np.ndarray | None = None
    honours: np.ndarray | None = None
    play: TrickResult | None = None
    score: HandScore | None = None



HandOutcome = PortlandHand  # a state whose phases have all run


def start_hand(hands: np.ndarray, dealer: np.ndarray, turn_up: np.ndarray,
               scores: np.ndarray) -> PortlandHand:
    return PortlandHand(hands=hands, dealer=dealer, turn_up=turn_up, scores=scores)


def _trump(hand: PortlandHand, at: Seating) -> PortlandHand:
    """RULES.md §1 ``trump``: the turned-up card's suit (or none), and the honours of it each
    side holds."""
    trump = trump_of(hand.turn_up, at.deck, at.rules)
    return replace(hand, trump=trump, honours=honours_held(hand.hands, trump, at.deck))


def play_setup(hand: PortlandHand, at: Seating) -> PlaySetup:
    """How the hand's play runs (`sim.tricks.PlaySetup`): elder hand (left of the dealer)
    leads; any card may be led; the turned-up card is public; under ``dummy`` seat 3's hand
    lies face up (RULES.md §1)."""
    deck = at.deck
    trump = np.where(hand.trump >= 0, deck.suit_masks[np.maximum(hand.trump, 0)], np.uint64(0))
    context = dict(scores=hand.scores, rules=at.rules, turn_up=BIT[hand.turn_up])
    return PlaySetup(hands=hand.hands, leader=(hand.dealer + 1) % 4, trump=trump, deck=deck,
                     lead_rule=_any_lead, context=context,
                     dummy=DUMMY if at.rules.dummy else None)


def _play(hand: PortlandHand, at: Seating) -> PortlandHand:
    """The tricks (`play_setup`); under ``dummy`` seat 3 is played by its partner, seat 1
    (RULES.md §1)."""
    lineup = at.lineup
    if at.rules.dummy:
        lineup = Lineup([*lineup.strategies[:3], lineup.strategies[1]])
    return replace(hand, play=play_setup(hand, at).run(lineup, at.rng))


def _score(hand: PortlandHand, at: Seating) -> PortlandHand:
    """Tricks over the book and honours (RULES.md §1, `sim.portland.scoring`)."""
    return replace(hand, score=score_hands(hand.play.tricks, hand.honours, hand.scores, at.rules))


PHASES = (Phase("trump", _trump), Phase("play", _play), Phase("score", _score))


def play_hand(hand: PortlandHand, at: Seating, steps: tuple[Phase, ...] | None = None
              ) -> PortlandHand:
    """Run ``steps`` (default: every phase) over a state (`sim.phases.play_hand`)."""
    steps = phases.pipeline(PHASES, at.rules, at.replay) if steps is None else steps
    return phases.play_hand(hand, at, steps)


def play_hands(hands: np.ndarray, dealer: np.ndarray, turn_up: np.ndarray, scores: np.ndarray,
               lineup, rules: PortlandRules, rng: np.random.Generator,
               deck: Deck | None = None) -> PortlandHand:
    """A batch of hands from the deal to the score: `start_hand` and `play_hand`."""
    return play_hand(start_hand(hands, dealer, turn_up, scores),
                     Seating(rules, deck or deck_for(rules), lineup, rng))
