"""One decision from a position (issue 20 item 1): a hand stopped at a seat's decision, what the
seat sees there, and a strategy's answer, outside the engine's batch loop.

A `Position` is built from a hand record up to a decision (`sim.replay.view_at`, each game's
``position_at``) by the functions the engine itself asks through (`sim.spades.bidding.bid_view`
and `blind_view`, `sim.norwegian.auction.declare_view`, `sim.tricks.play_view` through
`sim.tricks.PlaySetup`), so a strategy asked there sees exactly what it sees in the engine's run
at that point. `ask` puts the question to a strategy as the engine's turn does (the same
questions in the same order, so a strategy drawing random numbers draws them in the engine's
order) and checks the answer as the engine does; the `Decision` is in a hand record's terms
(RULES.md §5): a bid and its blind flag, a declaration's name, a card's name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .errors import UserError
from .lineup import Lineup
from .tricks import Play, PlaySetup, check_card
from .views import BidView, BlindView, DeclareView, PlayView

__all__ = ["Decision", "Position", "ask", "play_on", "play_position"]


@dataclass(frozen=True, eq=False)
class Position:
    """A decision of one hand: ``kind`` ("bid": a Spades seat's turn of the bidding, RULES.md
    §3; "declare": a Norwegian declaration, §2; "play": a card, §0), ``seat`` the seat deciding
    (under Portland's dummy whist, RULES.md §1, the dummy's seat 3 when its partner, seat 1,
    plays its card), ``view`` what it sees (one row: a `BidView`, `DeclareView` or `PlayView`),
    ``blind`` the question the engine asks first at a Spades turn, before the seat looks at its
    cards (a `BlindView`: a blind nil, RULES.md §3), None where the rules do not offer it there;
    ``check(answer)`` raises the engine's error (`sim.errors.IllegalDecision`,
    `sim.tricks.IllegalPlay`) for an answer (an array of one) that is not legal here;
    ``names``: the answers' names in a hand record by code (a declaration's,
    `sim.norwegian.auction.DECLARATIONS`), None where the answer is a number or a card;
    ``setup`` and ``play``: how the hand's play runs and the play at this card (a "play"
    position; `play_on` goes on from them)."""

    kind: str
    seat: int
    view: BidView | DeclareView | PlayView = field(repr=False)
    check: Callable[[np.ndarray], None] = field(repr=False)
    blind: BlindView | None = field(default=None, repr=False)
    names: tuple[str, ...] | None = field(default=None, repr=False)
    setup: PlaySetup | None = field(default=None, repr=False)
    play: Play | None = field(default=None, repr=False)


def play_position(setup: PlaySetup, plays: np.ndarray) -> Position:
    """The seat to play after the cards ``plays`` (int8[1, k]: slots in order of play) of the
    hand whose play ``setup`` runs (a game's ``play_setup``), each played and checked as the
    engine plays and checks it (`sim.tricks.PlaySetup.follow`), and its view there. A hand whose
    every card is played has no decision left (`UserError`)."""
    return _at_card(setup, setup.follow(setup.start(), plays))


def play_on(position: Position, plays: np.ndarray) -> Position:
    """The position after the further cards ``plays`` (int8[1, k], slots in order of play)
    from a "play" ``position`` (which stays as it is), each played and checked as by
    `play_position`: the same position as the hand's record with those cards, without
    replaying the hand from its start (a game's own refusals at a position, Spades' seat in the
    dark, are its ``position_at``'s)."""
    return _at_card(position.setup, position.setup.follow(position.play.copy(), plays))


def _at_card(setup: PlaySetup, play: Play) -> Position:
    if play.done:
        raise UserError("the hand is over (every card is played): a position stops at a "
                        "decision")

    def check(card):
        legal, free = setup.legal(play)
        check_card(play, card, legal, free, setup.lead_rule, setup.constraint)

    return Position("play", int(play.seat[0]), setup.view(play), check, setup=setup, play=play)


@dataclass(frozen=True, eq=False)
class Decision:
    """A strategy's answer at a `Position`, in a hand record's terms (RULES.md §5): ``answer``
    the bid (an int, 0 = nil), the declaration (``"grand"``, ``"misere"``, ``"nullo"``,
    ``"pass"``) or the card (``"AS"``); ``blind``: the bid is a blind nil (Spades);
    ``position`` where it was made."""

    kind: str
    seat: int
    answer: int | str
    position: Position = field(repr=False)
    blind: bool = False


def ask(position: Position, strategy, rng: np.random.Generator) -> Decision:
    """``strategy``'s decision at ``position`` (a strategy object, `strategies.base`), drawing
    its random numbers from ``rng``: the questions of the engine's turn in its order, each
    answer checked as the engine checks it. At a Spades turn that offers a blind nil the
    strategy is asked it first, and then, as in the engine, for its bid after looking, which a
    blind nil replaces."""
    lineup = Lineup([strategy])  # the engine's dispatch and answer types (`sim.lineup`)
    view = position.view
    if position.kind == "bid":
        blind = (position.blind is not None
                 and bool(lineup.decide(position.blind, "blind_nil", rng, bool)[0]))
        bid = lineup.decide(view, "bid", rng, np.int8)
        if not blind:
            position.check(bid)
        return Decision("bid", position.seat, 0 if blind else int(bid[0]), position, blind)
    if position.kind == "declare":
        code = lineup.decide(view, "declare", rng, np.int8)
        position.check(code)
        return Decision("declare", position.seat, position.names[int(code[0])], position)
    card = lineup.decide(view, "play", rng, np.uint64)
    position.check(card)
    (name,) = view.deck.names_of(int(card[0]))
    return Decision("play", position.seat, name, position)
