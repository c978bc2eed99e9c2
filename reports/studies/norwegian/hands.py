"""The Norwegian study's hands (`reports.hands`): a misère chosen that failed, the made grand
with the most tricks and a grand chosen that failed, from the run's sample of records, drawn as
card diagrams with each seat's declaration (RULES.md §2)."""

from __future__ import annotations

from ...hands import Kind, Notable, Played, notable, players, score_rows, side_of, side_tricks, signed
from ...kit.hands import HandDiagram, hand_diagram, seat_name, side_name

__all__ = ["KINDS", "book", "grand_tricks", "hands_section"]

PARTS = [("contract", "contract (table value)"), ("double", "double points")]
SAID = {"grand": "grand", "misere": "misère", "nullo": "nullo", "pass": "pass"}


def book(rec: dict) -> int:
    """b = ⌊T / 2⌋ of the T tricks of a hand (RULES.md §2)."""
    return len(rec["winners"]) // 2


def _side_tricks(rec: dict, seat: int | None) -> int | None:
    return None if seat is None else side_tricks(rec)[side_of(seat, len(rec["points"]))]


def grand_tricks(rec: dict) -> int | None:
    """The tricks of the grand player's side (None: no grand)."""
    return _side_tricks(rec, rec.get("grand_player")) if rec.get("contract") == "grand" else None


def misere_failed(rec: dict) -> bool:
    """The declarer chose misère and his side took more than the book."""
    return (rec.get("contract") == "misere"
            and _side_tricks(rec, rec.get("declarer")) > book(rec))


def grand_failed(rec: dict) -> bool:
    """A grand declared by choice (not forced on a dealer when all passed) whose side took at
    most the book."""
    g, said = rec.get("grand_player"), rec.get("declarations") or []
    t = grand_tricks(rec)
    return t is not None and g is not None and said[g] == "grand" and t <= book(rec)


def _made(p: Played) -> float | None:
    t = grand_tricks(p.record)
    return t if t is not None and t > book(p.record) else None


KINDS = [
    Kind("misere_failed", "A misère that failed",
         "The first hand of the sample in which the declarer chose misère and his side took "
         "more than half the tricks (more than the book, ⌊T/2⌋ of T), so its misère scored "
         "negative.",
         lambda p: 1 if misere_failed(p.record) else None,
         "The sample has no failed misère chosen by the declarer (misère is chosen in the "
         "2-player game only)."),
    Kind("grand_made", "A made grand",
         "The grand of the sample whose side took the most tricks, more than half of them (the "
         "first among equals).",
         _made, "The sample has no made grand."),
    Kind("grand_failed", "A grand that failed",
         "The first hand of the sample in which a grand declared by choice (not forced on the "
         "dealer when all passed) took at most half the tricks.",
         lambda p: 1 if grand_failed(p.record) else None,
         "The sample has no failed grand declared by choice."),
]


def _why(p: Played, kind: Kind) -> tuple[list[str], list[int]]:
    rec, n, sides = p.record, p.players, p.sides
    b, total = book(rec), len(rec["winners"])
    seat = rec.get("declarer") if kind.key == "misere_failed" else rec.get("grand_player")
    side = side_of(seat, sides)
    taken = side_tricks(rec)[side]
    word = "misère" if kind.key == "misere_failed" else "grand"
    who = side_name(side, sides, n)
    scored = ", ".join(f"{side_name(k, sides, n)} {signed(v)}" for k, v in enumerate(rec["points"]))
    text = (f"{seat_name(seat, n)} played {word}"
            + (f" for {who}" if who != seat_name(seat, n) else "")
            + f": {taken} of {total} tricks (the book is {b}); the hand scored {scored}"
            + (", doubled (every trick or none)" if rec.get("doubled") else "") + ".")
    return [text], [s for s in range(n) if side_of(s, sides) == side]


def draw(res, p: Played, kind: Kind) -> HandDiagram:
    rec, n = p.record, p.players
    said = rec.get("declarations") or [None] * n
    roles: dict[int, list[str]] = {}
    for key, label in (("declarer", "declarer"), ("grand_player", "grand player")):
        if rec.get(key) is not None and label not in roles.get(rec[key], []):
            if key == "grand_player" and rec[key] == rec.get("declarer"):
                continue
            roles.setdefault(rec[key], []).append(label)
    roles.setdefault(rec.get("leader", 0), []).append("led first")
    centre = ["no trumps"]
    if rec.get("contract"):
        by = rec.get("declarer")
        centre.append(f"{SAID.get(rec['contract'], rec['contract'])}"
                      + (f" by {seat_name(by, n)}" if by is not None else ""))
    centre.append(f"book {book(rec)} of {len(rec['winners'])} tricks")
    if rec.get("doubled"):
        centre.append("doubled")
    facts, focus = _why(p, kind)
    return hand_diagram(rec, title=kind.title, caption=kind.rule, where=p.where,
                        players=players(res, p.cell),
                        calls=[SAID.get(d, d) if d else "did not speak" for d in said],
                        roles=roles, centre=centre, score=score_rows(rec, PARTS), facts=facts,
                        focus=focus)


def hands_section(res) -> Notable:
    return notable(res, KINDS, lambda p, kind: draw(res, p, kind))
