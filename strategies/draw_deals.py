"""Deals of two-player Spades, whose hands are drawn (RULES.md §4.7 ``players = 2``): the
opponent's hand as the draw makes it likely (issue 21: the search player's samples there).

Two players take the stock's top two cards in turn, keep one and discard the other. A seat knows
the cards it kept, the discards it saw (`sim.views.PlayView.discards`), the cards played and the
suits the opponent has shown void in. Uniform deals of the rest ignore that the opponent kept
the better card of each pair he drew. Here the opponent is taken to draw as the seed and the
expert do (`strategies.seed.SeedStrategy.draw`): seeing both cards, he keeps the one of higher
value (rank, 13 more for a spade, `_card_value`; of two of equal value, the first); seeing the
first only, he keeps it when its value is at least ``keep_at``, else the second. Both are
"keep the higher" over a value: the card's own (``see_both``) or whether it reaches
``keep_at`` (``first_decides``, ``first_decides_blind``).

**The exact posterior.** The stock is shuffled uniformly, so the cards the seat did not see lie
at the opponent's 26 places and at its own unseen discards (``first_decides_blind``: the
seconds it threw away unseen, ``b`` of them) in a uniformly random order. A split of those
cards into the opponent's kept ``S``, his discards ``D`` and the seat's unseen discards ``B``
has a probability proportional to the ways of pairing ``S`` with ``D`` card by card times, per
pair, the orders of its two cards in which he keeps the one of ``S``: 2 when it is the higher,
1 when they are of equal value (the first is kept), 0 when lower. Going down the values, a
discard pairs with a kept card above it still unpaired ("open", weight 2 each) or with a kept
card of its own value (weight 1), so the weight of a level keeping ``a`` cards and discarding
``d``, with ``o`` open above, is ``G(o, a, d) = sum_q C(a, q) C(d, q) q! o!/(o - d + q)!
2^(d - q)`` (``q`` pairs within the level), and ``o`` becomes ``o + a - d`` whatever ``q``. The
cards of a level are interchangeable, so given how many of its free cards are kept (those the
opponent played must be, those of a suit he showed void in and did not play must not), which
are is uniform. A backward pass over the levels counts the weighted completions from each
(level, open, unseen discards used) state; a forward pass draws each level's counts from them,
then each level's kept cards uniformly: deals drawn exactly from the posterior under that model.
Vectorised over rows (the counts) and rows x samples (the draws); the loops run over the levels,
the counts of a level and the deck's slots, never over rows or samples.

A row whose cards the model cannot explain (an opponent drawing otherwise) is dealt uniformly
among the splits that fit the play (one level: every pairing weighs 1).

**What he saw of his discards** (``first_decides_blind``, `their_seen`). Seeing the first card
only, he keeps a high one (value at least ``keep_at``: level 0) and throws the second away
unseen, or throws a low one away, seen, and takes the second. Of a pair of a high kept card and
a high discard, the kept one came first: the discard is unseen; of two low cards the discard came
first: seen; of a high kept card and a low discard either order fits, each once: seen in one of
the two. Given his kept cards, the split of the rest into his discards and the seat's unseen
ones weighs, by level, the ways to choose the seat's times the pairings (``G``); which level-1
pairings there are, ``q`` of a low discard with a low kept card, weighs as ``G``'s term ``q``;
the other low discards were seen each with chance 1/2. Drawn in that order, all exact under the
model, by rows (the deals) with the loops over counts and slots.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from sim.cards import BIT, U64, popcount
from sim.views import PlayView

from .card_search import played_by
from .sampling import NoDeal, uniforms
from .seed import _card_value

__all__ = ["deal_drawn", "deal_view_drawn", "exchanged", "levels_of", "their_seen"]

KEPT = 13  # the cards each player keeps (and discards)
_LEVEL_STREAM, _SLOT_STREAM = 6, 7  # the random streams of the draws (`uniforms`)
_SPLIT_STREAM, _SEEN_STREAM = 8, 9  # those of `their_seen`
_COMB = np.array([[math.comb(n, r) for r in range(65)] for n in range(65)], np.float64)
_FACT = np.array([math.factorial(q) for q in range(KEPT + 1)], np.float64)
_PERM = np.array([[math.perm(o, k) for k in range(KEPT + 1)] for o in range(KEPT + 1)],
                 np.float64)


@functools.cache
def _pair_weights() -> np.ndarray:
    """float64[14, 14, 14]: ``G[o, a, d]``, the weighted pairings of a level that keeps ``a``
    cards and discards ``d`` with ``o`` kept cards above it open (the module docstring)."""
    g = np.zeros((KEPT + 1,) * 3)
    for o in range(KEPT + 1):
        for a in range(KEPT + 1):
            for d in range(KEPT + 1):
                g[o, a, d] = sum(math.comb(a, q) * math.comb(d, q) * math.factorial(q)
                                 * math.perm(o, d - q) * 2 ** (d - q)
                                 for q in range(max(0, d - o), min(a, d) + 1))
    return g


def levels_of(deck, mode: str, keep_at: int) -> np.ndarray:
    """int64[64]: each slot's level, 0 the highest value the opponent keeps by (the module
    docstring; ``mode`` the rules' ``draw_mode``), -1 for a slot without a card."""
    slots = np.flatnonzero(deck.suit_of_bit >= 0)
    value = _card_value(BIT[slots], deck)
    if mode != "see_both":
        value = (value >= keep_at).astype(np.int64)
    distinct = np.unique(value)[::-1]
    out = np.full(64, -1, np.int64)
    out[slots] = np.searchsorted(-distinct, -value)
    return out


