"""The Spades house rules written as plug-ins (`sim.spades.plugin.HouseRule`), one module each.
The engine assembles its steps from `HOUSE_RULES` (`in_force`, once per rules value)."""

from __future__ import annotations

from functools import cache

from . import nil_in_the_dark

__all__ = ["DECLARED", "HOUSE_RULES", "in_force"]

HOUSE_RULES = (nil_in_the_dark.RULE,)
DECLARED = tuple(flag for rule in HOUSE_RULES for flag in rule.declares)  # BidResult flags


@cache
def in_force(rules) -> tuple:
    """The plug-ins the rules switch on, in `HOUSE_RULES` order."""
    return tuple(rule for rule in HOUSE_RULES if rule.in_force(rules))
