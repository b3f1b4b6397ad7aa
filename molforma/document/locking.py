"""The document's lock (no Qt): re-entrant, and the change notices made while it is held
are told to listeners once, after the outermost release, with the lock free (see
:mod:`molforma.document.document`)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from molforma.document.changes import Change


class DocumentLock:
    """The document's re-entrant lock; change notices wait until its outermost release.

    Callers may hold it around several operations (``with doc.lock: ...``); the
    changes made meanwhile are told to listeners once, in order, after the last
    release, by the thread that made them, with the lock free.
    """

    def __init__(self, deliver: Callable[[list[Change]], None]) -> None:
        self._lock = threading.RLock()
        self._depth = 0  # changed only by the thread that holds the lock
        self._pending: list[Change] = []
        self._deliver = deliver

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        """Take the lock (re-entrant), like :meth:`threading.RLock.acquire`."""
        if not self._lock.acquire(blocking, timeout):
            return False
        self._depth += 1
        return True

    def release(self) -> None:
        """Give the lock back; the outermost release then delivers the queued notices."""
        self._depth -= 1
        if self._depth or not self._pending:
            self._lock.release()
            return
        pending, self._pending = self._pending, []
        self._lock.release()
        self._deliver(pending)

    def queue(self, change: Change) -> None:
        """Remember a notice for the outermost release (call with the lock held)."""
        self._pending.append(change)

    def __enter__(self) -> DocumentLock:
        self.acquire()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()
