"""Side contracts of RULES.md §4.4: declared for a side instead of its partners' two bids (team
nil, team blind nil, the wheel, Mo, blind six, blind moon), or on top of them (bemo).

Codes (int8, per side; 0 = none) and their record names:

    side contracts: TEAM_NIL 1, TEAM_BLIND_NIL 2, WHEEL 3, LITTLE_MO 4, BIG_MO 5, BLIND_SIX 6,
                    BLIND_MOON 7
    bemo:           LITTLE_BEMO 8, BIG_BEMO 9

Strategies choose among them through a uint16 mask (bit c = code c; bit 0 = declare nothing).
Scoring needs the order in which tricks were won (Mo and bemo), ``winners`` int8[N, 13].
"""

from __future__ import annotations

import numpy as np

__all__ = ["BEMO", "BIG_BEMO", "BIG_MO", "BLIND", "BLIND_MOON", "BLIND_SIX", "LITTLE_BEMO",
           "LITTLE_MO", "NAMES", "TEAM_BLIND_NIL", "TEAM_NIL", "WHEEL", "blind_codes",
           "bemo_codes", "contract_points", "sighted_codes"]

(TEAM_NIL, TEAM_BLIND_NIL, WHEEL, LITTLE_MO, BIG_MO, BLIND_SIX, BLIND_MOON, LITTLE_BEMO,
 BIG_BEMO) = range(1, 10)
NAMES = (None, "team_nil", "team_blind_nil", "wheel", "little_mo", "big_mo", "blind_six",
         "blind_moon", "little_bemo", "big_bemo")
BLIND = (TEAM_BLIND_NIL, BLIND_SIX, BLIND_MOON)  # declared before either partner looks
BEMO = (LITTLE_BEMO, BIG_BEMO)


def _mask(*codes: int) -> int:
    return sum(1 << c for c in codes)


def blind_codes(rules) -> int:
    """The blind side contracts the rules allow (bit 0, none, included when any is)."""
    codes = [c for c, on in ((TEAM_BLIND_NIL, rules.team_blind_nil), (BLIND_SIX, rules.blind_six),
                             (BLIND_MOON, rules.blind_moon)) if on]
    return _mask(0, *codes) if codes else 0


def sighted_codes(rules) -> int:
    """The side contracts declared after looking that the rules allow (with bit 0)."""
    codes = [c for c, on in ((TEAM_NIL, rules.team_nil), (WHEEL, rules.ten_for_two_hundred),
                             (LITTLE_MO, rules.mo_a or rules.mo_b),
                             (BIG_MO, rules.mo_a or rules.mo_b)) if on]
    return _mask(0, *codes) if codes else 0


def bemo_codes(rules) -> int:
    return _mask(0, *BEMO) if rules.bemo else 0


def _longest_run(won: np.ndarray) -> np.ndarray:
    """int[N]: the longest run of consecutive True along axis 1 of bool[N, T]."""
    run = np.zeros(won.shape[0], dtype=np.int32)
    best = np.zeros_like(run)
    for t in range(won.shape[1]):
        run = np.where(won[:, t], run + 1, 0)
        best = np.maximum(best, run)
    return best


def _first(won: np.ndarray, k: int) -> np.ndarray:
    """bool[N]: the first ``k`` tricks all won."""
    return won[:, :k].all(axis=1)


def contract_points(code: np.ndarray, taken: np.ndarray, won: np.ndarray | None, rules):
    """Per side (the arrays are [N] for one side): the side contract's points, the bags it
    counts and whether it wins the game at once. ``taken``: the side's tricks; ``won``:
    bool[N, 13] which tricks the side won, in order (None on a score sheet)."""
    points = np.zeros(code.shape, dtype=np.int32)
    bags = np.zeros(code.shape, dtype=np.int32)

    def score(which, made, value, failed=None):
        nonlocal points
        failed = -value if failed is None else failed
        points = np.where(code == which, np.where(made, value, failed), points)

    score(TEAM_NIL, taken == 0, 100)
    score(TEAM_BLIND_NIL, taken == 0, 150)
    score(WHEEL, taken >= 10, 200, -rules.ten_for_200_fail)
    if rules.ten_for_200_exact:
        bags = np.where(code == WHEEL, np.maximum(taken - 10, 0), bags)
    if rules.blind_six_at_least:
        score(BLIND_SIX, taken >= 6, 120, -60)
    else:
        score(BLIND_SIX, taken == 6, 120)
    every = rules.tricks_per_hand  # all 13 tricks; at other tables all the hand's (§4.7)
    score(BLIND_MOON, taken == every, 130)
    wins = (code == BLIND_MOON) & (taken == every)
    mo = (code == LITTLE_MO) | (code == BIG_MO)
    if mo.any():
        if won is None:
            raise ValueError("Mo is scored from the order of the tricks: give the plays")
        if rules.mo_a:  # a run of 6 (8) tricks at some point (RULES.md §4.4 mo_a)
            run = _longest_run(won)
            score(LITTLE_MO, run >= 6, 150)
            score(BIG_MO, run >= 8, 300)
        else:  # the first 7 (10) tricks (mo_b)
            score(LITTLE_MO, _first(won, 7), 150)
            score(BIG_MO, _first(won, 10), 250)
    return points, bags, wins


def bemo_points(code: np.ndarray, won: np.ndarray | None) -> np.ndarray:
    """Per side: Little Bemo (the first 6 tricks) ±60, Big Bemo (the first 9) ±90."""
    if not (code != 0).any():
        return np.zeros(code.shape, dtype=np.int32)
    if won is None:
        raise ValueError("bemo is scored from the order of the tricks: give the plays")
    little = np.where(_first(won, 6), 60, -60)
    big = np.where(_first(won, 9), 90, -90)
    return np.where(code == LITTLE_BEMO, little, np.where(code == BIG_BEMO, big, 0)).astype(
        np.int32)
