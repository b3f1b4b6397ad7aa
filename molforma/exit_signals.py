"""SIGTERM, SIGINT and SIGHUP end MolForma cleanly: calculations stopped first (no Qt).

:func:`install` runs as early as possible on the main thread (``molforma.cli``). It
points Python's signal wake-up file descriptor at a pipe and installs a handler
that only notes the signal: both are async-signal-safe (the C-level handler writes
the signal number into the pipe; the Python-level one assigns an integer). A
watcher thread blocks on the pipe and runs the clean-up, so the clean-up starts at
once whatever the main thread is doing — a long tool call, Qt's event loop (where
Python code on the main thread may not run for a while) or a modal dialog.

The clean-up is what the running mode registers with :func:`set_handler`; before a
mode has registered one, running local jobs are stopped and the process ends.
Either way the exit status is ``128 + signum`` (143 for SIGTERM, 130 for SIGINT,
129 for SIGHUP), the convention of POSIX shells for "ended by that signal".

A signal ignored when MolForma started (``nohup`` ignores SIGHUP, a shell's ``&``
may ignore SIGINT) stays ignored, as the person asked. SIGKILL cannot be caught:
the job records then keep ``running``, and History shows such jobs as
``interrupted`` once their process is gone (``molforma.history.folder_scan``); the jobs'
processes are told to end with MolForma by the job runner itself.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import NoReturn

from molforma.lazylog import get_logger

log = get_logger(__name__)

EXIT_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
FALLBACK_EXIT_SECONDS = 1.5  # the process ends by then even if the main thread is stuck

_lock = threading.Lock()
_handler: Callable[[int], None] | None = None
_installed = False
_received: list[int] = []  # signal numbers in arrival order; only the first one acts


def exit_status(signum: int) -> int:
    """The exit status of MolForma ended by ``signum``: ``128 + signum``."""
    return 128 + int(signum)


def install() -> bool:
    """Catch SIGTERM, SIGINT and SIGHUP (main thread only); True when installed.

    Idempotent. Does nothing off the main thread or where signals are not POSIX.
    """
    global _installed
    if _installed:
        return True
    if threading.current_thread() is not threading.main_thread() or sys.platform == "win32":
        return False
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)  # set_wakeup_fd needs it: a signal never blocks
    for fd in (read_fd, write_fd):
        os.set_inheritable(fd, False)
    caught = []
    for sig in EXIT_SIGNALS:
        if signal.getsignal(sig) == signal.SIG_IGN:
            continue
        signal.signal(sig, _note_signal)
        caught.append(int(sig))
    if not caught:
        os.close(read_fd)
        os.close(write_fd)
        return False
    signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    threading.Thread(
        target=_watch, args=(read_fd, frozenset(caught)), name="exit-signals", daemon=True
    ).start()
    _installed = True
    return True


def set_handler(fn: Callable[[int], None] | None) -> None:
    """Run ``fn(signum)`` on the watcher thread when an exit signal arrives.

    ``fn`` stops the calculations and makes the process end with
    :func:`exit_status`; if the process is still alive
    :data:`FALLBACK_EXIT_SECONDS` after ``fn`` returned, it is ended there.
    ``None`` restores the default (stop local jobs, end the process).
    """
    global _handler
    with _lock:
        _handler = fn


def _note_signal(signum: int, _frame: object) -> None:
    # Runs on the main thread between two bytecodes; the work is done by the watcher,
    # woken by the byte the C-level handler wrote into the wake-up pipe.
    pass


def _watch(read_fd: int, caught: frozenset[int]) -> None:
    while True:
        try:
            data = os.read(read_fd, 64)
        except InterruptedError:
            continue
        except OSError:
            return
        if not data:
            return
        for signum in data:
            if signum in caught:
                _received.append(signum)
                if len(_received) == 1:
                    _run_clean_up(signum)


def _run_clean_up(signum: int) -> None:
    status = exit_status(signum)
    with _lock:
        fn = _handler
    if fn is None:
        stop_local_jobs()
        _exit_now(status)
    try:
        fn(signum)
    except Exception:
        log.exception("clean-up after signal %d failed", signum)
        stop_local_jobs()
    # The handler asked the main thread to end; if it cannot (stuck in a call), end here.
    timer = threading.Timer(FALLBACK_EXIT_SECONDS, _exit_now, args=(status,))
    timer.daemon = True
    timer.start()


def stop_local_jobs() -> None:
    """Stop every running local calculation of this process and wait for its record."""
    runner = sys.modules.get("molforma.jobs.runner")
    if runner is None:
        return  # never imported: nothing was ever started
    try:
        runner.stop_running_jobs()
    except Exception:
        log.exception("stopping the calculations failed")


def _exit_now(status: int) -> NoReturn:
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    os._exit(status)
