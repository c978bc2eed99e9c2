"""RULES.md §4.7 six and eight players (every deck and team shape, two decks, ``duplicate_wins``,
``cancel_spades``), §4.1 the kitty and §4.2 ``jokes_win`` in the engine equal the scalar
reference (tests/reference.py), hand by hand and card by card.

As in test_conformance_player_counts: ``random`` and ``seed`` players play independent hands and
whole games, the block is written as section 5 records (two-deck hands name a card twice; a
kitty's taker, cards and discard; dead tricks) and every record is replayed by
``reference.replay_hand``, which accepts each bid, discard and play only if its own rules allow
it; tricks, trick winners, points, every component and the counts after the hand must equal the
engine's, and in games mode the games go on and end as ``reference.game_over`` says; at every
bid the engine offered, its mask (every bit) and its blind nil question are the reference's
``legal_bids``, which runs 0..the tricks of the hand (``tests.harness.check_offered_bids``:
issue 17, six players in three pairs with 8 or 9 cards were offered bids up to 13, and with 17
or 18 only up to 13). Every deck plays in every team shape. Then the engine and the reference
load exactly the same combinations of the new keys.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from sim.options import PRESETS, preset_names
from sim.spades.contracts import NAMES as CONTRACT_NAMES

try:
    from tests.harness import compare_records, ref, simulate
    from tests.test_conformance_player_counts import refusal, seat_plays
except ImportError:  # pragma: no cover
    from harness import compare_records, ref, simulate
    from test_conformance_player_counts import refusal, seat_plays

STANDARD = PRESETS["spades.standard"]
CANCEL = {"cancel_spades": True, "blind_nil": False, "target_score": None, "mercy_score": None}

VARIANTS: dict[str, dict] = {
    "six": {"players": 6},
    "six, two threes": {"players": 6, "teams": "two_threes"},
    "six, solo, last wins": {"players": 6, "teams": "solo", "duplicate_wins": "last"},
    "six, double_jokers": {"players": 6, "deck": "double_jokers", "jokers": 4},
    "six, double_kitty, high bidder": {"players": 6, "deck": "double_kitty", "kitty": True,
                                       "kitty_taker": "high_bidder"},
    "six, no_twos, solo": {"players": 6, "deck": "no_twos", "teams": "solo"},
    "six, single_jokers, two threes": {"players": 6, "deck": "single_jokers", "jokers": 2,
                                       "teams": "two_threes"},
    "cancel, six": {"players": 6, **CANCEL, "max_hands": 6},
    "cancel, eight": {"players": 8, **CANCEL, "max_hands": 8},
    "kitty, four with jokers": {"jokers": 2, "kitty": True},
    "kitty, four, extra trick, high bidder": {"kitty": True, "kitty_extra_trick": True,
                                              "kitty_taker": "high_bidder"},
    "kitty, three": {"players": 3, "kitty": True},
    "kitty, five with jokers, extra trick": {"players": 5, "jokers": 3, "kitty": True,
                                             "kitty_extra_trick": True},
    "jokes_win": {"jokers": 2, "trump_order": "jokes_win"},
    "jokes_win, first joker": {"jokers": 2, "trump_order": "jokes_win",
                               "jokes_tie": "first_joker"},
    "jokes_win, suit, kitty": {"jokers": 2, "trump_order": "jokes_win", "jokes_tie": "suit",
                               "kitty": True},
    "six, three_b, nil_tricks=count": {"players": 6, "three_b": True, "nil_tricks": "count"},
    # issue 17: three pairs with fewer tricks than 13 (bids 0..8, 0..9), and the bid rules
    # played there, the hook at two threes (17 tricks), the kitty's extra trick at six
    "six, no_twos": {"players": 6, "deck": "no_twos"},
    "six, single_jokers": {"players": 6, "deck": "single_jokers", "jokers": 2},
    "six, no_twos, fledu, double_over, no_minus": {"players": 6, "deck": "no_twos",
                                                  "fledu": True, "double_over": True,
                                                  "no_minus": True},
    "six, single_jokers, whiz, exact=player, no_minus": {
        "players": 6, "deck": "single_jokers", "jokers": 2, "whiz": True, "blind_nil": False,
        "exact": "player", "no_minus": True},
    # issue 19: the keys of one named card, the first trick and the trump order with two
    # decks (a card held twice, both copies in a trick, the first holder of the lowest club)
    "six, trick bonuses, bag_cancel_card=cut": {
        "players": 6, "bag_cancel_card": "cut", "dix": True, "last_trick_ace": True,
        "last_trick_ace_nil": True, "last_trick_deuce": True, "last_trick_high_spade": True,
        "last_trick_bonus": True},
    "six, solo, bag_cancel_card=AS, dix, last wins": {
        "players": 6, "teams": "solo", "bag_cancel_card": "AS", "dix": True,
        "duplicate_wins": "last"},
    "six, double_jokers, jokers_high, must_trump, last wins, solo": {
        "players": 6, "deck": "double_jokers", "jokers": 4, "teams": "solo",
        "trump_order": "jokers_high", "must_trump": True, "duplicate_wins": "last"},
    "six, double_jokers, jokers_first_wins, must_overtrump, last wins": {
        "players": 6, "deck": "double_jokers", "jokers": 4, "trump_order": "jokers_first_wins",
        "must_overtrump": "always", "duplicate_wins": "last"},
    "six, two threes, lowest_club, first_trick_lowest_club, must_overtrump=opponents": {
        "players": 6, "teams": "two_threes", "first_lead": "lowest_club",
        "first_trick_lowest_club": True, "must_overtrump": "opponents"},
    "six, double_kitty, two_of_clubs, first_trick_clubs, bag_cancel_card=2C": {
        "players": 6, "deck": "double_kitty", "kitty": True, "first_lead": "two_of_clubs",
        "first_trick_clubs": True, "bag_cancel_card": "2C", "last_trick_deuce": True},
    "six, deuces_high, must_overtrump=always, last wins": {
        "players": 6, "trump_order": "deuces_high", "must_overtrump": "always",
        "duplicate_wins": "last", "last_trick_high_spade": True},
    "six, two threes, bowers, must_trump": {
        "players": 6, "teams": "two_threes", "trump_order": "bowers", "must_trump": True},
    "six, double_jokers, joker_high_alternate, no_spade_lead": {
        "players": 6, "deck": "double_jokers", "jokers": 4,
        "trump_order": "joker_high_alternate", "no_spade_lead_first_trick": True,
        "spades_broken": False},
    # issue 19: three pairs play the keys of two partners; a side of partners (two or three)
    # or a single player plays the keys of a side (RULES.md section 4)
    "six, three pairs, double nils, max_team_bid, exact_pair_bonus, min_team_bid": {
        "players": 6, "double_nil": True, "double_blind_nil": True, "max_team_bid": 14,
        "exact_pair_bonus": True, "min_team_bid": 5},
    "six, no_twos, suicide": {"players": 6, "deck": "no_twos", "suicide": True,
                              "suicide_min_bid": 2},
    "six, three pairs, side contracts, moon, lexington": {
        "players": 6, "team_nil": True, "team_blind_nil": True, "mo_b": True, "bemo": True,
        "blind_moon": True, "moon": True, "lexington": True},
    "six, two threes, team_nil, mo_a, wheel, highlander": {
        "players": 6, "teams": "two_threes", "team_nil": True, "mo_a": True,
        "ten_for_two_hundred": True, "highlander": True},
    "six, solo, single_jokers, blind six, mo_a, moon, min_team_bid": {
        "players": 6, "teams": "solo", "deck": "single_jokers", "jokers": 2, "blind_six": True,
        "mo_a": True, "moon": True, "min_team_bid": 3},
    "six, three pairs, double_blind_nil=win, highlander": {
        "players": 6, "deck": "no_twos", "double_blind_nil": True,
        "double_blind_nil_reward": "win", "highlander": True},
    # two decks: whiz counts a spade held twice twice (the fuzzer of test_combinations)
    "six, solo, whiz": {"players": 6, "teams": "solo", "whiz": True, "blind_nil": False},
    "six, no_twos, mirror, quicksand": {"players": 6, "deck": "no_twos", "mirror": True,
                                        "blind_nil": False, "quicksand": True},
    "six, two threes, hook": {"players": 6, "teams": "two_threes", "hook": True},
    "six, no_twos, two threes, hook, nil=false": {
        "players": 6, "deck": "no_twos", "teams": "two_threes", "hook": True, "nil": False,
        "blind_nil": False},
    "six, double_kitty, extra trick": {"players": 6, "deck": "double_kitty", "kitty": True,
                                       "kitty_extra_trick": True},
    # with those above, every deck in every team shape
    "six, double_jokers, two threes": {"players": 6, "deck": "double_jokers", "jokers": 4,
                                       "teams": "two_threes"},
    "six, double_jokers, solo": {"players": 6, "deck": "double_jokers", "jokers": 4,
                                 "teams": "solo"},
    "six, double_kitty, two threes": {"players": 6, "deck": "double_kitty", "kitty": True,
                                      "teams": "two_threes"},
    "six, double_kitty, solo": {"players": 6, "deck": "double_kitty", "kitty": True,
                                "teams": "solo"},
    "six, single_jokers, solo": {"players": 6, "deck": "single_jokers", "jokers": 2,
                                 "teams": "solo"},
}
# the presets of these tables and decks (tests/test_conformance.py plays the four-player ones)
PRESET_NAMES = [n for n in preset_names("spades")
                if PRESETS[n].table != STANDARD.table or PRESETS[n].jokers]
VARIANTS.update({name: {} for name in PRESET_NAMES})
SIZES = {("hands", "random"): 40, ("hands", "seed"): 30, ("games", "random"): 4,
         ("games", "seed"): 3}
SEED = 808


def engine_rules(name: str):
    if name in PRESET_NAMES:
        return PRESETS[name]
    over = VARIANTS[name]
    extra = {} if over.get("cancel_spades") else {"blind_nil_min_deficit": 50}
    return dataclasses.replace(STANDARD, **extra, **over)


def test_every_other_preset_is_here():
    assert {"spades.six", "spades.cancel", "spades.cancel8", "spades.jokers",
            "spades.cutthroat", "spades.three", "spades.five"} <= set(PRESET_NAMES)


def run(name: str, strategy: str, mode: str):
    rules = engine_rules(name)
    if mode == "games" and not rules.cancel_spades:  # games of a few hands
        rules = dataclasses.replace(rules, max_hands=6, mercy_score=None)
    return simulate(rules, strategy, mode, SIZES[mode, strategy], SEED,
                    1 if mode == "hands" else 0)


CASES = [(n, s, m) for n in VARIANTS for s in ("random", "seed") for m in ("hands", "games")]


@pytest.mark.parametrize(("name", "strategy", "mode"), CASES)
def test_engine_equals_reference(name, strategy, mode):
    assert compare_records(run(name, strategy, mode), f"{name}/{strategy}/{mode}") > 0


# --- the same combinations refused ---------------------------------------------------------------
KEYS = {
    "players": [6, 8], "deck": ["double_minus_2c", "double_kitty", "no_twos"],
    "teams": ["two_threes", "solo"], "duplicate_wins": ["last"], "cancel_spades": [True],
    "kitty": [True], "kitty_taker": ["high_bidder"], "kitty_extra_trick": [True],
    "jokers": [2, 4], "trump_order": ["jokes_win", "jokers_high"], "jokes_tie": ["suit"],
    "dix": [True], "double_nil": [True], "partnerships": [False],
}


def _combinations():
    keys = sorted(KEYS)
    for a, b in itertools.combinations(keys, 2):
        for va, vb in itertools.product(KEYS[a], KEYS[b]):
            yield {a: va, b: vb}
    for players in (6, 8):
        yield {"players": players, **CANCEL, "max_hands": players}
        yield {"players": players, **CANCEL, "max_hands": players, "kitty": True}


def test_the_same_combinations_are_refused():
    differ = []
    for over in _combinations():
        engine, theirs = refusal(over)
        if (engine is None) != (theirs is None):  # which key a refusal names first may differ
            differ.append(f"{over}: engine {engine}, reference {theirs}")
    assert not differ, f"{len(differ)} differ:\n" + "\n".join(differ[:10])


# --- every card the engine offers is the reference's --------------------------------------------


@dataclasses.dataclass(eq=False)
class Recording:
    """Plays as ``inner`` and keeps, at every card, the engine's legal cards (``view.legal``)."""

    inner: object
    legal: list = dataclasses.field(default_factory=list)

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def play(self, view, rng):
        self.legal.append(view.legal.copy())
        return self.inner.play(view, rng)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_legal_cards_equal_the_reference(name):
    from sim.lineup import Lineup
    from sim.records import card_names
    from sim.spades.game import play_block
    from sim.spades.hand import deck_for
    from strategies import make_strategy

    try:
        from tests.harness import ref_rules
    except ImportError:  # pragma: no cover
        from harness import ref_rules

    rules = engine_rules(name)
    rd = ref_rules(rules)
    player = Recording(make_strategy("random"))
    n = 30
    result = play_block(rules, Lineup([player] * rules.players), SEED + 1, 0, n, "hands")
    out = result.outcomes[0]
    deck = deck_for(rules)
    bad, k = [], 0
    for i in range(n):
        rec = {"side_contracts": [CONTRACT_NAMES[c] for c in out.bidding.contracts[i]],
               "dealer": int(result.dealer[i]),
               "hands": [card_names(deck, h, t)
                         for h, t in zip(out.held[i], out.twice[i], strict=True)],
               "plays": [deck.names[s] for s in out.play.plays[i]]}
        for k, (t, hand, trick, broken) in enumerate(seat_plays(rec, rd)):
            theirs = sorted(set(ref.legal_plays(hand, trick, broken, rd, trick_no=t)))
            mine = sorted(deck.names_of(player.legal[k][i]))
            if mine != theirs:
                bad.append(f"hand {i} trick {t}: hand {sorted(hand)} trick {trick} broken "
                           f"{broken}\n  engine    {mine}\n  reference {theirs}")
    assert k + 1 == rules.players * rules.cards_each
    assert not bad, f"{name}: {len(bad)} positions differ, e.g.\n" + "\n".join(bad[:3])
