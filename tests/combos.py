"""Which combinations of Spades rule keys are refused, and why (issue 19 item 8): the sampler of
tests/test_combinations.py, and a listing of every refusal.

``PYTHONPATH=. python tests/combos.py`` loads, at every table shape (`TABLES`), every key at
each of a few values (`VALUES`) alone and then every pair of them, as an inline rules table would
(`sim.options.rules_from_mapping`), and lists each refusal that a key or a pair makes at a
table where each of its parts alone is accepted: the refused key, the message, and the tables
and pairs it came from. ``--random N`` instead samples N random combinations (one table shape
and one to five key values) and prints how many were accepted; tests/test_combinations.py
plays the accepted ones. This module imports ``sim`` (it asks the engine what it accepts); the
reference's own refusals are compared by the conformance tests.
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
from collections import defaultdict

import sim  # noqa: F401  (registers the presets)
from sim.errors import UserError
from sim.options import rules_from_mapping

# The table shapes of RULES.md §4.7 (and §4.1, §4.2 decks), each with the keys it needs.
TABLES: dict[str, dict] = {
    "four": {},
    "cutthroat": {"partnerships": False},
    "two": {"players": 2},
    "three": {"players": 3},
    "three, jokers": {"players": 3, "jokers": 2},
    "five": {"players": 5},
    "five, jokers": {"players": 5, "jokers": 3},
    "four, jokers": {"jokers": 2},
    "six": {"players": 6},
    "six, two threes": {"players": 6, "teams": "two_threes"},
    "six, solo": {"players": 6, "teams": "solo"},
    "six, double_jokers": {"players": 6, "deck": "double_jokers", "jokers": 4},
    "six, double_kitty": {"players": 6, "deck": "double_kitty", "kitty": True},
    "six, no_twos": {"players": 6, "deck": "no_twos"},
    "six, single_jokers": {"players": 6, "deck": "single_jokers", "jokers": 2},
    "six, no_twos, two threes": {"players": 6, "deck": "no_twos", "teams": "two_threes"},
    "six, two threes, double_jokers": {"players": 6, "teams": "two_threes",
                                       "deck": "double_jokers", "jokers": 4},
}

# A few values of every key other than the table's (each with the keys it needs to mean
# anything), as an inline rules table writes them.
VALUES: list[dict] = [
    {"nil": False, "blind_nil": False}, {"nil_bonus": 50}, {"nil_tricks": "count"},
    {"nil_tricks": "ignored"}, {"blind_nil": False}, {"blind_nil_bonus": 150},
    {"blind_nil_min_deficit": 0}, {"spades_broken": False}, {"spades_broken": "never"},
    {"max_team_bid": 13}, {"bag_limit": 5}, {"bag_penalty": 50}, {"target_score": 250},
    {"mercy_score": "off"}, {"max_hands": 3}, {"three_b": True}, {"no_overs": True},
    {"double_over": True}, {"exact": "side"}, {"exact": "player"}, {"quicksand": True},
    {"set_to_opponents": True}, {"no_minus": True}, {"bags_negative": True},
    {"defeat_score": True}, {"book_made": True}, {"highlander": True},
    {"exact_pair_bonus": True}, {"seven_plus": "per_trick"}, {"seven_plus": "progressive"},
    {"bags_in_units_digit": True}, {"bag_cancel_card": "7H"}, {"bag_cancel_card": "cut"},
    {"last_trick_bonus": True}, {"end_streak": True}, {"dix": True}, {"last_trick_ace": True},
    {"last_trick_ace_nil": True}, {"last_trick_deuce": True}, {"last_trick_high_spade": True},
    {"nil_pass": [1, 2]}, {"pass_cards": {"count": 2, "direction": "left"}},
    {"pass_cards": {"count": 1, "direction": "partner"}},
    {"pass_cards": {"count": 3, "direction": "right"}, "pass_when": "before_bid"},
    {"team_nil": True}, {"team_blind_nil": True}, {"ten_for_two_hundred": True},
    {"ten_for_two_hundred": True, "ten_for_200_fail": 100, "ten_for_200_exact": True,
     "tens_are_wheels": True}, {"mo_a": True}, {"mo_b": True}, {"bemo": True},
    {"blind_six": True}, {"blind_six": True, "blind_six_at_least": True}, {"blind_moon": True},
    {"half_trick_bids": True}, {"auction": True}, {"nil_in_the_dark": True},
    {"partnership_bidding": True}, {"partnership_bidding": True, "no_nine_no_blind": True},
    {"no_trump_bids": True}, {"bid_raise": True}, {"blind_bids": True},
    {"blind_bids": True, "blind_bid_min_deficit": 0}, {"double_nil": True},
    {"double_blind_nil": True}, {"double_blind_nil": True, "double_blind_nil_reward": "win"},
    {"min_team_bid": 4}, {"suicide": True}, {"suicide": True, "suicide_min_bid": 4},
    {"whiz": True, "blind_nil": False}, {"mirror": True, "blind_nil": False}, {"fledu": True},
    {"hook": True}, {"moon": True}, {"lexington": True}, {"lexington_points": True},
    {"redeal_poor_hands": ["no_spades"]},
    {"redeal_poor_hands": ["one_spade_or_less", "no_face_cards"]},
    {"face_up_cards": 2}, {"trump_order": "deuces_high"}, {"trump_order": "bowers"},
    {"trump_order": "suit_ladder"}, {"seven_trump_reveal": True},
    {"first_lead": "two_of_clubs"}, {"first_lead": "lowest_club"}, {"first_trick_clubs": True},
    {"first_trick_lowest_club": True}, {"no_spade_lead_first_trick": True},
    {"lead_ace_of_spades": True}, {"must_overtrump": "opponents"},
    {"must_overtrump": "always"}, {"must_trump": True}, {"duplicate_wins": "last"},
]


def refusal(table: dict) -> UserError | None:
    """The error loading ``table`` gives, None when it loads."""
    try:
        rules_from_mapping(table)
    except UserError as err:
        return err
    return None


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
