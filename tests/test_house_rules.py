"""House rules as plug-ins (issue 19 item 2, `sim.spades.plugin`, `sim.spades.house`): a rule
that is off runs none of its parts and writes none of its columns; a rule that is on runs each
of them; what a plug-in declares (its key, its columns, its record fields) reaches the rules, the
tables, the records and replay from the plug-in alone."""

from __future__ import annotations

import dataclasses
import json
from types import SimpleNamespace

import numpy as np
import pytest

from sim import phases
from sim.errors import UserError
from sim.lineup import Lineup
from sim.options import load_rules
from sim.spades import bidding, house, scoring
from sim.spades.combinations import VALUES, key_of
from sim.spades.game import play_block
from sim.spades.house import HOUSE_RULES
from sim.spades.house import nil_in_the_dark as dark_rule
from sim.spades.records import block_records
from sim.spades.replay import replay_group
from sim.spades.rules import SpadesRules
from sim.spades.tables import BROUGHT, absent_columns, block_tables, written
from strategies import make_strategy


def _caches():
    for cached in (house.in_force, house.fills, bidding.turn_steps, bidding.bid_rules,
                   phases.pipeline, scoring.parts_for):
        cached.cache_clear()


class Called(Exception):
    pass


def _tripwire(name):
    def part(*args, **kwargs):
        raise Called(name)
    return part


PARTS = ("after_bids", "as_bid", "check", "refuse", "play", "shows", "nil_bonus", "trick_bonus",
         "record", "read", "ends_game", "leads", "first_leader", "answers", "verify", "told",
         "trump", "deals", "misdeal", "public", "timing", "audit", "resolve", "bags",
         "own_scoring", "contract", "contract_ban", "no_blind_nil", "check_contracts",
         "bid_contract", "bidding", "record_bidding", "joint_bid")
SLOTS = ("turn", "score", "constraint", "phases", "bids", "bans")  # parts by the slot they fill


def _wired(rule, only=None):
    """``rule`` with every part it has (or the part ``only``) replaced by one that raises
    `Called` with the part's name."""
    parts = {name: _tripwire(name) for name in PARTS
             if getattr(rule, name) is not None and only in (None, name)}
    slots = {name: {slot: _tripwire(name) for slot in getattr(rule, name)}
             for name in SLOTS if only in (None, name)}
    return dataclasses.replace(rule, **parts, **slots)


@pytest.fixture
def tripwires(monkeypatch):
    """Every plug-in with every part replaced by one that raises `Called`."""
    monkeypatch.setattr(house, "HOUSE_RULES", tuple(_wired(rule) for rule in HOUSE_RULES))
    _caches()
    yield
    _caches()


def _lineup(rules, strategy="random"):
    return Lineup([make_strategy(strategy)] * rules.players)


@pytest.mark.parametrize("preset", ["spades.standard", "spades.six", "spades.cutthroat"])
def test_a_rule_that_is_off_runs_none_of_its_parts(tripwires, preset):
    rules = load_rules({"preset": preset}, source="test")
    assert not any(rule.in_force(rules) for rule in HOUSE_RULES)
    result = play_block(rules, _lineup(rules), 7, 0, 200, "hands")  # no part called
    hands, _ = block_tables(result, 0)
    brought = [name.replace("<seat>", "") for rule in HOUSE_RULES for name in rule.columns]
    assert not any(c.startswith(tuple(brought)) for c in written(hands, rules).column_names)
    records = list(block_records(result, SimpleNamespace(rules=rules), 0))[:20]
    sheets = [{k: v for k, v in r.items() if k not in ("hands", "plays")} | {"tricks": t}
              for r, t in zip(records, result.outcomes[0].play.tricks.tolist(), strict=False)]
    members = [(i, i + 1, r) for i, r in enumerate(records + sheets)]
    assert len(list(replay_group(members, rules, "t.jsonl"))) == 40  # nor replay's


