"""Norwegian whist's deals and the random player's auction (RULES.md section 2) against exact
combinatorics.

The engine (``sim.norwegian.game.play_block``, independent hands, random play) deals N = 100_000
hands with 2 players (13 each, 26 set aside unseen) and with 3 players (17 each, one set aside).
The expected distributions are derived here.

Derivation
----------
The deck is shuffled uniformly and dealt one card at a time, ``c`` cards to each of ``P`` seats; the
other ``52 - P c`` cards are set aside. Whatever the order of dealing, the seats' hands and the
set-aside cards are then a uniformly random partition of the 52 cards into blocks of sizes
(c, ..., c, 52 - P c): every one of the 52! / (c!^P (52 - P c)!) partitions is equally likely.

1. One seat's hand is a uniform c-subset of the 52 cards: the number of cards it holds from a set
   of m marked cards (the 4 aces, the 13 spades) is hypergeometric,
       P(K = k) = C(m, k) C(52 - m, c - k) / C(52, c).
   2 players: aces H(52, 4, 13), spades H(52, 13, 13); 3 players: aces H(52, 4, 17), spades
   H(52, 13, 17). The set-aside block of 2 players (26 cards) holds H(52, 4, 26) aces.

2. Two seats jointly (2 players): seat 0 holds a aces and seat 1 b aces with probability
       C(4, a) C(48, 13 - a) / C(52, 13)  *  C(4 - a, b) C(35 + a, 13 - b) / C(39, 13)
   (seat 0's 13 from 52, then seat 1's 13 from the 39 left, of which 4 - a are aces); the
   multinomial form C(4; a, b, 4 - a - b) C(48; 13 - a, 13 - b, 22 + a + b) / C(52; 13, 13, 26)
   is asserted equal.

3. Where two given cards lie: with blocks of sizes n_1..n_L (seats, then the set-aside cards),
   P(first card in block i, second in block j) = n_i (n_j - [i = j]) / (52 * 51). Hence with 2
   players P(both in one seat's hand) = 2 * 13 * 12 / 2652 = 2/17, P(both set aside) = 25/102;
   with 3 players P(both in one hand) = 3 * 17 * 16 / 2652 = 4/13, P(one of them set aside)
   = 2 * 51 / 2652 = 1/26.

4. Each card is set aside with probability (52 - P c) / 52: 1/2 with 2 players, 1/52 with 3 (the
   set-aside card is uniform over the deck: its suit is uniform, its rank is uniform).

5. The random player (uniform over the legal declarations) in the auction:
   2 players: the non-dealer declares grand or misère, 1/2 each.
   3 players: each seat from the dealer's left says grand with probability 1/2, so the grand
   player is the dealer's left 1/2, the next seat 1/4, the dealer by choice 1/8, and the dealer
   forced (all passed) 1/8: the dealer plays grand 1/4 of the time.
   Classic (4 players): grand, nullo or pass, 1/3 each; the first bid is made by the k-th speaker
   (k = 1..4) with probability (1/3)^(k-1) 2/3, grand or nullo alike, and all four pass with
   probability 1/81 (nullo, the player right of the dealer leads).

Tolerance (as tests/test_deal.py): every observed count is binomial(N, p) and must lie within 5
standard deviations; each table as a whole must pass a chi-square test whose Wilson-Hilferty normal
deviate is below 5; bins with expected count below 20 are pooled. The seed is fixed, so the test is
deterministic. Sensitivity: had the 3-player deal set aside the first card dealt to a fixed seat's
position (or any fixed slot), item 4's chi-square over 52 cards would fail outright; a 2-player deal
of 13 cards each from only 26 fixed cards would fail item 4's 1/2 per card.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from sim.lineup import Lineup
from sim.norwegian.game import play_block
from sim.options import PRESETS
from strategies import make_strategy
from tolerance import SIGMAS, binomial_z, check_distribution, wilson_hilferty

N = 100_000
SEED = 20250606
C = math.comb
ACES = sum(1 << (13 * s + 12) for s in range(4))  # bit 13 * suit + rank, rank A = 12
SPADES = ((1 << 13) - 1) << 39  # suit S = 3
AS, AH, TWO_C = 13 * 3 + 12, 13 * 2 + 12, 0
PRESET = {2: "norwegian", 3: "norwegian.three", 4: "norwegian.classic"}
EACH = {2: 13, 3: 17, 4: 13}
PASS, GRAND, MISERE, NULLO = 0, 1, 2, 3


# --- exact distributions -------------------------------------------------------------------------


def hypergeom(total: int, marked: int, drawn: int, k: int) -> Fraction:
    if not 0 <= k <= min(marked, drawn):
        return Fraction(0)
    return Fraction(C(marked, k) * C(total - marked, drawn - k), C(total, drawn))


def multinomial(n: int, parts: list[int]) -> int:
    assert sum(parts) == n and min(parts) >= 0
    out, left = 1, n
    for p in parts:
        out *= C(left, p)
        left -= p
    return out


def joint_aces(a: int, b: int) -> Fraction:
    """Item 2: seat 0 holds a aces and seat 1 b aces (2 players)."""
    if a + b > 4:
        return Fraction(0)
    return (Fraction(C(4, a) * C(48, 13 - a), C(52, 13))
            * Fraction(C(4 - a, b) * C(35 + a, 13 - b), C(39, 13)))


def pair_locations(sizes: list[int]) -> dict[tuple[int, int], Fraction]:
    """Item 3: the blocks of two given cards."""
    return {(i, j): Fraction(sizes[i] * (sizes[j] - (i == j)), 52 * 51)
            for i in range(len(sizes)) for j in range(len(sizes))}


def test_the_derivations_agree():
    for a in range(5):
        for b in range(5 - a):
            multi = Fraction(multinomial(4, [a, b, 4 - a - b])
                             * multinomial(48, [13 - a, 13 - b, 22 + a + b]),
                             multinomial(52, [13, 13, 26]))
            assert joint_aces(a, b) == multi, (a, b)
    assert sum(joint_aces(a, b) for a in range(5) for b in range(5)) == 1
    # the marginal of the joint is the hypergeometric of item 1
    for a in range(5):
        assert sum(joint_aces(a, b) for b in range(5)) == hypergeom(52, 4, 13, a)
    two, three = pair_locations([13, 13, 26]), pair_locations([17, 17, 17, 1])
    assert sum(two.values()) == sum(three.values()) == 1
    assert two[0, 0] + two[1, 1] == Fraction(2, 17) and two[2, 2] == Fraction(25, 102)
    assert sum(three[i, i] for i in range(3)) == Fraction(4, 13)
    assert sum(three[i, 3] + three[3, i] for i in range(3)) == Fraction(1, 26)
    assert three[3, 3] == 0
    # the auction (item 5)
    assert Fraction(1, 2) + Fraction(1, 4) + Fraction(1, 8) + Fraction(1, 8) == 1
    assert sum(Fraction(1, 3) ** (k - 1) * Fraction(2, 3) for k in range(1, 5)) + \
        Fraction(1, 81) == 1


# --- the engine's hands ------------------------------------------------------------------------


@functools.cache
def block(players: int):
    """N independent hands, random play (dealers rotate over the seats)."""
    rules = PRESETS[PRESET[players]]
    lineup = Lineup([make_strategy("random", game="norwegian")] * players)
    res = play_block(rules, lineup, SEED + players, 0, N, "hands")
    assert res.hands.shape == (N, players)
    return res


def count(mask_array: np.ndarray, marked: int) -> np.ndarray:
    return np.bitwise_count(mask_array & np.uint64(marked)).astype(np.int64)


def undealt(res) -> np.ndarray:
    return ~np.bitwise_or.reduce(res.hands, axis=1) & np.uint64((1 << 52) - 1)


def locations(res, card: int) -> np.ndarray:
    """The seat holding ``card`` in each deal, P if it was set aside."""
    players = res.hands.shape[1]
    held = (res.hands >> np.uint64(card)) & np.uint64(1)
    assert (held.sum(axis=1) <= 1).all()
    return np.where(held.any(axis=1), held.argmax(axis=1), players)


@pytest.mark.parametrize("players", [2, 3])
def test_block_shape(players):
    res = block(players)
    assert (np.bitwise_count(res.hands) == EACH[players]).all()
    assert (np.bitwise_count(undealt(res)) == 52 - players * EACH[players]).all()
    dealers = np.bincount(res.dealer, minlength=players)  # rotating: as even as N allows
    assert dealers.sum() == N and dealers.max() - dealers.min() <= 1


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize(("what", "marked", "m"), [("aces", ACES, 4), ("spades", SPADES, 13)],
                         ids=["aces", "spades"])
def test_cards_of_a_kind_in_a_hand(players, what, marked, m):
    """Item 1, for every seat, and for the dealer's hand and the dealer's left's separately."""
    res, each = block(players), EACH[players]
    probs = {k: hypergeom(52, m, each, k) for k in range(m + 1)}
    for seat in range(players):
        check_distribution(Counter(count(res.hands[:, seat], marked).tolist()), probs, N,
                           f"{what} of seat {seat}, {players} players")
    rows = np.arange(N)
    for j, role in ((0, "dealer"), (1, "dealer's left")):
        seat = (res.dealer.astype(np.intp) + j) % players
        check_distribution(Counter(count(res.hands[rows, seat], marked).tolist()), probs, N,
                           f"{what} of the {role}, {players} players")


