"""Portland whist hand records (RULES.md §5): writing them and replaying them, whole or up to a
card (`position_at`, issue 20 item 1).

A record adds ``"turn_up": "QH"`` (the dealer's turned-up last card; ``null`` or omitted under no
trump). Score-sheet mode gives ``"tricks"`` per seat and, when honours count, ``"honours"``: how
many of A K Q J of trump each side held (the hands that would tell are not there).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import phases
from ..decisions import Position, play_position
from ..errors import UserError
from ..limits import SCORE_LIMIT
from ..lineup import Lineup
from ..records import by_mode, card_slots, hand_records, ints, parse_records
from ..scripted import Scripted, output_record
from ..tricks import IllegalPlay
from .hand import PHASES, Seating, deck_for, play_hand, play_hands, play_setup, start_hand
from .scoring import COMPONENTS, score_hands

__all__ = ["block_records", "position_at", "replay_group"]


class _TurnUp:
    """Parses each record's turned-up card (full records) or honours held (score sheets)."""

    def __init__(self, n: int, rules, deck):
        self.rules, self.deck = rules, deck
        self.turn_up = np.full(n, -1, np.int8)
        self.honours = np.zeros((n, 2), np.int8)

    def __call__(self, i, rec, err):
        card = rec.get("turn_up")
        if card is not None:
            self.turn_up[i] = card_slots([card], self.deck, "turn_up", err)[0]
        sheet = "plays" not in rec and "tricks" in rec
        if sheet and self.rules.honours:
            if "honours" not in rec:
                raise err("score-sheet mode with honours needs 'honours': the honours each side "
                          "held")
            self.honours[i] = ints(rec, "honours", 2, 0, 4, err)
            if int(self.honours[i].sum()) > 4:
                raise err("'honours' of both sides total more than the 4 honours")
        elif not sheet and self.rules.trump == "turn_up":
            if card is None:
                raise err("'turn_up' is needed: the dealer's turned-up card names the trump suit")
            hands = rec.get("hands")
            dealer = rec.get("dealer")
            if (isinstance(hands, list) and isinstance(dealer, int) and 0 <= dealer < 4
                    and len(hands) == 4 and card not in hands[dealer]):
                raise err(f"'turn_up' {card} is not in the dealer's hand (seat {dealer})")


def replay_group(members, rules, source):
    """Score records ``(position, line, record)`` that share ``rules``; yields (position,
    output record)."""
    deck = deck_for(rules)
    for sheet, part in by_mode(members):
        extra = _TurnUp(len(part), rules, deck)
        recs = parse_records([(m[1], m[2]) for m in part], deck, 4, 13, source, extra,
                             score_range=(0, SCORE_LIMIT))  # no hand scores below 0 (§1)
        lines = [m[1] for m in part]
        winners = None
        if sheet:
            tricks, honours = recs.tricks, extra.honours
            score = score_hands(tricks, honours, recs.scores, rules)
        else:
            turn_up = np.maximum(extra.turn_up, 0)  # no trump: any slot, the trump is none
            try:
                outcome = play_hands(recs.hands, recs.dealer, turn_up, recs.scores,
                                     Lineup([Scripted(recs.plays)] * 4), rules,
                                     np.random.default_rng(0), deck)
            except IllegalPlay as err:
                err.source, err.line = source, lines[err.row]
                raise
            tricks, honours, score = outcome.play.tricks, outcome.honours, outcome.score
            winners = outcome.play.winners
        points = score.points
        for i, (pos, line, rec) in enumerate(part):
            yield pos, output_record(
                rec, line, source, tricks[i], None if winners is None else winners[i], points[i],
                {c: getattr(score, c)[i] for c in COMPONENTS},
                {"scores": (recs.scores[i] + points[i]).tolist()}, honours=honours[i])


def block_records(result, cell, game_offset: int,
                  limit: int | None = None) -> list[dict[str, Any]]:
    """Portland hand records of a block: the shared keys plus the turned-up card (``limit``:
    its first hands only, `sim.records.hand_records`)."""
    deck = deck_for(cell.rules)

    def portland(o, i, row):
        turned = deck.names[int(result.turn_up[row])] if o.trump[i] >= 0 else None
        return {"turn_up": turned}

    return hand_records(result, cell, game_offset, deck, portland, limit)


def position_at(rec: dict, rules, source: str, line: int | None = None) -> Position:
    """The card a Portland record stops at (RULES.md §1, §5): the seat to play after the
    record's ``plays`` (the cards so far, each checked), and its view there (the trump from
    ``turn_up``; under dummy whist the dummy's cards are played by its partner from the
    dummy's view, seat 3)."""
    deck = deck_for(rules)
    extra = _TurnUp(1, rules, deck)
    recs = parse_records([(line, rec)], deck, 4, 13, source, extra,
                         score_range=(0, SCORE_LIMIT), partial=True)
    hand = start_hand(recs.hands, recs.dealer, np.maximum(extra.turn_up, 0), recs.scores)
    at = Seating(rules, deck, Lineup([Scripted(recs.plays)] * 4), np.random.default_rng(0),
                 replay=True)
    steps = phases.pipeline(PHASES, rules, True)
    hand = play_hand(hand, at, steps[:[p.name for p in steps].index("play")])  # the trump
    try:
        return play_position(play_setup(hand, at), recs.plays[:, :int(recs.played[0])])
    except UserError as error:  # IllegalPlay among them
        error.source, error.line = error.source or source, error.line or line
        raise
