"""One Spades hand for a batch of tables: bid, play 13 tricks, score (RULES.md §3)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from .. import phases
from ..cards import SPADES, U64, Deck, pick
from ..phases import HandState, Phase, Seating
from ..tricks import PlaySetup, TrickResult
from . import house
from .bidding import (
    BidResult,
    BidState,
    complete_bidding,
    own_bidding,
    run_bidding,
    start_bidding,
)
from .constraints import constraint_for
from .dealing import Dealt
from .decks import spades_deck
from .passing import receiver_offset
from .rules import SpadesRules
from .scoring import HandScore, score_hands

__all__ = ["PHASES", "HandOutcome", "Phase", "Seating", "SpadesHand", "bid_state",
           "deck_for", "first_leader", "lead_rule_for", "pipeline", "play_hand", "play_setup",
           "start_hand"]


def deck_for(rules: SpadesRules) -> Deck:
    """The card layout of a rules value (RULES.md §4.2 card orders: `sim.spades.decks`)."""
    return spades_deck(rules)


def lead_rule_for(rules: SpadesRules, deck: Deck, trump: np.ndarray | None = None):
    """The leader's restriction under ``spades_broken`` (RULES.md §3). Returns
    ``lead(hand, broken) -> legal`` where ``broken: bool[N]`` says a spade was played to an
    earlier trick. A leader holding only spades may always lead one. ``trump``: uint64[N] the
    trump bits per hand when another suit replaced spades (a plug-in's ``trump``: §4.2
    ``seven_trump_reveal``; the rule is then about that suit)."""
    spades = deck.suit_masks[SPADES] if trump is None else trump
    # cards led before spades are broken (the plug-ins': lead_ace_of_spades, RULES.md §4.3)
    ace = U64(0)
    for rule in house.in_force(rules):
        if rule.leads:
            ace |= rule.leads(deck)

    def free(hand, broken):
        return hand

    def until_broken(hand, broken):
        others = hand & ~spades
        return pick(broken | (others == 0), hand, others | (hand & ace))

    def never(hand, broken):
        others = hand & ~spades
        return pick(others == 0, hand, others)

    until_broken.reason = "may not be led: spades are not broken and the leader holds other suits"
    never.reason = "may not be led: spades are led only by a player holding nothing else"
    return {True: until_broken, False: free, "never": never}[rules.spades_broken]


def first_leader(dealer: np.ndarray, contracts: np.ndarray, rules: SpadesRules,
                 hands: np.ndarray | None = None, deck: Deck | None = None) -> np.ndarray:
    """int8[N]: the left of the dealer leads (RULES.md §3), unless a plug-in names the first
    leader (`sim.spades.house`): under ``first_lead = "two_of_clubs" | "lowest_club"`` or
    ``first_trick_clubs`` the holder of the 2C / of the lowest club in ``hands`` (uint64[N, P];
    §4.3; the lowest club dealt is the 2C if it is there), with two decks the first holder of it
    from the dealer's left (a reading, §4.7: both copies may be dealt); under ``mo_b`` the side
    that declared Mo in ``contracts`` (§4.4)."""
    for rule in house.in_force(rules):  # first_lead, first_trick_clubs, mo_b
        if rule.first_leader:
            return rule.first_leader(hands, dealer, deck, contracts, rules)
    return ((dealer + 1) % rules.players).astype(np.int8)


@dataclass(frozen=True, eq=False)
class SpadesHand(HandState):
    """The state of a batch of Spades hands, one row per table (struct of arrays, batch axis
    first; P seats, S sides of `sim.spades.table`). A phase (`PHASES`) takes a state and returns
    a new one with what it decides filled in; nothing else changes it.

    Given at the start (`start_hand`): ``hands`` uint64[N, P] the cards each seat holds (after
    the kitty and the passing once those phases ran: the hands the play starts from), ``twice``
    uint64[N, P] the cards of ``hands`` held twice (two decks, §4.7; zeros with one deck),
    ``dealer`` int8[N], the standing before the hand ``scores`` and ``bags`` int32[N, S] and
    ``progressive`` int32[N, S] (§4.6; None = none), ``dealt`` the deal (`Dealt`: the kitty's
    cards of §4.1 and the plug-ins' values of the deal; None when replaying a record, whose
    hands are those after it).

    Filled in by the phases: ``house_state`` the plug-ins' state (`sim.spades.house.STATE`,
    name -> [N] or [N, P] array, starting from the deal's: ``redeals`` and ``face_up`` of
    §4.1; ``kitty_taker``, ``kitty``, ``kitty_twice``, ``kitty_discards`` the kitty taken,
    §4.1; ``cancel_card`` the bag-cancelling card's slot, §4.6; ``trump``, ``revealer``,
    ``restorer`` the trump reveals, §4.2), ``passed`` uint64[N, P] (the cards each seat passed,
    §4.5), ``bidding``, ``play`` and ``score``. A replayed record gives its kitty and cancel
    card at the start, in ``house_state`` (its reveals are asked again of the scripted players,
    like its bids). ``seen`` uint64[N, P]: the discards each seat saw drawing its hand (two
    players, §4.7; each seat's own row is in its views, ``discards``), None without a draw or
    when replaying a record (which keeps every discard, not which were seen)."""

    hands: np.ndarray
    twice: np.ndarray
    dealer: np.ndarray
    scores: np.ndarray
    bags: np.ndarray
    progressive: np.ndarray | None
    dealt: Dealt | None
    house_state: dict
    passed: np.ndarray
    bidding: BidResult | None = None
    play: TrickResult | None = None
    score: HandScore | None = None
    seen: np.ndarray | None = None


    @property
    def held(self) -> np.ndarray:
        """uint64[N, P]: the hands the play started from (the dealt ones without passing)."""
        return self.hands

    def public(self, rules: SpadesRules) -> dict:
        """The view fields every seat sees from the deal on: the plug-ins' (``public``: the
        face-up cards of §4.1 ``face_up_cards``)."""
        public = {}
        for rule in house.in_force(rules):
            if rule.public:
                public = {**public, **rule.public(self)}
        return public

    def told(self, rules: SpadesRules) -> dict:
        """What every seat is told before bidding: `public` and the plug-ins' (``told``: the
        trump suit of §4.2 ``seven_trump_reveal``, the kitty's taker when it is known before the
        bids, §4.1)."""
        told = self.public(rules)
        for rule in house.in_force(rules):
            if rule.told:
                told = {**told, **rule.told(self, rules)}
        return told

    def context(self, rules: SpadesRules, deck: Deck, bids=None, blind=None) -> dict:
        """The view fields of a decision before the play (`sim.views`): the bids so far (none:
        -1) and the standing."""
        if bids is None:
            bids = np.full(self.hands.shape, -1, np.int8)
            blind = np.zeros(self.hands.shape, bool)
        return dict(bids=bids, blind=blind, scores=self.scores, bags=self.bags, rules=rules,
                    deck=deck)


HandOutcome = SpadesHand  # a state whose phases have all run


def start_hand(hands: np.ndarray, dealer: np.ndarray, scores: np.ndarray, bags: np.ndarray,
               progressive: np.ndarray | None = None, dealt: Dealt | None = None,
               twice: np.ndarray | None = None, house_state: dict | None = None
               ) -> SpadesHand:
    """A state before any phase: a deal (``dealt``, whose plug-ins' values start the hand's
    state, or ``hands`` with ``twice`` and what a replayed record gives: its plug-ins' state
    ``house_state``, the kitty and the cancel card)."""
    n = hands.shape[0]
    given = {**(dealt.house if dealt is not None else {}), **(house_state or {})}
    if twice is None:
        twice = np.zeros_like(hands) if dealt is None else dealt.twice
    return SpadesHand(hands=hands, twice=twice, dealer=dealer, scores=scores, bags=bags,
                      progressive=progressive, dealt=dealt,
                      house_state=house.no_state(n, given, hands.shape[1]),
                      passed=np.zeros_like(hands), seen=None if dealt is None else dealt.seen)


# -- the phases (RULES.md §3, §4.1-4.6), in the order a hand runs them ------------------------

def _plugged(slot: str) -> Callable[[SpadesHand, Seating], SpadesHand]:
    """The phase of the slot ``slot``: the steps the plug-ins in force fill it with
    (`sim.spades.house.steps`; the kitty's: ``kitty``; ``cancel_card``: ``bag_cancel_card``;
    ``reveal``: ``seven_trump_reveal``; the passing slots: ``pass_cards``, then
    ``nil_pass``)."""
    def step(hand: SpadesHand, at: Seating) -> SpadesHand:
        for plugged in house.steps(at.rules, slot):
            hand = plugged(hand, at)
        return hand
    return step


def bid_state(hand: SpadesHand, at: Seating, bids: np.ndarray | None = None,
              blind: np.ndarray | None = None) -> BidState:
    """The hand's bidding before its first turn (`sim.spades.bidding.BidState`): what the `bid`
    phase plays, turn by turn; `sim.spades.bidding.bid_view` shows a seat's view at any turn.
    Given ``bids`` (int8[N, P], -1 = not yet) and ``blind``, the bidding at the turn of the
    first seat from the dealer's left that has not bid (`start_bidding`)."""
    return start_bidding(hand.hands, hand.dealer, hand.scores, hand.bags, at.rules,
                         hand.told(at.rules), hand.twice if at.deck.copies == 2 else None,
                         bids=bids, blind=blind, seen=hand.seen, progressive=hand.progressive,
                         exchanged=_exchanged(hand, at.rules)
                         if house.fills(at.rules, "pass_before_bids") else None)


