"""The scalar reference's ``trump_order = "jokes_win"`` with ``jokes_tie`` (RULES.md section 4.2
and the issue 8 spec), against hand-worked expectations.

RULES.md: "jokers have no rank of their own; a joker played to a trick turns every card played
by its side in that trick (before or after it) into a "joke trump": X of any suit becomes a
spade of rank X that loses only to the natural X spade or higher and to higher joke trumps.
Ties between joke trumps of both sides: jokes_tie = higher_joker | first_joker | suit (D then
C then H)." Four players in partnerships: side 0 = seats 0 and 2, side 1 = seats 1 and 3. A
trick ``[c0, c1, c2, c3]`` led by seat ``L`` is played by seats L, L+1, L+2, L+3. Every
expected seat is worked out by hand in the comment next to it; none was copied from an
implementation's output.
"""

from __future__ import annotations

from collections import Counter

import pytest

import reference as ref

JOKES = {"trump_order": "jokes_win", "jokers": 2}


def tie(name: str) -> dict:
    return {**JOKES, "jokes_tie": name}


# --- RULES.md's examples --------------------------------------------------------------------------


@pytest.mark.parametrize(("trick", "leader", "seat"), [
    # "a joker played to a partner's AH makes it beat everything but the natural AS":
    # seat 0's AH, partner seat 2's BJ: joke A beats seat 1's natural KS and seat 3's QS
    (["AH", "KS", "BJ", "QS"], 0, 0),
    # ... but not the natural AS (seat 1)
    (["AH", "AS", "LJ", "KH"], 0, 1),
    # the joker before the partner's card works alike: seat 2 leads the BJ, seat 0 (its
    # partner, third to play) the AH: joke A over the KS of seat 1
    (["BJ", "3H", "AH", "KS"], 2, 0),
    # "a 5D after a joker loses only to the natural 5S or higher and to joke 6 or higher":
    # seat 0's 5D, partner seat 2's LJ: joke 5 beats seat 1's natural 4S and 3S
    (["5D", "4S", "LJ", "3S"], 0, 0),
    # ... loses to the natural 5S (seat 1)
    (["5D", "5S", "LJ", "2H"], 0, 1),
    # ... and to a joke 6: seat 1's 6H with its partner seat 3's BJ
    (["5D", "6H", "LJ", "BJ"], 0, 1),
    # ... but beats a joke 4 of the other side
    (["5D", "4H", "LJ", "BJ"], 0, 0),
    # natural 2S > joke 2
    (["2H", "2S", "LJ", "3H"], 0, 1),
    # a natural spade stays a natural spade: seat 0's KS with its partner's BJ is the natural
    # K, which the natural AS of seat 3 beats
    (["KS", "QH", "BJ", "AS"], 0, 3),
    # "a joker never wins": seat 1's BJ turns its partner seat 3's 4H into a joke 4, which wins
    # over the led AH (side 0 played no joker: a plain heart)
    (["AH", "BJ", "3H", "4H"], 0, 3),
    # a led joker leads spades, and the partner's low heart becomes a joke 2: the natural AS
    # of seat 1 wins
    (["BJ", "AS", "2H", "KS"], 0, 1),
    # no trump at all: the highest card of the led suit
    (["9H", "KH", "3C", "4D"], 0, 1),
    # a side's card played without a joker of its own side stays what it is: the opponents' LJ
    # does not make seat 0's AD a trump; seat 3's 2H is a joke 2 (its partner seat 1 played the
    # LJ) and trumps the diamonds
    (["AD", "LJ", "KD", "2H"], 0, 3),
])
def test_joke_trumps(trick, leader, seat):
    for name in ("higher_joker", "first_joker", "suit"):  # no tie of joke trumps here
        assert ref.trick_winner(trick, leader, tie(name)) == seat


# --- ties of joke trumps (jokes_tie) -------------------------------------------------------------


