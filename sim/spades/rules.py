"""Spades house rules: the keys of RULES.md §3 and their presets.

The later Spades variant families (RULES.md §4) add their keys here as further `option` fields; every
key is declared once, with its default and meaning, and checked by `SpadesRules.check`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace
from functools import cached_property
from typing import ClassVar

from ..cards import standard_deck
from ..errors import UserError
from ..limits import BONUS_MAX, HAND_GUARD, HAND_LIMIT, TARGET_LIMIT
from ..options import option, register_preset
from . import house
from .decks import JOKER_ORDERS, TRUMP_ORDERS
from .says import cite
from .table import Table

__all__ = ["SpadesRules"]

NIL_TRICKS = ("bags_only", "count", "ignored")
# The ranges of the point-valued keys: with every key at its extreme a hand scores well inside
# int16 and a game inside int32 (sim/limits.py; the arithmetic is tests/test_ranges.py's).
BAG_PENALTY_MAX = 500  # up to one penalty per trick in a hand at bag_limit = 1
BAG_LIMIT_MAX = 100  # the running bag count is below it: an int8 column (bags_<side>)
# A progressive bonus (RULES.md §4.6 seven_plus = "progressive", highlander) is 10 times the
# bonuses a side earned in the game so far: a game that may earn one keeps to this many hands.
PROGRESSIVE_HANDS = 500
# RULES.md §4.7 six players: the decks (the first three are two decks) and team shapes
SIX_DECKS = ("double_minus_2c", "double_jokers", "double_kitty", "no_twos", "single_jokers")
TWO_DECKS = SIX_DECKS[:3]
SIX_DECK_JOKERS = {"double_jokers": 4, "single_jokers": 2}  # the jokers each deck needs
TEAMS = ("three_pairs", "two_threes", "solo")
TEAM_SIDES = {"three_pairs": 3, "two_threes": 2, "solo": 6}
SPADES_BROKEN = (True, False, "never")
# RULES.md §4: '"Side" = partnership, or a single player in games without partners.' A key
# worded for a side (the side contracts, moon, lexington, bemo, hook, ...) applies at every
# table of §4.7. The keys below are worded for more, each with the words that need it; a table
# without that is refused them. Pairs: four players in partnerships, six in three pairs.
PAIR_KEYS = {
    "double_nil": "both partners bid nil",
    "double_blind_nil": "both partners bid blind nil",
    "max_team_bid": "a partnership's two bids may not total more than this",
    "suicide": "if the first partner to bid does not bid nil, the second must",
    "half_trick_bids": "the first partner of a side may bid in halves (3.5); the second must "
                       "make the side's total whole",
    "nil_pass": "a side with a nil (or blind nil) bidder exchanges that many cards between the "
                "partners",
    "exact_pair_bonus": "if both partners take exactly their own bids",
    "min_team_bid": "a partner of a nil bidder must bid at least k himself unless both bid nil. "
                    "Without partners each player bids nil or at least k",
}
# partners: a side of two or three players
PARTNERSHIP_KEYS = {
    "team_nil": "a side (not a player) bids to take no trick",
    "team_blind_nil": "a side (not a player) bids to take no trick",
    "partnership_bidding": "each side makes one joint bid",
    "highlander": "each partner must make his own bid",
}
# two sides
TWO_SIDE_KEYS = {
    "book_made": "if the two sides' bids total exactly 10",
    "set_to_opponents": "a set side scores 0 and the opponents score 10 per trick it fell short",
    "auction": "when the others have passed, the last bidder's side is declarer",
}


def _card_list(value) -> tuple[str, ...]:

    names = standard_deck().names
    if len(set(value)) != len(value) or any(v not in names or not v for v in value):
        raise ValueError(value)
    return tuple(value)


@dataclass(frozen=True)
class SpadesRules:
    """The rules of one Spades game (RULES.md §3). Defaults are ``spades.standard``."""

    game: ClassVar[str] = "spades"

    # RULES.md §4.7 player counts and team shapes (sim/spades/table.py)
    players: int = option(4, "players at the table (eight only under cancel_spades)", kind=int,
                          choices=(2, 3, 4, 5, 6, 8))
    deck: str | None = option(None, "six players: double_minus_2c (the default: two decks "
                              "without the 2C, 17 each), double_jokers (two decks and 4 jokers, "
                              "18 each), double_kitty (two decks, 17 each, 2 to a kitty), "
                              "no_twos (one deck without the 2s, 8 each), single_jokers (one "
                              "deck and 2 jokers, 9 each)", kind=str, choices=SIX_DECKS,
                              optional=True)
    teams: str | None = option(None, "six players: three_pairs (the default; partners sit "
                               "opposite, 0-3 1-4 2-5), two_threes (0-2-4 against 1-3-5), solo",
                               kind=str, choices=TEAMS, optional=True)
    duplicate_wins: str = option("first", "two decks: of two identical cards in one trick the "
                                 "first played ranks higher, or the last", kind=str,
                                 choices=("first", "last"))
    cancel_spades: bool = house.cancel_spades.OPTION  # a plug-in
    draw_mode: str = option("see_both", "two players draw their hands from the stock, two cards "
                            "at a time: see_both (keep one of the two), first_decides (keep the "
                            "first, the second seen and discarded, or discard the first and "
                            "keep the second), first_decides_blind (as first_decides, the "
                            "second not seen when the first is kept)", kind=str,
                            choices=("see_both", "first_decides", "first_decides_blind"))
    partnerships: bool = option(True, "four players: partners sit opposite; false: cutthroat, "
                                "each player a side (three and five players never have "
                                "partners)", kind=bool)
    remove: str = option("2C", "three players without jokers: take out the 2C (17 each), or "
                         "leave the last card undealt (last)", kind=str, choices=("2C", "last"))
    nil: bool = option(True, "a bid of 0 is nil: the bidder promises to win no trick", kind=bool)
    nil_bonus: int = option(100, "nil success +bonus, failure -bonus", kind=int, minimum=0,
                            maximum=BONUS_MAX)
    nil_tricks: str = option(
        "bags_only", "tricks won by a nil bidder: bags_only (bags, not toward the partner's "
        "contract), count (toward the contract), ignored", kind=str, choices=NIL_TRICKS)
    blind_nil: bool = option(True, "nil may be bid before looking at the cards", kind=bool)
    blind_nil_bonus: int = option(200, "blind nil success +bonus, failure -bonus", kind=int,
                                  minimum=0, maximum=BONUS_MAX)
    blind_nil_min_deficit: int = option(
        100, "blind nil only for a side trailing by at least this (0 = always)", kind=int,
        minimum=0, maximum=TARGET_LIMIT)
    spades_broken: bool | str = option(
        True, "true: no spade lead before spades are broken unless only spades are held; false: "
        "any time; never: only a player holding nothing else leads spades", kind=(bool, str),
        choices=SPADES_BROKEN)
    max_team_bid: int | None = option(None, "most a partnership's two bids may total", kind=int,
                                      minimum=1, maximum=26, optional=True)
    bag_limit: int = option(10, "bags that trigger the bag penalty", kind=int, minimum=1,
                            maximum=BAG_LIMIT_MAX)
    bag_penalty: int = option(100, "points lost each time the bags reach bag_limit", kind=int,
                              minimum=0, maximum=BAG_PENALTY_MAX)
    target_score: int | None = option(500, "a side reaching it ends the game", kind=int,
                                      minimum=1, maximum=TARGET_LIMIT, optional=True)
    mercy_score: int | None = option(-200, "a side at or below it loses at once", kind=int,
                                     minimum=-TARGET_LIMIT, maximum=0, optional=True)
    max_hands: int | None = option(None, "fixed number of hands per game (tied games play on; "
                                   f"at most {PROGRESSIVE_HANDS} with a progressive bonus)",
                                   kind=int, minimum=1, maximum=HAND_LIMIT, optional=True)
    # RULES.md §4.6 scoring (issue 7, first keys) and §4.8 game end
    three_b: bool = house.three_b.OPTION  # a plug-in
    no_overs: bool = house.no_overs.OPTION  # a plug-in
    double_over: bool = house.double_over.OPTION  # a plug-in
    exact: str | None = house.exact.OPTION  # a plug-in
    quicksand: bool = house.quicksand.OPTION  # a plug-in
    set_to_opponents: bool = house.set_to_opponents.OPTION  # a plug-in
    no_minus: bool = house.no_minus.OPTION  # a plug-in
    bags_negative: bool = house.bags_negative.OPTION  # a plug-in
    defeat_score: bool = house.defeat_score.OPTION  # a plug-in
    book_made: bool = house.book_made.OPTION  # a plug-in
    highlander: bool = house.highlander.OPTION  # a plug-in
    exact_pair_bonus: bool = house.exact_pair_bonus.OPTION  # a plug-in
    seven_plus: str | None = house.seven_plus.OPTION  # a plug-in
    bags_in_units_digit: bool = house.bags_in_units_digit.OPTION  # a plug-in
    bag_cancel_card: str | None = house.bag_cancel_card.OPTION  # a plug-in
    # RULES.md §4.6 trick bonuses (each to the side of the player who earns it)
    last_trick_bonus: bool = house.last_trick_bonus.OPTION  # a plug-in
    end_streak: bool = house.end_streak.OPTION  # a plug-in
    dix: bool = house.dix.OPTION  # a plug-in
    last_trick_ace: bool = house.last_trick_ace.OPTION  # a plug-in
    last_trick_ace_nil: bool = house.last_trick_ace_nil.OPTION  # a plug-in
    last_trick_deuce: bool = house.last_trick_deuce.OPTION  # a plug-in
    last_trick_high_spade: bool = house.last_trick_high_spade.OPTION  # a plug-in
    # RULES.md §4.5 card passing
    nil_pass: tuple[int, int] | None = house.nil_pass.OPTION  # a plug-in
    pass_cards: house.pass_cards.PassCards | None = house.pass_cards.OPTION  # a plug-in
    pass_when: str = house.pass_cards.WHEN  # the pass_cards plug-in's
    # RULES.md §4.4 side contracts: declared for a side instead of its two bids (bemo on top)
    team_nil: bool = house.team_nil.OPTION  # a plug-in
    team_blind_nil: bool = house.team_blind_nil.OPTION  # a plug-in
    ten_for_two_hundred: bool = house.ten_for_two_hundred.OPTION  # a plug-in
    ten_for_200_fail: int = house.ten_for_two_hundred.FAIL  # the ten_for_two_hundred plug-in's
    ten_for_200_exact: bool = house.ten_for_two_hundred.EXACT  # the ten_for_two_hundred plug-in's
    tens_are_wheels: bool = house.ten_for_two_hundred.TENS  # the ten_for_two_hundred plug-in's
    mo_a: bool = house.mo_a.OPTION  # a plug-in
    mo_b: bool = house.mo_b.OPTION  # a plug-in
    bemo: bool = house.bemo.OPTION  # a plug-in
    blind_six: bool = house.blind_six.OPTION  # a plug-in
    blind_six_at_least: bool = house.blind_six.AT_LEAST  # the blind_six plug-in's
    blind_moon: bool = house.blind_moon.OPTION  # a plug-in
    # RULES.md §4.4 bids and contracts
    half_trick_bids: bool = house.half_trick_bids.OPTION  # a plug-in
    auction: bool = house.auction.OPTION  # a plug-in
    nil_in_the_dark: bool = house.nil_in_the_dark.OPTION  # a plug-in
    partnership_bidding: bool = house.partnership_bidding.OPTION  # a plug-in
    no_nine_no_blind: bool = house.partnership_bidding.NO_NINE  # the partnership_bidding plug-in's
    no_trump_bids: bool = house.no_trump_bids.OPTION  # a plug-in
    bid_raise: bool = house.bid_raise.OPTION  # a plug-in
    blind_bids: bool = house.blind_bids.OPTION  # a plug-in
    blind_bid_min_deficit: int = house.blind_bids.MIN_DEFICIT  # the blind_bids plug-in's
    double_nil: bool = house.double_nil.OPTION  # a plug-in
    double_blind_nil: bool = house.double_blind_nil.OPTION  # a plug-in
    double_blind_nil_reward: str = house.double_blind_nil.REWARD  # the double_blind_nil plug-in's
    min_team_bid: int | None = house.min_team_bid.OPTION  # a plug-in
    suicide: bool = house.suicide.OPTION  # a plug-in
    suicide_min_bid: int | None = house.suicide.MIN_BID  # the suicide plug-in's
    whiz: bool = house.whiz.OPTION  # a plug-in
    mirror: bool = house.mirror.OPTION  # a plug-in
    fledu: bool = house.fledu.OPTION  # a plug-in
    hook: bool = house.hook.OPTION  # a plug-in
    moon: bool = house.moon.OPTION  # a plug-in
    lexington: bool = house.lexington.OPTION  # a plug-in
    lexington_points: bool = house.lexington_points.OPTION  # a plug-in
    # RULES.md §4.1 deal
    redeal_poor_hands: tuple[str, ...] | None = house.redeal_poor_hands.OPTION  # a plug-in
    kitty: bool = house.kitty.OPTION  # a plug-in
    kitty_taker: str = house.kitty.TAKER  # the kitty plug-in's
    kitty_extra_trick: bool = house.kitty.EXTRA_TRICK  # the kitty plug-in's
    face_up_cards: int = house.face_up_cards.OPTION  # a plug-in
    # RULES.md §4.2 card order and trumps (layouts in sim/spades/decks.py)
    trump_order: str = option("standard", "how the trumps rank (layouts in sim/spades/decks.py;"
                              " jokes_win resolved in sim/spades/jokes.py)", kind=str,
                              choices=TRUMP_ORDERS)
    jokers: int = option(0, "jokers added to the deck (big BJ and little LJ; a third, XJ, "
                         "below them for five players), ranked by trump_order (standard: "
                         "BJ > LJ > AS); 4 for six players with two decks (two of each)",
                         kind=int, choices=(0, 2, 3, 4))
    jokes_tie: str = house.jokes_tie.OPTION  # a plug-in (in force under jokes_win)
    jokers_remove: tuple[str, ...] | None = option(
        None, "the cards taken out to make room for the jokers (default 2C and 2D)", kind=list,
        optional=True, parse=_card_list, shape='a list of card names such as ["2C", "2H"]')
    seven_trump_reveal: bool = house.seven_trump_reveal.OPTION  # a plug-in
    # RULES.md §4.3 leads and play constraints
    first_lead: str = house.first_lead.OPTION  # a plug-in
    first_trick_clubs: bool = house.first_trick_clubs.OPTION  # a plug-in
    first_trick_lowest_club: bool = house.first_trick_lowest_club.OPTION  # a plug-in
    no_spade_lead_first_trick: bool = house.no_spade_lead_first_trick.OPTION  # a plug-in
    lead_ace_of_spades: bool = house.lead_ace_of_spades.OPTION  # a plug-in
    must_overtrump: str = house.must_overtrump.OPTION  # a plug-in
    must_trump: bool = house.must_trump.OPTION  # a plug-in

    @property
    def six_deck(self) -> str | None:
        """The six-player deck in force (RULES.md §4.7; None at other tables and under
        cancel_spades, which has its own)."""
        if self.players != 6 or self.cancel_spades:
            return None
        return self.deck or "double_minus_2c"

    @property
    def copies(self) -> int:
        """2 when every card exists twice (two decks: RULES.md §4.7), else 1."""
        return 2 if self.cancel_spades or self.six_deck in TWO_DECKS else 1

    @property
    def removed_cards(self) -> tuple[str, ...]:
        """The cards taken out of the deck (RULES.md §4.2, §4.7; both copies with two decks):
        four players with jokers, ``jokers_remove`` (default 2C and 2D); three players without
        jokers, the 2C unless the last card is left undealt; five players without jokers, 2D and
        2H; six players, the 2C of double_minus_2c and the four 2s of no_twos; cancel_spades
        with six players the 2H. None under ``kitty``: the leftover cards form it (§4.1)."""
        if self.cancel_spades:
            return ("2H",) if self.players == 6 else ()
        if self.players == 6:
            return {"double_minus_2c": ("2C",), "no_twos": ("2C", "2D", "2H", "2S")}.get(
                self.six_deck, ())
        if self.kitty:
            return ()
        if self.jokers_remove is not None:
            return self.jokers_remove
        if self.players == 4:
            return ("2C", "2D") if self.jokers else ()
        if self.players == 3:
            return ("2C",) if not self.jokers and self.remove == "2C" else ()
        if self.players == 5:
            return ("2D", "2H") if not self.jokers else ()
        return ()

    @property
    def deck_size(self) -> int:
        """Physical cards in the deck: 52 + jokers - removed, twice with two decks (four jokers
        are two of each)."""
        types = 52 + self.jokers // self.copies - len(self.removed_cards)
        return types * self.copies

    @property
    def kitty_size(self) -> int:
        """Cards in the kitty (RULES.md §4.1): the leftover cards, plus one trick's worth under
        ``kitty_extra_trick``; 0 without a kitty."""
        if not self.kitty:
            return 0
        return self.deck_size % self.players + self.players * self.kitty_extra_trick

    @cached_property
    def cards_each(self) -> int:
        """Cards dealt to each player (the rest undealt or in the kitty; two players draw 13
        each and discard the other 26)."""
        if self.players == 2:
            return 13
        return (self.deck_size - self.kitty_size) // self.players

    @property
    def tricks_per_hand(self) -> int:
        """Tricks a hand is scored over: the tricks played, and the kitty's discard under
        ``kitty_extra_trick`` (RULES.md §4.1)."""
        return self.cards_each + self.kitty_extra_trick

    @cached_property
    def table(self):
        """Who plays with whom (`sim.spades.table.Table`)."""

        if self.cancel_spades:  # three (or four) pairs, partners opposite
            return Table(self.players, self.players // 2)
        if self.players == 6:
            return Table(6, TEAM_SIDES[self.teams or "three_pairs"])
        solo = self.players != 4 or not self.partnerships
        return Table(self.players, self.players if solo else 2)

    @property
    def sides(self) -> int:
        return self.table.sides

    @property
    def min_bid(self) -> int:
        """Smallest ordinary bid: 0 (nil) when nil is allowed, else 1 (RULES.md §3, `nil`)."""
        return 0 if self.nil else 1

    @property
    def least_bid(self) -> int:
        """The smallest bid a player can always make: nil, else 1 (4 under `fledu`)."""
        return 0 if self.nil else 4 if self.fledu else 1

    @property
    def progressive(self) -> str | None:
        """The key that pays a progressive bonus (RULES.md §4.6), if any."""
        if self.seven_plus == "progressive":
            return "seven_plus"
        return "highlander" if self.highlander else None

    @property
    def hand_limit(self) -> int:
        """The most hands a game may last, the engine's guard: `PROGRESSIVE_HANDS` where a
        progressive bonus grows with the game; with ``max_hands`` as many as ``hand_no`` counts
        (a game tied after ``max_hands`` plays on, RULES.md §4.8); else ``HAND_GUARD``."""
        if self.progressive:
            return PROGRESSIVE_HANDS
        return HAND_LIMIT if self.max_hands is not None else HAND_GUARD

    def check(self) -> None:
        """Reject combinations of keys that cannot be played (each with its reason and the words
        of RULES.md it rests on, `sim.spades.says`)."""
        try:
            self._check()
        except UserError as err:
            raise cite(err) from None

    def _check(self) -> None:
        if self.progressive and self.max_hands is not None and self.max_hands > PROGRESSIVE_HANDS:
            raise UserError(f"{self.max_hands} hands with {self.progressive}'s progressive bonus "
                            "(10 times the bonuses earned so far) would overflow a hand's points: "
                            f"max_hands at most {PROGRESSIVE_HANDS} with {self.progressive}",
                            key="max_hands")
        if self.blind_nil and not self.nil:
            raise UserError("blind_nil = true needs nil = true (a blind nil is a nil bid)",
                            key="blind_nil")
        if self.max_team_bid is not None and self.max_team_bid < 2 * self.least_bid:
            raise UserError(f"max_team_bid = {self.max_team_bid} leaves no legal bid for both "
                            f"partners (each bids at least {self.least_bid})", key="max_team_bid")
        if self.target_score is None and self.max_hands is None:
            raise UserError("a game needs an end: set target_score or max_hands",
                            key="target_score")
        if (self.target_score is not None and self.mercy_score is not None
                and self.mercy_score >= self.target_score):
            raise UserError("mercy_score must be below target_score", key="mercy_score")
        self._check_bids()
        self._check_cards()
        self._check_big_tables()
        self._check_kitty()
        self._check_table()

    def _refusals(self, among: str) -> None:
        """The plug-ins' own refusals (`sim.spades.house`) that belong ``among`` these checks
        ("scoring", "deal", "cards", "order", "play", "kitty", "auction", ...: where in
        `check`'s order they are asked)."""
        for rule in house.in_force(self):
            refused = rule.refuse(self) if rule.refuse and rule.refuse_among == among else None
            if refused is not None:
                raise refused

    @property
    def side_contracts(self) -> bool:
        """Some side contract of RULES.md §4.4 may be declared (bemo aside): a plug-in in force
        offers one (`sim.spades.house`, ``contracts``)."""
        return any(stage != "bemo" for rule in house.in_force(self)
                   for stage in rule.contracts.values())

    def _check_scoring(self) -> None:
        """RULES.md §4.6: at most one way of scoring the contract; modifiers that need one."""
        ways = [k for k in ("three_b", "quicksand") if getattr(self, k)]
        ways += ["exact"] if self.exact is not None else []
        if len(ways) > 1:
            raise UserError(f"{ways[0]} and {ways[1]} each score the contract their own way: "
                            "choose one", key=ways[1])
        self._refusals("bags")  # bags_negative, bags_in_units_digit
        self._check_bag_rules()
        self._check_voided()
        own_way = [k for k in ("double_over", "set_to_opponents", "no_minus", "book_made",
                               "highlander", "exact_pair_bonus", "seven_plus",
                               "bags_in_units_digit", "bag_cancel_card", "bags_negative")
                   if getattr(self, k)]
        if self.auction and (ways or own_way):
            raise UserError(f"an auction scores its own way (RULES.md §4.4): {(ways + own_way)[0]}"
                            " does not combine with it", key="auction")

    @property
    def nilless(self) -> str | None:
        """The key that leaves no nil bid (RULES.md §3 ``nil``, §4.4), if any."""
        for key, on in (("nil = false", not self.nil), ("partnership_bidding",
                        self.partnership_bidding), ("auction", self.auction)):
            if on:
                return key
        return None

    def _check_voided(self) -> None:
        """Issue 17: two rules that contradict each other, or a rule switched on that another
        leaves without any effect, are refused, naming both, rather than one silently dropped
        (RULES.md §4.4, §4.6). A number that parametrises a rule another switches off (a bag
        limit where no bag is counted: `voided_by`) is not refused: a preset may carry it (the
        short game's bag_limit 5 under three_b), and it changes nothing."""
        self._refusals("voided")  # no_overs
        voided = [("hook", "mirror", "mirror leaves the last bidder one bid, which the hook "
                   "may forbid only where another is left")]
        for key, by, why in voided:
            if getattr(self, key) and getattr(self, by):
                raise UserError(f"{key} has no effect with {by}: {why}; choose one", key=key)
        self._refusals("scoring")

    def voided_by(self) -> dict[str, tuple[str, str]]:
        """The numeric keys that these rules leave without effect, each with the key that does
        and why (RULES.md §3, §4.4, §4.6): the bag keys where no bag is counted, the nil keys
        where nobody bids nil (blind nil). They are allowed and change nothing."""
        out = {}
        bagless = self.bagless or ("bags_negative" if self.bags_negative else None)
        if bagless:
            out.update(bag_limit=(bagless, "no bag is counted"),
                       bag_penalty=(bagless, "no bag is counted"))
        nilless = self.nilless
        if nilless:
            out["nil_bonus"] = (nilless, "nobody bids nil")
        blindless = nilless or ("blind_nil = false" if not self.blind_nil else None)
        if blindless:
            out["blind_nil_min_deficit"] = (blindless, "nobody bids blind nil")
            if not self.nil_in_the_dark:  # a nil in the dark scores as blind nil (§4.4)
                out["blind_nil_bonus"] = (blindless, "nobody bids blind nil")
        return out

    @property
    def bagless(self) -> str | None:
        """The key under which no bag is counted (RULES.md §4.6), if any: ``no_overs``,
        ``highlander``, the auction, and ``three_b`` and ``quicksand``, which price every
        overtrick at -10 instead, unless ``bags_in_units_digit`` keeps them (a reading, issue
        19: the bags are then counted in the units digit, their limit and penalty too, as §3
        says; the scores of those two are multiples of 10, so the digit is free)."""
        priced = ("three_b", "quicksand") if not self.bags_in_units_digit else ()
        return next((k for k in (*priced, "no_overs", "highlander", "auction")
                     if getattr(self, k)), None)

    def _check_bag_rules(self) -> None:
        """RULES.md §4.6: a card that cancels bags needs bags to be counted (the plug-ins'
        refusals "bags" come first: ``bags_in_units_digit`` needs them too)."""
        if self.bag_cancel_card and self.bagless not in (None, "highlander", "auction"):
            # (highlander and the auction refuse it themselves, later)
            raise UserError(f"bag_cancel_card needs bags to be counted, which {self.bagless} does "
                            "away with", key="bag_cancel_card")

    def _check_side_contracts(self) -> None:
        if self.mo_a and self.mo_b:
            raise UserError("mo_a and mo_b are two versions of Mo: choose one", key="mo_b")
        defaults = SpadesRules()
        for key, needs in (("ten_for_200_fail", "ten_for_two_hundred"),
                           ("ten_for_200_exact", "ten_for_two_hundred"),
                           ("tens_are_wheels", "ten_for_two_hundred"),
                           ("blind_six_at_least", "blind_six"),
                           ("double_blind_nil_reward", "double_blind_nil")):
            if getattr(self, key) != getattr(defaults, key) and not getattr(self, needs):
                raise UserError(f"{key} needs {needs} = true", key=key)
        # A side contract replaces the side's bids (README, readings): the bid rules bind the
        # sides that bid (min_team_bid among them); bemo comes on top of two ordinary bids.
        if self.side_contracts:
            says = {"suicide": "each side must contain a nil bid",
                    "whiz": "each player bids exactly the number of spades he holds, or nil",
                    "mirror": "each player bids exactly the number of spades he holds"}
            for key, why in says.items():
                if getattr(self, key):
                    raise UserError(f"{key} has every side bid (RULES.md §4.4: \"{why}\"), "
                                    "and a side contract (team_nil, wheels, Mo, blind six, "
                                    "blind moon) replaces a side's bids: choose one", key=key)
        self._refusals("contracts")  # bemo with suicide

    def _check_cards(self) -> None:
        """RULES.md §4.2 and §4.3: card orders that need jokers, removals that keep hands even,
        lead rules that need the card they name."""
        order = self.trump_order
        if order in JOKER_ORDERS and self.jokers // self.copies != 2:  # two decks: two of each
            raise UserError(f"trump_order = {order!r} ranks two jokers: set jokers = 2 (four "
                            "with two decks)", key="trump_order")
        self._refusals("order")  # jokes_win (jokes_tie): partners, no must_trump
        if self.jokes_tie != "higher_joker" and order != "jokes_win":
            raise UserError("jokes_tie needs trump_order = \"jokes_win\"", key="jokes_tie")
        if self.jokers and order in ("bowers", "suit_ladder"):
            raise UserError(f"trump_order = {order!r} has no place for jokers: set jokers = 0",
                            key="jokers")
        allowed = {2: 0, 3: 2, 4: 2, 5: 3}.get(self.players)  # jokers each count uses (§4.7)
        if allowed is not None and self.jokers not in (0, allowed):
            raise UserError(f"{self.players} players play with {allowed} jokers or none "
                            "(RULES.md §4.2, §4.7)" if allowed else "two players play without "
                            "jokers (RULES.md §4.7)", key="jokers")
        if self.jokers_remove is not None and (not self.jokers or self.players != 4):
            raise UserError("jokers_remove needs four players with jokers", key="jokers_remove")
        if self.players == 4 and not self.kitty and len(self.removed_cards) != self.jokers:
            raise UserError(f"jokers_remove must name {self.jokers} cards, one per joker, so "
                            "that the hands stay even", key="jokers_remove")
        if self.remove != "2C" and (self.players != 3 or self.jokers):
            raise UserError("remove is for three players without jokers", key="remove")
        self._refusals("deal")  # redeal_poor_hands, face_up_cards: two players draw
        if self.players != 2 and self.draw_mode != "see_both":
            raise UserError("draw_mode is for two players", key="draw_mode")
        if not self.partnerships and self.players != 4:
            raise UserError("partnerships = false (cutthroat) is for four players; three and "
                            "five never have partners", key="partnerships")
        self._refusals("cards")  # bag_cancel_card's card taken out
        if self.first_lead == "two_of_clubs" and order == "deuces_high":
            raise UserError("first_lead = \"two_of_clubs\": under deuces_high the 2C is a "
                            "spade, not a club to lead", key="first_lead")
        named = {"AS": ("lead_ace_of_spades",), "9S": ("dix", "last_trick_high_spade")}
        for card, keys in named.items():
            on = [k for k in keys if getattr(self, k)]
            if on and card in self.removed_cards:
                raise UserError(f"{on[0]} names the {card}, which jokers_remove takes out",
                                key="jokers_remove")
        if self.first_lead == "two_of_clubs" and "2C" in self.removed_cards:
            raise UserError("first_lead = \"two_of_clubs\" needs the 2C, which jokers_remove "
                            "takes out", key="first_lead")
        # The trick-1 rules compose (RULES.md §4.3): first_lead and first_trick_clubs name the
        # holder of the lowest club as the first leader, leading it, and first_trick_lowest_club
        # has everyone, him too, play his lowest club. mo_b names another first leader.
        leads = ["first_trick_clubs"] if self.first_trick_clubs else []
        leads += ["first_lead"] if self.first_lead != "left_of_dealer" else []
        if leads and self.mo_b:
            raise UserError(f"{leads[0]} makes the holder of the lowest club lead trick 1 "
                            "(RULES.md §4.3), and mo_b the side that declared Mo (§4.4: \"the "
                            "declaring side leads trick 1\"): choose one", key=leads[0])
        self._refusals("play")  # lead_ace_of_spades without spades_broken, seven_trump_reveal
        if order == "suit_ladder" and (self.must_trump or self.must_overtrump != "off"
                                       or self.no_trump_bids):
            raise UserError("under suit_ladder no suit is trump: must_trump, must_overtrump "
                            "and no_trump_bids do not apply", key="trump_order")

    def _changed(self) -> list[str]:
        """The keys set to something other than the standard game's value."""
        defaults = SpadesRules()
        return [f.name for f in dataclasses.fields(self)
                if getattr(self, f.name) != getattr(defaults, f.name)]

    def _check_big_tables(self) -> None:
        """RULES.md §4.7: six players' decks and teams, two decks, cancel spades, eight
        players."""
        if self.players == 8 and not self.cancel_spades:
            raise UserError("eight players play cancel_spades (two full decks, RULES.md §4.7): "
                            "set cancel_spades = true", key="players")
        for key in ("deck", "teams"):
            if getattr(self, key) is not None and (self.players != 6 or self.cancel_spades):
                raise UserError(f"{key} is for six players (cancel_spades has its own deck and "
                                "three pairs)", key=key)
        if self.players == 6 and not self.cancel_spades:
            need = SIX_DECK_JOKERS.get(self.six_deck, 0)
            if self.jokers != need:
                raise UserError(f"deck = {self.six_deck!r} plays with {need} jokers: set jokers "
                                f"= {need}", key="jokers")
            if (self.six_deck == "double_kitty") != self.kitty:
                raise UserError("deck = \"double_kitty\" keeps two cards in a kitty: it goes "
                                "with kitty = true, and at six players the kitty with it",
                                key="kitty")
        elif self.jokers == 4:
            raise UserError("four jokers are for six players with deck = \"double_jokers\"",
                            key="jokers")
        if self.duplicate_wins != "first" and (self.copies == 1 or self.cancel_spades):
            raise UserError("duplicate_wins rules identical cards, which only two decks have "
                            "(cancel_spades cancels them)", key="duplicate_wins")
        self._refusals("tables")  # cancel_spades: its table, keys and game end

    def _check_kitty(self) -> None:
        """RULES.md §4.1: a kitty needs leftover cards (or the extra trick) and replaces the
        cards taken out to even the hands."""
        for key in ("kitty_taker", "kitty_extra_trick"):
            if getattr(self, key) != getattr(SpadesRules, key) and not self.kitty:
                raise UserError(f"{key} needs kitty = true", key=key)
        self._refusals("kitty")  # the kitty's own: no leftover cards, cards taken out

    def _check_table(self) -> None:
        """RULES.md §4.7: the rules worded for pairs of partners, for partners or for two sides
        (`PAIR_KEYS`, `PARTNERSHIP_KEYS`, `TWO_SIDE_KEYS`) need them; the rest apply to every
        side, a single player in games without partners (§4)."""
        table, changed = self.table, self._changed()
        players = f"{self.players} players" + (" in cutthroat" if self.players == 4 else "")
        where = (f"{players} in two threes are sides of three partners" if table.partnerships
                 and not table.pairs else f"{players} have no partners (RULES.md §4.7)")
        if not table.pairs:
            clash = [k for k in changed if k in PAIR_KEYS]
            if clash == ["min_team_bid"] and not table.partnerships:
                clash = []  # "Without partners each player bids nil or at least k"
            if clash:
                raise UserError(f"{clash[0]} is written for two partners (RULES.md §4.4-4.6: "
                                f"\"{PAIR_KEYS[clash[0]]}\"); {where}", key=clash[0])
            if self.pass_cards is not None and self.pass_cards.direction == "partner":
                raise UserError(f"pass_cards to the partner (RULES.md §4.5) needs one partner; "
                                f"{where}", key="pass_cards")
        if not table.partnerships:
            clash = [k for k in changed if k in PARTNERSHIP_KEYS]
            if clash:
                raise UserError(f"{clash[0]} is written for partners (RULES.md §4.4-4.6: "
                                f"\"{PARTNERSHIP_KEYS[clash[0]]}\"); {where}", key=clash[0])
        if self.sides != 2:
            clash = [k for k in changed if k in TWO_SIDE_KEYS]
            if clash:
                raise UserError(f"{clash[0]} is written for two sides (RULES.md §4.4-4.6: "
                                f"\"{TWO_SIDE_KEYS[clash[0]]}\"); this table has "
                                f"{self.sides}", key=clash[0])
        if self.pass_cards is not None and self.pass_cards.count >= self.cards_each:
            raise UserError(f"pass_cards: {self.pass_cards.count} cards of {self.cards_each}",
                            key="pass_cards")

    def _check_bids(self) -> None:
        """RULES.md §4.4 keys that exclude each other or need another key."""
        self._check_side_contracts()
        self._check_scoring()
        self._refusals("bids")  # double_blind_nil without blind nil
        if self.pass_when != "after_bid" and self.pass_cards is None:
            raise UserError("pass_when needs pass_cards", key="pass_when")
        if self.nil_pass is not None and not self.nil:
            raise UserError("nil_pass needs nil = true", key="nil_pass")
        self._refusals("nil")  # double_nil without nil
        if self.suicide and not self.nil:
            raise UserError("suicide = true needs nil = true", key="suicide")
        for key in ("whiz", "mirror"):
            if getattr(self, key) and self.blind_nil:
                raise UserError(f"{key} allows no blind bids: set blind_nil = false", key=key)
        if self.whiz and self.mirror:
            raise UserError("whiz and mirror each fix the bid differently: choose one", key="mirror")
        fixed = "whiz" if self.whiz else "mirror" if self.mirror else None
        if fixed:  # the cards fix the bid: rules that could forbid it leave a player no bid
            if not self.nil:
                raise UserError(f"{fixed} needs nil = true (a player may hold no spade)",
                                key=fixed)
            clash = ["min_team_bid"] if self.min_team_bid is not None else []
            if fixed == "mirror":
                clash += [k for k in ("fledu", "suicide", "max_team_bid") if getattr(self, k)]
            if clash:
                raise UserError(f"{fixed} fixes each bid by the spades held, which {clash[0]} "
                                "may forbid, leaving a player no bid", key=fixed)
        if self.blind_bid_min_deficit != 100 and not self.blind_bids:
            raise UserError("blind_bid_min_deficit needs blind_bids = true",
                            key="blind_bid_min_deficit")
        for key in ("whiz", "mirror"):
            if getattr(self, key) and self.blind_bids:
                raise UserError(f"{key} allows no blind bids: set blind_bids = false", key=key)
        self._refusals("auction")  # the bid rules an auction replaces
        self._refusals("halves")  # half_trick_bids with a rule leaving no bid a half
        self._refusals("partners")  # partnership_bidding, no_nine_no_blind
        if self.suicide and self.min_team_bid is not None and (
                self.suicide_min_bid or 1) < self.min_team_bid:
            raise UserError("suicide forces a nil after a first bid below min_team_bid, which "
                            "min_team_bid forbids: set suicide_min_bid to at least it",
                            key="suicide")
        if self.suicide_min_bid is not None and not self.suicide:
            raise UserError("suicide_min_bid needs suicide = true", key="suicide_min_bid")
        if (self.min_team_bid is not None and self.max_team_bid is not None
                and self.min_team_bid > self.max_team_bid):
            raise UserError("min_team_bid is above max_team_bid: no side could bid",
                            key="min_team_bid")


register_preset("spades.standard", SpadesRules())
register_preset("spades.short", SpadesRules(target_score=250, bag_limit=5, bag_penalty=50))
# RULES.md §4.7 tables (and §4.2 jokers): the common shapes by name
register_preset("spades.cutthroat", SpadesRules(partnerships=False))
register_preset("spades.three", SpadesRules(players=3))
register_preset("spades.five", SpadesRules(players=5))
register_preset("spades.six", SpadesRules(players=6))
register_preset("spades.jokers", SpadesRules(jokers=2, trump_order="jokers_high"))
for _players in (6, 8):
    register_preset("spades.cancel" + ("8" if _players == 8 else ""), SpadesRules(
        players=_players, cancel_spades=True, blind_nil=False, target_score=None,
        mercy_score=None, max_hands=_players))
# OpenSpiel's `spades` (RULES.md §3): nil tricks count toward the contract, no blind nil, a team
# bids at most 13, spades are led only by a player holding nothing else; one hand from 0-0.
register_preset("spades.openspiel", replace(
    SpadesRules(), nil_tricks="count", blind_nil=False, max_team_bid=13, spades_broken="never",
    mercy_score=None, max_hands=1))
