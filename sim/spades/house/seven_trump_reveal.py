"""RULES.md §4.2 ``seven_trump_reveal``, the whole rule: "before bidding, a player holding 7 or
more cards of one non-spade suit may show them and make that suit trump instead of spades; a
player holding 7 or more spades may then show them and restore spades. Whether to reveal is
strategy."

Readings: at most one suit is revealed and at most one restoration follows it (the rule names
one of each), the players asked in bidding order (the restoration from the revealer's left); the
spade range keeps its place in the layout, the revealed suit's bits become the hand's trump bits
(`sim.tricks` takes the trump as per-hand data). With two decks (§4.7) a card held twice counts
twice.

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field);
- the decision: `reveal_trumps` asks ``reveal`` with the `sim.views.RevealView` of
  `reveal_view` (``suit``: his long suit, or spades to restore them);
- the phase: `reveal` (the slot ``reveal`` of `sim.spades.hand.PHASES`, before the bidding; it
  runs in replay too, the scripted players answering from the record);
- the state: ``trump`` (the trump suit, 3 = spades), ``revealer`` and ``restorer`` (seats, -1
  for none), int8[N] on the hand's plug-in state (``SpadesHand.house_state``); the table's
  columns of the same names;
- the views: the bidding's views show ``trump_suit`` (`told`); the play's trump is the hand's
  (`trump`, also the suit the leader's restriction is about, `sim.spades.hand.lead_rule_for`);
- the record: ``reveal`` (``{"by": seat, "restored_by": seat or null}``, RULES.md §5,
  `record`); replay reads it (`read`; refused without the rule, ``fields``), the scripted player
  answers ``reveal`` from it (`answers`) and a recorded reveal that was not open is refused
  (`verify`);
- the refusal: another card order or jokers (`refuse`, among the play rules' checks).

What is still outside the module: the view `sim.views.RevealView`, the re-export of
`reveal_trumps` and `reveal_view` by `sim.spades.reveal` (`tests/test_decision_views.py` imports
them from there), ``no_trump_bids``' refusal of the rule (its own), and the players' answers
(``reveal`` in `strategies/seed.py` and `strategies/uniform.py`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...cards import SPADES, popcount
from ...errors import IllegalBid, UserError
from ...options import option
from ...views import RevealView
from ..plugin import HouseRule

__all__ = ["LONG", "OPTION", "RULE", "reveal_trumps", "reveal_view"]

OPTION = option(False, "before the bidding a player with 7+ cards of a non-spade suit may show "
                "them and make it trump; then a player with 7+ spades may restore spades",
                kind=bool)
LONG = 7  # cards of one suit a reveal needs


def reveal_view(hands, seat, suit, dealer, scores, bags, rules, deck, public, rows) -> RevealView:
    """What ``seat`` (int8[N]) sees when asked whether to reveal ``suit`` (int8[N]: his long
    suit as trumps, or spades to restore them), in the rows ``rows`` of the batch: his cards,
    the standing and the public fields (``public``: name -> [N] arrays). The engine asks
    through this view."""
    return RevealView(rows=rows, seat=seat[rows], dealer=dealer[rows],
                      hand=hands[rows, seat[rows]], suit=suit[rows].astype(np.int8),
                      scores=scores[rows], bags=bags[rows], rules=rules, deck=deck,
                      **{k: v[rows] for k, v in public.items()})


def reveal_trumps(hands, dealer, scores, bags, rules, deck, lineup, rng, public,
                  twice=None) -> dict[str, np.ndarray]:
    """Ask the players, in bidding order, whether to reveal (RULES.md §4.2): the hand's
    ``trump``, ``revealer`` and ``restorer`` (int8[N] each, the rule's state). ``twice``:
    uint64[N, P] the cards held twice (two decks, §4.7), which count twice."""
    n = hands.shape[0]
    counts = np.stack([popcount(hands & m) for m in deck.suit_masks], axis=2)  # [N, P, suit]
    if twice is not None:
        counts = counts + np.stack([popcount(twice & m) for m in deck.suit_masks], axis=2)
    long_side = np.argmax(counts[:, :, :SPADES], axis=2)  # the seat's longest non-spade suit
    may_reveal = counts[:, :, :SPADES].max(axis=2) >= LONG
    may_restore = counts[:, :, SPADES] >= LONG
    trump = np.full(n, SPADES, np.int8)
    revealer, restorer = np.full(n, -1, np.int8), np.full(n, -1, np.int8)
    for stage in ("reveal", "restore"):
        players = hands.shape[1]
        for j in range(players):
            if stage == "reveal":
                seat = ((dealer + 1 + j) % players).astype(np.int8)
                able = may_reveal[np.arange(n), seat] & (revealer < 0)
                suit = long_side[np.arange(n), seat]
            else:  # from the revealer's left, once a suit is revealed
                seat = ((revealer + 1 + j) % players).astype(np.int8)
                able = (revealer >= 0) & (restorer < 0) & may_restore[np.arange(n), seat]
                able &= seat != revealer
                suit = np.full(n, SPADES)
            ask = np.flatnonzero(able)
            if not ask.size:
                continue
            view = reveal_view(hands, seat, suit, dealer, scores, bags, rules, deck, public,
                               ask)
            yes = ask[np.asarray(lineup.decide(view, "reveal", rng, bool), dtype=bool)]
            trump[yes] = suit[yes]
            (revealer if stage == "reveal" else restorer)[yes] = seat[yes]
    return {"trump": trump, "revealer": revealer, "restorer": restorer}


def reveal(hand, at):
    """The phase: the players asked in bidding order (`reveal_trumps`), seeing the public
    fields (the face-up cards)."""
    values = reveal_trumps(hand.hands, hand.dealer, hand.scores, hand.bags, at.rules, at.deck,
                           at.lineup, at.rng, hand.public(at.rules), hand.twice)
    return replace(hand, house_state={**hand.house_state, **values})


def told(hand, rules) -> dict:
    """Every seat bids knowing the trump suit."""
    return {"trump_suit": hand.house_state["trump"]}


def trump(hand) -> np.ndarray:
    """The play's trump suit: the revealed one, or spades."""
    return hand.house_state["trump"]


def record(state, i, deck) -> dict:
    """Row ``i``'s reveal, if a suit was revealed."""
    if state["revealer"][i] < 0:
        return {}
    restorer = int(state["restorer"][i])
    return {"reveal": {"by": int(state["revealer"][i]),
                       "restored_by": None if restorer < 0 else restorer}}


def read(rec, rules, deck, err) -> dict:
    """A record's reveal: the revealer and the restorer (none without ``reveal``)."""
    if "reveal" not in rec:
        return {}
    value = rec["reveal"]
    seats = list(range(rules.players))
    if (not isinstance(value, dict) or set(value) != {"by", "restored_by"}
            or value["by"] not in seats or value["restored_by"] not in seats + [None]
            or type(value["by"]) is not int):
        raise err("'reveal' must be {\"by\": seat, \"restored_by\": seat or null} "
                  "(seven_trump_reveal)")
    return {"revealer": value["by"],
            "restorer": -1 if value["restored_by"] is None else value["restored_by"]}


def answers(state) -> dict:
    """The scripted player reveals where the record's revealer is asked for a non-spade suit,
    and restores where its restorer is asked for spades."""
    who = np.stack([state["revealer"], state["restorer"]], axis=1)

    def answer(view, rng):
        return who[view.rows, (view.suit == SPADES).astype(np.intp)] == view.seat
    return {"reveal": answer}


def verify(played, recorded) -> None:
    """The reveals the replayed hand made are the record's: one asked only where it was open."""
    got = np.stack([played["revealer"], played["restorer"]], axis=1)
    want = np.stack([recorded["revealer"], recorded["restorer"]], axis=1)
    bad = np.flatnonzero((got != want).any(axis=1))
    if bad.size:  # asked only where a reveal was open (RULES.md §4.2)
        i = int(bad[0])
        raise IllegalBid("the recorded trump reveal was not open: a reveal needs 7 or more "
                         "cards of the suit, in bidding order", row=i, seat=int(want[i, 0]))


def refuse(rules) -> UserError | None:
    """The rule is about the standard deck's suits."""
    if rules.trump_order != "standard" or rules.jokers:
        return UserError("seven_trump_reveal changes the trump suit of the standard deck: "
                         "not with another trump_order or jokers", key="seven_trump_reveal")
    return None


RULE = HouseRule(key="seven_trump_reveal", section="§4.2", in_force=lambda r: r.seven_trump_reveal,
                 state={"trump": np.int8(SPADES), "revealer": np.int8(-1),
                        "restorer": np.int8(-1)},
                 phases={"reveal": reveal}, told=told, trump=trump, record=record, read=read,
                 fields={"reveal": None}, answers=answers, verify=verify, refuse=refuse,
                 refuse_among="play",
                 columns={"trump": (np.int8(SPADES), "the trump suit (3: spades)"),
                          "revealer": (np.int8(-1), "the seat that revealed a suit (-1: none)"),
                          "restorer": (np.int8(-1), "the seat that restored spades (-1: "
                                       "none)")})
