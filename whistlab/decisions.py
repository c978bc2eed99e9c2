"""One decision of a whistlab strategy from a position (issue 20 item 1), outside the engine's
batch loop: to check a tuned heuristic by hand, or to play whistlab's players elsewhere
(`whistlab.bots`).

    >>> import whistlab
    >>> record = {"game": "spades", "rules": "spades.standard", "dealer": 3,
    ...           "hands": [[...13 cards...], [...], [...], [...]],
    ...           "bids": [4, None, None, None]}          # seat 0 bid 4; seat 1 to bid
    >>> whistlab.decide("expert", record)
    Decision(kind='bid', seat=1, answer=..., blind=False)
    >>> whistlab.view_at(record).view                      # what seat 1 sees (a BidView)

The position is rebuilt and its view built by the engine (`sim.replay.view_at`); the strategy is
resolved here, in the application, because the engine does not know the strategies
(`strategies.make_strategy`: the layers of pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

from sim.decisions import Decision, Position, ask
from sim.replay import view_at
from strategies import make_strategy

__all__ = ["Decision", "Position", "decide", "player", "view_at"]


def player(strategy, game: str = "spades", source: str = "strategy", rules=None):
    """A strategy object for ``game`` (and ``rules``, if given: a strategy refuses rules it
    does not play) from what experiments accept (`strategies.make_strategy`): a name
    (``"expert"``), a table with parameters (``{"name": "seed", "nil_max": 1.5}``), a tuned
    strategy file (``"results/tune/tuned.toml"``, as ``whistlab tune`` writes), or a strategy
    object."""
    if isinstance(strategy, Path):
        strategy = str(strategy)
    return make_strategy(strategy, source=source, game=game, rules=rules)


def decide(strategy, record: Mapping, rules=None, seat: int | None = None,
           seed: int | np.random.Generator = 0) -> Decision:
    """``strategy``'s decision at the position a hand record stops at (a *record prefix*,
    RULES.md §5: `sim.replay.view_at` says how a record stops at a decision; ``rules``
    overrides the record's own, ``seat`` must be the seat to decide if given).

    ``strategy``: see `player`. ``seed``: the strategy's random numbers (an int, or a numpy
    Generator, passed to ``numpy.random.default_rng``: a strategy that draws none, ``seed`` and
    ``expert``, answers the same whatever it is). Returns a `sim.decisions.Decision`: ``kind``
    ("bid", "declare" or "play"), ``seat``, ``answer`` in the record's terms (the bid, 0 = nil;
    the declaration's name; the card's name) and ``blind`` (a blind nil), and the ``position``
    with the view the strategy saw. The engine's checks apply: a record's illegal bid or card,
    or a strategy's illegal answer, raise the engine's errors (ValueErrors)."""
    position = view_at(record, rules, seat)
    rules = position.view.rules
    return ask(position, player(strategy, rules.game, rules=rules), np.random.default_rng(seed))
