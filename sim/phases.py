"""A hand as a sequence of pure phases over a state, for every game (issue 19 items 1 and 3).

Each game has a frozen dataclass state of a batch of hands (batch axis first: `sim.state`) and a
tuple of `Phase`s in the order a hand runs them. A phase takes a state and what the block
shares (`Seating`) and returns a new state with what it decided filled in; it changes nothing it
was given. `pipeline` keeps, once per rules value, the phases the rules run; `play_hand` runs
them, and a state stopped after phase ``k`` resumes with the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from .cards import Deck
from .state import take_rows

__all__ = ["HandState", "Phase", "Seating", "pipeline", "play_hand"]


class HandState:
    """What every game's hand state (a frozen dataclass with ``hands`` [N, P], ``scores``
    [N, sides] before the hand and, once scored, ``score.points``) can do: its size, a copy of
    some rows, the scores after the hand."""

    @property
    def n(self) -> int:
        return self.hands.shape[0]

    def take(self, rows):
        """The state of the rows ``rows`` (a copy: resuming it leaves this one as it is)."""
        return take_rows(self, np.asarray(rows), self.n)

    def copy(self):
        return self.take(np.arange(self.n))

    @property
    def scores_after(self) -> np.ndarray:
        """int32[N, sides]: the scores after the hand (once scored)."""
        return self.scores + self.score.points


@dataclass(frozen=True)
class Seating:
    """What the phases of a block share and do not change: the rules, the card layout, the
    players (``lineup``) and the block's random generator; ``replay``: the decisions come from a
    record, which also gives what the phases marked ``replayed = False`` decide."""

    rules: object
    deck: Deck
    lineup: object
    rng: np.random.Generator
    replay: bool = False


@dataclass(frozen=True)
class Phase:
    """One step of a hand: its function, the rules under which it runs (``runs``), and whether
    it also runs when a record is replayed (``replayed``: its outcome is not in the record)."""

    name: str
    step: Callable[[object, Seating], object]
    runs: Callable[[object], bool] = lambda rules: True
    replayed: bool = True


@cache
def pipeline(phases: tuple[Phase, ...], rules, replay: bool = False) -> tuple[Phase, ...]:
    """The ``phases`` a hand under ``rules`` runs (a rule that is off adds none); ``replay``:
    those a record's decisions are fed into."""
    return tuple(p for p in phases if p.runs(rules) and (p.replayed or not replay))


def play_hand(hand, at: Seating, phases: tuple[Phase, ...]):
    """Run ``phases`` over a state. A state stopped after some phases resumes with the rest:
    ``play_hand(play_hand(h, at, p[:k]), at, p[k:])`` is ``play_hand(h, at, p)`` when
    ``at.rng`` is in the same state."""
    for phase in phases:
        hand = phase.step(hand, at)
    return hand
