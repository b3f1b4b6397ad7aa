"""The window's File menu: new, open (structures, projects, results), recent files, save,
save as and export, with the unsaved-changes question (Qt layer)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtWidgets import (
    QMenu,
    QWidget,
)

from molforma import file_formats
from molforma.app import files, ops
from molforma.app.actor import check_path, window_actor
from molforma.app.files import opens_as_results
from molforma.document.changes import Change
from molforma.errors import MolFormaError
from molforma.fileio import atomic_write_text
from molforma.gui import dialogs
from molforma.gui.context import AppContext
from molforma.gui.window_panels import WindowPanels, tr_main
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    pass
    from molforma import recent_files
    from molforma.gui.widgets import structure_choice
else:  # imported on first use (start-up time): molforma.lazy
    recent_files = lazy_import("molforma.recent_files")
    structure_choice = lazy_import("molforma.gui.widgets.structure_choice")

from PySide6.QtCore import QCoreApplication

log = logging.getLogger(__name__)

PROJECT_SUFFIX = ".molforma.json"
# File → Open's filters; Export…'s come from the same table (molforma.file_formats).
OPEN_FILTER_PATTERNS = file_formats.open_patterns()
RESULT_FILTER_PATTERNS = file_formats.result_patterns()


class FilesWindow(Protocol):
    """What the File commands use of the main window (a protocol: the window imports
    this module)."""

    ctx: AppContext
    source_name: str | None
    recent_menu: QMenu
    panels: WindowPanels

    def report_error(self, title: str, exc: BaseException | str) -> None: ...
    def show_status(self, message: str | Callable[[], str], timeout_ms: int = 8000) -> None: ...
    def show_tab(self, name: str) -> None: ...
    def _document_changed(self, change: Change) -> None: ...
    def _confirm_discard(self) -> bool: ...


class WindowFiles:
    """Runs File → New, Open, Open Recent, Save, Save As and Export for the window."""

    def __init__(self, window: FilesWindow, parent: QWidget) -> None:
        self.window = window
        self.parent = parent  # the dialogs' parent: the window itself

    def _fill_recent_menu(self) -> None:
        """One action per recent file (objectName ``molforma.file.recent.N``) and Clear."""
        self.window.recent_menu.clear()
        paths = recent_files.load_recent()
        for n, path in enumerate(paths):
            act = self.window.recent_menu.addAction(f"&{(n + 1) % 10} {Path(path).name}")
            act.setObjectName(f"molforma.file.recent.{n}")
            act.setToolTip(path)
            act.setStatusTip(path)
            act.triggered.connect(lambda _c=False, p=path: self.open_recent(p))
        if paths:
            self.window.recent_menu.addSeparator()
        clear = self.window.recent_menu.addAction(
            QCoreApplication.translate("MainWindow", "Clear Recent Files")
        )
        clear.setObjectName("molforma.file.recent.clear")
        clear.setEnabled(bool(paths))
        clear.triggered.connect(self._clear_recent)
        self.window.recent_menu.setEnabled(bool(paths))

    def open_recent(self, path: str) -> bool:
        """Open a file of the recent list (it may have gone since)."""
        if not Path(path).exists():
            self.window.report_error(
                QCoreApplication.translate("MainWindow", "Cannot open file"),
                QCoreApplication.translate("MainWindow", "%1 no longer exists.").replace(
                    "%1", path
                ),
            )
            return False
        if opens_as_results(path) or self.window._confirm_discard():
            return self.open_path(path)
        return False

    def _remember(self, path: str) -> None:
        try:
            recent_files.add_recent(path)
        except OSError as exc:  # a read-only configuration folder must not stop an open
            log.warning("recent files not saved: %s", exc)
        self._fill_recent_menu()

    def _clear_recent(self) -> None:
        try:
            recent_files.clear_recent()
        except OSError as exc:
            log.warning("recent files not cleared: %s", exc)
        self._fill_recent_menu()

    def _confirm_discard(self) -> bool:
        """True when there is nothing unsaved, or the person saved or chose to discard."""
        doc = self.window.ctx.document
        if self.window.ctx.mcp_mode or not (doc.modified or doc.candidate is not None):
            return True
        save, discard, cancel = (
            QCoreApplication.translate("MainWindow", "Save"),
            QCoreApplication.translate("MainWindow", "Discard"),
            QCoreApplication.translate("MainWindow", "Cancel"),
        )
        answer = dialogs.ask(
            self.parent,
            QCoreApplication.translate("MainWindow", "Unsaved changes"),
            QCoreApplication.translate(
                "MainWindow", "The project has unsaved changes. Save them first?"
            ),
            [save, discard, cancel],
            default=save,
            escape=cancel,
        )
        if answer == discard:
            if doc.candidate is not None and not doc.busy:
                doc.cancel()  # discarding includes the proposed candidate
            return True
        if answer == save:
            if doc.candidate is not None:
                dialogs.error(
                    self.parent,
                    QCoreApplication.translate("MainWindow", "Unsaved changes"),
                    QCoreApplication.translate(
                        "MainWindow", "Confirm or cancel the candidate before saving."
                    ),
                )
                return False
            return self.file_save()
        return False

    def file_new(self) -> None:
        """Start an empty project (the old one stays in the undo history)."""
        if not self.window._confirm_discard():
            return
        files.new_project(self.window.ctx, actor=window_actor())
        self.window.source_name = None
        self.window._document_changed(Change.ALL)

    def _open_filters(self) -> list[str]:
        return [
            QCoreApplication.translate("MainWindow", "Molecules and projects")
            + f" ({OPEN_FILTER_PATTERNS})",
            QCoreApplication.translate("MainWindow", "Calculation results")
            + f" ({RESULT_FILTER_PATTERNS})",
            QCoreApplication.translate("MainWindow", "All files") + " (*)",
        ]

    def file_open(self) -> None:
        """Open a project or structure file (one undoable step), or results in their tab."""
        path = dialogs.get_open_path(
            self.parent, QCoreApplication.translate("MainWindow", "Open"), self._open_filters()
        )
        if path and (opens_as_results(path) or self.window._confirm_discard()):
            self.open_path(path)

    def open_path(self, path: str) -> bool:
        """Load ``path``: a project replaces everything (one undo step), a structure file
        replaces atoms and bonds (asking for the frame, model or record when the file has
        several); an NWChem output, a MOLDEN file or a job folder opens in the Results tab
        and leaves the document alone."""
        try:
            opened = files.open_path(
                self.window.ctx,
                path,
                actor=window_actor(),
                read=lambda p: structure_choice.read_with_choices(self.parent, p),
            )
        except MolFormaError as exc:
            self.window.report_error(
                QCoreApplication.translate("MainWindow", "Cannot open file"), exc
            )
            return False
        if opened is None:
            return False
        if opened.kind == "results":
            return self.open_results(path)
        self.window.source_name = opened.source_name
        self._remember(path)
        self.window._document_changed(Change.ALL)
        self.window.show_status(
            lambda: QCoreApplication.translate("MainWindow", "Opened %1").replace(
                "%1", Path(path).name
            )
        )
        return True

    def open_results(self, path: str) -> bool:
        """Show an output, MOLDEN file or job folder in the Results tab (as Results → Open)."""
        try:
            self.window.panels.results().open_path(path)
        except MolFormaError as exc:
            self.window.report_error(
                QCoreApplication.translate("MainWindow", "Cannot open file"), exc
            )
            return False
        self.window.show_tab("results")
        self._remember(path)
        self.window.show_status(
            lambda: QCoreApplication.translate("MainWindow", "Opening %1 in Results").replace(
                "%1", Path(path).name
            )
        )
        return True

    def file_save(self) -> bool:
        """Save to the project's own file (Save As… when it has none)."""
        doc = self.window.ctx.document
        if not doc.path or not str(doc.path).endswith(PROJECT_SUFFIX):
            return self.file_save_as()
        return self._save_to(str(doc.path))

    def file_save_as(self) -> bool:
        """Ask for a project file name and save."""
        doc = self.window.ctx.document
        suggested = Path(doc.path).name if doc.path else (doc.title or "molecule") + PROJECT_SUFFIX
        path = dialogs.get_save_path(
            self.parent,
            QCoreApplication.translate("MainWindow", "Save Project As"),
            [QCoreApplication.translate("MainWindow", "MolForma project") + " (*.molforma.json)"],
            suggested,
        )
        if not path:
            return False
        if not path.endswith(PROJECT_SUFFIX):
            path = (
                str(Path(path).with_suffix("")) + PROJECT_SUFFIX
                if path.endswith(".json")
                else path + PROJECT_SUFFIX
            )
        return self._save_to(path)

    def _save_to(self, path: str) -> bool:
        try:
            check_path(self.window.ctx.policy, path, window_actor(), for_write=True)
            # Check and write as one step for MCP (a folder swapped after the check);
            # the recent-files list is written after, outside (the configuration dir).
            with files.judged_files(self.window.ctx, window_actor()):
                ops.save_project(self.window.ctx.document, path, set_path=True)
        except MolFormaError as exc:
            self.window.report_error(QCoreApplication.translate("MainWindow", "Cannot save"), exc)
            return False
        except OSError as exc:
            self.window.report_error(
                QCoreApplication.translate("MainWindow", "Cannot save"), str(exc)
            )
            return False
        self._remember(path)
        self.window._document_changed(Change.NONE)  # the title's modified mark
        self.window.show_status(
            lambda: QCoreApplication.translate("MainWindow", "Saved %1").replace(
                "%1", Path(path).name
            )
        )
        return True

    def file_export(self) -> None:
        """Write the confirmed project in another format."""
        # Labels are marked with QT_TRANSLATE_NOOP("MainWindow", ...) in the format table.
        filters = [
            f"{tr_main(f.dialog_label or f.label)} (*{f.extensions[0]})"
            for f in file_formats.export_formats()
        ]
        base = (self.window.ctx.document.title or "molecule").replace("/", "_")
        path = dialogs.get_save_path(
            self.parent, QCoreApplication.translate("MainWindow", "Export"), filters, base + ".xyz"
        )
        if not path:
            return
        try:
            # The dialog checked it when MCP accepted it; checked again where it is used.
            path = check_path(self.window.ctx.policy, path, window_actor(), for_write=True)
        except MolFormaError as exc:
            self.window.report_error(QCoreApplication.translate("MainWindow", "Export"), exc)
            return
        fmt = file_formats.export_format_of(path)
        if fmt is None:
            endings = ", ".join(f.extensions[0] for f in file_formats.export_formats())
            dialogs.error(
                self.parent,
                QCoreApplication.translate("MainWindow", "Export"),
                QCoreApplication.translate(
                    "MainWindow", "Choose a file name ending in one of: %1."
                ).replace("%1", endings),
            )
            return
        try:
            text = ops.export_document(self.window.ctx.document, fmt)
            with files.judged_files(self.window.ctx, window_actor()):
                atomic_write_text(path, text)
        except MolFormaError as exc:
            self.window.report_error(QCoreApplication.translate("MainWindow", "Export"), exc)
            return
        except OSError as exc:
            self.window.report_error(QCoreApplication.translate("MainWindow", "Export"), str(exc))
            return
        self.window.show_status(
            lambda: QCoreApplication.translate("MainWindow", "Exported %1").replace(
                "%1", Path(path).name
            )
        )
