"""Local worker processes (joblib's loky) that die with the process that started them.

A loky worker waits for work on a queue whose writing end every worker also holds, so it does
not notice when its parent is killed (``kill -9``): it lived on until its idle timeout (300 s),
and with it loky's resource tracker, whose pipe the workers keep open. Each worker here runs
`watch_parent` at start (loky's ``initializer``): a daemon thread that checks every
`WATCH_SECONDS` whether the parent is still its parent and ends the worker at once when not
(reparented: the parent died). With the workers gone, the resource tracker sees its pipe close
and exits too. `os.getppid` is polled rather than ``PR_SET_PDEATHSIG`` because that signal
follows the death of the parent *thread* that started the worker, which need not be the main one.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time

import joblib

__all__ = ["WATCH_SECONDS", "local_workers", "watch_parent"]

WATCH_SECONDS = 0.2


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)  # the parent is gone: no one will read what this worker computes


def watch_parent(parent: int) -> None:
    """In a worker: exit as soon as the process ``parent`` is no longer this process's parent."""
    if os.getppid() != parent:  # run in-process (n_jobs = 1) or under another parent
        return
    threading.Thread(target=_watch, args=(parent,), name="whistlab-watch-parent",
                     daemon=True).start()


@contextlib.contextmanager
def local_workers():
    """joblib's loky backend with workers that watch this process (`watch_parent`)."""
    with joblib.parallel_config(backend="loky", initializer=watch_parent,
                                initargs=(os.getpid(),)):
        yield
