"""Spades hand scoring (RULES.md §3, §4.4, §4.6): one pure, vectorised function composed of named
parts.

Inputs are per seat ``[N, P]``; outputs per side ``[N, S]`` (the table of RULES.md §4.7,
`sim.spades.table`: four players' side 0 = seats 0 and 2, side 1 = seats 1 and 3; without
partners each seat is its own side).

`score_hands` gathers the hand's facts (`Facts`), starts a `Tally` with the standard game's
contract and bags, and hands it to each part of `PARTS` in turn; a part that belongs to a house
rule (RULES.md §4.6) returns at once when its rule is off, so a new rule adds a part and never
forks the function.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..cards import Deck, standard_deck
from . import contracts as sc
from . import house
from .rules import SpadesRules
from .table import Table

__all__ = ["COMPONENTS", "HandScore", "score_hands"]

# the parts of `points`: contract (made/set and every way of scoring it), overtricks (the bags'
# price under the rules in force), bag_penalty, nil, bemo, bonus (exact_pair_bonus, seven_plus,
# highlander's 7+ bonus), trick_bonus (the card bonuses of RULES.md §4.6)
COMPONENTS = ("contract", "overtricks", "bag_penalty", "nil", "bemo", "bonus", "trick_bonus")



@dataclass(frozen=True, eq=False)
class HandScore:
    """All int32[N, 2] per side: the parts, their sum ``points``, ``bags_taken`` (the bags taken
    this hand as the standard game counts them, whatever the rules make them worth; before any
    ``bag_cancel_card``), the running bag count and progressive-bonus count after the hand;
    ``wins_game``: int8[N], the side that won the game at once (``moon``, ``lexington``), -1."""

    contract: np.ndarray
    overtricks: np.ndarray
    bag_penalty: np.ndarray
    nil: np.ndarray
    bemo: np.ndarray
    bonus: np.ndarray
    trick_bonus: np.ndarray
    bags_taken: np.ndarray
    bags_after: np.ndarray
    progressive_after: np.ndarray
    wins_game: np.ndarray

    @property
    def points(self) -> np.ndarray:
        return sum(getattr(self, name) for name in COMPONENTS)

    def components(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in COMPONENTS}


@dataclass(frozen=True, eq=False)
class Facts:
    """What the hand's score depends on. Per seat [N, 4]: ``bids`` (int32; 0 = nil, a
    0-and-a-half, or no bid), ``blind``, ``tricks`` (int32), ``is_nil``, ``half``, ``flags`` (the
    house rules', e.g. ``dark``, ``no_trump``), ``declared`` (the seat bid on its own: not a
    side contract's or a joint bid's partner); per side [N, 2]: ``bid`` the contract
    (ordinary bids, two halves make a trick), ``taken`` the tricks counted toward it (a nil
    bidder's only under ``nil_tricks = "count"``), ``nil_tricks`` the tricks of its nil
    bidders, ``codes`` and ``bemo`` (`sim.spades.contracts`), ``progressive``; per
    hand: ``winners`` int8[N, 13], ``plays`` and ``seats`` int8[N, 52] (slot and seat of every
    card in order; None on a score sheet), ``state`` the plug-ins' hand state (``cancel_card``
    int8[N], -1 = none: `sim.spades.house.STATE`), ``auction`` the auction's outcome
    (``auction``, scored by its plug-in; else None)."""

    rules: SpadesRules
    table: Table
    deck: Deck
    bids: np.ndarray
    declared: np.ndarray
    blind: np.ndarray
    tricks: np.ndarray
    is_nil: np.ndarray
    half: np.ndarray | None
    flags: dict  # the house rules' flags, bool[N, 4] each (`sim.spades.house.DECLARED`)
    bid: np.ndarray
    taken: np.ndarray
    nil_tricks: np.ndarray
    codes: np.ndarray
    bemo: np.ndarray | None
    progressive: np.ndarray
    winners: np.ndarray | None
    plays: np.ndarray | None
    seats: np.ndarray | None
    state: dict
    auction: object = None  # `sim.spades.house.auction.AuctionResult` under ``auction``

    @property
    def n(self) -> int:
        return self.bids.shape[0]

    @property
    def ordinary(self) -> np.ndarray:
        """bool[N, 2]: the side plays an ordinary contract (bids, no side contract)."""
        return (self.codes == 0) & (self.bid > 0)

    def side(self, x: np.ndarray) -> np.ndarray:
        """int32[N, S]: per-seat values summed over each side's seats."""
        return self.table.per_side(x)

    @property
    def individual(self) -> np.ndarray:
        """bool[N, S]: every partner bid on his own."""
        return self.side(self.declared.astype(np.int32)) == self.table.players // self.table.sides


