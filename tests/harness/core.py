"""One protocol for every game: a simulated block as its tables, records and replay, lined up.

`simulate` plays block 0 of a block of hands or games for any rules value (Spades, Portland,
Norwegian whist) with one strategy in every seat, through the engine's public functions only:
``play_block``, ``block_tables`` and ``block_records`` of the rules' game (``sim.games.game_of``)
and ``sim.replay.replay_records``. The result, `Run`, holds row ``i`` of every per-hand array,
``records[i]`` and ``replayed[i]`` for the same hand: the rows of the ``hands`` table, ordered by
``game_id`` then ``hand_no`` (docs/SCHEMA.md). It computes no expected value: the invariants in
`harness.invariants` and the games' reference comparisons (`harness.spades`, `harness.portland`,
`harness.norwegian`) do.

What differs between the games is one small adapter per game (`Game`): which player wrapper
records the decisions, who deals first, who leads trick 1, what a record adds to the table, and
how the reference ends a game. The adapters register in `GAMES`.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

import sim  # noqa: F401  (registers the presets)
from sim.games import game_of
from sim.lineup import Lineup
from sim.options import rules_to_dict
from sim.replay import replay_records
from strategies import make_strategy
from strategies.base import BY_GAME
from whistlab.experiment import build_experiment

__all__ = ["GAMES", "MODES", "Game", "Run", "altered", "play_lineup", "simulate",
           "strategies_of"]

MODES = ("hands", "games")


def strategies_of(game: str, rules=None) -> list[str]:
    """Every strategy that plays ``game``: random, then the game's own (seed, expert, and
    Spades' search); with ``rules``, only those that do not refuse them (`Strategy.refuse`: the
    search plays RULES.md §3 only)."""
    return ["random", *sorted(n for (g, n), cls in BY_GAME.items()
                              if g == game and (rules is None or cls.refuse(rules) is None))]


class Game:
    """What a game adds to the shared protocol (one subclass per game, in `GAMES`). The
    defaults suit a game whose seats play in turn from a known first leader."""

    name = ""
    components: tuple[str, ...] = ()  # the hand's score parts, each a ``<part>_<side>`` column

    def lineup(self, rules, strategy: str):
        """(the line-up, what it records for the reference comparison or None)."""
        player = make_strategy(strategy, game=rules.game)
        return Lineup([player] * rules.players), None

    def first_dealer(self, rules, players: int) -> int:
        """The dealer of a game's first hand (and of hand 0 of a hands block)."""
        raise NotImplementedError

    def first_leader(self, run: Run, i: int) -> int | None:
        """Who leads trick 1 of row ``i``; None: the holder of the first card played."""
        return None

    def extra_tricks(self, run: Run, i: int) -> dict[int, int]:
        """Tricks a seat is given beside those played (Spades' kitty discard): ``{seat: n}``."""
        return {}

    def hands_changed(self, rec: dict) -> bool:
        """Whether the record's ``hands`` (the hands at the start of play) may differ from the
        dealt hands of the table (Spades: passing, the kitty)."""
        return False

    def check_record(self, run: Run, i: int, where: str) -> None:
        """The game's own record fields against the table's row ``i``."""

    def replay_columns(self, out: dict) -> dict:
        """The game's own per-hand values of a replayed record, by table column."""
        return {}

    def carried(self, rec: dict) -> dict:
        """What a record's ``before`` carries from the previous hand, by table column prefix
        (``{"score": [...], ...}``)."""
        return {"score": rec["before"]["scores"]}

    def game_ends(self, run: Run, rows: list[int], where: str) -> None:
        """The game of ``rows`` (its hands in order) ends exactly when the rules say, and its
        row of the ``games`` table states how."""
        raise NotImplementedError


GAMES: dict[str, Game] = {}  # game name -> its adapter (harness/spades.py, ...)


