"""``whistlab tune``: search a strategy's parameters against a fixed line-up (issue 9).

A tune file (TOML) names the rules, the strategy tuned (a name, or a table with fixed
parameters), the opponents it plays against and the ranges of the parameters to search::

    name = "seed_bidding"
    rules = "spades.standard"
    strategy = "seed"
    opponents = "seed"          # the other side's strategy (a name or a table)
    seed = 1

    [parameters]                # name = [low, high]; an int parameter stays an int
    bid_round = [0.0, 1.0]
    nil_max_estimate = [0.0, 3.0]

    [search]                    # all optional
    objective = "points"        # or "games"
    rounds = 8                  # cross-entropy rounds
    population = 16             # candidates per round
    elite = 0.25                # share of a round's best that moves the sampling law
    hands = 20000               # points: duplicate hands per candidate and round (each in both
    holdout_hands = 200000      #   seatings), and fresh deals for the final evaluation
    games = 5000                # games: whole games per candidate and round, and fresh games
    holdout_games = 20000       #   for the final evaluation (the other objective's keys refused)

The objective ``points`` is the mean paired points per hand: the tuned side's points minus the
opponents' on the same deals, played in both seatings (the duplicate form of
`whistlab.experiment`'s swapped line-ups), so that the luck of the cards cancels. ``games`` is the
tuned side's share of whole games won on the same deal streams in both seatings (a shared top
score counts the fair share, 1 / sides): the objective for parameters that read the
score, which independent hands from 0-0 never exercise. Each round evaluates its whole
population on one set of deals (common random numbers: candidates compare on the same cards)
drawn afresh per round, one job of ``hands`` hands (``games`` games) per candidate spread over
``n_jobs`` processes.

The search is the cross-entropy method (R. Rubinstein, "The cross-entropy method for
combinatorial and continuous optimization", 1999): candidates are drawn from independent normal
laws clipped to the ranges; the best ``elite`` share of a round sets the next round's means and
standard deviations (smoothed; at least 1.5 times the means' last step, so that the law does
not shrink faster than it travels, and at least 2% of each range, so that it does not collapse
on noise).
The tuned parameters are the last round's means.

The held-out evaluation plays the tuned strategy and the untuned one (its defaults) against the
opponents on ``holdout_hands`` fresh deals (``holdout_games`` games), both seatings, and reports
each one's mean paired points (share of games) and the gain (tuned minus untuned, paired deal by
deal) with 95% intervals; and the tuned strategy against the untuned one directly. Outputs, in
the output folder: ``tuned.toml`` (a strategy file that experiments accept as ``strategy =
"path/tuned.toml"``), ``search.parquet`` (every candidate of every round and its score),
``search.png`` (the search), ``summary.json``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sim.errors import UserError, did_you_mean
from sim.files import atomic_file, atomic_write
from sim.games import game_of
from sim.inputs import read_toml, shipped_file
from sim.limits import MAX_BLOCK, MAX_BLOCKS, MAX_COUNT, check_block
from sim.lineup import Lineup
from sim.options import PRESETS, load_rules_in
from strategies import make_strategy
from strategies.base import check_param

from .experiment import FOLDER_NAME, check_name
from .workers import local_workers

__all__ = ["TuneSpec", "cross_entropy", "describe", "duplicate_games", "duplicate_points",
           "load_tune", "run_tune"]

SEARCH_DEFAULTS = {"objective": "points", "rounds": 8, "population": 16, "elite": 0.25,
                   "hands": 20_000, "holdout_hands": 200_000, "games": 5_000,
                   "holdout_games": 20_000}
# per objective: (the search key of its count, of its held-out count, its unit, its held-out noun)
OBJECTIVES = {"points": ("hands", "holdout_hands", "points per hand", "held-out deals"),
              "games": ("games", "holdout_games", "share of games won", "held-out games")}
KEYS = {"name", "rules", "strategy", "opponents", "seed", "parameters", "search"}
# the values each search key allows (issue 17): a round's count is one block of hands or games
# (sim/limits.py), a held-out count as many blocks of that size as a run allows
SEARCH_RANGES = {"rounds": (1, 1000), "population": (2, 10_000), "elite": (0.0, 1.0),
                 "hands": (1, MAX_BLOCK), "games": (1, MAX_BLOCK),
                 "holdout_hands": (1, MAX_COUNT), "holdout_games": (1, MAX_COUNT)}
HOLDOUT_STREAM = 1_000_000  # block indices of the held-out deals: never those of a round


@dataclass(frozen=True)
class TuneSpec:
    """A checked tune file: ``base`` the tuned strategy's spec (dict with ``name``),
    ``bounds`` the parameters' ranges, ``ints`` those kept integral."""

    name: str
    rules: Any
    base: dict
    opponents: dict
    seed: int
    bounds: dict[str, tuple[float, float]]
    ints: frozenset
    search: dict


