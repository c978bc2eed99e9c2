"""RULES.md §4.4 ``nil_in_the_dark``, the whole rule: "a nil bidder may play in the dark: the
first legal card of his hand shuffled face down; scored as blind nil (a blind nil in the dark as
Big Mo, 250)".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the decision: after his bid, a nil bidder (not a half) is asked ``in_the_dark`` with his
  `sim.views.BidView`; the answer is the bidding's ``dark`` flags, bool[N, P];
- the play: a dark seat's cards are a face-down pile in a random order; the engine plays for
  him the first legal card of the pile (`sim.tricks.play_tricks`, ``dark``). A replayed record
  gives his cards, so nothing is drawn;
- the score: his nil is worth ``blind_nil_bonus``, a blind nil in the dark `DARK_BLIND_NIL`
  (Big Mo's 250);
- the table: ``dark_<seat>``; the record: ``dark`` (RULES.md §5), read back by replay;
- the refusal: with no nil bid at all (`refuse`).
"""

from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...options import option
from ..plugin import HouseRule

__all__ = ["DARK_BLIND_NIL", "OPTION", "RULE"]

OPTION = option(False, "a nil bidder may play in the dark: the first legal card of his hand "
                "shuffled face down; scored as blind nil (a blind nil in the dark as Big Mo, 250)",
                kind=bool)
DARK_BLIND_NIL = 250  # "scored as Big Mo (mo_b)"


def ask(turn, rules, deck, lineup, rng) -> None:
    """After his bid: a nil bidder (not 0 and a half) may play his hand face down."""
    rows, seat = turn.rows, turn.seat
    ask = np.flatnonzero((turn.bids[rows, seat] == 0) & ~turn.half[rows, seat])
    if ask.size:
        turn.flags["dark"][ask, seat[ask]] = np.asarray(
            lineup.decide(turn.bid_view().take(ask), "in_the_dark", rng, bool), dtype=bool)


def play(bidding, replay: bool) -> dict:
    """The dark seats the engine plays for (a replayed record gives their cards)."""
    return {} if replay else {"dark": bidding.flags["dark"]}


def nil_bonus(facts, bonus: np.ndarray) -> np.ndarray:
    """A nil in the dark scores as blind nil, a blind nil in the dark as Big Mo."""
    rules = facts.rules
    return np.where(facts.flags["dark"], np.where(facts.blind, DARK_BLIND_NIL, rules.blind_nil_bonus),
                    bonus)


def refuse(rules) -> UserError | None:
    """Nobody bids nil (``nil = false``, ``partnership_bidding``, ``auction``): no effect."""
    if rules.nilless is not None:
        return UserError(f"nil_in_the_dark has no effect with {rules.nilless}: nobody bids nil",
                         key="nil_in_the_dark")
    return None


RULE = HouseRule(key="nil_in_the_dark", section="§4.4", in_force=lambda r: r.nil_in_the_dark,
                 turn={"in_the_dark": ask}, declares=("dark",),
                 decisions={"in_the_dark": "dark"}, play=play,
                 nil_bonus=nil_bonus, refuse=refuse,
                 columns={"dark_<seat>": (np.bool_(False), "the seat's nil is played in the "
                                          "dark")})
