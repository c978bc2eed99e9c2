"""The bitboard primitives against plain Python on the same numbers."""

import numpy as np
import pytest

from sim.cards import (
    at_or_below,
    bit_index,
    highest_bit,
    lowest_bit,
    popcount,
    select_bit,
    standard_deck,
)

U64 = np.uint64


def set_bits(v: int) -> list[int]:
    return [b for b in range(64) if v >> b & 1]


@pytest.fixture(scope="module")
def words():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 2**63, 3000, dtype=U64) | (rng.integers(0, 2, 3000, dtype=U64) << U64(63))
    sparse = x & rng.integers(0, 2**63, 3000, dtype=U64) & rng.integers(0, 2**63, 3000, dtype=U64)
    edge = np.array([1, 2**63, 2**64 - 1, 2**53 + 1, 2**52, 0xFFFF, 0x10000], dtype=U64)
    return np.concatenate([x, sparse, edge])


def test_highest_and_lowest_bit(words):
    hi, lo = highest_bit(words), lowest_bit(words)
    for v, h, low in zip(words.tolist(), hi.tolist(), lo.tolist(), strict=True):
        bits = set_bits(v)
        assert h == (1 << bits[-1] if bits else 0)
        assert low == (1 << bits[0] if bits else 0)


def test_select_bit_is_the_kth_set_bit(words):
    x = words[words != 0]
    rng = np.random.default_rng(6)
    k = (rng.random(x.size) * popcount(x)).astype(np.int64)
    got = select_bit(x, k)
    for v, kk, g in zip(x.tolist(), k.tolist(), got.tolist(), strict=True):
        assert g == 1 << set_bits(v)[kk]
    # every k of one word, the top bit included
    v = np.full(64, 2**64 - 1, dtype=U64)
    assert select_bit(v, np.arange(64)).tolist() == [1 << b for b in range(64)]


def test_bit_index_and_popcount(words):
    x = words[words != 0]
    one = lowest_bit(x)
    assert bit_index(one).tolist() == [set_bits(v)[0] for v in x.tolist()]
    assert popcount(words).tolist() == [len(set_bits(v)) for v in words.tolist()]


def test_at_or_below_stays_inside_each_suit():
    deck = standard_deck()
    x = np.array([deck.mask_of(["5H", "3C", "AS"]), deck.mask_of(["2D"]), 0], dtype=U64)
    got = [deck.names_of(v) for v in at_or_below(x, deck)]
    assert got[0] == ["2C", "3C", "2H", "3H", "4H", "5H"] + [r + "S" for r in "23456789TJQKA"]
    assert got[1] == ["2D"]
    assert got[2] == []


def test_standard_deck_layout():
    deck = standard_deck()
    assert deck.n_cards == 52
    assert deck.bit_of("2C") == 0 and deck.bit_of("AC") == 12 and deck.bit_of("AS") == 51
    assert int(deck.full_mask) == 2**52 - 1
    assert deck.offsets.tolist() == [0, 13, 26, 39]
    assert [deck.names_of(m)[0] for m in deck.suit_masks] == ["2C", "2D", "2H", "2S"]
