"""A seat's decision before the play from any position (issue 19 item 4): Spades' bidding round
is a state (`sim.spades.bidding.BidState`) that stops at any turn, copies and resumes, and
`bid_view` shows the seat to bid exactly the view the engine shows it; Norwegian's declarations
are asked through `sim.norwegian.auction.declare_view`, which builds the same view from the
declarations so far; Spades' passes and kitty discards through `pass_view` and `kitty_view`. A
strategy asked from a position answers as it does in the engine's loop (the play's views:
`sim.tricks.play_view`, tests/test_play_state.py)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sim.blocks import stock_groups
from sim.cards import BIT
from sim.deal import deal
from sim.lineup import Lineup
from sim.norwegian import hand as norwegian
from sim.norwegian.auction import declare_view
from sim.options import load_rules
from sim.phases import Seating as Seat
from sim.spades.bidding import (
    bid_view,
    blind_bid_view,
    blind_view,
    complete_bidding,
    contract_view,
    start_bidding,
    take_turn,
)
from sim.spades.dealing import deal_from_order
from sim.spades.draw import draw_hands, draw_view
from sim.spades.hand import PHASES, Seating, bid_state, deck_for, start_hand
from sim.spades.kitty import kitty_view
from sim.spades.passing import pass_view
from sim.spades.redeal import poor_hands, redeal, redeal_view
from sim.spades.reveal import reveal_trumps, reveal_view
from strategies import make_strategy

FIELDS = ("rows", "seat", "dealer", "legal", "bids", "blind", "scores", "bags", "hand",
          "contracts", "bemo", "half")


class Recorder:
    """A strategy that answers as ``inner`` and keeps, for each decision of ``asked``
    (decision -> the view's fields), a copy of every view it is shown (the engine's arrays move
    on): ``views[decision]``, in the order asked."""

    def __init__(self, inner, **asked):
        self.inner, self.asked, self.views = inner, asked, {name: [] for name in asked}

    def __getattr__(self, name):
        asked = self.__dict__.get("asked", {})
        if name not in asked:
            return getattr(self.inner, name)

        def answer(view, rng):
            self.views[name].append({f: np.copy(getattr(view, f, None)) for f in asked[name]
                                     if getattr(view, f, None) is not None})
            return getattr(self.inner, name)(view, rng)
        return answer


CASES = {
    "standard": {"preset": "spades.standard"},
    "whiz (the bids depend on the cards)": {"preset": "spades.standard", "whiz": True,
                                            "blind_nil": False},
    "max_team_bid and the hook": {"preset": "spades.standard", "max_team_bid": 10,
                                  "hook": True},
    "cutthroat": {"preset": "spades.cutthroat"},
    "six players, two decks": {"preset": "spades.six"},
}


def _hand(table, n=200, seed=5):
    rules = load_rules(table, source="test")
    deck = deck_for(rules)
    dealer = (np.arange(n) % rules.players).astype(np.int8)
    dealt = deal_from_order(stock_groups(deck, seed, 0, 0, np.arange(n)), dealer, rules,
                            deck.copies)
    scores = np.random.default_rng(seed).integers(-200, 400, (n, rules.sides)).astype(np.int32)
    bags = np.zeros((n, rules.sides), np.int32)
    hand = start_hand(dealt.hands, dealer, scores, bags, progressive=bags, dealt=dealt)
    return rules, deck, hand


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_position_shows_the_engines_view_and_the_strategy_bids_as_in_the_engine(case):
    rules, deck, hand = _hand(CASES[case])
    recorder = Recorder(make_strategy("seed"), bid=FIELDS,
                        blind_nil=[f for f in FIELDS if f != "hand"])
    at = Seating(rules, deck, Lineup([recorder] * rules.players), np.random.default_rng(1))
    result = complete_bidding(bid_state(hand, at), rules, deck, at.lineup, at.rng)
    assert len(recorder.views["bid"]) == rules.players  # every seat bids in every row (no contracts)
    order = (hand.dealer[:, None] + 1 + np.arange(rules.players)) % rules.players
    rows = np.arange(hand.n)
    seed = make_strategy("seed")
    blind_asked = 0
    for turn, shown in enumerate(recorder.views["bid"]):
        before = np.full_like(result.bids, -1)  # the position: the bids made before this turn
        for j in range(turn):
            before[rows, order[:, j]] = result.bids[rows, order[:, j]]
        blind = np.zeros_like(result.blind)
        blind[before >= 0] = result.blind[before >= 0]
        state = start_bidding(hand.hands, hand.dealer, hand.scores, hand.bags, rules,
                              twice=hand.twice if deck.copies == 2 else None, bids=before,
                              blind=blind)
        assert state.turn == turn
        view = bid_view(state, rules, deck)
        for field in FIELDS:
            np.testing.assert_array_equal(getattr(view, field), shown[field], err_msg=field)
        asked = [v for v in recorder.views["blind_nil"] if (v["seat"] == state.seat[v["rows"]]).all()
                 and (v["bids"] == before[v["rows"]]).all()]  # this turn's blind nil question
        if asked:
            (blind,) = asked
            whole = blind_view(state, rules, deck).take(blind["rows"])
            for field, value in blind.items():
                np.testing.assert_array_equal(getattr(whole, field), value, err_msg=field)
            blind_asked += 1
        seat = state.seat
        sighted = ~result.blind[rows, seat]  # a blind nil was chosen before looking
        np.testing.assert_array_equal(np.asarray(seed.bid(view, None))[sighted],
                                      result.bids[rows, seat][sighted])
    assert blind_asked == len(recorder.views["blind_nil"])  # every blind nil question was compared
    if rules.blind_nil and not rules.whiz:
        assert blind_asked > 0


def test_a_state_stopped_at_any_turn_resumes_to_the_same_bids_also_when_copied():
    rules, deck, hand = _hand(CASES["standard"])
    seed = Lineup([make_strategy("seed")] * 4)
    at = Seating(rules, deck, seed, np.random.default_rng(1))
    whole = complete_bidding(bid_state(hand, at), rules, deck, seed, at.rng)
    for turn in range(5):
        state = bid_state(hand, at)
        for _ in range(turn):
            take_turn(state, rules, deck, seed, at.rng)
        copy = state.copy()
        resumed = complete_bidding(copy, rules, deck, seed, at.rng)
        np.testing.assert_array_equal(resumed.bids, whole.bids)
        assert state.turn == turn  # the copy's turns left the state where it was
        assert (state.bids >= 0).sum() == turn * hand.n


def test_a_position_must_be_one_turn_for_every_row():
    rules, deck, hand = _hand(CASES["standard"], n=4)
    bids = np.full((4, 4), -1, np.int8)
    bids[0, (hand.dealer[0] + 1) % 4] = 3  # one row has a bid, the others none
    with pytest.raises(ValueError, match="the same number"):
        start_bidding(hand.hands, hand.dealer, hand.scores, hand.bags, rules, bids=bids)
    bids = np.full((4, 4), -1, np.int8)
    bids[np.arange(4), (hand.dealer + 2) % 4] = 3  # the second seat bid, the first not
    with pytest.raises(ValueError, match="in turn"):
        start_bidding(hand.hands, hand.dealer, hand.scores, hand.bags, rules, bids=bids)


@pytest.mark.parametrize("table", [{"game": "norwegian", "players": 2},
                                   {"game": "norwegian", "players": 3},
                                   {"preset": "norwegian.classic"}], ids=["two", "three", "four"])
def test_a_norwegian_position_shows_the_engines_view_and_the_declaration(table):
    rules = load_rules(table, source="test")
    deck = norwegian.deck_for(rules)
    n = 300
    dealer = (np.arange(n) % rules.players).astype(np.int8)
    hands = deal(deck, dealer, rules.players, np.random.default_rng(5))
    scores = np.random.default_rng(6).integers(-20, 20, (n, rules.sides)).astype(np.int32)
    recorder = Recorder(make_strategy("seed", game="norwegian"),
                        declare=("rows", "seat", "dealer", "hand", "legal", "declarations",
                                 "scores"))
    at = Seat(rules, deck, Lineup([recorder] * rules.players), np.random.default_rng(2))
    said = norwegian.play_hand(norwegian.start_hand(hands, dealer, scores), at,
                               norwegian.PHASES[:1]).auction.declarations
    seed = make_strategy("seed", game="norwegian")
    order = (dealer[:, None] + 1 + np.arange(rules.players)) % rules.players
    assert recorder.views["declare"]
    for turn, shown in enumerate(recorder.views["declare"]):
        rows = shown["rows"]
        before = np.full_like(said, -1)  # the position: what the seats before this turn said
        for j in range(turn):
            before[rows, order[rows, j]] = said[rows, order[rows, j]]
        view = declare_view(hands, dealer, scores, before, rules, deck, rows)
        for field, value in shown.items():
            np.testing.assert_array_equal(getattr(view, field), value, err_msg=field)
        np.testing.assert_array_equal(seed.declare(view, None), said[rows, view.seat])
    with pytest.raises(ValueError, match="every seat has spoken"):
        declare_view(hands, dealer, scores, np.zeros_like(said), rules, deck)


@pytest.mark.parametrize("table", [
    {"preset": "spades.standard", "pass_cards": {"count": 2, "direction": "left"},
     "pass_when": "before_bid"},
    {"preset": "spades.standard", "pass_cards": {"count": 3, "direction": "partner"},
     "pass_when": "before_bid"},
    {"preset": "spades.six", "pass_cards": {"count": 1, "direction": "right"},
     "pass_when": "before_bid"}], ids=["left", "partner", "six players, two decks"])
def test_a_pass_from_the_hands_before_it_shows_the_engines_view_and_the_cards(table):
    """Each seat chooses its cards from the hand it holds before the exchange: `pass_view` from
    that position is the engine's view, and the seed player's cards from it are those passed."""
    rules, deck, hand = _hand(table)
    recorder = Recorder(make_strategy("seed"), pass_cards=("rows", "seat", "hand", "count", "to",
                                                           "bids", "scores", "twice"))
    at = Seating(rules, deck, Lineup([recorder] * rules.players), np.random.default_rng(1))
    phase = next(p for p in PHASES if p.name == "pass_before_bids")
    after = phase.step(hand, at)
    assert len(recorder.views["pass_cards"]) == rules.players
    seed = make_strategy("seed")
    partner = rules.pass_cards.direction == "partner"
    offset = int(rules.table.partner_of(0)) if partner else rules.pass_cards.offset
    counts = np.full(hand.hands.shape, rules.pass_cards.count, np.int8)
    context = hand.context(rules, deck)
    for seat, shown in enumerate(recorder.views["pass_cards"]):
        view = pass_view(hand.hands, seat, counts, offset, context,
                         hand.twice if deck.copies == 2 else None)
        for field, value in shown.items():
            np.testing.assert_array_equal(getattr(view, field), value, err_msg=field)
        np.testing.assert_array_equal(seed.pass_cards(view, None), after.passed[:, seat])


def test_a_kitty_discard_from_the_deal_shows_the_engines_view_and_the_discard():
    rules, deck, hand = _hand({"preset": "spades.standard", "jokers": 2, "kitty": True,
                               "kitty_taker": "two_of_clubs"})
    recorder = Recorder(make_strategy("seed"), discard_kitty=("rows", "seat", "hand", "kitty",
                                                              "twice", "count", "bids"))
    at = Seating(rules, deck, Lineup([recorder] * rules.players), np.random.default_rng(1))
    after = next(p for p in PHASES if p.name == "kitty_before_bids").step(hand, at)
    (shown,) = recorder.views["discard_kitty"]
    dealt = hand.dealt
    view = kitty_view(hand.hands, hand.twice, dealt.kitty, dealt.kitty_twice,
                      after.house_state["kitty_taker"], hand.context(rules, deck))
    for field, value in shown.items():
        np.testing.assert_array_equal(getattr(view, field), value, err_msg=field)
    np.testing.assert_array_equal(make_strategy("seed").discard_kitty(view, None),
                                  after.house_state["kitty_discards"])


SIDE = ("rows", "seat", "dealer", "legal", "bids", "blind", "scores", "bags", "hand",
        "contracts", "bemo")


@pytest.mark.parametrize("table", [
    {"preset": "spades.standard", "mo_a": True, "blind_six": True, "bemo": True,
     "ten_for_two_hundred": True},
    {"preset": "spades.standard", "team_nil": True, "blind_moon": True, "mo_b": True}],
    ids=["mo_a, blind six, bemo, wheel", "team nil, blind moon, mo_b"])
def test_a_side_contract_from_the_position_shows_the_engines_view(table):
    """Every side contract or bemo the engine asks (before looking, after, after the bid) is
    asked through `contract_view`: from a state holding the position the view was asked at
    (the bids, blind nils, contracts and bemos so far), the same view."""
    rules, deck, hand = _hand(table, n=400)
    recorder = Recorder(make_strategy("random"), side_contract=SIDE)
    at = Seating(rules, deck, Lineup([recorder] * rules.players), np.random.default_rng(1))
    state = bid_state(hand, at)
    stages = []
    for turn in range(rules.players):
        asked = len(recorder.views["side_contract"])
        take_turn(state, rules, deck, at.lineup, at.rng)
        for shown in recorder.views["side_contract"][asked:]:
            stage = ("blind" if "hand" not in shown else
                     "bemo" if (shown["bids"][np.arange(shown["rows"].size), shown["seat"]]
                                >= 0).all() else "sighted")
            stages.append(stage)
            rows = shown["rows"]
            position = dataclasses.replace(
                state, bids=_whole(shown["bids"], rows, state.bids),
                blind=_whole(shown["blind"], rows, state.blind),
                contracts=_whole(shown["contracts"], rows, state.contracts),
                bemo=_whole(shown["bemo"], rows, state.bemo), turn=turn)
            view = contract_view(position, rules, deck, stage).take(rows)
            for field, value in shown.items():
                np.testing.assert_array_equal(getattr(view, field), value, err_msg=field)
    assert {"blind", "sighted"} <= set(stages)  # the blind and the sighted asks were compared


def test_a_blind_bid_from_the_turns_start_shows_the_engines_view():
    """``blind_bids``: the seats of a side far enough behind are asked for a blind bid of 1..7
    before looking; `blind_bid_view` of the state at the turn's start is the engine's view."""
    rules, deck, hand = _hand({"preset": "spades.standard", "blind_bids": True,
                               "blind_bid_min_deficit": 50}, n=400)
    recorder = Recorder(make_strategy("seed"), blind_bid=[f for f in FIELDS if f != "hand"])
    at = Seating(rules, deck, Lineup([recorder] * rules.players), np.random.default_rng(1))
    state = bid_state(hand, at)
    compared = 0
    for _ in range(rules.players):
        start, asked = state.copy(), len(recorder.views["blind_bid"])
        take_turn(state, rules, deck, at.lineup, at.rng)
        for shown in recorder.views["blind_bid"][asked:]:
            view = blind_bid_view(start, rules, deck).take(shown["rows"])
            for field, value in shown.items():
                np.testing.assert_array_equal(getattr(view, field), value, err_msg=field)
            compared += 1
    assert compared > 0


def _whole(part, rows, like):
    """``like`` with its rows ``rows`` replaced by ``part`` (the others are not looked at)."""
    out = like.copy()
    out[rows] = part
    return out


def test_a_misdeal_call_from_the_deal_shows_the_engines_view():
    """``redeal_poor_hands``: each seat holding a poor hand is asked whether to call a misdeal;
    `redeal_view` of the dealt hands is the engine's view of the first deal."""
    rules, deck, hand = _hand({"preset": "spades.standard",
                               "redeal_poor_hands": ["one_spade_or_less", "no_face_cards"]})
    recorder = Recorder(make_strategy("random"), redeal=("rows", "seat", "dealer", "hand",
                                                          "scores", "bags"))
    fresh = np.random.default_rng(9)

    def deal_again(rows, attempt):
        return deal(deck, hand.dealer[rows], 4, fresh)

    redeal(hand.hands, hand.dealer, hand.scores, hand.bags, rules, deck,
           Lineup([recorder] * 4), np.random.default_rng(2), deal_again)
    first = []  # the first deal's questions: seats in increasing order
    for shown in recorder.views["redeal"]:
        if first and shown["seat"][0] <= first[-1]["seat"][0]:
            break
        first.append(shown)
    assert first
    for shown in first:
        seat = int(shown["seat"][0])
        assert set(shown["rows"]) == set(np.flatnonzero(poor_hands(hand.hands, rules, deck)[
            :, seat]))
        view = redeal_view(hand.hands, seat, hand.dealer, hand.scores, hand.bags, rules, deck,
                           shown["rows"])
        for field, value in shown.items():
            np.testing.assert_array_equal(getattr(view, field), value, err_msg=field)


