"""Spades hand records (RULES.md §5): what a block simulated, as the records `sim.records` writes,
with Spades' own keys (bids, blind flags, bags, and each house rule's decisions)."""

from __future__ import annotations

from typing import Any

from ..records import card_names, hand_records
from .contracts import NAMES
from .hand import deck_for
from .house import in_force

__all__ = ["block_records"]


def block_records(result, cell, game_offset: int,
                  limit: int | None = None) -> list[dict[str, Any]]:
    """Spades hand records of a block: the shared keys plus bids, blind flags and bags (``limit``:
    its first hands only, `sim.records.hand_records`)."""
    deck = deck_for(cell.rules)
    plugins = in_force(cell.rules)

    def spades(o, i, row):
        bids = [None if b < 0 else b for b in o.bidding.bids[i].tolist()]  # -1: a side contract
        rec = {"bids": bids, "blind": o.bidding.blind[i].tolist(),
               "before": {"bags": result.before_bags[row].tolist()}}
        if result.before_progressive[row].any():  # RULES.md §4.6 progressive bonuses so far
            rec["before"]["progressive"] = result.before_progressive[row].tolist()
        if result.discarded[row].any():  # RULES.md §4.7 two players: the draw's discards
            rec["discarded"] = [deck.names_of(h) for h in result.discarded[row]]
            if o.seen is not None and (o.seen[i] != result.discarded[row]).any():
                # first_decides_blind: the seconds each seat discarded without seeing them
                rec["unseen_discards"] = [deck.names_of(d & ~s) for d, s in
                                          zip(result.discarded[row], o.seen[i], strict=True)]
        for rule in plugins:  # the plug-ins' record fields (redeal_poor_hands: the misdeals;
            # face_up_cards: the cards by seat; seven_trump_reveal: the reveal; bag_cancel_card;
            # kitty: who took it, its cards and the discard)
            if rule.record:
                rec.update(rule.record(o.house_state, i, deck))
        for rule in plugins:  # the fields of a bidding of its own (RULES.md §4.4 auction)
            if rule.record_bidding:
                rec.update(rule.record_bidding(o.bidding, i))
        for key, flags in (*o.bidding.flags.items(), ("half", o.bidding.half)):  # §4.4 plug-ins
            # (no_trump_bids, nil_in_the_dark, bid_raise) and half bids
            if flags[i].any():  # (bid_raise: the bids are the raised ones)
                rec[key] = flags[i].tolist()
        for key, codes in (("side_contracts", o.bidding.contracts[i]),
                           ("bemo", o.bidding.bemo[i])):
            if codes.any():  # RULES.md §4.4 side contracts and bemos, by side
                rec[key] = [NAMES[c] if c else None for c in codes.tolist()]
        if (o.held[i] != result.hands[row]).any() or o.twice[i].any():
            # RULES.md §5: the hands at the start of play, after any passing or kitty (§4.1);
            # a card held twice (two decks, §4.7) is named twice
            rec["hands"] = [card_names(deck, h, t)
                            for h, t in zip(o.held[i], o.twice[i], strict=True)]
        if o.passed[i].any():
            rec["passed"] = [deck.names_of(h) for h in o.passed[i]]
        return rec

    return hand_records(result, cell, game_offset, deck, spades, limit)
