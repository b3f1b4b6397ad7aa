"""The Execution tab's job status: the progress, the status line, the live log and the
results loaded when the job ends (Qt layer)."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QWidget

from molforma.gui.running_jobs import job_snapshot
from molforma.gui.widgets.execution_support import (
    LOG_READ_BYTES,
    ExecutionPanelHost,
    job_directory,
    job_status,
)
from molforma.gui.widgets.panel_workers import (
    error_text,
    reports_errors,
)
from molforma.jobs import TERMINAL
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.gui.widgets import panel_workers
    from molforma.nwchem import progress
else:  # imported on first use (start-up time): molforma.lazy
    progress = lazy_import("molforma.nwchem.progress")
    panel_workers = lazy_import("molforma.gui.widgets.panel_workers")

log = logging.getLogger(__name__)


def _why_no_results(view: JobStatusView, exc: BaseException) -> None:
    """The job ended anyway: its status line says why no results follow."""
    view.panel._set_status(view.panel.status_label.text() + "\n" + error_text(exc))


class JobStatusView:
    """Shows the followed job: status, progress, log and, at its end, its results.

    The widgets and the state stay on the tab (``self.panel``).
    """

    def __init__(self, panel: ExecutionPanelHost, parent: QWidget) -> None:
        self.panel = panel
        self.parent = parent  # the Qt parent of the dialogs and loads it starts

    def _progress_text(self, status: str, progress: dict[str, Any]) -> str:
        parts = [
            QCoreApplication.translate("ExecutionPanel", "Status: %1").replace(
                "%1", self._status_name(status)
            )
        ]
        if progress.get("scfIteration") is not None:
            parts.append(
                QCoreApplication.translate("ExecutionPanel", "SCF iteration %1").replace(
                    "%1", str(progress["scfIteration"])
                )
            )
        if progress.get("optimizationStep") is not None:
            parts.append(
                QCoreApplication.translate("ExecutionPanel", "optimisation step %1").replace(
                    "%1", str(progress["optimizationStep"])
                )
            )
        if progress.get("energy") is not None:
            parts.append(
                QCoreApplication.translate("ExecutionPanel", "energy %1 Eh").replace(
                    "%1", f"{float(progress['energy']):.8f}"
                )
            )
        return " · ".join(parts)

    def _limits_of(self, job: Any) -> dict[str, Any]:
        """What the bar counts for ``job``: from its project snapshot (a job started over
        MCP may differ from the document), else from the document."""
        project: Any = None
        directory = job_directory(job)
        if directory:
            try:
                project = json.loads(
                    (Path(directory) / "project.molforma.json").read_text(encoding="utf-8")
                )
            except (OSError, ValueError):
                project = None
        if not isinstance(project, dict):
            project = self.panel.ctx.document.project
        return progress.progress_limits(project)

    def _show_progress_bar(self, progress: dict[str, Any]) -> None:
        limits = self.panel._progress_limits
        maximum = int(limits["maximum"])
        if limits["kind"] == "optimization":
            value = progress.get("optimizationStep")
            fmt = QCoreApplication.translate("ExecutionPanel", "Optimisation step %v of %m")
        else:
            value = progress.get("scfIteration")
            fmt = QCoreApplication.translate("ExecutionPanel", "SCF cycle %v of %m")
        value = 0 if value is None else int(value)
        # A limit raised in extra input can be passed: widen the bar rather than clip.
        self.panel.progress_bar.setRange(0, max(maximum, value))
        self.panel.progress_bar.setValue(value)
        self.panel.progress_bar.setFormat(fmt)
        self.panel.progress_bar.setTextVisible(True)

    def _status_name(self, status: str) -> str:
        names = {
            "queued": QCoreApplication.translate("ExecutionPanel", "queued"),
            "running": QCoreApplication.translate("ExecutionPanel", "running"),
            "finished": QCoreApplication.translate("ExecutionPanel", "finished"),
            "failed": QCoreApplication.translate("ExecutionPanel", "failed"),
            "cancelled": QCoreApplication.translate("ExecutionPanel", "cancelled"),
            "timed_out": QCoreApplication.translate("ExecutionPanel", "timed out"),
        }
        return names.get(status, status)

    def poll(self) -> None:
        """Read the job's snapshot and output tail and show them (GUI thread)."""
        job = self.panel.job
        if job is None:
            self.panel._timer.stop()
            return
        snap = job_snapshot(job)
        status = job_status(job, snap)
        progress = snap.get("progress") or {}
        self.panel.progress_label.setText(self._progress_text(status, progress))
        self._show_progress_bar(progress)
        energies = progress.get("energies") or []
        if energies:
            self.panel.energy_plot.set_energies(energies)
        directory = job_directory(job, snap)
        self._append_new_output(directory)
        if status in TERMINAL:
            self.panel._timer.stop()
            for _ in range(8):  # the end of a fast-growing output, bounded
                before = self.panel._log_offset
                self._append_new_output(directory)
                if self.panel._log_offset == before:
                    break
            text = (
                QCoreApplication.translate("ExecutionPanel", "Job %1: %2")
                .replace("%1", self._status_name(status))
                .replace("%2", directory or "")
            )
            if snap.get("error"):
                text += "\n" + str(snap["error"])
            self.panel._set_status(
                text, error=status in ("failed", "timed_out") or bool(snap.get("error"))
            )
            self.panel._update_buttons()
            self.panel.jobFinished.emit(job)
            self._load_results(job, directory)
        elif snap.get("scheduler") == "slurm":
            text = (
                QCoreApplication.translate("ExecutionPanel", "Batch job %1 (%2) in %3")
                .replace("%1", str(snap.get("nativeId") or ""))
                .replace("%2", self._status_name(status))
                .replace("%3", directory or "")
            )
            if status == "queued" and snap.get("queueReason"):
                text += "\n" + QCoreApplication.translate("ExecutionPanel", "Waiting: %1").replace(
                    "%1", str(snap["queueReason"])
                )
            self.panel._set_status(text)
            self.panel._update_buttons()
        else:
            self.panel._set_status(
                QCoreApplication.translate("ExecutionPanel", "Running in %1").replace(
                    "%1", directory or ""
                )
            )
            self.panel._update_buttons()

    def _append_new_output(self, directory: str | None) -> None:
        """Append what the job wrote to ``output.out`` since the last poll.

        Reading from the last offset keeps each poll cheap however long the output
        grows; the incremental decoder joins UTF-8 characters split between reads.
        """
        if not directory:
            return
        try:
            with (Path(directory) / "output.out").open("rb") as fh:
                fh.seek(self.panel._log_offset)
                data = fh.read(LOG_READ_BYTES)
        except OSError:
            return  # not written yet
        if not data:
            return
        self.panel._log_offset += len(data)
        text = self.panel._log_decoder.decode(data)
        if not text:
            return
        bar = self.panel.log_view.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 2
        cursor = QTextCursor(self.panel.log_view.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(text)
        if at_end:
            bar.setValue(bar.maximum())

    def log_text(self) -> str:
        """The log shown now."""
        return self.panel.log_view.toPlainText()

    def _load_results(self, job: Any, directory: str | None) -> None:
        if job is self.panel._results_loaded_for or not directory:
            return
        self.panel._results_loaded_for = job
        if not (Path(directory) / "output.out").exists():
            return
        results = self.panel.ctx.results
        if results is None:
            return

        handle = self._open_results(results, directory)
        if handle is None:
            return
        panel_workers.watch_load(
            self.parent, handle, lambda _ok, _err: self.panel.ctx.events.resultsChanged.emit()
        )

    @reports_errors(_why_no_results, returns=None)
    def _open_results(self, results: Any, directory: str) -> Any:
        return results.open_directory(directory)
