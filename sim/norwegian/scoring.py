"""Norwegian whist scoring for the seed's 2- and 3-player game (RULES.md §2): one pure, vectorised
function. Not yet wired into a playable game (issue 5).

With ``T`` tricks a hand (13 for 2 players, 17 for 3) and the book ``b = T // 2``:
grand, ``k`` tricks: ``k > b`` → ``+2(k - b)``, else ``-2(b + 1 - k)``;
misère, ``t`` tricks (a 3-player misère team counts its combined tricks): ``t <= b`` →
``+2(b + 1 - t)``, else ``-2(t - b)``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["grand_value", "misere_value", "score_hands"]

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
