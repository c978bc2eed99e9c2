"""The deal against exact combinatorics (STYLE.md section 11: statistical checks with an explicit
tolerance), and the deal order of RULES.md section 0.

Under a uniformly random deal every seat's hand is a uniform 13-card subset of the 52 cards, so:

* card ``c`` is in column (seat) ``k`` with probability 1/4;
* two given cards are in the same hand with probability 12/51 (the second card is one of the 51
  others, 12 of which share the first card's hand);
* the number of spades in a hand is hypergeometric(52 cards, 13 spades, 13 drawn):
  ``P(k) = C(13, k) C(39, 13 - k) / C(52, 13)``;
* a suit-length pattern ``l1 >= l2 >= l3 >= l4`` (e.g. 4-4-3-2) has probability
  ``(ways to give the lengths to the 4 suits) * prod C(13, l_i) / C(52, 13)``.

Tolerance. ``N = 100_000`` independent deals with a fixed seed. Each observed count is
binomial(N, p) under the null hypothesis, and must lie within 5 standard deviations,
``|obs - N p| < 5 sqrt(N p (1 - p))`` (two-sided tail 5.7e-7 per count). Each table as a whole
must pass a chi-square test whose Wilson-Hilferty normal deviate is below 5 (upper tail about
3e-7); bins with an expected count below 20 are pooled. With the fixed seed the test is
deterministic; the tolerance is what a genuinely uniform deal fails with negligible probability.
Sensitivity: a card-seat frequency has standard deviation sqrt(0.25 * 0.75 / N) = 0.0014, so a
card that lands in one seat with probability 0.257 instead of 0.25 fails on its own; biases
spread thinly over many cards are caught by the chi-square statistics.

Deal order (section 0): one card at a time, clockwise, starting left of the dealer, so the
dealer receives the last card. That is checked exactly by dealing decks whose order is known
(`hands_from_order`, the step after the shuffle).
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from sim.cards import standard_deck
from sim.deal import deal, deal_in_order, hands_from_order, shuffled, to_seats, uniform32
from tolerance import SIGMAS, binomial_z, check_distribution, chi_square_z

N = 100_000
SEED = 20250314
FULL = np.uint64((1 << 52) - 1)
# bit 13 * suit + rank, suits C, D, H, S = 0..3 (sim/cards.py, docs/SCHEMA.md)
SUIT_MASKS = [np.uint64(((1 << 13) - 1) << (13 * s)) for s in range(4)]
SPADES = SUIT_MASKS[3]


@pytest.fixture(scope="module")
def deals() -> np.ndarray:
    """uint64[N, 4]: N deals, columns in deal order (column 3 = the dealer)."""
    return deal_in_order(standard_deck(), N, 4, np.random.default_rng(SEED))


@pytest.fixture(scope="module")
def owner(deals) -> np.ndarray:
    """int8[N, 52]: the column that holds each card."""
    out = np.full((N, 52), -1, dtype=np.int8)
    shifts = np.arange(52, dtype=np.uint64)
    for col in range(4):
        out[((deals[:, col, None] >> shifts) & np.uint64(1)).astype(bool)] = col
    return out


# --- every deal is a partition ------------------------------------------------------------------


def test_every_deal_is_a_partition(deals):
    assert deals.dtype == np.uint64 and deals.shape == (N, 4)
    assert (np.bitwise_count(deals) == 13).all()
    assert (np.bitwise_or.reduce(deals, axis=1) == FULL).all()
    for a in range(4):
        for b in range(a + 1, 4):
            assert not (deals[:, a] & deals[:, b]).any()


def test_seat_indexed_deal_is_a_partition():
    dealer = np.arange(2000, dtype=np.int8) % 4
    hands = deal(standard_deck(), dealer, 4, np.random.default_rng(SEED + 1))
    assert hands.dtype == np.uint64 and hands.shape == (2000, 4)
    assert (np.bitwise_count(hands) == 13).all()
    assert (np.bitwise_or.reduce(hands, axis=1) == FULL).all()
    assert (np.bitwise_xor.reduce(hands, axis=1) == FULL).all()  # disjoint: OR == XOR


# --- uniformity ----------------------------------------------------------------------------------


def test_each_card_equally_likely_in_each_seat(owner):
    counts = np.stack([(owner == col).sum(axis=0) for col in range(4)], axis=1)  # [52, 4]
    assert (counts.sum(axis=1) == N).all()
    z = binomial_z(counts, N, 0.25)
    assert np.abs(z).max() < SIGMAS, np.unravel_index(np.abs(z).argmax(), z.shape)
    # each card's row sums to N: 52 * 3 degrees of freedom
    assert chi_square_z(counts, np.full(counts.shape, N / 4), 52 * 3) < SIGMAS


def test_two_cards_share_a_hand_with_probability_12_of_51(owner):
    together = np.zeros((52, 52))
    for col in range(4):
        x = (owner == col).astype(np.float32)  # exact: counts stay far below 2**24
        together += x.T @ x
    iu = np.triu_indices(52, k=1)  # the 1326 pairs of distinct cards
    z = binomial_z(together[iu], N, 12 / 51)
    assert np.abs(z).max() < SIGMAS, np.abs(z).max()


def hypergeometric(k: int) -> Fraction:
    """P(k spades in 13 cards from 52 holding 13 spades)."""
    return Fraction(math.comb(13, k) * math.comb(39, 13 - k), math.comb(52, 13))


@pytest.mark.parametrize("col", range(4))
def test_spades_per_hand_is_hypergeometric(deals, col):
    spades = np.bitwise_count(deals[:, col] & SPADES)
    observed = Counter(spades.tolist())
    probs = {k: hypergeometric(k) for k in range(14)}
    check_distribution(observed, probs, N, f"spades in column {col}")
    # mean 13 * 13/52 = 3.25; variance 13 (1/4)(3/4)(39/51) = 1.8640 (finite-population factor)
    sd_mean = math.sqrt(13 * 0.25 * 0.75 * 39 / 51 / N)
    assert abs(spades.mean() - 3.25) < SIGMAS * sd_mean


def pattern_probabilities() -> dict[tuple[int, ...], Fraction]:
    """Every suit-length pattern (lengths in decreasing order) and its exact probability."""
    out = {}
    total = math.comb(52, 13)
    for a in range(14):
        for b in range(a + 1):
            for c in range(b + 1):
                d = 13 - a - b - c
                if not 0 <= d <= c:
                    continue
                pattern = (a, b, c, d)
                ways = math.factorial(4)  # distinct assignments of the lengths to the 4 suits
                for same in Counter(pattern).values():
                    ways //= math.factorial(same)
                out[pattern] = Fraction(ways * math.prod(math.comb(13, n) for n in pattern), total)
    return out


def test_pattern_probabilities_match_the_published_table():
    """The derivation against the standard bridge table of hand patterns (percent, 4 decimals;
    e.g. Wikipedia "Contract bridge probabilities")."""
    probs = pattern_probabilities()
    assert len(probs) == 39 and sum(probs.values()) == 1
    published = {(4, 4, 3, 2): 21.5512, (5, 3, 3, 2): 15.5168, (5, 4, 3, 1): 12.9307,
                 (5, 4, 2, 2): 10.5797, (4, 3, 3, 3): 10.5361, (6, 3, 2, 2): 5.6425,
                 (13, 0, 0, 0): 6.3e-10}
    for pattern, percent in published.items():
        assert abs(100 * float(probs[pattern]) - percent) < 6e-5, pattern
    # 4-4-3-2 by hand: 12 ways (choose the 3-suit and the 2-suit: 4 * 3) * 715^2 * 286 * 78
    assert probs[(4, 4, 3, 2)] == Fraction(12 * 715 * 715 * 286 * 78, math.comb(52, 13))


@pytest.mark.parametrize("col", range(4))
def test_suit_length_patterns(deals, col):
    lengths = np.stack([np.bitwise_count(deals[:, col] & m) for m in SUIT_MASKS], axis=1)
    lengths = -np.sort(-lengths.astype(np.int64), axis=1)  # decreasing
    observed = Counter(map(tuple, lengths.tolist()))
    check_distribution(observed, pattern_probabilities(), N, f"patterns in column {col}")


# --- deal order: one card at a time from the dealer's left; the dealer gets the last card ----


@pytest.mark.parametrize("perm_seed", [None, 5, 6])
def test_deal_order_dealer_gets_the_last_card(perm_seed):
    """With the shuffled deck known (slot order, or a fixed permutation of the slots), card ``i``
    of it must go to seat ``dealer + 1 + i`` (mod 4): left of the dealer gets the first card and
    every fourth after it, the dealer the 4th, 8th, ... and the 52nd (last)."""
    perm = (np.arange(52) if perm_seed is None
            else np.random.default_rng(perm_seed).permutation(52))
    order_of_slots = perm  # the standard deck's slots are 0..51 in bit order
    dealers = np.array([0, 1, 2, 3], dtype=np.int8)
    order = np.repeat(perm.astype(np.int8)[:, None], dealers.size, axis=1)  # one column per deal
    hands = to_seats(hands_from_order(order, 4, 13), dealers)
    for row, dealer in enumerate(dealers.tolist()):
        for i, slot in enumerate(order_of_slots.tolist()):
            seat = (dealer + 1 + i) % 4
            assert int(hands[row, seat]) >> int(slot) & 1, (dealer, i, slot)
        assert int(hands[row, dealer]) >> int(order_of_slots[-1]) & 1  # the last card
    if perm_seed is None:  # slot 51 is AS, slot 0 is 2C: dealer holds AS, his left 2C
        assert all(int(hands[r, d]) >> 51 & 1 for r, d in enumerate(dealers.tolist()))
        assert all(int(hands[r, (d + 1) % 4]) & 1 for r, d in enumerate(dealers.tolist()))


def test_shuffle_orders_are_uniform_permutations():
    """Every position of the shuffle holds each of 5 items with probability 1/5 and all 120
    orders of 5 items are equally likely (chi-square, 5 sigma), which a biased swap would break."""
    n = 120_000
    order = shuffled(np.arange(5, dtype=np.int8), n, np.random.default_rng(SEED + 2))
    assert (np.sort(order, axis=0) == np.arange(5)[:, None]).all()
    codes = (order.astype(np.int64) * 5 ** np.arange(5)[:, None]).sum(axis=0)
    counts = Counter(codes.tolist())
    assert len(counts) == 120
    check_distribution(counts, {c: Fraction(1, 120) for c in counts}, n, "orders of 5 items")


class ZerosFirst:
    """A generator whose first batch of 32-bit draws is all zeros, the one value every step of
    Lemire's method rejects when 2**32 is not a multiple of the span (i + 1 in 3, 5, 6, 7, ...)."""

    def __init__(self, seed):
        self.real = np.random.default_rng(seed)
        self.calls = 0

    def integers(self, low, high, size, dtype):
        self.calls += 1
        if self.calls == 1:
            return np.zeros(size, dtype=dtype)
        return self.real.integers(low, high, size=size, dtype=dtype)


