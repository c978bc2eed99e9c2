"""The table as the person sees it: what every seat decides, told as it happens, and the state of
the hand (bids, trumps, the trick on the table, tricks won) for the person's own prompts.

Every seat's strategy is `Watched`: each decision the engine asks (`sim.lineup.Lineup.decide`) is
shown to the `Table` before and after it is made. The table tells only what the person may know
(RULES.md: the bids, declarations and cards played are public; the other hands, draws and the
cards passed between others are not) and keeps the trick in progress, since a view holds the
cards of the trick but not who played which.
"""

from __future__ import annotations

import numpy as np

from sim.norwegian.auction import DECLARATIONS
from sim.spades.contracts import NAMES

from .text import SUIT_NAMES, cards_text, count_text, seat_names, side_names

__all__ = ["Table", "Watched"]


class Watched:
    """A seat's strategy whose decisions the table sees: ``table.before(method, view)``, the
    strategy's own answer (its random numbers drawn as they would be unwatched), then
    ``table.after(method, view, answer, told)``; ``told``: the table tells the answer (not the
    person's own, which he typed)."""

    def __init__(self, strategy, table: Table, told: bool = True):
        self.strategy, self.table, self.told = strategy, table, told

    def __getattr__(self, method):
        decide = getattr(self.strategy, method)

        def watched(view, rng):
            self.table.before(method, view)
            answer = decide(view, rng)
            self.table.after(method, view, np.asarray(answer), self.told)
            return answer

        return watched


def contract_name(code: int) -> str:
    """A side contract's name as the person reads and types it (RULES.md §4.4)."""
    return NAMES[code] or "none"


