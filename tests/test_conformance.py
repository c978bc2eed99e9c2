"""Random-play conformance for every game (STYLE.md practice 11, first layer): one harness
(tests/harness), one protocol, the same invariants for every preset and variant.

* `test_conformance`: every preset of ``sim.options.PRESETS`` × every strategy of its game
  (random, seed, expert) × independent hands and whole games, through the shared invariants
  (`harness.invariants`: the documented table columns and types, the deal, every card played once
  by the seat whose turn it is, the tricks of the hand, trick winners, scores carried, games
  ending as the rules say, the records replaying to the engine's numbers), then against the
  game's scalar reference (tests/reference.py, reference_portland.py, reference_norwegian.py),
  hand by hand, decision by decision and game by game.
* `test_engine_equals_reference`: the same for every case of the variant tables
  (`harness.variants.CASES` less the presets: the RULES.md section 3 variants, the section 4.6
  scoring keys, the 4.2 card orders and 4.3 play rules, the 4.7 tables, the 4.1 kitty,
  Portland's and Norwegian whist's variants).
* score sheets: every preset's records, given as score sheets (the tricks instead of the hands
  and plays), replay to the points of the full records.
* the shared invariants' branches are reached (two decks, dead tricks, the kitty's trick, rubbers,
  unfinished games), and the section 3 variants reach the rules they change.

Each table's own tests (legal cards, refusals, what its play reaches) stay in its file
(test_conformance_scoring, _card_orders, _player_counts, _big_tables, test_vs_reference,
test_portland, test_norwegian); tests/test_harness.py shows that every invariant can fail.
"""

from __future__ import annotations

import pytest

from harness import check_invariants, compare, simulate
from harness.variants import CASES, PRESET_TABLE, STANDARD_TABLE, TABLES, play
from sim.options import PRESETS
from sim.replay import replay_records
from strategies import make_strategy

PRESET_CASES = [case[1:] for case in CASES if case[0] == "presets"]
VARIANT_CASES = [case for case in CASES if case[0] != "presets"]


def test_every_preset_and_strategy_is_covered():
    assert {name for name, _, _ in PRESET_CASES} == set(PRESETS)
    played = {(PRESETS[n].game, s) for n, s, _ in PRESET_CASES}
    for game in ("spades", "portland", "norwegian"):
        assert {s for g, s in played if g == game} >= {"random", "seed", "expert"}, game
    searched = {n for n, s, _ in PRESET_CASES if s == "search"}  # where it does not refuse
    assert searched == {n for n, r in PRESETS.items()
                        if make_strategy("search", game=r.game).refuse(r) is None}
    assert searched >= {"spades.standard", "spades.short", "spades.openspiel"}
    assert searched >= {n for n, r in PRESETS.items() if r.game != "spades"}  # every whist
    assert {"spades.standard", "spades.short", "spades.openspiel"} <= set(STANDARD_TABLE.variants)


@pytest.mark.parametrize(("name", "strategy", "mode"), PRESET_CASES)
def test_conformance(name, strategy, mode):
    run = play("presets", name, strategy, mode)
    check_invariants(run)
    assert compare(run, f"{name}/{strategy}/{mode}") > 0


@pytest.mark.parametrize(("table", "name", "strategy", "mode"), VARIANT_CASES,
                         ids=["/".join(case) for case in VARIANT_CASES])
def test_engine_equals_reference(table, name, strategy, mode):
    run = play(table, name, strategy, mode)
    check_invariants(run)
    assert compare(run, f"{table}/{name}/{strategy}/{mode}") > 0


@pytest.mark.parametrize(("name", "mode"), [(n, m) for n in PRESETS for m in ("hands", "games")])
def test_score_sheets_score_like_the_records(name, mode):
    """RULES.md section 5: a record without its hands and plays but with the tricks (and, in
    Portland with honours, the honours held) scores the same points and scores after."""
    run = play("presets", name, "random", mode)
    sheets = []
    for rec, out in zip(run.records, run.replayed, strict=True):
        sheet = {k: v for k, v in rec.items() if k not in ("hands", "plays")}
        sheet["tricks"] = out["tricks"]
        if run.rules.game == "portland" and run.rules.honours:
            sheet["honours"] = out["honours"]
        sheets.append(sheet)
    scored = replay_records(list(enumerate(sheets, start=1)))
    for line, (got, full) in enumerate(zip(scored, run.replayed, strict=True), start=1):
        assert (got["points"], got["after"]) == (full["points"], full["after"]), f"{name} {line}"
        assert got.get("winners") is None  # no cards, no trick winners