def test_a_trump_reveal_question_shows_the_engines_view():
    """``seven_trump_reveal``: a seat asked whether to reveal a suit sees what `reveal_view`
    builds from the hands, the seat and the suit (the engine asks through it)."""
    rules, deck, hand = _hand({"preset": "spades.standard", "seven_trump_reveal": True})
    recorder = Recorder(make_strategy("random"), reveal=("rows", "seat", "dealer", "hand",
                                                          "suit", "scores", "bags"))
    reveal_trumps(hand.hands, hand.dealer, hand.scores, hand.bags, rules, deck,
                  Lineup([recorder] * 4), np.random.default_rng(2), {})
    assert recorder.views["reveal"]
    for shown in recorder.views["reveal"]:
        rows = shown["rows"]
        seat, suit = np.zeros(hand.n, np.int8), np.zeros(hand.n, np.int8)
        seat[rows], suit[rows] = shown["seat"], shown["suit"]
        view = reveal_view(hand.hands, seat, suit, hand.dealer, hand.scores, hand.bags, rules,
                           deck, {}, rows)
        for field, value in shown.items():
            np.testing.assert_array_equal(getattr(view, field), value, err_msg=field)


@pytest.mark.parametrize("mode", ["see_both", "first_decides", "first_decides_blind"])
def test_a_draw_from_the_position_rebuilt_from_the_stock_shows_the_engines_view(mode):
    """Two players draw their hands (RULES.md §4.7): the position before each draw (the cards
    each seat kept and the discards it saw) is rebuilt from the stock and the hands drawn, and
    `draw_view` of it is the engine's view of that draw."""
    rules = load_rules({"players": 2, "draw_mode": mode}, source="test")
    deck, n = deck_for(rules), 300
    rng = np.random.default_rng(4)
    stock = np.stack([rng.permutation(52) for _ in range(n)], axis=1).astype(np.int8)
    dealer = (np.arange(n) % 2).astype(np.int8)
    zeros = np.zeros((n, 2), np.int32)
    recorder = Recorder(make_strategy("random"), draw=("rows", "seat", "hand", "first",
                                                        "second", "seen"))
    hands, discards, seen = draw_hands(stock, dealer, zeros, zeros, rules, deck,
                                       Lineup([recorder] * 2), np.random.default_rng(2))
    rows = np.arange(n)
    held, saw = np.zeros((n, 2), np.uint64), np.zeros((n, 2), np.uint64)
    for r, shown in enumerate(recorder.views["draw"]):
        seat = ((dealer + 1 + r) % 2).astype(np.int8)
        first, second = BIT[stock[2 * r]], BIT[stock[2 * r + 1]]
        view = draw_view(held, saw, seat, first, second, zeros, zeros, rules, deck)
        for field, value in shown.items():
            np.testing.assert_array_equal(getattr(view, field), value, err_msg=field)
        kept_first = (hands[rows, seat] & first) != 0
        held[rows, seat] |= np.where(kept_first, first, second)
        other = np.where(kept_first, second, first)
        if mode == "first_decides_blind":
            other = np.where(kept_first, np.uint64(0), other)
        saw[rows, seat] |= other
    np.testing.assert_array_equal(held, hands)
    np.testing.assert_array_equal(saw, seen)


