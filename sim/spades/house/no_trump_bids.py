"""RULES.md §4.4 ``no_trump_bids``, the whole rule: "a player holding a spade may bid n no trump:
he may not trump (void in a led suit he discards a non-spade if he holds one); his bid tricks
score 20 each if his side's contract is made, -20 if it is set".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the decision: after his bid, a player with an ordinary bid of at least 1 (not blind) who holds
  a spade is asked ``no_trump`` with his `sim.views.BidView`; the answer is the bidding's
  ``no_trump`` flags, bool[N, P];
- the play: a no-trump seat may not trump while he holds another card (`sim.tricks.play_tricks`,
  ``no_trump``); the views of the play show every seat's flag (``PlayView.no_trump``);
- the score: `score` doubles each no-trump bid trick of the contract, made or set (the scoring
  slot ``no_trump`` of `sim.spades.scoring.PARTS`);
- the table: ``no_trump_<seat>``; the record: ``no_trump`` (RULES.md §5), read back by replay;
- the refusal: with ``seven_trump_reveal``, which may make another suit trump (`refuse`).
"""

from __future__ import annotations

import numpy as np

from ...cards import SPADES
from ...errors import UserError
from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "a player holding a spade may bid no trump: he may not trump; made +20, "
                "set -20 per bid trick", kind=bool)


def ask(turn, rules, deck, lineup, rng) -> None:
    """After his bid: a player with a bid of n >= 1 (not blind) holding a spade may make it no
    trump."""
    rows, seat = turn.rows, turn.seat
    holds = (turn.hand & deck.suit_masks[SPADES]) != 0
    ask = np.flatnonzero((turn.bids[rows, seat] >= 1) & ~turn.blind[rows, seat] & holds)
    if ask.size:
        turn.flags["no_trump"][ask, seat[ask]] = np.asarray(
            lineup.decide(turn.bid_view().take(ask), "no_trump", rng, bool), dtype=bool)


def play(bidding, replay: bool) -> dict:
    """The seats that may not trump (a replayed record's play is checked against it too)."""
    return {"no_trump": bidding.flags["no_trump"]}


def shows(bidding) -> dict:
    """What the play's views show: every seat's no-trump flag (public, as its bid)."""
    return {"no_trump": bidding.flags["no_trump"]}


def score(tally, facts) -> None:
    """Each no-trump bid trick scores 20, made or set: 10 more on top of the contract's 10."""
    nt = facts.side(facts.bids * facts.flags["no_trump"])
    tally.contract = tally.contract + 10 * nt * np.sign(tally.contract)


def refuse(rules) -> UserError | None:
    """``seven_trump_reveal`` may make another suit trump; the rule is about spades."""
    if rules.seven_trump_reveal:
        return UserError("no_trump_bids is about spades, which a revealed suit may replace: "
                         "choose one", key="seven_trump_reveal")
    return None


RULE = HouseRule(key="no_trump_bids", section="§4.4", in_force=lambda r: r.no_trump_bids,
                 turn={"no_trump_bid": ask}, declares=("no_trump",),
                 decisions={"no_trump": "no_trump"}, play=play, shows=shows,
                 score={"no_trump": score}, refuse=refuse,
                 columns={"no_trump_<seat>": (np.bool_(False), "the seat's bid is no trump")})
