"""RULES.md §4.1 ``kitty``, ``kitty_taker`` and ``kitty_extra_trick``, the whole rule: "with a deck
that does not divide evenly, the leftover cards form a kitty. ``kitty_taker = "two_of_clubs"``
(the holder of 2♣ takes it before bidding) or ``"high_bidder"`` (after bidding; the earliest
bidder breaks ties). The taker adds it to his hand and discards as many cards face down.
``kitty_extra_trick = true``: the kitty also holds one extra trick's worth of cards, and the
taker's discard counts as one trick won by him."

Readings: under ``"two_of_clubs"`` the holder of the lowest club dealt takes it (the 2C unless
it lies in the kitty); the taker discards as many distinct cards (with two decks, §4.7, a card
held twice keeps one copy).

- the keys: `OPTION` (``kitty``), `TAKER` and `EXTRA_TRICK` (`sim.spades.rules.SpadesRules`
  fields);
- the decision: the taker is asked ``discard_kitty`` with his `sim.views.KittyView`
  (`sim.spades.kitty.kitty_view`, `sim.spades.kitty.take_kitty`);
- the phases: `before_bids` (the slot ``kitty_before_bids`` of `sim.spades.hand.PHASES`, the
  holder of the lowest club) or `after_bids` (``kitty_after_bids``, the highest bidder), the one
  ``kitty_taker`` names, and `extra_trick` (``kitty_extra_trick``, after the play: one trick to
  the taker) under ``kitty_extra_trick`` (`timing`); a replayed record gives the kitty, so only
  the extra trick runs;
- the state: ``kitty_taker`` int8[N] (-1 without), ``kitty``, ``kitty_twice`` (the kitty's
  cards held twice) and ``kitty_discards`` uint64[N] on the hand's plug-in state
  (``SpadesHand.house_state``), the table's columns of the same names;
- the views: the bidding's views show the taker when he took it before the bids (`told`);
- the record: ``kitty`` (``{"taker", "cards", "discards"}``, RULES.md §5, `record`); replay
  reads it (`read`; refused without the rule, ``fields``) and checks it against the record's
  hands, undoing an exchange of cards (`audit`);
- the refusals: two players or ``cancel_spades`` (no leftover cards), a removal of cards
  (``jokers_remove``, ``remove``), a deck that divides evenly without ``kitty_extra_trick``
  (`refuse`, among the kitty's checks).

What is still outside the module: the card layout and the deal, which must know the kitty's
size (`SpadesRules.removed_cards`, ``kitty_size``, ``cards_each``, ``tricks_per_hand``; the deal
sets the leftover cards apart, `sim.spades.dealing.Dealt`'s ``kitty``), the checks between keys
and of the table's shape in `SpadesRules.check` (``kitty_taker`` and ``kitty_extra_trick`` need
``kitty``; the six-player ``double_kitty`` deck goes with it), the column ``kitty_twice``'s
condition (with two decks, `sim.spades.tables.BROUGHT`), the view `sim.views.KittyView`, the
helpers of `sim.spades.kitty` (`take_kitty`, `kitty_view`, `high_bidder`,
`lowest_club_holder`, which ``first_lead`` shares), and the players' answers (``discard_kitty``
in `strategies/`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np

from ...cards import CLUBS
from ...errors import UserError
from ...options import option
from ...records import card_names, card_slots, gather
from ..kitty import high_bidder, lowest_club_holder, take_kitty
from ..passing import receiver_offset
from ..plugin import HouseRule

__all__ = ["EXTRA_TRICK", "OPTION", "RULE", "TAKER"]

OPTION = option(False, "no card is taken out to even the hands: the leftover cards form a "
                "kitty, which its taker adds to his hand before discarding as many", kind=bool)
TAKER = option("two_of_clubs", "who takes the kitty: the holder of the lowest club dealt (2C) "
               "before the bidding, or the highest bidder after it (the earliest on a tie)",
               kind=str, choices=("two_of_clubs", "high_bidder"))
EXTRA_TRICK = option(False, "the kitty also holds one trick's worth of cards; the taker's "
                     "discard counts as a trick won by him", kind=bool)


def _take(hand, at, taker: np.ndarray, context: dict):
    """The kitty taken by ``taker`` and his discard (`sim.spades.kitty.take_kitty`)."""
    dealt = hand.dealt
    hands, twice, discards = take_kitty(hand.hands, hand.twice, dealt.kitty, dealt.kitty_twice,
                                        taker, context, at.lineup, at.rng)
    state = {"kitty_taker": taker, "kitty": dealt.kitty, "kitty_twice": dealt.kitty_twice,
             "kitty_discards": discards}
    return replace(hand, hands=hands, twice=twice, house_state={**hand.house_state, **state})


def before_bids(hand, at):
    """``kitty_taker = "two_of_clubs"``: the holder of the lowest club takes the kitty before
    the bidding."""
    taker = lowest_club_holder(hand.hands, hand.dealer, at.deck)
    return _take(hand, at, taker, hand.context(at.rules, at.deck))


def after_bids(hand, at):
    """``kitty_taker = "high_bidder"``: the highest bidder takes the kitty after the bidding."""
    b = hand.bidding
    return _take(hand, at, high_bidder(b.bids, hand.dealer),
                 hand.context(at.rules, at.deck, b.bids, b.blind))


def extra_trick(hand, at):
    """``kitty_extra_trick``: the taker's discard counts as one trick won."""
    tricks = hand.play.tricks.copy()
    tricks[np.arange(hand.n), hand.house_state["kitty_taker"]] += 1
    return replace(hand, play=replace(hand.play, tricks=tricks))


