"""The Spades contract auction of RULES.md §4.4 (``auction``): its helpers, now the plug-in's
(`sim.spades.house.auction`, which says what stays in the engine), re-exported here."""

from __future__ import annotations

from .house.auction import MAX_BID, MAX_CALLS, AuctionResult, auction_points, run_auction

__all__ = ["MAX_BID", "MAX_CALLS", "AuctionResult", "auction_points", "run_auction"]
