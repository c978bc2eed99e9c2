"""The `seed` player's habits on hand-built situations (one row each), expected cards by hand."""

import numpy as np

import sim  # noqa: F401  (presets)
from sim.options import PRESETS
from sim.spades.bidding import bid_masks
from sim.spades.hand import deck_for
from sim.views import BidView, BlindView, PlayView
from strategies import make_strategy

RULES = PRESETS["spades.standard"]
DECK = deck_for(RULES)
SEED = make_strategy("seed")
RNG = np.random.default_rng(0)
U64 = np.uint64


def mask(cards):
    return DECK.mask_of(cards.split()) if cards else 0


def play(seat, hand, trick=(), leader=None, bids=(3, 3, 3, 3), tricks=(0, 0, 0, 0), played="",
         legal=None, voids=(0, 0, 0, 0), strategy=SEED, rules=RULES):
    """The seed player's (or ``strategy``'s) card for `seat` holding `hand` after `trick`
    [(seat, card), ...]; ``voids``: per seat the suits shown void (bit s = suit s); ``rules``
    of four players with the standard deck (cutthroat too)."""
    leader = trick[0][0] if trick else seat if leader is None else leader
    led = win = 0
    win_seat = -1
    spades = int(DECK.suit_masks[3])
    for s, card in trick:
        c = mask(card)
        suit = next(int(m) for m in DECK.suit_masks if c & int(m))
        led = led or suit
        if win == 0 or (c & spades and (not win & spades or c > win)) or (
                c & led and not win & spades and c > win):
            win, win_seat = c, s
    h = mask(hand)
    follow = h & led
    legal = mask(legal) if legal is not None else (follow or h)
    in_trick = mask(" ".join(c for _, c in trick))
    view = PlayView(
        rows=np.arange(1), seat=np.array([seat], np.int8), hand=np.array([h], U64),
        legal=np.array([legal], U64), position=len(trick), trick_no=12 - len(hand.split()) + 1,
        leader=np.array([leader], np.intp), in_trick=np.array([in_trick], U64),
        led=np.array([led], U64), trump=np.array([spades], U64), winning=np.array([win], U64),
        winning_seat=np.array([win_seat], np.int8), played=np.array([mask(played)], U64),
        history=np.zeros((1, 0), np.int8), history_seats=np.zeros((1, 0), np.int8),
        bids=np.array([bids], np.int8), blind=np.zeros((1, 4), bool),
        tricks=np.array([tricks], np.int8), voids=np.array([voids], np.uint8),
        scores=np.zeros((1, 2), np.int32),
        bags=np.zeros((1, 2), np.int32), rules=rules, deck=DECK)
    return DECK.names_of(strategy.play(view, RNG)[0])


def test_nil_bidder_plays_the_highest_card_that_still_loses():
    assert play(1, "AH QH 3H 2C", [(0, "KH")], bids=(3, 0, 3, 3)) == ["QH"]


def test_nil_bidder_void_sheds_its_highest_side_card():
    assert play(1, "AD 5C 3S", [(0, "KH")], bids=(3, 0, 3, 3)) == ["AD"]


def test_nil_bidder_forced_to_win_plays_its_highest():
    assert play(1, "AH KH", [(0, "2H")], bids=(3, 0, 3, 3)) == ["AH"]


def test_nil_bidder_leads_its_lowest_rank():
    # lowest rank is the 3 (of diamonds); spades are never preferred
    assert play(1, "9C 3D AH 2S", leader=1, bids=(3, 0, 3, 3), played="4S") == ["3D"]


def test_partner_covers_a_nil_still_to_play():
    # seat 3 bid nil and plays after seat 1: seat 1 wins with its highest heart
    assert play(1, "AH 5H 2C", [(0, "2H")], bids=(3, 4, 3, 0)) == ["AH"]


def test_last_hand_wins_as_cheaply_as_possible():
    assert play(3, "AH JH 5H", [(0, "TH"), (1, "9H"), (2, "2H")], bids=(3, 3, 3, 3)) == ["JH"]


def test_partner_winning_last_plays_low():
    # seat 1 (partner of 3) holds the trick; seat 3 plays last and keeps its ace
    assert play(3, "AH 5H", [(0, "9H"), (1, "KH"), (2, "2H")]) == ["5H"]


def test_void_ruffs_with_the_lowest_spade():
    assert play(3, "AS 4S 3D", [(0, "9H"), (1, "KH"), (2, "AH")]) == ["4S"]


def test_contract_made_sheds_bags_with_the_highest_loser():
    # side 1 bid 2 and has 4 tricks; side 0 bid 2 and has taken 5: nobody can be set
    assert play(1, "QH 8H 3H", [(0, "KH")], bids=(1, 1, 1, 1), tricks=(3, 2, 2, 2)) == ["QH"]


def test_leader_cashes_a_sure_winner():
    # AH is the highest heart left (KH..2H: KH played); it is cashed before anything else
    assert play(0, "AH 7H 4C 3C 2D", leader=0, played="KH") == ["AH"]


def bid_view(hand, seat=1, bids=(-1, -1, -1, -1), scores=(0, 0), rules=RULES):
    b = np.array([bids], np.int8)
    s = np.array([seat], np.int8)
    legal = bid_masks(b, s, rules)
    return BidView(rows=np.arange(1), seat=s, dealer=np.array([0], np.int8), legal=legal,
                   bids=b, blind=np.zeros((1, 4), bool), scores=np.array([scores], np.int32),
                   bags=np.zeros((1, 2), np.int32), rules=rules, deck=DECK,
                   hand=np.array([mask(hand)], U64))


def test_bid_counts_tricks_as_documented():
    hand = "AS KS 5S 2S AH KH 3H AD 7C 6C 5C 4C 3C"
    # hearts A + guarded K = 1 + 0.75; diamonds A = 1; clubs none; spades A + K = 2, length
    # (4 spades from the 4th on) = 1; ruff: 1 singleton x min(1, 3 spare) x 0.75.
    assert SEED.estimate(bid_view(hand).hand, DECK)[0] == 1.75 + 1 + 2 + 1 + 0.75
    assert SEED.bid(bid_view(hand), RNG)[0] == 7  # floor(6.5 + 0.5)


def test_weak_hand_bids_nil_unless_partner_did():
    hand = "9S 4S 8H 6H 4H 2H 9D 7D 5D 3D 8C 5C 2C"
    assert SEED.estimate(bid_view(hand).hand, DECK)[0] <= 1.25
    assert SEED.bid(bid_view(hand), RNG)[0] == 0
    assert SEED.bid(bid_view(hand, bids=(-1, -1, -1, 0)), RNG)[0] == 1


def test_blind_nil_only_far_behind_and_not_beside_a_nil():
    def view(scores, bids=(-1, -1, -1, -1)):
        v = bid_view("2C", seat=1, scores=scores, bids=bids)
        fields = {f: getattr(v, f) for f in BlindView.__dataclass_fields__}
        return BlindView(**fields)

    assert SEED.blind_nil(view((350, 0)), RNG)[0]
    assert not SEED.blind_nil(view((250, 0)), RNG)[0]
    assert not SEED.blind_nil(view((350, 0), bids=(-1, -1, -1, 0)), RNG)[0]