def _spec(value, source, key, rules) -> dict:
    if not isinstance(value, (str, Mapping)):
        raise UserError("must be a strategy name or a table with 'name'", source=source, key=key)
    spec = {"name": value} if isinstance(value, str) else dict(value)
    # the name and every parameter are checked, and the rules the strategy plays
    make_strategy(spec, source, key, game=rules.game, rules=rules)
    return spec


def load_tune(path: str | Path) -> TuneSpec:
    """Read and check a tune file; every error names the file and the key."""
    path = shipped_file(path, "tunes")
    source = str(path)
    table = read_toml(path, "tune file")
    unknown = sorted(set(table) - KEYS)
    if unknown:
        raise UserError(f"unknown key{did_you_mean(unknown[0], KEYS)}; allowed: "
                        f"{', '.join(sorted(KEYS))}", source=source, key=unknown[0])
    for key in ("rules", "strategy", "parameters"):
        if key not in table:
            raise UserError("is missing", source=source, key=key)
    rules = load_rules_in(table["rules"], source)
    base = _spec(table["strategy"], source, "strategy", rules)
    opponents = _spec(table.get("opponents", base["name"]), source, "opponents", rules)
    sides = getattr(rules, "sides", 2)
    if not (sides == 2 and rules.players % 2 == 0) and sides != rules.players:
        raise UserError("tuning plays a side against a side, or a player against the others: "
                        "the rules need two sides or every player for himself", source=source,
                        key="rules")
    tuned = make_strategy(base, game=rules.game)
    defaults = tuned.to_dict()
    fields = {f.name: f for f in dataclasses.fields(tuned)}
    params = table["parameters"]
    if not isinstance(params, Mapping) or not params:
        raise UserError("must be a table: parameter = [low, high]", source=source,
                        key="parameters")
    bounds, ints = {}, set()
    for name, rng in params.items():
        key = f"parameters.{name}"
        if name not in defaults or name == "name":
            raise UserError(f"not a parameter of strategy '{base['name']}'; allowed: "
                            f"{', '.join(k for k in defaults if k != 'name')}", source=source,
                            key=key)
        default = defaults[name]
        if type(default) not in (int, float):
            raise UserError(f"only numeric parameters are tuned ({name} is a "
                            f"{type(default).__name__})", source=source, key=key)
        if (not isinstance(rng, list) or len(rng) != 2
                or any(type(v) not in (int, float) for v in rng)):
            raise UserError("must be [low, high]: two numbers, low < high", source=source,
                            key=key)
        field = fields[name]
        for v in rng:  # finite and within the range the parameter declares (issue 17)
            why = check_param(field, v)
            if why:
                raise UserError(f"[{rng[0]!r}, {rng[1]!r}]: {why}", source=source, key=key)
        if not rng[0] < rng[1]:
            raise UserError("must be [low, high]: two numbers, low < high", source=source,
                            key=key)
        if name in base:
            raise UserError("is fixed in 'strategy' and tuned: choose one", source=source,
                            key=key)
        bounds[name] = (float(rng[0]), float(rng[1]))
        if type(default) is int:
            ints.add(name)
    search = dict(SEARCH_DEFAULTS)
    given = table.get("search", {})
    if not isinstance(given, Mapping):
        raise UserError("must be a table of search settings; allowed keys: "
                        f"{', '.join(SEARCH_DEFAULTS)}", source=source, key="search")
    objective = given.get("objective", "points")
    if not isinstance(objective, str) or objective not in OBJECTIVES:
        raise UserError(f"unknown objective {objective!r}; allowed: {', '.join(OBJECTIVES)}",
                        source=source, key="search.objective")
    search["objective"] = objective
    unused = {k for o, v in OBJECTIVES.items() if o != objective for k in v[:2]}
    for key, value in given.items():
        if key not in SEARCH_DEFAULTS:
            raise UserError(f"unknown key; allowed: {', '.join(SEARCH_DEFAULTS)}",
                            source=source, key=f"search.{key}")
        if key in unused:
            raise UserError(f"not read with objective = {objective!r} (it reads "
                            f"{' and '.join(OBJECTIVES[objective][:2])})", source=source,
                            key=f"search.{key}")
        if key == "objective":
            continue
        kind = float if key == "elite" else int
        lo, hi = SEARCH_RANGES[key]
        ok = type(value) is kind or (kind is float and type(value) is int)
        if not ok or not lo <= value <= hi or (key == "elite" and value in (lo, hi)):
            allowed = ("a number in (0, 1)" if key == "elite" else f"an integer in [{lo}, {hi}]")
            raise UserError(f"{value!r} is not allowed; allowed: {allowed}", source=source,
                            key=f"search.{key}")
        search[key] = value
    _check_blocks(rules, search, objective, source)
    seed = table.get("seed", 0)
    if type(seed) is not int or seed < 0:
        raise UserError("must be an integer >= 0", source=source, key="seed")
    name = (check_name(table["name"], source, "name", FOLDER_NAME) if "name" in table
            else Path(path).stem)
    return TuneSpec(name=name, rules=rules, base=base, opponents=opponents, seed=seed,
                    bounds=bounds, ints=frozenset(ints), search=search)


