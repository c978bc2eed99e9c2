"""One Spades hand for a batch of tables: bid, play 13 tricks, score (RULES.md §3)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..cards import SPADES, U64, Deck, pick
from ..tricks import TrickResult, play_tricks
from .bidding import BidResult, run_bidding
from .constraints import constraint_for
from .contracts import BIG_MO, LITTLE_MO
from .dealing import Dealt
from .decks import spades_deck
from .jokes import jokes_resolver
from .kitty import KittyResult, high_bidder, lowest_club_holder, take_kitty
from .passing import nil_pass_counts, pass_round
from .reveal import Reveals, reveal_trumps
from .rules import SpadesRules
from .scoring import HandScore, score_hands

__all__ = ["HandOutcome", "cancel_cards", "deck_for", "first_leader", "lead_rule_for", "play_hands"]


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
    # lead_ace_of_spades (RULES.md §4.3): the A♠ may be led before spades are broken
    ace = U64(1) << U64(deck.bit_of("AS")) if rules.lead_ace_of_spades else U64(0)

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
    """int8[N]: the left of the dealer leads (RULES.md §3); under ``mo_b`` a side that declared
    Mo leads: its first player in the rotation from the dealer's left (§4.4); under
    ``first_lead = "two_of_clubs" | "lowest_club"`` or ``first_trick_clubs`` the holder of the 2C
    / of the lowest club in ``hands`` (uint64[N, P]; §4.3; the lowest club dealt is the 2C if it
    is there), with two decks the first holder of it from the dealer's left (a reading, §4.7:
    both copies may be dealt)."""
    left = ((dealer + 1) % rules.players).astype(np.int8)
    if rules.first_lead != "left_of_dealer" or rules.first_trick_clubs:
        return lowest_club_holder(hands, dealer, deck)
    if not rules.mo_b:
        return left
    mo = (contracts == LITTLE_MO) | (contracts == BIG_MO)  # [N, S]: at most one side
    seats = (left[:, None] + np.arange(rules.players)) % rules.players  # from the dealer's left
    theirs = mo[np.arange(dealer.shape[0])[:, None], rules.table.side_of[seats]]
    return np.where(mo.any(axis=1), seats[np.arange(seats.shape[0]), np.argmax(theirs, axis=1)],
                    left).astype(np.int8)


@dataclass(frozen=True, eq=False)
class HandOutcome:
    """The bids, the play and the score of a batch of hands; ``scores_after``: int32[N, 2];
    ``passed``: uint64[N, 4] the cards each seat passed (RULES.md §4.5; 0 without passing) and
    ``held``: uint64[N, 4] the hands the play started from (the dealt ones without passing);
    ``cancel_card``: int8[N] the slot of the bag-cancelling card (RULES.md §4.6
    ``bag_cancel_card``; -1 without it); ``reveals``: the trump suit and who revealed or restored
    it (§4.2 ``seven_trump_reveal``); ``twice``: uint64[N, P] the cards of ``held`` held twice
    (two decks, §4.7; zeros with one deck); ``kitty``: its taker, cards and discard (§4.1)."""

    bidding: BidResult
    play: TrickResult
    score: HandScore
    scores_after: np.ndarray
    passed: np.ndarray
    held: np.ndarray
    cancel_card: np.ndarray
    reveals: Reveals
    twice: np.ndarray
    kitty: KittyResult


def _passes(when: str, hands, twice, bids, blind, scores, bags, lineup, rules, rng, deck,
            half=None):
    """The card passing due ``when`` ("before_bid" or "after_bid"): ``pass_cards`` at its
    ``pass_when``, then after the bidding ``nil_pass`` (RULES.md §4.5). Returns the hands after
    them, the cards they hold twice (two decks, §4.7) and the cards each seat passed.
    ``half``: the half bids (no nil, §4.4)."""

    passed = np.zeros_like(hands)
    context = dict(bids=bids, blind=blind, scores=scores, bags=bags, rules=rules, deck=deck)
    rounds = []
    partner = int(rules.table.partner_of(0)) if rules.table.pairs else None  # his seat minus
    if rules.pass_cards is not None and rules.pass_when == when:  # one's, mod P (§4.7 pairs)
        counts = np.full(hands.shape, rules.pass_cards.count, np.int8)
        offset = rules.pass_cards.offset
        rounds.append((counts, partner if rules.pass_cards.direction == "partner" else offset))
    if rules.nil_pass is not None and when == "after_bid":
        rounds.append((nil_pass_counts(bids, blind, rules, half), partner))
    two_decks = deck.copies == 2
    for counts, offset in rounds:
        hands, held_twice, cards = pass_round(hands, counts, offset, context, lineup, rng,
                                              twice if two_decks else None)
        twice = held_twice if two_decks else twice
        passed |= cards
    return hands, twice, passed


def play_hands(hands: np.ndarray, dealer: np.ndarray, scores: np.ndarray, bags: np.ndarray,
               lineup, rules: SpadesRules, rng: np.random.Generator,
               deck: Deck | None = None, passing: bool = True,
               dark_play: bool = True, progressive: np.ndarray | None = None,
               cancel_card: np.ndarray | None = None,
               reveals=None, dealt: Dealt | None = None, twice: np.ndarray | None = None,
               kitty: KittyResult | None = None) -> HandOutcome:
    """hands: uint64[N, 4] dealt cards; dealer: int8[N]; scores, bags: int32[N, 2] before the hand.
    The seat left of the dealer bids first and leads the first trick; spades are trump. Card
    passing (RULES.md §4.5) happens unless ``passing`` is false (a replayed record's hands are
    those after the passing); with ``dark_play`` false the engine does not draw the cards of a
    nil played in the dark (a replayed record gives them). progressive: int32[N, 2] the sides'
    progressive bonuses so far (RULES.md §4.6; None = none); cancel_card: int8[N] the
    bag-cancelling card of a replayed record (None: the rules' card, or under ``"cut"`` one drawn
    uniformly from ``rng``); reveals: a replayed record's trump reveals
    (`sim.spades.reveal.Reveals`; None: the players are asked, §4.2); dealt: the deal
    (`sim.spades.dealing.Dealt`: the cards dealt twice, face up — shown to every strategy, §4.1
    ``face_up_cards`` — and the kitty, which is then taken and discarded, §4.1); a replayed
    record gives instead ``twice`` (uint64[N, P], two decks) and its ``kitty`` (taker and
    discard: the hands are those after it)."""
    deck = deck or deck_for(rules)
    n = hands.shape[0]
    face_up = None if dealt is None else dealt.face_up
    if twice is None:
        twice = np.zeros_like(hands) if dealt is None else dealt.twice
    take = kitty is None and rules.kitty
    kitty = KittyResult.none(n) if kitty is None else kitty
    if take and rules.kitty_taker == "two_of_clubs":  # before the bidding (RULES.md §4.1)
        hands, twice, kitty = _kitty(hands, twice, dealt, lowest_club_holder(hands, dealer, deck),
                                     None, None, scores, bags, lineup, rules, rng, deck)
    if cancel_card is None:
        cancel_card = cancel_cards(rules, deck, n, rng)
    passed = np.zeros_like(hands)
    exchanges = passing and (rules.pass_cards is not None or rules.nil_pass is not None)
    if exchanges:
        unbid = np.full(hands.shape, -1, np.int8)
        hands, twice, passed = _passes("before_bid", hands, twice, unbid,
                                       np.zeros(hands.shape, bool), scores, bags, lineup, rules,
                                       rng, deck)
    public = {} if face_up is None or not rules.face_up_cards else {"face_up": face_up}
    if reveals is None:
        reveals = reveal_trumps(hands, dealer, scores, bags, rules, deck, lineup, rng, public,
                                twice)
    told = {**public, "trump_suit": reveals.trump} if rules.seven_trump_reveal else public
    if rules.kitty and rules.kitty_taker == "two_of_clubs":  # the taker is known (§4.1)
        told = {**told, "kitty_taker": kitty.taker}
    bidding = run_bidding(hands, dealer, scores, bags, rules, deck, lineup, rng, told,
                          twice if deck.copies == 2 else None)
    if take and rules.kitty_taker == "high_bidder":  # after the bidding (RULES.md §4.1)
        hands, twice, kitty = _kitty(hands, twice, dealt, high_bidder(bidding.bids, dealer),
                                     bidding.bids, bidding.blind, scores, bags, lineup, rules,
                                     rng, deck)
    if exchanges:
        hands, twice, later = _passes("after_bid", hands, twice, bidding.bids, bidding.blind,
                                      scores, bags, lineup, rules, rng, deck, bidding.half)
        passed |= later
    trump = deck.suit_masks[reveals.trump]  # spades unless a suit was revealed (§4.2)
    context = dict(bids=bidding.bids, blind=bidding.blind, scores=scores, bags=bags, rules=rules,
                   contracts=bidding.contracts, bemo=bidding.bemo, no_trump=bidding.no_trump,
                   **public)
    play = play_tricks(hands, first_leader(dealer, bidding.contracts, rules, hands, deck),
                       trump, deck, lead_rule_for(rules, deck, trump), lineup, rng, context,
                       no_trump=bidding.no_trump if rules.no_trump_bids else None,
                       dark=bidding.dark if rules.nil_in_the_dark and dark_play else None,
                       constraint=constraint_for(rules, deck),
                       twice=twice if deck.copies == 2 else None,
                       resolve=jokes_resolver(rules, deck))
    if rules.kitty_extra_trick:  # the taker's discard is one trick won (RULES.md §4.1)
        tricks = play.tricks.copy()
        tricks[np.arange(n), kitty.taker] += 1
        play = replace(play, tricks=tricks)
    score = score_hands(bidding.bids, bidding.blind, play.tricks, bags, rules,
                        bidding.contracts, bidding.bemo, play.winners, bidding.no_trump,
                        bidding.dark, bidding.auction, bidding.half, plays=play.plays,
                        seats=play.seats, progressive=progressive, cancel_card=cancel_card,
                        deck=deck)
    return HandOutcome(bidding=bidding, play=play, score=score,
                       scores_after=scores + score.points, passed=passed, held=hands,
                       cancel_card=cancel_card, reveals=reveals, twice=twice, kitty=kitty)


def _kitty(hands, twice, dealt, taker, bids, blind, scores, bags, lineup, rules, rng, deck):
    """The kitty taken by ``taker`` and the discard (RULES.md §4.1, `sim.spades.kitty`)."""
    if bids is None:
        bids = np.full(hands.shape, -1, np.int8)
        blind = np.zeros(hands.shape, bool)
    context = dict(bids=bids, blind=blind, scores=scores, bags=bags, rules=rules, deck=deck)
    hands, twice, discards = take_kitty(hands, twice, dealt.kitty, dealt.kitty_twice, taker,
                                        context, lineup, rng)
    return hands, twice, KittyResult(taker=taker, cards=dealt.kitty,
                                     cards_twice=dealt.kitty_twice, discards=discards)


def cancel_cards(rules: SpadesRules, deck: Deck, n: int, rng: np.random.Generator) -> np.ndarray:
    """int8[N]: the slot of each hand's bag-cancelling card (RULES.md §4.6 ``bag_cancel_card``):
    the named card, or under ``"cut"`` a card drawn uniformly per deal; -1 without the rule."""
    if rules.bag_cancel_card is None:
        return np.full(n, -1, np.int8)
    if rules.bag_cancel_card != "cut":
        return np.full(n, deck.bit_of(rules.bag_cancel_card), np.int8)
    slots = np.flatnonzero([bool(name) for name in deck.names])
    return slots[rng.integers(0, slots.size, n)].astype(np.int8)
