"""The Portland ``expert`` (strategies/portland_expert.py): hand-made positions in which each skill
decides the card (and, with the skill off or as the seed plays, another card is chosen), what it
knows of the other hands, and legal play under every Portland preset."""

from __future__ import annotations

import numpy as np
import pytest

import strategies.portland_expert  # noqa: F401  (registers the Portland expert)
from sim.cards import BIT, U64, standard_deck
from sim.games import game_of
from sim.lineup import Lineup
from sim.options import PRESETS
from sim.views import PlayView
from strategies import make_strategy
from strategies.expert import ExpertStrategy
from strategies.portland_expert import PortlandExpert, _Table
from whistlab.api import simulate

DECK = standard_deck()
RULES = PRESETS["portland"]
ROWS = 3  # each position is played by a batch of identical rows


def mask(*names) -> int:
    return DECK.mask_of(names)


def _winner(cards, leader, trump):
    led = DECK.suit_of_bit[DECK.bit_of(cards[0])]
    best = 0
    for j, c in enumerate(cards):
        suit, b = DECK.suit_of_bit[DECK.bit_of(c)], DECK.bit_of(c)
        bsuit, bb = DECK.suit_of_bit[DECK.bit_of(cards[best])], DECK.bit_of(cards[best])
        if (suit == trump and (bsuit != trump or b > bb)) or (
                suit == led and bsuit == led and b > bb):
            best = j
    return (leader + best) % 4, cards[best]


def position(hand, tricks=(), current=(), trump="S", dealer=3, turn_up=None, visible=None):
    """A PlayView of the seat to play: ``tricks`` the earlier tricks (4 card names each, from
    their leader, elder hand first, then each trick's winner), ``current`` this trick's cards so
    far, ``hand`` the acting seat's remaining cards."""
    trump_suit = "CDHS".index(trump) if trump else -1
    leader = (dealer + 1) % 4
    history, seats, voids = [], [], [0] * 4
    won = [0] * 4
    played = 0
    for cards in tricks:
        led = DECK.suit_of_bit[DECK.bit_of(cards[0])]
        for j, c in enumerate(cards):
            history.append(DECK.bit_of(c))
            seats.append((leader + j) % 4)
            if DECK.suit_of_bit[DECK.bit_of(c)] != led:
                voids[(leader + j) % 4] |= 1 << led
        played |= mask(*cards)
        leader, _ = _winner(cards, leader, trump_suit)
        won[leader] += 1
    seat = (leader + len(current)) % 4
    led_mask = winning = 0
    winning_seat = -1
    if current:
        led = DECK.suit_of_bit[DECK.bit_of(current[0])]
        led_mask = int(DECK.suit_masks[led])
        for j, c in enumerate(current[1:], 1):
            if DECK.suit_of_bit[DECK.bit_of(c)] != led:
                voids[(leader + j) % 4] |= 1 << led
        winning_seat, card = _winner(list(current), leader, trump_suit)
        winning = 1 << DECK.bit_of(card)
    h = mask(*hand)
    follow = h & led_mask
    legal = follow or h

    def col(x, dtype=U64):
        return np.full(ROWS, x, dtype=dtype)

    trump_bits = int(DECK.suit_masks[trump_suit]) if trump else 0
    turned = BIT[DECK.bit_of(turn_up or f"2{trump or 'C'}")]
    k = len(history)
    return PlayView(
        rows=np.arange(ROWS), seat=col(seat, np.int8), hand=col(h), legal=col(legal),
        position=len(current), trick_no=len(tricks), leader=col(leader, np.int8),
        in_trick=col(mask(*current)), led=col(led_mask), trump=col(trump_bits),
        winning=col(winning), winning_seat=col(winning_seat, np.int8), played=col(played),
        history=np.tile(np.array(history, np.int8), (ROWS, 1)).reshape(ROWS, k),
        history_seats=np.tile(np.array(seats, np.int8), (ROWS, 1)).reshape(ROWS, k),
        tricks=np.tile(np.array(won, np.int8), (ROWS, 1)),
        voids=np.tile(np.array(voids, np.uint8), (ROWS, 1)), scores=np.zeros((ROWS, 2), np.int32),
        rules=RULES, deck=DECK, turn_up=np.full(ROWS, turned, U64),
        visible=None if visible is None else col(mask(*visible)))


