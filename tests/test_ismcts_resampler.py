"""The ISMCTS resampler (`whistlab.ismcts`) against exact enumeration (issue 20 item 3).

On small positions of OpenSpiel's ``spades`` (late in a hand, a few unseen cards, voids shown by
seats that did not follow suit, a spade led by a seat holding nothing else) every deal of the
unseen cards is tried by OpenSpiel itself: a deal is consistent when replaying the hand's bids and
plays on it is legal at every step and shows the player to move the same observation. The
resampler must draw only those deals, count them exactly, and draw them uniformly: a chi-square
test over the deals and one over their suit splits (where a bias adds up), at a fixed seed, so
the test is deterministic yet fails for a biased sampler (two of them, written the naive ways,
are shown to fail the same check).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from scipy import stats

pyspiel = pytest.importorskip("pyspiel")

from whistlab.ismcts import (  # noqa: E402
    Resampler,
    Seen,
    count_deals,
    ismcts_bot,
    sample_hands,
    seen,
)

GAME = pyspiel.load_game("spades")
ALPHA = 1e-3  # a check fails below this p-value

# Positions of random legal play (whole histories: the 52 cards dealt, seat i % 4 getting card i,
# the four bids, the cards played so far), found by a search over seeds and kept as they are.
POSITIONS = {
    # 40 cards played, seat 1 to lead; seat 0 led a spade holding nothing else (void in clubs,
    # diamonds and hearts), seats 2 and 3 discarded: 20 deals (40 without the spade lead's void).
    "spade_lead_small": [
        38, 29, 47, 31, 36, 18, 37, 30, 41, 13, 43, 9, 32, 3, 25, 5, 4, 49, 15, 33, 50, 27, 2, 7,
        6, 51, 23, 19, 12, 39, 46, 17, 48, 1, 20, 28, 11, 35, 10, 26, 42, 14, 16, 34, 44, 40, 8,
        21, 22, 0, 45, 24, 60, 58, 53, 56, 6, 1, 2, 5, 11, 0, 8, 9, 32, 35, 37, 34, 10, 7, 12, 3,
        4, 27, 15, 19, 36, 29, 25, 28, 22, 14, 20, 21, 38, 39, 46, 31, 16, 17, 50, 13, 42, 51, 47,
        33,
    ],
    # 41 cards played, seat 2 to play second to a trick; seat 1 led a spade holding nothing else,
    # seats 0 and 2 show a void each: 150 deals (270 without the spade lead's void).
    "spade_lead": [
        10, 46, 26, 36, 49, 12, 16, 0, 24, 6, 19, 4, 37, 22, 27, 39, 40, 48, 28, 20, 9, 45, 14, 32,
        42, 3, 35, 51, 1, 13, 50, 17, 18, 47, 44, 8, 7, 33, 30, 15, 29, 38, 23, 25, 5, 43, 2, 31,
        34, 21, 41, 11, 54, 65, 60, 52, 34, 33, 30, 32, 10, 3, 2, 8, 29, 38, 28, 31, 13, 16, 25,
        24, 4, 7, 12, 44, 27, 36, 37, 46, 6, 41, 0, 1, 19, 17, 18, 22, 21, 23, 20, 49, 9, 45, 35,
        11, 47,
    ],
    # 34 cards played, seat 2 to play third to a trick; each other seat shows a void (seat 1 two):
    # 1,491 deals of 13 unseen cards (34,650 without the voids).
    "voids": [
        12, 13, 33, 31, 45, 30, 5, 29, 1, 18, 36, 16, 3, 42, 25, 7, 44, 41, 38, 23, 10, 14, 22, 17,
        6, 21, 19, 15, 8, 37, 11, 40, 28, 50, 20, 32, 0, 24, 48, 2, 43, 49, 4, 27, 51, 39, 9, 34,
        35, 47, 46, 26, 52, 54, 65, 57, 35, 37, 38, 29, 5, 7, 0, 21, 2, 12, 18, 11, 6, 30, 9, 26,
        33, 31, 28, 39, 24, 22, 23, 44, 8, 50, 4, 34, 13, 20, 15, 43, 10, 41,
    ],
}
EXPECTED = {"spade_lead_small": (20, 40), "spade_lead": (150, 270), "voids": (1491, None)}


def state_of(history):
    state = GAME.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def replayed(dealt, history):
    """OpenSpiel's state after dealing ``dealt`` (each seat's 13 cards) and playing the bids and
    cards of ``history``, or None if one of them is illegal on that deal."""
    state = GAME.new_initial_state()
    for i in range(13):
        for seat in range(4):
            state.apply_action(dealt[seat][i])
    for action in history[52:]:
        if action not in state.legal_actions():
            return None
        state.apply_action(action)
    return state


def consistent_deals(history) -> tuple[int, list[tuple[tuple[int, ...], ...]]]:
    """The player to move and every deal of the cards he has not seen (the other seats' hands now,
    in seat order) that OpenSpiel finds consistent with what he has seen: known only from the
    history and the game, not from the module under test."""
    state = state_of(history)
    player = state.current_player()
    plays = [(a.player, a.action) for a in state.full_history()[56:]]
    gone = {card for _, card in plays}
    mine = [c for c in history[player:52:4] if c not in gone]
    unseen = sorted(set(range(52)) - gone - set(mine))
    others = [q for q in range(4) if q != player]
    played = {q: [c for seat, c in plays if seat == q] for q in range(4)}
    sizes = [13 - len(played[q]) for q in others]
    seen_by_player = state.observation_string(player)
    deals = []
    for first in itertools.combinations(unseen, sizes[0]):
        rest = [c for c in unseen if c not in first]
        for second in itertools.combinations(rest, sizes[1]):
            hands = {player: mine, others[0]: first, others[1]: second,
                     others[2]: tuple(c for c in rest if c not in second)}
            dealt = [sorted([*hands[q], *played[q]]) for q in range(4)]
            after = replayed(dealt, history)
            if after is not None and after.observation_string(player) == seen_by_player:
                deals.append(tuple(tuple(sorted(hands[q])) for q in others))
    return player, deals


@pytest.fixture(scope="module", params=sorted(POSITIONS))
def position(request):
    history = POSITIONS[request.param]
    player, deals = consistent_deals(history)
    return request.param, state_of(history), player, deals


def discards(state) -> tuple[frozenset[int], ...]:
    """The voids the seats showed by not following suit, and not by leading a spade."""
    plays = state.full_history()[56:]
    voids = [set() for _ in range(4)]
    for start in range(0, len(plays), 4):
        led = plays[start].action // 13
        voids_now = [a.player for a in plays[start + 1 : start + 4] if a.action // 13 != led]
        for seat in voids_now:
            voids[seat].add(led)
    return tuple(map(frozenset, voids))


def splits(deal) -> tuple[tuple[int, ...], ...]:
    """How many cards of each suit each seat gets."""
    return tuple(tuple(sum(1 for c in hand if c // 13 == s) for s in range(4)) for hand in deal)


def uniformity(draw, view: Seen, deals, draws: int) -> tuple[int, float, float]:
    """Draw ``draws`` deals: the number of inconsistent ones, and the chi-square p-values of the
    counts per deal (uniform) and per suit split (in proportion to the deals of each split)."""
    rng = np.random.default_rng(20)
    index = {deal: i for i, deal in enumerate(deals)}
    per_split = Counter(splits(deal) for deal in deals)
    keys = sorted(per_split)
    counts, split_counts, outside = np.zeros(len(deals)), Counter(), 0
    for _ in range(draws):
        hands = draw(view, rng)
        deal = tuple(hands[q] for q in view.others)
        if deal not in index:
            outside += 1
            continue
        counts[index[deal]] += 1
        split_counts[splits(deal)] += 1
    p_deals = stats.chisquare(counts).pvalue
    if len(keys) == 1:
        return outside, p_deals, 1.0
    expected = np.array([per_split[k] for k in keys]) * counts.sum() / len(deals)
    p_splits = stats.chisquare([split_counts[k] for k in keys], expected).pvalue
    return outside, p_deals, p_splits


def draws_for(deals) -> int:
    return max(50 * len(deals), 20_000)


# Two naive samplers, each consistent (they draw only consistent deals) but not uniform.
def seat_by_seat(view: Seen, rng) -> tuple[tuple[int, ...], ...]:
    """Each other seat in turn takes its hand uniformly among the unseen cards left that it may
    hold; start again if one cannot be filled."""
    _, allowed, caps = view.problem()
    while True:
        left, hands = [c for suit in view.unseen for c in suit], {view.player: view.hand}
        for i, q in enumerate(view.others):
            may = [c for c in left if allowed[c // 13][i]]
            if len(may) < caps[i]:
                break
            hands[q] = tuple(sorted(int(c) for c in rng.choice(may, caps[i], replace=False)))
            left = [c for c in left if c not in hands[q]]
        else:
            return tuple(hands[q] for q in range(4))


def deal_then_fix(view: Seen, rng) -> tuple[tuple[int, ...], ...]:
    """Deal the unseen cards by hand size alone, then swap each card a seat is void in with a
    random card of a seat that may hold it and whose card the first seat may hold."""
    _, allowed, caps = view.problem()
    cards = [c for suit in view.unseen for c in suit]
    while True:
        order = rng.permutation(cards).tolist()
        hands = [order[sum(caps[:i]) : sum(caps[: i + 1])] for i in range(len(caps))]
        while bad := [(i, c) for i, h in enumerate(hands) for c in h if not allowed[c // 13][i]]:
            i, c = bad[rng.integers(len(bad))]
            swaps = [(j, d) for j, h in enumerate(hands) if j != i and allowed[c // 13][j]
                     for d in h if allowed[d // 13][i]]
            if not swaps:
                break
            j, d = swaps[rng.integers(len(swaps))]
            hands[i][hands[i].index(c)], hands[j][hands[j].index(d)] = d, c
        if not bad:
            out = dict(zip(view.others, hands, strict=True)) | {view.player: view.hand}
            return tuple(tuple(sorted(out[q])) for q in range(4))


def test_the_positions_show_what_they_are_kept_for(position):
    name, state, player, deals = position
    view = seen(state, player)
    total, without_spade_lead = EXPECTED[name]
    assert len(deals) == total
    unseen = sum(map(len, view.unseen))
    sizes = [view.sizes[q] for q in view.others]
    assert len(deals) < math.factorial(unseen) // math.prod(map(math.factorial, sizes))
    if without_spade_lead is not None:  # the spade lead's void matters: the deals it rules out
        assert any({0, 1, 2} <= view.voids[q] and view.sizes[q] for q in view.others)
        assert count_deals(replace(view, voids=discards(state))) == without_spade_lead


def test_the_count_is_exact(position):
    _, state, player, deals = position
    assert count_deals(seen(state, player)) == len(deals)


def test_the_sampler_is_uniform_over_exactly_the_consistent_deals(position):
    _, state, player, deals = position
    outside, p_deals, p_splits = uniformity(sample_hands, seen(state, player), deals,
                                            draws_for(deals))
    assert outside == 0
    assert p_deals > ALPHA and p_splits > ALPHA, (p_deals, p_splits)


@pytest.mark.parametrize("biased", [seat_by_seat, deal_then_fix])
def test_the_check_fails_for_a_biased_sampler(biased):
    history = POSITIONS["spade_lead"]
    player, deals = consistent_deals(history)
    outside, p_deals, p_splits = uniformity(biased, seen(state_of(history), player), deals,
                                            draws_for(deals))
    assert outside == 0  # consistent, and still caught
    assert min(p_deals, p_splits) < ALPHA, (p_deals, p_splits)


def test_the_resampled_states_are_the_same_to_the_player_and_uniform(position):
    """Through the hook ISMCTS calls: every state replays the hand legally, shows the player what
    the real one shows, and its deal is uniform among the consistent ones."""
    name, state, player, deals = position
    if len(deals) > 200:
        pytest.skip("the sampler's uniformity is tested above; this one rebuilds every state")
    resample, index = Resampler(seed=5), {deal: i for i, deal in enumerate(deals)}
    counts = np.zeros(len(deals))
    for _ in range(50 * len(deals)):
        new = resample(state, player)
        assert new.observation_string(player) == state.observation_string(player)
        history = new.history()
        assert replayed([sorted(history[q:52:4]) for q in range(4)], history) is not None
        view = seen(new, player)
        others_hands = tuple(tuple(sorted(
            c for c in history[q:52:4] if c not in view.played[q])) for q in view.others)
        counts[index[others_hands]] += 1
    assert stats.chisquare(counts).pvalue > ALPHA


def test_counts_at_large_positions_match_their_closed_forms():
    """Where no void is shown the deals are the multinomial of the hand sizes."""
    rng = np.random.default_rng(0)
    state = GAME.new_initial_state()
    for card in rng.permutation(52):
        state.apply_action(int(card))
    assert count_deals(seen(state, 2)) == math.factorial(39) // math.factorial(13) ** 3
    for bid in (55, 56, 54, 55):
        state.apply_action(bid)
    state.apply_action(state.legal_actions()[0])  # seat 0 leads: no void shown yet
    view = seen(state, 1)
    assert not any(view.voids)
    assert count_deals(view) == math.factorial(38) // (
        math.factorial(12) * math.factorial(13) ** 2)


def test_ismcts_plays_whole_hands_on_resampled_worlds():
    """ISMCTS asserts at every simulation that the resampled world shows the player the same
    observation; a hand played by four searches runs to OpenSpiel's scores."""
    rng = np.random.default_rng(3)
    state = GAME.new_initial_state()
    for card in rng.permutation(52):
        state.apply_action(int(card))
    bots = [ismcts_bot(GAME, simulations=20, seed=seat) for seat in range(4)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    returns = state.returns()
    assert returns[0] == returns[2] and returns[1] == returns[3]
