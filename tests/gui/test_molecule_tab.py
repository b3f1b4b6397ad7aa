"""The Molecule tab driven as a person would: tools, table, candidates, undo/redo, workers."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QComboBox, QToolButton

from molforma.app import ops
from molforma.app.actor import Actor
from molforma.document.envelope import atoms_of, bonds_of
from tests.gui.helpers import WATER, click_atom, click_view, empty_spot


def _atoms(win: Any) -> list[dict[str, Any]]:
    return atoms_of(win.ctx.document.project)


def test_building_a_molecule_with_add_bond_and_erase_tools(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    view = tab.view
    # The bare tools, without hydrogens following (tests/gui/test_molecule_building.py).
    tab.adjust_hydrogens_check.setChecked(False)
    # Choose carbon in the palette, then click empty space: one C atom.
    tab.palette_toggle.click()
    assert tab.palette.isVisible()
    tab.palette.table.buttons["C"].click()
    assert tab.tool == "add"
    click_view(qtbot, view, empty_spot(view))
    assert [a["element"] for a in _atoms(win)] == ["C"]
    # Click the carbon with oxygen chosen: an O bonded to it at C–O covalent distance.
    tab.palette.table.buttons["O"].click()
    click_atom(qtbot, view, "a1")
    atoms = _atoms(win)
    assert [a["element"] for a in atoms] == ["C", "O"]
    assert bonds_of(win.ctx.document.project) == [{"a": "a1", "b": "a2", "order": 1}]
    c, o = atoms
    dist = sum((c[k] - o[k]) ** 2 for k in "xyz") ** 0.5
    assert dist == pytest.approx(0.76 + 0.66, abs=0.05)
    # Bond tool: clicking the same pair again raises the order.
    tab.tool_buttons["bond"].click()
    click_atom(qtbot, view, "a1")
    click_atom(qtbot, view, "a2")
    assert bonds_of(win.ctx.document.project)[0]["order"] == 2
    # Erase tool removes the oxygen and its bond.
    tab.tool_buttons["erase"].click()
    click_atom(qtbot, view, "a2")
    assert [a["id"] for a in _atoms(win)] == ["a1"]
    assert bonds_of(win.ctx.document.project) == []
    # Every tool click was one undo step.
    assert win.ctx.document.undo_labels == ["Add atoms", "Add atoms", "Set bonds", "Delete atoms"]


def test_undo_and_redo_buttons_share_the_document_history(make_main_window: Any) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    ops.delete_atoms(win.ctx.document, ["a3"], preview=False)
    assert len(_atoms(win)) == 2
    tab.undo_button.click()
    assert len(_atoms(win)) == 3
    tab.undo_button.click()
    assert len(_atoms(win)) == 0
    assert not tab.undo_button.isEnabled()
    tab.redo_button.click()
    tab.redo_button.click()
    assert [a["id"] for a in _atoms(win)] == ["a1", "a2"]
    assert tab.table.atom_model.rowCount() == 2


def test_editing_a_coordinate_in_the_table_moves_the_atom(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    table = win.molecule_tab.table
    index = table.atom_model.index(1, 4)  # a2, z
    table.setCurrentIndex(index)
    table.edit(index)
    from PySide6.QtWidgets import QLineEdit

    editor = table.viewport().findChild(QLineEdit)
    assert editor is not None and editor.text() == "-0.469"
    editor.selectAll()
    qtbot.keyClicks(editor, "1.25")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    # The delegate commits on the next event-loop turn.
    qtbot.waitUntil(lambda: _atoms(win)[1]["z"] == pytest.approx(1.25), timeout=3000)
    assert table.atom_model.data(index) == "1.25000"


def test_a_refused_table_edit_changes_nothing_and_says_why(make_main_window: Any) -> None:
    win = make_main_window()
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    model = win.molecule_tab.table.atom_model
    assert model.setData(model.index(1, 3), "0.0")  # a2 to y = 0: allowed
    before = win.ctx.document.revision
    # z = 0.117 would put a2 on top of a1: refused (atoms closer than 0.1 Å).
    assert not model.setData(model.index(1, 4), "0.117")
    assert "0.1" in win.molecule_tab.message.text()
    assert not model.setData(model.index(0, 1), "Xx")
    assert not model.setData(model.index(0, 2), "abc")
    assert win.ctx.document.revision == before
    assert model.data(model.index(0, 1)) == "O"
    assert model.data(model.index(1, 4)) == "-0.46900"


def test_fixing_an_atom_in_the_table_and_moving_it_is_refused(make_main_window: Any) -> None:
    win = make_main_window()
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    model = win.molecule_tab.table.atom_model
    assert model.setData(model.index(0, 5), Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    assert _atoms(win)[0]["fixed"] is True
    assert 2 & int(win.molecule_tab.view.scene.mark[0])  # drawn with the fixed mark
    assert not model.setData(model.index(0, 2), "1.0")
    assert _atoms(win)[0]["x"] == 0.0


def test_property_panel_applies_charge_and_rejects_a_bad_isotope(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    click_atom(qtbot, tab.view, "a1")
    assert tab.view.selection() == ["a1"]
    props = tab.properties
    assert props.element.text() == "O"
    props.charge.setValue(-1)
    props.name.setText("Ow")
    props.apply_button.click()
    a1 = _atoms(win)[0]
    assert (a1["formalCharge"], a1["name"]) == (-1, "Ow")
    props.mass_number.setValue(3)  # 3O is not in the isotope table
    rev = win.ctx.document.revision
    props.apply_button.click()
    assert props.error.text() != ""
    assert win.ctx.document.revision == rev
    assert _atoms(win)[0]["massNumber"] is None


def test_fixing_several_selected_atoms_keeps_their_elements_and_isotopes(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    ops.set_atom_properties(win.ctx.document, [{"id": "a2", "massNumber": 2}], preview=False)
    click_atom(qtbot, tab.view, "a1")
    click_atom(qtbot, tab.view, "a2", Qt.KeyboardModifier.ShiftModifier)
    click_atom(qtbot, tab.view, "a3", Qt.KeyboardModifier.ShiftModifier)
    props = tab.properties
    props.fixed.click()
    props.apply_button.click()
    atoms = _atoms(win)
    assert [(a["element"], a["massNumber"], a["fixed"]) for a in atoms] == [
        ("O", None, True),
        ("H", 2, True),
        ("H", None, True),
    ]
    # Mixed flags show partly checked; one click fixes all of them.
    ops.set_atom_properties(win.ctx.document, [{"id": "a3", "fixed": False}], preview=False)
    tab.set_selection(["a1", "a2", "a3"])
    assert props.fixed.checkState() == Qt.CheckState.PartiallyChecked
    props.fixed.click()
    props.apply_button.click()
    assert [a["fixed"] for a in _atoms(win)] == [True, True, True]
    assert [a["element"] for a in _atoms(win)] == ["O", "H", "H"]


def test_layout_combo_switches_between_view_table_and_both(make_main_window: Any) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    combo = tab.findChild(QComboBox, "moleculeLayout")
    combo.setCurrentIndex(combo.findData("table"))
    assert tab.table.isVisible() and not tab.view.isVisible()
    combo.setCurrentIndex(combo.findData("view"))
    assert tab.view.isVisible() and not tab.table.isVisible()
    combo.setCurrentIndex(combo.findData("both"))
    assert tab.view.isVisible() and tab.table.isVisible()


def test_smiles_makes_a_candidate_that_confirm_applies(make_main_window: Any, qtbot: Any) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    qtbot.keyClicks(tab.smiles_input, "CCO")
    qtbot.keyClick(tab.smiles_input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not tab.worker_running, timeout=20000)
    doc = win.ctx.document
    assert doc.candidate is not None
    assert len(atoms_of(doc.candidate)) == 9
    assert atoms_of(doc.project) == []
    # The view shows the candidate, ringed as new.
    assert tab.view.scene.count == 9
    assert all(int(m) & 4 for m in tab.view.scene.mark)
    assert (
        not tab.table.atom_model.flags(tab.table.atom_model.index(0, 2))
        & Qt.ItemFlag.ItemIsEditable
    )
    # Other edits wait for the candidate.
    assert not tab.add_atom_at((5.0, 5.0, 5.0))
    win.findChild(QToolButton, "confirmButton").click()
    assert doc.candidate is None
    assert sorted(a["element"] for a in atoms_of(doc.project)) == ["C", "C"] + ["H"] * 6 + ["O"]
    tab.undo_button.click()
    assert atoms_of(doc.project) == []


def test_a_radical_smiles_sets_the_multiplicity_and_the_run_form_warns_when_it_disagrees(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    doc = win.ctx.document
    assert tab.start_smiles("[O][O]")
    qtbot.waitUntil(lambda: not tab.worker_running, timeout=20000)
    win.findChild(QToolButton, "confirmButton").click()
    # Triplet O2, as the two radical electrons say (it stayed a closed-shell singlet).
    assert doc.project["document"]["multiplicity"] == 3
    panel = win.panels["calculation"]
    win.tabs.setCurrentWidget(panel)
    assert "general" not in panel.messages()
    # A singlet asked for by hand is allowed, but the person reads why it may be wrong
    # beside Run, as validate_document says it.
    ops.set_molecule(doc, multiplicity=1, preview=False)
    qtbot.waitUntil(lambda: "unpaired" in panel.messages().get("general", ""), timeout=5000)
    assert panel.messages()["general"].startswith("Warning: ")


def test_cancel_drops_the_candidate(make_main_window: Any, qtbot: Any) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    assert tab.start_smiles("O")
    qtbot.waitUntil(lambda: not tab.worker_running, timeout=20000)
    assert win.ctx.document.candidate is not None
    tab.cancel_button.click()
    assert win.ctx.document.candidate is None
    assert atoms_of(win.ctx.document.project) == []


def test_a_bad_smiles_is_reported_and_changes_nothing(make_main_window: Any, qtbot: Any) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    rev = win.ctx.document.revision
    # Refused at once (no background work started), with the reason under the view.
    assert tab.start_smiles("C1CC(") is False
    assert not tab.worker_running
    assert "C1CC(" in tab.message.text()
    assert win.ctx.document.revision == rev


def test_geometry_cleanup_refuses_edits_while_running_and_makes_a_candidate(
    make_main_window: Any, qtbot: Any
) -> None:
    from molforma.errors import BusyError

    win = make_main_window()
    tab = win.molecule_tab
    doc = win.ctx.document
    # A stretched water: the clean-up must pull the hydrogens in.
    ops.add_atoms(
        doc,
        [
            {"element": "O", "position": [0, 0, 0]},
            {"element": "H", "position": [1.6, 0, 0]},
            {"element": "H", "position": [0, 1.6, 0]},
        ],
        bonds=[{"a": "#0", "b": "#1"}, {"a": "#0", "b": "#2"}],
        preview=False,
    )
    tab.cleanup_button.click()
    assert doc.busy
    with pytest.raises(BusyError):
        ops.add_atoms(doc, [{"element": "He", "position": [9, 9, 9]}], preview=False)
    qtbot.waitUntil(lambda: not tab.worker_running, timeout=20000)
    assert not doc.busy
    assert doc.candidate is not None
    o, h, _h2 = atoms_of(doc.candidate)
    assert sum((o[k] - h[k]) ** 2 for k in "xyz") ** 0.5 == pytest.approx(0.97, abs=0.05)
    tab.confirm_button.click()
    assert doc.candidate is None


def test_place_tool_confirms_its_previous_candidate_on_the_next_click(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    doc = win.ctx.document
    ops.add_atoms(doc, [{"element": "C", "position": [0, 0, 0]}], preview=False)
    ops.add_hydrogens(doc, preview=False)
    tab.palette_toggle.click()
    tab.palette.fragments.setCurrentRow(0)  # methyl
    assert tab.tool == "place"
    hydrogens = [a["id"] for a in atoms_of(doc.project) if a["element"] == "H"]
    carbon = "a1"
    click_atom(qtbot, tab.view, carbon)
    assert doc.candidate is not None
    first = len(atoms_of(doc.candidate))
    assert first > 5
    assert len(atoms_of(doc.project)) == 5
    # A click on another atom (the placed methyl's carbon) confirms the first placement
    # and proposes the next one there.
    placed = next(
        a["id"] for a in atoms_of(doc.candidate) if a["element"] == "C" and a["id"] != carbon
    )
    click_atom(qtbot, tab.view, placed)
    assert len(atoms_of(doc.project)) == first
    assert doc.candidate is not None
    assert len(atoms_of(doc.candidate)) > first
    assert hydrogens  # the site kept its id across the confirmations


def test_a_click_never_confirms_a_candidate_made_by_mcp(make_main_window: Any, qtbot: Any) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    doc = win.ctx.document
    ops.add_atoms(doc, [{"element": "C", "position": [0, 0, 0]}], preview=False)
    ops.add_hydrogens(doc, preview=False)
    tab.palette_toggle.click()
    tab.palette.fragments.setCurrentRow(0)
    ops.move_atoms(doc, ids=["a1"], translate=[0.5, 0, 0], actor=Actor.MCP_TOOL)
    rev = doc.revision
    click_atom(qtbot, tab.view, "a2")
    assert doc.revision == rev
    assert doc.candidate_origin == "mcp"
    assert tab.message.text() != ""


def test_selection_in_the_view_selects_table_rows(make_main_window: Any, qtbot: Any) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    click_atom(qtbot, tab.view, "a2")
    click_atom(qtbot, tab.view, "a3", Qt.KeyboardModifier.ControlModifier)
    assert tab.view.selection() == ["a2", "a3"]
    assert tab.table.selected_ids() == ["a2", "a3"]
    win.findChild(type(win.actions_by_id["molforma.edit.delete"]), "molforma.edit.delete").trigger()
    assert [a["id"] for a in _atoms(win)] == ["a1"]


def test_load_structure_file_keeps_the_calculation_settings(
    make_main_window: Any, tmp_path: Any, dialog_log: Any
) -> None:
    win = make_main_window()
    doc = win.ctx.document
    ops.set_nwchem(doc, {"basis": "cc-pvdz"}, preview=False)
    src = tmp_path / "w.xyz"
    src.write_text("3\nwater\nO 0 0 0.117\nH 0 0.757 -0.469\nH 0 -0.757 -0.469\n")
    dialog_log.answers.append(str(src))
    win.molecule_tab.load_button.click()
    assert [a["element"] for a in _atoms(win)] == ["O", "H", "H"]
    assert doc.project["calculation"]["basis"] == "cc-pvdz"


def test_move_tool_drags_the_selected_atoms_in_the_view_plane(
    make_main_window: Any, qtbot: Any
) -> None:
    from PySide6.QtCore import QPoint

    win = make_main_window()
    tab = win.molecule_tab
    view = tab.view
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    tab.tool_buttons["move"].click()
    click_atom(qtbot, view, "a2")
    assert view.selection() == ["a2"]
    start = view.atom_screen_pos("a2").toPoint()
    before = dict(_atoms(win)[1])
    qtbot.mousePress(view.canvas, Qt.MouseButton.LeftButton, pos=start)
    for dx in range(5, 45, 5):
        qtbot.mouseMove(view.canvas, start + QPoint(dx, 0))
    qtbot.mouseRelease(view.canvas, Qt.MouseButton.LeftButton, pos=start + QPoint(40, 0))
    after = _atoms(win)[1]
    moved = sum((after[k] - before[k]) ** 2 for k in "xyz") ** 0.5
    assert moved == pytest.approx(40 / view.camera.scale, rel=0.05)
    assert _atoms(win)[0]["x"] == 0.0  # unselected atoms stay
    assert win.ctx.document.undo_labels[-1] == "Move atoms"
    new_pos = view.atom_screen_pos("a2")
    assert abs(new_pos.x() - (start.x() + 40)) < 2


def test_shift_click_with_the_bond_tool_removes_the_bond(make_main_window: Any, qtbot: Any) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    doc = win.ctx.document
    ops.add_atoms(doc, WATER, bonds=[{"a": "#0", "b": "#1"}], preview=False)
    tab.adjust_hydrogens_check.setChecked(False)  # only the bond, no hydrogens following
    tab.tool_buttons["bond"].click()
    click_atom(qtbot, tab.view, "a1")
    click_atom(qtbot, tab.view, "a2", Qt.KeyboardModifier.ShiftModifier)
    assert bonds_of(doc.project) == []


def test_add_hydrogens_fills_the_selected_atom_only(make_main_window: Any, qtbot: Any) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    doc = win.ctx.document
    ops.add_atoms(
        doc,
        [{"element": "C", "position": [0, 0, 0]}, {"element": "O", "position": [1.43, 0, 0]}],
        bonds=[{"a": "#0", "b": "#1"}],
        preview=False,
    )
    click_atom(qtbot, tab.view, "a2")
    tab.hydrogens_button.click()
    assert sorted(a["element"] for a in atoms_of(doc.project)) == ["C", "H", "O"]
    tab.set_selection([])
    tab.hydrogens_button.click()
    assert sorted(a["element"] for a in atoms_of(doc.project)) == ["C"] + ["H"] * 4 + ["O"]
    assert doc.undo_labels[-2:] == ["Add hydrogens", "Add hydrogens"]


def test_selecting_two_three_or_four_atoms_shows_the_measurement(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    click_atom(qtbot, tab.view, "a2")
    assert tab.measurement.text() == ""
    click_atom(qtbot, tab.view, "a1", Qt.KeyboardModifier.ControlModifier)
    d = (0.757**2 + 0.586**2) ** 0.5
    assert tab.measurement.text() == f"Distance H2–O1: {d:.4f} Å"  # element labels, not ids
    click_atom(qtbot, tab.view, "a3", Qt.KeyboardModifier.ControlModifier)
    assert tab.measurement.text().startswith("Angle H2–O1–H3: 104.")


def test_hovering_an_atom_shows_its_id_element_and_position(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    view = win.molecule_tab.view
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    with qtbot.waitSignal(view.atomHovered) as blocker:
        qtbot.mouseMove(view.canvas, view.atom_screen_pos("a1").toPoint())
    assert blocker.args == ["a1"]
    assert view.canvas.toolTip() == "a1  O  (0.000, 0.000, 0.117) Å"


def test_escape_drops_a_half_made_bond(make_main_window: Any, qtbot: Any) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    tab.tool_buttons["bond"].click()
    click_atom(qtbot, tab.view, "a2")
    assert tab.view.selection() == ["a2"]
    qtbot.keyClick(tab.view.canvas, Qt.Key.Key_Escape)
    assert tab.view.selection() == []
    click_atom(qtbot, tab.view, "a3")  # starts a new bond instead of bonding a2-a3
    assert bonds_of(win.ctx.document.project) == []


def test_atoms_clicked_into_an_empty_view_land_a_bond_length_apart(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab, view = win.molecule_tab, win.molecule_tab.view
    tab.adjust_hydrogens_check.setChecked(False)
    tab.set_tool("add")
    first = QPoint(view.canvas.width() // 2 - 60, view.canvas.height() // 2)
    click_view(qtbot, view, first)
    # The first atom stays under the pointer: the view neither jumps nor zooms in on it.
    drawn = view.atom_screen_pos("a1")
    assert drawn is not None
    assert abs(drawn.x() - first.x()) < 2 and abs(drawn.y() - first.y()) < 2
    # A second click 60 px to the right is a bond length away, not a fraction of one.
    click_view(qtbot, view, first + QPoint(60, 0))
    a, b = _atoms(win)
    dist = sum((a[k] - b[k]) ** 2 for k in "xyz") ** 0.5
    assert 1.2 < dist < 2.0
    # Fitting a lone atom (View > Fit, a resize) does not blow it up to fill the view.
    ops.delete_atoms(win.ctx.document, ["a2"], preview=False)
    view.fit()
    assert view.camera.scale < 100


def test_the_parts_palette_opens_wide_enough_to_use(make_main_window: Any) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    tab.palette_toggle.click()
    # Shown with its periodic table at full width, the view keeping room beside it.
    assert tab.palette.isVisible()
    assert tab.palette.width() >= tab.palette.table.minimumSizeHint().width()
    assert tab.view.width() > 200


def _choose_ligand(tab: Any, name: str) -> None:
    tab.palette_toggle.click()
    tab.palette.load_catalog()
    items = tab.palette.ligands.findItems(f"({name})", Qt.MatchFlag.MatchContains)
    assert items, name
    tab.palette.ligands.setCurrentItem(items[0])


def test_a_ligand_placed_on_another_ligands_atom_is_warned_about(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    doc = win.ctx.document
    ops.add_atoms(doc, [{"element": "Fe", "position": [0, 0, 0]}], preview=False)
    _choose_ligand(tab, "NH3")
    assert tab.tool == "place"
    click_atom(qtbot, tab.view, "a1")  # on the metal: fine
    assert doc.candidate is not None and "not a metal" not in tab.message.text()
    nitrogen = next(a["id"] for a in atoms_of(doc.candidate) if a["element"] == "N")
    tab.confirm_button.click()
    click_atom(qtbot, tab.view, nitrogen)  # on the ligand's N: an N–N chain
    assert doc.candidate is not None  # the person decides; the warning says why
    assert "is not a metal" in tab.message.text()
    assert "N" in tab.message.text()


def test_the_metal_hidden_by_its_ligands_can_be_picked_by_name(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab = win.molecule_tab
    doc = win.ctx.document
    ops.add_atoms(
        doc,
        [{"element": "C", "position": [4, 0, 0]}, {"element": "Fe", "position": [0, 0, 0]}],
        preview=False,
    )
    combo = tab.findChild(QComboBox, "placeMetalCombo")
    assert not combo.isVisible()
    _choose_ligand(tab, "NH3")
    assert combo.isVisible() and [combo.itemText(i) for i in range(combo.count())] == ["Fe2"]
    tab.findChild(QToolButton, "placeOnMetalButton").click()
    cand = atoms_of(doc.candidate)
    assert sorted(a["element"] for a in cand).count("N") == 1
    fe = next(a for a in cand if a["element"] == "Fe")
    n = next(a for a in cand if a["element"] == "N")
    assert 1.8 < sum((fe[k] - n[k]) ** 2 for k in "xyz") ** 0.5 < 2.4


def test_a_fragment_making_an_impossible_valence_is_warned_about(
    make_main_window: Any, qtbot: Any
) -> None:
    from molforma.document import building

    before = {"document": {"atoms": [{"id": "a1", "element": "O"}], "bonds": []}}
    after = {
        "document": {
            "atoms": [
                {"id": "a1", "element": "O", "formalCharge": 0},
                *({"id": f"a{k}", "element": "C", "formalCharge": 0} for k in (2, 3, 4)),
            ],
            "bonds": [{"a": "a1", "b": f"a{k}", "order": 1} for k in (2, 3, 4)],
        }
    }
    assert building.placement_problems(before, after, "a1", "fragment") == {"valence": ["a1"]}
