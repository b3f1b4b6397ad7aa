"""The window is closed by default: only the controls MolForma declares can be driven.

Every widget ``get_ui includeHidden`` lists — in the main window and in every dialog the
window can open — is either a row of :mod:`molforma.gui.controls` (for its kind's tools
only) or refused; private dialogs (Preferences, the Run confirmation, Qt's own boxes)
and the insides of file dialogs are not even listed; no key MCP sends fires an
application shortcut.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit, QMessageBox, QWidget

from molforma.errors import MolFormaError
from molforma.gui import dialogs
from molforma.gui.controls import CONTROLS, Kind
from molforma.gui.dialogs import ask as real_ask
from molforma.gui.dialogs import get_directory as real_get_directory
from molforma.gui.dialogs import get_open_path as real_get_open_path
from molforma.gui.dialogs import get_save_path as real_get_save_path
from molforma.gui.dialogs import info as real_info
from molforma.gui.dialogs import run_dialog as real_run_dialog
from molforma.mcp.window_commands import WindowCommand

TOOLS = ("ui_activate", "ui_set_value", "ui_edit_cell", "ui_select", "ui_input")
REFUSALS = {
    "ui_not_drivable",
    "blocked_execution_setting",
    "blocked_extra_input",
    "blocked_preferences",
    "blocked_private_dialog",
}


def _runner(win: Any) -> Any:
    from molforma.app.policy import Policy
    from molforma.gui.commands import CommandRunner
    from molforma.gui.introspection import WindowIntrospection

    intro = WindowIntrospection(win)
    return CommandRunner(win, intro, win.mcp_bridge, Policy())


def _walk(intro: Any, where: str, *, dialog_only: bool = False) -> dict[str, list[str]]:
    """Check every listed node; return objectName -> drivable tools of the drivable ones
    (of the open dialog's nodes alone with ``dialog_only``)."""
    drivable: dict[str, list[str]] = {}
    nodes = intro.get_ui({"includeHidden": True})["nodes"]
    if dialog_only:
        nodes = [n for n in nodes if n.get("dialog")]
    assert nodes, where
    for node in nodes:
        obj = intro.resolve(node["id"])
        tools = node["drivable"]
        shown = f"{where}: {node['objectName'] or node['id']} ({node['class']})"
        if tools:
            row = intro.control(obj)
            assert row is not None and sorted(row.tools) == tools, shown
            drivable[node["objectName"]] = tools
        for tool in TOOLS:
            if tool in tools:
                continue
            with pytest.raises(MolFormaError) as err:
                intro.check_drivable(obj, tool)
            allowed = REFUSALS | ({"ui_wrong_tool"} if tools else set())
            assert err.value.code in allowed, (shown, tool, err.value.code)
    return drivable


def test_every_widget_of_the_main_window_is_declared_or_refused(make_main_window: Any) -> None:
    win = make_main_window(mcp_mode=True)
    win.build_panels()
    intro = _runner(win).intro
    drivable = _walk(intro, "main window")
    # Spot checks of the table's meaning: fields and buttons a chemist uses are drivable,
    # labels, logs and person-only settings are not.
    assert drivable["processesSpin"] == ["ui_set_value"]
    assert drivable["runButton"] == ["ui_activate", "ui_input"]
    assert drivable["moleculeCanvas"] == ["ui_input", "ui_select"]
    assert "ui_edit_cell" in drivable["coordinateTable"]
    for name in (
        "executableEdit",
        "environmentTable",
        "extraInputEdit",
        "schedulerCombo",
        "accountEdit",
        "batchDirectivesEdit",
        "molforma.edit.preferences",
        "jobStatusLabel",
        "executionLog",
        "inputPreview",
        "menuBar",
        "advanced_memory_mbMessage",
        "ScrollLeftButton",
    ):
        assert name not in drivable, name
    blocked = {b["objectName"]: b["reason"] for b in intro.get_ui({})["blocked"]}
    assert blocked["executableEdit"] == "blocked_execution_setting"
    assert blocked["molforma.edit.preferences"] == "blocked_preferences"


def test_every_declared_row_names_a_control_the_window_has(make_main_window: Any) -> None:
    """The table is not a wish list: each main-window row binds to a widget of its kind."""
    win = make_main_window(mcp_mode=True)
    win.build_panels()
    intro = _runner(win).intro
    objects = [o for o, _d in intro.objects(include_hidden=True)]
    for row in CONTROLS:
        if row.dialog is not None:
            continue
        bound = [o for o in objects if row.matches(o.objectName()) and intro.control(o) is row]
        assert bound, f"{row.name} ({row.kind.value}) binds to no widget"


def _inside(win: Any, open_dialog: Any, inspect: Any) -> dict[str, Any]:
    """Open a dialog (modal), run ``inspect(seen)`` inside its loop, then close it."""
    seen: dict[str, Any] = {}

    def run() -> None:
        try:
            inspect(seen)
        finally:
            modal = QApplication.activeModalWidget()
            if modal is not None:
                modal.reject() if hasattr(modal, "reject") else modal.close()

    QTimer.singleShot(300, run)
    seen["result"] = open_dialog()
    return seen


def test_molformas_own_dialogs_are_declared_or_refused(make_main_window: Any) -> None:
    win = make_main_window(mcp_mode=True)
    intro = _runner(win).intro

    def question(seen: dict[str, Any]) -> None:
        seen["drivable"] = _walk(intro, "question", dialog_only=True)

    seen = _inside(
        win,
        lambda: real_ask(
            win, "Move to trash", "Move it?", ["Move to trash", "Cancel"], escape="Cancel"
        ),
        question,
    )
    assert seen["drivable"] == {
        "messageBoxButton0": ["ui_activate", "ui_input"],
        "messageBoxButton1": ["ui_activate", "ui_input"],
    }
    seen = _inside(win, lambda: real_info(win, "Saved", "Saved water.xyz"), question)
    assert seen["drivable"] == {"messageBoxButton0": ["ui_activate", "ui_input"]}

    from molforma.gui.widgets.structure_choice import StructureChoiceDialog

    dlg = StructureChoiceDialog(win, 3, ["A", "B"], pdb=True)
    seen = _inside(win, lambda: real_run_dialog(dlg), question)
    assert set(seen["drivable"]) == {
        "structureFrame",
        "structureAltloc",
        "structureChoiceOk",
        "structureChoiceCancel",
    }


@pytest.mark.parametrize("which", ["open", "save", "directory"])
def test_the_inside_of_a_file_dialog_is_never_listed_or_driven(
    make_main_window: Any, which: str
) -> None:
    win = make_main_window(mcp_mode=True)
    intro = _runner(win).intro

    def inspect(seen: dict[str, Any]) -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, QFileDialog)
        ui = intro.get_ui({"includeHidden": True})
        seen["listed"] = [n["objectName"] for n in ui["nodes"] if n.get("dialog")]
        seen["modal"] = ui["activeModal"]
        seen["drivable"] = _walk(intro, f"{which} dialog", dialog_only=True)
        # Its children exist (Qt's name field, buttons, folder list) but are no target.
        children = [w for w in dlg.findChildren(QWidget) if w.objectName()]
        assert children
        for child in children:
            with pytest.raises(MolFormaError) as err:
                intro.resolve(child.objectName())
            assert err.value.code in ("ui_not_found", "ui_ambiguous")
            for tool in TOOLS:
                with pytest.raises(MolFormaError) as err:
                    intro.check_drivable(child, tool)
                assert err.value.code == "ui_not_drivable"
        with pytest.raises(MolFormaError) as err:
            intro.screenshot(intro.id_of(dlg))
        seen["capture"] = err.value.code
        seen["name_field"] = dlg.findChild(QLineEdit, "fileNameEdit") is not None

    opener = {
        "open": lambda: real_get_open_path(win, "Open", "XYZ (*.xyz)"),
        "save": lambda: real_get_save_path(win, "Export", "XYZ (*.xyz)", "w.xyz"),
        "directory": lambda: real_get_directory(win, "Job root"),
    }[which]
    seen = _inside(win, opener, inspect)
    assert seen["listed"] == ["fileDialog"]  # the dialog itself, nothing inside it
    assert seen["modal"]["kind"] == "file"
    assert seen["drivable"] == {}
    assert seen["capture"] == "blocked_file_dialog"
    assert seen["result"] is None  # closed without a path


