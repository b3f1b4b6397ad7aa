"""What the Execution tab's parts share: its constants and the job and profile helpers\n(Qt layer)."""

from __future__ import annotations

import inspect
import re
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import Qt

from molforma.gui import dialogs
from molforma.gui.running_jobs import job_snapshot
from molforma.preferences import load_preferences

POLL_MS = 250
LOG_MAX_LINES = 20_000  # lines the log view keeps; the full output stays in the job folder
LOG_READ_BYTES = 1 << 20  # at most this much new output is shown per poll
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Protected batch fields (docs/reference/safety.md, Protected settings): like the launcher, MCP must not drive them.
PROTECTED_BATCH_WIDGETS = ("schedulerCombo", "accountEdit", "batchDirectivesEdit")
# The "Run on" choice: its data is the scheduler ("local" or "slurm"); a cluster profile's
# item (scheduler slurm) holds the profile's name under this role.
PROFILE_ROLE = Qt.ItemDataRole.UserRole + 1

if TYPE_CHECKING:
    from codecs import BufferedIncrementalDecoder

    from PySide6.QtCore import QTimer, SignalInstance
    from PySide6.QtWidgets import (
        QComboBox,
        QDoubleSpinBox,
        QFormLayout,
        QLabel,
        QLineEdit,
        QPlainTextEdit,
        QProgressBar,
        QPushButton,
        QSpinBox,
        QTableWidget,
        QWidget,
    )

    from molforma.errors import MolFormaError
    from molforma.gui.widgets.plots import EnergyPlot


def _profiles() -> list[tuple[str, str]]:
    """(name, host) of the person's cluster profiles, read from Preferences now: profiles
    saved by the Preferences dialog or added to preferences.json by hand both show."""
    return [(p.name, p.host) for p in load_preferences().profiles]


def _profile(name: str) -> Any:
    """The person's profile ``name`` (None when Preferences lack it)."""
    return load_preferences().profile(name)


def _private_box() -> dict[str, Any]:
    """``private=True`` when :func:`dialogs.ask` supports it.

    docs/reference/safety.md, Trusted values: MCP can neither read nor press the trust confirmation, so
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


class ExecutionPanelHost(Protocol):
    """What the Execution tab's parts (settings, runs, status) use of the tab: its
    widgets, its state and a few of its methods. A protocol rather than an import of
    :class:`~molforma.gui.widgets.execution_panel.ExecutionPanel`, which imports them."""

    ctx: Any
    job: Any | None
    jobFinished: SignalInstance
    last_input_set: str
    _loading: bool
    _local_errors: dict[str, str]
    _messages: dict[str, QLabel]
    _profile_items: list[tuple[str, str | None]]
    _progress_limits: dict[str, Any]
    _results_loaded_for: Any | None
    _log_decoder: BufferedIncrementalDecoder
    _log_offset: int
    _timer: QTimer
    # Widgets (ExecutionPanel._build).
    _processes_row: QWidget
    _resources_form: QFormLayout
    account_edit: QLineEdit
    batch_box: QWidget
    directives_edit: QLineEdit
    energy_plot: EnergyPlot
    environment_table: QTableWidget
    executable_edit: QLineEdit
    executable_browse: QPushButton
    launcher_browse: QPushButton
    environment_add: QPushButton
    environment_remove: QPushButton
    processes_spin: QSpinBox
    threads_spin: QSpinBox
    time_limit_spin: QDoubleSpinBox
    job_root_browse: QPushButton
    reference_dir_browse: QPushButton
    job_root_edit: QLineEdit
    launcher_edit: QLineEdit
    log_view: QPlainTextEdit
    partition_edit: QLineEdit
    progress_bar: QProgressBar
    progress_label: QLabel
    qos_edit: QLineEdit
    reference_dir_edit: QLineEdit
    scheduler_combo: QComboBox
    status_label: QLabel

    def _set_status(self, text: str, *, error: bool = False) -> None: ...
    def _update_buttons(self) -> None: ...
    def _refuse(self, key: str, reason: str | MolFormaError) -> None: ...
    def _status_name(self, status: str) -> str: ...
    def _untrusted_text(self, project: dict[str, Any] | None = None) -> str: ...
    def poll(self) -> None: ...
    def refresh(self, *_args: Any) -> None: ...
