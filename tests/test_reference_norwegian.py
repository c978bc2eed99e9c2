"""Tests of the scalar Norwegian whist reference (tests/reference_norwegian.py).

Every expected number below is worked out by hand from RULES.md section 2 or quoted from seed 001
(the Japanese seed's two 13-trick tables) in the comment next to it; none was copied from the
implementation's output.
"""

from __future__ import annotations

import pytest

import reference_norwegian as ref

TWO = "norwegian"
THREE = "norwegian.three"
CLASSIC = "norwegian.classic"


# --- presets -----------------------------------------------------------------------------------


def test_presets():
    assert ref.resolve_rules("norwegian")["players"] == 2
    assert ref.resolve_rules("norwegian")["target_score"] == 20
    assert ref.resolve_rules("norwegian")["scoring"] == "both"
    assert ref.resolve_rules("norwegian")["double_points"] is False
    assert ref.resolve_rules("norwegian.declarer")["scoring"] == "declarer"
    assert ref.resolve_rules("norwegian.zero_sum")["scoring"] == "zero_sum"
    assert ref.resolve_rules("norwegian.three")["players"] == 3
    assert ref.resolve_rules("norwegian.double")["double_points"] is True
    classic = ref.resolve_rules("norwegian.classic")
    assert (classic["players"], classic["target_score"]) == (4, 50)
    assert (classic["grand_value"], classic["grand_fail_value"], classic["nullo_value"]) == (4, 8, 2)
    assert ref.resolve_rules({"target_score": 50})["target_score"] == 50
    for bad in ({"players": 5}, {"scoring": "all"}, {"colour": 1},
                {"players": 4, "double_points": True}, {"players": 4, "scoring": "declarer"}):
        with pytest.raises(ValueError):
            ref.resolve_rules(bad)
    with pytest.raises(ValueError):
        ref.resolve_rules("norwegian.four")


def test_tricks_and_book():
    # 2 players: 13 each -> T = 13, b = 6; 3 players: 17 each -> T = 17, b = 8; classic 13, 6.
    assert (ref.n_tricks(TWO), ref.book(TWO)) == (13, 6)
    assert (ref.n_tricks(THREE), ref.book(THREE)) == (17, 8)
    assert (ref.n_tricks(CLASSIC), ref.book(CLASSIC)) == (13, 6)


# --- the score tables --------------------------------------------------------------------------

# Seed 001, grand: 7 -> 2, 8 -> 4, 9 -> 6, 10 -> 8, 11 -> 10, 12 -> 12, 13 -> 14;
# 6 -> -2, 5 -> -4, 4 -> -6, 3 -> -8, 2 -> -10, 1 -> -12, 0 -> -14 (every row, quoted).
GRAND_13 = {7: 2, 8: 4, 9: 6, 10: 8, 11: 10, 12: 12, 13: 14,
            6: -2, 5: -4, 4: -6, 3: -8, 2: -10, 1: -12, 0: -14}
# Seed 001, misère: 6 -> 2, 5 -> 4, 4 -> 6, 3 -> 8, 2 -> 10, 1 -> 12, 0 -> 14; 7 -> -2, 8 -> -4,
# "then -2 for every further trick": 9 -> -6, 10 -> -8, 11 -> -10, 12 -> -12, 13 -> -14.
MISERE_13 = {6: 2, 5: 4, 4: 6, 3: 8, 2: 10, 1: 12, 0: 14,
             7: -2, 8: -4, 9: -6, 10: -8, 11: -10, 12: -12, 13: -14}


@pytest.mark.parametrize("k", range(14))
def test_grand_table_13(k):
    assert ref.grand_value(k, TWO) == GRAND_13[k]


@pytest.mark.parametrize("t", range(14))
def test_misere_table_13(t):
    assert ref.misere_value(t, TWO) == MISERE_13[t]