def _bid(hand: SpadesHand, at: Seating) -> SpadesHand:
    """§3 and §4.4: every seat's bid and declarations (`sim.spades.bidding`)."""
    if own_bidding(at.rules) is not None:  # a plug-in's own (§4.4: an auction instead)
        bidding = run_bidding(hand.hands, hand.dealer, hand.scores, hand.bags, at.rules,
                              at.deck, at.lineup, at.rng, hand.told(at.rules))
    else:
        bidding = complete_bidding(bid_state(hand, at), at.rules, at.deck, at.lineup, at.rng)
    return replace(hand, bidding=bidding)


def play_setup(hand: SpadesHand, at: Seating) -> PlaySetup:
    """How the hand's play runs (`sim.tricks.PlaySetup`), once its bidding is done: §3 and
    §4.2-4.3, the play rules in force (the `play` phase runs it; a position of the play is
    rebuilt from it, `sim.spades.position`)."""
    rules, deck, b = at.rules, at.deck, hand.bidding
    plugins = house.in_force(rules)
    suits = np.full(hand.n, SPADES, np.int8)  # spades unless a plug-in makes another suit trump
    for rule in plugins:  # (seven_trump_reveal, RULES.md §4.2)
        if rule.trump:
            suits = rule.trump(hand)
    trump = deck.suit_masks[suits]
    passing = any(house.fills(rules, slot) for slot in ("pass_before_bids", "pass_after_bids"))
    context = dict(bids=b.bids, blind=b.blind, scores=hand.scores, bags=hand.bags, rules=rules,
                   dealer=hand.dealer, contracts=b.contracts, bemo=b.bemo, **hand.public(rules),
                   **_private(hand, rules if passing else None), **_standing(hand, rules),
                   **{k: v for rule in plugins if rule.shows for k, v in rule.shows(b).items()})
    plugged = {k: v for rule in plugins if rule.play
               for k, v in rule.play(b, at.replay).items()}
    resolve = None  # the play's own trick resolution (jokes_win: jokes_tie, RULES.md §4.2)
    void_rule = None  # a rule's own reading of the voids (first_trick_lowest_club, §4.3)
    for rule in plugins:
        if rule.resolve:
            resolve = rule.resolve(rules, deck)
        if rule.void_rule:
            void_rule = rule.void_rule
    return PlaySetup(hands=hand.hands,
                     leader=first_leader(hand.dealer, b.contracts, rules, hand.hands, deck),
                     trump=trump, deck=deck, lead_rule=lead_rule_for(rules, deck, trump),
                     context=context, **plugged, constraint=constraint_for(rules, deck),
                     twice=hand.twice if deck.copies == 2 else None, resolve=resolve,
                     void_rule=void_rule)


