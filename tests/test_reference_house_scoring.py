"""The scalar reference's RULES.md section 4.6 scoring keys and section 4.8 ``defeat_score``
(issue 7), against hand-worked expectations.

Every number is worked out by hand in the comment next to it from RULES.md section 4.6 (its own
examples first: quicksand bid 7 -> 70 / -20 / 50, highlander -75, exact pair 100, seven-plus 80 /
100 / 120, double over -40, the units digit 54 = 50 points + 4 bags) and the readings of issue 7
(components: contract, overtricks, bag_penalty, nil, bemo, bonus, trick_bonus). None was copied
from an implementation's output.

Score sheets (``sheet``) are validated in bidding order like any record: dealer 0, so seat 1 bids
first; side 0 = seats 0 and 2.
"""

from __future__ import annotations

import pytest

import reference as ref
from test_reference import FREE, played, sheet


def nonzero(out: dict, side: int) -> dict:
    """The side's components that are not 0, by name."""
    return {k: v[side] for k, v in out["components"].items() if v[side]}


def replay(rec: dict, **rules) -> dict:
    return ref.replay_hand(rec, rules)


# --- RULES.md section 4.6's own examples ------------------------------------------------------


@pytest.mark.parametrize(("taken", "side0", "points"), [
    (7, {"contract": 70}, 70),  # exact: +10 x 7
    (5, {"contract": -20}, -20),  # two short: -10 each
    (9, {"contract": 70, "overtricks": -20}, 50),  # two over: 70 - 10 - 10
])
def test_quicksand_bid_7(taken, side0, points):
    # Side 0 bids 4 + 3 = 7 and takes `taken`; side 1 bids 3 + 3 = 6 and takes the other 13 - taken.
    out = replay(sheet([4, 3, 3, 3], [taken - 3, 3, 3, 10 - taken], bags=(9, 9)), quicksand=True)
    assert nonzero(out, 0) == side0 and out["points"][0] == points
    # side 1 takes 6, 8, 4: exact 60; 60 - 20 = 40; two short -20
    assert out["points"][1] == {7: 60, 5: 40, 9: -20}[taken]
    assert out["after"]["bags"] == [9, 9]  # no bags at all: none counted, no penalty


def test_highlander_tom_and_harry():
    # Tom (seat 0) bids 5 takes 4, Harry (seat 2) bids 3 takes 4: the side took its 8, but Tom
    # failed: -80, and Harry's overtrick +5 -> -75. Side 1: 2 + 2, taking 3 + 2, both made:
    # +40 and seat 1's overtrick +5 -> 45 (5 tricks: no progressive bonus). No bags either side.
    out = replay(sheet([5, 2, 3, 2], [4, 3, 4, 2], bags=(9, 9)), highlander=True)
    assert nonzero(out, 0) == {"contract": -80, "overtricks": 5}
    assert out["points"] == [-75, 45]
    assert out["after"]["bags"] == [9, 9]
    assert out["after"]["progressive"] == [0, 0]


def test_exact_pair_bonus_3_and_4():
    # Seats 0 and 2 bid 3 and 4 and take exactly 3 and 4: 70 + half of 70 rounded down to a
    # multiple of 10 = 30 -> 100. Side 1 bids 2 + 4 = 6 and takes 6 as 1 + 5: 60, no bonus.
    out = replay(sheet([3, 2, 4, 4], [3, 1, 4, 5]), exact_pair_bonus=True)
    assert nonzero(out, 0) == {"contract": 70, "bonus": 30}
    assert out["points"] == [100, 60]


@pytest.mark.parametrize(("bid", "points"), [(7, 80), (8, 100), (9, 120)])
def test_seven_plus_per_trick(bid, points):
    # Side 0 bids 4 + (bid - 4) and takes exactly that: 10 x bid + 10 per bid trick above 6.
    tricks = [4, 0, bid - 4, 13 - bid]
    out = replay(sheet([4, 1, bid - 4, 1], tricks), seven_plus="per_trick")
    assert nonzero(out, 0) == {"contract": 10 * bid, "bonus": 10 * (bid - 6)}
    assert out["points"][0] == points


def test_double_over_bid_2_takes_4():
    # Side 0 bids 1 + 1 = 2 and takes 4: loses twice the contract value, -40, no overtricks.
    # Side 1 bids 5 + 5 = 10 and takes 9: set, -100.
    out = replay(sheet([1, 5, 1, 5], [2, 4, 2, 5]), double_over=True)
    assert nonzero(out, 0) == {"contract": -40}
    assert out["after"]["bags"] == [0, 0]
    assert out["points"] == [-40, -100]


