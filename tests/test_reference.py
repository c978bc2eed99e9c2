"""Tests of the scalar Spades reference (tests/reference.py) against hand-derived expectations.

Every expected number below is worked out by hand from RULES.md section 3 (or quoted from the seed
and pagat) in the comment next to it; none was copied from the implementation's output.

Sources quoted:
* Seed 003 (RULES.md section 3 table): bid 5, take 8 -> +53; a side on 108 with 8 bags -> 161,
  11 bags, pays 100 -> 61 with 1 bag; a successful nil with the partner bidding 5 and taking 4 ->
  -50 + 100 = +50; a failed nil with the partner bidding and taking 5 -> -50.
* pagat, "Spades" (John McLeod), https://www.pagat.com/auctionwhist/spades.html, sections "The
  Bidding" and "Scoring" (text as reproduced verbatim in public rule copies; the page itself
  could not be fetched from here).
"""

from __future__ import annotations

import pytest

import reference as ref

IllegalBid = ref.IllegalBid
IllegalPlay = ref.IllegalPlay


def sheet(bids, tricks, *, dealer=0, blind=None, scores=(0, 0), bags=(0, 0)):
    """A score-sheet mode record (RULES.md section 5)."""
    rec = {
        "dealer": dealer,
        "bids": list(bids),
        "tricks": list(tricks),
        "before": {"scores": list(scores), "bags": list(bags)},
    }
    if blind is not None:
        rec["blind"] = list(blind)
    return rec


def comps(out, side):
    c = out["components"]
    return (c["contract"][side], c["overtricks"][side], c["bag_penalty"][side], c["nil"][side])


# --- cards and tricks --------------------------------------------------------------------------


def test_parse_card():
    assert ref.parse_card("AS") == (14, "S")
    assert ref.parse_card("2C") == (2, "C")
    assert ref.parse_card("TH") == (10, "H")
    for bad in ("10H", "1S", "AX", "as", "", "A"):
        with pytest.raises(ValueError):
            ref.parse_card(bad)
    assert len(set(ref.DECK)) == 52


def test_trick_winner():
    # Led heart, no spade: highest heart wins; the off-suit ace of clubs cannot win.
    # trick[i] is played by seat (leader + i): leader 2 -> seats 2, 3, 0, 1.
    assert ref.trick_winner(["5H", "KH", "AC", "9H"], leader=2) == 3  # KH by seat 3
    # A low spade trumps; the higher of two spades wins.
    assert ref.trick_winner(["AH", "2S", "KH", "3S"], leader=0) == 3  # 3S by seat 3
    assert ref.trick_winner(["AH", "2S", "KH", "QH"], leader=1) == 2  # 2S by seat 2
    # Spades led: highest spade.
    assert ref.trick_winner(["TS", "AS", "KS", "AD"], leader=3) == 0  # AS by seat 0


# --- bidding -----------------------------------------------------------------------------------


def test_legal_bids_standard():
    out = ref.legal_bids(1, {}, [0, 0], ref.STANDARD)
    assert out["bids"] == list(range(0, 14))  # 0 (nil) .. 13
    assert out["blind_nil"] is False  # not trailing by 100


def test_blind_nil_deficit_rule():
    # Seat 1 is side 1. Side 1 trails 250 - 150 = 100 >= 100: allowed.
    assert ref.legal_bids(1, {}, [250, 150], ref.STANDARD)["blind_nil"] is True
    # Trailing by 99: not allowed.
    assert ref.legal_bids(1, {}, [250, 151], ref.STANDARD)["blind_nil"] is False
    # Side 0 (seat 2) leads by 100: not allowed; seat 3 (side 1) may.
    assert ref.legal_bids(2, {}, [250, 150], ref.STANDARD)["blind_nil"] is False
    assert ref.legal_bids(3, {}, [250, 150], ref.STANDARD)["blind_nil"] is True
    # blind_nil_min_deficit = 0 means always, even when leading.
    always = {"blind_nil_min_deficit": 0}
    assert ref.legal_bids(0, {}, [400, -50], always)["blind_nil"] is True
    # Switched off, or with nil off (a blind nil is a nil bid).
    assert ref.legal_bids(1, {}, [300, 0], {"blind_nil": False})["blind_nil"] is False
    assert ref.legal_bids(1, {}, [300, 0], {"nil": False})["blind_nil"] is False
    # OpenSpiel has no blind nil.
    assert ref.legal_bids(1, {}, [300, 0], ref.OPENSPIEL)["blind_nil"] is False


def test_nil_off_minimum_bid_is_one():
    assert ref.legal_bids(0, {}, [0, 0], {"nil": False})["bids"] == list(range(1, 14))


def test_max_team_bid_keeps_room_for_the_partner_still_to_bid():
    # Without nil the partner still to bid needs at least 1 (4 under fledu): max 10 -> first
    # partner 1..9 (fledu: 4..6); with nil he can always bid nil: 0..10.
    no_nil = {"nil": False, "blind_nil": False, "max_team_bid": 10}
    assert bids_of(0, {}, no_nil) == list(range(1, 10))
    assert bids_of(0, {}, {**no_nil, "fledu": True}) == [4, 5, 6]
    assert bids_of(0, {}, {"max_team_bid": 10}) == list(range(0, 11))
    # The second partner: 10 minus the partner's bid.
    assert bids_of(2, {0: 6}, {**no_nil, "fledu": True}) == [4]


def test_max_team_bid():
    # Partner (seat 3 for seat 1) bid 9; with max 13 seat 1 may bid 0..4.
    assert ref.legal_bids(1, {3: 9, 0: 12}, [0, 0], ref.OPENSPIEL)["bids"] == [0, 1, 2, 3, 4]
    # Opponents' bids do not matter; a nil partner counts 0.
    assert ref.legal_bids(1, {0: 13, 2: 13, 3: 0}, [0, 0], ref.OPENSPIEL)["bids"] == list(range(14))
    # No partner bid yet: anything up to 13.
    assert ref.legal_bids(2, {1: 5}, [0, 0], ref.OPENSPIEL)["bids"] == list(range(14))
    # Partner bid 13: only nil fits.
    assert ref.legal_bids(0, {2: 13}, [0, 0], ref.OPENSPIEL)["bids"] == [0]
    # Without the key, no limit.
    assert ref.legal_bids(0, {2: 13}, [0, 0], ref.STANDARD)["bids"] == list(range(14))


def test_illegal_bids_in_records():
    # Dealer 3: bidding order 0, 1, 2, 3. Seat 0 bids 7, seat 2 bids 7: 14 > 13 at seat 2.
    with pytest.raises(IllegalBid, match="seat 2"):
        ref.replay_hand(sheet([7, 0, 7, 0], [7, 0, 6, 0], dealer=3), ref.OPENSPIEL)
    # Dealer 0: bidding order 1, 2, 3, 0, so seat 0 bids after seat 2 and is the offender.
    with pytest.raises(IllegalBid, match="seat 0"):
        ref.replay_hand(sheet([7, 0, 7, 0], [7, 0, 6, 0], dealer=0), ref.OPENSPIEL)
    # The same bids are fine without max_team_bid.
    ref.replay_hand(sheet([7, 1, 5, 0], [7, 0, 6, 0], dealer=0), ref.STANDARD)
    # Nil with nil = false.
    with pytest.raises(IllegalBid, match="seat 1.*nil"):
        ref.replay_hand(sheet([3, 0, 4, 5], [3, 1, 4, 5]), {"nil": False})
    # Bid out of range.
    with pytest.raises(IllegalBid, match="seat 3"):
        ref.replay_hand(sheet([3, 1, 4, 14], [3, 1, 4, 5]))
    # A blind bid other than blind nil does not exist in section 3.
    with pytest.raises(IllegalBid, match="seat 1.*blind"):
        ref.replay_hand(sheet([3, 4, 4, 2], [3, 4, 4, 2], blind=[0, 1, 0, 0], scores=(200, 0)))
    # Blind nil by a side that does not trail by 100 (side 1 trails by 50 only).
    with pytest.raises(IllegalBid, match="seat 1.*blind nil"):
        ref.replay_hand(sheet([3, 0, 4, 2], [3, 0, 5, 5], blind=[0, 1, 0, 0], scores=(50, 0)))


# --- play legality -----------------------------------------------------------------------------


def test_must_follow():
    hand = ["AH", "2H", "KS", "3C"]
    assert ref.legal_plays(hand, ["5H"], False, ref.STANDARD) == ["AH", "2H"]
    assert ref.legal_plays(["KS", "3C"], ["5H"], False, ref.STANDARD) == ["KS", "3C"]  # void
    # Spades led: must follow with a spade.
    assert ref.legal_plays(["2S", "AH"], ["KS", "3S"], True, ref.STANDARD) == ["2S"]
    # Void in spades when spades are led: anything.
    assert ref.legal_plays(["AH", "2D"], ["KS"], True, ref.STANDARD) == ["AH", "2D"]


def test_spade_lead_standard_broken_rule():
    # spades_broken = True (default): no spade lead before a spade fell on an earlier trick ...
    assert ref.legal_plays(["AS", "2H", "3S"], [], False, ref.STANDARD) == ["2H"]
    # ... unless the leader holds only spades ...
    assert ref.legal_plays(["AS", "3S"], [], False, ref.STANDARD) == ["AS", "3S"]
    # ... and anything once broken.
    assert ref.legal_plays(["AS", "2H", "3S"], [], True, ref.STANDARD) == ["AS", "2H", "3S"]


def test_spade_lead_false_and_never():
    # spades_broken = False: spades may be led at any time.
    assert ref.legal_plays(["AS", "2H"], [], False, {"spades_broken": False}) == ["AS", "2H"]
    # "never": even after spades have been played, a spade lead needs a hand of only spades.
    assert ref.legal_plays(["AS", "2H"], [], True, ref.OPENSPIEL) == ["2H"]
    assert ref.legal_plays(["AS", "2H"], [], False, ref.OPENSPIEL) == ["2H"]
    assert ref.legal_plays(["AS", "KS"], [], False, ref.OPENSPIEL) == ["AS", "KS"]
    # "never" does not affect following.
    assert ref.legal_plays(["AS", "2H"], ["KS"], False, ref.OPENSPIEL) == ["AS"]


