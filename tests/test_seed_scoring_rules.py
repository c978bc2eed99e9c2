"""The `seed` player's responses to the scoring rules (RULES.md §4.6): each is guarded by its rule
(the standard game plays exactly as without them) and moves the play or the bids the way it is
meant to, on the same deals as the seed with the response off (statistical checks with wide
margins on a few thousand independent hands). The measured gains are in strategies/seed.py's
docstring (bench/seed_responses.py)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import sim  # noqa: F401  (presets)
from sim.lineup import Lineup
from sim.options import PRESETS
from sim.spades.game import play_block
from strategies.seed import RESPONSES_OFF, SeedStrategy

ON = SeedStrategy()
OFF = SeedStrategy(**RESPONSES_OFF)
HANDS = 3000


def rules(**keys):
    return dataclasses.replace(PRESETS["spades.standard"], **keys)


def play(keys: dict, strategy, hands: int = HANDS, mode: str = "hands", seed: int = 5):
    """One block with ``strategy`` at every seat under the standard rules with ``keys``."""
    return play_block(rules(**keys), Lineup([strategy] * 4), seed, 0, hands, mode)


def hand(keys: dict, strategy, **kw):
    """The outcome of independent hands (from 0-0): bids, tricks, score."""
    return play(keys, strategy, **kw).outcomes[0]


def off(**params):
    return dataclasses.replace(ON, **params)


def side_bid_and_taken(out):
    """int[N, 2]: each side's ordinary bid and the tricks counted toward it (nil bidders' apart)."""
    b, t = out.bidding.bids.astype(int), out.play.tricks.astype(int)
    counted = t * (b != 0)
    return np.maximum(b, 0)[:, [0, 1]] + np.maximum(b, 0)[:, [2, 3]], counted[:, [0, 1]] + \
        counted[:, [2, 3]]


def ordinary_bids(out) -> np.ndarray:
    b = out.bidding.bids.astype(int)
    return b[b > 0]


def head_to_head(keys: dict, a, b, metric, hands: int = HANDS) -> tuple[float, float]:
    """The mean of ``metric(outcome)`` (per side, [N, 2]) for A's side and for B's, A and B
    facing each other on the same deals from both seatings."""
    r = rules(**keys)
    one = play_block(r, Lineup([a, b, a, b]), 5, 0, hands, "hands").outcomes[0]
    two = play_block(r, Lineup([b, a, b, a]), 5, 0, hands, "hands").outcomes[0]
    m1, m2 = metric(one), metric(two)
    return (m1[:, 0].mean() + m2[:, 1].mean()) / 2, (m1[:, 1].mean() + m2[:, 0].mean()) / 2


def overtricks(out) -> np.ndarray:
    bid, taken = side_bid_and_taken(out)
    return np.maximum(taken - bid, 0)


def is_set(out) -> np.ndarray:
    bid, taken = side_bid_and_taken(out)
    return taken < bid


def margin(keys: dict, a, b, hands: int = HANDS) -> tuple[float, float]:
    """A's mean paired points per hand over B on the same deals, sides swapped, and its
    standard error."""
    r = rules(**keys)
    one = play_block(r, Lineup([a, b, a, b]), 5, 0, hands, "hands").outcomes[0].score.points
    two = play_block(r, Lineup([b, a, b, a]), 5, 0, hands, "hands").outcomes[0].score.points
    d = ((one[:, 0] - one[:, 1]) + (two[:, 1] - two[:, 0])) / 2
    return d.mean(), d.std(ddof=1) / np.sqrt(d.size)


# ------------------------------------------------------------------------------- guarded by rule
def same_game(x, y) -> bool:
    return all(np.array_equal(p.bidding.bids, q.bidding.bids)
               and np.array_equal(p.play.plays, q.play.plays)
               for p, q in zip(x.outcomes, y.outcomes, strict=True))


@pytest.mark.parametrize("keys", [{}, {"double_over": True}, {"exact_pair_bonus": True},
                                  {"bags_in_units_digit": True}, {"last_trick_bonus": True},
                                  {"seven_plus": "progressive"}])
def test_without_a_response_the_seed_plays_as_with_every_response_off(keys):
    # the standard game (and a rule the seed does not respond to) is played card for card as
    # before the responses: whole games and independent hands
    for mode, size in (("games", 300), ("hands", 2000)):
        assert same_game(play(keys, ON, hands=size, mode=mode),
                         play(keys, OFF, hands=size, mode=mode)), mode


@pytest.mark.parametrize("keys", [{"three_b": True}, {"no_overs": True}, {"exact": "player"},
                                  {"highlander": True}, {"book_made": True}])
def test_responses_off_is_the_seed_of_the_standard_game(keys):
    # with every response off the seed ignores the rule: its bids are the standard game's
    standard = hand({}, OFF, hands=1000)
    assert np.array_equal(hand(keys, OFF, hands=1000).bidding.bids, standard.bidding.bids)
    assert not np.array_equal(hand(keys, ON, hands=1000).bidding.bids, standard.bidding.bids)


def test_every_response_has_an_off_value():
    responses = [f.name for f in dataclasses.fields(SeedStrategy)
                 if f.name.startswith(("bid_shift_", "keep_winning", "exact_", "shed_on",
                                       "seven_plus", "book_made", "three_b", "bags_negative"))]
    assert sorted(responses) == sorted(RESPONSES_OFF)


# ------------------------------------------------------------------------------------- bidding
@pytest.mark.parametrize("keys, param", [
    ({"no_overs": True}, "bid_shift_free_overtricks"),
    ({"bags_negative": True}, "bid_shift_bags_negative"),
    ({"three_b": True}, "bid_shift_three_b"),
    ({"quicksand": True}, "bid_shift_quicksand"),
    ({"set_to_opponents": True}, "bid_shift_set_to_opponents"),
    ({"highlander": True}, "bid_shift_highlander"),
])
def test_a_bid_shift_lowers_the_bids(keys, param):
    shift = getattr(ON, param)
    assert shift < 0
    lower = ordinary_bids(hand(keys, ON)).mean()
    usual = ordinary_bids(hand(keys, off(**{param: 0.0}))).mean()
    # the estimate moves by the shift: the mean bid falls by about as much (bids are whole)
    assert usual - lower == pytest.approx(-shift, abs=0.25 + 0.5 * -shift)


@pytest.mark.parametrize("exact", ["side", "player"])
def test_under_exact_every_ordinary_bid_is_the_least(exact):
    assert set(ordinary_bids(hand({"exact": exact}, ON))) == {1}
    assert ordinary_bids(hand({"exact": exact}, off(exact_least_bid=False))).mean() > 2.5


def test_book_made_the_last_bidder_completes_the_book():
    def books(strategy):
        out = hand({"book_made": True}, strategy)
        return (np.maximum(out.bidding.bids, 0).sum(axis=1) == 10).mean()

    completing, usual = books(ON), books(off(book_made_max_opponents=-1))
    assert completing > usual + 0.1
    # ... only when the opponents bid at most book_made_max_opponents (0: both bid nil, rare)
    assert books(off(book_made_max_opponents=0)) == pytest.approx(usual, abs=0.01)


@pytest.mark.parametrize("mode", ["per_trick", "progressive"])
def test_seven_plus_stretch_makes_more_sides_bid_seven(mode):
    def sevens(strategy):
        bid, _ = side_bid_and_taken(hand({"seven_plus": mode}, strategy))
        return (bid == 7).mean()

    assert ON.seven_plus_stretch == 0.0  # off by default: it measured worse
    assert sevens(off(seven_plus_stretch=1.0)) > sevens(ON) + 0.03


# ---------------------------------------------------------------------------------------- play
def test_no_overs_keeps_winning_after_the_contract():
    # facing the seed that sheds, the side that keeps winning takes more overtricks (they are
    # free) and sets its opponents more often
    keys, shedding = {"no_overs": True}, off(keep_winning_when_free=False)
    mine, theirs = head_to_head(keys, ON, shedding, overtricks)
    assert mine > theirs + 0.3
    set_a, set_b = head_to_head(keys, ON, shedding, is_set)
    assert set_b > set_a + 0.01


def test_highlander_keeps_winning_its_overtricks():
    # every overtrick is worth 5 under highlander: the overtricks component of the side that
    # keeps winning is larger
    mine, theirs = head_to_head({"highlander": True}, ON, off(keep_winning_when_free=False),
                                lambda o: o.score.overtricks)
    assert mine > theirs + 2.0


def test_bags_negative_keeps_winning_until_the_opponents_have_made():
    set_a, set_b = head_to_head({"bags_negative": True}, ON, off(bags_negative_set_margin=1),
                                is_set)
    assert set_b > set_a + 0.01  # the side that keeps winning sets its opponents more often


def test_three_b_set_margin_sets_the_opponents_more_often():
    set_a, set_b = head_to_head({"three_b": True}, ON, off(three_b_set_margin=1), is_set,
                                hands=10_000)
    assert set_b > set_a + 0.004


def test_exact_player_each_plays_to_his_own_bid():
    def exact_share(**params):  # the estimate bids (with the least bids few make any)
        out = hand({"exact": "player"}, off(exact_least_bid=False, **params))
        b, t = out.bidding.bids.astype(int), out.play.tricks.astype(int)
        return (t[b > 0] == b[b > 0]).mean()

    usual = exact_share(exact_own_bid=False, shed_on_sure_trumps=False)
    own = exact_share(shed_on_sure_trumps=False)
    assert own > usual + 0.05  # about 0.34 -> 0.42 of the bidders take exactly their bid
    assert exact_share() > own + 0.004  # shedding on sure trumps too


def test_exact_set_margin_sheds_the_overtrick_that_sets_the_side():
    # with the estimate bids (exact_least_bid off) the side makes exactly more often
    def made(strategy):
        bid, taken = side_bid_and_taken(hand({"exact": "side"}, strategy))
        return (taken == bid).mean()

    assert made(off(exact_least_bid=False)) > made(off(exact_least_bid=False,
                                                         exact_set_margin=1)) + 0.005


# ------------------------------------------------------------------------------------- measured
@pytest.mark.parametrize("keys, params", [
    ({"no_overs": True}, {"bid_shift_free_overtricks": 0.0}),
    ({"exact": "side"}, {"exact_least_bid": False}),
    ({"highlander": True}, {"bid_shift_highlander": 0.0}),
    ({"highlander": True}, {"keep_winning_when_free": False}),
    ({"exact": "player"}, {"exact_own_bid": False}),
])
def test_a_response_gains_points_on_the_same_deals(keys, params):
    gain, se = margin(keys, ON, off(**params))
    assert gain > 4 * se, (gain, se)
