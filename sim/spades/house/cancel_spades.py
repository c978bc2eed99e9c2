"""RULES.md §4.7 ``cancel_spades``, a game of its own: "6 players, three pairs, two decks without
the 2♥s (102 cards, 17 each); 2♦ is the highest spade, then 2♣, then A♠ ...; must follow suit.
Identical cards in a trick cancel each other and cannot win; a trick nobody can win is dead
(discarded, won by nobody). Scoring: nil 50, double nil 200, no blind bonus, a set costs 10 per
missing trick (5 bid, 3 won -> -20), a nil bidder's tricks do not count for the partner and cost
10 each, overtricks 1, no bag penalty; a game is 6 hands. ``players = 8`` option: two full decks,
nil 30, double nil 100."

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the score: `score`, the plug-in's ``own_scoring`` (the hand's whole tally, in place of the
  standard contract, the scoring parts and the bag count, `sim.spades.scoring.score_hands`);
- the table: ``dead_tricks`` (the tricks won by nobody, counted by `sim.spades.tables` from the
  play's winners);
- the refusal: another table than six or eight players, a key of another game (any but `KEYS`
  off its standard value), blind nil, and another game's end than one deal per player
  (`refuse`, asked where the big tables are checked: ``refuse_among = "tables"``).

What is still outside the module, because the card layout and the table are the engine's and
other keys read them: the deck and its order (`sim.spades.decks`: 2♦ > 2♣ > A♠, identical cards
cancelling; the 2♥ out at six players, `SpadesRules.removed_cards`, two decks,
`SpadesRules.copies`), the table of three or four pairs (`SpadesRules.table`), the trick play's
dead tricks (`sim.tricks`, replay's ``dead_tricks``), the refusals of the keys that need another
table or deck (``players = 8`` without it, ``deck``, ``teams``, ``duplicate_wins``, ``kitty``),
its presets ``spades.cancel`` and ``spades.cancel8``, and the seed player's scale for it.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ...errors import UserError
from ...options import option
from ..plugin import HouseRule

__all__ = ["KEYS", "OPTION", "RULE"]

OPTION = option(False, "six players in three pairs (or eight in four) with two decks: 2D > 2C > "
                "AS are the top spades, identical cards in a trick cancel, a trick nobody wins "
                "is dead; own scoring, a game of one deal per player", kind=bool)

# the only keys that may differ from the standard game (and the game's end is fixed: one deal per
# player)
KEYS = frozenset("players cancel_spades blind_nil target_score mercy_score max_hands "
                 "spades_broken lead_ace_of_spades".split())


def score(f, before) -> dict:
    """A side's contract is the sum of its non-nil bids and counts only its non-nil players'
    tricks; made: +10 x bid and 1 per overtrick; set: -10 per missing trick (bid 5, won 3: -20).
    A nil bidder scores +50 with no trick, else -10 per trick; both partners' clean nils score
    200 together. Eight players: nil 30, both 100. No bags, no bag penalty, no blind bonus."""
    over = f.taken - f.bid
    made = over >= 0
    eight = f.rules.players == 8
    clean = f.is_nil & (f.tricks == 0)
    nil = f.side(np.where(clean, 30 if eight else 50, -10 * f.tricks) * f.is_nil)
    both = f.side(clean.astype(np.int32)) == 2
    return {"contract": np.where(made, 10 * f.bid, 10 * over), "bags": np.zeros_like(over),
            "made": made, "bags_taken": np.maximum(over, 0), "overtricks": np.maximum(over, 0),
            "nil": np.where(both, 100 if eight else 200, nil), "bags_after": before}


def refuse(rules) -> UserError | None:
    """Six or eight players, no key of another game, no blind nil, one deal per player."""
    if rules.players not in (6, 8):
        return UserError("cancel_spades is for six or eight players", key="cancel_spades")
    defaults = type(rules)()
    clash = [f.name for f in dataclasses.fields(rules)
             if getattr(rules, f.name) != getattr(defaults, f.name) and f.name not in KEYS]
    if clash:
        return UserError(f"cancel_spades is a game with its own deck, order and scoring "
                         f"(RULES.md §4.7): {clash[0]} does not apply", key=clash[0])
    if rules.blind_nil:
        return UserError("cancel_spades has no blind bids: set blind_nil = false",
                         key="blind_nil")
    if (rules.target_score, rules.mercy_score, rules.max_hands) != (None, None, rules.players):
        return UserError(f"a game of cancel_spades is {rules.players} hands, one deal per "
                         f"player: set max_hands = {rules.players}, target_score = "
                         "\"off\", mercy_score = \"off\" (the preset spades.cancel "
                         "does)", key="max_hands")
    return None


RULE = HouseRule(key="cancel_spades", section="§4.7", in_force=lambda r: r.cancel_spades,
                 own_scoring=score, refuse=refuse, refuse_among="tables",
                 columns={"dead_tricks": (np.int8(0), "tricks won by nobody (every card "
                                             "that could win cancelled by its twin)")})
