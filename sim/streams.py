"""The random streams of a batch that holds the games of several blocks (`sim.blocks.play_blocks`).

A block's random choices come from its own stream (`sim.blocks.play_rng`), drawn in lockstep by
its games still playing. When the games of several blocks play a hand together, `Streams` stands
in for the generator: each draw takes its rows' numbers from their own block's stream, in the
order those rows appear, so every block draws exactly the numbers it would draw playing alone.

A draw's first axis is the rows it is for: the whole batch, or the rows of a view (``rows``:
their indices in the batch, as every view of `sim.views` carries them), selected by `Streams.of`
(`sim.lineup.Lineup.decide` does so for every decision). A draw of another length is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["Streams", "rows_of"]


class Streams:
    """Generators ``gens`` and the block of each row (``owner``: int[n], an index into ``gens``).
    Offers the draws the engine and the strategies make (`random`, `integers`), one row of
    numbers per row of the batch."""

    def __init__(self, gens: Sequence[np.random.Generator], owner: np.ndarray):
        self.gens = tuple(gens)
        self.owner = np.asarray(owner, dtype=np.intp)

    @classmethod
    def joined(cls, gens: Sequence[np.random.Generator], counts: Sequence[int]) -> Streams:
        """The streams of a batch made of ``counts[b]`` rows of block ``b`` after those of the
        blocks before it."""
        return cls(gens, np.repeat(np.arange(len(gens)), counts))

    def __len__(self) -> int:
        return self.owner.shape[0]

    def of(self, rows: np.ndarray) -> Streams:
        """The streams of the batch's rows ``rows`` (indices, in the order a draw fills them)."""
        return Streams(self.gens, self.owner[rows])

    def random(self, size=None, dtype=np.float64) -> np.ndarray:
        return self._draw(size, lambda g, shape: g.random(shape, dtype=dtype))

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False) -> np.ndarray:
        return self._draw(size, lambda g, shape: g.integers(low, high, shape, dtype=dtype,
                                                            endpoint=endpoint))

    def _draw(self, size, draw) -> np.ndarray:
        shape = (size,) if np.ndim(size) == 0 and size is not None else tuple(size or ())
        if not shape or shape[0] != len(self):
            raise ValueError(f"a draw of shape {shape} from the streams of {len(self)} rows of "
                             "several blocks: draw one row of numbers per row (a view's rows)")
        parts, where = [], []
        for b, gen in enumerate(self.gens):
            mine = np.flatnonzero(self.owner == b)
            if mine.size:
                parts.append(draw(gen, (mine.size,) + shape[1:]))
                where.append(mine)
        if not parts:  # no row: an empty draw, which takes no number
            return draw(self.gens[0], shape)
        out = np.concatenate(parts)
        joined = np.concatenate(where)
        if np.any(joined[1:] < joined[:-1]):  # rows not grouped by block: put each in its place
            placed = np.empty_like(out)
            placed[joined] = out
            return placed
        return out


def rows_of(rng, rows: np.ndarray):
    """``rng`` for the batch's rows ``rows``: `Streams.of` for the streams of several blocks, the
    generator itself otherwise (a block playing alone)."""
    return rng.of(rows) if isinstance(rng, Streams) else rng
