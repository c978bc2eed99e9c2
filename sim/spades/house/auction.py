"""RULES.md §4.4 ``auction``: "in turn each player bids n >= 1 (promising 6 + n tricks for his
side), every bid higher than the last, or passes; a player who passed is out; when the others
have passed, the last bidder's side is declarer. The declaring side making 6 + n scores
10 (6 + n), else 0; the defenders score 10 for every trick the declarer took above or below
6 + n. No bags, no nil."

Reading: bids go up to 7 (13 tricks); if the first three pass, the dealer must bid. Calls are
int8: 0 = pass, n = a bid of n.

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the bidding: `bidding`, the plug-in's ``bidding`` (the whole bidding round in place of the
  seats' bids, `sim.spades.bidding.run_bidding`): `run_auction` asks ``auction_bid`` of each
  player whose call is due, with his `sim.views.BidView`; the bids stay -1 (nobody bids), the
  outcome is an `AuctionResult` (``BidResult.auction``);
- the score: `score`, the plug-in's ``own_scoring`` (`auction_points` in ``contract``; no bags,
  nil or bag penalty: the hand's whole tally in place of the standard game's);
- the table: ``auction_bid`` and ``auction_declarer``;
- the record: ``auction``, every call in order (`record`, the plug-in's ``record_bidding``,
  written after the plug-ins' ``record`` fields and before the flags), and its reading back
  (`read_calls`, which replay asks);
- the refusal: the bid rules the auction replaces (`EXCLUDES`, any off its standard value:
  `refuse`, asked among the checks of the rules ``auction``, where it stood, before the half
  bids').

What is still outside the module, the engine's: the auction's outcome on the bidding
(``BidResult.auction``, read by the scoring's `sim.spades.scoring.Facts`, by the tables, which
fill the two columns from it, and by the records), because the hand's plug-in state holds one
value per row or per seat and the calls are a list per row; for the same reason replay keeps the
calls it reads (``_Bids.auction``, in place of the record's bids) and the scripted player answers
``auction_bid`` from them (`sim.scripted.Scripted`), and a score sheet's auction is this
plug-in's ``bidding`` answered by that player (`sim.spades.replay`, ``_sheet_bidding``), its
outcome in the output's ``auction_result``; the refusal of the scoring keys (an auction scores
its own way: `SpadesRules._check_scoring`, asked before the bid rules', where a plug-in's one
refusal cannot stand as well); and the keys that read it (``nilless``, ``bagless``, the
plug-ins that name it in their refusals). `sim.spades.auction` re-exports this module's
helpers.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ...errors import UserError
from ...options import option
from ...views import BidView
from ..bidmasks import check_legal
from ..plugin import HouseRule

__all__ = ["EXCLUDES", "MAX_BID", "MAX_CALLS", "OPTION", "RULE", "AuctionResult",
           "auction_points", "read_calls", "run_auction"]

OPTION = option(False, "an auction for the contract instead of bids: n >= 1 promises "
                "6 + n tricks for the side; made +10(6 + n), else 0; the defenders 10 "
                "per trick off it either way", kind=bool)

MAX_BID = 7  # 6 + 7 = 13 tricks: the auction is played by four players only (a partner key)
MAX_CALLS = 4 * (MAX_BID + 1)  # every round one raise at least, or the auction ends

# the bid rules an auction replaces: set with it, they are refused
EXCLUDES = frozenset(
    "max_team_bid nil_pass double_nil double_blind_nil min_team_bid suicide suicide_min_bid whiz "
    "mirror fledu hook moon lexington team_nil team_blind_nil ten_for_two_hundred mo_a mo_b bemo "
    "blind_six blind_moon nil_in_the_dark partnership_bidding no_trump_bids bid_raise "
    "blind_bids".split())


@dataclass(frozen=True, eq=False)
class AuctionResult:
    """bid: int8[N] the contract n (6 + n tricks); declarer: int8[N] the last bidder's seat;
    calls: int8[N, MAX_CALLS] every call in order from the dealer's left (0 pass, n a bid, -1
    after the end)."""

    bid: np.ndarray
    declarer: np.ndarray
    calls: np.ndarray


def run_auction(hands, dealer, scores, bags, rules, deck, lineup, rng, common: dict,
                check) -> AuctionResult:
    """Ask ``lineup.decide(view, "auction_bid")`` of each player in turn whose call is due.
    ``view.legal``: bit 0 = pass (absent when the dealer is forced), bit n = a bid of n.
    ``check(calls, legal, seats, rows)`` refuses an illegal call."""
    n = hands.shape[0]
    rows = np.arange(n)
    high = np.zeros(n, dtype=np.int8)
    high_seat = np.full(n, -1, dtype=np.int8)
    out = np.zeros((n, 4), dtype=bool)
    calls = np.full((n, MAX_CALLS), -1, dtype=np.int8)
    made = np.zeros(n, dtype=np.int16)  # calls made so far per hand
    done = np.zeros(n, dtype=bool)
    for turn in range(MAX_CALLS):
        seat = ((dealer + 1 + turn) % 4).astype(np.int8)
        due = ~done & ~out[rows, seat] & (high_seat != seat)
        idx = np.flatnonzero(due)
        if idx.size:
            raises = ((1 << (MAX_BID + 1)) - 1) & ~((2 << high[idx].astype(np.int32)) - 1)
            forced = (out[idx].sum(axis=1) == 3) & (high_seat[idx] < 0)
            legal = (raises | np.where(forced, 0, 1)).astype(np.uint16)
            view = BidView(hand=hands[rows, seat], legal=np.zeros(n, np.uint16), **common,
                           seat=seat, rows=rows).take(idx)
            view = dataclasses.replace(view, legal=legal)
            call = np.asarray(lineup.decide(view, "auction_bid", rng, np.int8), dtype=np.int8)
            check(call, legal, seat[idx], idx)
            calls[idx, made[idx]] = call
            made[idx] += 1
            bid = call > 0
            high[idx[bid]] = call[bid]
            high_seat[idx[bid]] = seat[idx[bid]]
            out[idx[~bid], seat[idx[~bid]]] = True
        done |= (out.sum(axis=1) == 3) & (high_seat >= 0)
        if done.all():
            break
    return AuctionResult(bid=high, declarer=high_seat, calls=calls)


def bidding(hands, dealer, scores, bags, rules, deck, lineup, rng, public) -> dict:
    """The whole bidding round: nobody bids (the bids -1, no blind), the auction decides the
    contract. The fields of the bidding's `sim.spades.bidding.BidResult`."""
    n, players = hands.shape
    bids = np.full((n, players), -1, dtype=np.int8)
    blind = np.zeros((n, players), dtype=bool)
    common = dict(dealer=dealer, bids=bids, blind=blind, scores=scores, bags=bags,
                  rules=rules, deck=deck, **(public or {}))
    result = run_auction(hands, dealer, scores, bags, rules, deck, lineup, rng, common,
                         check_legal)
    return {"bids": bids, "blind": blind, "auction": result}