# --- a complete hand, derived trick by trick ---------------------------------------------------
#
# The deal: seat p holds, in suit number s (S=0, H=1, D=2, C=3), the ranks whose index i (2=0 ..
# A=12) has (i + s) % 4 == p. So every seat has 4 cards of one suit and 3 of the others.
HANDS = [
    ["2S", "6S", "TS", "AS", "5H", "9H", "KH", "4D", "8D", "QD", "3C", "7C", "JC"],
    ["3S", "7S", "JS", "2H", "6H", "TH", "AH", "5D", "9D", "KD", "4C", "8C", "QC"],
    ["4S", "8S", "QS", "3H", "7H", "JH", "2D", "6D", "TD", "AD", "5C", "9C", "KC"],
    ["5S", "9S", "KS", "4H", "8H", "QH", "3D", "7D", "JD", "2C", "6C", "TC", "AC"],
]
# Dealer 3, so seat 0 leads trick 1. Each line: the four cards in play order, starting with the
# leader; the comment gives the leader, the winner and why.
TRICKS = [
    ["KH", "AH", "3H", "4H"],  # 1  leader 0; hearts only: AH (seat 1) wins
    ["6H", "7H", "8H", "9H"],  # 2  leader 1 -> seats 1,2,3,0; 9H (seat 0) highest heart
    ["5H", "TH", "JH", "QH"],  # 3  leader 0; QH (seat 3). Seats 0, 2, 3 are now void in hearts
    ["AC", "3C", "4C", "5C"],  # 4  leader 3 -> 3,0,1,2; AC (seat 3)
    ["2C", "7C", "8C", "9C"],  # 5  leader 3; 9C (seat 2)
    ["KC", "6C", "JC", "QC"],  # 6  leader 2 -> 2,3,0,1; KC (seat 2). Only seat 3 keeps a club (TC)
    ["AD", "3D", "4D", "5D"],  # 7  leader 2; AD (seat 2)
    ["2D", "7D", "8D", "9D"],  # 8  leader 2; 9D (seat 1)
    ["2H", "4S", "5S", "QD"],  # 9  leader 1 -> 1,2,3,0; seats 2, 3 trump, 0 discards: 5S (seat 3)
    ["KS", "AS", "3S", "8S"],  # 10 leader 3 -> 3,0,1,2; spades broken in trick 9; AS (seat 0)
    ["TS", "JS", "QS", "9S"],  # 11 leader 0; QS (seat 2)
    ["TD", "JD", "2S", "KD"],  # 12 leader 2 -> 2,3,0,1; seat 0 void in diamonds trumps: seat 0
    ["6S", "7S", "6D", "TC"],  # 13 leader 0; 7S (seat 1) is the higher spade
]
WINNERS = [1, 0, 3, 3, 2, 2, 2, 1, 3, 0, 2, 0, 1]
# Tricks per seat from WINNERS: seat 0: 2, 10, 12 -> 3; seat 1: 1, 8, 13 -> 3;
# seat 2: 5, 6, 7, 11 -> 4; seat 3: 3, 4, 9 -> 3. Side 0 = 3 + 4 = 7, side 1 = 3 + 3 = 6.
TRICK_COUNTS = [3, 3, 4, 3]
PLAYS = [card for trick in TRICKS for card in trick]


def full_record(bids, **extra):
    return {"dealer": 3, "hands": HANDS, "bids": list(bids), "plays": list(PLAYS), **extra}


def test_hand_data_is_a_deal():
    assert sorted(c for h in HANDS for c in h) == sorted(ref.DECK)
    assert sorted(PLAYS) == sorted(ref.DECK)


def test_full_hand_replay():
    # Bids 3 + 3 = 6 for side 0 (takes 7): 60 + 1 bag = 61; 2 + 3 = 5 for side 1 (takes 6): 51.
    out = ref.replay_hand(full_record([3, 2, 3, 3]), ref.STANDARD)
    assert out["winners"] == WINNERS
    assert out["tricks"] == TRICK_COUNTS
    assert out["points"] == [61, 51]
    assert comps(out, 0) == (60, 1, 0, 0)
    assert comps(out, 1) == (50, 1, 0, 0)
    assert out["after"] == {"scores": [61, 51], "bags": [1, 1]}


def test_full_hand_same_under_other_spade_rules():
    # spades_broken = False only allows more: the same plays replay to the same result.
    out = ref.replay_hand(full_record([3, 2, 3, 3]), {"spades_broken": False})
    assert out["winners"] == WINNERS


def test_full_hand_nil_tricks_readings():
    # Seat 0 bids nil and takes 3 tricks (fails: -100); seat 2 bids 5 and takes 4.
    # Side 1 bids 3 + 3 = 6 and takes 6: +60 in every reading.
    bids = [0, 3, 5, 3]
    # bags_only: counted = 4 < 5 -> set -50; seat 0's 3 tricks are 3 bags (+3); -100.
    # -50 + 3 - 100 = -147.
    out = ref.replay_hand(full_record(bids), {"nil_tricks": "bags_only"})
    assert comps(out, 0) == (-50, 3, 0, -100) and out["points"] == [-147, 60]
    # count: counted = 4 + 3 = 7 >= 5 -> +50, 2 overtricks; -100. 50 + 2 - 100 = -48.
    out = ref.replay_hand(full_record(bids), {"nil_tricks": "count"})
    assert comps(out, 0) == (50, 2, 0, -100) and out["points"] == [-48, 60]
    # ignored: set -50, no bags; -100. -150.
    out = ref.replay_hand(full_record(bids), {"nil_tricks": "ignored"})
    assert comps(out, 0) == (-50, 0, 0, -100) and out["points"] == [-150, 60]


def test_full_hand_never_rule_rejects_spade_lead():
    # Under "never", seat 3 may not lead KS in trick 10: he still holds JD and TC.
    with pytest.raises(IllegalPlay, match=r"trick 10, seat 3.*spade") as exc:
        ref.replay_hand(full_record([3, 2, 3, 3]), ref.OPENSPIEL)
    assert "KS" in str(exc.value)


# --- illegal plays: messages name the trick (1-based), the seat and the reason -----------------


def truncated(plays):
    """The first few plays of the hand above with a deliberate error at the end (the replay stops
    at the first illegal card, before noticing that the hand is incomplete)."""
    return full_record([3, 2, 3, 3]) | {"plays": plays}


def test_illegal_play_must_follow():
    # Trick 1: seat 0 leads KH; seat 1 holds four hearts but plays 3S.
    with pytest.raises(IllegalPlay, match=r"trick 1, seat 1.*must follow suit H"):
        ref.replay_hand(truncated(["KH", "3S"]), ref.STANDARD)


def test_illegal_play_spades_not_broken():
    # Trick 4: seat 3 leads KS instead of AC; no spade has been played, seat 3 holds other suits.
    with pytest.raises(IllegalPlay, match=r"trick 4, seat 3.*spades not broken"):
        ref.replay_hand(truncated(PLAYS[:12] + ["KS"]), ref.STANDARD)


def test_illegal_play_not_in_hand():
    # Trick 1: seat 2 plays AS, which was dealt to seat 0.
    with pytest.raises(IllegalPlay, match=r"trick 1, seat 2.*not in hand"):
        ref.replay_hand(truncated(["KH", "AH", "AS"]), ref.STANDARD)
    # Trick 2: seat 1 (who won trick 1) leads AH again: already played.
    with pytest.raises(IllegalPlay, match=r"trick 2, seat 1.*already played"):
        ref.replay_hand(truncated(PLAYS[:4] + ["AH"]), ref.STANDARD)
    # Not a card at all.
    with pytest.raises(IllegalPlay, match=r"trick 1, seat 0.*not a card"):
        ref.replay_hand(truncated(["1H"]), ref.STANDARD)
    # Trick 1: seat 0 leads 2H, a card of seat 1's hand.
    with pytest.raises(IllegalPlay, match=r"trick 1, seat 0"):
        ref.replay_hand(truncated(["2H"]), ref.STANDARD)


def test_incomplete_hand_is_an_error():
    with pytest.raises(ValueError, match="incomplete"):
        ref.replay_hand(truncated(PLAYS[:8]), ref.STANDARD)


def test_first_lead_is_left_of_dealer():
    # With dealer 0 the first card belongs to seat 1; KH is seat 0's card.
    rec = full_record([3, 2, 3, 3]) | {"dealer": 0}
    with pytest.raises(IllegalPlay, match=r"trick 1, seat 1.*not in hand"):
        ref.replay_hand(rec, ref.STANDARD)


def test_one_suit_each_hand():
    # Seat 0 holds all the spades, seat 1 hearts, seat 2 diamonds, seat 3 clubs; dealer 3.
    # Seat 0 leads (only spades, so legal before they are broken) and wins every trick: the
    # others are void and cannot follow or trump.
    hands = [[r + s for r in ref.RANKS] for s in "SHDC"]
    plays = []
    for i in range(13):
        plays += [hands[0][i], hands[1][i], hands[2][i], hands[3][i]]
    rec = {"dealer": 3, "hands": hands, "bids": [13, 0, 0, 0], "plays": plays}
    out = ref.replay_hand(rec, {"blind_nil": False})
    assert out["winners"] == [0] * 13
    assert out["tricks"] == [13, 0, 0, 0]
    # Side 0: contract 13 (seat 2's nil apart), made: +130; seat 2's nil made: +100 -> 230.
    # Side 1: both nil, both made: +200, no tricks, no bags.
    assert out["points"] == [230, 200]


# --- scoring: the seed's examples (RULES.md section 3) -----------------------------------------


def test_seed_bid_5_take_8_scores_53():
    # Side 0 bids 3 + 2 = 5 and takes 5 + 3 = 8: 50 + 3 overtricks = 53.
    # Side 1 bids 4 + 4 = 8 and takes 2 + 3 = 5: set, -80.
    out = ref.replay_hand(sheet([3, 4, 2, 4], [5, 2, 3, 3]))
    assert out["points"] == [53, -80]
    assert comps(out, 0) == (50, 3, 0, 0)
    assert out["after"]["bags"] == [3, 0]
    assert out["winners"] is None  # score-sheet mode


