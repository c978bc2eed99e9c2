"""Whole Spades games and independent hands for one block of the batch (RULES.md §3, §4.8).

How a block's randomness is drawn (and why results do not depend on how blocks are spread over
processes, and cells share their deals) is `sim.blocks`.
"""

from __future__ import annotations

import numpy as np

from .. import blocks
from ..blocks import DEAL_GROUP, FIRST_DEALER, BlockResult, stock_groups
from . import house
from .dealing import Dealt, deal_from_order
from .draw import draw_hands
from .hand import Seating, deck_for, play_hand, start_hand
from .rules import SpadesRules

__all__ = ["LOOP", "game_over", "play_block", "play_blocks"]


def game_over(scores: np.ndarray, hand_no: int, rules: SpadesRules):
    """The stop condition after a hand (RULES.md §3 and §4.8), for scores int32[N, S].

    A game may end when a side reaches ``target_score``, a side is at or below ``mercy_score``,
    a plug-in's standing is reached (``-target_score`` under ``defeat_score``), or ``max_hands``
    hands were played; it then ends unless the scores are equal (ties play another
    hand), and the higher score wins (with more than two sides: the highest, unshared). Returns
    (done: bool[N], winner: int8[N], -1 if not done).
    """
    may_end = np.zeros(scores.shape[0], dtype=bool)
    if rules.target_score is not None:
        may_end |= (scores >= rules.target_score).any(axis=1)
    if rules.mercy_score is not None:
        may_end |= (scores <= rules.mercy_score).any(axis=1)
    for rule in house.in_force(rules):  # the plug-ins' (defeat_score, RULES.md §4.8)
        if rule.ends_game:
            may_end |= rule.ends_game(scores, rules)
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


def play_block(rules: SpadesRules, lineup, seed: int, block: int, size: int, mode: str,
               hand_offset: int = 0) -> BlockResult:
    """Play ``size`` whole games (``mode = "games"``) or ``size`` independent hands (``"hands"``:
    each from 0-0, the dealer rotating with the hand's global index ``hand_offset + i``): the one
    block loop (`sim.blocks.play_block`) over `LOOP`."""
    return blocks.play_block(LOOP, rules, lineup, seed, block, size, mode, hand_offset)


def play_blocks(rules: SpadesRules, lineup, seed: int, which, mode: str, fill: int = blocks.FILL):
    """Play several blocks (``which``: (block, size, hand_offset) each) and yield each
    ``(block, result)`` as it ends, whole games of the next block starting as the batch
    thins out (`sim.blocks.play_blocks`); each result equals `play_block`'s."""
    return blocks.play_blocks(LOOP, rules, lineup, seed, which, mode, fill)


def _deal(rules, lineup, seed, block, hand_no, rows, dealer, scores, bags, deck, prng,
          group=DEAL_GROUP):
    """The deal of ``rows`` for hand ``hand_no`` after any misdeals (`sim.spades.dealing.Dealt`:
    hands, cards held twice, kitty, the plug-ins' values: the face-up cards and the misdeals
    called, RULES.md §4.1) and the cards each seat discarded drawing its hand (two players,
    §4.7; zeros without)."""
    if rules.players == 2:  # no deal: the players draw their hands (RULES.md §4.7)
        stock = stock_groups(deck, seed, block, hand_no, rows, group=group)
        hands, discards, seen = draw_hands(stock, dealer, scores, bags, rules, deck, lineup,
                                           prng)
        zeros = np.zeros(rows.size, np.uint64)
        dealt = Dealt(hands=hands, twice=np.zeros_like(hands), kitty=zeros, kitty_twice=zeros,
                      house={}, seen=seen)
        return dealt, discards

    def dealt(which, attempt):  # the attempt-th deal of some rows
        order = stock_groups(deck, seed, block, hand_no, rows[which], group=group,
                             attempt=attempt)
        return deal_from_order(order, dealer[which], rules, deck.copies)

    first = dealt(np.arange(rows.size), 0)
    parts = {k: getattr(first, k).copy() for k in ("twice", "kitty", "kitty_twice")}
    house_parts = {k: v.copy() for k, v in first.house.items()}

    def deal_again(which, attempt):
        again = dealt(which, attempt)
        for key, value in parts.items():
            value[which] = getattr(again, key)
        for key, value in house_parts.items():
            value[which] = again.house[key]
        return again.hands

    hands, called = first.hands, {}
    for rule in house.in_force(rules):  # misdeals (redeal_poor_hands, RULES.md §4.1)
        if rule.misdeal:
            hands, values = rule.misdeal(hands, dealer, scores, bags, rules, deck, lineup, prng,
                                         deal_again, parts["twice"] if deck.copies == 2 else None)
            called.update(values)
    return Dealt(hands=hands, **parts, house={**house_parts, **called}), np.zeros_like(hands)


def _start(rules, n):
    """Scores, bags, progressive bonuses earned (RULES.md §4.6) and bag penalties paid, by side."""
    shape = (n, rules.sides)
    return {key: np.zeros(shape, dtype=np.int32)
            for key in ("scores", "bags", "progressive", "penalties")}


def _hand_deal(rules, lineup, seed, block, hand_no, rows, dealer, standing, deck, rng, group):
    """The deal after any misdeals (`_deal`) and the hand's per-hand arrays: the dealt cards, the
    cards dealt twice, the standing before the hand and the draw's discards (two players; the
    plug-ins' values of the deal are on the hand's state)."""
    dealt, discards = _deal(rules, lineup, seed, block, hand_no, rows, dealer,
                            standing["scores"], standing["bags"], deck, rng, group=group)
    per_hand = dict(hands=dealt.hands, twice=dealt.twice, before_scores=standing["scores"],
                    before_bags=standing["bags"], before_progressive=standing["progressive"],
                    discarded=discards)
    return dealt, per_hand


def _play(rules, dealt, dealer, standing, lineup, rng, deck):
    """The hand's phases (`sim.spades.hand.pipeline`) from the deal and the standing."""
    hand = start_hand(dealt.hands, dealer, standing["scores"], standing["bags"],
                      progressive=standing["progressive"], dealt=dealt)
    return play_hand(hand, Seating(rules, deck, lineup, rng))


def _settle(rules, standing, rows, out, hand_no):
    """The standing after the hand; the game ends by `game_over`, or at once when a moon or a
    lexington was made (RULES.md §4.4: ``wins_game``)."""
    standing["scores"][rows] = out.scores_after
    standing["bags"][rows] = out.score.bags_after
    standing["progressive"][rows] = out.score.progressive_after
    standing["penalties"][rows] += out.score.bag_penalty < 0
    done, won = game_over(out.scores_after, hand_no, rules)
    outright = out.score.wins_game >= 0
    return done | outright, np.where(outright, out.score.wins_game, won)


def _games(rules, standing, n_hands, winner):
    games = dict(n_hands=n_hands, winner=winner)
    for s in range(rules.sides):
        games[f"score_{s}"] = standing["scores"][:, s]
        games[f"bags_{s}"] = standing["bags"][:, s]
        games[f"bag_penalties_{s}"] = standing["penalties"][:, s]
    return games


LOOP = blocks.GameLoop(deck_for=deck_for, first_dealer=lambda rules: FIRST_DEALER,
                       start=_start, deal=_hand_deal, play=_play, settle=_settle, games=_games,
                       unended=lambda rules, n: _unended(n, rules))
