"""Norwegian whist scoring (RULES.md §2): pure, vectorised functions — the seed's 2- and
3-player tables (`score_hands`) and the classic four-player game (`score_classic`).

With ``T`` tricks a hand (13 for 2 players, 17 for 3) and the book ``b = T // 2``:
grand, ``k`` tricks: ``k > b`` → ``+2(k - b)``, else ``-2(b + 1 - k)``;
misère, ``t`` tricks (a 3-player misère team counts its combined tricks): ``t <= b`` →
``+2(b + 1 - t)``, else ``-2(t - b)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .auction import GRAND

__all__ = ["COMPONENTS", "HandScore", "grand_value", "misere_value", "score", "score_classic",
           "score_hands"]

SCORING = ("both", "declarer", "zero_sum")


def grand_value(k: np.ndarray, tricks_per_hand: int) -> np.ndarray:
    b = tricks_per_hand // 2
    return np.where(k > b, 2 * (k - b), -2 * (b + 1 - k))


def misere_value(t: np.ndarray, tricks_per_hand: int) -> np.ndarray:
    b = tricks_per_hand // 2
    return np.where(t <= b, 2 * (b + 1 - t), -2 * (t - b))


def score_hands(grand_player: np.ndarray, declarer: np.ndarray, grand_tricks: np.ndarray,
                players: int, scoring: str = "both", double_points: bool = False) -> np.ndarray:
    """int32[N, players]: each player's points for the hand.

    grand_player: int8[N] the seat playing grand (the others are misère); declarer: int8[N] the
    seat that chose (2 players: the non-dealer; 3 players: the grand player); grand_tricks:
    int[N] the grand player's tricks. ``scoring``: "both" — each side its own table (so with 2
    players both always score the same); "declarer" — only the declarer scores; "zero_sum" — the
    declarer's value to the declarer and its negative to each opponent. ``double_points``: the
    grand player taking every trick or none doubles every score of the hand.
    """
    if scoring not in SCORING:
        raise ValueError(f"scoring {scoring!r}; allowed: {', '.join(SCORING)}")
    tricks_per_hand = 13 if players == 2 else 17
    k = np.asarray(grand_tricks, dtype=np.int32)
    seats = np.arange(players)[None, :]
    is_grand = seats == np.asarray(grand_player)[:, None]
    own = np.where(is_grand, grand_value(k, tricks_per_hand)[:, None],
                   misere_value(tricks_per_hand - k, tricks_per_hand)[:, None])
    if double_points:
        own = own * np.where((k == 0) | (k == tricks_per_hand), 2, 1)[:, None]
    if scoring == "both":
        return own.astype(np.int32)
    is_declarer = seats == np.asarray(declarer)[:, None]
    value = np.take_along_axis(own, np.asarray(declarer, dtype=np.intp)[:, None], axis=1)
    if scoring == "declarer":
        return np.where(is_declarer, value, 0).astype(np.int32)
    return np.where(is_declarer, value, -value).astype(np.int32)


def score_classic(contract: np.ndarray, declarer: np.ndarray, tricks: np.ndarray,
                  rules) -> np.ndarray:
    """int32[N, 2] per side (side 0 = seats 0 and 2), the classic game (RULES.md §2 "Beyond the
    seed"). Grand: the bidding side scores ``grand_value`` per trick above six, or if it took six
    or fewer its opponents score ``grand_fail_value`` per trick they took above six. Nullo (bid,
    or all passed): each side scores ``nullo_value`` per trick above six taken by the other."""

    side = np.stack([tricks[:, 0] + tricks[:, 2], tricks[:, 1] + tricks[:, 3]],
                    axis=1).astype(np.int32)
    over = np.maximum(side - 6, 0)  # tricks above six, per side
    us = (np.maximum(declarer, 0) % 2).astype(np.intp)
    rows = np.arange(side.shape[0])
    made = over[rows, us] > 0
    grand = np.zeros_like(side)
    grand[rows, us] = np.where(made, rules.grand_value * over[rows, us], 0)
    grand[rows, 1 - us] = np.where(made, 0, rules.grand_fail_value * over[rows, 1 - us])
    nullo = rules.nullo_value * over[:, ::-1]
    return np.where((contract == GRAND)[:, None], grand, nullo).astype(np.int32)


COMPONENTS = ("contract", "double")  # the parts of a hand's points (hand records' components)


@dataclass(frozen=True, eq=False)
class HandScore:
    """Per side (int32[N, sides]): ``contract`` the table value under the scoring mode,
    ``double`` what double points added; ``points`` their sum. ``doubled``: bool[N]."""

    contract: np.ndarray
    double: np.ndarray
    doubled: np.ndarray

    @property
    def points(self) -> np.ndarray:
        return self.contract + self.double


def score(auction, tricks: np.ndarray, rules) -> HandScore:
    """A batch of hands' points, from the auction (`sim.norwegian.auction.Auction`) and the
    tricks per seat (int8[N, P])."""
    if rules.players == 4:
        points = score_classic(auction.contract, auction.declarer, tricks, rules)
        return HandScore(points, np.zeros_like(points), np.zeros(points.shape[0], bool))
    grand = np.maximum(auction.grand_player, 0).astype(np.intp)
    k = tricks[np.arange(tricks.shape[0]), grand]
    args = (auction.grand_player, auction.declarer, k, rules.players, rules.scoring)
    base = score_hands(*args)
    total = score_hands(*args, double_points=rules.double_points)
    doubled = rules.double_points & ((k == 0) | (k == rules.tricks_per_hand))
    return HandScore(base, total - base, doubled)
