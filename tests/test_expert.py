"""The ``expert`` Spades player, first step (issue 9): the seed with the bidding parameters that
``whistlab tune tunes/seed_bidding.toml`` found; it plays every hand legally and only Spades."""

from __future__ import annotations

import dataclasses

import pytest

from sim.api import simulate
from sim.errors import UserError
from strategies import make_strategy
from strategies.seed import SeedStrategy


def test_expert_is_the_tuned_seed():
    expert, seed = make_strategy("expert"), make_strategy("seed")
    assert isinstance(expert, SeedStrategy)
    differ = {f.name for f in dataclasses.fields(SeedStrategy)
              if getattr(expert, f.name) != getattr(seed, f.name)}
    assert differ == {"bid_round", "nil_max_estimate", "ruff"}
    assert make_strategy({"name": "expert", "bid_round": 0.5}).bid_round == 0.5


def test_expert_plays_spades_only():
    table = simulate("spades.standard", ["expert", "seed", "expert", "seed"], hands=2000)
    assert table.height == 2000
    with pytest.raises(UserError, match="does not play portland"):
        make_strategy("expert", game="portland")
