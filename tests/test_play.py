"""`whistlab play` (issue 20 item 4): a person plays one seat in the terminal, moves piped in.

The person is a `Responder`: a standard input that reads the question the command last wrote (its
answers allowed in parentheses) and answers one of them at random, now and then first something
wrong, which must be asked again with a reason. Every session is then checked against its hand
records: ``whistlab replay`` of the records written must give the scores the session showed after
every hand (and the bags), the game's winner, and the cards the person typed, in order. A session
run in-process is piped again into the real command (a subprocess) and must print the same
transcript and write the same records: the same seed and answers play the same game.
"""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.games import game_of
from sim.lineup import Lineup
from sim.options import load_rules
from sim.scripted import Scripted
from strategies import make_strategy
from whistlab.cli import main
from whistlab.experiment import Cell
from whistlab.play.text import side_names

ROOT = Path(__file__).resolve().parents[1]
CARD = r"(?:[2-9TJQKA][CDHS]|BJ|LJ|XJ)"
WRONG = ["", "ZZ", "99", "-1", "maybe", "2X", "AS AS"]  # never an allowed answer


def allowed_answers(allowed: str) -> list[str]:
    """The answers a question's parenthesised part allows: ``y/n``, ``nil, 1-13``, ``pass or
    grand``, ``AS KH 2C``, ``none, team_nil``."""
    if allowed == "y/n":
        return ["y", "n"]
    out = []
    for part in re.split(r", | or ", allowed):
        if m := re.fullmatch(r"(\d+)-(\d+)", part):
            out += [str(v) for v in range(int(m[1]), int(m[2]) + 1)]
        elif re.fullmatch(rf"{CARD}( {CARD})*", part):
            out += part.split()
        else:
            out.append(part)
    return out


class Responder:
    """Standard input for a session writing to ``out``: each line answers the question last
    written, at random among those allowed (``cards``: the cards typed at ``Your card``). With
    ``wrong`` > 0 that share of questions is first answered with one of `WRONG` (kept in
    ``wrongs``); ``first`` holds (a question's start, the answers given before the right one the
    first time it is asked: a list, or a function of the transcript giving one, or None: not
    this time) pairs; after ``lines`` lines the input ends, or Ctrl-C is pressed (``interrupt``)."""

    def __init__(self, out: io.StringIO, seed: int = 0, wrong: float = 0.0, first=None,
                 lines: int | None = None, interrupt: bool = False):
        self.out, self.rng, self.wrong = out, random.Random(seed), wrong
        self.first = list(first or ())
        self.limit, self.interrupt = lines, interrupt
        self.given: list[str] = []
        self.wrongs: list[str] = []
        self.cards: list[str] = []
        self.pending: list[str] = []

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        if self.limit is not None and len(self.given) >= self.limit:
            if self.interrupt:
                raise KeyboardInterrupt
            return ""
        line = self._line()
        self.given.append(line)
        return line + "\n"

    def _line(self) -> str:
        text = self.out.getvalue()
        question = text[text.rfind("\n") + 1:]
        allowed = re.search(r"\(([^()]*)\): $", question)
        assert allowed, f"not a question: {question!r}"
        for k, (start, given) in enumerate(self.first):
            answers = given(text) if callable(given) else given
            if question.startswith(start) and not self.pending and answers is not None:
                del self.first[k]
                self.pending = list(answers)
                break
        if self.pending:
            return self.pending.pop(0)
        if self.rng.random() < self.wrong:
            self.wrongs.append(self.rng.choice(WRONG))
            return self.wrongs[-1]
        answer = self._right(text, allowed[1])
        if question.startswith("Your card"):
            self.cards.append(answer)
        return answer

    def _right(self, text: str, allowed: str) -> str:
        if m := re.fullmatch(r"(\d+) (?:different cards of your hand|of your cards)", allowed):
            hand = sorted(set(re.findall(rf"\b{CARD}\b", text[text.rfind("your hand:"):])))
            return " ".join(self.rng.sample(hand, int(m[1])))
        return self.rng.choice(allowed_answers(allowed))


