"""The `seed` player's responses to the Spades scoring rules (RULES.md §4.6), measured.

A script, not a test. For every response (a parameter of `strategies.seed.SeedStrategy`) under its
rule, the seed with every default against the same seed with that one response off, on the same
deals with the sides' seats swapped (duplicate deals, STYLE.md practice 8)::

    python bench/seed_responses.py      # 2 x 50,000 hands, 2 x 3,000 games a row (~2 min)
    python bench/seed_responses.py --hands 20000 --games 0 --only three_b,"exact player"

Columns: ``points/hand`` is the mean over deals of A's side's points minus B's (each deal played
twice, A at seats 0/2 then at 1/3; the two margins averaged), with its 95% t interval. Hands are
independent (from 0-0), so the bag penalty is amortised: every bag a side takes costs
``bag_penalty / bag_limit`` points (the rules that keep no bags are not affected). ``win share``
is A's share of the games won over both seatings of the same deals (0.5 = no difference), with
its 95% interval. ``std points/hand`` makes the same change of ``bid_round`` (the default shift
minus the compared one) in the standard game, to tell the part of a bid response that is the
rule's from the seed's own calibration.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sim  # noqa: E402,F401  (presets)
from sim.lineup import Lineup  # noqa: E402
from sim.options import PRESETS  # noqa: E402
from sim.spades.game import play_block  # noqa: E402
from strategies.seed import RESPONSES_OFF, SeedStrategy  # noqa: E402

# (rule label, rules keys, parameter, the value compared with its default: the response off, or
# for a response left off by default the value that was tried). Parameter "*": every response
# off at once (`strategies.seed.RESPONSES_OFF`).
NO_OVERS, BAGS_NEG = dict(no_overs=True), dict(bags_negative=True)
THREE_B, QUICKSAND = dict(three_b=True), dict(quicksand=True)
EXACT_SIDE, EXACT_PLAYER = dict(exact="side"), dict(exact="player")
HIGHLANDER, BOOK = dict(highlander=True), dict(book_made=True)
ROWS = [
    ("no_overs", NO_OVERS, "keep_winning_when_free", False),
    ("no_overs", NO_OVERS, "bid_shift_free_overtricks", 0.0),
    ("no_overs", NO_OVERS, "*", None),
    ("bags_negative", BAGS_NEG, "bags_negative_set_margin", 1),
    ("bags_negative", BAGS_NEG, "bid_shift_bags_negative", 0.0),
    ("bags_negative", BAGS_NEG, "*", None),
    ("three_b", THREE_B, "three_b_set_margin", 1),
    ("three_b", THREE_B, "bid_shift_three_b", 0.0),
    ("three_b", THREE_B, "*", None),
    ("quicksand", QUICKSAND, "bid_shift_quicksand", 0.0),
    ("exact side", EXACT_SIDE, "exact_set_margin", 1),
    ("exact side", EXACT_SIDE, "exact_least_bid", False),
    ("exact side", EXACT_SIDE, "*", None),
    ("exact player", EXACT_PLAYER, "exact_set_margin", 1),
    ("exact player", EXACT_PLAYER, "exact_own_bid", False),
    ("exact player", EXACT_PLAYER, "shed_on_sure_trumps", False),
    ("exact player", EXACT_PLAYER, "exact_least_bid", False),
    ("exact player", EXACT_PLAYER, "*", None),
    ("highlander", HIGHLANDER, "keep_winning_when_free", False),
    ("highlander", HIGHLANDER, "bid_shift_highlander", 0.0),
    ("highlander", HIGHLANDER, "*", None),
    ("book_made", BOOK, "book_made_max_opponents", -1),
    ("set_to_opponents", dict(set_to_opponents=True), "bid_shift_set_to_opponents", 0.0),
    ("no_minus", dict(no_minus=True), "bid_shift_no_minus", 0.25),
    ("no_minus", dict(no_minus=True), "bid_shift_no_minus", -0.25),
    ("seven_plus per_trick", dict(seven_plus="per_trick"), "seven_plus_stretch", 1.0),
    ("seven_plus progressive", dict(seven_plus="progressive"), "seven_plus_stretch", 1.0),
]


def priced(score, rules) -> np.ndarray:
    """A hand's points per side [N, 2] with the bag penalty amortised over the bags taken."""
    times = -score.bag_penalty // max(rules.bag_penalty, 1)
    bags = score.bags_after + times * rules.bag_limit  # the hands start from 0 bags
    return score.points - score.bag_penalty - bags * rules.bag_penalty / rules.bag_limit


def paired(rules, a, b, size: int, mode: str, seed: int = 11) -> np.ndarray:
    """Per deal (hands) or game: A's margin (hands) or A's win (games), both seatings averaged."""
    one = play_block(rules, Lineup([a, b, a, b]), seed, 0, size, mode)
    two = play_block(rules, Lineup([b, a, b, a]), seed, 0, size, mode)
    if mode == "games":
        return ((one.games["winner"] == 0).astype(float) + (two.games["winner"] == 1)) / 2
    p1, p2 = priced(one.outcomes[0].score, rules), priced(two.outcomes[0].score, rules)
    return ((p1[:, 0] - p1[:, 1]) + (p2[:, 1] - p2[:, 0])) / 2


def interval(d: np.ndarray, digits: int = 2) -> str:
    half = stats.t.ppf(0.975, d.size - 1) * d.std(ddof=1) / np.sqrt(d.size)
    sign = "+" if digits == 2 else ""  # a margin is signed, a share is not
    return f"{d.mean():{sign}.{digits}f} ± {half:.{digits}f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--games", type=int, default=3_000)
    parser.add_argument("--only", default="", help="rule labels, comma separated")
    args = parser.parse_args(argv)
    only = {o.strip() for o in args.only.split(",") if o.strip()}
    standard = PRESETS["spades.standard"]
    on = SeedStrategy()
    print("| rule | response | against | points/hand (95%) | win share (95%) | std points/hand |")
    print("| --- | --- | --- | --- | --- | --- |")
    for label, keys, param, off_value in ROWS:
        if only and label not in only:
            continue
        rules = dataclasses.replace(standard, **keys)
        off = dataclasses.replace(on, **(RESPONSES_OFF if param == "*" else {param: off_value}))
        pts = interval(paired(rules, on, off, args.hands, "hands"))
        wins = interval(paired(rules, on, off, args.games, "games"), 3) if args.games else ""
        std = ""
        if param.startswith("bid_shift"):  # the same bid_round change in the standard game
            shift = getattr(on, param) - off_value
            a = dataclasses.replace(on, bid_round=on.bid_round + shift)
            std = interval(paired(standard, a, on, args.hands, "hands"))
        name = "all of them" if param == "*" else f"`{param} = {getattr(on, param)!r}`"
        other = "off" if param == "*" else f"`{off_value!r}`"
        print(f"| {label} | {name} | {other} | {pts} | {wins} | {std} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
