"""The MCP services of ``--mcp-gui``: the window's document, jobs and results (Qt layer).

:class:`WindowServices` implements :class:`molforma.mcp.state.AppServices` on the
window's :class:`~molforma.gui.context.AppContext`: the one document is the
window's (it changes when the person opens a file), the job manager is the
Execution tab's, the results session is the Results tab's, and the window bridge
is :class:`WindowBridgeImpl` (reads on the GUI thread, queued commands, dialogs).
A calculation MCP starts goes ``policy.may_start`` (in the tool) → ``ctx.jobs.start``
→ ``ctx.events.jobChanged``, so the Execution tab follows it like its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, TypeVar

from molforma.gui import dialogs
from molforma.lazy import lazy_import
from molforma.mcp.bridge import ModalFlag
from molforma.mcp.state import BaseServices
from molforma.mcp.window_commands import CommandRecord, CommandStore, WindowCommand

if TYPE_CHECKING:
    from molforma.app.policy import Policy
    from molforma.document.document import Document
    from molforma.gui import modal_guard
    from molforma.gui.commands import CommandRunner
    from molforma.gui.context import AppContext
    from molforma.gui.dispatcher import GuiDispatcher
    from molforma.gui.introspection import WindowIntrospection
    from molforma.jobs.manager import JobManager
    from molforma.jobs.runner import Job
    from molforma.mcp.bridge import DialogInfo, WindowReader
    from molforma.results.session import ResultsSession
else:  # imported on first use (start-up time): molforma.lazy
    modal_guard = lazy_import("molforma.gui.modal_guard")

T = TypeVar("T")
RESULTS_VIEW_TIMEOUT = 2.0


def results_view_of(panel: Any) -> dict[str, Any]:
    """``playingMode`` (the mode animated, 0-based, or None) and ``shownStructure`` (the
    trajectory structure in the 3D view, 0-based, or None while a mode is shown or
    nothing is loaded) of a Results panel (GUI thread)."""
    res = getattr(panel, "results", None)
    if panel is None or res is None:
        return {"playingMode": None, "shownStructure": None}
    mode = getattr(panel, "_mode", None)
    view = getattr(panel, "view", None)
    animating = bool(getattr(view, "playing", False))
    playing = mode if isinstance(mode, int) and animating else None
    shown: int | None = None
    structures = getattr(res, "structures", None) or []
    slider = getattr(panel, "trajectory_slider", None)
    if mode is None and structures and slider is not None:
        value = int(slider.value())
        shown = value if 0 <= value < len(structures) else None
    return {"playingMode": playing, "shownStructure": shown}


class WindowBridgeImpl:
    """:class:`molforma.mcp.bridge.WindowBridge` over the window's runner and dialogs."""

    def __init__(
        self, dispatcher: GuiDispatcher, reader: WindowIntrospection, runner: CommandRunner
    ) -> None:
        self._dispatcher = dispatcher
        self._reader = reader
        self._runner = runner
        self.commands: CommandStore = runner.store
        # Made on the GUI thread with the window: the modal dialogs, kept as they show.

        self.modal = ModalFlag()
        window = runner.window
        self._modal_watcher = modal_guard.ModalWatcher(
            self.modal, lambda: window.ctx.document, runner
        )

    def read(self, fn: Callable[[WindowReader], T], timeout: float = 15.0) -> T:
        """Run ``fn(reader)`` on the GUI thread (also inside a modal dialog's loop)."""
        return self._dispatcher.call(lambda: fn(self._reader), timeout)

    def submit(self, command: WindowCommand) -> CommandRecord:
        """Queue ``command`` for the runner."""
        return self.commands.add(command)

    def dialogs(self) -> list[DialogInfo]:
        """The open public dialogs (thread-safe snapshot of the dialog service)."""
        return dialogs.registry.public()

    def answer(self, dialog_id: str, button: str | None) -> bool:
        """Queue a press of ``button`` (None: Escape) in dialog ``dialog_id``."""
        if dialogs.registry.find(dialog_id) is None:
            return False
        self.commands.add(
            WindowCommand(tool="answer_dialog", args={"dialogId": dialog_id, "button": button})
        )
        return True

    def workers(self) -> list[dict[str, Any]]:
        """Clean-up and history-scan workers (thread-safe flags kept by the runner)."""
        return self._runner.workers_snapshot()

    def document_edit(
        self, document: Document, *, hold: bool = True
    ) -> AbstractContextManager[None]:
        """One MCP document edit: under the document's lock, refused while a modal dialog
        is open (the flag the GUI thread keeps; no call to the GUI thread)."""
        return self.modal.edit(document, hold=hold)

    def results_view(self) -> dict[str, Any]:
        """What the Results tab shows: ``playingMode`` and ``shownStructure`` (get_app_state).

        Read on the GUI thread; ``{}`` when the window cannot answer in time (a busy
        event loop), so the app state never waits long for it.
        """

        def read() -> dict[str, Any]:
            window = getattr(self._runner, "window", None)
            panels = getattr(window, "panels", None)
            # dict.get: reading the state must not build a panel not built yet.
            panel = dict.get(panels, "results") if isinstance(panels, dict) else None
            return results_view_of(panel)

        try:
            return self._dispatcher.call(read, RESULTS_VIEW_TIMEOUT)
        except Exception:  # noqa: BLE001 - the rest of the app state still answers
            return {}


