"""Python's cyclic garbage collector runs in the window's thread only (Qt layer).

CPython collects reference cycles in whichever thread happens to allocate. A cycle
that holds a Qt object (a closed window's panel, a dialog) collected in a worker thread
destroys that object there: ``QObject``'s destructor takes the object's connection lock
and then waits for the GIL, while the window's thread holds the GIL and waits for the
same lock to connect a signal. Both wait for ever — seen with the orbital loader
importing PySCF while a panel was being built. So while the window runs the automatic
collector is off, and a timer in the window's thread collects instead, with the
thresholds the collector itself would use.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 500


class MainThreadCollector(QObject):
    """Collects garbage from a timer of the thread it lives in (the GUI thread)."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.collect)
        self._timer.start(interval_ms)

    def collect(self) -> int:
        """One collection of the generations the counts call for (0 when none is due)."""
        count0, count1, count2 = gc.get_count()
        limit0, limit1, limit2 = gc.get_threshold()
        if count0 <= limit0:
            return 0
        # the oldest generation due, as the collector would pick it (younger ones go along)
        oldest = 0 if count1 <= limit1 else 1 if count2 <= limit2 else 2
        return gc.collect(oldest)

    def stop(self) -> None:
        """Hand collection back to Python (as it was before)."""
        self._timer.stop()
        if self._was_enabled:
            gc.enable()


_collector: list[MainThreadCollector] = []


def collect_in_this_thread(parent: QObject) -> MainThreadCollector:
    """The one collector of the process, made on first call (``parent``: the application)."""
    if not _collector:
        _collector.append(MainThreadCollector(parent))
    return _collector[0]


def stop_collecting() -> None:
    """Hand collection back to Python (no-op when no collector was made)."""
    for collector in _collector:
        collector.stop()
