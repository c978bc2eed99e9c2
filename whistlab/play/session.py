"""`whistlab play`: a person plays one seat in the terminal against strategies.

The engine plays as in a run: `sim.blocks.play_block` over the game's `GameLoop`, with a batch of
one. Block ``k`` is game ``k`` (``--games``) or hand ``k`` (``--hands``: each from 0-0, the dealer
rotating as in a run of hands), dealt from the seed's streams, so the same seed and the same
answers play the same game. Every seat's player is `Watched` by the `Table`; the person's is
`Person`. The loop's steps are wrapped (`Session`) to tell where the game stands before each hand
and after it, and to keep each finished hand's record (RULES.md §5, the game's
``block_records``, as ``whistlab run --records`` writes them), the file rewritten whole after
every hand: it always holds the hands completed, however the session ends.
"""

from __future__ import annotations

import dataclasses
import secrets
import sys
import tomllib
from pathlib import Path
from typing import TextIO

import numpy as np

from sim import blocks
from sim.errors import UserError
from sim.games import game_of
from sim.lineup import Lineup
from sim.norwegian import game as norwegian_game
from sim.options import load_rules_in
from sim.portland import game as portland_game
from sim.records import write_jsonl
from sim.spades import game as spades_game
from strategies import make_strategy

from ..experiment import Cell, default_strategy
from .person import Person
from .prompt import Prompter, Quit
from .table import Table, Watched
from .text import count_text

__all__ = ["play_session"]

LOOPS = {"spades": spades_game.LOOP, "portland": portland_game.LOOP,
         "norwegian": norwegian_game.LOOP}
DEFAULT_RULES = "spades.standard"


def strategy_of(spec: str | None, option: str, game: str, rules=None):
    """A strategy from the command line: a name, a strategy file (``tuned.toml``) or a TOML
    inline table (``{name = "seed", nil_max_estimate = 0.5}``); default the game's ``seed``."""
    if spec is None:
        spec = default_strategy(game)
    elif spec.lstrip().startswith("{"):
        try:
            spec = tomllib.loads(f"strategy = {spec}")["strategy"]
        except tomllib.TOMLDecodeError as err:
            raise UserError(f"{spec!r} is not a TOML inline table ({err})",
                            source=option) from None
    return make_strategy(spec, source=option, key=None, game=game, rules=rules)


def seating(rules, seat: int, partners, opponents) -> list:
    """The strategy of every seat but the person's (None there), after checking the seat."""
    players, sides = rules.players, getattr(rules, "sides", 2)
    if not 0 <= seat < players:
        raise UserError(f"{seat} is not a seat of this table; allowed: 0..{players - 1}",
                        source="--seat")
    if getattr(rules, "dummy", False) and seat == 3:  # RULES.md §1 dummy whist
        raise UserError("seat 3 is the dummy (played by seat 1) under dummy whist; allowed: "
                        "0, 1 or 2", source="--seat")
    mates = [s for s in range(players) if s != seat and s % sides == seat % sides]
    if partners is not None and not mates:
        raise UserError("this table has no partners (every player plays for himself); give "
                        "--opponents", source="--partners")
    mate = strategy_of(partners, "--partners", rules.game, rules)
    other = strategy_of(opponents, "--opponents", rules.game, rules)
    return [None if s == seat else mate if s in mates else other for s in range(players)]


