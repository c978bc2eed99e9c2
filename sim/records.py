"""Hand records (RULES.md §5): JSON Lines, one complete hand per line — reading, checking, writing.

Cards are names (``"AS"``) in records and bitboard slots inside the engine; this module converts at
the edge. A malformed record is rejected with its line number and the field at fault.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .cards import Deck
from .errors import UserError
from .files import atomic_write, remove_stale, temporary, writing
from .inputs import parse_json, read_text
from .limits import SCORE_LIMIT
from .options import rules_to_dict

__all__ = ["HandRecords", "by_mode", "card_slots", "collect_records",
           "hand_records", "ints", "parse_records", "read_jsonl", "write_jsonl"]


def read_jsonl(path: str | Path) -> list[tuple[int, dict]]:
    """(line number, object) for every non-blank line."""
    text = read_text(path, "records file")
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        obj = parse_json(line, str(path), number)
        if not isinstance(obj, dict):
            raise UserError("a record must be a JSON object", source=str(path), line=number)
        out.append((number, obj))
    return out


def write_jsonl(records, path: str | Path) -> None:
    """Write records as JSON Lines, whole or not at all (`sim.files.atomic_write`)."""

    atomic_write("".join(json.dumps(rec, separators=(",", ":")) + "\n"
                         for rec in records).encode(), path)


@dataclass(eq=False)
class HandRecords:
    """What every game's records share, as arrays (N records): ``dealer`` int8[N], ``scores``
    int32[N, sides] before the hand; ``hands`` uint64[N, P] and ``plays`` int8[N, P*T] (slots in play
    order), or ``tricks`` int8[N, P] in score-sheet mode (then hands and plays are None);
    ``twice`` uint64[N, P]: the cards a hand holds twice (two decks; zeros otherwise);
    ``played`` int16[N]: how many cards ``plays`` gives (a position, `parse_records`'s
    ``partial``: the first ``played[i]`` of row ``i``, zeros after), else None."""

    dealer: np.ndarray
    scores: np.ndarray
    hands: np.ndarray | None
    plays: np.ndarray | None
    tricks: np.ndarray | None
    twice: np.ndarray | None = None
    played: np.ndarray | None = None


def card_names(deck: Deck, cards, twice=0) -> list[str]:
    """The names of a bitboard's cards, weakest first; a card of ``twice`` (two decks, RULES.md
    §4.7) is named twice."""
    both = int(twice)
    return [n for n in deck.names_of(cards) for _ in range(1 + (both >> deck.bit_of(n) & 1))]


def gather(slots: list[int]) -> tuple[int, int]:
    """The bitboard of card slots and the bitboard of those given twice."""
    held = twice = 0
    for b in slots:
        twice |= held & (1 << b)
        held |= 1 << b
    return held, twice

def ints(rec, key, n, lo, hi, err, label=None, why=""):
    """``rec[key]``, checked to be a list of ``n`` integers in [lo, hi]; ``label`` names the
    field in the message (default ``key``), ``why`` is added to it."""
    value = rec.get(key)
    if (not isinstance(value, list) or len(value) != n
            or any(type(v) is not int or not lo <= v <= hi for v in value)):
        raise err(f"'{label or key}' must be a list of {n} integers in [{lo}, {hi}]{why}")
    return value


def card_slots(names, deck: Deck, key, err) -> list[int]:
    """Card names as slots of ``deck``; a name that is not a card of it is an error."""
    try:
        return [deck.bit_of(c) for c in names]
    except (KeyError, TypeError):
        bad = next((c for c in names if not isinstance(c, str) or c not in deck._index), None)
        raise err(f"'{key}' holds {bad!r}, which is not a card of this deck "
                  "(cards are written like AS, TH, 2C)") from None


def by_mode(members):
    """Records ``(position, line, record)`` split into full records and score sheets (RULES.md
    §5: ``tricks`` without ``plays``); yields ``(sheet, part)`` for each non-empty part."""
    for sheet in (False, True):
        part = [m for m in members if ("plays" not in m[2] and "tricks" in m[2]) == sheet]
        if part:
            yield sheet, part


def parse_records(items: list[tuple[int, dict]], deck: Deck, players: int, tricks_per_hand: int,
                  source: str, extras=None, sides: int = 2, cards_each: int | None = None,
                  dead_tricks: bool = False,
                  score_range: tuple[int, int] = (-SCORE_LIMIT, SCORE_LIMIT),
                  partial: bool = False) -> HandRecords:
    """Check and convert records (all full records, or all score-sheet records). ``extras(i,
    rec, err)`` parses each record's game-specific fields (bids, the turned-up card ...);
    ``sides``: how many running scores ``before`` holds; ``cards_each``: the cards of a hand
    (default ``tricks_per_hand``; Spades' kitty trick is not played, RULES.md §4.1);
    ``dead_tricks``: tricks may be won by nobody (Spades ``cancel_spades``, §4.7);
    ``score_range``: the scores ``before`` may hold (what a game can reach, `sim.limits`);
    ``partial``: each record is a position, a hand record up to a decision (`sim.position`):
    its ``plays`` (optional) the cards played so far, any number of them."""
    n = len(items)
    cards_each = cards_each or tricks_per_hand
    dealer = np.zeros(n, np.int8)
    scores = np.zeros((n, sides), np.int32)
    sheet = ("tricks" in items[0][1] and "plays" not in items[0][1] if items and not partial
             else False)
    hands = None if sheet else np.zeros((n, players), np.uint64)
    twice = None if sheet else np.zeros((n, players), np.uint64)
    plays = None if sheet else np.zeros((n, players * cards_each), np.int8)
    tricks = np.zeros((n, players), np.int8) if sheet else None
    played = np.zeros(n, np.int16) if partial else None
    for i, (line, rec) in enumerate(items):
        def err(msg, line=line):
            return UserError(msg, source=source, line=line)

        if type(rec.get("dealer")) is not int or not 0 <= rec["dealer"] < players:
            raise err(f"'dealer' must be a seat 0..{players - 1}")
        dealer[i] = rec["dealer"]
        before = rec.get("before", {}) or {}
        if not isinstance(before, dict) or set(before) - {"scores", "bags", "progressive"}:
            raise err("'before' must be an object with 'scores' (and, in Spades, 'bags' and "
                      "'progressive')")
        if "scores" in before:
            scores[i] = ints(before, "scores", sides, *score_range, err, "before.scores")
        if extras is not None:
            extras(i, rec, err)
        if sheet:
            if "hands" in rec or "plays" in rec:
                raise err("give either 'tricks' (score-sheet mode) or 'hands' and 'plays'")
            tricks[i] = ints(rec, "tricks", players, 0, tricks_per_hand, err)
            if dead_tricks and int(tricks[i].sum()) > tricks_per_hand:
                raise err(f"'tricks' must total at most {tricks_per_hand} (dead tricks are "
                          "won by nobody)")
            if not dead_tricks and int(tricks[i].sum()) != tricks_per_hand:
                raise err(f"'tricks' must total {tricks_per_hand}")
            continue
        if partial and "hands" not in rec:
            raise err("a position needs 'hands' (each seat's cards) and the 'plays' so far")
        if "hands" not in rec or ("plays" not in rec and not partial):
            raise err("a record needs 'hands' and 'plays' (or 'tricks' alone: score-sheet mode)")
        hs = rec["hands"]
        if (not isinstance(hs, list) or len(hs) != players
                or any(not isinstance(h, list) or len(h) != cards_each for h in hs)):
            raise err(f"'hands' must be {players} lists of {cards_each} cards")
        slots = [card_slots(h, deck, "hands", err) for h in hs]
        flat = [s for h in slots for s in h]
        if max((flat.count(s) for s in set(flat)), default=0) > deck.copies:
            raise err("'hands' deal a card twice" if deck.copies == 1 else
                      f"'hands' deal a card more than {deck.copies} times")
        for seat, h in enumerate(slots):
            hands[i, seat], twice[i, seat] = gather(h)
        ps = rec.get("plays", [])
        if partial:
            if not isinstance(ps, list) or len(ps) > players * cards_each:
                raise err(f"'plays' must list the cards played so far (at most "
                          f"{players * cards_each})")
            played[i] = len(ps)
            plays[i, :len(ps)] = card_slots(ps, deck, "plays", err)
            continue
        if not isinstance(ps, list) or len(ps) != players * cards_each:
            raise err(f"'plays' must list all {players * cards_each} cards played")
        plays[i] = card_slots(ps, deck, "plays", err)
    return HandRecords(dealer, scores, hands, plays, tricks, twice, played)


def first_rows(result, limit: int | None) -> np.ndarray | None:
    """Whether each row of a block's result is among its first ``limit`` hands in the order of
    its hands table (``game_id``, ``hand_no``); None for every row (``limit`` None)."""
    if limit is None:
        return None
    order = np.lexsort((np.asarray(result.hand_no), np.asarray(result.game)))
    keep = np.zeros(len(order), bool)
    keep[order[:max(limit, 0)]] = True
    return keep


def hand_records(result, cell, game_offset: int, deck: Deck, extra,
                 limit: int | None = None) -> list[dict[str, Any]]:
    """Hand records (RULES.md §5) of everything a block of a cell simulated, in the order of its
    hands table: the keys every game shares, plus ``extra(outcome, i, row)``'s (a ``before``
    among them is merged into the record's). ``limit``: only the first ``limit`` hands in that
    order (the run's sample of records, `whistlab.runner`); the others are never built."""

    rules = rules_to_dict(cell.rules)
    names = np.array([n or "?" for n in deck.names])
    keep = first_rows(result, limit)
    out = []
    start = 0
    for o in result.outcomes:
        n = o.play.tricks.shape[0]
        for i, row in enumerate(range(start, start + n)):
            if keep is not None and not keep[row]:
                continue
            rec = {"game": cell.rules.game, "rules": rules,
                   "game_id": int(result.game[row]) + game_offset,
                   "hand_no": int(result.hand_no[row]), "dealer": int(result.dealer[row]),
                   "hands": [deck.names_of(h) for h in result.hands[row]],
                   "plays": names[o.play.plays[i]].tolist(),
                   "before": {"scores": result.before_scores[row].tolist()}}
            more = extra(o, i, row)
            rec["before"].update(more.pop("before", {}))
            rec.update(more)
            out.append(rec)
        start += n
    out.sort(key=lambda r: (r["game_id"], r["hand_no"]))
    return out


def collect_records(out: Path, exp, target: str | Path) -> None:
    """Concatenate the blocks' record files (``out/records/part-*.jsonl``), cell by cell in
    block order, into ``target``: written under a temporary name and renamed when whole (the
    temporaries of killed runs are removed first)."""

    parts = [Path(out) / "records" / f"part-{cell.key}-{b:05d}.jsonl"
             for cell in exp.cells for b in range(exp.n_blocks)]
    target = Path(target)
    tmp = temporary(target)
    with writing(target, tmp):
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_stale(target.parent.glob(f".{target.name}.tmp*"))
        with open(tmp, "wb") as f:
            for p in parts:
                f.write(p.read_bytes())
        tmp.replace(target)
