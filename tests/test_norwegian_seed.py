"""The Norwegian whist `seed` player (strategies/norwegian_seed.py): the declaration examples of the
seed's advice, each play parameter changing the card on a hand-made position, legal play on every
preset, and a clear win over random play on the same deals."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sim.cards import standard_deck
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.norwegian.auction import GRAND, MISERE, NULLO, PASS
from sim.options import PRESETS
from sim.views import DeclareView, PlayView
from strategies import make_strategy
from strategies.norwegian_seed import NorwegianSeed

DECK = standard_deck()
TWO, THREE, CLASSIC = PRESETS["norwegian"], PRESETS["norwegian.three"], PRESETS["norwegian.classic"]
ZERO_SUM = PRESETS["norwegian.zero_sum"]
RNG = np.random.default_rng(0)


def seed(**params) -> NorwegianSeed:
    return make_strategy({"name": "seed", **params}, game="norwegian")


def cards(text: str) -> int:
    return DECK.mask_of(text.split())


def declare_view(rules, hand: str, seat=1, dealer=0) -> DeclareView:
    legal = {2: (GRAND, MISERE), 3: (PASS, GRAND), 4: (PASS, GRAND, NULLO)}[rules.players]
    return DeclareView(rows=np.arange(1), seat=np.array([seat], np.int8),
                       dealer=np.array([dealer], np.int8),
                       hand=np.array([cards(hand)], np.uint64),
                       legal=np.array([sum(1 << c for c in legal)], np.uint8),
                       declarations=np.full((1, rules.players), -1, np.int8),
                       scores=np.zeros((1, rules.sides), np.int32), rules=rules, deck=DECK)


def declares(strategy, rules, hand: str, **kw) -> int:
    view = declare_view(rules, hand, **kw)
    code = int(strategy.declare(view, RNG)[0])
    assert int(view.legal[0]) >> code & 1
    return code


def play_view(rules, seat: int, hand: str, trick=(), earlier=(), contract=GRAND, declarer=0,
              grand_player=0) -> PlayView:
    """One position: ``trick`` the (seat, card) plays of the current trick so far, ``earlier``
    the earlier tricks, each a list of (seat, card) in order of play."""
    players = rules.players
    mine = cards(hand)
    bit = {name: DECK.bit_of(name) for name in DECK.names if name}
    played = 0
    for t in earlier:
        for _, card in t:
            played |= 1 << bit[card]
    in_trick = led = winning = 0
    winning_seat = -1
    for j, (who, card) in enumerate(trick):
        b = 1 << bit[card]
        in_trick |= b
        if j == 0:
            led = int(DECK.suit_masks[bit[card] // 13])
        if b & led and b > winning:
            winning, winning_seat = b, who
    follow = mine & led
    legal = follow or mine
    voids = np.zeros((1, players), np.uint8)  # every card off the led suit shows a void
    for t in [*earlier, trick]:
        for who, card in t[1:]:
            if bit[card] // 13 != bit[t[0][1]] // 13:
                voids[0, who] |= 1 << (bit[t[0][1]] // 13)
    history = [bit[c] for t in earlier for _, c in t]
    history_seats = [s for t in earlier for s, _ in t]
    leader = trick[0][0] if trick else seat
    one = np.array
    return PlayView(
        rows=np.arange(1), seat=one([seat], np.int8), hand=one([mine], np.uint64),
        legal=one([legal], np.uint64), position=len(trick), trick_no=len(earlier),
        leader=one([leader], np.int8), in_trick=one([in_trick], np.uint64),
        led=one([led], np.uint64), trump=np.zeros(1, np.uint64),
        winning=one([winning], np.uint64), winning_seat=one([winning_seat], np.int8),
        played=one([played], np.uint64), history=one([history], np.int8).reshape(1, -1),
        history_seats=one([history_seats], np.int8).reshape(1, -1),
        tricks=np.zeros((1, players), np.int8), voids=voids, scores=np.zeros((1, rules.sides), np.int32),
        rules=rules, deck=DECK, declarations=np.full((1, players), -1, np.int8),
        contract=one([contract], np.int8), declarer=one([declarer], np.int8),
        grand_player=one([grand_player], np.int8))


def plays(strategy, view) -> str:
    card = int(strategy.play(view, RNG)[0])
    assert card & int(view.legal[0]) and card.bit_count() == 1
    return DECK.names_of(card)[0]


# ---------------------------------------------------------------------------------- registry
def test_make_strategy_gives_the_norwegian_seed_with_its_parameters():
    s = make_strategy("seed", game="norwegian")
    assert type(s) is NorwegianSeed and s == NorwegianSeed()
    five = make_strategy({"name": "seed", "grand_at": 5}, game="norwegian")
    assert five.grand_at == 5 and make_strategy(five.to_dict(), game="norwegian") == five
    assert type(make_strategy("seed", game="portland")).__name__ == "PortlandSeed"
    with pytest.raises(UserError, match="not a int"):
        make_strategy({"name": "seed", "run_length": 4.5}, game="norwegian")
    for f in dataclasses.fields(NorwegianSeed):
        assert type(f.default) in (bool, int, float), f.name


# -------------------------------------------------------------------------------- declaring
# Hands with five low cards (2-6: the average), no queen and no suit of six, so that their value
# is their number of aces and kings.
FOUR_HONOURS = "AS KS 2S 3S AH 4H 9H KD 5D TD 6C 7C 8C"
TWO_HONOURS = "AS 2S 7S 8S KH 3H 9H 4D 9D TD 5C 6C JC"


def test_two_players_grand_with_four_aces_and_kings_misere_with_two():
    assert seed().hand_value(np.array([cards(FOUR_HONOURS)], np.uint64), DECK)[0] == 4
    assert declares(seed(), TWO, FOUR_HONOURS) == GRAND
    assert declares(seed(), TWO, TWO_HONOURS) == MISERE
    assert declares(seed(grand_at=5), TWO, FOUR_HONOURS) == MISERE
    assert declares(seed(grand_at=2), TWO, TWO_HONOURS) == GRAND


def test_a_long_suit_pushes_toward_grand():
    # the same ranks, once 4-4-3-2 and once with six spades: 3 aces and kings, a queen
    # (0.75) and six low cards (-1) make 2.75, below grand_at; the long suit adds 0.5
    balanced = "AS 2S 3S 7S AH 4H 5H 8H KD 6D 9D QC 2C"
    long = "AS 2S 3S 7S 4S 5S AH 8H KD 6D 9D QC 2C"
    assert declares(seed(), TWO, balanced) == MISERE
    assert declares(seed(), TWO, long) == GRAND
    assert declares(seed(long_value=0.0), TWO, long) == MISERE
    assert declares(seed(long_suit=7), TWO, long) == MISERE


def test_many_low_cards_favour_misere():
    # four aces and kings but nine low cards
    low_hand = "AS KS 2S 3S AH KH 4H 2D 3D 5D 6D 2C 4C"
    assert declares(seed(), TWO, low_hand) == MISERE
    assert declares(seed(low_value=0.0), TWO, low_hand) == GRAND
    # the spread: the same ranks with a suit holding no low card
    assert declares(seed(grand_at=4.0), TWO, FOUR_HONOURS) == GRAND
    bunched = "AS KS 2S 3S 4S AH 9H KH 5D 6D TD 7C 8C"
    assert declares(seed(grand_at=4.5), TWO, bunched) == MISERE
    assert declares(seed(grand_at=4.5, spread_value=0.5), TWO, bunched) == GRAND
    assert declares(seed(grand_at=4.5, spread_value=0.5), TWO, FOUR_HONOURS) == MISERE


def test_three_players_grand_or_pass_and_the_seat_before_the_dealer():
    # 17 cards: 5 aces and kings and 5 low cards (1.5 under the average 6.5): 6.5
    strong = "AS KS 2S 3S 7S AH KH 4H 8H AD 5D 9D TD 6C 7C 8C 9C"
    weak = "AS KS 2S 3S 7S AH 9H 4H 8H JD 5D 9D TD 6C 7C 8C 9C"  # 3 aces and kings: 4.5
    assert declares(seed(), THREE, strong) == GRAND
    assert declares(seed(), THREE, weak) == PASS
    assert declares(seed(grand_at_three=3.0), THREE, weak) == GRAND
    # dealer 0: seat 1 speaks first, seat 2 is the last before the dealer
    assert declares(seed(dealer_discount=0.25), THREE, weak, seat=2) == PASS
    assert declares(seed(dealer_discount=1.0), THREE, weak, seat=2) == GRAND
    assert declares(seed(dealer_discount=1.0), THREE, weak, seat=1) == PASS


def test_classic_grand_nullo_or_pass():
    strong = "AS KS 2S 3S AH KH 9H KD 5D TD 6C 7C 8C"  # 5 aces and kings, 4 low cards: 6
    middle = "AS KS 2S 3S AH 4H 9H KD 5D TD 6C 7C 8C"  # 4 aces and kings: pass
    assert declares(seed(), CLASSIC, strong) == GRAND
    assert declares(seed(), CLASSIC, middle) == PASS
    assert declares(seed(), CLASSIC, TWO_HONOURS) == NULLO
    assert declares(seed(nullo_at=1.0), CLASSIC, TWO_HONOURS) == PASS
    assert declares(seed(classic_grand_at=4.0), CLASSIC, middle) == GRAND


# ------------------------------------------------------------------------- play: misère side
def test_misere_follows_with_the_highest_card_that_still_loses():
    # 2 players: the grand player (seat 0) led the 9 of spades
    view = play_view(TWO, 1, "2S 7S 8S JS 3H", trick=[(0, "9S")])
    assert plays(seed(), view) == "8S"
    assert plays(seed(duck_high=False), view) == "2S"
    # forced to win as the last player: with the highest card
    assert plays(seed(), play_view(TWO, 1, "JS QS 3H", trick=[(0, "9S")])) == "QS"


def test_misere_throws_its_highest_card_when_void():
    view = play_view(TWO, 1, "AH 3H KD 2C", trick=[(0, "9S")])
    assert plays(seed(), view) == "AH"
    assert plays(seed(void_throw_high=False), view) == "2C"
    # a sure winner goes first: the jack of diamonds is the highest card still out
    earlier = [[(0, "AD"), (1, "2D")], [(0, "KD"), (1, "3D")], [(0, "QD"), (1, "4D")]]
    sure = play_view(TWO, 1, "KH JD 2C", trick=[(0, "9S")], earlier=earlier)
    assert plays(seed(), sure) == "JD"


def test_misere_leads_short_suits_first_then_low_cards_in_the_band():
    # the misère player (seat 1) leads; the grand player wants tricks
    view = play_view(TWO, 1, "2S 3S 4S 5S 6S 9H 8D TD JD QD 7C 9C TC", grand_player=0)
    assert plays(seed(), view) == "9H"  # the singleton
    assert plays(seed(shed_short=0), view) == "2S"
    assert plays(seed(shed_short=0, lead_from=3, lead_to=8), view) == "5S"
    assert plays(seed(shed_short=0, lead_from=7, lead_to=8), view) == "9C"


def test_misere_does_not_lead_a_suit_the_grand_player_is_void_in():
    # seat 0 (grand) showed out of diamonds: a diamond lead would surely take the trick
    earlier = [[(1, "9D"), (0, "2C")]]
    view = play_view(TWO, 1, "2D 5S 6S 7S 8H 9H TH", earlier=earlier)
    assert plays(seed(), view) == "5S"
    assert plays(seed(read_voids=False), view) == "2D"


def test_a_partner_sure_to_take_the_trick_is_the_time_to_throw_a_high_card():
    # classic nullo, last to play: partner (seat 1) wins with the jack; we take it anyway
    view = play_view(CLASSIC, 3, "2S QS 5H", trick=[(0, "5S"), (1, "JS"), (2, "3S")],
                     contract=NULLO, declarer=-1, grand_player=-1)
    assert plays(seed(), view) == "QS"
    assert plays(seed(ally_throw_high=False), view) == "2S"
    # the 3-player misère team alike: seats 1 and 2 against the grand player 0
    team = play_view(THREE, 2, "2S QS 5H", trick=[(0, "5S"), (1, "JS")])
    assert plays(seed(), team) == "QS"
    assert plays(seed(ally_throw_high=False), team) == "2S"


# -------------------------------------------------------------------------- play: grand side
def test_grand_runs_a_long_suit_before_cashing_other_winners():
    view = play_view(TWO, 0, "KS QS JS TS 9S AH 3H 4D 5D 6D 2C 3C 4C")
    assert plays(seed(), view) == "KS"
    assert plays(seed(run_length=6), view) == "AH"


def test_grand_cashes_a_suit_the_opponent_is_void_in():
    earlier = [[(0, "AD"), (1, "2C")]]
    view = play_view(TWO, 0, "5D KS 3S 7H", earlier=earlier)
    assert plays(seed(), view) == "5D"
    assert plays(seed(read_voids=False), view) == "KS"


def test_grand_leads_low_into_opponents_who_want_tricks():
    # classic grand, declarer 0 leads: the ace of spades is out with three players
    view = play_view(CLASSIC, 1, "KS 7S 5S 3S 8H 6H TH 4D 2D 9D 7C 5C 3C", contract=GRAND,
                     declarer=1, grand_player=1)
    assert plays(seed(), view) == "3S"
    assert plays(seed(top_risk=99.0), view) == "KS"
    # against a misère opponent (2 players) the top card is led whatever the risk
    assert plays(seed(), play_view(TWO, 0, "KS 7S 5S 3S 8H 6H 4D")) == "KS"


def test_grand_wins_cheaply_or_gives_its_lowest_card():
    assert plays(seed(), play_view(TWO, 0, "TS KS AS 2H", trick=[(1, "9S")])) == "TS"
    assert plays(seed(), play_view(TWO, 0, "3S 5S 2H", trick=[(1, "9S")])) == "3S"
    # void: the lowest card, keeping the ace
    assert plays(seed(), play_view(TWO, 0, "AH 5H 4D", trick=[(1, "9S")])) == "4D"


def test_leave_the_trick_to_the_partner_playing_last():
    # classic grand, second to play; partner (seat 3) plays last; the ace is out
    view = play_view(CLASSIC, 1, "KS 2S 5H", trick=[(0, "5S")], contract=GRAND, declarer=1,
                     grand_player=1)
    assert plays(seed(), view) == "2S"
    assert plays(seed(leave_to_ally=False), view) == "KS"
    # last to play: partner's winning queen is left alone, an opponent's is taken
    earlier = [[(1, "AS"), (2, "3S"), (3, "4S"), (0, "6S")]]
    for trick, card in (([(2, "7S"), (3, "QS"), (0, "8S")], "2S"),
                        ([(2, "7S"), (3, "5S"), (0, "QS")], "KS")):
        view = play_view(CLASSIC, 1, "KS 2S 5H", trick=trick, earlier=earlier, contract=GRAND,
                         declarer=1, grand_player=1)
        assert plays(seed(), view) == card


def test_zero_sum_opponents_spoil_the_declarers_contract():
    # the declarer (seat 1) chose grand; the dealer (seat 0, misère) follows last
    def view(rules):
        return play_view(rules, 0, "TS 2S 5H", trick=[(1, "9S")], declarer=1, grand_player=1)

    assert plays(seed(), view(ZERO_SUM)) == "TS"  # takes the declarer's trick
    assert plays(seed(spoil=False), view(ZERO_SUM)) == "2S"
    assert plays(seed(), view(TWO)) == "2S"  # scoring "both": its own table, misère


# ---------------------------------------------------------------------------- whole hands
def block(rules, seats, size=2000, seed_=1):
    lineup = Lineup(seats)
    return GAMES["norwegian"].play_block(rules, lineup, seed=seed_, block=0, size=size,
                                         mode="hands").outcomes[0]


@pytest.mark.parametrize("preset", ["norwegian", "norwegian.zero_sum", "norwegian.three",
                                    "norwegian.double", "norwegian.classic"])
def test_legal_play_on_every_preset(preset):
    rules = PRESETS[preset]
    out = block(rules, [seed()] * rules.players, size=500)  # the engine raises on illegal play
    assert (out.play.tricks.sum(axis=1) == rules.tricks_per_hand).all()


def test_seed_beats_random_on_the_same_deals():
    rand = make_strategy("random", game="norwegian")
    # 2 players, zero_sum: seed scores in either seat (seat 0 declares half the hands)
    a = block(ZERO_SUM, [seed(), rand]).score.points[:, 0].mean()
    b = block(ZERO_SUM, [rand, seed()]).score.points[:, 1].mean()
    assert a > 3 and b > 3  # measured about +6 a hand, standard error 0.12
    # the grand player takes more tricks (2 players; 3 players), and everyone scores more
    for rules in (TWO, THREE):
        own = block(rules, [seed()] * rules.players)
        base = block(rules, [rand] * rules.players)
        k_own = own.play.tricks[np.arange(2000), own.auction.grand_player].mean()
        k_base = base.play.tricks[np.arange(2000), base.auction.grand_player].mean()
        assert k_own > k_base + 3  # measured 11.5 against 6.6 (2 players), 14.4 against 5.7
        assert own.score.points.mean() > base.score.points.mean() + 5
    # classic: the seed partnership outscores a random one, either way round
    one = block(CLASSIC, [seed(), rand, seed(), rand]).score.points.mean(axis=0)
    two = block(CLASSIC, [rand, seed(), rand, seed()]).score.points.mean(axis=0)
    assert one[0] - one[1] > 5 and two[1] - two[0] > 5  # measured about 12
    # and it declares both ways: grand about half the time with 2 players
    rate = (block(TWO, [seed()] * 2).auction.contract == GRAND).mean()
    assert 0.3 < rate < 0.7


def test_lowest_and_highest_rank_across_suits():
    """The rank-major trick against a plain scan: the lowest (highest) rank of any suit, the
    lowest (highest) suit on a tie, 0 for an empty bitboard."""
    from sim.cards import highest_rank as _highest_rank
    from sim.cards import lowest_rank as _lowest_rank

    rng = np.random.default_rng(3)
    x = np.bitwise_and.reduce(rng.integers(0, 2**52, size=(3, 3000), dtype=np.uint64), axis=0)
    x[:5] = 0
    lo, hi = _lowest_rank(x), _highest_rank(x)
    for i, v in enumerate(x.tolist()):
        cards = [b for b in range(52) if v >> b & 1]  # slot 13 * suit + rank
        order = sorted(cards, key=lambda b: (b % 13, b // 13))
        assert int(lo[i]) == (1 << order[0] if cards else 0)
        assert int(hi[i]) == (1 << order[-1] if cards else 0)
