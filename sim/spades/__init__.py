"""Spades (RULES.md §3, and §4 as its keys land)."""