def test_bags_in_units_digit_54():
    # Side 0 bids 3 + 2 = 5 and takes 9: 50 points and 4 bags, written 54; the bags score 0.
    out = replay(sheet([3, 4, 2, 4], [5, 2, 4, 2]), bags_in_units_digit=True)
    assert nonzero(out, 0) == {"contract": 50}
    assert out["after"]["scores"][0] == 50 and out["after"]["bags"][0] == 4
    assert out["after"]["scores"][0] + out["after"]["bags"][0] == 54
    # With 8 bags before: 12 reach the limit of 10: -100, 2 left (written -50 + 2 ... the count
    # is kept as usual).
    out = replay(sheet([3, 4, 2, 4], [5, 2, 4, 2], bags=(8, 0)), bags_in_units_digit=True)
    assert nonzero(out, 0) == {"contract": 50, "bag_penalty": -100}
    assert out["after"]["bags"][0] == 2


def test_bags_in_units_digit_under_quicksand_and_three_b():
    # issue 19, a reading: with the units digit asked for, the overtricks quicksand and three_b
    # price at -10 are counted as bags too. Side 0 bids 5 and takes 9: 50 - 40, and 4 bags;
    # with 8 before: 12 reach the limit, -100, 2 left. Side 1 bids 8, takes 4: set, no bag.
    for key, set_ in (("quicksand", -40), ("three_b", -80)):
        out = replay(sheet([3, 4, 2, 4], [5, 2, 4, 2], bags=(8, 0)), bags_in_units_digit=True,
                     **{key: True})
        assert nonzero(out, 0) == {"contract": 50, "overtricks": -40, "bag_penalty": -100}
        assert nonzero(out, 1) == {"contract": set_}
        assert out["after"]["bags"] == [2, 0]
    # a nil bidder's trick is a bag too (bags_only), cancelled by the 7H's trick won by its side
    # (bag_cancel_card needs the play: see the conformance test)
    out = replay(sheet([0, 4, 5, 4], [1, 4, 4, 4]), bags_in_units_digit=True, quicksand=True)
    assert nonzero(out, 0) == {"contract": -10, "nil": -100} and out["after"]["bags"][0] == 1


# --- the first keys of issue 7, by hand --------------------------------------------------------


def test_three_b():
    # Side 0 bids 3 + 2 = 5, takes 7: contract 50, 2 overtricks at -10 each, no bags.
    # Seat 1 bid nil and took 2: -100 and -10 per trick -> -120; seat 3 bid 6 took 4: set -60.
    out = replay(sheet([3, 0, 2, 6], [4, 2, 3, 4], bags=(9, 9)), three_b=True)
    assert nonzero(out, 0) == {"contract": 50, "overtricks": -20}
    assert nonzero(out, 1) == {"contract": -60, "nil": -120}
    assert out["after"]["bags"] == [9, 9]


def test_quicksand_many_overtricks_and_no_minus():
    # Bid 1 + 1 = 2 taking 13: 20 - 110 = -90. no_minus leaves it: the side was not set (the
    # loss is in overtricks, not in the contract).
    out = replay(sheet([1, 1, 1, 1], [7, 0, 6, 0]), quicksand=True, no_minus=True)
    assert nonzero(out, 0) == {"contract": 20, "overtricks": -110}
    # Side 1 bid 2 took 0: short by 2, -20 -> 0 under no_minus.
    assert nonzero(out, 1) == {}


def test_no_overs():
    # Bid 5, takes 8: 50, the 3 overtricks score nothing and are no bags (9 before: no penalty).
    out = replay(sheet([3, 4, 2, 4], [4, 1, 4, 4], bags=(9, 0)), no_overs=True)
    assert nonzero(out, 0) == {"contract": 50} and out["after"]["bags"] == [9, 0]


def test_bags_negative():
    # Bid 5, takes 8: 50 - 3; no count, no penalty. A nil bidder's trick is a bag too: seat 1 nil
    # takes 1 -> -100 - 1 (bags_only).
    out = replay(sheet([3, 0, 2, 5], [4, 1, 4, 4], bags=(9, 9)), bags_negative=True)
    assert nonzero(out, 0) == {"contract": 50, "overtricks": -3}
    assert nonzero(out, 1) == {"contract": -50, "overtricks": -1, "nil": -100}
    assert out["after"]["bags"] == [9, 9]