def record(bidding, i) -> dict:
    """The record's field ``auction``: every call of row ``i`` in order, 0 = pass."""
    calls = bidding.auction.calls[i]
    return {"auction": calls[calls >= 0].tolist()}


def read_calls(rec, err) -> list[int]:
    """A record's ``auction``: the calls in order (replay's `sim.spades.replay` stores them for
    the scripted player); raises ``err(message)`` for a bad one."""
    calls = rec.get("auction")
    if (not isinstance(calls, list) or not 1 <= len(calls) <= MAX_CALLS
            or any(type(c) is not int or not 0 <= c <= MAX_BID for c in calls)):
        raise err(f"'auction' must list the calls in order: 0 (pass) or a bid 1..{MAX_BID}")
    return calls


def auction_points(bid: np.ndarray, declarer: np.ndarray, side_tricks: np.ndarray) -> np.ndarray:
    """int32[N, 2] per side: the declaring side ``10 (6 + n)`` if it took ``6 + n``, else 0; the
    defenders 10 per trick the declarer took above or below ``6 + n`` (RULES.md §4.4 example:
    bid 2, takes 6 -> 0 and 20; takes 10 -> 80 and 20)."""
    rows = np.arange(bid.shape[0])
    side = (declarer & 1).astype(np.intp)
    target = 6 + bid.astype(np.int32)
    taken = side_tricks[rows, side].astype(np.int32)
    out = np.zeros((bid.shape[0], 2), dtype=np.int32)
    out[rows, side] = np.where(taken >= target, 10 * target, 0)
    out[rows, 1 - side] = 10 * np.abs(taken - target)
    return out


def score(f, before) -> dict:
    """The auction's own points in ``contract`` (`auction_points`, from the facts' ``auction``);
    no bags, nil or bag penalty: the running bag count stays ``before``."""
    zeros = np.zeros((f.n, f.table.sides), np.int32)
    contract = auction_points(f.auction.bid, f.auction.declarer, f.side(f.tricks))
    return {"contract": contract, "bags": zeros, "made": contract >= 0, "bags_taken": zeros,
            "bags_after": before}


def refuse(rules) -> UserError | None:
    """An auction replaces the bids: a bid rule of `EXCLUDES` set with it is refused."""
    defaults = type(rules)()
    clash = [f.name for f in dataclasses.fields(rules) if f.name in EXCLUDES
             and getattr(rules, f.name) != getattr(defaults, f.name)]
    if clash:
        return UserError(f"an auction replaces the bids: it does not combine with {clash[0]}",
                         key="auction")
    return None


RULE = HouseRule(key="auction", section="§4.4", in_force=lambda r: r.auction,
                 bidding=bidding, own_scoring=score, record_bidding=record, refuse=refuse,
                 refuse_among="auction",
                 columns={"auction_bid": (np.int8(0), "the contract n (6 + n tricks)"),
                          "auction_declarer": (np.int8(-1), "the last bidder's seat")})
