"""Run work on the GUI thread from another thread and wait for it (Qt layer).

:class:`GuiDispatcher` implements the MCP layer's ``GuiBridge`` protocol: the MCP
thread hands it a function, the function runs on the Qt event loop, and its result
or its exception comes back to the caller. A caller that is already on the GUI
thread runs the function directly, so nothing can deadlock on itself.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

T = TypeVar("T")


class GuiDispatcher(QObject):
    """Queues zero-argument functions onto the thread this object lives in."""

    _submit = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("guiDispatcher")
        self._submit.connect(self._run, Qt.ConnectionType.QueuedConnection)
        #: Runs on the GUI thread before each function (the window builds its deferred
        #: panels there, so MCP work finds every widget).
        self.prepare: Callable[[], None] | None = None

    def call(self, fn: Callable[[], T], timeout: float = 30.0) -> T:
        """Run ``fn`` on the GUI thread and return its result (or raise its exception).

        Raises:
            TimeoutError: the GUI thread did not run it within ``timeout`` seconds
                (a modal dialog may be open).
        """
        if QThread.currentThread() == self.thread():
            self._prepare()
            return fn()
        fut: Future[T] = Future()

        def job() -> None:
            if not fut.set_running_or_notify_cancel():
                return
            try:
                self._prepare()
                fut.set_result(fn())
            except BaseException as exc:  # noqa: BLE001 - forwarded to the waiting caller
                fut.set_exception(exc)

        self._submit.emit(job)
        try:
            return fut.result(timeout=timeout)
        except TimeoutError:
            fut.cancel()  # if it has not started, it never will
            raise

    def _prepare(self) -> None:
        if self.prepare is not None:
            self.prepare()

    @Slot(object)
    def _run(self, job: Callable[[], None]) -> None:
        job()