def test_exact_side_and_player():
    # Side 0 bids 3 + 2 = 5. Takes 5 as 4 + 1: side-exact made (+50); player-exact set (-50).
    out = replay(sheet([3, 4, 2, 4], [4, 4, 1, 4]), exact="side")
    assert nonzero(out, 0) == {"contract": 50}
    assert nonzero(replay(sheet([3, 4, 2, 4], [4, 4, 1, 4]), exact="player"), 0) == {
        "contract": -50}
    # Takes 6 (4 + 2): more is a set either way, and the overtrick is no bag.
    for exact in ("side", "player"):
        out = replay(sheet([3, 4, 2, 3], [4, 4, 2, 3]), exact=exact)
        assert nonzero(out, 0) == {"contract": -50} and out["after"]["bags"][0] == 0
    # Player-exact, 3 and 2 taken exactly: +50.
    assert nonzero(replay(sheet([3, 4, 2, 4], [3, 4, 2, 4]), exact="player"), 0) == {
        "contract": 50}


def test_set_to_opponents():
    # Side 0 bids 3 + 3 = 6 and takes 4: scores 0; side 1 (bid 5, takes 9: 50 + 4) gets 10 for
    # each of the 2 tricks side 0 fell short, in its contract: 70.
    out = replay(sheet([3, 3, 3, 2], [2, 5, 2, 4]), set_to_opponents=True)
    assert nonzero(out, 0) == {}
    assert nonzero(out, 1) == {"contract": 70, "overtricks": 4}
    # Quicksand's short side is set too: bid 7 taking 5 -> 0, the opponents +20 (6 bid, 8
    # taken: 60 - 20 + 20 = 60).
    out = replay(sheet([4, 3, 3, 3], [2, 3, 3, 5]), quicksand=True, set_to_opponents=True)
    assert nonzero(out, 0) == {}
    assert nonzero(out, 1) == {"contract": 80, "overtricks": -20}


def test_no_minus_keeps_nil_failures():
    # Side 0 bids 3 + 3 = 6 and takes 4: 0 instead of -60. Seat 1's nil failed: still -100.
    out = replay(sheet([3, 0, 3, 5], [2, 1, 2, 8]), no_minus=True)
    assert nonzero(out, 0) == {}
    assert nonzero(out, 1) == {"contract": 50, "overtricks": 4, "nil": -100}


# no_minus floors a *set* side only (RULES.md 4.6; section 3: set = fewer tricks than the
# contract; exact: more is a set too). Worked by hand, issue 17.
def test_no_minus_leaves_double_over_alone():
    # The record: dealer 3, bids [1, 7, 3, 6], tricks [5, 3, 3, 2]. Side 0 bid 1 + 3 = 4
    # and took 5 + 3 = 8, twice its bid: made, so double_over's -20 x 4 = -80 stands. Side 1 bid
    # 7 + 6 = 13, took 5: set, -130 -> 0.
    rec = sheet([1, 7, 3, 6], [5, 3, 3, 2], dealer=3)
    out = replay(rec, double_over=True, no_minus=True)
    assert nonzero(out, 0) == {"contract": -80} and nonzero(out, 1) == {}
    assert out["points"] == [-80, 0]
    # three_b / quicksand: the doubled side is made too (-80); quicksand's short side 1 loses 8
    # tricks, set: 0.
    for way in ({"three_b": True}, {"quicksand": True}):
        assert replay(rec, double_over=True, no_minus=True, **way)["points"] == [-80, 0], way


@pytest.mark.parametrize("exact", ["side", "player"])
def test_no_minus_floors_exact_more_as_a_set(exact):
    # exact: more is scored as a set. Side 0 bids 1 + 3 = 4, takes 8: set, -40 -> 0; with
    # double_over (8 >= 2 x 4) -80 -> 0, for the side is set. Side 1 bid 13 took 5: 0.
    rec = sheet([1, 7, 3, 6], [5, 3, 3, 2], dealer=3)
    assert replay(rec, exact=exact, no_minus=True)["points"] == [0, 0]
    assert replay(rec, exact=exact, double_over=True, no_minus=True)["points"] == [0, 0]
    # exactly 4 as 1 + 3: made, +40 (side) and, each his own bid, +40 (player)
    assert replay(sheet([1, 7, 3, 6], [1, 5, 3, 4], dealer=3), exact=exact,
                  no_minus=True)["points"][0] == 40


def test_double_over_with_a_nil_partner():
    # Seat 0 nil takes 1 trick (a bag under bags_only), seat 2 bids 2 and takes 4: -40, the
    # nil's bag stays (+1), the nil fails (-100).
    out = replay(sheet([0, 4, 2, 3], [1, 4, 4, 4]), double_over=True)
    assert nonzero(out, 0) == {"contract": -40, "overtricks": 1, "nil": -100}
    assert out["after"]["bags"][0] == 1


# --- book_made ---------------------------------------------------------------------------------


