"""The window redraws what a document change touched, and only that."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from molforma.app import ops
from molforma.app.actor import Actor

WATER = [
    {"element": "O", "position": [0.0, 0.0, 0.117]},
    {"element": "H", "position": [0.0, 0.757, -0.469]},
    {"element": "H", "position": [0.0, -0.757, -0.469]},
]


def _count_calls(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    calls: list[int] = []
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_settings_and_molecule_edits_do_not_rebuild_the_3d_scene(
    make_main_window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    win = make_main_window()
    doc = win.ctx.document
    ops.add_atoms(doc, WATER, preview=False)
    rebuilt = _count_calls(monkeypatch, win.molecule_tab.view, "set_molecule")
    ops.set_nwchem(doc, {"basis": "sto-3g"}, preview=False)
    ops.set_advanced(doc, {"scf_maxiter": 40}, preview=False)
    ops.set_execution(doc, {"processes": 2}, preview=False)
    ops.set_molecule(doc, charge=1, multiplicity=2, preview=False)
    doc.undo()
    assert rebuilt == []
    # The Undo button still follows the steps the settings edits made.
    assert "Set calculation" not in win.molecule_tab.undo_button.toolTip()
    assert "Set execution" in win.molecule_tab.undo_button.toolTip()
    ops.move_atoms(doc, positions={"a2": [0.0, 0.8, -0.5]}, preview=False)
    assert rebuilt == [1]  # a structure change still redraws


def test_a_drag_renders_no_input_while_the_calculation_tab_is_hidden(
    make_main_window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import molforma.nwchem.input as nwchem_input

    win = make_main_window()
    doc = win.ctx.document
    ops.add_atoms(doc, WATER, preview=False)
    assert win.tabs.currentWidget() is win.molecule_tab
    from molforma.gui.widgets import calculation_preview

    # patched where the preview reads it too (a lazy module's stand-in keeps what it read)
    rendered = _count_calls(monkeypatch, nwchem_input, "render_input")
    if calculation_preview.nwchem_input is not nwchem_input:
        monkeypatch.setattr(
            calculation_preview.nwchem_input, "render_input", nwchem_input.render_input
        )
    win.molecule_tab.view.set_selection(["a2"])
    win.molecule_tab.view.atomsDragged.emit(["a2"], (0.0, 1.588678, 0.0))  # a drag ends
    assert doc.project["document"]["atoms"][1]["y"] == pytest.approx(2.345678)
    assert rendered == []
    win.tabs.setCurrentWidget(win.panels["calculation"])
    assert rendered == [1]
    preview = win.panels["calculation"].findChild(object, "inputPreview")
    assert "2.345678" in preview.toPlainText()


def test_an_agent_reading_the_hidden_preview_after_a_drag_reads_the_new_coordinates(
    make_main_window: Any,
) -> None:
    from molforma.gui.introspection import WindowIntrospection

    win = make_main_window()
    doc = win.ctx.document
    ops.add_atoms(doc, WATER, preview=False)
    win.molecule_tab.view.set_selection(["a2"])
    win.molecule_tab.view.atomsDragged.emit(["a2"], (0.0, 1.588678, 0.0))
    assert win.tabs.currentWidget() is win.molecule_tab
    item = WindowIntrospection(win).get_ui_item({"target": "inputPreview"})
    assert "2.345678" in str(item.get("value", "")) + str(item.get("text", ""))
    assert win.tabs.currentWidget() is win.molecule_tab  # reading switched no tab


def test_a_move_shows_at_once_in_the_preview_the_person_is_looking_at(
    make_main_window: Any,
) -> None:
    win = make_main_window()
    doc = win.ctx.document
    ops.add_atoms(doc, WATER, preview=False)
    win.tabs.setCurrentWidget(win.panels["calculation"])
    ops.move_atoms(doc, positions={"a1": [0.0, 0.0, 1.234567]}, preview=False)
    preview = win.panels["calculation"].findChild(object, "inputPreview")
    assert "1.234567" in preview.toPlainText()


def test_an_edit_from_another_thread_reaches_the_widgets_with_what_it_changed(
    make_main_window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    win = make_main_window()
    doc = win.ctx.document
    ops.add_atoms(doc, WATER, preview=False)
    rebuilt = _count_calls(monkeypatch, win.molecule_tab.view, "set_molecule")
    heard: list[Any] = []
    win.ctx.events.documentChanged.connect(heard.append)
    worker = threading.Thread(
        target=lambda: ops.set_nwchem(doc, {"basis": "sto-3g"}, preview=False, actor=Actor.MCP_TOOL)
    )
    worker.start()
    worker.join(timeout=10)
    qtbot.waitUntil(lambda: bool(heard), timeout=5000)
    from molforma.document.changes import Change

    assert heard == [Change.SETTINGS | Change.HISTORY]
    basis = win.panels["calculation"].findChild(object, "basisCombo")
    assert basis.currentText() == "sto-3g"
    assert rebuilt == []
