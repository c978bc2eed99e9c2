"""Portland whist house rules: the keys of RULES.md §1 and their presets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..errors import UserError
from ..limits import HAND_GUARD, TARGET_LIMIT
from ..options import option, register_preset

__all__ = ["PortlandRules"]


@dataclass(frozen=True)
class PortlandRules:
    """The rules of one Portland whist game (RULES.md §1). Defaults are ``portland``."""

    game: ClassVar[str] = "portland"
    players: ClassVar[int] = 4
    tricks_per_hand: ClassVar[int] = 13

    trump: str = option("turn_up", "turn_up: the dealer's last card's suit is trump; none: no "
                        "trump", kind=str, choices=("turn_up", "none"))
    book: int = option(6, "tricks a side must take before it scores one point a trick",
                       kind=int, minimum=0, maximum=12)
    target_score: int = option(5, "the first side to reach it wins the game", kind=int,
                               minimum=1, maximum=TARGET_LIMIT)
    honours: bool = option(False, "a side holding 4 (3) of A K Q J of trump scores 4 (2)",
                           kind=bool)
    honours_order: str = option(
        "tricks_first", "tricks_first: trick points first, honours only if the game goes on; "
        "together: both at once, the higher total wins", kind=str,
        choices=("tricks_first", "together"))
    dummy: bool = option(False, "three players: seat 3's hand is a dummy, face up from the end "
                         "of the deal, played by seat 1", kind=bool)
    honours_barred_at: int | None = option(
        None, "a side with at least this score cannot score honours (laws: 4)", kind=int,
        minimum=1, maximum=TARGET_LIMIT, optional=True)
    rubber: bool = option(False, "best of three games, games worth 3/2/1, rubber bonus 2",
                          kind=bool)

    hand_limit: ClassVar[int] = HAND_GUARD  # the most hands a game may last (the guard)

    def check(self) -> None:
        """Reject combinations of keys that cannot be played, or not yet simulated."""
        if self.honours_order != "tricks_first" and not self.honours:
            raise UserError("honours_order has no effect with honours = false: set honours = "
                            "true or leave honours_order out", key="honours_order")
        if self.honours and self.trump == "none":
            raise UserError("honours need a trump suit: not with trump = \"none\"",
                            key="honours")
        if self.honours_barred_at is not None and not self.honours:
            raise UserError("honours_barred_at needs honours = true", key="honours_barred_at")
        if self.honours_barred_at is not None and self.honours_barred_at >= self.target_score:
            raise UserError("honours_barred_at must be below target_score",
                            key="honours_barred_at")
        if self.rubber and self.target_score != 5:
            raise UserError("rubber = true follows the laws of short whist: games of 5 points "
                            "(target_score = 5)", key="rubber")


register_preset("portland", PortlandRules())
register_preset("portland.seven", PortlandRules(target_score=7))
register_preset("portland.honours", PortlandRules(honours=True))
register_preset("portland.long", PortlandRules(target_score=10, honours=True))
register_preset("portland.no_trump", PortlandRules(trump="none"))
register_preset("portland.dummy", PortlandRules(dummy=True))
register_preset("portland.laws", PortlandRules(honours=True, honours_barred_at=4, rubber=True))