def play(monkeypatch, args, **responder) -> tuple[int, str, Responder]:
    """``whistlab play ARGS`` through `whistlab.cli.main`, answered by a `Responder`."""
    out = io.StringIO()
    person = Responder(out, **responder)
    monkeypatch.setattr(sys, "stdin", person)
    monkeypatch.setattr(sys, "stdout", out)
    code = main(["play", *map(str, args)])
    monkeypatch.undo()
    return code, out.getvalue(), person


def rules_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    return path


def replayed(records: Path, tmp_path: Path) -> list[dict]:
    """``whistlab replay RECORDS``'s output records."""
    scored = tmp_path / "scored.jsonl"
    assert main(["replay", records, "--out", scored]) == 0
    return [json.loads(line) for line in scored.read_text().splitlines()]


def shown_after(text: str, names: list[str]) -> list[tuple[list[int], list[int] | None]]:
    """The scores (and bags) the session showed after each hand: the ``score:`` line after
    ``points:``."""
    lines = text.splitlines()
    out = []
    for before, line in zip(lines, lines[1:], strict=False):
        if before.startswith("points: ") and line.startswith("score: "):
            found = [re.search(re.escape(n) + r" (-?\d+)(?: \((\d+) bags?\))?", line)
                     for n in names]
            bags = [int(m[2]) for m in found] if found[0][2] is not None else None
            out.append(([int(m[1]) for m in found], bags))
    return out


def check_session(code, text, person, records, tmp_path, rules, seat, games=False):
    """The session ended well, every wrong answer was asked again with a reason, and its
    records replay to the scores, bags, winners and cards it showed and was given."""
    assert code == 0, text[-3000:]
    assert "Traceback" not in text
    reasons = re.findall(r"^  (?:nothing typed|.*(?:not|out of range|give \d|you do not hold|"
                         r"may not be played).*); allowed: ", text, flags=re.M)
    assert len(reasons) == len(person.wrongs), (reasons, person.wrongs)
    rules = load_rules(rules)
    names = side_names(rules.players, getattr(rules, "sides", 2), seat)
    out = replayed(records, tmp_path)
    assert len(out) == text.count("\nhand over; ") >= 1
    shown = shown_after(text, names)
    assert [s for s, _ in shown] == [r["after"]["scores"] for r in out]
    if shown[0][1] is not None:
        assert [b for _, b in shown] == [r["after"]["bags"] for r in out]
    for earlier, later in zip(out, out[1:], strict=False):  # a game's hands follow each other
        if later["hand_no"] > 1:
            assert later["before"]["scores"] == earlier["after"]["scores"]
    typed = iter(person.cards)
    for r in out:  # the cards he typed are his hand's, played in that order
        if r.get("dark", {seat: False})[seat]:  # RULES.md §4.4: drawn face down, not typed
            assert "you play in the dark" in text
            continue
        mine = [next(typed) for _ in r["hands"][seat]]
        others = {c for s, hand in enumerate(r["hands"]) if s != seat for c in hand}
        if others & set(mine):  # two decks (RULES.md §4.7): the other copy is someone else's
            assert sorted(mine) == sorted(r["hands"][seat])
        else:
            assert mine == [c for c in r["plays"] if c in r["hands"][seat]]
    assert next(typed, None) is None
    if games:  # one game: its end, told by the scores replayed (a shared top score: a draw)
        final = out[-1]["after"]["scores"]
        winner = names[final.index(max(final))]
        told = ("a draw" if final.count(max(final)) > 1 else "you win" if winner == "you"
                else f"{winner} wins")
        ended = "1 hand" if len(out) == 1 else f"{len(out)} hands"
        assert f"\n=== game over after {ended}: {told} ===\n" in text
    return out


# --- the games -------------------------------------------------------------------------------

def test_spades_standard_whole_game(monkeypatch, tmp_path):
    records = tmp_path / "mine.jsonl"
    code, text, person = play(monkeypatch, ["--seat", 2, "--seed", 11, "--out", records],
                              seed=1, wrong=0.15)
    out = check_session(code, text, person, records, tmp_path, "spades.standard", 2, games=True)
    assert person.wrongs and "game over after" in text
    assert "you are South" in text and "bids: " in text and "on the table: " in text
    assert re.search(r"^  trick 1 \(.*\): won by ", text, flags=re.M)
    assert {r["game_id"] for r in out} == {0} and [r["hand_no"] for r in out] == list(
        range(1, len(out) + 1))


