"""The one exception type that the command line turns into a clear message and exit code 2."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["IllegalBid", "IllegalDecision", "UserError", "did_you_mean", "known_names"]


class UserError(ValueError):
    """Bad input from the user: a rules, experiment or record file, a command-line value or an
    argument of the Python API (a ValueError, as Python code expects of a bad argument).

    The message names where (``source``: a file, ``line``), what (``key``, trick, seat) and what is
    allowed, so that one line tells the user how to fix it.
    """

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 key: str | None = None):
        self.message = message
        self.source = source
        self.line = line
        self.key = key
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.source:
            where.append(str(self.source) + (f", line {self.line}" if self.line else ""))
        elif self.line:
            where.append(f"line {self.line}")
        if self.key:
            where.append(f"key '{self.key}'")
        return ": ".join([*where, self.message])


class IllegalDecision(UserError):
    """A strategy or a record made a decision the rules forbid in one phase of a hand (its
    subclasses name the phase); ``row`` is the hand in the batch, ``seat`` who decided."""

    phase = "decision"

    def __init__(self, message: str, *, row: int, seat: int):
        self.row, self.seat = row, seat
        super().__init__(f"{self.phase}, seat {seat}: {message}")


class IllegalBid(IllegalDecision):
    """A bid (or a flag of one: a raise, a half, a nil in the dark) the rules forbid."""

    phase = "bidding"


def did_you_mean(name, known: Iterable[str]) -> str:
    """" (did you mean 'x'?)" (or "'x' or 'y'") for the known names nearest ``name``, else ""."""
    if not isinstance(name, str):
        return ""
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
    return " (did you mean " + " or ".join(f"'{c}'" for c in close) + "?)" if close else ""


def known_names(name, known: Iterable[str], noun: str, see: str) -> str:
    """The end of an "unknown ..." message: the nearest known names, then all of them (when
    there are few) or ``see``, where to find them: " (did you mean 'x'?); {noun}: a, b, c"."""
    known = list(known)
    listed = (", ".join(known) or "none") if len(known) <= 24 else f"{len(known)} in all, {see}"
    return f"{did_you_mean(name, known)}; {noun}: {listed}"