def test_book_made():
    # Bids 3 + 2 (side 0) and 4 + 1 (side 1) total 10: each side scores 10 x its bid whatever
    # happens. Side 0 takes 2 (set otherwise): 50; side 1 takes 11: 50, no overtricks, no bags.
    rec = sheet([3, 4, 2, 1], [1, 6, 1, 5], bags=(9, 9))
    out = replay(rec, book_made=True)
    assert nonzero(out, 0) == {"contract": 50} and nonzero(out, 1) == {"contract": 50}
    assert out["after"]["bags"] == [9, 9]
    # exact, double_over (side 1 took 11 >= 10), set_to_opponents and no_minus do not touch it
    for keys in ({"exact": "side"}, {"double_over": True}, {"set_to_opponents": True},
                 {"no_minus": True}, {"quicksand": True}, {"three_b": True}):
        assert replay(rec, book_made=True, **keys)["points"] == [50, 50], keys
    # Bids totalling 11: scored as usual (side 0 set -50, side 1 bid 6 took 11: 60 + 5).
    assert replay(sheet([3, 4, 2, 2], [1, 6, 1, 5]), book_made=True)["points"] == [-50, 65]


def test_book_made_nils_and_seven_plus():
    # Bids 0 + 4 (side 0: seat 0 nil) and 3 + 3 total 10. Seat 0's nil takes 2: -100 as usual,
    # but no bags; seat 2's 4 -> 40. Side 1 bids 6, takes 5: still 60.
    out = replay(sheet([0, 3, 4, 3], [2, 2, 6, 3]), book_made=True)
    assert nonzero(out, 0) == {"contract": 40, "nil": -100}
    assert out["after"]["bags"] == [0, 0]
    # Side 0 bids 4 + 3 = 7 of a total of 10 and takes 5: book made counts as made: 70 + 10.
    out = replay(sheet([4, 1, 3, 2], [3, 4, 2, 4]), book_made=True, seven_plus="per_trick")
    assert nonzero(out, 0) == {"contract": 70, "bonus": 10}


# --- highlander --------------------------------------------------------------------------------


def test_highlander_progressive_bonus():
    # Side 0: 4 + 3 = 7, taking 5 + 4 -> both made with 9: 70 + 5 x 2 = 80, and its third
    # progressive bonus (two before): 30. Side 1: seat 1 bids 1 takes 0 (failed), seat 3 bids 1
    # takes 4: -20 + 5 x 3 = -5.
    rec = sheet([4, 1, 3, 1], [5, 0, 4, 4]) | {
        "before": {"scores": [0, 0], "bags": [0, 0], "progressive": [2, 5]}}
    out = replay(rec, highlander=True)
    assert nonzero(out, 0) == {"contract": 70, "overtricks": 10, "bonus": 30}
    assert nonzero(out, 1) == {"contract": -20, "overtricks": 15}
    assert out["after"]["progressive"] == [3, 5]
    # Side 0 makes 3 + 3 with 6 tricks: no bonus; side 1's 7 tricks, but seat 1 bid 5 and took
    # 3: -60 + seat 3's 3 overtricks x 5 = -45, no bonus. The counts stay.
    out = replay(sheet([3, 5, 3, 1], [3, 3, 3, 4]) | {"before": rec["before"]}, highlander=True)
    assert nonzero(out, 0) == {"contract": 60} and nonzero(out, 1) == {"contract": -60,
                                                                       "overtricks": 15}
    assert out["after"]["progressive"] == [2, 5]


def test_highlander_nil_partner_and_two_nils():
    # Seat 0 nil takes 1 (failed, -100; his trick counts for nobody and is no bag); seat 2 bids 6
    # takes 7: +60, +5, and 7 tricks by the non-nil bidder: the first progressive bonus, 10.
    # Side 1: two nils, seat 1 none (+100), seat 3 took 5 (-100): no contract, and the 5 tricks
    # are no bags (the standard game would give 5 overtrick points).
    out = replay(sheet([0, 0, 6, 0], [1, 0, 7, 5]), highlander=True)
    assert nonzero(out, 0) == {"contract": 60, "overtricks": 5, "nil": -100, "bonus": 10}
    assert nonzero(out, 1) == {}
    assert out["after"] == {"scores": [-25, 0], "bags": [0, 0], "progressive": [1, 0]}
    assert nonzero(replay(sheet([0, 0, 6, 0], [1, 0, 7, 5])), 1) == {"overtricks": 5}