# 17 tricks, b = 8. Grand k > 8 -> 2(k-8): 9 -> 2, 10 -> 4, ... 17 -> 18; k <= 8 -> -2(9-k):
# 8 -> -2, 7 -> -4, ... 0 -> -18. Misère t <= 8 -> 2(9-t): 8 -> 2, ... 0 -> 18; t > 8 -> -2(t-8):
# 9 -> -2, ... 17 -> -18. Written out row by row:
GRAND_17 = {9: 2, 10: 4, 11: 6, 12: 8, 13: 10, 14: 12, 15: 14, 16: 16, 17: 18,
            8: -2, 7: -4, 6: -6, 5: -8, 4: -10, 3: -12, 2: -14, 1: -16, 0: -18}
MISERE_17 = {8: 2, 7: 4, 6: 6, 5: 8, 4: 10, 3: 12, 2: 14, 1: 16, 0: 18,
             9: -2, 10: -4, 11: -6, 12: -8, 13: -10, 14: -12, 15: -14, 16: -16, 17: -18}


@pytest.mark.parametrize("k", range(18))
def test_tables_17(k):
    assert ref.grand_value(k, THREE) == GRAND_17[k]
    assert ref.misere_value(k, THREE) == MISERE_17[k]


def test_table_range():
    for bad in (-1, 14):
        with pytest.raises(ValueError):
            ref.grand_value(bad, TWO)
        with pytest.raises(ValueError):
            ref.misere_value(bad, TWO)


# --- scoring modes (2 players) -----------------------------------------------------------------


def test_two_player_both_modes_by_hand():
    # Dealer 0, non-dealer 1 declares grand, dealer 0 misère. Tricks [4, 9]: grand 9 -> 6 (seed),
    # misère 4 -> 6 (seed). "both": [6, 6]; "declarer": only seat 1 (the non-dealer) -> [0, 6];
    # "zero_sum": seat 1's value 6 to seat 1, -6 to seat 0 -> [-6, 6].
    decl = ["misere", "grand"]
    assert ref.score_hand(decl, [4, 9], "norwegian", dealer=0) == [6, 6]
    assert ref.score_hand(decl, [4, 9], "norwegian.declarer", dealer=0) == [0, 6]
    assert ref.score_hand(decl, [4, 9], "norwegian.zero_sum", dealer=0) == [-6, 6]


def test_two_player_misere_declarer():
    # Dealer 0, non-dealer 1 declares misère, so dealer 0 plays grand. Tricks [3, 10]: grand 3 -> -8;
    # misère 10 -> -8 (-2 per trick from 7: 7 -2, 8 -4, 9 -6, 10 -8). "both": [-8, -8];
    # "declarer": seat 1's misère value -> [0, -8]; "zero_sum": [+8, -8].
    decl = ["grand", "misere"]
    assert ref.score_hand(decl, [3, 10], "norwegian", dealer=0) == [-8, -8]
    assert ref.score_hand(decl, [3, 10], "norwegian.declarer", dealer=0) == [0, -8]
    assert ref.score_hand(decl, [3, 10], "norwegian.zero_sum", dealer=0) == [8, -8]
    # Dealer 1 now: seat 0 is the non-dealer and declares grand; tricks [7, 6] -> grand 7 = 2,
    # misère 6 = 2. declarer -> [2, 0]; zero_sum -> [2, -2].
    assert ref.score_hand(["grand", "misere"], [7, 6], "norwegian.declarer", dealer=1) == [2, 0]
    assert ref.score_hand(["grand", "misere"], [7, 6], "norwegian.zero_sum", dealer=1) == [2, -2]


@pytest.mark.parametrize("double", [False, True])
@pytest.mark.parametrize("k", range(14))
def test_both_always_equal_two_players(k, double):
    # Under "both" the grand player's k and the misère player's 13-k always score the same number:
    # k >= 7 -> 2(k-6) and 2(7-(13-k)) = 2(k-6); k <= 6 -> -2(7-k) and -2((13-k)-6) = -2(7-k).
    rules = {"double_points": double}
    pts = ref.score_hand(["misere", "grand"], [13 - k, k], rules, dealer=0)
    assert pts[0] == pts[1]
    assert pts[1] == GRAND_13[k] * (2 if double and k in (0, 13) else 1)