def test_two_players_joint_aces():
    """Item 2."""
    res = block(2)
    a, b = count(res.hands[:, 0], ACES), count(res.hands[:, 1], ACES)
    probs = {(i, j): joint_aces(i, j) for i in range(5) for j in range(5)}
    check_distribution(Counter(zip(a.tolist(), b.tolist(), strict=True)), probs, N,
                       "aces of seats 0 and 1")


def test_two_players_set_aside():
    """Item 4 with 2 players: each card set aside with probability 1/2; the 26 set-aside cards hold
    H(52, 4, 26) aces."""
    rest = undealt(block(2))
    per_card = np.array([int(((rest >> np.uint64(c)) & np.uint64(1)).sum()) for c in range(52)])
    z = binomial_z(per_card, N, 0.5)
    assert np.abs(z).max() < SIGMAS, z.round(2)
    # as a whole: every deal sets aside exactly 26, so the 52 indicators of a deal have covariance
    # v (52/51) (I - J/52) (v = 1/4) and sum(z^2) is (52/51) chi-square with 51 degrees of freedom
    assert wilson_hilferty(float((z ** 2).sum()) * 51 / 52, 51) < SIGMAS
    check_distribution(Counter(count(rest, ACES).tolist()),
                       {k: hypergeom(52, 4, 26, k) for k in range(5)}, N, "set-aside aces")