def test_highlander_with_no_minus_and_double_over():
    # issue 19, RULES.md section 4.6 read together. no_minus: Tom and Harry's side (-80 + 5) is
    # set, its contract scores 0 and Harry's overtrick still 5; side 1 made: unchanged.
    out = replay(sheet([5, 2, 3, 2], [4, 3, 4, 2]), highlander=True, no_minus=True)
    assert nonzero(out, 0) == {"overtricks": 5} and out["points"] == [5, 45]
    # double_over: side 0 bids 1 + 2 = 3 and its bidders take 3 + 4 = 7 >= 6: -20 x 3 instead of
    # +30 and 6 overtricks x 5; both made with 7 tricks: the first progressive bonus stands.
    # Side 1 bids 1 + 1 and takes 2 + 4 >= 4: -40 too, its 6 tricks earning no bonus.
    out = replay(sheet([1, 1, 2, 1], [3, 2, 4, 4]), highlander=True, double_over=True)
    assert nonzero(out, 0) == {"contract": -60, "bonus": 10}
    assert nonzero(out, 1) == {"contract": -40}
    # a nil partner's tricks count for nobody: bid 0 + 3, the bidder takes 5 (< 6), the nil 4
    out = replay(sheet([0, 1, 3, 1], [4, 2, 5, 2]), highlander=True, double_over=True)
    assert nonzero(out, 0) == {"contract": 30, "overtricks": 10, "nil": -100}


# --- seven_plus = "progressive" ----------------------------------------------------------------


def test_seven_plus_progressive():
    # Side 0 bids 4 + 3 = 7 and takes 9 with one bonus before: 70 + 20; its 2 overtricks score
    # nothing and are no bags (8 before: no penalty). Side 1 bids 1 + 1, takes 4: 20 + 2, and
    # its 8 + 2 bags reach the limit: -100, 0 left.
    before = {"scores": [0, 0], "bags": [8, 8], "progressive": [1, 0]}
    out = replay(sheet([4, 1, 3, 1], [5, 2, 4, 2]) | {"before": before}, seven_plus="progressive")
    assert nonzero(out, 0) == {"contract": 70, "bonus": 20}
    assert nonzero(out, 1) == {"contract": 20, "overtricks": 2, "bag_penalty": -100}
    assert out["after"] == {"scores": [90, -78], "bags": [8, 0], "progressive": [2, 0]}
    # the nil bidder's tricks of a side earning it are no bags either: seat 0 nil takes 1,
    # seat 2 bids 7 and takes 8: 70 + 10 (first bonus), nil -100, no bag
    out = replay(sheet([0, 1, 7, 1], [1, 2, 8, 2]), seven_plus="progressive")
    assert nonzero(out, 0) == {"contract": 70, "nil": -100, "bonus": 10}
    assert out["after"]["bags"][0] == 0
    # set: no bonus, count unchanged (bid 7, takes 6: -70)
    out = replay(sheet([4, 1, 3, 1], [3, 3, 3, 4]) | {"before": before}, seven_plus="progressive")
    assert nonzero(out, 0) == {"contract": -70} and out["after"]["progressive"] == [1, 0]


def test_progressive_count_only_with_a_progressive_rule():
    assert "progressive" not in replay(sheet([3, 4, 2, 4], [5, 2, 3, 3]))["after"]
    assert "progressive" not in replay(sheet([3, 4, 2, 4], [5, 2, 3, 3]),
                                       seven_plus="per_trick")["after"]
    bad = sheet([3, 4, 2, 4], [5, 2, 3, 3]) | {
        "before": {"scores": [0, 0], "bags": [0, 0], "progressive": [-1, 0]}}
    with pytest.raises(ValueError, match="progressive"):
        replay(bad, highlander=True)


# --- bag_cancel_card ---------------------------------------------------------------------------

# A sequenced deal (tests/test_reference.py): dealer 3, seat 0 leads; trick 2 is hearts 7-T with
# TH to its winner and 7H to the lowest other seat; trick 9 is clubs J-A (JC to the lowest seat
# that does not win it). Side 0 wins tricks 1-8, side 1 tricks 9-13.
WINNERS = [0, 0, 2, 2, 0, 2, 0, 2, 1, 3, 1, 3, 1]  # seats 0, 1, 2, 3 take 4, 3, 4, 2


@pytest.mark.parametrize(("keys", "side0", "bags0"), [
    ({}, {"contract": 60, "overtricks": 2}, 2),  # bid 3 + 3 = 6, takes 8: 2 bags
    ({"bag_cancel_card": "7H"}, {"contract": 60, "overtricks": 1}, 1),  # won 7H's trick: 1
    ({"bag_cancel_card": "JC"}, {"contract": 60, "overtricks": 2}, 2),  # side 1 won it
    ({"bag_cancel_card": "7H", "bags_negative": True}, {"contract": 60, "overtricks": -1}, 0),
    ({"bag_cancel_card": "7H", "bags_in_units_digit": True}, {"contract": 60}, 1),
    ({"bag_cancel_card": "7H", "exact": "side"}, {"contract": -60}, 0),  # set: nothing to cancel
])
def test_bag_cancel_card(keys, side0, bags0):
    rec = played([3, 3, 3, 3], WINNERS)
    out = replay(rec, **FREE, **keys)
    assert out["tricks"] == [4, 3, 4, 2]
    assert nonzero(out, 0) == side0 and out["after"]["bags"][0] == bags0
    assert nonzero(out, 1) == {"contract": -60}  # bid 6, took 5: set