@pytest.mark.parametrize("k", range(18))
def test_both_always_equal_three_players(k):
    # Seat 1 plays grand (dealer 0, seat 1 speaks first); the other two split 17-k between them.
    for a in range(17 - k + 1):
        tricks = [a, k, 17 - k - a]
        pts = ref.score_hand(["pass", "grand", "pass"], tricks, THREE, dealer=0)
        assert pts[0] == pts[1] == pts[2] == GRAND_17[k]


def test_double_points():
    # norwegian.double, dealer 0, seat 1 grand. 13 tricks: 14 doubled = 28 for both (misère 0 -> 14,
    # doubled 28). 0 tricks: -14 doubled = -28 for both. 12 tricks: not doubled, 12 each.
    decl = ["misere", "grand"]
    assert ref.score_hand(decl, [0, 13], "norwegian.double", dealer=0) == [28, 28]
    assert ref.score_hand(decl, [13, 0], "norwegian.double", dealer=0) == [-28, -28]
    assert ref.score_hand(decl, [1, 12], "norwegian.double", dealer=0) == [12, 12]
    # Without double_points 13 tricks is just 14.
    assert ref.score_hand(decl, [0, 13], "norwegian", dealer=0) == [14, 14]
    # The trigger is the grand player's tricks, also when the non-dealer declared misère. Dealer 0
    # plays grand and takes 13 (the misère declarer, seat 1, takes 0): seat 1's misère 0 -> 14,
    # doubled 28; under zero_sum seat 1 +28, seat 0 -28.
    z = {"double_points": True, "scoring": "zero_sum"}
    assert ref.score_hand(["grand", "misere"], [13, 0], z, dealer=0) == [-28, 28]
    # 3 players, grand takes all 17: 18 doubled = 36 each; grand takes 0: -18 doubled = -36 each.
    t3 = {"players": 3, "double_points": True}
    assert ref.score_hand(["pass", "grand", "pass"], [0, 17, 0], t3, dealer=0) == [36, 36, 36]
    assert ref.score_hand(["pass", "grand", "pass"], [9, 0, 8], t3, dealer=0) == [-36, -36, -36]


# --- the 3-player auction and scoring ----------------------------------------------------------


def test_three_player_auction():
    # Dealer 0: seats speak 1, 2, 0. Seats 0 and 1 both say grand: seat 1 spoke first and wins.
    a = ref.auction(["grand", "grand", "pass"], 0, THREE)
    assert (a["declarer"], a["grand_player"], a["leader"], a["kind"]) == (1, 1, 1, "grand")
    # Dealer 2: seats speak 0, 1, 2. Seats 1 and 2 say grand: seat 1 first.
    assert ref.auction(["pass", "grand", "grand"], 2, THREE)["declarer"] == 1
    # Dealer 1: seats speak 2, 0, 1; seat 0 and seat 1 say grand -> seat 0 (spoke before the dealer).
    assert ref.auction(["grand", "grand", "pass"], 1, THREE)["declarer"] == 0
    # All pass: the dealer (seat 1) must play grand and leads.
    a = ref.auction(["pass", "pass", "pass"], 1, THREE)
    assert (a["declarer"], a["grand_player"], a["leader"]) == (1, 1, 1)
    for bad in (["misere", "pass", "pass"], ["pass", "pass"], ["nullo", "pass", "pass"]):
        with pytest.raises(ref.IllegalDeclaration):
            ref.auction(bad, 0, THREE)


