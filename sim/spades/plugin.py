"""A Spades house rule as one plug-in (issue 19 item 2).

A `HouseRule` gathers what one rule of RULES.md §4 adds to the game: the decisions it asks in a
seat's bidding turn, what it changes in the trick play and in the score, the ``hands`` table's
columns and the record fields it brings. The engine's modules assemble their steps from
`sim.spades.house.HOUSE_RULES` once per rules value and run only the parts of the rules in
force: a rule that is off runs no code and writes no column. The rule's key itself is declared
(default, range, meaning) by the plug-in's ``OPTION``, which `sim.spades.rules.SpadesRules`
lists among its fields.

Layouts: turn steps have the form of `sim.spades.bidding.TURN_STEPS` (``step(turn, rules, deck,
lineup, rng)``, filling the turn's arrays); ``declares`` names the bool[N, P] arrays of the
bidding (``BidResult.flags``, ``Turn.flags``, ``BidState.flags``: one flag per row and seat)
the rule fills, which the table writes as ``<flag>_<seat>`` and the record under the same name;
``columns`` has the form of `sim.spades.tables.BROUGHT` (``<seat>``: one per seat).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

__all__ = ["HouseRule", "Seated"]


@dataclass(frozen=True)
class Seated:
    """A value of a plug-in's ``state`` kept per seat ([N, P], its columns ``<name>_<seat>``):
    its default."""

    default: np.generic


@dataclass(frozen=True)
class HouseRule:
    """One house rule: ``key`` (the rules key, RULES.md ``section``) and its parts.

    - ``in_force(rules) -> bool``: the rules switch it on;
    - ``turn``: steps of a seat's bidding turn, by the slot of `sim.spades.bidding.TURN_STEPS`
      they fill (the order is the rules' and fixes the order of the players' decisions);
    - ``declares``: the per-seat flags the bidding gives (``BidResult.flags``, record fields);
    - ``decisions``: decision name -> the flag its answer fills (a replayed record answers it);
    - ``bidding(hands, dealer, scores, bags, rules, deck, lineup, rng, public) -> dict``: the
      whole bidding round in its own way, in place of the seats' turns (`TURN_STEPS`) and the
      rounds after them: the fields of `sim.spades.bidding.BidResult` (``public``: the view
      fields every seat sees, `sim.spades.hand.SpadesHand.told`; the auction's);
    - ``after_bids(state, rules, deck, lineup, rng)``: a round after every seat's turn, on the
      bidding's `sim.spades.bidding.BidState` (``seats()``, ``seat_view``), which may change
      the bids and fill its flags;
    - ``as_bid(bids, flags) -> bids``: the bids as first made, from the final ones a record
      gives (a record holds the bids as they stand after ``after_bids``);
    - ``check(made, blind, flags, dealer, rules)``: on a score sheet, its flags are legal
      given the bids as first made (raises `sim.errors.IllegalBid`);
    - ``refuse(rules) -> UserError | None``: a combination of keys it cannot be played with,
      asked ``refuse_among`` the checks of `SpadesRules.check` ("scoring": after the scoring
      keys' own, "bags": first among the bag rules', "voided": first among those of a rule
      another leaves without effect, "bids": first among the bid keys' after the scoring's,
      "nil": among the keys that need nil, "deal": among the card layouts' where two players
      draw, "cards": among the card layouts', "order": among the card orders', "play": among the
      play rules', "kitty": after the tables' shapes, "tables": last among the big tables',
      "contracts": last among the side contracts', "auction": among the bid keys', where the
      auction's refusal stands, "halves": after the auction's, where the half bids' refusal
      stands, "partners": after the half bids', where the joint bid's refusals stand; the order
      decides which of two refusals of one rules table is reported);
    - ``ends_game(scores, rules) -> bool[N]``: a standing at which the game may end
      (`sim.spades.game.game_over`);
    - ``leads(deck) -> uint64``: cards a leader may lead before spades are broken;
    - ``first_leader(hands, dealer, deck, contracts, rules) -> int8[N]``: who leads trick 1
      (``contracts`` int8[N, S] the side contracts declared);
    - ``joint_bid(bids, seat, rules) -> uint32[N]``: the bids open to a side's joint bidder,
      in place of the seat's own and of the bid rules' (`sim.spades.bidding.bid_masks` asks
      the first plug-in in force that has one);
    - ``bids``: bid rules by the slot of `sim.spades.bidding.BID_RULES` they fill
      (``part(mask, at, rules) -> mask``, ``at`` a `sim.spades.bidmasks.BidSeat`: the bids
      open to the seat, narrowed); ``bans``: bid bans by the slot of ``BID_BANS``
      (``part(at, rules) -> mask`` of bids forbidden, each kept where no other bid is left);
      ``looks``: its bids depend on the cards held (the spades counted);
    - ``contracts``: the side contracts it offers (RULES.md §4.4), code of
      `sim.spades.contracts` -> the stage a side declares it at (`sim.spades.contracts.STAGES`:
      "blind", "sighted", "bemo"); ``contract(at)``: scores its codes on a
      `sim.spades.contracts.ContractScore` (``at.score``, ``at.bags``, ``at.wins``);
      ``contract_ban(stage, seat, bids, blind, contracts, rules) -> uint16[N]``: codes the
      seat's side may not declare at that stage; ``no_blind_nil(turn, rules) -> bool[N]``: the
      seat to bid may not bid blind nil (the turn's ``blind_nil`` step);
      ``check_contracts(bids, blind, dealer, contracts, rules)``: on a score sheet, its
      declarations are legal given the bids (raises `sim.errors.IllegalBid`);
      ``bid_contract(codes, ordinary, is_nil, table) -> codes``: the side contracts that the
      sides' ordinary bids make when the hand is scored (int8[N, S]);
    - ``play(bidding, replay) -> dict``: keyword arguments of `sim.tricks.play_tricks`;
    - ``resolve(rules, deck)``: the trick's winner from its cards, the play's own resolution
      (`sim.tricks.play_tricks`' ``resolve``: ``jokes_win``);
    - ``void_rule(play, card) -> uint8[N] | None``: the suits a card shows its player holds none
      of, where the rule lets him leave a suit he holds (`sim.tricks.play_card`; None: the led
      suit's rule; ``first_trick_lowest_club``);
    - ``shows(bidding) -> dict``: fields the play's views show (`sim.views.PlayView`);
    - ``score``: scoring parts, by the slot of `sim.spades.scoring.PARTS` they fill
      (``part(tally, facts)``, in the order of the slots);
    - ``nil_bonus(facts, bonus) -> bonus``: the value of each seat's nil, int32[N, P];
    - ``own_scoring(facts, before) -> dict``: a game scored its own way: the fields of the
      hand's `sim.spades.scoring.Tally` (``contract``, ``bags``, ``made``, ``bags_taken``,
      ``overtricks``, ``nil``, ``bags_after``), in place of the standard contract, the scoring
      parts and the bag count; ``before`` int32[N, S] the running bag count before the hand;
    - ``bags(tally, facts, before)``: how the hand's bags (``tally.bags``) are priced and
      counted, in place of the standard game's (a point each in ``overtricks``, added to the
      running count: `sim.spades.scoring.Tally.count_bags`); ``before`` int32[N, S] the running
      count before the hand; it sets ``tally.bags_after``;
    - ``constraint``: play constraints by the slot of `sim.spades.constraints` they fill
      (``make(rules, deck) -> part``, ``part(trick_state) -> legal``: a narrowing of the legal
      cards that never leaves none);
    - ``trick_bonus(tricks, facts)``: a trick bonus, awarded per seat on the hand's
      `sim.spades.scoring.TrickCards` (``tricks.award(seat, points)``);
    - ``state``: values it keeps per hand on the hand's state (``SpadesHand.house_state``), name ->
      default (an [N] array of it where nothing sets it; [N, P] for a `Seated` default); a
      column of the same name is filled from it (``<name>_<seat>`` for a seated one);
    - ``deals(order, dealer, rules) -> dict``: cards of each deal it sets apart, name ->
      uint64[N, P] by seat, from the shuffled decks ``order`` as
      `sim.spades.dealing.deal_from_order` deals them: kept on the deal (``Dealt.house``) and
      from it on the hand's state; a misdeal deals them again;
    - ``misdeal(hands, dealer, scores, bags, rules, deck, lineup, rng, deal_again, twice)
      -> (hands, dict)``: misdeals called before the bidding, when the block deals
      (``deal_again(rows, attempt)`` deals some rows anew, the deal's other parts with them):
      the hands played, and values of its state (kept on the deal, then on the hand's state);
    - ``public(hand) -> dict``: view fields every decision's view shows from the deal on (the
      reveal's, the bids', the play's: `sim.spades.hand.SpadesHand.public`);
    - ``phases``: steps of the hand by the slot of `sim.spades.hand.PHASES` they fill
      (``step(hand, seating) -> hand``);
    - ``timing(rules) -> tuple``: the slots of ``phases`` it fills under these rules, where
      that depends on them (``pass_cards``' ``pass_when``; without it, every one);
    - ``from_plays``: it is scored from the cards of the tricks (refused on a score sheet);
    - ``record(state, i, deck) -> dict``: the fields of row ``i``'s record from its state;
    - ``record_bidding(bidding, i) -> dict``: the fields of row ``i``'s record from the bidding
      (`sim.spades.bidding.BidResult`: a bidding of its own's outcome, the auction's calls),
      written after those of ``record``;
    - ``read(rec, rules, deck, err) -> dict``: a record's fields back to state values (raises
      ``err(message)`` for a bad one);
    - ``fields``: record fields of its own that a record may hold only under the rule, each
      with replay's refusal of one where the rule is off (None: ``'<field>' needs <key> =
      true``);
    - ``audit(recs, bids, state, rules, deck, lines, source, raw)``: replay's check of the
      records' fields (``state``, from `read`) against their hands before they are played
      (not on a score sheet); raises `sim.errors.UserError`;
    - ``answers(state) -> dict``: decision name -> ``answer(view, rng)``, a replayed record's
      answers to decisions its flags do not hold, from the values `read` put on ``state``
      (the scripted player's);
    - ``verify(played, recorded)``: after a replayed hand, the values its phases put on the
      state (``played``) are the record's (``recorded``, from `read`); raises
      `sim.errors.IllegalBid` for a recorded decision that was not open;
    - ``told(hand, rules) -> dict``: view fields of the bidding's views from the hand's state
      (what every seat is told before it bids, `sim.spades.hand.SpadesHand.told`);
    - ``trump(hand) -> int8[N]``: the trump suit of each hand's play, when the rule may make
      another suit than spades trump;
    - ``columns``: the ``hands`` table columns it brings, name -> (default, doc)."""

    key: str
    section: str
    in_force: Callable[[object], bool]
    turn: Mapping[str, Callable] = field(default_factory=dict)
    declares: tuple[str, ...] = ()
    decisions: Mapping[str, str] = field(default_factory=dict)
    bidding: Callable[..., dict] | None = None
    after_bids: Callable | None = None
    as_bid: Callable[[np.ndarray, Mapping], np.ndarray] | None = None
    check: Callable | None = None
    refuse: Callable[[object], object] | None = None
    refuse_among: str = "scoring"
    ends_game: Callable[[np.ndarray, object], np.ndarray] | None = None
    leads: Callable[[object], np.uint64] | None = None
    first_leader: Callable | None = None
    contracts: Mapping[int, str] = field(default_factory=dict)
    contract: Callable[[object], None] | None = None
    contract_ban: Callable | None = None
    no_blind_nil: Callable[[object, object], np.ndarray] | None = None
    check_contracts: Callable | None = None
    bid_contract: Callable | None = None
    joint_bid: Callable | None = None
    bids: Mapping[str, Callable] = field(default_factory=dict)
    bans: Mapping[str, Callable] = field(default_factory=dict)
    looks: bool = False
    play: Callable[[object, bool], dict] | None = None
    resolve: Callable[[object, object], Callable] | None = None
    void_rule: Callable[[object, np.ndarray], np.ndarray | None] | None = None
    shows: Callable[[object], dict] | None = None
    score: Mapping[str, Callable] = field(default_factory=dict)
    nil_bonus: Callable[[object, np.ndarray], np.ndarray] | None = None
    own_scoring: Callable[[object, np.ndarray], dict] | None = None
    bags: Callable[[object, object, np.ndarray], None] | None = None
    trick_bonus: Callable[[object, object], None] | None = None
    constraint: Mapping[str, Callable] = field(default_factory=dict)
    state: Mapping[str, np.generic | Seated] = field(default_factory=dict)
    deals: Callable | None = None
    misdeal: Callable | None = None
    public: Callable[[object], dict] | None = None
    phases: Mapping[str, Callable] = field(default_factory=dict)
    timing: Callable[[object], tuple[str, ...]] | None = None
    from_plays: bool = False
    record: Callable[[Mapping, int, object], dict] | None = None
    record_bidding: Callable[[object, int], dict] | None = None
    read: Callable[[Mapping, object, object, Callable], dict] | None = None
    fields: Mapping[str, str | None] = field(default_factory=dict)
    audit: Callable | None = None
    answers: Callable[[Mapping], dict] | None = None
    verify: Callable[[Mapping, Mapping], None] | None = None
    told: Callable[[object, object], dict] | None = None
    trump: Callable[[object], np.ndarray] | None = None
    columns: Mapping[str, tuple[np.generic, str]] = field(default_factory=dict)
