"""The tidy tables of a Spades block: ``hands`` (one row per hand) and ``games`` (one per game).

The schema is documented in docs/SCHEMA.md; a test keeps the two in step. Seats are 0..3, sides 0
(seats 0 and 2) and 1 (seats 1 and 3). ``hand_<seat>`` is the seat's dealt cards as a bitboard:
bit ``13 * suit + rank`` with suits C, D, H, S = 0..3 and ranks 2..A = 0..12.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ..blocks import BlockResult, finish_tables, stacked
from .scoring import COMPONENTS

__all__ = ["block_tables"]


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
        "redeals": result.redeals.astype(np.int8),
    }
    raised = stacked(outs, lambda o: o.bidding.raised)
    no_trump = stacked(outs, lambda o: o.bidding.no_trump)
    dark = stacked(outs, lambda o: o.bidding.dark)
    half = stacked(outs, lambda o: o.bidding.half)
    players, sides = result.hands.shape[1], result.before_scores.shape[1]
    for seat in range(players):
        cols[f"bid_{seat}"] = bids[:, seat]
        cols[f"raised_{seat}"] = raised[:, seat]
        cols[f"no_trump_{seat}"] = no_trump[:, seat]
        cols[f"dark_{seat}"] = dark[:, seat]
        cols[f"half_{seat}"] = half[:, seat]
        cols[f"blind_{seat}"] = blind[:, seat]
        cols[f"tricks_{seat}"] = tricks[:, seat]
    cols["wins_game"] = stacked(outs, lambda o: o.score.wins_game)
    cols["cancel_card"] = stacked(outs, lambda o: o.cancel_card)
    for key in ("trump", "revealer", "restorer"):  # RULES.md §4.2 seven_trump_reveal
        cols[key] = stacked(outs, lambda o, k=key: getattr(o.reveals, k))
    auctions = [o.bidding.auction for o in outs]
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
        cols[f"face_up_{seat}"] = result.face_up[:, seat]
        cols[f"discarded_{seat}"] = result.discarded[:, seat]
        cols[f"twice_{seat}"] = result.twice[:, seat]
    kitties = [o.kitty for o in outs]  # RULES.md §4.1
    cols["kitty_taker"] = np.concatenate([k.taker for k in kitties])
    cols["kitty"] = np.concatenate([k.cards for k in kitties])
    cols["kitty_twice"] = np.concatenate([k.cards_twice for k in kitties])
    cols["kitty_discards"] = np.concatenate([k.discards for k in kitties])
    winners = [o.play.winners for o in outs]  # RULES.md §4.7 cancel_spades: tricks won by nobody
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
