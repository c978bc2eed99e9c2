"""RULES.md §4.2 ``trump_order = "jokes_win"`` and its ``jokes_tie``, the rule of the tricks: "a
joker played to a trick turns every card played by its side in that trick into a trump of its
own rank (a joke trump), which ranks just below the natural spade of the same rank"; of two joke
trumps of one rank the side of the big joker wins (``jokes_tie = "higher_joker"``), of the
first joker played (``"first_joker"``), or by the card's suit (``"suit"``: D, then C, then H).

The plug-in is in force under ``trump_order = "jokes_win"`` (``jokes_tie`` is its option).

- the key: `OPTION` (``jokes_tie``, a `sim.spades.rules.SpadesRules` field);
- the play: `resolve`, who wins a trick from its cards (`sim.spades.jokes.jokes_resolver`,
  `sim.tricks.play_tricks`' ``resolve``);
- the refusals: a table without four players in partnerships (a joke turns a partner's card),
  ``must_trump`` and ``must_overtrump`` (a trick's trumps are known only when it ends), asked
  among the card orders' checks (`refuse`).

What is still outside the module: ``trump_order`` itself and its layout (`sim.spades.decks`:
the jokers are spades in following and leading; the order needs two jokers), the resolution
(`sim.spades.jokes`, which the tests call and the key's text names), the check that
``jokes_tie`` needs ``jokes_win`` (`SpadesRules.check`: between keys), and the seed player's
``jokes_nil_play``.
"""

from __future__ import annotations

from ...errors import UserError
from ...options import option
from ..jokes import jokes_resolver
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option("higher_joker", "jokes_win: two joke trumps of one rank: the side of the higher "
                "joker wins, of the first joker played, or by suit (D, then C, then H)",
                kind=str, choices=("higher_joker", "first_joker", "suit"))


def resolve(rules, deck):
    """The tricks' winner under jokes_win (`sim.spades.jokes.jokes_resolver`)."""
    return jokes_resolver(rules, deck)


def refuse(rules) -> UserError | None:
    """A joke needs partners; a trick's trumps are known only when it ends."""
    if rules.players != 4 or not rules.partnerships:
        return UserError("jokes_win turns a partner's card into a joke trump: it needs four "
                         "players in partnerships", key="trump_order")
    if rules.must_trump or rules.must_overtrump != "off":
        return UserError("under jokes_win a trick's trumps are known only when it ends: "
                         "must_trump and must_overtrump do not apply", key="trump_order")
    return None


RULE = HouseRule(key="jokes_tie", section="§4.2", in_force=lambda r: r.trump_order == "jokes_win",
                 resolve=resolve, refuse=refuse, refuse_among="order")
