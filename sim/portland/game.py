"""Whole Portland whist games and independent hands for one block (RULES.md §1).

A block's randomness is `sim.blocks`: every cell with the same seed and block size deals the same
cards, and the turned-up card is the last card of the deal, the dealer's.
"""

from __future__ import annotations

import numpy as np

from .. import blocks
from ..blocks import FIRST_DEALER, BlockResult, deal_groups
from .hand import deck_for, play_hands
from .rules import PortlandRules

__all__ = ["LOOP", "game_over", "play_block", "play_blocks"]


def game_over(scores: np.ndarray, rules: PortlandRules):
    """A game ends when a side has reached ``target_score`` and the scores differ (the higher
    wins: under ``honours_order = "together"`` both may pass it; equal totals play on).
    Returns (done: bool[N], winner: int8[N], -1 if not done)."""
    done = (scores >= rules.target_score).any(axis=1) & (scores[:, 0] != scores[:, 1])
    winner = np.where(done, (scores[:, 1] > scores[:, 0]).astype(np.int8), -1).astype(np.int8)
    return done, winner


def play_block(rules: PortlandRules, lineup, seed: int, block: int, size: int, mode: str,
               hand_offset: int = 0) -> BlockResult:
    """Play ``size`` whole games (``mode = "games"``; under ``rubber``, rubbers) or ``size``
    independent hands (from 0-0, the dealer rotating with the hand's global index): the one
    block loop (`sim.blocks.play_block`) over `LOOP`."""
    return blocks.play_block(LOOP, rules, lineup, seed, block, size, mode, hand_offset)


def play_blocks(rules: PortlandRules, lineup, seed: int, which, mode: str, fill: int = blocks.FILL):
    """Play several blocks (``which``: (block, size, hand_offset) each) and yield each
    ``(block, result)`` as it ends, whole games of the next block starting as the batch
    thins out (`sim.blocks.play_blocks`); each result equals `play_block`'s."""
    return blocks.play_blocks(LOOP, rules, lineup, seed, which, mode, fill)


def game_value(loser_score: np.ndarray) -> np.ndarray:
    """Rubber points for winning a game (RULES.md §1, laws of short whist): 3, 2 or 1 when the
    losers have 0, 1-2 or 3-4 points."""
    return np.where(loser_score <= 0, 3, np.where(loser_score <= 2, 2, 1)).astype(np.int16)


RUBBER_BONUS = 2  # for winning the rubber (two games of three)


def _start(rules, n):
    return dict(scores=np.zeros((n, 2), dtype=np.int32), game_no=np.ones(n, dtype=np.int8),
                games_won=np.zeros((n, 2), dtype=np.int8),
                rubber_points=np.zeros((n, 2), dtype=np.int16))


def _deal(rules, lineup, seed, block, hand_no, rows, dealer, standing, deck, rng, group):
    """The deal and its turned-up card: the dealer's last card (RULES.md §1)."""
    hands, turn_up = deal_groups(deck, dealer, seed, block, hand_no, rows, group=group,
                                 last=True)
    per_hand = dict(game_no=standing["game_no"], hands=hands, turn_up=turn_up,
                    before_scores=standing["scores"])
    return (hands, turn_up), per_hand


def _play(rules, deal, dealer, standing, lineup, rng, deck):
    hands, turn_up = deal
    return play_hands(hands, dealer, turn_up, standing["scores"], lineup, rules, rng, deck)


def _settle(rules, standing, rows, out, hand_no):
    """The scores after the hand; a game won ends, or under ``rubber`` the rubber once a side has
    won two games (then the rubber's winner wins): a new game of the rubber starts from 0-0, the
    dealer rotating throughout."""
    scores, games_won, rubber_points = (standing[k] for k in ("scores", "games_won",
                                                              "rubber_points"))
    scores[rows] = out.scores_after
    done, won = game_over(out.scores_after, rules)
    ended, side = rows[done], won[done].astype(np.intp)
    games_won[ended, side] += 1
    if rules.rubber:
        rubber_points[ended, side] += game_value(scores[ended, 1 - side])
        over = games_won[ended].max(axis=1) == 2
        again = ended[~over]  # the rubber goes on: a new game from 0-0
        scores[again] = 0
        standing["game_no"][again] += 1
        rubber_points[ended[over], side[over]] += RUBBER_BONUS
        done[done] = over
    return done, won


def _games(rules, standing, n_hands, winner):
    scores = standing["scores"]
    games = dict(n_hands=n_hands, winner=winner, score_0=scores[:, 0], score_1=scores[:, 1])
    for s in range(2):
        games[f"games_won_{s}"] = standing["games_won"][:, s]
        games[f"rubber_points_{s}"] = standing["rubber_points"][:, s]
    return games


def _unended(rules, n):
    return f"{n} games did not end within {rules.hand_limit} hands"


LOOP = blocks.GameLoop(deck_for=deck_for, first_dealer=lambda rules: FIRST_DEALER,
                       start=_start, deal=_deal, play=_play, settle=_settle, games=_games,
                       unended=_unended)
