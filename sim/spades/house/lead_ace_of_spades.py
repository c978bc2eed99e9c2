"""RULES.md §4.3 ``lead_ace_of_spades``, the whole rule: "under spades_broken the ace of spades may
be led before spades are broken".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the legality: `leads`, the cards a leader may lead before spades are broken
  (`sim.spades.hand.lead_rule_for`);
- the refusal: without ``spades_broken = true`` (`refuse`).
"""

from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "under spades_broken the ace of spades may be led before spades are "
                "broken", kind=bool)


def leads(deck) -> np.uint64:
    """The ace of spades."""
    return np.uint64(1) << np.uint64(deck.bit_of("AS"))


def refuse(rules) -> UserError | None:
    """The rule is an exception to ``spades_broken = true``."""
    if rules.spades_broken is not True:
        return UserError("lead_ace_of_spades needs spades_broken = true",
                         key="lead_ace_of_spades")
    return None


RULE = HouseRule(key="lead_ace_of_spades", section="§4.3",
                 in_force=lambda r: r.lead_ace_of_spades, leads=leads, refuse=refuse,
                 refuse_among="play")
