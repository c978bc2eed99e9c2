"""The scalar reference's RULES.md section 4.2 card orders and section 4.3 leads and play
constraints (issue 8), against hand-worked expectations.

Every expected seat and card set is worked out by hand in the comment next to it from the
rankings of section 4.2 ("2S > 2D > 2C > 2H > AS", "JS > JC > AS", the ladder S > C > D > H, ...)
and the rules of section 4.3; none was copied from an implementation's output. A trick
``[c0, c1, c2, c3]`` led by seat ``L`` is played by seats L, L+1, L+2, L+3.
"""

from __future__ import annotations

import pytest

import reference as ref

JOKERS = {"jokers": 2}


def order(name: str, **more) -> dict:
    needs = name in ("jokers_high", "jokers_first_wins", "joker_high_alternate",
                     "joker_joker_deuce_ace")
    return {"trump_order": name, **(JOKERS if needs else {}), **more}


# --- the decks ----------------------------------------------------------------------------------


def test_decks():
    assert sorted(ref.deck_of(None)) == sorted(ref.DECK)
    with_jokers = ref.deck_of(JOKERS)  # the jokers replace 2C and 2D (section 4.2)
    assert len(with_jokers) == 52 and {"BJ", "LJ"} <= set(with_jokers)
    assert not {"2C", "2D"} & set(with_jokers)
    other = ref.deck_of({**JOKERS, "jokers_remove": ["2C", "2H"]})
    assert "2D" in other and not {"2C", "2H"} & set(other)
    assert sorted(ref.deck_of(order("bowers"))) == sorted(ref.DECK)


@pytest.mark.parametrize(("rules", "card", "suit"), [
    (order("deuces_high"), "2H", "S"), (order("deuces_high"), "2D", "S"),
    (order("deuces_high"), "3H", "H"), (order("bowers"), "JC", "S"), (order("bowers"), "JD", "D"),
    (order("jokers_high"), "BJ", "S"), (JOKERS, "LJ", "S"), (order("suit_ladder"), "JC", "C"),
    (order("joker_joker_deuce_ace"), "2S", "S"), (None, "2H", "H"),
])
def test_card_suits(rules, card, suit):
    assert ref.card_suit(card, rules) == suit


def test_a_card_out_of_the_deck_is_refused():
    with pytest.raises(ValueError, match="not a card"):
        ref.card_suit("2C", JOKERS)  # taken out for the jokers
    with pytest.raises(ValueError, match="not a card"):
        ref.trick_winner(["AS", "BJ", "KS", "QS"], 0)  # no jokers in the standard deck


# --- who wins a trick (section 4.2) -------------------------------------------------------------


