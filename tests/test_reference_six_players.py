"""The scalar reference's six players (RULES.md section 4.7 and the issue 8 spec): every
``deck`` and ``teams`` shape, ``duplicate_wins``, two-deck records, and the refusals.

Every expected seat, count and score is worked out by hand in the comment next to it from
RULES.md (section 0 tricks, section 3 scoring, section 4.7 tables) and the issue 8 spec; none
was copied from an implementation's output. A trick ``[c0, ..., c5]`` led by seat ``L`` is
played by seats L, L+1, ..., L+5 (mod 6).
"""

from __future__ import annotations

from collections import Counter

import pytest

import reference as ref
from sim.cards import RANKS

SIX = {"players": 6}
JOKERS_OF = {"double_jokers": 4, "single_jokers": 2}


def six(deck: str | None = None, teams: str | None = None, **more) -> dict:
    rules = {"players": 6, **more}
    if deck is not None:
        rules["deck"] = deck
        if deck in JOKERS_OF:
            rules["jokers"] = JOKERS_OF[deck]
    if teams is not None:
        rules["teams"] = teams
    return rules


def hands_of(tricks: list[tuple[int, list[str]]], players: int = 6) -> list[list[str]]:
    """The hands the plays of ``tricks`` (leader, cards in order of play) come from."""
    hands: list[list[str]] = [[] for _ in range(players)]
    for leader, cards in tricks:
        for k, card in enumerate(cards):
            hands[(leader + k) % players].append(card)
    return hands


def record(tricks, *, dealer, bids, players=6, **more) -> dict:
    return {"dealer": dealer, "hands": hands_of(tricks, players),
            "plays": [c for _, cards in tricks for c in cards], "bids": list(bids), **more}


# --- the decks and the hands (section 4.7) -------------------------------------------------------

ONE_DECK = Counter(r + s for s in "SHDC" for r in RANKS)


@pytest.mark.parametrize(("deck", "size", "each", "copies", "deck_cards"), [
    # two standard decks minus both 2C: 2 x 51 = 102, 17 each
    ("double_minus_2c", 102, 17, 2, ONE_DECK + ONE_DECK - Counter({"2C": 2})),
    # two decks + 4 jokers (two BJ, two LJ): 108, 18 each
    ("double_jokers", 108, 18, 2, ONE_DECK + ONE_DECK + Counter({"BJ": 2, "LJ": 2})),
    # ONE deck without the four 2s: 48, 8 each
    ("no_twos", 48, 8, 1, ONE_DECK - Counter({"2S": 1, "2H": 1, "2D": 1, "2C": 1})),
    # ONE deck + 2 jokers: 54, 9 each
    ("single_jokers", 54, 9, 1, ONE_DECK + Counter({"BJ": 1, "LJ": 1})),
])
@pytest.mark.parametrize("teams", [None, "three_pairs", "two_threes", "solo"])
def test_decks_and_hands(deck, size, each, copies, deck_cards, teams):
    rules = six(deck, teams)
    assert Counter(ref.deck_of(rules)) == deck_cards
    sides = {None: 3, "three_pairs": 3, "two_threes": 2, "solo": 6}[teams]
    assert ref.table_of(rules) == {"players": 6, "sides": sides, "cards_each": each,
                                   "tricks": each, "deck": size, "kitty": 0, "copies": copies}


def test_the_default_six_player_table():
    # deck double_minus_2c and three pairs unless told otherwise
    assert ref.table_of(SIX) == ref.table_of(six("double_minus_2c", "three_pairs"))
    assert Counter(ref.deck_of(SIX))["2C"] == 0 and Counter(ref.deck_of(SIX))["AS"] == 2


@pytest.mark.parametrize(("teams", "partner", "sides_of_seats"), [
    ("three_pairs", [3, 4, 5, 0, 1, 2], [0, 1, 2, 0, 1, 2]),  # partners opposite: 0-3 1-4 2-5
    ("two_threes", [None] * 6, [0, 1, 0, 1, 0, 1]),  # 0-2-4 against 1-3-5, no pairs
    ("solo", [None] * 6, [0, 1, 2, 3, 4, 5]),
])
def test_team_shapes(teams, partner, sides_of_seats):
    r = ref.resolve_rules(six(teams=teams))
    assert [ref._partner(s, r) for s in range(6)] == partner
    assert [ref._side(s, r) for s in range(6)] == sides_of_seats


# --- who wins a trick -------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "trick", "leader", "seat"), [
    # one AS of each deck: "first" (default) -> the first played; "last" -> the second
    (SIX, ["AS", "KS", "AS", "2H", "3H", "4H"], 0, 0),
    ({**SIX, "duplicate_wins": "last"}, ["AS", "KS", "AS", "2H", "3H", "4H"], 0, 2),
    ({**SIX, "duplicate_wins": "last"}, ["AS", "KS", "AS", "2H", "3H", "4H"], 4, 0),  # seat 4+2
    # two copies of a card that does not win: duplicate_wins changes nothing (the 9H wins)
    ({**SIX, "duplicate_wins": "last"}, ["5H", "9H", "5H", "3H", "4H", "6H"], 1, 2),
    (SIX, ["5H", "9H", "5H", "3H", "4H", "6H"], 1, 2),
    # both copies of the led card, the highest of the suit: first -> the leader, last -> seat 3
    (SIX, ["KD", "3D", "KD", "QD", "AC", "AH"], 1, 1),
    ({**SIX, "duplicate_wins": "last"}, ["KD", "3D", "KD", "QD", "AC", "AH"], 1, 3),
    # a spade beats both copies of the led ace: the 2S at seat (5 + 3) mod 6 = 2
    ({**SIX, "duplicate_wins": "last"}, ["AD", "AD", "KD", "2S", "3C", "4C"], 5, 2),
    # double_jokers, trump_order standard: BJ > LJ > AS; two BJ -> first / last
    (six("double_jokers"), ["AS", "BJ", "LJ", "BJ", "AS", "KS"], 0, 1),
    (six("double_jokers", duplicate_wins="last"), ["AS", "BJ", "LJ", "BJ", "AS", "KS"], 0, 3),
    (six("double_jokers", duplicate_wins="last"), ["LJ", "AS", "LJ", "AS", "2S", "3S"], 2, 4),
    # one-deck six-player decks: the usual ranking; single_jokers BJ > LJ > AS
    (six("no_twos"), ["3H", "AH", "KH", "3S", "QH", "JH"], 0, 3),
    (six("single_jokers"), ["AS", "KS", "LJ", "QS", "2H", "3S"], 3, 5),  # LJ at seat 3+2
])
def test_trick_winner(rules, trick, leader, seat):
    assert ref.trick_winner(trick, leader, rules) == seat


