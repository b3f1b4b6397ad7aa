"""The History tab's actions on the selected job: reuse it, use its final structure, open
it in Results, move it to the trash, and export the table as CSV (Qt layer)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QTabWidget, QWidget

from molforma.app.actor import window_actor
from molforma.gui import dialogs
from molforma.gui.widgets.history_support import (
    HistoryPanelHost,
    _mcp_guard,
    _row_value,
    check_path,
)
from molforma.gui.widgets.panel_workers import (
    QT_TRANSLATE_NOOP,
    failure_text,
    reports_errors,
    watch_load,
)
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma import history
    from molforma.app import job_reuse
else:  # imported on first use (start-up time): molforma.lazy
    job_reuse = lazy_import("molforma.app.job_reuse")
    history = lazy_import("molforma.history")


def _refused(template: str | None = None) -> Callable[[HistoryActions, BaseException], None]:
    """Show a failure as the tab's refusal: ``template`` with the reason, or the error."""

    def show(actions: HistoryActions, exc: BaseException) -> None:
        actions.panel._refuse(failure_text("HistoryPanel", template, exc) if template else exc)

    return show


class HistoryActions:
    """Runs the actions of the History tab's buttons on the selected job.

    The table, the selection and the status line stay on the tab (``self.panel``).
    """

    def __init__(self, panel: HistoryPanelHost, parent: QWidget) -> None:
        self.panel = panel
        self.parent = parent  # the Qt parent of the question and the results load

    def reuse_selected(self) -> bool:
        """Load the selected job's molecule and conditions (one undo step, not trusted)."""
        folder = self.panel._checked_selection()
        if folder is None:
            return False
        geometry = str(self.panel.reuse_geometry_combo.currentData() or "input")
        if not self._reuse(folder, "final" if geometry == "final" else "input"):
            return False
        text = (
            QCoreApplication.translate(
                "HistoryPanel", "Loaded the molecule (final geometry) and conditions of %1"
            )
            if geometry == "final"
            else QCoreApplication.translate(
                "HistoryPanel", "Loaded the molecule and conditions of %1"
            )
        )
        self.panel.status_label.setText(text.replace("%1", folder))
        return True

    @reports_errors(_refused(QT_TRANSLATE_NOOP("HistoryPanel", "Cannot reuse: %1")), returns=False)
    def _reuse(self, folder: str, geometry: Literal["input", "final"]) -> bool:
        job_reuse.reuse_job(self.panel.ctx, folder, geometry=geometry, actor=window_actor())
        return True

    def use_final_structure(self) -> bool:
        """Put the selected job's final structure into the editor as a candidate (the
        conditions stay as they are); atoms keep their ids when the elements match."""
        folder = self.panel._checked_selection()
        if folder is None or not self._use_final(folder):
            return False
        self.panel.status_label.setText(
            QCoreApplication.translate(
                "HistoryPanel",
                "The final structure of %1 is a candidate in the Molecule tab: confirm or cancel "
                "it there.",
            ).replace("%1", folder)
        )
        return True

    @reports_errors(
        _refused(QT_TRANSLATE_NOOP("HistoryPanel", "Cannot use the structure: %1")), returns=False
    )
    def _use_final(self, folder: str) -> bool:
        job_reuse.use_final_structure(self.panel.ctx, folder, actor=window_actor())
        return True

    def open_selected_in_results(self) -> bool:
        """Load the selected job folder into the Results tab and show that tab."""
        folder = self.panel._checked_selection()
        if folder is None:
            return False
        results = self.panel.ctx.results
        if results is None:
            self.panel._refuse(
                QCoreApplication.translate("HistoryPanel", "The results viewer is not available.")
            )
            return False
        handle = self._open_directory(results, folder)
        if handle is None:
            return False

        def done(ok: bool, err: Any = None) -> None:
            self.panel.ctx.events.resultsChanged.emit()
            if not ok and err is not None:
                self.panel._refuse(err)

        watch_load(self.parent, handle, done)
        self._show_results_tab()
        return True

    @reports_errors(_refused(), returns=None)
    def _open_directory(self, results: Any, folder: str) -> Any:
        # In MCP mode every results load is judged file by file, as the Results tab's own
        # are: what it loads, get_results can read.
        policy = getattr(self.panel.ctx, "policy", None)
        guard = {} if policy is None else {"guard": policy.read_guard()}
        return results.open_directory(folder, **guard)

    def _show_results_tab(self) -> None:
        w: QWidget | None = self.panel.parentWidget()
        while w is not None:
            if isinstance(w, QTabWidget) and w.objectName() == "mainTabs":
                for i in range(w.count()):
                    tab = w.widget(i)
                    if tab is not None and tab.objectName() == "resultsTab":
                        w.setCurrentIndex(i)
                        return
            w = w.parentWidget()

    def trash_selected(self) -> bool:
        """Move the selected job folder to the trash after asking."""
        folder = self.panel._checked_selection()
        if folder is None:
            return False
        yes = QCoreApplication.translate("HistoryPanel", "Move to trash")
        no = QCoreApplication.translate("HistoryPanel", "Cancel")
        answer = dialogs.ask(
            self.parent,
            QCoreApplication.translate("HistoryPanel", "Move to trash"),
            QCoreApplication.translate(
                "HistoryPanel", "Move this job folder to the trash?\n%1"
            ).replace("%1", folder),
            [yes, no],
            default=no,
            escape=no,
        )
        if answer != yes or not self._move_to_trash(folder):
            return False
        panel = self.panel
        panel.status_label.setText(
            QCoreApplication.translate("HistoryPanel", "Moved to trash: %1").replace("%1", folder)
        )
        panel.rows = [
            r
            for r in panel.rows
            if str(_row_value(r, "folder")) != folder
            and os.path.realpath(str(_row_value(r, "folder"))) != folder
        ]
        panel.set_rows(panel.rows)
        panel._selection_changed()
        return True

    @reports_errors(
        _refused(QT_TRANSLATE_NOOP("HistoryPanel", "Cannot move to trash: %1")), returns=False
    )
    def _move_to_trash(self, folder: str) -> bool:
        history.move_to_trash(folder, guard=_mcp_guard(self.panel.ctx))
        return True

    def export_csv(self, path: str | None = None) -> str | None:
        """Write the table as CSV to ``path`` (asked for when None); returns the path."""
        if path is None:
            path = dialogs.get_save_path(
                self.parent,
                QCoreApplication.translate("HistoryPanel", "Export history as CSV"),
                [QCoreApplication.translate("HistoryPanel", "CSV files (*.csv)")],
                str(Path.home() / "molforma-history.csv"),
            )
            if not path:
                return None
        written = self._export(path)
        if written is not None:
            self.panel.status_label.setText(
                QCoreApplication.translate("HistoryPanel", "Exported %1 rows to %2")
                .replace("%1", str(len(self.panel.rows)))
                .replace("%2", written)
            )
        return written

    @reports_errors(_refused(QT_TRANSLATE_NOOP("HistoryPanel", "Cannot export: %1")), returns=None)
    def _export(self, path: str) -> str | None:
        checked = check_path(self.panel.ctx, path, for_write=True)

        history.export_csv(self.panel.rows, checked, guard=_mcp_guard(self.panel.ctx))
        return checked