@pytest.mark.parametrize(("rules", "trick", "leader", "seat"), [
    # standard with jokers: BJ > LJ > AS. BJ is seat 0+1
    (JOKERS, ["AS", "BJ", "KS", "LJ"], 0, 1),
    (JOKERS, ["5H", "AH", "LJ", "KH"], 2, 0),  # LJ trumps the hearts: seat 2+2 = 0
    # jokers_first_wins: BJ = LJ, the first played wins; LJ (seat 2) before BJ
    (order("jokers_first_wins"), ["LJ", "BJ", "AS", "2S"], 2, 2),
    (order("jokers_first_wins"), ["5H", "BJ", "LJ", "AH"], 0, 1),  # BJ first: seat 1
    (order("jokers_high"), ["5H", "LJ", "BJ", "AH"], 0, 2),  # BJ > LJ: seat 2
    # joker_joker_deuce_ace: 2S > AS; LJ > 2S
    (order("joker_joker_deuce_ace"), ["AS", "2S", "KS", "3S"], 0, 1),
    (order("joker_joker_deuce_ace"), ["2S", "AS", "LJ", "KS"], 3, 1),  # LJ: seat 3+2 = 1
    # deuces_high: 2S > 2D > 2C > 2H > AS; a deuce of hearts is a spade, trumping a heart lead
    (order("deuces_high"), ["AH", "2H", "KH", "QH"], 0, 1),
    (order("deuces_high"), ["2H", "2C", "AS", "2D"], 0, 3),  # 2D highest
    (order("deuces_high"), ["3S", "AS", "2H", "KS"], 1, 3),  # 2H > AS: seat 1+2
    (order("deuces_high", **JOKERS), ["2S", "LJ", "2H", "AS"], 0, 1),  # LJ > 2S
    # bowers: JS > JC > AS; the JC is a spade, so it trumps a club lead
    (order("bowers"), ["AS", "JC", "JS", "KS"], 0, 2),
    (order("bowers"), ["AC", "JC", "KC", "QC"], 0, 1),
    (order("bowers"), ["QS", "AS", "JC", "KS"], 2, 0),  # JC: seat 2+2
    (order("bowers"), ["AD", "JD", "KD", "QD"], 0, 0),  # the JD is no bower
    # suit_ladder: S > C > D > H, whatever was led
    (order("suit_ladder"), ["AH", "2D", "KH", "3C"], 0, 3),
    (order("suit_ladder"), ["AD", "2S", "AC", "KS"], 1, 0),  # KS (seat 1+3 = 0) > 2S
    (order("suit_ladder"), ["5C", "AH", "AD", "4C"], 0, 0),  # 5C > 4C, clubs above D and H
])
def test_trick_winner(rules, trick, leader, seat):
    assert ref.trick_winner(trick, leader, rules) == seat


# --- who leads trick 1 (section 4.3) ------------------------------------------------------------

HANDS = [["3C", "AH"], ["2C", "KH"], ["4C", "2H"], ["5C", "AS"]]  # (parts of hands)


@pytest.mark.parametrize(("rules", "seat"), [
    (None, 3),  # dealer 2: left of the dealer
    ({"first_lead": "two_of_clubs"}, 1),
    ({"first_lead": "lowest_club"}, 1),
    ({"first_trick_clubs": True}, 1),
    ({"first_lead": "lowest_club", **JOKERS}, 0),  # the 2C is out: the 3C leads
    (order("deuces_high", first_lead="lowest_club"), 0),  # the 2C is a spade: the 3C
])
def test_first_leader(rules, seat):
    assert ref.first_leader(2, None, rules, HANDS) == seat


def test_first_leader_needs_the_hands():
    with pytest.raises(ValueError, match="hands"):
        ref.first_leader(2, None, {"first_lead": "lowest_club"})


# --- what may be played (section 0 following by the order's suits, section 4.3) -----------------


