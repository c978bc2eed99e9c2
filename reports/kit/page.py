"""A report's page as a value (`Page`: the run, a summary of findings, its sections) and its
two renderings, ``index.html`` and ``summary.md``, by the Jinja2 templates of
``reports/kit/templates`` (shipped in the wheel as package data).

The HTML page is self-contained: the CSS inline, every figure an embedded PNG, the hands drawn
in HTML (`reports.kit.hands`); it links only its own anchors and the report's CSV tables
(``tables/*.csv`` beside it)."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from .hands import HandDiagram
from .tables import Table, markdown_table

__all__ = ["Finding", "Page", "Picture", "Section", "render_hand", "render_html",
           "render_markdown"]


@dataclass
class Finding:
    """A sentence of the summary at the top, with the section that shows it."""

    text: str
    section: str


@dataclass
class Picture:
    """A figure of a section: its file (``figures/<stem>.png``) and what it shows."""

    stem: str
    path: Path
    alt: str

    def data_uri(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.path.read_bytes()).decode(
            "ascii")


@dataclass
class Section:
    """A section of the page: its anchor (``key``), title, introduction, findings, figures
    and tables, and a sentence for each of its parts that does not apply to the run (why
    it is left out)."""

    key: str
    title: str
    intro: str = ""
    findings: list[str] = field(default_factory=list)
    pictures: list[Picture] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    hands: list[HandDiagram] = field(default_factory=list)
    """Hands drawn as card diagrams (`reports.kit.hands`), after the findings."""


@dataclass
class Page:
    title: str
    warning: str | None
    run: list[tuple[str, str]]
    variants: list[tuple[str, str]]
    lineups: list[tuple[str, str]]
    summary: list[Finding]
    sections: list[Section]
    methods: list[str]
    left_out: list[str] = field(default_factory=list)
    """Parts of the study the run gives nothing to show, one sentence each, saying why."""


@cache
def _environment(autoescape: bool) -> Environment:
    env = Environment(loader=PackageLoader("reports.kit", "templates"),
                      autoescape=select_autoescape(["html"]) if autoescape else False,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    env.filters["markdown_table"] = markdown_table
    return env


def render_html(page: Page) -> str:
    return _environment(True).get_template("page.html").render(page=page)


def render_markdown(page: Page) -> str:
    return _environment(False).get_template("page.md").render(page=page)


def render_hand(diagram: HandDiagram) -> str:
    """One hand's diagram as the page shows it (an HTML fragment, without the page's CSS)."""
    template = _environment(True).from_string('{% from "hand.html" import hand %}{{ hand(d) }}')
    return template.render(d=diagram)