def test_seed_bag_out_108_to_61():
    # Seed: the side had 108 with 8 bags; +53 -> 161 and 11 bags; pays 100 -> 61, 1 bag left.
    out = ref.replay_hand(sheet([3, 4, 2, 4], [5, 2, 3, 3], scores=(108, 0), bags=(8, 0)))
    assert comps(out, 0) == (50, 3, -100, 0)
    assert out["points"][0] == -47  # 53 - 100
    assert out["after"]["scores"][0] == 61
    assert out["after"]["bags"][0] == 1


def test_seed_nil_made_partner_set():
    # Seed: nil made (+100), partner bids 5 and takes 4 (-50): the side scores +50.
    out = ref.replay_hand(sheet([0, 4, 5, 3], [0, 5, 4, 4]))
    assert comps(out, 0) == (-50, 0, 0, 100)
    assert out["points"][0] == 50


def test_seed_nil_failed_partner_made():
    # Seed: nil fails (-100), partner bids and takes 5 (+50): net -50. The seed counts no bag for
    # the nil bidder's trick, which is the "ignored" reading (seat 0 takes 1 trick here).
    out = ref.replay_hand(sheet([0, 4, 5, 3], [1, 4, 5, 3]), {"nil_tricks": "ignored"})
    assert out["points"][0] == -50
    # Under the default "bags_only" that trick is also a bag: -50 + 1 = -49, 1 bag.
    out = ref.replay_hand(sheet([0, 4, 5, 3], [1, 4, 5, 3]))
    assert comps(out, 0) == (50, 1, 0, -100)
    assert out["points"][0] == -49 and out["after"]["bags"][0] == 1


# --- scoring: pagat, https://www.pagat.com/auctionwhist/spades.html ----------------------------


@pytest.mark.parametrize(
    ("taken", "points", "score_after", "bags_after"),
    [
        # pagat, "Scoring", sandbagging rule: "Example: Suppose a team whose score is 337 bids 5
        # tricks. If they win 7 tricks they score 52, taking their score to 389. If they win 8
        # tricks they score 53, but lose 100 because they now have 10 bags, and their score
        # becomes 290 (337 + 53 - 100). If they win 9 tricks they score 54 and lose 100, bringing
        # their score to 291." pagat notes that the bag count is the units digit of the score,
        # so 337 means 7 bags.
        (7, 52, 389, 9),  # 50 + 2; 7 + 2 = 9 bags, no penalty
        (8, 53 - 100, 290, 0),  # 50 + 3; 7 + 3 = 10 bags -> -100, 0 left
        (9, 54 - 100, 291, 1),  # 50 + 4; 7 + 4 = 11 bags -> -100, 1 left
    ],
)
def test_pagat_337_example(taken, points, score_after, bags_after):
    # Side 0 bids 2 + 3 = 5 and takes `taken` (split between the partners), side 1 the rest.
    tricks = [taken - 3, 0, 3, 13 - taken]
    out = ref.replay_hand(sheet([2, 4, 3, 4], tricks, scores=(337, 0), bags=(7, 0)))
    assert out["points"][0] == points
    assert out["after"]["scores"][0] == score_after
    assert out["after"]["bags"][0] == bags_after


def test_pagat_bidding_example():
    # pagat, "The Bidding": "South deals; West bids 3; North bids 1; East bids 4; South bids 4.
    # The objective of North and South is to win at least 5 tricks (4+1), East and West try to
    # win at least 7 (4+3)." Seats clockwise North 0, East 1, South 2, West 3: dealer 2, so the
    # bidding order West, North, East, South is 3, 0, 1, 2 as pagat says.
    bids = [1, 4, 4, 3]
    # N-S take 1 + 3 = 4 tricks (set on 5: -50); E-W take 5 + 4 = 9 (made 7: 70 + 2 = 72).
    out = ref.replay_hand(sheet(bids, [1, 5, 3, 4], dealer=2))
    assert out["components"]["contract"] == [-50, 70]
    assert out["points"] == [-50, 72]


def test_pagat_nil_rules():
    # pagat, "Scoring": a successful nil gets 100 "in addition to the score won (or lost) by the
    # partner"; a failed nil loses 100 "but still receives any amount scored for the partner's
    # bid"; "the usual rule is that when a nil fails, the tricks won by the nil bidder do not
    # count towards making the partner's bid, but do count as bags for the team".
    # North (0) nil takes 2, South (2) bids 4 and takes 3: the nil tricks do not rescue South:
    # -40 (set) + 2 bags - 100 = -138.
    out = ref.replay_hand(sheet([0, 4, 4, 2], [2, 5, 3, 3]))
    assert comps(out, 0) == (-40, 2, 0, -100)
    assert out["points"][0] == -138
    # Nil made, South bids 4 and takes 6: 40 + 2 + 100 = 142.
    out = ref.replay_hand(sheet([0, 4, 4, 2], [0, 4, 6, 3]))
    assert out["points"][0] == 142


def test_pagat_blind_nil_is_double():
    # pagat: "A bid of blind nil scores twice as much as an ordinary nil - it wins 200 points if
    # successful and loses 200 points if it fails." Side 0 trails 0 - 150 = -150: allowed.
    # Made: seat 0 takes 0; seat 2 bids 4, takes 5: 40 + 1 + 200 = 241.
    rec = sheet([0, 3, 4, 3], [0, 4, 5, 4], blind=[1, 0, 0, 0], scores=(0, 150))
    out = ref.replay_hand(rec)
    assert comps(out, 0) == (40, 1, 0, 200) and out["points"][0] == 241
    # Side 1: 3 + 3 = 6, takes 8: 60 + 2 = 62.
    assert out["points"][1] == 62
    # Failed: seat 0 takes 1 trick (a bag under bags_only); seat 2 bids 4, takes 4:
    # 40 + 1 - 200 = -159.
    rec = sheet([0, 3, 4, 3], [1, 4, 4, 4], blind=[1, 0, 0, 0], scores=(0, 150))
    out = ref.replay_hand(rec)
    assert comps(out, 0) == (40, 1, 0, -200) and out["points"][0] == -159


# --- scoring: other section 3 cases ------------------------------------------------------------


@pytest.mark.parametrize(
    ("nil_tricks", "side0"),
    [
        # Both of side 0 bid nil and fail (seat 0 takes 1, seat 2 takes 2): -100 - 100 = -200,
        # no contract. Their 3 tricks: "count" -> all bags (+3); "bags_only" -> all nil tricks,
        # so bags (+3); "ignored" -> nothing.
        ("count", (0, 3, 0, -200)),
        ("bags_only", (0, 3, 0, -200)),
        ("ignored", (0, 0, 0, -200)),
    ],
)
def test_double_nil(nil_tricks, side0):
    out = ref.replay_hand(sheet([0, 3, 0, 4], [1, 6, 2, 4]), {"nil_tricks": nil_tricks})
    assert comps(out, 0) == side0
    # Side 1: 3 + 4 = 7, takes 10: 70 + 3 = 73.
    assert out["points"][1] == 73


def test_double_nil_made():
    # Both nils made: +200; side 1 bids 7 and takes all 13: 70 + 6 = 76.
    out = ref.replay_hand(sheet([0, 3, 0, 4], [0, 7, 0, 6]))
    assert out["points"] == [200, 76]


def test_openspiel_count_reading():
    # OpenSpiel: the nil bidder's tricks count for the partner. Seat 0 nil takes 2, seat 2 bids 4
    # and takes 3: counted 5 >= 4 -> 40 + 1 - 100 = -59. (Under bags_only it would be -138, see
    # test_pagat_nil_rules.) Side 1: 4 + 2 = 6, takes 8: 60 + 2 = 62.
    out = ref.replay_hand(sheet([0, 4, 4, 2], [2, 5, 3, 3], dealer=3), ref.OPENSPIEL)
    assert comps(out, 0) == (40, 1, 0, -100)
    assert out["points"] == [-59, 62]


def test_several_bag_penalties_in_one_hand():
    # 9 bags before; side 0 bids 1 + 1 = 2 and takes 13: 20 + 11 bags = 31;
    # 9 + 11 = 20 bags -> two penalties (-200), 0 left. Side 1 bids 1 + 1, takes 0: -20.
    out = ref.replay_hand(sheet([1, 1, 1, 1], [7, 0, 6, 0], bags=(9, 0)))
    assert comps(out, 0) == (20, 11, -200, 0)
    assert out["points"][0] == -169
    assert out["after"]["bags"][0] == 0
    assert out["points"][1] == -20


def test_short_preset_bags():
    # spades.short: every 5 bags cost 50. 3 bags before; bid 5 take 8: 53, 3 + 3 = 6 bags ->
    # -50, 1 left: points 3.
    out = ref.replay_hand(sheet([3, 4, 2, 4], [5, 2, 3, 3], bags=(3, 0)), ref.SHORT)
    assert comps(out, 0) == (50, 3, -50, 0)
    assert out["points"][0] == 3 and out["after"]["bags"][0] == 1


def test_preset_values():
    assert ref.STANDARD["target_score"] == 500 and ref.STANDARD["mercy_score"] == -200
    assert (ref.SHORT["target_score"], ref.SHORT["bag_limit"], ref.SHORT["bag_penalty"]) == (
        250,
        5,
        50,
    )
    assert ref.OPENSPIEL["nil_tricks"] == "count" and ref.OPENSPIEL["spades_broken"] == "never"
    assert ref.OPENSPIEL["max_team_bid"] == 13 and ref.OPENSPIEL["blind_nil"] is False
    assert ref.OPENSPIEL["mercy_score"] is None


def test_score_sheet_validation():
    with pytest.raises(ValueError, match="13"):
        ref.replay_hand(sheet([3, 4, 2, 4], [5, 2, 3, 4]))  # 14 tricks
    with pytest.raises(ValueError):
        ref.replay_hand(sheet([3, 4, 2, 4], [5, 2, 3, 3]), {"no_such_rule": 1})
    # A record with both plays and tricks must agree.
    with pytest.raises(ValueError, match="tricks"):
        ref.replay_hand(full_record([3, 2, 3, 3]) | {"tricks": [4, 3, 3, 3]}, ref.STANDARD)


# --- game end (RULES.md section 3, section 4.8) ------------------------------------------------


