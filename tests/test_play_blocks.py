"""Blocks of whole games played together (`sim.blocks.play_blocks`) give each block the result it
gets playing alone (`play_block`): the same hands and games tables, the same records.

The next block's games start while the last long games of the blocks in play still play; each
block's rows draw from their own streams (`sim.streams.Streams`). Checked for every preset with
the three strategies, and for every example value of a Spades key (`sim.spades.combinations`)
with the `random` strategy, which draws a number for every decision, so that a draw taken from
the wrong block's stream changes the tables. Small blocks and a small ``fill`` keep several
blocks in play at every hand; mixed line-ups split the decisions by strategy.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.games import game_of
from sim.lineup import Lineup
from sim.options import PRESETS, load_rules, rules_from_mapping
from sim.spades.combinations import TABLES, VALUES, key_of, refusal
from sim.streams import Streams
from strategies import make_strategy

SEED = 20261202
BLOCKS = [(b, size, 0) for b, size in enumerate((7, 5, 9, 6, 8, 3))]


def _lineup(rules, names):
    return Lineup([make_strategy(names[s % len(names)], game=rules.game)
                   for s in range(rules.players)])


def _tables(game, result, block):
    hands, games = game.block_tables(result, block * 100)
    return hands, games


def _check(rules, names, fill=12, blocks=BLOCKS):
    """Every block's tables, records included, are those it has playing alone."""
    game = game_of(rules)
    together = dict(game.play_blocks(rules, _lineup(rules, names), SEED, blocks, "games", fill))
    assert sorted(together) == [b for b, _, _ in blocks]
    for block, size, _ in blocks:
        alone = game.play_block(rules, _lineup(rules, names), SEED, block, size, "games")
        got = together[block]
        assert _tables(game, got, block)[0].equals(_tables(game, alone, block)[0]), block
        assert _tables(game, got, block)[1].equals(_tables(game, alone, block)[1]), block
        cell = type("Cell", (), {"rules": rules})()
        assert (list(game.block_records(got, cell, 0))
                == list(game.block_records(alone, cell, 0))), block


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("names", [("random",), ("seed",), ("expert",), ("random", "seed")])
def test_every_preset_and_strategy(preset, names):
    _check(load_rules({"preset": preset}, source="test"), names)


def _spades(value: dict):
    """The rules of an example value at the first table shape where it loads, its games cut at
    30 hands where the value allows (the random players can leave a game without end)."""
    for table in TABLES.values():
        for extra in ({"max_hands": 30}, {}):
            if refusal({**table, **extra, **value}) is None:
                return rules_from_mapping({**table, **extra, **value})
    raise AssertionError(f"{value} loads at no table")


# every example value of a Spades key, each once (sim.spades.combinations.VALUES)
@pytest.mark.parametrize("value", VALUES, ids=[f"{key_of(v)}-{i}" for i, v in enumerate(VALUES)])
def test_every_spades_key(value):
    _check(_spades(value), ("random",))


def test_one_block_plays_alone_and_a_large_fill_plays_all_at_once():
    rules = load_rules({"preset": "spades.standard"}, source="test")
    _check(rules, ("random",), fill=1)
    _check(rules, ("random",), fill=10_000)


def test_independent_hands_are_each_block_alone():
    rules = load_rules({"preset": "spades.standard"}, source="test")
    game = game_of(rules)
    blocks = [(0, 50, 0), (1, 50, 50)]
    together = dict(game.play_blocks(rules, _lineup(rules, ("random",)), SEED, blocks, "hands"))
    for block, size, offset in blocks:
        alone = game.play_block(rules, _lineup(rules, ("random",)), SEED, block, size, "hands",
                                hand_offset=offset)
        assert _tables(game, together[block], block)[0].equals(
            _tables(game, alone, block)[0])


def test_streams_draw_each_rows_numbers_from_its_own_block():
    """A row's numbers are those its block's generator gives, in the order of that block's rows,
    whatever the other rows and their order."""
    def gens():
        return [np.random.default_rng(1), np.random.default_rng(2)]

    owner = np.array([0, 1, 1, 0, 1])
    got = Streams(gens(), owner).random((5, 3))
    a, b = gens()
    want = np.empty((5, 3))
    want[[0, 3]] = a.random((2, 3))
    want[[1, 2, 4]] = b.random((3, 3))
    np.testing.assert_array_equal(got, want)
    rows = np.array([4, 0, 1])  # a view's rows, in its order
    a, b = gens()
    got = Streams(gens(), owner).of(rows).integers(0, 100, 3)
    want = np.empty(3, np.int64)
    want[[1]] = a.integers(0, 100, 1)
    want[[0, 2]] = b.integers(0, 100, 2)
    np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="one row of numbers per row"):
        Streams(gens(), owner).random(4)
