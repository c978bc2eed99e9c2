"""Whole Portland whist games and independent hands for one block (RULES.md §1).

A block's randomness is `sim.blocks`: every cell with the same seed and block size deals the same
cards, and the turned-up card is the last card of the deal, the dealer's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..blocks import FIRST_DEALER, HAND_GUARD, deal_groups, play_rng
from ..errors import UserError
from .hand import HandOutcome, deck_for, play_hands
from .rules import PortlandRules

__all__ = ["BlockResult", "game_over", "play_block"]


def game_over(scores: np.ndarray, rules: PortlandRules):
    """A game ends when a side has reached ``target_score`` and the scores differ (the higher
    wins: under ``honours_order = "together"`` both may pass it; equal totals play on).
    Returns (done: bool[N], winner: int8[N], -1 if not done)."""
    done = (scores >= rules.target_score).any(axis=1) & (scores[:, 0] != scores[:, 1])
    winner = np.where(done, (scores[:, 1] > scores[:, 0]).astype(np.int8), -1).astype(np.int8)
    return done, winner


@dataclass(eq=False)
class BlockResult:
    """Per played hand: its game row and hand number, dealer, dealt cards, turned-up card and
    scores before; the outcomes (one per hand number, rows in the order of `game`); per game
    the final state (None for a run of independent hands)."""

    game: np.ndarray  # int64[H]
    hand_no: np.ndarray  # int16[H], 1-based
    dealer: np.ndarray  # int8[H]
    hands: np.ndarray  # uint64[H, 4]
    turn_up: np.ndarray  # int8[H] slot of the dealer's turned-up last card
    before_scores: np.ndarray  # int32[H, 2]
    outcomes: list[HandOutcome]
    games: dict[str, np.ndarray] | None


def play_block(rules: PortlandRules, lineup, seed: int, block: int, size: int, mode: str,
               hand_offset: int = 0) -> BlockResult:
    """Play ``size`` whole games (``mode = "games"``) or ``size`` independent hands (from 0-0,
    the dealer rotating with the hand's global index)."""
    deck = deck_for(rules)
    prng = play_rng(seed, block)
    if mode == "hands":
        dealer = ((FIRST_DEALER + hand_offset + np.arange(size)) % 4).astype(np.int8)
        hands, turn_up = deal_groups(deck, dealer, seed, block, 1, np.arange(size), group=size,
                                     last=True)
        zeros = np.zeros((size, 2), dtype=np.int32)
        out = play_hands(hands, dealer, turn_up, zeros, lineup, rules, prng, deck)
        return BlockResult(game=np.arange(size), hand_no=np.ones(size, np.int16), dealer=dealer,
                           hands=hands, turn_up=turn_up, before_scores=zeros, outcomes=[out],
                           games=None)
    scores = np.zeros((size, 2), dtype=np.int32)
    n_hands = np.zeros(size, dtype=np.int16)
    winner = np.full(size, -1, dtype=np.int8)
    active = np.arange(size)
    parts = dict(game=[], hand_no=[], dealer=[], hands=[], turn_up=[], before_scores=[])
    outcomes = []
    hand_no = 0
    while active.size:
        hand_no += 1
        if hand_no > HAND_GUARD:
            raise UserError(f"{active.size} games did not end within {HAND_GUARD} hands")
        dealer = np.full(active.size, (FIRST_DEALER + hand_no - 1) % 4, np.int8)
        hands, turn_up = deal_groups(deck, dealer, seed, block, hand_no, active, last=True)
        out = play_hands(hands, dealer, turn_up, scores[active], lineup, rules, prng, deck)
        for key, value in dict(game=active, hand_no=np.full(active.size, hand_no, np.int16),
                               dealer=dealer, hands=hands, turn_up=turn_up,
                               before_scores=scores[active]).items():
            parts[key].append(value)
        outcomes.append(out)
        scores[active] = out.scores_after
        n_hands[active] = hand_no
        done, won = game_over(out.scores_after, rules)
        winner[active[done]] = won[done]
        active = active[~done]
    games = dict(n_hands=n_hands, winner=winner, score_0=scores[:, 0], score_1=scores[:, 1])
    return BlockResult(games=games, outcomes=outcomes,
                       **{k: np.concatenate(v) for k, v in parts.items()})
