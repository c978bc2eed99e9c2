"""Refit the Norwegian expert's 2-player declaration model (`strategies.norwegian_expert`).

A script, not a test. Each deal is played twice with the declarer (expert play) forced to grand,
then to misère, against the seed (RULES.md §2, two players); the difference of his points is
regressed by least squares on the hand's features: the pips of 2..T (rank steps), jacks,
queens, kings, aces, voids, singletons, doubletons, the longest and second longest suits'
lengths. Grand where the fitted difference is above zero. Prints the weights under the expert's
parameter names, the fit's zero as ``model_grand_at``, and the declarer's mean points on
held-out deals (the last 40%) by the seed's rule, the model, and the better choice each deal.

    python bench/fit_norwegian_declare.py                  # 4 blocks x 20,000 deals, zero_sum
    python bench/fit_norwegian_declare.py --blocks 8 --rules norwegian.declarer
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sim  # noqa: E402,F401  (presets)
from sim.cards import popcount, standard_deck  # noqa: E402
from sim.games import game_of  # noqa: E402
from sim.lineup import Lineup  # noqa: E402
from sim.norwegian.auction import GRAND, MISERE  # noqa: E402
from sim.options import load_rules  # noqa: E402
from strategies import make_strategy  # noqa: E402
from strategies.norwegian_expert import _RANKS, _SUITS, NorwegianExpert  # noqa: E402

NAMES = ["pip", "jack_points", "queen_points", "king_points", "ace_points", "void_value",
         "singleton_value", "doubleton_value", "longest_value", "second_value"]


@dataclasses.dataclass(frozen=True, kw_only=True)
class Forced(NorwegianExpert):
    """The expert, declaring ``force`` whatever the hand."""

    force: int = GRAND

    def declare(self, view, rng):
        return np.full(len(view), self.force, np.int8)


def deals(rules, blocks: int, size: int, seed: int):
    """(uint64[m] the declarer's hands, float64[m, 2] his points with grand, with misère)."""
    game, opponent = game_of(rules), make_strategy("seed", game="norwegian")
    hands, points = [], []
    for block in range(blocks):
        by_force = {}
        for force in (GRAND, MISERE):
            forced = Forced(force=force)
            got = []
            for seats, mine in (([forced, opponent], 0), ([opponent, forced], 1)):
                result = game.play_block(rules, Lineup(seats), seed, block, size, "hands")
                out, rows = result.outcomes[0], np.arange(size)
                declarer = out.auction.declarer.astype(np.intp)
                own = declarer == mine
                got.append((result.hands[rows, declarer][own],
                            out.score.points[rows, declarer][own]))
            by_force[force] = tuple(np.concatenate(x) for x in zip(*got, strict=True))
        assert (by_force[GRAND][0] == by_force[MISERE][0]).all()  # the same deals
        hands.append(by_force[GRAND][0])
        points.append(np.stack([by_force[GRAND][1], by_force[MISERE][1]], axis=1))
    return np.concatenate(hands), np.concatenate(points).astype(float)


def features(hands: np.ndarray) -> np.ndarray:
    """float64[m, 10]: the model's features, in the order of ``NAMES``."""
    ranks = np.stack([popcount(hands & _RANKS[r]) for r in range(13)], axis=1).astype(float)
    lengths = np.sort(np.stack([popcount(hands & m) for m in _SUITS], axis=1), axis=1)
    pips = (ranks[:, :9] * np.arange(9)).sum(axis=1)
    short = [(lengths == k).sum(axis=1) for k in (0, 1, 2)]
    return np.column_stack([pips, ranks[:, 9:13], *short, lengths[:, 3], lengths[:, 2]])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="norwegian.zero_sum")
    parser.add_argument("--blocks", type=int, default=4)
    parser.add_argument("--size", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=777)
    args = parser.parse_args(argv)
    rules = load_rules(args.rules)
    hands, points = deals(rules, args.blocks, args.size, args.seed)
    x = np.column_stack([np.ones(len(hands)), features(hands)])
    gain = points[:, 0] - points[:, 1]  # grand's points minus misère's
    train = np.arange(len(hands)) < 0.6 * len(hands)
    w, *_ = np.linalg.lstsq(x[train], gain[train], rcond=None)
    test = ~train

    def declarer_points(grand):
        return float(np.where(grand, points[:, 0], points[:, 1])[test].mean())

    seed = make_strategy("seed", game="norwegian")
    print(f"{len(hands):,} deals of {args.rules}; held out: {int(test.sum()):,}")
    for name, weight in zip(NAMES, w[1:], strict=True):
        print(f"  {name} = {weight:.3g}")
    print(f"  model_grand_at = {-w[0]:.3g}")
    print(f"declarer's points on held-out deals: seed's rule "
          f"{declarer_points(seed.hand_value(hands, standard_deck()) >= seed.grand_at):.2f}, model "
          f"{declarer_points(x @ w > 0):.2f}, better choice each deal "
          f"{float(points.max(axis=1)[test].mean()):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
