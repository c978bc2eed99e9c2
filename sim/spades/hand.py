"""One Spades hand for a batch of tables: bid, play 13 tricks, score (RULES.md §3)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from .. import phases
from ..cards import SPADES, U64, Deck, pick
from ..phases import HandState, Phase, Seating
from ..tricks import TrickResult, play_tricks
from . import house
from .bidding import BidResult, BidState, complete_bidding, run_bidding, start_bidding
from .constraints import constraint_for
from .dealing import Dealt
from .decks import spades_deck
from .jokes import jokes_resolver
from .kitty import KittyResult, high_bidder, lowest_club_holder, take_kitty
from .passing import nil_pass_counts, pass_round
from .reveal import Reveals, reveal_trumps
from .rules import SpadesRules
from .scoring import HandScore, score_hands

__all__ = ["PHASES", "HandOutcome", "Phase", "Seating", "SpadesHand", "bid_state",
           "deck_for", "first_leader", "lead_rule_for", "pipeline", "play_hand", "start_hand"]


def deck_for(rules: SpadesRules) -> Deck:
    """The card layout of a rules value (RULES.md §4.2 card orders: `sim.spades.decks`)."""
    return spades_deck(rules)


def lead_rule_for(rules: SpadesRules, deck: Deck, trump: np.ndarray | None = None):
    """The leader's restriction under ``spades_broken`` (RULES.md §3). Returns
    ``lead(hand, broken) -> legal`` where ``broken: bool[N]`` says a spade was played to an
    earlier trick. A leader holding only spades may always lead one. ``trump``: uint64[N] the
    trump bits per hand when a revealed suit replaced spades (§4.2 ``seven_trump_reveal``: the
    rule is then about that suit)."""
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
    ``progressive`` int32[N, S] (§4.6; None = none), ``dealt`` the deal (`Dealt`: the face-up
    cards of §4.1 and the kitty; None when replaying a record, whose hands are those after it).

    Filled in by the phases: ``kitty`` (taker, cards, discard, §4.1), ``house_state`` the
    plug-ins' state (`sim.spades.house.STATE`: ``cancel_card`` int8[N], the bag-cancelling
    card's slot, §4.6; -1 without), ``passed`` uint64[N, P] (the cards each
    seat passed, §4.5), ``reveals`` (the trump suit, §4.2), ``bidding``, ``play`` and
    ``score``. A replayed record gives its kitty and cancel card at the start (its reveals are
    asked again of the scripted players, like its bids)."""

    hands: np.ndarray
    twice: np.ndarray
    dealer: np.ndarray
    scores: np.ndarray
    bags: np.ndarray
    progressive: np.ndarray | None
    dealt: Dealt | None
    kitty: KittyResult
    house_state: dict
    passed: np.ndarray
    reveals: Reveals
    bidding: BidResult | None = None
    play: TrickResult | None = None
    score: HandScore | None = None


    @property
    def held(self) -> np.ndarray:
        """uint64[N, P]: the hands the play started from (the dealt ones without passing)."""
        return self.hands

    def public(self, rules: SpadesRules) -> dict:
        """The view fields every seat sees before the play: the face-up cards (§4.1
        ``face_up_cards``)."""
        if self.dealt is None or not rules.face_up_cards:
            return {}
        return {"face_up": self.dealt.face_up}

    def told(self, rules: SpadesRules) -> dict:
        """What every seat is told before bidding: `public`, the trump suit (§4.2
        ``seven_trump_reveal``) and the kitty's taker when it is known before the bids (§4.1)."""
        told = self.public(rules)
        if rules.seven_trump_reveal:
            told = {**told, "trump_suit": self.reveals.trump}
        if rules.kitty and rules.kitty_taker == "two_of_clubs":
            told = {**told, "kitty_taker": self.kitty.taker}
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
               twice: np.ndarray | None = None, kitty: KittyResult | None = None,
               house_state: dict | None = None, reveals: Reveals | None = None
               ) -> SpadesHand:
    """A state before any phase: a deal (``dealt``, or ``hands`` with ``twice`` and what a
    replayed record gives: its ``kitty``, its plug-ins' state ``house_state`` (the cancel card)
    and ``reveals``)."""
    n = hands.shape[0]
    if twice is None:
        twice = np.zeros_like(hands) if dealt is None else dealt.twice
    return SpadesHand(hands=hands, twice=twice, dealer=dealer, scores=scores, bags=bags,
                      progressive=progressive, dealt=dealt,
                      kitty=KittyResult.none(n) if kitty is None else kitty,
                      house_state=house.no_state(n, house_state),
                      passed=np.zeros_like(hands),
                      reveals=Reveals.none(n) if reveals is None else reveals)