def test_bag_cancel_card_set_side_and_two_nils():
    # JC's trick (9) is won by seat 1. Side 1 bids 2 + 1 = 3 and takes 5: 2 bags, one
    # cancelled (31). Under exact it is set (-30) and keeps nothing to cancel.
    rec = played([3, 2, 3, 1], WINNERS)
    assert nonzero(replay(rec, **FREE, bag_cancel_card="JC"), 1) == {"contract": 30,
                                                                     "overtricks": 1}
    # Side 0 bid two nils: no contract, never set. Seats 0 and 2 took 8 tricks, all bags under
    # bags_only; 7H's trick is one of them: 7 bags, nils -100 each.
    out = replay(played([0, 3, 0, 3], WINNERS), **FREE, bag_cancel_card="7H")
    assert nonzero(out, 0) == {"overtricks": 7, "nil": -200}


def test_bag_cancel_card_cut():
    rec = played([3, 3, 3, 3], WINNERS)
    assert nonzero(replay(rec | {"cancel_card": "7H"}, **FREE, bag_cancel_card="cut"), 0) == {
        "contract": 60, "overtricks": 1}
    with pytest.raises(ValueError, match="cancel_card"):
        replay(rec, **FREE, bag_cancel_card="cut")
    # a named card: the record may repeat it, not name another
    assert nonzero(replay(rec | {"cancel_card": "7H"}, **FREE, bag_cancel_card="7H"), 0) == {
        "contract": 60, "overtricks": 1}
    with pytest.raises(ValueError, match="cancel_card"):
        replay(rec | {"cancel_card": "JC"}, **FREE, bag_cancel_card="7H")
    # no rule, no cancelled bag, whatever the record says
    assert nonzero(replay(rec | {"cancel_card": "7H"}, **FREE), 0) == {"contract": 60,
                                                                      "overtricks": 2}


# --- trick bonuses -----------------------------------------------------------------------------

FILLER = ["AH", "2H", "3H", "4H"]  # the leader wins it and leads again


def trick_hand(last_three: list[list[str]], leader: int = 0) -> dict:
    """score_hand's arguments for a hand of ten filler tricks won by ``leader`` and then
    ``last_three`` (cards in play order, each trick led by the previous winner). Cards repeat
    between tricks: score_hand checks no deal."""
    played_, winners = [], []
    for cards in [FILLER] * 10 + last_three:
        played_.append([((leader + k) % 4, c) for k, c in enumerate(cards)])
        leader = ref.trick_winner(cards, leader)
        winners.append(leader)
    return {"played": played_, "winners": winners,
            "tricks": [winners.count(s) for s in range(4)]}


def trick_bonus(hand: dict, bids=(3, 3, 3, 3), blind=(False,) * 4, **rules) -> list[int]:
    out = ref.score_hand(list(bids), list(blind), hand["tricks"], [0, 0], [0, 0], rules,
                         played=hand["played"], winners=hand["winners"])
    return out["components"]["trick_bonus"]


LAST_3_BY_SEAT_0 = [["KD", "2D", "3D", "4D"], ["KC", "2C", "3C", "4C"],
                    ["AS", "2S", "3S", "4S"]]


def test_last_trick_bonus_end_streak_and_ace():
    hand = trick_hand(LAST_3_BY_SEAT_0)  # seat 0 wins all 13, the last with AS
    assert trick_bonus(hand, last_trick_bonus=True) == [10, 0]
    assert trick_bonus(hand, end_streak=True) == [30, 0]
    assert trick_bonus(hand, last_trick_ace=True) == [20, 0]  # the ace of spades
    assert trick_bonus(hand) == [0, 0]
    # every bonus on: 10 + 30 + 20, and the high spade (AS) by a player who took his 13 bid
    everything = dict.fromkeys(ref.TRICK_BONUSES, True)
    assert trick_bonus(hand, bids=(13, 0, 0, 0), **everything) == [70, 0]
    # seat 2 wins trick 12 (partner, not the same player): no streak; trick 13 by an off-suit
    # ace led by seat 2 (nobody trumps): +10
    hand = trick_hand([["KD", "2D", "3D", "4D"], ["2C", "3C", "KC", "4C"],
                       ["AH", "2H", "3H", "4H"]])
    assert hand["winners"][-3:] == [0, 2, 2]
    assert trick_bonus(hand, end_streak=True, last_trick_ace=True, last_trick_bonus=True) == [
        20, 0]


