"""A hand drawn as a card diagram (`HandDiagram`), from a replayed hand record (RULES.md §5,
`sim.replay`): each seat's cards in suit rows (♠ ♥ ♦ ♣, the red suits red, highest first) around
the table, with the seat's call (a bid, a declaration) and tricks; the tricks in the order played,
their leader and winner marked; and the score, side by side. The templates (``hand.html``,
``page.md``) lay it out as HTML and CSS, no picture.

The kit knows no game: a study gives each seat's call, the lines in the middle of the table (the
dealer, a turned-up trump, a contract) and the rows of the score; the cards, who played each and
who won each trick come from the record. Four players sit around the table (seat 0 South, then
clockwise West, North, East: partners 0 and 2 face each other); any other number of players sit
in a row, in seat order. Seat ``s`` plays for side ``s mod S``, S sides (the record's
``points``): partners at four, each player alone at two or three (RULES.md §0, §4.7)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["Card", "HandDiagram", "SeatHand", "Trick", "card", "hand_diagram", "seat_name",
           "side_name", "trick_seats"]

SUITS = (("S", "♠", False), ("H", "♥", True), ("D", "♦", True), ("C", "♣", False))
RANKS = "AKQJT98765432"
JOKERS = ("BJ", "LJ")  # big, little (RULES.md §0)
COMPASS = ("South", "West", "North", "East")  # seats 0..3, clockwise
PLACES = ("s", "w", "n", "e")


@dataclass(frozen=True)
class Card:
    """A card as a diagram shows it: its record name (``"TH"``), its rank as printed
    (``"10"``), its suit's symbol and whether the suit is red."""

    name: str
    rank: str
    symbol: str
    red: bool

    @property
    def text(self) -> str:
        return f"{self.symbol}{self.rank}" if self.symbol else self.rank


def card(name: str) -> Card:
    """The card a record names (``"AS"``, ``"TH"``, ``"BJ"``); a name that is not rank + suit
    (a joker) is shown as it is written."""
    if name in JOKERS or len(name) != 2:
        return Card(name, name, "", False)
    rank, suit = name[0], name[1]
    symbol, red = next(((s, r) for k, s, r in SUITS if k == suit), ("", False))
    return Card(name, "10" if rank == "T" else rank, symbol, red)


def _rank_order(c: Card) -> int:
    raw = c.name[0] if c.symbol else ""
    return RANKS.index(raw) if raw in RANKS else -1


@dataclass
class SeatHand:
    """A seat's hand: its place at the table (``s``, ``w``, ``n``, ``e``; "" in a row), its
    name and player, its call and tricks, what else it is (dealer, declarer ...), its cards by
    suit: ``(symbol, red, cards highest first)``, jokers in a row of their own; ``focus``: the
    hand is drawn for this seat."""

    seat: int
    place: str
    name: str
    player: str
    call: str
    tricks: int | None
    roles: list[str]
    rows: list[tuple[str, bool, list[Card]]]
    focus: bool = False  # a seat the hand is drawn for (the nil bidder who was set ...)

    @property
    def cards(self) -> list[Card]:
        return [c for _, _, cs in self.rows for c in cs]


@dataclass
class Trick:
    """A trick: its number (from 1), the card each seat played (by seat), its leader and its
    winner (None: won by nobody, RULES.md §4.7 ``cancel_spades``)."""

    number: int
    plays: list[Card | None]
    leader: int
    winner: int | None


@dataclass
class HandDiagram:
    """A hand to draw: a title, why it was chosen (``caption``), where it comes from (the cell,
    game and hand: ``where``), its seats, the lines in the middle of the table, the tricks, and
    the score: a row per line (``label``, a value per side) under the sides' names."""

    title: str
    caption: str
    where: str
    seats: list[SeatHand]
    centre: list[str]
    tricks: list[Trick]
    sides: list[str]
    score: list[tuple[str, list[str]]]
    facts: list[str] = field(default_factory=list)

    @property
    def around(self) -> bool:
        """Four players: drawn around the table; else in a row."""
        return len(self.seats) == 4

    def seat(self, place: str) -> SeatHand:
        return next(s for s in self.seats if s.place == place)

    @property
    def columns(self) -> list[str]:
        """The trick table's column heads, one per seat."""
        return [s.name for s in self.seats]

    @property
    def score_rows(self) -> list[list[str]]:
        return [[label, *values] for label, values in self.score]

    def played(self, trick: Trick) -> str:
        """A trick in a line of text, from its leader on, its winner starred:
        "South ♣2, West ♣A*, North ♣5, East ♣9"."""
        n = len(self.seats)
        order = [(trick.leader + k) % n for k in range(n)]
        return ", ".join(f"{self.seats[s].name} {trick.plays[s].text}"
                         + ("*" if s == trick.winner else "")
                         for s in order if trick.plays[s] is not None)