@dataclass(eq=False)
class Tally:
    """The score being built, int32[N, S] per side: the components, ``bags`` (the bags counted
    this hand: priced and added to the running count by `_bags`), ``opponents``
    (``set_to_opponents``: what the other side fell short), ``made``: bool[N, S] the contract
    stands, ``bags_taken`` and ``progressive``."""

    contract: np.ndarray
    bags: np.ndarray
    made: np.ndarray
    bags_taken: np.ndarray
    progressive: np.ndarray
    overtricks: np.ndarray = None
    nil: np.ndarray = None
    bemo: np.ndarray = None
    bonus: np.ndarray = None
    trick_bonus: np.ndarray = None
    bag_penalty: np.ndarray = None
    opponents: np.ndarray = None
    bags_after: np.ndarray = None
    wins_game: np.ndarray = None

    def __post_init__(self):
        for name in ("overtricks", "nil", "bemo", "bonus", "trick_bonus", "bag_penalty",
                     "opponents"):
            if getattr(self, name) is None:
                setattr(self, name, np.zeros(self.contract.shape, np.int32))
        if self.wins_game is None:  # no side won the game at once (RULES.md §4.4)
            self.wins_game = np.full(self.contract.shape[0], -1, np.int8)

    def pay_progressive(self, earned: np.ndarray) -> None:
        """A progressive bonus to the sides that ``earned`` it (bool[N, S]): 10 the first time
        in the game, 20 the second, +10 each time (RULES.md §4.6 ``seven_plus``,
        ``highlander``)."""
        self.progressive = self.progressive + earned
        self.bonus = self.bonus + 10 * self.progressive * earned

    def count_bags(self, before: np.ndarray, rules) -> None:
        """Add the hand's ``bags`` to the running count ``before`` (int32[N, S]): each time it
        reaches ``bag_limit``, ``bag_penalty`` is lost and the count drops by ``bag_limit``
        (RULES.md §3); sets ``bag_penalty`` and ``bags_after``."""
        running = before + self.bags
        times = running // rules.bag_limit
        self.bag_penalty = -rules.bag_penalty * times
        self.bags_after = running - times * rules.bag_limit


def score_hands(bids: np.ndarray, blind: np.ndarray, tricks: np.ndarray, bags_before: np.ndarray,
                rules: SpadesRules, contracts: np.ndarray | None = None,
                bemo: np.ndarray | None = None, winners: np.ndarray | None = None,
                flags: dict | None = None, auction=None, half: np.ndarray | None = None, *,
                plays=None, seats=None, progressive: np.ndarray | None = None,
                state: dict | None = None, deck: Deck | None = None) -> HandScore:
    """Score N hands. bids: int8[N, 4] (0 = nil, -1 = no bid: a side contract's partners); blind:
    bool[N, 4]; tricks: int8[N, 4]; bags_before: int[N, 2] the sides' running bag counts; contracts,
    bemo: int8[N, 2] the side contracts and bemos (RULES.md §4.4, codes of `sim.spades.contracts`;
    None = none); winners: int8[N, 13] who won each trick (needed by Mo and bemo; None on a score
    sheet); flags: the house rules' flags (`sim.spades.bidding.BidResult.flags`, bool[N, 4] each:
    ``no_trump`` bids of "no trump", each of their bid tricks scores 20 if the side's contract is
    made, -20 if set; ``dark`` nils played in the dark, scored as blind nil, a blind one as Big Mo,
    250; RULES.md §4.4); auction: `sim.spades.auction.AuctionResult` under ``auction`` (scored by
    its plug-in's ``own_scoring``: its points in ``contract``; no bags, nil or bag penalty); half:
    bool[N, 4] bids of n and a half (``half_trick_bids``: a side's two halves make one trick of its
    contract; 0 and a half is no nil); plays, seats: int8[N, 52] the slot and the seat of every card
    in order of play (the trick bonuses and ``bag_cancel_card`` need them; None on a score sheet);
    progressive: int[N, 2] the progressive bonuses each side earned earlier in the game
    (``seven_plus = "progressive"``, ``highlander``); state: the plug-ins' hand state
    (`sim.spades.house.STATE`: ``cancel_card`` int8[N] the slot of the bag-cancelling card,
    ``bag_cancel_card``); deck: the card layout of ``plays`` (default the standard deck)."""
    n = bids.shape[0]
    progressive = (np.zeros((n, rules.sides), np.int32) if progressive is None
                   else progressive.astype(np.int32))
    facts = _facts(bids, blind, tricks, rules, contracts, bemo, winners, flags, half,
                   plays, seats, progressive, state, deck or standard_deck(), auction)
    _needs_the_play(facts)
    own = next((rule.own_scoring for rule in house.in_force(rules) if rule.own_scoring), None)
    if own is not None:  # a game of its own (cancel_spades) or an auction's contract
        tally = Tally(progressive=facts.progressive.copy(),
                      **own(facts, bags_before.astype(np.int32)))
    else:
        tally = _standard(facts)
        for part in parts_for(rules):
            part(tally, facts)
        _bags(tally, facts, bags_before)
    _trick_bonuses(tally, facts)
    return HandScore(**{name: np.asarray(getattr(tally, name), dtype=np.int32)
                        for name in (*COMPONENTS, "bags_taken", "bags_after")},
                     progressive_after=tally.progressive.astype(np.int32),
                     wins_game=tally.wins_game)


