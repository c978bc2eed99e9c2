"""The invariants every game shares (STYLE.md practice 11's first layer, as pgx's api_test): each
is a function of a `Run` that raises AssertionError naming the hand at fault.

* `check_tables`: the tables hold exactly the columns docs/SCHEMA.md declares for the game at
  this table (P seats, S sides), each of its declared type, one row per hand (per game);
* `check_written`: the hands table as ``whistlab run`` writes it (the game's ``written``: without
  the columns the rules do not bring, each checked to hold one value) made whole again as the
  readers do (the game's ``missing_columns``, as ``reports.data.scan_blocks`` and tests/written.py)
  is the table, column for column, type for type;
* `check_deals`: every seat dealt the same number of cards, each a card of the rules' deck and
  none more often than the deck holds it (two decks: twice); the deals differ from hand to hand
  (a shuffle, not one order dealt again); the records name the dealt cards;
* `check_records`: each record is its table row (game, hand number, dealer, the game's own
  fields), and every card a seat holds at the start of play is played exactly once;
* `check_tricks`: the seats' tricks add up to the tricks of the hand, dead tricks aside;
* `check_play`: card j of a trick is played by seat leader + j from the cards it still holds, each
  trick's winner (as the replay finds it) leads the next (a dead trick's leader leads again), and
  the winners' tally is the table's tricks;
* `check_scores`: hands mode: every hand from 0-0 its own game, the dealer rotating; games mode:
  hands 1..n, the dealer moving one seat left, each hand's ``before`` the previous hand's
  ``after`` (scores, and what else the game carries), and score after = score before + points;
* `check_game_ends`: each game ends at the first hand after which the game's rules (its scalar
  reference) say it is over, and its ``games`` row holds the last hand's scores and its winner;
* `check_replay`: the records replay (``sim.replay``) to the table's tricks, points, score parts
  and scores exactly, and keep every field they were given;
* `check_points`: a hand's points are the sum of its score parts, in the table and the replay.
"""

from __future__ import annotations

import numpy as np

from sim.games import game_of

from .core import Run
from .schema import documented_columns

__all__ = ["CHECKS", "check_deals", "check_game_ends", "check_invariants", "check_play",
           "check_points", "check_records", "check_replay", "check_scores", "check_tables",
           "check_tricks", "check_written"]


def _deck(run: Run):
    return game_of(run.rules).deck_for(run.rules)


def _masks(deck, cards: list[str]) -> tuple[int, int]:
    """The bitboard of named cards and the bitboard of those named twice (two decks)."""
    held = twice = 0
    for card in cards:
        bit = 1 << deck.bit_of(card)
        twice |= held & bit
        held |= bit
    return held, twice


def _where(run: Run, i: int) -> str:
    rec = run.records[i]
    return (f"{run.rules.game}/{run.strategy}/{run.mode} row {i} (game {rec['game_id']}, hand "
            f"{rec['hand_no']})")


def check_tables(run: Run) -> None:
    players, sides = run.players, run.sides
    h = len(run)
    assert h > 0, "no hands"
    for name, table, rows in (("hands", run.tables[0], h),
                              ("games", run.tables[1], run.size)):
        if table is None:
            assert name == "games" and run.mode == "hands", f"no {name} table"
            continue
        assert run.mode == "games" or name == "hands", "a games table in hands mode"
        want = documented_columns(run.rules.game, name, players, sides, cell=False)
        got = {f.name: str(f.type) for f in table.schema}
        assert set(got) == set(want), (
            f"{name}: undocumented {sorted(set(got) - set(want))}, "
            f"missing {sorted(set(want) - set(got))}")
        wrong = {c: (got[c], t) for c, t in want.items() if t is not None and got[c] != t}
        assert not wrong, f"{name}: column types (written, documented) {wrong}"
        assert table.num_rows == rows, f"{name}: {table.num_rows} rows, not {rows}"
    if run.games is not None:
        assert run.games["game_id"].tolist() == list(range(run.size))


def check_written(run: Run) -> None:
    engine = game_of(run.rules)
    table = run.tables[0]
    try:
        kept = engine.written(table, run.rules)
    except RuntimeError as exc:  # a column varies although its rule is not in force
        raise AssertionError(f"written: {exc}") from None
    back = engine.missing_columns(kept.column_names)
    assert set(kept.column_names) | set(back) == set(table.column_names), (
        f"written: {sorted(set(table.column_names) - set(kept.column_names) - set(back))} "
        f"lost, {sorted(set(back) - set(table.column_names))} put back that are no column")
    assert not set(kept.column_names) & set(back), "written: a column put back that was written"
    for name, value in back.items():
        column = run.hands[name]
        assert column.dtype == value.dtype, f"written: {name} put back as {value.dtype}"
        bad = np.flatnonzero(column != value)
        assert bad.size == 0, (f"written: {name} put back as {value} in every row, the table "
                               f"holds {column[bad[0]]} in row {bad[0]}")