def test_game_over_target():
    assert ref.game_over([500, 300], 5, ref.STANDARD) == (True, 0)
    assert ref.game_over([499, 300], 5, ref.STANDARD) == (False, None)
    # Both past the target: the higher score wins.
    assert ref.game_over([520, 530], 9, ref.STANDARD) == (True, 1)
    # Equal scores play another hand.
    assert ref.game_over([510, 510], 9, ref.STANDARD) == (False, None)
    # spades.short: 250.
    assert ref.game_over([260, 100], 3, ref.SHORT) == (True, 0)


def test_game_over_mercy():
    assert ref.game_over([-200, 100], 2, ref.STANDARD) == (True, 1)  # at the mercy score
    assert ref.game_over([100, -230], 2, ref.STANDARD) == (True, 0)
    assert ref.game_over([-199, 100], 2, ref.STANDARD) == (False, None)
    # Off in OpenSpiel's preset.
    assert ref.game_over([-1000, 0], 2, ref.OPENSPIEL) == (False, None)
    # Reading: both at or below it -> the higher score wins.
    assert ref.game_over([-250, -300], 4, ref.STANDARD) == (True, 0)


def test_game_over_max_hands():
    rules = {"max_hands": 8}
    assert ref.game_over([300, 250], 7, rules) == (False, None)
    assert ref.game_over([300, 250], 8, rules) == (True, 0)
    assert ref.game_over([300, 300], 8, rules) == (False, None)  # tie: play on
    assert ref.game_over([300, 310], 9, rules) == (True, 1)


# --- section 4.4 bid keys: the legal bids at each turn ----------------------------------------
#
# Bids are made from the dealer's left; legal_bids gets the bids made before the turn. A side's
# "second partner" is the one whose partner has already bid; the "fourth bidder" bids last.

ALL = list(range(14))


def bids_of(seat, made, rules, hand=None, scores=(0, 0)):
    return ref.legal_bids(seat, made, list(scores), rules, hand)["bids"]


def blind_ok(seat, made, rules, scores=(0, 0)):
    return ref.legal_bids(seat, made, list(scores), {"blind_nil_min_deficit": 0, **rules})[
        "blind_nil"]


