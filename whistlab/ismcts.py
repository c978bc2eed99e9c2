"""OpenSpiel's Python ISMCTS playing OpenSpiel's ``spades``, with an exact resampler (issue 20).

OpenSpiel's C++ ``ISMCTSBot`` cannot play ``spades``: the game does not implement
``ResampleFromInfostate``. The Python ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` can: before
each simulation it asks a hook (``set_resampler``) for a state of the information set of the player
to move, and `Resampler` is that hook. ``spades`` has no information state string either, so the
search keys its nodes by the observation string, which holds the player's hand, the bids and every
card played (`ismcts_bot`).

Cards are OpenSpiel's actions: ``13 * suit + rank``, suits clubs, diamonds, hearts, spades, rank 0
the deuce; actions 52..65 are the bids 0..13. The chance player deals card ``i`` of the history to
seat ``i % 4``; seat 0 bids first and leads.

What the player to move has seen (`Seen`): his own cards, the bids and the cards played, and from
the play each other seat's hand size and voids. OpenSpiel's rules (``spades.cc``,
``PlayLegalActions``; RULES.md's ``spades.openspiel``) show a void in two ways:

* a seat that did not follow the led suit holds none of it (it must follow when it can);
* spades are never broken (``is_spades_broken_`` is never set), so a seat may lead a spade only
  when it holds nothing else: a spade lead shows that seat void in clubs, diamonds and hearts.

Nothing else in the rules depends on the hidden cards (a bid is legal whatever the cards; a card of
the led suit, a lead of another suit, a discard tell no more), and the cards a seat played after
showing a void were legal (they happened), so a deal is consistent with what the player has seen
exactly when each other seat gets its hand size of the unseen cards and no card of a suit it is
void in. `sample_hands` draws such a deal uniformly at random (its docstring says why exactly).
Uniform is what the rules alone allow: the bids and the choice of cards, which a model of the
other players' play would make more or less likely, weigh nothing (as in the games whose own
``ResampleFromInfostate`` OpenSpiel's C++ search uses).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

try:
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError as missing:  # an optional extra
    raise ImportError("whistlab.ismcts needs OpenSpiel: pip install 'whistlab[openspiel]'"
                      ) from missing

PLAYERS = 4
SUITS = 4
RANKS = 13
CARDS = SUITS * RANKS
SPADES = 3

__all__ = ["Resampler", "Seen", "count_deals", "ismcts_bot", "rebuild", "sample_hands", "seen"]


@dataclass(frozen=True)
class Seen:
    """What ``player`` has seen of the cards at a position of OpenSpiel's ``spades``.

    ``hand``: his cards now; ``played[seat]``: the cards each seat has played, in order;
    ``sizes[seat]``: how many cards each seat holds now; ``voids[seat]``: the suits each seat has
    shown it holds none of; ``unseen[suit]``: the cards of each suit that are neither in his hand
    nor played, ascending (the cards the other seats hold between them).
    """

    player: int
    hand: tuple[int, ...]
    played: tuple[tuple[int, ...], ...]
    sizes: tuple[int, ...]
    voids: tuple[frozenset[int], ...]
    unseen: tuple[tuple[int, ...], ...]

    @property
    def others(self) -> tuple[int, ...]:
        return tuple(q for q in range(PLAYERS) if q != self.player)

    def problem(self) -> tuple[tuple[int, ...], tuple[tuple[bool, ...], ...], tuple[int, ...]]:
        """The counting problem: the unseen cards per suit, per suit which other seats may hold
        it (not void), and the other seats' hand sizes."""
        counts = tuple(len(cards) for cards in self.unseen)
        allowed = tuple(tuple(s not in self.voids[q] for q in self.others) for s in range(SUITS))
        return counts, allowed, tuple(self.sizes[q] for q in self.others)


