"""The services every MCP tool works through, for both modes (no Qt).

:class:`AppServices` is the one typed interface the tools see: documents, the job
manager, results sessions, tasks, the window bridge, the launch policy and the
display language. Two implementations exist: :class:`HeadlessServices` here
(``molforma --mcp``: its own documents, job manager and one results session per
document) and ``molforma.gui.services.WindowServices`` (``--mcp-gui``: the
window's document, job manager and results session, plus the window bridge).
Both derive from :class:`BaseServices`, which holds what the modes share.

The four tools of both modes (``calculation``, ``results_action``,
``get_results``, ``get_app_state``) call only this interface, so each keeps one
definition and works on the window when the window is there.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from molforma.errors import MolFormaError, ValidationError
from molforma.i18n import display_language
from molforma.lazylog import get_logger

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from molforma.app.policy import Policy
    from molforma.document.document import Document
    from molforma.jobs.manager import JobManager
    from molforma.jobs.runner import Job
    from molforma.mcp.bridge import WindowBridge
    from molforma.mcp.elicitation import StateSigner
    from molforma.mcp.tasks import TaskStore
    from molforma.results.session import LoadHandle, ResultsSession

log = get_logger("molforma.mcp")
# The revision of the first Document made in a process (molforma.document.document);
# a test checks the initial document's listing before and after it is made.
_FIRST_REVISION = "r1"


@runtime_checkable
class AppServices(Protocol):
    """What a tool handler may use, whichever mode the server runs in."""

    mode: str
    lock: threading.RLock
    last_job: dict[str, Job]
    last_load: dict[str, LoadHandle]

    @property
    def tasks(self) -> TaskStore:
        """The tasks of this connection."""
        ...

    @property
    def signer(self) -> StateSigner:
        """The signer of ``requestState``."""
        ...

    @property
    def lang(self) -> str:
        """Display language of messages inside results."""
        ...

    @property
    def policy(self) -> Policy:
        """The launch policy (allowed directories, execution settings)."""
        ...

    @property
    def allow_execution_settings(self) -> bool:
        """``--mcp-allow-execution-settings`` was given."""
        ...

    @property
    def documents(self) -> dict[str, Document]:
        """The open documents by id."""
        ...

    def document(self, doc_id: str) -> Document:
        """The document named ``doc_id`` (``unknown_document`` otherwise)."""
        ...

    def add_document(self, doc: Document) -> None:
        """Hold one more document (headless; the window holds one)."""
        ...

    @property
    def jobs(self) -> JobManager:
        """The job manager (created on first use)."""
        ...

    def jobs_if_any(self) -> JobManager | None:
        """The job manager when it exists already (reading state never creates one)."""
        ...

    def start_job(self, doc_id: str, project: Mapping[str, Any]) -> Job:
        """Start a calculation of ``project`` for document ``doc_id``."""
        ...

    def results(self, doc_id: str) -> ResultsSession:
        """The results session of a document (created on first use)."""
        ...

    def results_if_any(self, doc_id: str) -> ResultsSession | None:
        """The results session of a document, or None when none was opened."""
        ...

    def result_sessions(self) -> list[tuple[str, ResultsSession]]:
        """Every results session with the id of its document."""
        ...

    @property
    def window(self) -> WindowBridge | None:
        """The window bridge (``--mcp-gui``), None headless."""
        ...

    def reattach_batch_jobs(self, root: str | None = None) -> None:
        """Follow again batch jobs left queued or running (after start-up)."""
        ...

    def results_after_job(
        self,
        doc_id: str,
        job: Job,
        timeout: float = 2.0,
    ) -> dict[str, Any] | None:
        """Where the results of the ended ``job`` load (a calculation's final answer)."""
        ...

    def shutdown(self) -> None:
        """Stop running calculations and loads (EOF, disconnect)."""
        ...


class BaseServices:
    """The parts both modes share: tasks, signer, policy, language, latest job and load."""

    def __init__(
        self,
        policy: Policy | None = None,
        *,
        allow_dirs: tuple[Path, ...] = (),
        allow_execution_settings: bool = False,
        mode: str = "headless",
        lang: str | None = None,
    ) -> None:
        # The policy (and its pydantic imports) is built on first use unless given.
        self._policy = policy
        self._policy_args = (tuple(allow_dirs), bool(allow_execution_settings))
        self.mode = mode
        self._lang = lang
        # The task store and the signer are made on first use (their imports are not
        # needed by the first answers).
        self._tasks: TaskStore | None = None
        self._signer: StateSigner | None = None
        self.lock = threading.RLock()
        # Latest job and results load started per document (get_app_state).
        self.last_job: dict[str, Job] = {}
        self.last_load: dict[str, LoadHandle] = {}

    @property
    def tasks(self) -> TaskStore:
        """The tasks of this connection (made on first use)."""
        if self._tasks is None:
            from molforma.mcp.tasks import TaskStore

            with self.lock:
                if self._tasks is None:
                    self._tasks = TaskStore()
        return self._tasks

    @property
    def signer(self) -> StateSigner:
        """The signer of ``requestState`` (made on first use; its key lives in this process)."""
        if self._signer is None:
            from molforma.mcp.elicitation import StateSigner

            with self.lock:
                if self._signer is None:
                    self._signer = StateSigner()
        return self._signer

    @property
    def lang(self) -> str:
        """Display language of messages inside results (read once)."""
        if self._lang is None:
            self._lang = display_language()
        return self._lang

    @property
    def policy(self) -> Policy:
        """The launch policy (allowed directories, execution settings)."""
        if self._policy is None:
            from molforma.app.policy import Policy

            with self.lock:
                if self._policy is None:
                    dirs, allow = self._policy_args
                    self._policy = Policy(allow_dirs=dirs, allow_execution_settings=allow)
        return self._policy

    @property
    def allow_execution_settings(self) -> bool:
        """``--mcp-allow-execution-settings`` was given."""
        if self._policy is not None:
            return bool(self._policy.allow_execution_settings)
        return self._policy_args[1]

    @property
    def documents(self) -> dict[str, Document]:
        """The open documents by id (each mode says where they come from)."""
        raise NotImplementedError

    def document(self, doc_id: str) -> Document:
        """The document named ``doc_id``.

        Raises:
            MolFormaError: ``unknown_document``.
        """
        doc = self.documents.get(doc_id)
        if doc is None:
            raise MolFormaError("unknown_document", documentId=doc_id)
        return doc

    def add_document(self, doc: Document) -> None:
        """The window holds one document: a second one is refused."""
        raise ValidationError("qm_region_new_document_window")

    @property
    def window(self) -> WindowBridge | None:
        """No window unless the window mode says otherwise."""
        return None

    def reattach_batch_jobs(self, root: str | None = None) -> None:
        """Nothing here: headless re-attaches its own; the window re-attaches on start."""

    def results_after_job(
        self,
        doc_id: str,
        job: Job,
        timeout: float = 2.0,
    ) -> dict[str, Any] | None:
        """The results state of ``doc_id`` once the load that follows ``job`` began (for
        a calculation's final answer: where its results load), or None without results.
        The window loads them from its Execution tab; here nothing is waited for."""
        sess = self.results_if_any(doc_id)
        return sess.state() if sess is not None else None

    def results_if_any(self, doc_id: str) -> ResultsSession | None:
        """The results session of a document, or None (each mode says which)."""
        raise NotImplementedError

    def shutdown(self) -> None:
        """Stop the work tasks follow, then the calculations (EOF, disconnect, exit signal).

        No calculation can start once this began, so none is left behind by a request
        served while the program ends.
        """
        jobs = self.jobs_if_any()
        if jobs is not None:
            jobs.close()
        for t in self._tasks.all() if self._tasks is not None else ():
            if (
                t.status == "working"
                and t.background is not None
                and not t.background.survives_exit
            ):
                try:
                    t.background.cancel()
                except Exception:
                    log.exception("cancelling task at shutdown")
        if jobs is not None:
            try:
                jobs.stop_all()
            except Exception:
                log.exception("stopping jobs at shutdown")

    def jobs_if_any(self) -> JobManager | None:
        """The job manager when it exists already."""
        raise NotImplementedError


class HeadlessServices(BaseServices):
    """``molforma --mcp``: documents, a job manager and results sessions of its own."""

    def __init__(
        self,
        policy: Policy | None = None,
        *,
        allow_dirs: tuple[Path, ...] = (),
        allow_execution_settings: bool = False,
        mode: str = "headless",
        lang: str | None = None,
        initial_document: bool = True,
    ) -> None:
        super().__init__(
            policy,
            allow_dirs=allow_dirs,
            allow_execution_settings=allow_execution_settings,
            mode=mode,
            lang=lang,
        )
        self._documents: dict[str, Document] = {}
        # Headless starts with one empty document; it is made on first use so that the
        # first answer does not wait for the chemistry imports. Its id is drawn now, so
        # list_documents can name it before it exists (pending_listing).
        self._initial_pending = initial_document
        self._initial_id = "doc-" + os.urandom(4).hex()  # as Document draws its ids
        # Set when making it began: whether it is then surely the process's first Document.
        self._initial_first: bool | None = None
        self._jobs: JobManager | None = None
        self._results: dict[str, ResultsSession] = {}
        # Jobs whose results were loaded (or found to have none) when they ended, and
        # per job the moment that follow-up began (results_after_job waits for it).
        self._followed: set[str] = set()
        self._follow_began: dict[str, threading.Event] = {}

    @property
    def documents(self) -> dict[str, Document]:
        """The open documents by id, in creation order."""
        if self._initial_pending:
            with self.lock:
                if self._initial_pending:
                    # Cleared only once the document exists: a reader on another
                    # thread must wait for it rather than see an empty list.
                    self._initial_first = "molforma.document.document" not in sys.modules
                    doc = self._make_document(doc_id=self._initial_id)
                    if self._initial_first and doc.revision != _FIRST_REVISION:
                        log.error(
                            "the initial document has revision %s, not %s as "
                            "list_documents may have said",
                            doc.revision,
                            _FIRST_REVISION,
                        )
                    self._initial_pending = False
        return self._documents

    def pending_listing(self) -> list[dict[str, Any]] | None:
        """The list_documents entries while the initial document is not made yet, or None.

        Making it imports the document model and pydantic, far more than the first tool
        result may cost (docs/reference/mcp.md, Size of results). An empty new document's entry is known
        without it, as long as it will be the first Document of the process: its
        revision is then the document module's first. That holds while the document
        module is not loaded, and while the initial document is being made when the
        module was not loaded as that began (the warm-up thread may be making it);
        otherwise this says None and the tool asks the documents.
        """
        if not self._initial_pending:
            return None
        first = self._initial_first
        if not (first if first is not None else "molforma.document.document" not in sys.modules):
            return None
        return [
            {
                "documentId": self._initial_id,
                "title": "",
                "path": None,
                "revision": _FIRST_REVISION,
                "formula": "",
                "atomCount": 0,
                "hasCandidate": False,
            }
        ]

    def _make_document(self, doc_id: str | None = None) -> Document:
        from molforma.app.files import default_job_root
        from molforma.app.policy import headless_trusted
        from molforma.document.document import Document
        from molforma.document.envelope import new_project
        from molforma.preferences import load_preferences

        trusted = headless_trusted()
        # The job root the person last set in the window is where their new projects go;
        # with --mcp-allow-dir, inside the first allowed directory when it is outside them.
        restricted = self._policy is not None or bool(self._policy_args[0])
        job_root = default_job_root(
            load_preferences().job_root, self.policy if restricted else None
        )
        doc = Document(
            new_project(
                executable=trusted["executable"],
                launcher=trusted["launcher"],
                environment=dict(trusted["environment"]),
                scheduler=trusted["scheduler"],
                account=trusted["account"],
                batch_directives=list(trusted["batch_directives"]),
                **({"job_root": job_root} if job_root else {}),
            )
        )
        doc.trusted = trusted
        if doc_id is not None:
            doc.id = doc_id
        with self.lock:
            self._documents[doc.id] = doc
        return doc

    def add_document(self, doc: Document) -> None:
        """Register a document made elsewhere."""
        with self.lock:
            self._documents[doc.id] = doc

    @property
    def jobs(self) -> JobManager:
        """The process's JobManager (created on first use)."""
        with self.lock:
            if self._jobs is None:
                from molforma.jobs.manager import JobManager

                self._jobs = JobManager(on_change=self._job_changed)
            return self._jobs

    def _job_changed(self, job: Job) -> None:
        """When a job a document started has ended, load its results (job thread)."""
        if job.wait(0):
            self._follow_up(job)

    def _follow_up(self, job: Job) -> None:
        """Load the results of ``job`` into its document's session, once, as the window
        loads them into its Results tab: ``output.out`` of the job folder, read through
        the policy. A job with no output (it never started) has nothing to load, and a
        cancelled one is left as it was stopped (open_directory loads it on request)."""
        from molforma.jobs.runner import OUTPUT_NAME

        with self.lock:
            if job.id in self._followed:
                return
            doc_id = next((d for d, j in self.last_job.items() if j is job), None)
            if doc_id is None:
                return  # not started for a document yet (start_job follows it up then)
            self._followed.add(job.id)
            began = self._follow_began.setdefault(job.id, threading.Event())
        try:
            if str(job.status) == "cancelled" or not (job.folder / OUTPUT_NAME).is_file():
                return  # a stopped run's partial output is not the results anyone asked for
            handle = self.results(doc_id).open_directory(
                str(job.folder), guard=self.policy.read_guard()
            )
            self.last_load[doc_id] = handle
        except Exception:
            log.exception("loading the results of job %s", job.id)
        finally:
            began.set()

    def results_after_job(
        self,
        doc_id: str,
        job: Job,
        timeout: float = 2.0,
    ) -> dict[str, Any] | None:
        """The results state of ``doc_id`` once the load that follows the ended ``job``
        began (waits up to ``timeout`` s for it), or None when no results exist."""
        with self.lock:
            began = self._follow_began.setdefault(job.id, threading.Event())
        if job.wait(0):
            began.wait(timeout)
        return super().results_after_job(doc_id, job, timeout)

    def jobs_if_any(self) -> JobManager | None:
        """The job manager when a calculation was started or saved."""
        return self._jobs

    def start_job(self, doc_id: str, project: Mapping[str, Any]) -> Job:
        """Start the calculation in the background and remember it for the document."""
        job = self.jobs.start(project)
        self.last_job[doc_id] = job
        if job.wait(0):  # ended before it was known as this document's
            self._follow_up(job)
        return job

    def reattach_batch_jobs(self, root: str | None = None) -> None:
        """Follow again the batch jobs left queued or running under a job root.

        ``root`` defaults to the job roots of the open documents. Never raises: a job
        root that cannot be read has nothing to follow.
        """
        try:
            if root is not None:
                roots = [root]
            else:
                roots = sorted(
                    {
                        str(d.project.get("execution", {}).get("job_root") or "~/molforma-jobs")
                        for d in list(self.documents.values())
                    }
                )
            for r in roots:
                self.jobs.reattach(r)
        except Exception:
            log.exception("re-attaching batch jobs")

    def results(self, doc_id: str) -> ResultsSession:
        """The ResultsSession of a document (created on first use)."""
        with self.lock:
            sess = self._results.get(doc_id)
            if sess is None:
                from molforma.results import ResultsSession

                sess = self._results[doc_id] = ResultsSession()
            return sess

    def results_if_any(self, doc_id: str) -> ResultsSession | None:
        """The ResultsSession of a document, or None when none was opened."""
        return self._results.get(doc_id)

    def result_sessions(self) -> list[tuple[str, ResultsSession]]:
        """Every opened session with its document id."""
        with self.lock:
            return list(self._results.items())
