"""The Add-atom tool as chemists' hands know it from Avogadro 2's Draw tool, driven with
mouse and key events at atom and bond positions in the 3D view: a hydrogen clicked
becomes the element, drags draw bonded atoms and bonds, a bond clicked cycles its order,
the pointer says what a click would do, letters typed into the view choose the element.
Also the Place tool's confirm-only click and the property panel's mixed selection."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt

from molforma.app import ops
from molforma.document.building import valence_problem_ids
from molforma.document.chemistry import missing_hydrogens
from molforma.document.document import summary_of
from molforma.document.envelope import atoms_of, bonds_of
from tests.gui.helpers import click_atom, click_view, empty_spot


def _formula(win: Any) -> str:
    return str(summary_of(win.ctx.document.project)["formula"])


def _methane(make_main_window: Any) -> Any:
    win = make_main_window()
    ops.add_atoms(
        win.ctx.document,
        [{"element": "C", "position": [0.0, 0.0, 0.0]}],
        preview=False,
        adjust_hydrogens=True,
    )
    win.molecule_tab.view.fit()
    win.molecule_tab.set_tool("add")
    return win


def _hydrogens(win: Any) -> list[str]:
    return [a["id"] for a in atoms_of(win.ctx.document.project) if a["element"] == "H"]


def _satisfied(win: Any) -> None:
    """Every atom's valence is filled and none is exceeded."""
    project = win.ctx.document.project
    assert valence_problem_ids(project) == []
    assert all(n == 0 for n in missing_hydrogens(project).values())
    assert ops.validate_document(win.ctx.document)["ok"] is True