REACHES = {  # what a branch of the shared invariants needs -> a case that reaches it
    "a card dealt twice": ("presets", "spades.cancel", "random", "hands"),
    "dead tricks": ("presets", "spades.cancel", "random", "games"),
    "the kitty's extra trick": ("big_tables", "kitty, four, extra trick, high bidder", "random",
                                "hands"),
    "a rubber's second game": ("presets", "portland.laws", "random", "games"),
    "a game stopped unfinished": ("norwegian", "three,max_hands=3", "random", "games"),
    **{f"{game}: games of several hands, every side scoring": ("presets", game, "seed", "games")
       for game in ("spades.standard", "portland", "norwegian.three")},
}


def reached(what: str, run) -> bool:
    h = run.hands
    return {
        "a card dealt twice": lambda: run.by_seat("twice").any(),
        "dead tricks": lambda: h["dead_tricks"].any(),
        "the kitty's extra trick": lambda: any(run.game.extra_tricks(run, i)
                                               for i in range(len(run))),
        "a rubber's second game": lambda: (h["game_no"] > 1).any(),
        "a game stopped unfinished": lambda: not run.games["finished"].all(),
    }.get(what, lambda: (run.games["n_hands"] > 1).any() and run.points.any(axis=0).all())()


@pytest.mark.parametrize("what", list(REACHES))
def test_the_invariants_reach_their_cases(what):
    """Guard against a vacuous harness: the variant tables reach every branch of the shared
    invariants (two decks, dead tricks, the kitty's extra trick, a rubber's second game, games
    stopped unfinished), and each game has games of several hands and points for every side."""
    case = REACHES[what]
    assert case in CASES
    assert reached(what, play(*case)), (what, case)


def test_the_tables_are_distinct_and_named():
    """A case is named by its table; no table repeats a variant name."""
    assert len(set(CASES)) == len(CASES)
    assert set(TABLES) == {"presets", "standard", "vs_reference", "scoring", "card_orders",
                           "player_counts", "big_tables", "portland", "norwegian"}
    assert PRESET_TABLE.variants == PRESETS


# --- the section 3 variants are live: each rule shows up in the random play ---------------------


def spade_leads(run):
    """Count spade leads by a leader still holding another suit, before / after spades broke."""
    before = after = 0
    players = run.players
    for rec, out in zip(run.records, run.replayed, strict=True):
        held = [list(h) for h in rec["hands"]]
        leader = (rec["dealer"] + 1) % players
        broken = False
        for t, won in enumerate(out["winners"]):
            trick = rec["plays"][players * t: players * (t + 1)]
            if trick[0][1] == "S" and any(c[1] != "S" for c in held[leader]):
                after += broken
                before += not broken
            for j, card in enumerate(trick):
                held[(leader + j) % players].remove(card)
            broken = broken or any(c[1] == "S" for c in trick)
            leader = won
    return before, after


def test_variants_are_exercised():
    """Guard against a vacuous comparison: the random players' hands do reach the rules that
    the section 3 variants change (otherwise 'every play legal' would prove little)."""
    def hands(name):
        return play("standard", name, "random", "hands")

    # spades_broken = False: spades led before any was played (illegal under True and "never")
    assert spade_leads(hands("spades_broken=false"))[0] > 0
    # True: spade leads after spades broke while holding other suits (illegal under "never")
    assert spade_leads(hands("spades.standard"))[1] > 0
    assert spade_leads(hands("spades.standard"))[0] == 0
    assert spade_leads(hands("spades_broken=never")) == (0, 0)
    # blind nil from 0-0 only with min deficit 0; nil itself is bid when allowed
    assert hands("blind_nil_min_deficit=0").by_seat("blind").any()
    assert not hands("spades.standard").by_seat("blind").any()
    assert (hands("spades.standard").by_seat("bid") == 0).any()
    # max_team_bid: some side bids exactly the limit
    side = hands("max_team_bid=9").by_seat("bid").reshape(-1, 2, 2).sum(axis=1)
    assert side.max() == 9
    # blind nil in games (a side trailing by 100 or more), and games that end by each rule
    games = play("standard", "spades.standard", "random", "games")
    assert games.by_seat("blind").any()
    assert (games.scores_after <= -200).any()  # mercy
    seed_games = play("standard", "spades.standard", "seed", "games")
    assert (seed_games.scores_after >= 500).any()  # target


def test_a_run_is_cached_and_lined_up():
    """`simulate` is one deterministic block per argument tuple, its rows lined up."""
    rules = PRESETS["spades.standard"]
    run = simulate(rules, "random", "games", 4, 5)
    assert simulate(rules, "random", "games", 4, 5) is run
    assert [(r["game_id"], r["hand_no"]) for r in run.records] == list(zip(
        run.hands["game_id"].tolist(), run.hands["hand_no"].tolist(), strict=True))
    assert len(run.replayed) == len(run) == run.tricks.shape[0] == run.winners.shape[0]
