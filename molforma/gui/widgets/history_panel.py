"""History tab: past jobs under the job root and the reference directory.

The table comes from :class:`molforma.history.HistoryScanner` (a background scan,
polled with a QTimer); the input and log preview of the selected row is read in a
:class:`BackgroundCall`. The actions reuse a job's molecule and conditions (one
undoable step, values not trusted), open it in the Results tab, open its folder,
move it to the trash and export the table as CSV. In MCP mode every folder touched
is checked against the allowed directories first.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from molforma.errors import MolFormaError
from molforma.gui import outcome
from molforma.gui.widgets.history_actions import HistoryActions
from molforma.gui.widgets.history_support import _mcp_guard, _row_value, check_path
from molforma.gui.widgets.history_texts import status_name, where_details, where_name
from molforma.gui.widgets.panel_workers import (
    BackgroundCall,
    Retranslatable,
    error_text,
    reports_errors,
    unique_internal_names,
)
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.gui.widgets import calculation_panel
    from molforma.history import folder_scan
else:  # imported on first use (start-up time): molforma.lazy
    calculation_panel = lazy_import("molforma.gui.widgets.calculation_panel")
    folder_scan = lazy_import("molforma.history.folder_scan")

log = logging.getLogger(__name__)

COLUMNS = (
    "date",
    "title",
    "formula",
    "task",
    "theoryBasis",
    "status",
    "finalEnergy",
    "charge",
    "multiplicity",
    "where",
    "folder",
)
POLL_MS = 100
ROW_ROLE = Qt.ItemDataRole.UserRole + 1


def open_url(url: QUrl) -> bool:
    """Open ``url`` with the desktop (a module function so tests can replace it)."""
    return QDesktopServices.openUrl(url)


def _refuse_reason(panel: HistoryPanel, exc: BaseException) -> None:
    panel._refuse(exc)


def _instead_of_preview(panel: HistoryPanel, exc: BaseException) -> None:
    panel.preview_input.setPlainText(error_text(exc))


class HistoryPanel(Retranslatable, QWidget):
    """The table of past jobs and the actions on the selected one."""

    scanFinished = Signal()

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("historyTab")
        self.ctx = ctx
        self.job_actions = HistoryActions(self, self)  # what the buttons do to the selected job
        self.rows: list[Any] = []
        self.scan_handle: Any | None = None
        self._scanned_once = False

        self.scanner = folder_scan.HistoryScanner()
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll_scan)
        self._preview_call = BackgroundCall(self)
        self._preview_call.done.connect(self._show_preview)
        self._preview_call.failed.connect(self._preview_failed)
        self._build()
        self._update_buttons()
        events = getattr(ctx, "events", None)
        if events is not None and hasattr(events, "jobChanged"):
            events.jobChanged.connect(self._job_changed)

    def _job_changed(self, job: Any) -> None:
        """A job that started or ended (a re-attached batch job too) changes the list."""
        status = str(getattr(job, "status", ""))
        if self._scanned_once and not self.scanning and status != "running":
            self.scan()

    # -- construction ----------------------------------------------------------------------
    def _build(self) -> None:
        top = QHBoxLayout()
        self.scan_button = self.button(lambda: self.tr("Scan"), "historyScan")
        self.status_label = QLabel(self)
        self.status_label.setObjectName("historyStatus")
        self.status_label.setWordWrap(True)
        top.addWidget(self.scan_button)
        top.addWidget(self.status_label, 1)
        self._build_table()
        self._build_preview_tabs()
        actions = self._build_actions()  # made in this order: the focus follows it

        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setObjectName("historySplitter")
        splitter.addWidget(self.table)
        splitter.addWidget(self._build_where_and_preview())
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(splitter, 1)
        lay.addLayout(actions)

        self.scan_button.clicked.connect(self.scan)
        self.reuse_button.clicked.connect(self.reuse_selected)
        self.use_final_button.clicked.connect(self.use_final_structure)
        self.open_results_button.clicked.connect(self.open_selected_in_results)
        self.open_folder_button.clicked.connect(self.open_selected_folder)
        self.trash_button.clicked.connect(self.trash_selected)
        self.export_button.clicked.connect(lambda: self.export_csv())

    def _build_table(self) -> None:
        """The table of past jobs, newest first."""
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("historyTable")
        self.bind_text(
            lambda: self.table.setHorizontalHeaderLabels(
                [
                    self.tr("Date"),
                    self.tr("Title"),
                    self.tr("Formula"),
                    self.tr("Task"),
                    self.tr("Theory / basis"),
                    self.tr("Status"),
                    self.tr("Final energy (Eh)"),
                    self.tr("Charge"),
                    self.tr("Mult."),
                    self.tr("Ran on"),
                    self.tr("Folder"),
                ]
            )
        )
        self.bind_text(self._header_tips)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setVisible(False)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.DescendingOrder)  # newest first
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.table.itemDoubleClicked.connect(lambda _item: self.open_selected_in_results())

    def _build_preview_tabs(self) -> None:
        """The preview of the selected job's input and log."""
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.preview_tabs = QTabWidget(self)
        self.preview_tabs.setObjectName("historyPreviewTabs")
        self.preview_input = QPlainTextEdit(self.preview_tabs)
        self.preview_input.setObjectName("historyPreviewInput")
        self.preview_log = QPlainTextEdit(self.preview_tabs)
        self.preview_log.setObjectName("historyPreviewLog")
        for w in (self.preview_input, self.preview_log):
            w.setReadOnly(True)
            w.setFont(mono)
            w.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.preview_tabs.addTab(self.preview_input, "")
        self.preview_tabs.addTab(self.preview_log, "")
        self.bind_text(lambda: self.preview_tabs.setTabText(0, self.tr("Input")))
        self.bind_text(lambda: self.preview_tabs.setTabText(1, self.tr("Log (end)")))
        unique_internal_names(self.preview_tabs)

    def _build_where_and_preview(self) -> QWidget:
        """Where the selected job ran, over the preview of its input and log."""
        # Where the selected job ran (and, for a remote one, a lost connection and the
        # files left on the cluster), over its preview.
        self.where_label = QLabel(self)
        self.where_label.setObjectName("historyWhere")
        self.where_label.setWordWrap(True)
        self.where_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.where_label.setTextFormat(Qt.TextFormat.PlainText)  # record text, never markup
        self.where_label.setVisible(False)
        below = QWidget(self)
        below_lay = QVBoxLayout(below)
        below_lay.setContentsMargins(0, 0, 0, 0)
        below_lay.addWidget(self.where_label)
        below_lay.addWidget(self.preview_tabs, 1)
        return below

    def _build_actions(self) -> QHBoxLayout:
        """The buttons of the actions on the selected job, and Export CSV."""
        self.reuse_button = self.button(
            lambda: self.tr("Reuse molecule and conditions"), "historyReuse"
        )
        self.reuse_geometry_combo = QComboBox(self)
        self.reuse_geometry_combo.setObjectName("historyReuseGeometry")
        self.reuse_geometry_combo.addItem("", "input")
        self.reuse_geometry_combo.addItem("", "final")
        self.bind_text(self._reuse_geometry_texts)
        self.use_final_button = self.button(
            lambda: self.tr("Use final structure"), "historyUseFinalButton"
        )
        self.bind_text(
            lambda: self.use_final_button.setToolTip(
                self.tr(
                    "Put the job's final computed structure into the editor as a candidate, keeping "
                    "the current conditions"
                )
            )
        )
        self.open_results_button = self.button(
            lambda: self.tr("Open in results viewer"), "historyOpenResults"
        )
        self.open_folder_button = self.button(lambda: self.tr("Open folder"), "historyOpenFolder")
        self.trash_button = self.button(lambda: self.tr("Move to trash"), "historyTrash")
        self.export_button = self.button(lambda: self.tr("Export CSV…"), "historyExportCsv")
        actions = QHBoxLayout()
        actions.addWidget(self.reuse_button)
        actions.addWidget(self.reuse_geometry_combo)
        actions.addWidget(self.use_final_button)
        for b in (self.open_results_button, self.open_folder_button, self.trash_button):
            actions.addWidget(b)
        actions.addStretch(1)
        actions.addWidget(self.export_button)
        return actions

    def _reuse_geometry_texts(self) -> None:
        combo = self.reuse_geometry_combo
        combo.setItemText(0, self.tr("with the input geometry"))
        combo.setItemText(1, self.tr("with the final geometry"))
        combo.setToolTip(
            self.tr(
                "Reuse the job's input geometry, or the last structure of "
                "its output (the optimised one)"
            )
        )

    def _header_tips(self) -> None:
        tips = {
            "charge": self.tr("Molecular charge of the job"),
            "multiplicity": self.tr("Spin multiplicity (2S+1) of the job"),
            "where": self.tr(
                "Where the job ran: this computer, the local SLURM, or a "
                "cluster profile and its host"
            ),
        }
        for key, tip in tips.items():
            item = self.table.horizontalHeaderItem(COLUMNS.index(key))
            if item is not None:
                item.setToolTip(tip)

    def showEvent(self, event: Any) -> None:  # Qt override
        """The first time the tab is shown, list the jobs."""
        super().showEvent(event)
        if not self._scanned_once:
            self._scanned_once = True
            QTimer.singleShot(0, self.scan)

    # -- scanning ----------------------------------------------------------------------------
    def roots(self) -> list[str]:
        """The folders scanned: the job root and the reference directory."""
        ex = self.ctx.document.project.get("execution", {})
        out = []
        for key in ("job_root", "reference_dir"):
            value = ex.get(key)
            if value:
                out.append(str(value))
        return out

    def scan(self) -> None:
        """Start scanning the job root and reference directory in the background."""
        self._scanned_once = True
        roots = self.roots()
        checked: list[str] = []
        for r in roots:  # a refused root is reported, the others scan
            root = self._checked(r)
            if root is not None:
                checked.append(root)
        if not checked:
            if not roots:
                self._refuse(self.tr("No job root is set."))
            return
        self.scan_handle = self.scanner.start(checked, guard=_mcp_guard(self.ctx))
        self.status_label.setText(self.tr("Scanning %1 …").replace("%1", ", ".join(checked)))
        self.scan_button.setEnabled(False)
        self._timer.start()

    def _refuse(self, reason: Any) -> None:
        """Show why an action did nothing; a running window command's record carries it."""
        text = error_text(reason) if isinstance(reason, BaseException) else str(reason)
        outcome.refused(reason if isinstance(reason, MolFormaError) else text)
        self.status_label.setText(text)

    @property
    def scanning(self) -> bool:
        """True while a scan started here is running or its rows are not shown yet."""
        return self.scan_handle is not None and (
            not self.scan_handle.done or self._timer.isActive()
        )

    def _poll_scan(self) -> None:
        handle = self.scan_handle
        if handle is None:
            self._timer.stop()
            return
        if not handle.done:
            self.status_label.setText(self.tr("Scanning… %n folder(s)", "", handle.progress))
            return
        self._timer.stop()
        self.scan_button.setEnabled(True)
        if handle.status == "finished":
            self.set_rows(handle.rows)
            self.status_label.setText(
                self.tr("%n job(s) in %1", "", len(handle.rows)).replace(
                    "%1", ", ".join(handle.roots)
                )
            )
        elif handle.status == "cancelled":
            self.status_label.setText(self.tr("Scan cancelled."))
        else:
            self._refuse(
                self.tr("Scan failed: %1").replace(
                    "%1", error_text(handle.error) if handle.error else ""
                )
            )
        self.scanFinished.emit()

    def set_rows(self, rows: list[Any]) -> None:
        """Fill the table with history rows (``HistoryRow`` models or dicts)."""
        selected = self.selected_folder()
        self.rows = list(rows)
        self.table.setSortingEnabled(False)
        self.table.clearContents()
        self.table.setRowCount(len(self.rows))
        for i, row in enumerate(self.rows):
            theory = str(_row_value(row, "theory") or "")
            functional = str(_row_value(row, "functional") or "")
            if functional and theory == "dft":
                theory = f"{theory} ({functional})"
            basis = str(_row_value(row, "basis") or "")
            energy = _row_value(row, "finalEnergy")
            date = str(_row_value(row, "date") or "")
            values = [
                _local_time(date),
                str(_row_value(row, "title") or ""),
                str(_row_value(row, "formula") or ""),
                _task_name(str(_row_value(row, "task") or "")),
                f"{theory} / {basis}" if basis else theory,
                status_name(str(_row_value(row, "status") or "")),
                f"{float(energy):.8f}" if energy is not None else "",
                _number_text(_row_value(row, "charge")),
                _number_text(_row_value(row, "multiplicity")),
                where_name(row),
                str(_row_value(row, "folder") or ""),
            ]
            for col, text in enumerate(values):
                item = QTableWidgetItem(text)
                item.setData(ROW_ROLE, i)
                if col == 0 and date:
                    item.setToolTip(date)  # the exact time as recorded
                if col == COLUMNS.index("where"):
                    item.setToolTip(where_details(row))
                if col in (COLUMNS.index("charge"), COLUMNS.index("multiplicity")) and text:
                    item.setData(Qt.ItemDataRole.EditRole, int(text))  # sorts as a number
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                if col == COLUMNS.index("finalEnergy") and energy is not None:
                    item.setData(Qt.ItemDataRole.EditRole, float(energy))
                    item.setData(Qt.ItemDataRole.DisplayRole, f"{float(energy):.8f}")
                self.table.setItem(i, col, item)
        self.table.setSortingEnabled(True)
        self.table.resizeColumnsToContents()
        if selected:
            self.select_folder(selected)
        self._update_buttons()

    def retranslate_dynamic(self) -> None:
        """Status names in the table follow the new language."""
        if self.rows:
            self.set_rows(self.rows)
        row = self.selected_row()
        if row is not None:
            self.where_label.setText(where_details(row))

    # -- selection ---------------------------------------------------------------------------
    def selected_row(self) -> Any | None:
        """The history row of the selected table line, or None."""
        items = self.table.selectedItems()
        if not items:
            return None
        idx = items[0].data(ROW_ROLE)
        if idx is None or not 0 <= int(idx) < len(self.rows):
            return None
        return self.rows[int(idx)]

    def selected_folder(self) -> str | None:
        """The folder of the selected row, or None."""
        row = self.selected_row()
        return str(_row_value(row, "folder")) if row is not None else None

    def select_index(self, index: int) -> None:
        """Select table line ``index`` (0-based, in the order shown)."""
        if 0 <= index < self.table.rowCount():
            self.table.selectRow(index)

    def select_folder(self, folder: str) -> bool:
        """Select the line of ``folder``; False when it is not listed."""
        for line in range(self.table.rowCount()):
            item = self.table.item(line, 0)
            idx = item.data(ROW_ROLE) if item else None
            if idx is not None and str(_row_value(self.rows[int(idx)], "folder")) == folder:
                self.table.selectRow(line)
                return True
        return False

    def _update_buttons(self) -> None:
        has = self.selected_row() is not None
        for b in (
            self.reuse_button,
            self.open_results_button,
            self.open_folder_button,
            self.trash_button,
            self.use_final_button,
        ):
            b.setEnabled(has)
        self.export_button.setEnabled(bool(self.rows))

    def _selection_changed(self) -> None:
        self._update_buttons()
        folder = self.selected_folder()
        self.preview_input.clear()
        self.preview_log.clear()
        row = self.selected_row()
        details = where_details(row) if row is not None else ""
        self.where_label.setText(details)
        self.where_label.setVisible(bool(details))
        if folder is None:
            self._preview_call.discard()
            return
        checked = self._checked_for_preview(folder)
        if checked is None:
            return

        self.preview_input.setPlainText(self.tr("Loading…"))
        guard = _mcp_guard(self.ctx)
        self._preview_call.start(lambda: folder_scan.preview(checked, guard=guard))

    def _show_preview(self, data: Any) -> None:
        text = str(data.get("input") or "")
        if data.get("inputTruncated"):
            text += "\n" + self.tr("[… input shortened …]")
        logtext = str(data.get("log") or "")
        if data.get("logTruncated"):
            logtext = self.tr("[… only the end of the log is shown …]") + "\n" + logtext
        self.preview_input.setPlainText(text or self.tr("(no input file)"))
        self.preview_log.setPlainText(logtext or self.tr("(no output file)"))
        self.preview_log.verticalScrollBar().setValue(
            self.preview_log.verticalScrollBar().maximum()
        )

    def _preview_failed(self, exc: Any) -> None:
        self.preview_input.setPlainText(error_text(exc))

    # -- actions -----------------------------------------------------------------------------
    def _checked_selection(self) -> str | None:
        folder = self.selected_folder()
        return None if folder is None else self._checked(folder)

    @reports_errors(_refuse_reason, returns=None)
    def _checked(self, path: str) -> str:
        """``path`` as :func:`check_path` judges it; a refusal is shown (None then)."""
        return check_path(self.ctx, path)

    @reports_errors(_instead_of_preview, returns=None)
    def _checked_for_preview(self, folder: str) -> str:
        """``folder`` checked, or None with the refusal shown instead of the preview."""
        return check_path(self.ctx, folder)

    def open_selected_folder(self) -> bool:
        """Open the selected job folder in the desktop's file manager."""
        folder = self._checked_selection()
        if folder is None:
            return False
        ok = open_url(QUrl.fromLocalFile(folder))
        if not ok:
            self._refuse(self.tr("Could not open %1").replace("%1", folder))
        return bool(ok)

    # -- the actions (HistoryActions), under the names the window and its tests use
    def reuse_selected(self) -> bool:
        return self.job_actions.reuse_selected()

    def use_final_structure(self) -> bool:
        return self.job_actions.use_final_structure()

    def open_selected_in_results(self) -> bool:
        return self.job_actions.open_selected_in_results()

    def trash_selected(self) -> bool:
        return self.job_actions.trash_selected()

    def export_csv(self, path: str | None = None) -> str | None:
        return self.job_actions.export_csv(path)


def _number_text(value: Any) -> str:
    """A whole number as a cell text ('' when unknown)."""
    return "" if value is None or isinstance(value, bool) else str(int(value))


def _local_time(iso: str) -> str:
    """``2026-11-29T23:06:33+00:00`` as ``2026-11-29 23:06`` in local time (sorts as text)."""
    try:
        when = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if when.tzinfo is not None:
        when = when.astimezone()
    return when.strftime("%Y-%m-%d %H:%M")


def _task_name(task: str) -> str:
    """A task key in the words of the Calculation tab (in the display language)."""
    label = calculation_panel.TASK_LABELS.get(task)
    return QApplication.translate("CalculationPanel", label) if label else task