def timing(rules) -> tuple[str, ...]:
    """The taker's slot, and the extra trick's under ``kitty_extra_trick``."""
    take = "kitty_before_bids" if rules.kitty_taker == "two_of_clubs" else "kitty_after_bids"
    return (take, "kitty_extra_trick") if rules.kitty_extra_trick else (take,)


def told(hand, rules) -> dict:
    """A taker known before the bids is public."""
    if rules.kitty_taker != "two_of_clubs":
        return {}
    return {"kitty_taker": hand.house_state["kitty_taker"]}


def record(state, i, deck) -> dict:
    """Row ``i``'s kitty: who took it, its cards and his discard."""
    taker = state["kitty_taker"][i]
    if taker < 0:
        return {}
    return {"kitty": {"taker": int(taker),
                      "cards": card_names(deck, state["kitty"][i], state["kitty_twice"][i]),
                      "discards": deck.names_of(state["kitty_discards"][i])}}


def read(rec, rules, deck, err) -> dict:
    """A record's kitty: ``{"taker": seat, "cards": [...], "discards": [...]}``."""
    value = rec.get("kitty")
    k = rules.kitty_size
    if (not isinstance(value, dict) or set(value) != {"taker", "cards", "discards"}
            or type(value["taker"]) is not int or not 0 <= value["taker"] < rules.players
            or not isinstance(value["cards"], list) or len(value["cards"]) != k
            or not isinstance(value["discards"], list) or len(value["discards"]) != k
            or len(set(map(str, value["discards"]))) != k):
        raise err(f"'kitty' must be {{\"taker\": seat, \"cards\": [{k} cards], "
                  f"\"discards\": [{k} distinct cards]}} (RULES.md §4.1)")
    cards, cards_twice = gather(card_slots(value["cards"], deck, "kitty", err))
    discards = gather(card_slots(value["discards"], deck, "kitty", err))[0]
    return {"kitty_taker": value["taker"], "kitty": cards, "kitty_twice": cards_twice,
            "kitty_discards": discards}