def test_min_team_bid_legal_bids():
    k4 = {"min_team_bid": 4}
    # The first partner of a side is unconstrained (seat 0 bids first, seat 1's partner has not
    # bid either).
    assert bids_of(0, {}, k4) == ALL
    assert bids_of(1, {0: 2}, k4) == ALL
    # After a nil partner: nil (double nil) or at least 4.
    assert bids_of(2, {0: 0, 1: 3}, k4) == [0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    # After 1: at least 3, no nil (the side would bid 1 < 4).
    assert bids_of(2, {0: 1, 1: 3}, k4) == list(range(3, 14))
    # After 3: at least 1 (4 - 3), no nil.
    assert bids_of(2, {0: 3, 1: 3}, k4) == list(range(1, 14))
    # After 4 or more: anything, nil included (the side already bid 4).
    assert bids_of(2, {0: 4, 1: 3}, k4) == ALL
    assert bids_of(3, {1: 9, 0: 0, 2: 0}, k4) == ALL
    # With max_team_bid 13 too: after 10, 0..3 (nil allowed since 10 >= 4).
    assert bids_of(2, {0: 10}, {**k4, "max_team_bid": 13}) == [0, 1, 2, 3]
    # min_team_bid 6 after 2: at least 4, no nil.
    assert bids_of(3, {1: 2, 2: 5, 0: 0}, {"min_team_bid": 6}) == list(range(4, 14))
    # A blind nil only where nil is legal at that turn.
    assert blind_ok(2, {0: 2}, k4) is False
    assert blind_ok(2, {0: 5}, k4) is True
    assert blind_ok(2, {0: 0}, k4) is True
    assert blind_ok(0, {}, k4) is True


def test_hook_legal_bids():
    hook = {"hook": True}
    # The others bid 3 + 4 + 5 = 12: the fourth bidder may not bid 1.
    assert bids_of(0, {1: 3, 2: 4, 3: 5}, hook) == [0] + list(range(2, 14))
    # The others bid 6 + nil + 7 = 13: no nil, and no blind nil either.
    assert bids_of(0, {1: 6, 2: 0, 3: 7}, hook) == list(range(1, 14))
    assert blind_ok(0, {1: 6, 2: 0, 3: 7}, hook) is False
    assert blind_ok(0, {1: 6, 2: 0, 3: 6}, hook) is True
    # The others bid 14 or more: no bid makes 13.
    assert bids_of(0, {1: 5, 2: 4, 3: 5}, hook) == ALL
    # Others 0 + 0 + 0: 13 is the forbidden bid.
    assert bids_of(3, {0: 0, 1: 0, 2: 0}, hook) == list(range(13))
    # Only the fourth bidder: the third may bid anything.
    assert bids_of(3, {1: 6, 2: 6}, hook) == ALL


def test_suicide_legal_bids():
    s = {"suicide": True}
    # First partner: anything. Second: nil after a non-nil partner; anything after a nil.
    assert bids_of(0, {}, s) == ALL
    assert bids_of(2, {0: 5, 1: 0}, s) == [0]
    assert bids_of(2, {0: 0, 1: 5}, s) == ALL
    assert bids_of(3, {0: 5, 1: 4, 2: 0}, s) == [0]
    # suicide_min_bid 4: a non-nil bid is at least 4 for either partner.
    m4 = {"suicide": True, "suicide_min_bid": 4}
    four_up = [0] + list(range(4, 14))
    assert bids_of(0, {}, m4) == four_up
    assert bids_of(2, {0: 0}, m4) == four_up
    assert bids_of(2, {0: 6}, m4) == [0]
    # Blind nil is always a legal nil under suicide.
    assert blind_ok(2, {0: 6}, s) is True


SPADES_3 = ["AS", "7S", "2S", "KH", "QH", "JH", "TH", "9D", "8D", "7D", "6C", "5C", "4C"]
NO_SPADES = ["AH", "KH", "QH", "JH", "TH", "9D", "8D", "7D", "6C", "5C", "4C", "3C", "2C"]


def test_whiz_and_mirror_legal_bids():
    whiz = {"whiz": True, "blind_nil": False}
    mirror = {"mirror": True, "blind_nil": False}
    assert bids_of(0, {}, whiz, SPADES_3) == [0, 3]
    assert bids_of(0, {}, whiz, NO_SPADES) == [0]
    assert bids_of(0, {}, mirror, SPADES_3) == [3]
    assert bids_of(0, {}, mirror, NO_SPADES) == [0]
    # A partner's bid does not matter (no team minimum).
    assert bids_of(2, {0: 1, 1: 5}, whiz, SPADES_3) == [0, 3]
    # No blind nil.
    assert ref.legal_bids(0, {}, [0, 500], whiz)["blind_nil"] is False
    # Unknown hand (a score sheet): the spade rule cannot be applied.
    assert bids_of(0, {}, whiz) == ALL


def test_fledu_legal_bids():
    assert bids_of(1, {0: 5}, {"fledu": True}) == [0] + list(range(4, 14))
    assert bids_of(1, {}, {"fledu": True, "nil": False, "blind_nil": False}) == list(range(4, 14))
    assert blind_ok(1, {}, {"fledu": True}) is True


def test_moon_and_lexington_bids_after_double_nil():
    # Dealer 0: seats bid 1, 2, 3, 0. Side 1 (seats 1, 3) bids double nil; seat 2 bid 6.
    made = {1: 0, 2: 6, 3: 0}
    no7 = [b for b in ALL if b != 7]
    assert bids_of(0, made, {"moon": True}) == no7  # 6 + 7 = 13 not allowed
    assert bids_of(0, made, {"lexington": True}) == [b for b in ALL if b != 6]  # 6 + 6 = 12
    assert bids_of(0, made, {"moon": True, "lexington": True}) == [b for b in no7 if b != 6]
    # Only one opponent nil: no restriction.
    assert bids_of(0, {1: 0, 2: 6, 3: 2}, {"moon": True}) == ALL
    # The partner bid nil: a 13 would not be a moon (one bid is nil), so it is allowed.
    assert bids_of(0, {1: 0, 2: 0, 3: 0}, {"moon": True}) == ALL
    # The side bidding first is never restricted (the other side's second bid comes later).
    assert bids_of(2, {0: 7, 1: 0}, {"moon": True}) == ALL
    # Without moon: a 13 total is an ordinary bid.
    assert bids_of(0, made, {}) == ALL


def test_new_keys_reject_illegal_bids_in_records():
    # Dealer 0: order 1, 2, 3, 0.
    with pytest.raises(IllegalBid, match="seat 0.*hook"):
        ref.replay_hand(sheet([1, 3, 4, 5], [1, 3, 4, 5]), {"hook": True})
    with pytest.raises(IllegalBid, match="seat 0.*min_team_bid"):
        ref.replay_hand(sheet([1, 3, 1, 5], [1, 3, 4, 5]), {"min_team_bid": 4})
    with pytest.raises(IllegalBid, match="seat 3.*suicide"):
        ref.replay_hand(sheet([0, 3, 4, 5], [1, 3, 4, 5]), {"suicide": True})
    with pytest.raises(IllegalBid, match="seat 1.*fledu"):
        ref.replay_hand(sheet([0, 3, 4, 5], [1, 3, 4, 5]), {"fledu": True})
    with pytest.raises(IllegalBid, match="seat 0.*moon"):
        ref.replay_hand(sheet([7, 0, 6, 0], [7, 0, 6, 0]), {"moon": True})
    # A blind nil where nil is not legal (hook: the others bid 13), the side trailing by 200.
    rec = sheet([0, 6, 0, 7], [0, 6, 0, 7], blind=[1, 0, 0, 0], scores=(0, 200))
    with pytest.raises(IllegalBid, match="seat 0: blind nil.*hook"):
        ref.replay_hand(rec, {"hook": True})
    ref.replay_hand(rec, {})  # legal without hook


def test_whiz_and_mirror_in_full_records():
    # HANDS: seat 0 holds 4 spades (2S 6S TS AS), seats 1, 2, 3 hold 3 each.
    whiz = {"whiz": True, "blind_nil": False}
    mirror = {"mirror": True, "blind_nil": False}
    out = ref.replay_hand(full_record([4, 3, 0, 3]), whiz)  # seat 2 nil, takes 4: fails
    # Side 0: contract 4 (seat 0) takes 3: set -40; seat 2's 4 tricks are bags; nil -100.
    assert comps(out, 0) == (-40, 4, 0, -100)
    with pytest.raises(IllegalBid, match="seat 0.*whiz"):
        ref.replay_hand(full_record([3, 3, 3, 3]), whiz)
    # Mirror: every bid is the spade count. Side 0 bids 4 + 3 = 7, takes 3 + 4 = 7: +70;
    # side 1 bids 6, takes 6: +60.
    out = ref.replay_hand(full_record([4, 3, 3, 3]), mirror)
    assert out["points"] == [70, 60]
    with pytest.raises(IllegalBid, match="seat 1.*mirror"):
        ref.replay_hand(full_record([4, 0, 3, 3]), mirror)
    # Score-sheet mode has no cards: the spade count is not checked (reading).
    # Side 0 bids 4, takes 4 + 3 = 7: 40 + 3; side 1 bids 4, takes 6: 40 + 2.
    out = ref.replay_hand(sheet([2, 2, 2, 2], [4, 3, 3, 3], dealer=3), whiz)
    assert out["points"] == [43, 42]


# --- section 4.4: impossible combinations are rejected at load --------------------------------


@pytest.mark.parametrize(
    ("rules", "key"),
    [
        ({"min_team_bid": 10, "max_team_bid": 9}, "min_team_bid"),
        ({"hook": True, "mirror": True, "blind_nil": False}, "hook"),
        ({"whiz": True}, "whiz"),  # blind_nil is on by default
        ({"mirror": True}, "mirror"),
        ({"mirror": True, "whiz": True, "blind_nil": False}, "mirror"),
        ({"suicide_min_bid": 4}, "suicide_min_bid"),
        # readings added by the reference (a seat could be left with no legal bid)
        ({"suicide": True, "nil": False, "blind_nil": False}, "suicide"),
        ({"whiz": True, "nil": False, "blind_nil": False}, "whiz"),
        ({"whiz": True, "blind_nil": False, "min_team_bid": 4}, "whiz"),
        ({"mirror": True, "blind_nil": False, "fledu": True}, "mirror"),
        ({"mirror": True, "blind_nil": False, "suicide": True}, "mirror"),
        ({"suicide": True, "min_team_bid": 4}, "suicide"),
        ({"suicide": True, "suicide_min_bid": 3, "min_team_bid": 4}, "suicide"),
        ({"mirror": True, "blind_nil": False, "max_team_bid": 12}, "mirror"),
        ({"double_blind_nil": True, "blind_nil": False}, "double_blind_nil"),
        ({"double_blind_nil_reward": "triple"}, "double_blind_nil_reward"),
        # bad values
        ({"min_team_bid": 0}, "min_team_bid"),
        ({"moon": 1}, "moon"),
    ],
)
def test_impossible_combinations(rules, key):
    with pytest.raises(ValueError, match=key):
        ref.resolve_rules(rules)


def test_keys_the_reference_does_not_implement_are_accepted_only_off():
    # Engine keys outside this reference (card passing, section 4.5): their off value passes
    # through (so the engine's full rules dict can be given), anything else is refused.
    for key, off in ref._NOT_IMPLEMENTED.items():
        assert ref.resolve_rules({key: off})[key] == off
        with pytest.raises(ValueError, match=key):
            ref.resolve_rules({key: [1, 2]})


def test_possible_combinations():
    for rules in ({"min_team_bid": 9, "max_team_bid": 9}, {"whiz": True, "blind_nil": False},
                  {"suicide": True, "suicide_min_bid": 4, "fledu": True},
                  {"moon": True, "lexington": True, "lexington_points": True, "double_nil": True},
                  {"hook": True, "fledu": True, "min_team_bid": 4}, {"hook": True, "suicide": True},
                  {"suicide": True, "suicide_min_bid": 4, "min_team_bid": 4},
                  {"mirror": True, "blind_nil": False, "max_team_bid": 13}):
        ref.resolve_rules(rules)


# --- section 4.4 scoring ------------------------------------------------------------------------


def test_double_nil_key_both_made():
    # Side 0 both nil (bonus 100), neither takes a trick: each scores twice: 4 * 100 = +400.
    # Side 1: 3 + 4 = 7, takes 13: 70 + 6 = 76.
    out = ref.replay_hand(sheet([0, 3, 0, 4], [0, 7, 0, 6]), {"double_nil": True})
    assert comps(out, 0) == (0, 0, 0, 400) and out["points"] == [400, 76]
    # nil_bonus 50: 4 * 50 = 200.
    out = ref.replay_hand(sheet([0, 3, 0, 4], [0, 7, 0, 6]), {"double_nil": True, "nil_bonus": 50})
    assert out["points"][0] == 200


def test_double_nil_key_one_fails():
    # Seat 0 takes 1 trick: neither nil scores (no -100 penalties). The trick is a bag under
    # bags_only (+1), nothing under ignored.
    out = ref.replay_hand(sheet([0, 3, 0, 4], [1, 6, 0, 6]), {"double_nil": True})
    assert comps(out, 0) == (0, 1, 0, 0) and out["points"][0] == 1
    out = ref.replay_hand(sheet([0, 3, 0, 4], [1, 6, 2, 4]),
                          {"double_nil": True, "nil_tricks": "ignored"})
    assert comps(out, 0) == (0, 0, 0, 0)
    # count: both nils fail, 3 tricks, all bags (no contract).
    out = ref.replay_hand(sheet([0, 3, 0, 4], [1, 6, 2, 4]),
                          {"double_nil": True, "nil_tricks": "count"})
    assert comps(out, 0) == (0, 3, 0, 0)
    # The bags still reach the bag limit: 8 before + 3 = 11 -> -100, 1 left.
    out = ref.replay_hand(sheet([0, 3, 0, 4], [1, 6, 2, 4], bags=(8, 0)), {"double_nil": True})
    assert comps(out, 0) == (0, 3, -100, 0) and out["after"]["bags"][0] == 1


def test_double_nil_key_blind():
    # Seat 0 blind nil (200), seat 2 nil (100), side 0 trailing by 200: both made ->
    # 2 * 200 + 2 * 100 = 600.
    rec = sheet([0, 3, 0, 4], [0, 7, 0, 6], blind=[1, 0, 0, 0], scores=(0, 200))
    assert ref.replay_hand(rec, {"double_nil": True})["points"][0] == 600
    # Without the key: 200 + 100 = 300.
    assert ref.replay_hand(rec, {})["points"][0] == 300


def test_double_nil_key_single_nil_unchanged():
    # One nil in a side is scored as usual: +100 made; partner 5 takes 5: +50.
    out = ref.replay_hand(sheet([0, 4, 5, 4], [0, 4, 5, 4]), {"double_nil": True})
    assert comps(out, 0) == (50, 0, 0, 100)


def test_moon():
    moon = {"moon": True}
    # Side 0 bids 7 + 6 = 13 and takes all 13: +130 and wins the game at once.
    out = ref.replay_hand(sheet([7, 0, 6, 0], [7, 0, 6, 0], dealer=3), moon)
    assert out["points"][0] == 130 and out["wins_game"] == 0
    # Side 1 (both nil, both made) still scores its nils: +200.
    assert out["points"][1] == 200
    # 12 tricks: the usual set, -130; no win.
    out = ref.replay_hand(sheet([7, 1, 6, 2], [7, 1, 5, 0], dealer=3), moon)
    assert out["points"][0] == -130 and out["wins_game"] is None
    # Total 13 with a nil is not a moon: 13 + nil taking all 13 -> 130 + 100, no win.
    out = ref.replay_hand(sheet([13, 1, 0, 2], [13, 0, 0, 0], dealer=3), moon)
    assert out["points"][0] == 230 and out["wins_game"] is None
    # Without moon the key is absent and nobody wins at once.
    assert "wins_game" not in ref.replay_hand(sheet([7, 0, 6, 0], [7, 0, 6, 0], dealer=3))
    assert ref.wins_game([7, 0, 6, 0], [7, 0, 6, 0], {}) is None


def test_lexington():
    lex = {"lexington": True}
    # 7 + 5 = 12, takes 12: +120 and wins; takes 13: +121 (one bag) and wins; 11: -120.
    out = ref.replay_hand(sheet([7, 1, 5, 2], [7, 1, 5, 0], dealer=3), lex)
    assert out["points"][0] == 120 and out["wins_game"] == 0
    out = ref.replay_hand(sheet([7, 1, 5, 2], [8, 0, 5, 0], dealer=3), lex)
    assert out["points"][0] == 121 and out["wins_game"] == 0
    out = ref.replay_hand(sheet([7, 1, 5, 2], [6, 2, 5, 0], dealer=3), lex)
    assert out["points"][0] == -120 and out["wins_game"] is None
    # Lexington alone: 13 is an ordinary bid (no win); with moon too, 13 is a moon.
    assert ref.wins_game([7, 0, 6, 0], [7, 0, 6, 0], lex) is None
    assert ref.wins_game([7, 0, 6, 0], [7, 0, 6, 0], {**lex, "moon": True}) == 0
    assert ref.wins_game([1, 7, 1, 5], [0, 7, 1, 5], {**lex, "moon": True}) == 1


def test_lexington_points():
    lp = {"lexington_points": True}
    # Side 0 bids 3 + 2 = 5 and takes 12: 240 whatever it bid, no overtricks, no bags.
    out = ref.replay_hand(sheet([3, 1, 2, 1], [6, 1, 6, 0], bags=(7, 0)), lp)
    assert comps(out, 0) == (240, 0, 0, 0) and out["after"]["bags"][0] == 7
    # Side 1 bid 2, took 1: set -20.
    assert out["points"] == [240, -20]
    # A nil bonus is still scored: seat 0 nil takes 0, seat 2 bids 5 and takes 12: 240 + 100.
    out = ref.replay_hand(sheet([0, 1, 5, 1], [0, 1, 12, 0]), lp)
    assert out["points"][0] == 340
    # A nil failing inside a side that took 12: seat 0 takes 2 of the 12: 240 - 100, no bags.
    out = ref.replay_hand(sheet([0, 1, 5, 1], [2, 1, 10, 0]), lp)
    assert comps(out, 0) == (240, 0, 0, -100)
    # 11 tricks: the usual score (5 bid, 11 taken: 50 + 6).
    out = ref.replay_hand(sheet([3, 1, 2, 1], [6, 2, 5, 0]), lp)
    assert out["points"][0] == 56
    # Independent of lexington: no win at once.
    assert "wins_game" not in out


def test_game_over_wins_at_once():
    # A moon made ends the game whatever the scores (here side 0 trails, and no target reached).
    assert ref.game_over([100, 450], 3, {"moon": True}, wins_game=0) == (True, 0)
    assert ref.game_over([100, 450], 3, {"moon": True}, wins_game=None) == (False, None)
    # Even at the mercy score.
    assert ref.game_over([-250, 100], 3, {"moon": True}, wins_game=0) == (True, 0)


def test_prohibitions_give_way_when_nothing_else_is_left():
    # hook + suicide (dealer 0, order 1, 2, 3, 0): seats 1, 2, 3 bid 6, 7, nil; seat 0's partner
    # bid 7, so suicide forces nil, which hook forbids (6 + 7 + 0 = 13): hook gives way (reading).
    rules = {"hook": True, "suicide": True, "blind_nil_min_deficit": 0}
    assert ref.legal_bids(0, {1: 6, 2: 7, 3: 0}, [0, 0], rules) == {"bids": [0], "blind_nil": True}
    ref.replay_hand(sheet([0, 6, 7, 0], [0, 6, 7, 0]), rules)
    # mirror + moon: both opponents bid nil (they hold no spade); the partner bid his 6 spades,
    # so the seat holds the other 7 and must bid 7, a moon: the moon rule gives way.
    hand = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "AH", "KH", "QH", "JH", "TH", "9H"]
    mirror = {"mirror": True, "moon": True, "blind_nil": False}
    assert bids_of(0, {1: 0, 2: 6, 3: 0}, mirror, hand) == [7]


