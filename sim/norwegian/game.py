"""Whole Norwegian whist games and independent hands for one block (RULES.md §2).

A block's randomness is `sim.blocks`: every cell with the same seed, block size and number of
players deals the same cards. The first hand of a game is dealt by the last seat (``P - 1``), so
seat 0 speaks first; the deal moves one seat left after every hand.
"""

from __future__ import annotations

import numpy as np

from .. import blocks
from ..blocks import BlockResult, deal_groups
from .hand import deck_for, play_hands
from .rules import NorwegianRules

__all__ = ["LOOP", "game_over", "play_block", "play_blocks"]


def game_over(scores: np.ndarray, rules: NorwegianRules):
    """A game ends when a side (a player; a partnership in the classic game) is at or over
    ``target_score``; the unique highest score wins and a shared highest score is a draw — always
    the case under ``scoring = "both"`` in the seed game, where every player scores the same.
    Returns (done: bool[N], winner: int8[N], -1 if not done or drawn)."""
    top = scores.max(axis=1)
    done = top >= rules.target_score
    unique = (scores == top[:, None]).sum(axis=1) == 1
    winner = np.where(done & unique, scores.argmax(axis=1), -1).astype(np.int8)
    return done, winner


def play_block(rules: NorwegianRules, lineup, seed: int, block: int, size: int, mode: str,
               hand_offset: int = 0) -> BlockResult:
    """Play ``size`` whole games (``mode = "games"``) or ``size`` independent hands (from 0-0,
    the dealer rotating with the hand's global index): the one block loop
    (`sim.blocks.play_block`) over `LOOP`."""
    return blocks.play_block(LOOP, rules, lineup, seed, block, size, mode, hand_offset)


def play_blocks(rules: NorwegianRules, lineup, seed: int, which, mode: str, fill: int = blocks.FILL):
    """Play several blocks (``which``: (block, size, hand_offset) each) and yield each
    ``(block, result)`` as it ends, whole games of the next block starting as the batch
    thins out (`sim.blocks.play_blocks`); each result equals `play_block`'s."""
    return blocks.play_blocks(LOOP, rules, lineup, seed, which, mode, fill)


def _start(rules, n):
    return dict(scores=np.zeros((n, rules.sides), dtype=np.int32),
                finished=np.zeros(n, dtype=bool))


def _deal(rules, lineup, seed, block, hand_no, rows, dealer, standing, deck, rng, group):
    hands = deal_groups(deck, dealer, seed, block, hand_no, rows, group=group,
                        players=rules.players, cards_each=rules.cards_each)
    return hands, dict(hands=hands, before_scores=standing["scores"])


def _play(rules, hands, dealer, standing, lineup, rng, deck):
    return play_hands(hands, dealer, standing["scores"], lineup, rules, rng, deck)


def _settle(rules, standing, rows, out, hand_no):
    """The scores after the hand; a game over (`game_over`) is finished; every game stops after
    ``max_hands`` hands, unfinished if it did not end (no winner)."""
    standing["scores"][rows] = out.scores_after
    done, won = game_over(out.scores_after, rules)
    standing["finished"][rows[done]] = True
    if rules.max_hands is not None and hand_no >= rules.max_hands:
        done[:] = True  # stopped unfinished: no winner
    return done, won


def _games(rules, standing, n_hands, winner):
    finished, scores = standing["finished"], standing["scores"]
    return dict(n_hands=n_hands, winner=winner, finished=finished,
                draw=finished & (winner < 0),
                **{f"score_{s}": scores[:, s] for s in range(rules.sides)})


def _unended(rules, n):
    return (f"{n} games did not end within {rules.hand_limit} hands; set max_hands to stop them "
            "unfinished")


# The first hand of a game is dealt by the last seat, so that seat 0 speaks first.
LOOP = blocks.GameLoop(deck_for=deck_for, first_dealer=lambda rules: rules.players - 1,
                       start=_start, deal=_deal, play=_play, settle=_settle, games=_games,
                       unended=_unended)