def audit(recs, bids, state, rules, deck, lines, source, raw=None) -> None:
    """A record's kitty (RULES.md §4.1): its hands and the discard are the deck exactly, its
    taker's dealt hand (his hand and discard without the kitty) holds the kitty's cards' room,
    and the taker is the one the rules name (the holder of the lowest club dealt, or the highest
    bidder). With card passing (§4.5) the dealt hands are the record's, less what each seat
    received and plus what it passed (its ``passed``); with two exchanges (``pass_cards`` and
    ``nil_pass``) the record does not say which moved a card, and only the deck is checked."""
    full = Counter(b for b, name in enumerate(deck.names) if name for _ in range(deck.copies))
    clubs = int(deck.suit_masks[CLUBS])
    exchanges = [e for e in ((rules.pass_cards, "pass"), (rules.nil_pass, "nil")) if e[0]]
    for i in range(recs.dealer.shape[0]):
        def err(msg, i=i):
            return UserError(f"kitty: {msg}", source=source, line=lines[i])

        held = [_multiset(recs.hands[i, s], recs.twice[i, s]) for s in range(rules.players)]
        taker = int(state["kitty_taker"][i])
        discards = _multiset(state["kitty_discards"][i], 0)
        if sum(held, Counter()) + discards != full:
            raise err("the hands and the discard must be the deck, each card once")
        passed = (raw[i] if raw is not None else {}).get("passed")
        if exchanges and passed is not None:
            if len(exchanges) > 1:
                continue
            held = _before_passing(held, passed, exchanges[0], rules, deck, err)
        dealt = held[taker] + discards
        dealt.subtract(_multiset(state["kitty"][i], state["kitty_twice"][i]))
        if min(dealt.values(), default=0) < 0:
            raise err("the kitty holds cards that are neither in the taker's hand nor discarded")
        held[taker] = +dealt
        if rules.kitty_taker == "two_of_clubs":
            lowest = [min((b for b in h if clubs >> b & 1), default=99) for h in held]
            order = [(recs.dealer[i] + 1 + k) % rules.players for k in range(rules.players)]
            want = min(order, key=lambda s: lowest[s])
        else:
            want = int(high_bidder(bids[i:i + 1], recs.dealer[i:i + 1])[0])
        if taker != want:
            raise err(f"the taker is seat {want} (kitty_taker = \"{rules.kitty_taker}\"), "
                      f"not {taker}")


def _before_passing(held, passed, exchange, rules, deck, err) -> list[Counter]:
    """The hands before one exchange of cards (RULES.md §4.5): each seat's hand less what it
    received, plus what it passed (``passed``: a record's names by seat)."""
    _, kind = exchange
    players = rules.players
    if (not isinstance(passed, list) or len(passed) != players
            or any(not isinstance(p, list) for p in passed)):
        raise err(f"'passed' must list the cards each of the {players} seats passed")
    try:
        gave = [Counter(deck.bit_of(c) for c in p) for p in passed]
    except (KeyError, TypeError):
        raise err("'passed' holds a name that is not a card of this deck") from None
    offset = receiver_offset(rules, nil=kind == "nil")
    out = []
    for s in range(players):
        before = held[s] + gave[s]
        before.subtract(gave[(s - offset) % players])
        if min(before.values(), default=0) < 0:
            raise err(f"seat {s} passed cards it does not hold, or holds none it received")
        out.append(+before)
    return out


def _multiset(cards, twice) -> Counter:
    """The card slots of a hand as a multiset (two decks: ``twice`` counted twice)."""
    c, t = int(cards), int(twice)
    return Counter({b: 1 + (t >> b & 1) for b in range(64) if c >> b & 1})


def refuse(rules) -> UserError | None:
    """A kitty needs leftover cards (or the extra trick) and replaces the cards taken out to
    even the hands."""
    if rules.players == 2 or rules.cancel_spades:
        return UserError("two players draw their hands and cancel_spades deals every card: "
                         "no kitty", key="kitty")
    if rules.jokers_remove is not None or rules.remove != "2C":
        key = "jokers_remove" if rules.jokers_remove is not None else "remove"
        return UserError(f"{key} takes cards out to even the hands, which the kitty does "
                         "instead: choose one", key=key)
    if rules.kitty_size == 0:
        return UserError(f"{rules.deck_size} cards divide evenly among {rules.players} "
                         "players: a kitty needs kitty_extra_trick = true", key="kitty")
    return None


U64 = np.uint64
RULE = HouseRule(key="kitty", section="§4.1", in_force=lambda r: r.kitty,
                 phases={"kitty_before_bids": before_bids, "kitty_after_bids": after_bids,
                         "kitty_extra_trick": extra_trick}, timing=timing,
                 state={"kitty_taker": np.int8(-1), "kitty": U64(0), "kitty_twice": U64(0),
                        "kitty_discards": U64(0)},
                 told=told, record=record, read=read, audit=audit,
                 fields={"kitty": "'kitty': these rules have no kitty (RULES.md §4.1 kitty)"},
                 refuse=refuse, refuse_among="kitty",
                 columns={"kitty_taker": (np.int8(-1), "the seat that took the kitty (-1: none)"),
                          "kitty": (U64(0), "the kitty's cards"),
                          "kitty_discards": (U64(0), "the taker's discard")})