def test_three_player_scores():
    # Dealer 0, seat 1 grand, tricks [4, 10, 3]: grand 10 -> 2(10-8) = 4; misère team 4+3 = 7 ->
    # 2(9-7) = 4, each member. both [4, 4, 4]; declarer [0, 4, 0]; zero_sum [-4, 4, -4].
    decl = ["pass", "grand", "pass"]
    assert ref.score_hand(decl, [4, 10, 3], THREE, dealer=0) == [4, 4, 4]
    assert ref.score_hand(decl, [4, 10, 3], {"players": 3, "scoring": "declarer"}, dealer=0) == [0, 4, 0]
    assert ref.score_hand(decl, [4, 10, 3], {"players": 3, "scoring": "zero_sum"}, dealer=0) \
        == [-4, 4, -4]
    # All pass, dealer 2 plays grand, tricks [5, 6, 6]: grand 6 -> -2(9-6) = -6; misère 11 ->
    # -2(11-8) = -6. zero_sum: dealer -6, each opponent +6.
    z = {"players": 3, "scoring": "zero_sum"}
    assert ref.score_hand(["pass", "pass", "pass"], [5, 6, 6], z, dealer=2) == [6, 6, -6]
    with pytest.raises(ValueError):  # 17 tricks a hand, not 13
        ref.score_hand(decl, [4, 6, 3], THREE, dealer=0)


def test_two_player_declarations():
    a = ref.auction(["misere", "grand"], 0, TWO)  # non-dealer 1 declares grand: leads
    assert (a["kind"], a["declarer"], a["grand_player"], a["leader"]) == ("grand", 1, 1, 1)
    a = ref.auction(["grand", "misere"], 0, TWO)  # non-dealer declares misère: dealer grand, leads
    assert (a["kind"], a["declarer"], a["grand_player"], a["leader"]) == ("misere", 1, 0, 0)
    for bad in (["grand", "grand"], ["misere", "misere"], ["pass", "grand"], ["misere", "pass"]):
        with pytest.raises(ref.IllegalDeclaration):
            ref.auction(bad, 0, TWO)


# --- the classic four-player game --------------------------------------------------------------


def test_classic_auction_and_leads():
    # Dealer 0: seats bid 1, 2, 3, 0. Seat 1 grand: the player left of the bidder (seat 2) leads.
    a = ref.auction(["pass", "grand", "pass", "pass"], 0, CLASSIC)
    assert (a["kind"], a["declarer"], a["leader"]) == ("grand", 1, 2)
    # Bidder 3 grand -> left of 3 is seat 0.
    assert ref.auction(["pass", "pass", "pass", "grand"], 0, CLASSIC)["leader"] == 0
    # Dealer 0, seat 2 bids nullo before seat 3's grand: the first bid decides; the player right of
    # the bidder (seat 1) leads.
    a = ref.auction(["pass", "pass", "nullo", "grand"], 0, CLASSIC)
    assert (a["kind"], a["declarer"], a["leader"]) == ("nullo", 2, 1)
    # All four pass, dealer 2: nullo, the player right of the dealer (seat 1) leads.
    a = ref.auction(["pass"] * 4, 2, CLASSIC)
    assert (a["kind"], a["declarer"], a["leader"]) == ("nullo", None, 1)
    # All pass, dealer 0: right of the dealer is seat 3.
    assert ref.auction(["pass"] * 4, 0, CLASSIC)["leader"] == 3
    with pytest.raises(ref.IllegalDeclaration):
        ref.auction(["misere", "pass", "pass", "pass"], 0, CLASSIC)