def deal_view_drawn(view, k: int, keys: np.ndarray, keep_at: int,
                    voids: np.ndarray | None = None) -> np.ndarray:
    """uint64[n, k, 2]: ``k`` deals per row of a two-player view (a `PlayView` or, before the
    play, a `BidView`) as dealt: the seat's cards left and played, the opponent's drawn by
    `deal_drawn` (those he played his, none of a suit he showed void in: ``voids`` uint8[n,
    2], the layout of `sim.views.PlayView.voids`, default the view's); ``keep_at`` the value
    from which he keeps a first card he sees alone. After an exchange of cards (RULES.md §4.5
    ``pass_cards``) the cards he passed to the seat were among those he kept, and he holds
    those it passed him (the play's views show both, and the bids' after an exchange before
    the bids). A row's deals a function of its key (``keys`` uint64[n])."""
    n = len(view)
    rows, seat = np.arange(n), view.seat.astype(np.intp)
    other = 1 - seat
    played = played_by(view) if isinstance(view, PlayView) else np.zeros((n, 2), U64)
    barred = np.zeros(n, U64)
    if isinstance(view, PlayView):
        shown = (view.voids if voids is None else voids)[rows, other]
        for suit, mask in enumerate(view.deck.suit_masks):
            barred |= np.where((shown >> suit) & 1 == 1, U64(mask), U64(0))
    level = levels_of(view.deck, view.rules.draw_mode, keep_at)
    mine = view.hand | played[rows, seat]  # as dealt: after any exchange of cards
    passed, received = exchanged(view)
    # what each drew (§4.5 pass_cards after the draw: he kept the cards he passed to the seat)
    theirs = deal_drawn((mine & ~received) | passed, np.zeros(n, U64), view.discards,
                        played[rows, other] | received, barred, view.deck, level, k, keys)
    out = np.empty((n, k, 2), U64)
    out[rows, :, seat] = mine[:, None]
    out[rows, :, other] = (theirs & ~received[:, None]) | passed[:, None]
    return out


def exchanged(view) -> tuple[np.ndarray, np.ndarray]:
    """uint64[n] twice: the cards the seat passed to the opponent and those he passed to it
    (RULES.md §4.5 ``pass_cards`` at two players; `sim.views.PlayView` ``passed``,
    ``received``, and `sim.views.BidView`'s after an exchange before the bids); none where the
    view shows no exchange (none made yet)."""
    none = np.zeros(len(view), U64)
    if getattr(view, "received", None) is None:
        return none, none
    return view.passed, view.received