@pytest.mark.parametrize("mode", ["see_both", "first_decides", "first_decides_blind"])
def test_two_players_bid_and_play_seeing_the_discards_they_saw_drawing(mode):
    """Two players (RULES.md §4.7): every bid and play view shows the seat the discards it saw
    drawing its hand (``discards``): its own, none it holds or played; all of them unless the
    second card of a draw was discarded unseen (``first_decides_blind``)."""
    from sim.spades.game import play_block

    rules = load_rules({"players": 2, "draw_mode": mode}, source="test")
    fields = ("rows", "seat", "discards", "hand")
    recorder = Recorder(make_strategy("seed"), bid=fields, play=fields + ("played",))
    discarded = play_block(rules, Lineup([recorder] * 2), 7, 0, 300, "hands").discarded
    unseen_kept = 0
    for decision in ("bid", "play"):
        assert recorder.views[decision]
        for view in recorder.views[decision]:
            theirs = discarded[view["rows"], view["seat"]]
            np.testing.assert_array_equal(view["discards"] & ~theirs, 0)
            np.testing.assert_array_equal(view["discards"] & view["hand"], 0)
            if mode == "first_decides_blind":
                unseen_kept += int((view["discards"] != theirs).sum())
            else:
                np.testing.assert_array_equal(view["discards"], theirs)
    if mode == "first_decides_blind":
        assert unseen_kept > 0


