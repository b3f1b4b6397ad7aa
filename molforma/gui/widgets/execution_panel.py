"""Tab "3 Execution": how NWChem runs, Run / Stop / Save input set, live log and progress.

Settings edit the confirmed project directly (one undo step each) through
:func:`molforma.app.ops.set_execution`. A running job is followed with a
QTimer that reads the job's snapshot (status, progress) and output tail on the GUI
thread; the job itself runs in the job manager's own threads.

Pressing Run while the executable, launcher, environment, scheduler, account, batch
options or extra input differ from the trusted values shows them in a confirmation
box (docs/reference/safety.md, Trusted values); "Yes" makes them trusted. With the SLURM scheduler the
batch fields appear and Run submits the job to the cluster.
"""

from __future__ import annotations

import codecs
import logging
import shlex
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from molforma.document.changes import Change
from molforma.errors import MolFormaError
from molforma.gui import outcome
from molforma.gui.widgets.execution_run import JobControl
from molforma.gui.widgets.execution_settings import ExecutionSettings
from molforma.gui.widgets.execution_status import JobStatusView
from molforma.gui.widgets.execution_support import (
    LOG_MAX_LINES,
    POLL_MS,
    PROFILE_ROLE,
    job_status,
)
from molforma.gui.widgets.panel_workers import (
    Retranslatable,
    message_label,
)
from molforma.gui.widgets.plots import EnergyPlot
from molforma.jobs import TERMINAL

log = logging.getLogger(__name__)


