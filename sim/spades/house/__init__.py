"""The Spades house rules written as plug-ins (`sim.spades.plugin.HouseRule`), one module each.
The engine assembles its steps from `HOUSE_RULES` (`in_force`, once per rules value)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import numpy as np

from ..plugin import Seated
from . import (
    auction,
    bag_cancel_card,
    bags_in_units_digit,
    bags_negative,
    bemo,
    bid_raise,
    blind_bids,
    blind_moon,
    blind_six,
    book_made,
    cancel_spades,
    defeat_score,
    dix,
    double_blind_nil,
    double_nil,
    double_over,
    end_streak,
    exact,
    exact_pair_bonus,
    face_up_cards,
    first_lead,
    first_trick_clubs,
    first_trick_lowest_club,
    fledu,
    half_trick_bids,
    highlander,
    hook,
    jokes_tie,
    kitty,
    last_trick_ace,
    last_trick_ace_nil,
    last_trick_bonus,
    last_trick_deuce,
    last_trick_high_spade,
    lead_ace_of_spades,
    lexington,
    lexington_points,
    min_team_bid,
    mirror,
    mo_a,
    mo_b,
    moon,
    must_overtrump,
    must_trump,
    nil_in_the_dark,
    nil_pass,
    no_minus,
    no_overs,
    no_spade_lead_first_trick,
    no_trump_bids,
    partnership_bidding,
    pass_cards,
    quicksand,
    redeal_poor_hands,
    set_to_opponents,
    seven_plus,
    seven_trump_reveal,
    suicide,
    team_blind_nil,
    team_nil,
    ten_for_two_hundred,
    three_b,
    whiz,
)

__all__ = ["DECLARED", "HOUSE_RULES", "STATE", "fills", "in_force", "no_flags", "no_state",
           "steps"]

HOUSE_RULES = (no_trump_bids.RULE, nil_in_the_dark.RULE, bid_raise.RULE, book_made.RULE,
               lexington_points.RULE, highlander.RULE, seven_plus.RULE, exact_pair_bonus.RULE,
               # the trick bonuses of RULES.md §4.6
               last_trick_bonus.RULE, end_streak.RULE, dix.RULE, last_trick_ace.RULE,
               last_trick_ace_nil.RULE, last_trick_deuce.RULE, last_trick_high_spade.RULE,
               # play constraints of RULES.md §4.3
               first_lead.RULE, first_trick_clubs.RULE, first_trick_lowest_club.RULE,
               no_spade_lead_first_trick.RULE, must_trump.RULE, must_overtrump.RULE,
               lead_ace_of_spades.RULE,
               # the deal, the cards and the phases before the bids (RULES.md §4.1, §4.2, §4.5)
               redeal_poor_hands.RULE, face_up_cards.RULE, seven_trump_reveal.RULE,
               pass_cards.RULE, nil_pass.RULE, jokes_tie.RULE,
               bag_cancel_card.RULE, kitty.RULE, defeat_score.RULE,
               # the ways of scoring a contract of RULES.md §4.6
               exact.RULE, three_b.RULE, quicksand.RULE, double_over.RULE, set_to_opponents.RULE,
               no_minus.RULE,
               # the bid rules of RULES.md §4.4
               fledu.RULE, suicide.RULE, min_team_bid.RULE, whiz.RULE, mirror.RULE, hook.RULE,
               moon.RULE, lexington.RULE, blind_bids.RULE,
               # the bag rules of RULES.md §4.6
               no_overs.RULE, bags_negative.RULE, bags_in_units_digit.RULE,
               # a game of its own of RULES.md §4.7
               cancel_spades.RULE,
               # a side's two nils scored together, RULES.md §4.4
               double_nil.RULE, double_blind_nil.RULE, double_blind_nil.WIN,
               # the side contracts and bemo of RULES.md §4.4
               team_nil.RULE, team_blind_nil.RULE, ten_for_two_hundred.RULE,
               ten_for_two_hundred.TENS_RULE, mo_a.RULE, mo_b.RULE, blind_six.RULE,
               blind_moon.RULE, bemo.RULE,
               # the auction and half bids, RULES.md §4.4 (the auction's refusal first)
               auction.RULE, half_trick_bids.RULE,
               # one joint bid per side, RULES.md §4.4 (no_nine_no_blind's refusal first)
               partnership_bidding.NO_NINE_RULE, partnership_bidding.RULE)
DECLARED = tuple(flag for rule in HOUSE_RULES for flag in rule.declares)  # BidResult flags
STATE = {name: default for rule in HOUSE_RULES for name, default in rule.state.items()}


@cache
def in_force(rules) -> tuple:
    """The plug-ins the rules switch on, in `HOUSE_RULES` order."""
    return tuple(rule for rule in HOUSE_RULES if rule.in_force(rules))


def no_flags(n: int, players: int, given: Mapping | None = None) -> dict[str, np.ndarray]:
    """Every plug-in's flags (`DECLARED`), bool[N, P] each: those ``given``, the others false."""
    given = given or {}
    return {flag: given[flag] if flag in given else np.zeros((n, players), bool)
            for flag in DECLARED}


def no_state(n: int, given: Mapping | None = None, players: int | None = None
             ) -> dict[str, np.ndarray]:
    """Every plug-in's hand state (`STATE`), [N] each ([N, P] for a seated one, ``players``
    seats): those ``given``, the others their default."""
    given = given or {}
    return {name: given[name] if name in given else
            np.full((n, players), default.default) if isinstance(default, Seated) else
            np.full(n, default) for name, default in STATE.items()}


def steps(rules, slot: str) -> tuple:
    """The steps the plug-ins in force under ``rules`` fill the phase slot ``slot`` with, in
    `HOUSE_RULES` order (a plug-in's ``timing`` may leave some of its slots out)."""
    return tuple(rule.phases[slot] for rule in in_force(rules) if slot in rule.phases
                 and (rule.timing is None or slot in rule.timing(rules)))


@cache
def fills(rules, slot: str) -> bool:
    """A plug-in in force under ``rules`` fills the phase slot ``slot``."""
    return bool(steps(rules, slot))
