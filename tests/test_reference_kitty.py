"""The scalar reference's kitty (RULES.md section 4.1 ``kitty``, ``kitty_taker``,
``kitty_extra_trick``; the issue 8 spec): the kitty and hand sizes of every table, the taker,
the records (hands at the start of play, the taker's after his discard; hands + discards = the
deck), the discard trick, and the refusals.

Every expected size, seat and score is worked out by hand in the comment next to it from the
spec ("the leftover cards (deck size mod players) form the kitty"; the extra trick "players
more cards") and RULES.md sections 0 and 3; none was copied from an implementation's output. A
trick ``[c0, c1, ...]`` led by seat ``L`` is played by seats L, L+1, ...
"""

from __future__ import annotations

from collections import Counter

import pytest

import reference as ref
from sim.cards import RANKS

ONE_DECK = Counter(r + s for s in "SHDC" for r in RANKS)
KITTY = {"kitty": True}
EXTRA = {"kitty": True, "kitty_extra_trick": True}
DOUBLE_KITTY = {"players": 6, "deck": "double_kitty", "kitty": True}


def hands_of(tricks, players):
    hands = [[] for _ in range(players)]
    for leader, cards in tricks:
        for k, card in enumerate(cards):
            hands[(leader + k) % players].append(card)
    return hands


def record(tricks, players, *, dealer, bids, kitty, **more):
    return {"dealer": dealer, "hands": hands_of(tricks, players),
            "plays": [c for _, cards in tricks for c in cards], "bids": list(bids),
            "kitty": kitty, **more}


# --- sizes (the spec's tables) --------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "deck", "each", "kitty", "tricks"), [
    # three players: 52 -> 17 each + 1 (the 2C is not taken out)
    ({"players": 3, **KITTY}, 52, 17, 1, 17),
    # ... with the extra trick: 1 + 3 -> 16 each, 16 played + the discard
    ({"players": 3, **EXTRA}, 52, 16, 4, 17),
    # three players with two jokers: 54 divides evenly, the extra trick: 0 + 3 -> 17 each
    ({"players": 3, "jokers": 2, **EXTRA}, 54, 17, 3, 18),
    # four players: 52 needs the extra trick: 0 + 4 -> 12 each, 13 tricks
    (EXTRA, 52, 12, 4, 13),
    # four players with two jokers (none taken out): 54 -> 13 each + 2
    ({"jokers": 2, **KITTY}, 54, 13, 2, 13),
    ({"jokers": 2, **EXTRA}, 54, 12, 6, 13),
    ({"partnerships": False, "jokers": 2, **KITTY}, 54, 13, 2, 13),  # cutthroat alike
    # five players: 52 (2D, 2H stay in) -> 10 each + 2; with the extra trick 2 + 5 -> 9 each
    ({"players": 5, **KITTY}, 52, 10, 2, 10),
    ({"players": 5, **EXTRA}, 52, 9, 7, 10),
    # five players, three jokers: 55 divides evenly, needs the extra trick: 0 + 5 -> 10 each
    ({"players": 5, "jokers": 3, **EXTRA}, 55, 10, 5, 11),
    # six players, double_kitty: 104 -> 17 each + 2; extra trick 2 + 6 -> 16 each
    (DOUBLE_KITTY, 104, 17, 2, 17),
    ({**DOUBLE_KITTY, "kitty_extra_trick": True}, 104, 16, 8, 17),
])
def test_kitty_and_hand_sizes(rules, deck, each, kitty, tricks):
    table = ref.table_of(rules)
    assert (table["deck"], table["cards_each"], table["kitty"], table["tricks"]) == (
        deck, each, kitty, tricks)
    assert table["deck"] == table["players"] * each + kitty


