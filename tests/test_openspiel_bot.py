"""whistlab's players inside OpenSpiel (issue 20 item 2): on the engine's own deals, four
`whistlab.bots.openspiel_bot`s playing OpenSpiel's ``spades`` through ``pyspiel.evaluate_bots``
bid and play exactly what the engine's run of the same deals did under ``spades.openspiel``,
and OpenSpiel scores every hand as the engine did.

The engine plays hands under ``spades.openspiel`` with the seat 3 dealing (OpenSpiel's player 0
gets the first card, bids first and leads), written as hand records (RULES.md §5); each deal is
given to OpenSpiel as its 52 chance outcomes (the i-th card to player i % 4), and the bots play
from there. Compared: the four bids, the 52 cards in order, and OpenSpiel's returns (each
player's side's points) against the engine's points.

Every strategy is compared exactly, ``random`` too. ``seed`` and ``expert`` draw no random
number, so the engine plays their hands in one block of many hands. ``random`` draws one number
per decision from the block's stream (`sim.blocks.play_rng`), whose numbers for a row depend on
the block's other rows: its hands are played one to a block, and the four bots of a deal are
given that block's generator (``seed=`` takes a Generator), so that they draw from one stream in
the engine's order, as the seats of the block did. 1,000 deals per line-up under
``WHISTLAB_FULL_TESTS=1``, 60 otherwise.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from conftest import FULL
from sim.blocks import play_rng
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades import block_records
from sim.spades.game import play_block
from strategies import make_strategy

pyspiel = pytest.importorskip("pyspiel")
bots = pytest.importorskip("whistlab.bots")

DEALS = 1000 if FULL else 60
SEED = 20
RULES = load_rules("spades.openspiel", source="test")

LINEUPS = {  # by seat 0..3 (sides 0 and 2, 1 and 3)
    "expert": ["expert"] * 4,
    "seed": ["seed"] * 4,
    "expert and seed": ["expert", "seed"] * 2,
    "random": ["random"] * 4,
    "random and expert": ["random", "expert"] * 2,
}


def _engine(names):
    """The engine's run of ``DEALS`` hands dealt by seat 3: (records, points per side)."""
    lineup = Lineup([make_strategy(n) for n in names])
    cell = SimpleNamespace(rules=RULES)
    if "random" not in names:  # one block; the dealer rotates with the hand: keep seat 3's
        result = play_block(RULES, lineup, SEED, 0, 4 * DEALS, "hands")
        records = block_records(result, cell, 0)
        points = result.outcomes[0].score.points
        keep = [i for i, rec in enumerate(records) if rec["dealer"] == 3]
        return [records[i] for i in keep], points[keep]
    records, points = [], []
    for block in range(DEALS):  # a hand per block: its stream draws for it alone
        result = play_block(RULES, lineup, SEED, block, 1, "hands", hand_offset=4 * block)
        records += block_records(result, cell, 0)
        points.append(result.outcomes[0].score.points[0])
    return records, np.array(points)


def _dealt(game, record):
    """OpenSpiel's state after dealing ``record``'s hands (card i to player i % 4)."""
    state = game.new_initial_state()
    for i in range(52):
        state.apply_action(bots.card_action(record["hands"][i % 4][i // 4]))
    return state


@pytest.mark.parametrize("lineup", list(LINEUPS))
def test_bots_in_openspiel_bid_play_and_score_as_the_engine(lineup):
    names = LINEUPS[lineup]
    records, points = _engine(names)
    assert len(records) == DEALS and all(rec["dealer"] == 3 for rec in records)
    game = pyspiel.load_game("spades")
    for block, (rec, engine_points) in enumerate(zip(records, points, strict=True)):
        stream = play_rng(SEED, block) if "random" in names else 0  # the block's, for random
        players = [bots.openspiel_bot(name, seat, seed=stream)
                   for seat, name in enumerate(names)]
        state = _dealt(game, rec)
        returns = pyspiel.evaluate_bots(state, players, 0)
        history = state.history()
        bids = [a - bots.BID_BASE for a in history[52:56]]
        cards = [bots.card_name(a) for a in history[56:]]
        assert (bids, cards) == (rec["bids"], rec["plays"]), (lineup, block)
        assert returns == [float(engine_points[seat % 2]) for seat in range(4)], (lineup, block)


def test_random_bots_drawing_another_stream_play_otherwise():
    """The comparison bites: ``random`` bots each with a generator of its own (not the block's
    stream) do not play the engine's hands."""
    result = play_block(RULES, Lineup([make_strategy("random")] * 4), SEED, 0, 1, "hands")
    records = block_records(result, SimpleNamespace(rules=RULES), 0)
    game = pyspiel.load_game("spades")
    state = _dealt(game, records[0])
    pyspiel.evaluate_bots(state, [bots.openspiel_bot("random", p, seed=p) for p in range(4)], 0)
    assert [bots.card_name(a) for a in state.history()[56:]] != records[0]["plays"]


def test_a_strategy_table_and_a_tuned_file_play_as_their_parameters_say(tmp_path):
    """A bot from a table of parameters, or from a strategy file (as ``whistlab tune`` writes),
    plays what the engine's strategy with those parameters plays."""
    tuned = tmp_path / "tuned.toml"
    tuned.write_text('name = "seed"\nruff = 0.0\nking = 0.5\n', encoding="utf-8")
    table = {"name": "expert", "bid_round": 0.9}
    for spec, default in ((table, "expert"), (str(tuned), "seed")):
        records = _seat_3_deals(make_strategy(spec), deals=20)
        assert [r["bids"] for r in records] != [
            r["bids"] for r in _seat_3_deals(make_strategy(default), deals=20)]  # they matter
        game = pyspiel.load_game("spades")
        for rec in records:
            state = _dealt(game, rec)
            pyspiel.evaluate_bots(state, [bots.openspiel_bot(spec, p) for p in range(4)], 0)
            assert [a - bots.BID_BASE for a in state.history()[52:56]] == rec["bids"]
            assert [bots.card_name(a) for a in state.history()[56:]] == rec["plays"]


def _seat_3_deals(strategy, deals):
    result = play_block(RULES, Lineup([strategy] * 4), SEED, 1, 4 * deals, "hands")
    records = block_records(result, SimpleNamespace(rules=RULES), 0)
    return [rec for rec in records if rec["dealer"] == 3]


def test_the_bot_refuses_what_it_cannot_play():
    from sim.errors import UserError

    game = pyspiel.load_game("spades")
    state = game.new_initial_state()
    with pytest.raises(UserError, match="not all dealt"):
        bots.openspiel_record(state)
    with pytest.raises(UserError, match="allowed: 0..3"):
        bots.openspiel_bot("seed", 4)
    with pytest.raises(UserError, match="unknown strategy"):
        bots.openspiel_bot("nosuch", 0)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(UserError, match="player 0's turn, not player 2's"):
        bots.openspiel_bot("seed", 2).step(state)
    other = pyspiel.load_game("tic_tac_toe").new_initial_state()
    with pytest.raises(UserError, match="'spades' game only"):
        bots.openspiel_bot("seed", 0).step(other)
