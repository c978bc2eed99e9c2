"""RULES.md §4.4 ``double_nil``, the whole rule: "both partners bid nil; if both succeed each scores
twice its bonus; if either fails, neither nil is scored (no penalty)".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field; a key of two partners, RULES.md
  §4.7: `sim.spades.rules.PAIR_KEYS`);
- the score: `score`, the scoring slot ``double_nil`` of `sim.spades.scoring.PARTS`, right after
  the nils (a double blind nil under ``double_blind_nil`` is that rule's: the slot after);
- the refusal: without ``nil`` (`refuse`, asked among the keys that need nil, before
  ``suicide``'s: ``refuse_among = "nil"``).

What is still outside the module: the refusals of partnership bidding and the auction, which name
it, and the players' answer (`strategies/seed.py` joins a partner's nil).
"""

from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE", "both_nils"]

OPTION = option(False, "both partners nil: both made, each scores twice its bonus; either "
                "failed, neither scores (no penalty)", kind=bool)


def both_nils(f):
    """bool[N, S] per side: both partners bid nil; both blind; both took no trick."""
    def both(x):
        return f.side(x.astype(np.int32)) == 2

    return both(f.is_nil), both(f.is_nil & f.blind), both(f.is_nil & (f.tricks == 0))


def score(tally, facts) -> None:
    """A side whose partners both bid nil: both made, its nil points twice; either failed, none
    (not a double blind nil under ``double_blind_nil``, which scores it its own way)."""
    both_nil, both_blind, both_made = both_nils(facts)
    if facts.rules.double_blind_nil:
        both_nil = both_nil & ~both_blind
    tally.nil = np.where(both_nil, np.where(both_made, tally.nil * 2, 0), tally.nil)


def refuse(rules) -> UserError | None:
    """A double nil is two nil bids."""
    if not rules.nil:
        return UserError("double_nil = true needs nil = true", key="double_nil")
    return None


RULE = HouseRule(key="double_nil", section="§4.4", in_force=lambda r: r.double_nil,
                 score={"double_nil": score}, refuse=refuse, refuse_among="nil")
