"""RULES.md §4.4 ``partnership_bidding``: "each side makes one joint bid (the non-dealing side
first), at least min_team_bid (4), no nil", with its option ``no_nine_no_blind``:
"additionally no blind bids and no joint bid of 9".

- the keys: `OPTION` and `NO_NINE` (`sim.spades.rules.SpadesRules` fields);
- the legality: `joint_bids`, the slot ``joint_bid`` of `sim.spades.bidding.bid_masks`: the
  bids open to a side's joint bidder, in place of a seat's own and of the bid rules'
  (``BID_RULES``, ``BID_BANS``): from the least joint bid (``min_team_bid``, 4; at least 4
  under ``fledu``) to ``max_team_bid`` or the hand's tricks, no 9 under ``no_nine_no_blind``,
  and under ``hook`` the last joint bid may not make the total the tricks of the hand (where
  it leaves a bid open). The joint rule reads ``fledu``, ``min_team_bid`` and ``hook`` itself:
  their own slots narrow one seat's bid given its partner's, which a joint bid has not;
- the refusals: `refuse` (the keys that clash with one joint bid per side, and ``fledu``
  without effect) and `refuse_no_nine` (``no_nine_no_blind`` without the key, or with blind
  bids), asked among the checks of the rules ``partners``, where they stood (``NO_NINE_RULE``
  comes first in `sim.spades.house.HOUSE_RULES`, so the same refusal is reported first).

What is still outside the module, the engine's: who bids (`sim.spades.bidding`'s turn step
``_open``: the side's first bidder bids for all its players, the others' bids stay null), the
score sheet's check that a side's partners have no bids (`check_bids`, whose message names the
key), a bemo's "two ordinary bids" read as one joint bid (`_check_declarations`,
`_side_contract_masks`), replay's reading of a record's null bids, and the keys that read
``rules.partnership_bidding`` as "nobody bids nil" (`SpadesRules.nilless`, and the refusals of
``half_trick_bids``, ``exact_pair_bonus``, ``highlander``, ``nil_in_the_dark``...). These
are the bidding's shape (which seats bid) that every part of the engine reads: the bids array
with null partners, not one step a plug-in could fill. The scoring of a joint bid is the
side's contract as usual.
"""

from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...options import option
from ..bidmasks import MASK, bit, span
from ..plugin import HouseRule

__all__ = ["NO_NINE", "NO_NINE_RULE", "OPTION", "RULE"]

OPTION = option(False, "each side makes one joint bid (its first bidder, the non-dealing side "
                "first), at least min_team_bid (4), no nil", kind=bool)
NO_NINE = option(False, "partnership bidding without blind bids and without a joint bid of 9",
                 kind=bool)

# the keys one joint bid per side (no nil) does not combine with (the refusal names the first)
_CLASH = ("suicide", "whiz", "mirror", "double_nil", "double_blind_nil", "nil_pass", "team_nil",
          "team_blind_nil")


def joint_bids(bids: np.ndarray, seat: np.ndarray, rules) -> np.ndarray:
    """uint32[N]: the joint bids open to ``seat``, its side's first bidder."""
    top = rules.tricks_per_hand
    most = top if rules.max_team_bid is None else min(rules.max_team_bid, top)
    least = max(rules.min_team_bid or 4, 4 if rules.fledu else 1)  # fledu: at least 4
    mask = np.broadcast_to(span(least, most), seat.shape).astype(MASK)
    if rules.no_nine_no_blind:
        mask &= ~MASK(1 << 9)
    if rules.hook:  # the last joint bid may not make the total the tricks of the hand
        made = np.where(bids >= 0, bids, 0).sum(axis=1)
        last = (bids >= 0).sum(axis=1) == rules.sides - 1
        kept = mask & ~np.where(last, bit(top - made), 0).astype(MASK)
        mask = np.where(kept != 0, kept, mask).astype(MASK)
    return mask


def refuse(rules) -> UserError | None:
    """A side contract replaces the joint bid, the nil rules need a nil; fledu without effect."""
    clash = [k for k in _CLASH if getattr(rules, k)]
    if clash:
        return UserError(f"partnership bidding (one joint bid per side, no nil) does not "
                         f"combine with {clash[0]}", key="partnership_bidding")
    if rules.fledu and (rules.min_team_bid or 4) >= 4:
        return UserError("fledu has no effect with partnership_bidding, whose joint bid "
                         "is at least min_team_bid (4): choose one (or min_team_bid "
                         "below 4)", key="fledu")
    return None


def refuse_no_nine(rules) -> UserError | None:
    """``no_nine_no_blind`` is partnership bidding's, and allows no blind bids."""
    if not rules.partnership_bidding:
        return UserError("no_nine_no_blind needs partnership_bidding = true",
                         key="no_nine_no_blind")
    if rules.blind_bids:
        return UserError("no_nine_no_blind allows no blind bids: set blind_bids = false",
                         key="no_nine_no_blind")
    return None


NO_NINE_RULE = HouseRule(key="no_nine_no_blind", section="§4.4",
                         in_force=lambda r: r.no_nine_no_blind, refuse=refuse_no_nine,
                         refuse_among="partners")
RULE = HouseRule(key="partnership_bidding", section="§4.4",
                 in_force=lambda r: r.partnership_bidding, joint_bid=joint_bids, refuse=refuse,
                 refuse_among="partners")