def deal_drawn(hand: np.ndarray, own_played: np.ndarray, discards: np.ndarray | None,
               their_played: np.ndarray, barred: np.ndarray, deck, level: np.ndarray, k: int,
               keys: np.ndarray) -> np.ndarray:
    """uint64[n, k]: ``k`` draws per row of the cards the opponent kept (the hand he played
    from: those he holds and those he played), exactly from the posterior of the module
    docstring. ``hand``, ``own_played``: uint64[n] the seat's cards left and played;
    ``discards``: the discards it saw (None: none known, a replayed record); ``their_played``:
    the opponent's cards played (kept for sure); ``barred``: cards he cannot hold unplayed
    (of suits he showed void in); ``level``: `levels_of`. A row's draws are a function of its
    key (``keys`` uint64[n], `strategies.sampling.random_bits`). A row the model cannot explain
    is drawn with every card of one level (uniform); a row nothing explains raises `NoDeal`."""
    seen = hand | own_played | (np.zeros_like(hand) if discards is None else discards)
    pool = deck.full_mask & ~seen  # the cards at the opponent's places and unseen discards
    blind = KEPT - (np.zeros_like(hand) if discards is None else popcount(discards)).astype(
        np.int64)  # the seat's discards it did not see
    forced = their_played & pool
    barred = barred & pool & ~forced
    out = _draw(pool, forced, barred, blind, level, k, keys)
    odd = np.flatnonzero((out == 0).any(axis=1))
    if odd.size:  # not explained by the model: every pairing alike
        flat = np.where(level >= 0, 0, -1)
        out[odd] = _draw(pool[odd], forced[odd], barred[odd], blind[odd], flat, k, keys[odd])
        if (out[odd] == 0).any():
            raise NoDeal("two players: no split of the unseen cards fits the play")
    return out


def _draw(pool, forced, barred, blind, level, k, keys) -> np.ndarray:
    """The draws of `deal_drawn` under the levels ``level``; 0 in a row with no weight."""
    n, levels = pool.shape[0], int(level.max()) + 1
    masks = np.zeros(levels, U64)
    for slot in np.flatnonzero(level >= 0):
        masks[level[slot]] |= BIT[slot]
    # per row and level: cards forced kept, free, and in all (int64[n, L])
    kept_for_sure = popcount(forced[:, None] & masks).astype(np.int64)
    free = popcount((pool & ~forced & ~barred)[:, None] & masks).astype(np.int64)
    size = popcount(pool[:, None] & masks).astype(np.int64)
    ways = _completions(kept_for_sure, free, size, blind)  # [L + 1, n, O, U]
    rows = np.arange(n)
    total = ways[0][:, 0, 0]
    # forward: each level's kept count, drawn from the weighted completions
    o = np.zeros((n, k), np.int64)
    u = np.zeros((n, k), np.int64)
    chosen = np.zeros((n, k, levels), np.int64)
    g = _pair_weights()
    for lv in range(levels):
        options, weights = [], []
        for a, c, count, d in _options(kept_for_sure[:, lv], free[:, lv], size[:, lv], blind):
            o_next, u_next = o + a - d[:, None], u + c
            ok = (o_next >= 0) & (o_next <= KEPT) & (u_next < ways.shape[3]) & (d[:, None] <= o + a)
            w = (count[:, None] * g[o, a, np.clip(d, 0, KEPT)[:, None]]
                 * ways[lv + 1][rows[:, None], np.clip(o_next, 0, KEPT),
                                np.minimum(u_next, ways.shape[3] - 1)])
            options.append((a, c, d))
            weights.append(np.where(ok, w, 0.0))
        cum = np.cumsum(np.stack(weights, axis=-1), axis=-1)  # [n, k, options]
        pick = uniforms(keys, _LEVEL_STREAM, np.arange(k) * 64 + lv) * cum[..., -1]
        which = np.minimum((cum <= pick[..., None]).sum(axis=-1), len(options) - 1)
        a_of = np.array([a for a, _, _ in options])
        c_of = np.array([c for _, c, _ in options])
        d_of = np.stack([d for _, _, d in options], axis=-1)  # [n, options]
        chosen[:, :, lv] = a_of[which]
        # (a row of no weight draws nothing that counts: kept in range)
        o = np.clip(o + a_of[which] - np.take_along_axis(d_of, which, axis=1), 0, KEPT)
        u = np.minimum(u + c_of[which], ways.shape[3] - 1)
    # each level's free cards kept: uniformly, slot by slot (sequential selection)
    need = chosen - kept_for_sure[:, None, :]
    left = free.copy()
    kept = np.broadcast_to(forced[:, None], (n, k)).copy()
    open_ = pool & ~forced & ~barred
    for slot in np.flatnonzero(level >= 0):
        lv = level[slot]
        here = (open_ & BIT[slot]) != 0  # [n]
        if not here.any():
            continue
        draw = uniforms(keys, _SLOT_STREAM, np.arange(k) * 64 + slot)
        take = here[:, None] & (draw * left[:, lv, None] < need[:, :, lv])
        kept |= np.where(take, BIT[slot], U64(0))
        need[:, :, lv] -= take
        left[:, lv] -= here
    return np.where((total > 0)[:, None], kept, U64(0))


