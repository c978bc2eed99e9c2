"""Portland whist's trump suit and honours (RULES.md section 1) against exact combinatorics.

The engine (``sim.portland.game.play_block``, independent hands, random play) deals N = 100_000
hands; trump is the suit of the dealer's turned-up last card, and honours (A K Q J of trump) are
counted per side. The expected distributions are derived here.

Derivation
----------
The deck is shuffled uniformly and dealt one card at a time from the dealer's left, so the dealer
receives the 52nd card, the turn-up T, and every card is equally likely to be T (probability 1/52).

1. Trump suit. P(trump = s) = 13/52 = 1/4 for each suit s; and the turn-up's rank is uniform over
   the 13 ranks, so P(T is an honour) = 4/13.

2. The dealer's side (dealer + partner) holds 26 cards: T and 25 others. Given T, the other 51 cards
   are in uniformly random order, so the dealer's side's other 25 cards are a uniform 25-subset of
   those 51. Let D be the number of honours the dealer's side holds, O = 4 - D the other side's.

   (a) T is an honour (probability 4/13): the dealer's side holds T and X of the 3 other honours,
       X hypergeometric (51 cards, 3 marked, 25 drawn): P(X = j) = C(3, j) C(48, 25 - j) / C(51, 25).
   (b) T is not an honour (9/13): D = Y, hypergeometric (51 cards, 4 marked, 25 drawn):
       P(Y = k) = C(4, k) C(47, 25 - k) / C(51, 25).

       P(D = k) = 4/13 P(X = k - 1) + 9/13 P(Y = k),      P(O = k) = P(D = 4 - k).

   In the "C(26,4)/C(52,4)" form: P(D = 4) = 4/13 C(25,3)/C(51,3) + 9/13 C(25,4)/C(51,4) and
   P(D = 0) = 9/13 C(26,4)/C(51,4) (all four among the other side's 26 of the 51).
   Values: P(D = 0..4) = .0414, .2185, .3902, .2809, .0690 against .0552, .2497, .3902, .2497, .0552
   for a side without the turn-up knowledge (C(4,k) C(48,26-k) / C(52,26)); E[D] = 36/17, which
   linearity confirms: each honour is T with probability 1/13 (given the suit, T's rank is uniform),
   else (12/13) it is one of the 51 others and on the dealer's side with probability 25/51, so
   E[D] = 4 (1/13 + 12/13 * 25/51) = 36/17.

   A second derivation, over the positions of the trump suit instead of T's rank: the trump suit is
   T's suit, so its 13 cards hold T plus a uniform 12-subset of the other 51 cards, i of them on the
   dealer's side (C(25, i) C(26, 12 - i) ways); the 4 honours are a uniform 4-subset of the 13, of
   which 1 + i are on the dealer's side:
       P(D = k) = sum_i C(25, i) C(26, 12 - i) C(1 + i, k) C(12 - i, 4 - k) / (C(51, 12) C(13, 4)).
   The test asserts both derivations agree exactly.

3. "Some side holds all four": P(D = 4) + P(D = 0) = 92/833, exactly 2 C(26,4)/C(52,4) as if no
   card were turned; likewise P(3-1 split) = 416/833 and P(2-2) are unchanged. The reason: given the
   unordered pair of 26-card halves, the dealer's half is either one with probability 1/2 and T is
   uniform within it, so T (hence the trump suit) is independent of the halves; only *which* side
   holds the honours depends on the turn-up. The per-side distributions differ (above).

Tolerance (as tests/test_deal.py): every observed count is binomial(N, p) and must lie within 5
standard deviations; each table as a whole must pass a chi-square test whose Wilson-Hilferty normal
deviate is below 5; bins with expected count below 20 are pooled. The seed is fixed, so the test is
deterministic. Sensitivity: had the engine counted the honours of a suit unrelated to the dealer's
card, D would follow the unconditional distribution: P(D = 4) .0552 instead of .0690 is 17 standard
deviations at N = 100_000, and the mean of D (sd about 0.003) would be off by 0.118.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from sim.lineup import Lineup
from sim.options import PRESETS
from sim.portland.game import play_block
from strategies import make_strategy
from tolerance import SIGMAS, check_distribution

N = 100_000
SEED = 20250602
HONOUR_RANKS = (9, 10, 11, 12)  # J Q K A: rank index 2..A = 0..12 (bit 13 * suit + rank)
C = math.comb


# --- exact distributions -------------------------------------------------------------------------


def hypergeom(total: int, marked: int, drawn: int, k: int) -> Fraction:
    if not 0 <= k <= marked:
        return Fraction(0)
    return Fraction(C(marked, k) * C(total - marked, drawn - k), C(total, drawn))


P_HONOUR_TURNED = Fraction(4, 13)
# given the turn-up is an honour: the dealer's side holds 1 + X, X ~ H(51, 3, 25)
P_D_GIVEN_HONOUR = {k: hypergeom(51, 3, 25, k - 1) for k in range(5)}
# given it is not: D ~ H(51, 4, 25)
P_D_GIVEN_OTHER = {k: hypergeom(51, 4, 25, k) for k in range(5)}
P_D = {k: P_HONOUR_TURNED * P_D_GIVEN_HONOUR[k] + (1 - P_HONOUR_TURNED) * P_D_GIVEN_OTHER[k]
       for k in range(5)}
P_O = {k: P_D[4 - k] for k in range(5)}
# no turn-up knowledge: a side's 26 cards from 52 with 4 honours
P_UNCONDITIONAL = {k: hypergeom(52, 4, 26, k) for k in range(5)}


def test_the_derivations_agree():
    assert sum(P_D.values()) == 1
    assert sum(k * p for k, p in P_D.items()) == Fraction(36, 17)
    assert Fraction(36, 17) == 4 * (Fraction(1, 13) + Fraction(12, 13) * Fraction(25, 51))
    # the second derivation, over the positions of the trump suit's cards
    for k in range(5):
        ways = sum(C(25, i) * C(26, 12 - i) * C(1 + i, k) * C(12 - i, 4 - k) for i in range(13))
        assert Fraction(ways, C(51, 12) * C(13, 4)) == P_D[k], k
    # the "C(26,4)/C(52,4)" forms
    assert P_D[4] == (Fraction(4, 13) * Fraction(C(25, 3), C(51, 3))
                      + Fraction(9, 13) * Fraction(C(25, 4), C(51, 4)))
    assert P_D[0] == Fraction(9, 13) * Fraction(C(26, 4), C(51, 4))
    # unordered splits are those of an unturned deal; the per-side ones are not
    assert P_D[4] + P_D[0] == Fraction(2 * C(26, 4), C(52, 4)) == Fraction(92, 833)
    assert P_D[3] + P_D[1] == 2 * P_UNCONDITIONAL[3] == Fraction(416, 833)
    assert P_D[2] == P_UNCONDITIONAL[2]
    assert P_D[4] > P_UNCONDITIONAL[4] > P_D[0]
    assert [round(float(P_D[k]), 4) for k in range(5)] == [0.0414, 0.2185, 0.3902, 0.2809, 0.0690]


# --- the engine's hands ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def block():
    """N independent hands of portland.honours, random play (dealers rotate over the seats)."""
    rules = PRESETS["portland.honours"]
    res = play_block(rules, Lineup([make_strategy("random")] * 4), SEED, 0, N, "hands")
    (out,) = res.outcomes
    rows = np.arange(N)
    dealer_side = res.dealer.astype(np.intp) % 2
    return dict(
        trump=out.trump.astype(np.int64),
        turn_up=res.turn_up.astype(np.int64),
        dealer=res.dealer.astype(np.int64),
        d=out.honours[rows, dealer_side].astype(np.int64),
        o=out.honours[rows, 1 - dealer_side].astype(np.int64),
        honours=out.honours,
    )


def test_block_shape(block):
    assert block["trump"].shape == (N,)
    assert set(np.unique(block["dealer"]).tolist()) == {0, 1, 2, 3}
    assert (block["trump"] == block["turn_up"] // 13).all()  # trump is the turn-up's suit
    assert (block["d"] + block["o"] == 4).all()  # all four honours are dealt


def test_trump_suit_is_uniform(block):
    check_distribution(Counter(block["trump"].tolist()), {s: Fraction(1, 4) for s in range(4)},
                       N, "trump suit")
    for dealer in range(4):  # for every dealer seat alike
        mine = block["dealer"] == dealer
        check_distribution(Counter(block["trump"][mine].tolist()),
                           {s: Fraction(1, 4) for s in range(4)}, int(mine.sum()),
                           f"trump suit, dealer {dealer}")


def test_turn_up_card_and_rank_are_uniform(block):
    check_distribution(Counter(block["turn_up"].tolist()), {c: Fraction(1, 52) for c in range(52)},
                       N, "turned-up card")
    check_distribution(Counter((block["turn_up"] % 13).tolist()),
                       {r: Fraction(1, 13) for r in range(13)}, N, "turned-up rank")


def test_dealers_side_honours(block):
    check_distribution(Counter(block["d"].tolist()), P_D, N, "honours of the dealer's side")
    var = sum((k - Fraction(36, 17)) ** 2 * p for k, p in P_D.items())
    assert abs(block["d"].mean() - 36 / 17) < SIGMAS * math.sqrt(float(var) / N)


def test_other_sides_honours(block):
    check_distribution(Counter(block["o"].tolist()), P_O, N, "honours of the other side")


def test_honours_given_the_turn_up(block):
    """The two cases of the derivation separately: an honour turned up, or not."""
    honour = np.isin(block["turn_up"] % 13, HONOUR_RANKS)
    check_distribution(Counter(honour.tolist()),
                       {True: P_HONOUR_TURNED, False: 1 - P_HONOUR_TURNED}, N, "honour turned")
    assert (block["d"][honour] >= 1).all()  # the dealer holds the turned-up honour
    check_distribution(Counter(block["d"][honour].tolist()), P_D_GIVEN_HONOUR,
                       int(honour.sum()), "dealer's side, an honour turned up")
    check_distribution(Counter(block["d"][~honour].tolist()), P_D_GIVEN_OTHER,
                       int((~honour).sum()), "dealer's side, no honour turned up")


def test_some_side_holds_four_or_three(block):
    """Unordered splits 4-0, 3-1, 2-2: as for a deal with no card turned (derivation, 3)."""
    split = np.maximum(block["d"], block["o"])
    probs = {4: P_D[4] + P_D[0], 3: P_D[3] + P_D[1], 2: P_D[2]}
    assert probs[4] == Fraction(2 * C(26, 4), C(52, 4))
    check_distribution(Counter(split.tolist()), probs, N, "largest share of the honours")
    # which side holds the 4: the dealer's more often than the other (.0690 against .0414)
    four = Counter(np.where(block["d"] == 4, "dealer", np.where(block["o"] == 4, "other", "none"))
                   .tolist())
    check_distribution(four, {"dealer": P_D[4], "other": P_D[0], "none": 1 - P_D[4] - P_D[0]},
                       N, "who holds all four")


def test_by_side_over_rotating_dealers(block):
    """Side 0 deals half the hands (dealers rotate), so each side's count is the even mixture of
    the dealer's side's and the other side's distributions."""
    mix = {k: (P_D[k] + P_O[k]) / 2 for k in range(5)}
    assert (np.bincount(block["dealer"] % 2, minlength=2) == N // 2).all()
    for side in (0, 1):
        check_distribution(Counter(block["honours"][:, side].tolist()), mix, N, f"side {side}")
