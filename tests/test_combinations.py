"""Random combinations of Spades rule keys compose (issue 19 item 8).

A fuzzer with a fixed seed draws combinations of key values at every table shape
(`tests.combos.sample`: one table of RULES.md §4.7 and one to five values of other keys). Each
one the engine accepts is played, as independent hands and as short games, by ``random`` and
``seed`` players in every seat, and checked against invariants that hold under every rule:

* every trick of the hand is won by one seat (or is dead under cancel_spades): the seats'
  tricks sum to the tricks of the hand (RULES.md §0, §4.1 the kitty's discard trick, §4.7);
* the hand's points are the sum of its parts, and the scores after the hand are those before it
  plus its points; in a game each hand starts from the scores and bags the last one ended with;
* the section 5 records replay (`sim.replay.replay_records`) to the same tricks, points, parts
  and counts after the hand;
* where the scalar reference (tests/reference.py) implements every key in force, it replays the
  records to the same results and offers the same bids (`tests.harness.compare_records`).

A refused combination is refused with one message that names the key; `tests/combos.py` lists
every refusal (``PYTHONPATH=. python tests/combos.py``).
"""

from __future__ import annotations

import dataclasses
import os
import random

import pytest

from combos import refusal, sample
from harness import check_invariants, simulate
from harness.spades import compare_records, ref, ref_rules
from sim.errors import UserError
from sim.options import rules_from_mapping

FULL = os.environ.get("WHISTLAB_FULL_TESTS") == "1"
SEED = 19_08
TRIED = 1200  # combinations drawn
PLAYED = 160 if FULL else 30  # of the accepted ones, this many are played
HANDS = {"random": 200, "seed": 100}  # independent hands per strategy
GAMES = 3  # and games of at most GAME_HANDS hands
GAME_HANDS = 4
REFERENCE_HANDS = 30  # of each run, the hands the reference replays too


def _draw() -> tuple[list[dict], int]:
    """The accepted combinations, in the order drawn (duplicates once), and how many were
    drawn."""
    rng = random.Random(SEED)
    accepted, seen = [], set()
    for _ in range(TRIED):
        table = sample(rng)
        key = repr(sorted(table.items()))
        if key in seen:
            continue
        seen.add(key)
        if refusal(table) is None:
            accepted.append(table)
    return accepted, TRIED


ACCEPTED, _ = _draw()
CASES = ACCEPTED[:PLAYED]


def test_the_fuzzer_finds_enough():
    """Enough of the drawn combinations load to be worth playing, and each refusal names a key
    and says why in one message."""
    assert len(ACCEPTED) >= PLAYED
    rng = random.Random(SEED + 1)
    for _ in range(200):
        err = refusal(sample(rng))
        if err is not None:
            assert err.key and err.message and "\n" not in err.message, err


def _games_rules(rules):
    """The rules with games of at most GAME_HANDS hands, None where the rules refuse that."""
    try:
        short = dataclasses.replace(rules, max_hands=GAME_HANDS, mercy_score=None)
        short.check()
    except UserError:
        return None
    return short


def _check_run(run, name: str) -> int:
    """The harness's invariants (tricks sum to the hand's, points are the sum of their parts and
    carry from hand to hand, records replay to the same results, the tables as written) on one
    simulated block; returns the hands."""
    try:
        check_invariants(run)
    except AssertionError as err:
        raise AssertionError(f"{name}: {err}") from None
    return len(run)


def _reference_knows(rules) -> bool:
    try:
        ref.resolve_rules(ref_rules(rules))
    except (AssertionError, ValueError):
        return False
    return True


@pytest.mark.parametrize("table", CASES, ids=[f"combo{i}" for i in range(len(CASES))])
def test_a_combination_plays(table):
    rules = rules_from_mapping(table)
    name = repr(table)
    hands = 0
    knows = _reference_knows(rules)
    for k, strategy in enumerate(("random", "seed")):
        run = simulate(rules, strategy, "hands", HANDS[strategy], SEED + k, 1)
        hands += _check_run(run, f"{name}/{strategy}/hands")
        if knows:
            compare_records(run, f"{name}/{strategy}", rows=range(REFERENCE_HANDS))
        games = _games_rules(rules)
        if games is not None:
            run = simulate(games, strategy, "games", GAMES, SEED + k)
            hands += _check_run(run, f"{name}/{strategy}/games")
            if knows:
                compare_records(run, f"{name}/{strategy}/games")
    assert hands >= sum(HANDS.values())
