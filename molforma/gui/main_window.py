"""The main window: tabs, menus from the action table, title, files, close (Qt layer).

Tabs: "1 Molecule" (built here), "2 Calculation", "3 Execution", "Results" and
"History" (panels imported lazily, a visible placeholder when one is missing; the
window started from the command line builds them right after its first frame).
Menus come from :data:`molforma.gui.actions.ACTIONS`. Every file dialog and message
box goes through :mod:`molforma.gui.dialogs`.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QEventLoop, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
    QMenu,
    QTabWidget,
    QWidget,
)

from molforma import __version__
from molforma.app import files
from molforma.app.actor import mcp_acting
from molforma.app.files import opens_as_results
from molforma.document.changes import Change
from molforma.document.document import summary_of
from molforma.errors import MolFormaError
from molforma.gui import dialogs, outcome
from molforma.gui.actions import (
    ACTIONS,
    ACTIONS_BY_ID,
    MENUS,
    action_title,
    build_qaction,
)
from molforma.gui.context import WINDOW_UNDO_LIMIT, AppContext
from molforma.gui.dispatcher import GuiDispatcher
from molforma.gui.widgets.molecule_tab import MoleculeTab, step_name
from molforma.gui.window_panels import PANELS, WindowPanels, missing_text, tr_main
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.document.envelope import Project
    from molforma.formats.common import Structure
    from molforma.gui import exit_on_signal, running_jobs
else:  # imported on first use (start-up time): molforma.lazy
    running_jobs = lazy_import("molforma.gui.running_jobs")
    exit_on_signal = lazy_import("molforma.gui.exit_on_signal")
from molforma.gui.window_files import WindowFiles

log = logging.getLogger(__name__)

TAB_NAMES = ("molecule", "calculation", "execution", "results", "history")


def load_launch_file(
    ctx: AppContext,
    path: str,
    loaded: Project | Structure | None = None,
) -> None:
    """Load the file given on the command line as the document (not an undo step); its
    protected values become trusted (:func:`molforma.app.files.launch_document`).
    ``loaded``: the file as :func:`molforma.app.files.read_launch_file` read it already.

    Raises:
        MolFormaError: the file cannot be read or breaks a document rule.
    """
    files.launch_document(ctx, path, undo_limit=WINDOW_UNDO_LIMIT, loaded=loaded)


class MainWindow(QMainWindow):
    """The MolForma window (objectName ``mainWindow``).

    For ``--mcp-gui`` it offers ``mcp_bridge`` (runs MCP work on the GUI thread) and
    ``mcp_client_closed()`` (the client closed stdin: end the process at once).
    """

    _clientClosed = Signal()

    def __init__(
        self, ctx: AppContext, parent: QWidget | None = None, *, defer_panels: bool = False
    ) -> None:
        super().__init__(parent)
        self.file_commands = WindowFiles(self, self)
        self.ctx = ctx
        self.setObjectName("mainWindow")
        self.mcp_bridge = GuiDispatcher(self)
        # MCP work sees the whole window, also when it arrives before the first frame.
        self.mcp_bridge.prepare = self.build_panels
        self.mcp_server: Any | None = None  # set by molforma.gui.mcp_host for --mcp-gui
        self._clientClosed.connect(self._quit_for_client, Qt.ConnectionType.QueuedConnection)
        self.resize(1200, 800)
        self.actions_by_id: dict[str, QAction] = {}
        self.source_name: str | None = None  # the structure file opened, for the title
        self._status_source: str | Callable[[], str] | None = None
        self.menus: dict[str, QMenu] = {}
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("mainTabs")
        self.setCentralWidget(self.tabs)
        self.molecule_tab = MoleculeTab(ctx, self)
        self.tabs.addTab(self.molecule_tab, "")
        self.panels = WindowPanels(ctx, self.tabs, self, self.build_panels)
        self.panels["molecule"] = self.molecule_tab
        # The window opens with the Molecule tab: with ``defer_panels`` the other tabs
        # hold empty pages until the first frame is on screen (or until anything asks
        # for a panel), so the person sees the molecule without waiting for them.
        self.panels.add_tabs(defer=defer_panels)
        self.tabs.currentChanged.connect(self._tab_changed)
        self._build_menus()
        self.molecule_tab.use_actions(self.actions_by_id)
        self.status_label = QLabel(self)
        self.status_label.setObjectName("statusMessage")
        self.statusBar().setObjectName("statusBar")
        self.statusBar().addWidget(self.status_label, 1)
        self.summary_label = QLabel(self)
        self.summary_label.setObjectName("documentSummary")
        self.statusBar().addPermanentWidget(self.summary_label)
        self.setAcceptDrops(True)
        ctx.events.documentChanged.connect(self._document_changed)
        self.retranslate()
        self._document_changed(Change.ALL)
        if not defer_panels:
            self.molecule_tab.build_deferred()
            # Batch jobs left running by an earlier MolForma are followed again.
            QTimer.singleShot(0, ctx.reattach_batch_jobs)

    # -- panels built after the first frame ------------------------------------------------
    def event(self, ev: QEvent) -> bool:
        """After the first paint, build the deferred panels once the frame is out."""
        panels = getattr(self, "panels", None)  # a paint may come before __init__ made it
        if (
            ev.type() == QEvent.Type.Paint
            and panels is not None
            and panels.pending
            and not self._build_queued
        ):
            self._build_queued = True
            # A zero timer runs after this paint has been flushed to the screen.
            QTimer.singleShot(0, self, self._after_first_frame)
        return super().event(ev)

    _build_queued = False

    def _after_first_frame(self) -> None:
        self.build_panels()
        self.ctx.reattach_batch_jobs()

    def build_panels(self) -> None:
        """Build the panels still pending (no-op when all are built)."""
        self.molecule_tab.build_deferred()
        self.panels.build_pending()

    def _tab_changed(self, index: int) -> None:
        if self.panels.pending and index > 0:
            self.build_panels()

    def _build_menus(self) -> None:
        bar = self.menuBar()
        bar.setObjectName("menuBar")
        for key, _title in MENUS:
            menu = QMenu(self)
            menu.setObjectName(f"menu_{key}")
            bar.addMenu(menu)
            self.menus[key] = menu
        for spec in ACTIONS:
            act = build_qaction(spec, self, self)
            self.actions_by_id[spec.id] = act
            menu = self.menus[spec.menu]
            if spec.id in (
                "molforma.file.quit",
                "molforma.edit.preferences",
                "molforma.edit.confirm",
                "molforma.edit.delete",
                "molforma.view.tab_molecule",
                "molforma.file.load_structure",
                "molforma.view.style_ball_and_stick",
            ):
                menu.addSeparator()
            menu.addAction(act)
            self.addAction(act)  # shortcuts work whichever tab has the focus
            if spec.id == "molforma.file.open":
                self.recent_menu = QMenu(self)
                self.recent_menu.setObjectName("menu_recent")
                self.recent_menu.aboutToShow.connect(self.file_commands._fill_recent_menu)
                menu.addMenu(self.recent_menu)
        self._fill_recent_menu()

    def retranslate(self) -> None:
        """Re-read every text of the window (language switch)."""
        for key, title in MENUS:
            self.menus[key].setTitle(QApplication.translate("menus", title))
        self.recent_menu.setTitle(self.tr("Open &Recent"))
        self._fill_recent_menu()
        for spec in ACTIONS:
            self.actions_by_id[spec.id].setText(action_title(spec))
        self.update_actions()  # "Undo Add atoms" in the new language
        self.tabs.setTabText(0, self.tr("1 Molecule"))
        for i, (_key, _m, _c, title) in enumerate(PANELS, start=1):
            self.tabs.setTabText(i, tr_main(title))
            w = self.tabs.widget(i)
            if isinstance(w, QLabel) and w.property("placeholder"):
                w.setText(missing_text())
        self.update_title()
        self._update_summary()  # "3 atoms" in the status bar follows the language too
        source = getattr(self, "_status_source", None)
        if callable(source):
            self.status_label.setText(source())
        elif source:
            self._clear_status()  # a plain text cannot be re-rendered in the new language

    def changeEvent(self, ev: QEvent) -> None:
        """Retranslate on a language change."""
        if ev.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(ev)

    # -- state -----------------------------------------------------------------------------
    def _document_changed(self, change: Change) -> None:
        self.update_title()
        self.update_actions()
        if change & (Change.ATOMS | Change.CANDIDATE | Change.LOAD):
            self._update_summary()  # formula and atom count: a move or a setting keeps them

    def _update_summary(self) -> None:
        doc = self.ctx.document
        proj = summary_of(doc.project) or {}
        count = int(proj.get("atomCount", 0))
        text = (
            self.tr("%1 — %n atom(s)", "", count).replace("%1", proj.get("formula") or "—")
            if count
            else self.tr("No atoms yet")
        )
        if doc.candidate is not None:
            cand = summary_of(doc.candidate) or {}
            text += "  →  " + self.tr("candidate %1").replace("%1", cand.get("formula") or "—")
        self.summary_label.setText(text)

    def update_actions(self) -> None:
        """Enable or disable actions from the document state; Undo/Redo name their step."""
        for spec in ACTIONS:
            if spec.enabled is not None:
                self.actions_by_id[spec.id].setEnabled(bool(spec.enabled(self.ctx, self)))

        doc = self.ctx.document
        for key, labels, can in (
            ("undo", doc.undo_labels, doc.can_undo),
            ("redo", doc.redo_labels, doc.can_redo),
        ):
            spec = ACTIONS_BY_ID[f"molforma.edit.{key}"]
            text = action_title(spec)
            if labels and can:
                text += " " + step_name(labels[-1])
            self.actions_by_id[spec.id].setText(text)

    def update_title(self) -> None:
        """Name the project's file (or the structure file opened, or Untitled) and mark
        unsaved changes."""
        doc = self.ctx.document
        # An opened structure file is not the project's file (Save asks for one), but
        # the title still says what the person opened.
        name = Path(doc.path).name if doc.path else (self.source_name or self.tr("Untitled"))
        mark = "*" if doc.modified else ""
        self.setWindowTitle(f"{name}{mark} — MolForma")

    def show_status(self, message: str | Callable[[], str], timeout_ms: int = 8000) -> None:
        """A message in the status bar; it clears after ``timeout_ms``.

        Pass a function that renders the message to have it follow a language switch
        while it shows (a plain string is cleared on a switch instead).
        """
        self._status_source = message
        self.status_label.setText(message() if callable(message) else message)
        if timeout_ms:
            # The label is the timer's context: no call once the window is gone.
            QTimer.singleShot(
                timeout_ms, self.status_label, lambda m=message: self._clear_status(m)
            )

    def _clear_status(self, message: str | Callable[[], str] | None = None) -> None:
        if message is None or self._status_source is message:
            self._status_source = None
            self.status_label.setText("")

    def report_error(self, title: str, exc: BaseException | str) -> None:
        """Show an error through :mod:`dialogs` (a MolFormaError in the display language)."""
        text = exc.message() if isinstance(exc, MolFormaError) else str(exc)
        outcome.refused(exc if isinstance(exc, MolFormaError) else text)
        dialogs.error(self, title, text)

    def report_error_later(self, title: str, text: str) -> None:
        """Show an error once the event loop runs."""
        QTimer.singleShot(0, self, lambda: dialogs.error(self, title, text))

    # -- commands --------------------------------------------------------------------------
    def run_action(self, action_id: str) -> None:
        """Run an action of the table by id (menus, shortcuts, MCP ``ui_activate``)."""
        spec = ACTIONS_BY_ID[action_id]
        if spec.enabled is not None and not spec.enabled(self.ctx, self):
            return
        if spec.tab_edit:
            self.molecule_tab.run_edit(lambda: spec.callback(self.ctx, self))
            return
        try:
            spec.callback(self.ctx, self)
        except MolFormaError as exc:
            self.report_error(action_title(spec).replace("&", ""), exc)
        except OSError as exc:
            self.report_error(action_title(spec).replace("&", ""), str(exc))

    def show_tab(self, name: str) -> None:
        """Bring a tab to the front by key (``molecule``, ``calculation``, ...)."""
        if name != "molecule":
            self.build_panels()
        self.tabs.setCurrentIndex(TAB_NAMES.index(name))

    def open_preferences(self) -> None:
        """Edit → Preferences…"""
        try:
            mod = importlib.import_module("molforma.gui.widgets.preferences_dialog")
        except ImportError:
            dialogs.info(
                self,
                self.tr("Preferences"),
                self.tr("This part of MolForma is not available in this build."),
            )
            return
        if mcp_acting():
            # Preferences decide what every later run trusts: the person's alone (the
            # action is not drivable; this guards any other way in).
            log.warning("Preferences not opened: an MCP command is running")
            return
        dlg = mod.PreferencesDialog(self.ctx, self)
        dialogs.run_dialog(dlg, private=True)

    def show_about(self) -> None:
        """Help → About."""
        dialogs.info(
            self,
            self.tr("About MolForma"),
            self.tr(
                "MolForma %1 — molecular editor for quantum chemistry with "
                "NWChem and a built-in MCP server."
            ).replace("%1", __version__),
        )

    def show_shortcuts(self) -> None:
        """Help → Keyboard Shortcuts: the action table as text."""
        lines = []
        for spec in ACTIONS:
            seq = self.actions_by_id[spec.id].shortcut().toString()
            if seq:
                lines.append(f"{seq}\t{action_title(spec).replace('&', '')}")
        # The Add-atom tool's own keys, typed into the 3D view (molecule_tab.ELEMENT_KEY_MS).
        lines += [
            "",
            self.tr(
                "Add-atom tool, typed into the 3D view: a letter chooses that "
                "element (C, N, O, H, S, P, F, I, B …); a second letter within "
                "1 s makes a two-letter symbol (C then l: Cl, B then r: Br). "
                "F there is fluorine, not Fit to View."
            ),
        ]
        dialogs.info(self, self.tr("Keyboard Shortcuts"), "\n".join(lines))

    # -- screenshot ------------------------------------------------------------------------
    def save_screenshot(self, path: str, tab: str | None = None) -> int:
        """Render the window to ``path`` (PNG) and return an exit status."""
        if tab:
            self.show_tab(tab)
        self.resize(1280, 820)
        self.show()
        # No fixed waits: run the events until the window is on screen and its layouts
        # have settled; grab() then renders every widget (an OpenGL view draws its frame).
        wait_exposed(self)
        settle_events()
        self.molecule_tab.view.fit()
        settle_events()
        image = self.grab()
        ok = image.save(path, "PNG")
        self.ctx.document.modified = False  # nothing to ask about on the way out
        self.close()
        if not ok:
            sys.stderr.write(f"molforma: cannot write {path}\n")
            return 2
        return 0

    # -- drag and drop ---------------------------------------------------------------------
    def dragEnterEvent(self, ev: Any) -> None:
        """Accept a dropped local file."""
        urls = ev.mimeData().urls() if ev.mimeData().hasUrls() else []
        if len(urls) == 1 and urls[0].isLocalFile():
            ev.acceptProposedAction()

    def dropEvent(self, ev: Any) -> None:
        """Open the dropped file or folder like File → Open…"""
        urls = ev.mimeData().urls()
        if not urls or not urls[0].isLocalFile():
            return
        path = urls[0].toLocalFile()
        if opens_as_results(path) or self._confirm_discard():
            self.open_path(path)
            ev.acceptProposedAction()

    # -- MCP client ------------------------------------------------------------------------
    def mcp_client_closed(self) -> None:
        """The MCP client closed stdin (any thread): quit with no dialog, within a second."""
        self._clientClosed.emit()
        # Whatever the GUI thread is doing (a modal dialog, a long paint), the process
        # ends within a second, as docs/reference/cli.md, stdio in the MCP modes requires.
        timer = threading.Timer(0.9, lambda: os._exit(0))
        timer.daemon = True
        timer.start()

    def _quit_for_client(self) -> None:
        self.ctx.mcp_mode = True  # never ask about unsaved work now
        self.molecule_tab.cancel_worker()
        app = QApplication.instance()
        if app is not None:
            app.exit(0)

    # -- closing ---------------------------------------------------------------------------
    def _confirm_stop_jobs(self) -> bool:
        """True when no calculation runs, or the person chose to stop it and quit.

        Never asks in MCP mode (a closed stdin or an exit signal quits at once). Batch
        jobs on a cluster keep running, and the question says so.
        """
        if self.ctx.mcp_mode:
            return True

        local, batch = running_jobs.running_jobs(self.ctx)
        if not local and not batch:
            return True
        lines: list[str] = []
        if local:
            lines.append(
                self.tr(
                    "%n calculation(s) still running here will be stopped (recorded as cancelled):",
                    "",
                    len(local),
                )
            )
            lines += [f"  {running_jobs.job_folder(j)}" for j in local]
        if batch:
            if lines:
                lines.append("")
            lines.append(
                self.tr(
                    "%n batch job(s) on the cluster keep running; a later "
                    "MolForma finds them again in History:",
                    "",
                    len(batch),
                )
            )
            lines += [f"  {running_jobs.job_folder(j)}" for j in batch]
        stop = self.tr("Stop and quit") if local else self.tr("Quit")
        cancel = self.tr("Cancel")
        title = self.tr("Calculation running")
        answer = dialogs.ask(
            self, title, "\n".join(lines), [stop, cancel], default=cancel, escape=cancel
        )
        return answer == stop

    def closeEvent(self, ev: QCloseEvent) -> None:
        """Ask before stopping running calculations or discarding unsaved work (never in
        MCP mode); then stop the local calculations."""
        if not self._confirm_stop_jobs() or not self._confirm_discard():
            ev.ignore()
            return
        self.molecule_tab.shutdown()

        exit_on_signal.stop_calculations(
            self.ctx
        )  # local jobs end with the window (docs/reference/jobs.md, Local jobs stop with the program)
        self.ctx.close()
        ev.accept()

    # -- what the collaborators do, under the names the window and its tests use
    def _fill_recent_menu(self) -> None:
        self.file_commands._fill_recent_menu()

    def _confirm_discard(self) -> bool:
        return self.file_commands._confirm_discard()

    def file_new(self) -> None:
        self.file_commands.file_new()

    def file_open(self) -> None:
        self.file_commands.file_open()

    def open_path(self, path: str) -> bool:
        return self.file_commands.open_path(path)

    def open_results(self, path: str) -> bool:
        return self.file_commands.open_results(path)

    def file_save(self) -> bool:
        return self.file_commands.file_save()

    def file_save_as(self) -> bool:
        return self.file_commands.file_save_as()

    def file_export(self) -> None:
        self.file_commands.file_export()


def wait_exposed(widget: QWidget, timeout: float = 10.0) -> bool:
    """Run events until ``widget``'s window is exposed (at most ``timeout`` seconds)."""
    app = QApplication.instance()
    end = time.monotonic() + timeout
    while app is not None and time.monotonic() < end:
        handle = widget.windowHandle()
        if handle is not None and handle.isExposed():
            return True
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
    return False


def settle_events(rounds: int = 5) -> None:
    """Process the pending events (layouts, resizes, deferred paints) a few rounds."""
    app = QApplication.instance()
    for _ in range(rounds):
        if app is not None:
            app.processEvents()


__all__: list[Any] = ["MainWindow", "load_launch_file"]