def _private(hand: SpadesHand, passing: SpadesRules | None) -> dict:
    """The play's view fields each seat sees of its own only (`sim.tricks.play_view`'s
    ``private``): the cards exchanged (`_exchanged`, ``passing`` the rules under an exchange of
    cards, §4.5), the discards it saw drawing its hand (§4.7)."""
    private = {} if passing is None else _exchanged(hand, passing)
    if hand.seen is not None:
        private["discards"] = hand.seen
    return {"private": private} if private else {}


def _exchanged(hand: SpadesHand, rules: SpadesRules) -> dict:
    """The cards each seat passed (§4.5) and, where one exchange is made, those passed to it
    (the passer's, `receiver_offset` seats before it): name -> uint64[N, P], by seat."""
    out = {"passed": hand.passed}
    if not (rules.pass_cards and rules.nil_pass):  # (two exchanges: whose is unsaid)
        players = hand.passed.shape[1]
        offset = receiver_offset(rules, nil=bool(rules.nil_pass))
        out["received"] = hand.passed[:, [(s - offset) % players for s in range(players)]]
    return out


def _standing(hand: SpadesHand, rules: SpadesRules) -> dict:
    """The standing's view fields beside the scores and bags: the progressive bonuses each side
    has earned (§4.6), under a rule that pays one."""
    if rules.progressive and hand.progressive is not None:
        return {"progressive": hand.progressive}
    return {}


