"""Example values of every Spades key and the table shapes of RULES.md §4.7: what the
combinations of keys are tried on (issue 19 item 8). `sim.variants` shows, per key, at which
tables it loads and which other keys refuse it, with the words of RULES.md the refusal rests on
(`sim.spades.says`); tests/combos.py lists every refusal and tests/test_combinations.py plays
random combinations of these values.
"""

from __future__ import annotations

from ..errors import UserError
from ..options import rules_from_mapping

__all__ = ["TABLES", "VALUES", "applies", "key_of", "refusal", "refused_with"]

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
    {"pass_when": "before_bid", "pass_cards": {"count": 3, "direction": "right"}},
    {"team_nil": True}, {"team_blind_nil": True}, {"ten_for_two_hundred": True},
    {"ten_for_200_fail": 100, "ten_for_two_hundred": True},
    {"ten_for_200_exact": True, "ten_for_two_hundred": True},
    {"tens_are_wheels": True, "ten_for_two_hundred": True}, {"mo_a": True}, {"mo_b": True},
    {"bemo": True},
    {"blind_six": True}, {"blind_six_at_least": True, "blind_six": True}, {"blind_moon": True},
    {"half_trick_bids": True}, {"auction": True}, {"nil_in_the_dark": True},
    {"partnership_bidding": True}, {"no_nine_no_blind": True, "partnership_bidding": True},
    {"no_trump_bids": True}, {"bid_raise": True}, {"blind_bids": True},
    {"blind_bid_min_deficit": 0, "blind_bids": True}, {"double_nil": True},
    {"double_blind_nil": True}, {"double_blind_nil_reward": "win", "double_blind_nil": True},
    {"min_team_bid": 4}, {"suicide": True}, {"suicide_min_bid": 4, "suicide": True},
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
    # the deck's and the table's own keys (RULES.md §4.1, §4.2, §4.7), with what they need
    {"jokers": 2}, {"trump_order": "jokers_high", "jokers": 2},
    {"jokes_tie": "suit", "trump_order": "jokes_win", "jokers": 2},
    {"jokers_remove": ["2C", "2H"], "jokers": 2}, {"kitty": True, "kitty_extra_trick": True},
    {"kitty_extra_trick": True, "kitty": True},
    {"kitty_taker": "high_bidder", "kitty": True, "kitty_extra_trick": True},
    {"remove": "last", "players": 3}, {"draw_mode": "first_decides", "players": 2},
    {"cancel_spades": True, "players": 6, "blind_nil": False, "target_score": "off",
     "mercy_score": "off", "max_hands": 6},
]


def refusal(table: dict) -> UserError | None:
    """The error loading ``table`` gives, None when it loads."""
    try:
        rules_from_mapping(table)
    except UserError as err:
        return err
    return None



def key_of(value: dict) -> str:
    """The key an example value is for: its first (the others are the keys it needs)."""
    return next(iter(value))


def applies(key: str) -> dict[str, UserError | None]:
    """{table shape: None where the key's first example value loads there, else the refusal};
    tables that set the key themselves are left out."""
    value = next(v for v in VALUES if key_of(v) == key)
    return {name: refusal({**table, **value}) for name, table in TABLES.items()
            if not set(value) & set(table)}


def refused_with(key: str, table: str = "four") -> dict[str, UserError]:
    """{other key: the refusal}: the other keys' example values that, each loading alone at
    ``table`` (as does one of ``key``'s), refuse one of ``key``'s there (the first refusal of
    each other key)."""
    base = TABLES[table]
    mine = [v for v in VALUES if key_of(v) == key and refusal({**base, **v}) is None]
    out: dict[str, UserError] = {}
    for other in VALUES:
        name = key_of(other)
        if name == key or name in out or refusal({**base, **other}) is not None:
            continue
        for value in mine:
            if set(value) & set(other):
                continue
            err = refusal({**base, **value, **other})
            if err is not None:
                out[name] = err
                break
    return out