@pytest.mark.parametrize(("rules", "hand", "trick", "broken", "trick_no", "legal"), [
    # deuces_high: the 2H is a spade, not a heart
    (order("deuces_high"), ["2H", "5H", "3D"], ["AH"], False, 2, ["5H"]),
    (order("deuces_high"), ["2H", "5D"], ["5S"], False, 2, ["2H"]),
    (order("deuces_high"), ["2H", "5D"], [], False, 2, ["5D"]),  # spades not broken
    # bowers: the JC is a spade
    (order("bowers"), ["JC", "4C", "AD"], ["KC"], False, 2, ["4C"]),
    (order("bowers"), ["JC", "AD"], ["KC"], False, 2, ["JC", "AD"]),
    (order("bowers"), ["JC", "AD"], ["KS"], False, 2, ["JC"]),
    # jokers are spades: not led before spades are broken unless only spades are held
    (JOKERS, ["BJ", "5H"], [], False, 2, ["5H"]),
    (JOKERS, ["BJ", "LJ"], [], False, 2, ["BJ", "LJ"]),
    (JOKERS, ["BJ", "5H"], ["3S"], False, 2, ["BJ"]),
    # lead_ace_of_spades: the AS too; a hand of spades leads any
    ({"lead_ace_of_spades": True}, ["AS", "KS", "5H"], [], False, 2, ["AS", "5H"]),
    ({"lead_ace_of_spades": True}, ["AS", "KS", "3S"], [], False, 2, ["AS", "KS", "3S"]),
    # two_of_clubs / lowest_club: the first leader leads that card on trick 1 only
    ({"first_lead": "two_of_clubs"}, ["2C", "5C", "AH"], [], False, 1, ["2C"]),
    ({"first_lead": "two_of_clubs"}, ["2C", "5C", "AH"], [], False, 2, ["2C", "5C", "AH"]),
    ({"first_lead": "lowest_club", **JOKERS}, ["3C", "AH"], [], False, 1, ["3C"]),
    # first_trick_clubs: no spade on trick 1 unless only spades are held
    ({"first_trick_clubs": True}, ["AS", "5H"], ["2C"], False, 1, ["5H"]),
    ({"first_trick_clubs": True}, ["AS", "KS"], ["2C"], False, 1, ["AS", "KS"]),
    ({"first_trick_clubs": True}, ["AS", "5H"], ["9C"], True, 2, ["AS", "5H"]),
    ({"first_trick_clubs": True}, ["2C", "9C", "AS"], [], False, 1, ["2C"]),
    # first_trick_lowest_club: the lowest club; void in clubs a non-spade (reading: instead of
    # following a non-club lead)
    ({"first_trick_lowest_club": True}, ["9C", "4C", "AH"], ["KC"], False, 1, ["4C"]),
    ({"first_trick_lowest_club": True}, ["4C", "KH"], ["5H"], False, 1, ["4C"]),
    ({"first_trick_lowest_club": True}, ["KH", "2D", "AS"], ["5C"], False, 1, ["KH", "2D"]),
    ({"first_trick_lowest_club": True}, ["KH", "2D", "AS"], [], False, 1, ["KH", "2D"]),
    ({"first_trick_lowest_club": True}, ["4C", "KH"], ["5H"], False, 2, ["KH"]),
    # no_spade_lead_first_trick (spades free otherwise)
    ({"no_spade_lead_first_trick": True, "spades_broken": False}, ["AS", "5H"], [], False, 1,
     ["5H"]),
    ({"no_spade_lead_first_trick": True, "spades_broken": False}, ["AS", "5H"], [], False, 2,
     ["AS", "5H"]),
    ({"no_spade_lead_first_trick": True, "spades_broken": False}, ["AS", "KS"], [], False, 1,
     ["AS", "KS"]),
    # must_trump: void, a spade; one beating the trick's highest spade if possible
    ({"must_trump": True}, ["AS", "3S", "2D"], ["5H"], False, 2, ["AS", "3S"]),
    ({"must_trump": True}, ["AS", "3S", "2D"], ["5H", "KS"], False, 2, ["AS"]),
    ({"must_trump": True}, ["KS", "3S", "2D"], ["5H", "AS"], False, 2, ["KS", "3S"]),
    ({"must_trump": True}, ["3S", "9S", "AD"], ["5S"], True, 2, ["9S"]),  # spades led
    ({"must_trump": True}, ["2H", "AS", "3D"], ["5H"], False, 2, ["2H"]),  # following first
    # an equal joker does not beat: BJ = LJ under jokers_first_wins
    (order("jokers_first_wins", must_trump=True), ["BJ", "AS", "3D"], ["5H", "LJ"], False, 2,
     ["BJ", "AS"]),
    (order("jokers_high", must_trump=True), ["BJ", "AS", "3D"], ["5H", "LJ"], False, 2, ["BJ"]),
    # must_overtrump: void in a led non-spade suit, beat the spade in the trick
    ({"must_overtrump": "always"}, ["9S", "3S", "2D"], ["5H", "6S"], False, 2, ["9S"]),
    ({"must_overtrump": "always"}, ["9S", "3S", "2D"], ["5H", "KH"], False, 2,
     ["9S", "3S", "2D"]),  # no spade to beat: free
    ({"must_overtrump": "always"}, ["4S", "3S", "2D"], ["5H", "6S"], False, 2,
     ["4S", "3S", "2D"]),  # cannot beat: free
    ({"must_overtrump": "always"}, ["9S", "3S", "2D"], ["5S", "6S"], True, 2,
     ["9S", "3S"]),  # spades led: following only
    # "opponents": the 6S at position 1 is an opponent of position 2 ...
    ({"must_overtrump": "opponents"}, ["9S", "3S", "2D"], ["5H", "6S"], False, 2, ["9S"]),
    # ... but the partner of position 3
    ({"must_overtrump": "opponents"}, ["9S", "3S", "2D"], ["5H", "6S", "2H"], False, 2,
     ["9S", "3S", "2D"]),
    ({"must_overtrump": "always"}, ["9S", "3S", "2D"], ["5H", "6S", "2H"], False, 2, ["9S"]),
    # ... while an opponent's 7S (position 2) over the partner's 6S holds the trick
    ({"must_overtrump": "opponents"}, ["9S", "3S", "2D"], ["5H", "6S", "7S"], False, 2, ["9S"]),
    # must_trump with must_overtrump = "opponents" (issue 19, a reading): void, a spade is
    # due; beating it only when an opponent holds the trick (the partner's 6S at position 1 of
    # position 3), also when spades were led
    ({"must_trump": True, "must_overtrump": "opponents"}, ["9S", "3S", "2D"],
     ["5H", "6S", "2H"], False, 2, ["9S", "3S"]),
    ({"must_trump": True, "must_overtrump": "opponents"}, ["9S", "3S", "2D"],
     ["5H", "6S"], False, 2, ["9S"]),
    ({"must_trump": True, "must_overtrump": "opponents"}, ["9S", "3S", "2D"],
     ["5S", "6S", "4S"], True, 2, ["9S", "3S"]),
    ({"must_trump": True, "must_overtrump": "opponents"}, ["9S", "3S", "2D"],
     ["5S", "4S", "6S"], True, 2, ["9S"]),
    # joker_high_alternate: a led BJ calls each opponent's highest spade
    (order("joker_high_alternate"), ["LJ", "3S", "AH"], ["BJ"], True, 2, ["LJ"]),
    (order("joker_high_alternate"), ["AS", "3S"], ["BJ", "LJ"], True, 2, ["AS", "3S"]),
    (order("joker_high_alternate"), ["AS", "3S"], ["BJ", "LJ", "2S"], True, 2, ["AS"]),
    (order("joker_high_alternate"), ["AH", "3H"], ["BJ"], True, 2, ["AH", "3H"]),
    (order("jokers_high"), ["LJ", "3S", "AH"], ["BJ"], True, 2, ["LJ", "3S"]),
])
def test_legal_plays(rules, hand, trick, broken, trick_no, legal):
    assert ref.legal_plays(hand, trick, broken, rules, trick_no=trick_no) == legal