def test_a_trick_holds_at_most_the_copies_the_deck_has():
    with pytest.raises(ValueError, match="copies"):
        ref.trick_winner(["AS", "AS", "AS", "2H", "3H", "4H"], 0, SIX)
    with pytest.raises(ValueError, match="copies"):  # one deck: the AS once
        ref.trick_winner(["AS", "AS", "KS", "3H", "4H", "5H"], 0, six("no_twos"))
    with pytest.raises(ValueError, match="not a card"):  # both 2C are out of double_minus_2c
        ref.trick_winner(["2C", "3C", "4C", "5C", "6C", "7C"], 0, SIX)


# --- a whole two-deck hand (double_minus_2c) -----------------------------------------------------

# Dealer 5: seat 0 bids first and leads trick 1. Each trick: (leader, cards in order of play).
TWO_DECK_TRICKS = [
    (0, ["AC", "3C", "4C", "5C", "6C", "AC"]),  # 1: both AC, the first (seat 0) wins
    (0, ["KC", "3C", "4C", "5C", "6C", "KC"]),  # 2: seat 0
    (0, ["QC", "7C", "8C", "9C", "TC", "QC"]),  # 3: seat 0
    (0, ["JC", "7C", "8C", "9C", "TC", "JC"]),  # 4: seat 0; every club played (24 = 2 x 12)
    (0, ["AH", "2H", "3H", "4H", "5H", "6H"]),  # 5: seat 0
    (0, ["AH", "2H", "3H", "4H", "5H", "6H"]),  # 6: seat 0
    (0, ["KH", "7H", "8H", "9H", "TH", "JH"]),  # 7: seat 0
    (0, ["KH", "7H", "8H", "9H", "TH", "JH"]),  # 8: seat 0
    (0, ["QH", "2S", "QH", "2D", "3D", "4D"]),  # 9: seat 1, out of hearts, trumps: seat 1
    (1, ["AD", "AD", "5D", "6D", "7D", "8D"]),  # 10: seats 1..0; both AD, the first: seat 1
    (1, ["KD", "KD", "5D", "6D", "7D", "8D"]),  # 11: seat 1
    (1, ["QD", "QD", "9D", "TD", "JD", "9D"]),  # 12: seat 1
    (1, ["AS", "AS", "KS", "KS", "QS", "QS"]),  # 13: spades broken (trick 9): seat 1
    (1, ["JS", "JS", "TS", "TS", "9S", "9S"]),  # 14: seat 1
    (1, ["8S", "8S", "7S", "7S", "6S", "6S"]),  # 15: seat 1
    (1, ["5S", "5S", "4S", "4S", "3S", "3S"]),  # 16: seat 1
    (1, ["2S", "JD", "2D", "3D", "4D", "TD"]),  # 17: seat 1 holds only the 2S; the rest void
]
TWO_DECK_WINNERS = [0] * 8 + [1] * 9
TWO_DECK_TAKEN = [8, 9, 0, 0, 0, 0]
BIDS = [5, 4, 0, 2, 3, 2]


def test_the_two_deck_deal_is_the_deck():
    hands = hands_of(TWO_DECK_TRICKS)
    assert [len(h) for h in hands] == [17] * 6
    assert Counter(c for h in hands for c in h) == Counter(ref.deck_of(SIX))
    assert hands[0].count("AC") == 1 and hands[5].count("AC") == 1
    assert hands[1].count("AD") == 1 and Counter(hands[2])["AS"] == 1


@pytest.mark.parametrize(("teams", "points", "bags"), [
    # three pairs, sides 0-3, 1-4, 2-5 (tricks 8, 9, 0):
    # side 0 bid 5 + 2 = 7, took 8 -> 70 + 1 (a bag); side 1 bid 4 + 3 = 7, took 9 -> 72;
    # side 2: seat 2's nil made +100, seat 5 bid 2 took 0 -> -20: 80
    ("three_pairs", [71, 72, 80], [1, 2, 0]),
    # two threes, sides 0-2-4 (8 tricks) and 1-3-5 (9): side 0 bid 5 + 3 = 8 (seat 2 nil, made
    # +100), took 8 -> 80 + 100 = 180; side 1 bid 4 + 2 + 2 = 8, took 9 -> 81
    ("two_threes", [180, 81], [0, 1]),
    # solo: bid 5 took 8 -> 53; bid 4 took 9 -> 45; nil +100; 2 / 3 / 2 took 0 -> -20 -30 -20
    ("solo", [53, 45, 100, -20, -30, -20], [3, 5, 0, 0, 0, 0]),
])
def test_a_two_deck_hand_replays(teams, points, bags):
    out = ref.replay_hand(record(TWO_DECK_TRICKS, dealer=5, bids=BIDS), six(teams=teams))
    assert out["tricks"] == TWO_DECK_TAKEN
    assert out["winners"] == TWO_DECK_WINNERS
    assert out["points"] == points
    assert out["after"] == {"scores": points, "bags": bags}


def test_duplicate_wins_last_changes_the_play():
    # under "last" seat 5's AC wins trick 1, so seat 5 leads trick 2 with the KC and seat 0 (next)
    # would have to play the 3C, which seat 1 holds
    rec = record(TWO_DECK_TRICKS, dealer=5, bids=BIDS)
    with pytest.raises(ref.IllegalPlay, match=r"trick 2, seat 0\b.*dealt to another seat"):
        ref.replay_hand(rec, {**SIX, "duplicate_wins": "last"})


