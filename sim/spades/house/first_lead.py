"""RULES.md §4.3 ``first_lead``, the whole rule: "who leads the first trick: the dealer's left, or
the holder of the 2C / of the lowest club, leading it" (with two decks the first holder of it from
the dealer's left, a reading, §4.7).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field; in force when not
  ``"left_of_dealer"``);
- the first leader: `leader` (`sim.spades.hand.first_leader`);
- the legality: the play constraint slot ``first_lead`` (`sim.spades.narrowing.lowest_club_lead`:
  he leads that club). Its refusals against the card layouts (a 2C taken out, or a spade under
  ``deuces_high``) are `SpadesRules.check`'s, among the card checks.
"""

from __future__ import annotations

from ...options import option
from ..kitty import lowest_club_holder
from ..narrowing import lowest_club_lead
from ..plugin import HouseRule

__all__ = ["CHOICES", "OPTION", "RULE", "leader"]

CHOICES = ("left_of_dealer", "two_of_clubs", "lowest_club")
OPTION = option("left_of_dealer", "who leads trick 1: the dealer's left, or the holder of 2C / of "
                "the lowest club, leading it", kind=str, choices=CHOICES)


def leader(hands, dealer, deck, contracts=None, rules=None):
    """int8[N]: the holder of the lowest club dealt (the 2C when it is there)."""
    return lowest_club_holder(hands, dealer, deck)


RULE = HouseRule(key="first_lead", section="§4.3",
                 in_force=lambda r: r.first_lead != "left_of_dealer", first_leader=leader,
                 constraint={"first_lead": lowest_club_lead})