def play(view, **params):
    card = make_strategy({"name": "expert", **params}, game="portland").play(view, None)
    assert np.all(card == card[0]) and np.all((card & view.legal) == card)
    return DECK.names_of(card[0])[0]


def seed_play(view):
    card = make_strategy("seed", game="portland").play(view, None)
    return DECK.names_of(card[0])[0]


def test_make_strategy_gives_the_portland_expert():
    assert isinstance(make_strategy("expert", game="portland"), PortlandExpert)
    assert isinstance(make_strategy("expert"), ExpertStrategy)  # Spades keeps its own expert
    assert make_strategy({"name": "expert", "draw_margin": 9.0},
                         game="portland").draw_margin == 9.0


# --- trump control -----------------------------------------------------------------------------

def test_draws_trumps_with_the_majority():
    # five top trumps of thirteen: own 5 + 8/3 expected with partner against 16/3
    view = position(["AS", "KS", "QS", "JS", "TS", "7H", "4H", "2H", "9D", "5D", "3D", "8C",
                     "6C"])
    assert play(view) == "AS"
    assert play(view, draw_margin=99.0) != "AS"


def test_counts_the_trumps_out_exactly():
    # Spades led three times; partner (seat 2) showed out on the second round; one trump is
    # still out, the 2S turned up by the dealer (seat 3 holds it): two trumps against one
    tricks = [["AS", "3S", "4S", "5S"],  # seat 0 leads and wins each round
              ["KS", "6S", "7H", "8S"],  # partner discards: void in spades
              ["QS", "7S", "8H", "9S"]]
    hand = ["JS", "TS", "TH", "6H", "5D", "4D", "3D", "7C", "6C", "2C"]
    view = position(hand, tricks, turn_up="2S")
    table = _Table(view)
    assert np.all((table.poss[3] & view.trump) == mask("2S"))  # the dealer's turned-up trump
    assert np.all((table.poss[1] & view.trump) == 0) and np.all((table.poss[2] & view.trump) == 0)
    assert play(view, draw_margin=0.5) == "JS"  # two against one: draw it
    assert seed_play(view) != "JS"  # the seed's guess (2 + 1/3 < 5) does not draw
    # both opponents out of trumps: no trump lead, however many are held
    tricks = [["AS", "3H", "4S", "5H"], ["KS", "6H", "7S", "8H"]]
    hand = ["QS", "JS", "TS", "TH", "7H", "5D", "4D", "3D", "7C", "6C", "2C"]
    view = position(hand, tricks, turn_up="2D")
    assert play(view)[1] != "S"
    assert play(view, draw_margin=-99.0)[1] != "S"


# --- ruffing and the partner's winner ----------------------------------------------------------

def test_does_not_ruff_the_partners_sure_winner():
    # partner (seat 2) leads the boss AH, seat 3 follows; seat 0 is void in hearts: it discards
    hand = ["5S", "4S", "9D", "8D", "KC", "3C"]
    view = position(hand, current=["AH", "2H"], dealer=1)
    assert view.seat[0] == 0 and view.winning_seat[0] == 2
    assert play(view)[1] != "S"
    # an opponent's winner (seat 1's KH) is ruffed, with the lowest trump
    view = position(hand, current=["KH", "2H", "3H"], dealer=0)
    assert view.seat[0] == 0 and view.winning_seat[0] == 1
    assert play(view) == "4S"


def test_ruffs_the_partners_winner_that_fourth_hand_would_ruff():
    # seat 1 (fourth hand) showed out of hearts and may hold trumps: partner's AH is not safe,
    # so seat 0 ruffs it with the trump that holds (the AS); counting no voids, it discards
    tricks = [["KH", "3H", "4H", "6C"]]  # partner leads and wins; seat 1 discards a club
    hand = ["AS", "5S", "9D", "8D", "KC", "3C"]
    view = position(hand, tricks, current=["AH", "7H"], dealer=1)
    assert view.seat[0] == 0 and view.winning_seat[0] == 2
    assert play(view) == "AS"
    assert play(view, count=False)[1] != "S"


# --- leads -------------------------------------------------------------------------------------

def test_no_lead_into_an_opponents_void_while_he_may_hold_trumps():
    # left-hand opponent (seat 1) discarded on seat 0's AH and may hold trumps: seat 0's long
    # hearts are not led again
    tricks = [["AH", "3C", "4H", "5H"]]
    hand = ["KH", "JH", "9H", "8H", "7H", "QD", "6D", "8C", "7C", "3S", "2S"]
    view = position(hand, tricks, dealer=3)
    assert view.seat[0] == 0
    assert play(view, safe_leads=True)[1] != "H"  # a skill measured no better: off by default
    assert play(view)[1] == "H"


