"""Norwegian whist hand records (RULES.md §5): writing them and replaying them, whole or up to a
decision (`position_at`, issue 20 item 1).

A record adds ``"declarations"`` by seat: ``"grand"`` or ``"misere"`` (2 players: the non-dealer's
choice and the dealer's opposite), ``"grand"`` or ``"pass"`` (3 players), ``"grand"``, ``"nullo"``
or ``"pass"`` (the classic game); ``null`` for a seat that did not speak because an earlier seat
won the auction (any entry of such a seat is ignored, as at the table). ``before.scores`` has one
score per player (per partnership in the classic game). Score-sheet mode gives ``"tricks"`` per
seat instead of ``hands`` and ``plays``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..decisions import Position, play_position
from ..errors import UserError
from ..lineup import Lineup
from ..records import by_mode, hand_records, parse_records
from ..scripted import Scripted, output_record
from ..tricks import IllegalPlay
from .auction import (
    DECLARATIONS,
    GRAND,
    MISERE,
    IllegalDeclaration,
    check_declaration,
    declare_view,
    hold_auction,
    offered,
)
from .hand import PHASES, Seating, deck_for, play_hand, play_hands, play_setup, start_hand
from .scoring import COMPONENTS, score

__all__ = ["block_records", "position_at", "replay_group"]


class _Declarations:
    """Parses each record's declarations into codes (-1 for null)."""

    def __init__(self, n: int, rules):
        self.rules = rules
        self.codes = np.full((n, rules.players), -1, np.int8)

    def __call__(self, i, rec, err):
        said, players = rec.get("declarations"), self.rules.players
        names = " | ".join(f'"{d}"' for d in _allowed(players))
        if not isinstance(said, list) or len(said) != players or any(
                d is not None and d not in _allowed(players) for d in said):
            raise err(f"'declarations' must be a list of {players}, one per seat: {names} (or "
                      "null for a seat that did not speak)")
        self.codes[i] = [-1 if d is None else DECLARATIONS.index(d) for d in said]
        if players == 2:  # the dealer automatically has the opposite declaration
            dealer = rec["dealer"] if rec.get("dealer") in (0, 1) else 0
            mine, theirs = self.codes[i, 1 - dealer], self.codes[i, dealer]
            if mine < 0 or theirs != GRAND + MISERE - mine:
                raise err("'declarations': the non-dealer declares grand or misere and the "
                          "dealer has the opposite")


def _allowed(players: int) -> tuple[str, ...]:
    """The declarations a record may give at a table of ``players`` (RULES.md §2)."""
    return {2: ("grand", "misere"), 3: ("grand", "pass")}.get(players, ("grand", "nullo", "pass"))


def _auction(recs, extra, rules, deck):
    """The records' auctions, replayed through the engine's (which checks every turn)."""
    n = extra.codes.shape[0]
    hands = recs.hands if recs.hands is not None else np.zeros((n, rules.players), np.uint64)
    lineup = Lineup([Scripted(None, declarations=extra.codes)] * rules.players)
    return hold_auction(hands, recs.dealer, recs.scores, lineup, rules,
                        np.random.default_rng(0), deck)


def replay_group(members, rules, source):
    """Score records ``(position, line, record)`` that share ``rules``; yields (position,
    output record)."""
    deck = deck_for(rules)
    players, each = rules.players, rules.cards_each
    for sheet, part in by_mode(members):
        extra = _Declarations(len(part), rules)
        recs = parse_records([(m[1], m[2]) for m in part], deck, players, each, source, extra,
                             sides=rules.sides)
        lines = [m[1] for m in part]
        winners = None
        try:
            if sheet:
                auction = _auction(recs, extra, rules, deck)
                tricks = recs.tricks
                points = score(auction, tricks, rules)
            else:
                lineup = Lineup([Scripted(recs.plays, declarations=extra.codes)] * players)
                outcome = play_hands(recs.hands, recs.dealer, recs.scores, lineup, rules,
                                     np.random.default_rng(0), deck)
                auction, tricks, points = outcome.auction, outcome.play.tricks, outcome.score
                winners = outcome.play.winners
        except (IllegalPlay, IllegalDeclaration) as err:
            err.source, err.line = source, lines[err.row]
            raise
        total = points.points
        for i, (pos, line, rec) in enumerate(part):
            out = output_record(
                rec, line, source, tricks[i], None if winners is None else winners[i], total[i],
                {c: getattr(points, c)[i] for c in COMPONENTS},
                {"scores": (recs.scores[i] + total[i]).tolist()})
            out.update(contract=DECLARATIONS[auction.contract[i]],
                       declarer=_seat(auction.declarer[i]),
                       grand_player=_seat(auction.grand_player[i]),
                       leader=int(auction.leader[i]), doubled=bool(points.doubled[i]))
            yield pos, out


