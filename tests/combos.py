"""Which combinations of Spades rule keys are refused, and why (issue 19 item 8): the sampler of
tests/test_combinations.py, and a listing of every refusal.

``PYTHONPATH=. python tests/combos.py`` loads, at every table shape (`TABLES`, in
sim/spades/combinations.py), every key at each of a few values (`VALUES`) alone and then every
pair of them, as an inline rules table would (`sim.options.rules_from_mapping`), and lists each
refusal that a key or a pair makes at a table where each of its parts alone is accepted: the
refused key, the message, and the tables and pairs it came from. ``--random N`` instead samples
N random combinations (one table shape and one to five key values) and prints how many were
accepted; tests/test_combinations.py plays the accepted ones. The reference's own refusals are
compared by the conformance tests.
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
from collections import defaultdict

import sim  # noqa: F401  (registers the presets)
from sim.spades.combinations import TABLES, VALUES, refusal


def _show(values: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def _template(message: str) -> str:
    return re.sub(r"\d+", "#", message)


def refusals(tables: dict[str, dict] = TABLES, values: list[dict] = VALUES) -> dict:
    """{(refused key, message template): [(table name, the values that made it)]}: every key
    value refused at a table, and every pair refused where each value alone is accepted."""
    found = defaultdict(list)
    tried = 0
    for name, table in tables.items():
        alone = []
        for v in values:
            if set(v) & set(table):
                continue
            tried += 1
            err = refusal({**table, **v})
            if err is None:
                alone.append(v)
            else:
                found[err.key, _template(err.message)].append((name, v))
        for a, b in itertools.combinations(alone, 2):
            if set(a) & set(b):
                continue
            tried += 1
            err = refusal({**table, **a, **b})
            if err is not None:
                found[err.key, _template(err.message)].append((name, {**a, **b}))
    return found, tried


def sample(rng: random.Random, n_values: int = 5) -> dict:
    """One random combination: a table shape and one to ``n_values`` key values."""
    table = dict(rng.choice(list(TABLES.values())))
    for v in rng.sample(VALUES, rng.randint(1, n_values)):
        if not set(v) & set(table):
            table.update(v)
    return table


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=0, help="sample this many combinations")
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args(argv)
    if args.random:
        rng = random.Random(args.seed)
        by_key = defaultdict(int)
        accepted = 0
        for _ in range(args.random):
            err = refusal(sample(rng))
            accepted += err is None
            if err is not None:
                by_key[err.key] += 1
        print(f"{args.random} combinations, {accepted} accepted")
        for key, n in sorted(by_key.items(), key=lambda kv: -kv[1]):
            print(f"  {n:6d} refused naming {key}")
        return 0
    found, tried = refusals()
    print(f"{tried} combinations tried, {len(found)} kinds of refusal\n")
    for (key, message), cases in sorted(found.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
        print(f"[{key}] {message}  ({len(cases)})")
        tables = sorted({t for t, _ in cases})
        print(f"    tables: {', '.join(tables)}")
        for t, v in cases[:4]:
            print(f"    e.g. {t}: {_show(v)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