@dataclass(eq=False)
class Run:
    """One simulated block of one rules value and one strategy in every seat.

    ``hands`` / ``games``: the block's tables as ``{column: array}`` (``games`` None in hands
    mode), row ``i`` of ``hands`` the hand of ``records[i]`` (RULES.md section 5 records, from
    ``block_records``) and of ``replayed[i]`` (that record replayed by ``sim.replay``). ``spy``:
    what the game's player wrapper kept (Spades: every bid decision offered). ``result``: the
    engine's own block result, for the few tests that look at it.
    """

    rules: object
    strategy: str
    mode: str
    size: int
    seed: int
    hand_offset: int
    hands: dict[str, np.ndarray]
    games: dict[str, np.ndarray] | None
    records: list[dict]
    tables: tuple
    result: object = None
    spy: object = None
    _columns: dict = field(init=False, repr=False, default_factory=dict)  # by_seat, by_side

    @property
    def game(self) -> Game:
        return GAMES[self.rules.game]

    @cached_property
    def replayed(self) -> list[dict]:
        """The records replayed by ``sim.replay.replay_records`` (their own inline rules)."""
        return replay_records(list(enumerate(self.records, start=1)))

    def __len__(self) -> int:
        return len(self.records)

    def count(self, prefix: str) -> int:
        """How many ``<prefix>_<k>`` columns the hands table has (seats or sides)."""
        k = 0
        while f"{prefix}_{k}" in self.hands:
            k += 1
        return k

    @property
    def players(self) -> int:
        return self.count("hand")

    @property
    def sides(self) -> int:
        return self.count("points")

    def _stacked(self, name: str, n: int) -> np.ndarray:
        if (name, n) not in self._columns:
            self._columns[name, n] = np.stack([self.hands[f"{name}_{k}"] for k in range(n)],
                                              axis=1)
        return self._columns[name, n]

    def by_seat(self, name: str) -> np.ndarray:
        """Column ``<name>_<seat>`` of every seat: array[H, P] (do not write into it)."""
        return self._stacked(name, self.players)

    def by_side(self, name: str) -> np.ndarray:
        """Column ``<name>_<side>`` of every side: array[H, S] (do not write into it)."""
        return self._stacked(name, self.sides)

    @property
    def tricks(self) -> np.ndarray:
        return self.by_seat("tricks")

    @property
    def points(self) -> np.ndarray:
        return self.by_side("points")

    @property
    def scores_after(self) -> np.ndarray:
        return self.by_side("score")

    @property
    def scores_before(self) -> np.ndarray:
        return np.array([rec["before"]["scores"] for rec in self.records], np.int64).reshape(
            len(self), self.sides)

    @property
    def components(self) -> dict[str, np.ndarray]:
        return {c: self.by_side(c) for c in self.game.components}

    @cached_property
    def winners(self) -> np.ndarray:
        """The seat that won each trick (-1: a dead trick, nobody), as the replay derives it
        from the record's plays: int8[H, T]."""
        return np.array([[-1 if w is None else w for w in out["winners"]]
                         for out in self.replayed], np.int8)

    def game_rows(self) -> dict[int, list[int]]:
        """game_id -> its rows, in hand order."""
        out = defaultdict(list)
        for i, g in enumerate(self.hands["game_id"].tolist()):
            out[g].append(i)
        return dict(out)


def _inline(rules) -> dict:
    """A rules value as an inline rules table (a tuple-valued key written as a list)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in rules_to_dict(rules).items()}


@functools.cache
def simulate(rules, strategy: str, mode: str, size: int, seed: int, hand_offset: int = 0) -> Run:
    """Play block 0 of ``size`` games or hands of ``rules`` with ``strategy`` in every seat
    (cached: several tests look at the same deterministic block)."""
    lineup, spy = GAMES[rules.game].lineup(rules, strategy)
    return play_lineup(rules, lineup, mode, size, seed, hand_offset, strategy=strategy, spy=spy)


def play_lineup(rules, lineup, mode: str, size: int, seed: int, hand_offset: int = 0, *,
                strategy: str = "random", spy=None) -> Run:
    """`simulate` with a line-up of the caller's (a player wrapper that records what the engine
    offered it); ``strategy`` names the cell of the records. Not cached."""
    engine = game_of(rules)
    result = engine.play_block(rules, lineup, seed, 0, size, mode, hand_offset=hand_offset)
    hands, games = engine.block_tables(result, 0)
    exp = build_experiment({"rules": _inline(rules), "strategy": strategy, mode: size,
                            "seed": seed, "block_size": size})
    (cell,) = exp.cells
    assert cell.rules == rules  # the inline table round-trips to the same rules value
    records = engine.block_records(result, cell, 0)
    keys = list(zip(hands["game_id"].to_pylist(), hands["hand_no"].to_pylist(), strict=True))
    assert [(r["game_id"], r["hand_no"]) for r in records] == keys, "records and table differ"
    return Run(rules=rules, strategy=strategy, mode=mode, size=size, seed=seed,
               hand_offset=hand_offset, result=result, spy=spy, records=records,
               tables=(hands, games),
               hands={c: hands[c].to_numpy() for c in hands.column_names},
               games=None if games is None else {c: games[c].to_numpy()
                                                 for c in games.column_names})


def altered(run: Run, replayed: list[dict] | None = None, **changes) -> Run:
    """A copy of ``run`` with some of its parts replaced, keeping the original's replay unless
    ``replayed`` is given (the harness's own tests corrupt one array or record of the copy and
    show that a check fails)."""
    copy = dataclasses.replace(run, **changes)
    copy.__dict__["replayed"] = run.replayed if replayed is None else replayed
    return copy
