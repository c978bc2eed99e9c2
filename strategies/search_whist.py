"""``search`` at Portland and Norwegian whist (issue 21 item 1): the card search of
`strategies.card_search` with each game's parts. Every key of RULES.md §1 and §2 is played.

**Portland** (RULES.md §1). The deals a seat cannot see hold what it knows of the others: the
turned-up card is the dealer's until he plays it (`known_portland`), and under ``dummy`` the
dummy's cards lie face up (and, playing the dummy, its partner's own: the view's ``visible``).
Nothing is said before the play, so the deals are uniform among those consistent with the
cards played and the voids shown. A sampled deal's hand state runs the game's own trump phase
(the trump suit from the turned-up card, the honours each side was dealt), its play is the
game's, and the score is the game's (tricks over the book; honours as the rules count them).
The value: the seat's side's points minus the other side's.

**Norwegian** (RULES.md §2). The cards dealt to nobody (26 with two players, one with three)
are unseen too and go to nobody in the sample (`strategies.card_search.deal_view`). The
declarations are public and tell about the hands: ``pool`` times as many deals are drawn as
kept, each weighted by ``exp(-declare_weight x misfit)``, the misfit the number of the other
seats whose declaration the ``rollout`` strategy would not have made with the deal's hand at
its turn (`declare_misfit`, the engine's own `sim.norwegian.auction.declare_view`), and
``samples`` of them drawn by weight, as Spades weighs by the bids. The value: the seat's points
minus the mean of the others' (two players: the other's; the classic four-player game: its
partnership's minus the other's). **Declarations** (``search_declarations``): each declaration
open to the seat is valued the same way — deals of the other hands (the cards set aside left
out), weighted by the fit of the declarations made before, the later turns declared by the
rollout strategy (`_Declared`), the hand played out by it and scored — and chosen by the same
paired rule against the rollout strategy's own declaration.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from sim.cards import bit_index
from sim.lineup import Lineup
from sim.norwegian import hand as norwegian
from sim.norwegian.auction import PASS, Auction, declare_view
from sim.phases import Seating, play_hand
from sim.portland import hand as portland
from sim.streams import rows_of
from sim.views import DeclareView

from .base import param, register
from .card_search import CardSearch, after, deal_unseen, deal_view, side_margin

__all__ = ["NorwegianSearch", "PortlandSearch", "declare_misfit", "known_portland",
           "norwegian_dealer"]


def _first_leader(view) -> np.ndarray:
    """int8[n]: who led the hand's first trick."""
    return view.history_seats[:, 0] if view.trick_no else view.leader


@register
@dataclasses.dataclass(frozen=True, kw_only=True)
class PortlandSearch(CardSearch):
    """``search`` at Portland whist (module docstring)."""

    games = ("portland",)

    def _hand_state(self, view, dealt: np.ndarray, rows: np.ndarray, at: Seating):
        """The hand of the deal as dealt, the dealer the seat before the first leader (RULES.md
        §1: elder hand leads), the turned-up card the view's, and the trump phase run."""
        dealer = ((_first_leader(view).astype(np.int16) - 1) % 4).astype(np.int8)
        hand = portland.start_hand(dealt, dealer[rows], bit_index(view.turn_up)[rows],
                                   view.scores[rows])
        return play_hand(hand, at, portland.PHASES[:1])  # the trump phase

    def _play_setup(self, hand, at: Seating):
        return portland.play_setup(hand, at)

    def _scoring(self, rules) -> tuple:
        return after(portland.PHASES, "play")

    def _value(self, hand, seat, rules) -> np.ndarray:
        return side_margin(hand.score.points, seat, 2)

    def _deal(self, view, k: int, keys: np.ndarray) -> np.ndarray:
        return deal_view(view, k, keys, known=known_portland(view))


