"""RULES.md §4.6 ``no_overs``, the whole rule: "overtricks score nothing; no bag penalty" (no bag
is counted at all).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the refusal: with ``three_b`` or ``quicksand``, which price every overtrick at -10 (`refuse`,
  asked first among the checks of a rule another leaves without effect, ``refuse_among =
  "voided"``).

What is still outside the module: that no bag is counted under it, as under ``three_b``,
``quicksand``, ``highlander`` and the auction: `sim.spades.rules.SpadesRules.bagless` names the
first of those keys in force (the refusals of the bag rules name it, in that order), and the
score's last step (`sim.spades.scoring`, ``_bags``) counts no bag where it names one.
"""

from __future__ import annotations

from ...errors import UserError
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "overtricks score nothing; no bags, no bag penalty", kind=bool)

# the ways of scoring the contract that price every overtrick (RULES.md §4.6), in the order
# they are refused
PRICED = {"three_b": "three_b prices every overtrick at -10",
          "quicksand": "quicksand prices every overtrick at -10"}


def refuse(rules) -> UserError | None:
    """A way of scoring the contract that prices every overtrick leaves no_overs no effect."""
    for by, why in PRICED.items():
        if getattr(rules, by):
            return UserError(f"no_overs has no effect with {by}: {why}; choose one",
                             key="no_overs")
    return None


RULE = HouseRule(key="no_overs", section="§4.6", in_force=lambda r: r.no_overs, refuse=refuse,
                 refuse_among="voided")
