"""RULES.md §4.1 ``face_up_cards``, the whole rule: "the first ``k`` cards each player receives are
dealt face up and are public. With ``k > 0`` a player may bid blind nil after seeing only his
face-up cards."

Readings: the face-up cards stay in their holder's hand (the deal is the same deal); with two
decks (§4.7) a seat dealt both copies of a card face up shows both (``face_up_twice``, as a
hand's ``twice``).

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the deal: `deal`, the first ``k`` cards each seat receives (the slot ``deals``: kept on the
  deal, dealt again with a misdeal), ``face_up`` uint64[N, P] on the hand's plug-in state
  (``SpadesHand.house_state``), and with two decks ``face_up_twice`` (those dealt to the seat
  twice);
- the views: every decision's view from the deal on shows every seat's face-up cards
  (``face_up``, with two decks ``face_up_twice`` too, `public`: the reveal's, the blind nil's
  and the bids', the play's); a replayed record's views do not (its hands are those of the
  play);
- the table: ``face_up_<seat>``; the record: ``face_up`` (the cards by seat, a card dealt twice
  face up named twice, `record`);
- the refusal: with two players, who draw their hands (`refuse`, asked among the deal's).

What is still outside the module: the views' field ``face_up`` (`sim.views`) and the players'
use of it (`strategies/seed.py`'s ``face_up_blind_nil_max``).
"""

from __future__ import annotations

import numpy as np

from ...deal import gather_order, hands_from_order, to_seats
from ...errors import UserError
from ...options import option
from ..plugin import HouseRule, Seated

__all__ = ["OPTION", "RULE"]

OPTION = option(0, "the first k cards each player receives are dealt face up and are public; a "
                "blind nil may then be bid after seeing them", kind=int, minimum=0, maximum=4)


def deal(order, dealer, rules) -> dict:
    """The first ``face_up_cards`` cards each seat receives (``order``: int8[cards, N] slots,
    top card first), by seat; with two decks also those it receives both copies of."""
    if rules.copies == 1:
        return {"face_up": to_seats(hands_from_order(order, rules.players, rules.face_up_cards),
                                    dealer)}
    face, twice = gather_order(order, rules.players, rules.face_up_cards)
    return {"face_up": to_seats(face, dealer), "face_up_twice": to_seats(twice, dealer)}


def public(hand) -> dict:
    """Every seat sees every seat's face-up cards, with two decks those dealt to it twice too
    (not in a replayed record's views)."""
    if hand.dealt is None:
        return {}
    names = ("face_up", "face_up_twice") if "face_up_twice" in hand.dealt.house else (
        "face_up",)  # (two decks: and those dealt twice)
    return {name: hand.house_state[name] for name in names}


def record(state, i, deck) -> dict:
    """Row ``i``'s face-up cards, by seat (a card dealt twice face up named twice)."""
    face, twice = state["face_up"][i], state["face_up_twice"][i]
    return {"face_up": [sorted(deck.names_of(h) + deck.names_of(t), key=deck.names.index)
                        for h, t in zip(face, twice, strict=True)]} if face.any() else {}


def refuse(rules) -> UserError | None:
    """Two players draw their hands: there is no deal."""
    if rules.players == 2:
        return UserError("face_up_cards is about a deal; two players draw their hands "
                         "(RULES.md §4.7)", key="face_up_cards")
    return None


RULE = HouseRule(key="face_up_cards", section="§4.1", in_force=lambda r: r.face_up_cards > 0,
                 state={"face_up": Seated(np.uint64(0)),
                        "face_up_twice": Seated(np.uint64(0))}, deals=deal, public=public,
                 record=record, refuse=refuse, refuse_among="deal",
                 columns={"face_up_<seat>": (np.uint64(0), "the seat's cards dealt face up")})
