"""The harness itself: every shared invariant and every reference comparison can fail.

For one run of each game (a Spades preset with two decks and dead tricks, the kitty's extra
trick, Portland under rubbers, Norwegian whist with three players), the checks pass on the run as
the engine made it; then one array, table column or record of a copy is corrupted as a bug
would, and the check meant to catch it must raise AssertionError. The schema reader is shown to
read each game's section of docs/SCHEMA.md.
"""

from __future__ import annotations

import copy

import numpy as np
import pyarrow as pa
import pytest

from harness import (
    CHECKS,
    altered,
    check_invariants,
    compare,
    documented_columns,
    simulate,
)
from harness.invariants import (
    check_deals,
    check_game_ends,
    check_play,
    check_points,
    check_records,
    check_replay,
    check_scores,
    check_tables,
    check_tricks,
    check_written,
)
from harness.spades import conformance_rules
from sim.games import game_of
from sim.options import PRESETS

RUNS = {  # (rules, strategy): played in both modes
    "spades": (PRESETS["spades.standard"], "seed"),
    "spades.cancel": (PRESETS["spades.cancel"], "random"),  # two decks, dead tricks
    "kitty": (conformance_rules({"players": 5, "jokers": 3, "kitty": True,
                                 "kitty_extra_trick": True}), "random"),
    "portland.laws": (PRESETS["portland.laws"], "random"),  # rubbers
    "norwegian.three": (PRESETS["norwegian.three"], "seed"),
    "norwegian.classic": (PRESETS["norwegian.classic"], "random"),
}


def run_of(name: str, mode: str):
    rules, strategy = RUNS[name]
    return simulate(rules, strategy, mode, 12 if mode == "hands" else 3, 31, 0)


def fails(check, run, match: str | None = None) -> None:
    with pytest.raises(AssertionError, match=match):
        check(run)


def with_column(run, name: str, change, row: int = 1):
    """The run with ``hands[name][row]`` changed by ``change`` (a copy)."""
    hands = dict(run.hands)
    hands[name] = hands[name].copy()
    hands[name][row] = change(hands[name][row])
    return altered(run, hands=hands)


def with_record(run, row: int, change):
    """The run with ``change(record)`` applied to a copy of its record ``row``."""
    records = copy.deepcopy(run.records)
    change(records[row])
    return altered(run, records=records)


CASES = [(name, mode) for name in RUNS for mode in ("hands", "games")]


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_the_checks_pass_on_the_engine(name, mode):
    run = run_of(name, mode)
    check_invariants(run)
    assert compare(run, name) == len(run) > 0


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_a_wrong_column_type_fails_check_tables(name, mode):
    run = run_of(name, mode)
    hands, games = run.tables
    retyped = hands.set_column(hands.schema.get_field_index("tricks_0"), "tricks_0",
                               hands["tricks_0"].cast(pa.int32()))
    fails(check_tables, altered(run, tables=(retyped, games)), "column types")
    dropped = hands.drop_columns(["dealer"])
    fails(check_tables, altered(run, tables=(dropped, games)), "missing")
    extra = hands.append_column("spare", pa.array(np.zeros(hands.num_rows, np.int8)))
    fails(check_tables, altered(run, tables=(extra, games)), "undocumented")


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_a_table_not_written_as_read_fails_check_written(name, mode):
    """Spades writes no column its rules do not bring (``sim.spades.tables.BROUGHT``); the
    readers put each back with its one value. A table whose such column varies, or holds
    another value, or whose written column would be put back, fails."""
    run = run_of(name, mode)
    hands, games = run.tables
    kept = game_of(run.rules).written(hands, run.rules).column_names
    absent = [c for c in hands.column_names if c not in kept]
    if run.rules.game != "spades":  # Portland and Norwegian whist write every column
        assert absent == []
        return
    assert absent, "no column left out: nothing to corrupt"
    column = absent[0]
    fails(check_written, with_column(run, column, lambda v: v + 1), "put back")
    i = hands.schema.get_field_index(column)
    varies = hands[column].to_numpy().copy()
    varies[1] += 1
    fails(check_written, altered(run, tables=(hands.set_column(i, column, pa.array(varies)),
                                              games)), "varies")
    retyped = hands.set_column(i, column, hands[column].cast(pa.int64()))
    fails(check_written, altered(run, tables=(retyped, games),
                                 hands={**run.hands, column: retyped[column].to_numpy()}),
          "put back as")


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_a_card_dealt_too_often_fails_check_deals(name, mode):
    run = run_of(name, mode)
    twice = run.hands.get("twice_0")
    if twice is not None and twice[1]:  # two decks: a third copy of a card held twice
        bad = with_column(run, "hand_1", lambda h: h | twice[1])
        bad = with_column(bad, "twice_1", lambda t: t | twice[1])
    else:
        bad = with_column(run, "hand_1", lambda h: run.hands["hand_0"][1])
    fails(check_deals, bad)


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_a_deal_dealt_again_fails_check_deals(name, mode):
    run = run_of(name, mode)
    bad = run
    for column in run.hands:  # row 1 dealt as row 0: every seat's cards (and two decks' twice)
        if column.startswith(("hand_", "twice_")):
            bad = with_column(bad, column, lambda _, c=column: run.hands[c][0])
    fails(check_deals, bad, "dealt alike")


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_a_record_of_other_cards_fails_check_deals_or_records(name, mode):
    run = run_of(name, mode)

    def swap(rec):  # seat 0 and seat 1 exchange one card in the record's hands only
        a, b = rec["hands"][0][0], rec["hands"][1][0]
        rec["hands"][0][0], rec["hands"][1][0] = b, a

    bad = with_record(run, 1, swap)
    if not run.game.hands_changed(run.records[1]):
        fails(check_deals, bad, "not the dealt cards")
    fails(check_play, bad, "is not seat")


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_a_card_played_twice_fails_check_records(name, mode):
    run = run_of(name, mode)

    def twice(rec):
        rec["plays"][-1] = next(c for c in rec["plays"] if c != rec["plays"][-1])

    fails(check_records, with_record(run, 1, twice), "played")
    fails(check_records, with_record(run, 1, lambda rec: rec.update(dealer=rec["dealer"] + 1)),
          "dealer")


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_a_trick_too_many_fails_check_tricks_and_play(name, mode):
    run = run_of(name, mode)
    bad = with_column(run, "tricks_0", lambda t: t + 1)
    fails(check_tricks, bad)
    fails(check_play, bad, "winners")


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_a_wrong_trick_winner_fails_check_play(name, mode):
    run = run_of(name, mode)
    players = run.players
    replayed = copy.deepcopy(run.replayed)
    winners = replayed[1]["winners"]
    t = next(t for t, w in enumerate(winners[:-1]) if w is not None)
    winners[t] = (winners[t] + 1) % players  # another seat leads the next trick
    fails(check_play, altered(run, replayed=replayed))


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_scores_not_carried_fail_check_scores(name, mode):
    run = run_of(name, mode)
    fails(check_scores, with_column(run, "score_0", lambda s: s + 1), "before \\+ points")
    fails(check_scores, with_column(run, "dealer", lambda d: (d + 1) % run.players))
    if mode == "games":
        row = next(i for i in range(len(run)) if run.hands["hand_no"][i] == 2)

        def shifted(rec):
            rec["before"]["scores"][0] += 1

        bad = with_record(run, row, shifted)
        bad = with_column(bad, "score_0", lambda s: s + 1, row)
        for i in run.game_rows()[int(run.hands["game_id"][row])]:  # carried on consistently
            if i != row and run.hands["hand_no"][i] > 2:
                bad = with_record(bad, i, shifted)
                bad = with_column(bad, "score_0", lambda s: s + 1, i)
        fails(check_scores, bad, "before")