def _facts(bids, blind, tricks, rules, contracts, bemo, winners, flags, half, plays,
           seats, progressive, state, deck, auction) -> Facts:
    n = bids.shape[0]
    table = rules.table
    per_side = table.per_side
    tricks = tricks.astype(np.int32)
    is_nil = bids == 0 if half is None else (bids == 0) & ~half
    ordinary = np.maximum(bids, 0).astype(np.int32)
    bid = per_side(ordinary)
    if half is not None:  # two halves make a trick (half_trick_bids)
        bid = bid + per_side(half.astype(np.int32)) // 2
    counts = ~is_nil if rules.nil_tricks != "count" else np.ones_like(is_nil)
    codes = np.zeros((n, table.sides), np.int8) if contracts is None else contracts.astype(np.int8)
    for rule in house.in_force(rules):  # tens_are_wheels: a side bid of 10 is a wheel
        if rule.bid_contract:
            codes = rule.bid_contract(codes, ordinary, is_nil, table)
    return Facts(rules=rules, table=table, deck=deck, bids=ordinary, declared=bids >= 0, blind=blind,
                 tricks=tricks, is_nil=is_nil, half=half, flags=house.no_flags(n, bids.shape[1], flags),
                 bid=bid,
                 taken=per_side(tricks * counts), nil_tricks=per_side(tricks * is_nil),
                 codes=codes, bemo=bemo,
                 progressive=progressive, winners=winners, plays=plays, seats=seats,
                 state=house.no_state(n, state, bids.shape[1]), auction=auction)


# the keys of the trick bonuses (RULES.md §4.6), and of every rule scored from the cards of the
# tricks (refused on a score sheet)
TRICK_BONUSES = tuple(rule.key for rule in house.HOUSE_RULES if rule.trick_bonus)
FROM_PLAYS = tuple(rule.key for rule in house.HOUSE_RULES if rule.trick_bonus or rule.from_plays)


def _needs_the_play(f: Facts) -> None:
    """A rule scored from the cards of the tricks cannot score a score sheet (RULES.md §5)."""
    if f.plays is not None:
        return
    for key in FROM_PLAYS:
        if getattr(f.rules, key):
            raise ValueError(f"{key} is scored from the cards of the tricks: give the plays")


def _standard(f: Facts) -> Tally:
    """The partnership contract (RULES.md §3): +10 per bid trick and 1 per overtrick if made,
    else -10 per bid trick; a side whose partners both bid nil has contract 0 (every counted trick
    is an overtrick); a blind bid's: the ``blind_bids`` plug-in, the first slot of `PARTS`. Under
    ``nil_tricks =
    "bags_only"`` every trick of a nil bidder is a bag."""
    made = f.taken >= f.bid
    contract = 10 * f.bid * (2 * made - 1)
    bags = (f.taken - f.bid) * made
    nil_bags = f.nil_tricks if f.rules.nil_tricks == "bags_only" else 0
    return Tally(contract=contract, bags=bags, made=made, bags_taken=bags + nil_bags,
                 progressive=f.progressive.copy())


# ----------------------------------------------------------------- the parts, in order of use
def _nil_bags(t: Tally, f: Facts) -> None:
    """``nil_tricks = "bags_only"``: every trick of a nil bidder is one bag (RULES.md §3)."""
    t.bags = t.bags + f.nil_tricks