# Each plug-in's parts that a simulated hand under its rule calls (replay's: below)
CALLED = {"nil_in_the_dark": ("refuse", "turn", "play", "nil_bonus"),
          "no_trump_bids": ("refuse", "turn", "play", "shows", "score"),
          "bid_raise": ("after_bids",), "book_made": ("score",),
          "lexington_points": ("score",), "exact_pair_bonus": ("refuse", "score"),
          "seven_plus": ("score",), "highlander": ("refuse", "score"),
          "last_trick_ace_nil": ("refuse", "trick_bonus"),
          "must_overtrump": ("refuse", "constraint"),
          "bag_cancel_card": ("refuse", "phases", "public", "score", "record"),
          "seven_trump_reveal": ("refuse", "phases", "told", "trump", "record"),
          "face_up_cards": ("refuse", "deals", "public", "record"),
          "redeal_poor_hands": ("refuse", "misdeal", "record"),
          "pass_cards": ("phases", "timing"), "nil_pass": ("phases",),
          "kitty": ("refuse", "phases", "timing", "told", "record"),
          "jokes_tie": ("refuse", "resolve"),
          "defeat_score": ("refuse", "ends_game"), "lead_ace_of_spades": ("refuse", "leads"),
          **{key: ("bids",) for key in ("fledu", "suicide", "min_team_bid", "whiz", "mirror")},
          "hook": ("bans",), "moon": ("bans", "score"), "lexington": ("bans", "score"),
          "blind_bids": ("turn", "score"), "half_trick_bids": ("refuse", "turn", "shows"),
          "no_overs": ("refuse",), "bags_negative": ("refuse", "bags"),
          "bags_in_units_digit": ("refuse", "bags"), "cancel_spades": ("refuse", "own_scoring"),
          "auction": ("refuse", "bidding", "own_scoring", "record_bidding"),
          "partnership_bidding": ("refuse", "joint_bid"), "no_nine_no_blind": ("refuse",),
          "double_nil": ("refuse", "score"), "double_blind_nil": ("refuse", "score"),
          "double_blind_nil_reward": ("score",),
          **{key: ("contract",) for key in ("team_nil", "team_blind_nil", "ten_for_two_hundred",
                                            "mo_a", "blind_six")},
          "tens_are_wheels": ("bid_contract",), "bemo": ("refuse", "contract"),
          "mo_b": ("contract", "contract_ban", "first_leader"),
          "blind_moon": ("contract", "contract_ban", "no_blind_nil"),
          **{key: ("first_leader", "constraint") for key in ("first_lead", "first_trick_clubs")},
          **{key: ("score",) for key in ("exact", "three_b", "quicksand", "double_over",
                                         "set_to_opponents", "no_minus")},
          **{key: ("constraint",) for key in ("first_trick_lowest_club",
                                              "no_spade_lead_first_trick", "must_trump")},
          **{key: ("trick_bonus",) for key in ("last_trick_bonus", "end_streak", "dix",
                                               "last_trick_ace", "last_trick_deuce",
                                               "last_trick_high_spade")}}
# The first example value of each plug-in's key (sim.spades.combinations.VALUES)
ON = {key_of(value): value for value in reversed(VALUES)}


@pytest.mark.parametrize(("key", "part"), [(k, p) for k, parts in CALLED.items() for p in parts])
def test_a_rule_that_is_on_runs_each_of_its_parts(monkeypatch, key, part):
    """Each part is called under the rule (the others as written): the tripwire of one part
    fires. The refusal when the rules are read, a turn step when its decision is asked, the
    play and the score on every hand, the record's fields when the records are written, the
    game's end after every hand of a game."""
    wired = tuple(_wired(rule, part) if rule.key == key else rule for rule in HOUSE_RULES)
    monkeypatch.setattr(house, "HOUSE_RULES", wired)
    _caches()
    try:
        with pytest.raises(Called, match=part):
            rules = load_rules({"preset": "spades.standard", **ON[key]}, source="t")
            mode = "games" if part == "ends_game" else "hands"  # a game's end: whole games
            result = play_block(rules, _lineup(rules), 7, 0, 200 if mode == "hands" else 20, mode)
            list(block_records(result, SimpleNamespace(rules=rules), 0))
    finally:
        _caches()


