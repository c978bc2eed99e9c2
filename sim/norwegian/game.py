"""Whole Norwegian whist games and independent hands for one block (RULES.md §2).

A block's randomness is `sim.blocks`: every cell with the same seed, block size and number of
players deals the same cards. The first hand of a game is dealt by the last seat (``P - 1``), so
seat 0 speaks first; the deal moves one seat left after every hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..blocks import deal_groups, play_rng
from ..errors import UserError
from .hand import HandOutcome, deck_for, play_hands
from .rules import NorwegianRules

__all__ = ["BlockResult", "game_over", "play_block"]


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


@dataclass(eq=False)
class BlockResult:
    """Per played hand: its game row and hand number, dealer, dealt cards and scores before;
    the outcomes (one per hand number, rows in the order of `game`); per game the final state
    (None for a run of independent hands)."""

    game: np.ndarray  # int64[H]
    hand_no: np.ndarray  # int16[H], 1-based
    dealer: np.ndarray  # int8[H]
    hands: np.ndarray  # uint64[H, P]
    before_scores: np.ndarray  # int32[H, sides]
    outcomes: list[HandOutcome]
    games: dict[str, np.ndarray] | None


def play_block(rules: NorwegianRules, lineup, seed: int, block: int, size: int, mode: str,
               hand_offset: int = 0) -> BlockResult:
    """Play ``size`` whole games (``mode = "games"``) or ``size`` independent hands (from 0-0,
    the dealer rotating with the hand's global index)."""
    deck = deck_for(rules)
    prng = play_rng(seed, block)
    players, first_dealer = rules.players, rules.players - 1
    deal = dict(players=players, cards_each=rules.cards_each)
    if mode == "hands":
        dealer = ((first_dealer + hand_offset + np.arange(size)) % players).astype(np.int8)
        hands = deal_groups(deck, dealer, seed, block, 1, np.arange(size), group=size, **deal)
        zeros = np.zeros((size, rules.sides), dtype=np.int32)
        out = play_hands(hands, dealer, zeros, lineup, rules, prng, deck)
        return BlockResult(game=np.arange(size), hand_no=np.ones(size, np.int16), dealer=dealer,
                           hands=hands, before_scores=zeros, outcomes=[out], games=None)

    scores = np.zeros((size, rules.sides), dtype=np.int32)
    n_hands = np.zeros(size, dtype=np.int16)
    winner = np.full(size, -1, dtype=np.int8)
    finished = np.zeros(size, dtype=bool)
    active = np.arange(size)
    parts = dict(game=[], hand_no=[], dealer=[], hands=[], before_scores=[])
    outcomes = []
    hand_no = 0
    while active.size:
        hand_no += 1
        if hand_no > rules.hand_limit:  # HAND_GUARD, without max_hands (which stops them)
            raise UserError(f"{active.size} games did not end within {rules.hand_limit} hands; "
                            "set max_hands to stop them unfinished")
        dealer = np.full(active.size, (first_dealer + hand_no - 1) % players, np.int8)
        hands = deal_groups(deck, dealer, seed, block, hand_no, active, **deal)
        out = play_hands(hands, dealer, scores[active], lineup, rules, prng, deck)
        for key, value in dict(game=active, hand_no=np.full(active.size, hand_no, np.int16),
                               dealer=dealer, hands=hands,
                               before_scores=scores[active]).items():
            parts[key].append(value)
        outcomes.append(out)
        scores[active] = out.scores_after
        n_hands[active] = hand_no
        done, won = game_over(out.scores_after, rules)
        winner[active[done]] = won[done]
        finished[active[done]] = True
        if rules.max_hands is not None and hand_no >= rules.max_hands:
            done[:] = True  # stopped unfinished: no winner
        active = active[~done]
    games = dict(n_hands=n_hands, winner=winner, finished=finished,
                 draw=finished & (winner < 0),
                 **{f"score_{s}": scores[:, s] for s in range(rules.sides)})
    return BlockResult(games=games, outcomes=outcomes,
                       **{k: np.concatenate(v) for k, v in parts.items()})
