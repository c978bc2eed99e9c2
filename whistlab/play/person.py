"""The person's seat: a player whose every decision is asked in the terminal.

`Person` answers the decisions of `strategies.base` (bids, blind nil, blind bids, the auction,
side contracts, halves, no trump, the dark, raises, misdeals, reveals, draws, Norwegian
declarations, passes, the kitty's discard, cards) as a strategy does, one row of the view at a
time: it shows what the person may see (the view holds only that: his cards and the public
state) and asks until the answer is one the rules allow, so the engine never refuses it. It draws
no random numbers: the other seats' choices are those they would make against any player
answering the same.
"""

from __future__ import annotations

import numpy as np

from sim.norwegian.auction import DECLARATIONS

from .prompt import Prompter, choice, yes_no
from .table import Table, contract_name
from .text import SUIT_NAMES, cards_text, count_text, hand_lines, listing, ranges, read_card

__all__ = ["Person"]


def _bits(mask) -> list[int]:
    return [b for b in range(64) if int(mask) >> b & 1]


def _number(words: dict[str, int], values: list[int]):
    """A parser of one of ``values`` (integers), or of a word standing for one (``nil``)."""

    def parse(text: str) -> int:
        word = text.lower()
        if word in words:
            value = words[word]
        else:
            try:
                value = int(word)
            except ValueError:
                raise ValueError(f"{text!r} is not a number") from None
        if value not in values:
            raise ValueError(f"{value} is out of range" if value > max(values) or value < 0
                             else f"{value} is not allowed here")
        return value

    return parse


def _numbers_text(values: list[int], zero: str | None) -> str:
    """``nil, 1-13`` (``zero`` names 0 when it is allowed)."""
    rest = ranges([v for v in values if v])
    if zero is not None and 0 in values:
        return f"{zero}, {rest}" if rest else zero
    return rest