def _options(kept_for_sure, free, size, blind):
    """The counts a level may take, one tuple per (kept ``a``, unseen discards ``c``) open in
    some row: ``(a, c, ways int64[n], discards d int64[n])``, ``ways`` the choices of which
    free cards are kept and which of the rest are the seat's (0 where the counts cannot be)."""
    for a in range(int(min(KEPT, (kept_for_sure + free).max())) + 1):
        for c in range(int(min(blind.max(), size.max())) + 1):
            d = size - a - c
            ways = (_COMB[free, np.clip(a - kept_for_sure, 0, 64)]
                    * _COMB[np.clip(size - a, 0, 64), c])
            ok = (a >= kept_for_sure) & (a - kept_for_sure <= free) & (d >= 0) & (d <= KEPT) \
                & (c <= blind)
            yield a, c, np.where(ok, ways, 0.0), d


def _completions(kept_for_sure, free, size, blind) -> np.ndarray:
    """float64[L + 1, n, 14, B + 1]: ``ways[l][r, o, u]``, the weight of every way to split
    levels ``l`` on of row ``r`` with ``o`` kept cards open above them and ``u`` of the seat's
    unseen discards placed (the module docstring's backward pass)."""
    n, levels = size.shape
    top = int(blind.max()) + 1
    ways = np.zeros((levels + 1, n, KEPT + 1, top))
    ways[levels, np.arange(n), 0, blind] = 1.0
    g = _pair_weights()
    o = np.arange(KEPT + 1)
    rows = np.arange(n)[:, None, None]
    for lv in range(levels - 1, -1, -1):
        nxt, cur = ways[lv + 1], ways[lv]
        for a, c, count, d in _options(kept_for_sure[:, lv], free[:, lv], size[:, lv], blind):
            o_next = o[None, :] + a - d[:, None]  # [n, O]
            ok = (o_next >= 0) & (o_next <= KEPT) & (d[:, None] <= o[None, :] + a)
            weight = count[:, None] * g[o[None, :], a, np.clip(d, 0, KEPT)[:, None]] * ok
            if c >= top:
                continue
            shifted = np.zeros_like(nxt)
            shifted[:, :, : top - c] = nxt[:, :, c:]  # u -> u + c
            cur += weight[:, :, None] * shifted[rows, np.clip(o_next, 0, KEPT)[:, :, None],
                                                np.arange(top)[None, None, :]]
    return ways


