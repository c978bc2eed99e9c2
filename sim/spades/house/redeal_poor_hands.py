"""RULES.md §4.1 ``redeal_poor_hands``, the whole rule: "a player dealt a poor hand may call a
misdeal before bidding; the same dealer deals again. Value: list of conditions that make a hand
poor, from ``no_spades``, ``one_spade_or_less``, ``no_face_cards`` (J, Q, K). Whether to call it
is the player's strategy (default: always call)."

Readings: the same dealer deals again as often as someone calls, up to `MAX_DEALS` deals (then
the last deal is played); the players holding a poor hand are asked seat by seat, each deal
from its own stream (`sim.blocks.deal_rng`'s ``attempt``). Spades are counted as the card order
counts them (jokers and high deuces are spades); with two decks (§4.7) a spade held twice is two.

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field, `CONDITIONS`);
- the decision: `redeal` asks ``redeal`` of each seat holding a poor hand (`poor_hands`) with
  the `sim.views.RedealView` of `redeal_view`;
- the deal: `misdeals` (the slot ``misdeal``: when the block deals, before the hand's phases),
  the hands played and ``redeals``, int8[N] how many misdeals each hand had, on the hand's
  plug-in state (``SpadesHand.house_state``);
- the table: ``redeals``; the record: ``redeals`` (when there were some, `record`);
- the refusal: with two players, who draw their hands (`refuse`, asked among the deal's).

What is still outside the module: the view `sim.views.RedealView`, the re-export of
`poor_hands`, `redeal`, `redeal_view` by `sim.spades.redeal` (the tests import them from there),
the deal's streams of a misdeal (`sim.blocks.deal_rng`, ``attempt``) and the players' answers
(``redeal`` in `strategies/seed.py` and `strategies/uniform.py`).
"""

from __future__ import annotations

import numpy as np

from ...cards import SPADES, popcount
from ...errors import UserError
from ...options import option
from ...views import RedealView
from ..plugin import HouseRule

__all__ = ["CONDITIONS", "MAX_DEALS", "OPTION", "RULE", "poor_hands", "redeal", "redeal_view"]

CONDITIONS = ("no_spades", "one_spade_or_less", "no_face_cards")
MAX_DEALS = 50  # a guard: with a player who always calls, P(50 poor deals) is below 1e-20


def _conditions(value) -> tuple[str, ...]:

    if not value or len(set(value)) != len(value) or any(v not in CONDITIONS for v in value):
        raise ValueError(value)
    return tuple(value)


OPTION = option(
    None, "a player with a poor hand may call a misdeal before the bidding (the same dealer "
    "deals again): the conditions that make a hand poor", kind=list, optional=True,
    parse=_conditions, shape='a list of "no_spades", "one_spade_or_less", "no_face_cards"')


def poor_hands(hands: np.ndarray, rules, deck, twice: np.ndarray | None = None) -> np.ndarray:
    """bool[N, P]: the hands poor by one of ``rules.redeal_poor_hands``: no spade, at most one
    spade (spades as the card order counts them: jokers and high deuces are spades; two decks,
    RULES.md §4.7: a spade held twice is two, ``twice`` uint64[N, P]), no jack, queen or
    king."""
    poor = np.zeros(hands.shape, dtype=bool)
    spades = popcount(hands & deck.suit_masks[SPADES])
    if twice is not None:
        spades = spades + popcount(twice & deck.suit_masks[SPADES])
    faces = np.uint64(sum(1 << b for b, card in enumerate(deck.natural)
                          if 0 <= card < 52 and card % 13 in (9, 10, 11)))
    for condition in rules.redeal_poor_hands:
        poor |= {"no_spades": spades == 0, "one_spade_or_less": spades <= 1,
                 "no_face_cards": (hands & faces) == 0}[condition]
    return poor


def redeal_view(hands, seat: int, dealer, scores, bags, rules, deck, rows) -> RedealView:
    """What ``seat`` sees when, holding a poor hand (`poor_hands`), it may call a misdeal, in the
    rows ``rows`` of the batch: its cards and the standing. The engine asks through this view."""
    return RedealView(rows=rows, seat=np.full(rows.size, seat, np.int8), dealer=dealer[rows],
                      hand=hands[rows, seat], scores=scores[rows], bags=bags[rows], rules=rules,
                      deck=deck)


def redeal(hands, dealer, scores, bags, rules, deck, lineup, rng, deal_again, twice=None):
    """The hands played after any misdeals, and int8[N] how many misdeals each row had.
    ``deal_again(rows, attempt)`` deals the given rows anew (the ``attempt``-th time), updating
    ``twice`` (two decks: the cards held twice, uint64[N, P]) in place."""
    n, players = hands.shape
    redeals = np.zeros(n, dtype=np.int8)
    hands = hands.copy()
    for attempt in range(1, MAX_DEALS):
        poor = poor_hands(hands, rules, deck, twice)
        called = np.zeros(n, dtype=bool)
        for seat in range(players):
            ask = np.flatnonzero(poor[:, seat])
            if ask.size:
                view = redeal_view(hands, seat, dealer, scores, bags, rules, deck, ask)
                called[ask] |= lineup.decide(view, "redeal", rng, bool)
        rows = np.flatnonzero(called)
        if not rows.size:
            break
        hands[rows] = deal_again(rows, attempt)
        redeals[rows] += 1
    return hands, redeals


def misdeals(hands, dealer, scores, bags, rules, deck, lineup, rng, deal_again, twice):
    """The slot ``misdeal``: `redeal`, its count kept as ``redeals``."""
    hands, redeals = redeal(hands, dealer, scores, bags, rules, deck, lineup, rng, deal_again,
                            twice)
    return hands, {"redeals": redeals}


def record(state, i, deck) -> dict:
    """Row ``i``'s misdeals, if there were some."""
    redeals = state["redeals"][i]
    return {"redeals": int(redeals)} if redeals else {}


def refuse(rules) -> UserError | None:
    """Two players draw their hands: there is no deal."""
    if rules.players == 2:
        return UserError("redeal_poor_hands is about a deal; two players draw their hands "
                         "(RULES.md §4.7)", key="redeal_poor_hands")
    return None


RULE = HouseRule(key="redeal_poor_hands", section="§4.1",
                 in_force=lambda r: r.redeal_poor_hands is not None,
                 state={"redeals": np.int8(0)}, misdeal=misdeals, record=record, refuse=refuse,
                 refuse_among="deal",
                 columns={"redeals": (np.int8(0), "misdeals called before the deal played")})
