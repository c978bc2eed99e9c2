"""Asking a person in the terminal: a question, the answers allowed, and again until one is.

Plain text on two streams (standard input and output by default, any text streams in tests), so
that moves can be piped in. An answer that is not allowed is asked again with a short reason;
an empty line too. The end of input, or ``quit``, ends the session (`Quit`); ``?`` or ``help``
repeats the answers allowed. When the input is not a terminal the answer read is echoed, so
that a piped session's output reads as it would on screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO, TypeVar

__all__ = ["Prompter", "Quit", "choice", "yes_no"]

T = TypeVar("T")


class Quit(Exception):
    """The person ended the session: the input ended, or he typed ``quit``."""


class Prompter:
    """Writes to ``out`` and reads answers from ``inp``, one line each."""

    def __init__(self, inp: TextIO, out: TextIO):
        self.inp, self.out = inp, out
        self.echo = not _is_terminal(inp)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, question: str, allowed: str, parse: Callable[[str], T]) -> T:
        """Ask ``question`` until ``parse`` accepts the answer (it raises ValueError with the
        reason otherwise); ``allowed`` says what may be answered."""
        while True:
            self.out.write(f"{question} ({allowed}): ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.say()
                raise Quit("the input ended")
            if self.echo:
                self.say(line.rstrip("\n"))
            text = line.strip()
            if text.lower() in ("quit", "exit"):
                raise Quit("quit")
            if text in ("?", "help"):
                self.say(f"  allowed: {allowed}; quit ends the session")
                continue
            if not text:
                self.say(f"  nothing typed; allowed: {allowed}")
                continue
            try:
                return parse(text)
            except ValueError as why:
                self.say(f"  {why}; allowed: {allowed}")


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream: not a terminal
        return False


def yes_no(text: str) -> bool:
    answer = text.lower()
    if answer in ("y", "yes"):
        return True
    if answer in ("n", "no"):
        return False
    raise ValueError(f"{text!r} is not yes or no")


def choice(options: dict[str, T]) -> Callable[[str], T]:
    """A parser of one of ``options``' names (any case; spaces and '-' read as '_')."""

    def parse(text: str) -> T:
        key = text.lower().replace(" ", "_").replace("-", "_")
        if key not in options:
            raise ValueError(f"{text!r} is not one of the choices")
        return options[key]

    return parse