def test_a_trick_one_rule_needs_the_trick_number():
    with pytest.raises(ValueError, match="trick_no"):
        ref.legal_plays(["2C", "AH"], [], False, {"first_lead": "two_of_clubs"})
    assert ref.legal_plays(["2C", "AH"], [], False, {"must_trump": True}) == ["2C", "AH"]


# --- a whole hand with jokers (section 5 record) -------------------------------------------------


def joker_deal(big_at: int) -> dict:
    """Seat 0 all 13 spades, seat 1 the hearts, the BJ with the clubs at seat ``big_at`` and the
    LJ with the diamonds at the other of seats 2 and 3 (the 2C and 2D are out). Dealer 3, so
    seat 0 leads: the AS (only spades held); seat 1 has no spade; seats 2 and 3 must follow spades
    with their jokers. Trick 2: the trick 1 winner leads his lowest card and seat 0 ruffs with the
    2S (or follows with it); seat 0 then wins every spade lead."""
    clubs = [r + "C" for r in "3456789TJQKA"]
    diamonds = [r + "D" for r in "3456789TJQKA"]
    spades = [r + "S" for r in "23456789TJQKA"]
    hearts = [r + "H" for r in "23456789TJQKA"]
    hands = [spades, hearts, None, None]
    hands[big_at] = ["BJ", *clubs]
    hands[5 - big_at] = ["LJ", *diamonds]
    plays = ["AS", "2H", hands[2][0], hands[3][0]]  # trick 1
    return {"dealer": 3, "hands": hands, "plays": plays, "blind": [False] * 4}


