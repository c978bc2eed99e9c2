"""What every strategy is: a small frozen object with keyword-only parameters.

``to_dict()`` gives ``{"name": ..., **params}`` and `make_strategy` rebuilds an equal object from it,
so an experiment can record, compare and sweep strategies. Decisions are batched methods over the
views of `sim.views`, each returning one answer per row:

    blind_nil(view: BlindView, rng) -> bool[n]     (only asked where a blind nil is legal)
    blind_bid(view: BlindView, rng) -> int8[n]      (Spades blind_bids: 1..7 set in view.legal,
                                                     or 0 to look at the cards first)
    bid(view: BidView, rng) -> int8[n]              (a bid whose bit is set in view.legal)
    raise_bid(view: BidView, rng) -> bool[n]        (Spades bid_raise: raise one's bid by one)
    no_trump(view: BidView, rng) -> bool[n]         (Spades no_trump_bids: make the bid no trump)
    in_the_dark(view: BidView, rng) -> bool[n]      (Spades nil_in_the_dark: play the nil blind)
    auction_bid(view: BidView, rng) -> int8[n]      (Spades auction: 0 pass or n, in view.legal)
    half_bid(view: BidView, rng) -> bool[n]         (Spades half_trick_bids: add a half)
    side_contract(view: BlindView | BidView, rng) -> int8[n]
                                                    (Spades side contracts: a code in view.legal)
    redeal(view: RedealView, rng) -> bool[n]        (Spades redeal_poor_hands: call a misdeal)
    reveal(view: RevealView, rng) -> bool[n]        (Spades seven_trump_reveal: show view.suit)
    draw(view: DrawView, rng) -> bool[n]            (two-player Spades: keep the first card)
    declare(view: DeclareView, rng) -> int8[n]      (a declaration code set in view.legal)
    pass_cards(view: PassView, rng) -> uint64[n]    (view.count cards of view.hand)
    play(view: PlayView, rng) -> uint64[n]          (one card of view.legal)

``rng`` draws one row of numbers per row of the view (``rng.random(len(view))``,
``rng.integers(0, k, (len(view), m))``): where blocks of whole games share a batch, it is their
streams (`sim.streams.Streams`), and each row's numbers come from its own block's.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any, ClassVar

from sim.errors import UserError, did_you_mean, known_names
from sim.inputs import read_toml
from sim.limits import TARGET_LIMIT
from sim.options import DEFAULT_GAME, PRESETS, show_value

__all__ = ["CARDS", "DEFICIT", "MARGIN", "RANK", "SCALE", "STRATEGIES", "Strategy", "TRICKS",
           "VALUE", "allowed_range", "check_param", "make_strategy", "param", "register"]

# The ranges of numeric parameters (issue 17 §2), each declared with its parameter by `param`:
TRICKS = (-100.0, 100.0)  # (expected) tricks, or a shift in them (a hand holds at most 18
#                            cards: the ends serve as "never", e.g. 99)
CARDS = (0, 26)  # a number of cards (of a suit, a hand) or of tricks
MARGIN = (-1, 26)  # a margin of tricks; -1 = never (where the parameter says so)
RANK = (0, 12)  # a rank: 0 = 2 ... 12 = A
DEFICIT = (-TARGET_LIMIT, TARGET_LIMIT)  # points a side trails by (as far as a target reaches)
SCALE = (0.0, 10.0)  # a factor on an estimate
VALUE = (-1000.0, 1000.0)  # a hand value's weight or threshold (Norwegian whist)


def param(default, allowed: tuple):
    """Declare a numeric parameter with its default and the range ``(low, high)`` it allows:
    `make_strategy` refuses a value outside it, or one not finite (nan, inf)."""
    return dataclasses.field(default=default, metadata={"range": allowed})


def allowed_range(field: dataclasses.Field) -> tuple | None:
    """The range a numeric parameter declares (None if it declares none)."""
    return field.metadata.get("range")


def check_param(field: dataclasses.Field, value) -> str | None:
    """Why ``value`` is not allowed for the numeric parameter ``field`` (None if it is)."""
    kind = "an integer" if type(field.default) is int else "a number"
    allowed = allowed_range(field)
    if isinstance(value, float) and not math.isfinite(value):
        ok = False
    else:
        ok = allowed is None or allowed[0] <= value <= allowed[1]
    if ok:
        return None
    where = f" in [{allowed[0]}, {allowed[1]}]" if allowed else " (finite)"
    return f"{value!r} is not allowed; allowed: {kind}{where}"

STRATEGIES: dict[str, type] = {}  # name -> the first strategy registered under it
BY_GAME: dict[tuple[str, str], type] = {}  # (game, name) -> a strategy written for that game


def register(cls):
    """Class decorator: make a strategy known by its ``name`` (for each game it plays; a game's
    own player may share a name with another game's, e.g. each game's ``seed``)."""
    STRATEGIES.setdefault(cls.name, cls)
    for game in cls.games or ():
        BY_GAME[(game, cls.name)] = cls
    return cls


def games_of_strategies() -> dict[str, list[str]]:
    """Each strategy name and the games it plays, in registration order."""

    games = list(dict.fromkeys(r.game for r in PRESETS.values()))
    return {name: [g for g in games if name in _for_game(g)] for name in STRATEGIES}


def _for_game(game: str) -> list[str]:
    names = {n for n, c in STRATEGIES.items() if c.games is None}
    return sorted(names | {n for g, n in BY_GAME if g == game})


@dataclasses.dataclass(frozen=True, kw_only=True)
class Strategy:
    name: ClassVar[str]
    games: ClassVar[tuple[str, ...] | None] = None  # the games it plays (None: every game)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, **dataclasses.asdict(self)}

    @classmethod
    def refuse(cls, rules) -> str | None:
        """Why the strategy does not play ``rules``, a rules value of a game it plays (None: it
        does): a strategy may handle only some of a game's tables and house rules so far."""
        return None


