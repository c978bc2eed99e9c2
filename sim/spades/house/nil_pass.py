"""RULES.md §4.5 ``nil_pass``, the whole rule: "``nil_pass = [n_nil, n_blind_nil]`` (usual
``[1, 2]``): a side with a nil (or blind nil) bidder exchanges that many cards between the
partners after bidding; each partner chooses his cards before seeing what he receives".

Readings: ``n_blind_nil`` when one of the side's nils is blind; a bid of 0 and a half
(``half_trick_bids``) is no nil; after ``pass_cards``' exchange when both come after the bids.

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the decision: each partner of a side with a nil is asked ``pass_cards`` with his
  `sim.views.PassView` (`sim.spades.passing.pass_view`), the bids seen;
- the phase: `after` (the slot ``pass_after_bids`` of `sim.spades.hand.PHASES`); a replayed
  record gives the hands after it.

What is still outside the module: the exchange the two passing rules share
(`sim.spades.passing`, the hand's ``passed`` with its columns and record field, as for
``pass_cards``); the checks between keys and of the table's shape in `SpadesRules.check` (it
needs ``nil``, two partners, and neither ``partnership_bidding`` nor ``auction``); the kitty's
replay check (`sim.spades.replay`); the players' answers.
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..passing import exchange, receiver_offset
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE", "nil_pass_counts"]


def _nil_pass(value) -> tuple[int, int]:
    if len(value) != 2 or any(type(v) is not int or not 0 <= v <= 12 for v in value):
        raise ValueError(value)
    return tuple(value)


OPTION = option(
    None, "after bidding, a side with a nil (blind nil) bidder exchanges this many cards "
    "between the partners", kind=list, optional=True, parse=_nil_pass,
    shape="[cards for a nil, cards for a blind nil], each 0..12 (usual: [1, 2])")


def nil_pass_counts(bids: np.ndarray, blind: np.ndarray, rules,
                    half: np.ndarray | None = None) -> np.ndarray:
    """int8[N, 4]: the cards each seat passes to its partner under ``nil_pass``: ``n`` on a side
    with a nil bidder, ``m`` when one of its nils is blind, 0 on a side without a nil. ``half``:
    bool[N, 4] bids of n and a half (``half_trick_bids``: 0 and a half is no nil)."""
    n_nil, n_blind = rules.nil_pass
    nil = bids == 0 if half is None else (bids == 0) & ~half
    partner = rules.table.partner_of(np.arange(bids.shape[1]))  # pairs (RULES.md §4.7)
    side_nil = nil | nil[:, partner]  # the seat or its partner bid nil
    side_blind = (nil & blind) | (nil & blind)[:, partner]
    return np.where(side_blind, n_blind, np.where(side_nil, n_nil, 0)).astype(np.int8)


def after(hand, at):
    """The phase after the bidding: the partners of a side with a nil exchange their cards."""
    rules, b = at.rules, hand.bidding
    context = hand.context(rules, at.deck, b.bids, b.blind)
    counts = nil_pass_counts(context["bids"], context["blind"], rules, b.half)
    return exchange(hand, at, counts, receiver_offset(rules, nil=True), context)


RULE = HouseRule(key="nil_pass", section="§4.5", in_force=lambda r: r.nil_pass is not None,
                 phases={"pass_after_bids": after})
