"""The main window as a person meets it: tabs, menus, title, files, closing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QTabWidget, QWidget

from molforma.app import ops
from molforma.app.actor import Actor
from tests.gui.helpers import WATER


def test_window_has_the_five_tabs_with_their_names(make_main_window: Any) -> None:
    win = make_main_window()
    tabs = win.findChild(QTabWidget, "mainTabs")
    assert win.objectName() == "mainWindow"
    assert [tabs.tabText(i) for i in range(tabs.count())] == [
        "1 Molecule",
        "2 Calculation",
        "3 Execution",
        "Results",
        "History",
    ]
    assert [tabs.widget(i).objectName() for i in range(tabs.count())] == [
        "moleculeTab",
        "calculationTab",
        "executionTab",
        "resultsTab",
        "historyTab",
    ]


def test_menus_hold_every_action_of_the_table_with_unique_names(make_main_window: Any) -> None:
    from molforma.gui.actions import ACTIONS

    win = make_main_window()
    titles = [a.text().replace("&", "") for a in win.menuBar().actions()]
    assert titles == ["File", "Edit", "View", "Help"]
    names = [a.objectName() for a in win.findChildren(QAction) if a.objectName()]
    for spec in ACTIONS:
        assert names.count(spec.id) == 1
    assert win.findChild(QAction, "molforma.file.save").shortcut().toString() == "Ctrl+S"
    assert win.findChild(QAction, "molforma.edit.undo").shortcut().toString() == "Ctrl+Z"


def test_every_interactive_widget_has_a_unique_object_name(make_main_window: Any) -> None:
    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractItemView,
        QAbstractSpinBox,
        QComboBox,
        QLineEdit,
        QPlainTextEdit,
        QSlider,
        QTextEdit,
    )

    win = make_main_window()
    kinds = (
        QAbstractButton,
        QLineEdit,
        QAbstractSpinBox,
        QComboBox,
        QAbstractItemView,
        QPlainTextEdit,
        QTextEdit,
        QSlider,
    )
    # The whole window, all tabs: a name used twice could not be driven by name.
    names = [
        w.objectName()
        for w in win.findChildren(QWidget)
        if isinstance(w, kinds) and not _is_internal(w)
    ]
    assert "" not in names
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    for required in (
        "coordinateTable",
        "moleculeLayout",
        "paletteToggle",
        "confirmButton",
        "cancelButton",
        "smilesInput",
        "cleanupButton",
        "loadStructureButton",
        "undoButton",
        "redoButton",
        "tool_add",
        "element_C",
        "fragmentList",
    ):
        assert required in names


def _is_internal(w: QWidget) -> bool:
    """Children Qt creates inside composite widgets (line edit of a spin box, header...)."""
    from PySide6.QtWidgets import QAbstractItemView, QAbstractSpinBox, QComboBox

    p = w.parent()
    while p is not None:
        if isinstance(p, QAbstractSpinBox | QComboBox | QAbstractItemView):
            return True
        p = p.parent()
    return False


def test_title_shows_file_name_and_unsaved_mark(
    make_main_window: Any, tmp_path: Path, dialog_log: Any
) -> None:
    win = make_main_window()
    assert win.windowTitle().startswith("Untitled")
    assert "*" not in win.windowTitle()
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    assert win.windowTitle().startswith("Untitled*")
    target = tmp_path / "water.molforma.json"
    dialog_log.answers.append(str(target))
    win.findChild(QAction, "molforma.file.save").trigger()
    assert target.exists()
    assert json.loads(target.read_text())["format"] == "molforma-project"
    assert win.windowTitle().startswith("water.molforma.json — ")


def test_closing_with_unsaved_work_asks_and_cancel_keeps_the_window(
    make_main_window: Any, dialog_log: Any
) -> None:
    win = make_main_window()
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    dialog_log.answers.append("Cancel")
    win.close()
    assert dialog_log.names() == ["ask"]
    assert "Save" in dialog_log.calls[0][1][2]
    assert win.isVisible()
    dialog_log.answers.append("Discard")
    win.close()
    assert not win.isVisible()


def test_closing_in_mcp_mode_never_asks(make_main_window: Any, dialog_log: Any) -> None:
    win = make_main_window(mcp_mode=True)
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    win.close()
    assert dialog_log.names() == []
    assert not win.isVisible()


def test_open_and_export_go_through_the_file_dialogs(
    make_main_window: Any, tmp_path: Path, dialog_log: Any
) -> None:
    src = tmp_path / "w.xyz"
    src.write_text("3\nwater\nO 0 0 0.117\nH 0 0.757 -0.469\nH 0 -0.757 -0.469\n")
    win = make_main_window()
    dialog_log.answers.append(str(src))
    win.findChild(QAction, "molforma.file.open").trigger()
    assert len(win.ctx.document.project["document"]["atoms"]) == 3
    out = tmp_path / "out.xyz"
    dialog_log.answers.append(str(out))
    win.findChild(QAction, "molforma.file.export").trigger()
    lines = out.read_text().splitlines()
    assert lines[0].strip() == "3"
    assert [ln.split()[0] for ln in lines[2:5]] == ["O", "H", "H"]
    assert dialog_log.names() == ["get_open_path", "get_save_path"]


def test_a_file_given_at_launch_is_loaded_and_trusted(qtbot: Any, tmp_path: Path) -> None:
    from molforma.document.envelope import new_project
    from molforma.gui.context import AppContext
    from molforma.gui.main_window import MainWindow, load_launch_file

    proj = new_project(executable="/opt/nwchem/bin/nwchem")
    path = tmp_path / "p.molforma.json"
    path.write_text(json.dumps(proj))
    ctx = AppContext.create(data_dir=tmp_path)
    load_launch_file(ctx, str(path))
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    assert ctx.document.is_trusted
    assert ctx.document.trusted["executable"] == "/opt/nwchem/bin/nwchem"
    assert not ctx.document.can_undo
    assert win.windowTitle().startswith("p.molforma.json")


def test_opening_a_multi_frame_xyz_asks_which_frame(
    make_main_window: Any, tmp_path: Path, dialog_log: Any, monkeypatch: Any
) -> None:
    from molforma.gui import dialogs

    src = tmp_path / "traj.xyz"
    src.write_text("1\nfirst\nHe 0 0 0\n1\nsecond\nHe 0 0 2.5\n1\nthird\nHe 0 0 5\n")
    chosen: list[Any] = []

    def pick_second(dialog: Any) -> int:
        chosen.append(dialog.frame.maximum())
        dialog.frame.setValue(2)
        return 1

    monkeypatch.setattr(dialogs, "run_dialog", pick_second)
    win = make_main_window()
    dialog_log.answers.append(str(src))
    win.findChild(QAction, "molforma.file.open").trigger()
    assert chosen == [3]
    atoms = win.ctx.document.project["document"]["atoms"]
    assert [(a["element"], a["z"]) for a in atoms] == [("He", 2.5)]
    assert win.ctx.document.path is None


def test_cancelling_the_frame_choice_changes_nothing(
    make_main_window: Any, tmp_path: Path, dialog_log: Any
) -> None:
    src = tmp_path / "traj.xyz"
    src.write_text("1\nfirst\nHe 0 0 0\n1\nsecond\nHe 0 0 2.5\n")
    win = make_main_window()
    rev = win.ctx.document.revision
    dialog_log.answers.append(str(src))
    win.findChild(QAction, "molforma.file.open").trigger()  # run_dialog answers "rejected"
    assert "run_dialog" in dialog_log.names()
    assert win.ctx.document.revision == rev
    assert "error" not in dialog_log.names()


def test_a_pdb_with_two_models_offers_the_model_choice(
    make_main_window: Any, tmp_path: Path, dialog_log: Any, monkeypatch: Any
) -> None:
    from molforma.gui import dialogs

    def atom(serial: int, z: float) -> str:
        return (
            f"HETATM{serial:5d}  O   HOH A   1       0.000   0.000{z:8.3f}  1.00  0.00"
            "           O  "
        )

    src = tmp_path / "two.pdb"
    src.write_text(
        "MODEL        1\n"
        + atom(1, 0.0)
        + "\nENDMDL\nMODEL        2\n"
        + atom(1, 3.0)
        + "\nENDMDL\nEND\n"
    )

    def second_model(dialog: Any) -> int:
        dialog.frame.setValue(2)
        return 1

    monkeypatch.setattr(dialogs, "run_dialog", second_model)
    win = make_main_window()
    win.molecule_tab.load_structure_file(str(src))
    atoms = win.ctx.document.project["document"]["atoms"]
    assert [a["z"] for a in atoms] == [3.0]


def test_keyboard_shortcuts_undo_and_redo(make_main_window: Any, qtbot: Any) -> None:
    from PySide6.QtCore import Qt

    win = make_main_window()
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=3000)
    win.molecule_tab.view.canvas.setFocus()
    qtbot.keyClick(win.molecule_tab.view.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.ctx.document.project["document"]["atoms"] == []
    qtbot.keyClick(
        win.molecule_tab.view.canvas,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert len(win.ctx.document.project["document"]["atoms"]) == 3


def test_job_changes_from_runner_threads_reach_the_gui_thread(
    make_main_window: Any, qtbot: Any
) -> None:
    import threading

    from PySide6.QtCore import QThread

    win = make_main_window()
    seen: list[tuple[object, bool]] = []
    gui_thread = QThread.currentThread()
    win.ctx.events.jobChanged.connect(
        lambda job: seen.append((job, QThread.currentThread() == gui_thread))
    )
    assert win.ctx.jobs is not None
    t = threading.Thread(target=lambda: win.ctx.events.job_listener("job-1"))
    t.start()
    t.join()
    qtbot.waitUntil(lambda: bool(seen), timeout=3000)
    assert seen == [("job-1", True)]


def test_document_changes_made_on_another_thread_refresh_the_window(
    make_main_window: Any, qtbot: Any
) -> None:
    import threading

    win = make_main_window()
    t = threading.Thread(
        target=lambda: ops.add_atoms(win.ctx.document, WATER, preview=True, actor=Actor.MCP_TOOL)
    )
    t.start()
    t.join()
    qtbot.waitUntil(lambda: win.molecule_tab.view.scene.count == 3, timeout=3000)
    assert "MCP" in win.molecule_tab.candidate_label.text()
    assert win.molecule_tab.confirm_button.isEnabled()


def test_status_bar_shows_formula_atom_count_and_candidate(make_main_window: Any) -> None:
    from PySide6.QtWidgets import QLabel

    win = make_main_window()
    summary = win.findChild(QLabel, "documentSummary")
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    assert summary.text() == "H2O — 3 atoms"
    ops.delete_atoms(win.ctx.document, ["a3"])
    assert summary.text() == "H2O — 3 atoms  →  candidate HO"


def test_dropping_a_file_on_the_window_opens_it(
    make_main_window: Any, tmp_path: Path, qtbot: Any
) -> None:
    from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
    from PySide6.QtGui import QDropEvent

    src = tmp_path / "w.xyz"
    src.write_text("3\nwater\nO 0 0 0.117\nH 0 0.757 -0.469\nH 0 -0.757 -0.469\n")
    win = make_main_window()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(src))])
    ev = QDropEvent(
        QPointF(100, 100),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    win.dropEvent(ev)
    assert len(win.ctx.document.project["document"]["atoms"]) == 3


def test_new_project_after_discarding_drops_the_candidate_too(
    make_main_window: Any, dialog_log: Any
) -> None:
    win = make_main_window()
    doc = win.ctx.document
    ops.add_atoms(doc, WATER, preview=False)
    ops.delete_atoms(doc, ["a1"])  # a candidate
    dialog_log.answers.append("Discard")
    win.findChild(QAction, "molforma.file.new").trigger()
    assert doc.candidate is None
    assert doc.project["document"]["atoms"] == []
    assert not doc.modified
    assert win.windowTitle().startswith("Untitled — ")


def _action_ids() -> list[str]:
    from molforma.gui.actions import ACTIONS

    return [a.id for a in ACTIONS]


@pytest.mark.parametrize("action_id", _action_ids())
def test_every_action_of_the_table_runs_from_its_menu_entry(
    action_id: str, make_main_window: Any, dialog_log: Any
) -> None:
    win = make_main_window()
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    act = win.findChild(QAction, action_id)
    menus = [m for m in win.menus.values() if act in m.actions()]
    assert len(menus) == 1
    act.trigger()  # dialogs answer "cancel"; nothing may raise
    assert "error" not in dialog_log.names(), dialog_log.calls


def test_typing_f_in_a_text_field_types_it_instead_of_fitting_the_view(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=3000)
    field = win.molecule_tab.smiles_input
    field.setFocus()
    qtbot.keyClicks(field, "FC(F)F")
    assert field.text() == "FC(F)F"


def test_the_window_carries_the_desktop_entrys_id_and_icon(make_main_window: Any) -> None:
    # GNOME and KDE match a window to its menu entry (and icon) by the desktop file name;
    # without it the task switcher shows "python3".
    from molforma.gui.app import create_application
    from molforma.subcommands.desktop_install import APP_ID

    app = create_application()  # what the launcher calls (it reuses the test's instance)
    win = make_main_window()
    assert app.desktopFileName() == APP_ID
    sizes = {s.width() for s in win.windowIcon().availableSizes()}
    assert {16, 32, 48, 256} <= sizes
