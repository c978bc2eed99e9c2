"""A study: what one game's report computes and shows, in the shape the kit lays out.

A study (`Study`) computes its tables and each section's findings from a results folder
(``compute``), and lays them out (``layout``): its sections in order, the table views, the
figures (stem -> (section, drawing)), a summary of findings for the top of the page, the
parts that do not apply to the run (one sentence each, saying why) and the notes on the
methods. `page` turns that into the `Page` the templates render."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from .hands import HandDiagram
from .page import Finding, Page, Picture, Section
from .run import lineups_info, run_info, variants_info, warning
from .tables import Table, View, shown

__all__ = ["Computed", "Layout", "Part", "Study", "page"]


@dataclass
class Computed:
    """A study's numbers: the results it read (a study may leave cells out), its tables
    (name -> frame, each written as ``tables/<name>.csv``) and each section's findings."""

    res: object
    tables: dict[str, pl.DataFrame]
    findings: dict[str, list[str]]
    hands: object = None
    """The notable hands of the run's sample of records (`reports.hands.Notable`), if read."""


@dataclass
class Part:
    """A section of a study's page: its anchor, title and introduction."""

    key: str
    title: str
    intro: str
    notes: list[str] = field(default_factory=list)


@dataclass
class Layout:
    parts: list[Part]
    views: list[View]
    figures: dict[str, tuple[str, Callable]]
    methods: list[str]
    summary: list[Finding] = field(default_factory=list)
    left_out: dict[str, list[str]] = field(default_factory=dict)
    """Section key (or "summary", for the page) -> why a part of it is left out."""
    tables: dict[str, list[Table]] = field(default_factory=dict)
    """Tables a section lays out itself (not views of one table), after its views."""
    hands: dict[str, list[HandDiagram]] = field(default_factory=dict)
    """Section key -> the hands it draws (`reports.kit.hands`)."""


@dataclass(frozen=True)
class Study:
    """A game's report: its ``compute`` and ``layout``, and every table and figure it may
    write (so that a new report removes what an earlier one wrote and this one does not)."""

    game: str
    compute: Callable[[object], Computed]
    layout: Callable[[Computed], Layout]
    tables: tuple[str, ...]
    figures: tuple[str, ...]


def page(computed: Computed, layout: Layout, figures: dict[str, Path],
         more: list[Section] = ()) -> Page:
    """The page of a study: its sections numbered in order, then ``more`` (sections added to
    any study's page, as the double-dummy yardstick's)."""
    res, tables = computed.res, computed.tables
    sections = []
    for number, part in enumerate(layout.parts, 1):
        pictures = [Picture(stem, figures[stem], stem)
                    for stem, (key, _) in layout.figures.items()
                    if key == part.key and stem in figures]
        views = [shown(v, tables, part.key) for v in layout.views if v.section == part.key]
        sections.append(Section(
            key=part.key, title=f"{number}. {part.title}", intro=part.intro,
            findings=computed.findings.get(part.key, []), pictures=pictures,
            tables=[t for t in views if t is not None] + layout.tables.get(part.key, []),
            left_out=layout.left_out.get(part.key, []), notes=part.notes,
            hands=layout.hands.get(part.key, [])))
    return Page(title=res.experiment["name"], warning=warning(res), run=run_info(res, tables),
                variants=variants_info(res), lineups=lineups_info(res), summary=layout.summary,
                sections=[*sections, *more], methods=layout.methods,
                left_out=layout.left_out.get("summary", []))
