"""The public information the engine hands to strategies (sim/views.py), recomputed here from the
play so far: ``voids``, the suits each seat has shown void in, in every game and player count; and
every view's documented fields, dtypes and shapes against the arrays real runs of every game
pass (issue 20 item 1)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

from sim import views
from sim.cards import CLUBS, SPADES
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import PRESETS, load_rules
from sim.replay import view_at
from strategies import make_strategy


def history_voids(view, lowest_club: bool = False) -> np.ndarray:
    """uint8[n, P] from the earlier tricks alone: a card off the led suit shows a void in it;
    under RULES.md §4.3 ``first_trick_lowest_club`` (``lowest_club``) trick 1 reads otherwise:
    everyone plays his lowest club, or a non-spade without one, whatever was led, so a card
    other than a club shows a club void, and a spade a void of every other suit."""
    n, players = view.tricks.shape
    out = np.zeros((n, players), np.uint8)
    if not view.history.size:
        return out
    suit = view.deck.suit_of_bit
    history = view.history.reshape(n, -1, players)
    seats = view.history_seats.reshape(n, -1, players)
    for i in range(n):
        for t, (cards, who) in enumerate(zip(history[i], seats[i], strict=True)):
            if lowest_club and t == 0:
                for c, s in zip(cards, who, strict=True):
                    if suit[c] != CLUBS:
                        out[i, s] |= (0b0111 if suit[c] == SPADES else 0) | 1 << CLUBS
                continue
            led = suit[cards[0]]
            for c, s in zip(cards[1:], who[1:], strict=True):
                if suit[c] != led:
                    out[i, s] |= 1 << led
    return out


class Checking:
    """Plays like ``random``; checks each view's ``voids``: exactly the earlier tricks' at a
    lead (``lowest_club``: as `history_voids` reads trick 1 then), only growing within a trick,
    and true of the acting seat's own hand."""

    def __init__(self, game, lowest_club: bool = False):
        self.inner = make_strategy("random", game=game)
        self.lowest_club = lowest_club
        self.leads = self.voids = 0

    def __getattr__(self, name):  # bids and declarations as `random`
        return getattr(self.inner, name)

    def play(self, view, rng):
        want = history_voids(view, self.lowest_club)
        if view.position == 0:
            assert np.array_equal(view.voids, want)
            self.leads += len(view)
        else:
            assert np.array_equal(view.voids & want, want)
        rows = np.arange(len(view))
        mine = view.voids[rows, view.seat]
        for s, mask in enumerate(view.deck.suit_masks):
            shown = (mine >> s) & 1 == 1
            assert not np.any(shown & ((view.hand & mask) != 0)), "a void seat holds the suit"
        self.voids += int(view.voids.any(axis=1).sum())
        return self.inner.play(view, rng)


@pytest.mark.parametrize("preset", ["spades.standard", "portland", "norwegian",
                                    "norwegian.three", "norwegian.classic"])
def test_voids_are_the_public_record_of_failing_to_follow(preset):
    rules = PRESETS[preset]
    player = Checking(rules.game)
    lineup = Lineup([player] * getattr(rules, "players", 4))
    GAMES[rules.game].play_block(rules, lineup, 11, 0, 60, "hands")
    tricks = rules.tricks_per_hand
    assert player.leads == 60 * tricks
    assert player.voids > 0  # voids do occur, so the checks above bite


def test_the_first_trick_under_lowest_club_shows_the_voids_it_proves():
    """RULES.md §4.3 ``first_trick_lowest_club``: everyone plays his lowest club to trick 1
    whatever was led, so a card off the led suit there shows no void of it (it once did:
    `PlayView.voids` were the suits a seat did not follow) and a card other than a club shows a
    club void. The views' voids are `history_voids`' reading of trick 1, and true of each
    seat's hand; with the plain reading some would be false (the check bites)."""
    rules = load_rules({"preset": "spades.standard", "first_trick_lowest_club": True})
    player = Checking("spades", lowest_club=True)
    plain = Checking("spades")
    GAMES["spades"].play_block(rules, Lineup([player] * 4), 11, 0, 80, "hands")
    assert player.leads == 80 * 13
    with pytest.raises(AssertionError):
        GAMES["spades"].play_block(rules, Lineup([plain] * 4), 11, 0, 80, "hands")


