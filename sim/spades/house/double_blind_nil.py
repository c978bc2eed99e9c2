"""RULES.md §4.4 ``double_blind_nil``, the whole rule: "both partners bid blind nil; success ->
``double_blind_nil_reward = "win"`` (the side wins the game) or ``"double"`` (each scores twice
its bonus); failure -> no penalty".

- the keys: `OPTION` and `REWARD` (`sim.spades.rules.SpadesRules` fields; a key of two partners,
  RULES.md §4.7: `sim.spades.rules.PAIR_KEYS`);
- the score: `score`, the scoring slot ``double_blind_nil`` of `sim.spades.scoring.PARTS`, after
  the nils and ``double_nil``'s slot: made, each nil twice (``"double"``) or once; failed, none;
- the reward ``"win"``: the plug-in `WIN` (in force with it), whose `wins` fills the slot
  ``double_blind_nil_wins``, the first of the ways to win the game at once (``wins_game``);
- the refusal: without ``blind_nil`` (`refuse`, asked first among the bid keys' checks after the
  scoring's: ``refuse_among = "bids"``).

What is still outside the module: the ``wins_game`` column it brings (`sim.spades.tables.BROUGHT`,
shared with the other ways to win at once), the refusal of ``double_blind_nil_reward`` without
the key (a rule that is off runs none of its parts), the refusals of partnership bidding and the
auction, which name it, blind moon's (the first of a blind moon and a double blind nil stands:
`sim.spades.bidding`), and the players' answer (`strategies/seed.py` joins a partner's blind nil).
"""

from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...options import option
from ..plugin import HouseRule
from .double_nil import both_nils

__all__ = ["OPTION", "REWARD", "RULE", "WIN"]

OPTION = option(False, "both partners blind nil: made, double_blind_nil_reward; either failed, no "
                "penalty", kind=bool)
REWARD = option("double", "a double blind nil made: double (each scores twice its bonus) or win "
                "(the side wins the game at once)", kind=str, choices=("double", "win"))


def score(tally, facts) -> None:
    """A side whose partners both bid blind nil: both made, its nil points twice (``"win"``:
    once); either failed, none."""
    _, both_blind, both_made = both_nils(facts)
    twice = 2 if facts.rules.double_blind_nil_reward == "double" else 1
    tally.nil = np.where(both_blind, np.where(both_made, tally.nil * twice, 0), tally.nil)


def wins(tally, facts) -> None:
    """``double_blind_nil_reward = "win"``: a side that made a double blind nil wins the game at
    once."""
    _, both_blind, both_made = both_nils(facts)
    for side in range(facts.table.sides):
        tally.wins_game[both_blind[:, side] & both_made[:, side]] = side


def refuse(rules) -> UserError | None:
    """A double blind nil is two blind nils."""
    if not rules.blind_nil:
        return UserError("double_blind_nil = true needs blind_nil = true",
                         key="double_blind_nil")
    return None


RULE = HouseRule(key="double_blind_nil", section="§4.4", in_force=lambda r: r.double_blind_nil,
                 score={"double_blind_nil": score}, refuse=refuse, refuse_among="bids")
WIN = HouseRule(key="double_blind_nil_reward", section="§4.4",
                in_force=lambda r: r.double_blind_nil and r.double_blind_nil_reward == "win",
                score={"double_blind_nil_wins": wins})
