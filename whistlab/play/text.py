"""The words of a table in the terminal: seats, sides, cards by suit, bids, lists of choices.

Cards are written as hand records write them (RULES.md §0 and §5: ``AS``, ``TH``, ``2C``, jokers
``BJ``, ``LJ``), read from the deck's own names (`sim.cards.Deck`), so a layout such as bowers or
jokers is shown in the suit it plays in: its effective suit.
"""

from __future__ import annotations

from sim.cards import SUITS

__all__ = ["SUIT_NAMES", "cards_text", "count_text", "hand_lines", "listing", "ranges",
           "read_card", "seat_names", "side_names", "suit_of"]

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")  # by suit index (sim.cards.SUITS)
COMPASS = ("North", "East", "South", "West")  # seats 0..3 of four players, as README names them


def seat_names(players: int) -> list[str]:
    """Each seat's name: North, East, South, West at four players, else ``seat k``."""
    return list(COMPASS) if players == 4 else [f"seat {s}" for s in range(players)]


def side_names(players: int, sides: int, you: int) -> list[str]:
    """Each side's name (seat ``s`` plays for side ``s mod sides``, RULES.md §0 and §4.7): a
    partnership of four players by the compass (``North–South``), others by their seats
    (``seats 0 and 3``), a player alone by his seat; ``you`` for the person alone,
    ``(your side)`` after the person's partnership."""
    out = []
    for k in range(sides):
        seats = list(range(k, players, sides))
        if players == 4 and sides == 2:
            name = "–".join(COMPASS[s] for s in seats)
        elif len(seats) == 1:
            name = seat_names(players)[k]
        else:
            name = "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"
        if you % sides == k:
            name = "you" if len(seats) == 1 else f"{name} (your side)"
        out.append(name)
    return out


def suit_of(deck, card_bit: int) -> int:
    """The effective suit (0..3) of a card slot."""
    return int(deck.suit_of_bit[card_bit])


def cards_text(deck, cards) -> str:
    """A bitboard's cards, strongest first, as names separated by spaces (``-`` for none)."""
    names = [deck.names[b] for b in range(63, -1, -1) if int(cards) >> b & 1]
    return " ".join(names) or "-"


def hand_lines(deck, hand, legal=None, twice=0) -> list[str]:
    """A hand sorted by (effective) suit, spades first, strongest first within a suit; with
    ``legal``, each card that may be played is marked ``*``; a card of ``twice`` (two decks)
    is shown twice."""
    lines = []
    for suit in (3, 2, 1, 0):
        mask = int(deck.suit_masks[suit]) & int(hand)
        if not mask:
            continue
        names = []
        for b in range(63, -1, -1):
            if mask >> b & 1:
                mark = "*" if legal is not None and int(legal) >> b & 1 else ""
                names += [deck.names[b] + mark] * (2 if int(twice) >> b & 1 else 1)
        lines.append(f"  {SUIT_NAMES[suit]:9s}{' '.join(names)}")
    return lines


def ranges(values: list[int]) -> str:
    """``[0, 1, 2, 3, 5]`` as ``0-3, 5``."""
    parts, start = [], None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            parts.append(str(start) if start == v else f"{start}-{v}")
            start = None
    return ", ".join(parts)


def listing(names: list[str]) -> str:
    """``a, b or c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" or {names[-1]}"


def count_text(n: int, what: str) -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} {what}" + ("" if n == 1 else "s")


def read_card(text: str, deck) -> int:
    """The slot of a card written by a person: its name in any case (``as``, ``Th``), ``10``
    for ``T``; raises ValueError with the reason for anything else."""
    name = text.strip().upper()
    if name[:2] == "10" and len(name) == 3:
        name = "T" + name[2]
    try:
        return deck.bit_of(name)
    except KeyError:
        hint = "" if len(name) != 2 or name[1] in SUITS + "J" else " (suits are C, D, H, S)"
        raise ValueError(f"{text.strip()!r} is not a card of this deck{hint}; write cards like "
                         "AS, TH, 2C") from None
