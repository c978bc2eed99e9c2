"""RULES.md §4.4 ``bemo``, the whole rule: "on top of its normal bid, a side may declare Little Bemo
(win the first 6 tricks; ±60) or Big Bemo (first 9; ±90)".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the declaration: ``LITTLE_BEMO`` and ``BIG_BEMO`` of `sim.spades.contracts`, offered to a
  side's last bidder after its ordinary bids, none nil (``contracts``, the stage ``"bemo"``);
- the score: `score`, its ``contract`` (into the side's ``bemo``), from the order of the tricks
  (refused on a score sheet that declares one);
- the table: ``bemo_bid_<side>`` and ``bemo_<side>``;
- the refusal: with ``suicide``, which puts a nil in every side (`refuse`, asked last among the
  side contracts' checks: ``refuse_among = "contracts"``).

What is still outside the module: the stage of a declaration on top of the bids (the turn's slot
``bemo``, `sim.spades.bidding`: the side's ordinary bids, none nil, or its joint bid; the score
sheet's check of it, which names the key), the bidding's ``bemo`` array, its view, record
field and replay, the columns' filling (`sim.spades.tables`), the auction's refusal, and the
players' answer (`strategies/seed.py`).
"""

from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...options import option
from ..contracts import BEMO, BIG_BEMO, LITTLE_BEMO, first_won
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "on top of its bid a side may declare Little Bemo (the first 6 tricks, 60) "
                "or Big Bemo (the first 9, 90)", kind=bool)


def score(at) -> None:
    """The first 6 (9) tricks: +60 (+90), else -60 (-90)."""
    if at.played(BEMO, "bemo"):
        at.score(LITTLE_BEMO, first_won(at.won, 6), 60)
        at.score(BIG_BEMO, first_won(at.won, 9), 90)


def refuse(rules) -> UserError | None:
    """A bemo comes on top of two ordinary bids, and suicide puts a nil in every side."""
    if rules.suicide:
        return UserError("bemo has no effect with suicide: bemo comes on top of a side's "
                         "ordinary bids, two of them and no nil (RULES.md §4.4 \"on top of "
                         "its normal bid\"), and suicide puts a nil in every side; choose "
                         "one", key="bemo")
    return None


RULE = HouseRule(key="bemo", section="§4.4", in_force=lambda r: r.bemo,
                 contracts={LITTLE_BEMO: "bemo", BIG_BEMO: "bemo"}, contract=score,
                 refuse=refuse, refuse_among="contracts",
                 columns={"bemo_bid_<side>": (np.int8(0), "the side's bemo declared"),
                          "bemo_<side>": (np.int16(0), "the side's bemo points")})