def seen(state, player: int) -> Seen:
    """What ``player`` has seen at ``state`` (after the deal), read from its history."""
    history = state.full_history()
    if len(history) < CARDS:
        raise ValueError("the deal is not complete: nothing to resample")
    deal = [a.action for a in history[:CARDS]]
    plays = [(a.player, a.action) for a in history[CARDS:] if a.action < CARDS]
    played: list[list[int]] = [[] for _ in range(PLAYERS)]
    voids: list[set[int]] = [set() for _ in range(PLAYERS)]
    for start in range(0, len(plays), PLAYERS):
        trick = plays[start : start + PLAYERS]
        leader, lead = trick[0]
        led = lead // RANKS
        if led == SPADES:  # spades are never broken: only a hand of spades may lead one
            voids[leader].update(range(SPADES))
        for seat, card in trick[1:]:
            if card // RANKS != led:  # did not follow suit
                voids[seat].add(led)
    for seat, card in plays:
        played[seat].append(card)
    gone = {card for _, card in plays}
    hand = tuple(c for c in deal[player::PLAYERS] if c not in gone)
    known = gone | set(hand)
    return Seen(
        player=player,
        hand=hand,
        played=tuple(map(tuple, played)),
        sizes=tuple(RANKS - len(p) for p in played),
        voids=tuple(map(frozenset, voids)),
        unseen=tuple(tuple(c for c in range(s * RANKS, (s + 1) * RANKS) if c not in known)
                     for s in range(SUITS)),
    )


def _multinomial(n: int, parts: tuple[int, ...]) -> int:
    out, left = 1, n
    for k in parts:
        out *= math.comb(left, k)
        left -= k
    return out


def _compositions(n: int, allowed: tuple[bool, ...], caps: tuple[int, ...]):
    """Every split of ``n`` cards of one suit among the seats: a count per seat, at most its
    capacity, 0 where the seat is void."""
    if len(caps) == 1:
        if n <= caps[0] and (allowed[0] or n == 0):
            yield (n,)
        return
    top = min(n, caps[0]) if allowed[0] else 0
    for k in range(top + 1):
        for rest in _compositions(n - k, allowed[1:], caps[1:]):
            yield (k, *rest)


@functools.lru_cache(maxsize=1 << 16)
def _completions(counts: tuple[int, ...], allowed: tuple[tuple[bool, ...], ...],
                 caps: tuple[int, ...]) -> int:
    """How many deals give the unseen cards of the suits ``counts`` (the cards themselves, not
    only their numbers) to the seats of capacities ``caps``, filling them exactly, no seat getting
    a suit it is void in."""
    if not counts:
        return int(not any(caps))
    return sum(weight for _, weight in _splits(counts, allowed, caps))