@pytest.mark.parametrize("mode", ["see_both", "first_decides_blind"])
def test_two_players_a_replayed_record_shows_the_discards_the_live_play_showed(mode):
    """Two players (RULES.md §4.7): a hand record keeps each seat's ``discarded`` cards and,
    under ``first_decides_blind``, the ``unseen_discards`` among them; replayed to any card
    (`sim.replay.view_at`), the seat's view shows the discards the live view showed it, and the
    expert decides there as it did live (it counts them, ``count_discards``)."""
    from types import SimpleNamespace

    from sim.games import GAMES
    from sim.replay import view_at

    rules = load_rules({"players": 2, "draw_mode": mode}, source="test")
    fields = ("rows", "seat", "discards", "position", "trick_no")
    recorder = Recorder(make_strategy("expert"), play=fields)
    result = GAMES["spades"].play_block(rules, Lineup([recorder] * 2), 3, 0, 20, "hands")
    records = GAMES["spades"].block_records(result, SimpleNamespace(rules=rules), 0)
    live = {}
    for view in recorder.views["play"]:
        for r, seat, shown in zip(view["rows"], view["seat"], view["discards"], strict=True):
            live[int(r), int(view["trick_no"]) * 2 + int(view["position"])] = (int(seat), int(shown))
    expert, checked = make_strategy("expert"), 0
    for row, rec in enumerate(records):
        assert ("unseen_discards" in rec) == (mode == "first_decides_blind")
        for k in (0, 9, 24):
            view = view_at({**rec, "plays": rec["plays"][:k]}).view
            assert (int(view.seat[0]), int(view.discards[0])) == live[row, k]
            card = expert.play(view, np.random.default_rng(0))
            assert view.deck.names_of(int(card[0])) == [rec["plays"][k]]
            checked += 1
    assert checked == 60