class Person:
    """The person at seat ``table.you``: every decision asked through ``prompter``."""

    def __init__(self, table: Table, prompter: Prompter):
        self.table, self.deck = table, table.deck
        self.ask, self.say = prompter.ask, prompter.say
        self.went_blind: set[tuple[int, int]] = set()  # (row, seat): its bid was made blind
        self.dark: set[tuple[int, int]] = set()  # (row, seat): its nil is played in the dark

    def new_hand(self) -> None:
        self.went_blind.clear()
        self.dark.clear()

    @staticmethod
    def _each(view, one, dtype) -> np.ndarray:
        return np.array([one(view, i) for i in range(len(view))], dtype=dtype)

    def _show(self, view, i: int, hand=True) -> None:
        """The public state of the bidding and, once he has looked, the person's cards."""
        bids = self.table.bids(view, i)
        if bids:
            self.say(bids)
        face_up = getattr(view, "face_up", None)
        if face_up is not None and face_up[i].any():  # RULES.md §4.1 face_up_cards
            self.say("face up: " + ", ".join(f"{self.table.name(s)} {cards_text(self.deck, c)}"
                                             for s, c in enumerate(face_up[i]) if c))
        if hand:
            self.say("your hand:")
            for line in hand_lines(self.deck, view.hand[i], twice=_twice(view, i)):
                self.say(line)

    # --- Spades bidding (RULES.md §3, §4.4) --------------------------------------------------

    def _before_looking(self, v, i) -> None:
        """A blind decision (RULES.md §3 blind nil, §4.4 blind bids), which the score allows."""
        self.say("score: " + self.table.scores_text(v.scores[i], v.bags[i]))
        self._show(v, i, hand=False)

    def blind_nil(self, view, rng):
        def one(v, i):
            self._before_looking(v, i)
            yes = self.ask("Bid blind nil, before looking at your cards?", "y/n", yes_no)
            if yes:
                self.went_blind.add((int(v.rows[i]), int(v.seat[i])))
            return yes

        return self._each(view, one, bool)

    def blind_bid(self, view, rng):
        def one(v, i):
            self._before_looking(v, i)
            values = [0, *_bits(v.legal[i])]
            bid = self.ask("Bid blind, before looking at your cards?",
                           "look, " + ranges(values[1:]), _number({"look": 0, "no": 0, "n": 0},
                                                                  values))
            if bid:
                self.went_blind.add((int(v.rows[i]), int(v.seat[i])))
            return bid

        return self._each(view, one, np.int8)

    def bid(self, view, rng):
        joint = getattr(view.rules, "partnership_bidding", False)  # RULES.md §4.4: for the side
        return self._number(view, "Your side's bid" if joint else "Your bid", "nil")

    def auction_bid(self, view, rng):  # RULES.md §4.4: n promises 6 + n tricks for the side
        return self._number(view, "Your call, tricks over six", "pass")

    def _number(self, view, question: str, zero: str) -> np.ndarray:
        """A number set in ``view.legal`` (0 also written ``zero``: nil, pass)."""

        def one(v, i):
            if (int(v.rows[i]), int(v.seat[i])) in self.went_blind:
                return 0  # asked again after a blind bid, which stands: the engine ignores it
            self._show(v, i)
            values = _bits(v.legal[i])
            return self.ask(question, _numbers_text(values, zero), _number({zero: 0}, values))

        return self._each(view, one, np.int8)

    def side_contract(self, view, rng):
        def one(v, i):
            self._show(v, i, hand=getattr(v, "hand", None) is not None)
            options = {contract_name(c): c for c in _bits(v.legal[i])}
            return self.ask("Declare for your side", ", ".join(options), choice(options))

        return self._each(view, one, np.int8)

    def _yes_no(self, view, question) -> np.ndarray:
        """A question of the bidding asked after looking (``question(v, i)``)."""

        def one(v, i):
            self._show(v, i)
            return self.ask(question(v, i), "y/n", yes_no)

        return self._each(view, one, bool)

    def _own_bid(self, v, i) -> str:
        bid = int(v.bids[i, v.seat[i]])
        return "nil" if bid == 0 else str(bid)

    def half_bid(self, view, rng):
        return self._yes_no(view, lambda v, i: f"Add a half to your bid of {self._own_bid(v, i)}?")

    def no_trump(self, view, rng):
        return self._yes_no(view, lambda v, i: f"Make your bid of {self._own_bid(v, i)} no trump "
                            "(you may not trump; 20 a trick)?")

    def in_the_dark(self, view, rng):
        dark = self._yes_no(view, lambda v, i: "Play your nil in the dark, your cards drawn "
                            "face down?")
        self.dark.update((int(r), int(s)) for r, s in zip(view.rows[dark], view.seat[dark],
                                                          strict=True))
        return dark

    def raise_bid(self, view, rng):
        return self._yes_no(view, lambda v, i: f"Raise your bid of {self._own_bid(v, i)} by one?")

    # --- the deal (RULES.md §4.1, §4.2, §4.7) ------------------------------------------------

    def redeal(self, view, rng):
        return self._yes_no(view, lambda v, i: "Your hand is poor: call a misdeal?")

    def reveal(self, view, rng):
        def question(v, i):
            suit = int(v.suit[i])
            shown = cards_text(self.deck, v.hand[i] & self.deck.suit_masks[suit])
            again = " again" if suit == 3 else ""
            return f"Show {shown} and make {SUIT_NAMES[suit]} trumps{again}?"

        return self._yes_no(view, question)

    def draw(self, view, rng):
        def one(v, i):
            first = cards_text(self.deck, v.first[i])
            self.say(f"kept so far: {cards_text(self.deck, v.hand[i])}; the discards you saw: "
                     + cards_text(self.deck, v.seen[i]))
            if v.second[i]:  # draw_mode see_both: he keeps either
                second = cards_text(self.deck, v.second[i])
                return self.ask("Keep which card (the other is discarded)?",
                                f"{first} or {second}", choice({first.lower(): True,
                                                                second.lower(): False}))
            unseen = " unseen" if v.rules.draw_mode == "first_decides_blind" else ""
            return self.ask(f"Keep {first}? Yes discards the next card{unseen}, no discards "
                            f"{first} and keeps the next", "y/n", yes_no)

        return self._each(view, one, bool)

    # --- Norwegian whist (RULES.md §2) -------------------------------------------------------

    def declare(self, view, rng):
        def one(v, i):
            self._show(v, i)
            options = {DECLARATIONS[c]: c for c in _bits(v.legal[i])}
            return self.ask("Your declaration", listing(list(options)), choice(options))

        return self._each(view, one, np.int8)

    # --- cards given away (RULES.md §4.1 kitty, §4.5 passing) --------------------------------

    def pass_cards(self, view, rng):
        def one(v, i):
            self._show(v, i)
            n = int(v.count[i])
            return self.ask(f"Pass {count_text(n, 'card')} to {self.table.name(v.to[i])}",
                            f"{n} of your cards", self._cards(v.hand[i], n))

        return self._each(view, one, np.uint64)

    def discard_kitty(self, view, rng):
        def one(v, i):
            self.say("you take the kitty: " + cards_text(self.deck, v.kitty[i]))
            self._show(v, i)
            n = int(v.count[i])
            return self.ask(f"Discard {count_text(n, 'card')}", f"{n} different cards of your "
                            "hand", self._cards(v.hand[i], n))

        return self._each(view, one, np.uint64)

    def _cards(self, hand, n: int):
        """A parser of ``n`` different cards of ``hand``, as a bitboard."""

        def parse(text: str) -> np.uint64:
            words = text.replace(",", " ").split()
            chosen = 0
            for word in words:
                bit = read_card(word, self.deck)
                if not int(hand) >> bit & 1:
                    raise ValueError(f"you do not hold {self.deck.names[bit]}")
                chosen |= 1 << bit
            if len(words) != n or chosen.bit_count() != n:
                raise ValueError(f"give {count_text(n, 'different card')}, not {len(words)}")
            return np.uint64(chosen)

        return parse

    # --- the play ----------------------------------------------------------------------------

    def play(self, view, rng):
        return self._each(view, self._play_one, np.uint64)

    def _play_one(self, v, i) -> np.uint64:
        table, deck = self.table, self.deck
        seat = int(v.seat[i])
        if (int(v.rows[i]), seat) in self.dark:  # the engine draws his card (RULES.md §4.4)
            self.say(f"trick {v.trick_no + 1}: you play in the dark")
            return np.uint64(int(v.legal[i]) & -int(v.legal[i]))
        heading = f"trick {v.trick_no + 1}, {table.trumps(v)}"
        if v.turn_up is not None and v.turn_up[i]:  # Portland: the dealer's turned-up card
            heading += f" (turned up {cards_text(deck, v.turn_up[i])})"
        self.say(heading)
        for line in (table.bids(v, i), table.contract_text(v), table.tricks_text(v.tricks[i])):
            if line:
                self.say(line)
        mine = seat == table.you  # else the dummy's, played by its partner (RULES.md §1)
        self.say(f"on the table: {table.on_table()}" if table.trick else
                 "you lead" if mine else "the dummy leads")
        if v.visible is not None and v.visible[i]:  # Portland dummy whist
            other = "your own hand" if not mine else f"the dummy, {table.name(3)}"
            self.say(f"{other}: {cards_text(deck, v.visible[i])}")
        face_up = getattr(v, "face_up", None)
        if face_up is not None and face_up[i].any():  # RULES.md §4.1 face_up_cards, still held
            shown = [(s, int(c) & ~int(v.played[i])) for s, c in enumerate(face_up[i])]
            if any(c for _, c in shown):
                self.say("face up: " + ", ".join(f"{table.name(s)} {cards_text(deck, c)}"
                                                 for s, c in shown if c))
        whose = "your hand" if mine else f"the dummy's hand ({table.name(seat)})"
        self.say(f"{whose} (* = may be played):")
        for line in hand_lines(deck, v.hand[i], legal=v.legal[i], twice=_twice(v, i)):
            self.say(line)
        legal = cards_text(deck, v.legal[i])
        question = "Your card" if mine else "The dummy's card"
        return self.ask(question, legal, self._legal_card(v, i))

    def _legal_card(self, v, i):
        hand, legal, led, trump = int(v.hand[i]), int(v.legal[i]), int(v.led[i]), int(v.trump[i])
        unbroken = (v.position == 0 and getattr(v.rules, "spades_broken", False)
                    and legal & ~trump)  # RULES.md §3: trumps led only once broken

        def parse(text: str) -> np.uint64:
            bit = read_card(text, self.deck)
            name = self.deck.names[bit]
            if not hand >> bit & 1:
                raise ValueError(f"you do not hold {name}")
            if not legal >> bit & 1:
                if led & hand and not led >> bit & 1:
                    suit = self.table.suit_name((led & -led).bit_length() - 1)
                    raise ValueError(f"{name} may not be played: you must follow {suit}")
                if unbroken and trump >> bit & 1:
                    raise ValueError(f"{name} may not be led: trumps are not broken yet")
                raise ValueError(f"{name} may not be played now (the rules in force)")
            return np.uint64(1 << bit)

        return parse


def _twice(view, i: int) -> int:
    """The cards of the view's hand held twice (two decks, RULES.md §4.7), where it says."""
    twice = getattr(view, "twice", None)
    return int(twice[i]) if twice is not None else 0
