"""Reading the user's files: rules, experiment, tune and strategy files (TOML), hand records (JSON
Lines). Anything that is not the text it should be — a folder, binary junk, another encoding,
nesting no record needs — is one `UserError` naming the file (and the line), never a traceback.

A UTF-8 byte-order mark at the start of a file is skipped (editors on Windows write one; the text
is still UTF-8). UTF-16 and UTF-32 text, which such editors also write, is named as such.
"""

from __future__ import annotations

import codecs
import json
import tomllib
from pathlib import Path
from typing import Any

from .errors import UserError, known_names

__all__ = ["MAX_DEPTH", "parse_json", "read_text", "read_toml", "shipped", "shipped_file",
           "shipped_names"]

MAX_DEPTH = 32  # deepest nesting of arrays and tables a hand record or input file may have

_WIDE_BOMS = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
              (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))


def shipped(folder: str) -> Path:
    """A folder of input files shipped with whistlab ("experiments", "tunes"): in an installed
    wheel the data package ``sim.data.<folder>`` (pyproject.toml), in a source checkout the
    top-level folder of that name."""
    installed = Path(__file__).resolve().parent / "data" / folder
    return installed if installed.is_dir() else Path(__file__).resolve().parents[1] / folder


def shipped_names(folder: str) -> list[str]:
    """The names of the files shipped in ``folder`` (`shipped`), e.g. ["bags", "default", ...]."""
    return sorted(p.stem for p in shipped(folder).glob("*.toml"))


def shipped_file(path: str | Path, folder: str) -> str | Path:
    """``path``, or the shipped file it names: a bare name such as ``nil`` (no folder, no
    ``.toml``, no such file here) is ``<folder>/nil.toml`` of whistlab's own (`shipped`)."""
    text = str(path)
    if not text or "/" in text or text.endswith(".toml") or Path(path).exists():
        return path
    candidate = shipped(folder) / f"{text}.toml"
    if not candidate.is_file():
        kind = folder.rstrip("s")
        raise UserError(f"no such {kind} file, nor one shipped with whistlab"
                        + known_names(text, shipped_names(folder), f"shipped {folder}", ""),
                        source=text)
    return candidate


def read_text(path: str | Path, what: str) -> str:
    """The text of the user's file ``path`` (``what`` it should be, e.g. "rules file")."""
    source = str(path)
    if source in ("", "."):
        raise UserError(f"is not a file name; give the {what}'s path", source=repr(source))
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise UserError(f"no such {what}", source=source) from None
    except IsADirectoryError:
        raise UserError(f"is a folder, not {_a(what)}", source=source) from None
    except OSError as err:
        raise UserError(f"cannot read it: {err.strerror}", source=source) from None
    for bom, encoding in _WIDE_BOMS:
        if data.startswith(bom):
            raise UserError(f"is {encoding} text; save the {what} as UTF-8", source=source)
    if b"\x00" in data:
        raise UserError(f"is a binary file (it holds NUL bytes), not {_a(what)}", source=source)
    try:
        return data.decode("utf-8-sig")  # a UTF-8 byte-order mark is skipped
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise UserError(f"is not UTF-8 text (byte 0x{data[err.start]:02x} is not valid UTF-8); "
                        f"save the {what} as UTF-8", source=source, line=line) from None


def _a(what: str) -> str:
    return ("an " if what[0] in "aeiou" else "a ") + what


def _depth(value, limit: int, level: int = 0) -> bool:
    """Whether ``value`` nests arrays and tables deeper than ``limit``."""
    if level > limit:
        return True
    if isinstance(value, dict):
        return any(_depth(v, limit, level + 1) for v in value.values())
    if isinstance(value, list):
        return any(_depth(v, limit, level + 1) for v in value)
    return False


def _too_deep(source: str, line: int | None = None) -> UserError:
    return UserError(f"nests arrays or tables more than {MAX_DEPTH} deep; no whistlab input "
                     "does", source=source, line=line)


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """The table of the user's TOML file ``path``."""
    text = read_text(path, what)
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise UserError(f"not valid TOML: {err}", source=str(path)) from None
    except RecursionError:
        raise _too_deep(str(path)) from None
    if _depth(table, MAX_DEPTH):
        raise _too_deep(str(path))
    return table


def parse_json(text: str, source: str, line: int | None = None) -> Any:
    """One JSON value of the user's (a hand record's line)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise UserError(f"not valid JSON: {err.msg}", source=source, line=line) from None
    except RecursionError:
        raise _too_deep(source, line) from None
    if _depth(value, MAX_DEPTH):
        raise _too_deep(source, line)
    return value