def test_a_spade_on_the_first_trick_under_lowest_club_shows_nothing_else_is_held():
    """A seat holding only spades plays one to trick 1 under ``first_trick_lowest_club`` (a
    non-spade was his to play if he held one): he shows a void of every other suit; a seat
    that holds no club shows a club void (a hand-made deal, replayed by the engine)."""
    ranks = "23456789TJQKA"
    record = {"game": "spades", "rules": {"preset": "spades.standard",
                                          "first_trick_lowest_club": True},
              "dealer": 3, "hands": [[r + s for r in ranks] for s in "CDHS"],
              "before": {"scores": [0, 0], "bags": [0, 0]}, "bids": [2, 3, 3, 5],
              "blind": [False] * 4, "plays": ["2C", "2D", "2H", "2S"]}
    view = view_at(record).view
    assert list(view.voids[0]) == [0, 1 << CLUBS, 1 << CLUBS, 0b0111]


# -- the documented fields (issue 20 item 1) ---------------------------------------------------

# a field line of a view's "Fields:" table: name, dtype (alternatives joined by " | ") and shape
FIELD_LINE = re.compile(r"^ {8}(\w+) +((?:\w+\[[^\]]*\](?: \| \w+\[[^\]]*\])*)|int|bool) ")
SPEC = re.compile(r"(\w+)\[([^\]]*)\]")

# runs that show every view class every decision and game has (the `random` player answers
# every decision): rules, mode, size
RUNS = [
    ("spades.standard", "games", 20),
    ({"preset": "spades.standard", "mo_a": True, "blind_six": True, "bemo": True,
      "ten_for_two_hundred": True, "team_blind_nil": True}, "games", 20),
    ({"preset": "spades.standard", "auction": True}, "hands", 100),
    ({"preset": "spades.standard", "pass_cards": {"count": 2, "direction": "left"},
      "face_up_cards": 2}, "hands", 100),
    ({"preset": "spades.standard", "jokers": 2, "kitty": True, "kitty_taker": "two_of_clubs"},
     "hands", 100),
    ({"preset": "spades.standard", "blind_bids": True, "blind_bid_min_deficit": 50,
      "half_trick_bids": True, "redeal_poor_hands": ["one_spade_or_less"],
      "seven_trump_reveal": True, "bag_cancel_card": "cut"}, "games", 20),
    ({"preset": "spades.standard", "bid_raise": True, "no_trump_bids": True,
      "nil_in_the_dark": True}, "hands", 100),
    ("spades.six", "hands", 50),
    ({"preset": "spades.six", "face_up_cards": 4, "seven_trump_reveal": True}, "hands", 50),
    ({"players": 2}, "hands", 100),
    ("portland.dummy", "hands", 50),
    ("norwegian", "hands", 50),
    ("norwegian.three", "hands", 50),
    ("norwegian.classic", "hands", 50),
]


def documented(cls) -> dict[str, set[tuple[str, str]]]:
    """field -> {(dtype, shape)} from the "Fields:" tables of ``cls``'s docstring and its
    bases' (a subclass documents the fields it adds or narrows)."""
    out: dict[str, set[tuple[str, str]]] = {}
    for klass in reversed(cls.__mro__):
        if klass.__module__ != views.__name__ or not klass.__doc__:
            continue
        for line in klass.__doc__.splitlines():
            match = FIELD_LINE.match(line)
            if match:
                name, spec = match.groups()
                out[name] = set(SPEC.findall(spec)) or {(spec, "")}
    return out


class Observing:
    """Plays like ``random``; notes every field of every view it is shown: (view class, field)
    -> the set of (dtype or Python type, whether its shape matched the documented one)."""

    def __init__(self, game, players, sides, seen):
        self.inner, self.players, self.sides, self.seen = (
            make_strategy("random", game=game), players, sides, seen)

    def __getattr__(self, method):
        answer = getattr(self.inner, method)

        def observe(view, rng):
            docs = documented(type(view))
            for f in dataclasses.fields(view):
                value = getattr(view, f.name)
                if value is None or f.name in ("rules", "deck"):
                    continue
                kind = (str(value.dtype) if isinstance(value, np.ndarray)
                        else type(value).__name__)
                shape = value.shape if isinstance(value, np.ndarray) else None
                specs = docs.get(f.name, set())
                fits = [s for d, s in specs if d == kind]
                ok = bool(fits) and (shape is None or all(
                    self._fits(shape, s, len(view)) for s in fits))
                self.seen.setdefault((type(view).__name__, f.name), set()).add((kind, ok))
            return answer(view, rng)
        return observe

    def _fits(self, shape, spec, n) -> bool:
        sizes = {"n": n, "P": self.players, "S": self.sides}
        dims = [d.strip() for d in spec.split(",")]
        return len(dims) == len(shape) and all(
            sizes.get(d, size) == size for d, size in zip(dims, shape, strict=True))


