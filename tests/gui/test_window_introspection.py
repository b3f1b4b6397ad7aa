"""The dialog service and the command runner in the window itself (pytest-qt, offscreen)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from molforma.gui import dialogs
from molforma.gui.dialogs import ask as real_ask  # taken before the tests patch dialogs
from molforma.mcp.window_commands import WindowCommand


def _runner(win: Any) -> Any:
    from molforma.app.policy import Policy
    from molforma.gui.commands import CommandRunner
    from molforma.gui.introspection import WindowIntrospection

    intro = WindowIntrospection(win)
    return CommandRunner(win, intro, win.mcp_bridge, Policy())


def test_a_private_question_is_never_listed_pressed_or_driven(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window(mcp_mode=True)
    runner = _runner(win)
    seen: dict[str, Any] = {}

    def inspect() -> None:
        modal = QApplication.activeModalWidget()
        seen["modal"] = isinstance(modal, QMessageBox)
        seen["public"] = dialogs.registry.public()
        seen["private_open"] = dialogs.registry.any_private()
        did = modal.property("molformaDialogId")
        seen["found"] = dialogs.registry.find(did)
        seen["pressed"] = dialogs.registry.press(did, "Yes")
        ui = runner.intro.get_ui({"includeHidden": True})
        seen["active"] = ui["activeModal"]
        seen["listed"] = [
            n for n in ui["nodes"] if n.get("dialog") or n["objectName"].startswith("messageBox")
        ]
        rec = runner.store.add(
            WindowCommand(tool="ui_activate", args={"target": "messageBoxButton0"}), wake=False
        )
        runner.drain()
        seen["command"] = rec
        no = next(b for b in modal.buttons() if b.text() == "No")
        no.click()  # the person answers

    QTimer.singleShot(200, inspect)
    answer = real_ask(
        win,
        "Run with these settings?",
        "executable: /bin/x",
        ["Yes", "No"],
        default="No",
        escape="No",
        private=True,
    )
    assert seen["modal"] and answer == "No"
    assert seen["public"] == [] and seen["private_open"]
    assert seen["found"] is None and seen["pressed"] is False
    assert seen["active"] is None and seen["listed"] == []
    assert seen["command"].status == "failed"
    assert seen["command"].error.code == "ui_person_dialog_open"
    assert dialogs.registry.public() == [] and not dialogs.registry.any_private()


def test_a_public_question_is_registered_with_its_command_and_answered(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window(mcp_mode=True)
    seen: dict[str, Any] = {}

    def inspect() -> None:
        (info,) = dialogs.registry.public()
        seen["info"] = info
        seen["pressed"] = dialogs.registry.press(info.id, None)  # Escape button

    dialogs.registry.command_id = "cmd-7"
    try:
        QTimer.singleShot(200, inspect)
        answer = real_ask(
            win,
            "Move to trash",
            "Move it?",
            ["Move to trash", "Cancel"],
            default="Cancel",
            escape="Cancel",
        )
    finally:
        dialogs.registry.command_id = None
    info = seen["info"]
    assert info.title == "Move to trash" and info.buttons == ("Move to trash", "Cancel")
    assert info.escape == "Cancel" and info.command_id == "cmd-7"
    assert seen["pressed"] is True and answer == "Cancel"
    assert dialogs.registry.public() == []


def test_window_command_edits_are_recorded_as_mcp_and_leave_trust_alone(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window(mcp_mode=True)
    runner = _runner(win)
    doc = win.ctx.document
    trusted = dict(doc.trusted)
    rec = runner.store.add(
        WindowCommand(
            tool="ui_set_value",
            args={"target": "processesSpin", "value": 3},
            document_id=doc.id,
            expected_revision=doc.revision,
        ),
        wake=False,
    )
    runner.drain()
    assert rec.status == "done", rec.error
    assert doc.project["execution"]["processes"] == 3
    assert doc._undo[-1].origin == "mcp"
    assert doc.trusted == trusted
    # The person's own edit of the same field is theirs.
    win.panels["execution"].processes_spin.setValue(4)
    win.panels["execution"].processes_spin.editingFinished.emit()
    assert doc._undo[-1].origin == "user"


def test_each_3d_view_names_its_own_canvas_also_after_a_painter_fallback(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    results_view = win.panels["results"].view
    assert win.molecule_tab.view.canvas.objectName() == "moleculeCanvas"
    assert results_view.canvas.objectName() == "resultsCanvas"
    old = results_view.canvas
    results_view.fall_back_to_painter()
    qtbot.waitUntil(lambda: results_view.canvas is not old, timeout=3000)
    assert results_view.canvas.objectName() == "resultsCanvas"
    assert win.molecule_tab.view.canvas.objectName() == "moleculeCanvas"
