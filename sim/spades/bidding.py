"""Spades bidding (RULES.md §3): each seat in turn from the dealer's left, public as made.

Legal bids are a uint32 mask per hand (bit v = "bid v is legal"), the contract between the rules
and the strategies. A blind nil is decided first, from a view without the hand.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from ..cards import SPADES, popcount
from ..errors import IllegalBid
from ..views import BidView, BlindView, deficits
from . import contracts as sc
from . import house
from .bidmasks import MASK, BidSeat, check_legal, span
from .contracts import NAMES
from .house import blind_bids, no_flags
from .rules import SpadesRules

__all__ = ["BidResult", "BidState", "IllegalBid", "bid_masks", "bid_view",
           "blind_bid_view", "blind_nil_allowed", "blind_nil_offered", "blind_view", "check_bids",
           "complete_bidding", "contract_view", "finish_bidding", "own_bidding", "run_bidding",
           "start_bidding", "take_turn"]


@dataclass(frozen=True, eq=False)
class BidResult:
    """bids: int8[N, P] (0 = nil; -1 for the partners of a side contract); blind: bool[N, P] (a
    blind nil); contracts, bemo: int8[N, S] per side (codes of `sim.spades.contracts`, 0 = none);
    flags: the house rules' per-seat flags (`sim.spades.house.DECLARED`), bool[N, P] each,
    all false where their rule is off.
    """

    bids: np.ndarray
    blind: np.ndarray
    contracts: np.ndarray = None
    bemo: np.ndarray = None
    auction: object = None  # `sim.spades.auction.AuctionResult` under ``auction``, else None
    half: np.ndarray = None  # bool[N, 4]: the bid is n and a half (``half_trick_bids``)
    flags: Mapping[str, np.ndarray] = None

    def __post_init__(self):
        n, players = self.bids.shape
        for name, shape, dtype in (("contracts", 2, np.int8), ("bemo", 2, np.int8),
                                   ("half", players, bool)):
            if getattr(self, name) is None:
                object.__setattr__(self, name, np.zeros((n, shape), dtype))
        object.__setattr__(self, "flags", no_flags(n, players, self.flags))


# the bid rules (RULES.md §4.4) narrowing the bids open to a seat, slot by slot in order, and
# the bans, each applied only where it leaves a bid open; a plug-in of `sim.spades.house` fills
# the slots it names (`bid_rules`).
BID_RULES = ("fledu", "suicide", "min_team_bid", "whiz", "mirror")
BID_BANS = ("hook", "moon", "lexington")


@functools.cache
def bid_rules(rules: SpadesRules) -> tuple[tuple, tuple]:
    """The bid rules and bans in force under ``rules``, in the order of their slots."""
    plugins = house.in_force(rules)
    narrowing = {slot: part for rule in plugins for slot, part in rule.bids.items()}
    bans = {slot: part for rule in plugins for slot, part in rule.bans.items()}
    return (tuple(narrowing[s] for s in BID_RULES if s in narrowing),
            tuple(bans[s] for s in BID_BANS if s in bans))


def bid_masks(bids: np.ndarray, seat: np.ndarray, rules: SpadesRules,
              spades: np.ndarray | None = None, half: np.ndarray | None = None) -> np.ndarray:
    """uint32[N]: the bids open to ``seat`` given the bids made so far (int8[N, P], -1 = not
    yet; bidding goes clockwise from the dealer's left, so the seats that have bid are known).

    RULES.md §3: from ``min_bid`` (0 with nil, else 1) to 13, the tricks of the hand: at every
    table ``rules.tricks_per_hand`` (§4.7: 8 to 18 with six players; §4.1: the kitty's discard
    included), whatever the bidding rule; with ``max_team_bid`` the two bids of a side may not
    total more, a partner still to bid counted at the least bid he can make.
    §4.4: ``fledu`` (nil or at least 4), ``suicide`` (the second partner bids nil unless the first
    did; ``suicide_min_bid``), ``min_team_bid`` (the second partner completes the side's total, or
    both bid nil), ``whiz`` / ``mirror`` (the number of spades held: ``spades`` int[N], None when
    the cards are not known, e.g. on a score sheet), then the prohibitions ``hook`` (the last bid
    may not make the total the tricks of the hand) and ``moon`` / ``lexington`` (no moon after
    the opponents' double nil), each applied only where it leaves a bid open. ``half`` (bool[N,
    4], ``half_trick_bids``): after a partner's half bid the seat bids ``v`` and a half, v = 0..12
    (bit v; no nil). The partnership keys are played by four players only (``PARTNER_KEYS``).
    A plug-in's ``joint_bid`` (``partnership_bidding``: one joint bid per side) gives the bids
    open to the side's joint bidder in place of all this.
    """
    rows = np.arange(seat.shape[0])
    top = rules.tricks_per_hand  # no bid above the tricks of the hand
    for rule in house.in_force(rules):  # partnership_bidding: one joint bid per side
        if rule.joint_bid:
            return rule.joint_bid(bids, seat, rules)
    mask = np.broadcast_to(span(rules.min_bid, top), seat.shape).copy()
    pairs = rules.table.pairs
    halved = 0  # int[N]: 1 where the seat bids v and a half (its partner bid a half)
    if pairs:  # partners (RULES.md §3, §4.7): the second partner knows the first's bid
        partner_seat = rules.table.partner_of(seat)
        partner = bids[rows, partner_seat].astype(np.int32)
        second = partner >= 0  # the seat is its side's second bidder
        if rules.max_team_bid is not None:
            mask &= span(0, rules.max_team_bid - np.where(second, partner, rules.least_bid))
        if half is not None and rules.half_trick_bids:  # the partner bid a half: so does he
            halved = (second & half[rows, partner_seat]).astype(np.int32)
            most = top - 1 if rules.max_team_bid is None else rules.max_team_bid - partner - 1
            mask = np.where(halved, span(0, np.minimum(most, top - 1)), mask).astype(MASK)
    narrowing, bans = bid_rules(rules)
    if not (narrowing or bans):
        return mask
    if not pairs:  # no partner: nobody bid before for the seat's side
        partner, second = np.full(seat.shape, -1, np.int32), np.zeros(seat.shape, bool)
    at = BidSeat(rows=rows, seat=seat, bids=bids, top=top, pairs=pairs, partner=partner,
                 second=second, halved=halved, half=half, spades=spades)
    for part in narrowing:  # fledu, suicide, min_team_bid, whiz, mirror
        mask = part(mask, at, rules)
    banned = np.zeros(seat.shape, MASK)
    for part in bans:  # hook, moon and lexington
        banned |= part(at, rules)
    kept = mask & ~banned
    return np.where(kept != 0, kept, mask).astype(MASK)


def _trailing(seat: np.ndarray, scores: np.ndarray, deficit: int) -> np.ndarray:
    """bool[N]: the seat's side trails the leading other side by at least ``deficit`` (0 =
    always); ``scores``: int[N, S], seat s plays for side s mod S."""
    if deficit == 0:
        return np.ones(seat.shape, dtype=bool)
    return deficits(seat, scores) >= deficit


def blind_nil_allowed(seat: np.ndarray, scores: np.ndarray, rules: SpadesRules) -> np.ndarray:
    """bool[N]: blind nil is on and the seat's side trails by at least ``blind_nil_min_deficit``
    (0 = always, a leading side too)."""
    if not rules.blind_nil:
        return np.zeros(seat.shape, dtype=bool)
    return _trailing(seat, scores, rules.blind_nil_min_deficit)


def check_bids(bids, blind, dealer, rules: SpadesRules, contracts=None, flags=None,
               half=None, bemo=None) -> None:
    """Check complete bids (score-sheet records) in bidding order, as `run_bidding` checks them;
    the cards are unknown, so ``whiz`` and ``mirror`` bids are not checked against them. The
    partners of a side contract (-1) bid nothing; the side contracts and bemos must be ones
    the rules offer (their order against the other side's is not checked here). ``flags``:
    the house rules' flags (`BidResult.flags`); ``bids`` are as they stand after the rules'
    rounds (raised), each plug-in gives them as first made and checks its own flags."""

    n = bids.shape[0]
    rows = np.arange(n)
    players, sides = bids.shape[1], rules.sides
    made = np.full((n, players), -1, dtype=np.int8)
    for side, codes, offered in ((c, contracts, offered_codes(rules, "blind")
                                  | offered_codes(rules, "sighted")) for c in range(sides)):
        code = codes[:, side] if codes is not None else np.zeros(n, np.int8)
        bad = (code != 0) & ((np.int64(offered) >> np.clip(code, 0, 15).astype(np.int64)) & 1
                             == 0)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise IllegalBid(f"side contract {sc.NAMES[int(code[i])]} is not allowed by these "
                             "rules", row=i, seat=side)
    _check_declarations(bids, blind, dealer, rules, contracts, bemo)
    flags = no_flags(n, players, flags)
    plugged = house.in_force(rules)
    first = bids
    for rule in plugged:
        if rule.as_bid:
            first = rule.as_bid(first, flags)  # as bid, before any raise
    for j in range(players):
        seat = ((dealer + 1 + j) % players).astype(np.int8)
        partner = rules.table.partner_of(seat) if rules.table.pairs else seat
        bid = first[rows, seat]
        side = (seat % sides).astype(np.intp)
        contract = contracts[rows, side] if contracts is not None else np.zeros(n, np.int8)
        # no bid: a side contract's partners, or under partnership bidding the joint bidder's
        mates = rules.table.members[side]
        joint = rules.partnership_bidding & (made[rows[:, None], mates] >= 0).any(axis=1)
        missing = (bid < 0) & (contract == 0) & ~joint
        extra = (bid >= 0) & ((contract != 0) | joint)
        if (missing | extra).any():
            i = int(np.flatnonzero(missing | extra)[0])
            raise IllegalBid("under partnership_bidding the side's first bidder bids for both "
                             "(the partner's bid is null)" if rules.partnership_bidding else
                             "a bid is missing (null only for the partners of a side contract)",
                             row=i, seat=int(seat[i]))
        bidding = np.flatnonzero(bid >= 0)
        check_legal(bid[bidding], bid_masks(made, seat, rules, half=half)[bidding], seat[bidding],
               bidding)
        if half is not None:
            mine, theirs = half[rows, seat], half[rows, partner]
            opens = made[rows, partner] < 0  # the side's first bidder
            bad = (mine | theirs) & (~rules.half_trick_bids | (mine != theirs)
                                     | (opens & mine & (bid < 1)))
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise IllegalBid("half bids (half_trick_bids): the first partner of a side may "
                                 "bid n and a half (n >= 1), and the second must then too",
                                 row=i, seat=int(seat[i]))
        made[rows, seat] = bid
    for rule in plugged:
        if rule.check:
            rule.check(made, blind, flags, dealer, rules)


def _check_declarations(bids, blind, dealer, rules, contracts, bemo) -> None:
    """Score sheets: a bemo needs the key and two ordinary non-nil bids on its side; the
    plug-ins check their own declarations (``check_contracts``: blind moon and double blind nil,
    the first made stands, RULES.md §4.4)."""

    members = rules.table.members
    if bemo is not None:  # a side's ordinary bids, none nil (its players', or one joint bid)
        ordinary = (bids[:, members] > 0).all(axis=2)
        if rules.partnership_bidding:  # one joint bid (RULES.md §4.4), the others null
            ordinary = ((bids[:, members] > 0).sum(axis=2) == 1) & (
                (bids[:, members] < 0).sum(axis=2) == members.shape[1] - 1)
        no_contract = contracts == 0 if contracts is not None else True
        bad = (bemo != 0) & ~(bool(offered_codes(rules, "bemo")) & ordinary & no_contract)
        if bad.any():
            i, side = (int(v[0]) for v in np.nonzero(bad))
            raise IllegalBid("a bemo needs bemo = true and two ordinary bids (no nil) on its "
                             "side", row=i, seat=side)
    for rule in house.in_force(rules):  # blind_moon
        if rule.check_contracts:
            rule.check_contracts(bids, blind, dealer, contracts, rules)


def offered_codes(rules: SpadesRules, stage: str) -> int:
    """The codes of `sim.spades.contracts` the plug-ins in force offer at ``stage`` (a mask, bit
    0 included where any is; 0 where none is)."""
    return sc.mask(code for rule in house.in_force(rules)
                   for code, at in rule.contracts.items() if at == stage)


def _side_contract_masks(stage: str, seat, bids, blind, contracts, rules) -> np.ndarray:
    """uint16[N]: the codes of `sim.spades.contracts` open to ``seat``'s side at this ``stage``
    ("blind", "sighted" before its first bid, "bemo" after its second), bit 0 (none) included
    where any is open; 0 where none is."""

    if not _declares(rules):  # the usual game: nothing to declare
        return np.zeros(seat.shape, np.uint16)
    rows = np.arange(seat.shape[0])
    table = rules.table  # a side: its partners, or one player (RULES.md §4, §4.7)
    side = table.side_of[seat].astype(np.intp)
    mates = table.members[side]  # [N, P / S]: the seats of the seat's side, his own included
    mate_bids = bids[rows[:, None], mates]
    others = mates != seat[:, None]
    first = ~((mate_bids >= 0) & others).any(axis=1) & (contracts[rows, side] == 0)
    if stage == "bemo":  # after the side's ordinary bids, all made and none nil, or its joint
        bid = (mate_bids > 0).all(axis=1)  # bid (partnership bidding)
        if rules.partnership_bidding:
            bid = first & (bids[rows, seat] > 0)
        mask = np.where(bid & (contracts[rows, side] == 0), offered_codes(rules, "bemo"), 0)
        return mask.astype(np.uint16)
    mask = np.where(first, offered_codes(rules, stage), 0).astype(np.uint16)
    for rule in house.in_force(rules):  # blind_moon, mo_b
        if rule.contract_ban:
            mask &= ~rule.contract_ban(stage, seat, bids, blind, contracts, rules)
    return np.where(mask == 1, 0, mask).astype(np.uint16)  # "none" alone is no choice


def _ask_contract(view, idx, lineup, rng, method="side_contract") -> np.ndarray:
    """Ask the rows ``idx`` of ``view`` for a code of their mask; checked."""
    sub = view.take(idx)
    code = lineup.decide(sub, method, rng, np.int8)
    bad = (code < 0) | (code > 15) | ((sub.legal >> np.clip(code, 0, 15)) & 1 == 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])

        allowed = [NAMES[c] or "none" for c in range(len(NAMES)) if int(sub.legal[i]) >> c & 1]
        raise IllegalBid(f"side contract {int(code[i])} is not allowed; allowed: {allowed}",
                         row=int(idx[i]), seat=int(sub.seat[i]))
    return code


@dataclass(eq=False)
class Turn:
    """One seat's turn of the bidding round, for every row at once: what the steps of the turn
    (`TURN_STEPS`) share. ``seat``, ``side``, ``partner`` int8/intp[N]; ``common`` the view
    fields of every decision of the turn; ``state`` the round (`BidState`), whose arrays
    (``bids``, ``blind``, ``contracts``, ``bemo``, ``half``, the plug-ins' ``flags``) the turn
    shows as its own and the steps fill in;
    ``bidding`` bool[N] the seat still makes a bid (no side contract, not his partner's joint
    bid), ``unseen`` the bids open before looking, ``after_half`` his partner bid a half,
    ``goes_blind`` and ``blind_bid`` his blind nil or blind bid, ``legal`` the bids open after
    looking."""

    rows: np.ndarray
    seat: np.ndarray
    side: np.ndarray
    partner: np.ndarray
    hand: np.ndarray
    twice: np.ndarray | None  # uint64[N]: the cards of ``hand`` held twice (two decks, §4.7)
    common: dict
    state: BidState
    bidding: np.ndarray = None
    unseen: np.ndarray = None
    after_half: np.ndarray = None
    goes_blind: np.ndarray = None
    blind_bid: np.ndarray = None
    legal: np.ndarray = None

    def __getattr__(self, name):
        """The round's arrays (``bids``, ``blind``, ``contracts``, ``bemo``, ``half``,
        ``flags``): the state's."""
        if name == "state":  # not set yet (a copy being made)
            raise AttributeError(name)
        return getattr(self.state, name)

    def bid_view(self, legal=None) -> BidView:
        return BidView(hand=self.hand, legal=self.legal if legal is None else legal,
                       twice=self.twice, **self.common)

    @classmethod
    def of(cls, state: BidState, rules: SpadesRules, deck) -> Turn:
        """The turn of ``state``'s seat to bid: the state's arrays, shared (the steps fill them)."""
        rows, seat = np.arange(state.n), state.seat
        partner = rules.table.partner_of(seat) if rules.table.pairs else seat
        return cls(rows=rows, seat=seat, side=(seat % rules.sides).astype(np.intp),
                   partner=partner, hand=state.hands[rows, seat],
                   twice=None if state.twice is None else state.twice[rows, seat],
                   common=view_fields(state, rules, deck), state=state)


def _blind_contract(t: Turn, rules, deck, lineup, rng) -> None:
    """§4.4: a side contract declared before looking (the side's first bidder)."""
    view = contract_view(t.state, rules, deck, "blind")
    idx = np.flatnonzero(view.legal)
    if idx.size:
        t.contracts[idx, t.side[idx]] = _ask_contract(view, idx, lineup, rng)


def _open(t: Turn, rules, deck, lineup, rng) -> None:
    """§3: whether the seat bids, and the bids open to it before looking at its cards."""
    rows, n = t.rows, t.rows.size
    t.bidding = t.contracts[rows, t.side] == 0
    if rules.partnership_bidding:  # the side's first bidder bid for all its players
        mates = rules.table.members[t.side]  # [N, P / S] the seats of the seat's side
        t.bidding &= ~(t.bids[rows[:, None], mates] >= 0).any(axis=1)
    t.unseen = bid_masks(t.bids, t.seat, rules, half=t.half)  # before looking at the cards
    t.after_half = t.half[rows, t.partner] & rules.table.pairs  # bit 0: a half, not a nil
    t.goes_blind = np.zeros(n, dtype=bool)
    t.blind_bid = np.zeros(n, dtype=np.int8)


def _offers_blind_nil(t: Turn, rules) -> np.ndarray:
    """bool[N]: the seat may bid a blind nil (§3 ``blind_nil``: where the deficit rule allows
    it, nil is open and the seat bids)."""
    may_blind = (blind_nil_allowed(t.seat, t.common["scores"], rules) & (t.unseen & 1 != 0)
                 & t.bidding & ~t.after_half)
    for rule in house.in_force(rules):  # blind_moon: no double blind nil after its moon
        if rule.no_blind_nil:
            may_blind &= ~rule.no_blind_nil(t, rules)
    return may_blind


def _blind_nil(t: Turn, rules, deck, lineup, rng) -> None:
    """§3 ``blind_nil``: a nil bid before looking, where the deficit rule allows it."""
    may_blind = np.flatnonzero(_offers_blind_nil(t, rules))
    if may_blind.size:
        view = BlindView(legal=t.unseen, **t.common).take(may_blind)
        t.goes_blind[may_blind] = lineup.decide(view, "blind_nil", rng, bool)


def _sighted_contract(t: Turn, rules, deck, lineup, rng) -> None:
    """§4.4: a side contract declared after looking (the side's first bidder)."""
    view = contract_view(t.state, rules, deck, "sighted")
    idx = np.flatnonzero((view.legal != 0) & ~t.goes_blind)
    if idx.size:
        t.contracts[idx, t.side[idx]] = _ask_contract(view, idx, lineup, rng)
    t.bidding &= t.contracts[t.rows, t.side] == 0  # a side contract declared: no bid


def _bid(t: Turn, rules, deck, lineup, rng) -> None:
    """§3: the bid (a blind one as chosen before looking), checked against the legal bids."""
    seat, n = t.seat, t.rows.size
    idx = np.flatnonzero(t.bidding)
    t.legal = sighted_bids(t.bids, seat, t.hand, t.twice, rules, deck, t.unseen)
    view = t.bid_view()
    view = view if idx.size == n else view.take(idx)
    bid = np.where(t.goes_blind[idx], t.blind_bid[idx], lineup.decide(view, "bid", rng, np.int8))
    check_legal(bid, np.where(t.goes_blind[idx], t.unseen[idx], t.legal[idx]), seat[idx], idx)
    t.bids[idx, seat[idx]] = bid
    t.blind[idx, seat[idx]] = t.goes_blind[idx]


def sighted_bids(bids, seat, hand, twice, rules: SpadesRules, deck, unseen) -> np.ndarray:
    """uint32[N]: the bids open to ``seat`` after looking at ``hand`` (uint64[N]; ``twice`` the
    cards of it held twice, or None): those open before looking (``unseen``, `bid_masks`),
    except under the rules whose bids depend on the cards (the plug-ins that ``look``: ``whiz``
    and ``mirror``, the spades held, a card held twice counted twice, RULES.md §4.4, §4.7)."""
    if not any(rule.looks for rule in house.in_force(rules)):
        return unseen
    spades = deck.suit_masks[SPADES]
    held = popcount(hand & spades)
    if twice is not None:
        held = held + popcount(twice & spades)
    return bid_masks(bids, seat, rules, held)


def _bemo(t: Turn, rules, deck, lineup, rng) -> None:
    """§4.4 ``bemo``: the side's second bidder may declare a bemo."""
    view = contract_view(t.state, rules, deck, "bemo")
    idx = np.flatnonzero(view.legal)
    if idx.size:
        t.bemo[idx, t.side[idx]] = _ask_contract(view, idx, lineup, rng)


def _declares(rules) -> bool:
    """A plug-in in force offers side contracts or bemos (RULES.md §4.4)."""
    return any(rule.contracts for rule in house.in_force(rules))


# A seat's turn, slot by slot in the order of RULES.md §3 and §4.4 (the order of the players'
# decisions), each core step with the rules under which it asks anything; a plug-in of
# `sim.spades.house` fills the slots it names. `turn_steps` keeps those in force, so a rule that is
# off runs no code.
TURN_STEPS = {
    "blind_contract": (_blind_contract, _declares),
    "open": (_open, lambda r: True),
    "blind_nil": (_blind_nil, lambda r: r.blind_nil),
    "blind_bid": None,  # blind_bids
    "sighted_contract": (_sighted_contract, _declares),
    "bid": (_bid, lambda r: True),
    "half_bid": None,  # half_trick_bids
    "in_the_dark": None,  # nil_in_the_dark
    "no_trump_bid": None,  # no_trump_bids
    "bemo": (_bemo, _declares),
}


@functools.cache
def turn_steps(rules: SpadesRules) -> tuple:
    """The steps of a seat's turn under ``rules``: `TURN_STEPS` in force and the plug-ins'."""
    plugged = {slot: step for rule in house.in_force(rules) for slot, step in rule.turn.items()}
    steps = []
    for slot, core in TURN_STEPS.items():
        if slot in plugged:
            steps.append(plugged[slot])
        elif core is not None and core[1](rules):
            steps.append(core[0])
    return tuple(steps)


@dataclass(eq=False)
class BidState:
    """The bidding round of N hands in progress (RULES.md §3, §4.4): the seats take their turns
    from the dealer's left, and ``turn`` of them have had theirs; ``seat`` is the one to bid.
    The engine builds it (`start_bidding`), advances it a turn at a time (`take_turn`) and
    finishes it (`finish_bidding`); a caller can stop at any turn, `copy` it, and ask a strategy
    for the seat's bid from `bid_view` — the view the engine shows.

    ``hands`` uint64[N, P]; ``dealer`` int8[N]; ``scores``, ``bags`` int32[N, S] before the
    hand; the round's arrays as in `BidResult` (``bids`` -1 = not yet); ``public``: view fields
    every seat sees (``face_up``, §4.1; ``trump_suit``, ``kitty_taker``); ``twice``: uint64[N, P]
    the cards each seat holds both copies of (two decks, §4.7), else None; ``seen``: uint64[N,
    P] the discards each seat saw drawing its hand (two players, §4.7), else None;
    ``progressive``: int32[N, S] the progressive bonuses each side has earned this game (§4.6),
    under a rule that pays one, else None; ``exchanged``: after an exchange of cards before the
    bids (§4.5), the cards each seat passed and was passed (``passed``, ``received``: uint64[N,
    P]), each seat shown its own, else None."""

    hands: np.ndarray
    dealer: np.ndarray
    scores: np.ndarray
    bags: np.ndarray
    bids: np.ndarray
    blind: np.ndarray
    contracts: np.ndarray
    bemo: np.ndarray
    half: np.ndarray
    flags: dict
    public: dict
    twice: np.ndarray | None = None
    turn: int = 0
    seen: np.ndarray | None = None
    progressive: np.ndarray | None = None
    exchanged: dict | None = None

    @property
    def n(self) -> int:
        return self.hands.shape[0]

    @property
    def seat(self) -> np.ndarray:
        """int8[N]: the seat whose turn it is (the dealer's left first)."""
        return ((self.dealer + 1 + self.turn) % self.hands.shape[1]).astype(np.int8)

    def copy(self) -> BidState:
        """An independent copy: its turns do not change this state."""
        return replace(self, bids=self.bids.copy(), blind=self.blind.copy(),
                       contracts=self.contracts.copy(), bemo=self.bemo.copy(),
                       half=self.half.copy(),
                       flags={k: v.copy() for k, v in self.flags.items()})

    def seats(self):
        """Each seat's column in bidding order, from the dealer's left: int8[N] each."""
        players = self.hands.shape[1]
        for j in range(players):
            yield ((self.dealer + 1 + j) % players).astype(np.int8)

    def seat_view(self, seat: np.ndarray, idx: np.ndarray, legal: np.ndarray, rules, deck
                  ) -> BidView:
        """``seat``'s view at rows ``idx`` after every turn (a plug-in's round, ``bid_raise``),
        offering the bids of ``legal`` (masks, bit v = v)."""
        rows = np.arange(self.n)
        view = BidView(rows=rows, seat=seat, dealer=self.dealer, legal=np.zeros(rows.size, MASK),
                       bids=self.bids, blind=self.blind, scores=self.scores, bags=self.bags,
                       rules=rules, deck=deck, contracts=self.contracts, bemo=self.bemo,
                       hand=self.hands[rows, seat],
                       twice=None if self.twice is None else self.twice[rows, seat]).take(idx)
        return replace(view, legal=np.asarray(legal).astype(MASK))

    def result(self) -> BidResult:
        return BidResult(bids=self.bids, blind=self.blind, contracts=self.contracts,
                         bemo=self.bemo, half=self.half, flags=self.flags)


def start_bidding(hands, dealer, scores, bags, rules: SpadesRules, public: dict | None = None,
                  twice: np.ndarray | None = None, bids: np.ndarray | None = None,
                  blind: np.ndarray | None = None, seen: np.ndarray | None = None,
                  progressive: np.ndarray | None = None,
                  exchanged: dict | None = None, flags: dict | None = None,
                  contracts: np.ndarray | None = None, bemo: np.ndarray | None = None,
                  half: np.ndarray | None = None) -> BidState:
    """The bidding of ``hands`` (uint64[N, P]) before its first turn, or, given ``bids`` (int8[N,
    P], -1 = not yet) and ``blind``, at the turn of the first seat from the dealer's left that
    has not bid (a position: the same turn in every row); ``flags``: the plug-ins' flags of
    the turns before it (bool[N, P] by name, copied; §4.4 ``no_trump``), the others false;
    ``contracts`` and ``bemo`` (int8[N, S], copied): the side contracts and bemos declared
    before it (§4.4: the players of a side with a contract bid nothing, -1, their turns
    passed); ``half`` (bool[N, P], copied): which bids before it are n and a half (§4.4
    ``half_trick_bids``)."""
    n, players = hands.shape
    given = bids is not None
    bids = np.full((n, players), -1, np.int8) if bids is None else np.array(bids, np.int8)
    contracts = np.zeros((n, rules.sides), np.int8) if contracts is None \
        else np.array(contracts, np.int8)
    turn = 0
    if given:  # the seats in bidding order that have had their turn, the same in every row
        order = (dealer[:, None] + 1 + np.arange(players)) % players
        made = np.take_along_axis(bids, order, axis=1) >= 0
        covered = contracts[np.arange(n)[:, None], rules.table.side_of[order]] != 0
        turn = int(np.cumprod(made | covered, axis=1).sum(axis=1).min())
        if not ((made | covered)[:, :turn].all() and not made[:, turn:].any()):
            raise ValueError("bids: every row's seats from the dealer's left bid in turn (or "
                             "bid nothing under their side's contract), the same number of "
                             "turns in every row")
    return BidState(hands=hands, dealer=dealer, scores=scores, bags=bags, bids=bids,
                    blind=np.zeros((n, players), bool) if blind is None
                    else np.array(blind, bool),
                    contracts=contracts,
                    bemo=np.zeros((n, rules.sides), np.int8) if bemo is None
                    else np.array(bemo, np.int8),
                    half=np.zeros((n, players), bool) if half is None else np.array(half, bool),
                    flags=no_flags(n, players, {k: np.array(v, bool)
                                                for k, v in (flags or {}).items()}),
                    public=public or {}, twice=twice, turn=turn,
                    seen=seen, progressive=progressive if rules.progressive else None,
                    exchanged=exchanged)


def view_fields(state: BidState, rules: SpadesRules, deck) -> dict:
    """The fields of every view of the seat's turn (`sim.views.BlindView`) but ``legal``."""
    rows = np.arange(state.n)
    own = {} if state.seen is None else {"discards": state.seen[rows, state.seat]}
    for name, cards in (state.exchanged or {}).items():  # (§4.5: passed, received)
        own[name] = cards[rows, state.seat]
    if state.progressive is not None:
        own["progressive"] = state.progressive
    for rule in house.in_force(rules):  # what the plug-ins make public of the bids so far
        if rule.shows:  # (§4.4 no_trump_bids: the no-trump bids, as the play's views show them)
            own.update(rule.shows(state))
    return {**dict(rows=rows, seat=state.seat, dealer=state.dealer, bids=state.bids,
                   blind=state.blind, scores=state.scores, bags=state.bags, rules=rules,
                   deck=deck, contracts=state.contracts, bemo=state.bemo, half=state.half,
                   **state.public), **own}  # (§4.4 half_trick_bids shows the halves: the same)


def blind_view(state: BidState, rules: SpadesRules, deck) -> BlindView:
    """What the seat to bid sees before looking at its cards, when it is asked for a blind nil
    (``legal``: the bids open to it, which do not depend on the cards): the view the engine
    shows at this turn, where the rules offer the seat a blind nil."""
    return BlindView(legal=bid_masks(state.bids, state.seat, rules, half=state.half),
                     **view_fields(state, rules, deck))


def blind_nil_offered(state: BidState, rules: SpadesRules, deck) -> np.ndarray:
    """bool[N]: the rows where the seat to bid is asked for a blind nil (`blind_view`) before
    it looks at its cards: the turn's ``blind_nil`` step (RULES.md §3), from the turn's start
    (where no side contract is declared before it)."""
    turn = Turn.of(state, rules, deck)
    _open(turn, rules, deck, None, None)
    return _offers_blind_nil(turn, rules)


def blind_bid_view(state: BidState, rules: SpadesRules, deck) -> BlindView:
    """What the seat to bid sees when asked for a blind bid (RULES.md §4.4 ``blind_bids``), before
    looking at its cards: ``legal`` the bids of 1..7 open to it (bit v = v). The view of the
    plug-in's question (`sim.spades.house.blind_bids.view`) at the start of the seat's turn."""
    turn = Turn.of(state, rules, deck)
    _open(turn, rules, deck, None, None)
    return blind_bids.view(turn)


def contract_view(state: BidState, rules: SpadesRules, deck, stage: str) -> BlindView:
    """What the seat to bid sees when asked for its side's contract (RULES.md §4.4) at
    ``stage``: "blind" before looking at its cards (a `BlindView`), "sighted" after, or "bemo"
    after its bid (`BidView`s); ``legal`` the codes of `sim.spades.contracts` open to it (bit 0:
    none), 0 in the rows where none is (the seat is not asked there). The engine's turn asks
    through this view."""
    offered = _side_contract_masks(stage, state.seat, state.bids, state.blind, state.contracts,
                                   rules)
    if stage == "blind":
        return BlindView(legal=offered, **view_fields(state, rules, deck))
    rows = np.arange(state.n)
    return BidView(hand=state.hands[rows, state.seat], legal=offered,
                   twice=None if state.twice is None else state.twice[rows, state.seat],
                   **view_fields(state, rules, deck))


def bid_view(state: BidState, rules: SpadesRules, deck) -> BidView:
    """What the seat to bid sees when it bids after looking at its cards (`sim.views.BidView`),
    ``legal`` the bids open to it: the view the engine shows at this turn (a blind nil, a blind
    bid or a side contract, where the rules offer one, is asked before it)."""
    rows, seat = np.arange(state.n), state.seat
    hand = state.hands[rows, seat]
    twice = None if state.twice is None else state.twice[rows, seat]
    unseen = bid_masks(state.bids, seat, rules, half=state.half)
    return BidView(hand=hand, legal=sighted_bids(state.bids, seat, hand, twice, rules, deck,
                                                  unseen), twice=twice,
                   **view_fields(state, rules, deck))


def take_turn(state: BidState, rules: SpadesRules, deck, lineup, rng) -> None:
    """The seat's turn (`TURN_STEPS` under ``rules``: its blind decisions, its bid, its
    declarations), its answers checked; the state moves on to the next seat."""
    turn = Turn.of(state, rules, deck)
    for step in turn_steps(rules):
        step(turn, rules, deck, lineup, rng)
    state.turn += 1


def complete_bidding(state: BidState, rules: SpadesRules, deck, lineup, rng) -> BidResult:
    """The turns left from ``state`` (which they change), then the plug-ins' rounds."""
    while state.turn < state.hands.shape[1]:
        take_turn(state, rules, deck, lineup, rng)
    return finish_bidding(state, rules, deck, lineup, rng)


def finish_bidding(state: BidState, rules: SpadesRules, deck, lineup, rng) -> BidResult:
    """After every seat's turn: the plug-ins' rounds (``bid_raise``), then the result."""
    for rule in house.in_force(rules):
        if rule.after_bids:
            rule.after_bids(state, rules, deck, lineup, rng)
    return state.result()


def own_bidding(rules: SpadesRules):
    """The bidding of a plug-in in force that replaces the whole round (``bidding``: the
    auction's), or None."""
    return next((rule.bidding for rule in house.in_force(rules) if rule.bidding), None)


def run_bidding(hands, dealer, scores, bags, rules: SpadesRules, deck, lineup, rng,
                public: dict | None = None, twice: np.ndarray | None = None) -> BidResult:
    """One bid per seat, seat ``dealer + 1`` first. Strategies' answers are checked.

    A seat is asked, in this order (`TURN_STEPS`): a blind side contract (its side's first
    bidder, before looking), a blind nil, a blind bid, a side contract after looking (first
    bidder), its bid, whether its nil is played in the dark, whether its bid is "no trump", a
    bemo (its side's second bidder); after all bids, the plug-ins' rounds (``bid_raise``). The
    partners of a side contract do not bid (RULES.md §4.4). ``public``: view fields every seat
    sees (``face_up``, §4.1); ``twice``: uint64[N, P] the cards each seat holds both copies of
    (two decks, §4.7), which ``whiz`` and ``mirror`` count twice."""
    own = own_bidding(rules)
    if own is not None:  # a bidding of its own (RULES.md §4.4 auction: the plug-in's)
        return BidResult(**own(hands, dealer, scores, bags, rules, deck, lineup, rng, public))
    state = start_bidding(hands, dealer, scores, bags, rules, public, twice)
    return complete_bidding(state, rules, deck, lineup, rng)
