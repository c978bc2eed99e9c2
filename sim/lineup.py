"""Who plays which seat: a strategy per seat, and the batched dispatch of decisions to them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .streams import Streams, rows_of

__all__ = ["Lineup"]


class Lineup:
    """One strategy object per seat. Seats sharing an object are served by one batched call.

    ``decide(view, method, rng, out_dtype)`` calls ``getattr(strategy, method)(subview, rng)``
    once per distinct strategy on the rows whose acting seat it plays, and assembles the answers.
    ``rng`` is the batch's generator, or the streams of several blocks playing together
    (`sim.streams.Streams`), which each strategy gets for its view's rows.
    """

    def __init__(self, strategies: Sequence):
        self.strategies = tuple(strategies)

        def index(st):  # equal strategies (same kind and parameters) play as one group
            return next((i for i, d in enumerate(distinct) if d is st or d == st), None)

        distinct: list = []
        for st in self.strategies:
            if index(st) is None:
                distinct.append(st)
        owner = [index(st) for st in self.strategies]
        self.groups = distinct
        self._owner = np.array(owner, dtype=np.int8)  # seat -> index into groups

    def __len__(self) -> int:
        return len(self.strategies)

    def decide(self, view, method: str, rng: np.random.Generator, dtype) -> np.ndarray:
        if isinstance(rng, Streams):  # several blocks: each view row draws from its block's
            rng = rng.of(view.rows)
        if len(self.groups) == 1:
            return np.asarray(getattr(self.groups[0], method)(view, rng), dtype=dtype)
        owner = self._owner[view.seat]
        out = np.zeros(len(view), dtype=dtype)
        for g, strategy in enumerate(self.groups):
            idx = np.flatnonzero(owner == g)
            if idx.size:
                out[idx] = getattr(strategy, method)(view.take(idx), rows_of(rng, idx))
        return out