def check_deals(run: Run) -> None:
    deck = _deck(run)
    players = run.players
    hands = run.by_seat("hand")
    twice = run.by_seat("twice") if "twice_0" in run.hands else np.zeros_like(hands)
    deals = np.unique(np.concatenate([hands, twice], axis=1), axis=0).shape[0]
    assert deals == len(run), f"{len(run) - deals} deals dealt alike in a block of {len(run)}"
    assert not (twice & ~hands).any(), "a card held twice that is not held"
    count = np.bitwise_count(hands) + np.bitwise_count(twice)  # cards dealt per seat
    assert (count == count[:, :1]).all(), f"seats dealt different numbers: {count[0].tolist()}"
    # how often each card is dealt: bits of every seat's hand and twice-held cards, added up
    bits = np.unpackbits(np.concatenate([hands, twice], axis=1).view(np.uint8), axis=1,
                         bitorder="little").reshape(len(run), 2 * players, 64).sum(axis=1)
    assert (bits <= deck.copies).all(), "a card dealt more often than the deck holds it"
    slots = np.flatnonzero(bits.any(axis=0))
    assert all(deck.names[b] for b in slots), "a slot that is no card dealt"
    for i, rec in enumerate(run.records):
        if not run.game.hands_changed(rec):
            named = [_masks(deck, h) for h in rec["hands"]]
            assert named == list(zip(hands[i].tolist(), twice[i].tolist(), strict=True)), (
                f"{_where(run, i)}: the record's hands are not the dealt cards")


def check_records(run: Run) -> None:
    for i, rec in enumerate(run.records):
        where = _where(run, i)
        for key in ("game_id", "hand_no", "dealer"):
            assert rec[key] == int(run.hands[key][i]), f"{where}: {key}"
        held = sorted(c for h in rec["hands"] for c in h)
        assert sorted(rec["plays"]) == held, f"{where}: the cards held are not those played"
        assert len({len(h) for h in rec["hands"]}) == 1, f"{where}: hands of different sizes"
        run.game.check_record(run, i, where)


def _extra(run: Run, i: int) -> list[int]:
    extra = [0] * run.players
    for seat, n in run.game.extra_tricks(run, i).items():
        extra[seat] += n
    return extra


def check_tricks(run: Run) -> None:
    tricks = run.tricks
    dead = run.hands.get("dead_tricks", np.zeros(len(run), np.int8))
    assert (tricks >= 0).all(), "a negative trick count"
    for i, rec in enumerate(run.records):
        per_hand = len(rec["plays"]) // run.players
        total = int(tricks[i].sum()) + int(dead[i])
        assert total == per_hand + sum(_extra(run, i)), (
            f"{_where(run, i)}: {tricks[i].tolist()} and {int(dead[i])} dead, "
            f"{per_hand} tricks played")


def check_play(run: Run) -> None:
    players = run.players
    dead = run.hands.get("dead_tricks")
    for i, (rec, out) in enumerate(zip(run.records, run.replayed, strict=True)):
        where = _where(run, i)
        plays, winners = rec["plays"], out["winners"]
        assert len(winners) * players == len(plays), f"{where}: {len(winners)} winners"
        first = run.game.first_leader(run, i)
        leaders = ([first] if first is not None else
                   [s for s in range(players) if plays[0] in rec["hands"][s]])
        errors = [_walk(rec["hands"], plays, winners, lead, players) for lead in leaders]
        assert None in errors, f"{where}: {errors}"
        tally = np.bincount([w for w in winners if w is not None], minlength=players)
        assert (tally + _extra(run, i)).tolist() == run.tricks[i].tolist(), (
            f"{where}: winners {winners}, tricks {run.tricks[i].tolist()}")
        nobody = winners.count(None)
        assert nobody == (0 if dead is None else int(dead[i])), f"{where}: {nobody} dead tricks"


def _walk(hands, plays, winners, leader, players) -> str | None:
    """Follow the play: each card from the hand of the seat whose turn it is; None if it
    holds, else what went wrong."""
    held = [list(h) for h in hands]
    for t, won in enumerate(winners):
        for j, card in enumerate(plays[t * players:(t + 1) * players]):
            seat = (leader + j) % players
            if card not in held[seat]:
                return f"trick {t + 1}: {card} is not seat {seat}'s (leader {leader})"
            held[seat].remove(card)
        leader = leader if won is None else won
    return None


