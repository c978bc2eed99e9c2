"""RULES.md §4.6 ``exact_pair_bonus``, the whole rule: "if both partners take exactly their own
bids, the side scores a bonus of half the contract's value, rounded down to a multiple of 10"
(3 + 4: 70, and 30 more).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field; a key of two partners, RULES.md
  §4.7: `sim.spades.rules.PARTNER_KEYS`);
- the score: `score`, the scoring slot ``exact_pair_bonus`` of `sim.spades.scoring.PARTS`, into
  the side's ``bonus`` (the ``bonus_<side>`` column);
- the refusal: with ``partnership_bidding``, where the partners have no bids of their own.
"""

from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "both partners take exactly their own bids: half the contract value, "
                "rounded down to a multiple of 10", kind=bool)


def score(tally, facts) -> None:
    """Both partners took exactly their own bids (a nil bidder none), on a side of ordinary bids
    made by each partner: half the contract's value, rounded down to a multiple of 10."""
    exact = facts.side((facts.tricks != facts.bids).astype(np.int32)) == 0
    tally.bonus = tally.bonus + np.where(facts.ordinary & facts.individual & exact,
                                         10 * facts.bid // 2 // 10 * 10, 0)


def refuse(rules) -> UserError | None:
    """Partnership bidding makes one joint bid: no partner has a bid of his own."""
    if rules.partnership_bidding:
        return UserError("exact_pair_bonus needs each partner's own bid: partnership_bidding "
                         "makes one joint bid", key="exact_pair_bonus")
    return None


RULE = HouseRule(key="exact_pair_bonus", section="§4.6", in_force=lambda r: r.exact_pair_bonus,
                 score={"exact_pair_bonus": score}, refuse=refuse)