def test_qt_boxes_and_preferences_are_private(
    make_main_window: Any, monkeypatch: Any, qtbot: Any
) -> None:
    win = make_main_window(mcp_mode=True)
    runner = _runner(win)
    intro = runner.intro

    def inspect(seen: dict[str, Any]) -> None:
        modal = QApplication.activeModalWidget()
        ui = intro.get_ui({"includeHidden": True})
        seen["listed"] = [
            n
            for n in ui["nodes"]
            if n.get("dialog")
            or (isinstance(o := intro.resolve(n["id"]), QWidget) and o.window() is modal)
        ]
        seen["modal"] = ui["activeModal"]
        for b in modal.findChildren(QWidget):
            for tool in TOOLS:
                with pytest.raises(MolFormaError):
                    intro.check_drivable(b, tool)
        rec = runner.store.add(
            WindowCommand(tool="ui_set_value", args={"target": "processesSpin", "value": 3}),
            wake=False,
        )
        runner.drain()
        seen["command"] = rec

    # A box of Qt's own (as a file dialog's "replace?"): not MolForma's to show MCP.
    box = QMessageBox(
        QMessageBox.Icon.Question,
        "Confirm",
        "w.xyz already exists. Replace?",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        win,
    )
    seen = _inside(win, box.exec, inspect)
    assert seen["listed"] == [] and seen["modal"] is None
    assert seen["command"].status == "failed"
    assert seen["command"].error.code == "ui_person_dialog_open"

    monkeypatch.setattr(dialogs, "run_dialog", real_run_dialog)
    seen = _inside(win, win.open_preferences, inspect)
    assert seen["listed"] == [] and seen["modal"] is None
    assert seen["command"].error.code == "ui_person_dialog_open"
    assert win.ctx.document.project["execution"]["processes"] == 1


