"""RULES.md §4.6 ``highlander``, the whole rule: "each partner must make his own bid": all made, +10
x side bid and 5 per overtrick; else -10 x side bid and 5 per overtrick of the partners who made
theirs (Tom bids 5 takes 4, Harry 3 takes 4: -80 + 5 = -75); no bags; all made with 7+ tricks,
the progressive bonus (10 the first time in the game, 20 the second, ...).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field; a key of partners, RULES.md §4.7:
  `sim.spades.rules.PARTNERSHIP_KEYS`; no bag is counted under it: `SpadesRules.bagless`);
- the score: `score`, the scoring slot ``highlander`` of `sim.spades.scoring.PARTS` (the
  contract's own way: the slot ``contract_way`` gives way to it);
- the refusal: the other ways of scoring the contract and the rules about bags (`refuse`).
"""

from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "each partner must make his own bid: +-10 x side bid, 5 per overtrick of "
                "a partner who made his; no bags; all made with 7+ tricks: progressive bonus "
                "(10, 20, 30 ...)", kind=bool)

# The keys highlander, a scoring of its own, does not combine with (RULES.md §4.6)
CLASHES = ("three_b", "quicksand", "exact", "no_overs", "set_to_opponents", "bags_negative",
           "seven_plus", "bags_in_units_digit", "bag_cancel_card", "partnership_bidding")


def score(tally, facts) -> None:
    """Each partner's own bid (a nil bidder is scored by the nil rules alone; reading: the
    progressive bonus only when both made). With ``double_over`` ("a side that takes at least
    twice its contract loses twice the contract value"): a side whose bidders took at least
    twice the side bid scores -20 x side bid instead of its contract and overtricks (the bonus,
    for bids made with 7+ tricks, stands). With ``no_minus`` ("a set side scores 0 instead of a
    negative score"): a side in which a partner failed is set, and its contract (-10 x side bid)
    scores 0; the overtricks of the partner who made his bid keep their 5 each (readings,
    issue 19)."""

    r = facts.rules
    bidder = ~facts.is_nil & (facts.bids > 0)
    own = facts.tricks * bidder
    made_p = own >= facts.bids
    all_made = facts.side((bidder & ~made_p).astype(np.int32)) == 0
    extra = facts.side(np.where(bidder & made_p, own - facts.bids, 0))
    has = facts.bid > 0
    tally.contract = np.where(has, np.where(all_made, 10, -10) * facts.bid, 0)
    tally.overtricks = np.where(has, 5 * extra, 0)
    tally.made = all_made | ~has
    if r.double_over:
        doubled = has & (facts.side(own) >= 2 * facts.bid)
        tally.contract = np.where(doubled, -20 * facts.bid, tally.contract)
        tally.overtricks = np.where(doubled, 0, tally.overtricks)
    if r.no_minus:
        tally.contract = np.where(~tally.made, np.maximum(tally.contract, 0), tally.contract)
    tally.pay_progressive(has & all_made & (facts.side(own) >= 7))


def refuse(rules) -> UserError | None:
    """Highlander scores each partner's own bid its own way: not with another way of scoring
    the contract, or a rule that prices, keeps or cancels bags."""
    clash = [key for key in CLASHES if getattr(rules, key)]
    if clash:
        return UserError(f"highlander scores each partner's own bid its own way: it does not "
                         f"combine with {clash[0]}", key="highlander")
    return None


RULE = HouseRule(key="highlander", section="§4.6", in_force=lambda r: r.highlander,
                 score={"highlander": score}, refuse=refuse)