def test_classic_scores():
    # Seat 1 (side 1) grand, tricks [2, 5, 2, 4]: side 0 takes 4, side 1 takes 9 -> 4 x (9-6) = 12.
    assert ref.score_hand(["pass", "grand", "pass", "pass"], [2, 5, 2, 4], CLASSIC, dealer=0) == [0, 12]
    # Seat 0 (side 0) grand (dealer 3), tricks [3, 4, 2, 4]: side 0 takes 5, fails; side 1 took 8
    # -> 8 x (8-6) = 16 to side 1.
    assert ref.score_hand(["grand", "pass", "pass", "pass"], [3, 4, 2, 4], CLASSIC, dealer=3) == [0, 16]
    # Grand taking exactly six fails: side 0 takes 6, side 1 takes 7 -> 8 x 1 = 8 to side 1.
    assert ref.score_hand(["grand", "pass", "pass", "pass"], [3, 3, 3, 4], CLASSIC, dealer=3) == [0, 8]
    # Grand making all 13: 4 x 7 = 28.
    assert ref.score_hand(["grand", "pass", "pass", "pass"], [7, 0, 6, 0], CLASSIC, dealer=3) == [28, 0]
    # Nullo (seat 2 bids it): tricks [4, 2, 3, 4] -> side 0 took 7, side 1 took 6. Side 1 scores
    # 2 x (7-6) = 2 for side 0's trick above six; side 0 scores 2 x 0 (side 1 took only six).
    assert ref.score_hand(["pass", "pass", "nullo", "grand"], [4, 2, 3, 4], CLASSIC, dealer=0) == [0, 2]
    # Nullo by all passing, side 1 takes 10: side 0 scores 2 x (10-6) = 8.
    assert ref.score_hand(["pass"] * 4, [1, 5, 2, 5], CLASSIC, dealer=0) == [8, 0]


# --- tricks and legality -----------------------------------------------------------------------


def test_trick_winner_no_trumps():
    # 2 players: seat 1 leads 5H, seat 0 plays AS (not the led suit): 5H wins for seat 1.
    assert ref.trick_winner(["5H", "AS"], leader=1) == 1
    assert ref.trick_winner(["5H", "6H"], leader=1) == 0  # 6H by seat (1+1)%2 = 0
    # 3 players, leader 2: seats 2, 0, 1. KD by seat 0 beats 9D; the AC never wins.
    assert ref.trick_winner(["9D", "KD", "AC"], leader=2) == 0
    # 4 players, leader 3: seats 3, 0, 1, 2. Highest heart QH by seat 1; AS, AD off-suit.
    assert ref.trick_winner(["TH", "AS", "QH", "AD"], leader=3) == 1


def test_legal_plays():
    hand = ["AS", "3S", "KH", "2D"]
    assert ref.legal_plays(hand, []) == hand  # any lead
    assert ref.legal_plays(hand, ["QS"]) == ["AS", "3S"]  # must follow spades
    assert ref.legal_plays(hand, ["5C"]) == hand  # void in clubs: anything


# A hand-made 2-player deal. Seat 0: spades A K Q J T 9 8 and hearts 2..7; seat 1: spades 2..7
# and hearts A K Q J T 9 8. Dealer 1; non-dealer 0 declares grand and leads. Seat 0 runs spades:
# tricks 1-6 (AS..9S against 2S..7S) are seat 0's; trick 7: 8S, seat 1 (void in spades) throws 8H:
# seat 0's 7th trick. Trick 8: seat 0 must lead a heart, 2H; seat 1 wins with AH and runs K Q J T 9
# against 3H..7H: tricks 8-13 (6) are seat 1's. Tricks [7, 6]: grand 7 -> 2, misère 6 -> 2.
S0 = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "2H", "3H", "4H", "5H", "6H", "7H"]
S1 = ["2S", "3S", "4S", "5S", "6S", "7S", "AH", "KH", "QH", "JH", "TH", "9H", "8H"]
PLAYS = ["AS", "2S", "KS", "3S", "QS", "4S", "JS", "5S", "TS", "6S", "9S", "7S", "8S", "8H",
         "2H", "AH", "KH", "3H", "QH", "4H", "JH", "5H", "TH", "6H", "9H", "7H"]


def record(**kw):
    rec = {"dealer": 1, "declarations": ["grand", "misere"], "hands": [S0, S1], "plays": PLAYS}
    rec.update(kw)
    return rec


