"""whistlab's Spades players inside OpenSpiel (issue 20 item 2): `openspiel_bot` makes a
``pyspiel.Bot`` that plays OpenSpiel's ``spades`` game for one seat with any whistlab Spades
strategy, so that bot authors can pit whistlab's players against their own (``pyspiel.
evaluate_bots``, OpenSpiel's search algorithms).

Needs OpenSpiel: ``pip install 'whistlab[openspiel]'``. The issue named it ``sim.bots``; it lives
in the application because it resolves strategy names (`whistlab.decisions.player`), which the
engine does not know (the layers of pyproject.toml: the engine imports no strategy).

How OpenSpiel's ``spades`` maps to whistlab (RULES.md §3 ``spades.openspiel``; checked hand by
hand in tests/test_openspiel.py and tests/fixtures/make_openspiel_fixture.py): OpenSpiel's player
``p`` is whistlab's seat ``p`` at a table whose dealer is seat 3 (player 0 gets the first card,
bids first and leads); the i-th chance outcome deals card ``i`` to player ``i % 4``; actions 0..51
are cards, ``13 * suit + rank`` with suits C, D, H, S and ranks 2..A; actions 52..65 are bids
0..13 (52: nil). The running scores OpenSpiel keeps (``get_current_scores``, 0-0 unless set) are
the scores before the hand the strategy sees, and their units digits the bags (OpenSpiel's own
reading; a negative score's, which OpenSpiel reads as negative, is shown as 0).
"""

from __future__ import annotations

import numpy as np

from sim.cards import RANKS
from sim.decisions import ask, play_on
from sim.errors import UserError
from sim.options import load_rules
from sim.replay import view_at

from .decisions import player as resolve_player

try:
    import pyspiel
except ImportError as missing:  # an optional extra
    raise ImportError("whistlab.bots needs OpenSpiel: pip install 'whistlab[openspiel]'"
                      ) from missing

__all__ = ["WhistlabBot", "openspiel_bot", "openspiel_record"]

SUITS = "CDHS"  # OpenSpiel's suit order: card action = 13 * suit + rank
BID_BASE = 52  # OpenSpiel's bid actions: 52 + bid (52 = nil)
DEALER = 3  # OpenSpiel has no dealer: player 0 gets the first card, bids first and leads
DEAL = 52  # the chance outcomes that deal the cards, one to each player in turn


def card_name(action: int) -> str:
    """OpenSpiel's card action -> whistlab's card name (``"AS"``)."""
    return RANKS[action % 13] + SUITS[action // 13]


def card_action(name: str) -> int:
    """whistlab's card name -> OpenSpiel's card action."""
    return 13 * SUITS.index(name[1]) + RANKS.index(name[0])


def openspiel_record(state) -> dict:
    """The hand record (RULES.md §5) of an OpenSpiel ``spades`` state after the deal, up to its
    next decision: every seat's cards, the bids so far (null: yet to bid) and the cards played,
    under ``spades.openspiel``, the dealer seat 3."""
    history = state.history()
    if len(history) < DEAL:
        raise UserError("the cards are not all dealt yet: no player decides before the deal",
                        source="OpenSpiel state")
    hands = [[card_name(a) for a in history[p:DEAL:4]] for p in range(4)]
    bids = [a - BID_BASE for a in history[DEAL:DEAL + 4]]
    scores = [int(s) for s in state.get_current_scores()]
    return {"game": "spades", "rules": "spades.openspiel", "dealer": DEALER, "hands": hands,
            "bids": bids + [None] * (4 - len(bids)), "blind": [False] * 4,
            "plays": [card_name(a) for a in history[DEAL + 4:]],
            "before": {"scores": scores, "bags": [s % 10 if s >= 0 else 0 for s in scores]}}


class WhistlabBot(pyspiel.Bot):
    """A whistlab Spades strategy playing OpenSpiel's ``spades`` for one player (`openspiel_bot`
    makes it). At each of its decisions it reads the state's history, rebuilds the whistlab
    position from it (`sim.replay.view_at`: the engine's own replay, which checks every bid and
    card) and asks the strategy (`sim.decisions.ask`) from the view the engine would show it:
    its own cards and what is public, nothing of the other hands. It can be asked at any state
    (``restart_at`` and ``inform_action`` need do nothing): it keeps only its last position of
    the play, and goes on from it (`sim.decisions.play_on`) when the state's history extends
    the one it was built from."""

    def __init__(self, strategy, player: int, rng: np.random.Generator):
        pyspiel.Bot.__init__(self)
        self.strategy, self.player, self.rng = strategy, player, rng
        self.rules = load_rules("spades.openspiel", source="whistlab.bots")
        self.last = None  # (the history, its position, the running scores) of the last card

    def restart(self):
        pass

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def inform_actions(self, state, actions):
        pass

    def step(self, state) -> int:
        """The strategy's action at ``state`` (its player's turn): a bid (52 + bid) or a card."""
        if state.get_game().get_type().short_name != "spades":
            raise UserError("a whistlab bot plays OpenSpiel's 'spades' game only",
                            source="OpenSpiel state")
        if state.current_player() != self.player:
            raise UserError(f"it is player {state.current_player()}'s turn, not player "
                            f"{self.player}'s (this bot's)", source="OpenSpiel state")
        position = self.position(state)
        decision = ask(position, self.strategy, self.rng)
        action = (BID_BASE + decision.answer if decision.kind == "bid"
                  else card_action(decision.answer))
        if action not in state.legal_actions():  # the two engines' rules disagree
            raise UserError(f"{decision.kind} {decision.answer} (action {action}) is legal in "
                            "whistlab's spades.openspiel but not in OpenSpiel's state",
                            source="OpenSpiel state")
        return action


    def position(self, state):
        """The whistlab position of ``state`` for this bot's player: from the last position of
        the play if the history goes on from it (the same deal, bids and cards), else rebuilt
        from the whole history."""
        history = tuple(state.history())
        if self.last is not None and history[:len(self.last[0])] == self.last[0] and (
                state.get_current_scores() == self.last[2]):
            since, position = history[len(self.last[0]):], self.last[1]
            deck = position.view.deck
            cards = np.array([[deck.bit_of(card_name(a)) for a in since]], np.int8)
            position = play_on(position, cards)
        else:
            position = view_at(openspiel_record(state), self.rules, source="OpenSpiel state")
        if position.seat != self.player:  # the two engines' rules disagree
            raise UserError(f"OpenSpiel's player {self.player} is to move, whistlab's position "
                            f"has seat {position.seat} to {position.kind}",
                            source="OpenSpiel state")
        self.last = ((history, position, state.get_current_scores())
                     if position.kind == "play" else None)
        return position


def openspiel_bot(strategy, player: int, *, seed: int | np.random.Generator = 0
                  ) -> WhistlabBot:
    """A ``pyspiel.Bot`` playing OpenSpiel's ``spades`` for ``player`` (0..3) with a whistlab
    Spades strategy: a name (``"expert"``), a table with parameters (``{"name": "seed",
    "nil_max": 1.5}``), a tuned strategy file (``"results/tune/tuned.toml"``) or a strategy
    object (`whistlab.decisions.player`). ``seed``: the strategy's random numbers (``random``
    draws some; ``seed`` and ``expert`` none), an int or a numpy Generator (several bots given
    one Generator draw from one stream, as the seats of an engine's block do)."""
    if player not in range(4):
        raise UserError(f"player {player!r} is not allowed; allowed: 0..3")
    return WhistlabBot(resolve_player(strategy, "spades"), player, np.random.default_rng(seed))