def seat_name(seat: int, players: int) -> str:
    return f"{COMPASS[seat]} ({seat})" if players == 4 else f"Seat {seat}"


def side_name(side: int, sides: int, players: int) -> str:
    """A side by its seats: "North–South (0, 2)" at four in partnerships, else "Seat k" or
    "Seats a, b"."""
    seats = list(range(side, players, sides))
    if players == 4 and sides == 2:
        return ("North–South" if side == 0 else "East–West") + f" ({seats[0]}, {seats[1]})"
    if len(seats) == 1:
        return seat_name(seats[0], players)
    return "Seats " + ", ".join(map(str, seats))


def _rows(names: Sequence[str]) -> list[tuple[str, bool, list[Card]]]:
    cards = [card(n) for n in names]
    rows = []
    jokers = [c for c in cards if not c.symbol]
    if jokers:
        rows.append(("Jokers", False, sorted(jokers, key=lambda c: c.name)))
    for _, symbol, red in SUITS:
        rows.append((symbol, red, sorted((c for c in cards if c.symbol == symbol),
                                         key=_rank_order)))
    return rows


def trick_seats(hands: Sequence[Sequence[str]], plays: Sequence[str],
                winners: Sequence[int | None] | None, dealer: int) -> list[list[int]]:
    """Who played each card of ``plays``, trick by trick: play goes clockwise from the leader
    (RULES.md §0), who is the last trick's winner; the first trick's (or one after a trick won
    by nobody) is the seat holding its first card (with two decks, of the seats holding it, the
    first from the dealer's left). A card the seat to play does not hold (a record that is not
    a replayed one) goes to a seat that holds it."""
    players = len(hands)
    left = [list(h) for h in hands]
    out = []
    for t in range(len(plays) // players):
        cards = plays[t * players:(t + 1) * players]
        won = winners[t - 1] if winners is not None and t > 0 else None
        if won is not None and won >= 0:
            leader = int(won)
        else:
            holders = [(dealer + 1 + k) % players for k in range(players)
                       if cards[0] in left[(dealer + 1 + k) % players]]
            leader = holders[0] if holders else (dealer + 1) % players
        seats = []
        for k, name in enumerate(cards):
            seat = (leader + k) % players
            if name not in left[seat]:
                seat = next((s for s in range(players) if name in left[s] and s not in seats),
                            seat)
            if name in left[seat]:
                left[seat].remove(name)
            seats.append(seat)
        out.append(seats)
    return out


def hand_diagram(record: dict, *, title: str, caption: str, where: str, players: list[str],
                 calls: list[str], roles: dict[int, list[str]] | None = None,
                 centre: Sequence[str] = (), score: Sequence[tuple[str, list[str]]] = (),
                 facts: Sequence[str] = (), focus: Sequence[int] = ()) -> HandDiagram:
    """The diagram of a replayed hand record (``hands``, ``plays``, ``winners``, ``tricks``,
    ``points``): ``players`` and ``calls`` by seat (a strategy label, a bid), ``roles`` the
    seats' other parts (dealer is added), ``centre`` the lines in the middle of the table,
    ``score`` the score's rows (a label, a value per side), ``facts`` sentences on what the
    hand shows, ``focus`` the seats it is drawn for (outlined)."""
    hands, plays = record["hands"], record.get("plays", [])
    n = len(hands)
    sides = len(record.get("points") or []) or n
    dealer = int(record.get("dealer", 0))
    roles = {s: list(r) for s, r in (roles or {}).items()}
    roles.setdefault(dealer, []).insert(0, "dealer")
    tricks = record.get("tricks") or [None] * n
    seats = [SeatHand(s, PLACES[s] if n == 4 else "", seat_name(s, n), players[s], calls[s],
                      tricks[s], roles.get(s, []), _rows(hands[s]), s in focus)
             for s in range(n)]
    winners = record.get("winners")
    played = []
    for t, who in enumerate(trick_seats(hands, plays, winners, dealer)):
        by_seat: list[Card | None] = [None] * n
        for k, seat in enumerate(who):
            by_seat[seat] = card(plays[t * n + k])
        won = winners[t] if winners is not None and t < len(winners) else None
        played.append(Trick(t + 1, by_seat, who[0], None if won is None or won < 0
                            else int(won)))
    return HandDiagram(title, caption, where, seats, list(centre), played,
                       [side_name(k, sides, n) for k in range(sides)], list(score), list(facts))
