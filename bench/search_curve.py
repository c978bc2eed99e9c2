"""``search``'s strength against its budget (issue 21 item 3): points per hand against ``expert``
and hands a second on one core, at several budgets.

A script, not a test. For each budget (``samples`` S and ``budget`` 4 x S, the default's ratio:
16 and 64), `bench/search_match.py`'s duplicate match against ``expert`` on the same ``--hands``
deals (its run folders under ``--out``: a finished match is read again, not played) and
`bench/search_speed.py`'s speed (``--speed-hands`` hands, four search seats in one process,
``time.process_time``), and ``expert``'s speed as the peer measured in the same run. Prints a
markdown table; ``--png`` draws the curve.

    nice -n 10 python bench/search_curve.py --samples 4,8,16,32,64 --hands 1000 \\
        --png docs/img/search_curve.png
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sim.options import load_rules  # noqa: E402


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def spec_of(samples: int) -> dict:
    return ({"name": "search"} if samples == 16 else
            {"name": "search", "samples": samples, "budget": 4 * samples})


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="spades.standard")
    parser.add_argument("--samples", default="4,8,16,32,64")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--speed-hands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--out", default="results/curve")
    parser.add_argument("--png", type=Path)
    args = parser.parse_args(argv)
    match, speed = _script("search_match"), _script("search_speed")
    rules = load_rules(args.rules)
    rows = []
    for samples in (int(s) for s in args.samples.split(",")):
        spec = spec_of(samples)
        tag = f"s{samples}_b{4 * samples}"
        folder = match._run(Path(args.out) / tag / "hands", args.rules, spec, "hands",
                            args.hands, args.seed, 250, 1, False)
        rows.append({"samples": samples, "budget": 4 * samples, **match.points(folder, rules),
                     **speed.measure(rules, spec, args.speed_hands, 1)})
    peer = speed.measure(rules, {"name": "expert"}, args.speed_hands, 1)
    print("| samples | budget | deals | points per hand, bags priced | as scored | hands/s, "
          "four search seats, one core |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['samples']} | {r['budget']} | {r['deals']:,} | {r['points']:+.1f} ± "
              f"{r['points_95']:.1f} | {r['points_scored']:+.1f} ± {r['points_scored_95']:.1f} "
              f"| {r['hands_per_s']:.0f} |")
    print(f"\nexpert, four seats, same run: {peer['hands_per_s']:,.0f} hands/s")
    print(json.dumps({"rows": rows, "expert": peer}))
    if args.png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 3.6))
        x = [r["hands_per_s"] for r in rows]
        ax.errorbar(x, [r["points"] for r in rows], yerr=[r["points_95"] for r in rows],
                    marker="o", capsize=3)
        for r, xi in zip(rows, x, strict=True):
            ax.annotate(f"{r['samples']} samples", (xi, r["points"]), textcoords="offset points",
                        xytext=(6, -12), fontsize=8)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xscale("log")
        ax.set_xticks([10, 20, 50, 100, 200], ["10", "20", "50", "100", "200"])
        ax.minorticks_off()
        ax.set_xlabel("hands per second, four search seats, one core (log)")
        ax.set_ylabel("points per hand vs expert\n(bags priced, 95%)")
        ax.set_title(f"search against expert, {rows[0]['deals']:,} duplicate deals per budget",
                     fontsize=10)
        fig.tight_layout()
        args.png.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(args.png, dpi=110)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
