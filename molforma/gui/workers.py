"""Long work off the GUI thread: SMILES → 3D and geometry clean-up (Qt layer).

The chemistry itself (:func:`molforma.app.smiles.smiles_to_structure`,
:func:`molforma.document.cleanup.cleanup_positions`) is plain RDKit with a cancel
callback, so it is tested and reused without Qt; :class:`Worker` runs such a function on a QThread and reports progress, the result,
a failure or a cancellation through signals. Cancelling is cooperative: the
function checks ``cancelled()`` between force-field rounds.

The geometry clean-up runs in a child process instead (:class:`CleanupProcess`):
RDKit's minimiser keeps the GIL for a whole call, which froze the window for
minutes on a few thousand atoms when it ran on a thread. The child reports
iterations and energy per chunk; Stop kills it at once.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QObject, QProcess, QThread, Signal

from molforma.document.cleanup import Cancelled, request_text
from molforma.errors import MolFormaError

log = logging.getLogger(__name__)

__all__ = ["Cancelled", "CleanupProcess", "Worker"]


class _Thread(QThread):
    def __init__(self, target: Callable[[], None]) -> None:
        super().__init__()
        self._target = target

    def run(self) -> None:
        self._target()


class Worker(QObject):
    """Runs ``fn(cancelled=..., progress=...)`` on its own QThread.

    Signals are delivered on the thread that created the worker (the GUI thread).
    """

    progress = Signal(int, str)
    succeeded = Signal(object)
    failed = Signal(object)  # the MolFormaError (or another exception)
    cancelledSignal = Signal()
    finished = Signal()

    def __init__(self, fn: Callable[..., Any], name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self._fn = fn
        self._cancel = threading.Event()
        self._thread: QThread | None = None
        self._result: Any = None
        self._error: BaseException | None = None

    def start(self) -> None:
        """Start the work on a new QThread."""
        self._thread = _Thread(self._run)
        self._thread.setObjectName(self.objectName() + "Thread")
        self._thread.finished.connect(self._done)
        self._thread.start()

    def cancel(self) -> None:
        """Ask the work to stop at its next check."""
        self._cancel.set()

    @property
    def running(self) -> bool:
        """True while the thread runs."""
        return self._thread is not None and self._thread.isRunning()

    def wait(self, ms: int = 30000) -> bool:
        """Block until the thread ends (used when the window closes)."""
        return self._thread.wait(ms) if self._thread is not None else True

    def _run(self) -> None:
        try:
            self._result = self._fn(
                cancelled=self._cancel.is_set,
                progress=lambda p, m: self.progress.emit(int(p), str(m)),
            )
        except Exception as exc:  # noqa: BLE001 - forwarded to the GUI thread
            self._error = exc

    def _done(self) -> None:
        if isinstance(self._error, Cancelled) or (self._error is None and self._cancel.is_set()):
            self.cancelledSignal.emit()
        elif self._error is not None:
            self.failed.emit(self._error)
        else:
            self.succeeded.emit(self._result)
        self.finished.emit()
        if self._thread is not None:
            self._thread.deleteLater()
            self._thread = None


class CleanupProcess(QObject):
    """The geometry clean-up in a child process, with the signals of :class:`Worker`.

    ``progress`` carries a percentage and a stage; ``stepped`` carries iterations done,
    the maximum and the force-field energy (kcal/mol) after each chunk. Everything
    arrives on the GUI thread through QProcess, so no thread of ours holds the GIL.
    """

    progress = Signal(int, str)
    stepped = Signal(int, int, float)
    succeeded = Signal(object)
    failed = Signal(object)
    cancelledSignal = Signal()
    finished = Signal()

    def __init__(
        self,
        atoms: Sequence[Mapping[str, Any]],
        bonds: Sequence[Mapping[str, Any]],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("cleanupWorker")
        self._request = request_text(atoms, bonds)
        self._proc: QProcess | None = None
        self._buffer = b""
        self._result: dict[str, Any] | None = None
        self._error: MolFormaError | None = None
        self._cancelled = False
        self._ended = False

    def start(self) -> None:
        """Start the child and send it the request."""
        proc = QProcess(self)
        proc.setObjectName("cleanupProcess")
        proc.setProcessChannelMode(QProcess.ProcessChannelMode.SeparateChannels)
        proc.readyReadStandardOutput.connect(self._read)
        proc.finished.connect(self._done)
        proc.errorOccurred.connect(self._process_error)
        self._proc = proc
        proc.start(sys.executable, ["-m", "molforma.document.cleanup"])
        proc.write(self._request)
        proc.closeWriteChannel()

    def cancel(self) -> None:
        """Stop at once: the child is killed, nothing of its work is kept."""
        self._cancelled = True
        if self._proc is not None and self._proc.state() != QProcess.ProcessState.NotRunning:
            self._proc.kill()

    @property
    def running(self) -> bool:
        """True until the child has ended and its outcome was reported."""
        return self._proc is not None and not self._ended

    def wait(self, ms: int = 30000) -> bool:
        """Block until the child ends (used when the window closes)."""
        if self._proc is None or self._proc.state() == QProcess.ProcessState.NotRunning:
            return True
        return bool(self._proc.waitForFinished(ms))

    def _read(self) -> None:
        assert self._proc is not None
        self._buffer += bytes(self._proc.readAllStandardOutput().data())
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            if line.strip():
                self._message(line)

    def _message(self, line: bytes) -> None:
        try:
            msg = json.loads(line)
        except ValueError:
            log.warning("clean-up child wrote %r", line[:200])
            return
        kind = msg.get("type")
        if kind == "progress":
            done, maximum = int(msg["iterations"]), max(int(msg["maxIterations"]), 1)
            self.stepped.emit(done, maximum, float(msg["energy"]))
            self.progress.emit(int(100 * done / maximum), "optimise")
        elif kind == "stage":
            self.progress.emit(int(msg.get("percent", 0)), str(msg.get("stage", "")))
        elif kind == "result":
            self._result = dict(msg["positions"])
        elif kind == "error":
            self._error = MolFormaError(
                str(msg.get("code", "cleanup_failed")), **dict(msg.get("data") or {})
            )

    def _process_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            self._error = MolFormaError(
                "cleanup_failed", detail=self._proc.errorString() if self._proc is not None else ""
            )
            self._done()

    def _done(self, *_args: Any) -> None:
        if self._ended:
            return
        if self._proc is not None and not self._cancelled:
            self._read()
        self._ended = True
        if self._cancelled:
            self.cancelledSignal.emit()
        elif self._error is not None:
            self.failed.emit(self._error)
        elif self._result is not None:
            self.succeeded.emit(self._result)
        else:
            tail = (
                bytes(self._proc.readAllStandardError().data()).decode(errors="replace")
                if self._proc is not None
                else ""
            )
            last = tail.strip().splitlines()[-1:] or ["no result"]
            self.failed.emit(MolFormaError("cleanup_failed", detail=last[0]))
        self.finished.emit()
