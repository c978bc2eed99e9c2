"""The reports' hands (issue 22 item 4): a hand drawn as a card diagram shows every card of the
record's deal once, in the hand that held it, and every trick in order with its winner, at any
table (Spades of 2 to 8 players, jokers, two decks; Portland; Norwegian of 2, 3 and 4); and the
hands a study draws are the ones its stated rules pick, rechecked here from the records."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from html.parser import HTMLParser

import pytest

from reports import build_report
from reports.data import check_blocks, open_results
from reports.kit.hands import hand_diagram
from reports.kit.page import render_hand
from reports.studies.norwegian.hands import hands_section as norwegian_hands
from reports.studies.portland.hands import hands_section as portland_hands
from reports.studies.spades.hands import hands_section as spades_hands
from sim.records import read_jsonl
from sim.replay import replay_records
from whistlab.experiment import build_experiment
from whistlab.runner import run_experiment, sample_path

PRESETS = ["spades.standard", "spades.two", "spades.cutthroat", "spades.three", "spades.five",
           "spades.six", "spades.jokers", "spades.cancel", "spades.cancel8", "portland.honours",
           "portland.no_trump", "portland.dummy", "norwegian", "norwegian.three",
           "norwegian.classic"]
RULES = {"spades.two": {"preset": "spades.standard", "players": 2}}  # no preset of its own


class Diagram(HTMLParser):
    """What a rendered diagram shows: each seat's cards (``data-card`` in its ``hd-seat``
    box), and the trick table's cells: ``(trick, seat, card, won)`` in order."""

    def __init__(self, html: str):
        super().__init__()
        self.seats: dict[int, list[str]] = {}
        self.cells: list[tuple[int, int, str | None, bool]] = []
        self._seat, self._depth, self._trick = None, 0, -1
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "div":
            if self._seat is not None:
                self._depth += 1
            elif "hd-seat" in classes:
                self._seat, self._depth = int(a["data-seat"]), 0
                self.seats[self._seat] = []
        elif tag == "span" and "hd-card" in classes:
            assert self._seat is not None, "a card outside a seat's hand"
            self.seats[self._seat].append(a["data-card"])
        elif tag == "tr":
            self._trick += 1
        elif tag == "td" and "data-seat" in a:
            self.cells.append((self._trick, int(a["data-seat"]), a.get("data-card"),
                               "hd-won" in classes))

    def handle_endtag(self, tag):
        if tag == "div" and self._seat is not None:
            if self._depth == 0:
                self._seat = None
            else:
                self._depth -= 1


def replayed_sample(folder, cell):
    items = read_jsonl(sample_path(folder, cell))
    return replay_records(items)


@pytest.fixture(scope="module")
def preset_records(tmp_path_factory):
    """A few hands of random play under every preset, replayed: the sample of a tiny run."""
    out = {}
    for preset in PRESETS:
        exp = build_experiment({"name": "draw", "rules": RULES.get(preset, preset),
                                "strategy": "random",
                                "hands": 5, "seed": 13, "block_size": 5})
        folder = tmp_path_factory.mktemp(preset.replace(".", "_")) / "run"
        run_experiment(exp, folder, n_jobs=1)
        out[preset] = replayed_sample(folder, exp.cells[0])
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_the_diagram_shows_the_records_cards(preset_records, preset):
    records = preset_records[preset]
    assert len(records) == 5
    for rec in records:
        n = len(rec["hands"])
        d = hand_diagram(rec, title="t", caption="c", where="w", players=["p"] * n,
                         calls=["call"] * n, centre=["centre"], score=[("x", ["1"] * 2)])
        seen = Diagram(render_hand(d))
        # every card of the deal once, in the hand that held it (two decks: twice if held twice)
        assert {s: Counter(c) for s, c in seen.seats.items()} == \
            {s: Counter(h) for s, h in enumerate(rec["hands"])}, preset
        # the tricks in order: each trick's cards are the record's, each under a seat that
        # held it, every seat once, the winner marked where the record has one
        plays, winners = rec["plays"], rec["winners"]
        assert len(plays) == n * len(winners)
        held = [Counter(h) for h in rec["hands"]]
        for t, won in enumerate(winners):
            row = [c for c in seen.cells if c[0] == t + 1]
            assert sorted(seat for _, seat, _, _ in row) == list(range(n))
            assert Counter(card for *_, card, _ in row) == Counter(plays[t * n:(t + 1) * n])
            for _, seat, card, _ in row:
                assert held[seat][card] > 0, (preset, t, seat, card)
                held[seat][card] -= 1
            assert [seat for _, seat, _, w in row if w] == ([won] if won is not None and won >= 0
                                                           else [])
        assert not +sum(held, Counter()), "a card held and never played"
        # who led each trick: the last trick's winner (the first: the seat holding its card)
        for t in range(1, len(winners)):
            if winners[t - 1] is not None and winners[t - 1] >= 0:
                first = plays[t * n]
                assert (t + 1, winners[t - 1], first) in {(k, s, c) for k, s, c, _ in
                                                          seen.cells}


