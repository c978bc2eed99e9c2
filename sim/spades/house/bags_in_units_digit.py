"""RULES.md §4.6 ``bags_in_units_digit``, the whole rule: "bags are kept as the units digit of the
score and are not points (54 = 50 points + 4 bags)": counted toward ``bag_limit`` and its
penalty as in RULES.md §3, but not scored. Under ``three_b`` and ``quicksand`` too, their -10
per overtrick standing (a reading, issue 19: their scores are multiples of 10, so the digit is
free).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the score: `price`, the plug-in's ``bags`` (how the hand's bags are priced and counted, in
  place of the standard game's, `sim.spades.scoring`): counted (`Tally.count_bags`), not
  points;
- the refusal: where no bag is counted (``no_overs``, ``bags_negative``), and a ``bag_limit``
  above 10, which the digit cannot hold (`refuse`, among the bag rules' checks, after
  ``bags_negative``'s: ``refuse_among = "bags"``).

What is still outside the module: `sim.spades.rules.SpadesRules.bagless`, under which
``three_b`` and ``quicksand`` count no bag unless this key keeps them, and the refusals of
``highlander`` and the auction, which name it.
"""

from __future__ import annotations

from ...errors import UserError
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "bags are kept as the units digit of the score and are not points "
                "(54 = 50 points + 4 bags)", kind=bool)


def price(tally, facts, before) -> None:
    """The hand's bags are added to the running count (its penalty at ``bag_limit``), and score
    nothing."""
    tally.count_bags(before, facts.rules)


def refuse(rules) -> UserError | None:
    """Bags must be counted (under this key ``three_b`` and ``quicksand`` count them, so no bag
    is counted only under ``no_overs``, or priced away by ``bags_negative``), and at most 9 kept
    in the digit."""
    clash = [k for k in ("no_overs", "bags_negative") if getattr(rules, k)]
    if clash:
        return UserError(f"bags_in_units_digit needs bags to be counted, which {clash[0]} does "
                         "away with", key="bags_in_units_digit")
    if rules.bag_limit > 10:
        return UserError(f"bags_in_units_digit keeps at most 9 bags in the units digit: "
                         f"bag_limit = {rules.bag_limit} is above 10", key="bags_in_units_digit")
    return None


RULE = HouseRule(key="bags_in_units_digit", section="§4.6",
                 in_force=lambda r: r.bags_in_units_digit, bags=price, refuse=refuse,
                 refuse_among="bags")
