"""The Execution tab's Run, Stop and Save input set: the trust confirmation, the start of
the job and its following (Qt layer)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from molforma.app.actor import window_actor
from molforma.document.envelope import formula
from molforma.errors import MolFormaError
from molforma.gui import dialogs
from molforma.gui.widgets.execution_status import JobStatusView
from molforma.gui.widgets.execution_support import (
    ExecutionPanelHost,
    _private_box,
    _profiles,
    job_status,
)
from molforma.gui.widgets.panel_workers import (
    QT_TRANSLATE_NOOP,
    error_text,
    failure_text,
    reports_errors,
)
from molforma.jobs import TERMINAL
from molforma.lazy import lazy_import
from molforma.nwchem import value_grammar as grammar

if TYPE_CHECKING:
    from molforma.app import runs
    from molforma.jobs import runner
else:  # imported on first use (start-up time): molforma.lazy
    runs = lazy_import("molforma.app.runs")
    runner = lazy_import("molforma.jobs.runner")

log = logging.getLogger(__name__)


def _status_error(template: str) -> Callable[[JobControl, BaseException], None]:
    """Show a failure in the status line: ``template`` with the reason, as an error."""

    def show(control: JobControl, exc: BaseException) -> None:
        control.panel._set_status(failure_text("ExecutionPanel", template, exc), error=True)

    return show


class JobControl:
    """Runs, stops and saves the input set of the tab's job, asking before a run.

    The widgets and the state stay on the tab (``self.panel``).
    """

    def __init__(
        self, panel: ExecutionPanelHost, status_view: JobStatusView, parent: QWidget
    ) -> None:
        self.panel = panel
        self.status_view = status_view
        self.parent = parent  # the Qt parent of the dialogs and loads it starts

    def _untrusted_text(self, project: dict[str, Any] | None = None) -> str:
        """The confirmation's text: every value that reaches the command line or the batch
        script, not only the protected ones, each shown with its control characters written
        out (a line break cannot push the rest of a value out of sight)."""
        if project is None:
            project = self.panel.ctx.document.project
        ex = project.get("execution", {})
        calc = project.get("calculation", {})
        env = ex.get("environment") or {}
        none = QCoreApplication.translate("ExecutionPanel", "(none)")

        def value(v: Any, empty: str = none) -> str:
            return empty if v is None or v == "" else grammar.shown(v, 400)

        def row(label: str, v: Any, empty: str = none) -> str:
            return f"{label} {value(v, empty)}"

        limit = ex.get("time_limit")
        limit_text = (
            QCoreApplication.translate("ExecutionPanel", "No limit")
            if not limit
            else f"{limit:g}{QCoreApplication.translate('ExecutionPanel', ' s')}"
        )
        lines = [
            QCoreApplication.translate(
                "ExecutionPanel",
                "These settings can run any program. They were not set by you in this "
                "window (for example they come from a loaded project or a reused job).",
            ),
            "",
            QCoreApplication.translate("ExecutionPanel", "Executable: %1").replace(
                "%1", value(ex.get("executable", ""))
            ),
            QCoreApplication.translate("ExecutionPanel", "Launcher: %1").replace(
                "%1", value(ex.get("launcher", ""))
            ),
            QCoreApplication.translate("ExecutionPanel", "Environment: %1").replace(
                "%1",
                ", ".join(f"{grammar.shown(k)}={grammar.shown(v, 400)}" for k, v in env.items())
                or none,
            ),
            QCoreApplication.translate("ExecutionPanel", "Extra input: %1").replace(
                "%1", json.dumps(calc.get("extra_input", ""), ensure_ascii=False)
            ),
            QCoreApplication.translate("ExecutionPanel", "Extra tasks: %1").replace(
                "%1",
                "; ".join(grammar.shown(t, 400) for t in calc.get("extra_tasks") or []) or none,
            ),
            QCoreApplication.translate("ExecutionPanel", "Scheduler: %1").replace(
                "%1", value(ex.get("scheduler") or "local")
            ),
            *self._profile_lines(ex),
            QCoreApplication.translate("ExecutionPanel", "Account: %1").replace(
                "%1", value(ex.get("account"))
            ),
            QCoreApplication.translate("ExecutionPanel", "Extra batch options: %1").replace(
                "%1",
                " ".join(grammar.shown(d, 400) for d in ex.get("batch_directives") or []) or none,
            ),
        ]
        if (ex.get("scheduler") or "local") == "slurm":
            atoms = (project.get("document") or {}).get("atoms") or []
            job_name = (
                f"molforma-<YYYYmmdd-HHMMSS>-{formula(atoms) or 'empty'}-"
                f"{runner._task_slug(str(calc.get('task', 'energy')))}"
            )
            lines += [
                row(
                    QCoreApplication.translate("ExecutionPanel", "Partition:"),
                    ex.get("partition"),
                    QCoreApplication.translate("ExecutionPanel", "(cluster default)"),
                ),
                row(
                    QCoreApplication.translate("ExecutionPanel", "QoS:"),
                    ex.get("qos"),
                    QCoreApplication.translate("ExecutionPanel", "(default)"),
                ),
                row(QCoreApplication.translate("ExecutionPanel", "Nodes:"), ex.get("nodes", 1)),
                row(
                    QCoreApplication.translate("ExecutionPanel", "MPI processes per node:"),
                    ex.get("tasksPerNode", 1),
                ),
                row(
                    QCoreApplication.translate("ExecutionPanel", "Threads (OMP_NUM_THREADS):"),
                    ex.get("threads", 1),
                ),
                f"{QCoreApplication.translate('ExecutionPanel', 'Time limit:')} {limit_text}",
                QCoreApplication.translate("ExecutionPanel", "Job name: %1").replace(
                    "%1", job_name
                ),
            ]
        else:
            lines += [
                row(
                    QCoreApplication.translate("ExecutionPanel", "MPI processes:"),
                    ex.get("processes", 1),
                ),
                row(
                    QCoreApplication.translate("ExecutionPanel", "Threads (OMP_NUM_THREADS):"),
                    ex.get("threads", 1),
                ),
                f"{QCoreApplication.translate('ExecutionPanel', 'Time limit:')} {limit_text}",
            ]
        lines += [
            row(QCoreApplication.translate("ExecutionPanel", "Job root:"), ex.get("job_root")),
            "",
            QCoreApplication.translate(
                "ExecutionPanel",
                "Run the calculation with these settings and trust them from now on?",
            ),
        ]
        return "\n".join(lines)

    def _profile_lines(self, ex: dict[str, Any]) -> list[str]:
        """The confirmation's cluster profile and its host (from Preferences, read now:
        that is where the job goes)."""
        name = ex.get("remote_profile")
        if not name:
            return []
        host = dict(_profiles()).get(str(name))
        return [
            QCoreApplication.translate("ExecutionPanel", "Cluster profile: %1").replace(
                "%1", grammar.shown(name, 400)
            ),
            QCoreApplication.translate("ExecutionPanel", "Host (ssh): %1").replace(
                "%1",
                grammar.shown(host, 400)
                if host is not None
                else QCoreApplication.translate("ExecutionPanel", "(not in Preferences)"),
            ),
        ]

    def _outside_allowed_dirs(self, project: dict[str, Any] | None = None) -> str | None:
        """Why the job folder or an advanced path is outside the MCP allowed directories,
        when a window command of MCP pressed Run or Save (the person's own are free)."""
        try:
            runs.check_folders(
                self.panel.ctx.document.project if project is None else project,
                getattr(self.panel.ctx, "policy", None),
                window_actor(),
            )
        except MolFormaError as exc:  # the refusal is shown
            return error_text(exc)
        return None

    def run(self) -> None:
        """Start a calculation of the confirmed project (asking first about untrusted values)."""
        if self.panel.job is not None and job_status(self.panel.job) not in TERMINAL:
            return
        doc = self.panel.ctx.document
        # What the person confirms and what runs is this snapshot, never the document
        # as it is after the question: MCP keeps working while the box is open.
        with doc.lock:
            project, revision, trusted = doc.project, doc.revision, dict(doc.trusted)
            has_candidate = doc.candidate is not None
        if has_candidate:
            self.panel._set_status(
                QCoreApplication.translate(
                    "ExecutionPanel", "Confirm or cancel the candidate before running."
                ),
                error=True,
            )
            return

        try:
            ask = runs.check_run(
                project,
                trusted,
                policy=getattr(self.panel.ctx, "policy", None),
                actor=window_actor(),
            )
        except MolFormaError as exc:
            if exc.code == "untrusted_execution":
                # docs/reference/safety.md, Trusted values: only the person confirms untrusted settings; a Run
                # pressed through MCP never shows (or waits on) the confirmation.
                self.panel._set_status(
                    QCoreApplication.translate(
                        "ExecutionPanel",
                        "Not started: these execution settings were not "
                        "chosen in this window, and only you can confirm "
                        "them.",
                    ),
                    error=True,
                )
            else:
                problems = exc.data.get("problems") if exc.code == "input_invalid" else None
                lines = [str(p.get("message") or p.get("code")) for p in problems or []]
                self.panel._set_status(
                    QCoreApplication.translate("ExecutionPanel", "Cannot run:")
                    + "\n"
                    + "\n".join(lines or [error_text(exc)]),
                    error=True,
                )
            return
        if ask:
            yes, no = (
                QCoreApplication.translate("ExecutionPanel", "Yes"),
                QCoreApplication.translate("ExecutionPanel", "No"),
            )
            answer = dialogs.ask(
                self.parent,
                QCoreApplication.translate("ExecutionPanel", "Run with these settings?"),
                self._untrusted_text(project),
                [yes, no],
                default=no,
                escape=no,
                **_private_box(),
            )
            if answer != yes:
                self.panel._set_status(
                    QCoreApplication.translate(
                        "ExecutionPanel", "Not started: the settings were not confirmed."
                    )
                )
                return

            if not runs.trust_confirmed(doc, project, revision):
                self.panel._set_status(
                    QCoreApplication.translate(
                        "ExecutionPanel",
                        "Not started: the project changed while the confirmation was open. "
                        "Press Run again to review the settings as they are now.",
                    ),
                    error=True,
                )
                return
        jobs = self.panel.ctx.jobs
        if jobs is None:
            self.panel._set_status(
                QCoreApplication.translate(
                    "ExecutionPanel", "Running calculations is not available."
                ),
                error=True,
            )
            return
        job = self._start(jobs, project)
        if job is None:
            return
        self.follow(job)
        self.panel.ctx.events.jobChanged.emit(job)

    def follow(self, job: Any) -> None:
        """Show ``job``'s log and progress until it ends."""
        self.panel.job = job
        self.panel._log_offset = 0
        self.panel._log_decoder.reset()
        self.panel.log_view.clear()
        self.panel.energy_plot.set_energies([])
        self.panel.progress_label.setText("")
        self.panel._progress_limits = self.status_view._limits_of(job)
        self.panel.progress_bar.setVisible(True)
        self.panel.poll()
        if self.panel.job is job and job_status(job) not in TERMINAL:
            self.panel._timer.start()
        self.panel._update_buttons()

    def stop(self) -> None:
        """Cancel the running job."""
        if self.panel.job is None:
            return
        self._cancel(self.panel.job)  # a failure is shown; the poll shows the status
        self.panel.poll()

    def save_input_set(self) -> None:
        """Write the job folder (input, project snapshot, record) without running."""
        doc = self.panel.ctx.document
        if doc.candidate is not None:
            self.panel._set_status(
                QCoreApplication.translate(
                    "ExecutionPanel", "Confirm or cancel the candidate first."
                ),
                error=True,
            )
            return
        refused = self._outside_allowed_dirs()
        if refused:
            self.panel._set_status(
                QCoreApplication.translate(
                    "ExecutionPanel", "Could not save the input set: %1"
                ).replace("%1", refused),
                error=True,
            )
            return
        jobs = self.panel.ctx.jobs
        if jobs is None:
            self.panel._set_status(
                QCoreApplication.translate(
                    "ExecutionPanel", "Running calculations is not available."
                ),
                error=True,
            )
            return
        path = self._save(jobs, doc.project)
        if path is None:
            return
        self.panel.last_input_set = str(path)
        self.panel._set_status(
            QCoreApplication.translate("ExecutionPanel", "Input set saved in %1").replace(
                "%1", str(path)
            )
        )

    @reports_errors(
        _status_error(QT_TRANSLATE_NOOP("ExecutionPanel", "Could not start: %1")), returns=None
    )
    def _start(self, jobs: Any, project: dict[str, Any]) -> Any:
        return jobs.start(project)

    @reports_errors(
        _status_error(QT_TRANSLATE_NOOP("ExecutionPanel", "Could not stop: %1")), returns=None
    )
    def _cancel(self, job: Any) -> None:
        job.cancel()

    @reports_errors(
        _status_error(QT_TRANSLATE_NOOP("ExecutionPanel", "Could not save the input set: %1")),
        returns=None,
    )
    def _save(self, jobs: Any, project: dict[str, Any]) -> Any:
        return jobs.save_input_set(project)