@pytest.mark.parametrize(("rules", "cards"), [
    ({"players": 3, **KITTY}, ONE_DECK),  # the 2C stays in
    ({"players": 5, **KITTY}, ONE_DECK),  # 2D and 2H stay in
    ({"jokers": 2, **KITTY}, ONE_DECK + Counter({"BJ": 1, "LJ": 1})),  # no 2C 2D out
    (DOUBLE_KITTY, ONE_DECK + ONE_DECK),
])
def test_no_card_is_taken_out(rules, cards):
    assert Counter(ref.deck_of(rules)) == cards


def test_bids_run_to_the_tricks_of_the_hand():
    # four players with the extra trick hold 12 cards but play for 13 tricks: bids 0..13
    assert ref.legal_bids(0, {}, [0, 0], EXTRA)["bids"] == list(range(14))
    assert ref.legal_bids(0, {}, [0, 0, 0], {"players": 3, **KITTY})["bids"] == list(range(18))


# --- a four-player hand with the extra trick (12 each, a kitty of 4) -------------------------------

# Dealer 3: seat 0 bids first and leads. Seat 1 is dealt the four 2s (the 2C among them) and
# takes the kitty AS KH 4D 9C, discarding the four 2s: at the start of play every seat holds
# three cards of each suit (A..3), so every trick is followed.
FOUR_TRICKS = [
    (0, ["AH", "6H", "3H", "8H"]),  # 1: seat 0
    (0, ["5H", "7H", "QH", "9H"]),  # 2: QH, seat 2
    (2, ["JH", "TH", "4H", "KH"]),  # 3: KH, seat 2 + 3 = 1
    (1, ["5D", "AD", "KD", "QD"]),  # 4: AD, seat 2
    (2, ["6D", "9D", "JD", "4D"]),  # 5: JD, seat 0
    (0, ["TD", "3D", "7D", "8D"]),  # 6: seat 0
    (0, ["KC", "AC", "JC", "8C"]),  # 7: AC, seat 1
    (1, ["9C", "TC", "7C", "QC"]),  # 8: QC, seat 1 + 3 = 0
    (0, ["4C", "3C", "5C", "6C"]),  # 9: 6C, seat 3
    (3, ["8S", "9S", "AS", "TS"]),  # 10: seat 3 holds only spades; AS, seat 3 + 2 = 1
    (1, ["QS", "JS", "7S", "KS"]),  # 11: KS, seat 0
    (0, ["4S", "3S", "5S", "6S"]),  # 12: 6S, seat 3
]
FOUR_KITTY = {"taker": 1, "cards": ["AS", "KH", "4D", "9C"], "discards": ["2S", "2H", "2D", "2C"]}
FOUR_WINNERS = [0, 2, 1, 2, 0, 0, 1, 0, 3, 1, 0, 3]
FOUR_PLAYED = [5, 3, 2, 2]  # 12 tricks played


def four(bids=(4, 4, 2, 2), kitty=FOUR_KITTY, **more):
    return record(FOUR_TRICKS, 4, dealer=3, bids=bids, kitty=kitty, **more)


def test_the_four_player_record_is_the_deck():
    hands = hands_of(FOUR_TRICKS, 4)
    assert [len(h) for h in hands] == [12] * 4
    held = Counter(c for h in hands for c in h)
    assert held + Counter(FOUR_KITTY["discards"]) == ONE_DECK
    # the taker's hand as dealt: his record hand + his discards - the kitty: the four 2s in it
    dealt = Counter(hands[1]) + Counter(FOUR_KITTY["discards"]) - Counter(FOUR_KITTY["cards"])
    assert {"2S", "2H", "2D", "2C"} <= set(dealt) and sum(dealt.values()) == 12
    # the reference rebuilds the same hand as dealt
    kitty = ref._kitty_of(four(), ref.resolve_rules(EXTRA))
    assert Counter(kitty["dealt"][1]) == dealt
    assert kitty["dealt"][0] == hands[0] and kitty["dealt"][2:] == hands[2:]


