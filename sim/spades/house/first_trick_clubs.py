"""RULES.md §4.3 ``first_trick_clubs``, the whole rule: "the lowest club leads trick 1, and nobody
plays a spade to it unless he holds only spades".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the first leader: the holder of the lowest club (`sim.spades.house.first_lead.leader`);
- the legality: the play constraint slots ``first_lead`` (he leads that club) and
  ``first_trick_clubs`` (`no_spade`).
"""

from __future__ import annotations

from ...options import option
from ...tricks import TrickState
from ..narrowing import lowest_club_lead, narrow
from ..plugin import HouseRule
from .first_lead import leader

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "the lowest club leads trick 1, and nobody plays a spade to it unless he "
                "holds only spades", kind=bool)


def no_spade(rules, deck):
    """On trick 1 nobody plays a spade unless he holds only spades."""
    def part(s: TrickState):
        return s.legal if s.trick_no else narrow(s.legal, ~s.trump)
    return part


RULE = HouseRule(key="first_trick_clubs", section="§4.3", in_force=lambda r: r.first_trick_clubs,
                 first_leader=leader,
                 constraint={"first_lead": lowest_club_lead, "first_trick_clubs": no_spade})
