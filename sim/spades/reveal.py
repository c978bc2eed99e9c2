"""Seven-card trump reveals (RULES.md §4.2 ``seven_trump_reveal``): before the bidding, the first
player (in bidding order) holding 7 or more cards of one non-spade suit may show them and make
that suit trump instead of spades; then the first player after him holding 7 or more spades may
show them and restore spades. Each is a strategy's choice (``reveal``, a `RevealView`).

Readings: at most one suit is revealed and at most one restoration follows it (the rule names
one of each); the spade range keeps its place in the layout, the revealed suit's bits become the
hand's trump bits (`sim.tricks` takes the trump as per-hand data).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import SPADES, popcount
from ..views import RevealView

__all__ = ["Reveals", "reveal_trumps", "reveal_view"]

LONG = 7  # cards of one suit a reveal needs


@dataclass(frozen=True, eq=False)
class Reveals:
    """int8[N]: the trump suit (3 = spades), the seat that revealed another suit and the seat
    that restored spades (-1 for none)."""

    trump: np.ndarray
    revealer: np.ndarray
    restorer: np.ndarray

    @classmethod
    def none(cls, n: int) -> Reveals:
        return cls(np.full(n, SPADES, np.int8), np.full(n, -1, np.int8),
                   np.full(n, -1, np.int8))


def reveal_view(hands, seat, suit, dealer, scores, bags, rules, deck, public, rows) -> RevealView:
    """What ``seat`` (int8[N]) sees when asked whether to reveal ``suit`` (int8[N]: his long
    suit as trumps, or spades to restore them), in the rows ``rows`` of the batch: his cards,
    the standing and the public fields (``public``: name -> [N] arrays). The engine asks
    through this view."""
    return RevealView(rows=rows, seat=seat[rows], dealer=dealer[rows],
                      hand=hands[rows, seat[rows]], suit=suit[rows].astype(np.int8),
                      scores=scores[rows], bags=bags[rows], rules=rules, deck=deck,
                      **{k: v[rows] for k, v in public.items()})


def reveal_trumps(hands, dealer, scores, bags, rules, deck, lineup, rng, public,
                  twice=None) -> Reveals:
    """Ask the players, in bidding order, whether to reveal (RULES.md §4.2). ``twice``:
    uint64[N, P] the cards held twice (two decks, §4.7), which count twice."""
    n = hands.shape[0]
    out = Reveals.none(n)
    if not rules.seven_trump_reveal:
        return out
    counts = np.stack([popcount(hands & m) for m in deck.suit_masks], axis=2)  # [N, P, suit]
    if twice is not None:
        counts = counts + np.stack([popcount(twice & m) for m in deck.suit_masks], axis=2)
    long_side = np.argmax(counts[:, :, :SPADES], axis=2)  # the seat's longest non-spade suit
    may_reveal = counts[:, :, :SPADES].max(axis=2) >= LONG
    may_restore = counts[:, :, SPADES] >= LONG
    trump, revealer, restorer = out.trump.copy(), out.revealer.copy(), out.restorer.copy()
    for stage in ("reveal", "restore"):
        players = hands.shape[1]
        for j in range(players):
            if stage == "reveal":
                seat = ((dealer + 1 + j) % players).astype(np.int8)
                able = may_reveal[np.arange(n), seat] & (revealer < 0)
                suit = long_side[np.arange(n), seat]
            else:  # from the revealer's left, once a suit is revealed
                seat = ((revealer + 1 + j) % players).astype(np.int8)
                able = (revealer >= 0) & (restorer < 0) & may_restore[np.arange(n), seat]
                able &= seat != revealer
                suit = np.full(n, SPADES)
            ask = np.flatnonzero(able)
            if not ask.size:
                continue
            view = reveal_view(hands, seat, suit, dealer, scores, bags, rules, deck, public,
                               ask)
            yes = ask[np.asarray(lineup.decide(view, "reveal", rng, bool), dtype=bool)]
            trump[yes] = suit[yes]
            (revealer if stage == "reveal" else restorer)[yes] = seat[yes]
    return Reveals(trump, revealer, restorer)
