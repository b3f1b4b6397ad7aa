"""The ``ui_*`` window commands (and ``answer_dialog``): a click, a value, a cell, a
selection or an input event on a declared widget, run on the GUI thread (Qt layer)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QKeyCombination,
    Qt,
)
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QFileDialog,
    QLineEdit,
    QListWidget,
    QTableView,
    QTableWidget,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from molforma.errors import MolFormaError, UnknownAtomError
from molforma.gui import controls, dialogs, outcome
from molforma.gui.command_work import Result
from molforma.gui.controls import Control
from molforma.gui.introspection import mol_view, tab_page, widget_value
from molforma.mcp.window_commands import CommandRecord

if TYPE_CHECKING:
    from molforma.gui.introspection import WindowIntrospection
    from molforma.gui.main_window import MainWindow
    from molforma.mcp.tools.window import (
        UiActivateInput,
        UiEditCellInput,
        UiFileDialogInput,
        UiInputInput,
        UiSelectInput,
        UiSetValueInput,
    )
    from molforma.mcp.window_commands import AnswerDialogInput

from molforma.gui.widget_input import (
    children_last_first,
    pick_index,
    send_drag,
    send_key,
    set_value,
    value_kept,
    widget_point,
)

log = logging.getLogger("molforma.mcp")


class UiToolCommands:
    """Runs the ``ui_*`` commands and ``answer_dialog`` on the widgets MCP may drive."""

    def __init__(self, window: MainWindow, intro: WindowIntrospection, policy: Any) -> None:
        self.window = window
        self.intro = intro
        self.policy = policy

    def _target(self, rec: CommandRecord) -> Any:
        """The target of a ``ui_*`` command, declared drivable for that tool."""
        obj, _row = self._declared(rec)
        return obj

    def _declared(self, rec: CommandRecord) -> tuple[Any, Control]:
        obj = self.intro.resolve(str(rec.command.args.get("target", "")))
        return obj, self.intro.check_drivable(obj, rec.command.tool)

    def _node(self, obj: Any) -> dict[str, Any]:
        return self.intro.node(obj)

    def ui_activate(self, rec: CommandRecord, a: UiActivateInput) -> Result:
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
            raise MolFormaError(
                "ui_wrong_kind",
                target=node["id"],
                kind=node["class"],
                accepted="buttons, menu actions (molforma.*)",
            )
        return {"target": node}, None

    def ui_set_value(self, rec: CommandRecord, a: UiSetValueInput) -> Result:
        obj, row = self._declared(rec)
        value = a.value
        # The setting's own check (the one its MCP tool makes), before the field changes:
        # the window never stores what set_execution / set_advanced would refuse.
        controls.validate(row, value, self.policy)
        set_value(obj, value)
        shown = widget_value(obj, full=True)
        if not value_kept(obj, row.stored(value) if row.stored is not None else value, shown):
            # A field that quietly went back to the stored value: a refusal, never "done".
            # (A panel that showed its reason has already put it in the record.)
            outcome.refused(
                MolFormaError(
                    "ui_value_not_kept", target=obj.objectName(), value=value, shown=shown
                )
            )
        return {"target": self._node(obj), "value": shown}, None

    def ui_edit_cell(self, rec: CommandRecord, a: UiEditCellInput) -> Result:
        obj = self._target(rec)
        row, col, value = int(a.row), int(a.column), a.value
        if not isinstance(obj, QTableView):
            raise MolFormaError(
                "ui_wrong_kind",
                target=self.intro.id_of(obj),
                kind=type(obj).__name__,
                accepted="tables",
            )
        model = obj.model()
        if not (0 <= row < model.rowCount() and 0 <= col < model.columnCount()):
            raise MolFormaError(
                "ui_bad_cell",
                row=row,
                column=col,
                rows=model.rowCount(),
                columns=model.columnCount(),
            )
        idx = model.index(row, col)
        if not model.flags(idx) & Qt.ItemFlag.ItemIsEditable and not (
            model.flags(idx) & Qt.ItemFlag.ItemIsUserCheckable
        ):
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
        return {
            "target": self._node(obj),
            "row": row,
            "column": col,
            "shown": "" if shown is None else str(shown),
        }, None

    def ui_select(self, rec: CommandRecord, a: UiSelectInput) -> Result:
        obj = self._target(rec)
        index, text, rows, atoms = a.index, a.text, a.rows, a.atomIds
        view = mol_view(obj)
        if view is not None:
            ids = [str(x) for x in (atoms or [])]
            known = set(view.scene.ids)
            missing = [x for x in ids if x not in known]
            if missing:
                # the message names them ({id}); the details list them for a client
                raise UnknownAtomError(id=", ".join(missing[:20]), atomIds=missing)
            tab = self.window.molecule_tab
            if view is tab.view:
                tab.set_selection(ids)
            else:
                view.set_selection(ids)
            return {"target": self._node(obj), "selection": list(view.selection())}, None
        if isinstance(obj, QTabWidget):
            i = pick_index(
                index, text, [obj.tabText(k).replace("&", "") for k in range(obj.count())]
            )
            obj.setCurrentIndex(i)
        elif isinstance(obj, QComboBox):
            set_value(obj, text if text is not None else index)
        elif isinstance(obj, QListWidget):
            i = pick_index(index, text, [obj.item(k).text() for k in range(obj.count())])
            obj.setCurrentRow(i)
        elif isinstance(obj, QTreeWidget):
            flat: list[QTreeWidgetItem] = []
            stack = children_last_first(obj.invisibleRootItem())
            while stack:  # depth first, in the order the tree shows its rows
                cur = stack.pop()
                flat.append(cur)
                stack.extend(children_last_first(cur))
            i = pick_index(index, text, [x.text(0) for x in flat])
            obj.setCurrentItem(flat[i])
        elif isinstance(obj, QAbstractItemView):
            model = obj.model()
            wanted = [
                int(r)
                for r in (rows if rows is not None else ([index] if index is not None else []))
            ]
            bad = [r for r in wanted if not 0 <= r < model.rowCount()]
            if bad or not wanted:
                raise MolFormaError("ui_bad_index", index=bad or wanted, count=model.rowCount())
            obj.clearSelection()
            mode = obj.selectionMode()
            if len(wanted) > 1 and mode != QAbstractItemView.SelectionMode.SingleSelection:
                obj.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
            for r in wanted:
                obj.selectRow(r) if isinstance(obj, QTableView) else obj.setCurrentIndex(
                    model.index(r, 0)
                )
            obj.setSelectionMode(mode)
        else:
            raise MolFormaError(
                "ui_wrong_kind",
                target=self.intro.id_of(obj),
                kind=type(obj).__name__,
                accepted="tabs, tables, lists, trees, combo boxes, 3D views",
            )
        return {"target": self._node(obj)}, None

    def ui_input(self, rec: CommandRecord, a: UiInputInput) -> Result:
        obj = self._target(rec)
        if not isinstance(obj, QWidget):
            raise MolFormaError(
                "ui_wrong_kind",
                target=self.intro.id_of(obj),
                kind=type(obj).__name__,
                accepted="widgets",
            )
        kind = str(a.kind or "click")
        view = mol_view(obj)
        widget = obj
        if view is not None:
            widget = view.canvas
        elif isinstance(obj, QAbstractItemView):
            widget = obj.viewport()  # item rectangles are viewport coordinates
        mods = Qt.KeyboardModifier.NoModifier
        for m in a.modifiers or []:
            mods |= {
                "shift": Qt.KeyboardModifier.ShiftModifier,
                "ctrl": Qt.KeyboardModifier.ControlModifier,
                "alt": Qt.KeyboardModifier.AltModifier,
            }[m]
        if kind == "key":
            combo = self._key(str(a.key or ""), mods)
            send_key(widget, combo)
            return {"target": self._node(obj), "key": QKeySequence(combo).toString()}, None
        pt = widget_point(a.x, a.y, widget)
        if kind == "drag":
            end = widget_point(a.x2, a.y2, widget)
            send_drag(widget, pt, end, mods)
            return {"target": self._node(obj), "x": pt.x(), "y": pt.y(), "kind": kind}, None
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
                if (
                    not sc.isEmpty()
                    and sc.matches(pressed) == QKeySequence.SequenceMatch.ExactMatch
                ):
                    raise MolFormaError(
                        "ui_key_is_shortcut",
                        key=pressed.toString(),
                        action=act.objectName() or act.text().replace("&", ""),
                    )
        return combo

    def _all_actions(self) -> list[QAction]:
        acts = list(self.window.findChildren(QAction))
        for top in QApplication.topLevelWidgets():
            if top is not self.window:
                acts.extend(top.findChildren(QAction))
        return acts

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

    def ui_file_dialog(self, rec: CommandRecord, a: UiFileDialogInput) -> Result:
        dlg, mode = self._open_file_dialog(a.dialogId)
        action = str(a.action or "accept")
        if a.directory:
            folder = self.policy.check_path(str(a.directory), must_exist=True)
            dlg.setDirectory(str(folder))
        name = a.fileName
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
        checked = self.policy.check_path(
            str(target), for_write=mode == "save", must_exist=mode != "save"
        )
        if mode == "save" and Path(checked).exists():
            if a.overwrite is not True:
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
        return {"dialog": "accepted" if dlg.result() == 1 else "open", "path": str(checked)}, None

    def answer_dialog(self, rec: CommandRecord, a: AnswerDialogInput) -> Result:
        if not dialogs.registry.press(str(a.dialogId), a.button):
            raise MolFormaError("ui_dialog_gone", dialogId=a.dialogId)
        return {"dialogId": a.dialogId, "button": a.button}, None
