"""The randomness of a block, shared by every game (STYLE.md practice 7).

A block is the unit of work and of randomness: its deals and its players' random choices are pure
functions of (root seed, block index), so how blocks are spread over processes never changes a
result. Deals are also independent of the rules and the players: hand ``h`` of game ``g`` gets the
same cards in every experiment cell with the same seed and block size (common random numbers),
because each group of `DEAL_GROUP` games draws its deals for hand ``h`` from its own stream and is
dealt whole, whichever of its games still play.
"""

from __future__ import annotations

import numpy as np

from .deal import deal_in_order, deck_slots, shuffled, to_seats
from .limits import HAND_GUARD  # noqa: F401  (the engines' guard, re-exported)

__all__ = ["DEAL_GROUP", "FIRST_DEALER", "HAND_GUARD", "deal_groups", "finish_tables", "play_rng",
           "stacked", "stock_groups"]

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
    (``group`` = the block size)."""
    hands = np.zeros((rows.size, players), dtype=np.uint64)
    firsts = np.zeros((rows.size, players), dtype=np.uint64)
    lasts = np.zeros(rows.size, dtype=np.int8)
    groups = rows // group
    for g in np.unique(groups):
        mine = groups == g
        dealt = deal_in_order(deck, group, players, deal_rng(seed, block, hand_no, g, attempt),
                              cards_each, last=True, first=first)
        at = rows[mine] - g * group
        hands[mine] = to_seats(dealt[0][at], dealer[mine])
        lasts[mine] = dealt[1][at]
        if first:
            firsts[mine] = to_seats(dealt[2][at], dealer[mine])
    out = (hands,) + ((lasts,) if last else ()) + ((firsts,) if first else ())
    return out if len(out) > 1 else hands


def stock_groups(deck, seed, block, hand_no, rows, group=DEAL_GROUP, attempt=0) -> np.ndarray:
    """The shuffled decks (int8[cards, len(rows)]: slots, top card first) of the given game
    rows, from the same streams as `deal_groups` (Spades deals from them, and two players draw
    from them, RULES.md §4.7). Two decks (``deck.copies = 2``) hold every slot twice."""
    slots = np.tile(deck_slots(deck), deck.copies)
    out = np.zeros((slots.size, rows.size), dtype=np.int8)
    groups = rows // group
    for g in np.unique(groups):
        mine = groups == g
        order = shuffled(slots, group, deal_rng(seed, block, hand_no, g, attempt))
        out[:, mine] = order[:, rows[mine] - g * group]
    return out


def stacked(outcomes, get) -> np.ndarray:
    """One array of a block's hands from its outcomes (one per hand number), in their order."""
    parts = [get(o) for o in outcomes]
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def finish_tables(cols: dict, result, game_offset: int):
    """The block's tables from its hand columns (``cols``, in the engine's row order): the dealt
    hands' bitmasks appended, rows ordered by game then hand (a run of independent hands is in
    that order already), and the ``games`` table (None in a run of independent hands)."""
    import pyarrow as pa

    for seat in range(result.hands.shape[1]):
        cols[f"hand_{seat}"] = result.hands[:, seat]
    order = np.lexsort((result.hand_no, result.game)) if result.games is not None else slice(None)
    hands = pa.table({k: v[order] for k, v in cols.items()})
    if result.games is None:
        return hands, None
    n = result.games["n_hands"].shape[0]
    return hands, pa.table({"game_id": np.arange(n, dtype=np.int64) + game_offset,
                            **result.games})
