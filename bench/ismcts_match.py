"""whistlab's Spades players against OpenSpiel's search (issue 20 item 3).

A script, not a test. On OpenSpiel's own ``spades`` (one hand from 0-0, RULES.md's
``spades.openspiel``), a whistlab strategy (through `whistlab_bot`) holds one side and OpenSpiel's
Python ISMCTS (`whistlab.ismcts.ismcts_bot`: UCT, random rollouts, the exact resampler) the other,
on duplicate deals: each deal is played twice, the whistlab side at seats 0 and 2 then at 1 and 3.
Every hand is scored by OpenSpiel (the game's returns, a side's points of the hand: bags count one
point each and cost nothing within the hand). Reported per search budget:

* ``margin`` — per deal, the whistlab side's points minus the search's, averaged over the two
  seatings (the points per hand by which whistlab's player beats the search), with a 95% t
  interval over the deals;
* each side's points per hand, and its CPU seconds per hand (``time.process_time`` around its
  bots' moves, the two seats together; forced moves included).

    nice -n 10 python bench/ismcts_match.py --strategy expert --sims 200 --deals 150
    nice -n 10 python bench/ismcts_match.py --strategy expert,seed --sims 200,1000 --deals 150,50 \\
        --jobs 2 --out bench/ismcts_match.jsonl

``--out`` keeps one JSON line per deal; run again, the same command plays only the deals it lacks
and reports them all. The results do not depend on ``--jobs``: each hand's bots are seeded by the
seed, the deal and the seat. ``--strategy ismcts:C`` puts the search with ``uct_c = C`` at the
same budget on the other side (how ``--uct-c`` was chosen).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from whistlab.bots import openspiel_bot  # noqa: E402
from whistlab.ismcts import ismcts_bot  # noqa: E402

GAME = pyspiel.load_game("spades")
SEED = 20260920
UCT_C = 200.0


# True while OpenSpiel's uniform random player stood in for whistlab's (`whistlab_bot` returned
# `pyspiel.make_uniform_random_bot(player, seed)`); kept in the --out rows to tell them apart.
STAND_IN = False


def whistlab_bot(strategy: str, player: int, seed: int):
    """The whistlab player of ``player``'s seat: a ``pyspiel.Bot`` playing ``strategy`` (a name,
    or a strategy table as JSON: ``{"name": "search", "bag_price": 0}``)."""
    return openspiel_bot(json.loads(strategy) if strategy.startswith("{") else strategy, player,
                         seed=seed)


def strategies_of(text: str) -> list[str]:
    """``--strategy``: names separated by commas, or a JSON list of names and tables (each table
    kept as its JSON text, the rows' key)."""
    if text.lstrip().startswith("["):
        return [s if isinstance(s, str) else json.dumps(s, sort_keys=True)
                for s in json.loads(text)]
    return text.split(",")


def side_label(strategy: str) -> str:
    if strategy.startswith("ismcts:"):
        return f"ISMCTS, uct_c {float(strategy.split(':', 1)[1]):g}"
    return f"uniform random (stand-in for {strategy})" if STAND_IN else strategy


# the other side's name in `make_bot`: OpenSpiel's ISMCTS at the budget (not a whistlab strategy
# name, so that whistlab's own ``search`` can hold the whistlab side)
OPPONENT = "ismcts"


def make_bot(strategy: str, player: int, sims: int, uct_c: float, seed: int):
    if strategy.startswith("ismcts:"):
        return ismcts_bot(GAME, simulations=sims, seed=seed, uct_c=float(strategy.split(":")[1]))
    if strategy == OPPONENT:
        return ismcts_bot(GAME, simulations=sims, seed=seed, uct_c=uct_c)
    return whistlab_bot(strategy, player, seed)


def deal_of(seed: int, deal: int) -> list[int]:
    """The chance actions of a deal: card ``i`` goes to seat ``i % 4``."""
    return np.random.default_rng([seed, deal]).permutation(52).tolist()


def play(bots, cards) -> tuple[list[float], list[float]]:
    """One hand as ``pyspiel.evaluate_bots`` plays it (every bot told every action), dealt
    ``cards``: the returns and each seat's CPU seconds."""
    state = GAME.new_initial_state()
    for bot in bots:
        bot.restart()
    for card in cards:
        for bot in bots:
            bot.inform_action(state, pyspiel.PlayerId.CHANCE, card)
        state.apply_action(card)
    cpu = [0.0] * 4
    while not state.is_terminal():
        seat = state.current_player()
        start = time.process_time()
        action = bots[seat].step(state)
        cpu[seat] += time.process_time() - start
        for other, bot in enumerate(bots):
            if other != seat:
                bot.inform_action(state, seat, action)
        state.apply_action(action)
    return state.returns(), cpu


def seat_seed(task: dict, first: int, seat: int) -> int:
    return int(np.random.SeedSequence([task["seed"], task["deal"], first, seat])
               .generate_state(1)[0] >> 1)


def one_deal(task: dict) -> dict:
    """Both seatings of one deal: the whistlab side's and the search's points and CPU seconds."""
    cards = deal_of(task["seed"], task["deal"])
    out = {**task, "a": [], "b": [], "cpu_a": [], "cpu_b": []}
    for first in (0, 1):  # the whistlab side at seats first and first + 2
        mine = (first, first + 2)
        bots = [make_bot(task["strategy"] if seat in mine else OPPONENT, seat, task["sims"],
                         task["uct_c"], seat_seed(task, first, seat))
                for seat in range(4)]
        returns, cpu = play(bots, cards)
        out["a"].append(returns[first])
        out["b"].append(returns[1 - first])
        out["cpu_a"].append(cpu[first] + cpu[first + 2])
        out["cpu_b"].append(cpu[1 - first] + cpu[3 - first])
    return out


def interval(values) -> tuple[float, float]:
    """The mean and its 95% t half-width."""
    d = np.asarray(values, dtype=float)
    return float(d.mean()), float(stats.t.ppf(0.975, d.size - 1) * d.std(ddof=1) / np.sqrt(d.size))


def summary(rows: list[dict]) -> dict:
    """The figures of one strategy at one budget (module docstring)."""
    a, b = np.array([r["a"] for r in rows]), np.array([r["b"] for r in rows])
    margin, half = interval((a - b).mean(axis=1))
    return {"deals": len(rows), "margin": margin, "half": half, "a": a.mean(), "b": b.mean(),
            "cpu_a": np.mean([r["cpu_a"] for r in rows]),
            "cpu_b": np.mean([r["cpu_b"] for r in rows])}


def table(results: list[tuple[str, int, float, dict]]) -> str:
    lines = ["| whistlab side | ISMCTS simulations per move | deals (hands) | margin per hand "
             "(95%) | whistlab points per hand | ISMCTS points per hand | CPU s per hand, "
             "whistlab | CPU s per hand, ISMCTS |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for strategy, sims, _, s in results:
        lines.append(f"| {side_label(strategy)} | {sims:,} | {s['deals']:,} ({2 * s['deals']:,}) "
                     f"| {s['margin']:+.1f} [{s['margin'] - s['half']:+.1f}, "
                     f"{s['margin'] + s['half']:+.1f}] | {s['a']:+.1f} | {s['b']:+.1f} "
                     f"| {s['cpu_a']:.3f} | {s['cpu_b']:.2f} |")
    return "\n".join(lines)


def key(row: dict) -> tuple:
    return row["strategy"], row["sims"], row["uct_c"], row["seed"], row["stand_in"], row["deal"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--strategy", default="expert",
                        help="whistlab strategies, comma-separated (or ismcts:C), or a JSON list "
                        "of names and tables")
    parser.add_argument("--sims", default="200", help="ISMCTS simulations per move, "
                        "comma-separated budgets")
    parser.add_argument("--deals", default="100", help="deals per budget (each played twice), "
                        "one number or one per budget")
    parser.add_argument("--uct-c", type=float, default=UCT_C, help="the search's UCT constant, "
                        "in points")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, help="a JSON-lines file of the deals played, "
                        "read back and added to")
    args = parser.parse_args(argv)
    budgets = [int(s) for s in args.sims.split(",")]
    deals = [int(n) for n in args.deals.split(",")]
    deals = deals * len(budgets) if len(deals) == 1 else deals
    if len(deals) != len(budgets):
        parser.error("--deals: one number, or one per budget of --sims")
    done: dict[tuple, dict] = {}
    if args.out and args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            done[key(row)] = row
    tasks, wanted = [], []
    for strategy in strategies_of(args.strategy):
        for sims, n in zip(budgets, deals, strict=True):
            base = {"strategy": strategy, "sims": sims, "uct_c": args.uct_c, "seed": args.seed,
                    "stand_in": STAND_IN and not strategy.startswith("ismcts:")}
            wanted.append((strategy, sims, [key({**base, "deal": d}) for d in range(n)]))
            tasks += [{**base, "deal": d} for d in range(n) if key({**base, "deal": d}) not in done]
    start = time.time()
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for i, row in enumerate(pool.imap_unordered(one_deal, tasks), 1):
            done[key(row)] = row
            if args.out:
                with args.out.open("a") as fh:
                    fh.write(json.dumps(row) + "\n")
            print(f"\r{i}/{len(tasks)} deals, {time.time() - start:.0f} s", end="",
                  file=sys.stderr, flush=True)
    print(file=sys.stderr)
    results = [(strategy, sims, args.uct_c, summary([done[k] for k in keys]))
               for strategy, sims, keys in wanted]
    print(table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
