"""Side contracts of RULES.md §4.4: declared for a side instead of its partners' two bids (team
nil, team blind nil, the wheel, Mo, blind six, blind moon), or on top of them (bemo). Each is
offered and scored by its house rule's plug-in (`sim.spades.house`: ``team_nil``,
``team_blind_nil``, ``ten_for_two_hundred``, ``mo_a``, ``mo_b``, ``blind_six``, ``blind_moon``,
``bemo``; `sim.spades.plugin.HouseRule` ``contracts`` and ``contract``); the codes, the way a
side declares them and what a contract replaces are the engine's.

Codes (int8, per side; 0 = none) and their record names:

    side contracts: TEAM_NIL 1, TEAM_BLIND_NIL 2, WHEEL 3, LITTLE_MO 4, BIG_MO 5, BLIND_SIX 6,
                    BLIND_MOON 7
    bemo:           LITTLE_BEMO 8, BIG_BEMO 9

Strategies choose among them through a uint16 mask (bit c = code c; bit 0 = declare nothing).
Scoring needs the order in which tricks were won (Mo and bemo), ``winners`` int8[N, 13].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["BEMO", "BIG_BEMO", "BIG_MO", "BLIND", "BLIND_MOON", "BLIND_SIX", "STAGES",
           "LITTLE_BEMO", "LITTLE_MO", "NAMES", "TEAM_BLIND_NIL", "TEAM_NIL", "WHEEL",
           "ContractScore", "contract_points", "first_won", "longest_run", "mask"]

(TEAM_NIL, TEAM_BLIND_NIL, WHEEL, LITTLE_MO, BIG_MO, BLIND_SIX, BLIND_MOON, LITTLE_BEMO,
 BIG_BEMO) = range(1, 10)
NAMES = (None, "team_nil", "team_blind_nil", "wheel", "little_mo", "big_mo", "blind_six",
         "blind_moon", "little_bemo", "big_bemo")
BLIND = (TEAM_BLIND_NIL, BLIND_SIX, BLIND_MOON)  # declared before either partner looks
BEMO = (LITTLE_BEMO, BIG_BEMO)
# when a side declares (`sim.spades.bidding`): "blind" before either partner looks, "sighted"
# before the side's first bid (both replace the side's bids), "bemo" on top of the side's
# ordinary bids, by its last bidder
STAGES = ("blind", "sighted", "bemo")


def mask(codes) -> int:
    """The mask of ``codes`` with bit 0 (declare nothing), or 0 when there are none."""
    codes = set(codes)
    return sum(1 << c for c in {0, *codes}) if codes else 0


def longest_run(won: np.ndarray) -> np.ndarray:
    """int[N]: the longest run of consecutive True along axis 1 of bool[N, T]."""
    run = np.zeros(won.shape[0], dtype=np.int32)
    best = np.zeros_like(run)
    for t in range(won.shape[1]):
        run = np.where(won[:, t], run + 1, 0)
        best = np.maximum(best, run)
    return best


def first_won(won: np.ndarray, k: int) -> np.ndarray:
    """bool[N]: the first ``k`` tricks all won."""
    return won[:, :k].all(axis=1)


@dataclass(eq=False)
class ContractScore:
    """One side's declarations being scored, [N] each: ``code`` the codes declared (0 = none),
    ``taken`` the side's tricks, ``won`` bool[N, T] which tricks the side won, in order (None on
    a score sheet), ``rules``; filled by the plug-ins (each for its codes): ``points``, the
    ``bags`` the contract counts, ``wins`` it wins the game at once."""

    code: np.ndarray
    taken: np.ndarray
    won: np.ndarray | None
    rules: object
    points: np.ndarray = None
    bags: np.ndarray = None
    wins: np.ndarray = None

    def __post_init__(self):
        self.points = np.zeros(self.code.shape, dtype=np.int32)
        self.bags = np.zeros(self.code.shape, dtype=np.int32)
        self.wins = np.zeros(self.code.shape, dtype=bool)

    def score(self, which: int, made: np.ndarray, value: int, failed: int | None = None) -> None:
        """Where ``which`` was declared: ``value`` if ``made``, else ``failed`` (-value)."""
        failed = -value if failed is None else failed
        self.points = np.where(self.code == which, np.where(made, value, failed), self.points)

    def played(self, codes, what: str) -> bool:
        """Some row declared one of ``codes``, which are scored from the order of the tricks
        (``won``): raises on a score sheet."""
        if not np.isin(self.code, codes).any():
            return False
        if self.won is None:
            raise ValueError(f"{what} is scored from the order of the tricks: give the plays")
        return True


def contract_points(code: np.ndarray, taken: np.ndarray, won: np.ndarray | None, rules,
                    parts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per side (the arrays are [N] for one side): the declarations' points, the bags they
    count and whether they win the game at once, each scored by its plug-in's part of ``parts``
    (``part(at)`` on a `ContractScore` ``at``). ``taken``: the side's tricks; ``won``: bool[N,
    13] which tricks the side won, in order (None on a score sheet)."""
    at = ContractScore(code=code, taken=taken, won=won, rules=rules)
    for part in parts:
        part(at)
    return at.points, at.bags, at.wins