class WindowServices(BaseServices):
    """The services of the window mode, typed on the window's context."""

    def __init__(
        self,
        ctx: AppContext,
        policy: Policy,
        bridge: WindowBridgeImpl | None = None,
        lang: str | None = None,
    ) -> None:
        super().__init__(policy, mode="gui", lang=lang)
        self.ctx = ctx
        self._bridge = bridge

    def attach(self, bridge: WindowBridgeImpl) -> None:
        """Set the window bridge once the window exists."""
        self._bridge = bridge

    @property
    def window(self) -> WindowBridgeImpl | None:
        """The window bridge."""
        return self._bridge

    @property
    def documents(self) -> dict[str, Document]:
        """The window's current document (it changes when the person opens a file)."""
        doc = self.ctx.document
        return {doc.id: doc}

    @property
    def jobs(self) -> JobManager:
        """The window's job manager, shared with the Execution tab."""
        jobs = self.ctx.jobs
        if jobs is None:  # pragma: no cover - the jobs module is part of every build
            raise RuntimeError("the job manager is not available")
        return jobs

    def jobs_if_any(self) -> JobManager | None:
        """The window's job manager (made with the window's context)."""
        return self.ctx.jobs_if_any()

    def start_job(self, doc_id: str, project: Mapping[str, Any]) -> Job:
        """Start the job on the window's manager; the Execution tab follows it."""
        job = self.jobs.start(project)
        self.last_job[doc_id] = job
        self.ctx.events.job_listener(job)
        return job

    def results(self, doc_id: str) -> ResultsSession:
        """The Results tab's session (one for the window's document)."""
        sess = self.ctx.results
        if sess is None:  # pragma: no cover - the results module is part of every build
            raise RuntimeError("the results session is not available")
        return sess

    def results_if_any(self, doc_id: str) -> ResultsSession | None:
        """The Results tab's session when ``doc_id`` is the window's document."""
        if doc_id != self.ctx.document.id:
            return None
        return self.ctx.results_if_any()

    def result_sessions(self) -> list[tuple[str, ResultsSession]]:
        """The window's session under the current document's id."""
        sess = self.ctx.results_if_any()
        return [] if sess is None else [(self.ctx.document.id, sess)]

    def shutdown(self) -> None:
        """Stop tasks' work, calculations and the window's workers."""
        super().shutdown()
        sess = self.ctx.results_if_any()
        loading = sess.loading if sess is not None else None
        if loading is not None:
            loading.cancel()
