"""RULES.md §4.4 ``blind_moon``, the whole rule: "the same bid [as moon: a side bids all 13 tricks:
success wins the game at once; failure is scored as a set of 13 (-130)] before either partner
looks; the first of blind moon / double blind nil to be bid stands" (all the hand's tricks at
every table, §4.7).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the declaration: the side contract ``BLIND_MOON`` of `sim.spades.contracts`, offered to a
  side's first bidder before he looks (``contracts``, the stage ``"blind"``), not after another
  side's double blind nil (`ban`, the plug-in's ``contract_ban``);
- the blind nils: none that would make a double blind nil after another side's blind moon
  (`no_double`, the plug-in's ``no_blind_nil``, asked in the turn's ``blind_nil`` step);
- the score: `score`, its ``contract``: all the hand's tricks win the game at once (``wins``),
  else -130;
- a score sheet: the first of a blind moon and a double blind nil stands (`check`, the plug-in's
  ``check_contracts``, in bidding order).

What is still outside the module: how a side declares a contract and what it replaces
(`sim.spades.contracts`, the bidding's turn steps, views, records and replay, the columns
``side_contract_<side>`` and ``wins_game``), the auction's refusal, and the players' answer
(`strategies/seed.py`).
"""

from __future__ import annotations

import numpy as np

from ...errors import IllegalBid
from ...options import option
from ..bidmasks import others_all
from ..contracts import BLIND_MOON
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "before looking, a side may bid all 13: wins the game at once, else -130",
                kind=bool)


def ban(stage, seat, bids, blind, contracts, rules) -> np.ndarray:
    """uint16[N]: blind moon, after another side's double blind nil (two pairs)."""
    if stage != "blind" or not rules.table.pairs:
        return np.zeros(seat.shape, np.uint16)
    double_blind = others_all((bids == 0) & blind, seat, rules.table)
    return np.where(double_blind, np.uint16(1 << BLIND_MOON), np.uint16(0))


def no_double(turn, rules) -> np.ndarray:
    """bool[N]: the seat may not bid blind nil: his partner did, after another side's blind
    moon (two pairs)."""
    if not rules.table.pairs:
        return np.zeros(turn.seat.shape, bool)
    rows, partner, side = turn.rows, turn.partner, turn.side
    partner_blind = turn.blind[rows, partner] & (turn.bids[rows, partner] == 0)
    theirs = (turn.contracts == BLIND_MOON) & (np.arange(rules.sides) != side[:, None])
    return partner_blind & theirs.any(axis=1)


def score(at) -> None:
    """All the hand's tricks (13 at four players): the game is won at once; else -130."""
    every = at.rules.tricks_per_hand  # all 13 tricks; at other tables all the hand's (§4.7)
    at.score(BLIND_MOON, at.taken == every, 130)
    at.wins = at.wins | ((at.code == BLIND_MOON) & (at.taken == every))


def check(bids, blind, dealer, contracts, rules) -> None:
    """A score sheet's blind moon and double blind nil (four players in two pairs): the first
    made stands, in bidding order (raises `sim.errors.IllegalBid`)."""
    if contracts is None or rules.players != 4 or not rules.table.pairs:
        return
    n = bids.shape[0]
    rows = np.arange(n)
    acted = np.zeros((n, 4), dtype=bool)
    for j in range(4):
        seat = ((dealer + 1 + j) % 4).astype(np.int8)
        side = (seat & 1).astype(np.intp)
        opp = [(seat + 1) % 4, (seat + 3) % 4]
        first = ~acted[rows, seat ^ 2]
        their_double = np.all([acted[rows, o] & (bids[rows, o] == 0) & blind[rows, o]
                               for o in opp], axis=0)
        late_moon = first & (contracts[rows, side] == BLIND_MOON) & their_double
        their_moon = (contracts[rows, 1 - side] == BLIND_MOON) & np.any(
            [acted[rows, o] for o in opp], axis=0)
        partner_blind = acted[rows, seat ^ 2] & (bids[rows, seat ^ 2] == 0) & blind[
            rows, seat ^ 2]
        late_double = (bids[rows, seat] == 0) & blind[rows, seat] & partner_blind & their_moon
        bad = late_moon | late_double
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise IllegalBid("blind moon and double blind nil: the first made stands",
                             row=i, seat=int(seat[i]))
        acted[rows, seat] = True


RULE = HouseRule(key="blind_moon", section="§4.4", in_force=lambda r: r.blind_moon,
                 contracts={BLIND_MOON: "blind"}, contract=score, contract_ban=ban,
                 no_blind_nil=no_double, check_contracts=check)
