"""A results folder that guards itself: one writer at a time, the code that made every block, and a
checksum of every block file.

Besides its tables (`whistlab.runner`) a results folder holds::

    lock            the lock: whoever writes the folder (``whistlab run``, ``yardstick``) holds an
                    exclusive `fcntl.flock` on it, readers (``report``) a shared one; while held it
                    names the writer (pid, host, start time), and it is empty otherwise
    journal.jsonl   one line per block file written: its path, SHA-256, size and the fingerprint
                    of the code that made it; appended before the file is renamed into place

A cell's sample of hand records (``records/sample-<cell>.jsonl``, written with its first block:
`whistlab.runner`) is journaled and verified like a block file (`sample_files`).

The lock is the kernel's: it goes with the process, also on ``kill -9``, and a second writer is
refused at once (no waiting) with a line naming the holder. The journal is append-only while a run
writes (a line per block file, written with one ``write``) and rewritten whole, in file order,
when the run ends, so a finished folder is the same byte for byte whatever the order in which its
blocks finished. Because a line is appended before its file is renamed into place, a block file
without a line (or whose bytes differ from its line) did not come from this folder's runs: it was
damaged or copied from elsewhere. A line without its file (a run killed between the two) is
forgotten at the next run's start.

The code fingerprint is the package version and a SHA-256 of the source files of ``sim/``,
``strategies/`` and ``whistlab/`` (what makes the tables; ``reports/`` does not), computed once
per process.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import functools
import hashlib
import importlib.util
import json
import os
import socket
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from . import __version__
from .errors import UserError
from .files import WriteError, atomic_write, os_reason, writing

__all__ = ["JOURNAL", "LOCK", "MANIFEST", "OWNED", "TABLE_DIRS", "FolderWarning", "Held",
           "append_journal", "block_files", "check_outside", "code_fingerprint", "compact_journal",
           "describe_code", "digest", "lock_folder", "read_journal", "sample_files",
           "verify_files"]

MANIFEST, JOURNAL, LOCK = "manifest.json", "journal.jsonl", "lock"
TABLE_DIRS = ("hands", "games")
OWNED = (MANIFEST, JOURNAL, LOCK, "hands", "games", "records")  # what `whistlab run` writes


class FolderWarning(UserWarning):
    """A results folder that can be read but not fully trusted (mixed code, no checksums)."""


# --- the code that makes the tables --------------------------------------------------------------


CODE_PACKAGES = ("sim", "strategies", "whistlab")  # what makes the tables (reports do not)


@functools.cache
def code_fingerprint() -> dict:
    """``{"whistlab": version, "sha256": ...}``: the SHA-256 over every ``*.py`` file of the
    packages that make the tables (`CODE_PACKAGES`: each file's path relative to the packages'
    parent, its length, its bytes), in path order. The packages are found, not imported (the
    engine does not import the layers above it). Computed once per process (about 10 ms)."""
    sha = hashlib.sha256()
    for name in CODE_PACKAGES:
        package = Path(importlib.util.find_spec(name).origin).parent
        for path in sorted(package.rglob("*.py")):
            data = path.read_bytes()
            sha.update(path.relative_to(package.parent).as_posix().encode() + b"\0")
            sha.update(len(data).to_bytes(8, "little") + data)
    return {"whistlab": __version__, "sha256": sha.hexdigest()}


def describe_code(code: dict | None) -> str:
    if not code:
        return "a whistlab that did not record its code"
    return f"whistlab {code.get('whistlab')}, source {str(code.get('sha256'))[:12]}"


# --- the lock ------------------------------------------------------------------------------------

@dataclass
class Held:
    """A lock this process holds: ``shared`` (a reader's); ``wrote``: the writer has written."""

    shared: bool
    wrote: bool = False


_HELD: dict[Path, Held] = {}  # the folders whose lock this process holds (re-entrant)


def _holder(path: Path) -> str:
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
        return (f"whistlab {info['command']} (pid {info['pid']} on {info['host']}, started "
                f"{info['started']})")
    except (OSError, ValueError, KeyError, TypeError):  # not written yet: just taken
        return "another whistlab process"


def _try_lock(fd: int, shared: bool) -> bool:
    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


def _refusal(folder: Path, path: Path, command: str, shared: bool) -> UserError:
    """Why the lock of ``folder`` is not ours: a writer holds it (named), or readers do."""
    readers = False
    if not shared:  # is it held shared (readers) or exclusively (a writer)?
        with contextlib.suppress(OSError):
            fd = os.open(path, os.O_RDONLY)
            try:
                readers = _try_lock(fd, shared=True)
            finally:
                os.close(fd)
    if readers:
        return UserError("is being read by another whistlab process (a report); run again "
                         "when it has finished", source=str(folder))
    advice = ("read it when that has finished (an interrupted run keeps its finished blocks)"
              if shared else "wait for it to finish, or choose another --out folder"
              if command == "run" else f"run the {command} when that has finished")
    return UserError(f"is being written by {_holder(path)}; {advice}", source=str(folder))


@contextlib.contextmanager
def lock_folder(folder: str | Path, command: str, shared: bool = False):
    """Hold ``folder``'s lock for the block: exclusive for a writer (``command``: ``run``,
    ``yardstick``), shared for a reader; refused at once (`UserError` naming the holder) when
    another process holds it. A reader of a folder where the lock file cannot be made (read-only)
    reads without it. Yields a `Held`: a writer that made the lock file and did not set its
    ``wrote`` (refused before writing) leaves no lock file behind."""
    folder = Path(folder)
    key = folder.resolve()
    if key in _HELD:  # re-entrant: this process holds it already
        held = _HELD[key]
        if held.shared and not shared:
            raise UserError("is being read by this process; cannot write it", source=str(folder))
        yield held
        return
    path = folder / LOCK
    created = False
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
            created = True
        except FileExistsError:
            try:
                fd = os.open(path, os.O_RDONLY if shared else os.O_RDWR)
            except FileNotFoundError:  # removed since: try again
                continue
            except OSError as err:
                if shared:
                    yield Held(shared)
                    return
                raise WriteError(path, os_reason(err)) from None
        except OSError as err:
            if shared:  # a read-only folder: no writer can be at work in it either
                yield Held(shared)
                return
            raise WriteError(path, os_reason(err)) from None
        if not _try_lock(fd, shared):
            os.close(fd)
            raise _refusal(folder, path, command, shared)
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the file was removed and made anew between our open and our lock
    if not shared:
        info = {"command": command, "pid": os.getpid(), "host": socket.gethostname(),
                "started": datetime.datetime.now().astimezone().isoformat(timespec="seconds")}
        with writing(path):
            os.ftruncate(fd, 0)
            os.pwrite(fd, (json.dumps(info) + "\n").encode(), 0)
    held = _HELD[key] = Held(shared)
    try:
        yield held
    finally:
        del _HELD[key]
        try:
            if not shared:
                with contextlib.suppress(OSError):
                    if created and not held.wrote:
                        path.unlink()  # refused before writing: leave nothing
                    else:
                        os.ftruncate(fd, 0)  # no writer now
        finally:
            os.close(fd)  # releases the lock


# --- the journal of block files ------------------------------------------------------------------


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_journal(folder: Path) -> dict[str, dict] | None:
    """The journal's last entry for every file (relative path -> entry); None if the folder has
    no journal. A last line without its newline (a write cut short) is ignored; any other line
    that is not an entry is an error."""
    path = folder / JOURNAL
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return None
    lines = text.split(b"\n")
    if lines and lines[-1]:  # cut short by kill -9 while appended: never renamed into place
        lines[-1] = b""
    entries = {}
    for number, line in enumerate(lines, start=1):
        if not line:
            continue
        try:
            entry = json.loads(line)
            if not (isinstance(entry, dict) and isinstance(entry.get("file"), str)
                    and isinstance(entry.get("sha256"), str)):
                raise ValueError
        except ValueError:
            raise UserError("is damaged (not a checksum entry), so the blocks cannot be checked; "
                            "start afresh with another --out folder or delete this one",
                            source=str(path), line=number) from None
        entries[entry["file"]] = entry
    return entries


def append_journal(folder: Path, entries: list[dict]) -> None:
    """Append entries, in one write of whole lines."""
    path = folder / JOURNAL
    data = "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in entries).encode()
    with writing(path):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)


