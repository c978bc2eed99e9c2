"""The ``search`` player's speed on one core (issue 21 item 3): hands and decisions a second.

A script, not a test. Plays ``--hands`` independent hands of ``--rules`` with ``search`` at all
four seats in one process (one block: the engine's batch of every hand in lockstep) for each
spec given, and reports the CPU seconds (``time.process_time``: the process's own, whatever
else the machine runs), hands per second, and decisions per second: every card the search
was asked (``cards``) and those with a choice, which it searches (``searched``). ``--profile``
prints the functions taking most of the time of the first spec.

    python bench/search_speed.py                                  # the default search
    python bench/search_speed.py --hands 2000 --specs '{"name": "search", "samples": 4}' \\
        '{"name": "search", "samples": 8}' '{"name": "search"}'
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim.cards import popcount  # noqa: E402
from sim.games import game_of  # noqa: E402
from sim.lineup import Lineup  # noqa: E402
from sim.options import load_rules  # noqa: E402
from strategies import make_strategy  # noqa: E402


class Counting:
    """Answers as ``inner``; counts the cards asked and those with a choice."""

    def __init__(self, inner):
        self.inner, self.cards, self.searched = inner, 0, 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def play(self, view, rng):
        self.cards += len(view)
        self.searched += int(np.count_nonzero(popcount(view.legal) > 1))
        return self.inner.play(view, rng)


def measure(rules, spec: dict, hands: int, seed: int, profile: bool = False) -> dict:
    player = Counting(make_strategy(spec, game=rules.game))
    game = game_of(rules)
    start = time.process_time()
    if profile:
        prof = cProfile.Profile()
        prof.runcall(game.play_block, rules, Lineup([player] * rules.players), seed, 0, hands,
                     "hands")
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    else:
        game.play_block(rules, Lineup([player] * rules.players), seed, 0, hands, "hands")
    cpu = time.process_time() - start
    return {"spec": spec, "hands": hands, "cpu_s": round(cpu, 2),
            "hands_per_s": round(hands / cpu, 1), "cards_per_s": round(player.cards / cpu),
            "searched_per_s": round(player.searched / cpu),
            "searched_share": round(player.searched / player.cards, 3)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="spades.standard",
                        help="a preset, a rules file or an inline table as JSON")
    parser.add_argument("--specs", nargs="+", default=['{"name": "search"}'],
                        help="search specs (JSON), each measured in turn")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    rules = load_rules(json.loads(args.rules) if args.rules.lstrip().startswith("{")
                       else args.rules)
    for k, text in enumerate(args.specs):
        out = measure(rules, json.loads(text), args.hands, args.seed, args.profile and k == 0)
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