def test_a_diagram_that_misplaces_a_card_is_seen(preset_records):
    """The check above can fail: a record whose hands exchange two cards between seats."""
    rec = json.loads(json.dumps(preset_records["spades.standard"][0]))
    a, b = rec["hands"][0][0], rec["hands"][1][0]
    rec["hands"][0][0], rec["hands"][1][0] = b, a
    d = hand_diagram(rec, title="t", caption="c", where="w", players=["p"] * 4,
                     calls=["call"] * 4)
    seen = Diagram(render_hand(d))
    assert Counter(seen.seats[0]) != Counter(preset_records["spades.standard"][0]["hands"][0])


# --- the hands each study picks, rechecked from the records ------------------------------------


def run(tmp_path_factory, table: dict):
    exp = build_experiment(table)
    folder = tmp_path_factory.mktemp(table["name"]) / "run"
    run_experiment(exp, folder, n_jobs=1)
    res = check_blocks(open_results(folder))
    sample = [((cell["variant"], cell["lineup"]), rec) for cell in res.cells
              for rec in replayed_sample(folder, next(c for c in exp.cells
                                                      if c.key == res.cell_key(cell)))]
    return folder, res, sample


def tricks(rec) -> list[int]:
    """Each seat's tricks, counted from the winners."""
    return [rec["winners"].count(s) for s in range(len(rec["hands"]))]


def side_tricks(rec) -> list[int]:
    sides = len(rec["points"])
    return [sum(t for s, t in enumerate(tricks(rec)) if s % sides == k) for k in range(sides)]


def first_best(sample, rank):
    """``(variant, lineup, game_id, hand_no)`` of the highest ranked hand, the first among
    equals."""
    best = None
    for (variant, lineup), rec in sample:
        r = rank(rec)
        if r is not None and (best is None or r > best[0]):
            best = (r, (variant, lineup, rec["game_id"], rec["hand_no"]))
    return None if best is None else best[1]


def check_choice(notable, expected: dict):
    """The hands chosen are the expected ones; a kind with none is left out, saying so."""
    chosen = {kind.key: (p.cell["variant"], p.cell["lineup"], p.record["game_id"],
                         p.record["hand_no"])
              for kind, p in notable.chosen}
    assert chosen == {k: v for k, v in expected.items() if v is not None}
    assert len(notable.diagrams) == len(chosen)
    assert len(notable.left_out) == sum(v is None for v in expected.values())
    return chosen


def spades_expected(sample) -> dict:
    def nil_set(rec):
        return 1 if any(b == 0 and tricks(rec)[s] == 1 for s, b in enumerate(rec["bids"])) \
            else None

    def set_by_one(rec):
        for side in range(2):
            bids = [(s, rec["bids"][s]) for s in (side, side + 2) if rec["bids"][s]]
            contract = sum(b for _, b in bids)
            took = sum(tricks(rec)[s] for s, _ in bids)
            if contract and took == contract - 1 and rec["components"]["contract"][side] < 0:
                return 1
        return None

    def penalty(rec):
        worst = min(rec["components"]["bag_penalty"])
        return -worst if worst < 0 else None

    return {"nil_set": first_best(sample, nil_set),
            "contract_set": first_best(sample, set_by_one),
            "bag_penalty": first_best(sample, penalty)}


