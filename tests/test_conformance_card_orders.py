"""The RULES.md section 4.2 card orders and section 4.3 leads and play constraints (issue 8) in the
engine equal the scalar reference (tests/reference.py), hand by hand and card by card.

Each key is switched on alone, then in a few combinations; ``random`` and ``seed`` players play
independent hands and whole games (``sim.spades.game.play_block``), the block is written as
section 5 records (``sim.spades.records.block_records``) and every record is replayed by
``reference.replay_hand``, which accepts each of the engine's plays only if its own legal-play
rules allow it; its tricks, trick winners, points, all seven components and the scores and bags
after the hand must equal the engine's arrays (in games mode the games carry and end as
``reference.game_over`` says). Then:

* at every position the engine's players reached, the cards the engine offered (``view.legal``)
  are exactly the reference's ``legal_plays`` (a recording player wraps the strategy);
* a record with one play replaced by a card the reference forbids is refused by ``sim.replay``
  and the reference at the same trick and seat, the engine naming the reference's rule;
* records holding jokers ("BJ", "LJ") replay through ``sim.replay`` (full and score sheets) to
  the reference's numbers;
* the engine loads exactly the combinations of these keys that the reference accepts;
* the play reaches what the comparison is meant to test (jokers, high deuces and bowers winning,
  equal jokers, the ladder, every play rule changing the legal cards).

The three engine bugs these layers found are fixed: a leader holding only spades, the AS among
them, under ``lead_ace_of_spades`` was offered the AS alone; ``first_lead = "two_of_clubs"`` under
``deuces_high`` led the 3C (both sides now refuse the pair: the 2C is a spade there); taking out
the 9S or the AS with ``jokers_remove`` under a rule that names it raised KeyError (both refuse).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter

import pytest

from sim.errors import UserError
from sim.lineup import Lineup
from sim.options import rules_from_mapping
from sim.replay import replay_records
from sim.spades.contracts import NAMES as CONTRACT_NAMES
from sim.spades.game import play_block
from sim.spades.hand import deck_for
from sim.tricks import IllegalPlay as EngineIllegalPlay
from strategies import make_strategy

try:
    from tests.harness import compare_records, conformance_rules, ref, ref_rules, simulate
    from tests.test_vs_reference import output_view
except ImportError:  # pragma: no cover
    from harness import compare_records, conformance_rules, ref, ref_rules, simulate
    from test_vs_reference import output_view

JOKERS2 = {"jokers": 2}

ONE_AT_A_TIME: dict[str, dict] = {
    "jokers": JOKERS2,  # standard order: BJ > LJ > AS
    "jokers, remove 2C 2H": {**JOKERS2, "jokers_remove": ["2C", "2H"]},
    "jokers_high": {"trump_order": "jokers_high", **JOKERS2},
    "jokers_first_wins": {"trump_order": "jokers_first_wins", **JOKERS2},
    "joker_high_alternate": {"trump_order": "joker_high_alternate", **JOKERS2},
    "joker_joker_deuce_ace": {"trump_order": "joker_joker_deuce_ace", **JOKERS2},
    "deuces_high": {"trump_order": "deuces_high"},
    "deuces_high, jokers": {"trump_order": "deuces_high", **JOKERS2},
    "bowers": {"trump_order": "bowers"},
    "suit_ladder": {"trump_order": "suit_ladder"},
    "first_lead=two_of_clubs": {"first_lead": "two_of_clubs"},
    "first_lead=lowest_club": {"first_lead": "lowest_club"},
    "first_lead=lowest_club, jokers": {"first_lead": "lowest_club", **JOKERS2},  # the 3C leads
    "first_trick_clubs": {"first_trick_clubs": True},
    "first_trick_lowest_club": {"first_trick_lowest_club": True},
    # under spades_broken = true a spade is led to trick 1 only from a hand of spades anyway
    "no_spade_lead_first_trick": {"no_spade_lead_first_trick": True, "spades_broken": False},
    "lead_ace_of_spades": {"lead_ace_of_spades": True},
    "must_overtrump=opponents": {"must_overtrump": "opponents"},
    "must_overtrump=always": {"must_overtrump": "always"},
    "must_trump": {"must_trump": True},
}
COMBINATIONS: dict[str, dict] = {
    "deuces_high,jokers,must_trump": {"trump_order": "deuces_high", **JOKERS2, "must_trump": True},
    "bowers,first_trick_clubs": {"trump_order": "bowers", "first_trick_clubs": True},
    "jokers_first_wins,must_overtrump=always": {"trump_order": "jokers_first_wins", **JOKERS2,
                                                "must_overtrump": "always"},
    "jokers_first_wins,must_trump,never": {"trump_order": "jokers_first_wins", **JOKERS2,
                                           "must_trump": True, "spades_broken": "never"},
    "joker_high_alternate,must_trump": {"trump_order": "joker_high_alternate", **JOKERS2,
                                        "must_trump": True},
    "joker_high_alternate,must_overtrump=opponents": {
        "trump_order": "joker_high_alternate", **JOKERS2, "must_overtrump": "opponents"},
    "first_trick_clubs,lowest_club,jokers 2C 2H,must_overtrump=opponents": {
        "first_trick_clubs": True, "first_lead": "lowest_club", **JOKERS2,
        "jokers_remove": ["2C", "2H"], "must_overtrump": "opponents"},
    "deuces_high,lowest_club": {"trump_order": "deuces_high", "first_lead": "lowest_club"},
    "suit_ladder,first_trick_lowest_club,lead_ace_of_spades": {
        "trump_order": "suit_ladder", "first_trick_lowest_club": True,
        "lead_ace_of_spades": True},
    "joker_joker_deuce_ace,no_spade_lead_first_trick,free spades,must_overtrump=opponents": {
        "trump_order": "joker_joker_deuce_ace", **JOKERS2, "no_spade_lead_first_trick": True,
        "spades_broken": False, "must_overtrump": "opponents"},
    "bowers,must_trump,first_trick_lowest_club": {"trump_order": "bowers", "must_trump": True,
                                                  "first_trick_lowest_club": True},
    # issue 19: the rules of trick 1 compose (the 2C's holder leads it, everyone plays his
    # lowest club), and first_trick_lowest_club with mo_b's first leader
    "two_of_clubs,first_trick_lowest_club": {"first_lead": "two_of_clubs",
                                             "first_trick_lowest_club": True},
    "lowest_club,first_trick_clubs,first_trick_lowest_club,jokers": {
        "first_lead": "lowest_club", "first_trick_clubs": True, "first_trick_lowest_club": True,
        **JOKERS2},
    "mo_b,first_trick_lowest_club": {"mo_b": True, "first_trick_lowest_club": True},
    # issue 19: must_trump beats only an opponent's spade under must_overtrump = "opponents"
    "must_trump,must_overtrump=opponents": {"must_trump": True, "must_overtrump": "opponents"},
    "must_trump,must_overtrump=opponents,jokers_high": {
        "must_trump": True, "must_overtrump": "opponents", "trump_order": "jokers_high",
        **JOKERS2},
    "two_of_clubs,first_trick_clubs,lead_ace_of_spades,must_trump": {
        "first_lead": "two_of_clubs", "first_trick_clubs": True, "lead_ace_of_spades": True,
        "must_trump": True},
    # the trick bonuses and the bag-cancelling card read the card order (a high deuce is a
    # spade, a joker no ace); whiz and mirror count the order's spades
    "deuces_high,jokers,trick bonuses,bag_cancel_card=cut": {
        "trump_order": "deuces_high", **JOKERS2, "bag_cancel_card": "cut",
        **dict.fromkeys(ref.TRICK_BONUSES, True)},
    "bowers,trick bonuses,bag_cancel_card=JC": {
        "trump_order": "bowers", "bag_cancel_card": "JC", **dict.fromkeys(ref.TRICK_BONUSES, True)},
    "jokers_high,whiz": {"trump_order": "jokers_high", **JOKERS2, "whiz": True,
                         "blind_nil": False},
    "bowers,mirror": {"trump_order": "bowers", "mirror": True, "blind_nil": False},
    "suit_ladder,trick bonuses,nil 50": {"trump_order": "suit_ladder", "nil_bonus": 50,
                                         **dict.fromkeys(ref.TRICK_BONUSES, True)},
}
VARIANTS = {**ONE_AT_A_TIME, **COMBINATIONS}

STRATEGIES = ("random", "seed")
SIZES = {("hands", "random"): 40, ("hands", "seed"): 20, ("games", "random"): 4,
         ("games", "seed"): 2}  # hands, or games of at most MAX_HANDS hands
MAX_HANDS = {"random": 5, "seed": 8}
SEED = 8008


def engine_rules(name: str):
    return conformance_rules(VARIANTS[name])


def run(name: str, strategy: str, mode: str):
    rules = engine_rules(name)
    if mode == "games":  # random players' games last: no mercy rule (they are set a lot)
        rules = dataclasses.replace(rules, max_hands=MAX_HANDS[strategy],
                                    mercy_score=None if strategy == "random" else -200)
    return simulate(rules, strategy, mode, SIZES[mode, strategy], SEED,
                    1 if mode == "hands" else 0)


CASES = [(n, s, m) for n in VARIANTS for s in STRATEGIES for m in ("hands", "games")]


def positions(rec: dict, rd: dict):
    """Every play of a record as the reference sees it: (trick_no, position, seat, the seat's
    cards before it, the trick so far, spades broken before this trick, the card)."""
    o = ref._order_of(rd)
    hands = [list(h) for h in rec["hands"]]
    leader = ref.first_leader(rec["dealer"], rec.get("side_contracts"), rd, rec["hands"])
    broken = False
    for t in range(13):
        trick = rec["plays"][4 * t: 4 * t + 4]
        for j, card in enumerate(trick):
            seat = (leader + j) % 4
            yield t + 1, j, seat, list(hands[seat]), trick[:j], broken, card
            hands[seat].remove(card)
        broken = broken or any(o.suit[c] == "S" for c in trick)
        leader = ref.trick_winner(trick, leader, rd)


# --- hand by hand -------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "strategy", "mode"), CASES)
def test_engine_equals_reference(name, strategy, mode):
    assert compare_records(run(name, strategy, mode), f"{name}/{strategy}/{mode}") > 0


JOKER_RECORDS = ["jokers", "jokers_first_wins,must_overtrump=always",
                 "joker_high_alternate,must_trump", "deuces_high,jokers,trick bonuses,"
                 "bag_cancel_card=cut", "joker_joker_deuce_ace,no_spade_lead_first_trick,"
                 "free spades,must_overtrump=opponents", "jokers_high,whiz"]


@pytest.mark.parametrize("name", JOKER_RECORDS + ["bowers,mirror", "suit_ladder"])
def test_records_replay_through_sim_replay_like_the_reference(name):
    """Records with jokers ("BJ", "LJ") and without the removed cards replay through sim.replay
    (the records' own inline rules) to the reference's numbers; score sheets too where the
    rules need no play."""
    sim = run(name, "random", "games")
    rd = ref_rules(sim.rules)
    cards = {c for rec in sim.records for h in rec["hands"] for c in h}
    assert len(cards) == 52 and cards == set(ref.deck_of(rd))
    if rd["jokers"]:
        assert {"BJ", "LJ"} <= cards and not set(ref._removed(rd)) & cards
    items = list(enumerate(sim.records, start=1))
    expected = [ref.replay_hand(rec, rd) for rec in sim.records]
    for (line, rec), out, exp in zip(items, replay_records(items), expected, strict=True):
        exp = {k: exp[k] for k in ("tricks", "winners", "points", "components", "after")}
        assert output_view(out) == exp, f"{name} line {line}"
        assert {k: out[k] for k in rec} == rec
    if any(rd[k] for k in (*ref.TRICK_BONUSES, "bag_cancel_card")):
        return
    sheets = [(line, {k: v for k, v in rec.items() if k not in ("hands", "plays")}
               | {"tricks": exp["tricks"]}) for (line, rec), exp in zip(items, expected,
                                                                       strict=True)]
    for (line, sheet), out, exp in zip(sheets, replay_records(sheets), expected, strict=True):
        assert output_view(out)["points"] == exp["points"], f"{name} sheet {line}"
        assert ref.replay_hand(sheet, rd)["points"] == exp["points"]


# --- card by card: the engine's legal cards are the reference's ----------------------------------


@dataclasses.dataclass(eq=False)
class Recording:
    """A strategy that plays as ``inner`` and keeps, at every card, the engine's legal cards
    (``view.legal``: uint64[N], the block's rows) in order of play."""

    inner: object
    legal: list = dataclasses.field(default_factory=list)

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def play(self, view, rng):
        self.legal.append((view.trick_no, view.position, view.legal.copy()))
        return self.inner.play(view, rng)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name", list(VARIANTS))
def test_legal_cards_equal_the_reference(name, strategy):
    rules = engine_rules(name)
    rd = ref_rules(rules)
    player = Recording(make_strategy(strategy))
    n = SIZES["hands", strategy]
    result = play_block(rules, Lineup([player] * 4), SEED + 1, 0, n, "hands")
    out = result.outcomes[0]
    deck = deck_for(rules)
    assert [(t, j) for t, j, _ in player.legal] == [(t, j) for t in range(13) for j in range(4)]
    bad = []
    for i in range(n):
        rec = {"dealer": int(result.dealer[i]),
               "hands": [deck.names_of(h) for h in out.held[i]],
               "plays": [deck.names[s] for s in out.play.plays[i]],
               "side_contracts": [CONTRACT_NAMES[c] for c in out.bidding.contracts[i]]}
        for k, (t, j, seat, hand, trick, broken, _) in enumerate(positions(rec, rd)):
            assert seat == out.play.seats[i, k]
            theirs = sorted(ref.legal_plays(hand, trick, broken, rd, trick_no=t))
            mine = sorted(deck.names_of(player.legal[k][2][i]))
            if mine != theirs:
                bad.append(f"hand {i} trick {t} position {j} seat {seat}: hand {sorted(hand)} "
                           f"trick {trick} broken {broken}\n  engine    {mine}\n"
                           f"  reference {theirs}")
    assert not bad, f"{name}/{strategy}: {len(bad)} positions differ, e.g.\n" + "\n".join(bad[:3])


# --- the replay refuses what the reference refuses ----------------------------------------------


def first_telling_illegal(rec: dict, rd: dict):
    """The record with its first play replaced by a card the reference forbids there for a
    reason of this issue (a rule of section 4.3, or following and leading by the order's suits
    where a joker or a card of another printed suit is concerned), the trick, the seat and the
    reason's rule; None if none."""
    o = ref._order_of(rd)
    for k, (t, _, seat, hand, trick, broken, _) in enumerate(positions(rec, rd)):
        stages = ref._stages(hand, trick, broken, rd, t)
        for card in hand:
            if card in stages[-1][1]:
                continue
            rule = next(name for name, cards in stages if card not in cards)
            shown = [c for c in (card, *trick[:1]) if c in ref.JOKERS or o.suit[c] != c[1]]
            if rule not in ("follow", "spades_broken") or shown:
                plays = list(rec["plays"])
                plays[k] = card
                return rec | {"plays": plays}, t, seat, rule
    return None


PLAY_KEYS = ("first_lead", "first_trick_clubs", "first_trick_lowest_club",
             "no_spade_lead_first_trick", "lead_ace_of_spades", "must_overtrump", "must_trump")
# the variants whose legal cards differ from the standard game's (suit_ladder's do not)
# (lead_ace_of_spades only allows more: what it allows is checked by the replay above)
TELLING = [n for n, keys in VARIANTS.items()
           if set(keys) & {*PLAY_KEYS, "jokers"} - {"lead_ace_of_spades"}
           or keys.get("trump_order", "suit_ladder") != "suit_ladder"]


@pytest.mark.parametrize("name", TELLING)
def test_illegal_plays_refused_like_the_reference(name):
    sim = run(name, "random", "hands")
    rd = ref_rules(sim.rules)
    tested = 0
    for rec in sim.records:
        found = first_telling_illegal(rec, rd)
        if found is None:
            continue
        bad, trick, seat, rule = found
        with pytest.raises(ref.IllegalPlay, match=rf"trick {trick}, seat {seat}\b"):
            ref.replay_hand(bad, rd)
        with pytest.raises(EngineIllegalPlay) as err:
            replay_records([(3, bad)])
        assert (err.value.trick, err.value.seat, err.value.line) == (trick, seat, 3), rule
        if rule not in ("follow", "spades_broken"):
            assert rule in str(err.value), (rule, str(err.value))
        tested += 1
    assert tested >= 5, name


# --- what both refuse ---------------------------------------------------------------------------

ITEMS = [("trump_order", o) for o in (*ref.CARD_ORDERS, "jokes_win") if o != "standard"] + [
    ("jokers", 2), ("jokers_remove", ["2C", "2H"]), ("first_lead", "two_of_clubs"),
    ("first_lead", "lowest_club"), ("first_trick_clubs", True), ("first_trick_lowest_club", True),
    ("no_spade_lead_first_trick", True), ("lead_ace_of_spades", True),
    ("must_overtrump", "opponents"), ("must_overtrump", "always"), ("must_trump", True),
    ("spades_broken", False), ("spades_broken", "never"), ("mo_b", True),
    ("bag_cancel_card", "2C"), ("bag_cancel_card", "2H"), ("bag_cancel_card", "JC")]
REFUSALS = [dict(pair) for pair in itertools.combinations(ITEMS, 2) if pair[0][0] != pair[1][0]]
REFUSALS += [{**table, "jokers": 2} for table in REFUSALS if "jokers" not in table]
REFUSALS += [{"jokers": 3}, {"jokers": 4}, {"jokers": 1}, {"jokers": 2, "jokers_remove": ["2C"]},
             {"jokers": 2, "jokers_remove": ["2C", "2C"]}, {"jokers": 2, "jokers_remove": ["2C",
                                                                                       "ZZ"]},
             {"first_lead": "ace_of_spades"}, {"must_overtrump": "sometimes"},
             {"trump_order": "aces_low"}]


def test_the_same_combinations_are_refused():
    """Every pair of the keys' values (and each with jokers): the engine loads exactly what the
    reference accepts, and a refusal names the same key."""
    differ, refused = [], 0
    for table in REFUSALS:
        try:
            ref.resolve_rules({k: tuple(v) if isinstance(v, list) else v
                               for k, v in table.items()})
            theirs = None
        except ValueError as err:
            theirs = str(err)
        try:
            rules_from_mapping(table)
            mine = None
        except UserError as err:
            mine = err
        refused += theirs is not None
        if (mine is None) != (theirs is None):
            differ.append(f"{table}: engine {mine or 'loads it'}; reference {theirs or 'accepts'}")
        elif mine is not None and not theirs.startswith(f"{mine.key}"):
            differ.append(f"{table}: engine names {mine.key} ({mine}); reference {theirs}")
    assert not differ, f"{len(differ)} of {len(REFUSALS)} differ:\n" + "\n".join(differ[:10])
    assert refused >= 100


# --- the play reaches the rules -----------------------------------------------------------------


def test_the_play_reaches_the_rules():
    """The simulated hands reach the cases the comparison is meant to test, a few times each:
    cards the standard order does not let win winning, equal jokers, and every play rule
    narrowing the legal cards (by the reference's rules, at the engine's positions)."""
    seen: Counter = Counter()
    for name, strategy, mode in CASES:
        sim = run(name, strategy, mode)
        rd = ref_rules(sim.rules)
        o = ref._order_of(rd)
        for rec in sim.records:
            _count_cases(seen, rd, o, rec)
    wanted = ["won by a joker", "equal jokers: the first wins", "2S beats AS", "won by 2D 2C 2H",
              "won by the left bower", "ladder: a higher suit than led wins", "3C leads trick 1",
              "first_lead", "first_trick_clubs", "first_trick_lowest_club",
              "first_trick_lowest_club instead of following", "no_spade_lead_first_trick",
              "AS led before spades broken", "joker_high_alternate", "must_trump",
              "must_trump on a spade lead", "must_overtrump", "must_overtrump: not a partner's"]
    for case in wanted:
        assert seen[case] >= 3, f"{case}: {seen[case]} ({dict(seen)})"


def _count_cases(seen: Counter, rd: dict, o, rec: dict) -> None:
    for t, j, _, hand, trick, broken, card in positions(rec, rd):
        stages = ref._stages(hand, trick, broken, rd, t)
        for (_, before), (rule, after) in zip(stages, stages[1:], strict=False):
            if len(after) < len(before) and rule not in ("follow", "spades_broken"):
                seen[rule] += 1
                if rule == "must_trump" and o.suit[trick[0]] == "S":
                    seen["must_trump on a spade lead"] += 1
                if rule == "first_trick_lowest_club" and trick and o.suit[trick[0]] != "C":
                    seen["first_trick_lowest_club instead of following"] += 1
        if (rd["must_overtrump"] == "opponents" and trick and o.suit[trick[0]] != "S"
                and not [c for c in hand if o.suit[c] == o.suit[trick[0]]]
                and any(o.suit[c] == "S" for c in trick)
                and (j - o.winning_index(trick)) % 2 == 0):
            seen["must_overtrump: not a partner's"] += 1
        if j == 0 and card == "AS" and not broken and len({o.suit[c] for c in hand}) > 1:
            seen["AS led before spades broken"] += 1
        if t == 1 and j == 0 and card == "3C":
            seen["3C leads trick 1"] += 1
        if j == 3:
            whole = [*trick, card]
            best = whole[o.winning_index(whole)]
            seen["won by a joker"] += best in ref.JOKERS
            seen["equal jokers: the first wins"] += (rd["trump_order"] == "jokers_first_wins"
                                                     and {"BJ", "LJ"} <= set(whole))
            seen["2S beats AS"] += (best == "2S" and "AS" in whole)
            seen["won by 2D 2C 2H"] += best in ("2D", "2C", "2H") and o.suit[best] == "S"
            seen["won by the left bower"] += best == "JC" and o.suit[best] == "S"
            seen["ladder: a higher suit than led wins"] += o.ladder and best[1] != whole[0][1]
