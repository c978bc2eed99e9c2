"""Exact values of the cards at a position, by enumerating every deal the seat cannot tell apart
(issue 21: the search player's estimates checked against them, tests/test_search.py and
tests/test_search_whist.py). Independent of the search: positions are rebuilt and hands scored
by replaying records (`sim.replay`), the rest of the hand played by the engine's decisions one at
a time (`sim.decisions`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from sim.cards import BIT, popcount
from sim.decisions import ask, play_on
from sim.replay import replay_records, view_at
from sim.tricks import IllegalPlay
from strategies import make_strategy

__all__ = ["check_deals", "check_estimates", "exact_values", "splits_of"]


def splits_of(cards: list[str], counts: list[int]):
    """Every way to give ``cards`` to seats with ``counts`` cards each (tuples of card lists)."""
    if len(counts) == 1:
        yield (list(cards),)
        return
    for first in itertools.combinations(cards, counts[0]):
        rest = [c for c in cards if c not in first]
        for tail in splits_of(rest, counts[1:]):
            yield (list(first), *tail)


def exact_values(rec: dict, k: int, rules, deck, value: Callable[[dict, int], float],
                 known: Callable | None = None) -> dict[str, np.ndarray]:
    """Each legal card's values over every deal consistent with the position after ``k`` cards
    of the record ``rec``: the other seats' cards left enumerated (cards dealt to nobody, where
    the game sets some aside, among them), a deal kept when the record replays to the position
    with it (the engine's checks), the card played and the hand played out by ``expert`` one
    decision at a time, scored by replaying the record and valued by ``value(replayed record,
    seat)``. ``known(view)``: uint64[n, P], cards of other seats the seat sees (Portland's
    turned-up card and dummy), kept where they are."""
    expert = make_strategy("expert", game=rules.game)
    players, each = rules.players, len(rec["hands"][0])
    base = {**rec, "plays": rec["plays"][:k]}
    position = view_at(base)
    seat, played, view = position.seat, set(base["plays"]), position.view
    unseen = deck.names_of(int(view.unseen[0]))
    others = [(seat + j) % players for j in range(1, players)]
    counts = [sum(c not in played for c in rec["hands"][s]) for s in others]
    fixed = {}
    if known is not None:
        cards = known(view)[0]
        fixed = {s: deck.names_of(int(cards[s])) for s in others if cards[s]}
        unseen = [c for c in unseen if not any(c in f for f in fixed.values())]
        counts = [n - len(fixed.get(s, ())) for s, n in zip(others, counts, strict=True)]
    aside = len(unseen) - sum(counts)
    values = {c: [] for c in deck.names_of(int(view.legal[0]))}
    for split in splits_of(unseen, [*counts, aside] if aside else counts):
        hands = [list(h) for h in rec["hands"]]
        for s, got in zip(others, split, strict=False):
            hands[s] = [c for c in rec["hands"][s] if c in played] + fixed.get(s, []) + got
        dealt = {**base, "hands": hands}
        try:
            start = view_at(dealt)
        except IllegalPlay:  # not a deal consistent with the cards played so far
            continue
        for card in values:
            plays, at = [*base["plays"], card], start
            while len(plays) < players * each:
                at = play_on(at, np.array([[deck.bit_of(plays[-1])]], np.int8))
                plays.append(ask(at, expert, np.random.default_rng(0)).answer)
            (out,) = replay_records([(1, {**dealt, "plays": plays})])
            values[card].append(value(out, seat))
    return {c: np.array(v) for c, v in values.items()}


def check_estimates(search, view, exact: dict[str, np.ndarray], deck, samples: int):
    """The search's estimate of each candidate at ``view`` (``search.estimate``, ``samples``
    uniform deals) within four standard errors of its exact value (`exact_values`); returns the
    candidates and estimates."""
    cands, mean = search.estimate(view, np.random.default_rng(0))
    for c, v in zip(cands[0], mean[0], strict=True):
        if c:
            (name,) = deck.names_of(int(c))
            err = exact[name].std() / np.sqrt(samples)
            assert abs(v - exact[name].mean()) <= 4 * err + 1e-9, (name, v, exact)
    return cands, mean


def check_deals(view, deals: np.ndarray, each: int, voids: np.ndarray) -> np.ndarray:
    """The checks every sampled deal (uint64[n, k, P], as dealt) of a `PlayView` must pass: P
    hands of ``each`` cards, disjoint, the seat's own as dealt, every seat holding the cards it
    played (this trick's too), none holding a card of a suit set in ``voids`` (uint8[n, P]) among
    those it has left. Returns the cards each seat played, uint64[n, P]."""
    n, players = view.tricks.shape
    rows = np.arange(n)
    assert np.all(popcount(deals) == each)
    assert np.all(popcount(np.bitwise_or.reduce(deals, axis=2)) == players * each)  # disjoint
    shown = view.shown.copy()
    for q in range(view.position):
        shown[rows, (view.leader + q) % players] |= BIT[view.trick_cards[:, q]]
    assert np.all(deals[rows, :, view.seat] == (view.hand | shown[rows, view.seat])[:, None])
    assert np.all(deals & shown[:, None, :] == shown[:, None, :])
    left = deals & ~shown[:, None, :]
    for s, mask in enumerate(view.deck.suit_masks):
        void = ((voids >> s) & 1).astype(bool)[:, None, :]
        assert not np.any(void & ((left & mask) != 0))
    return shown