@pytest.mark.parametrize("rules, seat, args", [
    ("spades.cutthroat", 1, ["--hands", 2]),
    ("spades.three", 2, ["--hands", 2, "--opponents", "random"]),
    ("spades.six", 4, ["--hands", 1, "--partners", "expert"]),
    ("spades.cancel8", 3, ["--hands", 1]),
    ("spades.jokers", 0, ["--hands", 1]),
])
def test_spades_tables(monkeypatch, tmp_path, rules, seat, args):
    records = tmp_path / "mine.jsonl"
    code, text, person = play(monkeypatch, ["--rules", rules, "--seat", seat, "--seed", 3,
                                            "--out", records, *args], seed=seat, wrong=0.1)
    check_session(code, text, person, records, tmp_path, rules, seat)


def test_portland_whole_game(monkeypatch, tmp_path):
    records = tmp_path / "mine.jsonl"
    code, text, person = play(monkeypatch, ["--rules", "portland", "--seat", 1, "--seed", 4,
                                            "--partners", "expert", "--opponents", "random",
                                            "--out", records], seed=2, wrong=0.1)
    check_session(code, text, person, records, tmp_path, "portland", 1, games=True)
    assert re.search(r"turns up \w\w: \w+ are trumps", text)
    assert "(turned up " in text


def test_portland_dummy_played_by_its_partner(monkeypatch, tmp_path):
    records = tmp_path / "mine.jsonl"
    code, text, person = play(monkeypatch, ["--rules", "portland.dummy", "--seat", 1,
                                            "--seed", 6, "--hands", 1, "--out", records],
                              seed=3, wrong=0.1)
    check_session(code, text, person, records, tmp_path, "portland.dummy", 1)
    assert "The dummy's card (" in text and "the dummy's hand (West)" in text


@pytest.mark.parametrize("rules, seat, args", [
    ("norwegian", 0, ["--games", 1]),
    ("norwegian.three", 1, ["--hands", 2]),
    ("norwegian.classic", 2, ["--hands", 2]),
])
def test_norwegian(monkeypatch, tmp_path, rules, seat, args):
    records = tmp_path / "mine.jsonl"
    code, text, person = play(monkeypatch, ["--rules", rules, "--seat", seat, "--seed", 8,
                                            "--out", records, *args], seed=4, wrong=0.1)
    check_session(code, text, person, records, tmp_path, rules, seat,
                  games="--games" in args)
    assert "declarations: " in text and "contract: " in text


# --- every decision the rules ask -------------------------------------------------------------

DECISIONS = [  # rules over spades.standard, seed, seat, a question the person must be asked
    ("blind_nil = true", 1, 0, "Bid blind nil, before looking"),  # asked once trailing by 100
    ("blind_bids = true\nblind_bid_min_deficit = 0", 1, 0, "Bid blind, before looking"),
    ("auction = true", 1, 0, "Your call, tricks over six ("),
    ("mo_a = true\nbemo = true", 2, 0, "Declare for your side ("),
    ("team_nil = true\nteam_blind_nil = true", 1, 0, "Declare for your side ("),
    ("half_trick_bids = true", 3, 0, "Add a half to your bid of"),
    ("bid_raise = true", 1, 0, "Raise your bid of"),
    ("no_trump_bids = true", 1, 1, "no trump (you may not trump"),
    ("nil_in_the_dark = true", 15, 0, "Play your nil in the dark"),
    ('pass_cards = { count = 3, direction = "left" }', 1, 0, "Pass 3 cards to East ("),
    ("seven_trump_reveal = true", 8, 0, "and make"),
    ('redeal_poor_hands = ["one_spade_or_less", "no_face_cards"]', 3, 0, "call a misdeal?"),
    ("face_up_cards = 2", 1, 0, "face up: North"),
    ('players = 2\ndraw_mode = "see_both"', 1, 1, "Keep which card"),
    ('players = 2\ndraw_mode = "first_decides_blind"', 1, 0, "Yes discards the next card unseen"),
    ('preset = "spades.three"\nkitty = true\nkitty_taker = "high_bidder"', 1, 0, "Discard "),
]