def test_the_spades_hands_are_the_ones_the_rules_pick(tmp_path_factory):
    folder, res, sample = run(tmp_path_factory, {
        "name": "spades", "strategy": "seed", "games": 40, "seed": 3, "block_size": 40,
        "variants": {"std": "spades.standard", "no_nil": {"preset": "spades.standard",
                                                           "nil": False, "blind_nil": False}}})
    assert len(sample) == 128
    expected = spades_expected(sample)
    assert all(v is not None for v in expected.values()), expected  # each kind has a hand
    check_choice(spades_hands(res), expected)
    # without the cell that bids nil: no nil set, said in a sentence
    only = res.only([c for c in res.cells if c["variant"] == "no_nil"], "test")
    expected = spades_expected([(v, r) for v, r in sample if v[0] == "no_nil"])
    assert expected["nil_set"] is None
    notable = spades_hands(only)
    check_choice(notable, expected)
    assert "The sample has no nil set by exactly one trick." in notable.left_out
    # the report's page draws them, in its Hands section
    index = build_report(folder, folder / "report")
    html = index.read_text(encoding="utf-8")
    section = html[html.index('<section id="hands">'):]
    section = section[:section.index("</section>")]
    assert section.count('<figure class="hd">') == 3
    md = (folder / "report" / "summary.md").read_text(encoding="utf-8")
    assert "### A nil set by one trick" in md and "### The largest bag penalty" in md


def test_the_portland_hands_are_the_ones_the_rules_pick(tmp_path_factory):
    _, res, sample = run(tmp_path_factory, {
        "name": "portland", "game": "portland", "strategy": "seed", "games": 30, "seed": 3,
        "block_size": 30, "variants": {"five": "portland", "honours": "portland.honours"}})

    def hp(rec):
        return rec["components"]["honours_points"]

    def held(rec):  # trump honours of each side, from the hands and the turned-up card
        trump = rec["turn_up"][1]
        return [sum(1 for s in (k, k + 2) for c in rec["hands"][s]
                    if c[1] == trump and c[0] in "AKQJ") for k in range(2)]

    def unscored(rec):
        return 1 if rec["rules"]["honours"] and any(
            h >= 3 and hp(rec)[k] == 0 for k, h in enumerate(held(rec))) else None

    expected = {"honours_swing": first_best(sample, lambda r: max(hp(r)) - min(hp(r)) or None),
                "honours_unscored": first_best(sample, unscored),
                "most_tricks": first_best(sample, lambda r: max(side_tricks(r)))}
    assert expected["honours_swing"] is not None and expected["most_tricks"] is not None
    check_choice(portland_hands(res), expected)


def test_the_norwegian_hands_are_the_ones_the_rules_pick(tmp_path_factory):
    _, res, sample = run(tmp_path_factory, {
        "name": "norwegian", "game": "norwegian", "games": 30, "seed": 3, "block_size": 30,
        "variants": {"two": "norwegian", "three": "norwegian.three",
                     "classic": "norwegian.classic"},
        "lineups": {"seed": "seed", "random": "random"}})

    def book(rec):
        return len(rec["winners"]) // 2

    def grand_side(rec):
        return side_tricks(rec)[rec["grand_player"] % len(rec["points"])]

    def misere_failed(rec):
        return 1 if rec["contract"] == "misere" and \
            side_tricks(rec)[rec["declarer"] % len(rec["points"])] > book(rec) else None

    def made(rec):
        return grand_side(rec) if rec["contract"] == "grand" and grand_side(rec) > book(rec) \
            else None

    def failed(rec):
        return 1 if rec["contract"] == "grand" and \
            rec["declarations"][rec["grand_player"]] == "grand" and \
            grand_side(rec) <= book(rec) else None

    expected = {"misere_failed": first_best(sample, misere_failed),
                "grand_made": first_best(sample, made), "grand_failed": first_best(sample, failed)}
    assert all(v is not None for v in expected.values()), expected
    check_choice(norwegian_hands(res), expected)


def test_a_folder_without_its_sample_is_reported_without_hands(tmp_path):
    exp = build_experiment({"name": "old", "strategy": "random", "games": 4, "seed": 2,
                            "block_size": 4})
    folder = tmp_path / "run"
    run_experiment(exp, folder, n_jobs=1)
    shutil.rmtree(folder / "records")  # as a folder made before runs wrote a sample
    index = build_report(folder, folder / "report")
    html = index.read_text(encoding="utf-8")
    assert '<section id="hands">' in html and '<figure class="hd">' not in html
    assert "No sample of records for" in html
