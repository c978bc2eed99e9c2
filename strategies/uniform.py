"""`random`: uniform over the legal choices — the baseline, and the conformance harness's player."""

from __future__ import annotations

import dataclasses

import numpy as np

from sim.cards import popcount, select_bit

from .base import Strategy, register

__all__ = ["RandomStrategy"]


def uniform_member(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly chosen set bit of each (non-zero) mask, as a one-bit uint64."""
    mask = mask.astype(np.uint64, copy=False)
    k = (rng.random(mask.shape[0]) * popcount(mask)).astype(np.int64)
    return select_bit(mask, k)


@register
@dataclasses.dataclass(frozen=True, kw_only=True)
class RandomStrategy(Strategy):
    """Uniform over the legal bids (a blind nil, where legal, is one more bid), declarations
    and cards."""

    name = "random"

    def blind_nil(self, view, rng):
        return rng.random(len(view)) * (popcount(view.legal) + 1) < 1

    def bid(self, view, rng):
        return np.bitwise_count(uniform_member(view.legal, rng) - np.uint64(1)).astype(np.int8)

    def blind_bid(self, view, rng):
        """Uniform over looking first (0) and the blind bids open."""
        legal = view.legal.astype(np.uint64) | np.uint64(1)
        return np.bitwise_count(uniform_member(legal, rng) - np.uint64(1)).astype(np.int8)

    def auction_bid(self, view, rng):
        """Uniform over passing (where allowed) and the bids open."""
        return np.bitwise_count(uniform_member(view.legal.astype(np.uint64), rng)
                                - np.uint64(1)).astype(np.int8)

    def half_bid(self, view, rng):
        return rng.random(len(view)) < 0.5

    def in_the_dark(self, view, rng):
        return rng.random(len(view)) < 0.5

    def no_trump(self, view, rng):
        return rng.random(len(view)) < 0.5

    def raise_bid(self, view, rng):
        return rng.random(len(view)) < 0.5

    def redeal(self, view, rng):
        return rng.random(len(view)) < 0.5

    def reveal(self, view, rng):
        return rng.random(len(view)) < 0.5

    def draw(self, view, rng):
        return rng.random(len(view)) < 0.5

    def side_contract(self, view, rng):
        """Uniform over the open codes, declaring nothing (bit 0) among them."""
        code = uniform_member(view.legal.astype(np.uint64), rng) - np.uint64(1)
        return np.bitwise_count(code).astype(np.int8)

    def declare(self, view, rng):
        code = uniform_member(view.legal.astype(np.uint64), rng) - np.uint64(1)
        return np.bitwise_count(code).astype(np.int8)

    def discard_kitty(self, view, rng):
        """``view.count`` distinct cards, each uniform among those not yet chosen."""
        return self.pass_cards(view, rng)

    def pass_cards(self, view, rng):
        """``view.count`` cards, each uniform among those not yet chosen."""
        chosen = np.zeros(len(view), dtype=np.uint64)
        for k in range(int(view.count.max())):
            more = view.count > k
            card = uniform_member(np.where(more, view.hand & ~chosen, np.uint64(1)), rng)
            chosen |= card * more
        return chosen

    def play(self, view, rng):
        return uniform_member(view.legal, rng)
