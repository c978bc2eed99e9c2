"""House rules are one frozen, validated value with named presets, loadable from TOML files
(a preset plus overrides, optional keys switched off) and round-tripping through dicts; strategies
are small frozen objects that round-trip through dicts, and their parameters change how they play
(STYLE.md practices 5 and 6; RULES.md §3)."""

from __future__ import annotations

import dataclasses
import json
import textwrap

import numpy as np
import pytest

from sim.cards import standard_deck
from sim.deal import deal
from sim.errors import UserError
from sim.lineup import Lineup
from sim.options import PRESETS, load_rules, rules_from_mapping, rules_to_dict
from sim.spades.hand import Seating, deck_for, play_hand, start_hand
from strategies import STRATEGIES, make_strategy

STANDARD = PRESETS["spades.standard"]


# --- rules -------------------------------------------------------------------------------------


def test_the_three_spades_presets():
    assert {"spades.standard", "spades.short", "spades.openspiel"} <= set(PRESETS)
    std, short, osp = (PRESETS[f"spades.{n}"] for n in ("standard", "short", "openspiel"))
    # RULES.md §3 defaults
    assert (std.nil, std.nil_bonus, std.nil_tricks) == (True, 100, "bags_only")
    assert (std.blind_nil, std.blind_nil_bonus, std.blind_nil_min_deficit) == (True, 200, 100)
    assert (std.spades_broken, std.max_team_bid) == (True, None)
    assert (std.bag_limit, std.bag_penalty) == (10, 100)
    assert (std.target_score, std.mercy_score, std.max_hands) == (500, -200, None)
    # spades.short: target 250, bags 5 -> -50; everything else standard
    assert short == dataclasses.replace(std, target_score=250, bag_limit=5, bag_penalty=50)
    # spades.openspiel
    assert (osp.nil_tricks, osp.blind_nil, osp.max_team_bid, osp.spades_broken) == (
        "count", False, 13, "never")
    assert osp.max_hands == 1


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_are_frozen_and_valid(name):
    rules = PRESETS[name]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.bag_limit = 3
    rules.check()
    assert load_rules(name) is rules
    assert hash(rules) == hash(dataclasses.replace(rules))


def write(tmp_path, text):
    path = tmp_path / "house.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_rules_file_preset_plus_overrides(tmp_path):
    rules = load_rules(str(write(tmp_path, """\
        preset = "spades.short"
        bag_penalty = 80
        nil_tricks = "count"
        spades_broken = false
    """)))
    assert rules == dataclasses.replace(PRESETS["spades.short"], bag_penalty=80,
                                        nil_tricks="count", spades_broken=False)
    assert rules.target_score == 250 and rules.bag_limit == 5  # from the preset


def test_rules_file_game_only_is_the_first_preset(tmp_path):
    rules = load_rules(str(write(tmp_path, 'game = "spades"\nnil_bonus = 50\n')))
    assert rules == dataclasses.replace(STANDARD, nil_bonus=50)


def test_rules_file_game_must_match_preset(tmp_path):
    with pytest.raises(UserError, match="'game'"):
        load_rules(str(write(tmp_path, 'preset = "spades.short"\ngame = "portland"\n')))


@pytest.mark.parametrize("off", ["false", '"off"'])
def test_optional_keys_switched_off(tmp_path, off):
    rules = load_rules(str(write(tmp_path, f"""\
        preset = "spades.openspiel"
        mercy_score = {off}
        max_team_bid = {off}
        target_score = {off}
        max_hands = 3
    """)))
    assert (rules.mercy_score, rules.max_team_bid, rules.target_score) == (None, None, None)
    assert rules.max_hands == 3


def test_off_is_only_for_optional_keys(tmp_path):
    with pytest.raises(UserError, match="'bag_limit'"):
        load_rules(str(write(tmp_path, 'game = "spades"\nbag_limit = "off"\n')))
    with pytest.raises(UserError, match="'nil_bonus'"):
        load_rules(str(write(tmp_path, 'game = "spades"\nnil_bonus = false\n')))


def test_inline_mapping_with_null():
    rules = load_rules({"preset": "spades.standard", "mercy_score": None, "bag_limit": 7})
    assert rules == dataclasses.replace(STANDARD, mercy_score=None, bag_limit=7)


