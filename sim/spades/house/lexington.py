"""RULES.md §4.4 ``lexington``, the whole rule: "a side bidding 12 in all wins the game at once by
taking 12 or more" (one less than the hand's tricks at every table, §4.7; not after the
opponents' double nil, as moon).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the legality: `bans`, the bid-ban slot ``lexington`` of `sim.spades.bidding.bid_masks`;
- the score: `score`, the scoring slot ``lexington_wins`` of `sim.spades.scoring.PARTS`
  (``wins_game``).
"""

from __future__ import annotations

from ...options import option
from ..plugin import HouseRule
from .side_total import ban_total, win_total

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "a side bidding 12 in all wins the game at once by taking 12 or more",
                kind=bool)


def bans(at, rules):
    """After another side's double nil, no bid making the side's total 12."""
    return ban_total(at, rules, at.top - 1)


def score(tally, facts) -> None:
    """12 bid (one less than the hand's tricks) and taken or more: the game is won."""
    win_total(tally, facts, facts.rules.tricks_per_hand - 1)


RULE = HouseRule(key="lexington", section="§4.4", in_force=lambda r: r.lexington,
                 bans={"lexington": bans}, score={"lexington_wins": score})
