"""The runner of queued window commands, on the Qt event loop (Qt layer).

:class:`CommandRunner` drains :class:`~molforma.mcp.commands.CommandStore` from the
top-level event loop: a queued signal wakes it when a command arrives, and a
100 ms timer picks up what had to wait. Inside a modal dialog's nested loop it
runs only commands aimed at that dialog (its buttons, its fields, the file
dialog, an answer to the box) and refuses the others, so nothing edits the
document behind a dialog. A private dialog (the Run confirmation) refuses all.

Before a command runs, the document id and revision it names are checked again.
It then runs with the MCP origin (:func:`molforma.document.origin.acting_for_mcp`),
so its edits are MCP's and never become trusted, and its record ends ``done``
when the GUI call returned or ``failed`` with the reason. Work the command
started (clean-up, calculation, results load, history scan) is attached to the
record and watched until it ends.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QEvent,
    QKeyCombination,
    QObject,
    QPoint,
    QPointF,
    Qt,
    QThread,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QApplication,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QSpinBox,
    QTableView,
    QTableWidget,
    QTabWidget,
    QTextEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from molforma.document.origin import acting_for_mcp
from molforma.errors import MolFormaError, StaleRevisionError
from molforma.gui import controls, dialogs, outcome
from molforma.gui.controls import Control
from molforma.gui.introspection import mol_view, tab_page, widget_value
from molforma.gui.modal_guard import refuse_edits_behind_modal
from molforma.mcp.commands import CommandRecord, CommandStore, StartedWork

if TYPE_CHECKING:
    from molforma.gui.dispatcher import GuiDispatcher
    from molforma.gui.introspection import WindowIntrospection
    from molforma.gui.main_window import MainWindow

log = logging.getLogger("molforma.mcp")

Result = tuple[dict[str, Any], StartedWork | None]
TARGET_TOOLS = frozenset({"ui_activate", "ui_set_value", "ui_edit_cell", "ui_select",
                          "ui_input"})
MODAL_TOOLS = frozenset({"ui_file_dialog", "answer_dialog"})
# Work whose end is the command's own result (seconds, in the window's worker).
SETTLED_BY_WORK = frozenset({"cleanup", "smiles"})


class CommandRunner(QObject):
    """Runs window commands on the GUI thread, one at a time, in order."""

    _wake = Signal()

    def __init__(self, window: MainWindow, intro: WindowIntrospection,
                 dispatcher: GuiDispatcher, policy: Any) -> None:
        super().__init__(window)
        self.setObjectName("mcpCommandRunner")
        self.window = window
        self.intro = intro
        self.dispatcher = dispatcher
        self.policy = policy
        self.store = CommandStore(on_add=self._wake.emit)
        self._wake.connect(self.drain, Qt.ConnectionType.QueuedConnection)
        self._active_levels: set[int] = set()
        self._watched: list[tuple[Callable[[], bool], threading.Event]] = []
        self._settling: list[tuple[StartedWork, Callable[[], None]]] = []
        self._workers: list[dict[str, Any]] = []
        self._wlock = threading.Lock()
        self._timer = QTimer(self)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self._tick)
        self._timer.start()
        self.handlers: dict[str, Callable[[CommandRecord], Result]] = {
            "ui_activate": self._ui_activate,
            "ui_set_value": self._ui_set_value,
            "ui_edit_cell": self._ui_edit_cell,
            "ui_select": self._ui_select,
            "ui_input": self._ui_input,
            "ui_file_dialog": self._ui_file_dialog,
            "answer_dialog": self._answer_dialog,
            "chemistry": self._chemistry,
            "history_action": self._history_action,
            "view": self._view,
            "results_action": self._results_action,
        }

    # -- state for other threads -------------------------------------------------------------
    def workers_snapshot(self) -> list[dict[str, Any]]:
        """Window workers as of the last tick (safe from any thread)."""
        with self._wlock:
            return [dict(w) for w in self._workers]

    def _tick(self) -> None:
        workers: list[dict[str, Any]] = []
        tab = self.window.molecule_tab
        if tab.worker_running:
            st = tab.worker_state()
            entry = {"kind": "cleanup" if st["kind"] == "cleanup" else "smiles",
                     "status": "running", "progress": st["progress"]}
            if "iterations" in st:
                entry.update(iterations=st["iterations"], maxIterations=st["maxIterations"],
                             energy=st["energy"])
            workers.append(entry)
        hist = self.window.panels.get("history")
        if hist is not None and getattr(hist, "scanning", False):
            workers.append({"kind": "history_scan", "status": "running"})
        with self._wlock:
            self._workers = workers
            watched = list(self._watched)
            settling = list(self._settling)
        for work, settle in settling:
            try:
                ended = work.status() != "running"
            except Exception:  # noqa: BLE001 - a deleted widget: the work is over
                ended = True
            if ended:
                with self._wlock:
                    self._settling.remove((work, settle))
                settle()
        for done, ev in watched:
            try:
                ended = done()
            except Exception:  # noqa: BLE001 - a deleted widget: the work is over
                ended = True
            if ended:
                ev.set()
                with self._wlock:
                    if (done, ev) in self._watched:
                        self._watched.remove((done, ev))
        if self.store.queued():
            self.drain()

    def _watch(self, kind: str, done: Callable[[], bool], cancel: Callable[[], None],
               status: Callable[[], str]) -> StartedWork:
        """Work whose end is seen on the GUI thread (``done`` polled every tick)."""
        ev = threading.Event()
        with self._wlock:
            self._watched.append((done, ev))

        def wait(timeout: float | None) -> bool:
            return ev.wait(timeout)

        def cancel_any_thread() -> None:
            self.dispatcher.call(cancel, 2.0)

        return StartedWork(kind=kind, wait=wait, cancel=cancel_any_thread, status=status)

    # -- draining ----------------------------------------------------------------------------
    @Slot()
    def drain(self) -> None:
        """Run the queued commands that may run now (GUI thread)."""
        level = QThread.currentThread().loopLevel()
        if level in self._active_levels:
            return
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
        before = self._work_state()
        previous = dialogs.registry.command_id
        dialogs.registry.command_id = rec.id
        try:
            with acting_for_mcp(), outcome.collecting() as refusals:
                result, work = self.handlers[cmd.tool](rec)
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
            work = self._work_started(before)
        result = dict(result)
        result["revision"] = self.window.ctx.document.revision
        if work is not None and work.kind in SETTLED_BY_WORK:
            self._settle_later(rec, result, work)
            return
        self.store.finish(rec, result, work)

    def _settle_later(self, rec: CommandRecord, result: dict[str, Any],
                      work: StartedWork) -> None:
        """A SMILES build or clean-up is the command's point: its record stays running
        until the work ends, then says what the work did (a candidate made: done; nothing
        to change or a refusal: failed with the window's message)."""
        rec.work = work

        def settle() -> None:
            try:
                error = work.error() if work.error is not None else None
                failed = work.status() in ("failed", "unchanged") and error is not None
            except Exception:  # the record must end whatever happened
                log.exception("settling window command %s", rec.id)
                error, failed = MolFormaError("internal_error", tool=rec.command.tool), True
            if failed and error is not None:
                self.store.fail(rec, error)
                return
            done = dict(result)
            done["revision"] = self.window.ctx.document.revision
            self.store.finish(rec, done, work)

        with self._wlock:
            self._settling.append((work, settle))

    # -- work a command started ----------------------------------------------------------------
    def _work_state(self) -> dict[str, Any]:
        ctx = self.window.ctx
        jobs = ctx.jobs_if_any()
        sess = ctx.results_if_any()
        hist = self.window.panels.get("history")
        return {"job": jobs.current() if jobs is not None else None,
                "load": sess.loading if sess is not None else None,
                "worker": self.window.molecule_tab.worker,
                "scan": getattr(hist, "scan_handle", None)}

    def _work_started(self, before: dict[str, Any]) -> StartedWork | None:
        after = self._work_state()
        job = after["job"]
        if job is not None and job is not before["job"]:
            from molforma.jobs import failure_error, progress_note

            # A failed run is the task's error (NWChem's own line); its progress is the
            # job's, read from the record (no Qt), a few times a second.
            return StartedWork("calculation", wait=job.wait, cancel=job.cancel,
                               status=lambda: str(job.status),
                               error=lambda: failure_error(job),
                               progress=lambda: progress_note(job))
        load = after["load"]
        if load is not None and load is not before["load"]:
            return StartedWork("results_load", wait=load.wait, cancel=load.cancel,
                               status=lambda: str(load.status))
        if after["worker"] is not None and after["worker"] is not before["worker"]:
            return self._worker_work()
        if after["scan"] is not None and after["scan"] is not before["scan"]:
            return self._scan_work()
        return None

    def _worker_work(self) -> StartedWork:
        tab = self.window.molecule_tab
        worker = tab.worker
        kind = "cleanup" if tab.worker_state()["kind"] == "cleanup" else "smiles"
        state = {"cancelled": False}

        def cancel() -> None:
            state["cancelled"] = True
            tab.cancel_worker()

        def status() -> str:
            if state["cancelled"]:
                return "cancelled"
            if tab.worker is worker:
                return "running"
            end = tab.worker_end(worker)
            return {"failed": "failed", "unchanged": "unchanged"}.get(
                end[0] if end else "", "finished")

        def progress() -> dict[str, Any] | None:
            # From the snapshot the GUI thread takes each tick: no Qt from this thread.
            now = next((w for w in self.workers_snapshot() if w["kind"] == kind), None)
            if now is None:  # it ended: the last note says how
                return {"message": f"{kind}: {status()}", "progress": 100}
            text = f"{kind}: {now['progress']} %"
            if "iterations" in now:
                text += f" · iteration {now['iterations']} of {now['maxIterations']}"
                if isinstance(now.get("energy"), int | float):
                    text += f" · energy {now['energy']:.4f} kcal/mol"
            return {"message": text, "progress": now["progress"]}  # the end note adds total

        work = self._watch(kind, done=lambda: tab.worker is not worker, cancel=cancel,
                           status=status)
        work.error = lambda: (tab.worker_end(worker) or ("", None))[1]
        work.progress = progress
        return work

    def _scan_work(self) -> StartedWork:
        hist = self.window.panels["history"]
        handle = hist.scan_handle

        def cancel() -> None:
            stop = getattr(handle, "cancel", None)
            if callable(stop):
                stop()

        # Over once the tab has shown the rows, not when the scanning thread alone ended.
        return self._watch("history_scan", done=lambda: hist.scan_handle is not handle
                           or not hist.scanning, cancel=cancel,
                           status=lambda: str(handle.status) if handle.done else "running")

    # -- targets -----------------------------------------------------------------------------
    def _target(self, rec: CommandRecord) -> Any:
        """The target of a ``ui_*`` command, declared drivable for that tool."""
        obj, _row = self._declared(rec)
        return obj

    def _declared(self, rec: CommandRecord) -> tuple[Any, Control]:
        obj = self.intro.resolve(str(rec.command.args.get("target", "")))
        return obj, self.intro.check_drivable(obj, rec.command.tool)

    def _node(self, obj: Any) -> dict[str, Any]:
        return self.intro.node(obj)

    # -- ui_* --------------------------------------------------------------------------------
    def _ui_activate(self, rec: CommandRecord) -> Result:
        obj = self._target(rec)
        node = self._node(obj)  # before: a button of a closing dialog is gone afterwards
        page = tab_page(obj)
        if page is not None:
            page[0].setCurrentIndex(page[1])  # as a click on the page's tab
            return {"target": node, "tab": page[1]}, None
        if isinstance(obj, QAction):
            obj.trigger()
        elif isinstance(obj, QAbstractButton):
            obj.click()
        else:
            raise MolFormaError("ui_wrong_kind", target=node["id"], kind=node["class"],
                                accepted="buttons, menu actions (molforma.*)")
        return {"target": node}, None

    def _ui_set_value(self, rec: CommandRecord) -> Result:
        obj, row = self._declared(rec)
        value = rec.command.args.get("value")
        # The setting's own check (the one its MCP tool makes), before the field changes:
        # the window never stores what set_execution / set_advanced would refuse.
        controls.validate(row, value, self.policy)
        set_value(obj, value)
        shown = widget_value(obj, full=True)
        if not _kept(obj, row.stored(value) if row.stored is not None else value, shown):
            # A field that quietly went back to the stored value: a refusal, never "done".
            # (A panel that showed its reason has already put it in the record.)
            outcome.refused(MolFormaError("ui_value_not_kept", target=obj.objectName(),
                                          value=value, shown=shown))
        return {"target": self._node(obj), "value": shown}, None

    def _ui_edit_cell(self, rec: CommandRecord) -> Result:
        obj = self._target(rec)
        a = rec.command.args
        row, col, value = int(a["row"]), int(a["column"]), a.get("value")
        if not isinstance(obj, QTableView):
            raise MolFormaError("ui_wrong_kind", target=self.intro.id_of(obj),
                                kind=type(obj).__name__, accepted="tables")
        model = obj.model()
        if not (0 <= row < model.rowCount() and 0 <= col < model.columnCount()):
            raise MolFormaError("ui_bad_cell", row=row, column=col, rows=model.rowCount(),
                                columns=model.columnCount())
        idx = model.index(row, col)
        if not model.flags(idx) & Qt.ItemFlag.ItemIsEditable and not (
                model.flags(idx) & Qt.ItemFlag.ItemIsUserCheckable):
            raise MolFormaError("ui_cell_read_only", row=row, column=col)
        if model.flags(idx) & Qt.ItemFlag.ItemIsUserCheckable and isinstance(value, bool):
            state = Qt.CheckState.Checked if value else Qt.CheckState.Unchecked
            model.setData(idx, state.value, Qt.ItemDataRole.CheckStateRole)
        elif isinstance(obj, QTableWidget):
            item = obj.item(row, col)
            if item is None:
                raise MolFormaError("ui_cell_read_only", row=row, column=col)
            item.setText("" if value is None else str(value))
        else:
            model.setData(idx, "" if value is None else str(value), Qt.ItemDataRole.EditRole)
        shown = model.data(model.index(row, col), Qt.ItemDataRole.DisplayRole)
        return {"target": self._node(obj), "row": row, "column": col,
                "shown": "" if shown is None else str(shown)}, None

    def _ui_select(self, rec: CommandRecord) -> Result:
        obj = self._target(rec)
        a = rec.command.args
        index, text, rows, atoms = a.get("index"), a.get("text"), a.get("rows"), a.get("atomIds")
        view = mol_view(obj)
        if view is not None:
            ids = [str(x) for x in (atoms or [])]
            known = set(view.scene.ids)
            missing = [x for x in ids if x not in known]
            if missing:
                raise MolFormaError("unknown_atom", atomIds=missing)
            tab = self.window.molecule_tab
            if view is tab.view:
                tab.set_selection(ids)
            else:
                view.set_selection(ids)
            return {"target": self._node(obj), "selection": list(view.selection())}, None
        if isinstance(obj, QTabWidget):
            i = _pick_index(index, text, [obj.tabText(k).replace("&", "")
                                          for k in range(obj.count())])
            obj.setCurrentIndex(i)
        elif isinstance(obj, QComboBox):
            set_value(obj, text if text is not None else index)
        elif isinstance(obj, QListWidget):
            i = _pick_index(index, text, [obj.item(k).text() for k in range(obj.count())])
            obj.setCurrentRow(i)
        elif isinstance(obj, QTreeWidget):
            flat: list[QTreeWidgetItem] = []
            stack = _children_last_first(obj.invisibleRootItem())
            while stack:  # depth first, in the order the tree shows its rows
                cur = stack.pop()
                flat.append(cur)
                stack.extend(_children_last_first(cur))
            i = _pick_index(index, text, [x.text(0) for x in flat])
            obj.setCurrentItem(flat[i])
        elif isinstance(obj, QAbstractItemView):
            model = obj.model()
            wanted = [int(r) for r in (rows if rows is not None else
                                       ([index] if index is not None else []))]
            bad = [r for r in wanted if not 0 <= r < model.rowCount()]
            if bad or not wanted:
                raise MolFormaError("ui_bad_index", index=bad or wanted, count=model.rowCount())
            obj.clearSelection()
            mode = obj.selectionMode()
            if len(wanted) > 1 and mode != QAbstractItemView.SelectionMode.SingleSelection:
                obj.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
            for r in wanted:
                obj.selectRow(r) if isinstance(obj, QTableView) else obj.setCurrentIndex(
                    model.index(r, 0))
            obj.setSelectionMode(mode)
        else:
            raise MolFormaError("ui_wrong_kind", target=self.intro.id_of(obj),
                                kind=type(obj).__name__,
                                accepted="tabs, tables, lists, trees, combo boxes, 3D views")
        return {"target": self._node(obj)}, None

    def _ui_input(self, rec: CommandRecord) -> Result:
        obj = self._target(rec)
        if not isinstance(obj, QWidget):
            raise MolFormaError("ui_wrong_kind", target=self.intro.id_of(obj),
                                kind=type(obj).__name__, accepted="widgets")
        a = rec.command.args
        kind = str(a.get("kind") or "click")
        view = mol_view(obj)
        widget = obj
        if view is not None:
            widget = view.canvas
        elif isinstance(obj, QAbstractItemView):
            widget = obj.viewport()  # item rectangles are viewport coordinates
        mods = Qt.KeyboardModifier.NoModifier
        for m in a.get("modifiers") or []:
            mods |= {"shift": Qt.KeyboardModifier.ShiftModifier,
                     "ctrl": Qt.KeyboardModifier.ControlModifier,
                     "alt": Qt.KeyboardModifier.AltModifier}[m]
        if kind == "key":
            combo = self._key(str(a.get("key") or ""), mods)
            send_key(widget, combo)
            return {"target": self._node(obj), "key": QKeySequence(combo).toString()}, None
        pt = _point(a.get("x"), a.get("y"), widget)
        button = Qt.MouseButton.RightButton if kind == "right_click" else Qt.MouseButton.LeftButton
        if kind == "double_click":
            QTest.mouseDClick(widget, button, mods, pt)
        else:
            QTest.mouseClick(widget, button, mods, pt)
        return {"target": self._node(obj), "x": pt.x(), "y": pt.y(), "kind": kind}, None

    def _key(self, text: str, mods: Qt.KeyboardModifier) -> QKeyCombination:
        """The key to send; refused when it is a shortcut of any action of the window.

        A shortcut is a command of its own (Ctrl+, opens Preferences, Del deletes atoms):
        the agent triggers the action by name with ui_activate, where the table decides.
        """
        seq = QKeySequence(text)
        if seq.count() != 1:
            raise MolFormaError("ui_bad_key", key=text)
        first: QKeyCombination = seq[0]  # type: ignore[index]  # QKeySequence has [i]; its stubs lack it
        if first.key() == Qt.Key.Key_unknown:
            raise MolFormaError("ui_bad_key", key=text)
        combo = QKeyCombination(first.keyboardModifiers() | mods, first.key())
        pressed = QKeySequence(combo)
        for act in self._all_actions():
            for sc in act.shortcuts():
                if not sc.isEmpty() and sc.matches(pressed) == QKeySequence.SequenceMatch.ExactMatch:
                    raise MolFormaError("ui_key_is_shortcut", key=pressed.toString(),
                                        action=act.objectName() or act.text().replace("&", ""))
        return combo

    def _all_actions(self) -> list[QAction]:
        acts = list(self.window.findChildren(QAction))
        for top in QApplication.topLevelWidgets():
            if top is not self.window:
                acts.extend(top.findChildren(QAction))
        return acts

    # -- dialogs -----------------------------------------------------------------------------
    def _open_file_dialog(self, dialog_id: str | None) -> tuple[QFileDialog, str]:
        infos = [d for d in dialogs.registry.public() if d.kind == "file"]
        if dialog_id is not None:
            infos = [d for d in infos if d.id == dialog_id]
        if not infos:
            raise MolFormaError("ui_no_file_dialog")
        info = infos[-1]
        entry = dialogs.registry.find(info.id)
        dlg = entry.widget() if entry is not None else None
        if not isinstance(dlg, QFileDialog):
            raise MolFormaError("ui_no_file_dialog")
        return dlg, str(info.extra.get("mode", "open"))

    def _ui_file_dialog(self, rec: CommandRecord) -> Result:
        a = rec.command.args
        dlg, mode = self._open_file_dialog(a.get("dialogId"))
        action = str(a.get("action") or "accept")
        if a.get("directory"):
            folder = self.policy.check_path(str(a["directory"]), must_exist=True)
            dlg.setDirectory(str(folder))
        name = a.get("fileName")
        if action == "cancel":
            dlg.reject()
            return {"dialog": "cancelled"}, None
        if mode == "directory":
            target = Path(dlg.directory().absolutePath()) / (name or "")
        else:
            if not name:
                raise MolFormaError("ui_file_name_required")
            p = Path(str(name)).expanduser()
            target = p if p.is_absolute() else Path(dlg.directory().absolutePath()) / p
        checked = self.policy.check_path(str(target), for_write=mode == "save",
                                         must_exist=mode != "save")
        if mode == "save" and Path(checked).exists():
            if a.get("overwrite") is not True:
                raise MolFormaError("ui_file_exists", path=str(checked))
            # Qt's own "replace?" box is the person's: with overwrite the agent has
            # answered already, so the dialog does not ask.
            dlg.setOption(QFileDialog.Option.DontConfirmOverwrite, True)
        dlg.setDirectory(str(checked if mode == "directory" else Path(checked).parent))
        # The name field is what Qt's own accept reads (selectFile does not fill it while
        # the folder is still loading).
        edit = dlg.findChild(QLineEdit, "fileNameEdit")
        if edit is not None:
            edit.setText(str(checked))
        else:
            dlg.selectFile(str(checked))
        dlg.accept()
        return {"dialog": "accepted" if dlg.result() == 1 else "open", "path": str(checked)}, \
            None

    def _answer_dialog(self, rec: CommandRecord) -> Result:
        a = rec.command.args
        if not dialogs.registry.press(str(a["dialogId"]), a.get("button")):
            raise MolFormaError("ui_dialog_gone", dialogId=a["dialogId"])
        return {"dialogId": a["dialogId"], "button": a.get("button")}, None

    # -- chemistry, history, view, results -----------------------------------------------------
    def _chemistry(self, rec: CommandRecord) -> Result:
        a = rec.command.args
        tab = self.window.molecule_tab
        action = a["action"]
        if action == "cancel":
            running = tab.worker_running
            tab.cancel_worker()
            return {"cancelled": running}, None
        if action == "smiles":
            tab.smiles_input.setText(str(a.get("smiles") or ""))
            ok = tab.start_smiles(str(a.get("smiles") or ""))
        else:
            ok = tab.start_cleanup()
        if not ok:
            raise outcome.first() or MolFormaError("window_refused", message=tab.message.text())
        return {"started": tab.worker_state()}, self._worker_work()

    def _history_action(self, rec: CommandRecord) -> Result:
        a = rec.command.args
        panel = self.window.panels.get("history")
        if panel is None or not hasattr(panel, "scan"):
            raise MolFormaError("window_refused", message="History tab missing")
        action = a["action"]
        if action == "scan":
            before = panel.scan_handle
            panel.scan()
            if panel.scan_handle is None or panel.scan_handle is before:
                raise outcome.first() or MolFormaError("window_refused",
                                                       message=panel.status_label.text())
            return {"scanning": True}, self._scan_work()
        if action == "select":
            index = a.get("index")
            if index is None or not 0 <= int(index) < panel.table.rowCount():
                raise MolFormaError("ui_bad_index", index=index, count=panel.table.rowCount())
            panel.select_index(int(index))
            return {"selected": panel.selected_folder()}, None
        if action == "export_csv":
            path = a.get("path")
            if not path:
                raise MolFormaError("path_required", action=action)
            checked = str(self.policy.check_path(str(path), for_write=True))
            out = panel.export_csv(checked)
            if out is None:
                raise outcome.first() or MolFormaError("window_refused",
                                                       message=panel.status_label.text())
            return {"path": out, "rows": len(panel.rows)}, None
        folder = panel.selected_folder()
        if folder is None:
            raise MolFormaError("history_nothing_selected")
        self.policy.check_path(folder, must_exist=True)
        fn = {"reuse": panel.reuse_selected, "open_results": panel.open_selected_in_results,
              "open_folder": panel.open_selected_folder, "trash": panel.trash_selected}[action]
        ok = bool(fn())
        if not ok and action != "trash":
            raise outcome.first() or MolFormaError("window_refused",
                                                   message=panel.status_label.text())
        return {"folder": folder, "done": ok}, None

    def _view(self, rec: CommandRecord) -> Result:
        a = rec.command.args
        which = a.get("view") or "molecule"
        view = self.window.molecule_tab.view if which == "molecule" else \
            self.window.panels["results"].view  # type: ignore[attr-defined]
        action = a["action"]
        if action == "fit":
            view.fit()
        elif action == "reset":
            view.reset_view()
        elif action == "rotate":
            view.rotate_by(float(a.get("dx") or 0.0), float(a.get("dy") or 0.0))
        elif action == "zoom":
            view.zoom_by(float(a.get("factor") or 1.0))
        elif action == "style":
            view.set_style(str(a.get("style")))
        return {"view": which, "style": view.style}, None

    def _results_action(self, rec: CommandRecord) -> Result:
        a = rec.command.args
        panel = self.window.panels["results"]
        panel.catch_up()  # type: ignore[attr-defined]
        action = a["action"]
        if action == "use_structure":  # "Use this structure": the shown one unless index
            from molforma.app.ops import use_results_structure

            index = a.get("index")
            edit = use_results_structure(
                self.window.ctx.document, panel.results,  # type: ignore[attr-defined]
                panel.trajectory_slider.value() if index is None else int(index),  # type: ignore[attr-defined]
                preview=bool(a.get("preview", True)), origin="mcp")
            self.window.show_tab("molecule")
            return {"edit": edit}, None
        if action == "stop":
            panel.stop()  # type: ignore[attr-defined]
        elif action == "play_mode":
            panel.play_mode(int(a.get("index") or 0), a.get("amplitude"))  # type: ignore[attr-defined]
        else:
            panel.show_structure(int(a.get("index") or 0))  # type: ignore[attr-defined]
        self.window.show_tab("results")
        return {"playing": bool(panel.playing)}, None  # type: ignore[attr-defined]


def _kept(obj: Any, value: Any, shown: Any) -> bool:
    """True when the field shows what was set (allowing the panel's own spelling: the
    case of a basis name, a trimmed path, a spin box's rounding, a choice by index)."""
    if isinstance(obj, QLineEdit | QPlainTextEdit | QTextEdit):
        return str(shown).strip() == ("" if value is None else str(value)).strip()
    if isinstance(obj, QDoubleSpinBox):
        return abs(float(shown) - float(value)) <= 10 ** -obj.decimals()
    if isinstance(obj, QSpinBox | QAbstractSlider):
        return int(shown) == int(float(value))
    if isinstance(obj, QComboBox):
        if isinstance(value, int) and not isinstance(value, bool):
            return obj.currentIndex() == value
        return str(shown).casefold() == str(value).strip().casefold() or \
            bool(obj.currentData() == value)
    if isinstance(obj, QAbstractButton):
        return bool(shown) == bool(value)
    return True


def _children_last_first(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    found = (item.child(k) for k in range(item.childCount() - 1, -1, -1))
    return [c for c in found if c is not None]


def _public_modal(modal: QWidget) -> bool:
    """True for a MolForma dialog MCP may answer (registered and not private)."""
    did = modal.property("molformaDialogId")
    return (not modal.property("molformaPrivate") and isinstance(did, str)
            and dialogs.registry.find(did) is not None)


# -- input events ---------------------------------------------------------------------------------
MAX_COORDINATE = 100_000  # pixels; the largest window is a few thousand wide


def send_key(widget: QWidget, combo: QKeyCombination) -> None:
    """Press and release ``combo`` on ``widget`` alone.

    The event goes to the widget's own ``event()`` (and, when it ignores it, to its
    parents up to, not including, the window), never through ``QApplication.notify``:
    for a key press that is not spontaneous, notify first sends a ShortcutOverride and
    tries the shortcut map (as ``QTest.keyClick`` does), so Ctrl+, would open Preferences
    whatever widget was named. No application shortcut can fire this way.
    """
    key, mods = combo.key(), combo.keyboardModifiers()
    text = QKeySequence(key).toString() if mods in (Qt.KeyboardModifier.NoModifier,
                                                    Qt.KeyboardModifier.ShiftModifier) else ""
    if len(text) != 1:
        text = {Qt.Key.Key_Return: "\r", Qt.Key.Key_Enter: "\r", Qt.Key.Key_Tab: "\t",
                Qt.Key.Key_Space: " "}.get(key, "")
    elif mods == Qt.KeyboardModifier.NoModifier:
        text = text.lower()
    for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
        w: QWidget | None = widget
        while w is not None and (w is widget or not w.isWindow()):
            ev = QKeyEvent(kind, key, mods, text)
            w.event(ev)
            if ev.isAccepted() or w.isWindow():
                break
            w = w.parentWidget()


def _point(x: Any, y: Any, widget: QWidget) -> QPoint:
    """The widget point (x, y); refused when missing, not finite or outside the widget."""
    try:
        fx, fy = float(x), float(y)
    except (TypeError, ValueError):
        raise MolFormaError("ui_bad_point", x=x, y=y, width=widget.width(),
                            height=widget.height()) from None
    if not (abs(fx) <= MAX_COORDINATE and abs(fy) <= MAX_COORDINATE):  # also NaN
        raise MolFormaError("ui_bad_point", x=x, y=y, width=widget.width(),
                            height=widget.height())
    pt = QPoint(round(fx), round(fy))
    if not widget.rect().contains(pt):
        raise MolFormaError("ui_bad_point", x=x, y=y, width=widget.width(),
                            height=widget.height())
    return pt


# -- values -------------------------------------------------------------------------------------
def _pick_index(index: Any, text: Any, labels: list[str]) -> int:
    if text is not None:
        for i, lab in enumerate(labels):
            if lab == str(text):
                return i
        raise MolFormaError("ui_bad_choice", value=text, choices=labels)
    if index is None or not 0 <= int(index) < len(labels):
        raise MolFormaError("ui_bad_index", index=index, count=len(labels))
    return int(index)


def set_value(obj: Any, value: Any) -> None:
    """Set a widget's value and emit what a person's edit and Enter emit.

    Raises:
        MolFormaError: ``ui_wrong_kind`` / ``ui_bad_value`` / ``ui_bad_choice``.
    """
    if isinstance(obj, QLineEdit):
        if obj.isReadOnly():
            raise MolFormaError("ui_read_only", target=obj.objectName())
        obj.setFocus()
        obj.setText("" if value is None else str(value))
        obj.textEdited.emit(obj.text())
        # The panels commit on editingFinished (what Enter or leaving the field emits).
        obj.editingFinished.emit()
    elif isinstance(obj, QSpinBox | QDoubleSpinBox):
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise MolFormaError("ui_bad_value", value=value, expected="a number")
        try:
            num = float(value)
        except ValueError:
            raise MolFormaError("ui_bad_value", value=value, expected="a number") from None
        if not obj.minimum() <= num <= obj.maximum():
            raise MolFormaError("ui_bad_value", value=value,
                                expected=f"{obj.minimum()} … {obj.maximum()}")
        if isinstance(obj, QSpinBox):
            obj.setValue(int(num))
        else:
            obj.setValue(num)
        obj.editingFinished.emit()
    elif isinstance(obj, QComboBox):
        labels = [obj.itemText(i) for i in range(obj.count())]
        if isinstance(value, int) and not isinstance(value, bool):
            i = _pick_index(value, None, labels)
        else:
            i = obj.findText(str(value), Qt.MatchFlag.MatchFixedString)
            if i < 0:
                i = obj.findData(value)
            line = obj.lineEdit() if obj.isEditable() else None
            if i < 0 and line is not None:
                # A name typed into an editable combo box, committed with Enter.
                line.setText(str(value))
                line.editingFinished.emit()
                return
            if i < 0:
                raise MolFormaError("ui_bad_choice", value=value, choices=labels)
        obj.setCurrentIndex(i)
        obj.activated.emit(i)
        obj.textActivated.emit(obj.itemText(i))
    elif isinstance(obj, QCheckBox) or (isinstance(obj, QAbstractButton) and obj.isCheckable()):
        if not isinstance(value, bool):
            raise MolFormaError("ui_bad_value", value=value, expected="true or false")
        if obj.isChecked() != value:
            obj.click()  # toggled and clicked, as a person's click
    elif isinstance(obj, QPlainTextEdit | QTextEdit):
        if obj.isReadOnly():
            raise MolFormaError("ui_read_only", target=obj.objectName())
        obj.setPlainText("" if value is None else str(value))
    elif isinstance(obj, QAbstractSlider):
        if isinstance(value, bool) or not isinstance(value, int):
            raise MolFormaError("ui_bad_value", value=value, expected="an integer")
        if not obj.minimum() <= value <= obj.maximum():
            raise MolFormaError("ui_bad_value", value=value,
                                expected=f"{obj.minimum()} … {obj.maximum()}")
        obj.setValue(value)
        obj.sliderReleased.emit()
    elif isinstance(obj, QTabWidget):
        obj.setCurrentIndex(_pick_index(value if isinstance(value, int) else None,
                                        value if isinstance(value, str) else None,
                                        [obj.tabText(i).replace("&", "")
                                         for i in range(obj.count())]))
    else:
        raise MolFormaError("ui_wrong_kind", target=getattr(obj, "objectName", lambda: "")(),
                            kind=type(obj).__name__,
                            accepted="line edits, spin boxes, combo boxes, check boxes, "
                                     "text editors, sliders, tabs")


__all__ = ["CommandRunner", "QPointF", "set_value"]