def test_two_deck_records_are_checked():
    rec = record(TWO_DECK_TRICKS, dealer=5, bids=BIDS)
    # a card three times
    bad = [list(h) for h in rec["hands"]]
    bad[2][bad[2].index("AS")] = "AC"  # seats 0 and 5 hold the two AC: a third
    with pytest.raises(ValueError, match=r"duplicated: \['AC'\]"):
        ref.replay_hand(rec | {"hands": bad}, SIX)
    # the second copy of a card played twice by its holder
    plays = list(rec["plays"])
    plays[6] = "AC"  # trick 2, seat 0 plays the AC again
    with pytest.raises(ref.IllegalPlay, match=r"trick 2, seat 0\b.*already played"):
        ref.replay_hand(rec | {"plays": plays}, SIX)
    # must follow: on trick 9 seat 2 still holds a heart (the second QH), so it may not play
    # one of its diamonds (its AD of trick 10)
    plays = list(rec["plays"])
    plays[8 * 6 + 2] = "AD"  # trick 9, third card: seat 2's QH
    with pytest.raises(ref.IllegalPlay, match=r"trick 9, seat 2\b.*must follow suit H"):
        ref.replay_hand(rec | {"plays": plays}, SIX)
    # a hand of 17 cards: 16 is refused
    short = [list(h) for h in rec["hands"]]
    short[0].pop()
    with pytest.raises(ValueError, match="17"):
        ref.replay_hand(rec | {"hands": short}, SIX)


def test_two_deck_bids_run_to_the_tricks_of_the_hand():
    rules = six(teams="solo")
    assert ref.legal_bids(0, {}, [0] * 6, rules)["bids"] == list(range(18))  # 0..17
    assert ref.legal_bids(0, {}, [0] * 6, six("double_jokers"))["bids"] == list(range(19))
    assert ref.legal_bids(0, {}, [0] * 3, six("no_twos"))["bids"] == list(range(9))
    with pytest.raises(ref.IllegalBid, match="bids are 0..17"):
        ref.replay_hand({"dealer": 5, "bids": [18, 0, 0, 0, 0, 0],
                         "tricks": [17, 0, 0, 0, 0, 0]}, SIX)


# --- a whole one-deck hand (no_twos: 48 cards, 8 tricks) ------------------------------------------

# Dealer 0: seat 1 bids first and leads. Each seat holds two cards of each suit.
ONE_DECK_TRICKS = [
    (1, ["AH", "3H", "4H", "5H", "6H", "7H"]),  # 1: seat 1
    (1, ["8H", "KH", "9H", "TH", "JH", "QH"]),  # 2: KH, seat 2
    (2, ["AD", "3D", "4D", "5D", "6D", "7D"]),  # 3: seat 2
    (2, ["8D", "9D", "TD", "JD", "QD", "KD"]),  # 4: KD, seat 2 + 5 = 1
    (1, ["3C", "AC", "4C", "5C", "6C", "7C"]),  # 5: AC, seat 2
    (2, ["8C", "9C", "TC", "JC", "QC", "KC"]),  # 6: KC, seat 1
    (1, ["3S", "4S", "5S", "AS", "6S", "7S"]),  # 7: seat 1 holds only spades; AS: seat 4
    (4, ["8S", "9S", "TS", "JS", "QS", "KS"]),  # 8: KS, seat 4 + 5 = 3
]
ONE_DECK_BIDS = [0, 3, 3, 1, 2, 0]


@pytest.mark.parametrize(("teams", "points"), [
    # three pairs 0-3, 1-4, 2-5: seat 0 nil made +100, seat 3 bid 1 took 1 -> 110; side 1 bid
    # 3 + 2 = 5 took 3 + 1 = 4 -> -50; side 2 bid 3 took 3 (seat 5 nil made) -> 30 + 100
    ("three_pairs", [110, -50, 130]),
    # two threes: side 0 (0-2-4) nil made +100, bid 3 + 2 = 5 took 3 + 1 = 4 -> -50: 50;
    # side 1 (1-3-5) bid 3 + 1 = 4 took 3 + 1 = 4 -> 40, nil made +100: 140
    ("two_threes", [50, 140]),
    # solo: nil +100; 3 of 3 -> 30; 3 of 3 -> 30; 1 of 1 -> 10; bid 2 took 1 -> -20; nil +100
    ("solo", [100, 30, 30, 10, -20, 100]),
])
def test_a_one_deck_six_player_hand_replays(teams, points):
    rules = six("no_twos", teams)
    out = ref.replay_hand(record(ONE_DECK_TRICKS, dealer=0, bids=ONE_DECK_BIDS), rules)
    assert out["tricks"] == [0, 3, 3, 1, 1, 0]
    assert out["winners"] == [1, 2, 2, 1, 2, 1, 4, 3]
    assert out["points"] == points


def test_one_deck_records_refuse_a_second_copy():
    rec = record(ONE_DECK_TRICKS, dealer=0, bids=ONE_DECK_BIDS)
    bad = [list(h) for h in rec["hands"]]
    bad[0][0] = "AH"  # seat 1 holds the AH: one deck has one
    with pytest.raises(ValueError, match=r"duplicated: \['AH'\]"):
        ref.replay_hand(rec | {"hands": bad}, six("no_twos"))
    bad[0][0] = "2H"  # out of no_twos
    with pytest.raises(ValueError, match="not a card of this deck"):
        ref.replay_hand(rec | {"hands": bad}, six("no_twos"))


# --- scores by side at six players (score sheets) -------------------------------------------------


def test_three_pairs_score_sheet_with_scores_and_bags_before():
    # 17 tricks; sides 0-3, 1-4, 2-5. Side 0 bid 4 + 4 = 8, took 5 + 6 = 11 -> 80 + 3; with 8 bags
    # before it reaches 11: -100, 1 bag left. Side 1 bid 3 + 1 = 4, took 2 + 1 = 3: set -40.
    # Side 2: seat 2 nil took 1 -> -100 and a bag; seat 5 bid 2 took 2 -> 20.
    rec = {"dealer": 0, "bids": [4, 3, 0, 4, 1, 2], "tricks": [5, 2, 1, 6, 1, 2],
           "before": {"scores": [100, 50, 0], "bags": [8, 0, 9]}}
    out = ref.replay_hand(rec, SIX)
    assert out["components"]["contract"] == [80, -40, 20]
    assert out["components"]["overtricks"] == [3, 0, 1]
    assert out["components"]["nil"] == [0, 0, -100]
    assert out["components"]["bag_penalty"] == [-100, 0, -100]  # side 2: 9 + 1 = 10 bags
    assert out["points"] == [-17, -40, -179]
    assert out["after"] == {"scores": [83, 10, -179], "bags": [1, 0, 0]}


