"""The Spades study's hands (`reports.hands`): a nil set by exactly one trick, a contract set by
one trick and the largest bag penalty of the run's sample of records, drawn as card diagrams."""

from __future__ import annotations

from ...hands import Kind, Notable, Played, notable, players, score_rows, side_of
from ...kit.hands import HandDiagram, hand_diagram, seat_name, side_name

__all__ = ["KINDS", "contract_sets", "hands_section", "nil_sets"]

PARTS = [("contract", "contract"), ("overtricks", "overtricks (bags)"),
         ("bag_penalty", "bag penalty"), ("nil", "nil and blind nil"), ("bemo", "bemo"),
         ("bonus", "bonuses"), ("trick_bonus", "trick bonuses")]


def _bids(rec: dict) -> list[int | None]:
    return rec.get("bids") or [None] * len(rec["hands"])


def nil_sets(rec: dict) -> list[int]:
    """The seats that bid nil (or blind nil: a bid of 0) and took exactly one trick."""
    return [s for s, b in enumerate(_bids(rec)) if b == 0 and rec["tricks"][s] == 1]


def contracts(rec: dict) -> list[int]:
    """Each side's contract: the sum of its seats' bids other than nil (RULES.md §3)."""
    out = [0] * len(rec["points"])
    for s, b in enumerate(_bids(rec)):
        if b:
            out[side_of(s, len(out))] += b
    return out


def contract_sets(rec: dict) -> list[int]:
    """The sides set by exactly one trick: a contract, scored negative, whose bidders (nil
    bidders aside) took one trick fewer than it."""
    sides, bids = len(rec["points"]), _bids(rec)
    taken = [0] * sides
    for s, b in enumerate(bids):
        if b:
            taken[side_of(s, sides)] += rec["tricks"][s]
    scored = rec.get("components", {}).get("contract", [0] * sides)
    return [k for k, c in enumerate(contracts(rec)) if c > 0 and scored[k] < 0
            and taken[k] == c - 1]


def _penalty(p: Played) -> float | None:
    worst = min(p.record.get("components", {}).get("bag_penalty", [0]))
    return -worst if worst < 0 else None


KINDS = [
    Kind("nil_set", "A nil set by one trick",
         "The first hand of the sample in which a nil or blind nil bidder took exactly one "
         "trick.",
         lambda p: 1 if nil_sets(p.record) else None,
         "The sample has no nil set by exactly one trick."),
    Kind("contract_set", "A contract set by one trick",
         "The first hand of the sample in which a side's bidders (nil bidders aside) took "
         "exactly one trick fewer than their contract, which scored negative.",
         lambda p: 1 if contract_sets(p.record) else None,
         "The sample has no contract set by exactly one trick."),
    Kind("bag_penalty", "The largest bag penalty",
         "The hand of the sample with the largest bag penalty a side paid (its bag_penalty "
         "component), the first among equals.",
         _penalty,
         "No side paid a bag penalty in the sample's hands."),
]


def _call(bid: int | None, blind: bool) -> str:
    if bid is None:
        return "no bid of its own"
    if bid == 0:
        return "blind nil" if blind else "nil"
    return f"bid {bid}" + (" blind" if blind else "")


def _why(p: Played, kind: Kind) -> tuple[list[str], list[int]]:
    """What the hand shows, in sentences, and the seats it is drawn for."""
    rec, n, sides = p.record, p.players, p.sides
    names = [side_name(k, sides, n) for k in range(sides)]
    comp = rec["components"]
    if kind.key == "nil_set":
        blind = rec.get("blind") or [False] * n
        seats = nil_sets(rec)
        return [f"{seat_name(s, n)} bid {_call(0, blind[s])} and took one trick: the nil "
                f"scored {comp['nil'][side_of(s, sides)]:+d} for the side." for s in seats], seats
    if kind.key == "contract_set":
        c, set_ = contracts(rec), contract_sets(rec)
        return ([f"{names[k]} bid {c[k]} and took {c[k] - 1} (nil bidders aside): set, "
                 f"{comp['contract'][k]:+d}." for k in set_],
                [s for s in range(n) if side_of(s, sides) in set_ and _bids(rec)[s]])
    before = rec.get("before", {}).get("bags")
    after = rec.get("after", {}).get("bags")
    paid = [k for k in range(sides) if comp["bag_penalty"][k] < 0]
    return ([f"{names[k]} reached the bag limit: {comp['bag_penalty'][k]:+d}"
             + (f" (bags: {before[k]} before the hand, {after[k]} after)." if before and after
                else ".") for k in paid],
            [s for s in range(n) if side_of(s, sides) in paid])


def draw(res, p: Played, kind: Kind) -> HandDiagram:
    rec, n = p.record, p.players
    blind = rec.get("blind") or [False] * n
    c = contracts(rec)
    centre = ["♠ trumps", *(f"{side_name(k, p.sides, n).split(' (')[0]}: contract {c[k]}"
                            for k in range(p.sides))]
    facts, focus = _why(p, kind)
    return hand_diagram(rec, title=kind.title, caption=kind.rule, where=p.where,
                        players=players(res, p.cell),
                        calls=[_call(b, bool(blind[s])) for s, b in enumerate(_bids(rec))],
                        centre=centre, score=score_rows(rec, PARTS, bags=True), facts=facts,
                        focus=focus)


def hands_section(res) -> Notable:
    return notable(res, KINDS, lambda p, kind: draw(res, p, kind))