@pytest.fixture(scope="module")
def observed() -> dict:
    from sim.options import load_rules

    seen: dict = {}
    for table, mode, size in RUNS:
        rules = load_rules(table, source="test")
        players = getattr(rules, "players", 4)
        player = Observing(rules.game, players, getattr(rules, "sides", 2), seen)
        GAMES[rules.game].play_block(rules, Lineup([player] * players), 11, 0, size, mode)
    return seen


VIEWS = [getattr(views, name) for name in views.__all__]


@pytest.mark.parametrize("cls", VIEWS, ids=[c.__name__ for c in VIEWS])
def test_every_field_of_every_view_is_documented(cls):
    fields = {f.name for f in dataclasses.fields(cls)} - {"rules", "deck"}
    assert fields <= set(documented(cls)), sorted(fields - set(documented(cls)))


@pytest.mark.parametrize("cls", VIEWS, ids=[c.__name__ for c in VIEWS])
def test_the_documented_dtypes_are_those_the_engine_passes(cls, observed):
    """Every array a view of ``cls`` showed in the runs has a dtype and shape its docstring
    lists for the field, and every dtype listed was shown (the docstring claims none the
    engine never passes)."""
    name = cls.__name__
    fields = {field for view, field in observed if view == name}
    assert fields, f"no {name} was shown in the runs"
    wrong = {field: kinds for (view, field), kinds in observed.items()
             if view == name and not all(ok for _, ok in kinds)}
    assert not wrong, (wrong, documented(cls))
    docs = documented(cls)
    for field in fields:
        shown = {kind for kind, _ in observed[name, field]}
        assert {d for d, _ in docs[field]} == shown, (field, docs[field], shown)


def test_the_readmes_table_of_views_says_what_the_docstrings_say():
    """The README's table of the views a position shows (section "One decision from a
    position"): every field it gives a dtype and shape is documented so in the view's
    docstring, which the test above holds to the engine's arrays."""
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+View)`[^|]*\| (.*) \|$", readme, re.M)
    assert {name for name, _ in rows} == {"BlindView", "BidView", "DeclareView", "PlayView"}
    checked = 0
    for name, text in rows:
        docs = documented(getattr(views, name))
        for field, dtype, shape in re.findall(r"`(\w+)` (\w+)\[([^\]]*)\]", text):
            assert (dtype, shape) in docs[field], (name, field, dtype, shape, docs[field])
            checked += 1
        for field, kind in re.findall(r"`(\w+)` (int|bool)(?![\w\[])", text):
            assert docs[field] == {(kind, "")}, (name, field)
            checked += 1
    assert checked > 40


@pytest.mark.parametrize("card", ["cut", "7H"])
def test_every_view_shows_the_hands_bag_cancelling_card(card):
    """RULES.md §4.6 ``bag_cancel_card``: every decision's view of a hand (the bids, the trump
    reveals, the cards) shows the card its table row records, cut per deal or named."""
    rules = load_rules({"preset": "spades.standard", "bag_cancel_card": card,
                        "seven_trump_reveal": True}, source="test")
    shown: dict = {}

    class Noting:
        def __init__(self):
            self.inner = make_strategy("random", game="spades")

        def __getattr__(self, method):
            def note(view, rng):
                for row, slot in zip(view.rows.tolist(), view.cancel_card.tolist(), strict=True):
                    shown.setdefault(row, set()).add((type(view).__name__, slot))
                return getattr(self.inner, method)(view, rng)
            return note

    result = GAMES["spades"].play_block(rules, Lineup([Noting()] * 4), 5, 0, 60, "hands")
    hands, _ = GAMES["spades"].block_tables(result, 0)
    recorded = dict(zip(hands.column("game_id").to_pylist(),
                        hands.column("cancel_card").to_pylist(), strict=True))
    assert {view for seen in shown.values() for view, _ in seen} >= {"BidView", "PlayView",
                                                                     "RevealView"}
    distinct = len(set(recorded.values()))
    assert distinct == 1 if card == "7H" else distinct > 20
    for row, seen in shown.items():
        assert {slot for _, slot in seen} == {recorded[row]}, row