def test_replay_two_players():
    out = ref.replay_hand(record(), TWO)
    assert out["leader"] == 0 and out["grand_player"] == 0
    assert out["winners"] == [0] * 7 + [1] * 6
    assert out["tricks"] == [7, 6]
    assert out["points"] == [2, 2]
    assert out["after"] == [2, 2] and out["game_over"] is False
    assert ref.replay_hand(record(), "norwegian.zero_sum")["points"] == [2, -2]
    assert ref.replay_hand(record(), "norwegian.declarer")["points"] == [2, 0]
    # Before [18, 18], both score 2 -> [20, 20]: over, shared top -> drawn (winner None).
    out = ref.replay_hand(record(before={"scores": [18, 18]}), TWO)
    assert out["after"] == [20, 20] and out["game_over"] is True and out["winner"] is None
    # Zero-sum from [19, 5]: [21, 3] -> seat 0 wins.
    out = ref.replay_hand(record(before={"scores": [19, 5]}), "norwegian.zero_sum")
    assert (out["after"], out["game_over"], out["winner"]) == ([21, 3], True, 0)
    # Score-sheet mode: tricks only.
    sheet = {"dealer": 1, "declarations": ["grand", "misere"], "tricks": [7, 6]}
    assert ref.replay_hand(sheet, TWO)["points"] == [2, 2]


def test_replay_illegal():
    # Trick 1: seat 1 throws 8H while holding spades: does not follow suit.
    bad = list(PLAYS)
    bad[1] = "8H"
    with pytest.raises(ref.IllegalPlay, match="trick 1, seat 1"):
        ref.replay_hand(record(plays=bad), TWO)
    # The wrong leader: seat 0 leads, so a first card of seat 1's is not in the player's hand.
    with pytest.raises(ref.IllegalPlay, match="not in"):
        ref.replay_hand(record(plays=["2S"] + PLAYS[1:]), TWO)
    with pytest.raises(ref.IllegalPlay, match="incomplete"):
        ref.replay_hand(record(plays=PLAYS[:-1]), TWO)
    with pytest.raises(ValueError):  # a card dealt twice
        ref.replay_hand(record(hands=[S0, S1[:-1] + ["AS"]]), TWO)
    with pytest.raises(ref.IllegalDeclaration):
        ref.replay_hand(record(declarations=["grand", "grand"]), TWO)


def test_replay_double_points_all_tricks():
    # Seat 0 all 13 spades, seat 1 all 13 hearts. Dealer 0, seat 1 declares grand and leads hearts;
    # seat 0 can never follow, so seat 1 takes 13: 14, doubled 28, for both.
    spades = [r + "S" for r in ref.RANKS]
    hearts = [r + "H" for r in ref.RANKS]
    plays = [c for pair in zip(hearts, spades, strict=True) for c in pair]
    rec = {"dealer": 0, "declarations": ["misere", "grand"], "hands": [spades, hearts], "plays": plays}
    out = ref.replay_hand(rec, "norwegian.double")
    assert out["tricks"] == [0, 13] and out["points"] == [28, 28]
    assert ref.replay_hand(rec, TWO)["points"] == [14, 14]


def test_replay_classic():
    # Seat 0 all spades, 1 hearts, 2 diamonds, 3 clubs. Dealer 3, seat 0 bids grand; seat 1 (left of
    # the bidder) leads hearts and nobody can follow: side 1 takes 13, the grand fails, side 1
    # scores 8 x (13-6) = 56 >= 50: side 1 wins the game.
    hands = [[r + s for r in ref.RANKS] for s in "SHDC"]
    plays = [hands[seat][i] for i in range(13) for seat in (1, 2, 3, 0)]
    rec = {"dealer": 3, "declarations": ["grand", "pass", "pass", "pass"], "hands": hands,
           "plays": plays}
    out = ref.replay_hand(rec, CLASSIC)
    assert out["leader"] == 1 and out["tricks"] == [0, 13, 0, 0]
    assert out["points"] == [0, 56] and out["game_over"] is True and out["winner"] == 1


