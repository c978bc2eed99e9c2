"""Seven-card trump reveals (RULES.md §4.2 ``seven_trump_reveal``): the rule is the plug-in
`sim.spades.house.seven_trump_reveal`; its decision and its view are re-exported here."""

from __future__ import annotations

from .house.seven_trump_reveal import reveal_trumps, reveal_view

__all__ = ["reveal_trumps", "reveal_view"]
