"""``search`` at Portland and Norwegian whist (issue 21 item 1; strategies/search_whist.py): its
deals hold only what the seat may know, its rollouts rebuild the real hand exactly, and at a
two-card ending it plays the best card of an exact enumeration scored by replaying records
(`sim.replay`, not the search's own scoring)."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
import pytest

from harness.exact import check_deals, check_estimates, exact_values
from sim.cards import standard_deck
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.replay import view_at
from strategies import make_strategy
from strategies.search_whist import declare_misfit, known_portland, norwegian_dealer

DECK = standard_deck()
PRESETS = ["portland", "portland.dummy", "portland.honours", "portland.no_trump", "norwegian",
           "norwegian.declarer", "norwegian.zero_sum", "norwegian.three", "norwegian.classic"]


def _sides(rules) -> int:
    return getattr(rules, "sides", 2)


def _cards_each(rules) -> int:
    return getattr(rules, "cards_each", 13)


def _block(preset: str, hands: int, seed: int = 5, lineup=None):
    rules = load_rules(preset)
    game = GAMES[rules.game]
    lineup = lineup or Lineup([make_strategy("expert", game=rules.game)] * rules.players)
    result = game.play_block(rules, lineup, seed, 0, hands, "hands")
    records = game.block_records(result, SimpleNamespace(rules=rules), 0)
    table, _ = game.block_tables(result, 0)
    return rules, records, table


def _keys(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 1 << 63, size=n).astype(np.uint64)


def _margins(points: list[float]) -> np.ndarray:
    """Each side's points minus the mean of the others' (two sides: the other's)."""
    pts = np.asarray(points, dtype=float)
    return pts - (pts.sum() - pts) / (len(pts) - 1)


@pytest.mark.parametrize("preset", PRESETS)
def test_rollouts_of_the_real_deal_replay_the_real_hand(preset):
    """With every seat the expert, a rollout of the real deal from a card of the play with the
    card actually played is the hand as it was played: the search rebuilds the hand (the trump
    and honours, the declarations, the dealer, the dummy) from a view, and its value is the
    seat's side's points minus the others' mean, as the engine scored them."""
    rules, records, table = _block(preset, 12)
    players, sides, cards = rules.players, _sides(rules), rules.players * _cards_each(rules)
    search = make_strategy({"name": "search", "samples": 2}, game=rules.game)
    want = {(r["game_id"], r["hand_no"]): _margins([r[f"points_{s}"] for s in range(sides)])
            for r in table.to_pylist()}
    checked = 0
    for rec in records:
        real = np.array([[[DECK.mask_of(h) for h in rec["hands"]]]], np.uint64)
        for k in (0, 1, cards // 3, cards // 2 + 1, cards - 2):
            view = view_at({**rec, "plays": rec["plays"][:k]}).view
            card = np.array([DECK.mask_of([rec["plays"][k]])], np.uint64)
            got = search._rollouts(view, real, np.zeros(1, int), np.zeros(1, int), card,
                                   np.random.default_rng(0))
            side = int(view.seat[0]) % sides
            assert got[0] == pytest.approx(want[rec["game_id"], rec["hand_no"]][side]), (rec, k)
            checked += 1
    assert checked == 5 * len(records) and players == len(rec["hands"])


class Sampling:
    """Plays like ``expert``; at every card draws the search's deals of what the seat cannot
    see and checks each against the view and the real hands (the engine's, looked up by row):
    P hands of the rules' size, disjoint, the seat's own as dealt, every seat holding the cards
    it played and as many others as it has left, none of a suit it has shown void in, the
    turned-up card in the dealer's hand until played, the dummy's cards face up in the
    dummy's hand (and the partner's in the partner's when he plays the dummy's card), and
    Norwegian's dealer found from the view as he was."""

    def __init__(self, rules, real: np.ndarray, dealer: np.ndarray):
        self.inner = make_strategy("expert", game=rules.game)
        self.search = make_strategy("search", game=rules.game)
        self.rules, self.real, self.dealer = rules, real, dealer
        self.views = self.known = 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def play(self, view, rng):
        n, players = view.tricks.shape
        rows = np.arange(n)
        deals = self.search._deal(view, 6, _keys(n, self.views))
        shown = check_deals(view, deals, _cards_each(self.rules), view.voids)
        real = self.real[view.rows]
        if self.rules.game == "portland":
            known = known_portland(view)
            assert np.all(known & ~real == 0)  # what it knows is so
            assert np.all(deals & known[:, None, :] == known[:, None, :])
            dealer = self.dealer[view.rows].astype(np.intp)
            assert np.all(real[rows, dealer] & view.turn_up == view.turn_up)
            held = deals[rows, :, dealer] & view.turn_up[:, None]  # the dealer's, as dealt
            assert np.all(held == view.turn_up[:, None])
            if view.visible is not None:  # face up: the dummy's (playing it: his partner's)
                owner = np.where(view.seat == 3, 1, 3)
                left = deals[rows, :, owner] & ~shown[rows, owner][:, None]
                assert np.all(left == view.visible[:, None])
            self.known += int((known != 0).sum())
        else:
            assert np.array_equal(norwegian_dealer(view), self.dealer[view.rows])
        self.views += n
        return self.inner.play(view, rng)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_deals_hold_only_what_the_seat_may_know(preset):
    rules, records, _ = _block(preset, 24, seed=7)  # the deals as dealt, a record a row
    game = GAMES[rules.game]
    dealt = np.array([[DECK.mask_of(h) for h in r["hands"]] for r in records], np.uint64)
    dealer = np.array([r["dealer"] for r in records], np.int8)
    sampling = Sampling(rules, dealt, dealer)
    game.play_block(rules, Lineup([sampling] * rules.players), 7, 0, 24, "hands")
    assert sampling.views == 24 * rules.players * _cards_each(rules)
    if preset == "portland.dummy":
        assert sampling.known > 24 * 40  # the dummy's cards, most of the hand


@pytest.mark.parametrize("preset", ["norwegian", "norwegian.three", "norwegian.classic"])
def test_the_dealer_is_found_from_what_the_play_shows(preset):
    """`norwegian_dealer` at the first card of every hand of random declarations (all pass
    now and then: the three-player dealer forced to play grand, the four-player nullo)."""
    rules = load_rules(preset)
    lineup = Lineup([make_strategy("random", game="norwegian")] * rules.players)
    _, records, table = _block(preset, 150, lineup=lineup)
    for rec in records:
        view = view_at({**rec, "plays": []}).view
        assert norwegian_dealer(view)[0] == rec["dealer"]
    assert preset == "norwegian" or any(table.column("forced").to_pylist())


@pytest.mark.parametrize("preset", ["norwegian.declarer", "norwegian.three", "norwegian.classic"])
def test_the_real_deal_fits_the_declarations_of_the_strategy_that_made_them(preset):
    """`declare_misfit` asks each other seat that spoke at its turn: with the real hands the
    expert's declarations are those made; the search's uniform deals miss some."""
    rules, records, _ = _block(preset, 40)
    expert = make_strategy("expert", game="norwegian")
    search = make_strategy({"name": "search", "declare_weight": 0.0}, game="norwegian")
    sampled = []
    for rec in records:
        real = np.array([[[DECK.mask_of(h) for h in rec["hands"]]]], np.uint64)
        for k in (0, 5):
            view = view_at({**rec, "plays": rec["plays"][:k]}).view
            assert declare_misfit(view, real, expert, np.random.default_rng(0))[0, 0] == 0
            deals = search._deal(view, 10, _keys(1, k))
            sampled.append(declare_misfit(view, deals, expert, np.random.default_rng(0)).mean())
    assert np.mean(sampled) > 0.05


def test_norwegian_two_players_deals_are_uniform_over_the_opponents_possible_hands():
    """Two players: the opponent's last cards lie among the unseen cards with 26 more set
    aside (dealt to nobody, RULES.md §2). At the last trick but one (two cards each) every hand
    of two unseen cards of suits the opponent has not shown void in is equally likely: the
    sampler's frequencies against that exact distribution (chi-square)."""
    from scipy import stats

    rules, records, _ = _block("norwegian.declarer", 6)
    search = make_strategy("search", game="norwegian")
    checked = 0
    for rec in records:
        k = 2 * 11  # two tricks left: the leader to play
        view = view_at({**rec, "plays": rec["plays"][:k]}).view
        seat = int(view.seat[0])
        unseen = DECK.names_of(int(view.unseen[0]))
        void = int(view.voids[0, 1 - seat])
        ok = [c for c in unseen if not (void >> DECK.suit_of_bit[DECK.bit_of(c)]) & 1]
        hands = [frozenset(p) for p in itertools.combinations(ok, 2)]
        n = 40 * len(hands)
        deals = search._deal(view, n, _keys(1, checked))[0]
        got = [frozenset(DECK.names_of(int(d[1 - seat] & ~view.shown[0, 1 - seat])))
               for d in deals]
        counts = np.array([sum(g == h for g in got) for h in hands])
        assert counts.sum() == n
        assert stats.chisquare(counts).pvalue > 1e-4
        checked += 1
    assert checked == 6


def _exact(rec: dict, k: int, rules) -> dict[str, np.ndarray]:
    """Each legal card's values over every deal consistent with the position after ``k``
    cards (`harness.exact.exact_values`: Portland's turned-up card and dummy kept where they
    are, Norwegian's cards set aside among those enumerated), each the seat's points minus the
    mean of the others'."""
    sides = _sides(rules)
    return exact_values(rec, k, rules, DECK,
                        lambda out, seat: _margins(out["points"])[seat % sides],
                        known=known_portland if rules.game == "portland" else None)


@pytest.mark.parametrize("preset", ["portland", "norwegian.zero_sum"])
def test_the_search_plays_the_best_card_of_two_card_endings(preset):
    """At the last trick but one (two cards each), wherever the candidates' exact values
    differ, the search with many uniform samples and no confidence margin estimates each
    within its error and plays a card of the best exact value."""
    rules, records, _ = _block(preset, 80)
    players = rules.players
    last = players * (_cards_each(rules) - 2)
    scan = make_strategy({"name": "search", "samples": 200}, game=rules.game)
    spec = {"name": "search", "samples": 2000, "budget": 100_000, "confidence": 0.0}
    if rules.game == "norwegian":
        spec["declare_weight"] = 0.0  # uniform deals, as enumerated
    search = make_strategy(spec, game=rules.game)
    checked = 0
    for rec in records:
        for k in range(last, last + players):
            view = view_at({**rec, "plays": rec["plays"][:k]}).view
            cands, mean = scan.estimate(view, np.random.default_rng(k))
            finite = mean[np.isfinite(mean)]
            if finite.size < 2 or np.ptp(finite) < 0.5:
                continue
            exact = _exact(rec, k, rules)
            check_estimates(search, view, exact, DECK, 2000)
            best = max(exact[c].mean() for c in exact)
            (card,) = DECK.names_of(int(search.play(view, np.random.default_rng(1))[0]))
            assert exact[card].mean() == best, (card, exact)
            checked += 1
            if checked == 3:
                return
    pytest.fail(f"only {checked} endings with a clear best card were found")


@pytest.mark.parametrize("game", ["portland", "norwegian"])
def test_search_plays_every_preset_of_the_game(game):
    from sim.options import PRESETS
    for name, rules in PRESETS.items():
        if rules.game == game:
            assert make_strategy("search", game=game, rules=rules, rules_name=name).refuse(
                rules) is None


def test_a_rollout_strategy_of_another_game_is_refused():
    from sim.errors import UserError
    with pytest.raises(UserError, match="rollout 'search'"):
        make_strategy({"name": "search", "rollout": "search"}, game="portland")
    made = make_strategy({"name": "search", "rollout": "seed"}, game="norwegian")
    assert made.policy.name == "seed" and made.declare_weight == 1.0


@pytest.mark.parametrize("preset", ["norwegian.declarer", "norwegian.three", "norwegian.classic"])
def test_declaration_rollouts_of_the_real_deal_replay_the_real_hand(preset):
    """With every seat the expert, a declaration rollout of the real deal with the declaration
    actually made (the ones before it said again, the later ones the expert's) is the hand as
    it was played, valued as the engine scored it."""
    rules, records, table = _block(preset, 12)
    sides = _sides(rules)
    search = make_strategy({"name": "search", "samples": 2}, game="norwegian")
    want = {(r["game_id"], r["hand_no"]): _margins([r[f"points_{s}"] for s in range(sides)])
            for r in table.to_pylist()}
    codes = {"pass": 0, "grand": 1, "misere": 2, "nullo": 3}
    checked = 0
    for rec in records:
        real = np.array([[DECK.mask_of(h) for h in rec["hands"]]], np.uint64)
        said = rec["declarations"]
        order = [(rec["dealer"] + 1 + j) % rules.players for j in range(rules.players)]
        for j, seat in enumerate(order):
            if said[seat] is None or (rules.players == 2 and j):
                continue
            before = [said[s] if s in order[:j] else None for s in range(rules.players)]
            view = view_at({**rec, "declarations": before, "plays": []}).view
            assert int(view.seat[0]) == seat
            got = search._declare_rollouts(view, real, np.zeros(1, int),
                                           np.array([codes[said[seat]]]),
                                           np.random.default_rng(0))
            assert got[0] == pytest.approx(want[rec["game_id"], rec["hand_no"]][seat % sides])
            checked += 1
    assert checked >= len(records)


def test_the_search_changes_some_declarations():
    """Under ``declarer`` scoring (only the declarer scores: RULES.md §2) the search's
    declarations differ from the expert's on some hands of the same deals, each one the engine
    accepts (what they are worth is measured by `bench/whist_matches.py`, not here)."""
    rules = load_rules("norwegian.declarer")
    game = GAMES["norwegian"]
    expert = make_strategy("expert", game="norwegian")
    said = []
    for player in ("search", {"name": "search", "search_declarations": False}):
        lineup = Lineup([make_strategy(player, game="norwegian"), expert])
        hands, _ = game.block_tables(game.play_block(rules, lineup, 11, 0, 300, "hands"), 0)
        said.append(np.array(hands.column("declaration_0").to_pylist()))
    assert 0 < np.sum(said[0] != said[1]) < 300