def compact_journal(folder: Path, entries: dict[str, dict] | None = None) -> None:
    """Rewrite the journal (atomically) as one line per existing file, in file order."""
    entries = read_journal(folder) if entries is None else entries
    keep = sorted((f, e) for f, e in (entries or {}).items() if (folder / f).exists())
    atomic_write("".join(json.dumps(e, separators=(",", ":")) + "\n" for _, e in keep).encode(),
                 folder / JOURNAL)


def block_files(folder: Path) -> list[Path]:
    """Every block file of the tables (``hands/part-*.parquet``, ``games/part-*.parquet``)."""
    return sorted(p for t in TABLE_DIRS for p in (folder / t).glob("part-*.parquet"))


def sample_files(folder: Path) -> list[Path]:
    """Every cell's sample of hand records (``records/sample-*.jsonl``, `whistlab.runner`)."""
    return sorted((folder / "records").glob("sample-*.jsonl"))


def verify_files(folder: Path, entries: dict[str, dict] | None, check=None,
                 advice: str = "delete it and run again to simulate that block anew"
                 ) -> dict[str, dict]:
    """Check every block file of ``folder`` and every sample of records (`sample_files`)
    against the journal ``entries``: the file must have an entry and the same SHA-256;
    ``check(path, data, entry)`` may refuse it further (a `UserError`). Returns the entries of
    the files, by relative path. Files are hashed on a few threads (hashlib and reads release
    the GIL)."""
    files = [*block_files(folder), *sample_files(folder)]
    if not files:
        return {}
    if entries is None:
        entries = {}

    def one(path: Path):
        name = path.relative_to(folder).as_posix()
        try:
            data = path.read_bytes()
        except OSError as err:
            raise UserError(f"cannot be read: {os_reason(err)}", source=str(path)) from None
        entry = entries.get(name)
        if entry is None:
            raise UserError(f"is not a block of this folder's runs (it has no checksum in "
                            f"{JOURNAL}: copied from elsewhere?); {advice}", source=str(path))
        if digest(data) != entry["sha256"]:
            raise UserError(f"is damaged or was replaced (its SHA-256 differs from the one in "
                            f"{JOURNAL}); {advice}", source=str(path))
        if check is not None:
            check(path, data, entry)
        return name, entry

    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        return dict(pool.map(one, files))


# --- paths a run owns ----------------------------------------------------------------------------


def check_outside(path: str | Path | None, folder: str | Path, option: str) -> None:
    """Refuse, before any work, an output ``path`` that is, or is inside, a file or folder that
    the results folder ``folder`` keeps for itself (manifest, journal, lock, tables, records
    parts, yardstick)."""
    if path is None:
        return
    p, f = Path(os.path.abspath(path)), Path(os.path.abspath(folder))
    owned = [f / name for name in (*OWNED, "yardstick")]
    inside = next((o for o in owned if p == o or o in p.parents), None)
    if inside is not None:
        where = "" if p == inside else "inside "
        raise UserError(f"{path} is {where}{inside.name} of the results folder {folder}, which "
                        "whistlab keeps for its own files; choose a path outside them",
                        source=option)
