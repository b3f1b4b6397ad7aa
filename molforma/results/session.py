"""Thread-safe holder of the current results, loading in the background (no Qt).

The MCP server and the window share one :class:`ResultsSession`. Each load runs
in its own thread and can be cancelled; only a completed load replaces
``current``, so a failed or cancelled load keeps the previous results. Starting a
new load cancels the one still running, so a slow old load never overwrites a
newer one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Literal

from molforma.background import BackgroundHandle
from molforma.errors import MolFormaError, ResultsError
from molforma.results.reader import read_results
from molforma.results.results_model import Results

LoadStatus = Literal["running", "completed", "failed", "cancelled"]


class LoadHandle(BackgroundHandle):
    """One background load: wait for it, cancel it, read its status and error."""

    def __init__(self, path: str, action: str, guard: Callable[..., Any] | None = None) -> None:
        self.path = path
        self.action = action
        self.guard = guard
        super().__init__()
        self._status: LoadStatus = "running"
        self._error: MolFormaError | None = None
        self.result: Results | None = None
        self._thread: threading.Thread | None = None

    @property
    def status(self) -> LoadStatus:
        """``running``, ``completed``, ``failed`` or ``cancelled``."""
        return self._status

    @property
    def error(self) -> dict[str, Any] | None:
        """The common error object (code, message, details) of a failed or cancelled load."""
        return self._error.to_dict() if self._error is not None else None

    @property
    def exception(self) -> MolFormaError | None:
        """The error itself, for callers that re-raise it."""
        return self._error

    def to_dict(self) -> dict[str, Any]:
        """Status record for ``get_app_state``."""
        return {
            "path": self.path,
            "action": self.action,
            "status": self._status,
            "error": self.error,
        }

    def _finish(self, status: LoadStatus, error: MolFormaError | None) -> None:
        self._status = status
        self._error = error
        self._done.set()


class ResultsSession:
    """The current results plus the load in progress; safe to use from any thread."""

    def __init__(self, reader: Callable[..., Results] = read_results) -> None:
        self._reader = reader
        self._lock = threading.RLock()
        self._current: Results | None = None
        self._loading: LoadHandle | None = None
        self._last: LoadHandle | None = None
        self._listeners: list[Callable[[LoadHandle], None]] = []

    @property
    def current(self) -> Results | None:
        """The results of the last completed load (None before any)."""
        with self._lock:
            return self._current

    @property
    def loading(self) -> LoadHandle | None:
        """The load in progress, if any."""
        with self._lock:
            h = self._loading
            return h if h is not None and not h.done else None

    def add_listener(self, fn: Callable[[LoadHandle], None]) -> None:
        """Call ``fn(handle)`` from the loader thread each time a load ends."""
        with self._lock:
            self._listeners.append(fn)

    def open_file(self, path: str, *, guard: Callable[..., Any] | None = None) -> LoadHandle:
        """Start loading a result file (or an animation group key).

        ``guard`` (see :mod:`molforma.results.reader`) checks every file the load opens.
        """
        return self._start(str(path), "open_file", guard)

    def open_directory(self, path: str, *, guard: Callable[..., Any] | None = None) -> LoadHandle:
        """Start loading a folder: ``output.out`` first, else its first result file."""
        return self._start(str(path), "open_directory", guard)

    def reload(self, *, guard: Callable[..., Any] | None = None) -> LoadHandle:
        """Start re-reading the source of the current results (``guard`` as for a load).

        Raises:
            ResultsError: ``results_nothing_loaded`` when nothing was loaded yet.
        """
        with self._lock:
            cur = self._current
        if cur is None:
            raise ResultsError("results_nothing_loaded")
        return self._start(cur.source, "reload", guard)

    def state(self) -> dict[str, Any]:
        """Source, loading status and counts, for ``get_app_state``."""
        with self._lock:
            cur = self._current
            loading = self.loading
            last = self._last
        counts = None
        if cur is not None:
            s = cur.summary
            counts = {
                "energies": s.energyCount,
                "structures": s.structureCount,
                "modes": s.modeCount,
                "imaginaryModes": s.imaginaryModes,
                "significantImaginaryModes": s.significantImaginaryModes,
                "files": s.fileCount,
                "warnings": s.warningCount,
                "errors": s.errorCount,
            }
        return {
            "source": cur.source if cur is not None else None,
            "kind": cur.kind if cur is not None else None,
            "loading": loading.to_dict() if loading is not None else None,
            "lastLoad": last.to_dict() if last is not None else None,
            "counts": counts,
        }

    def _start(self, path: str, action: str, guard: Callable[..., Any] | None = None) -> LoadHandle:
        handle = LoadHandle(path, action, guard)
        with self._lock:
            old = self._loading
            if old is not None and not old.done:
                old.cancel()
            self._loading = handle
            self._last = handle
        t = threading.Thread(
            target=self._run, args=(handle,), name=f"results-load:{path}", daemon=True
        )
        handle._thread = t
        t.start()
        return handle

    def _run(self, handle: LoadHandle) -> None:
        try:
            # A reader given by a caller may not know guards; pass one only when set.
            extra = {"guard": handle.guard} if handle.guard is not None else {}
            res = self._reader(handle.path, cancel=handle._cancel, **extra)
        except MolFormaError as exc:
            status: LoadStatus = "cancelled" if exc.code == "results_cancelled" else "failed"
            handle._finish(status, exc)
        except Exception as exc:  # noqa: BLE001 - a worker thread must always report its end
            handle._finish(
                "failed", ResultsError("results_load_failed", path=handle.path, detail=str(exc))
            )
        else:
            with self._lock:
                if handle._cancel.is_set():
                    handle._finish("cancelled", ResultsError("results_cancelled", path=handle.path))
                else:
                    self._current = res
                    handle.result = res
                    handle._finish("completed", None)
        with self._lock:
            listeners = list(self._listeners)
        for fn in listeners:
            fn(handle)