@pytest.mark.parametrize("name", list(RUNS))
def test_a_game_that_ends_too_late_or_wrongly_fails_check_game_ends(name):
    run = run_of(name, "games")
    games = {k: v.copy() for k, v in run.games.items()}
    games["n_hands"][0] += 1
    fails(check_game_ends, altered(run, games=games), "n_hands")
    games = {k: v.copy() for k, v in run.games.items()}
    games["winner"][0] = 1 - games["winner"][0] if games["winner"][0] >= 0 else 0
    fails(check_game_ends, altered(run, games=games), "winner")
    games = {k: v.copy() for k, v in run.games.items()}
    games["score_1"][0] += 1
    fails(check_game_ends, altered(run, games=games), "score_1")
    # a game whose last hand is not its end: its final hand left out of the run
    rows = run.game_rows()[0]
    if len(rows) > 1:
        keep = [i for i in range(len(run)) if i != rows[-1]]
        games = {k: v.copy() for k, v in run.games.items()}
        games["n_hands"][0] -= 1
        for c in games:
            if c in run.hands:
                games[c][0] = run.hands[c][rows[-2]]
        short = altered(run, hands={k: v[keep] for k, v in run.hands.items()},
                        records=[run.records[i] for i in keep], games=games,
                        replayed=[run.replayed[i] for i in keep])
        fails(check_game_ends, short)


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_a_wrong_score_part_fails_check_replay(name, mode):
    run = run_of(name, mode)
    part = run.game.components[0] if run.game.components else "points"
    fails(check_replay, with_column(run, f"{part}_0", lambda v: v + 1), "replay")
    fails(check_replay, with_record(run, 0, lambda rec: rec["before"].update(
        scores=[s + 1 for s in rec["before"]["scores"]])), "changed its input")


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_points_not_their_parts_fail_check_points(name, mode):
    run = run_of(name, mode)
    if run.game.components:
        fails(check_points, with_column(run, "points_0", lambda v: v + 1), "sum of the parts")
    replayed = copy.deepcopy(run.replayed)
    replayed[0]["points"][0] += 1
    fails(check_points, altered(run, replayed=replayed), "replayed points")


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_a_wrong_point_fails_the_reference_comparison(name, mode):
    run = run_of(name, mode)
    with pytest.raises(AssertionError):
        compare(with_column(run, "points_0", lambda v: v + 1), name)


def test_every_check_is_shown_to_fail():
    """Each invariant of `CHECKS` has a test above that corrupts a run for it."""
    shown = {check_tables, check_written, check_deals, check_records, check_tricks, check_play,
             check_scores, check_game_ends, check_replay, check_points}
    assert set(CHECKS) == shown


# --- the schema reader ---------------------------------------------------------------------------


def test_the_schema_reader_reads_every_game():
    spades = documented_columns("spades", "hands", 6, 3)
    assert spades["bid_5"] == "int8" and spades["points_2"] == "int16" and "points_3" not in spades
    assert documented_columns("spades", "games")["bag_penalties_1"] == "int32"
    portland = documented_columns("portland", "hands")
    assert portland["dealer"] == "int8" and portland["honours_points_1"] == "int16"
    games = documented_columns("portland", "games")
    assert games["score_0"] == "int32" and games["games_won_1"] is None  # named, not typed
    assert "rubber" not in games
    assert documented_columns("spades", "yardstick")["dd_tricks_1"] == "int8"
    norwegian = documented_columns("norwegian", "hands", 3, 3, cell=False)
    assert norwegian["declaration_2"] == "int8" and "variant" not in norwegian
    assert not any("<" in c for c in (*spades, *portland, *norwegian))