@pytest.mark.parametrize("rules, seed, seat, question", DECISIONS,
                         ids=[d[0].split()[0] for d in DECISIONS])
def test_every_decision_is_asked(monkeypatch, tmp_path, rules, seed, seat, question):
    text_rules = rules if rules.startswith("preset") else f'preset = "spades.standard"\n{rules}'
    path = rules_file(tmp_path, text_rules)
    records = tmp_path / "mine.jsonl"
    mode = ["--games", 1] if "blind_nil" in rules else ["--hands", 2]
    answer_yes = [("Bid blind nil", ["y"]), ("Bid blind, ", ["3"]), ("Play your nil", ["y"])]
    code, text, person = play(monkeypatch, ["--rules", path, "--seat", seat, "--seed", seed,
                                            "--out", records, *mode],
                              seed=seed, wrong=0.1, first=answer_yes)
    check_session(code, text, person, records, tmp_path, path, seat)
    assert question in text


def test_kitty_extra_trick_and_two_decks(monkeypatch, tmp_path):
    path = rules_file(tmp_path, 'preset = "spades.six"\ndeck = "double_kitty"\nkitty = true\n'
                                'kitty_taker = "high_bidder"\n')
    records = tmp_path / "mine.jsonl"
    code, text, person = play(monkeypatch, ["--rules", path, "--seat", 0, "--seed", 2,
                                            "--hands", 3, "--out", records], seed=5, wrong=0.1)
    assert code == 0 and "Traceback" not in text
    assert len(replayed(records, tmp_path)) == 3


def _play_prompts(text: str) -> list[str]:
    """Each card question's shown hand: the lines between ``(* = may be played):`` and it."""
    return [m[1] for m in re.finditer(r"\(\* = may be played\):\n(.*?)\nYour card",
                                      text, flags=re.S)]


def test_two_decks_a_card_held_twice_shows_twice_when_playing(monkeypatch, tmp_path):
    """RULES.md §4.7 two decks: the play prompt shows every card left, a card held twice twice
    (the record's hand less the cards typed so far, as a multiset, at every card question)."""
    path = rules_file(tmp_path, 'preset = "spades.six"\ndeck = "double_minus_2c"\n')
    records = tmp_path / "mine.jsonl"
    code, text, person = play(monkeypatch, ["--rules", path, "--seat", 0, "--seed", 3,
                                            "--hands", 2, "--out", records], seed=1)
    out = check_session(code, text, person, records, tmp_path, path, 0)
    prompts, typed = iter(_play_prompts(text)), iter(person.cards)
    doubled = 0
    for r in out:
        left = sorted(r["hands"][0])
        while left:
            shown = sorted(re.findall(rf"\b({CARD})\*?(?=\s|$)", next(prompts)))
            assert shown == left
            doubled += len(shown) - len(set(shown))
            left.remove(next(typed))
    assert doubled > 0  # the seed deals seat 0 a pair of copies (else the test proves nothing)


def test_face_up_cards_are_shown_while_playing(monkeypatch, tmp_path):
    """RULES.md §4.1 face_up_cards: every seat's face-up cards not yet played are on the table
    at each card question (checked against the record's face-up cards and plays)."""
    path = rules_file(tmp_path, 'preset = "spades.standard"\nface_up_cards = 2\n')
    records = tmp_path / "mine.jsonl"
    code, text, person = play(monkeypatch, ["--rules", path, "--seat", 0, "--seed", 1,
                                            "--hands", 1, "--out", records], seed=4)
    (r,) = check_session(code, text, person, records, tmp_path, path, 0)
    questions = text.split("\nYour card")[:-1]
    assert len(questions) == 13
    for k, before in enumerate(questions):
        trick_start = before.rfind("\ntrick ")
        played = set(r["plays"][: 4 * k])  # every card of the earlier tricks
        line = re.search(r"^face up: (.*)$", before[trick_start:], flags=re.M)
        expected = {c for cards in r["face_up"] for c in cards if c not in played}
        shown = set(re.findall(rf"\b{CARD}\b", line[1])) if line else set()
        assert shown == expected


