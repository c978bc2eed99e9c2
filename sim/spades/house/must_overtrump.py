"""RULES.md §4.3 ``must_overtrump``, the whole rule: "void in a led non-spade suit, beat a spade
already in the trick if you can" (``"always"``, or ``"opponents"``: only when an opponent's spade
is winning it).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the legality: `constraint`, the play constraint slot ``must_overtrump`` of
  `sim.spades.constraints`;
- the refusal: ``"always"`` with ``must_trump``, which already makes a player void in the led
  suit beat the highest spade (`refuse`).
"""

from __future__ import annotations

from ...cards import pick
from ...errors import UserError
from ...options import option
from ...tricks import TrickState
from ..narrowing import beating, narrow
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option("off", "void in a led non-spade suit, beat a spade in the trick if you can: "
                "always, or only an opponent's (opponents)", kind=str,
                choices=("off", "opponents", "always"))


def constraint(rules, deck):
    """Void in a led side suit with a spade winning the trick: beat it if one can."""
    only_opponents, table = rules.must_overtrump == "opponents", rules.table

    def part(s: TrickState):
        if not s.position:
            return s.legal
        due = ((s.hand & s.led) == 0) & ((s.led & s.trump) == 0) & ((s.winning & s.trump) != 0)
        if only_opponents:  # another side's spade (RULES.md §4.7 tables: sides by seat)
            due &= table.opponents(s.seat, s.winning_seat)
        return pick(due, narrow(s.legal, beating(s, deck)), s.legal)
    return part


def refuse(rules) -> UserError | None:
    """``"always"`` adds nothing to ``must_trump``."""
    if rules.must_trump and rules.must_overtrump == "always":
        return UserError("must_overtrump = \"always\" has no effect with must_trump, which "
                         "already makes a player void in the led suit beat the highest spade "
                         "in the trick if he can (RULES.md §4.3); choose one",
                         key="must_overtrump")
    return None


RULE = HouseRule(key="must_overtrump", section="§4.3",
                 in_force=lambda r: r.must_overtrump != "off",
                 constraint={"must_overtrump": constraint}, refuse=refuse)