@pytest.mark.parametrize(("trick", "leader", "higher", "first", "suit"), [
    # seat 0's 5D joke 5 (partner seat 2's LJ, played third), seat 1's 5H joke 5 (partner seat
    # 3's BJ, fourth): higher_joker -> side 1 (the BJ): seat 1; first_joker -> side 0's LJ came
    # first: seat 0; suit -> D above H: seat 0
    (["5D", "5H", "LJ", "BJ"], 0, 1, 0, 0),
    # seat 0's 5H (partner's BJ third), seat 1's 5C (partner's LJ fourth): higher -> seat 0,
    # first -> seat 0, suit -> C above H: seat 1
    (["5H", "5C", "BJ", "LJ"], 0, 0, 0, 1),
    # seat 0's 5H (partner's LJ), seat 1's 5C (partner's BJ): higher -> seat 1; first -> seat
    # 0; suit -> seat 1
    (["5H", "5C", "LJ", "BJ"], 0, 1, 0, 1),
    # led by seat 1 with the LJ; seat 2's 5H (side 0), seat 3's 5D (side 1), seat 0's BJ:
    # higher -> side 0: seat 2; first -> side 1 (the LJ led): seat 3; suit -> D: seat 3
    (["LJ", "5H", "5D", "BJ"], 1, 2, 3, 3),
    # side 0 played the BJ first (seat 0) and seat 2's QC is its joke Q; seat 3's QD is side 1's
    # (the LJ): higher and first -> seat 2; suit -> diamonds above clubs: seat 3
    (["BJ", "LJ", "QC", "QD"], 0, 2, 2, 3),
])
def test_jokes_tie(trick, leader, higher, first, suit):
    assert ref.trick_winner(trick, leader, tie("higher_joker")) == higher
    assert ref.trick_winner(trick, leader, JOKES) == higher  # the default
    assert ref.trick_winner(trick, leader, tie("first_joker")) == first
    assert ref.trick_winner(trick, leader, tie("suit")) == suit


def test_a_higher_joke_trump_needs_no_tie_rule():
    # joke 6 (seat 1, partner's LJ) over joke 5 (seat 0, partner's BJ), whatever jokes_tie says
    for name in ("higher_joker", "first_joker", "suit"):
        assert ref.trick_winner(["5D", "6H", "BJ", "LJ"], 0, tie(name)) == 1


def test_a_led_joker_that_nothing_beats_holds_the_trick():
    # reading (the spec is silent): side 0 played both jokers, the opponents had no spade:
    # no trump, no card of the led suit (spades) but the jokers; the led card holds the trick
    assert ref.trick_winner(["BJ", "3H", "LJ", "4H"], 0, JOKES) == 0
    assert ref.trick_winner(["LJ", "9D", "BJ", "KC"], 2, JOKES) == 2


# --- play ---------------------------------------------------------------------------------------


def test_jokers_are_spades_for_following_leading_and_breaking():
    # following a led joker: spades
    assert ref.legal_plays(["5S", "KH"], ["BJ"], True, JOKES) == ["5S"]
    assert ref.legal_plays(["LJ", "KH"], ["AS"], True, JOKES) == ["LJ"]
    # following a heart: a joker only when void in hearts
    assert ref.legal_plays(["LJ", "KH"], ["AH"], True, JOKES) == ["KH"]
    assert ref.legal_plays(["LJ", "KD"], ["AH"], True, JOKES) == ["LJ", "KD"]
    # no joker led before spades are broken while holding another suit
    assert ref.legal_plays(["BJ", "KH"], [], False, JOKES) == ["KH"]
    assert ref.legal_plays(["BJ", "LJ"], [], False, JOKES) == ["BJ", "LJ"]
    assert ref.card_suit("BJ", JOKES) == "S" and ref.card_suit("5H", JOKES) == "H"


