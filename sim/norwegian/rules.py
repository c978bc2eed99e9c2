"""Norwegian whist house rules: the keys of RULES.md §2 and their presets.

``players`` 2 or 3 is the seed's game (grand against misère, no trumps); ``players`` 4 is the
published partnership game of RULES.md §2 "Beyond the seed" (`norwegian.classic`: grand or nullo,
game 50), which has its own scoring keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..errors import UserError
from ..limits import HAND_GUARD, HAND_LIMIT, TARGET_LIMIT
from ..options import option, register_preset

__all__ = ["NorwegianRules"]

SEED_KEYS = ("double_points", "scoring")  # the seed game's (players 2, 3)
CLASSIC_KEYS = ("grand_value", "grand_fail_value", "nullo_value")  # the classic game's (4)
# the classic game's values per trick: at most 7 tricks above six, 7000 points a hand, well
# inside a hand's int16 points (sim/limits.py; tests/test_ranges.py)
VALUE_MAX = 1000


@dataclass(frozen=True)
class NorwegianRules:
    """The rules of one Norwegian whist game (RULES.md §2). Defaults are ``norwegian``."""

    game: ClassVar[str] = "norwegian"

    players: int = option(2, "2: 13 cards each, 26 set aside; 3: 17 each, one set aside, a "
                          "grand/pass auction; 4: the classic partnership game", kind=int,
                          minimum=2, maximum=4)
    target_score: int = option(20, "the first to reach it wins; a shared top score is a draw",
                               kind=int, minimum=1, maximum=TARGET_LIMIT)
    double_points: bool = option(False, "the grand player taking every trick or none doubles "
                                 "every score of the hand", kind=bool)
    scoring: str = option("both", "both: each side scores its own table; declarer: only the "
                          "player who chose; zero_sum: the declarer's value to the declarer, "
                          "its negative to each opponent", kind=str,
                          choices=("both", "declarer", "zero_sum"))
    grand_value: int = option(4, "classic: per trick above six to a grand side that made it",
                              kind=int, minimum=0, maximum=VALUE_MAX)
    grand_fail_value: int = option(8, "classic: per trick above six to the opponents of a "
                                   "failed grand", kind=int, minimum=0, maximum=VALUE_MAX)
    nullo_value: int = option(2, "classic: per trick above six the opponents took, under nullo",
                              kind=int, minimum=0, maximum=VALUE_MAX)
    max_hands: int | None = option(
        200, "a game still running after this many hands stops unfinished (no winner); the "
        "seed has no limit, but a game whose scores drift nowhere may never end", kind=int,
        minimum=1, maximum=HAND_LIMIT, optional=True)

    @property
    def cards_each(self) -> int:
        """13 each with 2 (26 set aside) or 4 players, 17 with 3 (one set aside)."""
        return 17 if self.players == 3 else 13

    @property
    def tricks_per_hand(self) -> int:
        return self.cards_each

    @property
    def hand_limit(self) -> int:
        """The most hands a game may last: ``max_hands``, else the engine's guard."""
        return HAND_GUARD if self.max_hands is None else self.max_hands

    @property
    def sides(self) -> int:
        """Who scores: each player with 2 or 3 players, the two partnerships with 4."""
        return 2 if self.players == 4 else self.players

    def check(self) -> None:
        """Reject keys that do not belong to the chosen game."""
        defaults = NorwegianRules()
        if self.players == 4:
            for key in SEED_KEYS:
                if getattr(self, key) != getattr(defaults, key):
                    raise UserError("applies to the seed game (players = 2 or 3); the classic "
                                    "game (players = 4) scores grand_value, grand_fail_value "
                                    "and nullo_value", key=key)
        else:
            for key in CLASSIC_KEYS:
                if getattr(self, key) != getattr(defaults, key):
                    raise UserError("applies to the classic game only (players = 4)", key=key)


register_preset("norwegian", NorwegianRules())
register_preset("norwegian.declarer", NorwegianRules(scoring="declarer"))
register_preset("norwegian.zero_sum", NorwegianRules(scoring="zero_sum"))
register_preset("norwegian.three", NorwegianRules(players=3))
register_preset("norwegian.double", NorwegianRules(double_points=True))
register_preset("norwegian.classic", NorwegianRules(players=4, target_score=50))