def _seat(value) -> int | None:
    return None if value < 0 else int(value)


def block_records(result, cell, game_offset: int,
                  limit: int | None = None) -> list[dict[str, Any]]:
    """Norwegian hand records of a block: the shared keys plus the declarations (``limit``:
    its first hands only, `sim.records.hand_records`)."""
    deck = deck_for(cell.rules)

    def norwegian(o, i, row):
        said = o.auction.declarations[i]
        return {"declarations": [DECLARATIONS[d] if d >= 0 else None for d in said]}

    return hand_records(result, cell, game_offset, deck, norwegian, limit)


def position_at(rec: dict, rules, source: str, line: int | None = None) -> Position:
    """The decision a Norwegian record stops at (RULES.md §2, §5): the seat to declare while the
    auction is open (``declarations`` missing, or null for the seats yet to speak, in turn from
    the dealer's left: with 2 players the non-dealer, whose declaration alone may be given, the
    dealer's being its opposite; with 3 or 4 every seat before passed), else the seat to play
    after the record's ``plays``. Declarations are checked by the engine's auction, cards by
    its play."""
    players, deck = rules.players, deck_for(rules)
    recs = parse_records([(line, rec)], deck, players, rules.cards_each, source,
                         sides=rules.sides, partial=True)
    dealer = int(recs.dealer[0])
    said = rec.get("declarations", [None] * players)
    allowed = _allowed(players)

    def err(message):
        return UserError(message, source=source, line=line)

    if (not isinstance(said, list) or len(said) != players
            or any(d is not None and d not in allowed for d in said)):
        raise err(f"'declarations' must be a list of {players}, one per seat: "
                  f"{' | '.join(allowed)} (or null: not yet, or never)")
    order = [(dealer + 1 + j) % players for j in range(players)]
    spoken = [said[s] for s in order]
    if players == 2:  # the non-dealer declares, the dealer has the opposite
        if spoken[0] is None and spoken[1] is not None:
            raise err("'declarations': the dealer's follows the non-dealer's")
        if spoken[0] is not None and spoken[1] is None:
            said = list(said)
            said[dealer] = DECLARATIONS[GRAND + MISERE - DECLARATIONS.index(spoken[0])]
        turn = 0 if spoken[0] is None else None
    else:  # in turn from the dealer's left until the first bid (or all passed)
        given = [d for d in spoken if d is not None]
        if spoken[:len(given)] != given:
            raise err(f"'declarations': the seats speak in turn from the dealer's left ({order})"
                      "; null only after the last to speak")
        bid = next((j for j, d in enumerate(given) if d != "pass"), None)
        if bid is not None and bid + 1 < len(given):
            raise err("'declarations': nobody speaks after the first bid (RULES.md §2)")
        turn = len(given) if bid is None and len(given) < players else None
    if turn is not None:  # the auction is open: the seat to declare
        if rec.get("plays"):
            raise err("'plays' before the auction is over")
        codes = np.array([[-1 if d is None else DECLARATIONS.index(d) for d in said]], np.int8)
        view = declare_view(recs.hands, recs.dealer, recs.scores, codes, rules, deck)

        def check(code):
            check_declaration(code, offered(players), np.zeros(1, np.intp), view.seat)

        return Position("declare", int(view.seat[0]), view, check, names=DECLARATIONS)
    extra = _Declarations(1, rules)
    recs = parse_records([(line, {**rec, "declarations": said})], deck, players,
                         rules.cards_each, source, extra, sides=rules.sides, partial=True)
    at = Seating(rules, deck, Lineup([Scripted(None, declarations=extra.codes)] * players),
                 np.random.default_rng(0), replay=True)
    try:
        hand = play_hand(start_hand(recs.hands, recs.dealer, recs.scores), at,
                         tuple(p for p in PHASES if p.name == "declare"))
        return play_position(play_setup(hand, at), recs.plays[:, :int(recs.played[0])])
    except UserError as error:  # IllegalDeclaration and IllegalPlay among them
        error.source, error.line = error.source or source, error.line or line
        raise
