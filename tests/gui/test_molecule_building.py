"""Building in the Molecule tab: sensible angles, "Adjust hydrogens", impossible valences shown."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QCheckBox

from molforma.app import ops
from molforma.document.document import summary_of
from molforma.document.envelope import atoms_of, bonds_of
from molforma.document.geometry import angle
from molforma.gui.view3d.scene import MARK_VALENCE
from tests.gui.helpers import click_atom, click_view, empty_spot


def _formula(win: Any) -> str:
    return str(summary_of(win.ctx.document.project)["formula"])


def _pos(win: Any, aid: str) -> list[float]:
    a = next(a for a in atoms_of(win.ctx.document.project) if a["id"] == aid)
    return [a["x"], a["y"], a["z"]]


def _heavy(win: Any) -> list[str]:
    return [a["id"] for a in atoms_of(win.ctx.document.project) if a["element"] != "H"]


def test_adjust_hydrogens_is_on_by_default_and_clicks_build_ethanol(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab, view = win.molecule_tab, win.molecule_tab.view
    check = win.findChild(QCheckBox, "adjustHydrogensCheck")
    assert check is tab.adjust_hydrogens_check and check.isChecked() and check.toolTip()
    tab.palette_toggle.click()
    tab.palette.table.buttons["C"].click()
    click_view(qtbot, view, empty_spot(view))
    assert _formula(win) == "CH4"
    click_atom(qtbot, view, "a1")  # carbon on carbon: ethane
    assert _formula(win) == "C2H6"
    c2 = _heavy(win)[1]
    tab.palette.table.buttons["O"].click()
    click_atom(qtbot, view, c2)
    assert _formula(win) == "C2H6O"
    c1, c2, o = _heavy(win)
    assert angle(_pos(win, c1), _pos(win, c2), _pos(win, o)) == pytest.approx(109.5, abs=1.5)
    assert win.ctx.document.undo_labels == ["Add atoms"] * 3
    assert ops.validate_document(win.ctx.document)["ok"] is True


def test_raising_a_bond_order_with_the_bond_tool_removes_hydrogens(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab, view = win.molecule_tab, win.molecule_tab.view
    doc = win.ctx.document
    ops.add_atoms(
        doc,
        [{"element": "C", "position": [0, 0, 0]}, {"element": "C", "position": [1.54, 0, 0]}],
        [{"a": "#0", "b": "#1"}],
        preview=False,
    )
    ops.add_hydrogens(doc, preview=False)
    view.fit()
    tab.tool_buttons["bond"].click()
    click_atom(qtbot, view, "a1")
    click_atom(qtbot, view, "a2")
    assert _formula(win) == "C2H4"
    assert [b["order"] for b in bonds_of(doc.project) if {b["a"], b["b"]} == {"a1", "a2"}] == [2]
    # Erasing one carbon takes its hydrogens and fills the other one: methane.
    tab.tool_buttons["erase"].click()
    click_atom(qtbot, view, "a2")
    assert _formula(win) == "CH4"


def test_with_adjust_hydrogens_off_a_carbon_chain_still_bends(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab, view = win.molecule_tab, win.molecule_tab.view
    tab.adjust_hydrogens_check.click()
    assert not tab.adjust_hydrogens
    tab.set_element("C")
    click_view(qtbot, view, empty_spot(view))
    click_atom(qtbot, view, "a1")
    tab.set_element("O")
    click_atom(qtbot, view, "a2")
    assert _formula(win) == "C2O"
    assert angle(_pos(win, "a1"), _pos(win, "a2"), _pos(win, "a3")) == pytest.approx(109.5, abs=1.5)


def test_an_impossible_valence_is_ringed_red_and_named(make_main_window: Any, qtbot: Any) -> None:
    win = make_main_window()
    tab, view = win.molecule_tab, win.molecule_tab.view
    doc = win.ctx.document
    ops.add_atoms(
        doc, [{"element": "C", "position": [0, 0, 0]}], preview=False, adjust_hydrogens=True
    )
    view.fit()
    assert not any(int(m) & MARK_VALENCE for m in view.scene.mark)
    tab.adjust_hydrogens_check.setChecked(False)
    tab.set_element("F")
    click_atom(qtbot, view, "a1")  # a fifth bond on a saturated carbon
    i = view.scene.index_of("a1")
    assert int(view.scene.mark[i]) & MARK_VALENCE
    assert sum(1 for m in view.scene.mark if int(m) & MARK_VALENCE) == 1
    assert "C1" in tab.message.text()
    checks = ops.validate_document(doc)["checks"]
    assert [c["atoms"] for c in checks if c["code"] == "valence_exceeded"] == [["a1"]]
    # The painter draws the red ring.
    from PySide6.QtGui import QColor

    img = view.canvas.grab().toImage()
    pos = view.atom_screen_pos("a1")
    r = float(view.scene.radius[i] * view.camera.scale) * 1.22
    ring = [
        img.pixelColor(int(pos.x() + r * dx), int(pos.y() + r * dy))
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
    ]
    assert any(c.red() > 200 and c.green() < 110 and c.blue() < 110 for c in ring), [
        QColor(c).name() for c in ring
    ]