def test_three_pairs_partnership_keys():
    # issue 19: the section 4.4 keys of two partners are played by three pairs as by two (each
    # side is two partners); two threes have sides of three, not pairs; a side's keys (team
    # nil, the side contracts) are played by any side of partners
    for key, value in (("double_nil", True), ("max_team_bid", 10), ("team_nil", True),
                       ("suicide", True), ("exact_pair_bonus", True), ("min_team_bid", 4)):
        ref.resolve_rules({**SIX, key: value})
        if key != "team_nil":
            with pytest.raises(ValueError, match=f"^{key}: written for two partners"):
                ref.resolve_rules(six(teams="two_threes", **{key: value}))
    ref.resolve_rules(six(teams="two_threes", team_nil=True, moon=True, mo_a=True))


def test_the_game_ends_with_the_highest_unshared_score():
    assert ref.game_over([510, 300, 200], 5, SIX) == (True, 0)
    assert ref.game_over([510, 510, 200], 5, SIX) == (False, None)
    assert ref.game_over([100, 120], 5, six(teams="two_threes")) == (False, None)


# --- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "key"), [
    ({"players": 7}, "players"),
    ({"players": 2}, "players"),  # two players: not implemented by the reference
    ({"players": 8}, "players"),  # eight players only under cancel_spades
    ({"deck": "no_twos"}, "deck"),  # four players
    ({"players": 5, "teams": "solo"}, "teams"),
    ({**SIX, "deck": "triple"}, "deck"),
    ({**SIX, "teams": "three_threes"}, "teams"),
    ({**SIX, "deck": "double_jokers"}, "jokers"),  # needs jokers = 4
    ({**SIX, "deck": "double_jokers", "jokers": 2}, "jokers"),
    ({**SIX, "deck": "single_jokers"}, "jokers"),  # needs jokers = 2
    ({**SIX, "jokers": 2}, "jokers"),  # double_minus_2c has none
    ({**SIX, "deck": "no_twos", "jokers": 4}, "jokers"),
    ({"jokers": 4}, "jokers"),  # four jokers only with double_jokers
    ({**SIX, "deck": "single_jokers", "jokers": 2, "jokers_remove": ["2C", "2D"]},
     "jokers_remove"),
    ({**SIX, "partnerships": False}, "partnerships"),
    ({**SIX, "deck": "double_kitty"}, "kitty"),  # needs kitty = true
    # duplicate_wins: "last" in a one-deck game is refused
    ({"duplicate_wins": "last"}, "duplicate_wins"),
    ({**SIX, "deck": "no_twos", "duplicate_wins": "last"}, "duplicate_wins"),
    ({**SIX, "deck": "single_jokers", "jokers": 2, "duplicate_wins": "last"}, "duplicate_wins"),
    ({**SIX, "duplicate_wins": "second"}, "duplicate_wins"),
    # partner-only keys need pairs; two-side keys need two sides
    ({**SIX, "teams": "two_threes", "double_nil": True}, "double_nil"),
    ({**SIX, "teams": "solo", "max_team_bid": 10}, "max_team_bid"),
    ({**SIX, "teams": "two_threes", "deck": "no_twos", "suicide": True}, "suicide"),
    ({**SIX, "teams": "solo", "team_nil": True}, "team_nil"),  # "a side (not a player)"
    ({**SIX, "book_made": True}, "book_made"),  # three pairs: three sides
    ({**SIX, "teams": "solo", "set_to_opponents": True}, "set_to_opponents"),
])
def test_refusals(rules, key):
    with pytest.raises(ValueError, match=f"^{key}"):
        ref.resolve_rules(rules)


TWO_DECK_KEYS = [("bag_cancel_card", "7H"), ("dix", True), ("last_trick_ace", True),
                 ("last_trick_ace_nil", True), ("last_trick_deuce", True),
                 ("last_trick_high_spade", True), ("first_lead", "lowest_club"),
                 ("first_lead", "two_of_clubs"), ("first_trick_clubs", True),
                 ("first_trick_lowest_club", True), ("must_overtrump", "always"),
                 ("must_trump", True), ("trump_order", "deuces_high"),
                 ("trump_order", "jokers_high"), ("nil_pass", [1, 1]),
                 ("pass_cards", {"count": 1, "direction": "left"})]


@pytest.mark.parametrize(("key", "value"), TWO_DECK_KEYS)
@pytest.mark.parametrize("deck", ["double_minus_2c", "double_jokers"])
def test_two_deck_games_play_the_keys(deck, key, value):
    # issue 19: a card twice is no reason to refuse a key (RULES.md section 0: "In two-deck
    # games the two copies of a card share one name"); what stays refused is the deck's own:
    # double_minus_2c has no 2C and no jokers; card passing is not implemented here, nil_pass
    # is a key of two partnerships of four
    rules = six(deck, **{key: value})
    refused = key if key in ("nil_pass", "pass_cards") else {
        ("double_minus_2c", "first_lead", "two_of_clubs"): "first_lead",
        ("double_minus_2c", "trump_order", "jokers_high"): "trump_order"}.get((deck, key, value))
    if refused is None:
        ref.resolve_rules(rules)
    else:
        with pytest.raises(ValueError, match=f"^{refused}"):
            ref.resolve_rules(rules)


