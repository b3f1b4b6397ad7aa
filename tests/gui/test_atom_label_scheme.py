"""One label per atom everywhere: the measurement list, the coordinate table's row
header and the atom labels of the 3D view say the same ``C5``, and a measurement's
value is drawn beside, not over, the atom labels."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QListWidget

from molforma.app import ops
from molforma.gui.view3d.overlay import text_rects
from tests.gui.helpers import click_atom

# Ethanol heavy atoms with two stray helium atoms added first and then erased, so the
# ids (a3, a4, a5) are not the rows (1, 2, 3) and the two numberings would disagree.
HELIUMS = [
    {"element": "He", "position": [20.0, 0.0, 0.0]},
    {"element": "He", "position": [24.0, 0.0, 0.0]},
]
HEAVY = [
    {"element": "C", "position": [0.0, 0.0, 0.0]},
    {"element": "C", "position": [1.52, 0.0, 0.0]},
    {"element": "O", "position": [2.0, 1.35, 0.0]},
]


def _window(make_main_window: Any) -> Any:
    win = make_main_window()
    win.resize(1280, 800)
    doc = win.ctx.document
    ops.add_atoms(doc, HELIUMS, preview=False)
    ops.add_atoms(doc, HEAVY, [{"a": "#0", "b": "#1"}, {"a": "#1", "b": "#2"}], preview=False)
    ops.delete_atoms(doc, ["a1", "a2"], preview=False)
    win.molecule_tab.view.fit()
    return win


def test_a_measurement_names_its_atoms_as_the_table_and_the_view_labels_do(
    make_main_window: Any, qtbot: Any
) -> None:
    win = _window(make_main_window)
    tab, view = win.molecule_tab, win.molecule_tab.view
    click_atom(qtbot, view, "a3")
    click_atom(qtbot, view, "a5", Qt.KeyboardModifier.ControlModifier)
    tab.pin_button.click()
    rows = tab.findChild(QListWidget, "measurementList")
    text = rows.item(0).text()
    assert text.startswith("C1–O3: ")
    model = tab.table.atom_model
    shown = [
        str(model.headerData(model.row_of(aid), Qt.Orientation.Vertical)) for aid in ("a3", "a5")
    ]
    assert shown == ["C1", "O3"]  # what the table shows for those atoms
    # The id stays in its column and is told beside the label.
    row = model.row_of("a5")
    assert model.data(model.index(row, 0)) == "a5"
    assert "O3" in model.data(model.index(row, 0), Qt.ItemDataRole.ToolTipRole)
    combo = tab.findChild(QComboBox, "atomLabelsCombo")
    combo.setCurrentIndex(combo.findData("element_index"))
    assert view.labels["a3"] == "C1" and view.labels["a5"] == "O3"


def test_measurement_values_are_not_drawn_over_atom_labels(
    make_main_window: Any, qtbot: Any
) -> None:
    win = _window(make_main_window)
    tab, view = win.molecule_tab, win.molecule_tab.view
    combo = tab.findChild(QComboBox, "atomLabelsCombo")
    combo.setCurrentIndex(combo.findData("element_index"))
    for pair in (("a3", "a4"), ("a4", "a5"), ("a3", "a5")):
        click_atom(qtbot, view, pair[0])
        click_atom(qtbot, view, pair[1], Qt.KeyboardModifier.ControlModifier)
        tab.pin_button.click()
    click_atom(qtbot, view, "a3")
    click_atom(qtbot, view, "a4", Qt.KeyboardModifier.ControlModifier)
    click_atom(qtbot, view, "a5", Qt.KeyboardModifier.ControlModifier)  # an angle too
    for zoom in (1.0, 0.35):  # fitted, and zoomed out so the atoms crowd together
        view.camera.scale *= zoom
        canvas = view.canvas
        labels, values = text_rects(view, canvas.width(), canvas.height(), canvas.font())
        assert len(labels) == 3 and len(values) == 4
        for v in values:
            assert not any(v.intersects(lab) for lab in labels), (zoom, v, labels)
        for i, v in enumerate(values):
            assert not any(v.intersects(o) for o in values[i + 1 :]), (zoom, values)


def test_the_label_and_id_tooltip_is_japanese_in_japanese(make_main_window: Any) -> None:
    from molforma.gui.app import set_language

    win = _window(make_main_window)
    model = win.molecule_tab.table.atom_model
    set_language("ja", win.ctx)
    try:
        row = model.row_of("a5")
        assert model.data(model.index(row, 0), Qt.ItemDataRole.ToolTipRole) == "O3、原子ID a5"
        assert "行見出し" in model.headerData(
            0, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole
        )
    finally:
        set_language("en", win.ctx)