@pytest.mark.parametrize("rules", [
    *PRESETS.values(),
    dataclasses.replace(STANDARD, nil=False, blind_nil=False, max_team_bid=10, mercy_score=None),
    dataclasses.replace(STANDARD, spades_broken="never", target_score=None, max_hands=4),
], ids=lambda r: str(rules_to_dict(r))[:60])
def test_rules_dict_round_trip(rules):
    table = rules_to_dict(rules)
    assert list(table)[0] == "game" and table["game"] == rules.game
    assert rules_from_mapping(table) == rules
    assert rules_from_mapping(json.loads(json.dumps(table))) == rules  # as stored in Parquet


def test_rules_to_dict_lists_every_key():
    fields = [f.name for f in dataclasses.fields(STANDARD)]
    assert list(rules_to_dict(STANDARD)) == ["game", *fields]


# --- strategies --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_strategy_round_trip_defaults(name):
    s = make_strategy(name)
    d = s.to_dict()
    assert d["name"] == name
    assert make_strategy(d) == s
    assert make_strategy(json.loads(json.dumps(d))) == s
    assert make_strategy(s) is s
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.name_of_nothing = 1


SEED_PARAMS = {"ace": 0.9, "king": 0.5, "long_side_suit": 5, "bid_round": 0.25,
               "nil_max_estimate": -1.0, "nil_max_spades": 2, "blind_nil_deficit": 150,
               "cover_nil": False, "avoid_bags": False, "set_margin": -1}


def test_seed_strategy_round_trip_with_parameters():
    s = make_strategy({"name": "seed", **SEED_PARAMS})
    d = s.to_dict()
    assert {k: d[k] for k in SEED_PARAMS} == SEED_PARAMS
    assert set(d) == {"name", *(f.name for f in dataclasses.fields(s))}
    assert make_strategy(d) == s
    assert make_strategy(json.loads(json.dumps(d))) == s
    assert s != make_strategy("seed")


@pytest.mark.parametrize("spec, key", [
    ({"name": "seed", "ace": "1"}, "ace"),
    ({"name": "seed", "cover_nil": 1}, "cover_nil"),
    ({"name": "seed", "set_margin": True}, "set_margin"),
    ({"name": "seed", "set_margin": 1.5}, "set_margin"),
    ({"name": "seed", "bluff": 2}, "bluff"),
    ({"name": "random", "ace": 1.0}, "ace"),
    ({"name": "chess"}, "strategy"),
    ({"ace": 1.0}, "strategy"),
])
def test_bad_strategy_specs(spec, key):
    with pytest.raises(UserError) as info:
        make_strategy(spec)
    assert info.value.key == key


def play(strategy, scores=(0, 0), n=200, seed=1):
    """Bids and blind flags of ``n`` deals played by ``strategy`` at every seat, from ``scores``."""
    rng = np.random.default_rng(seed)
    dealer = np.arange(n, dtype=np.int8) % 4
    hands = deal(standard_deck(), dealer, 4, rng)
    before = np.tile(np.array(scores, np.int32), (n, 1))
    bags = np.zeros((n, 2), np.int32)
    out = play_hand(start_hand(hands, dealer, before, bags),
                    Seating(STANDARD, deck_for(STANDARD), Lineup([strategy] * 4), rng))
    return out.bidding.bids, out.bidding.blind


def test_seed_nil_max_estimate_controls_nil():
    bids, _ = play(make_strategy("seed"))
    assert (bids == 0).sum() >= 10  # the default bids nil now and then ...
    bids, _ = play(make_strategy({"name": "seed", "nil_max_estimate": -1.0}))
    assert (bids == 0).sum() == 0  # ... and never when no hand is weak enough


def test_seed_blind_nil_deficit_controls_blind_nil():
    behind = (0, 400)  # side 0 trails by 400: blind nil is legal for seats 0 and 2
    _, blind = play(make_strategy("seed"), scores=behind)
    assert blind.any(axis=1).mean() > 0.9  # the default (300) goes blind in nearly every hand
    assert not blind[:, [1, 3]].any()  # never the leading side
    _, blind = play(make_strategy({"name": "seed", "blind_nil_deficit": 10**6}), scores=behind)
    assert not blind.any()


def test_seed_parameters_change_the_bids():
    base, _ = play(make_strategy("seed"))
    bold, _ = play(make_strategy({"name": "seed", "bid_round": 0.99, "ace": 1.5}))
    assert bold[bold > 0].mean() > base[base > 0].mean()
