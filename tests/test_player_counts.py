"""RULES.md §4.7 player counts without partners — three players (17 each, the 2C out or the last
card undealt; 18 each with jokers), cutthroat four (``partnerships = false``) and five players
(10 each without 2D and 2H; 11 with three jokers): the deals hold the right cards, every card is
played once, and each player's score is recomputed here from his own bid and tricks."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from sim.cards import RANKS, SUITS
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades.hand import deck_for
from strategies import make_strategy
from tolerance import check_distribution

FULL = {r + s for s in SUITS for r in RANKS}
TABLES = {  # rules, cards each, the cards in the deck
    "three": ({"players": 3}, 17, FULL - {"2C"}),
    "three, last undealt": ({"players": 3, "remove": "last"}, 17, FULL),
    "three with jokers": ({"players": 3, "jokers": 2}, 18, FULL | {"BJ", "LJ"}),
    "cutthroat": ({"partnerships": False}, 13, FULL),
    "five": ({"players": 5}, 10, FULL - {"2D", "2H"}),
    "five with jokers": ({"players": 5, "jokers": 3}, 11, FULL | {"BJ", "LJ", "XJ"}),
}


def play(over, strategy="random", n=400, mode="hands", seed=6):
    rules = load_rules(over)
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy(strategy)] * rules.players),
                                        seed, 0, n, mode)
    return rules, result


@pytest.mark.parametrize("name", sorted(TABLES))
def test_deals_and_plays(name):
    over, each, cards = TABLES[name]
    rules, result = play(over)
    deck = deck_for(rules)
    assert rules.cards_each == each and {c for c in deck.names if c} == cards
    out = result.outcomes[0]
    names = np.array([x or "?" for x in deck.names])
    for i in range(100):
        hands = [deck.names_of(h) for h in result.hands[i]]
        assert [len(h) for h in hands] == [each] * rules.players
        dealt = [c for h in hands for c in h]
        assert len(set(dealt)) == len(dealt) and set(dealt) <= cards
        assert len(cards) - len(dealt) == (1 if name == "three, last undealt" else 0)
        plays = list(names[out.play.plays[i]])
        assert sorted(plays) == sorted(dealt)  # every card dealt is played once
    assert (out.play.tricks.sum(axis=1) == each).all()


def test_the_card_left_undealt_is_uniform():
    # three players, 52 cards, 17 each: each card is the undealt one with probability 1/52
    rules, result = play({"players": 3, "remove": "last"}, n=26000)
    deck = deck_for(rules)
    held = np.bitwise_or.reduce(result.hands, axis=1)
    left = np.bitwise_count(deck.full_mask & ~held)
    assert (left == 1).all()
    slot = np.log2((deck.full_mask & ~held).astype(np.float64)).astype(int)
    observed = {int(s): int(c) for s, c in zip(*np.unique(slot, return_counts=True), strict=True)}
    probs = {b: Fraction(1, 52) for b in range(64) if deck.names[b]}
    check_distribution(observed, probs, slot.size, "the undealt card")


def own_score(bid, blind, tricks, bags_before, rules):
    """A player who is his own side (RULES.md §3 read for one player): made, 10 per bid trick
    and 1 per overtrick, set -10 per bid trick; nil +-nil_bonus, its tricks bags (a point each,
    nil_tricks = "bags_only"; a blind nil +-blind_nil_bonus); bag penalty."""
    if bid == 0:
        bonus = rules.blind_nil_bonus if blind else rules.nil_bonus
        points = (bonus if tricks == 0 else -bonus) + tricks
        bags = tricks
    elif tricks >= bid:
        points, bags = 10 * bid + tricks - bid, tricks - bid
    else:
        points, bags = -10 * bid, 0
    running = bags_before + bags
    penalty = running // rules.bag_limit
    return points - rules.bag_penalty * penalty, running - penalty * rules.bag_limit


@pytest.mark.parametrize("name", ["three", "cutthroat", "five"])
@pytest.mark.parametrize("strategy", ["random", "seed"])
def test_each_player_scores_his_own_contract(name, strategy):
    rules, result = play(TABLES[name][0], strategy, n=60, mode="games")
    games = {}
    for out_start in range(len(result.outcomes)):
        out = result.outcomes[out_start]
        rows = np.flatnonzero(result.hand_no == out_start + 1)
        for k, row in enumerate(rows):
            game = int(result.game[row])
            bags = games.setdefault(game, [0] * rules.players)
            for seat in range(rules.players):
                bid, tricks = int(out.bidding.bids[k, seat]), int(out.play.tricks[k, seat])
                blind = bool(out.bidding.blind[k, seat])
                points, bags[seat] = own_score(bid, blind, tricks, bags[seat], rules)
                assert out.score.points[k, seat] == points
                assert out.score.bags_after[k, seat] == bags[seat]


@pytest.mark.parametrize("name", ["three", "cutthroat", "five"])
def test_games_end_with_one_highest_score(name):
    rules, result = play(TABLES[name][0], "seed", n=200, mode="games")
    hands, games = GAMES["spades"].block_tables(result, 0)
    g = games.to_pandas()
    scores = g[[f"score_{s}" for s in range(rules.players)]].to_numpy()
    top = scores.max(axis=1)
    assert ((scores == top[:, None]).sum(axis=1) == 1).all()
    assert (scores[np.arange(len(g)), g.winner] == top).all()
    reached = (scores >= rules.target_score).any(axis=1) | (scores <= rules.mercy_score).any(axis=1)
    assert reached.all()


@pytest.mark.parametrize("name", ["three", "cutthroat", "five with jokers"])
def test_records_replay(tmp_path, name):
    from roundtrip import roundtrip

    toml = "\n".join(f"{k} = {str(v).lower() if isinstance(v, bool) else v}"
                     for k, v in TABLES[name][0].items()) + "\n"
    rt = roundtrip(tmp_path, toml, strategy="seed", games=3)
    assert [r["points"] for r in rt.full] == rt.points == rt.sheet_points()
    assert len(rt.records[0]["bids"]) == load_rules(TABLES[name][0]).players


@pytest.mark.parametrize("over, key", [
    ({"players": 3, "double_nil": True}, "double_nil"),
    ({"partnerships": False, "team_nil": True}, "team_nil"),
    ({"players": 5, "nil_pass": [1, 2]}, "nil_pass"),
    ({"players": 5, "pass_cards": {"count": 2, "direction": "partner"}}, "pass_cards"),
    ({"players": 3, "book_made": True}, "book_made"),
    ({"partnerships": False, "set_to_opponents": True}, "set_to_opponents"),
    ({"players": 3, "partnerships": False}, "partnerships"),
    ({"players": 5, "jokers": 2}, "jokers"),
    ({"players": 3, "jokers": 3}, "jokers"),
    ({"players": 4, "remove": "last"}, "remove"),
    ({"players": 7}, "players"),
])
def test_rules_for_partners_or_two_sides_are_refused(over, key):
    with pytest.raises(UserError, match=key):
        load_rules(over)


def test_line_ups_by_side_without_partners(tmp_path):
    from whistlab.experiment import load_experiment

    path = tmp_path / "three.toml"
    path.write_text('name = "three"\nhands = 10\n[variants]\nthree = { preset = '
                    '"spades.standard", players = 3 }\n[lineups]\nmix = { sides = ["seed", '
                    '"random", "seed"] }\n')
    exp = load_experiment(path)
    assert [s["name"] for s in exp.cells[0].seats] == ["seed", "random", "seed"]
    path.write_text(path.read_text().replace('"seed"] }', '"seed"], swap = true }'))
    with pytest.raises(UserError, match="3 sides"):
        load_experiment(path)


def test_a_run_mixing_tables_reports_every_table(tmp_path):
    """Sections 1-3 on the usual table, and the sections on every table after them (issue 22
    item 5: a run at another table is reported, not refused; tests/test_report_tables.py)."""
    from whistlab.cli import main

    path = tmp_path / "mix.toml"
    path.write_text('name = "mix"\ngames = 20\nseed = 5\nblock_size = 10\n[variants]\n'
                    'standard = "spades.standard"\nthree = { preset = "spades.standard", '
                    'players = 3 }\n[lineups]\nseed = "seed"\n')
    out = tmp_path / "run"
    assert main(["run", str(path), "--out", str(out), "--quiet"]) == 0
    assert main(["report", str(out)]) == 0
    summary = (out / "report" / "summary.md").read_text()
    assert "Sections 1–3 cover the variants of four players in two partnerships (standard)" \
        in summary and "## 4. Nil at every table" in summary
    alone = tmp_path / "alone.toml"
    alone.write_text(path.read_text().replace('standard = "spades.standard"\n', ""))
    assert main(["run", str(alone), "--out", str(tmp_path / "alone"), "--quiet"]) == 0
    assert main(["report", str(tmp_path / "alone")]) == 0
    summary = (tmp_path / "alone" / "report" / "summary.md").read_text()
    assert "## 1. Nil at every table" in summary and "## 2. Sandbags" not in summary
