"""Spades play constraints beyond following suit (RULES.md §4.2, §4.3), as one
`sim.tricks.play_tricks` constraint: each rule in force narrows the legal cards in turn, and each
falls back to the cards it was given where it would leave none.

"Spades" here are the hand's trumps (``state.trump``): with jokers, deuces or bowers in the spade
range they count as spades in every respect (§4.2).
"""

from __future__ import annotations

import numpy as np

from ..cards import highest_bit, pick
from ..tricks import TrickState
from . import house
from .narrowing import narrow

__all__ = ["constraint_for"]


def constraint_for(rules, deck):
    """The constraint of a rules value, or None when no rule of §4.2/§4.3 restricts play."""
    plugged = {slot: make for rule in house.in_force(rules)
               for slot, make in rule.constraint.items()}
    rules_in_force = [(key, plugged[key] if key in plugged else core[1])
                      for key, core in _RULES.items()
                      if key in plugged or core is not None and core[0](rules)]
    if not rules_in_force:
        return None
    parts = [make(rules, deck) for _, make in rules_in_force]

    def constraint(state: TrickState) -> np.ndarray:
        for part in parts:
            state = _with_legal(state, part(state))
        return state.legal

    constraint.reason = "breaks a play rule in force (" + ", ".join(
        dict.fromkeys(k for k, _ in rules_in_force)) + ")"
    return constraint


def _with_legal(state: TrickState, legal) -> TrickState:
    from dataclasses import replace

    return replace(state, legal=legal)


def _joker_high_alternate(rules, deck):
    """``trump_order = "joker_high_alternate"``: when the big joker is led, each opponent of the
    leader plays his highest spade."""
    big, table = np.uint64(1) << np.uint64(deck.bit_of("BJ")), rules.table

    def part(s: TrickState):
        if not s.position:
            return s.legal
        due = (s.led_card == big) & table.opponents(s.seat, s.winning_seat)
        return pick(due, narrow(s.legal, highest_bit(s.hand & s.trump)), s.legal)
    return part


# The play constraints in order, slot by slot (the key shown in error messages), each core one
# with whether the rules value has it on and its part; a plug-in of `sim.spades.house` fills the
# slots it names.
_RULES = {
    "first_lead": None,  # first_lead, first_trick_clubs: the lowest club leads
    "first_trick_clubs": None,  # first_trick_clubs
    "first_trick_lowest_club": None,  # first_trick_lowest_club
    "no_spade_lead_first_trick": None,  # no_spade_lead_first_trick
    "trump_order": (lambda r: r.trump_order == "joker_high_alternate", _joker_high_alternate),
    "must_trump": None,  # must_trump
    "must_overtrump": None,  # must_overtrump
}