def finish(rec: dict, winner: int) -> dict:
    """Trick 2 led by ``winner`` (2 or 3) with his lowest side card, seat 0 plays the 2S; then
    seat 0 leads KS ... 3S and the others play their side suits upwards."""
    side = [rec["hands"][s][1:] for s in (1, 2, 3)]  # after trick 1: 3H.., 3C.. or 3D.., ...
    order_ = [(winner + k) % 4 for k in range(4)]
    cards = {0: "2S", 1: side[0][0], 2: side[1][0], 3: side[2][0]}
    plays = rec["plays"] + [cards[s] for s in order_]
    for k, spade in enumerate("KQJT9876543"):
        plays += [spade + "S", side[0][k + 1], side[1][k + 1], side[2][k + 1]]
    return rec | {"plays": plays}


@pytest.mark.parametrize(("rules", "big_at", "trick1"), [
    (JOKERS, 2, 2),  # BJ (seat 2) > LJ
    (JOKERS, 3, 3),
    (order("jokers_high"), 3, 3),
    (order("jokers_first_wins"), 3, 2),  # LJ (seat 2) played before the BJ: equal, first wins
    (order("jokers_first_wins"), 2, 2),
])
def test_a_hand_with_jokers(rules, big_at, trick1):
    rec = finish(joker_deal(big_at), trick1)
    # side 0 bids 12 (0: 11, 2: 1) and side 1 two nils: trick 1 to seat 2 or 3, the rest to 0
    rec["bids"] = [11, 0, 1, 0]
    out = ref.replay_hand(rec, rules)
    assert out["winners"] == [trick1] + [0] * 12
    side0 = 12 + (trick1 == 2)
    assert out["tricks"][0] == 12 and sum(out["tricks"][s] for s in (0, 2)) == side0
    # side 0 bid 12: 120 and a bag when seat 2 took trick 1; side 1 (two nils): seat 1's nil
    # made (+100), seat 3's made (+100) or, when it took trick 1, failed (-100) with that trick a
    # bag (nil_tricks = "bags_only": +1)
    assert out["points"] == ([121, 200] if trick1 == 2 else [120, 1])


def test_a_joker_record_refuses_a_removed_card():
    rec = finish(joker_deal(2), 2) | {"bids": [11, 0, 1, 0]}
    rec["hands"] = [list(h) for h in rec["hands"]]
    rec["hands"][2][0] = "2C"  # the 2C is out of the deck with jokers
    with pytest.raises(ValueError, match="not a card of this deck"):
        ref.replay_hand(rec, JOKERS)


def test_following_with_a_joker_is_required():
    rec = finish(joker_deal(2), 2) | {"bids": [11, 0, 1, 0]}
    plays = list(rec["plays"])
    plays[2] = "3C"  # seat 2 holds the BJ, a spade: it must follow the AS with it
    with pytest.raises(ref.IllegalPlay, match=r"trick 1, seat 2\b.*must follow suit S"):
        ref.replay_hand(rec | {"plays": plays}, JOKERS)


