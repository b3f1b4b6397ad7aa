"""Tab "3 Execution": how NWChem runs, Run / Stop / Save input set, live log and progress.

Settings edit the confirmed project directly (one undo step each) through
:func:`molforma.app.ops.set_execution`. A running job is followed with a
QTimer that reads the job's snapshot (status, progress) and output tail on the GUI
thread; the job itself runs in the job manager's own threads.

Pressing Run while the executable, launcher, environment, scheduler, account, batch
options or extra input differ from the trusted values shows them in a confirmation
box (SPEC.md section 7); "Yes" makes them trusted. With the SLURM scheduler the
batch fields appear and Run submits the job to the cluster.
"""

from __future__ import annotations

import codecs
import inspect
import json
import logging
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QTextCursor
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
from molforma.gui import dialogs, outcome
from molforma.gui.running_jobs import job_snapshot
from molforma.gui.widgets.panel_workers import (
    Retranslatable,
    apply_edit,
    error_text,
    message_label,
    rows_to_remove,
)
from molforma.gui.widgets.plots import EnergyPlot
from molforma.jobs import TERMINAL
from molforma.nwchem import value_grammar as grammar

log = logging.getLogger(__name__)

POLL_MS = 250
LOG_MAX_LINES = 20_000  # lines the log view keeps; the full output stays in the job folder
LOG_READ_BYTES = 1 << 20  # at most this much new output is shown per poll
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Protected batch fields (SPEC.md section 7): like the launcher, MCP must not drive them.
PROTECTED_BATCH_WIDGETS = ("schedulerCombo", "accountEdit", "batchDirectivesEdit")
# The "Run on" choice: its data is the scheduler ("local" or "slurm"); a cluster profile's
# item (scheduler slurm) holds the profile's name under this role.
PROFILE_ROLE = Qt.ItemDataRole.UserRole + 1


def _profiles() -> list[tuple[str, str]]:
    """(name, host) of the person's cluster profiles, read from Preferences now: profiles
    saved by the Preferences dialog or added to preferences.json by hand both show."""
    from molforma.preferences import load_preferences

    return [(p.name, p.host) for p in load_preferences().profiles]


def _profile(name: str) -> Any:
    """The person's profile ``name`` (None when Preferences lack it)."""
    from molforma.preferences import load_preferences

    return load_preferences().profile(name)


def _private_box() -> dict[str, Any]:
    """``private=True`` when :func:`dialogs.ask` supports it.

    SPEC.md section 7: MCP can neither read nor press the trust confirmation, so
    the box is marked private for the window's MCP introspection.
    """
    try:
        params = inspect.signature(dialogs.ask).parameters
    except (TypeError, ValueError):
        return {}
    return {"private": True} if "private" in params else {}


def job_directory(job: Any, snap: dict[str, Any] | None = None) -> str | None:
    """The job's folder, from its snapshot or its attributes."""
    snap = snap if snap is not None else job_snapshot(job)
    for key in ("directory", "jobDir", "job_dir", "path", "folder"):
        value = snap.get(key)
        if value:
            return str(value)
    for attr in ("directory", "job_dir", "path", "folder"):
        value = getattr(job, attr, None)
        if value:
            return str(value)
    return None


def job_status(job: Any, snap: dict[str, Any] | None = None) -> str:
    """The job's status string."""
    snap = snap if snap is not None else job_snapshot(job)
    status = snap.get("status", getattr(job, "status", ""))
    return str(getattr(status, "value", status) or "")