# -- the phases (RULES.md §3, §4.1-4.6), in the order a hand runs them ------------------------

def _kitty_before_bids(hand: SpadesHand, at: Seating) -> SpadesHand:
    """§4.1 ``kitty_taker = "two_of_clubs"``: the holder of the lowest club takes the kitty."""
    taker = lowest_club_holder(hand.hands, hand.dealer, at.deck)
    return _take_kitty(hand, at, taker, hand.context(at.rules, at.deck))


def _plugged(slot: str) -> Callable[[SpadesHand, Seating], SpadesHand]:
    """The phase of the slot ``slot``: the steps the plug-ins in force fill it with
    (`sim.spades.house`; ``cancel_card``: ``bag_cancel_card``)."""
    def step(hand: SpadesHand, at: Seating) -> SpadesHand:
        for rule in house.in_force(at.rules):
            if slot in rule.phases:
                hand = rule.phases[slot](hand, at)
        return hand
    return step


def _pass_before_bids(hand: SpadesHand, at: Seating) -> SpadesHand:
    """§4.5 ``pass_cards`` with ``pass_when = "before_bid"``."""
    return _passes("before_bid", hand, at, hand.context(at.rules, at.deck))


def _reveal(hand: SpadesHand, at: Seating) -> SpadesHand:
    """§4.2 ``seven_trump_reveal``: the players are asked, in bidding order."""
    reveals = reveal_trumps(hand.hands, hand.dealer, hand.scores, hand.bags, at.rules, at.deck,
                            at.lineup, at.rng, hand.public(at.rules), hand.twice)
    return replace(hand, reveals=reveals)


def bid_state(hand: SpadesHand, at: Seating) -> BidState:
    """The hand's bidding before its first turn (`sim.spades.bidding.BidState`): what the `bid`
    phase plays, turn by turn; `sim.spades.bidding.bid_view` shows a seat's view at any turn."""
    return start_bidding(hand.hands, hand.dealer, hand.scores, hand.bags, at.rules,
                         hand.told(at.rules), hand.twice if at.deck.copies == 2 else None)


def _bid(hand: SpadesHand, at: Seating) -> SpadesHand:
    """§3 and §4.4: every seat's bid and declarations (`sim.spades.bidding`)."""
    if at.rules.auction:  # §4.4: an auction instead of the bids
        bidding = run_bidding(hand.hands, hand.dealer, hand.scores, hand.bags, at.rules,
                              at.deck, at.lineup, at.rng, hand.told(at.rules))
    else:
        bidding = complete_bidding(bid_state(hand, at), at.rules, at.deck, at.lineup, at.rng)
    return replace(hand, bidding=bidding)


def _kitty_after_bids(hand: SpadesHand, at: Seating) -> SpadesHand:
    """§4.1 ``kitty_taker = "high_bidder"``: the highest bidder takes the kitty."""
    b = hand.bidding
    return _take_kitty(hand, at, high_bidder(b.bids, hand.dealer),
                       hand.context(at.rules, at.deck, b.bids, b.blind))


def _pass_after_bids(hand: SpadesHand, at: Seating) -> SpadesHand:
    """§4.5 ``pass_cards`` with ``pass_when = "after_bid"``, then ``nil_pass``."""
    b = hand.bidding
    return _passes("after_bid", hand, at, hand.context(at.rules, at.deck, b.bids, b.blind),
                   b.half)


def _play(hand: SpadesHand, at: Seating) -> SpadesHand:
    """§3 and §4.2-4.3: the tricks (`sim.tricks.play_tricks`) under the play rules in force."""
    rules, deck, b = at.rules, at.deck, hand.bidding
    trump = deck.suit_masks[hand.reveals.trump]  # spades unless a suit was revealed (§4.2)
    plugins = house.in_force(rules)
    context = dict(bids=b.bids, blind=b.blind, scores=hand.scores, bags=hand.bags, rules=rules,
                   contracts=b.contracts, bemo=b.bemo, **hand.public(rules),
                   **{k: v for rule in plugins if rule.shows for k, v in rule.shows(b).items()})
    plugged = {k: v for rule in plugins if rule.play
               for k, v in rule.play(b, at.replay).items()}
    play = play_tricks(hand.hands, first_leader(hand.dealer, b.contracts, rules, hand.hands,
                                                deck),
                       trump, deck, lead_rule_for(rules, deck, trump), at.lineup, at.rng, context,
                       **plugged,
                       constraint=constraint_for(rules, deck),
                       twice=hand.twice if deck.copies == 2 else None,
                       resolve=jokes_resolver(rules, deck))
    return replace(hand, play=play)