def test_the_discard_is_a_trick_won_by_the_taker():
    # tricks played 5, 3, 2, 2; the discard is seat 1's 13th trick: 5, 4, 2, 2.
    # side 0 (seats 0, 2) bid 4 + 2 = 6, took 7 -> 61; side 1 (1, 3) bid 4 + 2 = 6, took
    # 4 + 2 = 6 -> 60 (without the kitty trick it would be set, -60)
    out = ref.replay_hand(four(), EXTRA)
    assert out["winners"] == FOUR_WINNERS  # the played tricks only
    assert out["tricks"] == [5, 4, 2, 2]
    assert out["points"] == [61, 60]
    assert out["after"]["bags"] == [1, 0]


def test_without_the_extra_trick_the_same_deal_does_not_fit():
    # 52 cards among four players: no leftover card, so no kitty without the extra trick
    with pytest.raises(ValueError, match="^kitty"):
        ref.replay_hand(four(), KITTY)


def test_last_trick_bonuses_read_the_played_tricks():
    # the last played trick (12) is seat 3's: +10 to side 1; the discard is not a played trick
    out = ref.replay_hand(four(), {**EXTRA, "last_trick_bonus": True})
    assert out["components"]["trick_bonus"] == [0, 10]
    assert out["points"] == [61, 70]


def test_two_of_clubs_taker():
    # seat 1 was dealt the 2C: it takes the kitty; a record naming another seat is refused (the
    # rebuilt hands then do not even hold the kitty: seat 0 holds none of AS KH 4D 9C)
    assert ref.replay_hand(four(), EXTRA)["tricks"][1] == 4
    with pytest.raises(ValueError, match="kitty"):
        ref.replay_hand(four(kitty={**FOUR_KITTY, "taker": 0}), EXTRA)


def test_high_bidder_taker():
    rules = {**EXTRA, "kitty_taker": "high_bidder"}
    # bids 3, 4, 2, 2: seat 1 bids highest and takes the kitty. Side 0 bid 5 took 7 -> 52;
    # side 1 bid 6 took 4 + 2 -> 60
    out = ref.replay_hand(four(bids=(3, 4, 2, 2)), rules)
    assert out["tricks"] == [5, 4, 2, 2] and out["points"] == [52, 60]
    # bids 4, 4, 2, 2: seats 0 and 1 tie; the earlier bidder from the dealer's left (dealer 3:
    # seat 0) takes it, not seat 1
    with pytest.raises(ValueError, match=r"seat 0 takes the kitty.*high_bidder"):
        ref.replay_hand(four(bids=(4, 4, 2, 2)), rules)
    # with dealer 0 seat 1 bids first, so the tie of 4s goes to seat 1 (a score sheet: the taker
    # is checked from the bids alone)
    sheet = {"dealer": 0, "bids": [4, 4, 2, 2], "tricks": [5, 4, 2, 2],
             "kitty": {"taker": 1, "cards": ["AS", "KH", "4D", "9C"],
                       "discards": ["2S", "2H", "2D", "2C"]}}
    assert ref.replay_hand(sheet, rules)["points"] == [61, 60]
    with pytest.raises(ValueError, match=r"seat 1 takes the kitty"):
        ref.replay_hand(sheet | {"kitty": {**sheet["kitty"], "taker": 0}}, rules)
    # nil counts as 0: bids 0, 0, 0, 1 -> seat 3; all nil but one 0 ... the highest is the 1
    with pytest.raises(ValueError, match=r"seat 3 takes the kitty"):
        ref.replay_hand(sheet | {"bids": [0, 0, 0, 1]}, rules)


