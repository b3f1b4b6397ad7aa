"""The Orbitals tab's worker thread: loading orbitals and evaluating grids off the GUI thread.

PySCF's import alone takes seconds; the result (or the exception) comes back to the GUI
thread through the relay's queued signal.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from molforma.errors import MolFormaError


class Relay(QObject):
    """Carries a worker's result to the GUI thread (queued across threads)."""

    done = Signal(object, object)  # (callback, result or exception)


def start_worker(relay: Relay, work: Callable[[], Any], then: Callable[[Any], None]) -> None:
    """Run ``work`` in a daemon thread; ``relay`` delivers ``then`` and its value (or the
    exception that ended it). The worker keeps the relay alive, whatever happens to the
    panel."""

    def run() -> None:
        try:
            value: Any = work()
        # ImportError too: a broken optional package must end the work, not the panel.
        except (MolFormaError, OSError, ValueError, MemoryError, ImportError) as exc:
            value = exc
        relay.done.emit(then, value)

    threading.Thread(target=run, name="orbitals", daemon=True).start()
