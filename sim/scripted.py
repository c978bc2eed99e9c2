"""The scripted player of replay: it bids, declares and plays what a hand record says (RULES.md
§5), so that the engine checks every decision of a record exactly as it checks a strategy's, and
the record's output line (input + tricks, points, components, after)."""

from __future__ import annotations

import numpy as np

from .cards import BIT
from .errors import UserError

__all__ = ["Scripted", "output_record"]


class Scripted:
    """Plays (and bids) what the records say. Row ``r`` of the engine's batch is record ``r``:
    ``plays`` int8[N, P*T] slots in order of play; Spades' ``bids`` and ``blind`` int8/bool[N, P];
    Norwegian ``declarations`` int8[N, P] (codes of `sim.norwegian.auction`, -1 = none given).
    """

    def __init__(self, plays, bids=None, blind=None, declarations=None, contracts=None,
                 bemo=None, auction=None, half=None, answers=None):
        self.half = half  # Spades half_trick_bids: bool[N, P]
        self.auction = auction  # Spades auction: int8[N, K] the calls in order (-1 after)
        self.called = None
        self.plays, self.blind = plays, blind
        self.bids = bids  # as first made (Spades bid_raise: before the raises)
        self.answers = answers or {}  # Spades house rules: decision -> bool[N, P] its answers,
        # or the answer itself, answer(view, rng)
        self.declarations = declarations
        self.contracts, self.bemo = contracts, bemo  # Spades side contracts: int8[N, 2] by side

    def side_contract(self, view, rng):
        """The record's side contract when this is the stage that offers it (its code is in
        ``view.legal``), its bemo at the bemo stage, else none; a code the stage does not offer
        is returned too, for the engine to refuse."""
        side = view.rules.table.side_of[view.seat].astype(np.intp)  # RULES.md §4.7 sides
        contract, bemo = self.contracts[view.rows, side], self.bemo[view.rows, side]
        bemo_stage = (view.legal >> 8) & 1 == 1  # bit LITTLE_BEMO (sim.spades.contracts)
        offered = (view.legal >> np.clip(contract, 0, 15)) & 1 == 1
        return np.where(bemo_stage, bemo, np.where(offered, contract, 0)).astype(np.int8)

    def __getattr__(self, decision):
        """A house rule's decision (``raise_bid``, ``in_the_dark``): the record's flag, or the
        rule's own answer from the record (``reveal``)."""
        answers = self.__dict__.get("answers", {})
        if decision not in answers:
            raise AttributeError(decision)
        flags = answers[decision]
        if callable(flags):
            return flags
        return lambda view, rng: flags[view.rows, view.seat]

    def declare(self, view, rng):
        return self.declarations[view.rows, view.seat]

    def blind_nil(self, view, rng):
        return self.blind[view.rows, view.seat] & (self.bids[view.rows, view.seat] == 0)

    def half_bid(self, view, rng):
        return self.half[view.rows, view.seat]

    def auction_bid(self, view, rng):
        """The record's next call for each row asked (-1 if the record has no more calls: the
        engine refuses it)."""
        if self.called is None:
            self.called = np.zeros(self.auction.shape[0], dtype=np.intp)
        k = self.called[view.rows]
        call = np.where(k < self.auction.shape[1],
                        self.auction[view.rows, np.minimum(k, self.auction.shape[1] - 1)], -1)
        self.called[view.rows] += 1
        return call.astype(np.int8)

    def blind_bid(self, view, rng):
        """Spades blind_bids: the recorded bid when it was blind and not a nil, else 0."""
        bid = self.bids[view.rows, view.seat]
        return np.where(self.blind[view.rows, view.seat] & (bid > 0), bid, 0).astype(np.int8)

    def bid(self, view, rng):
        return self.bids[view.rows, view.seat]

    def play(self, view, rng):
        players = view.tricks.shape[1]
        return BIT[self.plays[view.rows, players * view.trick_no + view.position]]


def output_record(rec: dict, line: int, source: str, tricks, winners, points, components: dict,
                  after: dict, **extra) -> dict:
    """A replayed record: the input plus tricks (checked against a given ``tricks``), winners
    (None in score-sheet mode), points, components and after; ``extra`` keys are added too."""
    if winners is not None and "tricks" in rec and rec["tricks"] != tricks.tolist():
        raise UserError(f"'tricks' {rec['tricks']} disagree with the plays, which give "
                        f"{tricks.tolist()}", source=source, line=line)
    out = dict(rec, tricks=tricks.tolist())
    if winners is not None:  # a dead trick (Spades cancel_spades, RULES.md §4.7): null
        out["winners"] = [None if w < 0 else w for w in winners.tolist()]
    out.update({k: v.tolist() for k, v in extra.items()})
    out.update(points=points.tolist(), components={k: v.tolist() for k, v in components.items()},
               after=after)
    return out