@functools.lru_cache(maxsize=1 << 16)
def _splits(counts: tuple[int, ...], allowed: tuple[tuple[bool, ...], ...],
            caps: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The possible splits of the first suit with their weights: the number of deals of all the
    suits that split the first one so. A split ``x`` of ``n`` cards is ``n! / prod(x!)`` ways to
    deal the suit's cards, each completed in `_completions` ways by the later suits."""
    n = counts[0]
    out = []
    for x in _compositions(n, allowed[0], caps):
        rest = tuple(c - k for c, k in zip(caps, x, strict=True))
        weight = _multinomial(n, x) * _completions(counts[1:], allowed[1:], rest)
        if weight:
            out.append((x, weight))
    return tuple(out)


def count_deals(view: Seen) -> int:
    """The number of deals consistent with what the player has seen."""
    return _completions(*view.problem())


def sample_hands(view: Seen, rng: np.random.Generator) -> tuple[tuple[int, ...], ...]:
    """A deal drawn uniformly among those consistent with ``view``: the cards each seat holds now
    (the player's own his, the others' from the unseen cards).

    Suit by suit (clubs first), the numbers of the suit's unseen cards each other seat gets are
    drawn with probability proportional to the number of consistent deals that split the suit so
    (`_splits`: the ways to deal the suit's cards so, ``n! / prod(x!)``, times the ways to deal
    the later suits into what room is left, counted exactly by `_completions`), then the suit's
    cards are shuffled and dealt in those numbers. Why that is exactly uniform: a deal fixes its
    splits ``x_1..x_4``; the splits are drawn with probability ``prod_k w_k / N_k``, where
    ``w_k = m_k * N_{k+1}`` (``m_k`` the multinomial of suit ``k``, ``N_k`` the completions from
    suit ``k`` on with the room left, ``N_5 = 1``), which telescopes to ``prod_k m_k / N_1``; the
    shuffles then pick the deal among the ``prod_k m_k`` with those splits with probability
    ``1 / prod_k m_k``. So every consistent deal has probability ``1 / N_1``, and no inconsistent
    deal can be drawn (a split of weight 0 never is). The counts are Python integers (exact; at
    most 39! / 13!^3 < 2^63, so one ``rng.integers`` draw picks a split exactly in proportion).
    """
    counts, allowed, caps = view.problem()
    hands: dict[int, list[int]] = {q: [] for q in view.others}
    for s in range(SUITS):
        splits = _splits(counts[s:], allowed[s:], caps)
        pick = int(rng.integers(sum(weight for _, weight in splits)))
        for x, weight in splits:  # noqa: B007  (x is the split picked)
            if pick < weight:
                break
            pick -= weight
        cards = rng.permutation(np.asarray(view.unseen[s], dtype=np.int64)).tolist()
        start = 0
        for q, k in zip(view.others, x, strict=True):
            hands[q].extend(cards[start : start + k])
            start += k
        caps = tuple(c - k for c, k in zip(caps, x, strict=True))
    hands[view.player] = list(view.hand)
    return tuple(tuple(sorted(hands[q])) for q in range(PLAYERS))


def rebuild(state, view: Seen, hands: tuple[tuple[int, ...], ...]):
    """A new state of ``state``'s game: ``hands`` (the cards each seat holds now) with the cards
    each seat played dealt to it, then ``state``'s bids and plays."""
    new = state.get_game().new_initial_state()
    dealt = [sorted(hands[q] + view.played[q]) for q in range(PLAYERS)]
    for i in range(RANKS):
        for q in range(PLAYERS):
            new.apply_action(dealt[q][i])
    for action in state.history()[CARDS:]:
        new.apply_action(action)
    return new


class Resampler:
    """The resampler hook of ``ISMCTSBot.set_resampler``: ``resampler(state, player)`` is a new
    state in which the cards ``player`` has not seen are dealt anew, uniformly among the deals
    consistent with what he has seen (`sample_hands`), and the same bids and cards played."""

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)
        self._last: tuple[tuple, Seen] | None = None

    def __call__(self, state, player: int):
        key = (player, tuple(state.history()))
        if self._last is None or self._last[0] != key:  # the search asks at one root many times
            self._last = (key, seen(state, player))
        view = self._last[1]
        return rebuild(state, view, sample_hands(view, self.rng))


def ismcts_bot(game, *, simulations: int, seed: int = 0, uct_c: float = 200.0,
               rollouts: int = 1) -> ismcts.ISMCTSBot:
    """OpenSpiel's Python ISMCTS for ``spades``: UCT over nodes keyed by the observation string,
    leaves valued by ``rollouts`` uniformly random playouts to the end of the hand, the move most
    visited, worlds drawn by `Resampler`. ``uct_c`` is in points of OpenSpiel's score (the search
    backs up the game's returns as they are, tens to hundreds of points)."""
    if game.get_type().short_name != "spades":
        raise ValueError(f"the resampler models OpenSpiel's 'spades' only, not {game}")
    state = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=state), uct_c,
        simulations, random_state=state, use_observation_string=True,
    )
    bot.set_resampler(Resampler(seed))
    return bot