class ExecutionPanel(Retranslatable, QWidget):
    """Execution settings of the shared document and the job started from them."""

    jobFinished = Signal(object)  # the job, once it reached a final status

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
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

        program = self._group(lambda: self.tr("Program"), "programGroup", host)
        pf = QFormLayout(program)
        self.executable_edit = QLineEdit(program)
        self.executable_edit.setObjectName("executableEdit")
        self.executable_browse = self.button(lambda: self.tr("Browse…"), "executableBrowse",
                                              program)
        self.launcher_edit = QLineEdit(program)
        self.launcher_edit.setObjectName("launcherEdit")
        self.launcher_browse = self.button(lambda: self.tr("Browse…"), "launcherBrowse", program)
        pf.addRow(self.label(lambda: self.tr("NWChem executable:")),
                  self._with_message("executable", self.executable_edit, self.executable_browse))
        pf.addRow(self.label(lambda: self.tr("MPI launcher:")),
                  self._with_message("launcher", self.launcher_edit, self.launcher_browse))
        self.environment_table = QTableWidget(0, 2, program)
        self.environment_table.setObjectName("environmentTable")
        self.bind_text(lambda: self.environment_table.setHorizontalHeaderLabels(
            [self.tr("Variable"), self.tr("Value")]))
        self.environment_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.Stretch)
        self.environment_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.environment_table.setMaximumHeight(130)
        self.environment_add = self.button(lambda: self.tr("Add"), "environmentAdd", program)
        self.environment_remove = self.button(lambda: self.tr("Remove"), "environmentRemove",
                                               program)
        env_buttons = QWidget(program)
        eb = QVBoxLayout(env_buttons)
        eb.setContentsMargins(0, 0, 0, 0)
        eb.addWidget(self.environment_add)
        eb.addWidget(self.environment_remove)
        eb.addStretch(1)
        pf.addRow(self.label(lambda: self.tr("Environment:")),
                  self._with_message("environment", self.environment_table, env_buttons))
        outer.addWidget(program)
        outer.addWidget(self._build_scheduler(host))

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
        rf.addRow(self.label(lambda: self.tr("Threads (OMP_NUM_THREADS):")),
                  self._with_message("threads", self.threads_spin))
        rf.addRow(self.label(lambda: self.tr("Time limit:")), self._with_message("time_limit",
                  self.time_limit_spin))
        outer.addWidget(resources)

        folders = self._group(lambda: self.tr("Folders"), "foldersGroup", host)
        ff = QFormLayout(folders)
        self.job_root_edit = QLineEdit(folders)
        self.job_root_edit.setObjectName("jobRootEdit")
        self.job_root_browse = self.button(lambda: self.tr("Browse…"), "jobRootBrowse", folders)
        self.reference_dir_edit = QLineEdit(folders)
        self.reference_dir_edit.setObjectName("referenceDirEdit")
        self.bind_text(lambda: self.reference_dir_edit.setPlaceholderText(self.tr("(none)")))
        self.reference_dir_browse = self.button(lambda: self.tr("Browse…"), "referenceDirBrowse",
                                                 folders)
        ff.addRow(self.label(lambda: self.tr("Job root:")),
                  self._with_message("job_root", self.job_root_edit, self.job_root_browse))
        ff.addRow(self.label(lambda: self.tr("Reference directory:")),
                  self._with_message("reference_dir", self.reference_dir_edit,
                                     self.reference_dir_browse))
        outer.addWidget(folders)

        actions = QHBoxLayout()
        self.run_button = self.button(lambda: self.tr("Run"), "runButton", host)
        self.stop_button = self.button(lambda: self.tr("Stop"), "stopButton", host)
        self.save_input_button = self.button(lambda: self.tr("Save input set"),
                                              "saveInputSetButton", host)
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
        self.progress_bar = QProgressBar(host)
        self.progress_bar.setObjectName("jobProgressBar")
        self.progress_bar.setRange(0, 1)
        self.progress_bar.setValue(0)
        self.progress_bar.setVisible(False)
        self.bind_text(lambda: self.progress_bar.setToolTip(self.tr(
            "SCF cycle or optimisation step of the running job, out of the maximum set in "
            "the advanced settings (else NWChem's default)")))
        self._progress_limits: dict[str, Any] = {"kind": "scf", "maximum": 30}
        outer.addWidget(self.status_label)
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.progress_label, 1)
        progress_row.addWidget(self.progress_bar)
        outer.addLayout(progress_row)
        outer.addStretch(1)

        scroll = QScrollArea(self)
        scroll.setObjectName("executionScroll")
        scroll.setWidgetResizable(True)
        scroll.setWidget(host)

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
        self.bind_text(lambda: self.log_view.setAccessibleName(
            self.log_label.text().rstrip(":：")))
        log_layout.addWidget(self.log_label)
        log_layout.addWidget(self.log_view)
        self.energy_plot = EnergyPlot(right, object_name="energyPlot")
        right.addWidget(log_box)
        right.addWidget(self.energy_plot)
        right.setStretchFactor(0, 3)
        right.setStretchFactor(1, 2)

        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setObjectName("executionSplitter")
        splitter.addWidget(scroll)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        lay = QVBoxLayout(self)
        lay.addWidget(splitter)

        self.executable_edit.editingFinished.connect(
            lambda: self._commit_command("executable", self.executable_edit))
        self.launcher_edit.editingFinished.connect(
            lambda: self._commit_command("launcher", self.launcher_edit))
        self.executable_browse.clicked.connect(lambda: self._browse_program("executable"))
        self.launcher_browse.clicked.connect(lambda: self._browse_program("launcher"))
        self.environment_table.itemChanged.connect(self._environment_edited)
        self.environment_add.clicked.connect(self.add_environment_row)
        self.environment_remove.clicked.connect(self.remove_environment_rows)
        self.processes_spin.valueChanged.connect(lambda v: self._set("processes", int(v)))
        self.threads_spin.valueChanged.connect(lambda v: self._set("threads", int(v)))
        self.time_limit_spin.valueChanged.connect(
            lambda v: self._set("time_limit", float(v) if v > 0 else None))
        self.job_root_edit.editingFinished.connect(self._commit_job_root)
        self.reference_dir_edit.editingFinished.connect(
            lambda: self._set("reference_dir", self.reference_dir_edit.text().strip() or None))
        self.job_root_browse.clicked.connect(lambda: self._browse_dir("job_root"))
        self.reference_dir_browse.clicked.connect(lambda: self._browse_dir("reference_dir"))
        self.run_button.clicked.connect(self.run)
        self.stop_button.clicked.connect(self.stop)
        self.save_input_button.clicked.connect(self.save_input_set)

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
        self.bind_text(self._scheduler_names)
        form.addRow(self.label(lambda: self.tr("Run on:")),
                    self._with_message("scheduler", self.scheduler_combo))
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
        self.bind_text(self._batch_placeholders)
        self.directives_edit = QLineEdit(self.batch_box)
        self.directives_edit.setObjectName("batchDirectivesEdit")
        self.bind_text(lambda: self.directives_edit.setPlaceholderText(
            self.tr("e.g. --mem=4G --constraint=cpu")))
        bf.addRow(self.label(lambda: self.tr("Partition:")),
                  self._with_message("partition", self.partition_edit))
        bf.addRow(self.label(lambda: self.tr("Account:")),
                  self._with_message("account", self.account_edit))
        bf.addRow(self.label(lambda: self.tr("QoS:")), self._with_message("qos", self.qos_edit))
        bf.addRow(self.label(lambda: self.tr("Nodes:")),
                  self._with_message("nodes", self.nodes_spin))
        bf.addRow(self.label(lambda: self.tr("MPI processes per node:")),
                  self._with_message("tasksPerNode", self.tasks_spin))
        bf.addRow(self.label(lambda: self.tr("Extra batch options:")),
                  self._with_message("batch_directives", self.directives_edit))
        self.batch_note = QLabel(self.batch_box)
        self.batch_note.setObjectName("batchNote")
        self.batch_note.setWordWrap(True)
        self.bind_text(lambda: self.batch_note.setText(self.tr(
            "Threads become CPUs per task and the time limit the wall time. A batch job "
            "belongs to the cluster: closing MolForma does not cancel it.")))
        bf.addRow(self.batch_note)
        form.addRow(self.batch_box)

        self.scheduler_combo.currentIndexChanged.connect(lambda _i: self._choose_run_on())
        for edit, key in ((self.partition_edit, "partition"), (self.account_edit, "account"),
                          (self.qos_edit, "qos")):
            edit.editingFinished.connect(lambda e=edit, k=key: self._commit_name(k, e))
        self.nodes_spin.valueChanged.connect(lambda v: self._set("nodes", int(v)))
        self.tasks_spin.valueChanged.connect(lambda v: self._set("tasksPerNode", int(v)))
        self.directives_edit.editingFinished.connect(self._commit_directives)
        return group

    def _scheduler_names(self) -> None:
        combo = self.scheduler_combo
        combo.setItemText(0, self.tr("Local (this computer)"))
        combo.setItemText(1, self.tr("SLURM cluster (batch job)"))
        for i, (name, host) in enumerate(self._profile_items, start=2):
            text = (self.tr("Cluster profile %1 (%2, over ssh)").replace("%1", name)
                    .replace("%2", host) if host is not None else
                    self.tr("Cluster profile %1 (not in Preferences)").replace("%1", name))
            combo.setItemText(i, text)
        combo.setToolTip(self.tr(
            "Where the calculation runs: on this computer, as a batch job of the SLURM "
            "cluster here, or on a cluster profile of your Preferences, reached over ssh "
            "(Edit → Preferences edits the profiles)."))

    def _fill_profiles(self, chosen: str | None) -> bool:
        """The profile items of the "Run on" choice: the person's profiles, and the
        document's own choice when Preferences lack it (shown as such, never hidden).
        True when they changed."""
        items: list[tuple[str, str | None]] = list(_profiles())
        if chosen and chosen not in [n for n, _h in items]:
            items.append((chosen, None))
        if items == self._profile_items:
            return False
        combo = self.scheduler_combo
        blocked = combo.blockSignals(True)
        try:
            while combo.count() > 2:
                combo.removeItem(2)
            for name, _host in items:
                combo.addItem("", "slurm")
                combo.setItemData(combo.count() - 1, name, PROFILE_ROLE)
            self._profile_items = items
            self._scheduler_names()
        finally:
            combo.blockSignals(blocked)
        return True

    def changeEvent(self, event: QEvent) -> None:  # Qt override
        """Back in the window (after Preferences, or an edit of preferences.json), the
        "Run on" choice lists the profiles as Preferences hold them now."""
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            self._sync_profiles()
        super().changeEvent(event)

    def showEvent(self, event: Any) -> None:  # Qt override
        """Showing the tab lists the profiles as Preferences hold them now."""
        self._sync_profiles()
        super().showEvent(event)

    def _sync_profiles(self) -> None:
        chosen = self.ctx.document.project.get("execution", {}).get("remote_profile")
        if self._fill_profiles(chosen or None):
            self.refresh()  # the choice shown again among the new items

    def _batch_placeholders(self) -> None:
        """An empty partition, account or QoS takes the chosen profile's default, else
        the cluster's: the placeholder says which."""
        name = self.ctx.document.project.get("execution", {}).get("remote_profile")
        profile = _profile(str(name)) if name else None
        for edit, key, empty in ((self.partition_edit, "partition", self.tr("(cluster default)")),
                                 (self.account_edit, "account", self.tr("(default)")),
                                 (self.qos_edit, "qos", self.tr("(default)"))):
            value = getattr(profile, key, None) if profile is not None else None
            edit.setPlaceholderText(self.tr("(profile: %1)").replace("%1", value)
                                    if value else empty)

    def _choose_run_on(self) -> None:
        """Local, the local SLURM or a cluster profile: a profile is a SLURM batch job
        submitted over ssh (scheduler slurm, remote_profile its name), one undo step."""
        if self._loading:
            return
        combo = self.scheduler_combo
        profile = combo.currentData(PROFILE_ROLE)
        self._set_many({"scheduler": combo.currentData(),
                         "remote_profile": str(profile) if profile else None})

    def _commit_name(self, key: str, edit: QLineEdit) -> None:
        """A partition, account or QoS typed (or set by a window command): its grammar is
        checked before anything is stored, so a refused value leaves the project as it was
        and the field shows the stored value again beside the reason."""
        if self._loading:
            return
        value = edit.text().strip() or None
        try:
            grammar.EXECUTION_VALIDATORS[key](value)
        except MolFormaError as exc:
            self._refuse(key, exc)
            return
        self._set(key, value)

    def _commit_directives(self) -> None:
        if self._loading:
            return
        try:
            values = shlex.split(self.directives_edit.text())
        except ValueError:
            self._refuse("batch_directives", self.tr("Unbalanced quotes."))
            return
        bad = [v for v in values if not (v.startswith("--") and "=" in v)]
        if bad:
            self._refuse("batch_directives", self.tr("Write each option as --name=value: %1")
                         .replace("%1", bad[0]))
            return
        try:
            grammar.validate_batch_directives(values)
        except MolFormaError as exc:
            self._refuse("batch_directives", exc)
            return
        self._set("batch_directives", values)

    def _show_scheduler(self, scheduler: str) -> None:
        batch = scheduler == "slurm"
        self.batch_box.setVisible(batch)
        # A batch job's MPI processes are nodes x processes per node.
        self._resources_form.setRowVisible(self._processes_row, not batch)

    # -- settings edits --------------------------------------------------------------------
    def _show_messages(self) -> None:
        for key, label in self._messages.items():
            text = self._local_errors.get(key, "")
            label.setText(text)
            label.setVisible(bool(text))

    def _set(self, key: str, value: Any) -> None:
        if self._loading:
            return
        if self.ctx.document.project.get("execution", {}).get(key) == value:
            self._local_errors.pop(key, None)
            self._show_messages()
            return
        msg = apply_edit(self.ctx, "set_execution", {key: value})
        if msg:
            self._local_errors[key] = msg
            self.refresh()
        else:
            self._local_errors.pop(key, None)
            self._show_messages()
            if key == "job_root":
                self._remember_job_root(str(value))

    def _set_many(self, values: dict[str, Any]) -> None:
        """Several settings in one edit (its reason shown beside the scheduler choice)."""
        if self._loading:
            return
        ex = self.ctx.document.project.get("execution", {})
        changed = {k: v for k, v in values.items() if ex.get(k) != v}
        if not changed:
            self._local_errors.pop("scheduler", None)
            self._show_messages()
            return
        msg = apply_edit(self.ctx, "set_execution", changed)
        if msg:
            self._local_errors["scheduler"] = msg
            self.refresh()
        else:
            self._local_errors.pop("scheduler", None)
            self._show_messages()

    def _remember_job_root(self, value: str) -> None:
        """Keep the person's job root in Preferences as the default of new projects.

        Not in MCP mode: there the window may be driven by the client, and MCP never
        changes Preferences (SPEC.md section 7).
        """
        if self.ctx.mcp_mode or self.ctx.preferences.job_root == value:
            return
        from molforma.preferences import save_preferences

        prefs = self.ctx.preferences.model_copy(update={"job_root": value})
        try:
            save_preferences(prefs)
        except (OSError, MolFormaError) as exc:  # a read-only config folder: edit stands
            log.warning("job root not remembered: %s", exc)
            return
        self.ctx.preferences = prefs

    def _refuse(self, key: str, reason: str | MolFormaError) -> None:
        """Show why ``key`` was not stored (a window command's record gets the same error)."""
        outcome.refused(reason)
        self._local_errors[key] = error_text(reason) if isinstance(reason, MolFormaError) \
            else reason
        self.refresh()

    def _commit_command(self, key: str, edit: QLineEdit) -> None:
        if self._loading:
            return
        text = edit.text().strip()
        if not text:
            self._refuse(key, self.tr("Give a command (for example nwchem)."))
            return
        self._set(key, text)

    def _commit_job_root(self) -> None:
        if self._loading:
            return
        text = self.job_root_edit.text().strip()
        if not text:
            self._refuse("job_root", self.tr("Give a folder for the jobs."))
            return
        self._set("job_root", text)
        if "job_root" not in self._local_errors and hasattr(self.ctx, "reattach_batch_jobs"):
            self.ctx.reattach_batch_jobs(text)

    def _browse_program(self, key: str) -> None:
        path = dialogs.get_open_path(self, self.tr("Choose a program"),
                                     [self.tr("All files (*)")])
        if path:
            edit = self.executable_edit if key == "executable" else self.launcher_edit
            edit.setText(path)
            self._set(key, path)

    def _browse_dir(self, key: str) -> None:
        edit = self.job_root_edit if key == "job_root" else self.reference_dir_edit
        start = str(Path(edit.text()).expanduser()) if edit.text() else ""
        path = dialogs.get_directory(self, self.tr("Choose a folder"), start)
        if path:
            edit.setText(path)
            self._set(key, path)

    def _table_environment(self) -> tuple[dict[str, str], str | None]:
        env: dict[str, str] = {}
        for row in range(self.environment_table.rowCount()):
            name_item = self.environment_table.item(row, 0)
            value_item = self.environment_table.item(row, 1)
            name = name_item.text().strip() if name_item else ""
            value = value_item.text() if value_item else ""
            if not name:
                continue  # a row being filled in
            if not _ENV_NAME.match(name):
                return env, self.tr("Not a valid variable name: %1").replace("%1", name)
            if name in env:
                return env, self.tr("Variable given twice: %1").replace("%1", name)
            env[name] = value
        return env, None

    def _environment_edited(self, _item: QTableWidgetItem) -> None:
        if self._loading:
            return
        self._apply_table_environment()

    def _apply_table_environment(self) -> None:
        """Store the table's variables, or show why they cannot be stored."""
        env, problem = self._table_environment()
        if problem:
            outcome.refused(problem)
            self._local_errors["environment"] = problem
            self._show_messages()
            return
        self._set("environment", env)

    def add_environment_row(self) -> None:
        """Add an empty row and start editing its name."""
        self._loading = True
        try:
            row = self.environment_table.rowCount()
            self.environment_table.insertRow(row)
            self.environment_table.setItem(row, 0, QTableWidgetItem(""))
            self.environment_table.setItem(row, 1, QTableWidgetItem(""))
        finally:
            self._loading = False
        self.environment_table.setCurrentCell(row, 0)
        item = self.environment_table.item(row, 0)
        if item is not None:
            self.environment_table.editItem(item)

    def remove_environment_rows(self) -> None:
        """Remove the selected rows (the current row when none is selected)."""
        rows = rows_to_remove(self.environment_table)
        if not rows:
            return
        self._loading = True
        try:
            for r in rows:
                self.environment_table.removeRow(r)
        finally:
            self._loading = False
        self._apply_table_environment()

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
            for edit, key in ((self.executable_edit, "executable"),
                              (self.launcher_edit, "launcher"),
                              (self.job_root_edit, "job_root"),
                              (self.reference_dir_edit, "reference_dir")):
                text = str(ex.get(key) or "")
                if edit.text() != text:
                    edit.setText(text)
            self.processes_spin.setValue(int(ex.get("processes", 1) or 1))
            scheduler = str(ex.get("scheduler") or "local")
            profile = ex.get("remote_profile") or None
            self._fill_profiles(profile)
            index = self.scheduler_combo.findData(scheduler)
            if profile:
                # A chosen profile shows even beside scheduler local (a project written so):
                # the start then says it needs slurm, and choosing it again sets both.
                index = self.scheduler_combo.findData(profile, PROFILE_ROLE)
                scheduler = "slurm"
            self.scheduler_combo.setCurrentIndex(max(0, index))
            for edit, key in ((self.partition_edit, "partition"), (self.account_edit, "account"),
                              (self.qos_edit, "qos")):
                text = str(ex.get(key) or "")
                if edit.text() != text:
                    edit.setText(text)
            self.nodes_spin.setValue(int(ex.get("nodes", 1) or 1))
            self.tasks_spin.setValue(int(ex.get("tasksPerNode", 1) or 1))
            directives = shlex.join(str(d) for d in ex.get("batch_directives") or [])
            if self.directives_edit.text() != directives and \
                    "batch_directives" not in self._local_errors:
                self.directives_edit.setText(directives)
            self._show_scheduler(scheduler)
            self._batch_placeholders()
            self.threads_spin.setValue(int(ex.get("threads", 1) or 1))
            self.time_limit_spin.setValue(float(ex.get("time_limit") or 0.0))
            env = dict(ex.get("environment") or {})
            shown, problem = self._table_environment()
            if shown != env or problem:
                self.environment_table.setRowCount(0)
                for name, value in env.items():
                    row = self.environment_table.rowCount()
                    self.environment_table.insertRow(row)
                    self.environment_table.setItem(row, 0, QTableWidgetItem(name))
                    self.environment_table.setItem(row, 1, QTableWidgetItem(str(value)))
        finally:
            self._loading = False
        self._show_messages()
        self._update_buttons()

    def _update_buttons(self) -> None:
        running = self.job is not None and job_status(self.job) not in TERMINAL
        self.run_button.setEnabled(not running)
        self.stop_button.setEnabled(running)
        self.save_input_button.setEnabled(not running)

    # -- run / stop / save -------------------------------------------------------------------
    def _untrusted_text(self, project: dict[str, Any] | None = None) -> str:
        """The confirmation's text: every value that reaches the command line or the batch
        script, not only the protected ones, each shown with its control characters written
        out (a line break cannot push the rest of a value out of sight)."""
        if project is None:
            project = self.ctx.document.project
        ex = project.get("execution", {})
        calc = project.get("calculation", {})
        env = ex.get("environment") or {}
        none = self.tr("(none)")

        def value(v: Any, empty: str = none) -> str:
            return empty if v is None or v == "" else grammar.shown(v, 400)

        def row(label: str, v: Any, empty: str = none) -> str:
            return f"{label} {value(v, empty)}"

        limit = ex.get("time_limit")
        limit_text = self.tr("No limit") if not limit else f"{limit:g}{self.tr(' s')}"
        lines = [
            self.tr("These settings can run any program. They were not set by you in this "
                    "window (for example they come from a loaded project or a reused job)."),
            "",
            self.tr("Executable: %1").replace("%1", value(ex.get("executable", ""))),
            self.tr("Launcher: %1").replace("%1", value(ex.get("launcher", ""))),
            self.tr("Environment: %1").replace(
                "%1", ", ".join(f"{grammar.shown(k)}={grammar.shown(v, 400)}"
                                for k, v in env.items()) or none),
            self.tr("Extra input: %1").replace(
                "%1", json.dumps(calc.get("extra_input", ""), ensure_ascii=False)),
            self.tr("Extra tasks: %1").replace(
                "%1", "; ".join(grammar.shown(t, 400) for t in calc.get("extra_tasks") or [])
                or none),
            self.tr("Scheduler: %1").replace("%1", value(ex.get("scheduler") or "local")),
            *self._profile_lines(ex),
            self.tr("Account: %1").replace("%1", value(ex.get("account"))),
            self.tr("Extra batch options: %1").replace(
                "%1", " ".join(grammar.shown(d, 400)
                               for d in ex.get("batch_directives") or []) or none),
        ]
        if (ex.get("scheduler") or "local") == "slurm":
            from molforma.document.model import formula
            from molforma.jobs.runner import _task_slug

            atoms = (project.get("document") or {}).get("atoms") or []
            job_name = (f"molforma-<YYYYmmdd-HHMMSS>-{formula(atoms) or 'empty'}-"
                        f"{_task_slug(str(calc.get('task', 'energy')))}")
            lines += [
                row(self.tr("Partition:"), ex.get("partition"), self.tr("(cluster default)")),
                row(self.tr("QoS:"), ex.get("qos"), self.tr("(default)")),
                row(self.tr("Nodes:"), ex.get("nodes", 1)),
                row(self.tr("MPI processes per node:"), ex.get("tasksPerNode", 1)),
                row(self.tr("Threads (OMP_NUM_THREADS):"), ex.get("threads", 1)),
                f"{self.tr('Time limit:')} {limit_text}",
                self.tr("Job name: %1").replace("%1", job_name),
            ]
        else:
            lines += [
                row(self.tr("MPI processes:"), ex.get("processes", 1)),
                row(self.tr("Threads (OMP_NUM_THREADS):"), ex.get("threads", 1)),
                f"{self.tr('Time limit:')} {limit_text}",
            ]
        lines += [
            row(self.tr("Job root:"), ex.get("job_root")),
            "",
            self.tr("Run the calculation with these settings and trust them from now on?"),
        ]
        return "\n".join(lines)

    def _profile_lines(self, ex: dict[str, Any]) -> list[str]:
        """The confirmation's cluster profile and its host (from Preferences, read now:
        that is where the job goes)."""
        name = ex.get("remote_profile")
        if not name:
            return []
        host = dict(_profiles()).get(str(name))
        return [self.tr("Cluster profile: %1").replace("%1", grammar.shown(name, 400)),
                self.tr("Host (ssh): %1").replace(
                    "%1", grammar.shown(host, 400) if host is not None
                    else self.tr("(not in Preferences)"))]

    def retranslate_dynamic(self) -> None:
        """The progress line is rebuilt in the new language."""
        if self.job is not None:
            self.poll()

    def _outside_allowed_dirs(self, project: dict[str, Any] | None = None) -> str | None:
        """Why the job folder or an advanced path is outside the MCP allowed directories,
        when a window command of MCP pressed Run or Save (the person's own are free)."""
        from molforma.app.actor import window_actor
        from molforma.app.runs import check_folders

        try:
            check_folders(self.ctx.document.project if project is None else project,
                          getattr(self.ctx, "policy", None), window_actor())
        except MolFormaError as exc:  # the refusal is shown
            return error_text(exc)
        return None

    def _set_status(self, text: str, *, error: bool = False) -> None:
        """Show ``text`` under the buttons; refusals and failures in red (and, while a
        window command runs, in its record)."""
        if error:
            outcome.refused(text)
        self.status_label.setText(text)
        self.status_label.setProperty("error", error)
        self.status_label.setStyleSheet("color: #d03030;" if error else "")

    def run(self) -> None:
        """Start a calculation of the confirmed project (asking first about untrusted values)."""
        if self.job is not None and job_status(self.job) not in TERMINAL:
            return
        doc = self.ctx.document
        # What the person confirms and what runs is this snapshot, never the document
        # as it is after the question: MCP keeps working while the box is open.
        with doc.lock:
            project, revision, trusted = doc.project, doc.revision, dict(doc.trusted)
            has_candidate = doc.candidate is not None
        if has_candidate:
            self._set_status(self.tr("Confirm or cancel the candidate before running."), error=True)
            return
        from molforma.app.actor import window_actor
        from molforma.app.runs import check_run

        try:
            ask = check_run(project, trusted, policy=getattr(self.ctx, "policy", None),
                            actor=window_actor())
        except MolFormaError as exc:
            if exc.code == "untrusted_execution":
                # SPEC.md section 7: only the person confirms untrusted settings; a Run
                # pressed through MCP never shows (or waits on) the confirmation.
                self._set_status(self.tr("Not started: these execution settings were not "
                                         "chosen in this window, and only you can confirm "
                                         "them."), error=True)
            else:
                problems = exc.data.get("problems") if exc.code == "input_invalid" else None
                lines = [str(p.get("message") or p.get("code")) for p in problems or []]
                self._set_status(self.tr("Cannot run:") + "\n" + "\n".join(
                    lines or [error_text(exc)]), error=True)
            return
        if ask:
            yes, no = self.tr("Yes"), self.tr("No")
            answer = dialogs.ask(self, self.tr("Run with these settings?"),
                                 self._untrusted_text(project), [yes, no], default=no,
                                 escape=no, **_private_box())
            if answer != yes:
                self._set_status(self.tr("Not started: the settings were not confirmed."))
                return
            from molforma.app.runs import trust_confirmed

            if not trust_confirmed(doc, project, revision):
                self._set_status(self.tr(
                    "Not started: the project changed while the confirmation was open. "
                    "Press Run again to review the settings as they are now."), error=True)
                return
        jobs = self.ctx.jobs
        if jobs is None:
            self._set_status(self.tr("Running calculations is not available."), error=True)
            return
        try:
            job = jobs.start(project)
        except Exception as exc:  # noqa: BLE001 - any start failure is shown, not raised
            self._set_status(self.tr("Could not start: %1").replace("%1", error_text(exc)),
                             error=True)
            return
        self.follow(job)
        self.ctx.events.jobChanged.emit(job)

    def follow(self, job: Any) -> None:
        """Show ``job``'s log and progress until it ends."""
        self.job = job
        self._log_offset = 0
        self._log_decoder.reset()
        self.log_view.clear()
        self.energy_plot.set_energies([])
        self.progress_label.setText("")
        self._progress_limits = self._limits_of(job)
        self.progress_bar.setVisible(True)
        self.poll()
        if self.job is job and job_status(job) not in TERMINAL:
            self._timer.start()
        self._update_buttons()

    def _on_job_changed(self, job: Any) -> None:
        # A job started elsewhere (for example through MCP) is followed here too.
        if job is not None and job is not self.job:
            self.follow(job)

    def stop(self) -> None:
        """Cancel the running job."""
        if self.job is None:
            return
        try:
            self.job.cancel()
        except Exception as exc:  # noqa: BLE001 - shown, the poll will show the status
            self._set_status(self.tr("Could not stop: %1").replace("%1", error_text(exc)),
                             error=True)
        self.poll()

    def save_input_set(self) -> None:
        """Write the job folder (input, project snapshot, record) without running."""
        doc = self.ctx.document
        if doc.candidate is not None:
            self._set_status(self.tr("Confirm or cancel the candidate first."), error=True)
            return
        refused = self._outside_allowed_dirs()
        if refused:
            self._set_status(self.tr("Could not save the input set: %1").replace("%1", refused),
                             error=True)
            return
        jobs = self.ctx.jobs
        if jobs is None:
            self._set_status(self.tr("Running calculations is not available."), error=True)
            return
        try:
            path = jobs.save_input_set(doc.project)
        except Exception as exc:  # noqa: BLE001 - shown next to the buttons
            self._set_status(self.tr("Could not save the input set: %1").replace(
                "%1", error_text(exc)), error=True)
            return
        self.last_input_set = str(path)
        self._set_status(self.tr("Input set saved in %1").replace("%1", str(path)))

    # -- polling -----------------------------------------------------------------------------
    def _progress_text(self, status: str, progress: dict[str, Any]) -> str:
        parts = [self.tr("Status: %1").replace("%1", self._status_name(status))]
        if progress.get("scfIteration") is not None:
            parts.append(self.tr("SCF iteration %1").replace("%1", str(progress["scfIteration"])))
        if progress.get("optimizationStep") is not None:
            parts.append(self.tr("optimisation step %1").replace(
                "%1", str(progress["optimizationStep"])))
        if progress.get("energy") is not None:
            parts.append(self.tr("energy %1 Eh").replace("%1", f"{float(progress['energy']):.8f}"))
        return " · ".join(parts)

    def _limits_of(self, job: Any) -> dict[str, Any]:
        """What the bar counts for ``job``: from its project snapshot (a job started over
        MCP may differ from the document), else from the document."""
        from molforma.nwchem.progress import progress_limits

        project: Any = None
        directory = job_directory(job)
        if directory:
            try:
                project = json.loads((Path(directory) / "project.molforma.json").read_text(
                    encoding="utf-8"))
            except (OSError, ValueError):
                project = None
        if not isinstance(project, dict):
            project = self.ctx.document.project
        return progress_limits(project)

    def _show_progress_bar(self, progress: dict[str, Any]) -> None:
        limits = self._progress_limits
        maximum = int(limits["maximum"])
        if limits["kind"] == "optimization":
            value = progress.get("optimizationStep")
            fmt = self.tr("Optimisation step %v of %m")
        else:
            value = progress.get("scfIteration")
            fmt = self.tr("SCF cycle %v of %m")
        value = 0 if value is None else int(value)
        # A limit raised in extra input can be passed: widen the bar rather than clip.
        self.progress_bar.setRange(0, max(maximum, value))
        self.progress_bar.setValue(value)
        self.progress_bar.setFormat(fmt)
        self.progress_bar.setTextVisible(True)

    def _status_name(self, status: str) -> str:
        names = {
            "queued": self.tr("queued"), "running": self.tr("running"),
            "finished": self.tr("finished"), "failed": self.tr("failed"),
            "cancelled": self.tr("cancelled"), "timed_out": self.tr("timed out"),
        }
        return names.get(status, status)

    def poll(self) -> None:
        """Read the job's snapshot and output tail and show them (GUI thread)."""
        job = self.job
        if job is None:
            self._timer.stop()
            return
        snap = job_snapshot(job)
        status = job_status(job, snap)
        progress = snap.get("progress") or {}
        self.progress_label.setText(self._progress_text(status, progress))
        self._show_progress_bar(progress)
        energies = progress.get("energies") or []
        if energies:
            self.energy_plot.set_energies(energies)
        directory = job_directory(job, snap)
        self._append_new_output(directory)
        if status in TERMINAL:
            self._timer.stop()
            for _ in range(8):  # the end of a fast-growing output, bounded
                before = self._log_offset
                self._append_new_output(directory)
                if self._log_offset == before:
                    break
            text = self.tr("Job %1: %2").replace("%1", self._status_name(status)).replace(
                "%2", directory or "")
            if snap.get("error"):
                text += "\n" + str(snap["error"])
            self._set_status(text, error=status in ("failed", "timed_out")
                             or bool(snap.get("error")))
            self._update_buttons()
            self.jobFinished.emit(job)
            self._load_results(job, directory)
        elif snap.get("scheduler") == "slurm":
            text = self.tr("Batch job %1 (%2) in %3").replace(
                "%1", str(snap.get("nativeId") or "")).replace(
                "%2", self._status_name(status)).replace("%3", directory or "")
            if status == "queued" and snap.get("queueReason"):
                text += "\n" + self.tr("Waiting: %1").replace("%1", str(snap["queueReason"]))
            self._set_status(text)
            self._update_buttons()
        else:
            self._set_status(self.tr("Running in %1").replace("%1", directory or ""))
            self._update_buttons()

    def _append_new_output(self, directory: str | None) -> None:
        """Append what the job wrote to ``output.out`` since the last poll.

        Reading from the last offset keeps each poll cheap however long the output
        grows; the incremental decoder joins UTF-8 characters split between reads.
        """
        if not directory:
            return
        try:
            with (Path(directory) / "output.out").open("rb") as fh:
                fh.seek(self._log_offset)
                data = fh.read(LOG_READ_BYTES)
        except OSError:
            return  # not written yet
        if not data:
            return
        self._log_offset += len(data)
        text = self._log_decoder.decode(data)
        if not text:
            return
        bar = self.log_view.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 2
        cursor = QTextCursor(self.log_view.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(text)
        if at_end:
            bar.setValue(bar.maximum())

    def log_text(self) -> str:
        """The log shown now."""
        return self.log_view.toPlainText()

    def _load_results(self, job: Any, directory: str | None) -> None:
        if job is self._results_loaded_for or not directory:
            return
        self._results_loaded_for = job
        if not (Path(directory) / "output.out").exists():
            return
        results = self.ctx.results
        if results is None:
            return
        from molforma.gui.widgets.panel_workers import watch_load

        try:
            handle = results.open_directory(directory)
        except Exception as exc:  # noqa: BLE001 - the job ended anyway; say why no results
            self._set_status(self.status_label.text() + "\n" + error_text(exc))
            return
        watch_load(self, handle, lambda _ok, _err: self.ctx.events.resultsChanged.emit())