def _check_blocks(rules, search: dict, objective: str, source: str) -> None:
    """A round's job plays ``hands`` (``games``) as one block, and the held-out evaluation as
    blocks of that size: each must fit in memory, and their number be a run's (sim/limits.py)."""
    count_key, holdout_key = OBJECTIVES[objective][:2]
    mode = count_key
    why = check_block(rules, mode, search[count_key])
    if why:
        raise UserError(why, source=source, key=f"search.{count_key}")
    blocks = -(-search[holdout_key] // search[count_key])
    if blocks > MAX_BLOCKS:
        raise UserError(f"{search[holdout_key]} in blocks of {count_key} = {search[count_key]} "
                        f"is {blocks:,} blocks; at most {MAX_BLOCKS:,}: raise {count_key} or "
                        f"lower {holdout_key}", source=source, key=f"search.{holdout_key}")


def seatings(players: int, sides: int) -> list[tuple[list[bool], int]]:
    """The seatings of a duplicate match, as (the seats ``mine`` takes, the side it plays for):
    each side's seats in turn (seat s plays for side s mod ``sides``, RULES.md §4.7) against the
    others: with two sides the even seats then the odd ones, with every player for himself each
    seat in turn, with six players in three pairs each pair in turn."""
    return [([s % sides == k for s in range(players)], k) for k in range(sides)]


def _play(rules, seats, seed: int, block: int, count: int, mode: str):
    """One block of ``count`` independent hands or whole games (``mode``), seat by seat."""
    made = {}
    lineup = Lineup([made.setdefault(json.dumps(s, sort_keys=True),
                                     make_strategy(s, game=rules.game)) for s in seats])
    game = game_of(rules)
    return game, game.play_block(rules, lineup, seed, block, count, mode)


def _points(rules, seats, seed: int, block: int, hands: int) -> np.ndarray:
    """float64[hands, sides]: points per hand and side of one block of independent hands."""
    game, result = _play(rules, seats, seed, block, hands, "hands")
    table, _ = game.block_tables(result, 0)
    sides = getattr(rules, "sides", 2)
    return np.stack([table.column(f"points_{s}").to_numpy() for s in range(sides)],
                    axis=1).astype(float)


def duplicate_points(rules, mine: dict, theirs: dict, seed: int, block: int,
                     hands: int) -> np.ndarray:
    """float64[hands]: per deal, ``mine``'s side's points minus the others' (their mean with more
    than two sides), averaged over the `seatings` of the same deals."""
    per_seating = []
    for seats, side in seatings(rules.players, getattr(rules, "sides", 2)):
        pts = _points(rules, [mine if s else theirs for s in seats], seed, block, hands)
        per_seating.append(pts[:, side] - np.delete(pts, side, axis=1).mean(axis=1))
    return np.mean(per_seating, axis=0)


def duplicate_games(rules, mine: dict, theirs: dict, seed: int, block: int,
                   games: int) -> np.ndarray:
    """float64[games]: per deal stream of a whole game, ``mine``'s side's share of the win (1 won,
    0 lost, the fair share 1 / sides for a shared top score or an unfinished game), averaged
    over the `seatings` of the same deal streams."""
    per_seating = []
    sides = getattr(rules, "sides", 2)
    for seats, side in seatings(rules.players, sides):
        _, result = _play(rules, [mine if s else theirs for s in seats], seed, block, games,
                          "games")
        winner = np.asarray(result.games["winner"])
        per_seating.append((winner == side) + (winner < 0) / sides)
    return np.mean(per_seating, axis=0)


def cross_entropy(objective, bounds: dict[str, tuple[float, float]], start: dict[str, float],
                  rounds: int, population: int, elite: float, rng: np.random.Generator,
                  ints=frozenset(), smoothing: float = 0.7):
    """Maximise a noisy ``objective(candidates, round) -> scores`` (candidates: a list of dicts)
    by the cross-entropy method. Returns (the final means, the history: one dict per candidate
    with its round, parameters and score)."""
    names = list(bounds)
    low = np.array([bounds[n][0] for n in names])
    high = np.array([bounds[n][1] for n in names])
    mean = np.clip(np.array([start[n] for n in names], float), low, high)
    std = (high - low) / 4
    floor = (high - low) * 0.02
    n_elite = max(2, int(round(elite * population)))
    history = []
    is_int = np.array([n in ints for n in names])
    for r in range(rounds):
        draws = np.clip(rng.normal(mean, std, size=(population, len(names))), low, high)
        draws = np.where(is_int, np.round(draws), draws)
        draws[0] = np.where(is_int, np.round(mean), mean)  # the current means, scored as well
        candidates = [dict(zip(names, (int(v) if i else float(v) for v, i in
                                       zip(row, is_int, strict=True)), strict=True))
                      for row in draws]
        scores = np.asarray(objective(candidates, r), dtype=float)
        for c, s in zip(candidates, scores, strict=True):
            history.append({"round": r, **c, "score": float(s)})
        best = draws[np.argsort(-scores)[:n_elite]]
        moved = smoothing * best.mean(axis=0) + (1 - smoothing) * mean
        spread = smoothing * best.std(axis=0) + (1 - smoothing) * std
        # while the means still travel, the law stays at least as wide as their step (else it
        # shrinks faster than it moves and stalls short of an optimum on a slope)
        std = np.maximum(np.maximum(spread, 1.5 * np.abs(moved - mean)), floor)
        mean = moved
    final = {n: (int(round(v)) if n in ints else float(v))
             for n, v in zip(names, mean, strict=True)}
    return final, history


def _interval(x: np.ndarray) -> dict:
    from scipy import stats

    mean = float(x.mean())
    half = float(stats.t.ppf(0.975, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size))
    return {"mean": mean, "low": mean - half, "high": mean + half, "n": int(x.size)}


def run_tune(spec: TuneSpec, out: str | Path, n_jobs: int = 1, progress=print) -> dict:
    """Search, evaluate on held-out deals, write the outputs (each whole or absent: a failed
    write is a `sim.files.WriteError`); returns the summary."""
    with local_workers():
        return _run_tune(spec, Path(out), n_jobs, progress)


def _run_tune(spec: TuneSpec, out: Path, n_jobs: int, progress) -> dict:
    from joblib import Parallel, delayed

    s = spec.search
    count_key, holdout_key, unit, _ = OBJECTIVES[s["objective"]]
    evaluate = duplicate_games if s["objective"] == "games" else duplicate_points
    defaults = make_strategy(spec.base, game=spec.rules.game).to_dict()
    start = {n: defaults[n] for n in spec.bounds}
    pool = Parallel(n_jobs=n_jobs)

    def objective(candidates, r):
        # round r plays block r's deals: the same cards for every candidate of the round
        scores = [float(d.mean()) for d in pool(
            delayed(evaluate)(spec.rules, {**spec.base, **c}, spec.opponents, spec.seed, r,
                              s[count_key]) for c in candidates)]
        if s["objective"] == "points":
            progress(f"round {r + 1}/{s['rounds']}: best {max(scores):+.2f}, "
                     f"mean {np.mean(scores):+.2f} points per hand")
        else:
            progress(f"round {r + 1}/{s['rounds']}: best {100 * max(scores):.2f}%, "
                     f"mean {100 * np.mean(scores):.2f}% of games won")
        return scores

    rng = np.random.default_rng(np.random.SeedSequence(spec.seed, spawn_key=(3,)))
    tuned, history = cross_entropy(objective, spec.bounds, start, s["rounds"], s["population"],
                                   s["elite"], rng, spec.ints)
    tuned_spec = {**spec.base, **tuned}
    blocks = _blocks(s[holdout_key], s[count_key])

    def held_out(who, against, stream):
        return np.concatenate(pool(delayed(evaluate)(spec.rules, who, against, spec.seed,
                                                     stream + b, size) for b, size in blocks))

    tuned_x = held_out(tuned_spec, spec.opponents, HOLDOUT_STREAM)
    base_x = held_out(spec.base, spec.opponents, HOLDOUT_STREAM)
    direct = held_out(tuned_spec, spec.base, 2 * HOLDOUT_STREAM)
    summary = {"name": spec.name, "rules": _rules_name(spec.rules), "strategy": spec.base,
               "opponents": spec.opponents, "tuned": tuned_spec, "defaults": start,
               "search": s, "unit": unit,
               "holdout": {"tuned": _interval(tuned_x), "untuned": _interval(base_x),
                           "gain": _interval(tuned_x - base_x),
                           "tuned_against_untuned": _interval(direct)}}
    _write(out, spec, tuned_spec, history, summary)
    return summary


def describe(x: dict, objective: str, difference: bool = False) -> str:
    """An interval of `_interval` in words: points per hand, or a share of games in percent
    (``difference``: a gain between two shares, in percentage points)."""
    if objective == "points":
        return f"{x['mean']:+.2f} [{x['low']:+.2f}, {x['high']:+.2f}] points per hand"
    if difference:
        return (f"{100 * x['mean']:+.2f} [{100 * x['low']:+.2f}, {100 * x['high']:+.2f}] "
                "percentage points of games won")
    return f"{100 * x['mean']:.2f}% [{100 * x['low']:.2f}%, {100 * x['high']:.2f}%] of games won"


def _blocks(total: int, size: int) -> list[tuple[int, int]]:
    """(block index, hands) covering ``total`` hands in blocks of at most ``size``."""
    return [(b, min(size, total - b * size)) for b in range(-(-total // size))]


def _rules_name(rules) -> str:
    return next((n for n, r in PRESETS.items() if r == rules), "custom")


def _write(out: Path, spec: TuneSpec, tuned: dict, history: list[dict], summary: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pyarrow as pa
    import pyarrow.parquet as pq

    gain = describe(summary["holdout"]["gain"], spec.search["objective"], difference=True)
    lines = [f"# tuned by whistlab tune ({spec.name}); held-out gain {gain}"]
    lines += [f"{k} = {json.dumps(v)}" for k, v in tuned.items()]
    atomic_write(("\n".join(lines) + "\n").encode(), out / "tuned.toml")
    with atomic_file(out / "search.parquet") as tmp:
        pq.write_table(pa.Table.from_pylist(history), tmp)
    atomic_write((json.dumps(summary, indent=2) + "\n").encode(), out / "summary.json")
    names = list(spec.bounds)
    fig, axes = plt.subplots(1, 1 + len(names), figsize=(4 * (1 + len(names)), 3.2),
                             squeeze=False)
    rounds = np.array([h["round"] for h in history])
    scores = np.array([h["score"] for h in history])
    ax = axes[0, 0]
    ax.scatter(rounds + 1, scores, s=8, alpha=0.5)
    ax.plot(np.unique(rounds) + 1, [scores[rounds == r].max() for r in np.unique(rounds)],
            label="best of the round")
    ax.set(xlabel="round", ylabel=f"paired {summary['unit']}", title="candidates")
    ax.legend(fontsize=7)
    for ax, name in zip(axes[0, 1:], names, strict=True):
        values = np.array([h[name] for h in history])
        ax.scatter(values, scores, c=rounds, s=8, cmap="viridis")
        ax.axvline(tuned[name], color="k", lw=1)
        ax.set(xlabel=name, title=f"{name} (tuned {tuned[name]:.3g})")
    fig.tight_layout()
    with atomic_file(out / "search.png") as tmp:
        fig.savefig(tmp, dpi=110, format="png")
    plt.close(fig)