@pytest.mark.parametrize(("cards", "want"), [
    (["5S", "9S", "2S", "3S"], [0, 10]),  # seat 1's 9S wins a spade lead: +10
    (["AH", "9S", "2S", "KH"], [0, 5]),  # trumps over another spade: +5
    (["AH", "9S", "KH", "QH"], [0, 1]),  # the only spade: +1
    (["AH", "9S", "TS", "2H"], [0, 0]),  # seat 2's 10 beats it
])
def test_dix(cards, want):
    hand = trick_hand([FILLER, FILLER, cards])
    assert trick_bonus(hand, dix=True) == want


def test_last_trick_ace_nil():
    # Seat 1 plays AD to trick 13, won by seat 2's spade: + nil_bonus // 5 to side 1 if seat 1
    # bid nil (blind or not, made or not), nothing otherwise.
    hand = trick_hand([FILLER, FILLER, ["KD", "AD", "2S", "3D"]])
    nil = (3, 0, 3, 3)
    assert trick_bonus(hand, bids=nil, last_trick_ace_nil=True) == [0, 20]
    assert trick_bonus(hand, bids=nil, blind=(False, True, False, False),
                       last_trick_ace_nil=True) == [0, 20]
    assert trick_bonus(hand, bids=nil, last_trick_ace_nil=True, nil_bonus=50) == [0, 10]
    assert trick_bonus(hand, last_trick_ace_nil=True) == [0, 0]
    assert trick_bonus(hand, bids=nil, last_trick_ace=True) == [0, 0]  # won by a 2 of spades


def test_last_trick_deuce():
    # 2C led, nobody follows or trumps: the deuce wins, +30; the 2 of spades does not count.
    assert trick_bonus(trick_hand([FILLER, FILLER, ["2C", "3H", "4D", "5H"]]),
                       last_trick_deuce=True) == [30, 0]
    assert trick_bonus(trick_hand([FILLER, FILLER, ["2S", "3H", "4D", "5H"]]),
                       last_trick_deuce=True) == [0, 0]


def test_last_trick_high_spade():
    # Seat 0 wins 12 fillers + trick 13 with 9S... the fillers: 12 tricks won by seat 0, then
    # trick 13 led by seat 0. Seat 0 takes 13; his bid must be 13.
    hand = trick_hand([FILLER, FILLER, ["9S", "2H", "3H", "4H"]])
    assert hand["tricks"] == [13, 0, 0, 0]
    assert trick_bonus(hand, bids=(13, 0, 0, 0), last_trick_high_spade=True) == [10, 0]
    assert trick_bonus(hand, bids=(12, 0, 1, 0), last_trick_high_spade=True) == [0, 0]
    hand = trick_hand([FILLER, FILLER, ["8S", "2H", "3H", "4H"]])  # below 9: none
    assert trick_bonus(hand, bids=(13, 0, 0, 0), last_trick_high_spade=True) == [0, 0]
    # seat 3 leads trick 13 after winning trick 12 and takes 2 tricks, his bid
    hand = trick_hand([FILLER, ["2D", "3D", "4D", "KD"], ["TS", "2H", "3H", "4H"]])
    assert hand["tricks"] == [11, 0, 0, 2] and hand["winners"][-1] == 3
    assert trick_bonus(hand, bids=(5, 3, 3, 2), last_trick_high_spade=True) == [0, 10]


def test_trick_bonuses_in_a_replayed_hand():
    # The sequenced deal: seat 3 wins tricks 11-13 (the last with 2S): last trick 10 + streak 30.
    winners = [0, 1, 2, 3, 0, 1, 2, 3, 1, 1, 3, 3, 3]
    out = replay(played([3, 3, 3, 3], winners), **FREE, last_trick_bonus=True, end_streak=True,
                 last_trick_ace=True, last_trick_deuce=True, dix=True)
    assert out["tricks"] == [2, 4, 2, 5]
    assert out["components"]["trick_bonus"] == [0, 40]
    assert out["points"] == [-60 + 0, 60 + 3 + 40]


@pytest.mark.parametrize("key", [*ref.TRICK_BONUSES, "bag_cancel_card"])
def test_score_sheets_refused_when_the_play_is_needed(key):
    value = "7H" if key == "bag_cancel_card" else True
    with pytest.raises(ValueError, match="score sheet"):
        replay(sheet([3, 4, 2, 4], [5, 2, 3, 3]), **{key: value})


# --- section 4.8 defeat_score -----------------------------------------------------------------


