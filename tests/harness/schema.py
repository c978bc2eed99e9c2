"""The columns docs/SCHEMA.md declares for each game's tables, read from the document itself so
that the doc and the code cannot drift.

Spades has its own sections (``## `hands```, ``## `games```); Portland and Norwegian whist have
one section each (``## Portland whist``, ``## Norwegian whist``) holding a ``hands`` table and a
``games`` table or sentence; a row naming several columns "as for Spades" takes their types from
the Spades sections; ``yardstick`` has a section of its own. ``<seat>`` expands to 0..P-1 and
``<side>`` to 0..S-1.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["CELL_COLUMNS", "SCHEMA", "documented_columns", "documented_written"]

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "SCHEMA.md"
CELL_COLUMNS = ("variant", "lineup", "swapped")  # added by the runner, not by block_tables
GAME_SECTIONS = {"portland": "## Portland whist", "norwegian": "## Norwegian whist"}


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start:] if end < 0 else text[start:end]


def _rows(section: str, cell: int = 1) -> dict[str, str | None]:
    """``name -> cell`` (by default the type) of a markdown table's rows; a first cell naming
    several columns (```a`, `b``) with no type gives each None (\"as for Spades\")."""
    out: dict[str, str | None] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].startswith("`"):
            continue  # prose, the header or the separator
        for name in re.findall(r"`([a-z_<>0-9]+)`", cells[0]):
            assert name not in out, f"{name} documented twice"
            out[name] = (cells[cell] if cell < len(cells) else "") or None
    return out


def _expand(columns: dict[str, str | None], players: int, sides: int) -> dict[str, str | None]:
    out = {}
    for name, kind in columns.items():
        many = (range(players) if "<seat>" in name else range(sides) if "<side>" in name
                else [None])
        for i in many:
            out[name if i is None else name.replace("<seat>", str(i)).replace("<side>", str(i))] \
                = kind
    return out


def documented_columns(game: str, table: str, players: int = 4, sides: int = 2,
                       cell: bool = True) -> dict[str, str | None]:
    """Column -> type name (``int8``, ``uint64``, ``bool``, ``string`` ...) of ``table``
    (``hands`` or ``games`` of ``game``, or a table of its own such as ``yardstick``) at a
    table of ``players`` seats and ``sides`` sides, in the document's order; None where the
    document names a column without its type.
    ``cell = False`` leaves out the cell columns the runner adds (`CELL_COLUMNS`)."""
    text = SCHEMA.read_text(encoding="utf-8")
    spades = {t: _rows(_section(text, f"## `{t}`")) for t in ("hands", "games")}
    if game == "spades" or table not in spades:  # a section of its own (``yardstick``)
        columns = _rows(_section(text, f"## `{table}`"))
    else:
        section = _section(text, GAME_SECTIONS[game])
        part = section.split(f"\n`{table}`", 1)[1]
        part = part.split("\n\n`", 1)[0]  # up to the next table's sentence
        columns = _rows(part)
        if not columns:  # a sentence: "`games`: `variant`, `lineup`, ... (a remark) ... ."
            sentence = re.sub(r"\([^)]*\)", "", part.split("\n\n", 1)[0]).split(".", 1)[0]
            columns = dict.fromkeys(re.findall(r"`([a-z_<>0-9]+)`", sentence))
        columns = {name: kind or spades[table].get(name) for name, kind in columns.items()}
    assert columns, f"no columns documented for {game} `{table}`"
    out = _expand(columns, players, sides)
    return out if cell else {k: v for k, v in out.items() if k not in CELL_COLUMNS}


def documented_written(table: str = "hands") -> dict[str, str | None]:
    """Column -> its "written" cell (``always`` or ``with <the rule>``) of a Spades table's
    section, the names unexpanded (``half_<seat>``) as ``sim.spades.tables.BROUGHT`` names
    them; None for a table without the cell."""
    text = SCHEMA.read_text(encoding="utf-8")
    return _rows(_section(text, f"## `{table}`"), cell=3)
