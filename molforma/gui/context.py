"""The application context shared by every part of the window (Qt layer).

One :class:`AppContext` holds the shared :class:`~molforma.document.document.Document`,
the job manager, the results session, the Preferences, the MCP policy and
:class:`AppEvents`, the Qt signals that tell widgets something changed. Panels
take the context in their constructor and never reach for globals.

Document listeners may run on the MCP thread; :class:`AppEvents` re-emits them on
the GUI thread, so widgets can always touch Qt objects in their slots. Each notice
carries a :class:`~molforma.document.changes.Change` flag, so a widget redraws only
what the change touched.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from molforma.app.files import fresh_project
from molforma.document.changes import Change
from molforma.document.document import Document
from molforma.preferences import Preferences, load_preferences

if TYPE_CHECKING:
    from molforma.app.policy import Policy
    from molforma.jobs.manager import JobManager
    from molforma.results.session import ResultsSession

log = logging.getLogger(__name__)

WINDOW_UNDO_LIMIT = 1000  # bounded so that a long session cannot grow without end


class AppEvents(QObject):
    """Signals of the application, always delivered on the GUI thread."""

    documentChanged = Signal(object)  # a Change: what the change touched
    candidateChanged = Signal()
    jobChanged = Signal(object)
    resultsChanged = Signal()
    languageChanged = Signal()
    _crossThread = Signal(object)
    _jobCrossThread = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("appEvents")
        # Queued so a change made on the MCP thread reaches widgets on the GUI thread.
        self._crossThread.connect(self._relay, Qt.ConnectionType.QueuedConnection)
        self._jobCrossThread.connect(self.jobChanged, Qt.ConnectionType.QueuedConnection)

    def job_listener(self, job: object) -> None:
        """JobManager ``on_change`` callback (runner threads): ``jobChanged`` on the GUI thread."""
        self._jobCrossThread.emit(job)

    def document_listener(self, _doc: Document, change: Change) -> None:
        """Document.subscribe callback: forward ``change`` to the GUI thread."""
        if QThread.currentThread() == self.thread():
            self._relay(change)
        else:
            self._crossThread.emit(change)

    @Slot(object)
    def _relay(self, change: Change) -> None:
        self.documentChanged.emit(change)
        if change & (Change.CANDIDATE | Change.LOAD):
            self.candidateChanged.emit()


def _optional_class(module: str, name: str) -> Any | None:
    """``module.name`` or None when another engineer's module is not there yet."""
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    return getattr(mod, name, None)


@dataclass
class AppContext:
    """Everything the window's parts share.

    ``jobs`` (``molforma.jobs.manager.JobManager``) and ``results``
    (``molforma.results.ResultsSession``) are created on first use, so the window
    starts even while those modules are missing; both may be replaced by assignment.
    """

    document: Document
    preferences: Preferences
    events: AppEvents
    policy: Policy | None = None  # the launch policy in MCP mode
    mcp_mode: bool = False
    data_dir: Path | None = None
    _jobs: JobManager | None = field(default=None, repr=False)
    _results: ResultsSession | None = field(default=None, repr=False)
    _unsubscribe: Callable[[], None] | None = field(default=None, repr=False)

    @classmethod
    def create(
        cls,
        document: Document | None = None,
        *,
        data_dir: Path | None = None,
        mcp_mode: bool = False,
        policy: Policy | None = None,
    ) -> AppContext:
        """A context around ``document`` (a new one with a bounded undo history if None)."""
        prefs = load_preferences()
        if document is None:
            # A new document starts with the execution defaults the person saved.

            document = Document(fresh_project(prefs, policy), undo_limit=WINDOW_UNDO_LIMIT)
        doc = document
        events = AppEvents()
        ctx = cls(
            document=doc,
            preferences=prefs,
            events=events,
            policy=policy,
            mcp_mode=mcp_mode,
            data_dir=data_dir,
        )
        ctx._unsubscribe = doc.subscribe(events.document_listener)
        return ctx

    def set_document(self, document: Document) -> None:
        """Swap the shared document (listeners move with it)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.document = document
        self._unsubscribe = document.subscribe(self.events.document_listener)
        self.events.documentChanged.emit(Change.ALL)
        self.events.candidateChanged.emit()

    @property
    def jobs(self) -> JobManager | None:
        """The job manager (``molforma.jobs.manager.JobManager``), or None if not available."""
        if self._jobs is None:
            cls_ = _optional_class("molforma.jobs.manager", "JobManager")
            if cls_ is not None:
                try:
                    self._jobs = cls_(on_change=self.events.job_listener)
                except TypeError:
                    log.warning("JobManager(on_change=...) failed; set ctx.jobs explicitly")
        return self._jobs

    @jobs.setter
    def jobs(self, value: JobManager | None) -> None:
        self._jobs = value

    def reattach_batch_jobs(self, root: str | None = None) -> threading.Thread | None:
        """Follow again, in the background, batch jobs left queued or running under ``root``
        (default: the document's job root); they appear through ``jobChanged``."""
        jobs = self.jobs
        if jobs is None or not hasattr(jobs, "reattach"):
            return None
        where = root or str(self.document.project.get("execution", {}).get("job_root") or "")
        if not where:
            return None
        # Imported here, on the GUI thread: Python 3.11's compiler is not safe to run in
        # two threads at once, and a first import may compile.
        import molforma.jobs.batch  # noqa: F401

        def work() -> None:
            try:
                jobs.reattach(where)
            except Exception:
                log.exception("re-attaching batch jobs under %s", where)

        thread = threading.Thread(target=work, name="batch-reattach", daemon=True)
        thread.start()
        return thread

    @property
    def results(self) -> ResultsSession | None:
        """The results session (``molforma.results.ResultsSession``), or None if not available."""
        if self._results is None:
            cls_ = _optional_class("molforma.results", "ResultsSession")
            if cls_ is not None:
                try:
                    self._results = cls_()
                except TypeError:
                    log.warning("ResultsSession() needs arguments; set ctx.results explicitly")
        return self._results

    @results.setter
    def results(self, value: ResultsSession | None) -> None:
        self._results = value

    def jobs_if_any(self) -> JobManager | None:
        """The job manager when something made it already (reading never creates one)."""
        return self._jobs

    def results_if_any(self) -> ResultsSession | None:
        """The results session when something made it already."""
        return self._results

    def close(self) -> None:
        """Detach from the document (the window is closing)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
