"""Declarations and the auction of Norwegian whist (RULES.md §2), for a batch of hands.

Declarations are int8 codes (``-1``: the seat did not speak, an auction ends at its first bid):

    PASS 0, GRAND 1, MISERE 2, NULLO 3

* 2 players: the non-dealer declares grand or misère, the dealer has the opposite.
* 3 players: from the dealer's left each says grand or pass; the first grand plays alone; if
  all pass the dealer must play grand (``forced``).
* 4 players (classic): from the dealer's left each bids grand or nullo or passes; the first bid
  decides; nullo with no declarer if all four pass (``forced``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import UserError
from ..views import DeclareView

__all__ = ["DECLARATIONS", "GRAND", "MISERE", "NULLO", "PASS", "Auction", "IllegalDeclaration",
           "check_declaration", "declare_view", "hold_auction", "leader_of", "offered"]

PASS, GRAND, MISERE, NULLO = 0, 1, 2, 3
DECLARATIONS = ("pass", "grand", "misere", "nullo")  # names by code, as in hand records


class IllegalDeclaration(UserError):
    """A strategy or a record made a declaration the auction does not allow at that turn."""

    def __init__(self, row: int, seat: int, code: int, legal: int):
        self.row = row
        allowed = ", ".join(DECLARATIONS[c] for c in range(4) if int(legal) >> c & 1)
        said = (f"declare {DECLARATIONS[code]!r}" if 0 <= code < len(DECLARATIONS)
                else "stay silent")
        super().__init__(f"seat {seat} may not {said} at its turn; allowed: {allowed}")


def _mask(*codes: int) -> np.uint8:
    return np.uint8(sum(1 << c for c in codes))


def offered(players: int) -> np.uint8:
    """The declarations open at each turn (bit c = code c): two players, grand or misère (the
    non-dealer); three, grand or pass; four, grand, nullo or pass."""
    return {2: _mask(GRAND, MISERE), 3: _mask(PASS, GRAND)}.get(players, _mask(PASS, GRAND, NULLO))


def declare_view(hands: np.ndarray, dealer: np.ndarray, scores: np.ndarray, said: np.ndarray,
                 rules, deck, rows: np.ndarray | None = None) -> DeclareView:
    """What the seat to declare sees, in the rows ``rows`` of the batch (default every row): the
    first seat from the dealer's left that has not spoken (``said`` int8[N, P], -1 = not yet;
    the seats before it passed), its hand, the declarations open to it, and what was said.
    The engine's auction asks each seat through this view; a caller builds it from a position.
    """
    rows = np.arange(hands.shape[0]) if rows is None else rows
    players = hands.shape[1]
    order = (dealer[rows, None] + 1 + np.arange(players)) % players
    spoken = (np.take_along_axis(said[rows], order, axis=1) >= 0).sum(axis=1)
    if (spoken >= players).any():
        raise ValueError("every seat has spoken: the auction is over")
    seat = order[np.arange(rows.size), spoken].astype(np.int8)
    return DeclareView(rows=rows, seat=seat, dealer=dealer[rows], hand=hands[rows, seat],
                       legal=np.full(rows.size, offered(players)), declarations=said[rows],
                       scores=scores[rows], rules=rules, deck=deck)


@dataclass(frozen=True, eq=False)
class Auction:
    """declarations: int8[N, P] by seat (-1: did not speak); declarer: int8[N] the seat that
    chose (2 players: the non-dealer; 3: the grand player; 4: the first bidder, -1 if all
    passed); contract: int8[N] GRAND, MISERE (2 players: the non-dealer's) or NULLO;
    grand_player: int8[N] (-1 under nullo); forced: bool[N] nobody chose (all passed);
    leader: int8[N] who leads the first trick."""

    declarations: np.ndarray
    declarer: np.ndarray
    contract: np.ndarray
    grand_player: np.ndarray
    forced: np.ndarray
    leader: np.ndarray


def check_declaration(choice: np.ndarray, legal, rows: np.ndarray, seat: np.ndarray) -> None:
    """Refuse (`IllegalDeclaration`) a declaration code ``choice`` (int8[n]) of the seats
    ``seat`` (int8[n], at the batch's rows ``rows``) that is not one of ``legal`` (bit c =
    code c)."""
    bad = (choice < 0) | (choice > NULLO) | (
        (int(legal) >> np.clip(choice, 0, NULLO).astype(np.int64)) & 1 == 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise IllegalDeclaration(int(rows[i]), int(seat[i]), int(choice[i]), legal)


def leader_of(contract, declarer, grand_player, dealer, players: int) -> np.ndarray:
    """The first leader: the grand player in the seed game; in the classic game the player left
    of a grand bidder, or right of a nullo bidder (of the dealer if all passed)."""
    if players < 4:
        return grand_player.astype(np.int8)
    bidder = np.where(declarer >= 0, declarer, dealer)
    return np.where(contract == GRAND, (bidder + 1) % 4, (bidder + 3) % 4).astype(np.int8)


def hold_auction(hands: np.ndarray, dealer: np.ndarray, scores: np.ndarray, lineup, rules,
                 rng: np.random.Generator, deck) -> Auction:
    """Ask each seat in turn from the dealer's left (``lineup.decide(view, "declare")``) until
    the auction is decided. hands: uint64[N, P]; dealer: int8[N]; scores: int32[N, sides]."""
    n, players = hands.shape
    rows = np.arange(n)
    said = np.full((n, players), -1, dtype=np.int8)

    legal = offered(players)

    def ask(idx, seat):  # ``seat``: the seat whose turn it is, the first not to have spoken
        view = declare_view(hands, dealer, scores, said, rules, deck, idx)
        choice = lineup.decide(view, "declare", rng, np.int8)
        check_declaration(choice, legal, idx, seat[idx])
        said[idx, seat[idx]] = choice
        return choice

    if players == 2:
        declarer = ((dealer + 1) % 2).astype(np.int8)
        contract = ask(rows, declarer)
        said[rows, dealer] = np.where(contract == GRAND, MISERE, GRAND)
        grand_player = np.where(contract == GRAND, declarer, dealer).astype(np.int8)
        forced = np.zeros(n, dtype=bool)
    else:
        declarer = np.full(n, -1, dtype=np.int8)
        contract = np.full(n, NULLO if players == 4 else GRAND, dtype=np.int8)
        for j in range(1, players + 1):
            seat = ((dealer + j) % players).astype(np.int8)
            open_ = np.flatnonzero(declarer < 0)
            choice = ask(open_, seat)
            bid = choice != PASS
            declarer[open_[bid]] = seat[open_[bid]]
            contract[open_[bid]] = choice[bid]
        forced = declarer < 0
        if players == 3:  # all passed: the dealer must play grand
            declarer = np.where(forced, dealer, declarer).astype(np.int8)
        grand_player = np.where(contract == GRAND, declarer, -1).astype(np.int8)
    leader = leader_of(contract, declarer, grand_player, dealer, players)
    return Auction(declarations=said, declarer=declarer, contract=contract,
                   grand_player=grand_player, forced=forced, leader=leader)
