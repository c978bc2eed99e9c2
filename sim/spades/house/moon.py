"""RULES.md §4.4 ``moon``, the whole rule: "a side bidding 13 in all wins the game at once by taking
every trick; not after the opponents' double nil" (all the hand's tricks at every table, §4.7).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the legality: `bans`, the bid-ban slot ``moon`` of `sim.spades.bidding.bid_masks`;
- the score: `score`, the scoring slot ``moon`` of `sim.spades.scoring.PARTS` (the side wins the
  game at once: ``wins_game``, a column shared with the other ways to win at once).
"""

from __future__ import annotations

from ...options import option
from ..plugin import HouseRule
from .side_total import ban_total, win_total

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "a side bidding 13 in all wins the game at once by taking every trick; "
                "not after the opponents' double nil", kind=bool)


def bans(at, rules):
    """After another side's double nil, no bid making the side's total the hand's tricks."""
    return ban_total(at, rules, at.top)


def score(tally, facts) -> None:
    """All the hand's tricks bid (13 at four players) and taken: the game is won."""
    win_total(tally, facts, facts.rules.tricks_per_hand)


RULE = HouseRule(key="moon", section="§4.4", in_force=lambda r: r.moon, bans={"moon": bans},
                 score={"moon": score})