def _kitty_extra_trick(hand: SpadesHand, at: Seating) -> SpadesHand:
    """§4.1 ``kitty_extra_trick``: the taker's discard counts as one trick won."""
    tricks = hand.play.tricks.copy()
    tricks[np.arange(hand.n), hand.kitty.taker] += 1
    return replace(hand, play=replace(hand.play, tricks=tricks))


def _score(hand: SpadesHand, at: Seating) -> SpadesHand:
    """§3, §4.4, §4.6: the hand's score (`sim.spades.scoring`)."""
    b, play = hand.bidding, hand.play
    score = score_hands(b.bids, b.blind, play.tricks, hand.bags, at.rules, b.contracts, b.bemo,
                        play.winners, b.flags, b.auction, b.half, plays=play.plays,
                        seats=play.seats, progressive=hand.progressive,
                        state=hand.house_state, deck=at.deck)
    return replace(hand, score=score)


def _passes_when(when: str) -> Callable[[SpadesRules], bool]:
    return lambda r: (r.pass_cards is not None and r.pass_when == when
                      or when == "after_bid" and r.nil_pass is not None)


# Every phase of a Spades hand in order; the pipeline of a block keeps those its rules run.
PHASES = (
    Phase("kitty_before_bids", _kitty_before_bids,
          lambda r: r.kitty and r.kitty_taker == "two_of_clubs", replayed=False),
    Phase("cancel_card", _plugged("cancel_card"), lambda r: house.fills(r, "cancel_card"),
          replayed=False),  # bag_cancel_card
    Phase("pass_before_bids", _pass_before_bids, _passes_when("before_bid"), replayed=False),
    Phase("reveal", _reveal, lambda r: r.seven_trump_reveal),  # a record's reveals are asked
    Phase("bid", _bid),
    Phase("kitty_after_bids", _kitty_after_bids,
          lambda r: r.kitty and r.kitty_taker == "high_bidder", replayed=False),
    Phase("pass_after_bids", _pass_after_bids, _passes_when("after_bid"), replayed=False),
    Phase("play", _play),
    Phase("kitty_extra_trick", _kitty_extra_trick, lambda r: r.kitty_extra_trick),
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


def _passes(when: str, hand: SpadesHand, at: Seating, context: dict,
            half: np.ndarray | None = None) -> SpadesHand:
    """The card passing due ``when`` ("before_bid" or "after_bid"): ``pass_cards`` at its
    ``pass_when``, then after the bidding ``nil_pass`` (RULES.md §4.5); with two decks the cards
    held twice move with them (§4.7). ``half``: the half bids (no nil, §4.4)."""
    rules, hands, twice, passed = at.rules, hand.hands, hand.twice, hand.passed.copy()
    rounds = []
    partner = int(rules.table.partner_of(0)) if rules.table.pairs else None  # his seat minus
    if rules.pass_cards is not None and rules.pass_when == when:  # one's, mod P (§4.7 pairs)
        counts = np.full(hands.shape, rules.pass_cards.count, np.int8)
        offset = rules.pass_cards.offset
        rounds.append((counts, partner if rules.pass_cards.direction == "partner" else offset))
    if rules.nil_pass is not None and when == "after_bid":
        rounds.append((nil_pass_counts(context["bids"], context["blind"], rules, half), partner))
    two_decks = at.deck.copies == 2
    for counts, offset in rounds:
        hands, held_twice, cards = pass_round(hands, counts, offset, context, at.lineup, at.rng,
                                              twice if two_decks else None)
        twice = held_twice if two_decks else twice
        passed |= cards
    return replace(hand, hands=hands, twice=twice, passed=passed)


def _take_kitty(hand: SpadesHand, at: Seating, taker: np.ndarray, context: dict) -> SpadesHand:
    """The kitty taken by ``taker`` and the discard (RULES.md §4.1, `sim.spades.kitty`)."""
    dealt = hand.dealt
    hands, twice, discards = take_kitty(hand.hands, hand.twice, dealt.kitty, dealt.kitty_twice,
                                        taker, context, at.lineup, at.rng)
    kitty = KittyResult(taker=taker, cards=dealt.kitty, cards_twice=dealt.kitty_twice,
                        discards=discards)
    return replace(hand, hands=hands, twice=twice, kitty=kitty)
