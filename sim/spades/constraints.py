"""Spades play constraints beyond following suit (RULES.md §4.2, §4.3), as one
`sim.tricks.play_tricks` constraint: each rule in force narrows the legal cards in turn, and each
falls back to the cards it was given where it would leave none.

"Spades" here are the hand's trumps (``state.trump``): with jokers, deuces or bowers in the spade
range they count as spades in every respect (§4.2).
"""

from __future__ import annotations

import numpy as np

from ..cards import CLUBS, at_or_below, highest_bit, lowest_bit, pick
from ..tricks import TrickState

__all__ = ["constraint_for"]


def constraint_for(rules, deck):
    """The constraint of a rules value, or None when no rule of §4.2/§4.3 restricts play."""
    rules_in_force = [(key, make) for key, applies, make in _RULES if applies(rules)]
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


def _narrow(legal, subset):
    """``subset`` of ``legal`` where it is not empty, else ``legal``."""
    subset = legal & subset
    return pick(subset != 0, subset, legal)


def _first_lead(rules, deck):
    """``first_lead = "two_of_clubs" | "lowest_club"``, ``first_trick_clubs``: the first leader
    (who holds the card, `sim.spades.hand.first_leader`) leads his lowest club."""
    clubs = deck.suit_masks[CLUBS]

    def part(s: TrickState):
        if s.trick_no or s.position:
            return s.legal
        return _narrow(s.legal, lowest_bit(s.hand & clubs))
    return part


def _first_trick_clubs(rules, deck):
    """On trick 1 nobody plays a spade unless he holds only spades."""
    def part(s: TrickState):
        return s.legal if s.trick_no else _narrow(s.legal, ~s.trump)
    return part


def _first_trick_lowest_club(rules, deck):
    """On trick 1 everyone plays his lowest club; void in clubs, any non-spade (a reading: this
    overrides following the led suit on trick 1, as the rule names the card)."""
    clubs = deck.suit_masks[CLUBS]

    def part(s: TrickState):
        if s.trick_no:
            return s.legal
        own = s.hand & clubs
        return pick(own != 0, lowest_bit(own), _narrow(s.hand, ~s.trump))
    return part


def _no_spade_lead_first_trick(rules, deck):
    def part(s: TrickState):
        return s.legal if s.trick_no or s.position else _narrow(s.legal, ~s.trump)
    return part


def _beating(s: TrickState, deck):
    """The trumps of the hand that beat the highest trump in the trick (all of them when none
    was played): with two decks and ``duplicate_wins = "last"`` (RULES.md §4.7) the other copy
    of it too."""
    top = highest_bit(s.in_trick & s.trump)
    higher = s.hand & s.trump & ~at_or_below(top, deck)
    if deck.duplicates == "last":
        higher |= s.hand & top
    for group in deck.equal:  # an equal card does not beat (RULES.md §4.2)
        group = np.uint64(group)
        higher &= ~pick((top & group) != 0, group, np.uint64(0))
    return higher


def _must_trump(rules, deck):
    """``must_trump``: void in the led suit, play a spade if you have one, and one that beats the
    highest spade in the trick if you can (also when spades were led). With ``must_overtrump =
    "opponents"`` (a reading of the two together, RULES.md §4.3: "only when an opponent's spade
    holds the trick") the duty to beat holds only when an opponent holds the trick; the spade
    is still due."""
    only_opponents, table = rules.must_overtrump == "opponents", rules.table

    def part(s: TrickState):
        if not s.position:
            return s.legal
        void = (s.hand & s.led) == 0
        spades_led = (s.led & s.trump) != 0
        legal = pick(void, _narrow(s.legal, s.trump), s.legal)
        due = void | spades_led
        if only_opponents:
            due &= table.opponents(s.seat, s.winning_seat)
        return pick(due, _narrow(legal, _beating(s, deck)), legal)
    return part


def _must_overtrump(rules, deck):
    """``must_overtrump``: void in a led non-spade suit, beat a spade already in the trick if you
    can (``"opponents"``: only when an opponent's spade is winning it)."""
    only_opponents, table = rules.must_overtrump == "opponents", rules.table

    def part(s: TrickState):
        if not s.position:
            return s.legal
        due = ((s.hand & s.led) == 0) & ((s.led & s.trump) == 0) & ((s.winning & s.trump) != 0)
        if only_opponents:  # another side's spade (RULES.md §4.7 tables: sides by seat)
            due &= table.opponents(s.seat, s.winning_seat)
        return pick(due, _narrow(s.legal, _beating(s, deck)), s.legal)
    return part


def _joker_high_alternate(rules, deck):
    """``trump_order = "joker_high_alternate"``: when the big joker is led, each opponent of the
    leader plays his highest spade."""
    big, table = np.uint64(1) << np.uint64(deck.bit_of("BJ")), rules.table

    def part(s: TrickState):
        if not s.position:
            return s.legal
        due = (s.led_card == big) & table.opponents(s.seat, s.winning_seat)
        return pick(due, _narrow(s.legal, highest_bit(s.hand & s.trump)), s.legal)
    return part


# (the key shown in error messages, whether the rules value has it on, the part), in order
_RULES = (
    ("first_lead", lambda r: r.first_lead != "left_of_dealer" or r.first_trick_clubs,
     _first_lead),
    ("first_trick_clubs", lambda r: r.first_trick_clubs, _first_trick_clubs),
    ("first_trick_lowest_club", lambda r: r.first_trick_lowest_club, _first_trick_lowest_club),
    ("no_spade_lead_first_trick", lambda r: r.no_spade_lead_first_trick,
     _no_spade_lead_first_trick),
    ("trump_order", lambda r: r.trump_order == "joker_high_alternate", _joker_high_alternate),
    ("must_trump", lambda r: r.must_trump, _must_trump),
    ("must_overtrump", lambda r: r.must_overtrump != "off", _must_overtrump),
)
