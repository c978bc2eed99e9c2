"""RULES.md §4.3 ``must_trump``, the whole rule: "void in the led suit, play a spade if you have
one, and beat the highest spade in the trick if you can" (also when spades were led).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the legality: `constraint`, the play constraint slot ``must_trump`` of
  `sim.spades.constraints`. With ``must_overtrump = "opponents"`` (a reading of the two
  together, §4.3: "only when an opponent's spade holds the trick") the duty to beat holds only
  when an opponent holds the trick; the spade is still due.
"""

from __future__ import annotations

from ...cards import pick
from ...options import option
from ...tricks import TrickState
from ..narrowing import beating, narrow
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "void in the led suit, play a spade if you have one, and beat the highest "
                "spade in the trick if you can", kind=bool)


def constraint(rules, deck):
    """Void in the led suit: a spade, and one that beats the trick's highest if one does."""
    only_opponents, table = rules.must_overtrump == "opponents", rules.table

    def part(s: TrickState):
        if not s.position:
            return s.legal
        void = (s.hand & s.led) == 0
        spades_led = (s.led & s.trump) != 0
        legal = pick(void, narrow(s.legal, s.trump), s.legal)
        due = void | spades_led
        if only_opponents:
            due &= table.opponents(s.seat, s.winning_seat)
        return pick(due, narrow(legal, beating(s, deck)), legal)
    return part


RULE = HouseRule(key="must_trump", section="§4.3", in_force=lambda r: r.must_trump,
                 constraint={"must_trump": constraint})