def test_three_players_set_aside_card_is_uniform():
    """Item 4 with 3 players: the one set-aside card is uniform over the 52, so its suit and rank
    are uniform; and it is uniform for every dealer alike."""
    res = block(3)
    rest = undealt(res)
    slot = np.bitwise_count(rest - np.uint64(1)).astype(np.int64)  # the index of its one bit
    assert (np.uint64(1) << slot.astype(np.uint64) == rest).all()
    check_distribution(Counter(slot.tolist()), {c: Fraction(1, 52) for c in range(52)}, N,
                       "set-aside card")
    check_distribution(Counter((slot // 13).tolist()), {s: Fraction(1, 4) for s in range(4)}, N,
                       "set-aside suit")
    check_distribution(Counter((slot % 13).tolist()), {r: Fraction(1, 13) for r in range(13)}, N,
                       "set-aside rank")
    for dealer in range(3):
        mine = res.dealer == dealer
        check_distribution(Counter((slot[mine] // 13).tolist()),
                           {s: Fraction(1, 4) for s in range(4)}, int(mine.sum()),
                           f"set-aside suit, dealer {dealer}")


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("pair", [(AS, AH), (TWO_C, AS)], ids=["AS-AH", "2C-AS"])
def test_where_two_cards_lie(players, pair):
    """Item 3: the joint location (seat or set aside) of two given cards, and the headline
    probabilities of both in one hand."""
    res = block(players)
    sizes = [EACH[players]] * players + [52 - players * EACH[players]]
    probs = pair_locations(sizes)
    first, second = locations(res, pair[0]), locations(res, pair[1])
    check_distribution(Counter(zip(first.tolist(), second.tolist(), strict=True)), probs, N,
                       f"cards {pair}, {players} players")
    same_hand = (first == second) & (first < players)
    p = Fraction(2, 17) if players == 2 else Fraction(4, 13)
    assert abs(binomial_z(same_hand.sum(), N, float(p))) < SIGMAS


# --- the random player's auction (item 5) --------------------------------------------------------


def test_two_players_declaration():
    res = block(2)
    a = res.outcomes[0].auction
    check_distribution(Counter(a.contract.tolist()), {GRAND: Fraction(1, 2),
                                                      MISERE: Fraction(1, 2)}, N, "declaration")


def test_three_players_who_plays_grand():
    res = block(3)
    a = res.outcomes[0].auction
    place = (a.grand_player.astype(np.int64) - res.dealer) % 3  # 1: dealer's left, 2, 0: dealer
    who = np.where(a.forced, "forced", place.astype(str))
    check_distribution(Counter(who.tolist()), {"1": Fraction(1, 2), "2": Fraction(1, 4),
                                               "0": Fraction(1, 8), "forced": Fraction(1, 8)},
                       N, "the grand player")
    assert (a.grand_player[a.forced] == res.dealer[a.forced]).all()


def test_classic_first_bid():
    res = block(4)
    a = res.outcomes[0].auction
    place = (a.declarer.astype(np.int64) - res.dealer) % 4  # 1..3, 0: the dealer (4th speaker)
    speaker = np.where(a.forced, 0, np.where(place == 0, 4, place))
    kind = np.where(a.contract == GRAND, "grand", "nullo")
    probs = {(k, c): Fraction(1, 3) ** k for k in range(1, 5) for c in ("grand", "nullo")}
    probs[(0, "nullo")] = Fraction(1, 81)  # all passed
    check_distribution(Counter(zip(speaker.tolist(), kind.tolist(), strict=True)), probs, N,
                       "the first bid")
    assert (a.leader[a.forced] == (res.dealer[a.forced] + 3) % 4).all()