def test_records_with_a_kitty_are_checked():
    # hands + discards must be the deck exactly
    bad = four(kitty={**FOUR_KITTY, "discards": ["2S", "2H", "2D", "3C"]})
    with pytest.raises(ValueError, match=r"not the deck \(missing \['2C'\], too many \['3C'\]"):
        ref.replay_hand(bad, EXTRA)
    # as many discards as kitty cards
    with pytest.raises(ValueError, match="discards"):
        ref.replay_hand(four(kitty={**FOUR_KITTY, "discards": ["2S", "2H", "2D"]}), EXTRA)
    with pytest.raises(ValueError, match="'cards'"):
        ref.replay_hand(four(kitty={**FOUR_KITTY, "cards": ["AS", "KH", "4D"]}), EXTRA)
    # the kitty's cards must be in the taker's hand or his discards (the KS is seat 0's)
    with pytest.raises(ValueError, match=r"\['KS'\] are neither in the taker"):
        ref.replay_hand(four(kitty={**FOUR_KITTY, "cards": ["KS", "KH", "4D", "9C"]}), EXTRA)
    # the discards are a set of distinct cards
    with pytest.raises(ValueError, match="distinct"):
        ref.replay_hand(four(kitty={**FOUR_KITTY, "discards": ["2S", "2S", "2D", "2C"]}),
                        EXTRA)
    # a record without its kitty, or with one the rules do not have
    rec = four()
    del rec["kitty"]
    with pytest.raises(ValueError, match="needs 'kitty'"):
        ref.replay_hand(rec, EXTRA)
    with pytest.raises(ValueError, match="rules have none"):
        ref.replay_hand({"dealer": 3, "bids": [3, 3, 3, 4], "tricks": [3, 3, 3, 4],
                         "kitty": FOUR_KITTY}, None)


def test_a_score_sheet_counts_the_discard_trick():
    # 13 tricks (12 played + the discard) in a score sheet
    sheet = {"dealer": 3, "bids": [4, 4, 2, 2], "tricks": [5, 4, 2, 2]}
    assert ref.replay_hand(sheet, EXTRA)["points"] == [61, 60]
    with pytest.raises(ValueError, match="summing to 13"):
        ref.replay_hand(sheet | {"tricks": [5, 3, 2, 2]}, EXTRA)


# --- three players: a kitty of one card, the 2C in it ---------------------------------------------

# Dealer 2: seat 0 leads. The kitty is the 2C: the lowest club dealt to a hand is the 3C, seat 2's,
# which takes the 2C and discards it again (its hand as dealt is its hand at the start of play).
THREE_TRICKS = [
    (0, ["AC", "5C", "3C"]),  # 1: seat 0
    (0, ["TC", "KC", "8C"]),  # 2: KC, seat 1
    (1, ["9C", "JC", "7C"]),  # 3: JC, seat 2
    (2, ["QC", "4C", "6C"]),  # 4: seat 2
    (2, ["QH", "2H", "3H"]),  # 5: seat 2
    (2, ["9H", "AH", "4H"]),  # 6: AH, seat 0
    (0, ["JH", "KH", "6H"]),  # 7: KH, seat 1
    (1, ["TH", "5H", "8H"]),  # 8: seat 1
    (1, ["7H", "2D", "3S"]),  # 9: seats 2 and 0 void in hearts; the 3S trumps: seat 0
    (0, ["AD", "3D", "5D"]),  # 10: seat 0
    (0, ["TD", "KD", "8D"]),  # 11: KD, seat 1
    (1, ["9D", "JD", "7D"]),  # 12: JD, seat 2
    (2, ["QD", "4D", "6D"]),  # 13: seat 2
    (2, ["JS", "QS", "KS"]),  # 14: spades broken (trick 9); KS, seat 1
    (1, ["TS", "2S", "AS"]),  # 15: AS, seat 0
    (0, ["9S", "4S", "8S"]),  # 16: seat 0
    (0, ["6S", "7S", "5S"]),  # 17: 7S, seat 1
]
THREE_KITTY = {"taker": 2, "cards": ["2C"], "discards": ["2C"]}
THREE = {"players": 3, **KITTY}