def their_seen(pool: np.ndarray, kept: np.ndarray, blind: np.ndarray, level: np.ndarray,
               keys: np.ndarray) -> np.ndarray:
    """uint64[n]: under ``first_decides_blind``, which of the opponent's discards he saw, drawn
    from the posterior given his kept cards (the module docstring, "What he saw"): ``pool``
    uint64[n] the cards the seat did not see (his 26 places and the seat's ``blind`` unseen
    discards, int[n]), ``kept`` uint64[n] his 13; ``level``: `levels_of` (two levels, the high
    cards 0). A row the model cannot explain (no split of weight) has the seat's unseen discards
    uniform among the rest and every discard of his seen. A row's draw is a function of its key
    (``keys`` uint64[n])."""
    n = pool.shape[0]
    masks = [np.bitwise_or.reduce(BIT[np.flatnonzero(level == lv)]) for lv in (0, 1)]
    rest = pool & ~kept  # his discards and the seat's unseen ones
    a = [popcount(kept & m).astype(np.int64) for m in masks]
    r = [popcount(rest & m).astype(np.int64) for m in masks]
    blind = np.asarray(blind, np.int64)
    g = _pair_weights()
    # the seat's unseen discards among the high cards, c of them: its weight by row
    c = np.arange(KEPT + 1)[None, :]
    d0, d1 = r[0][:, None] - c, r[1][:, None] - (blind[:, None] - c)
    o1 = a[0][:, None] - d0
    ok = (d0 >= 0) & (d1 >= 0) & (d0 <= a[0][:, None]) & (o1 <= KEPT) & (c <= blind[:, None])
    d0c, d1c, o1c = (np.clip(x, 0, KEPT) for x in (d0, d1, o1))
    weight = np.where(ok, _COMB[np.clip(r[0][:, None], 0, 64), np.clip(c, 0, 64)]
                      * _COMB[np.clip(r[1][:, None], 0, 64), np.clip(blind[:, None] - c, 0, 64)]
                      * g[0, np.clip(a[0], 0, KEPT)[:, None], d0c]
                      * g[o1c, np.clip(a[1], 0, KEPT)[:, None], d1c], 0.0)
    cum = np.cumsum(weight, axis=1)
    explained = cum[:, -1] > 0
    pick = uniforms(keys, _SPLIT_STREAM, np.zeros(1, np.int64))[:, 0] * cum[:, -1]
    high = np.minimum((cum <= pick[:, None]).sum(axis=1), KEPT)
    # the seat's unseen discards: so many of each level's rest, uniformly (one level where
    # the model does not explain the row)
    need = np.stack([high, blind - high], axis=1)
    need[~explained] = np.stack([blind, np.zeros_like(blind)], axis=1)[~explained]
    whole = np.where(explained, 0, 1)  # (unexplained: level 0 stands for every card)
    left = np.stack(r, axis=1)
    left[~explained] = np.stack([r[0] + r[1], np.zeros_like(r[0])], axis=1)[~explained]
    theirs_unseen = _choose(rest, need, left, level, whole, keys, 0)
    discards = rest & ~theirs_unseen
    # his low discards seen: q paired with a low kept card, each other one with chance 1/2
    d_low = popcount(discards & masks[1]).astype(np.int64)
    o_low = a[0] - popcount(discards & masks[0]).astype(np.int64)
    q = np.arange(KEPT + 1)[None, :]  # G's term q: q pairs within the level, the rest across
    across = np.clip(d_low[:, None] - q, 0, KEPT)
    terms = (_COMB[np.clip(a[1], 0, KEPT)[:, None], q] * _COMB[np.clip(d_low, 0, KEPT)[:, None], q]
             * _FACT[q] * _PERM[np.clip(o_low, 0, KEPT)[:, None], across] * 2.0 ** across)
    terms = np.where((q <= d_low[:, None]) & (d_low[:, None] - q <= o_low[:, None]), terms, 0.0)
    cum = np.cumsum(terms, axis=1)
    pick = uniforms(keys, _SPLIT_STREAM, np.ones(1, np.int64))[:, 0] * cum[:, -1]
    within = np.minimum((cum <= pick[:, None]).sum(axis=1), KEPT)
    coins = uniforms(keys, _SPLIT_STREAM, 2 + np.arange(KEPT)) < 0.5  # [n, 13]
    seen = within + (coins & (np.arange(KEPT)[None, :] < (d_low - within)[:, None])).sum(axis=1)
    low = np.stack([np.zeros(n, np.int64), seen], axis=1)
    saw = _choose(discards & masks[1], low, np.stack([np.zeros(n, np.int64), d_low], axis=1),
                  level, np.zeros(n, np.int64), keys, 1)
    return np.where(explained, saw, discards)


def _choose(cards, need, left, level, whole, keys, stream) -> np.ndarray:
    """uint64[n]: ``need[r, l]`` of the ``left[r, l]`` cards of ``cards`` (uint64[n]) at level
    ``l`` (`levels_of`; rows with ``whole`` 1 count every card at level 0), uniformly, slot by
    slot (sequential selection)."""
    need, left = need.copy(), left.copy()
    out = np.zeros_like(cards)
    for slot in np.flatnonzero(level >= 0):
        here = (cards & BIT[slot]) != 0
        if not here.any():
            continue
        lv = np.where(whole == 1, 0, level[slot])
        draw = uniforms(keys, _SEEN_STREAM, np.array([stream * 64 + slot]))[:, 0]
        rows = np.arange(cards.shape[0])
        take = here & (draw * left[rows, lv] < need[rows, lv])
        out |= np.where(take, BIT[slot], U64(0))
        need[rows, lv] -= take
        left[rows, lv] -= here
    return out