def _drag(qtbot: Any, view: Any, start: QPointF | QPoint, end: QPointF | QPoint) -> None:
    """Press at ``start``, move in steps and release at ``end`` (left button)."""
    a = start.toPoint() if isinstance(start, QPointF) else start
    b = end.toPoint() if isinstance(end, QPointF) else end
    qtbot.mousePress(view.canvas, Qt.MouseButton.LeftButton, pos=a)
    for k in range(1, 6):
        qtbot.mouseMove(
            view.canvas, QPoint(a.x() + (b.x() - a.x()) * k // 5, a.y() + (b.y() - a.y()) * k // 5)
        )
    assert view.draw_line is not None  # the bond being drawn is shown
    qtbot.mouseRelease(view.canvas, Qt.MouseButton.LeftButton, pos=b)
    assert view.draw_line is None


def _bond_midpoint(view: Any, a: str, b: str) -> QPoint:
    pa, pb = view.atom_screen_pos(a), view.atom_screen_pos(b)
    return ((pa + pb) / 2).toPoint()


def _hover(qtbot: Any, view: Any, pos: QPointF | QPoint) -> None:
    qtbot.mouseMove(view.canvas, pos.toPoint() if isinstance(pos, QPointF) else pos)


# -- defect 1: a hydrogen clicked with the Add-atom tool ----------------------------------------
def test_add_atom_on_a_hydrogen_turns_it_into_the_element_and_gives_ethane(
    make_main_window: Any, qtbot: Any
) -> None:
    win = _methane(make_main_window)
    tab, view, doc = win.molecule_tab, win.molecule_tab.view, win.ctx.document
    assert _formula(win) == "CH4"
    steps = len(doc.undo_labels)
    h = _hydrogens(win)[0]
    click_atom(qtbot, view, h)
    assert _formula(win) == "C2H6"  # not C2H7 with a two-coordinate H
    _satisfied(win)
    atoms = {a["id"]: a for a in atoms_of(doc.project)}
    assert atoms[h]["element"] == "C"
    cc = np.linalg.norm([atoms[h][k] - atoms["a1"][k] for k in "xyz"])
    assert cc == pytest.approx(1.54, abs=0.02)
    assert len(doc.undo_labels) == steps + 1 and doc.undo_labels[-1] == "Change element"
    assert tab.undo_button.defaultAction().toolTip().startswith("Undo Change element")
    win.actions_by_id["molforma.edit.undo"].trigger()
    assert _formula(win) == "CH4"


def test_a_hydrogen_clicked_with_oxygen_gives_methanol(make_main_window: Any, qtbot: Any) -> None:
    win = _methane(make_main_window)
    win.molecule_tab.set_element("O")
    click_atom(qtbot, win.molecule_tab.view, _hydrogens(win)[1])
    assert _formula(win) == "CH4O"
    _satisfied(win)


# -- defect 2: the Place tool's click on the same atom again ------------------------------------
def test_place_tool_clicked_on_the_same_atom_again_only_confirms(
    make_main_window: Any, qtbot: Any
) -> None:
    win = _methane(make_main_window)
    tab, view, doc = win.molecule_tab, win.molecule_tab.view, win.ctx.document
    tab.palette_toggle.click()
    tab.palette.fragments.setCurrentRow(0)  # methyl
    assert tab.tool == "place"
    click_atom(qtbot, view, "a1")
    assert doc.candidate is not None
    placed = len(atoms_of(doc.candidate))
    assert summary_of(doc.candidate)["formula"] == "C2H6"
    click_atom(qtbot, view, "a1")  # the same atom: confirm, nothing more
    assert doc.candidate is None
    assert len(atoms_of(doc.project)) == placed
    assert _formula(win) == "C2H6"
    assert doc.undo_labels[-1] == "Place methyl"


# -- defect 5: a mixed selection in the property panel ------------------------------------------
def test_a_mixed_selection_shows_mixed_and_changes_elements_only_when_asked(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab, view, doc = win.molecule_tab, win.molecule_tab.view, win.ctx.document
    ops.add_atoms(
        doc,
        [
            {"element": "C", "position": [0.0, 0.0, 0.0]},
            {"element": "C", "position": [3.0, 0.0, 0.0]},
            {"element": "O", "position": [0.0, 3.0, 0.0]},
        ],
        preview=False,
    )
    view.fit()
    tab.adjust_hydrogens_check.setChecked(False)
    click_atom(qtbot, view, "a1")
    click_atom(qtbot, view, "a2", Qt.KeyboardModifier.ControlModifier)
    panel = tab.properties
    assert panel.element.text() == "C" and panel.element.placeholderText() == ""
    click_atom(qtbot, view, "a3", Qt.KeyboardModifier.ControlModifier)
    assert view.selection() == ["a1", "a2", "a3"]
    assert panel.element.text() == ""  # not the first atom's "C"
    assert panel.element.placeholderText() == "C, O (mixed)"
    # Ticking Fixed and applying fixes all three and changes no element.
    panel.fixed.click()
    qtbot.mouseClick(panel.apply_button, Qt.MouseButton.LeftButton)
    atoms = atoms_of(doc.project)
    assert [a["element"] for a in atoms] == ["C", "C", "O"]
    assert all(a["fixed"] for a in atoms)
    # An element typed explicitly goes to every selected atom.
    panel.element.setFocus()
    qtbot.keyClicks(panel.element, "N")
    qtbot.mouseClick(panel.apply_button, Qt.MouseButton.LeftButton)
    assert [a["element"] for a in atoms_of(doc.project)] == ["N", "N", "N"]


# -- capability 6: drags, bond clicks, hover hints, element keys --------------------------------
def test_a_drag_from_an_atom_draws_a_bonded_atom_the_way_it_was_drawn(
    make_main_window: Any, qtbot: Any
) -> None:
    win = _methane(make_main_window)
    view, doc = win.molecule_tab.view, win.ctx.document
    steps = len(doc.undo_labels)
    start = view.atom_screen_pos("a1")
    end = QPointF(start.x() + 80, start.y() + 5)
    assert view.atoms_in_rect(view.rect().adjusted(0, 0, 0, 0)) is not None
    _drag(qtbot, view, start, end)
    assert _formula(win) == "C2H6"
    _satisfied(win)
    assert len(doc.undo_labels) == steps + 1 and doc.undo_labels[-1] == "Add atoms"
    new_c = next(a["id"] for a in atoms_of(doc.project) if a["element"] == "C" and a["id"] != "a1")
    p = view.atom_screen_pos(new_c)
    # Drawn to the right: the new carbon is to the right of the first on screen.
    assert p.x() > start.x() + 20 and abs(p.y() - start.y()) < abs(p.x() - start.x())


def test_a_drag_from_empty_space_draws_two_bonded_atoms(make_main_window: Any, qtbot: Any) -> None:
    win = make_main_window()
    tab, view, doc = win.molecule_tab, win.molecule_tab.view, win.ctx.document
    tab.set_element("N")
    assert tab.tool == "add"
    _drag(qtbot, view, QPoint(200, 200), QPoint(300, 200))
    assert _formula(win) == "H4N2"  # hydrazine
    assert [
        b["order"]
        for b in bonds_of(doc.project)
        if {atoms_of(doc.project)[0]["id"], atoms_of(doc.project)[1]["id"]} == {b["a"], b["b"]}
    ] == [1]
    _satisfied(win)
    assert doc.undo_labels == ["Add atoms"]


def test_a_drag_from_one_atom_released_on_another_bonds_them(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab, view, doc = win.molecule_tab, win.molecule_tab.view, win.ctx.document
    # Two methanes, 2.6 Å apart: dragging carbon onto carbon bonds them (hydrogens follow).
    ops.add_atoms(
        doc,
        [
            {"element": "C", "position": [0.0, 0.0, 0.0]},
            {"element": "C", "position": [2.6, 0.0, 0.0]},
        ],
        preview=False,
    )
    ops.add_hydrogens(doc, preview=False)
    view.fit()
    tab.set_tool("add")
    assert _formula(win) == "C2H8"
    _drag(qtbot, view, view.atom_screen_pos("a1"), view.atom_screen_pos("a2"))
    assert any({b["a"], b["b"]} == {"a1", "a2"} for b in bonds_of(doc.project))
    assert _formula(win) == "C2H6"
    assert doc.undo_labels[-1] == "Set bonds"


def test_a_bond_clicked_with_the_draw_tool_cycles_its_order_and_hydrogens_follow(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab, view, doc = win.molecule_tab, win.molecule_tab.view, win.ctx.document
    ops.add_atoms(
        doc,
        [
            {"element": "C", "position": [0.0, 0.0, 0.0]},
            {"element": "C", "position": [1.54, 0.0, 0.0]},
        ],
        [{"a": "#0", "b": "#1"}],
        preview=False,
    )
    ops.add_hydrogens(doc, preview=False)
    view.fit()
    tab.set_tool("add")

    def order() -> int:
        return next(
            int(b["order"]) for b in bonds_of(doc.project) if {b["a"], b["b"]} == {"a1", "a2"}
        )

    seen = []
    for _ in range(3):
        view.fit()
        mid = _bond_midpoint(view, "a1", "a2")
        assert view.bond_at(QPointF(mid)) is not None and set(view.bond_at(QPointF(mid))) == {
            "a1",
            "a2",
        }
        click_view(qtbot, view, mid)
        seen.append((order(), _formula(win)))
        _satisfied(win)
    assert seen == [(2, "C2H4"), (3, "C2H2"), (1, "C2H6")]


def test_hovering_says_what_a_click_or_drag_would_do(make_main_window: Any, qtbot: Any) -> None:
    win = _methane(make_main_window)
    tab, view = win.molecule_tab, win.molecule_tab.view
    h = _hydrogens(win)[0]
    _hover(qtbot, view, view.atom_screen_pos(h))
    assert tab.draw_hint.text().startswith("Click: change H to C")
    assert "Click: change H to C" in view.canvas.toolTip()
    _hover(qtbot, view, view.atom_screen_pos("a1"))
    assert "Drag: draw a bonded C" in tab.draw_hint.text()
    _hover(qtbot, view, empty_spot(view))
    assert tab.draw_hint.text() == "Click: add a C · Drag: draw two bonded C"
    tab.set_element("N")  # the hint follows the element at once
    assert tab.draw_hint.text() == "Click: add a N · Drag: draw two bonded N"
    tab.set_tool("select")
    assert tab.draw_hint.text() == ""


def test_hovering_a_bond_names_the_order_a_click_gives(make_main_window: Any, qtbot: Any) -> None:
    win = make_main_window()
    tab, view, doc = win.molecule_tab, win.molecule_tab.view, win.ctx.document
    ops.add_atoms(
        doc,
        [
            {"element": "C", "position": [0.0, 0.0, 0.0]},
            {"element": "C", "position": [1.34, 0.0, 0.0]},
        ],
        [{"a": "#0", "b": "#1", "order": 2}],
        preview=False,
    )
    view.fit()
    tab.set_tool("add")
    _hover(qtbot, view, _bond_midpoint(view, "a1", "a2"))
    assert tab.draw_hint.text() == "Click: bond order 3"


def test_letters_typed_into_the_view_choose_the_element_of_the_draw_tool(
    make_main_window: Any, qtbot: Any
) -> None:
    win = _methane(make_main_window)
    tab, view = win.molecule_tab, win.molecule_tab.view
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=3000)
    view.canvas.setFocus()
    qtbot.waitUntil(view.canvas.hasFocus, timeout=3000)
    qtbot.keyClick(view.canvas, Qt.Key.Key_N)
    assert tab.element == "N" and tab.element_button.text() == "Element: N"
    # Two letters that make a symbol within a second form it (Avogadro's rule: N, o → No)
    qtbot.keyClick(view.canvas, Qt.Key.Key_O)
    assert tab.element == "No"
    tab._typed_at = 0.0  # ... a letter after a pause starts afresh
    qtbot.keyClick(view.canvas, Qt.Key.Key_O)
    assert tab.element == "O"
    tab._typed_at = 0.0
    qtbot.keyClicks(view.canvas, "cl")
    assert tab.element == "Cl"
    qtbot.keyClicks(view.canvas, "br")
    assert tab.element == "Br"
    # F is fluorine here, not the window's Fit to View shortcut.
    fits: list[bool] = []
    win.actions_by_id["molforma.view.fit"].triggered.connect(lambda *_: fits.append(True))
    tab._typed_at = 0.0
    qtbot.keyClick(view.canvas, Qt.Key.Key_F)
    assert tab.element == "F" and fits == []
    # The chosen element is what a click draws.
    tab._typed_at = 0.0
    qtbot.keyClick(view.canvas, Qt.Key.Key_O)
    click_atom(qtbot, view, _hydrogens(win)[0])
    assert _formula(win) == "CH4O"
    # Outside the Add-atom tool letters choose nothing, and F fits the view again.
    tab.set_tool("select")
    view.canvas.setFocus()
    qtbot.keyClick(view.canvas, Qt.Key.Key_N)
    assert tab.element == "O"
    qtbot.keyClick(view.canvas, Qt.Key.Key_F)
    assert fits == [True]


def test_a_drag_from_a_hydrogen_turns_it_into_the_element_and_draws_on_from_it(
    make_main_window: Any, qtbot: Any
) -> None:
    win = _methane(make_main_window)
    view, doc = win.molecule_tab.view, win.ctx.document
    h = _hydrogens(win)[0]
    start = view.atom_screen_pos(h)
    centre = view.atom_screen_pos("a1")
    away = start + (start - centre) * 3  # further out along the C–H bond on screen
    _drag(qtbot, view, start, QPointF(away.x() + 1, away.y() + 1))
    assert _formula(win) == "C3H8"  # propane: the H became C and a C was drawn from it
    _satisfied(win)
    assert doc.undo_labels[-1] == "Add atoms" and len(doc.undo_labels) == 2


def test_hydrogen_on_hydrogen_changes_nothing_and_says_so(
    make_main_window: Any, qtbot: Any
) -> None:
    win = _methane(make_main_window)
    tab, view, doc = win.molecule_tab, win.molecule_tab.view, win.ctx.document
    tab.set_element("H")
    h = _hydrogens(win)[0]
    rev = doc.revision
    _hover(qtbot, view, view.atom_screen_pos(h))
    assert tab.draw_hint.text() == ""
    click_atom(qtbot, view, h)
    assert doc.revision == rev and "already H" in tab.message.text()
    start = view.atom_screen_pos(h)
    _drag(qtbot, view, start, QPointF(start.x() + 60, start.y()))
    assert doc.revision == rev and _formula(win) == "CH4"


_GL_SCRIPT = r"""
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
app = QApplication([])
from molforma.gui.context import AppContext
from molforma.gui.main_window import MainWindow
win = MainWindow(AppContext.create())
win.resize(1200, 800)
win.show()
for _ in range(30):
    app.processEvents()
tab = win.molecule_tab
canvas = tab.view.canvas
tab.set_tool("add")
win.activateWindow()
canvas.setFocus()
for _ in range(10):
    app.processEvents()
QTest.keyClick(canvas, Qt.Key.Key_N)
QTest.mousePress(canvas, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                 QPoint(200, 200))
for k in range(1, 6):
    QTest.mouseMove(canvas, QPoint(200 + 20 * k, 200))
QTest.mouseRelease(canvas, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                   QPoint(300, 200))
from molforma.document.document import summary_of
print(tab.view.renderer_name, tab.element, summary_of(win.ctx.document.project)["formula"])
win.ctx.document.modified = False
win.close()
"""


def test_the_opengl_canvas_takes_the_element_keys_and_the_drags_too() -> None:
    from tests.gui.helpers import run_gl_script

    renderer, element, formula = run_gl_script(_GL_SCRIPT).stdout.split()[-3:]
    assert (renderer, element, formula) == ("opengl", "N", "H4N2")


def test_the_keyboard_shortcuts_help_names_the_element_keys(
    make_main_window: Any, monkeypatch: Any
) -> None:
    from molforma.gui import dialogs

    shown: list[str] = []
    monkeypatch.setattr(dialogs, "info", lambda _parent, _title, text: shown.append(text))
    win = make_main_window()
    win.actions_by_id["molforma.help.shortcuts"].trigger()
    assert "C then l: Cl" in shown[0] and "fluorine" in shown[0]