def _play(hand: SpadesHand, at: Seating) -> SpadesHand:
    """§3 and §4.2-4.3: the tricks (`sim.tricks.play_tricks`) under the play rules in force."""
    return replace(hand, play=play_setup(hand, at).run(at.lineup, at.rng))


def _score(hand: SpadesHand, at: Seating) -> SpadesHand:
    """§3, §4.4, §4.6: the hand's score (`sim.spades.scoring`)."""
    b, play = hand.bidding, hand.play
    score = score_hands(b.bids, b.blind, play.tricks, hand.bags, at.rules, b.contracts, b.bemo,
                        play.winners, b.flags, b.auction, b.half, plays=play.plays,
                        seats=play.seats, progressive=hand.progressive,
                        state=hand.house_state, deck=at.deck)
    return replace(hand, score=score)


# Every phase of a Spades hand in order; the pipeline of a block keeps those its rules run.
PHASES = (
    Phase("kitty_before_bids", _plugged("kitty_before_bids"),
          lambda r: house.fills(r, "kitty_before_bids"), replayed=False),  # kitty
    Phase("cancel_card", _plugged("cancel_card"), lambda r: house.fills(r, "cancel_card"),
          replayed=False),  # bag_cancel_card
    Phase("pass_before_bids", _plugged("pass_before_bids"),
          lambda r: house.fills(r, "pass_before_bids"), replayed=False),  # pass_cards
    Phase("reveal", _plugged("reveal"), lambda r: house.fills(r, "reveal")),  # seven_trump_
    # reveal; a record's reveals are asked again
    Phase("bid", _bid),
    Phase("kitty_after_bids", _plugged("kitty_after_bids"),
          lambda r: house.fills(r, "kitty_after_bids"), replayed=False),  # kitty
    Phase("pass_after_bids", _plugged("pass_after_bids"),
          lambda r: house.fills(r, "pass_after_bids"), replayed=False),  # pass_cards, nil_pass
    Phase("play", _play),
    Phase("kitty_extra_trick", _plugged("kitty_extra_trick"),
          lambda r: house.fills(r, "kitty_extra_trick")),  # kitty (a record's is played again)
    Phase("score", _score),
)


def pipeline(rules: SpadesRules, replay: bool = False) -> tuple[Phase, ...]:
    """The phases of `PHASES` a hand under ``rules`` runs (`sim.phases.pipeline`)."""
    return phases.pipeline(PHASES, rules, replay)


def play_hand(hand: SpadesHand, at: Seating, steps: tuple[Phase, ...] | None = None
              ) -> SpadesHand:
    """Run ``steps`` (default: the `pipeline` of ``at``'s rules) over a state
    (`sim.phases.play_hand`: a state stopped after some phases resumes with the rest)."""
    return phases.play_hand(hand, at, pipeline(at.rules, at.replay) if steps is None else steps)