def test_two_players_unseen_discards_must_be_among_the_discarded():
    from types import SimpleNamespace

    from sim.errors import UserError
    from sim.games import GAMES
    from sim.replay import view_at

    rules = load_rules({"players": 2, "draw_mode": "first_decides_blind"}, source="test")
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy("expert")] * 2), 3, 0, 1,
                                        "hands")
    rec = GAMES["spades"].block_records(result, SimpleNamespace(rules=rules), 0)[0]
    held = rec["hands"][0][0]
    with pytest.raises(UserError, match="'unseen_discards': each seat's are among its"):
        view_at({**rec, "unseen_discards": [[held], []], "plays": []})
    with pytest.raises(UserError, match="'discarded' must list the cards each of the 2 seats"):
        view_at({**rec, "discarded": ["AS"], "plays": []})


def test_the_expert_counts_its_discards_on_a_copy_of_the_view():
    """`strategies.expert._without_discards`: nobody holds the seat's discards, so they leave
    its unseen cards (and a card only they outranked is a sure winner); the view the engine
    shows, which other strategies at the table may read, is left as it was."""
    from sim.spades.game import play_block
    from strategies.expert import _without_discards

    rules = load_rules({"players": 2}, source="test")
    recorder = Recorder(make_strategy("expert"), play=("rows",))
    views = []
    recorder_play = recorder.play

    def keep(view, rng):
        views.append(view)
        return recorder_play(view, rng)

    recorder.play = keep
    play_block(rules, Lineup([recorder] * 2), 5, 0, 10, "hands")
    freed = 0
    for view in views[::7]:
        before = view.unseen.copy(), view.outranked.copy()
        own = _without_discards(view)
        np.testing.assert_array_equal(own.unseen, before[0] & ~view.discards)
        np.testing.assert_array_equal(view.unseen, before[0])
        np.testing.assert_array_equal(view.outranked, before[1])
        freed += int((view.hand & view.outranked & ~own.outranked != 0).sum())
    assert freed > 0  # (held cards some discard alone outranked)


def test_a_progressive_bonus_shows_each_sides_count_in_every_bid_and_play_view():
    """RULES.md §4.6 ``seven_plus = "progressive"``: every bid and play view of whole games shows
    each side's count of bonuses earned so far (``progressive``, int32[n, S]), the count the
    games' table ends on at most; none without the rule."""
    from sim.spades.game import play_block

    for spec, shown in (({"preset": "spades.standard", "seven_plus": "progressive"}, True),
                        ({"preset": "spades.standard"}, False)):
        rules = load_rules(spec, source="test")
        recorder = Recorder(make_strategy("expert"), bid=("rows", "progressive"),
                            play=("rows", "progressive"))
        result = play_block(rules, Lineup([recorder] * 4), 3, 0, 60, "games")
        views = recorder.views["bid"] + recorder.views["play"]
        assert all(("progressive" in v) == shown for v in views)
        if shown:
            counts = np.concatenate([v["progressive"] for v in views])
            assert counts.dtype == np.int32 and counts.shape[1] == rules.sides
            assert counts.min() >= 0 and counts.max() > 0
            assert counts.max() <= result.per_hand["before_progressive"].max() + 1