def test_every_part_of_every_plug_in_is_shown_to_run():
    for rule in HOUSE_RULES:
        has = {name for name in PARTS if getattr(rule, name) is not None}
        has |= {name for name in SLOTS if getattr(rule, name)}
        replayed = {"bid_raise": {"as_bid", "check"}, "bag_cancel_card": {"read"},
                    "seven_trump_reveal": {"read", "answers", "verify"},
                    "kitty": {"read", "audit"},
                    "blind_moon": {"check_contracts"}}.get(rule.key, set())
        assert has == set(CALLED[rule.key]) | replayed, rule.key


def test_the_rules_key_is_the_plug_ins_declaration():
    field = {f.name: f for f in dataclasses.fields(SpadesRules)}["nil_in_the_dark"]
    assert field.metadata["doc"] == dark_rule.OPTION.metadata["doc"]
    assert field.default is dark_rule.OPTION.default


def test_the_plug_ins_columns_are_brought_by_their_rule():
    for rule in HOUSE_RULES:
        for name, (default, _) in rule.columns.items():
            brought, kept_default, key = BROUGHT[name]
            assert key == rule.key and kept_default == default and brought is rule.in_force
    off = load_rules({"preset": "spades.standard"}, source="t")
    on = load_rules({"preset": "spades.standard", "nil_in_the_dark": True}, source="t")
    assert {f"dark_{s}" for s in range(4)} <= set(absent_columns(off))
    assert not {f"dark_{s}" for s in range(4)} & set(absent_columns(on))


def _dark_records(n=400):
    rules = load_rules({"preset": "spades.standard", "nil_in_the_dark": True}, source="t")
    lineup = Lineup([make_strategy("seed", {"dark_max_estimate": 13.0})] * 4)
    result = play_block(rules, lineup, 3, 0, n, "hands")
    return rules, result, list(block_records(result, SimpleNamespace(rules=rules), 0))


def test_a_dark_nil_is_in_the_table_the_record_and_scores_as_blind_nil():
    rules, result, records = _dark_records()
    hands, _ = block_tables(result, 0)
    table = written(hands, rules).to_pandas()
    flags = table[[f"dark_{s}" for s in range(4)]].to_numpy()
    assert flags.any(), "the seed player with dark_max_estimate 13 plays its nils dark"
    in_records = np.array([r.get("dark", [False] * 4) for r in records])
    np.testing.assert_array_equal(in_records, flags)
    # a nil in the dark is worth blind_nil_bonus (RULES.md §4.4): each side's nil points
    for row in np.flatnonzero(flags.any(axis=1))[:50]:
        bids = table.loc[row, [f"bid_{s}" for s in range(4)]].to_numpy()
        tricks = table.loc[row, [f"tricks_{s}" for s in range(4)]].to_numpy()
        blind = table.loc[row, [f"blind_{s}" for s in range(4)]].to_numpy()
        want = np.zeros(2, int)
        for seat in range(4):
            if bids[seat] == 0:
                value = (250 if blind[seat] and flags[row, seat] else rules.blind_nil_bonus
                         if blind[seat] or flags[row, seat] else rules.nil_bonus)
                want[seat % 2] += value if tricks[seat] == 0 else -value
        assert list(table.loc[row, ["nil_0", "nil_1"]]) == list(want)


