"""Geometry you can set, measurements you can see, selection and annotation in the Molecule tab."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QLineEdit,
    QListWidget,
    QMenu,
    QPushButton,
)

from molforma.app import ops
from molforma.document.envelope import atoms_of, bonds_of
from molforma.document.geometry import angle, dihedral, distance
from tests.gui.helpers import WATER, click_atom

# Methanol without its hydroxyl hydrogen: C1 O2 and three hydrogens on the carbon.
METHOXY = [
    {"element": "C", "position": [0.0, 0.0, 0.0]},
    {"element": "O", "position": [1.43, 0.0, 0.0]},
    {"element": "H", "position": [-0.36, 1.03, 0.0]},
    {"element": "H", "position": [-0.36, -0.51, 0.89]},
    {"element": "H", "position": [-0.36, -0.51, -0.89]},
]
METHOXY_BONDS = [{"a": "#0", "b": f"#{k}"} for k in (1, 2, 3, 4)]


def _pos(win: Any, aid: str) -> list[float]:
    a = next(a for a in atoms_of(win.ctx.document.project) if a["id"] == aid)
    return [a["x"], a["y"], a["z"]]


def _window(
    make_main_window: Any, atoms: list[dict[str, Any]], bonds: list[dict[str, Any]] | None = None
) -> Any:
    win = make_main_window()
    ops.add_atoms(win.ctx.document, atoms, bonds or [], preview=False)
    win.molecule_tab.view.fit()
    return win


def _select(qtbot: Any, view: Any, ids: list[str]) -> None:
    click_atom(qtbot, view, ids[0])
    for aid in ids[1:]:
        click_atom(qtbot, view, aid, Qt.KeyboardModifier.ControlModifier)


def _yellow_pixels(view: Any) -> int:
    img = view.canvas.grab().toImage()
    count = 0
    for x in range(0, img.width(), 2):
        for y in range(0, img.height(), 2):
            c = img.pixelColor(x, y)
            if c.red() > 230 and 200 < c.green() < 245 and 90 < c.blue() < 150:
                count += 1
    return count


def test_setting_a_distance_in_the_editor_moves_the_smaller_fragment(
    make_main_window: Any, qtbot: Any
) -> None:
    win = _window(make_main_window, METHOXY, METHOXY_BONDS)
    tab = win.molecule_tab
    _select(qtbot, tab.view, ["a1", "a2"])
    assert tab.findChild(QLabelType(), "measurementLabel").text().startswith("Distance C1–O2:")
    field = tab.findChild(QLineEdit, "geometryValueInput")
    assert field.isEnabled() and field.text() == "1.430"
    assert tab.geometry_label.text() == "Distance (Å):"
    carbon_before = _pos(win, "a1")
    field.clear()
    qtbot.keyClicks(field, "1.6")
    tab.findChild(QPushButton, "setGeometryButton").click()
    assert distance(_pos(win, "a1"), _pos(win, "a2")) == pytest.approx(1.6, abs=1e-6)
    assert _pos(win, "a1") == carbon_before  # the oxygen, the smaller side, moved
    assert win.ctx.document.undo_labels[-1] == "Set internal coordinate"
    assert field.text() == "1.600"
    # A decimal comma is refused with a message and changes nothing.
    rev = win.ctx.document.revision
    field.clear()
    qtbot.keyClicks(field, "1,7")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert win.ctx.document.revision == rev
    assert "1,7" in tab.message.text()


def QLabelType() -> type:
    from PySide6.QtWidgets import QLabel

    return QLabel


def test_angle_and_dihedral_are_set_from_three_and_four_selected_atoms(
    make_main_window: Any, qtbot: Any
) -> None:
    atoms = [
        {"element": "H", "position": [-0.5, 0.9, 0.0]},
        {"element": "C", "position": [0.0, 0.0, 0.0]},
        {"element": "C", "position": [1.5, 0.0, 0.0]},
        {"element": "H", "position": [2.0, 0.9, 0.3]},
    ]
    bonds = [{"a": "#0", "b": "#1"}, {"a": "#1", "b": "#2"}, {"a": "#2", "b": "#3"}]
    win = _window(make_main_window, atoms, bonds)
    tab = win.molecule_tab
    _select(qtbot, tab.view, ["a1", "a2", "a3"])
    assert tab.geometry_label.text() == "Angle (°):"
    assert tab.measurement.text().startswith("Angle H1–C2–C3:")
    assert tab.apply_geometry_value("109.5")
    assert angle(_pos(win, "a1"), _pos(win, "a2"), _pos(win, "a3")) == pytest.approx(109.5)
    click_atom(qtbot, tab.view, "a4", Qt.KeyboardModifier.ControlModifier)
    assert tab.geometry_label.text() == "Dihedral (°):"
    tab.geometry_input.setText("180")
    tab.geometry_button.click()
    assert abs(dihedral(*(_pos(win, i) for i in ("a1", "a2", "a3", "a4")))) == pytest.approx(
        180.0, abs=1e-6
    )


def test_measurements_are_drawn_as_dashed_lines_with_values_and_kept_in_a_list(
    make_main_window: Any, qtbot: Any
) -> None:
    win = _window(make_main_window, WATER, [{"a": "#0", "b": "#1"}, {"a": "#0", "b": "#2"}])
    tab, view = win.molecule_tab, win.molecule_tab.view
    assert view.measurements == []
    plain = _yellow_pixels(view)
    _select(qtbot, view, ["a2", "a1", "a3"])
    assert view.measurements == [("a2", "a1", "a3")]
    qtbot.wait(20)
    assert _yellow_pixels(view) > plain + 20
    tab.findChild(QPushButton, "keepMeasurementButton").click()
    click_atom(qtbot, view, "a1")
    click_atom(qtbot, view, "a2", Qt.KeyboardModifier.ControlModifier)
    tab.pin_button.click()
    rows = tab.findChild(QListWidget, "measurementList")
    texts = [rows.item(i).text() for i in range(rows.count())]
    assert texts[0].startswith("H2–O1–H3: 104.") and texts[0].endswith("°")
    assert texts[1].startswith("O1–H2: 0.9") and texts[1].endswith(" Å")
    tab.set_selection([])
    assert view.measurements == [("a2", "a1", "a3"), ("a1", "a2")]
    tab.findChild(QPushButton, "clearMeasurementsButton").click()
    assert view.measurements == [] and rows.count() == 0


def test_a_rubber_band_drag_selects_the_atoms_inside_and_ctrl_c_copies_them_as_xyz(
    make_main_window: Any, qtbot: Any
) -> None:
    win = _window(make_main_window, WATER)
    tab, view = win.molecule_tab, win.molecule_tab.view
    ops.add_atoms(
        win.ctx.document, [{"element": "He", "position": [30.0, 30.0, 30.0]}], preview=False
    )
    view.fit()
    pts = [view.atom_screen_pos(i) for i in ("a1", "a2", "a3")]
    left = int(min(p.x() for p in pts)) - 25
    top = int(min(p.y() for p in pts)) - 25
    right = int(max(p.x() for p in pts)) + 25
    bottom = int(max(p.y() for p in pts)) + 25
    helium = view.atom_screen_pos("a4")
    assert not (left < helium.x() < right and top < helium.y() < bottom)
    qtbot.mousePress(view.canvas, Qt.MouseButton.LeftButton, pos=QPoint(left, top))
    for k in range(1, 6):
        qtbot.mouseMove(
            view.canvas, QPoint(left + (right - left) * k // 5, top + (bottom - top) * k // 5)
        )
        assert view.rubber_band is not None
    qtbot.mouseRelease(view.canvas, Qt.MouseButton.LeftButton, pos=QPoint(right, bottom))
    assert view.rubber_band is None
    assert sorted(view.selection()) == ["a1", "a2", "a3"]
    assert sorted(tab.table.selected_ids()) == ["a1", "a2", "a3"]
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=3000)
    view.canvas.setFocus()
    QApplication.clipboard().clear()
    qtbot.keyClick(view.canvas, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    lines = QApplication.clipboard().text().splitlines()
    assert lines[0] == "3"
    assert [ln.split()[0] for ln in lines[2:]] == ["O", "H", "H"]
    assert [float(v) for v in lines[3].split()[1:]] == pytest.approx([0.0, 0.757, -0.469])


def test_select_by_element_and_by_fragment(make_main_window: Any, qtbot: Any) -> None:
    bonds = [{"a": "#0", "b": "#1"}, {"a": "#0", "b": "#2"}]
    win = _window(make_main_window, WATER, bonds)
    tab = win.molecule_tab
    second = [
        {"element": a["element"], "position": [a["position"][0] + 4.0, *a["position"][1:]]}
        for a in WATER
    ]
    ops.add_atoms(win.ctx.document, second, bonds, preview=False)
    tab._fill_element_menu()
    menu = tab.findChild(QMenu, "selectElementMenu")
    assert sorted(a.objectName() for a in menu.actions()) == ["selectElement_H", "selectElement_O"]
    tab.findChild(QAction, "selectElement_H").trigger()
    assert sorted(tab.view.selection()) == ["a2", "a3", "a5", "a6"]
    click_atom(qtbot, tab.view, "a5")
    tab.findChild(QAction, "selectFragmentAction").trigger()
    assert sorted(tab.view.selection()) == ["a4", "a5", "a6"]
    tab.findChild(QAction, "invertSelectionAction").trigger()
    assert sorted(tab.view.selection()) == ["a1", "a2", "a3"]
    assert tab.findChild(QAbstractButton, "selectMenuButton").toolTip()


# A popup menu offscreen cannot raise itself or grab the keyboard: Qt says so, harmlessly.
@pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing)")
def test_right_click_menus_on_atoms_and_bonds_edit_them(make_main_window: Any, qtbot: Any) -> None:
    win = _window(make_main_window, METHOXY, METHOXY_BONDS)
    tab, view = win.molecule_tab, win.molecule_tab.view
    doc = win.ctx.document
    qtbot.mouseClick(
        view.canvas, Qt.MouseButton.RightButton, pos=view.atom_screen_pos("a2").toPoint()
    )
    menu = tab.context_menu
    assert menu is not None and menu.objectName() == "moleculeContextMenu"
    names = {a.objectName() for a in menu.actions() if a.objectName()}
    assert {
        "ctxDeleteAtoms",
        "ctxFixAtoms",
        "ctxMeasure",
        "ctxSelectFragment",
        "ctxSelectElement",
    } <= names
    assert view.selection() == ["a2"]
    menu.findChild(QAction, "ctxElement_N").trigger()  # O → N, Adjust hydrogens gives NH2
    assert next(a for a in atoms_of(doc.project) if a["id"] == "a2")["element"] == "N"
    assert len([b for b in bonds_of(doc.project) if "a2" in (b["a"], b["b"])]) == 3
    menu.close()
    # Right click on the middle of the C–N bond: bond orders and delete.
    a, b = view.atom_screen_pos("a1"), view.atom_screen_pos("a2")
    qtbot.mouseClick(view.canvas, Qt.MouseButton.RightButton, pos=((a + b) / 2).toPoint())
    menu = tab.context_menu
    single = menu.findChild(QAction, "ctxBondOrder_1")
    assert single is not None and single.isChecked()
    menu.findChild(QAction, "ctxBondOrder_2").trigger()
    assert next(x["order"] for x in bonds_of(doc.project) if {x["a"], x["b"]} == {"a1", "a2"}) == 2
    menu.close()
    # Fix from the atom menu.
    qtbot.mouseClick(
        view.canvas, Qt.MouseButton.RightButton, pos=view.atom_screen_pos("a1").toPoint()
    )
    tab.context_menu.findChild(QAction, "ctxFixAtoms").trigger()
    assert next(a for a in atoms_of(doc.project) if a["id"] == "a1")["fixed"] is True
    tab.context_menu.close()
    qtbot.mouseClick(
        view.canvas, Qt.MouseButton.RightButton, pos=view.atom_screen_pos("a1").toPoint()
    )
    tab.context_menu.findChild(QAction, "ctxDeleteAtoms").trigger()
    assert "a1" not in {a["id"] for a in atoms_of(doc.project)}


def test_atom_labels_show_element_and_number_charge_or_name(make_main_window: Any) -> None:
    win = _window(make_main_window, WATER)
    tab, view = win.molecule_tab, win.molecule_tab.view
    combo = tab.findChild(QComboBox, "atomLabelsCombo")
    assert view.labels == {}
    combo.setCurrentIndex(combo.findData("element_index"))
    assert view.labels == {"a1": "O1", "a2": "H2", "a3": "H3"}
    ops.set_atom_properties(
        win.ctx.document, [{"id": "a1", "formalCharge": -1, "name": "OW"}], preview=False
    )
    combo.setCurrentIndex(combo.findData("charge"))
    assert view.labels == {"a1": "-1"}
    combo.setCurrentIndex(combo.findData("name"))
    assert view.labels == {"a1": "OW"}
    img = view.canvas.grab().toImage()
    assert not img.isNull()


def test_undo_and_redo_name_their_step_and_ctrl_y_redoes(make_main_window: Any, qtbot: Any) -> None:
    win = _window(make_main_window, WATER)
    tab = win.molecule_tab
    undo = win.findChild(QAction, "molforma.edit.undo")
    redo = win.findChild(QAction, "molforma.edit.redo")
    assert tab.undo_button.text() == "Undo Add atoms"
    assert undo.text().replace("&", "") == "Undo Add atoms"
    assert "Ctrl+Y" in [k.toString() for k in redo.shortcuts()]
    tab.undo_button.click()
    assert atoms_of(win.ctx.document.project) == []
    assert tab.redo_button.text() == "Redo Add atoms"
    assert redo.text().replace("&", "") == "Redo Add atoms"
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=3000)
    tab.view.canvas.setFocus()
    qtbot.keyClick(tab.view.canvas, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert len(atoms_of(win.ctx.document.project)) == 3
    assert tab.undo_button.text() == "Undo Add atoms" and tab.redo_button.text() == "Redo"


def test_messages_under_the_view_clear_after_a_while(
    make_main_window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import molforma.gui.widgets.molecule_tab as mt

    monkeypatch.setattr(mt, "MESSAGE_MS", 100)
    win = _window(make_main_window, WATER)
    tab = win.molecule_tab
    tab.copy_selection_xyz()
    assert tab.message.text() == "Copied 3 atom(s) as XYZ."
    qtbot.waitUntil(lambda: tab.message.text() == "", timeout=2000)


def test_every_control_of_the_molecule_tab_has_a_tooltip(make_main_window: Any) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    tab.toggle_palette(True)
    missing = [
        w.objectName()
        for kind in (QAbstractButton, QComboBox, QLineEdit)
        for w in tab.findChildren(kind)
        if w.objectName()
        and w.isVisibleTo(tab)
        and not w.toolTip()
        and not w.objectName().startswith("qt_")
    ]
    assert missing == []
