"""RULES.md §4.6 ``exact``, the whole rule: "side: the side must take exactly its bid; player:
each player his own; more is scored as a set".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the score: `score`, the scoring slot ``exact`` of `sim.spades.scoring.PARTS` (the first way of
  scoring the contract: what it calls made, the later ways and ``no_minus`` see as made).
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(None, "side: the side must take exactly its bid; player: each player his own; "
                "more is scored as a set", kind=str, choices=("side", "player"), optional=True)


def score(tally, facts) -> None:
    """A side over its bid (``"player"``: or a non-nil bidder off his own bid) is set: -10 x
    bid, no bags. A side of two nils has no contract and is never set."""
    bid, over = facts.bid, facts.taken - facts.bid
    if facts.rules.exact == "side":
        made = over == 0
    else:  # every non-nil bidder exactly his own bid
        off = (facts.tricks != facts.bids) & ~facts.is_nil
        made = (over >= 0) & (facts.side(off.astype(np.int32)) == 0)
    tally.contract = np.where(made, tally.contract, -10 * bid)
    tally.bags = np.where(made, tally.bags, 0)
    tally.made = made | (bid == 0)


RULE = HouseRule(key="exact", section="§4.6", in_force=lambda r: r.exact is not None,
                 score={"exact": score})
