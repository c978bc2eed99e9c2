"""Whole Portland whist games and independent hands for one block (RULES.md §1).

A block's randomness is `sim.blocks`: every cell with the same seed and block size deals the same
cards, and the turned-up card is the last card of the deal, the dealer's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..blocks import FIRST_DEALER, deal_groups, play_rng
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

    game: np.ndarray  # int64[H] (a rubber, under ``rubber``)
    hand_no: np.ndarray  # int16[H], 1-based
    game_no: np.ndarray  # int8[H], the game within the rubber (1 without rubbers)
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
        return BlockResult(game=np.arange(size), hand_no=np.ones(size, np.int16),
                           game_no=np.ones(size, np.int8), dealer=dealer,
                           hands=hands, turn_up=turn_up, before_scores=zeros, outcomes=[out],
                           games=None)
    return _play_games(rules, lineup, seed, block, size, deck, prng)


def game_value(loser_score: np.ndarray) -> np.ndarray:
    """Rubber points for winning a game (RULES.md §1, laws of short whist): 3, 2 or 1 when the
    losers have 0, 1-2 or 3-4 points."""
    return np.where(loser_score <= 0, 3, np.where(loser_score <= 2, 2, 1)).astype(np.int16)


RUBBER_BONUS = 2  # for winning the rubber (two games of three)


def _play_games(rules, lineup, seed, block, size, deck, prng) -> BlockResult:
    """Whole games; under ``rubber`` each unit is a rubber: games until a side has won two,
    scores reset after each game, the dealer rotating throughout."""
    scores = np.zeros((size, 2), dtype=np.int32)
    game_no = np.ones(size, dtype=np.int8)  # the game within the rubber
    games_won = np.zeros((size, 2), dtype=np.int8)
    rubber_points = np.zeros((size, 2), dtype=np.int16)
    n_hands = np.zeros(size, dtype=np.int16)
    winner = np.full(size, -1, dtype=np.int8)
    active = np.arange(size)
    parts = dict(game=[], hand_no=[], game_no=[], dealer=[], hands=[], turn_up=[],
                 before_scores=[])
    outcomes = []
    hand_no = 0
    while active.size:
        hand_no += 1
        if hand_no > rules.hand_limit:
            raise UserError(f"{active.size} games did not end within {rules.hand_limit} hands")
        dealer = np.full(active.size, (FIRST_DEALER + hand_no - 1) % 4, np.int8)
        hands, turn_up = deal_groups(deck, dealer, seed, block, hand_no, active, last=True)
        out = play_hands(hands, dealer, turn_up, scores[active], lineup, rules, prng, deck)
        for key, value in dict(game=active, hand_no=np.full(active.size, hand_no, np.int16),
                               game_no=game_no[active], dealer=dealer, hands=hands,
                               turn_up=turn_up, before_scores=scores[active]).items():
            parts[key].append(value)
        outcomes.append(out)
        scores[active] = out.scores_after
        n_hands[active] = hand_no
        done, won = game_over(out.scores_after, rules)
        ended, side = active[done], won[done].astype(np.intp)
        games_won[ended, side] += 1
        if rules.rubber:
            rubber_points[ended, side] += game_value(scores[ended, 1 - side])
            over = games_won[ended].max(axis=1) == 2
            again = ended[~over]  # the rubber goes on: a new game from 0-0
            scores[again] = 0
            game_no[again] += 1
            ended, side = ended[over], side[over]
            rubber_points[ended, side] += RUBBER_BONUS
            done[done] = over
        winner[ended] = side
        active = active[~done]
    games = dict(n_hands=n_hands, winner=winner, score_0=scores[:, 0], score_1=scores[:, 1])
    for s in range(2):
        games[f"games_won_{s}"] = games_won[:, s]
        games[f"rubber_points_{s}"] = rubber_points[:, s]
    return BlockResult(games=games, outcomes=outcomes,
                       **{k: np.concatenate(v) for k, v in parts.items()})
