"""RULES.md §4.6 scoring keys in hand records (RULES.md §5): written by ``run --records``, replayed
in full (and as score sheets where the rule needs no plays) to the hands table's points and
components; the game state they add (``progressive``, ``cancel_card``) travels in the records."""

from __future__ import annotations

import pytest

from roundtrip import roundtrip
from sim.spades.scoring import COMPONENTS

SHEETS = {  # rules that score from bids and tricks alone
    "highlander": "highlander = true\n",
    "seven_plus progressive": 'seven_plus = "progressive"\n',
    "book_made, exact pair, units digit": ("book_made = true\nexact_pair_bonus = true\n"
                                           "bags_in_units_digit = true\n"),
}
PLAYS = {  # rules scored from the cards of the tricks
    "cut card": 'bag_cancel_card = "cut"\n',
    "trick bonuses": ("last_trick_bonus = true\nend_streak = true\ndix = true\n"
                      "last_trick_ace = true\nlast_trick_ace_nil = true\nlast_trick_deuce = true\n"
                      "last_trick_high_spade = true\n"),
}


def _components_match(rt):
    for out, (_, row) in zip(rt.full, rt.table.iterrows(), strict=True):
        for name in COMPONENTS:
            assert out["components"][name] == [row[f"{name}_0"], row[f"{name}_1"]], name
        assert out["after"]["bags"] == [row["bags_0"], row["bags_1"]]


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_records_replay_in_full_and_on_score_sheets(tmp_path, name):
    rt = roundtrip(tmp_path, SHEETS[name], strategy="seed", games=6, block_size=3)
    assert [r["points"] for r in rt.full] == rt.points == rt.sheet_points()
    _components_match(rt)
    if "progressive" in SHEETS[name] or "highlander" in SHEETS[name]:
        table = rt.table
        later = [r["before"].get("progressive", [0, 0]) for r in rt.records]
        after = [r["after"]["progressive"] for r in rt.full]
        # a hand starts from the previous hand's count of the same game
        for i in range(1, len(rt.records)):
            if rt.records[i]["game_id"] == rt.records[i - 1]["game_id"]:
                assert later[i] == after[i - 1]
        assert after == table[["progressive_0", "progressive_1"]].values.tolist()
        assert max(max(a) for a in after) >= 1  # the bonus was earned in these games


@pytest.mark.parametrize("name", sorted(PLAYS))
def test_records_of_rules_scored_from_the_plays(tmp_path, capsys, name):
    rt = roundtrip(tmp_path, PLAYS[name], strategy="seed", games=6, block_size=3)
    assert [r["points"] for r in rt.full] == rt.points
    _components_match(rt)
    err = rt.refused(tmp_path, rt.sheets[0], capsys)
    assert "score-sheet mode" in err and "give the plays" in err
    if name == "cut card":
        cards = [r["cancel_card"] for r in rt.records]
        assert len(set(cards)) > 1  # a card per deal
        assert rt.table.cancel_card.nunique() > 1
        bad = {k: v for k, v in rt.records[0].items() if k != "cancel_card"}
        assert "cancel_card" in rt.refused(tmp_path, bad, capsys)

    else:
        assert (rt.table[["trick_bonus_0", "trick_bonus_1"]].values != 0).any()


def test_a_record_cancel_card_must_be_the_named_one(tmp_path, capsys):
    rt = roundtrip(tmp_path, 'bag_cancel_card = "7H"\n', games=2)
    assert all(r["cancel_card"] == "7H" for r in rt.records)
    bad = dict(rt.records[0], cancel_card="8H")
    assert "rules name 7H" in rt.refused(tmp_path, bad, capsys)