def test_shuffle_redraws_rejected_draws():
    rng = ZerosFirst(SEED + 3)
    order = shuffled(np.arange(52, dtype=np.int8), 4, rng)
    assert (np.sort(order, axis=0) == np.arange(52)[:, None]).all()
    # one redraw per step whose span does not divide 2**32: 51 steps minus the spans 2, 4, 8,
    # 16, 32 (powers of two, never rejected; span 1 is not drawn)
    assert rng.calls == 1 + 51 - 5


def _shuffled_step_by_step(items, n, rng):
    """The Fisher-Yates shuffle of `shuffled` as it was first written, one step at a time, each
    step's redraws (of its rejected columns, in order) made before the next step: the reference
    its faster form must reproduce, draw for draw."""
    m = items.size
    order = np.repeat(items[:, None], n, axis=1)
    flat = order.reshape(-1)
    draws = rng.integers(0, 2**32, size=(m - 1, n), dtype=np.uint64)
    low = np.uint64(0xFFFFFFFF)
    for i in range(m - 1, 0, -1):
        span = np.uint64(i + 1)
        product = draws[m - 1 - i] * span
        threshold = np.uint64(2**32 % (i + 1))
        bad = np.flatnonzero((product & low) < threshold)
        while bad.size:
            product[bad] = rng.integers(0, 2**32, size=bad.size, dtype=np.uint64) * span
            bad = bad[(product[bad] & low) < threshold]
        at = (product >> np.uint64(32)).astype(np.intp) * n + np.arange(n)
        row = order[i].copy()
        order[i] = flat[at]
        flat[at] = row
    return order