def test_leads_the_partners_void_while_he_may_ruff():
    # partner (seat 2) showed out of diamonds; trumps are out; seat 0 leads a diamond for him
    tricks = [["AD", "3D", "4C", "5D"]]
    hand = ["8D", "7D", "QH", "JH", "9H", "6H", "5H", "KC", "9C", "3S", "2S"]
    view = position(hand, tricks, dealer=3)
    assert view.seat[0] == 0
    assert play(view) == "7D"
    assert play(view, lead_partner_void=False)[1] == "H"  # else the longest suit


def test_returns_the_partners_lead():
    # partner (seat 2) led clubs; seat 0 won with the AC and leads back a club, not its hearts
    tricks = [["4D", "5D", "KD", "6D"],  # seat 0 leads, partner wins with the KD
              ["3C", "9C", "AC", "8C"]]  # partner leads the 3C, seat 0 wins
    hand = ["JC", "5C", "TH", "9H", "8H", "7H", "6H", "7D", "2D", "3S", "2S"]
    view = position(hand, tricks, dealer=3)
    assert view.seat[0] == 0
    assert play(view, return_lead=True) == "5C"  # measured no better: off by default
    assert play(view)[1] == "H"  # the longest suit


def test_reads_the_partners_high_card_under_a_trick():
    # seat 0 leads the AD; partner (seat 2) follows with the QD under it: a card of rank
    # signal_rank or more in a trick he did not win -> seat 0 leads diamonds to him
    tricks = [["AD", "3D", "QD", "4D"]]
    hand = ["7D", "6D", "TH", "9H", "8H", "7H", "6H", "9C", "5C", "3S", "2S", "4C"]
    view = position(hand, tricks, dealer=3)
    assert play(view)[1] == "D"
    assert play(view, read_follows=False)[1] == "H"


def test_leads_low_from_a_long_suit_without_its_top():
    view = position(["KH", "9H", "7H", "5H", "3H", "QD", "4D", "9C", "6C", "2C", "5S", "3S",
                     "2S"])
    assert play(view) == "3H"
    assert play(view, lead_low=False) == "KH"
    # the top of a sequence (K Q): the king
    view = position(["KH", "QH", "7H", "5H", "3H", "JD", "4D", "9C", "6C", "2C", "5S", "3S",
                     "2S"])
    assert play(view) == "KH"


# --- following ---------------------------------------------------------------------------------

def test_second_hand_keeps_a_winner_that_fourth_hand_would_ruff():
    # seat 1 showed out of diamonds and may ruff: second hand (seat 0) keeps its AD, plays low
    tricks = [["9D", "2C", "TD", "JD"]]  # seat 0 leads the 9D, seat 1 shows out; seat 3 wins
    hand = ["AD", "4D", "KH", "8H", "7C", "6C", "3S", "2S", "9S", "8S", "7S", "6S"]
    view = position(hand, tricks, current=["5D"], dealer=3)
    assert view.seat[0] == 0 and view.position == 1
    assert play(view) == "4D"
    assert play(view, count=False) == "AD"  # counting no voids, the AD looks sure


def test_discards_from_the_weakest_suit():
    # seat 1 cannot follow spades nor win: it discards the lowest card of its weakest side
    # suit (diamonds, topped by the 9), never from the clubs headed by the AC
    view = position(["AC", "KC", "5C", "7C", "9D", "3D"], current=["4S", "6S"], trump="H",
                    dealer=2)
    assert view.seat[0] == 1
    assert play(view) == "3D"
    assert seed_play(view) == "5C"  # the seed: the lowest slot
    assert play(view, discard_weakest=False) == "5C"


# --- what it knows ------------------------------------------------------------------------------

def test_the_dealer_holds_the_turned_up_trump_and_the_dummy_is_known():
    seven = BIT[DECK.bit_of("7S")]
    hand = ["AS", "KH", "QD", "JC"]
    table = _Table(position(hand, dealer=3, turn_up="7S"))  # seat 0 leads; seat 3 dealt
    assert np.all(table.poss[3] & seven)
    assert not np.any((table.poss[1] | table.poss[2]) & seven)
    table = _Table(position(hand, current=["4H"], dealer=2, turn_up="7S"))  # partner dealt
    assert np.all(table.poss[2] & seven)
    assert not np.any((table.poss[1] | table.poss[3]) & seven)
    dummy = ["2C", "3C", "4D"]  # dummy whist: seat 3's cards face up, seat 0's right
    table = _Table(position(hand, dealer=3, turn_up="7S", visible=dummy))
    assert np.all(table.poss[3] == mask(*dummy))
    assert not np.any((table.poss[1] | table.poss[2]) & mask(*dummy))


