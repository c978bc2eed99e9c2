"""RULES.md §4.5 ``pass_cards`` and ``pass_when``, the whole rule: "every player passes ``count``
cards to the ``left``, ``right`` or ``partner``, before or after bidding (``pass_when =
"before_bid" | "after_bid"``)".

Readings: each player chooses his cards from the hand he holds before the exchange, without
seeing what he receives; with two decks (§4.7) he passes different cards, and one receiving a
card he holds then holds it twice (`sim.spades.passing.pass_round`). After the bidding the
exchange comes before ``nil_pass``'s.

- the keys: `OPTION` (``{count, direction}``, a `PassCards`) and `WHEN` (``pass_when``),
  `sim.spades.rules.SpadesRules` fields;
- the decision: every seat is asked ``pass_cards`` with its `sim.views.PassView`
  (`sim.spades.passing.pass_view`: before the bidding it sees no bid);
- the phase: `before` (the slot ``pass_before_bids`` of `sim.spades.hand.PHASES`) or `after`
  (``pass_after_bids``), the one ``pass_when`` names (`timing`); a replayed record gives the
  hands after it.

What is still outside the module: the exchange the two passing rules share
(`sim.spades.passing`: `pass_round`, `pass_view`, and `exchange`, which adds the cards passed
to the hand's ``passed``, whose columns ``passed_<seat>`` and record field ``passed`` are the
engine's: both rules fill them); the checks between keys and of the table's shape in
`SpadesRules.check` (``pass_when`` needs ``pass_cards``; to the partner needs one; fewer cards
than a hand holds); the kitty's replay check, which undoes an exchange to find the dealt hands
(`sim.spades.replay`); the players' answers (``pass_cards`` in `strategies/`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...options import option
from ..passing import exchange, receiver_offset
from ..plugin import HouseRule

__all__ = ["DIRECTIONS", "OPTION", "RULE", "WHEN", "PassCards"]

DIRECTIONS = ("left", "right", "partner")


@dataclass(frozen=True)
class PassCards:
    """RULES.md §4.5 ``pass_cards = {count, direction}``: every player passes ``count`` cards to
    the player on his left, his right or his partner."""

    count: int
    direction: str

    @property
    def offset(self) -> int:
        """The receiver's seat minus the passer's (mod the number of players)."""
        return {"left": 1, "partner": 2, "right": -1}[self.direction]


def _pass_cards(value) -> PassCards:
    if (set(value) != {"count", "direction"} or type(value["count"]) is not int
            or not 1 <= value["count"] <= 12 or value["direction"] not in DIRECTIONS):
        raise ValueError(value)
    return PassCards(value["count"], value["direction"])


OPTION = option(
    None, "every player passes count cards to the left, the right or his partner",
    kind=dict, optional=True, parse=_pass_cards,
    shape='{count = 1..12, direction = "left" | "right" | "partner"}')
WHEN = option("after_bid", "pass_cards before or after the bidding", kind=str,
              choices=("before_bid", "after_bid"))


def _pass(hand, at, context):
    """Every seat passes ``count`` cards to the seat ``direction`` names (to the partner: his
    seat at the table, RULES.md §4.7 pairs)."""
    rules = at.rules
    counts = np.full(hand.hands.shape, rules.pass_cards.count, np.int8)
    return exchange(hand, at, counts, receiver_offset(rules), context)


def before(hand, at):
    """The phase before the bidding (``pass_when = "before_bid"``): no bid is seen."""
    return _pass(hand, at, hand.context(at.rules, at.deck))


def after(hand, at):
    """The phase after the bidding (``pass_when = "after_bid"``): the bids are seen."""
    b = hand.bidding
    return _pass(hand, at, hand.context(at.rules, at.deck, b.bids, b.blind))


def timing(rules) -> tuple[str, ...]:
    """The phase ``pass_when`` names."""
    return ("pass_before_bids",) if rules.pass_when == "before_bid" else ("pass_after_bids",)


RULE = HouseRule(key="pass_cards", section="§4.5", in_force=lambda r: r.pass_cards is not None,
                 phases={"pass_before_bids": before, "pass_after_bids": after}, timing=timing)
