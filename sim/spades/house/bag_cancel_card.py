"""RULES.md §4.6 ``bag_cancel_card``, the whole rule: "the side winning the trick with this card
has one bag of the hand cancelled (none if it took none or was set); cut: a random card per
deal". With two decks (§4.7) each copy of the card cancels one (a reading: both are the card).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field: a card, or ``"cut"``);
- the state: ``cancel_card`` int8[N], the slot of the hand's card (-1 without), on the hand's
  plug-in state (``SpadesHand.house_state``);
- the phase: `draw` (the slot ``cancel_card`` of `sim.spades.hand.PHASES`, before the
  bidding): the named card, or under ``"cut"`` one drawn per deal; a replayed record gives it;
- the score: `score`, the scoring slot ``bag_cancel`` of `sim.spades.scoring.PARTS`, scored
  from the cards of the tricks (not on a score sheet);
- the views: every decision's view from the draw on shows the card (`public`: a card that
  cancels a bag is played for, so the cut one is named to every seat, a reading);
- the table: ``cancel_card``; the record: ``cancel_card`` (RULES.md §5, `record`), read back by
  replay (`read`: the record's card, which must be the named one);
- the refusal: a card that ``jokers_remove`` takes out (`refuse`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...cards import standard_deck
from ...errors import UserError
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]


def _card(value) -> str:
    """A card of the standard deck (such as "7H"), or "cut"."""
    if value != "cut" and value not in standard_deck().names:
        raise ValueError(value)
    return value


OPTION = option(None, "the side winning the trick with this card has one bag of the hand "
                "cancelled (none if it took none or was set); cut: a random card per deal",
                kind=str, optional=True, parse=_card,
                shape='a card such as "7H" (ranks 2-9 T J Q K A, suits C D H S), or "cut"')


def draw(hand, at):
    """The phase: each hand's card, the named one or under ``"cut"`` one drawn uniformly per
    deal (from the block's stream)."""
    rules, deck, n = at.rules, at.deck, hand.n
    if rules.bag_cancel_card != "cut":
        cards = np.full(n, deck.bit_of(rules.bag_cancel_card), np.int8)
    else:
        slots = np.flatnonzero([bool(name) for name in deck.names])
        cards = slots[at.rng.integers(0, slots.size, n)].astype(np.int8)
    return replace(hand, house_state={**hand.house_state, "cancel_card": cards})


def score(tally, facts) -> None:
    """The side that wins the trick holding the card has one of this hand's bags cancelled per
    copy, unless it took none or was set."""
    where = facts.plays == facts.state["cancel_card"][:, None]  # the card's places in the play
    players, sides = facts.table.players, facts.table.sides  # (none: undealt, §4.7, or
    side = facts.winners[:, np.arange(where.shape[1]) // players].astype(np.intp) % sides
    wins = ((side[:, :, None] == np.arange(sides)) & where[:, :, None]).sum(axis=1)  # discarded)
    tally.bags = tally.bags - np.minimum(wins, np.maximum(tally.bags, 0)) * tally.made


def public(hand) -> dict:
    """Every seat sees the hand's card (``cancel_card``, its slot), the named one or the cut."""
    return {"cancel_card": hand.house_state["cancel_card"]}


def record(state, i, deck) -> dict:
    """Row ``i``'s card in its record (under "cut": this deal's)."""
    card = state["cancel_card"][i]
    return {"cancel_card": deck.names[card]} if card >= 0 else {}


def read(rec, rules, deck, err) -> dict:
    """A record's card: the named one (given or not), or under "cut" the one it gives."""
    named = None if rules.bag_cancel_card == "cut" else rules.bag_cancel_card
    card = rec.get("cancel_card", named)
    if not isinstance(card, str) or card not in deck.names or not card:
        raise err("'cancel_card' must name the bag-cancelling card of the deal (such as "
                  "\"7H\"; bag_cancel_card = \"cut\" draws one per deal)")
    if named is not None and card != named:
        raise err(f"'cancel_card' is {card}, but the rules name {named} (bag_cancel_card)")
    return {"cancel_card": deck.bit_of(card)}


def refuse(rules) -> UserError | None:
    """The named card must be in the deck."""
    if rules.bag_cancel_card in rules.removed_cards:
        return UserError(f"bag_cancel_card {rules.bag_cancel_card} is taken out by "
                         "jokers_remove", key="bag_cancel_card")
    return None


RULE = HouseRule(key="bag_cancel_card", section="§4.6",
                 in_force=lambda r: r.bag_cancel_card is not None,
                 state={"cancel_card": np.int8(-1)}, phases={"cancel_card": draw},
                 score={"bag_cancel": score}, from_plays=True, public=public, record=record,
                 read=read, refuse=refuse, refuse_among="cards",
                 columns={"cancel_card": (np.int8(-1), "the slot of the bag-cancelling card "
                                          "(-1: none)")})
