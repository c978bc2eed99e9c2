"""RULES.md §4.4 ``half_trick_bids``: the first partner of a side may bid in halves (3.5); the
second must make the side's total whole. Readings: the first partner's n and a half needs n >= 1;
the second then bids v and a half, v = 0..12 (0 and a half is no nil); the side's contract is the
whole total; ``half_<seat>`` marks a half."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from roundtrip import roundtrip
from sim.cards import popcount
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.scoring import score_hands
from strategies import make_strategy

RULES = load_rules({"half_trick_bids": True})


@pytest.mark.parametrize("extra", [{}, {"max_team_bid": 10}])
@pytest.mark.parametrize("strategy", ["random", "seed"])
def test_halves_come_in_pairs_and_keep_the_limits(strategy, extra):
    rules = load_rules({"half_trick_bids": True, **extra})
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy(strategy)] * 4), 8, 0, 2000,
                                        "hands")
    b = result.outcomes[0].bidding
    rows = np.arange(len(result.dealer))
    assert b.half.any()
    for side in (0, 1):
        assert (b.half[:, side] == b.half[:, side + 2]).all()  # whole totals
        total = b.bids[:, side] + b.bids[:, side + 2] + b.half[:, side]  # two halves: one
        assert (total <= extra.get("max_team_bid", 26)).all()
    for k in range(2):  # the side's first bidder: n and a half with n >= 1
        seat = (result.dealer + 1 + k) % 4
        assert (b.bids[rows, seat][b.half[rows, seat]] >= 1).all()
    # a second partner's 0 and a half is no nil: never blind, never scored as nil
    half_zero = (b.bids == 0) & b.half
    assert not (half_zero & b.blind).any()


def test_the_contract_counts_the_two_halves_as_one_trick():
    # hand 1: side 0 bids 3.5 + 2.5 = 6, takes 6 -> +60; side 1 bids 4 + 3 = 7, takes 7 -> +70
    bids = np.array([[3, 4, 2, 3], [3, 4, 0, 3]], np.int8)
    half = np.array([[True, False, True, False], [True, False, True, False]])
    tricks = np.array([[3, 4, 3, 3], [3, 4, 1, 5]], np.int8)
    s = score_hands(bids, np.zeros((2, 4), bool), tricks, np.zeros((2, 2), np.int32), RULES,
                    half=half)
    # hand 2: side 0 bids 3.5 + 0.5 = 4, takes 4 -> +40, and the 0.5 bidder took a trick:
    # no nil penalty (a half is no nil); side 1 bids 7, takes 9 -> 70 + 2
    assert s.contract.tolist() == [[60, 70], [40, 70]]
    assert s.nil.tolist() == [[0, 0], [0, 0]]
    assert s.overtricks.tolist() == [[0, 0], [0, 2]]


def test_records_replay_halves(tmp_path, capsys):
    rt = roundtrip(tmp_path, "half_trick_bids = true\n")
    assert any("half" in r for r in rt.records)
    assert [r["points"] for r in rt.full] == rt.points == rt.sheet_points()
    lone = dict(rt.sheets[0], half=[True, False, False, False])  # a half without its pair
    assert "half" in rt.refused(tmp_path, lone, capsys)


def test_combinations():
    with pytest.raises(UserError, match="half"):
        load_rules({"half_trick_bids": True, "whiz": True, "blind_nil": False})


# --- issue 19: half bids with the bid rules that total a side's or the table's bids ----------


@dataclasses.dataclass(eq=False)
class Asked:
    """Plays as ``inner`` and keeps every bid decision: (seat, bids so far, halves so far, the
    offered mask)."""

    inner: object
    seen: list = dataclasses.field(default_factory=list)

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def bid(self, view, rng):
        for i in range(len(view)):
            self.seen.append((int(view.seat[i]), view.bids[i].tolist(), view.half[i].tolist(),
                              int(view.legal[i])))
        return self.inner.bid(view, rng)


def legal(seat: int, bids: list, half: list, rules: dict) -> set:
    """The bits (v: a bid of v, or of v and a half after a partner's half) RULES.md §3 and §4.4
    allow ``seat``, written from the text: the partner opposite; a side's two halves make one
    trick; min_team_bid (the second partner completes the side's total, nil only after a nil or
    a total already reached); hook (the last bid may not make the four total 13); moon and
    lexington (not a total of 13 / 12 after the opponents' double nil); prohibitions give way
    where they would leave no bid."""
    partner = (seat + 2) % 4
    p, halved = bids[partner], bids[partner] >= 0 and half[partner]
    if halved:  # v and a half: the side's total p + v + 1, no nil
        bits = {v: p + v + 1 for v in range(13)}
    else:
        bits = {v: (p if p > 0 else 0) + v for v in range(14)}
    if rules.get("fledu"):  # every bid at least 4 unless nil: 3.5 is not, 4.5 is
        bits = {v: t for v, t in bits.items() if v >= 4 or (v == 0 and not halved)}
    k = rules.get("min_team_bid")
    if k is not None and p >= 0:
        if halved:
            bits = {v: t for v, t in bits.items() if t >= k}
        elif p == 0:
            bits = {v: t for v, t in bits.items() if v == 0 or v >= k}
        else:
            bits = {v: t for v, t in bits.items() if (v != 0 and t >= k) or (v == 0 and p >= k)}
    banned = set()
    if rules.get("hook") and sum(b >= 0 for b in bids) == 3:
        made = sum(b for b in bids if b > 0)
        halves = sum(h for b, h in zip(bids, half, strict=True) if b >= 0) + halved
        banned |= {v for v in bits if made + halves // 2 + v == 13}
    opponents = [bids[(seat + 1) % 4], bids[(seat + 3) % 4]]
    double_nil = all(b == 0 and not h for b, h in zip(
        opponents, [half[(seat + 1) % 4], half[(seat + 3) % 4]], strict=True))
    if p > 0 and double_nil:
        for key, total in (("moon", 13), ("lexington", 12)):
            if rules.get(key):
                banned |= {v for v, t in bits.items() if v > 0 and t == total}
    kept = set(bits) - banned
    return kept or set(bits)


HALF_WITH = {
    "min_team_bid": {"min_team_bid": 4},
    "hook": {"hook": True},
    "moon, lexington": {"moon": True, "lexington": True},
    "min_team_bid, hook, moon": {"min_team_bid": 5, "hook": True, "moon": True},
    "fledu": {"fledu": True},
    "fledu, hook, min_team_bid": {"fledu": True, "hook": True, "min_team_bid": 9},
}


@pytest.mark.parametrize("strategy", ["random", "seed"])
@pytest.mark.parametrize("name", list(HALF_WITH))
def test_half_bids_with_the_total_rules(name, strategy):
    """Every bid the engine offers under half_trick_bids with min_team_bid, hook, moon and
    lexington is the one RULES.md allows (`legal`), bit for bit; the side totals keep them."""
    over = HALF_WITH[name]
    rules = load_rules({"half_trick_bids": True, **over})
    player = Asked(make_strategy(strategy))
    result = GAMES["spades"].play_block(rules, Lineup([player] * 4), 19, 0, 1500, "hands")
    bad = [(seat, bids, half, sorted(v for v in range(14) if mask >> v & 1),
            sorted(legal(seat, bids, half, over)))
           for seat, bids, half, mask in player.seen
           if {v for v in range(14) if mask >> v & 1} != legal(seat, bids, half, over)]
    assert not bad, f"{len(bad)} of {len(player.seen)} differ, e.g. {bad[:3]}"
    b = result.outcomes[0].bidding
    assert b.half.any()
    totals = [b.bids[:, s] + b.bids[:, s + 2] + b.half[:, s] for s in (0, 1)]
    if "min_team_bid" in over:
        for s, total in enumerate(totals):
            two_nils = (b.bids[:, s] == 0) & (b.bids[:, s + 2] == 0) & ~b.half[:, s]
            assert ((total >= over["min_team_bid"]) | two_nils).all()
    if over.get("hook"):
        whole = totals[0] + totals[1]
        assert (whole != 13).mean() > 0.95  # the hook gives way only where it leaves no bid


def test_lexington_and_moon_count_the_halves():
    """A side of 6.5 + 5.5 bids 12 (lexington) and wins at once by taking 12; 6.5 + 6.5 bids
    13 (moon) and needs every trick (RULES.md §4.4, two halves making a trick)."""
    rules = load_rules({"half_trick_bids": True, "moon": True, "lexington": True})
    bids = np.array([[6, 0, 5, 1], [6, 0, 6, 0], [6, 0, 6, 0]], np.int8)
    half = np.array([[True, False, True, False], [True, False, True, False],
                     [True, False, True, False]])
    tricks = np.array([[6, 0, 6, 1], [7, 0, 6, 0], [6, 0, 6, 1]], np.int8)
    s = score_hands(bids, np.zeros((3, 4), bool), tricks, np.zeros((3, 2), np.int32), rules,
                    half=half)
    assert s.wins_game.tolist() == [0, 0, -1]
    assert s.contract[:, 0].tolist() == [120, 130, -130]


def test_nil_pass_passes_for_nils_not_for_halves():
    """A second partner's 0 and a half is no nil: his side passes no card under nil_pass."""
    rules = load_rules({"half_trick_bids": True, "nil_pass": [1, 2]})
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy("random")] * 4), 5, 0,
                                        1500, "hands")
    out = result.outcomes[0]
    b = out.bidding
    nil = (b.bids == 0) & ~b.half
    for s in range(4):
        side_nil = nil[:, s] | nil[:, (s + 2) % 4]
        side_blind = (nil & b.blind)[:, s] | (nil & b.blind)[:, (s + 2) % 4]
        want = np.where(side_blind, 2, np.where(side_nil, 1, 0))
        assert (popcount(out.passed[:, s]) == want).all()
    assert ((b.bids == 0) & b.half).any()  # halves of zero were bid, and passed nothing
