"""The hands a report draws: the run's sample of hand records (``records/sample-<cell>.jsonl``,
the first hands of each cell's block 0 that every run writes: `whistlab.runner`) replayed by the
engine (`sim.replay`: each trick's winner, the tricks, the score), and the notable ones a study
picks from it by rules it states (`Kind`), drawn with the kit (`reports.kit.hands`).

A rule ranks the sample's hands (None: not of its kind); the hand drawn is the highest ranked,
the first in the sample among equals (cells in the experiment's order, then game and hand), so
that the choice can be checked from the records alone. A kind the sample has none of is left
out with a sentence saying so."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sim.errors import UserError
from sim.records import read_jsonl
from sim.replay import replay_records

from .kit.hands import HandDiagram

__all__ = ["Kind", "Notable", "Played", "intro", "notable", "pick", "players", "read_sample",
           "sample_path", "score_rows", "side_of", "side_tricks", "signed"]


def sample_path(res, cell: dict) -> Path:
    """A cell's sample of records (`whistlab.runner.sample_path`)."""
    return res.path / "records" / f"sample-{res.cell_key(cell)}.jsonl"


@dataclass
class Played:
    """A hand of the sample: its cell (a manifest cell), its line in ``source`` and its record
    as replayed (the record with ``tricks``, ``winners``, ``points``, ``components``,
    ``after`` ...: RULES.md §5)."""

    cell: dict
    source: Path
    line: int
    record: dict

    @property
    def where(self) -> str:
        c, r = self.cell, self.record
        swapped = " (swapped)" if c["swapped"] else ""
        return (f"{c['variant']}, {c['lineup']}{swapped}: game {r['game_id']}, hand "
                f"{r['hand_no']} (records/{self.source.name}, line {self.line})")

    @property
    def players(self) -> int:
        return len(self.record["hands"])

    @property
    def sides(self) -> int:
        return len(self.record["points"])


def side_of(seat: int, sides: int) -> int:
    """Seat ``s`` plays for side ``s mod S`` (RULES.md §0, §4.7)."""
    return seat % sides


def side_tricks(record: dict) -> list[int]:
    """Each side's tricks (its seats' summed)."""
    sides = len(record["points"])
    out = [0] * sides
    for seat, t in enumerate(record["tricks"]):
        out[side_of(seat, sides)] += t
    return out


def signed(x: int) -> str:
    return f"{x:+d}" if x else "0"


@dataclass(frozen=True)
class Kind:
    """A kind of notable hand: its ``title``, its ``rule`` in a sentence (shown with the hand),
    ``rank(hand)``: how notable a hand of the sample is by the rule (None: not of this kind;
    the highest is drawn, the first among equals), and the sentence shown when the sample has
    none (``none``)."""

    key: str
    title: str
    rule: str
    rank: Callable[[Played], float | None]
    none: str


@dataclass
class Notable:
    """What a study's hands section shows: the hands chosen (each with its kind), their
    diagrams, and a sentence for each kind left out or sample missing."""

    chosen: list[tuple[Kind, Played]] = field(default_factory=list)
    diagrams: list[HandDiagram] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    hands: int = 0  # hands in the sample read


def read_sample(res) -> tuple[list[Played], list[str]]:
    """The sample of every cell of ``res`` whose block 0 is done, replayed, in the experiment's
    order; and a sentence for each cell without one (an older run, or a deleted file)."""
    out, missing = [], []
    for cell in res.cells:
        key = res.cell_key(cell)
        if not (res.path / "hands" / f"part-{key}-00000.parquet").exists():
            continue  # its first block is not done: nothing of it to read yet
        path = sample_path(res, cell)
        if not path.is_file():
            missing.append(cell["variant"] + (f" ({key})" if key != cell["variant"] else ""))
            continue
        items = read_jsonl(path)
        try:
            replayed = replay_records(items, source=str(path))
        except UserError as err:
            missing.append(f"{key} (its records could not be replayed: {err})")
            continue
        out += [Played(cell, path, line, rec) for (line, _), rec in zip(items, replayed,
                                                                         strict=True)]
    why = []
    if missing:
        why.append("No sample of records for " + ", ".join(missing) + " (records/sample-"
                   "<cell>.jsonl, which runs write since whistlab kept a sample: run the "
                   "experiment again into a new folder to have it).")
    return out, why


def pick(played: list[Played], kind: Kind) -> Played | None:
    """The hand a kind's rule picks: the highest ranked, the first among equals."""
    best, top = None, None
    for p in played:
        rank = kind.rank(p)
        if rank is not None and (top is None or rank > top):
            best, top = p, rank
    return best


def notable(res, kinds: list[Kind], draw: Callable[[Played, Kind], HandDiagram]) -> Notable:
    """The hands ``kinds`` pick from the run's sample, drawn by ``draw``."""
    played, why = read_sample(res)
    out = Notable(left_out=why, hands=len(played))
    if not played:
        if not why:
            out.left_out.append("The run's sample of records holds no hand.")
        return out
    for kind in kinds:
        hand = pick(played, kind)
        if hand is None:
            out.left_out.append(kind.none)
            continue
        out.chosen.append((kind, hand))
        out.diagrams.append(draw(hand, kind))
    return out


def intro(notable: Notable, cells: int) -> str:
    return (f"Hands drawn from the run's sample of hand records: the first hands of each "
            f"cell's first block ({notable.hands:,} hands of {cells} cell"
            f"{'s' if cells != 1 else ''}, records/sample-<cell>.jsonl), replayed by the engine "
            "for each trick's winner and the score. Each hand is the one its rule picks: the "
            "highest ranked in the sample, the first (cells in the experiment's order, then "
            "game and hand) among equals.")


def players(res, cell: dict) -> list[str]:
    """Who played each seat of ``cell`` (`reports.data.Results.strategies`)."""
    rows = res.strategies.filter(variant=cell["variant"], lineup=cell["lineup"],
                                 swapped=cell["swapped"]).sort("seat")
    return rows["strategy"].to_list()


def score_rows(record: dict, parts: list[tuple[str, str]], bags: bool = False
               ) -> list[tuple[str, list[str]]]:
    """The score of a replayed record, by side: its tricks, the score before, each of the
    ``parts`` (a component of the record's ``components`` and its label) that is not zero for
    every side, the hand's points and the score after (``bags``: with the bag counts)."""
    before, after = record.get("before", {}), record.get("after", {})
    sides = len(record["points"])

    def standing(x: dict) -> list[str]:
        scores = x.get("scores", [0] * sides)
        if bags and "bags" in x:
            return [f"{s} ({b} bag{'s' if b != 1 else ''})" for s, b in zip(scores, x["bags"],
                                                                            strict=True)]
        return [str(s) for s in scores]

    rows = [("tricks", [str(t) for t in side_tricks(record)]), ("before the hand",
                                                               standing(before))]
    components = record.get("components", {})
    rows += [(label, [signed(v) for v in components[name]]) for name, label in parts
             if any(components.get(name, [0]))]
    rows += [("this hand", [signed(p) for p in record["points"]]),
             ("after the hand", standing(after))]
    return rows
