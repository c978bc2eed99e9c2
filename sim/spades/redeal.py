"""Misdeals of poor hands (RULES.md §4.1 ``redeal_poor_hands``): the rule is the plug-in
`sim.spades.house.redeal_poor_hands`; its conditions, its decision and its view are re-exported
here."""

from __future__ import annotations

from .house.redeal_poor_hands import CONDITIONS, MAX_DEALS, poor_hands, redeal, redeal_view

__all__ = ["CONDITIONS", "MAX_DEALS", "poor_hands", "redeal", "redeal_view"]