# --- wrong answers, and the ends of a session ---------------------------------------------------

def _held_but_not_legal(text: str) -> str | None:
    """A card of the hand shown that may not be played (no ``*``), if any."""
    hand = text[text.rfind("(* = may be played):"):]
    unmarked = re.findall(rf"\b({CARD})(?=\s|$)", hand)
    return unmarked[0] if unmarked else None


def _not_held(text: str) -> str:
    hand = text[text.rfind("(* = may be played):"):]
    return next(r + s for s in "CDHS" for r in "AKQJT98765432" if r + s not in hand)


def _when(lead: bool, answers):
    """At the first card question, leading or following, where the hand holds a card it may
    not play: ``answers(text, that card)``."""

    def given(text: str):
        illegal = _held_but_not_legal(text)
        leads = text[text.rfind("\ntrick "):].count("\nyou lead\n") == 1
        return None if illegal is None or leads != lead else answers(text, illegal)

    return given


def test_wrong_answers_are_asked_again_with_a_reason(monkeypatch, tmp_path):
    first = [("Your bid", ["", "twelve", "99", "-1", "?"]),
             ("Your card", _when(True, lambda text, card: ["ZZ", _not_held(text), card,
                                                             "10x"])),
             ("Your card", _when(False, lambda text, card: [card, "2"]))]
    code, text, person = play(monkeypatch, ["--seed", 5, "--hands", 1], seed=6, first=first)
    assert code == 0 and "Traceback" not in text
    assert not person.first  # all were asked
    for reason in ("  nothing typed; allowed: nil, 1-13\n", "  'twelve' is not a number; ",
                   "  99 is out of range; ", "  -1 is out of range; ",
                   "  allowed: nil, 1-13; quit ends the session\n",
                   "  'ZZ' is not a card of this deck", "  you do not hold ",
                   "S may not be led: trumps are not broken yet; allowed: ",
                   "may not be played: you must follow ", "  '2' is not a card of this deck; ",
                   "  '10x' is not a card of this deck (suits are C, D, H, S); "):
        assert reason in text


@pytest.mark.parametrize("how", ["end of input", "quit", "ctrl-c"])
def test_a_session_ends_cleanly_keeping_the_hands_finished(monkeypatch, tmp_path, how):
    records = tmp_path / "mine.jsonl"
    args = ["--rules", "spades.cutthroat", "--seed", 9, "--hands", 3, "--out", records]
    lines = 20 + 2  # the first hand's bid and 13 cards with some wrong answers, then more
    if how == "quit":  # at the first card of the second hand
        code, text, person = play(monkeypatch, args, seed=7, first=[
            ("Your card", lambda text: ["quit"] if "hand over" in text else None)])
    else:
        code, text, person = play(monkeypatch, args, seed=7, lines=lines,
                                  interrupt=how == "ctrl-c")
    assert code == (130 if how == "ctrl-c" else 0)
    assert "Traceback" not in text
    assert {"end of input": "stopped: the input ended", "quit": "stopped: quit",
            "ctrl-c": "stopped: interrupted"}[how] in text
    finished = text.count("\nhand over; ")
    if finished:
        assert len(replayed(records, tmp_path)) == finished < 3
        assert f"records: {records} ({finished} hand" in text
    else:
        assert not records.exists() and "no hand was finished: no records written" in text


def test_no_hand_finished_writes_nothing(monkeypatch, tmp_path):
    records = tmp_path / "mine.jsonl"
    code, text, _ = play(monkeypatch, ["--seed", 1, "--out", records], lines=0)
    assert code == 0 and not records.exists()
    assert "stopped: the input ended" in text


# --- the same seed and answers, piped into the real command --------------------------------------

