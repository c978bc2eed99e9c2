"""Duplicate matches at the Spades tables other than four players in partnerships (issue 21 item 5).

A script, not a test. For each table (RULES.md §4.7: three players, cutthroat, five, five under
``fledu``, two, six and eight; the presets and a few shapes the presets leave out) strategy A
against strategy B (default ``expert`` against ``seed``) on the same deals in every seating
(STYLE.md practice 8):

* ``one A`` — each side in turn is A's (one seat at a table without partners, a pair or a three
  at six), every other side B's;
* ``one B`` — the same with the strategies exchanged (A's figure is then the B side's loss), so
  that each strategy meets a table of its own kind too: at three players the expert's nil is
  attacked by two experts there, by two seeds in ``one A``.

Reported with 95% intervals:

* ``points/hand`` — per deal of independent hands (from 0-0), A's side's points minus the mean of
  the B sides' (``one B``: the mean of the A sides' minus the B side's), averaged over the
  seatings; bags priced at ``bag_penalty / bag_limit`` each (`expert_match.priced_points`); t
  interval over deals;
* ``games`` — per deal stream of whole games, the lone side's share of the games won (a shared
  top score or an unfinished game counts 1 / sides), against its fair share 1 / sides; t
  interval over deal streams;
* ``nil`` — in each match, the share of A's and of B's seat-hands bid nil and the share of those
  nils made (Wilson intervals), from the independent hands; and in self-play (each strategy at
  every seat, ``--self`` independent hands from 0-0 as issue 21 counts them: no blind nil, which
  needs a side 100 behind) the same, with the nil points per seat-hand.

::

    python bench/table_matches.py                                   # every table, expert vs seed
    python bench/table_matches.py --tables spades.three,spades.cutthroat --hands 40000
    python bench/table_matches.py --a '{"name": "expert", "attack_nil": false}' --b expert
    python bench/table_matches.py --json out.jsonl                  # one JSON line per table
    python bench/table_matches.py --tables spades.three,spades.cutthroat,spades.five \
        --a '{"name": "search"}' --b expert --hands 1000 --games 0 --self 0 --block 250

Blocks run in parallel with joblib (``--n-jobs``); the figures do not depend on it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from expert_match import _spec, interval, priced_points  # noqa: E402

import sim  # noqa: E402,F401  (presets)
from sim.games import game_of  # noqa: E402
from sim.lineup import Lineup  # noqa: E402
from sim.options import load_rules  # noqa: E402
from strategies import make_strategy  # noqa: E402
from whistlab.tune import seatings  # noqa: E402

# The tables, by name: RULES.md §4.7's presets without partners, five players under fledu
# (§4.4), and the six- and eight-player tables the expert plays (in pairs, threes, alone).
TABLES = {
    "spades.three": "spades.three",
    "spades.cutthroat": "spades.cutthroat",
    "spades.five": "spades.five",
    "spades.five+fledu": {"preset": "spades.five", "fledu": True},
    "spades.two": {"preset": "spades.standard", "players": 2},
    "spades.two+first_decides": {"preset": "spades.standard", "players": 2,
                                 "draw_mode": "first_decides"},
    "spades.two+first_decides_blind": {"preset": "spades.standard", "players": 2,
                                       "draw_mode": "first_decides_blind"},
    "spades.six": "spades.six",
    "spades.six+solo": {"preset": "spades.six", "teams": "solo"},
    "spades.six+two_threes": {"preset": "spades.six", "teams": "two_threes"},
    "spades.cancel": "spades.cancel",
    "spades.cancel8": "spades.cancel8",
}


def _families(rules) -> list[tuple[str, bool]]:
    """(name, A is the lone side): ``one A`` always, ``one B`` where there are more than two
    sides (with two, it is ``one A`` seen from the other side)."""
    return [("one A", True)] + ([("one B", False)] if rules.sides > 2 else [])


def _nil_counts(hands, rules, a_seats: np.ndarray) -> np.ndarray:
    """int64[2, 3]: for A's seats then B's, (seat-hands, nil bids, nils made)."""
    players = rules.players
    bids = np.stack([hands.column(f"bid_{s}").to_numpy() for s in range(players)], axis=1)
    tricks = np.stack([hands.column(f"tricks_{s}").to_numpy() for s in range(players)], axis=1)
    nil, made = bids == 0, (bids == 0) & (tricks == 0)
    out = np.zeros((2, 3), dtype=np.int64)
    for row, seats in enumerate((a_seats, ~a_seats)):
        out[row] = (len(hands) * seats.sum(), nil[:, seats].sum(), made[:, seats].sum())
    return out


def hands_block(rules, a: dict, b: dict, seed: int, block: int, size: int):
    """For one block of independent hands: {family: float64[size] A's paired margin}, and
    {family: int64[2, 3] nil counts of A's and B's seats}."""
    game = game_of(rules)
    margins, nils = {}, {}
    for family, a_alone in _families(rules):
        per_seating, counts = [], np.zeros((2, 3), dtype=np.int64)
        for seats, side in seatings(rules.players, rules.sides):
            a_seats = np.asarray(seats) if a_alone else ~np.asarray(seats)
            lineup = Lineup([make_strategy(a if m else b, game="spades") for m in a_seats])
            hands, _ = game.block_tables(game.play_block(rules, lineup, seed, block, size,
                                                         "hands"), 0)
            pts = priced_points(hands, rules)
            lone = pts[:, side] - np.delete(pts, side, axis=1).mean(axis=1)
            per_seating.append(lone if a_alone else -lone)
            counts += _nil_counts(hands, rules, a_seats)
        margins[family], nils[family] = np.mean(per_seating, axis=0), counts
    return margins, nils


def games_block(rules, a: dict, b: dict, seed: int, block: int, size: int):
    """For one block of whole games: {family: float64[size] the lone side's win share}."""
    game = game_of(rules)
    out = {}
    for family, a_alone in _families(rules):
        per_seating = []
        for seats, side in seatings(rules.players, rules.sides):
            a_seats = np.asarray(seats) if a_alone else ~np.asarray(seats)
            lineup = Lineup([make_strategy(a if m else b, game="spades") for m in a_seats])
            result = game.play_block(rules, lineup, seed, block, size, "games")
            winner = np.asarray(result.games["winner"])
            per_seating.append((winner == side) + (winner < 0) / rules.sides)
        out[family] = np.mean(per_seating, axis=0)
    return out


def self_block(rules, spec: dict, seed: int, block: int, size: int) -> np.ndarray:
    """float64[4]: in self-play of ``size`` independent hands, (seat-hands, nil bids, nils made,
    nil points)."""
    game = game_of(rules)
    lineup = Lineup([make_strategy(spec, game="spades")] * rules.players)
    hands, _ = game.block_tables(game.play_block(rules, lineup, seed, block, size, "hands"), 0)
    counts = _nil_counts(hands, rules, np.ones(rules.players, dtype=bool))[0]
    nil_points = sum(float(hands.column(f"nil_{s}").to_numpy().sum())
                     for s in range(rules.sides))
    return np.array([*counts, nil_points], dtype=float)


def wilson(k: float, n: float) -> tuple[float, float, float]:
    """The share k / n and its 95% Wilson interval."""
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    z = stats.norm.ppf(0.975)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


def _nil_figures(counts) -> dict:
    seat_hands, bids, made = (float(x) for x in counts[:3])
    rate, made_share = wilson(bids, seat_hands), wilson(made, bids)
    return {"seat_hands": int(seat_hands), "nils": int(bids), "made": int(made),
            "nil_rate": rate[0], "nil_rate_95": rate[1:], "nil_made": made_share[0],
            "nil_made_95": made_share[1:]}


def _sizes(total: int, block: int) -> list[int]:
    return [min(block, total - start) for start in range(0, total, block)]


def measure(name: str, a: dict, b: dict, args) -> dict:
    """Every figure of one table (the module docstring): ``name`` one of `TABLES`, a preset, or
    a rules table in JSON (``'{"preset": "spades.six", "deck": "no_twos"}'``)."""
    spec = json.loads(name) if name.lstrip().startswith("{") else TABLES.get(name, name)
    rules = load_rules(spec)
    out = {"table": name, "rules": spec, "a": a, "b": b, "sides": rules.sides}
    run = Parallel(n_jobs=args.n_jobs)
    if args.hands:
        parts = run(delayed(hands_block)(rules, a, b, args.seed, k, n)
                    for k, n in enumerate(_sizes(args.hands, args.block)))
        for family, _ in _families(rules):
            d = np.concatenate([m[family] for m, _ in parts])
            counts = sum(c[family] for _, c in parts)
            mean, half = interval(d)
            out[family] = {"hands": args.hands, "points": mean, "points_95": half,
                           "nil_a": _nil_figures(counts[0]), "nil_b": _nil_figures(counts[1])}
    if args.games:
        parts = run(delayed(games_block)(rules, a, b, args.seed + 1, k, n)
                    for k, n in enumerate(_sizes(args.games, max(1, args.block // 10))))
        for family, a_alone in _families(rules):
            mean, half = interval(np.concatenate([p[family] for p in parts]))
            out.setdefault(family, {}).update(
                games=args.games, wins=mean, wins_95=half, fair_share=1 / rules.sides,
                a_alone=a_alone)
    if args.self:
        for who, spec in (("a", a), ("b", b)):
            parts = run(delayed(self_block)(rules, spec, args.seed + 2, k, n)
                        for k, n in enumerate(_sizes(args.self, args.block)))
            total = np.sum(parts, axis=0)
            out[f"self_{who}"] = {**_nil_figures(total), "hands": args.self,
                                  "nil_points_per_seat_hand": total[3] / total[0]}
    return out


def _share(fig: dict, key: str) -> str:
    low, high = fig[f"{key}_95"]
    return f"{100 * fig[key]:.1f}% ({100 * low:.1f}-{100 * high:.1f})"


def show(out: dict) -> None:
    print(f"{out['table']}: {json.dumps(out['a'])} (A) against {json.dumps(out['b'])} (B), "
          f"{out['sides']} sides")
    for family in ("one A", "one B"):
        fig = out.get(family)
        if not fig:
            continue
        line = f"  {family}:"
        if "points" in fig:
            line += (f" points/hand {fig['points']:+.2f} ± {fig['points_95']:.2f} "
                     f"({fig['hands']:,} deals)")
        if "wins" in fig:
            lone = "A" if fig["a_alone"] else "B"
            line += (f"; {lone} wins {100 * fig['wins']:.1f}% ± {100 * fig['wins_95']:.1f}% "
                     f"(fair {100 * fig['fair_share']:.1f}%, {fig['games']:,} games)")
        print(line)
        for who in ("a", "b"):
            if f"nil_{who}" in fig:
                n = fig[f"nil_{who}"]
                print(f"    {who.upper()} nil: bid {_share(n, 'nil_rate')} of seat-hands, made "
                      f"{_share(n, 'nil_made')} of {n['nils']:,}")
    for who in ("a", "b"):
        n = out.get(f"self_{who}")
        if n:
            print(f"  self-play {who.upper()} ({n['hands']:,} hands, {n['seat_hands']:,} "
                  f"seat-hands): nil bid {_share(n, 'nil_rate')}, made {_share(n, 'nil_made')} "
                  f"of {n['nils']:,}; nil points {n['nil_points_per_seat_hand']:+.2f} a seat-hand")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default=",".join(TABLES),
                        help=f"comma-separated names of {sorted(TABLES)} or presets; or "
                        "';'-separated, each a name or a rules table in JSON")
    parser.add_argument("--a", default="expert", help="a strategy name or JSON spec")
    parser.add_argument("--b", default="seed")
    parser.add_argument("--hands", type=int, default=40_000)
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--self", type=int, default=20_000,
                        help="independent hands of self-play per strategy (0: none)")
    parser.add_argument("--block", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=20261215)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="append one JSON line a table")
    args = parser.parse_args(argv)
    a, b = _spec(args.a), _spec(args.b)
    for name in (args.tables.split(";") if ";" in args.tables or args.tables.startswith("{")
                 else args.tables.split(",")):
        out = measure(name, a, b, args)
        show(out)
        if args.json:
            with args.json.open("a", encoding="utf-8") as f:
                f.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