class ExecutionPanel(Retranslatable, QWidget):
    """Execution settings of the shared document and the job started from them."""

    jobFinished = Signal(object)  # the job, once it reached a final status
    last_input_set: str  # the folder Save input set wrote last (set by it)

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # The tab's parts, each one job (the widgets and the state stay here).
        self.settings = ExecutionSettings(self, self)
        self.status_view = JobStatusView(self, self)
        self.runs = JobControl(self, self.status_view, self)
        self.setObjectName("executionTab")
        self.ctx = ctx
        self._loading = False
        self._messages: dict[str, QLabel] = {}
        self._local_errors: dict[str, str] = {}
        self.job: Any | None = None
        self._log_offset = 0
        self._log_decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._results_loaded_for: Any | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.poll)
        self._build()
        ctx.events.documentChanged.connect(self._document_changed)
        ctx.events.jobChanged.connect(self._on_job_changed)
        self.refresh()
        self._update_buttons()

    # -- construction ----------------------------------------------------------------------
    def _with_message(self, key: str, *widgets: QWidget) -> QWidget:
        box = QWidget(self)
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(1)
        row = QHBoxLayout()
        for w in widgets:
            row.addWidget(w, 1 if isinstance(w, QLineEdit | QTableWidget) else 0)
        lay.addLayout(row)
        msg = message_label(f"{key}Message", box)
        lay.addWidget(msg)
        self._messages[key] = msg
        return box

    def _group(self, title: Callable[[], str], name: str, parent: QWidget) -> QGroupBox:
        g = QGroupBox(parent)
        g.setObjectName(name)
        self.bind_text(lambda: g.setTitle(title()))
        return g

    def _build(self) -> None:
        host = QWidget(self)
        host.setObjectName("executionForm")
        outer = QVBoxLayout(host)
        outer.addWidget(self._build_program(host))
        outer.addWidget(self._build_scheduler(host))
        outer.addWidget(self._build_resources(host))
        outer.addWidget(self._build_folders(host))
        self._build_job_status(host, outer)
        scroll = QScrollArea(self)
        scroll.setObjectName("executionScroll")
        scroll.setWidgetResizable(True)
        scroll.setWidget(host)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setObjectName("executionSplitter")
        splitter.addWidget(scroll)
        splitter.addWidget(self._build_output())
        splitter.setStretchFactor(1, 1)
        lay = QVBoxLayout(self)
        lay.addWidget(splitter)
        self.settings.wire()
        self.run_button.clicked.connect(self.run)
        self.stop_button.clicked.connect(self.stop)
        self.save_input_button.clicked.connect(self.save_input_set)

    def _build_program(self, host: QWidget) -> QGroupBox:
        program = self._group(lambda: self.tr("Program"), "programGroup", host)
        pf = QFormLayout(program)
        self.executable_edit = QLineEdit(program)
        self.executable_edit.setObjectName("executableEdit")
        self.executable_browse = self.button(
            lambda: self.tr("Browse…"), "executableBrowse", program
        )
        self.launcher_edit = QLineEdit(program)
        self.launcher_edit.setObjectName("launcherEdit")
        self.launcher_browse = self.button(lambda: self.tr("Browse…"), "launcherBrowse", program)
        pf.addRow(
            self.label(lambda: self.tr("NWChem executable:")),
            self._with_message("executable", self.executable_edit, self.executable_browse),
        )
        pf.addRow(
            self.label(lambda: self.tr("MPI launcher:")),
            self._with_message("launcher", self.launcher_edit, self.launcher_browse),
        )
        self.environment_table = QTableWidget(0, 2, program)
        self.environment_table.setObjectName("environmentTable")
        self.bind_text(
            lambda: self.environment_table.setHorizontalHeaderLabels(
                [self.tr("Variable"), self.tr("Value")]
            )
        )
        self.environment_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.Stretch
        )
        self.environment_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.environment_table.setMaximumHeight(130)
        self.environment_add = self.button(lambda: self.tr("Add"), "environmentAdd", program)
        self.environment_remove = self.button(
            lambda: self.tr("Remove"), "environmentRemove", program
        )
        env_buttons = QWidget(program)
        eb = QVBoxLayout(env_buttons)
        eb.setContentsMargins(0, 0, 0, 0)
        eb.addWidget(self.environment_add)
        eb.addWidget(self.environment_remove)
        eb.addStretch(1)
        pf.addRow(
            self.label(lambda: self.tr("Environment:")),
            self._with_message("environment", self.environment_table, env_buttons),
        )
        return program

    def _build_resources(self, host: QWidget) -> QGroupBox:
        resources = self._group(lambda: self.tr("Resources"), "resourcesGroup", host)
        rf = QFormLayout(resources)
        self.processes_spin = QSpinBox(resources)
        self.processes_spin.setObjectName("processesSpin")
        self.processes_spin.setRange(1, 4096)
        self.processes_spin.setKeyboardTracking(False)
        self.threads_spin = QSpinBox(resources)
        self.threads_spin.setObjectName("threadsSpin")
        self.threads_spin.setRange(1, 1024)
        self.threads_spin.setKeyboardTracking(False)
        self.time_limit_spin = QDoubleSpinBox(resources)
        self.time_limit_spin.setObjectName("timeLimitSpin")
        self.time_limit_spin.setRange(0.0, 10_000_000.0)
        self.time_limit_spin.setDecimals(0)
        self.time_limit_spin.setSingleStep(60.0)
        self.bind_text(lambda: self.time_limit_spin.setSuffix(self.tr(" s")))
        self.bind_text(lambda: self.time_limit_spin.setSpecialValueText(self.tr("No limit")))
        self.time_limit_spin.setKeyboardTracking(False)
        self._processes_row = self._with_message("processes", self.processes_spin)
        rf.addRow(self.label(lambda: self.tr("MPI processes:")), self._processes_row)
        self._resources_form = rf
        rf.addRow(
            self.label(lambda: self.tr("Threads (OMP_NUM_THREADS):")),
            self._with_message("threads", self.threads_spin),
        )
        rf.addRow(
            self.label(lambda: self.tr("Time limit:")),
            self._with_message("time_limit", self.time_limit_spin),
        )
        return resources

    def _build_folders(self, host: QWidget) -> QGroupBox:
        folders = self._group(lambda: self.tr("Folders"), "foldersGroup", host)
        ff = QFormLayout(folders)
        self.job_root_edit = QLineEdit(folders)
        self.job_root_edit.setObjectName("jobRootEdit")
        self.job_root_browse = self.button(lambda: self.tr("Browse…"), "jobRootBrowse", folders)
        self.reference_dir_edit = QLineEdit(folders)
        self.reference_dir_edit.setObjectName("referenceDirEdit")
        self.bind_text(lambda: self.reference_dir_edit.setPlaceholderText(self.tr("(none)")))
        self.reference_dir_browse = self.button(
            lambda: self.tr("Browse…"), "referenceDirBrowse", folders
        )
        ff.addRow(
            self.label(lambda: self.tr("Job root:")),
            self._with_message("job_root", self.job_root_edit, self.job_root_browse),
        )
        ff.addRow(
            self.label(lambda: self.tr("Reference directory:")),
            self._with_message("reference_dir", self.reference_dir_edit, self.reference_dir_browse),
        )
        return folders

    def _build_job_status(self, host: QWidget, outer: QVBoxLayout) -> None:
        """Run, Stop, Save input set, the status line and the progress."""
        actions = QHBoxLayout()
        self.run_button = self.button(lambda: self.tr("Run"), "runButton", host)
        self.stop_button = self.button(lambda: self.tr("Stop"), "stopButton", host)
        self.save_input_button = self.button(
            lambda: self.tr("Save input set"), "saveInputSetButton", host
        )
        actions.addWidget(self.run_button)
        actions.addWidget(self.stop_button)
        actions.addWidget(self.save_input_button)
        actions.addStretch(1)
        outer.addLayout(actions)
        self.status_label = QLabel(host)
        self.status_label.setObjectName("jobStatusLabel")
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.progress_label = QLabel(host)
        self.progress_label.setObjectName("progressLabel")
        # "Status: running · SCF iteration 12 · energy -76.02676 Eh" wraps rather than
        # widens the form past the tab (Browse buttons and the bar were cut off).
        self.progress_label.setWordWrap(True)
        self.progress_bar = QProgressBar(host)
        self.progress_bar.setObjectName("jobProgressBar")
        self.progress_bar.setRange(0, 1)
        self.progress_bar.setValue(0)
        self.progress_bar.setVisible(False)
        self.bind_text(
            lambda: self.progress_bar.setToolTip(
                self.tr(
                    "SCF cycle or optimisation step of the running job, out of the maximum set in "
                    "the advanced settings (else NWChem's default)"
                )
            )
        )
        self._progress_limits: dict[str, Any] = {"kind": "scf", "maximum": 30}
        outer.addWidget(self.status_label)
        # The bar on a row of its own, as wide as the form: beside the progress line it
        # was squeezed until its "SCF cycle 2 of 30" no longer fitted.
        outer.addWidget(self.progress_label)
        outer.addWidget(self.progress_bar)
        outer.addStretch(1)

    def _build_output(self) -> QSplitter:
        """The live log and the energy plot."""
        right = QSplitter(Qt.Orientation.Vertical, self)
        right.setObjectName("executionOutputSplitter")
        log_box = QWidget(right)
        log_box.setObjectName("executionLogBox")
        log_layout = QVBoxLayout(log_box)
        log_layout.setContentsMargins(0, 0, 0, 0)
        self.log_view = QPlainTextEdit(log_box)
        self.log_view.setObjectName("executionLog")
        self.log_view.setReadOnly(True)
        self.log_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.log_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.log_view.setMaximumBlockCount(LOG_MAX_LINES)
        # A named label with the log as its buddy: screen readers and get_ui say what it is.
        self.log_label = self.label(lambda: self.tr("NWChem output (live log):"), log_box)
        self.log_label.setObjectName("executionLogLabel")
        self.log_label.setBuddy(self.log_view)
        self.bind_text(lambda: self.log_view.setAccessibleName(self.log_label.text().rstrip(":：")))
        log_layout.addWidget(self.log_label)
        log_layout.addWidget(self.log_view)
        self.energy_plot = EnergyPlot(right, object_name="energyPlot")
        right.addWidget(log_box)
        right.addWidget(self.energy_plot)
        right.setStretchFactor(0, 3)
        right.setStretchFactor(1, 2)
        return right

    def _build_scheduler(self, host: QWidget) -> QGroupBox:
        """Local run or SLURM batch job, with the batch fields shown only for SLURM."""
        group = self._group(lambda: self.tr("Scheduler"), "schedulerGroup", host)
        form = QFormLayout(group)
        self.scheduler_combo = QComboBox(group)
        self.scheduler_combo.setObjectName("schedulerCombo")
        self.scheduler_combo.addItem("", "local")
        self.scheduler_combo.addItem("", "slurm")
        # Each cluster profile of Preferences follows (rebuilt by refresh): one choice of
        # where the job runs, here, the local SLURM, or a remote cluster over ssh.
        self._profile_items: list[tuple[str, str | None]] = []
        self.bind_text(self.settings._scheduler_names)
        form.addRow(
            self.label(lambda: self.tr("Run on:")),
            self._with_message("scheduler", self.scheduler_combo),
        )
        self.batch_box = QWidget(group)
        self.batch_box.setObjectName("batchSettings")
        bf = QFormLayout(self.batch_box)
        bf.setContentsMargins(0, 0, 0, 0)
        self.partition_edit = QLineEdit(self.batch_box)
        self.partition_edit.setObjectName("partitionEdit")
        self.account_edit = QLineEdit(self.batch_box)
        self.account_edit.setObjectName("accountEdit")
        self.qos_edit = QLineEdit(self.batch_box)
        self.qos_edit.setObjectName("qosEdit")
        self.nodes_spin = QSpinBox(self.batch_box)
        self.nodes_spin.setObjectName("nodesSpin")
        self.nodes_spin.setRange(1, 4096)
        self.nodes_spin.setKeyboardTracking(False)
        self.tasks_spin = QSpinBox(self.batch_box)
        self.tasks_spin.setObjectName("tasksPerNodeSpin")
        self.tasks_spin.setRange(1, 4096)
        self.tasks_spin.setKeyboardTracking(False)
        self.bind_text(self.settings._batch_placeholders)
        self.directives_edit = QLineEdit(self.batch_box)
        self.directives_edit.setObjectName("batchDirectivesEdit")
        self.bind_text(
            lambda: self.directives_edit.setPlaceholderText(
                self.tr("e.g. --mem=4G --constraint=cpu")
            )
        )
        bf.addRow(
            self.label(lambda: self.tr("Partition:")),
            self._with_message("partition", self.partition_edit),
        )
        bf.addRow(
            self.label(lambda: self.tr("Account:")),
            self._with_message("account", self.account_edit),
        )
        bf.addRow(self.label(lambda: self.tr("QoS:")), self._with_message("qos", self.qos_edit))
        bf.addRow(
            self.label(lambda: self.tr("Nodes:")), self._with_message("nodes", self.nodes_spin)
        )
        bf.addRow(
            self.label(lambda: self.tr("MPI processes per node:")),
            self._with_message("tasksPerNode", self.tasks_spin),
        )
        bf.addRow(
            self.label(lambda: self.tr("Extra batch options:")),
            self._with_message("batch_directives", self.directives_edit),
        )
        self.batch_note = QLabel(self.batch_box)
        self.batch_note.setObjectName("batchNote")
        self.batch_note.setWordWrap(True)
        self.bind_text(
            lambda: self.batch_note.setText(
                self.tr(
                    "Threads become CPUs per task and the time limit the wall time. A batch job "
                    "belongs to the cluster: closing MolForma does not cancel it."
                )
            )
        )
        bf.addRow(self.batch_note)
        form.addRow(self.batch_box)

        self.scheduler_combo.currentIndexChanged.connect(lambda _i: self.settings._choose_run_on())
        for edit, key in (
            (self.partition_edit, "partition"),
            (self.account_edit, "account"),
            (self.qos_edit, "qos"),
        ):
            edit.editingFinished.connect(lambda e=edit, k=key: self.settings._commit_name(k, e))
        self.nodes_spin.valueChanged.connect(lambda v: self.settings._set("nodes", int(v)))
        self.tasks_spin.valueChanged.connect(lambda v: self.settings._set("tasksPerNode", int(v)))
        self.directives_edit.editingFinished.connect(self.settings._commit_directives)
        return group

    def changeEvent(self, event: QEvent) -> None:  # Qt override
        """Back in the window (after Preferences, or an edit of preferences.json), the
        "Run on" choice lists the profiles as Preferences hold them now."""
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            self.settings._sync_profiles()
        super().changeEvent(event)

    def showEvent(self, event: Any) -> None:  # Qt override
        """Showing the tab lists the profiles as Preferences hold them now."""
        self.settings._sync_profiles()
        super().showEvent(event)

    # -- settings edits --------------------------------------------------------------------

    # -- refresh -----------------------------------------------------------------------------
    def _document_changed(self, change: Change = Change.ALL) -> None:
        # Only settings show here; but reasons shown for refused edits are stale once the
        # document has moved on, and the fields they sit beside go back to the project's.
        if not change & (Change.SETTINGS | Change.LOAD) and not self._local_errors:
            return
        self._local_errors.clear()
        self.refresh()

    def refresh(self, *_args: Any) -> None:
        """Reload the fields from the confirmed project."""
        ex = self.ctx.document.project.get("execution", {})
        self._loading = True
        try:
            for edit, key in (
                (self.executable_edit, "executable"),
                (self.launcher_edit, "launcher"),
                (self.job_root_edit, "job_root"),
                (self.reference_dir_edit, "reference_dir"),
            ):
                text = str(ex.get(key) or "")
                if edit.text() != text:
                    edit.setText(text)
            self.processes_spin.setValue(int(ex.get("processes", 1) or 1))
            scheduler = str(ex.get("scheduler") or "local")
            profile = ex.get("remote_profile") or None
            self.settings._fill_profiles(profile)
            index = self.scheduler_combo.findData(scheduler)
            if profile:
                # A chosen profile shows even beside scheduler local (a project written so):
                # the start then says it needs slurm, and choosing it again sets both.
                index = self.scheduler_combo.findData(profile, PROFILE_ROLE)
                scheduler = "slurm"
            self.scheduler_combo.setCurrentIndex(max(0, index))
            for edit, key in (
                (self.partition_edit, "partition"),
                (self.account_edit, "account"),
                (self.qos_edit, "qos"),
            ):
                text = str(ex.get(key) or "")
                if edit.text() != text:
                    edit.setText(text)
            self.nodes_spin.setValue(int(ex.get("nodes", 1) or 1))
            self.tasks_spin.setValue(int(ex.get("tasksPerNode", 1) or 1))
            directives = shlex.join(str(d) for d in ex.get("batch_directives") or [])
            if (
                self.directives_edit.text() != directives
                and "batch_directives" not in self._local_errors
            ):
                self.directives_edit.setText(directives)
            self.settings._show_scheduler(scheduler)
            self.settings._batch_placeholders()
            self.threads_spin.setValue(int(ex.get("threads", 1) or 1))
            self.time_limit_spin.setValue(float(ex.get("time_limit") or 0.0))
            env = dict(ex.get("environment") or {})
            shown, problem = self.settings._table_environment()
            if shown != env or problem:
                self.environment_table.setRowCount(0)
                for name, value in env.items():
                    row = self.environment_table.rowCount()
                    self.environment_table.insertRow(row)
                    self.environment_table.setItem(row, 0, QTableWidgetItem(name))
                    self.environment_table.setItem(row, 1, QTableWidgetItem(str(value)))
        finally:
            self._loading = False
        self.settings._show_messages()
        self._update_buttons()

    def _update_buttons(self) -> None:
        running = self.job is not None and job_status(self.job) not in TERMINAL
        self.run_button.setEnabled(not running)
        self.stop_button.setEnabled(running)
        self.save_input_button.setEnabled(not running)

    # -- run / stop / save -------------------------------------------------------------------

    def retranslate_dynamic(self) -> None:
        """The progress line is rebuilt in the new language."""
        if self.job is not None:
            self.poll()

    def _set_status(self, text: str, *, error: bool = False) -> None:
        """Show ``text`` under the buttons; refusals and failures in red (and, while a
        window command runs, in its record)."""
        if error:
            outcome.refused(text)
        self.status_label.setText(text)
        self.status_label.setProperty("error", error)
        self.status_label.setStyleSheet("color: #d03030;" if error else "")

    def _on_job_changed(self, job: Any) -> None:
        # A job started elsewhere (for example through MCP) is followed here too.
        if job is not None and job is not self.job:
            self.runs.follow(job)

    # -- what the collaborators do, under the names the window and its tests use
    def _refuse(self, key: str, reason: str | MolFormaError) -> None:
        self.settings._refuse(key, reason)

    def _untrusted_text(self, project: dict[str, Any] | None = None) -> str:
        return self.runs._untrusted_text(project)

    def run(self) -> None:
        self.runs.run()

    def stop(self) -> None:
        self.runs.stop()

    def save_input_set(self) -> None:
        self.runs.save_input_set()

    def _status_name(self, status: str) -> str:
        return self.status_view._status_name(status)

    def poll(self) -> None:
        self.status_view.poll()

    def log_text(self) -> str:
        return self.status_view.log_text()

    # -- polling -----------------------------------------------------------------------------
