"""The randomness of a block, shared by every game (STYLE.md practice 7).

A block is the unit of work and of randomness: its deals and its players' random choices are pure
functions of (root seed, block index), so how blocks are spread over processes never changes a
result. Deals are also independent of the rules and the players: hand ``h`` of game ``g`` gets the
same cards in every experiment cell with the same seed and block size (common random numbers),
because each group of `DEAL_GROUP` games draws its deals for hand ``h`` from its own stream and is
dealt whole, whichever of its games still play.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from .deal import deck_slots, hands_from_order, shuffled, shuffled_from, swap_draws, to_seats
from .errors import UserError
from .limits import HAND_GUARD  # noqa: F401  (the engines' guard, re-exported)
from .state import join_rows, take_rows
from .streams import Streams

__all__ = ["DEAL_GROUP", "FIRST_DEALER", "HAND_GUARD", "BlockResult", "GameLoop", "deal_groups",
           "finish_tables", "play_block", "play_blocks", "play_rng", "stacked", "stock_groups"]

DEAL_GROUP = 1024  # games whose deals for one hand number come from one stream (games mode)
FIRST_DEALER = 3  # the first hand of a game is dealt by seat 3, so seat 0 is elder hand


def deal_rng(seed: int, block: int, hand_no: int, group: int,
             attempt: int = 0) -> np.random.Generator:
    """The stream of one group's deals for one hand number; ``attempt`` k > 0: the k-th deal
    again after a misdeal (RULES.md §4.1 ``redeal_poor_hands``)."""
    key = (1, block, hand_no, group) + ((attempt,) if attempt else ())
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def play_rng(seed: int, block: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(2, block)))


def deal_groups(deck, dealer, seed, block, hand_no, rows, players=4, group=DEAL_GROUP,
                last=False, cards_each=None, attempt=0, first=0):
    """Deals (uint64[len(rows), players] by seat, ``cards_each`` cards each, default the whole
    deck) for the given game rows of a block; with ``last``, also the slot of each deal's last
    card (the dealer's); with ``first`` = k > 0, also the first k cards each seat received
    (uint64[len(rows), players]). A run of independent hands deals its whole block as one group
    (``group`` = the block size). The deals of `sim.deal.deal_in_order`, each group's from its
    own stream."""
    if deck.copies != 1:
        raise ValueError("deal_groups deals one deck; two-deck Spades (RULES.md §4.7) deals "
                         "through sim.spades.dealing")
    slots = deck_slots(deck)
    cards_each = cards_each or slots.size // players
    order = _orders(slots, rows, group, seed, block, hand_no, attempt)
    out = (to_seats(hands_from_order(order, players, cards_each), dealer),)
    if last:
        out += (order[cards_each * players - 1].copy(),)
    if first:
        out += (to_seats(hands_from_order(order, players, first), dealer),)
    return out if len(out) > 1 else out[0]


def stock_groups(deck, seed, block, hand_no, rows, group=DEAL_GROUP, attempt=0) -> np.ndarray:
    """The shuffled decks (int8[cards, len(rows)]: slots, top card first) of the given game
    rows, from the same streams as `deal_groups` (Spades deals from them, and two players draw
    from them, RULES.md §4.7). Two decks (``deck.copies = 2``) hold every slot twice."""
    slots = np.tile(deck_slots(deck), deck.copies)
    return _orders(slots, rows, group, seed, block, hand_no, attempt)


def _orders(slots, rows, group, seed, block, hand_no, attempt) -> np.ndarray:
    """The shuffled ``slots`` (int8[len(slots), len(rows)]) of the given game rows, each group's
    from its own stream (`sim.deal.shuffled` of its columns): every group's numbers are drawn,
    then the decks wanted are shuffled together."""
    parts = list(_by_group(rows, group))
    if not parts:
        return np.zeros((slots.size, 0), dtype=np.int8)
    if len(parts) == 1 and parts[0][2] is None:  # one whole group (a block of hands)
        return shuffled(slots, group, deal_rng(seed, block, hand_no, parts[0][0], attempt))
    draws = [swap_draws(slots.size, group, deal_rng(seed, block, hand_no, g, attempt), at)
             for g, _, at in parts]
    order = shuffled_from(slots, draws[0] if len(draws) == 1 else np.concatenate(draws, axis=1))
    if all(isinstance(mine, slice) for _, mine, _ in parts):  # the rows in order of groups
        return order
    out = np.empty_like(order)
    out[:, np.concatenate([np.flatnonzero(mine) for _, mine, _ in parts])] = order
    return out


def _by_group(rows: np.ndarray, group: int):
    """For each group of ``group`` games that some of ``rows`` (game rows) belong to: its index,
    which of ``rows`` are in it, and their places in the group (None: the whole group, in
    order)."""
    groups = rows // group
    ordered = bool((groups[1:] >= groups[:-1]).all())
    for g in np.unique(groups):
        mine = slice(*np.searchsorted(groups, [g, g + 1])) if ordered else groups == g
        at = rows[mine] - g * group
        whole = at.size == group and bool((at == np.arange(group)).all())
        yield int(g), mine, None if whole else at


def stacked(outcomes, get) -> np.ndarray:
    """One array of a block's hands from its outcomes (one per hand number), in their order."""
    parts = [get(o) for o in outcomes]
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def finish_tables(cols: dict, result, game_offset: int):
    """The block's tables from its hand columns (``cols``, in the engine's row order): the dealt
    hands' bitmasks appended, rows ordered by game then hand (a run of independent hands is in
    that order already), and the ``games`` table (None in a run of independent hands)."""
    from .arrow import table

    for seat in range(result.hands.shape[1]):
        cols[f"hand_{seat}"] = result.hands[:, seat]
    order = np.lexsort((result.hand_no, result.game)) if result.games is not None else slice(None)
    hands = table({k: v[order] for k, v in cols.items()})
    if result.games is None:
        return hands, None
    n = result.games["n_hands"].shape[0]
    return hands, table({"game_id": np.arange(n, dtype=np.int64) + game_offset, **result.games})


@dataclass(eq=False)
class BlockResult:
    """What a block produced, in every game: per played hand its game row ``game`` (int64[H]),
    ``hand_no`` (int16[H], 1-based) and ``dealer`` (int8[H]), and the game's own per-hand arrays
    in ``per_hand`` (the dealt cards, the scores before the hand, ...; read as attributes:
    ``result.hands``); the outcomes, one per hand number (rows in the order of ``game``); per
    game the final state (the ``games`` table's columns; None in a run of independent hands)."""

    game: np.ndarray
    hand_no: np.ndarray
    dealer: np.ndarray
    per_hand: dict[str, np.ndarray]
    outcomes: list
    games: dict[str, np.ndarray] | None
    rules: Any = None  # the rules the block was played under (its tables' columns follow them)

    def __getattr__(self, name: str):
        per_hand = self.__dict__.get("per_hand", {})
        if name in per_hand:
            return per_hand[name]
        raise AttributeError(f"a block result has no {name!r}")


@dataclass(frozen=True)
class GameLoop:
    """What the one block loop (`play_block`) needs of a game (each game's ``game.py`` makes
    its own). ``standing`` is a dict of per-game arrays (scores, bags, games won ...), indexed by
    game row; ``rows`` the game rows a hand number plays.

    first_dealer(rules) -> int: the dealer of a game's first hand (seat 0 speaks first);
    start(rules, n) -> standing: n games before their first hand;
    deal(rules, lineup, seed, block, hand_no, rows, dealer, standing, deck, rng, group)
        -> (deal, per_hand): the hand's deal (the game's own value) and its per-hand arrays
        (the dealt cards, the standing before the hand ...), ``standing`` the rows' own;
    play(rules, deal, dealer, standing, lineup, rng, deck) -> outcome (``scores_after``);
    settle(rules, standing, rows, outcome, hand_no) -> (done, winner): the standing after the
        hand (changed in place) and which games it ended, won by whom (-1: nobody);
    games(rules, standing, n_hands, winner) -> the ``games`` table's columns;
    unended(rules, n) -> str: why n games still running at the guard are an error.
    """

    deck_for: Callable
    first_dealer: Callable[[Any], int]
    start: Callable
    deal: Callable
    play: Callable
    settle: Callable
    games: Callable
    unended: Callable[[Any, int], str]


def _rows_of(standing: dict, rows: np.ndarray) -> dict:
    return {key: value[rows] for key, value in standing.items()}


def play_block(loop: GameLoop, rules, lineup, seed: int, block: int, size: int, mode: str,
               hand_offset: int = 0) -> BlockResult:
    """Play ``size`` whole games (``mode = "games"``) or ``size`` independent hands (``"hands"``:
    each from the start of a game, the dealer rotating with the hand's global index
    ``hand_offset + i``), in lockstep: every game still running plays its next hand together,
    games that end drop out. A game's hand ``h`` is dealt from the streams of `deal_groups`
    whichever games still play, and the players' random choices come from the block's one
    stream (`play_rng`), so a block's result depends on the experiment, the cell and the block
    alone."""
    ((_, result),) = play_blocks(loop, rules, lineup, seed, [(block, size, hand_offset)], mode)
    return result


FILL = 40_000  # games in play below which `play_blocks` starts the next block's


def play_blocks(loop: GameLoop, rules, lineup, seed: int, blocks, mode: str,
                fill: int = FILL) -> Iterator[tuple[int, BlockResult]]:
    """Play ``blocks`` ((block, size, hand_offset) each, as `play_block`) and yield each
    ``(block, result)`` as it ends, every result equal to `play_block`'s.

    Whole games: while fewer than ``fill`` games are in play, the next block's games start, so the
    batch stays full where a block's last long games alone would play hands of a few rows. The
    games of every block in play play each hand together: each block's games are dealt from
    its own deal streams, and each draws its players' random choices from its own stream
    (`sim.streams.Streams`: a row's numbers come from its block's stream, in the order that
    block alone would draw them), so neither ``fill`` nor which blocks play together changes a
    result."""
    deck = loop.deck_for(rules)
    if mode == "hands":
        for block, size, hand_offset in blocks:
            yield block, _hands(loop, rules, lineup, seed, block, size, hand_offset, deck)
        return
    waiting = list(blocks)
    playing: list[_Games] = []
    while playing or waiting:
        while waiting and sum(g.active.size for g in playing) < fill:
            block, size, _ = waiting.pop(0)
            playing.append(_Games(loop, rules, seed, block, size))
        _next_hand(loop, rules, lineup, seed, deck, playing)
        for g in [g for g in playing if not g.active.size]:
            playing.remove(g)
            yield g.block, g.result(loop, rules)


def _hands(loop, rules, lineup, seed, block, size, hand_offset, deck) -> BlockResult:
    """A block of ``size`` independent hands: one hand of as many new games."""
    rng = play_rng(seed, block)
    rows = np.arange(size)
    dealer = ((loop.first_dealer(rules) + hand_offset + rows) % rules.players).astype(np.int8)
    standing = loop.start(rules, size)
    deal, per_hand = loop.deal(rules, lineup, seed, block, 1, rows, dealer, standing, deck, rng,
                               size)
    out = loop.play(rules, deal, dealer, standing, lineup, rng, deck)
    return BlockResult(game=rows, hand_no=np.ones(size, np.int16), dealer=dealer,
                       per_hand=per_hand, outcomes=[out], games=None, rules=rules)


class _Games:
    """One block's whole games while they play: their standing, the rows still playing
    (``active``), the hand number they are at, and what their hands gave so far."""

    def __init__(self, loop: GameLoop, rules, seed: int, block: int, size: int):
        self.block, self.rng = block, play_rng(seed, block)
        self.standing = loop.start(rules, size)
        self.n_hands = np.zeros(size, dtype=np.int16)
        self.winner = np.full(size, -1, dtype=np.int8)
        self.active = np.arange(size)
        self.hand_no = 0
        self.parts: dict[str, list] = {"game": [], "hand_no": [], "dealer": []}
        self.outcomes: list = []

    def deal(self, loop, rules, lineup, seed, deck):
        """The next hand's deal of the games still playing: (dealer, standing, deal,
        per_hand)."""
        self.hand_no += 1
        if self.hand_no > rules.hand_limit:  # the guard: max_hands, else HAND_GUARD
            raise UserError(loop.unended(rules, self.active.size))
        players = rules.players
        dealer = np.full(self.active.size, (loop.first_dealer(rules) + self.hand_no - 1)
                         % players, np.int8)
        now = _rows_of(self.standing, self.active)
        deal, per_hand = loop.deal(rules, lineup, seed, self.block, self.hand_no, self.active,
                                   dealer, now, deck, self.rng, DEAL_GROUP)
        return dealer, now, deal, per_hand

    def settle(self, loop, rules, dealer, per_hand, out) -> None:
        """The hand played: its parts kept, the games it ended out of play."""
        active = self.active
        for key, value in dict(game=active, hand_no=np.full(active.size, self.hand_no, np.int16),
                               dealer=dealer, **per_hand).items():
            self.parts.setdefault(key, []).append(value)
        self.outcomes.append(out)
        self.n_hands[active] = self.hand_no
        done, won = loop.settle(rules, self.standing, active, out, self.hand_no)
        self.winner[active[done]] = won[done]
        self.active = active[~done]

    def result(self, loop, rules) -> BlockResult:
        joined = {key: np.concatenate(value) for key, value in self.parts.items()}
        return BlockResult(game=joined.pop("game"), hand_no=joined.pop("hand_no"),
                           dealer=joined.pop("dealer"), per_hand=joined, outcomes=self.outcomes,
                           games=loop.games(rules, self.standing, self.n_hands, self.winner),
                           rules=rules)


def _next_hand(loop, rules, lineup, seed, deck, playing: list[_Games]) -> None:
    """Every game in play plays its next hand: one batch of the blocks' rows one after
    another, each block with its own streams."""
    dealt = [g.deal(loop, rules, lineup, seed, deck) for g in playing]
    if len(playing) == 1:
        dealer, now, deal, _ = dealt[0]
        outs = [loop.play(rules, deal, dealer, now, lineup, playing[0].rng, deck)]
    else:
        counts = [g.active.size for g in playing]
        dealer, now, deal = (join_rows([d[k] for d in dealt], counts) for k in range(3))
        rng = Streams.joined([g.rng for g in playing], counts)
        out = loop.play(rules, deal, dealer, now, lineup, rng, deck)
        ends = np.cumsum(counts)
        outs = [take_rows(out, slice(end - count, end), ends[-1])
                for count, end in zip(counts, ends, strict=True)]
    for g, (dealer, _, _, per_hand), out in zip(playing, dealt, outs, strict=True):
        g.settle(loop, rules, dealer, per_hand, out)