def test_two_deck_readings():
    # the lowest club dealt to two hands: the first holder from the dealer's left leads it
    rules = six(first_lead="lowest_club")  # double_minus_2c: the 3C is the lowest club
    hands = [["AS"], ["3C"], ["KD"], ["QD"], ["3C"], ["JH"]]
    assert ref.first_leader(2, None, rules, hands) == 4
    assert ref.first_leader(5, None, rules, hands) == 1
    # must_overtrump: under duplicate_wins = "last" the other copy of the top spade beats it
    for wins, legal in (("last", ["AS"]), ("first", ["AS", "KS", "2D"])):
        rules = six(must_overtrump="always", duplicate_wins=wins)
        assert ref.legal_plays(["AS", "KS", "2D"], ["5H", "AS"], True, rules, trick_no=2) == legal
    # jokers_first_wins: of two jokers the first played wins, identical ones too
    rules = six("double_jokers", trump_order="jokers_first_wins", duplicate_wins="last")
    assert ref.trick_winner(["BJ", "LJ", "BJ", "2S", "3S", "4S"], 0, rules) == 0
    assert ref.legal_plays(["BJ", "AS", "2D"], ["5H", "BJ"], True,
                           {**rules, "must_trump": True}, trick_no=2) == ["BJ", "AS"]
    # bag_cancel_card: each copy cancels a bag of the side winning its trick. Solo: seat 0 bid
    # 5 and took 8 (3 bags); both AH are in tricks he won (5 and 6): 50 + 1, one bag left
    rec = record(TWO_DECK_TRICKS, dealer=5, bids=BIDS)
    out = ref.replay_hand(rec, six(teams="solo", bag_cancel_card="AH"))
    assert out["points"][0] == 51 and out["after"]["bags"][0] == 1
    out = ref.replay_hand(rec, six(teams="solo", bag_cancel_card="AC"))  # both in trick 1
    assert out["points"][0] == 51 and out["after"]["bags"][0] == 1


@pytest.mark.parametrize(("key", "value"), [(k, v) for k, v in TWO_DECK_KEYS
                                            if k not in ("nil_pass", "pass_cards")])
def test_one_deck_six_player_games_allow_what_the_table_allows(key, value):
    # no_twos and single_jokers are ordinary one-deck games (the 2C, 2D, 2H, 2S are out of
    # no_twos: the keys naming them are left to the deck checks); jokers_high needs the jokers
    rules = six("single_jokers", **{key: value})
    if key == "trump_order" and value == "deuces_high":
        rules = six("no_twos", **{key: value})
    ref.resolve_rules(rules)


def test_one_deck_six_player_refusals_of_the_deck():
    with pytest.raises(ValueError, match="^first_lead"):  # no 2C in no_twos
        ref.resolve_rules(six("no_twos", first_lead="two_of_clubs"))
    with pytest.raises(ValueError, match="^bag_cancel_card"):
        ref.resolve_rules(six("no_twos", bag_cancel_card="2H"))
    # first_lead lowest_club: the 3C is the lowest club of no_twos
    rules = six("no_twos", first_lead="lowest_club")
    assert ref.first_leader(0, None, rules, hands_of(ONE_DECK_TRICKS)) == 1  # seat 1 holds 3C


def test_two_deck_keys_that_stay():
    # spades_broken, nil, the bid keys, last_trick_bonus and end_streak are played with two
    # decks (the spec refuses only its list)
    for over in ({"spades_broken": False}, {"nil": False, "blind_nil": False},
                 {"last_trick_bonus": True, "end_streak": True},
                 {"lead_ace_of_spades": True}, {"duplicate_wins": "last"}):
        ref.resolve_rules({**SIX, **over})
        ref.resolve_rules(six("double_jokers", **over))


def test_last_trick_bonus_with_two_decks():
    # the two-deck hand above: seat 1 wins trick 17 (+10), and tricks 15-17 (+30): side 1
    rules = {**SIX, "last_trick_bonus": True, "end_streak": True}
    out = ref.replay_hand(record(TWO_DECK_TRICKS, dealer=5, bids=BIDS), rules)
    assert out["components"]["trick_bonus"] == [0, 40, 0]
    assert out["points"] == [71, 112, 80]


# --- cancel spades (section 4.7, the issue 8 spec) ------------------------------------------------

CANCEL = "spades.cancel"
CANCEL8 = "spades.cancel8"


@pytest.mark.parametrize(("rules", "table", "deck_cards"), [
    # six players: two decks without both 2H: 102 cards, 17 each, three pairs
    (CANCEL, {"players": 6, "sides": 3, "cards_each": 17, "tricks": 17, "deck": 102,
              "kitty": 0, "copies": 2}, ONE_DECK + ONE_DECK - Counter({"2H": 2})),
    # eight players: two full decks: 104 cards, 13 each, four pairs
    (CANCEL8, {"players": 8, "sides": 4, "cards_each": 13, "tricks": 13, "deck": 104,
               "kitty": 0, "copies": 2}, ONE_DECK + ONE_DECK),
])
def test_cancel_spades_decks(rules, table, deck_cards):
    assert ref.table_of(rules) == table
    assert Counter(ref.deck_of(rules)) == deck_cards