def test_piped_moves_replay_the_same_game(monkeypatch, tmp_path):
    first, again = tmp_path / "first.jsonl", tmp_path / "again.jsonl"
    args = ["--rules", "portland", "--seat", 2, "--seed", 12, "--hands", 2]
    code, text, person = play(monkeypatch, [*args, "--out", first], seed=8, wrong=0.1)
    assert code == 0
    piped = subprocess.run([sys.executable, "-m", "whistlab", "play", *map(str, args),
                            "--out", again], input="".join(a + "\n" for a in person.given),
                           capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert piped.returncode == 0 and piped.stderr == ""
    assert piped.stdout == text.replace(str(first), str(again))
    assert again.read_text() == first.read_text()


# --- the command's own errors --------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--opponents", "nosuch"], "--opponents: unknown strategy 'nosuch'"),
    (["--opponents", "{name = 'seed'"], "--opponents: \"{name = 'seed'\" is not a TOML inline"),
    (["--rules", "norwegian", "--opponents", "{name = 'seed', nil_max_estimate = 0.5}"],
     "--opponents: key 'nil_max_estimate': unknown parameter of strategy 'seed'"),
    (["--rules", "spades.cutthroat", "--partners", "seed"], "--partners: this table has no "
                                                             "partners"),
    (["--seat", 4], "--seat: 4 is not a seat of this table; allowed: 0..3"),
    (["--rules", "portland.dummy", "--seat", 3], "--seat: seat 3 is the dummy"),
    (["--rules", "nosuch"], "--rules: unknown preset 'nosuch'"),
    (["--games", 0], "'0' must be at least 1"),
])
def test_setup_errors_are_one_line(monkeypatch, capsys, args, message):
    code, text, _ = play(monkeypatch, args, lines=0)
    err = capsys.readouterr().err
    assert code == 2 and text == ""
    assert err.startswith("whistlab: error: ") and err.count("\n") == 1 and message in err


def test_out_must_be_a_file(monkeypatch, capsys, tmp_path):
    code, _, _ = play(monkeypatch, ["--out", tmp_path], lines=0)
    assert code == 2 and "is a folder; give a file name" in capsys.readouterr().err


def test_strategies_by_table_and_by_file(monkeypatch, tmp_path):
    tuned = tmp_path / "tuned.toml"
    tuned.write_text('name = "expert"\n', encoding="utf-8")
    code, text, _ = play(monkeypatch, ["--seed", 1, "--partners", "{name = 'seed', "
                                       "nil_max_estimate = 0.5}", "--opponents", tuned,
                                       "--hands", 1], seed=1)
    assert code == 0
    assert "  South: seed\n" in text and "  East: expert\n" in text


def test_help_shows_examples(capsys):
    with pytest.raises(SystemExit) as end:
        main(["play", "--help"])
    assert end.value.code == 0
    out = capsys.readouterr().out
    assert "--partners" in out and "whistlab play --rules portland" in out


# --- the engine's own game ----------------------------------------------------------------------

@pytest.mark.parametrize("rules, seat", [("spades.standard", 1), ("portland", 3)])
def test_the_engine_plays_the_same_hand_with_the_same_answers(monkeypatch, tmp_path, rules,
                                                              seat):
    """The person's seat draws no random number and changes no other seat's choice: the
    engine's own block of one hand (`sim.blocks.play_block`, block 0 of the seed), the person's
    seat answered by replay's scripted player from his record, writes the same record."""
    records = tmp_path / "mine.jsonl"
    code, _, _ = play(monkeypatch, ["--rules", rules, "--seat", seat, "--seed", 21,
                                    "--hands", 1, "--opponents", "random", "--out", records],
                      seed=9)
    assert code == 0
    (rec,) = [json.loads(line) for line in records.read_text().splitlines()]
    value = load_rules(rules)
    game = game_of(value)
    deck = game.deck_for(value)
    plays = np.array([[deck.bit_of(c) for c in rec["plays"]]], np.int8)
    person = (Scripted(plays, bids=np.array([rec["bids"]], np.int8),
                       blind=np.array([rec["blind"]], bool)) if "bids" in rec
              else Scripted(plays))
    others = {s: make_strategy("random" if (s - seat) % 2 else "seed", game=value.game)
              for s in range(value.players)}
    lineup = Lineup([person if s == seat else others[s] for s in range(value.players)])
    result = game.play_block(value, lineup, 21, 0, 1, "hands", 0)
    cell = Cell(variant="play", rules=value, lineup="play", seats=())
    assert json.loads(json.dumps(game.block_records(result, cell, 0))) == [rec]