def check_scores(run: Run) -> None:
    players = run.players
    dealer = run.hands["dealer"].astype(int)
    first = run.game.first_dealer(run.rules, players)
    before = run.scores_before
    assert (before + run.points == run.scores_after).all(), "score after != before + points"
    if run.mode == "hands":
        assert (run.hands["hand_no"] == 1).all(), "hands mode: a hand other than the first"
        assert run.hands["game_id"].tolist() == list(range(len(run))), "hands mode: game ids"
        assert dealer.tolist() == [(first + run.hand_offset + i) % players
                                   for i in range(len(run))], "hands mode: the dealers"
        for i, rec in enumerate(run.records):
            carried = run.game.carried(rec)
            assert not any(any(v) for v in carried.values()), f"{_where(run, i)}: not from 0-0"
        return
    for g, rows in run.game_rows().items():
        where = f"{run.rules.game}/{run.strategy}/games game {g}"
        assert run.hands["hand_no"][rows].tolist() == list(range(1, len(rows) + 1)), where
        assert dealer[rows].tolist() == [(first + k) % players for k in range(len(rows))], (
            f"{where}: dealers {dealer[rows].tolist()}")
        game_no = run.hands.get("game_no")
        previous = None
        for k, i in enumerate(rows):
            carried = run.game.carried(run.records[i])
            new = previous is None or (game_no is not None and game_no[i] != game_no[previous])
            for prefix, values in carried.items():
                want = ([0] * len(values) if new else
                        [int(run.hands[f"{prefix}_{s}"][previous]) for s in range(len(values))])
                assert list(values) == want, f"{where} hand {k + 1}: {prefix} before {values}"
            previous = i


def check_game_ends(run: Run) -> None:
    if run.mode == "hands":
        assert run.games is None
        return
    games = run.games
    rows_of = run.game_rows()
    assert sorted(rows_of) == list(range(run.size)), "a game without hands"
    for g, rows in rows_of.items():
        where = f"{run.rules.game}/{run.strategy}/games game {g}"
        assert int(games["n_hands"][g]) == len(rows), f"{where}: n_hands"
        last = rows[-1]
        for column in games:  # score_<side>, Spades' bags_<side>: the last hand's
            if column != "game_id" and column in run.hands:
                assert int(games[column][g]) == int(run.hands[column][last]), f"{where}: {column}"
        run.game.game_ends(run, rows, where)


def check_replay(run: Run) -> None:
    for i, (rec, out) in enumerate(zip(run.records, run.replayed, strict=True)):
        where = _where(run, i)
        assert {k: out[k] for k in rec} == rec, f"{where}: the replay changed its input"
        mine, theirs = {}, {}
        for key, prefix in (("tricks", "tricks"), ("points", "points"), ("honours", "honours")):
            if key in out:
                theirs[prefix] = out[key]
                mine[prefix] = [int(run.hands[f"{prefix}_{k}"][i]) for k in range(len(out[key]))]
        for key, values in out["after"].items():
            prefix = {"scores": "score"}.get(key, key)
            theirs[prefix] = values
            mine[prefix] = [int(run.hands[f"{prefix}_{k}"][i]) for k in range(len(values))]
        for part, values in out.get("components", {}).items():
            if f"{part}_0" in run.hands:
                theirs[part] = values
                mine[part] = [int(run.hands[f"{part}_{k}"][i]) for k in range(len(values))]
        for column, value in run.game.replay_columns(out).items():
            theirs[column] = value
            mine[column] = run.hands[column][i].item()
        assert mine == theirs, f"{where}: table {mine}\n  replay {theirs}"


def check_points(run: Run) -> None:
    parts = run.components  # the parts the table holds (Spades' seven, Portland's two)
    if parts:
        assert (sum(parts.values()) == run.points).all(), "points are not the sum of the parts"
    for i, out in enumerate(run.replayed):
        replayed = list(out["components"].values())
        assert [sum(p) for p in zip(*replayed, strict=True)] == out["points"], (
            f"{_where(run, i)}: replayed points {out['points']}, parts {out['components']}")


CHECKS = (check_tables, check_written, check_deals, check_records, check_tricks, check_play,
          check_scores, check_game_ends, check_replay, check_points)


def check_invariants(run: Run) -> None:
    """Every shared invariant (`CHECKS`) on one run."""
    for check in CHECKS:
        check(run)