def test_illegal_plays_name_the_rule():
    rd = {"must_trump": True}
    rec = {"dealer": 3, "bids": [3, 3, 3, 3], "blind": [False] * 4,
           "hands": [["AC", *[r + "H" for r in "23456789TJQK"]],
                     ["2C", *[r + "D" for r in "23456789TJQK"]],
                     ["3C", *[r + "S" for r in "23456789TJQK"]],
                     ["4C", "AH", "AD", "AS", *[r + "C" for r in "56789TJQK"]]]}
    # seat 0 leads a heart; seat 1 (void in hearts, no spade) plays a diamond; seat 2, void in
    # hearts with spades, must trump and may not throw the 3C
    with pytest.raises(ref.IllegalPlay, match=r"trick 1, seat 2\b.*must_trump"):
        ref.replay_hand(rec | {"plays": ["2H", "2D", "3C"]}, rd)
    # the holder of the lowest club (2C: seat 1) leads it
    with pytest.raises(ref.IllegalPlay, match=r"trick 1, seat 1\b.*first_lead"):
        ref.replay_hand(rec | {"plays": ["2D"]}, {"first_lead": "lowest_club"})


# --- rule combinations that cannot be played ----------------------------------------------------


@pytest.mark.parametrize(("rules", "key"), [
    ({"trump_order": "jokers_high"}, "trump_order"),  # "needs jokers = 2"
    ({"trump_order": "jokers_first_wins", "jokers": 0}, "trump_order"),
    ({"trump_order": "bowers", **JOKERS}, "jokers"),
    ({"trump_order": "suit_ladder", **JOKERS}, "jokers"),
    ({"trump_order": "jokes_win", "partnerships": False, **JOKERS}, "trump_order"),  # pairs
    ({"trump_order": "aces_low"}, "trump_order"),
    ({"jokers": 3}, "jokers"),  # five players (section 4.7)
    ({"jokers_remove": ["2C", "2D"]}, "jokers_remove"),
    ({**JOKERS, "jokers_remove": ["2C"]}, "jokers_remove"),
    ({**JOKERS, "jokers_remove": ["2C", "2C"]}, "jokers_remove"),
    ({**JOKERS, "jokers_remove": ["2C", "1H"]}, "jokers_remove"),
    ({**JOKERS, "bag_cancel_card": "2D"}, "bag_cancel_card"),
    ({**JOKERS, "first_lead": "two_of_clubs"}, "first_lead"),
    ({"first_trick_clubs": True, "mo_b": True}, "first_trick_clubs"),
    ({"first_lead": "lowest_club", "mo_b": True}, "first_lead"),
    ({"lead_ace_of_spades": True, "spades_broken": "never"}, "lead_ace_of_spades"),
    ({"must_trump": True, "must_overtrump": "always"}, "must_overtrump"),
    ({"trump_order": "suit_ladder", "must_overtrump": "always"}, "trump_order"),
    ({"must_overtrump": "sometimes"}, "must_overtrump"),
    ({"first_lead": "dealer"}, "first_lead"),
    ({"trump_order": "deuces_high", "first_lead": "two_of_clubs"}, "first_lead"),
    ({**JOKERS, "jokers_remove": ["AS", "2D"], "lead_ace_of_spades": True}, "jokers_remove"),
    ({**JOKERS, "jokers_remove": ["9S", "2D"], "dix": True}, "jokers_remove"),
])
def test_impossible_combinations(rules, key):
    with pytest.raises(ValueError, match=f"^{key}"):
        ref.resolve_rules(rules)


def test_possible_combinations():
    for rules in ({"first_trick_clubs": True, "first_lead": "lowest_club", **JOKERS},
                  {"first_trick_clubs": True, "first_lead": "two_of_clubs"},
                  # issue 19: the rules of trick 1 agree (RULES.md section 4.3)
                  {"first_lead": "two_of_clubs", "first_trick_lowest_club": True},
                  {"first_trick_clubs": True, "first_trick_lowest_club": True,
                   "first_lead": "lowest_club"},
                  {"first_trick_lowest_club": True, "mo_b": True},
                  {**JOKERS, "jokers_remove": ["2C", "2H"], "bag_cancel_card": "2D"},
                  {"trump_order": "deuces_high", **JOKERS, "must_trump": True},
                  {"trump_order": "suit_ladder", "first_trick_lowest_club": True,
                   "lead_ace_of_spades": True, "no_spade_lead_first_trick": True}):
        ref.resolve_rules(rules)