def test_double_blind_nil():
    # Seats 0 and 2 both blind nil (side 0 trails by 200): made -> each twice 200 = 800.
    rec = sheet([0, 3, 0, 4], [0, 7, 0, 6], blind=[1, 0, 1, 0], scores=(0, 200))
    out = ref.replay_hand(rec, {"double_blind_nil": True})
    assert comps(out, 0) == (0, 0, 0, 800)
    # "win": scored once (+400, reading) and side 0 wins the game at once.
    out = ref.replay_hand(rec, {"double_blind_nil": True, "double_blind_nil_reward": "win"})
    assert out["points"][0] == 400 and out["wins_game"] == 0
    # Either takes a trick: no penalty, the trick a bag under bags_only.
    rec = sheet([0, 3, 0, 4], [0, 7, 1, 5], blind=[1, 0, 1, 0], scores=(0, 200))
    out = ref.replay_hand(rec, {"double_blind_nil": True, "double_blind_nil_reward": "win"})
    assert comps(out, 0) == (0, 1, 0, 0) and out["wins_game"] is None
    # One blind, one not: not a double blind nil; with double_nil it is a double nil (2x each).
    rec = sheet([0, 3, 0, 4], [0, 7, 0, 6], blind=[1, 0, 0, 0], scores=(0, 200))
    assert ref.replay_hand(rec, {"double_blind_nil": True})["points"][0] == 300
    assert ref.replay_hand(rec, {"double_blind_nil": True, "double_nil": True})["points"][0] == 600


# --- section 4.4 side contracts ------------------------------------------------------------------
#
# A side contract replaces the side's two bids (their entries in "bids" are None), declared in
# "side_contracts" by side; bemo comes on top of ordinary bids ("bemo" by side).


def comps5(out, side):
    """(contract, overtricks, bag_penalty, nil, bemo) of a side."""
    c = out["components"]
    return tuple(c[k][side] for k in ("contract", "overtricks", "bag_penalty", "nil", "bemo"))


