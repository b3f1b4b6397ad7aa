"""The window's side of an exit: calculations stop on a signal and on Quit (Qt layer).

:func:`connect_exit_signals` hands ``molforma.exit_signals`` the window's clean-up.
On SIGTERM, SIGINT or SIGHUP the signal watcher thread stops the calculations
itself (the job manager is thread-safe, and this does not wait for Qt's event loop,
which may be inside a modal dialog), then asks the GUI thread, through a queued
signal, to leave every event loop with ``128 + signum``: no question about unsaved
work can be answered by a process being told to end. The watcher ends the process
by itself if the GUI thread has not done so shortly after.

:func:`stop_calculations` is what the window runs when it really closes (Quit,
the window manager's close button) and what :func:`~molforma.gui.launch.launch_window`
runs after the event loop returned, whatever ended it.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QApplication

from molforma import exit_signals

log = logging.getLogger(__name__)


def stop_calculations(ctx: Any) -> None:
    """Stop the window's running local calculations and wait for their records."""
    jobs = getattr(ctx, "_jobs", None)  # not ctx.jobs: never create a manager to stop it
    if jobs is None:
        return
    try:
        jobs.stop_all()
    except Exception:
        log.exception("stopping the calculations failed")


class _QuitRelay(QObject):
    """Carries the exit status from the watcher thread to the GUI thread."""

    quitRequested = Signal(int)

    def __init__(self, window: Any) -> None:
        super().__init__()
        self._window = window
        self.quitRequested.connect(self._quit, Qt.ConnectionType.QueuedConnection)

    @Slot(int)
    def _quit(self, status: int) -> None:
        window = self._window
        window.ctx.mcp_mode = True  # never ask about unsaved work now
        tab = getattr(window, "molecule_tab", None)
        if tab is not None:
            tab.cancel_worker()
        app = QApplication.instance()
        if app is not None:
            app.exit(status)  # leaves nested loops too (an open modal dialog)


def connect_exit_signals(window: Any, server: Any | None = None) -> None:
    """On an exit signal, stop ``window``'s calculations and MCP work, then quit.

    ``server`` is the ``--mcp-gui`` server, whose tasks and loads stop too.
    """
    relay = _QuitRelay(window)
    relay.moveToThread(window.thread())
    window._exit_signal_relay = relay  # kept alive with the window

    def on_signal(signum: int) -> None:
        if server is not None:
            server.state.shutdown()
        else:
            jobs = getattr(window.ctx, "_jobs", None)
            if jobs is not None:
                jobs.close()
        stop_calculations(window.ctx)
        relay.quitRequested.emit(exit_signals.exit_status(signum))

    exit_signals.set_handler(on_signal)
