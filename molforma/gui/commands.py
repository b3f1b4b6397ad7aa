"""The runner of queued window commands, on the Qt event loop (Qt layer).

:class:`CommandRunner` drains :class:`~molforma.mcp.window_commands.CommandStore` from the
top-level event loop: a queued signal wakes it when a command arrives, and a
100 ms timer picks up what had to wait. Inside a modal dialog's nested loop it
runs only commands aimed at that dialog (its buttons, its fields, the file
dialog, an answer to the box) and refuses the others, so nothing edits the
document behind a dialog. A private dialog (the Run confirmation) refuses all.

Before a command runs, the document id and revision it names are checked again.
It then runs with the MCP origin (:func:`molforma.app.actor.acting_for_mcp`),
so its edits are MCP's and never become trusted, and its record ends ``done``
when the GUI call returned or ``failed`` with the reason. Work the command
started (clean-up, calculation, results load, history scan) is attached to the
record and watched until it ends.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QObject,
    QPointF,
    Qt,
    QThread,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtWidgets import QApplication, QWidget

from molforma.app.actor import acting_for_mcp
from molforma.errors import MolFormaError, StaleRevisionError
from molforma.gui import dialogs, outcome
from molforma.gui.command_work import CommandWork, Result
from molforma.gui.modal_guard import refuse_edits_behind_modal
from molforma.gui.ui_tool_commands import UiToolCommands
from molforma.gui.widget_input import send_key as send_key  # tests import it here
from molforma.gui.widget_input import set_value
from molforma.gui.window_tool_commands import WindowToolCommands
from molforma.mcp.tools.results import ResultsActionInput
from molforma.mcp.tools.window import (
    ChemistryInput,
    HistoryActionInput,
    UiActivateInput,
    UiEditCellInput,
    UiFileDialogInput,
    UiInputInput,
    UiSelectInput,
    UiSetValueInput,
    ViewInput,
)
from molforma.mcp.window_commands import (
    AnswerDialogInput,
    CommandRecord,
    CommandStore,
    CommandTable,
)

if TYPE_CHECKING:
    from molforma.gui.dispatcher import GuiDispatcher
    from molforma.gui.introspection import WindowIntrospection
    from molforma.gui.main_window import MainWindow

log = logging.getLogger("molforma.mcp")

TARGET_TOOLS = frozenset({"ui_activate", "ui_set_value", "ui_edit_cell", "ui_select", "ui_input"})
MODAL_TOOLS = frozenset({"ui_file_dialog", "answer_dialog"})
# Work whose end is the command's own result (seconds, in the window's worker).
SETTLED_BY_WORK = frozenset({"cleanup", "smiles"})


class CommandRunner(QObject):
    """Runs window commands on the GUI thread, one at a time, in order."""

    _wake = Signal()

    def __init__(
        self, window: MainWindow, intro: WindowIntrospection, dispatcher: GuiDispatcher, policy: Any
    ) -> None:
        super().__init__(window)
        self.setObjectName("mcpCommandRunner")
        self.window = window
        self.intro = intro
        self.dispatcher = dispatcher
        self.policy = policy
        self.store = CommandStore(on_add=self._wake.emit)
        # Its parts: the work commands started, the ui_* tools, the window's other tools.
        self.work = CommandWork(window, dispatcher, self.store)
        self.ui = UiToolCommands(window, intro, policy)
        self.tools = WindowToolCommands(window, policy, self.work)
        self._wake.connect(self.drain, Qt.ConnectionType.QueuedConnection)
        self._active_levels: set[int] = set()
        self._timer = QTimer(self)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self._tick)
        self._timer.start()
        # Each tool with the input model its commands carry and the handler that reads it.
        self.table: CommandTable[Result] = CommandTable()
        self.table.add("ui_activate", UiActivateInput, self.ui.ui_activate)
        self.table.add("ui_set_value", UiSetValueInput, self.ui.ui_set_value)
        self.table.add("ui_edit_cell", UiEditCellInput, self.ui.ui_edit_cell)
        self.table.add("ui_select", UiSelectInput, self.ui.ui_select)
        self.table.add("ui_input", UiInputInput, self.ui.ui_input)
        self.table.add("ui_file_dialog", UiFileDialogInput, self.ui.ui_file_dialog)
        self.table.add("answer_dialog", AnswerDialogInput, self.ui.answer_dialog)
        self.table.add("chemistry", ChemistryInput, self.tools.chemistry)
        self.table.add("history_action", HistoryActionInput, self.tools.history_action)
        self.table.add("view", ViewInput, self.tools.view)
        self.table.add("results_action", ResultsActionInput, self.tools.results_action)

    def _tick(self) -> None:
        self.work.poll()
        if self.store.queued():
            self.drain()

    # -- draining ----------------------------------------------------------------------------
    @Slot()
    def drain(self) -> None:
        """Run the queued commands that may run now (GUI thread)."""
        level = QThread.currentThread().loopLevel()
        if level in self._active_levels:
            return
        # A command sees every document change made before it was queued: the changes an
        # MCP tool made are posted to the window's events object, and the timer that also
        # drains this queue can fire before Qt delivers them (ui_select of atoms just added
        # found an empty view).
        QCoreApplication.sendPostedEvents(self.window.ctx.events, QEvent.Type.MetaCall)
        self.window.build_panels()  # a command may aim at a tab deferred at start-up
        self._active_levels.add(level)
        try:
            for rec in self.store.queued():
                verdict = self._run_if_allowed(rec, level)
                if verdict == "wait":
                    break  # keep the order: a waiting command holds back later ones
        finally:
            self._active_levels.discard(level)

    def _run_if_allowed(self, rec: CommandRecord, level: int) -> str:
        """``ran`` (or failed), ``wait`` (nested loop of ours) or ``behind`` (a modal)."""
        modal = QApplication.activeModalWidget()
        if dialogs.registry.any_private() or (modal is not None and not _public_modal(modal)):
            # The person's own question, Preferences, or a box of Qt's (a file dialog's
            # "replace?"): none of them is MCP's to answer or to act behind.
            self.store.fail(rec, MolFormaError("ui_person_dialog_open"))
            return "ran"
        if modal is None and level > 1:
            return "wait"  # a nested loop of our own (a wait): run once it returns
        if modal is not None and not self._aims_at(rec, modal):
            if not rec.command.edits_document:
                return "behind"  # a camera move waits for the dialog to close
            try:
                refuse_edits_behind_modal()
            except MolFormaError as exc:
                exc.data["dialogId"] = modal.property("molformaDialogId")
                self.store.fail(rec, exc)
            return "ran"
        self._run(rec)
        return "ran"

    def _aims_at(self, rec: CommandRecord, modal: QWidget) -> bool:
        tool = rec.command.tool
        if tool in MODAL_TOOLS:
            return True
        if tool not in TARGET_TOOLS:
            return False
        try:
            obj = self.intro.resolve(str(rec.command.args.get("target", "")))
        except MolFormaError:
            return True  # let the run report why the target is wrong
        return isinstance(obj, QWidget) and (obj.window() is modal or modal.isAncestorOf(obj))

    def _run(self, rec: CommandRecord) -> None:
        if not self.store.start(rec):
            return
        doc = self.window.ctx.document
        cmd = rec.command
        try:
            if cmd.document_id is not None and cmd.document_id != doc.id:
                raise MolFormaError("unknown_document", documentId=cmd.document_id)
            if cmd.expected_revision is not None and cmd.expected_revision != doc.revision:
                raise StaleRevisionError(expected=cmd.expected_revision, actual=doc.revision)
            if not cmd.allow_candidate and doc.candidate is not None:
                raise MolFormaError("candidate_exists")
        except MolFormaError as exc:
            self.store.fail(rec, exc)
            return
        before = self.work.state()
        previous = dialogs.registry.command_id
        dialogs.registry.command_id = rec.id
        try:
            with acting_for_mcp(), outcome.collecting() as refusals:
                result, work = self.table.dispatch(rec)
        except MolFormaError as exc:
            self.store.fail(rec, exc)
            return
        except Exception:
            log.exception("window command %s failed", cmd.tool)
            self.store.fail(rec, MolFormaError("internal_error", tool=cmd.tool))
            return
        finally:
            dialogs.registry.command_id = previous
        if refusals:
            # The window refused (a message beside a field, under the view, in a status
            # line or a box): the record says so with that message, never "done".
            self.store.fail(rec, refusals[0])
            return
        if work is None:
            work = self.work.started(before)
        result = dict(result)
        result["revision"] = self.window.ctx.document.revision
        if work is not None and work.kind in SETTLED_BY_WORK:
            self.work.settle_later(rec, result, work)
            return
        self.store.finish(rec, result, work)

    # -- what the collaborators do, under the names the window and its tests use
    def workers_snapshot(self) -> list[dict[str, Any]]:
        return self.work.workers_snapshot()

    # -- work a command started ----------------------------------------------------------------

    # -- targets -----------------------------------------------------------------------------

    # -- ui_* --------------------------------------------------------------------------------

    # -- dialogs -----------------------------------------------------------------------------

    # -- chemistry, history, view, results -----------------------------------------------------


def _public_modal(modal: QWidget) -> bool:
    """True for a MolForma dialog MCP may answer (registered and not private)."""
    did = modal.property("molformaDialogId")
    return (
        not modal.property("molformaPrivate")
        and isinstance(did, str)
        and dialogs.registry.find(did) is not None
    )


__all__ = ["CommandRunner", "QPointF", "set_value"]