def test_replay_three_players_auction_lead():
    # Dealer 0, all pass: the dealer plays grand and leads (seat 0). Score-sheet mode: the dealer
    # takes 9 -> grand 2(9-8) = 2; the misère pair 4 + 4 = 8 -> 2(9-8) = 2 each.
    sheet = {"dealer": 0, "declarations": ["pass", "pass", "pass"], "tricks": [9, 4, 4]}
    out = ref.replay_hand(sheet, THREE)
    assert (out["grand_player"], out["leader"], out["points"]) == (0, 0, [2, 2, 2])


def test_game_over():
    assert ref.game_over([19, 19], TWO) == (False, None)
    assert ref.game_over([20, 20], TWO) == (True, None)  # "both": always level -> drawn
    assert ref.game_over([20, -20], TWO) == (True, 0)
    assert ref.game_over([4, 22, 4], THREE) == (True, 1)
    assert ref.game_over([48, 49], CLASSIC) == (False, None)
    assert ref.game_over([50, 49], CLASSIC) == (True, 0)


def test_replay_three_players_full_deal():
    # A hand-made 3-player deal (17 each, 2C set aside). Seat 0: the 13 spades + 2H 3H 4H 5H; seat 1:
    # hearts 6H..AH (9) + diamonds AD..7D (8); seat 2: diamonds 6D..2D (5) + clubs AC..3C (12).
    # Dealer 2: seats speak 0, 1, 2; seat 0 says grand and leads. Tricks 1-13: seat 0 runs AS..2S,
    # nobody else holds a spade, seat 1 throws its 8 diamonds and 6H..TH, seat 2 its 5 diamonds and
    # AC..7C: 13 tricks to seat 0. Trick 14: 2H, seat 1 AH, seat 2 6C: seat 1. Tricks 15-17: seat 1
    # leads KH, QH, JH, seat 2 throws 5C, 4C, 3C, seat 0 follows 3H, 4H, 5H: seat 1.
    # Grand 13 of 17 -> 2(13-8) = 10; the misère pair 4 + 0 = 4 -> 2(9-4) = 10 each.
    spades = [r + "S" for r in reversed(ref.RANKS)]  # AS .. 2S
    h0 = spades + ["2H", "3H", "4H", "5H"]
    h1 = [r + "H" for r in "6789TJQKA"] + [r + "D" for r in "AKQJT987"]
    h2 = [r + "D" for r in "65432"] + [r + "C" for r in "AKQJT9876543"]
    throw1 = [r + "D" for r in "AKQJT987"] + [r + "H" for r in "6789T"]
    throw2 = [r + "D" for r in "65432"] + [r + "C" for r in "AKQJT987"]
    plays = [c for i in range(13) for c in (spades[i], throw1[i], throw2[i])]
    plays += ["2H", "AH", "6C", "KH", "5C", "3H", "QH", "4C", "4H", "JH", "3C", "5H"]
    rec = {"dealer": 2, "declarations": ["grand", "pass", "pass"], "hands": [h0, h1, h2],
           "plays": plays}
    out = ref.replay_hand(rec, THREE)
    assert out["leader"] == 0 and out["grand_player"] == 0
    assert out["winners"] == [0] * 13 + [1] * 4
    assert out["tricks"] == [13, 4, 0]
    assert out["points"] == [10, 10, 10]
    assert ref.replay_hand(rec, {"players": 3, "scoring": "zero_sum"})["points"] == [10, -10, -10]
    assert ref.replay_hand(rec, {"players": 3, "scoring": "declarer"})["points"] == [10, 0, 0]
    # Must follow: on a heart lead seat 1's dealt hand may play only its nine hearts.
    assert ref.legal_plays(h1, ["2H"]) == [r + "H" for r in "6789TJQKA"]
    # Seat 1 grand (dealer 2: seat 0 passed, seat 1 first grand): seat 1 leads, so AS first fails.
    with pytest.raises(ref.IllegalPlay, match="trick 1, seat 1"):
        ref.replay_hand({**rec, "declarations": ["pass", "grand", "grand"]}, THREE)
