"""Deals of the cards a seat cannot see, consistent with what it has seen (issue 21: the search
player's samples).

At a card of the play (RULES.md §0) a seat knows its own hand, every card played, how many cards
each other seat still holds, and the suits each has shown void in (a seat that did not follow a
lead of a suit holds none of it; the rules may reveal more, `strategies.search`). `deal_hidden`
draws deals of the unseen cards to the other seats **uniformly among all deals consistent with
those counts and voids**, exactly, for any number of hidden seats: for three (four players)

1. The suits are grouped by which hidden seats may hold them (a 3-bit mask; the suits of one
   mask are interchangeable as far as the constraints go). A group only one seat may hold is
   his; a group two seats may hold is split by one number (how many go to the first); the
   group all three may hold takes what is left of each seat's count.
2. The number of consistent deals with given splits is a product of binomials (the two-seat
   groups) and a multinomial (the three-seat group), so the splits are drawn from their exact
   distribution by enumerating them (at most 14 per two-seat group, 14^3 for the rare row with
   all three kinds): `_splits`.
3. Within each group the cards are dealt by a uniformly random order, the first ones to the
   first seat and so on: every deal with those splits is equally likely.

So every consistent deal has the same probability (its splits' count of deals / the total,
times 1 / that count). Vectorised over rows x samples; the loops run over the groups and the
three seats, never over samples. The bids are not used (a deal that does not fit a bid is as
likely as one that does).

Two hidden seats (three players) are three with a seat that holds nothing; four and more (five
players) merge two seats into one, deal the rest as above and split the merged hand, keeping a
draw with the probability that makes every deal equally likely (`_deal_merged`: rejection, the
loop over draws, never over rows or samples; a pending deal's next draws are made together,
doubling, so that the rounds are few: the same deals as one draw at a time).

Two decks (RULES.md §4.7, every card twice): the same over the copies unseen as distinct cards
(`_tokens`: a word of the cards of which a first copy is unseen, a word of those of which a
second is), each seat's copies then read back as its cards and those it holds twice. Uniform
deals of distinct copies are the deals of two shuffled decks: a seat holding both copies of a
card is half as likely as one holding either beside another card.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from sim.cards import U64, Deck, popcount

__all__ = ["HIDDEN", "MERGE_ROUNDS", "NoDeal", "deal_hidden", "draw", "random_bits", "uniforms"]

HIDDEN = 3  # hidden seats: the four-player table's other three
_PAIRS = (3, 5, 6)  # the masks of two hidden seats: (0, 1), (0, 2), (1, 2)
_FULL = 7
_NONE = 8  # the group of a card that is not unseen (sorted last)
_GAMMA, _MIX1, _MIX2 = U64(0x9E3779B97F4A7C15), U64(0xBF58476D1CE4E5B9), U64(0x94D049BB133111EB)
_MERGE_STREAM = 8  # the streams of `_deal_merged`'s draws: 8 + the depth of the merge
MERGE_ROUNDS = 512  # draws at most per deal of more than three hidden seats
_MERGE_BATCH, _MERGE_EACH = 4096, 32  # `_deal_merged`'s draws at most at once after the first,
#                                        and per deal
_MOST = 128  # the most unseen copies (two decks of 64 slots)
_FACT = np.array([math.factorial(k) for k in range(_MOST + 1)], dtype=np.float64)


class NoDeal(ValueError):
    """No deal of a row could be drawn: none is consistent, or (more than three hidden seats)
    none was found in `MERGE_ROUNDS` x 2 draws."""


@functools.cache
def _slots(deck: Deck) -> tuple[np.ndarray, np.ndarray]:
    """(int64[c] the deck's slots, int8[c] each one's suit)."""
    slots = np.flatnonzero(deck.suit_of_bit >= 0)
    return slots, deck.suit_of_bit[slots].astype(np.int8)


def deal_hidden(unseen: np.ndarray, counts: np.ndarray, voids: np.ndarray, deck: Deck, k: int,
                keys: np.ndarray) -> np.ndarray:
    """uint64[n, k, H]: ``k`` deals per row of the cards ``unseen`` (uint64[n]) to ``H`` hidden
    seats (H = ``counts.shape[1]``, at least 1), uniform among the deals in which seat ``j`` gets
    ``counts[:, j]`` (int[n, H]) cards and no card of a suit whose bit is set in ``voids[:, j]``
    (uint8[n, H], bit s = suit s, the layout of `sim.views.PlayView.voids`). A row's deals are a
    function of its ``keys`` (uint64[n], `random_bits`) alone, whatever the other rows, and deal
    ``s`` whatever ``k``. A row with no consistent deal raises ValueError.

    Three hidden seats: `_deal_three` (the module docstring). Fewer: the same with seats that
    hold nothing (count 0, void in every suit). More (five players and up): `_deal_merged`.

    Two decks (RULES.md §4.7: every card twice): ``unseen`` uint64[n, 2], the cards of which a
    copy is unseen and those of which both are, and the deals uint64[n, k, H, 2], each seat's
    cards and those it holds twice (``counts`` count copies); uniform among the deals of the
    copies as distinct cards (`_tokens`), as two shuffled decks deal them: a hand of both
    copies of a card is half as likely as one of either copy beside another card."""
    hidden = counts.shape[1]
    if hidden == HIDDEN:
        return _deal_three(unseen, counts, voids, deck, k, keys)
    if hidden > HIDDEN:
        return _deal_merged(unseen, counts, voids, deck, k, keys, 0)
    n = unseen.shape[0]
    pad = HIDDEN - hidden
    counts = np.concatenate([counts, np.zeros((n, pad), counts.dtype)], axis=1)
    voids = np.concatenate([voids.astype(np.uint8), np.full((n, pad), 0xFF, np.uint8)], axis=1)
    return _deal_three(unseen, counts, voids, deck, k, keys)[:, :, :hidden]


def _deal_three(unseen: np.ndarray, counts: np.ndarray, voids: np.ndarray, deck: Deck, k: int,
                keys: np.ndarray) -> np.ndarray:
    """`deal_hidden` for three hidden seats (the module docstring's steps 1-3; two decks: the
    same over the unseen copies, `_tokens`)."""
    n = unseen.shape[0]
    counts = counts.astype(np.int64)
    slots, suit_of = _slots(deck)
    tokens = _tokens(unseen)  # uint64[n, W]
    words = tokens.shape[1]
    if n == 0:
        return np.zeros((0, k, HIDDEN) + unseen.shape[1:], dtype=U64)
    if np.any(counts.sum(axis=1) != _count(tokens)):
        raise ValueError("the hidden seats' counts do not add up to the unseen cards")
    masks = deck.suit_masks
    per_suit = np.stack([_count(tokens & m) for m in masks], axis=1)
    # the hidden seats that may hold each suit: bit j = seat j is not void in it
    may = np.zeros((n, len(masks)), dtype=np.int64)
    for j in range(HIDDEN):
        may |= (((voids[:, j, None].astype(np.int64) >> np.arange(len(masks))) & 1) == 0) << j
    if np.any((per_suit > 0) & (may == 0)):
        raise NoDeal("an unseen card of a suit every hidden seat has shown void in")
    size = np.zeros((n, _NONE), dtype=np.int64)  # unseen cards per group (mask)
    for s in range(len(masks)):
        size[np.arange(n), may[:, s]] += per_suit[:, s]
    split = _splits(size, counts, uniforms(keys, 1, np.arange(k)))  # int64[n, k, 8, 3]
    # a random order of the unseen cards within their groups: each card's key is its group,
    # then 53 random bits, then its slot (two decks: 52 bits, then its copy and slot, `_codes`);
    # sorted, the groups lie in turn, each in random order
    code, code_bits = _codes(slots, words)
    cards_in = ((tokens[:, :, None] >> slots.astype(U64)) & U64(1)).astype(bool).reshape(n, -1)
    width = int(cards_in.sum(axis=1).max())  # the unseen cards of each row, first: [n, width]
    order = np.argsort(~cards_in, axis=1, kind="stable")[:, :width]
    held = np.take_along_axis(cards_in, order, axis=1)
    group = np.where(held, may[np.arange(n)[:, None], np.tile(suit_of, words)[order]],
                     _NONE).astype(U64)
    key = random_bits(keys, 2, np.arange(k)[:, None] * (64 * words) + np.arange(width))
    key >>= U64(5 + code_bits)
    key <<= U64(code_bits)
    key |= code[order][:, None, :] | (group[:, None, :] << U64(59))
    key.sort(axis=2)
    # the seat of each place in that order: in group g (from place start[g]) split[g, 0] cards
    # to seat 0, then split[g, 1] to seat 1, the rest to seat 2; as a running sum of steps: +1
    # where a group's share passes to the next seat, -2 where a group starts (but the first)
    start = np.concatenate([np.zeros((n, 1), np.int64), np.cumsum(size, axis=1)], axis=1)
    step = np.zeros((n, k, width + 1), dtype=np.int8)
    flat = step.reshape(-1)
    base = np.arange(n * k).reshape(n, k) * (width + 1)  # each deal's first place in ``flat``
    groups = np.flatnonzero(size.any(axis=0))  # (an empty group's steps cancel out)
    for g in groups:
        first = base + start[:, g, None]
        if g != groups[0]:
            flat[first] -= 2
        first += split[:, :, g, 0]
        flat[first] += 1
        first += split[:, :, g, 1]
        flat[first] += 1
    seat = np.cumsum(step[:, :, :width], axis=2, dtype=np.int8)
    seat[(key >> U64(59)) == _NONE] = -1
    cards = np.left_shift(U64(1), key & U64(63))
    copy = (key >> U64(6)) & U64(words - 1)  # (the copy of each card: 0 with one deck)
    out = np.empty((n, k, HIDDEN, words), dtype=U64)
    for j in range(HIDDEN):
        for w in range(words):
            out[:, :, j, w] = np.where((seat == j) & (copy == w), cards, U64(0)).sum(
                axis=2, dtype=U64)
    return _cards(out, unseen)


def _deal_merged(unseen: np.ndarray, counts: np.ndarray, voids: np.ndarray, deck: Deck, k: int,
                 keys: np.ndarray, depth: int) -> np.ndarray:
    """`deal_hidden` for more than three hidden seats (five players and up), exactly: two hidden
    seats A and B are merged into one (count cA + cB, void where both are), the H - 1 seats
    dealt (`deal_hidden`, so recursively down to three), and the merged seat's hand S split
    between A and B: its cards of a suit B is void in to A, of a suit A is void in to B, and of
    the others ("shared", sh of them) r = cA - (A's forced cards) to A, a random r-subset. A
    deal of the H - 1 seats stands for N(S) = C(sh, r) deals of the H (0 where r is out of
    range), so it is kept with probability N(S) / M (M: the largest N(S) the row's cards allow)
    and drawn again otherwise (rejection sampling): every consistent deal of the H seats is
    then equally likely. The pair merged is a row's two seats with the fewest suits with an
    unseen card in which one is void and the other not: with the same voids there N(S) is
    C(cA + cB, cA) for every S and every draw is kept. The rounds loop over draws, each over every
    (row, sample) pair not yet kept (one draw of the H - 1 seats each, by its own key: a
    sample's deal does not depend on ``k``); a sample not kept in `MERGE_ROUNDS` draws takes
    its next draw that can be split (not exact then: (1 - N/M)^MERGE_ROUNDS, a rare position
    where M overstates what the other seats leave; none in the tests' checks of uniformity)."""
    n, hidden = counts.shape
    counts = counts.astype(np.int64)
    voids = voids.astype(np.uint8)
    rows = np.arange(n)
    tokens = _tokens(unseen)  # uint64[n, W] (two decks: the copies, `_tokens`)
    words = tokens.shape[1]
    pairs = [(a, b) for a in range(hidden) for b in range(a + 1, hidden)]
    present = np.zeros(n, dtype=np.uint8)  # the suits with an unseen card
    for s, m in enumerate(deck.suit_masks):
        present |= np.where((tokens[:, 0] & m) != 0, np.uint8(1 << s), np.uint8(0))
    differ = np.stack([np.bitwise_count((voids[:, a] ^ voids[:, b]) & present)
                       for a, b in pairs], axis=1)
    first, second = (np.array(p)[np.argmin(differ, axis=1)] for p in zip(*pairs, strict=True))
    seats = np.tile(np.arange(hidden), (n, 1))
    others = seats[(seats != first[:, None]) & (seats != second[:, None])].reshape(n, hidden - 2)
    ca, cb = counts[rows, first], counts[rows, second]
    va, vb = voids[rows, first], voids[rows, second]
    sub_counts = np.concatenate([counts[rows[:, None], others], (ca + cb)[:, None]], axis=1)
    sub_voids = np.concatenate([voids[rows[:, None], others], (va & vb)[:, None]], axis=1)

    def cards_of(bits):  # uint64[n]: the cards of the suits set in ``bits`` (uint8[n])
        out = np.zeros(n, dtype=U64)
        for s, m in enumerate(deck.suit_masks):
            out |= np.where(((bits >> s) & 1) == 1, m, U64(0))
        return out

    a_only, shared = cards_of(vb & ~va), cards_of(~va & ~vb)
    # M: the largest C(sh, r) over A's and B's forced cards fa, fb that the unseen cards allow
    ua = _count(tokens & a_only[:, None])
    ub = _count(tokens & cards_of(va & ~vb)[:, None])
    us = _count(tokens & shared[:, None])
    f = np.arange(int(counts.max(initial=0)) + 1)
    fa, fb = f[None, :, None], f[None, None, :]
    sh, r = (ca + cb)[:, None, None] - fa - fb, ca[:, None, None] - fa
    ok = ((fa <= np.minimum(ca, ua)[:, None, None]) & (fb <= np.minimum(cb, ub)[:, None, None])
          & (sh <= us[:, None, None]) & (r >= 0) & (r <= sh))
    top = np.where(ok, _comb(sh, r), 0.0).reshape(n, -1).max(axis=1, initial=0.0)
    if np.any(top <= 0):
        raise NoDeal("no deal of the unseen cards fits the seats' counts and voids")
    slots, _ = _slots(deck)
    bits = np.left_shift(U64(1), slots.astype(U64))
    code, code_bits = _codes(slots, words)
    out = np.zeros((n, k, hidden) + unseen.shape[1:], dtype=U64)
    pending = np.ones((n, k), dtype=bool)
    stream = _MERGE_STREAM + depth
    draw_no, batch = 0, 1
    while draw_no < 2 * MERGE_ROUNDS:
        # the (row, sample) pairs still to keep a deal, and draws of the H - 1 seats for each:
        # the first for every sample at once, then draws numbered draw_no, draw_no + 1 ... a
        # pending pair (each by its own key), ``batch`` of them at once (doubling, while the
        # pending pairs are few: the rounds are few), the first kept: as if drawn one at a time
        pr, ps = np.nonzero(pending)
        if not pr.size:
            break
        if draw_no:
            batch = min(2 * batch, _MERGE_EACH, max(1, _MERGE_BATCH // pr.size),
                        2 * MERGE_ROUNDS - draw_no)
            number = np.tile(draw_no + np.arange(batch), pr.size)
            pr, ps = np.repeat(pr, batch), np.repeat(ps, batch)
            pkeys = _mix(keys[pr], stream, (number << 20) + ps)
            sub = deal_hidden(unseen[pr], sub_counts[pr], sub_voids[pr], deck, 1, pkeys)[:, 0]
        else:
            number = np.zeros(pr.size, np.int64)
            sub = deal_hidden(unseen, sub_counts, sub_voids, deck, k,
                              _mix(keys, stream, np.full(n, 1 << 39)))
            sub = sub.reshape((n * k,) + sub.shape[2:])
            pkeys = _mix(keys[pr], stream, ps)
        hand = _tokens(sub[:, -1])  # [m, W]: the merged seat's
        forced_a = hand & a_only[pr, None]
        sh_s = _count(hand & shared[pr, None])
        r_s = ca[pr] - _count(forced_a)
        fits = (r_s >= 0) & (r_s <= sh_s)
        weight = np.where(fits, _comb(sh_s, r_s), 0.0)
        u = uniforms(pkeys, 4, np.zeros(1, np.int64))[:, 0]
        keep = ((u * top[pr] < weight) | (fits & (number >= MERGE_ROUNDS))).reshape(-1, batch)
        draw_no += batch
        kept = np.arange(keep.shape[0]) * batch + np.argmax(keep, axis=1)  # each pair's first
        kept = kept[keep.any(axis=1)]
        if not kept.size:
            continue
        pr, ps, pkeys, hand, sub = pr[kept], ps[kept], pkeys[kept], hand[kept], sub[kept]
        forced_a, r_s = forced_a[kept], r_s[kept]
        # A's r shared cards: the r of smallest random key (53 bits, then the slot: no ties;
        # two decks: 52, then the copy and slot)
        inside = (((hand & shared[pr, None])[:, :, None] >> slots.astype(U64)) & U64(1)
                  ).reshape(len(pr), -1)
        key = random_bits(pkeys, 5, np.arange(code.size))
        key >>= U64(5 + code_bits)
        key <<= U64(code_bits)
        key |= code
        key = np.where(inside == 1, key, ~U64(0))
        cut = np.take_along_axis(np.sort(key, axis=1),
                                 np.clip(r_s - 1, 0, code.size - 1)[:, None], axis=1)
        chosen = ((inside == 1) & (key <= cut) & (r_s > 0)[:, None]).reshape(len(pr), words, -1)
        to_a = forced_a | np.where(chosen, bits, U64(0)).sum(axis=2, dtype=U64)
        out[pr[:, None], ps[:, None], others[pr]] = sub[:, :-1]
        out[pr, ps, first[pr]] = _cards(to_a, unseen)
        out[pr, ps, second[pr]] = _cards(hand & ~to_a, unseen)
        pending[pr, ps] = False
    if pending.any():
        raise NoDeal("no deal of the unseen cards fits the seats' counts and voids")
    return out


def _tokens(cards: np.ndarray) -> np.ndarray:
    """uint64[n, W]: the cards of a set (uint64[n]: W = 1) or of two decks' multiset (uint64[n,
    2]: the cards held, and those held twice; W = 2) as distinct copies: word w the slots of
    which a (w + 1)-th copy is held (with two decks the copy held once is the first). The deals
    of distinct copies, uniform, are the deals of two shuffled decks."""
    return cards[:, None] if cards.ndim == 1 else cards


def _cards(tokens: np.ndarray, like: np.ndarray) -> np.ndarray:
    """The cards (as ``like``: one deck or two, `_tokens`) of the copies ``tokens`` (uint64[...,
    W]): one deck the word itself; two decks (held, held twice), whichever copies they are."""
    if like.ndim == 1:
        return tokens[..., 0]
    return np.stack([tokens[..., 0] | tokens[..., 1], tokens[..., 0] & tokens[..., 1]], axis=-1)


def _count(tokens: np.ndarray) -> np.ndarray:
    """int64[...]: the copies in each ``tokens`` (uint64[..., W])."""
    return popcount(tokens).sum(axis=-1, dtype=np.int64)


def _codes(slots: np.ndarray, words: int) -> tuple[np.ndarray, int]:
    """(uint64[W * c] each copy's code, its bits): the slot (6 bits) with one deck, the copy and
    the slot (7 bits) with two, copy-major as `_tokens`' words."""
    if words == 1:
        return slots.astype(U64), 6
    return (np.repeat(np.arange(words), slots.size) << 6 | np.tile(slots, words)).astype(U64), 7


def _mix(keys: np.ndarray, stream: int, index: np.ndarray) -> np.ndarray:
    """uint64[m]: `random_bits`' numbers of each key with its own index (``keys``, ``index``
    [m]), not every key with every index."""
    with np.errstate(over="ignore"):
        z = keys + ((U64(stream) << U64(40)) + index.astype(U64) + U64(1)) * _GAMMA
    return _splitmix(z)


def _splitmix(z: np.ndarray) -> np.ndarray:
    """SplitMix64's output function (`random_bits`'), on a copy."""
    z = z.copy()
    with np.errstate(over="ignore"):
        for shift, factor in ((30, _MIX1), (27, _MIX2)):
            z ^= z >> U64(shift)
            z *= factor
        z ^= z >> U64(31)
    return z


def _comb(m: np.ndarray, r: np.ndarray) -> np.ndarray:
    """float64: C(m, r) for 0 <= r <= m <= 128 (elsewhere meaningless, to be masked)."""
    m, r = np.clip(m, 0, _MOST), np.clip(r, 0, _MOST)
    return _FACT[m] / (_FACT[np.minimum(r, m)] * _FACT[np.clip(m - r, 0, _MOST)])


def _splits(size: np.ndarray, counts: np.ndarray, u: np.ndarray) -> np.ndarray:
    """int64[n, k, 8, 3]: for each row and sample, how many cards of each group (mask, as
    `deal_hidden`'s ``size`` int64[n, 8]) go to each hidden seat, drawn (by the uniforms ``u``
    float[n, k]) with probability proportional to the number of consistent deals with that
    split. A group of one seat is that seat's; the two-seat groups' shares are enumerated; the
    three-seat group takes the rest, which must fit each seat's count. The weights are
    computed once per distinct problem (group sizes and counts: a merged deal's draws repeat
    their row's, `_deal_merged`), each row drawing from its problem's."""
    n, k = u.shape
    rows = np.arange(n)
    forced = np.stack([size[:, 1 << j] for j in range(HIDDEN)], axis=1)
    dims = [int(size[:, m].max()) + 1 for m in _PAIRS]
    c3, c5, c6 = (np.arange(d).reshape([1] + [d if i == a else 1 for i in range(3)])
                  for a, d in enumerate(dims))  # [1, d3, 1, 1] ...
    h = (counts - forced).reshape(n, HIDDEN, 1, 1, 1)
    _, first, problem = np.unique(np.concatenate([size, counts], axis=1), axis=0,
                                  return_index=True, return_inverse=True)
    weight = _split_weights(size[first], h[first], c3, c5, c6)
    if np.any(weight.sum(axis=1) <= 0):
        raise NoDeal("no deal of the unseen cards fits the seats' counts and voids")
    pick = draw(weight, u, problem.reshape(-1))
    # [n, k] each; unravelled flat: numpy 2.4's unravel_index gives wrong indices past the
    # 8,192nd of an (n, 1) array (k = 1), tests/test_search.py
    i3, i5, i6 = (i.reshape(n, k) for i in np.unravel_index(pick.reshape(-1), dims))
    full = [(h[:, 0, 0, 0, 0, None] - i3 - i5), (h[:, 1, 0, 0, 0, None] - (size[:, 3, None] - i3)
                                                 - i6),
            (h[:, 2, 0, 0, 0, None] - (size[:, 5, None] - i5) - (size[:, 6, None] - i6))]
    out = np.zeros((n, k, _NONE, HIDDEN), dtype=np.int64)
    for j in range(HIDDEN):
        out[:, :, 1 << j, j] = forced[:, j, None]
        out[:, :, _FULL, j] = full[j]
    for m, c in zip(_PAIRS, (i3, i5, i6), strict=True):
        first, second = (j for j in range(HIDDEN) if m >> j & 1)
        out[:, :, m, first] = c
        out[:, :, m, second] = size[rows, m][:, None] - c
    return out


def _split_weights(size, h, c3, c5, c6) -> np.ndarray:
    """float64[m, d3 * d5 * d6]: `_splits`' weights of ``m`` problems (``size`` int64[m, 8],
    ``h`` the seats' counts less their own groups, int64[m, 3, 1, 1, 1]), by the two-seat
    groups' shares ``c3``, ``c5``, ``c6`` (the grid's axes): the consistent deals with each."""
    m = size.shape[0]
    u3, u5, u6, u7 = (size[:, g].reshape(m, 1, 1, 1) for g in (*_PAIRS, _FULL))
    rest = (h[:, 0] - c3 - c5, h[:, 1] - (u3 - c3) - c6, h[:, 2] - (u5 - c5) - (u6 - c6))
    ok = (c3 <= u3) & (c5 <= u5) & (c6 <= u6)
    for r in rest:
        ok = ok & (r >= 0)
    fact = _FACT
    weight = fact[u7] / (fact[np.clip(rest[0], 0, _MOST)] * fact[np.clip(rest[1], 0, _MOST)]
                         * fact[np.clip(rest[2], 0, _MOST)])
    for c, g in ((c3, u3), (c5, u5), (c6, u6)):
        weight = weight * fact[g] / (fact[np.minimum(c, g)] * fact[np.clip(g - c, 0, _MOST)])
    return np.where(ok, weight, 0.0).reshape(m, -1)


def draw(weight: np.ndarray, u: np.ndarray, of: np.ndarray | None = None) -> np.ndarray:
    """int[n, k]: for each row of ``u`` (float[n, k] uniforms) ``k`` indices into its row of
    ``weight`` (float[m, G], not negative, some positive; row ``of[i]`` for row i, int[n],
    default row i), index g with probability weight[g] / the row's sum: the inverse of each
    row's cumulative distribution, all rows in one search (row i's distribution shifted to
    [i, i + 1])."""
    n, cells = u.shape[0], weight.shape[1]
    cum = np.cumsum(weight, axis=1)
    cum /= cum[:, -1:]
    last = cells - 1 - np.argmax(weight[:, ::-1] > 0, axis=1)  # (u rounding up to the row's
    #                                                    end: its last cell of positive weight)
    if of is not None:
        cum, last = cum[of], last[of]
    shifted = (cum + np.arange(n)[:, None]).reshape(-1)
    at = np.searchsorted(shifted, (u + np.arange(n)[:, None]).reshape(-1), side="right")
    pick = at.reshape(u.shape) - np.arange(n)[:, None] * cells
    return np.minimum(pick, last[:, None])


def random_bits(keys: np.ndarray, stream: int, index: np.ndarray) -> np.ndarray:
    """uint64[n, *index.shape]: 64 random bits per row and index, a function of the row's key
    (``keys`` uint64[n]), the ``stream`` (a small int: one per use) and the ``index`` (ints
    below 2^40) alone: SplitMix64's output function over the counter key + (stream, index) x
    its odd constant (Steele, Lea and Flood 2014), a counter-based generator. A row's numbers
    do not depend on which rows are drawn with it, nor on how many."""
    count = (U64(stream) << U64(40)) + np.asarray(index).astype(U64)
    with np.errstate(over="ignore"):
        z = keys.reshape((-1,) + (1,) * count.ndim) + (count + U64(1)) * _GAMMA
        for shift, factor in ((30, _MIX1), (27, _MIX2)):  # (in place: no temporaries)
            z ^= z >> U64(shift)
            z *= factor
        z ^= z >> U64(31)
    return z


def uniforms(keys: np.ndarray, stream: int, index: np.ndarray) -> np.ndarray:
    """float64[n, *index.shape] in [0, 1): `random_bits`' top 53 bits."""
    return (random_bits(keys, stream, index) >> U64(11)).astype(np.float64) * 2.0 ** -53