def test_a_three_player_kitty_hand():
    rec = record(THREE_TRICKS, 3, dealer=2, bids=[5, 6, 6], kitty=THREE_KITTY)
    assert Counter(c for h in rec["hands"] for c in h) + Counter(["2C"]) == ONE_DECK
    out = ref.replay_hand(rec, THREE)
    # seat 0: tricks 1, 6, 9, 10, 15, 16; seat 1: 2, 7, 8, 11, 14, 17; seat 2: 3, 4, 5, 12, 13
    assert out["tricks"] == [6, 6, 5]
    # each his own side: 5 bid, 6 taken -> 51; 6 of 6 -> 60; 6 bid, 5 taken -> -60
    assert out["points"] == [51, 60, -60]
    # the 3C's holder is the taker: seat 1 (who could have taken the 2C and discarded it just
    # the same) is refused
    with pytest.raises(ValueError, match=r"seat 2 takes the kitty.*lowest club, 3C"):
        ref.replay_hand(rec | {"kitty": {**THREE_KITTY, "taker": 1}}, THREE)


def test_the_first_lead_when_the_2c_is_discarded():
    # first_lead two_of_clubs: the 2C is out of play (discarded), so the lowest club held, the
    # 3C, leads: seat 2 (reading, as for the card left undealt)
    rules = {**THREE, "first_lead": "two_of_clubs"}
    hands = hands_of(THREE_TRICKS, 3)
    assert ref.first_leader(2, None, rules, hands) == 2
    assert ref.legal_plays(hands[2], [], False, rules, trick_no=1) == ["3C"]


# --- six players, double_kitty -------------------------------------------------------------------

# The two-deck hand of tests/test_reference_six_players.py with both 2C in the kitty: seat 1
# plays a 2C instead of a 3C to trick 1 and the second 3C to trick 2 (seat 2 likewise holds a 3C
# and one 4C): the lowest club dealt is the 3C, held by seats 1 and 2; from the dealer's (5)
# left seat 1 comes first and takes the kitty, discarding a 2C and a 4C.
SIX_TRICKS = [
    (0, ["AC", "2C", "4C", "5C", "6C", "AC"]),  # 1: the first AC, seat 0
    (0, ["KC", "3C", "3C", "5C", "6C", "KC"]),  # 2: seat 0
    (0, ["QC", "7C", "8C", "9C", "TC", "QC"]),
    (0, ["JC", "7C", "8C", "9C", "TC", "JC"]),
    (0, ["AH", "2H", "3H", "4H", "5H", "6H"]),
    (0, ["AH", "2H", "3H", "4H", "5H", "6H"]),
    (0, ["KH", "7H", "8H", "9H", "TH", "JH"]),
    (0, ["KH", "7H", "8H", "9H", "TH", "JH"]),
    (0, ["QH", "2S", "QH", "2D", "3D", "4D"]),  # 9: seat 1 trumps
    (1, ["AD", "AD", "5D", "6D", "7D", "8D"]),
    (1, ["KD", "KD", "5D", "6D", "7D", "8D"]),
    (1, ["QD", "QD", "9D", "TD", "JD", "9D"]),
    (1, ["AS", "AS", "KS", "KS", "QS", "QS"]),
    (1, ["JS", "JS", "TS", "TS", "9S", "9S"]),
    (1, ["8S", "8S", "7S", "7S", "6S", "6S"]),
    (1, ["5S", "5S", "4S", "4S", "3S", "3S"]),
    (1, ["2S", "JD", "2D", "3D", "4D", "TD"]),
]
SIX_KITTY = {"taker": 1, "cards": ["2C", "2C"], "discards": ["2C", "4C"]}