class ManyZeros(ZerosFirst):
    """A generator whose draws are zero one time in three (rejected by every step whose span
    does not divide 2**32), so that redraws are themselves rejected."""

    def integers(self, low, high, size, dtype):
        self.calls += 1
        draws = self.real.integers(low, high, size=size, dtype=dtype)
        return np.where(self.real.random(size) < 1 / 3, 0, draws).astype(dtype)


@pytest.mark.parametrize("make", [np.random.default_rng, ManyZeros], ids=["real", "zeros"])
@pytest.mark.parametrize("n", [40, 41, 3001])  # 51 x 41 draws: an odd number of 32-bit halves
def test_shuffle_is_the_step_by_step_shuffle(make, n):
    """The same orders and the same random numbers drawn, in the same order, as one step at a
    time; ``columns`` gives those orders alone, from the same numbers; the generator is left
    as the step-by-step shuffle leaves it (the next numbers drawn are the same)."""
    items = np.arange(52, dtype=np.int8)
    rng = make(SEED + 4)
    expected = _shuffled_step_by_step(items, n, rng)
    after = rng.integers(0, 2**32, size=3, dtype=np.uint64)
    rng = make(SEED + 4)
    assert (shuffled(items, n, rng) == expected).all()
    assert (rng.integers(0, 2**32, size=3, dtype=np.uint64) == after).all()
    columns = np.array([0, 3, 4, 17, 39])
    rng = make(SEED + 4)
    assert (shuffled(items, n, rng, columns) == expected[:, columns]).all()
    assert (rng.integers(0, 2**32, size=3, dtype=np.uint64) == after).all()


@pytest.mark.parametrize("shape", [(0,), (1,), (7,), (51, 40), (51, 41), (3, 5, 7)])
def test_uniform32_draws_what_integers_draws(shape):
    """`uniform32` (PCG64's raw outputs cut in halves) gives the numbers, and leaves the
    generator, as ``integers(0, 2**32, dtype=uint64)``, also after an odd number of halves."""
    a, b = np.random.default_rng(SEED + 5), np.random.default_rng(SEED + 5)
    for _ in range(3):
        got = uniform32(a, shape)
        assert got.dtype == np.uint32 and got.shape == shape
        assert (got == b.integers(0, 2**32, size=shape, dtype=np.uint64)).all()
    assert a.random() == b.random()
    assert (uniform32(a, (5,)) == b.integers(0, 2**32, size=5, dtype=np.uint64)).all()
