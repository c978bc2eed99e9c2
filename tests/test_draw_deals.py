"""The two-player deals of the search (`strategies.draw_deals`, RULES.md §4.7 ``players = 2``):
drawn exactly from the posterior of the opponent's hand given what the seat saw, under the
seed's and the expert's draw.

The reference is the draw itself: the cards the seat did not see shuffled uniformly into the
opponent's 26 places (and its own unseen discards), the opponent asked by the seed strategy's
own ``draw`` pair by pair (`sim.spades.draw.draw_view`), kept only where the cards he kept fit
the play (those he played his, none of a suit he showed void in). The sampler's deals must have
the same distribution: each card's chance of being his and the law of how many spades he holds.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from sim.cards import BIT, U64, popcount
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.draw import draw_view
from sim.spades.hand import deck_for
from strategies import make_strategy
from strategies.draw_deals import _pair_weights, deal_drawn, levels_of, their_seen
from strategies.seed import _card_value

KEEP_AT = 9  # the seed's ``draw_keep_at``
SEEN = {"see_both": 13, "first_decides": 13, "first_decides_blind": 8}  # discards it saw


def mask(cards) -> np.uint64:
    """The bitboard of the slots ``cards``."""
    return np.bitwise_or.reduce(BIT[np.asarray(cards)]) if len(cards) else U64(0)


def _position(mode: str, seed: int):
    """The seat's cards left and played, its discards seen, the opponent's cards played and the
    cards he cannot hold (a suit he showed void in, less those he played), one row."""
    rules = load_rules({"players": 2, "draw_mode": mode}, source="test")
    deck = deck_for(rules)
    rng = np.random.default_rng(seed)
    slots = np.flatnonzero(deck.suit_of_bit >= 0)
    clubs = rng.permutation(slots[deck.suit_of_bit[slots] == 0])
    # the seat saw all the clubs but two, and the opponent showed void in clubs
    order = np.concatenate([clubs[2:], rng.permutation(np.concatenate(
        [clubs[:2], slots[deck.suit_of_bit[slots] != 0]]))])
    order = np.concatenate([rng.permutation(order[:13 + SEEN[mode]]), order[13 + SEEN[mode]:]])
    own, seen = order[:13], order[13:13 + SEEN[mode]]
    pool = order[13 + SEEN[mode]:]
    value = _card_value(BIT[pool], deck)
    theirs = pool[np.argsort(-value, kind="stable")[[0, 9]]]  # two cards he played
    barred = mask(clubs[:2]) & ~mask(theirs)
    return rules, deck, mask(own[:10]), mask(own[10:]), mask(seen), mask(theirs), barred, pool


def _reference(rules, deck, pool, theirs, barred, n, rng, saw=False):
    """uint64[m]: the opponent's kept cards, by the draw (the module docstring), of the ``n``
    shuffles that fit the play; with ``saw`` also (uint64[m]) the discards he saw drawing
    them (`sim.spades.draw.draw_hands`)."""
    seed = make_strategy("seed", game="spades")
    order = np.argsort(rng.random((n, pool.size)), axis=1)
    places = pool[order][:, :26]  # his 26 places; the rest the seat's unseen discards
    kept, seen = np.zeros(n, U64), np.zeros(n, U64)
    zeros = np.zeros((n, 2), np.int32)
    for r in range(13):
        first, second = BIT[places[:, 2 * r]], BIT[places[:, 2 * r + 1]]
        hands = np.zeros((n, 2), U64)
        hands[:, 1] = kept
        view = draw_view(hands, np.zeros((n, 2), U64), np.ones(n, np.int8), first, second,
                         zeros, zeros, rules, deck)
        keep_first = np.asarray(Lineup([seed] * 2).decide(view, "draw", rng, bool))
        kept |= np.where(keep_first, first, second)
        blind = rules.draw_mode == "first_decides_blind"  # (the second, kept first: unseen)
        seen |= np.where(keep_first, U64(0) if blind else second, first)
    fits = ((kept & theirs) == theirs) & ((kept & barred) == 0)
    return (kept[fits], seen[fits]) if saw else kept[fits]


@pytest.mark.parametrize("mode", list(SEEN))
def test_the_opponents_hand_is_drawn_as_the_draw_and_the_play_make_it_likely(mode):
    rules, deck, hand, played, seen, theirs, barred, pool = _position(mode, 3)
    rng = np.random.default_rng(11)
    ref = np.concatenate([_reference(rules, deck, pool, theirs, barred, 100_000, rng)
                          for _ in range(4)])
    k = 100_000
    got = deal_drawn(np.array([hand]), np.array([played]), np.array([seen]),
                     np.array([theirs]), np.array([barred]), deck,
                     levels_of(deck, mode, KEEP_AT), k, np.array([987654321], U64))[0]
    assert ref.size > 10_000
    assert np.all(popcount(got) == 13)
    assert np.all(got & theirs == theirs) and np.all(got & barred == 0)
    assert np.all(got & (hand | played | seen) == 0)
    # each card's chance of being his: z scores over the pool's cards
    for slot in pool:
        p_ref = ((ref >> U64(slot)) & U64(1)).mean()
        p_got = ((got >> U64(slot)) & U64(1)).mean()
        se = np.sqrt(p_ref * (1 - p_ref) / ref.size + p_got * (1 - p_got) / k)
        assert abs(p_got - p_ref) <= 4.5 * se + 1e-12, (slot, p_ref, p_got)
    # the law of his spades' count: a chi-square test of homogeneity
    spades = deck.suit_masks[3]
    a = np.bincount(popcount(ref & spades).astype(int), minlength=14)
    b = np.bincount(popcount(got & spades).astype(int), minlength=14)
    keep = (a + b) >= 20
    assert stats.chi2_contingency(np.stack([a[keep], b[keep]]))[1] > 1e-4
    # and not the uniform deals the search drew before: every card alike (one level)
    flat = np.where(levels_of(deck, mode, KEEP_AT) >= 0, 0, -1)
    uniform = deal_drawn(np.array([hand]), np.array([played]), np.array([seen]),
                         np.array([theirs]), np.array([barred]), deck, flat, k,
                         np.array([5], U64))[0]
    c = np.bincount(popcount(uniform & spades).astype(int), minlength=14)
    keep = (a + c) >= 20
    assert stats.chi2_contingency(np.stack([a[keep], c[keep]]))[1] < 1e-6


def test_the_pairings_of_a_level_are_counted_by_enumeration():
    """``G[o, a, d]``: pairing ``d`` discards of a level with ``a`` kept cards of it (weight 1)
    or with ``o`` open kept cards above it (weight 2), counted by brute force."""
    import itertools

    g = _pair_weights()
    for o in range(4):
        for a in range(4):
            for d in range(4):
                total = 0
                partners = [("open", i) for i in range(o)] + [("level", j) for j in range(a)]
                for chosen in itertools.permutations(partners, d):  # the partner of each discard
                    total += 2 ** sum(kind == "open" for kind, _ in chosen)
                assert g[o, a, d] == total, (o, a, d)


def test_a_hand_the_draw_cannot_explain_is_drawn_uniformly():
    """The opponent played the lowest card of the only suit whose cards all lie above it with
    the seat (seeing both, he keeps a card only over a lower or equal one): no pairing explains
    it, and the row is dealt among every split that fits the play."""
    rules = load_rules({"players": 2}, source="test")
    deck = deck_for(rules)
    two_of = [deck.bit_of(c) for c in ("2C", "2D", "2H")]
    theirs = BIT[two_of[0]]
    others = np.bitwise_or.reduce(BIT[two_of[1:]])  # the other 2s (and so every equal card)
    rest = [s for s in np.flatnonzero(deck.suit_of_bit >= 0) if s not in two_of]
    hand = others | np.bitwise_or.reduce(BIT[np.array(rest[:11])])
    seen = np.bitwise_or.reduce(BIT[np.array(rest[11:24])])
    got = deal_drawn(np.array([hand]), np.zeros(1, U64), np.array([seen]), np.array([theirs]),
                     np.zeros(1, U64), deck, levels_of(deck, "see_both", KEEP_AT), 2000,
                     np.array([3], U64))[0]
    assert np.all(popcount(got) == 13) and np.all(got & theirs == theirs)
    assert np.all(got & (hand | seen) == 0)
    free = deck.full_mask & ~(hand | seen | theirs)
    freq = np.array([((got >> U64(s)) & U64(1)).mean() for s in range(64)
                     if (free >> U64(s)) & U64(1)])
    assert np.allclose(freq, 12 / freq.size, atol=0.06)  # uniform: 12 of the 25 free cards


def test_what_the_opponent_saw_of_his_discards_is_drawn_as_the_draw_makes_it_likely():
    """``first_decides_blind`` (`their_seen`): given the hand drawn for him, the discards he saw
    drawing it have the law of the draw itself (each card's chance, the law of their count);
    none is his, the seat's or one it saw, and they are fewer than under `first_decides`, where
    he saw every discard."""
    mode = "first_decides_blind"
    rules, deck, hand, played, seen, theirs, barred, pool = _position(mode, 3)
    rng = np.random.default_rng(12)
    parts = [_reference(rules, deck, pool, theirs, barred, 100_000, rng, saw=True)
             for _ in range(4)]
    ref = np.concatenate([p[1] for p in parts])
    k = 100_000
    level = levels_of(deck, mode, KEEP_AT)
    kept = deal_drawn(np.array([hand]), np.array([played]), np.array([seen]),
                      np.array([theirs]), np.array([barred]), deck, level, k,
                      np.array([24680], U64))[0]
    got = their_seen(np.full(k, mask(pool)), kept, np.full(k, 13 - SEEN[mode]), level,
                     np.arange(k, dtype=U64) * U64(7919) + U64(3))
    assert ref.size > 10_000
    assert np.all(got & ~(mask(pool) & ~kept) == 0)
    assert np.all(popcount(got) < 13) and popcount(got).mean() > 1
    for slot in pool:
        p_ref = ((ref >> U64(slot)) & U64(1)).mean()
        p_got = ((got >> U64(slot)) & U64(1)).mean()
        se = np.sqrt(p_ref * (1 - p_ref) / ref.size + p_got * (1 - p_got) / k)
        assert abs(p_got - p_ref) <= 4.5 * se + 1e-12, (slot, p_ref, p_got)
    a = np.bincount(popcount(ref).astype(int), minlength=14)
    b = np.bincount(popcount(got).astype(int), minlength=14)
    keep = (a + b) >= 20
    assert stats.chi2_contingency(np.stack([a[keep], b[keep]]))[1] > 1e-4
