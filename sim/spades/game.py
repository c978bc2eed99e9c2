"""Whole Spades games and independent hands for one block of the batch (RULES.md §3, §4.8).

How a block's randomness is drawn (and why results do not depend on how blocks are spread over
processes, and cells share their deals) is `sim.blocks`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..blocks import DEAL_GROUP, FIRST_DEALER, play_rng, stock_groups
from ..errors import UserError
from .dealing import Dealt, deal_from_order
from .draw import draw_hands
from .hand import HandOutcome, deck_for, play_hands
from .redeal import redeal
from .rules import SpadesRules

__all__ = ["BlockResult", "game_over", "play_block"]


def game_over(scores: np.ndarray, hand_no: int, rules: SpadesRules):
    """The stop condition after a hand (RULES.md §3 and §4.8), for scores int32[N, S].

    A game may end when a side reaches ``target_score``, a side is at or below ``mercy_score`` (or
    ``-target_score`` under ``defeat_score``), or
    ``max_hands`` hands were played; it then ends unless the scores are equal (ties play another
    hand), and the higher score wins (with more than two sides: the highest, unshared). Returns
    (done: bool[N], winner: int8[N], -1 if not done).
    """
    may_end = np.zeros(scores.shape[0], dtype=bool)
    if rules.target_score is not None:
        may_end |= (scores >= rules.target_score).any(axis=1)
    if rules.mercy_score is not None:
        may_end |= (scores <= rules.mercy_score).any(axis=1)
    if rules.defeat_score:  # RULES.md §4.8: a side at or below -target_score loses
        may_end |= (scores <= -rules.target_score).any(axis=1)
    if rules.max_hands is not None and hand_no >= rules.max_hands:
        may_end[:] = True
    top = scores.max(axis=1)
    done = may_end & ((scores == top[:, None]).sum(axis=1) == 1)
    winner = np.where(done, np.argmax(scores, axis=1), -1).astype(np.int8)
    return done, winner


def _unended(n: int, rules: SpadesRules) -> str:
    """Why ``n`` games stopped at the guard (`SpadesRules.hand_limit`)."""
    limit = rules.hand_limit
    if rules.progressive:
        return (f"{n} games did not end within {limit} hands, the most a game with "
                f"{rules.progressive}'s progressive bonus may last; these rules need max_hands, a "
                "mercy_score or a reachable target_score")
    if rules.max_hands is not None:
        return (f"{n} games were still tied after {limit} hands (max_hands = {rules.max_hands};"
                f" a tied game plays on, and hand_no counts to {limit})")
    return (f"{n} games did not end within {limit} hands; these rules need max_hands, a "
            "mercy_score or a reachable target_score")


@dataclass(eq=False)
class BlockResult:
    """What a block produced: per played hand, its game row and hand number, the outcome arrays
    (concatenated over hand numbers), and per game the final state."""

    game: np.ndarray  # int64[H] row of the game in the block
    hand_no: np.ndarray  # int16[H] 1-based
    dealer: np.ndarray  # int8[H]
    hands: np.ndarray  # uint64[H, P] dealt cards
    twice: np.ndarray  # uint64[H, P] the cards dealt twice to a seat (two decks; else zeros)
    before_scores: np.ndarray  # int32[H, 2]
    before_bags: np.ndarray  # int32[H, 2]
    before_progressive: np.ndarray  # int32[H, 2] progressive bonuses so far (RULES.md §4.6)
    redeals: np.ndarray  # int8[H] misdeals called before the hand was played (RULES.md §4.1)
    face_up: np.ndarray  # uint64[H, P] the cards dealt face up (RULES.md §4.1; 0 without)
    discarded: np.ndarray  # uint64[H, P] the cards discarded drawing the hand (two players)
    outcomes: list[HandOutcome]  # one per hand number, rows in the order of `game`
    games: dict[str, np.ndarray] | None  # per game: n_hands, score_<s>, bags_<s>, winner, ...


def play_block(rules: SpadesRules, lineup, seed: int, block: int, size: int, mode: str,
               hand_offset: int = 0) -> BlockResult:
    """Play ``size`` whole games (``mode = "games"``) or ``size`` independent hands (``"hands"``:
    each from 0-0, the dealer rotating with the hand's global index ``hand_offset + i``)."""
    deck = deck_for(rules)
    prng = play_rng(seed, block)
    if mode == "hands":
        dealer = ((FIRST_DEALER + hand_offset + np.arange(size)) % rules.players).astype(
            np.int8)
        zeros = np.zeros((size, rules.sides), dtype=np.int32)
        dealt, redeals, discards = _deal(rules, lineup, seed, block, 1, np.arange(size), dealer,
                                         zeros, zeros, deck, prng, group=size)
        out = play_hands(dealt.hands, dealer, zeros, zeros, lineup, rules, prng, deck,
                         dealt=dealt)
        return BlockResult(game=np.arange(size), hand_no=np.ones(size, np.int16), dealer=dealer,
                           hands=dealt.hands, twice=dealt.twice, before_scores=zeros,
                           before_bags=zeros, before_progressive=zeros, redeals=redeals,
                           face_up=dealt.face_up, discarded=discards, outcomes=[out],
                           games=None)
    return _play_games(rules, lineup, seed, block, size, deck, prng)


def _deal(rules, lineup, seed, block, hand_no, rows, dealer, scores, bags, deck, prng,
          group=DEAL_GROUP):
    """The deal of ``rows`` for hand ``hand_no`` after any misdeals (`sim.spades.dealing.Dealt`:
    hands, cards held twice, face-up cards, kitty), how many misdeals each had and the cards
    each seat discarded drawing its hand (two players, RULES.md §4.7; zeros without)."""
    if rules.players == 2:  # no deal: the players draw their hands (RULES.md §4.7)
        stock = stock_groups(deck, seed, block, hand_no, rows, group=group)
        hands, discards, _ = draw_hands(stock, dealer, scores, bags, rules, deck, lineup, prng)
        zeros = np.zeros(rows.size, np.uint64)
        dealt = Dealt(hands=hands, twice=np.zeros_like(hands), face_up=np.zeros_like(hands),
                      kitty=zeros, kitty_twice=zeros)
        return dealt, np.zeros(rows.size, np.int8), discards

    def dealt(which, attempt):  # the attempt-th deal of some rows
        order = stock_groups(deck, seed, block, hand_no, rows[which], group=group,
                             attempt=attempt)
        return deal_from_order(order, dealer[which], rules, deck.copies)

    first = dealt(np.arange(rows.size), 0)
    parts = {k: getattr(first, k).copy() for k in ("twice", "face_up", "kitty", "kitty_twice")}

    def deal_again(which, attempt):
        again = dealt(which, attempt)
        for key, value in parts.items():
            value[which] = getattr(again, key)
        return again.hands

    hands, redeals = redeal(first.hands, dealer, scores, bags, rules, deck, lineup, prng,
                            deal_again)
    return Dealt(hands=hands, **parts), redeals, np.zeros_like(hands)


def _play_games(rules, lineup, seed, block, size, deck, prng) -> BlockResult:
    shape = (size, rules.sides)
    scores = np.zeros(shape, dtype=np.int32)
    bags = np.zeros(shape, dtype=np.int32)
    progressive = np.zeros(shape, dtype=np.int32)
    penalties = np.zeros(shape, dtype=np.int32)
    n_hands = np.zeros(size, dtype=np.int16)
    winner = np.full(size, -1, dtype=np.int8)
    active = np.arange(size)
    parts = dict(game=[], hand_no=[], dealer=[], hands=[], twice=[], before_scores=[],
                 before_bags=[],
                 before_progressive=[], redeals=[], face_up=[], discarded=[])
    outcomes = []
    hand_no = 0
    while active.size:
        hand_no += 1
        if hand_no > rules.hand_limit:  # the guard: max_hands (tied games play on), else
            raise UserError(_unended(active.size, rules))  # HAND_GUARD (sim/limits.py)
        dealer = ((FIRST_DEALER + hand_no - 1) % rules.players) * np.ones(active.size, np.int8)
        dealt, redeals, discards = _deal(rules, lineup, seed, block, hand_no, active, dealer,
                                         scores[active], bags[active], deck, prng)
        out = play_hands(dealt.hands, dealer, scores[active], bags[active], lineup, rules, prng,
                         deck, progressive=progressive[active], dealt=dealt)
        for key, value in dict(game=active, hand_no=np.full(active.size, hand_no, np.int16),
                               dealer=dealer, hands=dealt.hands, twice=dealt.twice,
                               before_scores=scores[active],
                               before_bags=bags[active],
                               before_progressive=progressive[active],
                               redeals=redeals, face_up=dealt.face_up,
                               discarded=discards).items():
            parts[key].append(value)
        outcomes.append(out)
        scores[active] = out.scores_after
        bags[active] = out.score.bags_after
        progressive[active] = out.score.progressive_after
        penalties[active] += out.score.bag_penalty < 0
        n_hands[active] = hand_no
        done, won = game_over(out.scores_after, hand_no, rules)
        outright = out.score.wins_game >= 0  # a moon or lexington made: won at once (§4.4)
        done, won = done | outright, np.where(outright, out.score.wins_game, won)
        winner[active[done]] = won[done]
        active = active[~done]
    games = dict(n_hands=n_hands, winner=winner)
    for s in range(rules.sides):
        games[f"score_{s}"] = scores[:, s]
        games[f"bags_{s}"] = bags[:, s]
        games[f"bag_penalties_{s}"] = penalties[:, s]
    return BlockResult(games=games, outcomes=outcomes,
                       **{k: np.concatenate(v) for k, v in parts.items()})