def test_replay_reads_the_plug_ins_record_field_and_refuses_it_without_the_rule():
    rules, result, records = _dark_records(200)
    table = written(block_tables(result, 0)[0], rules).to_pandas()
    points = {(g, h): [a, b] for g, h, a, b in
              table[["game_id", "hand_no", "points_0", "points_1"]].itertuples(index=False)}
    dark = [r for r in records if "dark" in r][:5]
    assert dark
    members = [(i, i + 1, r) for i, r in enumerate(dark)]
    replayed = [out for _, out in replay_group(members, rules, "t.jsonl")]
    assert [o["dark"] for o in replayed] == [r["dark"] for r in dark]
    assert [o["points"] for o in replayed] == [points[r["game_id"], r["hand_no"]] for r in dark]
    off = dataclasses.replace(rules, nil_in_the_dark=False)
    with pytest.raises(UserError, match="'dark' needs nil_in_the_dark = true"):
        list(replay_group(members, off, "t.jsonl"))
    json.dumps(replayed)  # plain values


@pytest.mark.parametrize(("key", "part"), [("bid_raise", "as_bid"), ("bid_raise", "check"),
                                         ("bag_cancel_card", "read"),
                                         *(("seven_trump_reveal", p)
                                           for p in ("read", "answers", "verify")),
                                         ("kitty", "read"), ("kitty", "audit"),
                                         ("blind_moon", "check_contracts"),
                                         ("auction", "bidding"), ("auction", "own_scoring")])
def test_replay_runs_the_plug_ins_record_parts(monkeypatch, key, part):
    """Replay reads a plug-in's record fields (``read``: ``bag_cancel_card``'s card, a
    reveal), answers the scripted player's decisions from them (``answers``) and checks the
    replayed hand's against them (``verify``), gives a record's bids as first made
    (``as_bid``), checks a score sheet's raises (``check``) and its declarations
    (``check_contracts``: blind moon), and replays a score sheet's bidding of its own and scores
    it (the auction's ``bidding`` and ``own_scoring``)."""
    rules = load_rules({"preset": "spades.standard", **ON[key]}, source="t")
    result = play_block(rules, _lineup(rules), 7, 0, 200, "hands")
    records = list(block_records(result, SimpleNamespace(rules=rules), 0))
    if key == "bid_raise":  # a score sheet with a raise
        record = next(r for r in records if "raised" in r)
        record = {k: v for k, v in record.items() if k not in ("hands", "plays")}
        record["tricks"] = [3, 3, 3, 4]
    elif key in ("blind_moon", "auction"):  # a score sheet (the auction: its own bidding)
        record = {k: v for k, v in records[0].items() if k not in ("hands", "plays")}
        record["tricks"] = result.outcomes[0].play.tricks[0].tolist()
    else:
        record = records[0]
    wired = tuple(_wired(rule, part) if rule.key == key else rule for rule in HOUSE_RULES)
    monkeypatch.setattr(house, "HOUSE_RULES", wired)
    _caches()
    try:
        with pytest.raises(Called, match=part):
            list(replay_group([(0, 1, record)], rules, "t.jsonl"))
    finally:
        _caches()


class Recorder:
    """The uniform player, keeping every view of ``raise_bid`` it is shown."""

    def __init__(self):
        self.inner, self.views = make_strategy("random"), []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def raise_bid(self, view, rng):
        self.views.append(view)
        return np.ones(len(view), bool)  # raise whenever asked


def test_a_raise_offers_the_bid_and_the_one_above_it():
    """The view of ``raise_bid`` offers (``legal``) keeping the bid and raising it by one, the
    highest raise (12 to 13) too; every seat asked raises, and the bids stand raised."""
    rules = load_rules({"preset": "spades.standard", "bid_raise": True, "nil": False,
                        "blind_nil": False}, source="t")
    recorder = Recorder()
    result = play_block(rules, Lineup([recorder] * 4), 7, 0, 3000, "hands")
    asked = 0
    for view in recorder.views:
        rows = np.arange(len(view))
        bid = view.bids[rows, view.seat].astype(np.int64)
        np.testing.assert_array_equal(view.legal.astype(np.int64), (1 << bid) | (1 << (bid + 1)))
        asked += len(view)
    assert any((v.bids[np.arange(len(v)), v.seat] == 12).any() for v in recorder.views)
    flags = result.outcomes[0].bidding.flags["raised"]
    assert flags.sum() == asked > 0
