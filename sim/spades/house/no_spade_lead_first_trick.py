"""RULES.md §4.3 ``no_spade_lead_first_trick``, the whole rule: "spades may not be led to trick 1
(unless the leader holds only spades)".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the legality: `constraint`, the play constraint slot ``no_spade_lead_first_trick`` of
  `sim.spades.constraints` (the trick's trumps stand for spades, §4.2).
"""

from __future__ import annotations

from ...options import option
from ...tricks import TrickState
from ..narrowing import narrow
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "spades may not be led to trick 1 (unless the leader holds only spades)",
                kind=bool)


def constraint(rules, deck):
    """The lead of trick 1: no spade where the leader holds another card."""
    def part(s: TrickState):
        return s.legal if s.trick_no or s.position else narrow(s.legal, ~s.trump)
    return part


RULE = HouseRule(key="no_spade_lead_first_trick", section="§4.3",
                 in_force=lambda r: r.no_spade_lead_first_trick,
                 constraint={"no_spade_lead_first_trick": constraint})
