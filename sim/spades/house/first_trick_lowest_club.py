"""RULES.md §4.3 ``first_trick_lowest_club``, the whole rule: "on trick 1 everyone plays his lowest
club" (void in clubs: any non-spade; a reading: this overrides following the led suit on trick
1, as the rule names the card).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the legality: `constraint`, the play constraint slot ``first_trick_lowest_club`` of
  `sim.spades.constraints`.
"""

from __future__ import annotations

from ...cards import CLUBS, lowest_bit, pick
from ...options import option
from ...tricks import TrickState
from ..narrowing import narrow
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "on trick 1 everyone plays his lowest club (void in clubs: any "
                "non-spade)", kind=bool)


def constraint(rules, deck):
    """Trick 1: the lowest club held, else any card but a spade (where one is held)."""
    clubs = deck.suit_masks[CLUBS]

    def part(s: TrickState):
        if s.trick_no:
            return s.legal
        own = s.hand & clubs
        return pick(own != 0, lowest_bit(own), narrow(s.hand, ~s.trump))
    return part


RULE = HouseRule(key="first_trick_lowest_club", section="§4.3",
                 in_force=lambda r: r.first_trick_lowest_club,
                 constraint={"first_trick_lowest_club": constraint})
