"""RULES.md §4.4 ``half_trick_bids``: "the first partner of a side may bid in halves (3.5); the
second must make the side's total whole".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the decision: after his bid, the side's first bidder (a bid of 1 or more, not blind, below
  the hand's tricks and within ``max_team_bid``) is asked ``half_bid`` with his
  `sim.views.BidView` (`ask`, the turn's slot ``half_bid``); after a partner's half, the second
  bidder's bid is a half too. The answers fill the bidding's ``half`` array, bool[N, P];
- the table: ``half_<seat>``;
- the play's views: which bids are halves (`shows`, `sim.views.PlayView.half`);
- the refusal: with a rule that leaves no bid a half (`refuse`, asked among the checks of the
  rules ``halves``, where it stood).

What is still outside the module, the engine's: the ``half`` array itself (``BidResult.half``,
``BidState.half``, the views' ``half`` field, the scripted player's answers from it), which is
no plug-in flag (``declares``) because every bid reads it: the bids open to the second partner
(`sim.spades.bidding.bid_masks`: v and a half, no nil; `sim.spades.bidmasks.BidSeat`'s
``halved`` for the bid rules), the blind nil the turn leaves him (``Turn.after_half``), the
nils (a 0 and a half is no nil: `nil_in_the_dark` and the scoring's ``is_nil``), the side's
contract (two halves make a trick, `sim.spades.scoring`) and the score sheet's check of the
halves (`sim.spades.bidding.check_bids`, which also refuses a record's halves under rules
without the key, so it runs where the rule is off); the record's field ``half``, written after
the plug-ins' flags and read back by replay (`sim.spades.records`, `sim.spades.replay`), keeps
that order and that check's message.
"""

from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "the first partner of a side may bid in halves (3.5); the second then "
                "makes the side's total whole", kind=bool)

# the rules that leave no bid a half, each with the reason (the refusal names the first)
_VOIDING = {"suicide": "the second partner of a first non-nil bid bids nil, never a half",
            "whiz": "each bid is the spades held, or nil",
            "mirror": "each bid is the spades held",
            "partnership_bidding": "one joint bid has no second partner to make it whole",
            "auction": "the auction's calls are whole"}


def ask(turn, rules, deck, lineup, rng) -> None:
    """§4.4: the side's first partner may add a half to his bid; the second must."""
    t = turn
    rows, seat = t.rows, t.seat
    t.half[rows, seat] |= t.after_half & (t.bids[rows, seat] >= 0)
    most = rules.tricks_per_hand - 1  # a half bid stays below the hand's tricks
    room = most if rules.max_team_bid is None else min(most, rules.max_team_bid - 1)
    ask = np.flatnonzero((t.bids[rows, t.partner] < 0) & (t.bids[rows, seat] >= 1)
                         & (t.bids[rows, seat] <= room) & ~t.blind[rows, seat])
    if ask.size:
        t.half[ask, seat[ask]] = np.asarray(
            lineup.decide(t.bid_view().take(ask), "half_bid", rng, bool), dtype=bool)


def shows(bidding) -> dict:
    """What the play's views show: which bids are n and a half (public, as the bids)."""
    return {"half": bidding.half}


def refuse(rules) -> UserError | None:
    """Each of `_VOIDING` leaves no bid a half: no effect."""
    clash = [k for k in _VOIDING if getattr(rules, k)]
    if clash:
        return UserError(f"half_trick_bids has no effect with {clash[0]}: {_VOIDING[clash[0]]};"
                         " choose one", key="half_trick_bids")
    return None


RULE = HouseRule(key="half_trick_bids", section="§4.4", in_force=lambda r: r.half_trick_bids,
                 turn={"half_bid": ask}, shows=shows, refuse=refuse, refuse_among="halves",
                 columns={"half_<seat>": (np.bool_(False), "the bid is bid_<seat> and a half")})