def test_cancel_spades_partners():
    six_, eight = ref.resolve_rules(CANCEL), ref.resolve_rules(CANCEL8)
    assert [ref._partner(s, six_) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    assert [ref._partner(s, eight) for s in range(8)] == [4, 5, 6, 7, 0, 1, 2, 3]
    assert [ref._side(s, eight) for s in range(8)] == [0, 1, 2, 3, 0, 1, 2, 3]


@pytest.mark.parametrize(("rules", "card", "suit"), [
    (CANCEL, "2D", "S"), (CANCEL, "2C", "S"), (CANCEL, "3D", "D"), (CANCEL, "3C", "C"),
    (CANCEL8, "2D", "S"), (CANCEL8, "2C", "S"), (CANCEL8, "2H", "H"),  # the 2H stay hearts
])
def test_cancel_spades_suits(rules, card, suit):
    assert ref.card_suit(card, rules) == suit


def test_cancel_spades_six_players_have_no_2h():
    with pytest.raises(ValueError, match="not a card"):
        ref.card_suit("2H", CANCEL)


@pytest.mark.parametrize(("rules", "trick", "leader", "seat"), [
    # 2D > 2C > AS: the 2D trumps the AS, at seat 1
    (CANCEL, ["AS", "2D", "KS", "3H", "4H", "5H"], 0, 1),
    # 2C above the AS, below the 2D: seat 3 + 2 = 5
    (CANCEL, ["AS", "KS", "2C", "3S", "4S", "5S"], 3, 5),
    # both AS cancel: the KS (seat 2) wins
    (CANCEL, ["AS", "AS", "KS", "3H", "4H", "5H"], 0, 2),
    # both 2D cancel: the 2C wins (seat 4 + 2 = 0)
    (CANCEL, ["2D", "2D", "2C", "AS", "KS", "QS"], 4, 0),
    # a 2D trumps a diamond lead: it is a spade, not a diamond (seat 2)
    (CANCEL, ["AD", "KD", "2D", "QD", "JD", "TD"], 0, 2),
    # the led KH cancelled: hearts stay the led suit, the 5H (seat 1 + 2 = 3) wins; the clubs
    # cannot
    (CANCEL, ["KH", "KH", "5H", "3C", "AC", "6C"], 1, 3),
    # a spade that cancels beats nothing; the highest live card of the led suit wins: AH
    (CANCEL, ["3H", "9S", "AH", "9S", "KH", "QH"], 0, 2),
    # eight players: the two 2H are hearts and cancel; the AH (seat 1) wins
    (CANCEL8, ["2H", "AH", "2H", "3H", "4H", "5H", "6H", "7H"], 0, 1),
    # eight players: a 2C trumps a club lead (seat 5 + 7 = 4)
    (CANCEL8, ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "2C"], 5, 4),
])
def test_cancel_spades_trick_winner(rules, trick, leader, seat):
    assert ref.trick_winner(trick, leader, rules) == seat


@pytest.mark.parametrize(("rules", "trick"), [
    # every card cancelled
    (CANCEL, ["KH", "KH", "QD", "QD", "3C", "3C"]),
    # the led hearts cancel; no spade; the rest are of other suits: nobody wins
    (CANCEL, ["KH", "3C", "4D", "KH", "5D", "6C"]),
    # every spade cancelled, no live card of the led suit
    (CANCEL8, ["AS", "AS", "2C", "2C", "7H", "8H", "9H", "TH"]),
])
def test_cancel_spades_dead_tricks(rules, trick):
    assert ref.trick_winner(trick, 0, rules) is None


def test_cancel_spades_legal_plays():
    # the 2C and 2D are spades in following: a club lead may not be followed by the 2C while a
    # club is held; a spade lead must be followed by the 2C (the only spade)
    assert ref.legal_plays(["2C", "5C", "KH"], ["9C"], False, CANCEL) == ["5C"]
    assert ref.legal_plays(["2C", "5C", "KH"], ["AS"], False, CANCEL) == ["2C"]
    assert ref.legal_plays(["2D", "KH"], ["9D"], False, CANCEL) == ["2D", "KH"]  # void in D
    # leading before spades are broken: no 2D / 2C lead while holding another suit
    assert ref.legal_plays(["2D", "2C", "5H"], [], False, CANCEL) == ["5H"]
    assert ref.legal_plays(["2D", "2C", "5H"], [], True, CANCEL) == ["2D", "2C", "5H"]
    assert ref.legal_plays(["2H", "AS"], [], False, CANCEL8) == ["2H"]  # eight: the 2H a heart


# Six players, dealer 5: seat 0 bids first and leads. Each seat holds 4 clubs, 4 hearts,
# 4 diamonds and 5 spades (the 2D and 2C among them); every trick is followed.
CANCEL_TRICKS = [
    (0, ["AC", "AC", "KC", "3C", "4C", "5C"]),  # 1: AC cancel; KC, seat 2
    (2, ["QC", "QC", "3C", "4C", "5C", "KC"]),  # 2: QC cancel; KC at seat 2 + 5 = 1
    (1, ["JC", "TC", "9C", "8C", "7C", "6C"]),  # 3: seat 1
    (1, ["JC", "TC", "9C", "8C", "7C", "6C"]),  # 4: seat 1
    (1, ["KH", "KH", "5H", "5H", "9H", "9H"]),  # 5: all cancel: dead; seat 1 leads again
    (1, ["AH", "AH", "QH", "3H", "4H", "6H"]),  # 6: AH cancel; QH, seat 3
    (3, ["QH", "JH", "TH", "8H", "7H", "3H"]),  # 7: seat 3
    (3, ["JH", "TH", "8H", "7H", "4H", "6H"]),  # 8: seat 3
    (3, ["AD", "KD", "AD", "3D", "4D", "5D"]),  # 9: AD cancel; KD, seat 4
    (4, ["QD", "QD", "JD", "JD", "TD", "TD"]),  # 10: dead; seat 4 leads again
    (4, ["KD", "9D", "8D", "7D", "6D", "3D"]),  # 11: seat 4
    (4, ["9D", "8D", "7D", "6D", "5D", "4D"]),  # 12: seat 4, who now holds only spades
    (4, ["2S", "3S", "4S", "5S", "6S", "2D"]),  # 13: the 2D, seat 4 + 5 = 3
    (3, ["2C", "2C", "AS", "AS", "KS", "3S"]),  # 14: 2C and AS cancel; KS, seat 3 + 4 = 1
    (1, ["2D", "KS", "QS", "QS", "JS", "JS"]),  # 15: seat 1
    (1, ["TS", "TS", "9S", "9S", "8S", "8S"]),  # 16: dead; seat 1 leads again
    (1, ["7S", "7S", "6S", "5S", "4S", "2S"]),  # 17: 7S cancel; 6S, seat 1 + 2 = 3
]
CANCEL_WINNERS = [2, 1, 1, 1, None, 3, 3, 3, 4, None, 4, 4, 3, 1, 1, None, 3]
CANCEL_TAKEN = [0, 5, 1, 5, 3, 0]  # 14 tricks won, 3 dead


def test_the_cancel_spades_deal_is_the_deck():
    hands = hands_of(CANCEL_TRICKS)
    assert [len(h) for h in hands] == [17] * 6
    assert Counter(c for h in hands for c in h) == Counter(ref.deck_of(CANCEL))


