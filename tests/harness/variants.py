"""The variant tables the engine is compared with its scalar references over, as data.

Each `Table` names its rules variants (name -> the rules value played as independent hands), the
seed, the block size per mode and strategy, and how a whole game is bounded (``games``: the rules
value played in games mode, from the hands-mode one and the strategy); `play` runs one case, and
`CASES` lists every (table, variant, strategy, mode) that tests/test_conformance.py's
``test_engine_equals_reference`` runs. The tables (issues 7, 8, 17 and the games' first
conformance layers):

* ``presets``: every preset of ``sim.options.PRESETS`` with every strategy of its game (random,
  seed, expert), as it ships;
* ``standard``: the four-player Spades presets and the RULES.md section 3 variants;
* ``vs_reference``: section 3 rule sets with non-default numbers, whole games only;
* ``scoring``: the section 4.6 scoring keys and 4.8 ``defeat_score``, alone and combined;
* ``card_orders``: the section 4.2 card orders and 4.3 play constraints, alone and combined;
* ``player_counts``: the section 4.7 tables without partners (three, cutthroat, five);
* ``big_tables``: six and eight players (every deck and team shape), the kitty, ``jokes_win``;
* ``portland``, ``norwegian``: the presets and the section 1 and 2 variants.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

import reference as ref
from sim.options import PRESETS, load_rules, preset_names

from .core import MODES, Run, simulate, strategies_of
from .spades import conformance_rules

__all__ = ["CASES", "TABLES", "Table", "play"]

replace = dataclasses.replace
STANDARD = PRESETS["spades.standard"]


def _same(rules, strategy):
    return rules


@dataclass(frozen=True)
class Table:
    """Rules variants with the block each is played in (see the module docstring)."""

    variants: dict
    seed: int
    sizes: Callable[[object, str, str], int]  # (rules, mode, strategy) -> block size
    strategies: tuple = ("random", "seed")
    modes: tuple = MODES
    games: Callable = _same  # (rules, strategy) -> the rules value of games mode
    hand_offset: dict = field(default_factory=lambda: {"hands": 1, "games": 0})
    skip: Callable[[str, str, str], bool] = lambda name, strategy, mode: False

    def rules(self, name: str, strategy: str, mode: str):
        rules = self.variants[name]
        return self.games(rules, strategy) if mode == "games" else rules

    def cases(self) -> list[tuple[str, str, str]]:
        return [(n, s, m) for n in self.variants for s in self.strategies_for(n)
                for m in self.modes if not self.skip(n, s, m)]

    def strategies_for(self, name: str) -> tuple:
        rules = self.variants[name]
        return (tuple(strategies_of(rules.game, rules)) if self.strategies == "all"
                else self.strategies)


def sizes(table: dict) -> Callable:
    """Block sizes by (mode, strategy)."""
    return lambda rules, mode, strategy: table[mode, strategy]


def bounded(max_hands: dict | int | None = None, mercy: dict | None = None,
            when: Callable = lambda rules: True) -> Callable:
    """Games of a few hands: ``max_hands`` and ``mercy_score`` by strategy (or one value for
    both), for the variants ``when`` accepts."""
    def games(rules, strategy):
        if not when(rules):
            return rules
        change = {}
        if max_hands is not None:
            change["max_hands"] = max_hands[strategy] if isinstance(max_hands, dict) else max_hands
        if mercy is not None:
            change["mercy_score"] = mercy[strategy]
        return replace(rules, **change)
    return games


# --- every preset, every strategy of its game ---------------------------------------------------

PRESET_TABLE = Table(
    variants=dict(PRESETS), seed=1919, strategies="all",
    sizes=lambda rules, mode, strategy: 32 if mode == "hands" else 3)

# --- Spades: the section 3 presets and variants (four players, one deck without jokers) ---------

STANDARD_TABLE = Table(
    variants={
        **{n: PRESETS[n] for n in preset_names("spades")
           if PRESETS[n].table == STANDARD.table and PRESETS[n].jokers == 0},
        "nil_tricks=count": replace(STANDARD, nil_tricks="count"),
        "nil_tricks=ignored": replace(STANDARD, nil_tricks="ignored"),
        "spades_broken=false": replace(STANDARD, spades_broken=False),
        "spades_broken=never": replace(STANDARD, spades_broken="never"),
        "max_team_bid=9": replace(STANDARD, max_team_bid=9),
        "blind_nil_min_deficit=0": replace(STANDARD, blind_nil_min_deficit=0),
        "nil=false": replace(STANDARD, nil=False, blind_nil=False),
        "max_hands=3,no mercy": replace(STANDARD, max_hands=3, mercy_score=None),
    },
    seed=20251107,
    # random players' games are short: random bids are mostly set, so the mercy rule ends them
    # in two or three hands
    sizes=sizes({("hands", "random"): 64, ("hands", "seed"): 64, ("games", "random"): 32,
                 ("games", "seed"): 8}))

# --- Spades: whole games with non-default numbers (random games made longer: no mercy, six
# hands, so that the carried state varies; blind nil open to small deficits) -------------------

VS_REFERENCE_TABLE = Table(
    variants={
        "standard": replace(STANDARD, blind_nil_min_deficit=20),
        "count": replace(STANDARD, nil_tricks="count", blind_nil_min_deficit=20),
        "ignored": replace(STANDARD, nil_tricks="ignored", blind_nil_min_deficit=0),
        "short": replace(PRESETS["spades.short"], blind_nil_min_deficit=20),
        "openspiel": PRESETS["spades.openspiel"],
        "no nil": replace(STANDARD, nil=False, blind_nil=False),
        "free spades, max_team_bid 11": replace(STANDARD, spades_broken=False, max_team_bid=11,
                                                blind_nil_min_deficit=50),
        # non-default numbers everywhere, so that no constant of the standard game can hide
        "never, odd numbers": replace(STANDARD, spades_broken="never", nil_bonus=50,
                                      blind_nil_bonus=150, blind_nil_min_deficit=10, bag_limit=3,
                                      bag_penalty=70, target_score=300, mercy_score=-150),
    },
    seed=424242, modes=("games",), hand_offset={"games": 0},
    sizes=sizes({("games", "random"): 24, ("games", "seed"): 10}),
    games=lambda rules, strategy: (replace(rules, mercy_score=None, max_hands=6)
                                   if strategy == "random" and rules.max_hands is None
                                   else rules))

# --- Spades: RULES.md section 4.6 scoring and 4.8 defeat_score (issue 7) ------------------------

ALL_TRICK_BONUSES = dict.fromkeys(ref.TRICK_BONUSES, True)
SCORING_ONE_AT_A_TIME: dict[str, dict] = {
    "three_b": {"three_b": True},
    "no_overs": {"no_overs": True},
    "double_over": {"double_over": True},
    "exact=side": {"exact": "side"},
    "exact=player": {"exact": "player"},
    "quicksand": {"quicksand": True},
    "set_to_opponents": {"set_to_opponents": True},
    "book_made": {"book_made": True},
    "highlander": {"highlander": True},
    "exact_pair_bonus": {"exact_pair_bonus": True},
    "seven_plus=per_trick": {"seven_plus": "per_trick"},
    "seven_plus=progressive": {"seven_plus": "progressive"},
    "bags_in_units_digit": {"bags_in_units_digit": True},
    "bag_cancel_card=7H": {"bag_cancel_card": "7H"},
    "bag_cancel_card=cut": {"bag_cancel_card": "cut"},
    "bags_negative": {"bags_negative": True},
    "no_minus": {"no_minus": True},
    "defeat_score": {"defeat_score": True, "mercy_score": None, "target_score": 150},
    **{key: {key: True} for key in ref.TRICK_BONUSES},
}
SCORING_COMBINATIONS: dict[str, dict] = {
    "all trick bonuses": ALL_TRICK_BONUSES,
    # (no_minus with set_to_opponents is refused unless double_over's loss is there to cancel)
    "quicksand,set_to_opponents": {"quicksand": True, "set_to_opponents": True},
    "three_b,double_over": {"three_b": True, "double_over": True},
    "quicksand,double_over,no_minus": {"quicksand": True, "double_over": True, "no_minus": True},
    "exact=side,double_over,set_to_opponents,no_minus": {
        "exact": "side", "double_over": True, "set_to_opponents": True, "no_minus": True},
    "highlander,exact_pair_bonus,book_made": {"highlander": True, "exact_pair_bonus": True,
                                              "book_made": True},
    "book_made,seven_plus=per_trick,exact_pair_bonus,set_to_opponents": {
        "book_made": True, "seven_plus": "per_trick", "exact_pair_bonus": True,
        "set_to_opponents": True},
    "seven_plus=progressive,bags_in_units_digit,bag_cancel_card=cut,short": {
        "seven_plus": "progressive", "bags_in_units_digit": True, "bag_cancel_card": "cut",
        "target_score": 250, "bag_limit": 5, "bag_penalty": 50},
    "bags_negative,bag_cancel_card=AS,exact=player": {
        "bags_negative": True, "bag_cancel_card": "AS", "exact": "player"},
    "exact=side,nil_tricks=count": {"exact": "side", "nil_tricks": "count"},
    "tens_are_wheels,exact,bag_cancel_card,book_made,set_to_opponents": {
        "ten_for_two_hundred": True, "ten_for_200_exact": True, "tens_are_wheels": True,
        "bag_cancel_card": "cut", "book_made": True, "set_to_opponents": True},
    "exact wheels,no_overs": {"ten_for_two_hundred": True, "ten_for_200_exact": True,
                              "tens_are_wheels": True, "no_overs": True},
    "team_nil,wheel,set_to_opponents,double_over": {
        "team_nil": True, "ten_for_two_hundred": True, "set_to_opponents": True,
        "double_over": True},
    "no_overs,double_nil,trick bonuses,nil 50": {
        "no_overs": True, "double_nil": True, "nil_bonus": 50, **ALL_TRICK_BONUSES},
    # no_minus floors a set side only (RULES.md 4.6, issue 17): with each way of scoring
    "double_over,no_minus": {"double_over": True, "no_minus": True},
    "three_b,double_over,no_minus": {"three_b": True, "double_over": True, "no_minus": True},
    "exact=player,double_over,no_minus": {"exact": "player", "double_over": True,
                                          "no_minus": True},
    "three_b,no_minus,nil_tricks=count": {"three_b": True, "no_minus": True,
                                          "nil_tricks": "count"},
    "exact=side,no_minus,bags_negative": {"exact": "side", "no_minus": True,
                                          "bags_negative": True},
    "quicksand,no_minus": {"quicksand": True, "no_minus": True},
    "double_over,no_minus,no_overs,seven_plus=per_trick,exact_pair_bonus": {
        "double_over": True, "no_minus": True, "no_overs": True, "seven_plus": "per_trick",
        "exact_pair_bonus": True},
    "side contracts,double_nil,double_over,no_minus": {
        "team_nil": True, "ten_for_two_hundred": True, "mo_a": True, "blind_six": True,
        "double_nil": True, "double_over": True, "no_minus": True},
    "bemo,lexington_points,double_over,no_minus": {
        "bemo": True, "lexington_points": True, "double_over": True, "no_minus": True},
    # issue 19: quicksand's and three_b's overtricks counted in the units digit
    "quicksand,bags_in_units_digit,bag_cancel_card=cut,short": {
        "quicksand": True, "bags_in_units_digit": True, "bag_cancel_card": "cut",
        "bag_limit": 5, "bag_penalty": 50},
    "three_b,bags_in_units_digit,nil_tricks=count": {"three_b": True, "bags_in_units_digit": True,
                                                     "nil_tricks": "count"},
    # issue 19: highlander's set side floored, its double-over side losing 20 x bid
    "highlander,no_minus,double_over": {"highlander": True, "no_minus": True,
                                        "double_over": True},
    "highlander,double_over,nil_tricks=count": {"highlander": True, "double_over": True,
                                                "nil_tricks": "count"},
}
SCORING = {**SCORING_ONE_AT_A_TIME, **SCORING_COMBINATIONS}  # name -> the keys switched on

SCORING_TABLE = Table(
    variants={name: conformance_rules(keys) for name, keys in SCORING.items()},
    seed=7007,
    sizes=sizes({("hands", "random"): 80, ("hands", "seed"): 50, ("games", "random"): 12,
                 ("games", "seed"): 3}),  # hands, or games of at most max_hands hands
    games=bounded(max_hands={"random": 6, "seed": 12}),
    # a trick bonus alone is played in hands only: in games it is "all trick bonuses" and
    # "no_overs,double_nil,trick bonuses" (the bonuses carry nothing from hand to hand but the
    # score)
    skip=lambda name, strategy, mode: mode == "games" and name in ref.TRICK_BONUSES)

# --- Spades: RULES.md section 4.2 card orders and 4.3 leads and play constraints (issue 8) -----

JOKERS2 = {"jokers": 2}
ORDERS_ONE_AT_A_TIME: dict[str, dict] = {
    "jokers": JOKERS2,  # standard order: BJ > LJ > AS
    "jokers, remove 2C 2H": {**JOKERS2, "jokers_remove": ["2C", "2H"]},
    "jokers_high": {"trump_order": "jokers_high", **JOKERS2},
    "jokers_first_wins": {"trump_order": "jokers_first_wins", **JOKERS2},
    "joker_high_alternate": {"trump_order": "joker_high_alternate", **JOKERS2},
    "joker_joker_deuce_ace": {"trump_order": "joker_joker_deuce_ace", **JOKERS2},
    "deuces_high": {"trump_order": "deuces_high"},
    "deuces_high, jokers": {"trump_order": "deuces_high", **JOKERS2},
    "bowers": {"trump_order": "bowers"},
    "suit_ladder": {"trump_order": "suit_ladder"},
    "first_lead=two_of_clubs": {"first_lead": "two_of_clubs"},
    "first_lead=lowest_club": {"first_lead": "lowest_club"},
    "first_lead=lowest_club, jokers": {"first_lead": "lowest_club", **JOKERS2},  # the 3C leads
    "first_trick_clubs": {"first_trick_clubs": True},
    "first_trick_lowest_club": {"first_trick_lowest_club": True},
    # under spades_broken = true a spade is led to trick 1 only from a hand of spades anyway
    "no_spade_lead_first_trick": {"no_spade_lead_first_trick": True, "spades_broken": False},
    "lead_ace_of_spades": {"lead_ace_of_spades": True},
    "must_overtrump=opponents": {"must_overtrump": "opponents"},
    "must_overtrump=always": {"must_overtrump": "always"},
    "must_trump": {"must_trump": True},
}
ORDERS_COMBINATIONS: dict[str, dict] = {
    "deuces_high,jokers,must_trump": {"trump_order": "deuces_high", **JOKERS2, "must_trump": True},
    "bowers,first_trick_clubs": {"trump_order": "bowers", "first_trick_clubs": True},
    "jokers_first_wins,must_overtrump=always": {"trump_order": "jokers_first_wins", **JOKERS2,
                                                "must_overtrump": "always"},
    "jokers_first_wins,must_trump,never": {"trump_order": "jokers_first_wins", **JOKERS2,
                                           "must_trump": True, "spades_broken": "never"},
    "joker_high_alternate,must_trump": {"trump_order": "joker_high_alternate", **JOKERS2,
                                        "must_trump": True},
    "joker_high_alternate,must_overtrump=opponents": {
        "trump_order": "joker_high_alternate", **JOKERS2, "must_overtrump": "opponents"},
    "first_trick_clubs,lowest_club,jokers 2C 2H,must_overtrump=opponents": {
        "first_trick_clubs": True, "first_lead": "lowest_club", **JOKERS2,
        "jokers_remove": ["2C", "2H"], "must_overtrump": "opponents"},
    "deuces_high,lowest_club": {"trump_order": "deuces_high", "first_lead": "lowest_club"},
    "suit_ladder,first_trick_lowest_club,lead_ace_of_spades": {
        "trump_order": "suit_ladder", "first_trick_lowest_club": True,
        "lead_ace_of_spades": True},
    "joker_joker_deuce_ace,no_spade_lead_first_trick,free spades,must_overtrump=opponents": {
        "trump_order": "joker_joker_deuce_ace", **JOKERS2, "no_spade_lead_first_trick": True,
        "spades_broken": False, "must_overtrump": "opponents"},
    "bowers,must_trump,first_trick_lowest_club": {"trump_order": "bowers", "must_trump": True,
                                                  "first_trick_lowest_club": True},
    "two_of_clubs,first_trick_clubs,lead_ace_of_spades,must_trump": {
        "first_lead": "two_of_clubs", "first_trick_clubs": True, "lead_ace_of_spades": True,
        "must_trump": True},
    # the trick bonuses and the bag-cancelling card read the card order (a high deuce is a
    # spade, a joker no ace); whiz and mirror count the order's spades
    "deuces_high,jokers,trick bonuses,bag_cancel_card=cut": {
        "trump_order": "deuces_high", **JOKERS2, "bag_cancel_card": "cut",
        **ALL_TRICK_BONUSES},
    "bowers,trick bonuses,bag_cancel_card=JC": {
        "trump_order": "bowers", "bag_cancel_card": "JC", **ALL_TRICK_BONUSES},
    "jokers_high,whiz": {"trump_order": "jokers_high", **JOKERS2, "whiz": True,
                         "blind_nil": False},
    "bowers,mirror": {"trump_order": "bowers", "mirror": True, "blind_nil": False},
    "suit_ladder,trick bonuses,nil 50": {"trump_order": "suit_ladder", "nil_bonus": 50,
                                         **ALL_TRICK_BONUSES},
    # issue 19: the rules of trick 1 compose (the 2C's holder leads it, everyone plays his
    # lowest club), and first_trick_lowest_club with mo_b's first leader
    "two_of_clubs,first_trick_lowest_club": {"first_lead": "two_of_clubs",
                                             "first_trick_lowest_club": True},
    "lowest_club,first_trick_clubs,first_trick_lowest_club,jokers": {
        "first_lead": "lowest_club", "first_trick_clubs": True, "first_trick_lowest_club": True,
        **JOKERS2},
    "mo_b,first_trick_lowest_club": {"mo_b": True, "first_trick_lowest_club": True},
    # issue 19: must_trump beats only an opponent's spade under must_overtrump = "opponents"
    "must_trump,must_overtrump=opponents": {"must_trump": True, "must_overtrump": "opponents"},
    "must_trump,must_overtrump=opponents,jokers_high": {
        "must_trump": True, "must_overtrump": "opponents", "trump_order": "jokers_high",
        **JOKERS2},
}
CARD_ORDERS = {**ORDERS_ONE_AT_A_TIME, **ORDERS_COMBINATIONS}  # name -> the keys switched on

CARD_ORDERS_TABLE = Table(
    variants={name: conformance_rules(keys) for name, keys in CARD_ORDERS.items()},
    seed=8008,
    sizes=sizes({("hands", "random"): 40, ("hands", "seed"): 20, ("games", "random"): 4,
                 ("games", "seed"): 2}),  # hands, or games of at most max_hands hands
    # random players' games last: no mercy rule (they are set a lot)
    games=bounded(max_hands={"random": 5, "seed": 8}, mercy={"random": None, "seed": -200}))

# --- Spades: RULES.md section 4.7 tables without partners (three, cutthroat, five) -------------

TABLES_ALONE: dict[str, dict] = {
    "three": {"players": 3},
    "three, last undealt": {"players": 3, "remove": "last"},
    "three with jokers": {"players": 3, "jokers": 2},
    "cutthroat": {"partnerships": False},
    "five": {"players": 5},
    "five with jokers": {"players": 5, "jokers": 3},
}
TABLES_COMBINED: dict[str, dict] = {
    "three, three_b, dix": {"players": 3, "three_b": True, "dix": True},
    "cutthroat, must_overtrump=opponents, bag_cancel_card=cut": {
        "partnerships": False, "must_overtrump": "opponents", "bag_cancel_card": "cut"},
    "five, fledu, bags_negative": {"players": 5, "fledu": True, "bags_negative": True},
    "three, last undealt, bag_cancel_card=2C, first_lead=two_of_clubs": {
        "players": 3, "remove": "last", "bag_cancel_card": "2C", "first_lead": "two_of_clubs"},
    "three with jokers, jokers_first_wins, must_trump, trick bonuses": {
        "players": 3, "jokers": 2, "trump_order": "jokers_first_wins", "must_trump": True,
        "last_trick_bonus": True, "end_streak": True, "last_trick_ace": True},
    "five with jokers, deuces_high, quicksand, seven_plus=progressive": {
        "players": 5, "jokers": 3, "trump_order": "deuces_high", "quicksand": True,
        "seven_plus": "progressive"},
    "cutthroat, exact=player, double_over, no_minus, nil_tricks=count": {
        "partnerships": False, "exact": "player", "double_over": True, "no_minus": True,
        "nil_tricks": "count"},
    "five, whiz": {"players": 5, "whiz": True, "blind_nil": False},
    "cutthroat, spades_broken=never, mirror, bags_in_units_digit": {
        "partnerships": False, "spades_broken": "never", "mirror": True, "blind_nil": False,
        "bags_in_units_digit": True, "bag_limit": 5, "bag_penalty": 50},
    "three, joker_high_alternate, seven_plus=per_trick, no_overs": {
        "players": 3, "jokers": 2, "trump_order": "joker_high_alternate",
        "seven_plus": "per_trick", "no_overs": True},
    # issue 19: a side is a single player without partners (RULES.md section 4): the keys of a
    # side's bid or contract are his, min_team_bid too, and the hook is every table's
    "three, min_team_bid, moon, lexington, hook": {
        "players": 3, "min_team_bid": 4, "moon": True, "lexington": True, "hook": True},
    "cutthroat, mo_a, wheel, blind six, blind moon, bemo, lexington_points": {
        "partnerships": False, "mo_a": True, "ten_for_two_hundred": True, "blind_six": True,
        "blind_moon": True, "bemo": True, "lexington_points": True},
    "five, mo_b, tens_are_wheels, exact wheel, hook": {
        "players": 5, "mo_b": True, "ten_for_two_hundred": True, "tens_are_wheels": True,
        "ten_for_200_exact": True, "hook": True},
    "cutthroat, blind_six_at_least, moon, min_team_bid": {
        "partnerships": False, "blind_six": True, "blind_six_at_least": True, "moon": True,
        "min_team_bid": 3},
}
PLAYER_COUNTS = {**TABLES_ALONE, **TABLES_COMBINED}  # name -> the keys switched on

PLAYER_COUNTS_TABLE = Table(
    variants={name: conformance_rules(keys) for name, keys in PLAYER_COUNTS.items()},
    seed=4747,
    sizes=sizes({("hands", "random"): 40, ("hands", "seed"): 24, ("games", "random"): 5,
                 ("games", "seed"): 2}),
    # random players are set a lot: no mercy rule, so that games last
    games=bounded(max_hands={"random": 6, "seed": 10}, mercy={"random": None, "seed": -200}))

# --- Spades: RULES.md 4.7 six and eight players, 4.1 the kitty, 4.2 jokes_win --------------------

CANCEL = {"cancel_spades": True, "blind_nil": False, "target_score": None, "mercy_score": None}
BIG_TABLES: dict[str, dict] = {
    "six": {"players": 6},
    "six, two threes": {"players": 6, "teams": "two_threes"},
    "six, solo, last wins": {"players": 6, "teams": "solo", "duplicate_wins": "last"},
    "six, double_jokers": {"players": 6, "deck": "double_jokers", "jokers": 4},
    "six, double_kitty, high bidder": {"players": 6, "deck": "double_kitty", "kitty": True,
                                       "kitty_taker": "high_bidder"},
    "six, no_twos, solo": {"players": 6, "deck": "no_twos", "teams": "solo"},
    "six, single_jokers, two threes": {"players": 6, "deck": "single_jokers", "jokers": 2,
                                       "teams": "two_threes"},
    "cancel, six": {"players": 6, **CANCEL, "max_hands": 6},
    "cancel, eight": {"players": 8, **CANCEL, "max_hands": 8},
    "kitty, four with jokers": {"jokers": 2, "kitty": True},
    "kitty, four, extra trick, high bidder": {"kitty": True, "kitty_extra_trick": True,
                                              "kitty_taker": "high_bidder"},
    "kitty, three": {"players": 3, "kitty": True},
    "kitty, five with jokers, extra trick": {"players": 5, "jokers": 3, "kitty": True,
                                             "kitty_extra_trick": True},
    "jokes_win": {"jokers": 2, "trump_order": "jokes_win"},
    "jokes_win, first joker": {"jokers": 2, "trump_order": "jokes_win",
                               "jokes_tie": "first_joker"},
    "jokes_win, suit, kitty": {"jokers": 2, "trump_order": "jokes_win", "jokes_tie": "suit",
                               "kitty": True},
    "six, three_b, nil_tricks=count": {"players": 6, "three_b": True, "nil_tricks": "count"},
    # issue 17: three pairs with fewer tricks than 13 (bids 0..8, 0..9), and the bid rules
    # played there, the hook at two threes (17 tricks), the kitty's extra trick at six
    "six, no_twos": {"players": 6, "deck": "no_twos"},
    "six, single_jokers": {"players": 6, "deck": "single_jokers", "jokers": 2},
    "six, no_twos, fledu, double_over, no_minus": {"players": 6, "deck": "no_twos",
                                                  "fledu": True, "double_over": True,
                                                  "no_minus": True},
    "six, single_jokers, whiz, exact=player, no_minus": {
        "players": 6, "deck": "single_jokers", "jokers": 2, "whiz": True, "blind_nil": False,
        "exact": "player", "no_minus": True},
    "six, no_twos, mirror, quicksand": {"players": 6, "deck": "no_twos", "mirror": True,
                                        "blind_nil": False, "quicksand": True},
    "six, two threes, hook": {"players": 6, "teams": "two_threes", "hook": True},
    "six, no_twos, two threes, hook, nil=false": {
        "players": 6, "deck": "no_twos", "teams": "two_threes", "hook": True, "nil": False,
        "blind_nil": False},
    "six, double_kitty, extra trick": {"players": 6, "deck": "double_kitty", "kitty": True,
                                       "kitty_extra_trick": True},
    # with those above, every deck in every team shape
    "six, double_jokers, two threes": {"players": 6, "deck": "double_jokers", "jokers": 4,
                                       "teams": "two_threes"},
    "six, double_jokers, solo": {"players": 6, "deck": "double_jokers", "jokers": 4,
                                 "teams": "solo"},
    "six, double_kitty, two threes": {"players": 6, "deck": "double_kitty", "kitty": True,
                                      "teams": "two_threes"},
    "six, double_kitty, solo": {"players": 6, "deck": "double_kitty", "kitty": True,
                                "teams": "solo"},
    "six, single_jokers, solo": {"players": 6, "deck": "single_jokers", "jokers": 2,
                                 "teams": "solo"},
    # issue 19: the keys of one named card, the first trick and the trump order with two
    # decks (a card held twice, both copies in a trick, the first holder of the lowest club)
    "six, trick bonuses, bag_cancel_card=cut": {
        "players": 6, "bag_cancel_card": "cut", "dix": True, "last_trick_ace": True,
        "last_trick_ace_nil": True, "last_trick_deuce": True, "last_trick_high_spade": True,
        "last_trick_bonus": True},
    "six, solo, bag_cancel_card=AS, dix, last wins": {
        "players": 6, "teams": "solo", "bag_cancel_card": "AS", "dix": True,
        "duplicate_wins": "last"},
    "six, double_jokers, jokers_high, must_trump, last wins, solo": {
        "players": 6, "deck": "double_jokers", "jokers": 4, "teams": "solo",
        "trump_order": "jokers_high", "must_trump": True, "duplicate_wins": "last"},
    "six, double_jokers, jokers_first_wins, must_overtrump, last wins": {
        "players": 6, "deck": "double_jokers", "jokers": 4, "trump_order": "jokers_first_wins",
        "must_overtrump": "always", "duplicate_wins": "last"},
    "six, two threes, lowest_club, first_trick_lowest_club, must_overtrump=opponents": {
        "players": 6, "teams": "two_threes", "first_lead": "lowest_club",
        "first_trick_lowest_club": True, "must_overtrump": "opponents"},
    "six, double_kitty, two_of_clubs, first_trick_clubs, bag_cancel_card=2C": {
        "players": 6, "deck": "double_kitty", "kitty": True, "first_lead": "two_of_clubs",
        "first_trick_clubs": True, "bag_cancel_card": "2C", "last_trick_deuce": True},
    "six, deuces_high, must_overtrump=always, last wins": {
        "players": 6, "trump_order": "deuces_high", "must_overtrump": "always",
        "duplicate_wins": "last", "last_trick_high_spade": True},
    "six, two threes, bowers, must_trump": {
        "players": 6, "teams": "two_threes", "trump_order": "bowers", "must_trump": True},
    "six, double_jokers, joker_high_alternate, no_spade_lead": {
        "players": 6, "deck": "double_jokers", "jokers": 4,
        "trump_order": "joker_high_alternate", "no_spade_lead_first_trick": True,
        "spades_broken": False},
    # issue 19: three pairs play the keys of two partners; a side of partners (two or three)
    # or a single player plays the keys of a side (RULES.md section 4)
    "six, three pairs, double nils, max_team_bid, exact_pair_bonus, min_team_bid": {
        "players": 6, "double_nil": True, "double_blind_nil": True, "max_team_bid": 14,
        "exact_pair_bonus": True, "min_team_bid": 5},
    "six, no_twos, suicide": {"players": 6, "deck": "no_twos", "suicide": True,
                              "suicide_min_bid": 2},
    "six, three pairs, side contracts, moon, lexington": {
        "players": 6, "team_nil": True, "team_blind_nil": True, "mo_b": True, "bemo": True,
        "blind_moon": True, "moon": True, "lexington": True},
    "six, two threes, team_nil, mo_a, wheel, highlander": {
        "players": 6, "teams": "two_threes", "team_nil": True, "mo_a": True,
        "ten_for_two_hundred": True, "highlander": True},
    "six, solo, single_jokers, blind six, mo_a, moon, min_team_bid": {
        "players": 6, "teams": "solo", "deck": "single_jokers", "jokers": 2, "blind_six": True,
        "mo_a": True, "moon": True, "min_team_bid": 3},
    "six, three pairs, double_blind_nil=win, highlander": {
        "players": 6, "deck": "no_twos", "double_blind_nil": True,
        "double_blind_nil_reward": "win", "highlander": True},
    # two decks: whiz counts a spade held twice twice (the fuzzer of test_combinations)
    "six, solo, whiz": {"players": 6, "teams": "solo", "whiz": True, "blind_nil": False},
}
# the presets of these tables and decks (the standard table plays the four-player ones)
BIG_PRESETS = [n for n in preset_names("spades")
               if PRESETS[n].table != STANDARD.table or PRESETS[n].jokers]


def _big(keys: dict):
    extra = {} if keys.get("cancel_spades") else {"blind_nil_min_deficit": 50}
    return replace(STANDARD, **extra, **keys)


BIG_TABLES_TABLE = Table(
    variants={**{name: _big(keys) for name, keys in BIG_TABLES.items()},
              **{name: PRESETS[name] for name in BIG_PRESETS}},
    seed=808,
    sizes=sizes({("hands", "random"): 40, ("hands", "seed"): 30, ("games", "random"): 4,
                 ("games", "seed"): 3}),
    games=bounded(max_hands=6, mercy={"random": None, "seed": None},  # games of a few hands
                  when=lambda rules: not rules.cancel_spades))

# --- Portland whist: every preset, then RULES.md section 1 variants ------------------------------

HONOURS = PRESETS["portland.honours"]
PORTLAND_TABLE = Table(
    variants={
        **{name: PRESETS[name] for name in preset_names("portland")},
        "book=5": replace(HONOURS, book=5),  # both sides can score tricks in one hand
        "book=5,no honours": replace(PRESETS["portland"], book=5),  # target ties play on
        "together": replace(HONOURS, honours_order="together"),
        "barred_at=4": replace(HONOURS, honours_barred_at=4),
        "seven,together,barred_at=5": replace(HONOURS, target_score=7, honours_order="together",
                                              honours_barred_at=5),
    },
    seed=20250601, strategies=("random",),
    sizes=lambda rules, mode, strategy: {"hands": 160, "games": 120}[mode])

# --- Norwegian whist: every preset, then RULES.md section 2 variants -----------------------------

NORWEGIAN_TABLE = Table(
    variants={
        **{name: PRESETS[name] for name in preset_names("norwegian")},
        "three,zero_sum,double": load_rules({"preset": "norwegian.three", "scoring": "zero_sum",
                                             "double_points": True}),
        "three,declarer": load_rules({"preset": "norwegian.three", "scoring": "declarer"}),
        # "both" games end
        "three,target=4": load_rules({"preset": "norwegian.three", "target_score": 4}),
        "target=50": load_rules({"preset": "norwegian", "target_score": 50}),
        "zero_sum,double": load_rules({"preset": "norwegian.zero_sum", "double_points": True}),
        "declarer,max_hands=6": load_rules({"preset": "norwegian.declarer", "max_hands": 6}),
        "three,max_hands=3": load_rules({"preset": "norwegian.three", "max_hands": 3}),
        "classic,values": load_rules({"preset": "norwegian.classic", "grand_value": 3,
                                      "grand_fail_value": 5, "nullo_value": 1}),
        "classic,max_hands=4": load_rules({"preset": "norwegian.classic", "max_hands": 4}),
        # every classic hand scores 1 or more (some side takes 7+ tricks), so games always end
        "classic,unlimited": load_rules({"preset": "norwegian.classic", "max_hands": None,
                                         "target_score": 30}),
    },
    seed=20250605,
    # games: 8 with 3 players, whose random games mostly run to 200 hands
    sizes=lambda rules, mode, strategy: (240 if mode == "hands" else
                                         8 if rules.players == 3 else 16))

TABLES: dict[str, Table] = {
    "presets": PRESET_TABLE, "standard": STANDARD_TABLE, "vs_reference": VS_REFERENCE_TABLE,
    "scoring": SCORING_TABLE, "card_orders": CARD_ORDERS_TABLE,
    "player_counts": PLAYER_COUNTS_TABLE, "big_tables": BIG_TABLES_TABLE,
    "portland": PORTLAND_TABLE, "norwegian": NORWEGIAN_TABLE,
}
CASES = [(table, *case) for table, t in TABLES.items() for case in t.cases()]


def play(table: str, name: str, strategy: str, mode: str) -> Run:
    """One case of a table: its variant's block (cached by `simulate`)."""
    t = TABLES[table]
    rules = t.rules(name, strategy, mode)
    return simulate(rules, strategy, mode, t.sizes(rules, mode, strategy), t.seed,
                    t.hand_offset[mode])
