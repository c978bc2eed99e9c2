"""Writing files that are whole or absent, and write failures as one clear line.

Every file whistlab writes goes to a temporary name beside its final one (``.<name>.tmp<pid>``:
hidden, and naming the process that writes it) and is renamed into place, so a reader, or a run
killed with ``kill -9``, never sees a part of a file under its final name. A temporary left by a
killed process is removed by the next command that writes there (`remove_stale`).

A write that fails (a read-only folder, a full disk) raises `WriteError`: a `UserError` that names
the file and the operating system's reason, after removing the temporary.
"""

from __future__ import annotations

import contextlib
import errno as errnos
import os
import re
from pathlib import Path

from .errors import UserError

__all__ = ["WriteError", "atomic_file", "atomic_write", "os_reason", "remove_stale", "temporary",
           "writing"]

_TMP = re.compile(r"\.(?:tmp|old)(\d+)$")


class WriteError(UserError):
    """A file or folder could not be written: ``path`` (where the user will look for it) and
    ``reason`` (the operating system's, e.g. ``[Errno 28] No space left on device``)."""

    def __init__(self, path: str | Path, reason: str):
        self.path, self.reason = Path(path), reason
        super().__init__(f"cannot write {path}: {reason}")


def os_reason(err: OSError) -> str:
    """``[Errno 28] No space left on device`` for an OSError, also for the ones polars and
    pyarrow raise without ``errno`` (their message ends in ``(os error 28)``)."""
    number = err.errno
    if number is None:
        found = re.search(r"os error (\d+)|errno (\d+)", str(err), re.IGNORECASE)
        number = int(next(g for g in found.groups() if g)) if found else None
    if number is None:
        return str(err).splitlines()[0] if str(err) else type(err).__name__
    return f"[Errno {number}] {os.strerror(number)}"


def temporary(path: str | Path) -> Path:
    """The temporary name of ``path`` for this process."""
    path = Path(path)
    return path.with_name(f".{path.name}.tmp{os.getpid()}")


@contextlib.contextmanager
def writing(path: str | Path, *temporaries: Path):
    """Turn an OSError inside the block into a `WriteError` naming ``path``, after removing
    ``temporaries`` (files or folders)."""
    try:
        yield
    except OSError as err:
        for tmp in temporaries:
            _remove(tmp)
        raise WriteError(path, os_reason(err)) from None


@contextlib.contextmanager
def atomic_file(path: str | Path):
    """Yield the temporary name of ``path`` to write; it is renamed to ``path`` when the block
    ends, and removed if the block fails (a failed write: `WriteError`)."""
    path = Path(path)
    tmp = temporary(path)
    with writing(path, tmp):
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            yield tmp
        except BaseException:
            _remove(tmp)
            raise
        os.replace(tmp, path)  # atomic: the file is whole or absent


def atomic_write(data: bytes, path: str | Path) -> None:
    """Write ``data`` to ``path`` under a temporary name, then rename it: whole or absent."""
    with atomic_file(path) as tmp, open(tmp, "wb") as f:
        f.write(data)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def remove_stale(candidates, only_dead: bool = True) -> list[Path]:
    """Remove the temporaries among ``candidates`` (names ending ``.tmp<pid>`` or ``.old<pid>``)
    of processes no longer alive (``only_dead``; else all of them, when a lock excludes other
    writers). Returns what was removed."""
    gone = []
    for path in candidates:
        found = _TMP.search(path.name)
        if not found or (only_dead and _alive(int(found.group(1)))):
            continue
        _remove(path)
        gone.append(path)
    return gone


def _remove(path: Path) -> None:
    import shutil

    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    except OSError as err:  # a read-only folder: nothing was written there either
        if err.errno not in (errnos.EROFS, errnos.EACCES, errnos.EPERM):
            raise