class Table:
    """What the person is told, through ``say`` (one line each). ``you``: the person's seat."""

    def __init__(self, rules, deck, you: int, say):
        self.rules, self.deck, self.you, self.say = rules, deck, you, say
        self.players = rules.players
        self.sides = getattr(rules, "sides", 2)  # Portland: two partnerships
        self.plain = seat_names(self.players)
        self.names = [n + " (you)" if s == you else n for s, n in enumerate(self.plain)]
        self.side_names = side_names(self.players, self.sides, you)
        self.new_hand()

    def new_hand(self) -> None:
        self.trick_no = -1
        self.trick: list[tuple[int, int | None]] = []  # (seat, slot) of the trick's cards so far
        self.known = 0  # the cards seen played this hand (a bitboard)
        self.tricks = np.zeros(self.players, np.int8)
        self.blind = np.zeros(self.players, bool)  # went blind this hand (its bid is not asked)
        self.flags: dict[str, set[int]] = {"half": set(), "dark": set()}
        self.called: tuple[int, int] | None = None  # the auction's last bid: (seat, n)

    def name(self, seat) -> str:
        return self.names[int(seat)]

    # --- decisions as they happen ------------------------------------------------------------

    def before(self, method: str, view) -> None:
        """Before a seat plays: the card played in the dark before it, and, the trick before it
        over, who won it."""
        if method != "play" or not len(view):
            return
        self._dark_card(int(view.in_trick[0] | view.played[0]) & ~self.known)
        if view.trick_no != self.trick_no:
            if self.trick:
                self.trick_won(self.trick_no, view.tricks[0].astype(np.int16) - self.tricks)
            self.trick_no, self.trick = view.trick_no, []
        self.tricks = view.tricks[0].copy()

    def _dark_card(self, unknown: int) -> None:
        """RULES.md §4.4 nil_in_the_dark: the engine drew the last card played (``unknown``, its
        bit) face down for its seat, whose own answer it did not use."""
        if self.trick and self.trick[-1][1] is None and unknown:
            seat, slot = self.trick[-1][0], (unknown & -unknown).bit_length() - 1
            self.trick[-1] = (seat, slot)
            self.known |= 1 << slot
            self.say(f"  {self.name(seat)} plays {self.deck.names[slot]} (in the dark)")

    def last_trick(self, winners, plays) -> None:
        """The hand is over: who won its last trick (``winners``: int8[T], -1 = dead;
        ``plays``: int8[T * P] the slots played, in order)."""
        if self.trick:
            self._dark_card(1 << int(plays[self.trick_no * self.players + len(self.trick) - 1]))
            winner = int(winners[self.trick_no])
            self.trick_won(self.trick_no, np.arange(self.players) == winner)
            self.trick = []

    def trick_won(self, trick_no: int, gained) -> None:
        """Tell who won trick ``trick_no`` (``gained``: tricks each seat gained by it)."""
        winner = np.flatnonzero(np.asarray(gained) > 0)
        played = ", ".join(f"{self.name(s)} {self.deck.names[b]}" for s, b in self.trick)
        if winner.size:
            self.say(f"  trick {trick_no + 1} ({played}): won by {self.name(winner[0])}")
        else:  # RULES.md §4.7 cancel_spades: identical cards cancelled, nobody wins it
            self.say(f"  trick {trick_no + 1} ({played}): dead, won by nobody")

    def after(self, method: str, view, answer: np.ndarray, tell: bool = True) -> None:
        for i in range(len(view)):
            seat = int(view.seat[i])
            told = self._told(method, view, i, seat, answer[i])
            if told and tell:
                self.say(f"  {self.name(seat)} {told}")

    def _told(self, method, view, i, seat, a) -> str | None:
        """What the table sees of ``seat``'s answer ``a`` (None: nothing to tell); keeps the
        trick and the bidding's flags."""
        if method == "play":
            if seat in self.flags["dark"]:  # the engine draws the card (`_dark_card`)
                self.trick.append((seat, None))
                return None
            self.trick.append((seat, int(a).bit_length() - 1))
            self.known |= int(a)
            return f"plays {cards_text(self.deck, a)}"
        if method == "blind_nil" and a:
            self.blind[seat] = True
            return "bids blind nil"
        if method == "blind_bid" and a > 0:
            self.blind[seat] = True
            return f"bids {int(a)} blind"
        if method == "bid" and not self.blind[seat]:  # a blind seat's bid is not its own
            return f"bids {'nil' if a == 0 else int(a)}"
        if method == "half_bid" and a:
            self.flags["half"].add(seat)
            return "adds a half to the bid"
        if method == "in_the_dark" and a:
            self.flags["dark"].add(seat)
            return "will play the nil in the dark"
        if method in ("no_trump", "raise_bid") and a:
            return "bids no trump" if method == "no_trump" else "raises the bid by one"
        if method == "auction_bid":  # RULES.md §4.4: n promises 6 + n tricks for the side
            if a > 0:
                self.called = (seat, int(a))
            return "passes" if a == 0 else f"calls {int(a)} ({6 + int(a)} tricks)"
        if method == "side_contract" and a > 0:
            return f"declares {contract_name(int(a))} for the side"
        if method == "redeal" and a:
            return "calls a misdeal: the cards are dealt again"
        if method == "reveal" and a:
            suit = int(view.suit[i])
            shown = cards_text(self.deck, view.hand[i] & self.deck.suit_masks[suit])
            return f"shows {shown}: {SUIT_NAMES[suit]} are trumps"
        if method == "declare":
            return "passes" if a == 0 else f"declares {DECLARATIONS[int(a)]}"
        if method in ("pass_cards", "discard_kitty"):
            n = count_text(int(view.count[i]), "card")
            if method == "discard_kitty":
                return f"takes the kitty and discards {n}"
            to = int(view.to[i])
            got = f": {cards_text(self.deck, a)}" if to == self.you else ""
            return f"passes {n} to {self.name(to)}{got}"
        return None

    # --- the hand as the person's prompts show it --------------------------------------------

    def on_table(self) -> str:
        """The trick in progress: who played what, the leader first."""
        return ", ".join(f"{self.name(s)} {self.deck.names[b]}" for s, b in self.trick)

    def suit_name(self, slot: int) -> str:
        """The name of a card slot's (effective) suit."""
        return SUIT_NAMES[int(self.deck.suit_of_bit[slot])]

    def trumps(self, view) -> str:
        bits = int(view.trump[0]) if view.trump is not None else 0
        return f"trumps: {self.suit_name((bits & -bits).bit_length() - 1)}" if bits else "no trumps"

    def bids(self, view, i: int = 0) -> str | None:
        """The bids (Spades) or declarations (Norwegian) so far, by seat; None where the game
        has neither (Portland)."""
        if getattr(view, "declarations", None) is not None:
            said = view.declarations[i]
            return "declarations: " + ", ".join(
                f"{self.name(s)} {DECLARATIONS[d]}" for s, d in enumerate(said) if d >= 0)
        if getattr(view, "bids", None) is None:
            return None
        parts = [f"{self.name(s)} {self._bid(view, i, s)}"
                 for s, b in enumerate(view.bids[i]) if b >= 0]
        if self.called is not None:
            seat, n = self.called
            parts.append(f"{self.side_names[seat % self.sides]} to make {6 + n} "
                         f"({self.name(seat)} called {n})")
        contracts = getattr(view, "contracts", None)
        for side in range(contracts.shape[1] if contracts is not None else 0):
            for code in (int(contracts[i, side]), int(view.bemo[i, side])):
                if code:
                    parts.append(f"{self.side_names[side]} {contract_name(code)}")
        return "bids: " + (", ".join(parts) or "none yet")

    def _bid(self, view, i: int, seat: int) -> str:
        b = int(view.bids[i, seat])
        halves = getattr(view, "half", None)  # the bid views' (RULES.md §4.4 half_trick_bids)
        half = seat in self.flags["half"] or (halves is not None and bool(halves[i, seat]))
        text = ("nil" if b == 0 and not half else str(b)) + (" and a half" if half else "")
        if view.blind is not None and view.blind[i, seat]:
            text += " blind"
        no_trump = getattr(view, "no_trump", None)
        if no_trump is not None and no_trump[i, seat]:
            text += " no trump"
        if seat in self.flags["dark"]:
            text += " in the dark"
        return text

    # --- the end of a hand ----------------------------------------------------------------------

    def hand_over(self, out) -> None:
        """The last trick, the tricks, the points (and their parts) and the score after the
        hand (``out``: the game's hand state, played and scored)."""
        score = out.score
        self.last_trick(out.play.winners[0], out.play.plays[0])
        self.say("hand over; " + self.tricks_text(out.play.tricks[0]))
        parts = score.components() if hasattr(score, "components") else {}  # Spades, Portland
        points = []
        for side, name in enumerate(self.side_names):
            detail = ", ".join(f"{k.replace('_', ' ')} {int(v[0, side]):+d}"
                               for k, v in parts.items() if v[0, side])
            points.append(f"{name} {int(score.points[0, side]):+d}"
                          + (f" ({detail})" if detail else ""))
        self.say("points: " + ", ".join(points))
        bags = getattr(score, "bags_after", None)  # Spades
        self.say("score: " + self.scores_text(out.scores_after[0],
                                              None if bags is None else bags[0]))

    def tricks_text(self, tricks) -> str:
        return "tricks: " + ", ".join(f"{self.name(s)} {int(t)}" for s, t in enumerate(tricks))

    def scores_text(self, scores, bags=None) -> str:
        parts = []
        for side, name in enumerate(self.side_names):
            bagged = f" ({count_text(int(bags[side]), 'bag')})" if bags is not None else ""
            parts.append(f"{name} {int(scores[side])}{bagged}")
        return ", ".join(parts)

    def contract_text(self, view) -> str | None:
        """Norwegian whist: who plays grand, who misère (RULES.md §2)."""
        if getattr(view, "contract", None) is None:
            return None
        grand = int(view.grand_player[0])
        if grand < 0:
            return "contract: nullo (every player tries to take as few tricks as he can)"
        return f"contract: {self.name(grand)} plays grand, the others misère" if (
            self.players < 4) else f"contract: {self.side_names[grand % self.sides]} play grand"