def test_a_double_kitty_hand():
    rec = record(SIX_TRICKS, 6, dealer=5, bids=[5, 4, 0, 2, 3, 2], kitty=SIX_KITTY)
    held = Counter(c for h in rec["hands"] for c in h)
    assert held + Counter(SIX_KITTY["discards"]) == ONE_DECK + ONE_DECK
    out = ref.replay_hand(rec, DOUBLE_KITTY)
    # three pairs: tricks 8, 9, 0...: side 0 bid 7 took 8 -> 71; side 1 bid 7 took 9 -> 72;
    # side 2 nil made +100, bid 2 took 0 -> -20
    assert out["tricks"] == [8, 9, 0, 0, 0, 0]
    assert out["points"] == [71, 72, 80]
    # with the extra trick the same deal does not fit (16 each): refused
    with pytest.raises(ValueError):
        ref.replay_hand(rec, {**DOUBLE_KITTY, "kitty_extra_trick": True})


@pytest.mark.parametrize(("dealer", "taker"), [
    # the 3C (lowest club dealt: both 2C in the kitty) at seats 1 and 2: the first from the
    # dealer's left takes the kitty
    (5, 1), (0, 1), (1, 2), (3, 1),
])
def test_two_decks_the_first_holder_from_the_dealers_left(dealer, taker):
    r = ref.resolve_rules(DOUBLE_KITTY)
    rec = record(SIX_TRICKS, 6, dealer=5, bids=[5, 4, 0, 2, 3, 2], kitty=SIX_KITTY)
    kitty = ref._kitty_of(rec, r)
    assert kitty["dealt"][1].count("3C") == 1 and kitty["dealt"][2].count("3C") == 1
    ref._check_kitty_taker({**kitty, "taker": taker}, rec["bids"], dealer, r)
    with pytest.raises(ValueError, match=f"seat {taker} takes the kitty"):
        ref._check_kitty_taker({**kitty, "taker": 3 - taker}, rec["bids"], dealer, r)


def test_the_lowest_club_decides_before_the_seat_order():
    # a two_of_clubs taker check on hands as dealt: the 2C dealt to seat 3, so seat 3 takes it
    # even though seat 0 comes first from the dealer's left and holds the 3C
    r = ref.resolve_rules({"players": 5, **KITTY})
    dealt = [["3C"], ["4C"], ["5C"], ["2C"], ["6C"]]
    kitty = {"taker": 3, "cards": ["7C", "8C"], "discards": ["7C", "8C"], "dealt": dealt}
    ref._check_kitty_taker(kitty, [1] * 5, 4, r)
    with pytest.raises(ValueError, match="lowest club, 2C"):
        ref._check_kitty_taker({**kitty, "taker": 0}, [1] * 5, 4, r)


# --- refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "key"), [
    (KITTY, "kitty"),  # four players, 52: nothing left over without the extra trick
    ({"players": 3, "jokers": 2, **KITTY}, "kitty"),  # 54 / 3
    ({"players": 5, "jokers": 3, **KITTY}, "kitty"),  # 55 / 5
    ({"players": 6, **KITTY}, "kitty"),  # six players: the kitty only with double_kitty
    ({"players": 6, "deck": "no_twos", **KITTY}, "kitty"),
    ({"players": 6, "deck": "single_jokers", "jokers": 2, **EXTRA}, "kitty"),
    ({"players": 6, "deck": "double_kitty"}, "kitty"),  # the deck needs the kitty
    ({"kitty_taker": "high_bidder"}, "kitty_taker"),  # needs the kitty
    ({"kitty_extra_trick": True}, "kitty_extra_trick"),
    ({**EXTRA, "kitty_taker": "dealer"}, "kitty_taker"),
    ({**EXTRA, "kitty": 1}, "kitty"),
    ({"players": 3, "remove": "last", **KITTY}, "remove"),  # the kitty evens the hands
    ({"jokers": 2, "jokers_remove": ["2C", "2D"], **KITTY}, "jokers_remove"),
    ({**ref.CANCEL, **KITTY}, "kitty"),  # cancel spades deals every card
    ({"players": 2, **KITTY}, "players"),  # two players: not in the reference (they draw)
])
def test_refusals(rules, key):
    with pytest.raises(ValueError, match=f"^{key}"):
        ref.resolve_rules(rules)