# --- whole hands -------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["portland", "portland.seven", "portland.honours",
                                    "portland.long", "portland.no_trump", "portland.dummy",
                                    "portland.laws"])
def test_plays_legally_under_every_preset(preset):
    # the engine refuses an illegal card; both seatings against the seed, and whole games
    for lineup in (["expert", "seed"] * 2, ["seed", "expert"] * 2):
        table = simulate(preset, lineup, hands=500, seed=5)
        assert table.height == 500
    assert simulate(preset, "expert", games=30, seed=6, table="games").height == 30


def test_beats_the_seed_on_the_same_deals():
    a = simulate("portland", ["expert", "seed"] * 2, hands=2000, seed=8)
    b = simulate("portland", ["seed", "expert"] * 2, hands=2000, seed=8)
    assert (a["hand_0"] == b["hand_0"]).all()
    margin = np.concatenate([(a["points_0"] - a["points_1"]).to_numpy(),
                             (b["points_1"] - b["points_0"]).to_numpy()])
    se = margin.std(ddof=1) / np.sqrt(margin.size)
    assert margin.mean() > 10 * se  # measured +1.5 points per hand, some 40 standard errors


# ------------------------------------------- the partner's signals: as the loop first read them
def _partners_suits_written_out(expert, view):
    """`PortlandExpert._partners_suits` as first written (issue 9): a loop over the earlier
    tricks and their cards. The one over all tricks at once must give the same suits."""
    deck, trump, n = view.deck, view.trump, len(view)
    wanted, unwanted = np.zeros(n, dtype=U64), np.zeros(n, dtype=U64)
    partner = view.seat ^ 2
    suit_of = deck.suit_of_bit
    hist, seats = view.history, view.history_seats
    for t in range(view.trick_no):
        led_mask = deck.suit_masks[np.maximum(suit_of[hist[:, 4 * t]], 0)]
        if expert.return_lead:
            first = (seats[:, 4 * t] == partner) & (wanted == 0)
            wanted |= np.where(first, led_mask & ~trump, U64(0))
        won = seats[:, 4 * t + 4] if t + 1 < view.trick_no else view.seat
        for j in range(1, 4):
            slot = hist[:, 4 * t + j]
            card = U64(1) << slot.astype(U64)
            rank = slot - deck.offsets[np.maximum(suit_of[slot], 0)]
            his = (seats[:, 4 * t + j] == partner) & ((card & trump) == 0)
            if expert.read_follows:
                under = his & ((card & led_mask) != 0) & (won != partner)
                wanted |= np.where(under & (rank >= expert.signal_rank), led_mask, U64(0))
            off = his & ((card & led_mask) == 0) & expert.read_discards
            mask = deck.suit_masks[np.maximum(suit_of[slot], 0)]
            high = rank >= expert.signal_rank
            wanted |= np.where(off & high, mask, U64(0))
            unwanted |= np.where(off & ~high, mask, U64(0))
    return wanted & ~unwanted, unwanted


class _CheckedExpert(PortlandExpert):
    """The expert, checking on every lead that the partner's suits it reads are those of
    `_partners_suits_written_out`."""

    def _partners_suits(self, view):
        got = super()._partners_suits(view)
        expected = _partners_suits_written_out(self, view)
        assert all((g == e).all() for g, e in zip(got, expected, strict=True))
        return got


@pytest.mark.parametrize("preset", ["portland", "portland.no_trump", "portland.dummy"])
@pytest.mark.parametrize("reads", [{}, {"read_discards": True, "return_lead": True},
                                   {"read_follows": False, "read_discards": True},
                                   {"return_lead": True, "signal_rank": 9}])
def test_partners_suits_are_the_loop_written_out(preset, reads):
    rules = PRESETS[preset]
    lineup = Lineup([_CheckedExpert(**reads)] * 4)
    assert game_of(rules).play_block(rules, lineup, 2026, 1, 300, "hands").game.shape[0] == 300
