"""Local worker processes that die with the process that started them: forked (`forked_pool`,
the runner's on Linux) or joblib's loky (`local_workers`: tune, yardstick, and the runner where
``fork`` is not available).

`forked_pool` starts its workers with ``fork``: they begin with everything this process has
imported (numpy, pyarrow, the engine), where a loky worker starts a new interpreter and imports it
all again (about 0.6 CPU seconds each, most of the serial part of a short parallel run). The
workers ignore SIGINT (the parent handles Ctrl-C and stops them), and the pool keeps at most two
tasks per worker in flight, so that finished blocks never pile up in memory.

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
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator

__all__ = ["WATCH_SECONDS", "can_fork", "forked_pool", "local_workers", "processes",
           "watch_parent"]

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
    import joblib

    with joblib.parallel_config(backend="loky", initializer=watch_parent,
                                initargs=(os.getpid(),)):
        yield


def processes(n_jobs: int) -> int:
    """The number of processes ``n_jobs`` asks for, as joblib counts them: ``-1`` all cores,
    ``-2`` all but one ... (at least one)."""
    return n_jobs if n_jobs > 0 else max(1, (os.cpu_count() or 1) + 1 + n_jobs)


def can_fork() -> bool:
    """Whether `forked_pool` may be used: Linux (elsewhere ``fork`` is missing, or unsafe with
    the system's frameworks, as on macOS)."""
    import multiprocessing

    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def _forked_worker(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    watch_parent(parent)


@contextlib.contextmanager
def forked_pool(workers: int) -> Iterator[Callable[[Callable, Iterable[tuple]], Iterator]]:
    """``workers`` processes forked from this one, each watching it (`watch_parent`). Yields
    ``imap(fn, tasks)``: the results of ``fn(*task)`` for every task, in the order they finish,
    with at most two tasks per worker in flight (the first ones submitted at the call). A
    task's exception is raised here; leaving the context on an error (or when the caller stops
    reading) cancels the tasks not started and ends the workers at once."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                               initializer=_forked_worker, initargs=(os.getpid(),))

    def imap(fn: Callable, tasks: Iterable[tuple]) -> Iterator:
        tasks = iter(tasks)
        pending = set()

        def fill():
            for task in tasks:
                pending.add(pool.submit(fn, *task))
                if len(pending) >= 2 * workers:
                    break

        def results():
            nonlocal pending
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
                fill()

        fill()  # the workers start now, not when the first result is asked for
        return results()

    finished = False
    try:
        yield imap
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:  # stop at once: no one will read what the workers compute
            kids = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for kid in kids:
                with contextlib.suppress(Exception):
                    kid.terminate()
            for kid in kids:
                with contextlib.suppress(Exception):
                    kid.join(5)
