"""Spades hand scoring (RULES.md §3): one pure, vectorised function composed of named parts.

Inputs are per seat ``[N, 4]``; outputs per side ``[N, 2]`` (side 0 = seats 0 and 2, side 1 = seats
1 and 3). ``x.reshape(N, 2, 2)[:, k, s]`` is seat ``2k + s``, so summing axis 1 gives the sides.
A later scoring rule (RULES.md §4.6) adds a part here; the parts stay independent.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import contracts as sc
from .rules import SpadesRules

__all__ = ["COMPONENTS", "HandScore", "score_hands"]

COMPONENTS = ("contract", "overtricks", "bag_penalty", "nil", "bemo")  # the parts of `points`


@dataclass(frozen=True, eq=False)
class HandScore:
    """All int32[N, 2] per side: the parts, their sum ``points``, and the bags after the hand;
    ``wins_game``: int8[N], the side that won the game at once (``moon``, ``lexington``), -1."""

    contract: np.ndarray
    overtricks: np.ndarray
    bag_penalty: np.ndarray
    nil: np.ndarray
    bemo: np.ndarray
    bags_after: np.ndarray
    wins_game: np.ndarray

    @property
    def points(self) -> np.ndarray:
        return self.contract + self.overtricks + self.bag_penalty + self.nil + self.bemo

    def components(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in COMPONENTS}


def _per_side(x: np.ndarray) -> np.ndarray:
    pairs = x.reshape(x.shape[0], 2, 2)  # [:, k, s] is seat 2k + s
    return pairs[:, 0].astype(np.int32) + pairs[:, 1]


def score_hands(bids: np.ndarray, blind: np.ndarray, tricks: np.ndarray, bags_before: np.ndarray,
                rules: SpadesRules, contracts: np.ndarray | None = None,
                bemo: np.ndarray | None = None, winners: np.ndarray | None = None,
                no_trump: np.ndarray | None = None, dark: np.ndarray | None = None,
                auction=None, half: np.ndarray | None = None) -> HandScore:
    """Score N hands. bids: int8[N, 4] (0 = nil, -1 = no bid: a side contract's partners);
    blind: bool[N, 4]; tricks: int8[N, 4]; bags_before: int[N, 2] the sides' running bag counts;
    contracts, bemo: int8[N, 2] the side contracts and bemos (RULES.md §4.4, codes of
    `sim.spades.contracts`; None = none); winners: int8[N, 13] who won each trick (needed by Mo
    and bemo; None on a score sheet); no_trump: bool[N, 4] bids of "no trump" (``no_trump_bids``:
    each of their bid tricks scores 20 if the side's contract is made, -20 if set); dark:
    bool[N, 4] nils played in the dark (``nil_in_the_dark``: scored as blind nil, a blind one as
    Big Mo, 250); auction: `sim.spades.auction.AuctionResult` under ``auction`` (its points in
    ``contract``; no bags, nil or bag penalty); half: bool[N, 4] bids of n and a half
    (``half_trick_bids``: a side's two halves make one trick of its contract; 0 and a half is no
    nil)."""
    n = bids.shape[0]
    if auction is not None:
        from .auction import auction_points

        zeros = np.zeros((n, 2), np.int32)
        return HandScore(contract=auction_points(auction.bid, auction.declarer,
                                                 _per_side(tricks.astype(np.int32))),
                         overtricks=zeros, bag_penalty=zeros, nil=zeros, bemo=zeros,
                         bags_after=bags_before.astype(np.int32),
                         wins_game=np.full(n, -1, np.int8))
    tricks = tricks.astype(np.int32)
    is_nil = bids == 0 if half is None else (bids == 0) & ~half
    contract, bags = _contract(np.maximum(bids, 0), is_nil, tricks, rules, blind, half)
    contract, bags, opponents = _scoring_variants(contract, bags, np.maximum(bids, 0), is_nil,
                                                  tricks, rules, half)
    if no_trump is not None and no_trump.any():
        nt = _per_side((np.maximum(bids, 0) * no_trump).astype(np.int32))
        contract = contract + 10 * nt * np.sign(contract)  # 20 per bid trick, made or set
    bags = bags + _nil_tricks_as_bags(is_nil, tricks, rules)
    if rules.three_b or rules.quicksand or rules.no_overs:  # no bags at all (RULES.md §4.6)
        bags = np.zeros_like(bags)
    if rules.lexington_points:  # RULES.md §4.4: 12+ tricks score 240 whatever the bid, no bags
        big = _per_side(tricks) >= 12
        contract, bags = np.where(big, 240, contract), np.where(big, 0, bags)
    nil = _nil(is_nil, blind, tricks, rules, dark)
    if rules.three_b:  # a failed nil's tricks cost 10 each (RULES.md §4.6)
        nil = nil - 10 * _per_side(tricks * is_nil)
    contract = contract + opponents  # set_to_opponents: what the other side fell short
    wins_game = _wins_game(bids, blind, is_nil, tricks, rules)
    codes = np.zeros((n, 2), np.int8) if contracts is None else contracts.astype(np.int8)
    if rules.tens_are_wheels:  # a side bid of 10 (no nil) is a wheel
        ordinary = _per_side(np.maximum(bids, 0).astype(np.int32))
        no_nil = _per_side(is_nil.astype(np.int32)) == 0
        codes = np.where((codes == 0) & (ordinary == 10) & no_nil, sc.WHEEL, codes)
    bemo_part = np.zeros((n, 2), np.int32)
    if (codes != 0).any() or (bemo is not None and (bemo != 0).any()):
        taken = _per_side(tricks)
        for side in (0, 1):
            won = None if winners is None else (winners.astype(np.int64) & 1) == side
            has = codes[:, side] != 0
            pts, extra, wins = sc.contract_points(codes[:, side], taken[:, side], won, rules)
            contract[:, side] = np.where(has, pts, contract[:, side])
            bags[:, side] = np.where(has, extra, bags[:, side])
            nil[:, side] = np.where(has, 0, nil[:, side])
            wins_game = np.where(wins, side, wins_game).astype(np.int8)
            if bemo is not None:
                bemo_part[:, side] = sc.bemo_points(bemo[:, side], won)
    if rules.bags_negative:  # each bag -1, no bag count and no penalty (RULES.md §4.6)
        penalty, bags_after, bags = np.zeros_like(bags), bags_before.astype(np.int32), -bags
    else:
        penalty, bags_after = _bag_penalty(bags_before.astype(np.int32) + bags, rules)
    parts = dict(contract=contract, overtricks=bags, bag_penalty=penalty, nil=nil,
                 bemo=bemo_part, bags_after=bags_after)
    return HandScore(**{k: np.asarray(v, dtype=np.int32) for k, v in parts.items()},
                     wins_game=wins_game)


def _contract(bids, is_nil, tricks, rules, blind=None, half=None):
    """The partnership contract: +10 per bid trick and 1 per overtrick if made, else -10 per bid
    trick. Tricks of a nil bidder count toward it only under ``nil_tricks = "count"``. A side whose
    partners both bid nil has contract 0: every counted trick is an overtrick. A blind bid
    (``blind_bids``, RULES.md §4.4) in a made contract scores 20 per trick and the side's
    overtricks are not scored (no points, no bags)."""
    contract = _per_side(bids.astype(np.int32))
    if half is not None:  # two halves make a trick (half_trick_bids)
        contract = contract + _per_side(half.astype(np.int32)) // 2
    counts = ~is_nil if rules.nil_tricks != "count" else np.ones_like(is_nil)
    taken = _per_side(tricks * counts)
    made = taken >= contract
    points = 10 * contract * (2 * made - 1)
    overtricks = (taken - contract) * made
    if rules.blind_bids and blind is not None:
        blind_bid = _per_side((bids * (blind & ~is_nil)).astype(np.int32))
        points = points + 10 * blind_bid * made
        overtricks = np.where(blind_bid > 0, 0, overtricks)
    return points, overtricks


def _scoring_variants(contract, bags, bids, is_nil, tricks, rules, half=None):
    """RULES.md §4.6 ways of scoring a side's contract (ordinary bids; side contracts and the
    auction score their own way later): returns the contract points, the bags and what
    ``set_to_opponents`` gives each side for the other's shortfall. Examples of RULES.md:
    quicksand bid 7: 7 -> 70, 5 -> -20, 9 -> 50; double_over bid 2 takes 4 -> -40."""
    opponents = np.zeros_like(contract)
    if not (rules.three_b or rules.no_overs or rules.double_over or rules.exact or rules.quicksand
            or rules.set_to_opponents or rules.no_minus):
        return contract, bags, opponents
    bid = _per_side(bids.astype(np.int32))
    if half is not None:
        bid = bid + _per_side(half.astype(np.int32)) // 2
    counts = ~is_nil if rules.nil_tricks != "count" else np.ones_like(is_nil)
    taken = _per_side(tricks * counts)
    over = taken - bid
    made = over >= 0
    if rules.exact == "side":
        made = over == 0
    elif rules.exact == "player":  # every non-nil bidder exactly his own bid
        made &= _per_side(((tricks != bids) & ~is_nil).astype(np.int32)) == 0
    if rules.exact is not None:
        contract = np.where(made, contract, -10 * bid)
        bags = np.where(made, bags, 0)
    if rules.three_b:
        contract = np.where(made, 10 * bid - 10 * over, -10 * bid)
    if rules.quicksand:
        contract = np.where(made, 10 * bid - 10 * over, -10 * (bid - taken))
    if rules.three_b or rules.quicksand or rules.no_overs:
        bags = np.zeros_like(bags)
    if rules.double_over:
        doubled = (bid > 0) & (taken >= 2 * bid)
        contract = np.where(doubled, -20 * bid, contract)
        bags = np.where(doubled, 0, bags)
    if rules.set_to_opponents:
        short = np.where(made | (bid == 0), 0, 10 * np.maximum(bid - taken, 0))
        contract = np.where(made | (bid == 0), contract, 0)
        opponents = short[:, ::-1]
    if rules.no_minus:
        contract = np.maximum(contract, 0)
    return contract, bags, opponents


def _nil_tricks_as_bags(is_nil, tricks, rules):
    """``nil_tricks = "bags_only"``: every trick a nil bidder takes is one bag (and one point)."""
    if rules.nil_tricks != "bags_only":
        return 0
    return _per_side(tricks * is_nil)


def _bag_penalty(bags, rules):
    """Each time the running bag count reaches ``bag_limit``, ``bag_penalty`` is lost and the count
    drops by ``bag_limit``; extra bags carry over (RULES.md §3)."""
    times = bags // rules.bag_limit
    return -rules.bag_penalty * times, bags - times * rules.bag_limit


DARK_BLIND_NIL = 250  # RULES.md §4.4 nil_in_the_dark: "scored as Big Mo (mo_b)"


def _nil(is_nil, blind, tricks, rules, dark=None):
    """Each nil bidder: ±nil_bonus (blind: ±blind_nil_bonus), + when he took no trick.
    A side whose partners both bid nil (RULES.md §4.4): under ``double_blind_nil`` (both blind)
    or ``double_nil``, either failing cancels both nils (no penalty); both made score each nil
    twice (``double_blind_nil_reward = "win"``: once, and the side wins the game at once)."""
    bonus = rules.nil_bonus + (rules.blind_nil_bonus - rules.nil_bonus) * blind
    if dark is not None:  # in the dark: as blind nil; a blind nil in the dark as Big Mo
        bonus = np.where(dark, np.where(blind, DARK_BLIND_NIL, rules.blind_nil_bonus), bonus)
    sign = 2 * (tricks == 0) - 1
    points = _per_side(is_nil * bonus * sign)
    if not (rules.double_nil or rules.double_blind_nil):
        return points
    both_nil, both_blind, both_made = _double_nils(is_nil, blind, tricks)
    double_blind = both_blind if rules.double_blind_nil else np.zeros_like(both_blind)
    covered = double_blind | (both_nil if rules.double_nil else np.zeros_like(both_nil))
    twice = ~double_blind | (rules.double_blind_nil_reward == "double")
    return np.where(covered, np.where(both_made, points * np.where(twice, 2, 1), 0), points)


def _double_nils(is_nil, blind, tricks):
    """bool[N, 2] per side: both partners bid nil; both blind; both took no trick."""
    def both(x):
        return _per_side(x.astype(np.int32)) == 2

    return both(is_nil), both(is_nil & blind), both(is_nil & (tricks == 0))


def _wins_game(bids, blind, is_nil, tricks, rules):
    """int8[N]: the side that bid ``moon`` (13 in all, no nil) and took 13, or ``lexington``
    (12) and took 12 or more, or made a double blind nil under ``double_blind_nil_reward =
    "win"`` — it wins the game at once (RULES.md §4.4); -1 for none."""
    out = np.full(bids.shape[0], -1, dtype=np.int8)
    if not (rules.moon or rules.lexington or rules.double_blind_nil):
        return out
    if rules.double_blind_nil and rules.double_blind_nil_reward == "win":
        _, both_blind, both_made = _double_nils(is_nil, blind, tricks)
        for side in (0, 1):
            out[both_blind[:, side] & both_made[:, side]] = side
    no_nil = _per_side(is_nil.astype(np.int32)) == 0
    bid, taken = _per_side(bids.astype(np.int32)), _per_side(tricks)
    for on, total in ((rules.moon, 13), (rules.lexington, 12)):
        if on:
            won = no_nil & (bid == total) & (taken >= total)
            for side in (0, 1):
                out[won[:, side]] = side
    return out