class Session:
    """The game loop's steps, each the game's own with what the person is told around it, and
    the records of the hands finished."""

    def __init__(self, rules, table: Table, person: Person, records_path, mode: str, count: int,
                 say):
        self.rules, self.table, self.person, self.say = rules, table, person, say
        self.loop = LOOPS[rules.game]
        self.path, self.mode, self.count = records_path, mode, count
        self.cell = Cell(variant="play", rules=rules, lineup="play", seats=())
        self.records: list[dict] = []
        self.block, self.hand_no, self.hands = 0, 0, 0
        self.per_hand: dict = {}
        self.won = np.zeros(table.sides, np.int64)  # games won by each side
        self.points = np.zeros(table.sides, np.int64)  # points of every hand, added up

    def wrapped(self) -> blocks.GameLoop:
        return dataclasses.replace(self.loop, deal=self.deal, play=self.play, settle=self.settle)

    def deal(self, rules, lineup, seed, block, hand_no, rows, dealer, standing, deck, rng,
             group):
        table = self.table
        table.new_hand()
        self.person.new_hand()
        self.hand_no = hand_no
        where = (f"game {block + 1}, hand {hand_no}" if self.mode == "games"
                 else f"hand {block + 1} of {self.count}")
        self.say(f"\n=== {where}: {table.name(dealer[0])} deals ===")
        dealt, self.per_hand = self.loop.deal(rules, lineup, seed, block, hand_no, rows, dealer,
                                              standing, deck, rng, group)
        if "turn_up" in self.per_hand:  # Portland: the dealer's last card (RULES.md §1)
            card = int(self.per_hand["turn_up"][0])
            trumps = (f"{table.suit_name(card)} are trumps" if rules.trump != "none"
                      else "no trumps (this game is played without)")
            self.say(f"{table.name(dealer[0])} turns up {deck.names[card]}: {trumps}")
        return dealt, self.per_hand

    def play(self, rules, dealt, dealer, standing, lineup, rng, deck):
        out = self.loop.play(rules, dealt, dealer, standing, lineup, rng, deck)
        self.table.hand_over(out)
        self.points += out.score.points[0]
        self.hands += 1
        result = blocks.BlockResult(
            game=np.zeros(1, np.int64), hand_no=np.array([self.hand_no], np.int16),
            dealer=dealer, per_hand=self.per_hand, outcomes=[out], games=None, rules=rules)
        self.records += game_of(rules).block_records(result, self.cell, self.block)
        if self.path is not None:
            write_jsonl(self.records, self.path)
        return out

    def settle(self, rules, standing, rows, out, hand_no):
        done, won = self.loop.settle(rules, standing, rows, out, hand_no)
        if getattr(rules, "rubber", False):  # Portland: games of the rubber (RULES.md §1)
            self.say("games won in the rubber: "
                     + self._per_side(standing["games_won"][0], "{}"))
        if done[0]:
            self.game_over(int(won[0]), hand_no, bool(standing.get("finished", [True])[0]))
        return done, won

    def game_over(self, winner: int, hands: int, finished: bool) -> None:
        if winner >= 0:
            self.won[winner] += 1
            name = self.table.side_names[winner]
            told = "you win" if name == "you" else f"{name} wins"
        else:
            told = "a draw" if finished else "stopped unfinished (max_hands)"
        self.say(f"=== game over after {count_text(hands, 'hand')}: {told} ===")
        if self.count > 1:
            self.say("games won so far: " + self._per_side(self.won, "{}"))

    def run(self, wrapped, lineup, seed: int) -> None:
        for block in range(self.count):
            self.block = block
            blocks.play_block(wrapped, self.rules, lineup, seed, block, 1, self.mode,
                              hand_offset=block)

    def _per_side(self, values, form: str) -> str:
        return ", ".join(f"{n} {form.format(int(v))}"
                         for n, v in zip(self.table.side_names, values, strict=True))

    def summary(self) -> None:
        """What the session played, and where its records are."""
        played = f"{count_text(self.hands, 'hand')} played"
        if self.mode == "games":
            played += "; games won: " + self._per_side(self.won, "{}")
        else:
            played += "; points: " + self._per_side(self.points, "{:+d}")
        self.say(played)
        if self.path is None:
            return
        if self.records:
            self.say(f"records: {self.path} ({count_text(len(self.records), 'hand')}; "
                     f"whistlab replay {self.path} scores them)")
        else:
            self.say("no hand was finished: no records written")


def play_session(rules=None, seat: int = 0, partners: str | None = None,
                 opponents: str | None = None, seed: int | None = None, mode: str = "games",
                 count: int = 1, out=None, inp: TextIO | None = None,
                 output: TextIO | None = None) -> int:
    """Play ``count`` whole games (``mode = "games"``) or independent hands (``"hands"``) with
    the person at ``seat``; returns the exit code (130 after Ctrl-C). ``out``: the hand records'
    file."""
    rules = rules or DEFAULT_RULES
    named = str(rules) if isinstance(rules, str | Path) else "rules given in code"
    rules = load_rules_in(rules, "--rules", key=None)
    strategies = seating(rules, seat, partners, opponents)
    prompter = Prompter(inp or sys.stdin, output or sys.stdout)
    say = prompter.say
    seed = secrets.randbelow(2**32) if seed is None else seed
    table = Table(rules, LOOPS[rules.game].deck_for(rules), seat, say)
    person = Person(table, prompter)
    lineup = Lineup([Watched(person, table, told=False) if st is None else Watched(st, table)
                     for st in strategies])
    session = Session(rules, table, person, out, mode, count, say)
    say(f"whistlab play: {named}, seed {seed}; you are {table.plain[seat]}")
    for s, st in enumerate(strategies):
        if st is not None:
            say(f"  {table.name(s)}: {st.name}")
    say("type ? at a question for the answers allowed, quit to stop")
    code = 0
    try:
        session.run(session.wrapped(), lineup, seed)
    except Quit as why:
        say(f"stopped: {why}")
    except KeyboardInterrupt:
        say("\nstopped: interrupted")
        code = 130
    session.summary()
    return code