def _nil(t: Tally, f: Facts) -> None:
    """Each nil bidder: ±nil_bonus (blind: ±blind_nil_bonus), + when he took no trick (a nil in
    the dark as blind nil, a blind one in the dark as Big Mo). (A side's two nils scored
    together, RULES.md §4.4, and ``three_b``'s 10 per nil trick: their plug-ins, the slots after
    this one.)"""
    rules = f.rules
    bonus = rules.nil_bonus + (rules.blind_nil_bonus - rules.nil_bonus) * f.blind
    for rule in house.in_force(rules):  # a plug-in's nil (nil_in_the_dark)
        if rule.nil_bonus is not None:
            bonus = rule.nil_bonus(f, bonus)
    sign = 2 * (f.tricks == 0) - 1
    t.nil = f.side(f.is_nil * bonus * sign)


def _side_contracts(t: Tally, f: Facts) -> None:
    """RULES.md §4.4 side contracts (team nil, wheels, Mo, blind six, blind moon) replace the
    side's contract, bags and nil; bemo is scored on top; each scored by its plug-in's
    ``contract`` (`sim.spades.house`)."""
    if not ((f.codes != 0).any() or (f.bemo is not None and (f.bemo != 0).any())):
        return
    parts = [rule.contract for rule in house.in_force(f.rules) if rule.contract]
    taken = f.side(f.tricks)
    side_of = f.table.side_of
    for side in range(f.table.sides):
        won = None if f.winners is None else side_of[f.winners.astype(np.intp)] == side
        has = f.codes[:, side] != 0
        pts, extra, wins = sc.contract_points(f.codes[:, side], taken[:, side], won, f.rules,
                                              parts)
        for name, value in (("contract", pts), ("bags", extra), ("bags_taken", extra),
                            ("nil", 0), ("overtricks", 0), ("made", pts >= 0)):
            column = getattr(t, name)
            column[:, side] = np.where(has, value, column[:, side])
        t.wins_game = np.where(wins, side, t.wins_game).astype(np.int8)
        if f.bemo is not None:
            t.bemo[:, side] = sc.contract_points(f.bemo[:, side], taken[:, side], won,
                                                 f.rules, parts)[0]


def _bags(t: Tally, f: Facts, bags_before) -> None:
    """Price the hand's bags and add them to the running count: the standard game's a point
    each, and each time the count reaches ``bag_limit``, ``bag_penalty`` is lost and the count
    drops by ``bag_limit``; extra bags carry over (RULES.md §3). Where no bag is counted
    (`SpadesRules.bagless`: the overtricks are priced in ``overtricks`` already, or free) the
    hand has none. A plug-in's ``bags`` prices and counts them its own way (RULES.md §4.6)."""
    rules = f.rules
    before = bags_before.astype(np.int32)
    t.contract = t.contract + t.opponents
    if rules.bagless:
        t.bags = np.zeros_like(t.bags)  # no bags at all, a wheel's above 10 included (§4.6)
    for rule in house.in_force(rules):
        if rule.bags is not None:
            rule.bags(t, f, before)
            return
    t.overtricks = t.overtricks + t.bags
    t.count_bags(before, rules)


# The parts after the standard contract, slot by slot in order, each core part with the rules
# under which it scores anything; a plug-in of `sim.spades.house` fills the slots it names.
# `parts_for` keeps those in force, so a rule that is off runs no code.
PARTS = {
    "blind_bid": None,  # blind_bids: 20 per blind bid trick made, no overtricks
    # the ways of scoring an ordinary contract (RULES.md §4.6), at most one of the first three;
    # what they call made (``Tally.made``) the later ones see
    "exact": None,  # exact
    "three_b": None,  # three_b
    "quicksand": None,  # quicksand
    "double_over": None,  # double_over (under highlander: highlander's own)
    "set_to_opponents": None,  # set_to_opponents
    "no_minus": None,  # no_minus (under highlander: highlander's own)
    "highlander": None,  # highlander
    "no_trump": None,  # no_trump_bids
    "nil_bags": (_nil_bags, lambda r: r.nil_tricks == "bags_only"),
    "book_made": None,  # book_made
    "lexington": None,  # lexington_points
    "nil": (_nil, lambda r: True),
    # a side's two nils scored together (RULES.md §4.4)
    "double_nil": None,  # double_nil
    "double_blind_nil": None,  # double_blind_nil
    "three_b_nil": None,  # three_b: a nil bidder's tricks cost 10 each
    # who wins the game at once (RULES.md §4.4; a later one over an earlier in the same hand)
    "double_blind_nil_wins": None,  # double_blind_nil_reward = "win"
    "moon": None,  # moon
    "lexington_wins": None,  # lexington
    "side_contracts": (_side_contracts, lambda r: True),  # a score sheet's codes: see the part
    "seven_plus": None,  # seven_plus
    "exact_pair_bonus": None,  # exact_pair_bonus
    "bag_cancel": None,  # bag_cancel_card
}