# A whole hand (dealer 3: seat 0 bids first and leads). Seats 2 and 3 hold no hearts, seat 0 no
# spades.
JOKES_TRICKS = [
    (0, ["AC", "3C", "4C", "5C"]),  # 1: seat 0
    (0, ["KC", "6C", "7C", "8C"]),  # 2: seat 0
    (0, ["QC", "9C", "TC", "JC"]),  # 3: seat 0
    (0, ["AD", "3D", "4D", "5D"]),  # 4: seat 0
    (0, ["KD", "6D", "7D", "8D"]),  # 5: seat 0
    (0, ["QD", "9D", "TD", "JD"]),  # 6: seat 0
    # 7: seat 2's BJ makes seat 0's 5H a joke 5, above seat 3's natural 2S: seat 0 (breaks
    # spades)
    (0, ["5H", "KH", "BJ", "2S"]),
    # 8: seat 3's LJ makes seat 1's QH a joke Q, above the 3S and the led AH: seat 1
    (0, ["AH", "QH", "3S", "LJ"]),
    (1, ["JH", "4S", "6S", "2H"]),  # 9: 6S, seat 3
    (3, ["9S", "TH", "KS", "5S"]),  # 10: KS, seat 1 (seat 0 has no spade)
    (1, ["9H", "7S", "AS", "8H"]),  # 11: AS, seat 3
    (3, ["TS", "7H", "6H", "8S"]),  # 12: seat 3
    (3, ["JS", "3H", "4H", "QS"]),  # 13: QS, seat 3 + 3 = 2
]


def test_a_jokes_win_hand_replays():
    hands = [[] for _ in range(4)]
    for leader, cards in JOKES_TRICKS:
        for k, card in enumerate(cards):
            hands[(leader + k) % 4].append(card)
    assert Counter(c for h in hands for c in h) == Counter(ref.deck_of(JOKES))  # no 2C, 2D
    rec = {"dealer": 3, "hands": hands, "plays": [c for _, t in JOKES_TRICKS for c in t],
           "bids": [6, 2, 1, 3]}
    out = ref.replay_hand(rec, JOKES)
    assert out["winners"] == [0, 0, 0, 0, 0, 0, 0, 1, 3, 1, 3, 3, 2]
    assert out["tricks"] == [7, 2, 1, 3]
    # side 0 bid 6 + 1 = 7, took 8 -> 71; side 1 bid 2 + 3 = 5, took 5 -> 50
    assert out["points"] == [71, 50]
    # under the standard order (BJ > LJ > AS) seat 2's BJ takes trick 7 and leads trick 8: the
    # AH written first there is seat 0's
    with pytest.raises(ref.IllegalPlay, match=r"trick 8, seat 2\b"):
        ref.replay_hand(rec, {"jokers": 2})


# --- what jokes_win needs -----------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "key"), [
    ({"trump_order": "jokes_win"}, "trump_order"),  # needs jokers = 2
    ({**JOKES, "players": 3}, "trump_order"),  # four players in partnerships
    ({**JOKES, "partnerships": False}, "trump_order"),
    ({"players": 6, "deck": "single_jokers", **JOKES}, "trump_order"),
    ({**JOKES, "must_trump": True}, "trump_order"),
    ({**JOKES, "must_overtrump": "opponents"}, "trump_order"),
    ({"jokes_tie": "suit"}, "jokes_tie"),  # only with jokes_win
    ({"jokers": 2, "trump_order": "jokers_high", "jokes_tie": "first_joker"}, "jokes_tie"),
    ({**JOKES, "jokes_tie": "lower_joker"}, "jokes_tie"),
    ({**JOKES, "first_lead": "two_of_clubs"}, "first_lead"),  # the jokers replace 2C and 2D
])
def test_refusals(rules, key):
    with pytest.raises(ValueError, match=f"^{key}"):
        ref.resolve_rules(rules)


def test_what_jokes_win_plays_with():
    for over in ({"jokers_remove": ["2C", "2H"]}, {"jokes_tie": "suit"},
                 {"kitty": True}, {"first_trick_clubs": True}, {"lead_ace_of_spades": True},
                 {"spades_broken": False}, {"double_nil": True}):
        ref.resolve_rules({**JOKES, **over})
    # the kitty with two jokers at four players: 54 cards, 13 each + 2
    table = ref.table_of({**JOKES, "kitty": True})
    assert (table["cards_each"], table["kitty"]) == (13, 2)
