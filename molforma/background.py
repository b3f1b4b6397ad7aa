"""A handle on work running in a background thread (no Qt).

Loads, scans and other long work share the same three verbs: ``cancel`` asks
the work to stop at its next check, ``wait`` blocks until it ends, ``done``
says whether it has. The work itself polls the handle's ``_cancel`` event.
"""

from __future__ import annotations

import threading


class BackgroundHandle:
    """Base class of handles on cancellable background work."""

    def __init__(self) -> None:
        self._cancel = threading.Event()
        self._done = threading.Event()

    @property
    def done(self) -> bool:
        """True once the work has ended, whatever the outcome."""
        return self._done.is_set()

    def cancel(self) -> None:
        """Ask the work to stop; it ends as cancelled unless it had already finished."""
        self._cancel.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the work ends (or ``timeout`` seconds); True when it ended."""
        return self._done.wait(timeout)
