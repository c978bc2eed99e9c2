"""RULES.md §4.2 ``seven_trump_reveal``: who may reveal, who restores, and the play under the
revealed trump, each re-derived here from the dealt hands and the plays."""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import RANKS, SUITS
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.hand import deck_for
from strategies import make_strategy
from strategies.seed import SeedStrategy

RULES = load_rules({"seven_trump_reveal": True})


def played(strategy, n=3000, seed=5):
    result = GAMES["spades"].play_block(RULES, Lineup([strategy] * 4), seed, 0, n, "hands")
    return result, result.outcomes[0]


def test_the_first_long_suit_in_bidding_order_is_revealed_and_spades_restored():
    # a player who always reveals and always restores: the outcome follows from the hands alone
    result, out = played(SeedStrategy(reveal_max_spades=13, restore_spades=True))
    deck = deck_for(RULES)
    checked = 0
    for i in range(result.hands.shape[0]):
        hands = [deck.names_of(h) for h in out.held[i]]
        order = [(int(result.dealer[i]) + 1 + j) % 4 for j in range(4)]
        longs = {s: [x for x in SUITS[:3] if sum(c[1] == x for c in hands[s]) >= 7] for s in order}
        first = next((s for s in order if longs[s]), None)
        if first is None:
            assert out.house_state["revealer"][i] == -1 and out.house_state["trump"][i] == 3
            continue
        checked += 1
        assert out.house_state["revealer"][i] == first
        after = [(first + 1 + j) % 4 for j in range(3)]
        restorer = next((s for s in after if sum(c[1] == "S" for c in hands[s]) >= 7), None)
        assert out.house_state["restorer"][i] == (-1 if restorer is None else restorer)
        want = 3 if restorer is not None else SUITS.index(longs[first][0])
        assert out.house_state["trump"][i] == want
    assert checked > 50


def _strength(card, trump, led):
    return (2 if card[1] == trump else 1 if card[1] == led else 0, RANKS.index(card[0]))


@pytest.mark.parametrize("strategy", ["random", "seed"])
def test_tricks_go_to_the_revealed_trump_and_it_is_not_led_before_broken(strategy):
    result, out = played(make_strategy(strategy), n=4000)
    deck = deck_for(RULES)
    names = np.array([x or "?" for x in deck.names])
    plays = names[out.play.plays].reshape(-1, 13, 4)
    seats = out.play.seats.reshape(-1, 13, 4)
    revealed = np.flatnonzero(out.house_state["trump"] != 3)
    assert revealed.size > 50
    for i in revealed:
        trump = SUITS[out.house_state["trump"][i]]
        held = [set(deck.names_of(h)) for h in out.held[i]]
        broken = False
        for t in range(13):
            trick = list(plays[i, t])
            lead = trick[0]
            if lead[1] == trump and not broken:  # led before broken: only from a hand of trumps
                assert all(c[1] == trump for c in held[seats[i, t, 0]])
            best = max(range(4), key=lambda j: _strength(trick[j], trump, lead[1]))
            assert seats[i, t, best] == out.play.winners[i, t]
            for j in range(4):
                held[seats[i, t, j]].discard(trick[j])
            broken |= any(c[1] == trump for c in trick)


def test_records_replay_the_reveals(tmp_path, capsys):
    from roundtrip import roundtrip

    rt = roundtrip(tmp_path, "seven_trump_reveal = true\n", strategy="seed", games=40)
    assert [r["points"] for r in rt.full] == rt.points == rt.sheet_points()
    with_reveal = [r for r in rt.records if "reveal" in r]
    assert with_reveal
    assert [r.get("reveal", {}).get("by", -1) for r in rt.records] == rt.table.revealer.tolist()
    rec = with_reveal[0]
    wrong = (rec["reveal"]["by"] + 1) % 4
    bad = dict(rec, reveal={"by": wrong, "restored_by": None})
    assert "reveal" in rt.refused(tmp_path, bad, capsys)


@pytest.mark.parametrize("over", [{"seven_trump_reveal": True, "jokers": 2},
                                  {"seven_trump_reveal": True, "trump_order": "bowers"},
                                  {"seven_trump_reveal": True, "no_trump_bids": True}])
def test_reveals_need_the_standard_deck(over):
    with pytest.raises(UserError, match="seven_trump_reveal"):
        load_rules(over)


def test_two_decks_count_a_card_held_twice():
    """Issue 19, six players with two decks (RULES.md §4.7): seven cards of a suit are counted
    copy by copy; the first in bidding order holding them reveals, the first after him with
    seven spades restores (a player who always does)."""
    from collections import Counter

    rules = load_rules({"players": 6, "seven_trump_reveal": True})
    result = GAMES["spades"].play_block(
        rules, Lineup([SeedStrategy(reveal_max_spades=17, restore_spades=True)] * 6), 5, 0, 500,
        "hands")
    out, deck = result.outcomes[0], deck_for(rules)
    checked = 0
    for i in range(500):
        suits = [Counter(c[1] for c in deck.names_of(int(h)) + deck.names_of(int(t)))
                 for h, t in zip(out.held[i], out.twice[i], strict=True)]
        order = [(int(result.dealer[i]) + 1 + j) % 6 for j in range(6)]
        first = next((s for s in order if max(suits[s][x] for x in "CDH") >= 7), None)
        assert out.house_state["revealer"][i] == (-1 if first is None else first)
        if first is None:
            continue
        after = [(first + 1 + j) % 6 for j in range(5)]
        restorer = next((s for s in after if suits[s]["S"] >= 7), None)
        assert out.house_state["restorer"][i] == (-1 if restorer is None else restorer)
        checked += any(n == 7 for s in suits for n in s.values())
    assert checked > 20