def test_a_cancel_spades_hand_replays():
    # pairs 0-3, 1-4, 2-5. Bids: seat 0 nil, 1: 5, 2: 1, 3: 4, 4: nil, 5: nil.
    # side 0: seat 0's nil made +50; seat 3 bid 4 took 5 -> 40 + 1 overtrick: 91
    # side 1: seat 1 bid 5 took 5 -> 50; seat 4's nil took 3 -> -30 (and they do not count): 20
    # side 2: seat 2 bid 1 took 1 -> 10; seat 5's nil made +50: 60
    rec = record(CANCEL_TRICKS, dealer=5, bids=[0, 5, 1, 4, 0, 0])
    out = ref.replay_hand(rec, CANCEL)
    assert out["winners"] == CANCEL_WINNERS
    assert out["tricks"] == CANCEL_TAKEN
    assert out["dead_tricks"] == 3
    assert out["components"]["contract"] == [40, 50, 10]
    assert out["components"]["overtricks"] == [1, 0, 0]
    assert out["components"]["nil"] == [50, -30, 50]
    assert out["components"]["bag_penalty"] == [0, 0, 0]
    assert out["points"] == [91, 20, 60]
    assert out["after"] == {"scores": [91, 20, 60], "bags": [0, 0, 0]}
    assert ref.bags_taken(rec["bids"], out["tricks"], CANCEL) == [1, 0, 0]


def test_a_dead_trick_is_led_again_by_its_leader():
    # trick 10 is dead and its leader, seat 4, leads trick 11 (the record above replays only so).
    # Written as if seat 5 had led trick 11 (seats 5, 0, 1, 2, 3, 4 play 9D 8D 7D 6D 3D KD), the
    # reference has seats 4, 5, 0, 1 play 9D 8D 7D 6D (which they hold for trick 12), then seat 2
    # the 3D that seat 3 holds
    rec = record(CANCEL_TRICKS, dealer=5, bids=[0, 5, 1, 4, 0, 0])
    assert ref.replay_hand(rec, CANCEL)["winners"][9] is None
    plays = list(rec["plays"])
    plays[10 * 6: 10 * 6 + 6] = ["9D", "8D", "7D", "6D", "3D", "KD"]
    with pytest.raises(ref.IllegalPlay, match=r"trick 11, seat 2, card '3D'.*another seat"):
        ref.replay_hand(rec | {"plays": plays}, CANCEL)


def test_a_dead_trick_is_nobodys_in_a_score_sheet():
    # a score sheet's tricks may sum to less than 17: the rest were dead
    rec = {"dealer": 5, "bids": [0, 5, 1, 4, 0, 0], "tricks": CANCEL_TAKEN}
    out = ref.replay_hand(rec, CANCEL)
    assert out["dead_tricks"] == 3 and out["points"] == [91, 20, 60]
    with pytest.raises(ValueError, match="tricks"):
        ref.replay_hand(rec | {"tricks": [0, 5, 1, 5, 3, 4]}, CANCEL)  # 18
    with pytest.raises(ValueError, match="tricks"):  # no dead tricks elsewhere
        ref.replay_hand({"dealer": 5, "bids": BIDS, "tricks": [8, 8, 0, 0, 0, 0]}, SIX)