def known_portland(view) -> np.ndarray:
    """uint64[n, 4]: the cards of the other seats a Portland seat sees (RULES.md §1): the
    turned-up card in the dealer's hand until played, and under ``dummy`` the cards the view
    shows face up (``visible``): the dummy's (seat 3), or, when its partner plays the dummy's
    card (the view's seat is the dummy's), the partner's own (seat 1)."""
    n = len(view)
    rows = np.arange(n)
    known = np.zeros((n, 4), np.uint64)
    dealer = (_first_leader(view).astype(np.intp) - 1) % 4
    known[rows, dealer] |= view.turn_up & view.unseen
    if view.visible is not None:
        owner = np.where(view.seat == portland.DUMMY, portland.DUMMY ^ 2, portland.DUMMY)
        known[rows, owner] |= view.visible
    return known


@register
@dataclasses.dataclass(frozen=True, kw_only=True)
class NorwegianSearch(CardSearch):
    """``search`` at Norwegian whist (module docstring)."""

    games = ("norwegian",)

    pool: int = param(4, (1, 64))  # deals drawn per sample kept (resampled by the declarations)
    declare_weight: float = param(1.0, (0.0, 100.0))  # a deal's weight: exp(-declare_weight x
    #                                   the other seats whose declaration its hand does not fit)
    search_declarations: bool = True  # declarations by rollouts too (else the rollout's)

    def declare(self, view, rng):
        """The rollout strategy's declaration, or with ``search_declarations`` the one of best
        value among those open (module docstring), each followed by the rollout strategy's at
        the later turns and the hand played out by it; chosen by the paired rule against the
        rollout strategy's own (`CardSearch._best`)."""
        own = np.asarray(self.policy.declare(view, rng), dtype=np.int8)
        if not self.search_declarations or not len(view):
            return own
        return self._chunked(view, rng, own, self._choose_declaration)

    def _choose_declaration(self, view, rng, keys, own) -> np.ndarray:
        n, players = view.declarations.shape
        open_ = ((view.legal[:, None].astype(np.int64) >> np.arange(4)) & 1) == 1  # by code
        deals = self._deals(view, keys, rng, deal_unseen(view, players, self._drawn, keys))
        i, s, c = np.nonzero(np.ones((n, self.samples), bool)[:, :, None] & open_[:, None, :])
        values = np.full((n, self.samples, 4), np.nan)
        values[i, s, c] = self._declare_rollouts(view, deals[i, s], i, c, rng)
        return self._best(values, np.full(n, self.samples), open_, own.astype(np.intp)
                          ).astype(np.int8)

    def _declare_rollouts(self, view, hands, i, code, rng) -> np.ndarray:
        """float64[len(i)]: the value of declaring ``code`` at row ``i`` of a `DeclareView`
        with the deal ``hands`` (uint64[N, P]): the declarations made before kept, the later
        turns the rollout strategy's, the hand played out by it and scored by the game's own
        phases (`sim.norwegian.hand`)."""
        rules, deck = view.rules, view.deck
        players = hands.shape[1]
        declared = _Declared(self.policy, view.seat[i], code, view.declarations[i])
        at = Seating(rules, deck, Lineup([declared] * players), rows_of(rng, i))
        hand = norwegian.play_hand(norwegian.start_hand(hands, view.dealer[i], view.scores[i]),
                                   at)
        return side_margin(hand.score.points, view.seat[i], rules.sides)

    @property
    def _drawn(self) -> int:
        return self.samples * (self.pool if self.declare_weight > 0 else 1)

    @property
    def _weight(self) -> float:
        return self.declare_weight

    def _hand_state(self, view, dealt: np.ndarray, rows: np.ndarray, at: Seating):
        """The hand of the deal as dealt, declared as the view shows (the auction's outcome,
        `sim.norwegian.auction.Auction`), the dealer as `norwegian_dealer` finds him."""
        declarations = view.declarations[rows]
        auction = Auction(declarations=declarations, declarer=view.declarer[rows],
                          contract=view.contract[rows], grand_player=view.grand_player[rows],
                          forced=np.all(declarations == PASS, axis=1),
                          leader=_first_leader(view)[rows])
        hand = norwegian.start_hand(dealt, norwegian_dealer(view)[rows], view.scores[rows])
        return dataclasses.replace(hand, auction=auction)

    def _play_setup(self, hand, at: Seating):
        return norwegian.play_setup(hand, at)

    def _scoring(self, rules) -> tuple:
        return after(norwegian.PHASES, "play")

    def _value(self, hand, seat, rules) -> np.ndarray:
        return side_margin(hand.score.points, seat, rules.sides)

    def _misfit(self, view, deals: np.ndarray, rng) -> np.ndarray:
        return declare_misfit(view, deals, self.policy, rng)