def test_no_application_shortcut_fires_from_an_mcp_key(
    make_main_window: Any, dialog_log: Any, qtbot: Any
) -> None:
    """Every shortcut of every action, sent through ui_input to every target that takes
    keys, is refused up front; and the key path itself never consults the shortcut map."""
    from molforma.gui.commands import send_key

    win = make_main_window(mcp_mode=True)
    win.build_panels()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)  # shortcuts are live
    runner = _runner(win)
    fired: list[str] = []
    actions = [a for a in win.findChildren(QAction) if a.shortcuts()]
    assert len(actions) >= 20

    def recorder(name: str) -> Any:
        return lambda _checked=False: fired.append(name)

    for act in actions:
        act.triggered.connect(recorder(act.objectName()))
    tab = win.tabs.currentIndex()
    rev = win.ctx.document.revision
    targets = [
        o.objectName()
        for o, _d in runner.intro.objects(True)
        if "ui_input" in runner.intro.drivable_tools(o)
        and runner.intro.control(o).kind in (Kind.VIEW, Kind.TABLE)
    ]
    assert {"moleculeCanvas", "coordinateTable"} <= set(targets)
    records = []
    for act in actions:
        for seq in act.shortcuts():
            for target in ("moleculeCanvas", "coordinateTable"):
                records.append(
                    runner.store.add(
                        WindowCommand(
                            tool="ui_input",
                            args={"target": target, "kind": "key", "key": seq.toString()},
                        ),
                        wake=False,
                    )
                )
                runner.drain()
    assert records and all(r.status == "failed" for r in records)
    assert {r.error.code for r in records} == {"ui_key_is_shortcut"}
    # Under the refusal: the key path hands events to the widget alone.
    canvas = win.findChild(QWidget, "moleculeCanvas")
    for act in actions:
        for seq in act.shortcuts():
            send_key(canvas, seq[0])
    for seq in (QKeySequence("Ctrl+,"), QKeySequence("Ctrl+Q"), QKeySequence("Ctrl+O")):
        send_key(win, seq[0])
    QApplication.processEvents()
    assert fired == []
    assert dialog_log.calls == []  # no file dialog, no Preferences, no question
    assert win.isVisible() and win.tabs.currentIndex() == tab
    assert win.ctx.document.revision == rev
    # The same key through Qt's test path (what ui_input used) does fire: the check above
    # could see a shortcut.
    ctrl3 = QKeySequence("Ctrl+3")[0]
    QTest.keyClick(canvas, ctrl3.key(), ctrl3.keyboardModifiers())
    assert fired == ["molforma.view.tab_execution"]


def test_a_field_that_quietly_goes_back_fails_the_command(make_main_window: Any) -> None:
    """The runner reads the field back: a value the window did not keep is never "done",
    even when no panel said why (a field that quietly restores the stored value)."""
    win = make_main_window(mcp_mode=True)
    win.build_panels()
    runner = _runner(win)
    edit = win.findChild(QLineEdit, "smilesInput")
    edit.setText("C")
    edit.editingFinished.connect(lambda: edit.setText("C"))  # a quiet refusal
    rec = runner.store.add(
        WindowCommand(tool="ui_set_value", args={"target": "smilesInput", "value": "CCO"}),
        wake=False,
    )
    runner.drain()
    assert rec.status == "failed" and rec.error.code == "ui_value_not_kept"
    assert rec.error.data["shown"] == "C"
    kept = runner.store.add(
        WindowCommand(tool="ui_set_value", args={"target": "moleculeTitle", "value": "wet"}),
        wake=False,
    )
    runner.drain()
    assert kept.status == "done" and kept.result["value"] == "wet"