def test_defeat_score():
    rules = {"defeat_score": True, "target_score": 300, "mercy_score": None}
    assert ref.game_over([-300, 20], 5, rules) == (True, 1)  # at -target: loses
    assert ref.game_over([20, -301], 5, rules) == (True, 0)
    assert ref.game_over([-299, 20], 5, rules) == (False, None)
    assert ref.game_over([-300, -300], 5, rules) == (False, None)  # a tie plays on
    assert ref.game_over([-300, 20], 5, {**rules, "defeat_score": False}) == (False, None)


# --- what cannot be played ---------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "key"), [
    ({"three_b": True, "quicksand": True}, "quicksand"),
    ({"exact": "side", "three_b": True}, "exact"),
    ({"bags_negative": True, "no_overs": True}, "bags_negative"),
    ({"highlander": True, "exact": "player"}, "highlander"),
    ({"highlander": True, "seven_plus": "per_trick"}, "highlander"),
    ({"highlander": True, "bag_cancel_card": "7H"}, "highlander"),
    ({"highlander": True, "bags_in_units_digit": True}, "highlander"),
    ({"highlander": True, "set_to_opponents": True}, "highlander"),
    ({"bags_in_units_digit": True, "bag_limit": 11}, "bags_in_units_digit"),
    ({"bags_in_units_digit": True, "no_overs": True}, "bags_in_units_digit"),
    ({"bag_cancel_card": "7H", "quicksand": True}, "bag_cancel_card"),
    ({"bag_cancel_card": "7H", "three_b": True}, "bag_cancel_card"),
    ({"bag_cancel_card": "10H"}, "bag_cancel_card"),
    ({"exact": "team"}, "exact"),
    ({"seven_plus": "always"}, "seven_plus"),
    ({"dix": 1}, "dix"),
    ({"defeat_score": True, "target_score": None, "max_hands": 5}, "defeat_score"),
])
def test_impossible_combinations(rules, key):
    with pytest.raises(ValueError, match=key):
        ref.resolve_rules(rules)


def test_possible_combinations():
    for rules in ({"highlander": True, "exact_pair_bonus": True, "book_made": True},
                  {"highlander": True, "no_minus": True, "double_over": True},
                  {"double_over": True, "set_to_opponents": True, "no_minus": True,
                   "exact": "side"},
                  {"quicksand": True, "seven_plus": "progressive", "set_to_opponents": True},
                  {"bags_in_units_digit": True, "bag_limit": 10, "bag_cancel_card": "cut"},
                  {"bags_in_units_digit": True, "quicksand": True, "bag_cancel_card": "7H"},
                  {"bags_in_units_digit": True, "three_b": True},
                  {"bags_negative": True, "bag_cancel_card": "AS", "exact": "player"},
                  dict.fromkeys(ref.TRICK_BONUSES, True)):
        ref.resolve_rules(rules)


def test_bags_taken_as_the_standard_game_counts_them():
    # Side 0 bids 3 + 2 = 5 and takes 8: 3 bags, whatever quicksand makes of them; side 1 bids
    # 8 and takes 5: set, none.
    assert ref.bags_taken([3, 4, 2, 4], [4, 1, 4, 4], {"quicksand": True}) == [3, 0]
    # a nil bidder's trick under bags_only is one, set or not (seat 2 bid 5 took 4); under
    # "ignored" none; side 1 bids 4 + 3 and takes 8: 1
    assert ref.bags_taken([0, 4, 5, 3], [1, 2, 4, 6], {}) == [1, 1]
    assert ref.bags_taken([0, 4, 5, 3], [1, 2, 4, 6], {"nil_tricks": "ignored"}) == [0, 1]
    # two nils under "count": every trick; a wheel under ten_for_200_exact: the tricks above 10
    assert ref.bags_taken([0, 2, 0, 1], [1, 5, 2, 5], {"nil_tricks": "count"}) == [3, 7]
    wheel = {"ten_for_two_hundred": True, "ten_for_200_exact": True}
    assert ref.bags_taken([None, 0, None, 1], [6, 0, 6, 1], wheel,
                          side_contracts=["wheel", None]) == [2, 0]


def test_exact_and_two_nils_under_count():
    # nil_tricks = "count": side 0 bid two nils and took 3 (seat 0): both nils -100 +100 = 0.
    # exact = "side": 3 tricks over a contract of 0 are scored as its set: no bags (the engine's
    # reading of exact since its first version); exact = "player": no non-nil bidder missed
    # his bid, the 3 tricks are bags as without exact.
    rec = sheet([0, 1, 0, 3], [3, 4, 0, 6])
    for exact, bags in (("side", 0), ("player", 3), (None, 3)):
        out = replay(rec, nil_tricks="count", exact=exact)
        assert out["components"]["overtricks"][0] == bags and out["after"]["bags"][0] == bags