def sequenced(winners, first_leader):
    """Hands and plays of a deal whose trick t is won by seat ``winners[t]`` (13 seats), the first
    trick led by ``first_leader``.

    Tricks 1-3 are hearts, 4-6 diamonds, 7-9 clubs, 10-12 spades, everybody following suit: trick
    j of a suit uses the ranks 3456, 789T, JQKA (j = 0, 1, 2), the highest to the winner and the
    three others to the other seats. The four deuces are left for trick 13: the winner of trick 13
    holds 2S and the others a deuce of another suit each, so whoever leads, 2S wins it (the others
    are void of the led suit). Spades are led in tricks 10-12 before they are broken: play it with
    ``spades_broken = False``."""
    hands = [[] for _ in range(4)]
    plays = []
    leader = first_leader
    for t in range(12):
        suit = "HDCS"[t // 3]
        ranks = ref.RANKS[1 + 4 * (t % 3): 5 + 4 * (t % 3)]  # four ranks, the last the highest
        others = [s for s in range(4) if s != winners[t]]
        cards = {winners[t]: ranks[3] + suit}
        cards.update({s: ranks[i] + suit for i, s in enumerate(others)})
        plays += [cards[(leader + k) % 4] for k in range(4)]
        for s in range(4):
            hands[s].append(cards[s])
        leader = winners[t]
    deuces = {winners[12]: "2S"}
    deuces.update({s: "2" + suit for s, suit in zip([s for s in range(4) if s != winners[12]],
                                                     "HDC", strict=True)})
    plays += [deuces[(leader + k) % 4] for k in range(4)]
    for s in range(4):
        hands[s].append(deuces[s])
    return hands, plays


def played(bids, winners, *, dealer=3, first_leader=None, **extra):
    """A full record of the sequenced deal (``first_leader`` default: left of the dealer)."""
    lead = (dealer + 1) % 4 if first_leader is None else first_leader
    hands, plays = sequenced(winners, lead)
    return {"dealer": dealer, "hands": hands, "bids": list(bids), "plays": plays, **extra}


FREE = {"spades_broken": False}  # the sequenced deals lead spades in trick 10


def test_sequenced_deal_is_a_deal_won_as_designed():
    winners = [0, 1, 2, 3, 0, 1, 2, 3, 1, 1, 2, 2, 3]
    rec = played([3, 3, 3, 4], winners)
    assert sorted(c for h in rec["hands"] for c in h) == sorted(ref.DECK)
    out = ref.replay_hand(rec, FREE)
    assert out["winners"] == winners
    assert out["tricks"] == [2, 4, 4, 3]


def test_team_nil():
    tn = {"team_nil": True}
    # Dealer 0: seat 1 bids first (side 1), seat 2 is side 0's first bidder. Side 0 declares team
    # nil and takes no trick: +100, nothing else. Side 1 bids 3 + 4 = 7, takes 13: 70 + 6.
    rec = sheet([None, 3, None, 4], [0, 6, 0, 7], bags=(9, 0)) | {
        "side_contracts": ["team_nil", None]}
    out = ref.replay_hand(rec, tn)
    assert comps5(out, 0) == (100, 0, 0, 0, 0) and comps5(out, 1) == (70, 6, 0, 0, 0)
    assert out["points"] == [100, 76] and out["after"]["bags"] == [9, 6]  # no bag for side 0
    # One trick: -100, and the trick is no bag (9 bags before stay 9, no penalty).
    rec = sheet([None, 3, None, 4], [1, 6, 0, 6], bags=(9, 0)) | {
        "side_contracts": ["team_nil", None]}
    out = ref.replay_hand(rec, tn)
    assert comps5(out, 0) == (-100, 0, 0, 0, 0) and out["after"]["bags"][0] == 9
    # Team blind nil: +-150.
    tbn = {"team_blind_nil": True}
    rec = sheet([None, 3, None, 4], [0, 6, 0, 7]) | {"side_contracts": ["team_blind_nil", None]}
    assert ref.replay_hand(rec, tbn)["points"][0] == 150
    rec = sheet([None, 3, None, 4], [0, 6, 2, 5]) | {"side_contracts": ["team_blind_nil", None]}
    assert ref.replay_hand(rec, tbn)["points"][0] == -150


def test_wheel():
    wheel = {"ten_for_two_hundred": True}
    exact = {**wheel, "ten_for_200_exact": True}
    # Dealer 3: seat 0 is side 0's first bidder. Side 0 declares the wheel and takes 11.
    rec = sheet([None, 1, None, 1], [6, 1, 5, 1], bags=(9, 0)) | {
        "side_contracts": ["wheel", None]}
    rec["dealer"] = 3
    # Plain: +200, the 11th trick scores nothing and is no bag.
    out = ref.replay_hand(rec, wheel)
    assert comps5(out, 0) == (200, 0, 0, 0, 0) and out["after"]["bags"][0] == 9
    # Exact: 200 + 1 bag; 9 bags before + 1 = 10 -> -100 and 0 bags left.
    out = ref.replay_hand(rec, exact)
    assert comps5(out, 0) == (200, 1, -100, 0, 0) and out["after"]["bags"][0] == 0
    assert out["points"][0] == 101
    # Exactly 10: +200 (no bag either way); 9: -200, or -ten_for_200_fail.
    rec["tricks"] = [5, 1, 5, 2]
    assert comps5(ref.replay_hand(rec, exact), 0) == (200, 0, 0, 0, 0)
    rec["tricks"] = [5, 2, 4, 2]
    assert ref.replay_hand(rec, wheel)["points"][0] == -200
    assert ref.replay_hand(rec, {**wheel, "ten_for_200_fail": 100})["points"][0] == -100


def test_tens_are_wheels():
    tens = {"ten_for_two_hundred": True, "tens_are_wheels": True}
    # Side 0 bids 6 + 4 = 10 (no declaration, the bids recorded) and takes 12: a wheel, +200,
    # no overtricks. Side 1 bids 1 + 1, takes 1: -20.
    rec = sheet([6, 1, 4, 1], [7, 1, 5, 0], dealer=3)
    out = ref.replay_hand(rec, tens)
    assert comps5(out, 0) == (200, 0, 0, 0, 0) and out["points"] == [200, -20]
    # Exact: the two tricks above 10 are bags.
    assert comps5(ref.replay_hand(rec, {**tens, "ten_for_200_exact": True}), 0) == (
        200, 2, 0, 0, 0)
    # 9 tricks: -200 (an ordinary 10 would be -100).
    rec = sheet([6, 1, 4, 1], [5, 3, 4, 1], dealer=3)
    assert ref.replay_hand(rec, tens)["points"][0] == -200
    # 10 with a nil is not a wheel: seat 2 nil (made +100), seat 0 bids 10 takes 10: +100.
    rec = sheet([10, 1, 0, 2], [10, 1, 0, 2], dealer=3)
    assert comps5(ref.replay_hand(rec, tens), 0) == (100, 0, 0, 100, 0)
    # Without tens_are_wheels, 6 + 4 taking 12 is 100 + 2.
    rec = sheet([6, 1, 4, 1], [7, 1, 5, 0], dealer=3)
    assert ref.replay_hand(rec, {"ten_for_two_hundred": True})["points"][0] == 102
    # Reading: a wheel by tens is a wheel, lexington_points (12+ tricks -> 240) does not apply.
    assert ref.replay_hand(rec, {**tens, "lexington_points": True})["points"][0] == 200
    assert ref.replay_hand(rec, {"lexington_points": True})["points"][0] == 240


# Side 0 (seats 0, 2) wins tricks 2-9 in a row (8), loses 1, 10 and 12: seats by trick.
RUN_OF_8 = [1, 0, 2, 0, 2, 0, 2, 0, 2, 1, 0, 3, 2]
# Side 0's longest run is 5 (tricks 1-5); side 1 wins 6, 12, 13.
RUN_OF_5 = [0, 2, 0, 2, 0, 1, 0, 2, 0, 2, 2, 3, 1]


def test_mo_a_runs():
    mo_a = {"mo_a": True, **FREE}
    # Dealer 3: seat 0 leads and is side 0's first bidder; side 1 bids 2 + 2.
    big = played([None, 2, None, 2], RUN_OF_8, side_contracts=["big_mo", None])
    out = ref.replay_hand(big, mo_a)
    assert out["winners"] == RUN_OF_8
    # 8 in a row: Big Mo +300, no bags (side 0 took 10: no overtricks). Side 1 bid 4, took 3:
    # -40.
    assert comps5(out, 0) == (300, 0, 0, 0, 0) and out["points"] == [300, -40]
    little = big | {"side_contracts": ["little_mo", None]}
    assert comps5(ref.replay_hand(little, mo_a), 0) == (150, 0, 0, 0, 0)
    # A run of 5 only (an opponents' trick resets it): Little Mo fails -150, Big Mo -300.
    out = ref.replay_hand(played([None, 2, None, 2], RUN_OF_5, side_contracts=["little_mo", None]),
                          mo_a)
    assert out["winners"] == RUN_OF_5 and comps5(out, 0) == (-150, 0, 0, 0, 0)
    out = ref.replay_hand(played([None, 2, None, 2], RUN_OF_5, side_contracts=["big_mo", None]),
                          mo_a)
    assert comps5(out, 0) == (-300, 0, 0, 0, 0)
    # The run may come anywhere: side 1 wins tricks 6-13 (8) after losing 1-5.
    late = [0, 2, 0, 2, 0, 1, 3, 1, 3, 1, 3, 1, 3]
    out = ref.replay_hand(played([2, None, 2, None], late, side_contracts=[None, "big_mo"]), mo_a)
    assert comps5(out, 1) == (300, 0, 0, 0, 0)


def test_mo_b_first_tricks_and_leader():
    mo_b = {"mo_b": True, **FREE}
    # Dealer 3: the left of the dealer (seat 0) is on side 0; side 1 declares Mo, so its first
    # player from the dealer's left, seat 1, leads trick 1.
    assert ref.first_leader(3, [None, "little_mo"], mo_b) == 1
    assert ref.first_leader(3, ["big_mo", None], mo_b) == 0
    assert ref.first_leader(0, [None, "big_mo"], mo_b) == 1
    assert ref.first_leader(0, ["little_mo", None], mo_b) == 2
    assert ref.first_leader(0, ["little_mo", None], {"mo_a": True}) == 1  # mo_a: no change
    assert ref.first_leader(0, ["team_nil", None], {"mo_b": True, "team_nil": True}) == 1
    # Side 1 wins the first 7 tricks, then side 0 wins the rest: Little Mo +150. Side 0 bids
    # 3 + 3 = 6, takes 6: +60.
    first7 = [1, 3, 1, 3, 1, 3, 1, 0, 2, 0, 2, 0, 2]
    rec = played([3, None, 3, None], first7, first_leader=1, side_contracts=[None, "little_mo"])
    out = ref.replay_hand(rec, mo_b)
    assert out["winners"] == first7
    assert comps5(out, 1) == (150, 0, 0, 0, 0) and out["points"] == [60, 150]
    # The same as Big Mo (the first 10): -250.
    out = ref.replay_hand(rec | {"side_contracts": [None, "big_mo"]}, mo_b)
    assert comps5(out, 1) == (-250, 0, 0, 0, 0)
    # Side 1 loses trick 7: Little Mo fails -150 though it took 8 tricks.
    lost7 = [1, 3, 1, 3, 1, 3, 0, 1, 3, 1, 3, 0, 2]
    rec = played([3, None, 3, None], lost7, first_leader=1, side_contracts=[None, "little_mo"])
    assert comps5(ref.replay_hand(rec, mo_b), 1) == (-150, 0, 0, 0, 0)
    # The plays must start with the Mo side's leader: seat 0 leading is refused.
    rec = played([3, None, 3, None], first7, first_leader=0, side_contracts=[None, "little_mo"])
    with pytest.raises(IllegalPlay, match="trick 1, seat 1"):
        ref.replay_hand(rec, mo_b)


def test_bemo():
    bemo = {"bemo": True, **FREE}
    # Side 0 bids 2 + 3 = 5 and wins the first 6 tricks and 7 in all: 50 + 2 + Little Bemo 60.
    winners = [0, 2, 0, 2, 0, 2, 1, 3, 1, 3, 0, 1, 3]
    rec = played([2, 3, 3, 3], winners, bemo=["little_bemo", None])
    out = ref.replay_hand(rec, bemo)
    assert out["winners"] == winners and out["tricks"] == [4, 3, 3, 3]
    assert comps5(out, 0) == (50, 2, 0, 0, 60) and out["points"] == [112, 60]
    # Big Bemo (the first 9): -90 on top of the 52.
    out = ref.replay_hand(rec | {"bemo": ["big_bemo", None]}, bemo)
    assert comps5(out, 0) == (50, 2, 0, 0, -90) and out["points"][0] == -38
    # Side 1's Little Bemo fails (it lost trick 1): -60 on top of its 60.
    out = ref.replay_hand(rec | {"bemo": [None, "little_bemo"]}, bemo)
    assert comps5(out, 1) == (60, 0, 0, 0, -60)
    # Without bemo the component is there and 0.
    assert ref.replay_hand(sheet([3, 4, 2, 4], [5, 2, 3, 3]))["components"]["bemo"] == [0, 0]


def test_blind_six():
    six = {"blind_six": True}
    at_least = {**six, "blind_six_at_least": True}
    rec = sheet([None, 1, None, 1], [4, 2, 4, 3], dealer=3, bags=(5, 0)) | {
        "side_contracts": ["blind_six", None]}
    # 8 tricks: exact six fails -120; "at least" +120, the 2 overtricks neither scored nor bags.
    assert comps5(ref.replay_hand(rec, six), 0) == (-120, 0, 0, 0, 0)
    out = ref.replay_hand(rec, at_least)
    assert comps5(out, 0) == (120, 0, 0, 0, 0) and out["after"]["bags"][0] == 5
    # Exactly 6: +120 both ways; 5: -120 / -60.
    rec["tricks"] = [3, 3, 3, 4]
    assert ref.replay_hand(rec, six)["points"][0] == 120
    assert ref.replay_hand(rec, at_least)["points"][0] == 120
    rec["tricks"] = [3, 4, 2, 4]
    assert ref.replay_hand(rec, six)["points"][0] == -120
    assert ref.replay_hand(rec, at_least)["points"][0] == -60


def test_blind_moon():
    bm = {"blind_moon": True}
    rec = sheet([None, 1, None, 1], [7, 0, 6, 0], dealer=3) | {
        "side_contracts": ["blind_moon", None]}
    # 13 tricks: +130 and side 0 wins the game at once. Side 1 bid 2, took 0: -20.
    out = ref.replay_hand(rec, bm)
    assert out["points"] == [130, -20] and out["wins_game"] == 0
    assert ref.game_over(out["after"]["scores"], 1, bm, out["wins_game"]) == (True, 0)
    # 12: -130, no win.
    rec["tricks"] = [7, 1, 5, 0]
    out = ref.replay_hand(rec, bm)
    assert comps5(out, 0) == (-130, 0, 0, 0, 0) and out["wins_game"] is None
    # wins_game on its own needs the declarations.
    assert ref.wins_game([None, 1, None, 1], [7, 0, 6, 0], bm,
                         side_contracts=["blind_moon", None]) == 0
    # An ordinary 13 under blind_moon alone is no moon.
    assert ref.wins_game([7, 0, 6, 0], [7, 0, 6, 0], bm) is None


def test_side_contract_scores_carry_bag_penalty():
    # Bags taken before still run out as usual: a wheel (exact) side on 8 bags taking 13 gets
    # 3 bags: 11 -> -100, 1 left.
    rules = {"ten_for_two_hundred": True, "ten_for_200_exact": True}
    rec = sheet([None, 1, None, 1], [7, 0, 6, 0], dealer=3, bags=(8, 0)) | {
        "side_contracts": ["wheel", None]}
    out = ref.replay_hand(rec, rules)
    assert comps5(out, 0) == (200, 3, -100, 0, 0) and out["after"]["bags"][0] == 1


def test_score_sheet_cannot_score_mo_or_bemo():
    rec = sheet([None, 2, None, 2], [5, 2, 5, 1], dealer=3) | {"side_contracts": ["big_mo", None]}
    for rules in ({"mo_a": True}, {"mo_b": True}):
        with pytest.raises(ValueError, match="score sheet"):
            ref.replay_hand(rec, rules)
    rec = sheet([2, 2, 3, 2], [5, 2, 5, 1], dealer=3) | {"bemo": ["little_bemo", None]}
    with pytest.raises(ValueError, match="score sheet"):
        ref.replay_hand(rec, {"bemo": True})
    # Contracts scored from the counts alone are fine on a score sheet (above), and a bemo key
    # with no bemo declared too.
    ref.replay_hand(sheet([2, 2, 3, 2], [5, 2, 5, 1], dealer=3), {"bemo": True})


# --- side contracts: who may declare what, when ----------------------------------------------

ALL_CONTRACTS = {"team_nil": True, "team_blind_nil": True, "ten_for_two_hundred": True,
                 "mo_a": True, "blind_six": True, "blind_moon": True}


def test_legal_side_contracts():
    # Only a side's first bidder is asked; blind ones before looking, sighted after.
    out = ref.legal_side_contracts(0, {}, ALL_CONTRACTS)
    assert out == {"blind": ["team_blind_nil", "blind_six", "blind_moon"],
                   "sighted": ["team_nil", "wheel", "little_mo", "big_mo"]}
    # The second bidder of a side, or a side that declared: nothing.
    assert ref.legal_side_contracts(2, {0: 3, 1: 4}, ALL_CONTRACTS) == {"blind": [],
                                                                       "sighted": []}
    assert ref.legal_side_contracts(2, {1: 4}, ALL_CONTRACTS,
                                    side_contracts=["team_nil", None]) == {"blind": [],
                                                                           "sighted": []}
    # Each key opens its own.
    assert ref.legal_side_contracts(1, {0: 3}, {"blind_six": True}) == {"blind": ["blind_six"],
                                                                        "sighted": []}
    assert ref.legal_side_contracts(1, {0: 3}, {"mo_b": True}) == {
        "blind": [], "sighted": ["little_mo", "big_mo"]}
    assert ref.legal_side_contracts(1, {0: 3}, {}) == {"blind": [], "sighted": []}
    # The second side may declare after the first side's contract (public), both Mo under mo_a;
    # under mo_b only one side may lead trick 1 on its Mo (reading).
    assert ref.legal_side_contracts(1, {}, {"mo_a": True}, side_contracts=["big_mo", None])[
        "sighted"] == ["little_mo", "big_mo"]
    assert ref.legal_side_contracts(1, {}, {"mo_b": True, "team_nil": True},
                                    side_contracts=["big_mo", None])["sighted"] == ["team_nil"]


def test_blind_moon_and_double_blind_nil_first_stands():
    rules = {"blind_moon": True, "blind_nil_min_deficit": 0}
    # Dealer 3: seat 0 (side 0) bids blind nil; seat 1 (side 1) may still declare blind moon
    # (only one opponent bid blind nil); then seat 2 may not complete the double blind nil, but
    # may bid an ordinary nil.
    assert "blind_moon" in ref.legal_side_contracts(1, {0: 0}, rules, blind_so_far={0: True})[
        "blind"]
    out = ref.legal_bids(2, {0: 0}, [0, 0], rules, blind_so_far={0: True},
                         side_contracts=[None, "blind_moon"])
    assert out["blind_nil"] is False and 0 in out["bids"]
    # Seat 0's nil was not blind: seat 2's blind nil is no double blind nil, allowed.
    assert ref.legal_bids(2, {0: 0}, [0, 0], rules, blind_so_far={0: False},
                          side_contracts=[None, "blind_moon"])["blind_nil"] is True
    # A blind moon after both opponents' blind nils is refused (the timing never allows it, a
    # side's first bidder bids before the opponents' second; asked directly it is not open).
    assert "blind_moon" not in ref.legal_side_contracts(
        1, {0: 0, 2: 0}, rules, blind_so_far={0: True, 2: True})["blind"]
    # In records: seat 2's blind nil after side 1's blind moon is an IllegalBid.
    rec = sheet([0, None, 0, None], [0, 7, 0, 6], dealer=3, blind=[1, 0, 1, 0]) | {
        "side_contracts": [None, "blind_moon"]}
    with pytest.raises(IllegalBid, match="seat 2: blind nil.*blind_moon"):
        ref.replay_hand(rec, rules)
    rec["blind"] = [1, 0, 0, 0]  # seat 2's nil sighted: fine
    out = ref.replay_hand(rec, rules)
    # Side 0: blind nil +200, nil +100; side 1's blind moon, 13 tricks: +130 and the game.
    assert out["points"] == [300, 130] and out["wins_game"] == 1


def test_legal_bemo():
    bemo = {"bemo": True}
    # Only the side's second bidder, right after his bid (bids_so_far holds both), no nil.
    assert ref.legal_bemo(2, {0: 3, 1: 4, 2: 5}, bemo) == ["little_bemo", "big_bemo"]
    assert ref.legal_bemo(0, {0: 3}, bemo) == []
    assert ref.legal_bemo(2, {0: 0, 1: 4, 2: 5}, bemo) == []
    assert ref.legal_bemo(2, {0: 3, 1: 4, 2: 0}, bemo) == []
    assert ref.legal_bemo(2, {0: 3, 1: 4, 2: 5}, {}) == []
    # A side whose 10 is a wheel under tens_are_wheels may add one (reading).
    tens = {**bemo, "ten_for_two_hundred": True, "tens_are_wheels": True}
    assert ref.legal_bemo(2, {0: 6, 1: 4, 2: 4}, tens) == ["little_bemo", "big_bemo"]


def test_hook_after_a_side_contract():
    # Only two seats bid after a side contract: nobody is the fourth bidder, so hook forbids
    # nothing (reading, the engine's): side 1 bids 6 + 7 = 13.
    rules = {"hook": True, "team_nil": True}
    rec = sheet([None, 6, None, 7], [0, 6, 0, 7], dealer=3) | {"side_contracts": ["team_nil", None]}
    assert ref.replay_hand(rec, rules)["points"] == [100, 130]
    assert ref.legal_bids(3, {1: 6}, [0, 0], rules, side_contracts=["team_nil", None])[
        "bids"] == ALL
    assert ref.legal_bids(0, {}, [0, 0], rules, side_contracts=["team_nil", None]) == {
        "bids": [], "blind_nil": False}


@pytest.mark.parametrize(
    ("rules", "record", "match"),
    [
        # a side contract whose key is off
        ({}, {"side_contracts": ["team_nil", None], "bids": [None, 3, None, 4]},
         "seat 0: side contract 'team_nil'.*team_nil is off"),
        ({"mo_a": True}, {"side_contracts": [None, "wheel"], "bids": [3, None, 4, None]},
         "seat 1: side contract 'wheel'.*ten_for_two_hundred is off"),
        # the partners of a side contract bid, or a side without one does not
        ({"team_nil": True}, {"side_contracts": ["team_nil", None], "bids": [0, 3, None, 4]},
         "seat 0: side 0 declared 'team_nil'"),
        ({"team_nil": True}, {"side_contracts": ["team_nil", None], "bids": [None, 3, 0, 4]},
         "seat 2: side 0 declared 'team_nil'"),
        ({"team_nil": True}, {"bids": [None, 3, None, 4]}, "seat 0: no bid"),
        ({"team_nil": True}, {"side_contracts": ["team_nil", None], "bids": [None, 3, None, 4],
                              "blind": [True, False, False, False]}, "seat 0: side 0 declared"),
        # mo_b: Mo for both sides
        ({"mo_b": True}, {"side_contracts": ["little_mo", "big_mo"],
                          "bids": [None, None, None, None]}, "seat 1: side contract 'big_mo'.*mo_b"),
        # bemo: off, with a nil, on a side contract
        ({}, {"bemo": ["little_bemo", None], "bids": [3, 3, 3, 3]}, "seat 2: bemo.*off"),
        ({"bemo": True}, {"bemo": ["little_bemo", None], "bids": [0, 3, 3, 3]},
         "seat 2: bemo.*nil"),
        ({"bemo": True, "team_nil": True},
         {"side_contracts": ["team_nil", None], "bemo": ["big_bemo", None],
          "bids": [None, 3, None, 4]}, "seat 0: bemo"),
        # names that do not exist
        ({"team_nil": True}, {"side_contracts": ["team_null", None], "bids": [None, 3, None, 4]},
         "side_contracts"),
        ({"bemo": True}, {"bemo": ["bemo", None], "bids": [3, 3, 3, 3]}, "'bemo'"),
    ],
)
def test_illegal_declarations_in_records(rules, record, match):
    rec = sheet([3, 3, 3, 3], [4, 3, 3, 3], dealer=3) | record
    with pytest.raises(ValueError, match=match):
        ref.replay_hand(rec, rules)


@pytest.mark.parametrize(
    ("rules", "key"),
    [
        ({"mo_a": True, "mo_b": True}, "mo_b"),
        ({"tens_are_wheels": True}, "tens_are_wheels"),
        ({"ten_for_200_exact": True}, "ten_for_200_exact"),
        ({"ten_for_200_fail": 100}, "ten_for_200_fail"),
        ({"ten_for_200_fail": -1, "ten_for_two_hundred": True}, "ten_for_200_fail"),
        ({"blind_six_at_least": True}, "blind_six_at_least"),
        ({"blind_moon": True, "suicide": True}, "suicide"),
        ({"mo_a": True, "whiz": True, "blind_nil": False}, "whiz"),
        ({"blind_six": True, "mirror": True, "blind_nil": False}, "mirror"),
        ({"bemo": True, "suicide": True}, "suicide"),
        ({"team_blind_nil": 1}, "team_blind_nil"),
    ],
)
def test_side_contract_impossible_combinations(rules, key):
    with pytest.raises(ValueError, match=key):
        ref.resolve_rules(rules)


def test_side_contracts_with_min_team_bid():
    # issue 19: a side contract replaces the side's bids; min_team_bid binds the sides that bid
    rules = {"team_nil": True, "min_team_bid": 4}
    ref.resolve_rules(rules)
    assert ref.legal_bids(2, {0: 2}, [0, 0], rules, side_contracts=[None, "team_nil"])[
        "bids"] == list(range(2, 14))


def test_side_contract_possible_combinations():
    for rules in ({"ten_for_two_hundred": True, "ten_for_200_fail": 100, "ten_for_200_exact": True,
                   "tens_are_wheels": True},
                  {"blind_six": True, "blind_six_at_least": True},
                  {**ALL_CONTRACTS, "bemo": True, "hook": True, "fledu": True, "moon": True,
                   "double_blind_nil": True, "max_team_bid": 13},
                  {"mo_b": True, "team_blind_nil": True, "blind_moon": True}):
        ref.resolve_rules(rules)