# Eight players, dealer 7: seat 0 bids first and leads. Partners s and s + 4.
CANCEL8_TRICKS = [
    (0, ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"]),  # 1: seat 0
    (0, ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"]),  # 2: seat 0
    (0, ["6C", "6C", "5C", "5C", "4C", "4C", "3C", "3C"]),  # 3: dead; seat 0 again
    (0, ["3D", "AD", "KD", "QD", "JD", "TD", "9D", "7D"]),  # 4: AD, seat 1
    (1, ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "6D"]),  # 5: seat 1
    (1, ["8D", "3D", "7D", "6D", "5D", "5D", "4D", "4D"]),  # 6: 5D, 4D cancel; 8D, seat 1
    (1, ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"]),  # 7: seat 1
    (1, ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"]),  # 8: seat 1
    (1, ["6H", "5H", "4H", "3H", "6H", "5H", "4H", "3H"]),  # 9: dead; seat 1 again
    (1, ["2H", "3S", "4S", "5S", "2H", "6S", "7S", "8S"]),  # 10: 2H cancel; 8S, seat 0
    (0, ["2D", "2D", "2C", "AS", "KS", "QS", "JS", "TS"]),  # 11: 2D cancel; 2C, seat 2
    (2, ["2C", "AS", "KS", "QS", "JS", "TS", "9S", "9S"]),  # 12: seat 2
    (2, ["8S", "7S", "6S", "5S", "4S", "3S", "2S", "2S"]),  # 13: 2S cancel; 8S, seat 2
]


def test_an_eight_player_cancel_spades_hand_replays():
    # pairs 0-4, 1-5, 2-6, 3-7; bids 3, 4, 2, nil, 1, nil, nil, nil; tricks 3, 5, 3, 0...
    # side 0: bid 3 + 1 = 4, took 3 + 0: one short -> -10
    # side 1: bid 4 took 5 -> 41; seat 5's nil made: +30 (eight players) -> 71
    # side 2: bid 2 took 3 -> 21; seat 6's nil made +30 -> 51
    # side 3: both nil, both clean: 100 (eight players) instead of 30 + 30
    hands = hands_of(CANCEL8_TRICKS, 8)
    assert Counter(c for h in hands for c in h) == Counter(ref.deck_of(CANCEL8))
    rec = record(CANCEL8_TRICKS, dealer=7, bids=[3, 4, 2, 0, 1, 0, 0, 0], players=8)
    out = ref.replay_hand(rec, CANCEL8)
    assert out["winners"] == [0, 0, None, 1, 1, 1, 1, 1, None, 0, 2, 2, 2]
    assert out["tricks"] == [3, 5, 3, 0, 0, 0, 0, 0]
    assert out["dead_tricks"] == 2
    assert out["points"] == [-10, 71, 51, 100]


@pytest.mark.parametrize(("rules", "bids", "tricks", "points"), [
    # pairs 0-3, 1-4, 2-5. The spec's example: side 0 bid 3 + 2 = 5, counted 2 + 1 = 3 -> -20;
    # side 1 bid 4 + 2 = 6, counted 6 + 3 = 9 -> 60 + 3; side 2 bid 6, counted 5 + 0 -> -10
    (CANCEL, [3, 4, 4, 2, 2, 2], [2, 6, 5, 1, 3, 0], [-20, 63, -10]),
    # a nil bidder's tricks do not count for the partner: seat 0's nil took 2 (-20), seat 3 bid
    # 5 took 3: two short, -20; side 1 bid 6 took 7 -> 61; side 2 bid 6 took 5 -> -10
    (CANCEL, [0, 4, 4, 5, 2, 2], [2, 6, 5, 3, 1, 0], [-40, 61, -10]),
    # seats 0 and 3 both nil and clean: 200; side 1: seat 1's nil took 1 -> -10, seat 4 bid 5
    # took 6 -> 51: 41; side 2 bid 8 took 10 -> 82
    (CANCEL, [0, 0, 4, 0, 5, 4], [0, 1, 6, 0, 6, 4], [200, 41, 82]),
    # eight players, pairs 0-4 1-5 2-6 3-7: seats 0 and 4 double nil clean: 100; seat 1 bid 3
    # took 4 -> 31, seat 5's nil took 1 -> -10: 21; side 2 bid 6 took 7 -> 61; side 3 bid 3
    # took 1 -> -20
    (CANCEL8, [0, 3, 4, 1, 0, 0, 2, 2], [0, 4, 4, 0, 0, 1, 3, 1], [100, 21, 61, -20]),
    # eight players: a single nil made is 30 (seat 3; seat 7 bid 1 took 1 -> 10: 40); side 0
    # bid 4 took 3 -> -10; side 1 bid 6 took 4 -> -20; side 2 bid 5 took 5 -> 50
    (CANCEL8, [2, 3, 4, 0, 2, 3, 1, 1], [2, 3, 4, 0, 1, 1, 1, 1], [-10, -20, 50, 40]),
])
def test_cancel_spades_scoring(rules, bids, tricks, points):
    rec = {"dealer": 0, "bids": bids, "tricks": tricks}
    assert ref.replay_hand(rec, rules)["points"] == points


def test_cancel_spades_has_no_bags():
    # side 1 (seats 1 and 4) bid 2 + 1 = 3, took 9 + 5 = 14: 30 + 11 overtricks, no penalty
    # however many bags it had before
    rec = {"dealer": 0, "bids": [1, 2, 1, 1, 1, 1], "tricks": [1, 9, 1, 0, 5, 1],
           "before": {"scores": [0, 0, 0], "bags": [0, 0, 0]}}
    out = ref.replay_hand(rec, CANCEL)
    assert out["components"]["contract"][1] == 30 and out["components"]["overtricks"][1] == 11
    assert out["components"]["bag_penalty"] == [0, 0, 0]
    assert out["after"]["bags"] == [0, 0, 0]


def test_cancel_spades_bids():
    # 0..17 (six players), 0..13 (eight); nil is the only 0 bid; no blind nil
    assert ref.legal_bids(0, {}, [0, 0, 0], CANCEL) == {"bids": list(range(18)),
                                                         "blind_nil": False}
    assert ref.legal_bids(0, {}, [0, -500, 0, 0], CANCEL8) == {"bids": list(range(14)),
                                                                "blind_nil": False}


def test_a_game_of_cancel_spades_is_one_deal_per_player():
    assert ref.game_over([300, 200, 100], 5, CANCEL) == (False, None)
    assert ref.game_over([300, 200, 100], 6, CANCEL) == (True, 0)
    assert ref.game_over([300, 300, 100], 6, CANCEL) == (True, None)  # a draw
    assert ref.game_over([-900, 20, 10, 0], 7, CANCEL8) == (False, None)
    assert ref.game_over([-900, 20, 10, 30], 8, CANCEL8) == (True, 3)


@pytest.mark.parametrize(("rules", "key"), [
    ({"cancel_spades": True}, "cancel_spades"),  # four players
    ({"players": 5, "cancel_spades": True}, "cancel_spades"),
    ({"players": 6, "cancel_spades": True}, "blind_nil"),  # over spades.standard
    ({"players": 6, "cancel_spades": True, "blind_nil": False}, "max_hands"),
    ({**ref.CANCEL, "target_score": 500}, "target_score"),
    ({**ref.CANCEL, "mercy_score": -200}, "mercy_score"),
    ({**ref.CANCEL, "max_hands": 8}, "max_hands"),
    ({**ref.CANCEL8, "max_hands": 6}, "max_hands"),
    ({**ref.CANCEL, "blind_nil": True}, "blind_nil"),
    ({**ref.CANCEL, "deck": "double_minus_2c"}, "deck"),
    ({**ref.CANCEL, "teams": "three_pairs"}, "teams"),
    ({**ref.CANCEL, "duplicate_wins": "last"}, "duplicate_wins"),
    ({**ref.CANCEL, "trump_order": "deuces_high"}, "trump_order"),
    ({**ref.CANCEL, "nil_bonus": 50}, "nil_bonus"),
    ({**ref.CANCEL, "double_nil": True}, "double_nil"),
    ({**ref.CANCEL, "must_trump": True}, "must_trump"),
    ({**ref.CANCEL, "first_lead": "lowest_club"}, "first_lead"),
    ({**ref.CANCEL, "last_trick_bonus": True}, "last_trick_bonus"),
    ({**ref.CANCEL, "jokers": 4}, "jokers"),
    ({**ref.CANCEL, "kitty": True}, "kitty"),
    ({**ref.CANCEL8, "partnerships": False}, "partnerships"),
])
def test_cancel_spades_refusals(rules, key):
    with pytest.raises(ValueError, match=f"^{key}"):
        ref.resolve_rules(rules)


def test_cancel_spades_keeps_the_spade_lead_keys():
    for over in ({"spades_broken": False}, {"spades_broken": "never"},
                 {"lead_ace_of_spades": True}):
        ref.resolve_rules({**ref.CANCEL, **over})
        ref.resolve_rules({**ref.CANCEL8, **over})
    # lead_ace_of_spades: the AS may be led before spades are broken, the 2D not
    rules = {**ref.CANCEL, "lead_ace_of_spades": True}
    assert ref.legal_plays(["2D", "AS", "5H"], [], False, rules) == ["AS", "5H"]
