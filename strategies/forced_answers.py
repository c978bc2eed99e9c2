"""The rollout lineups of the search's bidding decisions (issue 21 item 1, `strategies.search`):
the rollout strategy at every seat, but for one seat whose decision under search is forced to a
candidate, row by row, so that a batch holds every candidate of every row and sample.

Each class forces one kind of decision of RULES.md §4.4 and makes the seat's other decisions of
the same turn agree with the moment it is asked at (a seat asked for its bid looked, so it bid no
blind nil; a seat asked after its bid answers the questions before as it answered them):

* `ForcedBid`: the bid; `Answering`: the bid and the answers after it (a half, no trump);
* `Declaring`: a side contract or bemo at its stage (`contract_stage`);
* `Raising`: the raise in the round of raises, resumed at the seat;
* `BlindNil` and `BlindBid`: the decisions before looking (`Unlooked`).

`before_turn` gives the view of a decision after the seat's bid as at its turn's start, from
which the rollouts of those decisions resume the bidding.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from sim.views import BidView, BlindView

__all__ = ["BEMO_STAGE", "BLIND_STAGE", "SIGHTED_STAGE", "Answering", "BlindBid", "BlindNil",
           "Declaring", "ForcedBid", "OneSeat", "Raising", "Unlooked", "before_turn",
           "contract_stage"]


class OneSeat:
    """The rollout strategy, but for some decisions of ``seat`` (int8[N], by the batch's rows),
    forced to ``value`` (by row): every other decision, and every other seat's, is the rollout
    strategy's."""

    def __init__(self, policy, seat, value):
        self.policy, self.seat, self.value = policy, seat, value

    def __getattr__(self, name):
        return getattr(self.policy, name)

    def _mine(self, view) -> np.ndarray:
        """bool[n]: the view's rows where the seat decides."""
        return view.seat == self.seat[view.rows]

    def _overridden(self, name: str, view, rng, dtype, value: np.ndarray) -> np.ndarray:
        """The rollout strategy's answers to the decision ``name``, but ``value`` (by the
        batch's rows) where the seat decides."""
        out = np.asarray(getattr(self.policy, name)(view, rng), dtype).copy()
        mine = self._mine(view)
        out[mine] = value[view.rows[mine]]
        return out

    def _no_contract(self, view, rng, stage: np.ndarray | bool) -> np.ndarray:
        """The rollout strategy's side contracts (RULES.md §4.4), none for the seat's side at
        ``stage`` (the rows where it declined one before the decision forced)."""
        mine = self._mine(view) & stage
        return np.where(mine, 0, np.asarray(self.policy.side_contract(view, rng))
                        ).astype(np.int8)


class ForcedBid(OneSeat):
    """The rollout strategy, but for the bid of ``seat`` at its turn: ``value`` (int[N]); that
    seat bids no blind nil and no blind bid (RULES.md §4.4 ``blind_bids``: it is asked for its
    bid, so it looked) and its side declared no contract before its bid; every other decision
    (a raise after the bids, §4.4 ``bid_raise``; no trump, a bemo) the rollout strategy's."""

    def blind_nil(self, view, rng):
        return np.asarray(self.policy.blind_nil(view, rng), bool) & ~self._mine(view)

    def blind_bid(self, view, rng):
        return np.where(self._mine(view), 0, np.asarray(self.policy.blind_bid(view, rng))
                        ).astype(np.int8)

    def side_contract(self, view, rng):
        rows = np.arange(len(view))  # (the blind and sighted stages, before its bid; a bemo
        return self._no_contract(view, rng, view.bids[rows, view.seat] < 0)  # after it)

    def bid(self, view, rng):
        return self._overridden("bid", view, rng, np.int8, self.value)


class Answering(ForcedBid):
    """`ForcedBid` (the seat's bid: ``value``), and the seat's answers to the decisions of its
    turn after its bid given in ``answers`` (name -> bool[N] by row: §4.4 ``half_bid``,
    ``no_trump``); the others the rollout strategy's."""

    def __init__(self, policy, seat, value, answers: dict):
        super().__init__(policy, seat, value)
        self.answers = answers

    def half_bid(self, view, rng):
        return self._answer("half_bid", view, rng)

    def no_trump(self, view, rng):
        return self._answer("no_trump", view, rng)

    def _answer(self, name: str, view, rng) -> np.ndarray:
        if name in self.answers:
            return self._overridden(name, view, rng, bool, self.answers[name])
        return np.asarray(getattr(self.policy, name)(view, rng), bool)


def before_turn(view):
    """A `BidView` of a decision after the seat's bid in its turn, as at the turn's start: its
    bid not yet made, nor its half or no trump (RULES.md §4.4: answered after the bid); what
    the seats before it bid and declared as shown."""
    rows, seat = np.arange(len(view)), view.seat.astype(np.intp)
    bids = view.bids.copy()
    bids[rows, seat] = -1
    changes = {"bids": bids}
    for name in ("half", "no_trump"):
        field = getattr(view, name, None)
        if field is not None:
            field = field.copy()
            field[rows, seat] = False
            changes[name] = field
    return dataclasses.replace(view, **changes)


# RULES.md §4.4: the stages of a seat's turn at which its side may declare a contract
BLIND_STAGE, SIGHTED_STAGE, BEMO_STAGE = 0, 1, 2


def contract_stage(view) -> np.ndarray:
    """int[n]: the stage of a side contract's view (`sim.spades.bidding.contract_view`): before
    looking (a `BlindView`), after looking before the bid, or after the bid (a bemo)."""
    if not isinstance(view, BidView):
        return np.full(len(view), BLIND_STAGE)
    rows = np.arange(len(view))
    return np.where(view.bids[rows, view.seat] >= 0, BEMO_STAGE, SIGHTED_STAGE)


class Declaring(Answering):
    """The rollout strategy, but for ``seat``'s side contract at ``stage`` (`BLIND_STAGE`,
    `SIGHTED_STAGE`, `BEMO_STAGE`): ``code`` (int8[N], 0 none) there, none at the stages before (it is
    asked now); having declined a blind nil and a blind bid where it declares after looking;
    at a bemo, its bid as made (``made``) and its answers after the bid as made (``answers``,
    `Answering`); at the stages after, the rollout strategy's."""

    def __init__(self, policy, seat, code, stage: int, made, answers: dict):
        super().__init__(policy, seat, made, answers)
        self.code, self.stage = code, stage

    def side_contract(self, view, rng):
        out = np.asarray(self.policy.side_contract(view, rng), np.int8).copy()
        mine = self._mine(view)
        at = contract_stage(view)
        out[mine & (at < self.stage)] = 0
        here = mine & (at == self.stage)
        out[here] = self.code[view.rows[here]]
        return out

    def blind_nil(self, view, rng):
        out = np.asarray(self.policy.blind_nil(view, rng), bool)
        return out & ~self._mine(view) if self.stage > BLIND_STAGE else out

    def blind_bid(self, view, rng):
        out = np.asarray(self.policy.blind_bid(view, rng), np.int8)
        return np.where(self._mine(view), 0, out).astype(np.int8) if self.stage > BLIND_STAGE \
            else out

    def bid(self, view, rng):
        if self.stage == BEMO_STAGE:
            return super().bid(view, rng)
        return np.asarray(self.policy.bid(view, rng), np.int8)


class Raising(OneSeat):
    """The rollout strategy, but in the round of raises (RULES.md §4.4 ``bid_raise``) resumed
    at ``seat``'s turn, its place in the round ``place`` (int[N], 0 = the dealer's left): the
    seats before it raise no more (their raises made, in the bids as they stand), the seat
    raises as ``value`` (bool[N]) says."""

    def __init__(self, policy, seat, value, place):
        super().__init__(policy, seat, value)
        self.place = place

    def raise_bid(self, view, rng):
        out = self._overridden("raise_bid", view, rng, bool, self.value)
        players = view.bids.shape[1]
        place = (view.seat.astype(np.intp) - view.dealer - 1) % players
        return out & ~(place < self.place[view.rows])


class Unlooked(OneSeat):
    """The rollout strategy, but for a decision of ``seat`` before it looks (`BlindNil`,
    `BlindBid`): its side declared no contract blind (it is asked after)."""

    def side_contract(self, view, rng):
        return self._no_contract(view, rng,
                                 isinstance(view, BlindView) and not isinstance(view, BidView))


class BlindNil(Unlooked):
    """The rollout strategy, but for the blind nil of ``seat``: ``value`` (bool[N]); its side
    declared no contract blind (it is asked for a blind nil after); where it does not go blind
    it decides (a contract after looking, a blind bid, RULES.md §4.4) and bids as the rollout
    strategy."""

    def blind_nil(self, view, rng):
        return self._overridden("blind_nil", view, rng, bool, self.value)


class BlindBid(Unlooked):
    """The rollout strategy, but for the blind bid of ``seat``: ``value`` (int8[N]: 0 it looks
    first, 1..7 that bid blind, RULES.md §4.4 ``blind_bids``); it declined a blind nil and its
    side a contract blind (it is asked for a blind bid after them); where it looks it decides
    (a contract after looking) and bids as the rollout strategy."""

    def blind_nil(self, view, rng):
        return np.asarray(self.policy.blind_nil(view, rng), bool) & ~self._mine(view)

    def blind_bid(self, view, rng):
        return self._overridden("blind_bid", view, rng, np.int8, self.value)
