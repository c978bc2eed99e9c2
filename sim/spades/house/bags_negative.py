"""RULES.md §4.6 ``bags_negative``, the whole rule: "each bag scores -1 instead of +1, and there
is no bag_penalty" (no running count either).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the score: `price`, the plug-in's ``bags`` (how the hand's bags are priced and counted, in
  place of the standard game's, `sim.spades.scoring`): -1 each in ``overtricks``, the running
  count unchanged;
- the refusal: with a rule that counts no bag, ``three_b``, ``quicksand`` or ``no_overs``
  (`refuse`, asked first among the bag rules' checks, ``refuse_among = "bags"``).

What is still outside the module: `sim.spades.rules.SpadesRules.voided_by` (``bag_limit`` and
``bag_penalty`` have no effect under it), the refusals of ``bags_in_units_digit``,
``highlander`` and the auction, which name it.
"""

from __future__ import annotations

from ...errors import UserError
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "each bag scores -1 instead of +1; no bag penalty", kind=bool)


def price(tally, facts, before) -> None:
    """Each of the hand's bags scores -1; the running count stays as it was (no penalty)."""
    tally.overtricks = tally.overtricks - tally.bags
    tally.bags_after = before


def refuse(rules) -> UserError | None:
    """No bag to price under the rules that count none."""
    bagless = [k for k in ("three_b", "quicksand", "no_overs") if getattr(rules, k)]
    if bagless:
        return UserError(f"bags_negative prices bags, which {bagless[0]} does away with",
                         key="bags_negative")
    return None


RULE = HouseRule(key="bags_negative", section="§4.6", in_force=lambda r: r.bags_negative,
                 bags=price, refuse=refuse, refuse_among="bags")
