"""RULES.md §4.4 ``mo_b`` (Big Mo, Little Mo), the whole rule: "a side may declare Little Mo (win
the first 7 tricks; +150) or Big Mo (the first 10; +250); the declaring side leads trick 1 and
takes no bags that hand; failure -value. The other side bids normally".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the declaration: the side contracts ``LITTLE_MO`` and ``BIG_MO`` of `sim.spades.contracts`,
  offered to a side's first bidder after he looks (``contracts``, the stage ``"sighted"``), not
  after another side declared Mo (`ban`, the plug-in's ``contract_ban``);
- the first leader: `leader`, the first player of the side that declared Mo from the dealer's
  left (``first_leader``, asked by `sim.spades.hand.first_leader`);
- the score: `score`, its ``contract``, from the order of the tricks (refused on a score sheet
  that declares one).

What is still outside the module: how a side declares a contract and what it replaces
(`sim.spades.contracts`, the bidding's turn steps, views, records and replay, the column
``side_contract_<side>``), the refusals of ``mo_b`` with ``mo_a`` (two keys' choice) and with
``first_lead`` or ``first_trick_clubs`` (among the play checks of `SpadesRules.check`) and the
auction's, and the players' answer (`strategies/seed.py`).
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..contracts import BIG_MO, LITTLE_MO, first_won
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "a side may declare Little Mo (the first 7 tricks, 150) or Big Mo (the "
                "first 10, 250), leading trick 1; no bags", kind=bool)


def ban(stage, seat, bids, blind, contracts, rules) -> np.ndarray:
    """uint16[N]: Mo, after another side declared it (one side leads trick 1 on its Mo)."""
    if stage != "sighted":
        return np.zeros(seat.shape, np.uint16)
    side = rules.table.side_of[seat].astype(np.intp)
    other_side = np.arange(rules.table.sides)[None, :] != side[:, None]
    mo = (((contracts == LITTLE_MO) | (contracts == BIG_MO)) & other_side).any(axis=1)
    return np.where(mo, np.uint16((1 << LITTLE_MO) | (1 << BIG_MO)), np.uint16(0))


def leader(hands, dealer, deck, contracts, rules) -> np.ndarray:
    """int8[N]: the first player from the dealer's left of the side that declared Mo, else the
    dealer's left."""
    left = ((dealer + 1) % rules.players).astype(np.int8)
    mo = (contracts == LITTLE_MO) | (contracts == BIG_MO)  # [N, S]: at most one side
    seats = (left[:, None] + np.arange(rules.players)) % rules.players  # from the dealer's left
    theirs = mo[np.arange(dealer.shape[0])[:, None], rules.table.side_of[seats]]
    return np.where(mo.any(axis=1), seats[np.arange(seats.shape[0]), np.argmax(theirs, axis=1)],
                    left).astype(np.int8)


def score(at) -> None:
    """The first 7 (10) tricks: +150 (+250), else -150 (-250)."""
    if at.played((LITTLE_MO, BIG_MO), "Mo"):
        at.score(LITTLE_MO, first_won(at.won, 7), 150)
        at.score(BIG_MO, first_won(at.won, 10), 250)


RULE = HouseRule(key="mo_b", section="§4.4", in_force=lambda r: r.mo_b,
                 contracts={LITTLE_MO: "sighted", BIG_MO: "sighted"}, contract=score,
                 contract_ban=ban, first_leader=leader)