def _strategy_file(path: str) -> dict:
    """A strategy file: a TOML table with ``name`` and parameters (``tuned.toml`` of
    ``whistlab tune``)."""
    table = read_toml(path, "strategy file")
    if "name" not in table:
        raise UserError("a strategy file needs 'name'", source=path, key="name")
    return table


def make_strategy(spec, source: str | None = None, key: str | None = "strategy",
                  game: str | None = None, rules=None, rules_name: str | None = None
                  ) -> Strategy:
    """A strategy from its name or a ``{"name": ..., **params}`` mapping, for ``game`` if given,
    and for the rules value ``rules`` if given (named ``rules_name`` in the refusal of rules the
    strategy does not play, `Strategy.refuse`). ``source`` and ``key`` say where the spec was
    written, for error messages."""
    made = _make(spec, source, key, game)
    why = None if rules is None else made.refuse(rules)
    if why:
        named = rules_name or "these rules"
        raise UserError(f"strategy '{made.name}' does not play {named} yet: {why}",
                        source=source, key=key)
    return made


def _make(spec, source, key, game) -> Strategy:
    if isinstance(spec, Strategy):
        return spec
    if isinstance(spec, str) and spec.endswith(".toml"):  # a strategy file (whistlab tune)
        spec, source = _strategy_file(spec), spec
    params = dict(spec) if isinstance(spec, Mapping) else {"name": spec}
    name = params.pop("name", None)
    if not isinstance(name, str):
        named = "" if name is None else f"{show_value(name)} is not a strategy name; "
        raise UserError(f"{named}a strategy is a name or a table with 'name'; known strategies: "
                        f"{', '.join(STRATEGIES)}", source=source, key=key)
    if name not in STRATEGIES:
        raise UserError(f"unknown strategy '{name}'{did_you_mean(name, STRATEGIES)}; known "
                        f"strategies: {', '.join(STRATEGIES)}", source=source, key=key)
    cls = BY_GAME.get((game or DEFAULT_GAME, name), STRATEGIES[name])
    if game is not None and cls.games is not None and game not in cls.games:
        raise UserError(f"strategy '{name}' does not play {game} yet; strategies for {game}: "
                        f"{', '.join(_for_game(game))}", source=source, key=key)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    where = "" if key in (None, "strategy") else f"{key}."
    for param, value in params.items():
        if param not in fields:
            raise UserError(f"unknown parameter of strategy '{name}'" + known_names(
                param, fields, "allowed", f"the fields of {cls.__module__}.{cls.__name__}"),
                source=source, key=where + param)
        default = fields[param].default
        if type(value) is not type(default) and not (type(default) is float
                                                     and type(value) is int):
            raise UserError(f"strategy '{name}': {value!r} is not a {type(default).__name__}",
                            source=source, key=where + param)
        why = check_param(fields[param], value) if type(default) in (int, float) else None
        if why:
            raise UserError(f"strategy '{name}': {why}", source=source, key=where + param)
    return cls(**params)