@functools.cache
def parts_for(rules: SpadesRules) -> tuple:
    """The scoring parts under ``rules``: `PARTS` in force and the plug-ins'."""
    plugged = {slot: part for rule in house.in_force(rules) for slot, part in rule.score.items()}
    return tuple(plugged[slot] if slot in plugged else core[0]
                 for slot, core in PARTS.items()
                 if slot in plugged or core is not None and core[1](rules))


@dataclass(eq=False)
class TrickCards:
    """The hand's tricks as the trick bonuses of RULES.md §4.6 look at them, and the bonuses
    awarded so far. Per hand: ``cards``, ``seats`` int16[N, T, P] the slot and the player of the
    j-th card of trick t; ``winners`` int16[N, T]; ``winning`` int16[N, T] each trick's winning
    card, ``suit`` and ``rank`` its effective suit (§4.2: a joker or a high deuce is a spade)
    and natural rank (2..A = 0..12, -1 for a joker); per slot of the deck ``suit_of`` and
    ``rank_of``; ``nine`` the slot of 9♠; ``points`` int32[N, P] the bonuses per seat."""

    cards: np.ndarray
    seats: np.ndarray
    winners: np.ndarray
    winning: np.ndarray
    suit: np.ndarray
    rank: np.ndarray
    suit_of: np.ndarray
    rank_of: np.ndarray
    nine: int
    points: np.ndarray

    @classmethod
    def of(cls, f: Facts) -> TrickCards:
        plays, seats, winners = (x.astype(np.int16) for x in (f.plays, f.seats, f.winners))
        n, n_tricks, players = f.n, winners.shape[1], f.table.players
        cards = plays.reshape(n, n_tricks, players)  # [:, t, j]: the j-th card of trick t
        seats = seats.reshape(n, n_tricks, players)
        # the winner played (winner - leader) mod P places after the leader
        at = (winners - seats[:, :, 0]) % players
        winning = np.take_along_axis(cards, at[:, :, None], axis=2)[:, :, 0]
        deck = f.deck
        rank_of = np.where((deck.natural >= 0) & (deck.natural < 52), deck.natural % 13, -1)
        suit_of = deck.suit_of_bit.astype(np.intp)
        return cls(cards=cards, seats=seats, winners=winners, winning=winning,
                   suit=suit_of[winning], rank=rank_of[winning], suit_of=suit_of,
                   rank_of=rank_of, nine=deck.bit_of("9S"),
                   points=np.zeros((n, players), np.int32))

    @property
    def last(self) -> np.ndarray:
        """int16[N]: the last trick's winning card."""
        return self.winning[:, -1]

    @property
    def win_last(self) -> np.ndarray:
        """int16[N]: the last trick's winner."""
        return self.winners[:, -1]

    def award(self, seat: np.ndarray, value) -> None:
        """``value`` points to ``seat`` (intp[N], or [N, k] with values of that shape)."""
        points = (seat[..., None] == np.arange(self.points.shape[1])) * np.asarray(value)[..., None]
        self.points += points if points.ndim == 2 else points.sum(axis=1)


def _trick_bonuses(t: Tally, f: Facts) -> None:
    """RULES.md §4.6 trick bonuses, each to the side of the player who earns it: the plug-ins'
    ``trick_bonus`` parts (`sim.spades.house`: ``last_trick_bonus``, ``end_streak``, ``dix``,
    ``last_trick_ace``, ``last_trick_ace_nil``, ``last_trick_deuce``,
    ``last_trick_high_spade``), each awarding its points per seat on the hand's `TrickCards`."""
    bonuses = [rule.trick_bonus for rule in house.in_force(f.rules) if rule.trick_bonus]
    if not bonuses:
        return
    tricks = TrickCards.of(f)
    for bonus in bonuses:
        bonus(tricks, f)
    t.trick_bonus = t.trick_bonus + f.side(tricks.points)