class _Declared:
    """The rollout strategy, but at the declarations: what was said (``said`` int8[N, P], -1:
    not yet) is said again, and ``seat`` (int8[N], by the batch's rows) declares ``code``
    (int[N]) at its turn."""

    def __init__(self, policy, seat, code, said):
        self.policy, self.seat, self.code, self.said = policy, seat, code, said

    def declare(self, view, rng):
        out = np.asarray(self.policy.declare(view, rng), np.int8)
        said = self.said[view.rows, view.seat]
        out = np.where(said >= 0, said, out)
        mine = view.seat == self.seat[view.rows]
        out[mine] = self.code[view.rows[mine]]
        return out

    def play(self, view, rng):
        return self.policy.play(view, rng)


def norwegian_dealer(view) -> np.ndarray:
    """int8[n]: the dealer of a Norwegian hand, from what a `PlayView` shows (RULES.md §2,
    `sim.norwegian.auction.hold_auction`): with two players the seat that did not declare;
    else the auction ran from the dealer's left until the first bid, so the declarer sat one
    seat after the dealer and the passes before him; all passed: with three players the dealer
    was made to play grand (he is the declarer), with four the right of the dealer leads."""
    players = view.declarations.shape[1]
    declarer = view.declarer.astype(np.int64)
    if players == 2:
        return ((declarer + 1) % 2).astype(np.int8)
    passes = (view.declarations == PASS).sum(axis=1)
    dealer = (declarer - 1 - passes) % players
    if players == 3:
        dealer = np.where(passes == players, declarer, dealer)
    else:
        dealer = np.where(declarer < 0, (_first_leader(view).astype(np.int64) + 1) % 4, dealer)
    return dealer.astype(np.int8)


def declare_misfit(view, deals: np.ndarray, policy, rng) -> np.ndarray:
    """int[n, M]: (``view``: a `PlayView`, or a `DeclareView` at a later turn) of the other
    seats that declared (two players: the non-dealer alone; three
    and four: each seat from the dealer's left to the first bid), how many would not have made
    their declaration with their hand of each deal (uint64[n, M, P], as dealt) had ``policy``
    decided, asked at its turn as the engine asks (`declare_view`: the declarations before it,
    the scores before the hand)."""
    n, m, players = deals.shape
    flat = deals.reshape(n * m, players)
    rep = np.repeat(np.arange(n), m)
    dealer = view.dealer if isinstance(view, DeclareView) else norwegian_dealer(view)
    misfit = np.zeros(n * m, dtype=np.int64)
    rows = np.arange(n)
    for turn in range(1 if players == 2 else players):
        seat = (dealer.astype(np.intp) + 1 + turn) % players
        said = view.declarations[rows, seat]
        ask = np.flatnonzero((seat != view.seat) & (said >= 0))
        if not ask.size:
            continue
        before = np.full((ask.size, players), -1, np.int8)
        for j in range(turn):  # the declarations of the turns before
            s = (dealer[ask].astype(np.intp) + 1 + j) % players
            before[np.arange(ask.size), s] = view.declarations[ask, s]
        sel = (ask[:, None] * m + np.arange(m)).reshape(-1)
        dview = declare_view(flat[sel], dealer[rep[sel]], view.scores[rep[sel]],
                             np.repeat(before, m, axis=0), view.rules, view.deck)
        choice = np.asarray(policy.declare(dview, rows_of(rng, rep[sel])), np.int64)
        misfit[sel] += choice != said[rep[sel]]
    return misfit.reshape(n, m)
