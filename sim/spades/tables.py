"""The tidy tables of a Spades block: ``hands`` (one row per hand) and ``games`` (one per game).

The schema is documented in docs/SCHEMA.md; a test keeps the two in step. Seats are 0..3, sides 0
(seats 0 and 2) and 1 (seats 1 and 3). ``hand_<seat>`` is the seat's dealt cards as a bitboard:
bit ``13 * suit + rank`` with suits C, D, H, S = 0..3 and ranks 2..A = 0..12.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa

from .. import arrow
from ..blocks import BlockResult, finish_tables, stacked
from .house import DECLARED, HOUSE_RULES, STATE, fills
from .rules import SpadesRules
from .scoring import COMPONENTS, TRICK_BONUSES

__all__ = ["BROUGHT", "absent_columns", "block_tables", "missing_columns", "written"]

# The columns a house rule brings (docs/SCHEMA.md, "written"): each is written only where its
# rule is in force; under other rules it would hold its default in every row, and block_tables
# checks that it does before leaving it out (a column that varies is never dropped). Name ->
# (in force under the rules?, default, the rule as docs/SCHEMA.md names it); ``<seat>`` and
# ``<side>`` stand for one column per seat and per side.
I8, I16, U64, NO = np.int8, np.int16, np.uint64, np.bool_(False)
BROUGHT: dict[str, tuple[Callable[[SpadesRules], bool], np.generic, str]] = {
    "side_contract_<side>": (lambda r: r.side_contracts, I8(0), "a side contract (RULES.md §4.4)"),
    "wins_game": (lambda r: r.moon or r.lexington or r.double_blind_nil or r.side_contracts,
                  I8(-1), "moon, lexington, double_blind_nil or a side contract"),
    "progressive_<side>": (lambda r: r.progressive is not None, I16(0),
                           "seven_plus = \"progressive\" or highlander"),
    "bonus_<side>": (lambda r: r.exact_pair_bonus or r.seven_plus is not None or r.highlander,
                     I16(0), "exact_pair_bonus, seven_plus or highlander"),
    "trick_bonus_<side>": (lambda r: any(getattr(r, k) for k in TRICK_BONUSES), I16(0),
                           "a trick bonus (last_trick_bonus ... last_trick_high_spade)"),
    "passed_<seat>": (lambda r: fills(r, "pass_before_bids") or fills(r, "pass_after_bids"),
                      U64(0), "pass_cards or nil_pass"),  # the plug-ins that exchange cards
    "discarded_<seat>": (lambda r: r.players == 2, U64(0), "two players"),
    "twice_<seat>": (lambda r: r.copies == 2, U64(0), "two decks"),
    "kitty_twice": (lambda r: r.kitty_size > 0 and r.copies == 2, U64(0),  # the kitty plug-in's
                    "kitty with two decks"),  # state, written with two decks
    "face_up_twice_<seat>": (lambda r: r.face_up_cards > 0 and r.copies == 2, U64(0),  # the
                             "face_up_cards with two decks"),  # face-up cards dealt twice
    **{name: (rule.in_force, default, rule.key)  # the plug-ins' (sim/spades/house)
       for rule in HOUSE_RULES for name, (default, _) in rule.columns.items()},
}


def _expand(name: str, players: int, sides: int) -> list[str]:
    if "<seat>" in name:
        return [name.replace("<seat>", str(s)) for s in range(players)]
    if "<side>" in name:
        return [name.replace("<side>", str(s)) for s in range(sides)]
    return [name]


def missing_columns(names) -> dict[str, np.generic]:
    """The columns of `BROUGHT` a table with the columns ``names`` does not have (its rules do
    not bring them), each with the value it would hold in every row; the table's seats and
    sides are read off its ``tricks_<seat>`` and ``score_<side>`` columns."""
    names = set(names)
    if "hand_no" not in names:  # a games table: no column of it is a rule's
        return {}
    players = sum(n.startswith("tricks_") for n in names)
    sides = sum(n.startswith("score_") for n in names)
    return {column: default for name, (_, default, _) in BROUGHT.items()
            for column in _expand(name, players, sides) if column not in names}


def absent_columns(rules: SpadesRules) -> dict[str, np.generic]:
    """The columns these rules do not write (`BROUGHT`), each with the value it would hold."""
    return {column: default for name, (brought, default, _) in BROUGHT.items()
            if not brought(rules) for column in _expand(name, rules.players, rules.sides)}


def written(hands: pa.Table, rules: SpadesRules) -> pa.Table:
    """The ``hands`` table as it is written: without the columns the rules do not bring
    (`absent_columns`), each checked to hold only the value it would have."""
    absent = absent_columns(rules)
    for column, default in absent.items():
        values = arrow.values(hands.column(column))
        if values.size and not np.all(values == default):
            raise RuntimeError(f"column {column} varies although its rule is not in force "
                               "(docs/SCHEMA.md): an engine bug")
    return hands.drop_columns(list(absent))


def block_tables(result: BlockResult, game_offset: int) -> tuple[pa.Table, pa.Table | None]:
    outs = result.outcomes
    bids = stacked(outs, lambda o: o.bidding.bids)
    blind = stacked(outs, lambda o: o.bidding.blind)
    tricks = stacked(outs, lambda o: o.play.tricks)
    after = stacked(outs, lambda o: o.scores_after)
    bags = stacked(outs, lambda o: o.score.bags_after)
    taken = stacked(outs, lambda o: o.score.bags_taken)
    progressive = stacked(outs, lambda o: o.score.progressive_after)
    parts = {name: stacked(outs, lambda o, n=name: getattr(o.score, n)) for name in COMPONENTS}
    points = sum(parts.values())
    cols: dict[str, np.ndarray] = {
        "game_id": result.game.astype(np.int64) + game_offset,
        "hand_no": result.hand_no.astype(np.int16),
        "dealer": result.dealer.astype(np.int8),
    }
    half = stacked(outs, lambda o: o.bidding.half)
    flags = {flag: stacked(outs, lambda o, f=flag: o.bidding.flags[f]) for flag in DECLARED}
    players, sides = result.hands.shape[1], result.before_scores.shape[1]
    for seat in range(players):
        cols[f"bid_{seat}"] = bids[:, seat]
        for flag, values in flags.items():  # the plug-ins' flags (sim/spades/house)
            cols[f"{flag}_{seat}"] = values[:, seat]
        cols[f"half_{seat}"] = half[:, seat]
        cols[f"blind_{seat}"] = blind[:, seat]
        cols[f"tricks_{seat}"] = tricks[:, seat]
    cols["wins_game"] = stacked(outs, lambda o: o.score.wins_game)
    for name in STATE:  # the plug-ins' hand state (sim/spades/house: cancel_card, trump, ...)
        values = stacked(outs, lambda o, n=name: o.house_state[n])
        if values.ndim == 2:  # by seat (face_up)
            for seat in range(players):
                cols[f"{name}_{seat}"] = values[:, seat]
        else:
            cols[name] = values
    auctions = [o.bidding.auction for o in outs]  # the auction plug-in's columns
    n_rows = [o.play.tricks.shape[0] for o in outs]
    cols["auction_bid"] = np.concatenate([a.bid if a is not None else np.zeros(k, np.int8)
                                          for a, k in zip(auctions, n_rows, strict=True)])
    cols["auction_declarer"] = np.concatenate([a.declarer if a is not None
                                               else np.full(k, -1, np.int8)
                                               for a, k in zip(auctions, n_rows, strict=True)])
    contracts = stacked(outs, lambda o: o.bidding.contracts)
    bemo = stacked(outs, lambda o: o.bidding.bemo)
    for side in range(sides):
        cols[f"side_contract_{side}"] = contracts[:, side]
        cols[f"bemo_bid_{side}"] = bemo[:, side]
    passed = stacked(outs, lambda o: o.passed)
    for seat in range(players):
        cols[f"passed_{seat}"] = passed[:, seat]
        cols[f"discarded_{seat}"] = result.discarded[:, seat]
        cols[f"twice_{seat}"] = result.twice[:, seat]
    winners = [o.play.winners for o in outs]  # tricks won by nobody (RULES.md §4.7)
    cols["dead_tricks"] = np.concatenate([(w < 0).sum(axis=1, dtype=np.int8) for w in winners])
    for side in range(sides):
        cols[f"points_{side}"] = points[:, side].astype(np.int16)
        cols[f"score_{side}"] = after[:, side].astype(np.int32)
        cols[f"bags_{side}"] = bags[:, side].astype(np.int8)
        cols[f"bags_taken_{side}"] = taken[:, side].astype(np.int8)
        cols[f"progressive_{side}"] = progressive[:, side].astype(np.int16)
        for name in COMPONENTS:
            cols[f"{name}_{side}"] = parts[name][:, side].astype(np.int16)
    return finish_tables(cols, result, game_offset)
