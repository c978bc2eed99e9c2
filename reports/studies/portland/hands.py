"""The Portland study's hands (`reports.hands`): the largest honours swing, honours held but not
scored, and the most tricks a side took in the run's sample of records, drawn as card diagrams
(the turned-up trump in the middle of the table, each seat's trump honours)."""

from __future__ import annotations

from ...hands import Kind, Notable, Played, notable, players, score_rows, side_of, side_tricks
from ...kit.hands import HandDiagram, card, hand_diagram, side_name

__all__ = ["KINDS", "hands_section", "honours_points", "unscored"]

PARTS = [("trick_points", "trick points"), ("honours_points", "honours points")]
HONOURS = "AKQJ"


def honours_points(rec: dict) -> list[int]:
    return rec.get("components", {}).get("honours_points", [0] * len(rec["points"]))


def _swing(p: Played) -> float | None:
    hp = honours_points(p.record)
    swing = max(hp) - min(hp)
    return swing if swing > 0 else None


def unscored(rec: dict) -> list[int]:
    """The sides that held three or four trump honours and scored no honours points, under
    rules that score honours (RULES.md §1)."""
    if not (rec.get("rules") or {}).get("honours"):
        return []
    held, hp = rec.get("honours") or [], honours_points(rec)
    return [k for k, h in enumerate(held) if h >= 3 and hp[k] == 0]


KINDS = [
    Kind("honours_swing", "The largest honours swing",
         "The hand of the sample in which honours moved the score most: the largest difference "
         "between the sides' honours points, the first among equals.",
         _swing, "No side scored honours in the sample's hands (none of its variants scores "
                 "them, or no side held three or four)."),
    Kind("honours_unscored", "Honours held, not scored",
         "The first hand of the sample, under rules with honours, in which a side held three or "
         "four trump honours and scored none for them (the tricks ended the game first, or the "
         "side was barred from honours: RULES.md §1).",
         lambda p: 1 if unscored(p.record) else None,
         "In the sample no side held three or four honours without scoring them (or no "
         "variant scores honours)."),
    Kind("most_tricks", "The most tricks",
         "The hand of the sample in which a side took the most tricks, the first among equals.",
         lambda p: max(side_tricks(p.record)),
         "The sample has no hand."),
]


def _trump(rec: dict) -> str | None:
    turned = rec.get("turn_up")
    return turned[1] if turned else None


def _call(hand: list[str], trump: str | None) -> str:
    if trump is None:
        return "no trumps"
    k = sum(1 for c in hand if c[1] == trump and c[0] in HONOURS)
    return f"{k} trump honour{'s' if k != 1 else ''}"


def _why(p: Played, kind: Kind) -> tuple[list[str], list[int]]:
    rec, n, sides = p.record, p.players, p.sides
    names = [side_name(k, sides, n) for k in range(sides)]
    held, hp = rec.get("honours") or [0] * sides, honours_points(rec)
    tricks, comp = side_tricks(rec), rec.get("components", {})
    if kind.key == "honours_swing":
        top = max(range(sides), key=lambda k: hp[k])
        others = ", ".join(f"{names[k]} held {held[k]}" for k in range(sides) if k != top)
        return ([f"{names[top]} held {held[top]} of the four trump honours: {hp[top]:+d} "
                 f"honours points ({others})."],
                [s for s in range(n) if side_of(s, sides) == top])
    if kind.key == "honours_unscored":
        which = unscored(rec)
        target = (rec.get("rules") or {}).get("target_score")
        before = rec.get("before", {}).get("scores", [0] * sides)
        return ([f"{names[k]} held {held[k]} honours and scored none for them; the score was "
                 f"{'–'.join(map(str, before))} before the hand, the game is to {target}."
                 for k in which], [s for s in range(n) if side_of(s, sides) in which])
    top = max(range(sides), key=lambda k: tricks[k])
    trick_points = comp.get("trick_points", [0] * sides)[top]
    return ([f"{names[top]} took {tricks[top]} tricks: {trick_points:+d} trick points (the book "
             "is six)."], [s for s in range(n) if side_of(s, sides) == top])


def draw(res, p: Played, kind: Kind) -> HandDiagram:
    rec = p.record
    trump = _trump(rec)
    centre = ([f"turned up {card(rec['turn_up']).text}", f"{card(rec['turn_up']).symbol} trumps"]
              if trump else ["no trumps"])
    score = score_rows(rec, PARTS)
    if rec.get("honours") is not None:
        score.insert(1, ("trump honours held", [str(h) for h in rec["honours"]]))
    facts, focus = _why(p, kind)
    return hand_diagram(rec, title=kind.title, caption=kind.rule, where=p.where,
                        players=players(res, p.cell),
                        calls=[_call(h, trump) for h in rec["hands"]], centre=centre,
                        score=score, facts=facts, focus=focus)


def hands_section(res) -> Notable:
    return notable(res, KINDS, lambda p, kind: draw(res, p, kind))
