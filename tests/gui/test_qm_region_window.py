"""The QM region in the window, offscreen, driven by objectName: a protein–ligand PDB made
by RDKit is loaded, a ligand atom clicked in the 3D view, "Whole residues of the
selection" selects the ligand, "Within the radius" (6 Å, whole residues) grows it,
"Extract QM region" keeps it capped and charged and shows the Calculation tab."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QCheckBox, QDoubleSpinBox, QTabWidget, QWidget

from molforma.app.document_files import import_document
from molforma.document.envelope import atoms_of
from molforma.document.residues import residue_columns
from molforma.gui.controls import CONTROLS
from tests.gui.helpers import click_atom
from tests.protein_ligand import formal_charges, protein_ligand_pdb

NAMES = (
    "selectResiduesButton",
    "selectChainsButton",
    "selectWithinButton",
    "selectWithinRadiusSpin",
    "qmWholeResiduesCheck",
    "qmFixCapsCheck",
    "extractQmRegionButton",
)
MENU = ("selectResiduesAction", "selectChainsAction", "selectWithinAction", "extractQmRegionAction")


def _action(win: Any, name: str) -> QAction:
    act = win.findChild(QAction, name)
    assert act is not None, name
    return act


def test_qm_region_from_the_selection_menu(
    make_main_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    win = make_main_window()
    doc = win.ctx.document
    import_document(doc, protein_ligand_pdb(), "pdb", preview=False)
    protein_file = str(tmp_path / "complex.molforma.json")
    doc.mark_saved(protein_file)
    win.update_title()
    assert win.windowTitle().startswith("complex.molforma.json")
    tab = win.molecule_tab
    tab.view.fit()
    tab.set_tool("select")
    before = atoms_of(doc.project)
    cols = residue_columns(before)
    lig_rows = np.flatnonzero(cols.name == "LIG")
    carbon = next(f"a{before.ids[r]}" for r in lig_rows if before.symbols[r] == "C")
    click_atom(qtbot, tab.view, carbon)
    assert tab.view.selection() == [carbon]
    for name in NAMES:
        assert _widget(win, name).toolTip(), name
    for name in MENU:
        assert _action(win, name).toolTip() and _action(win, name).text(), name
    _action(win, "selectResiduesAction").trigger()  # the Selection menu
    ligand = {f"a{before.ids[r]}" for r in lig_rows}
    assert set(tab.view.selection()) == ligand
    win.findChild(QDoubleSpinBox, "selectWithinRadiusSpin").setValue(4.0)
    assert win.findChild(QCheckBox, "qmWholeResiduesCheck").isChecked()
    win.findChild(QCheckBox, "qmFixCapsCheck").setChecked(True)
    tab.residue_selection.box.show()
    qtbot.mouseClick(_widget(win, "selectWithinButton"), Qt.MouseButton.LeftButton)
    region = set(tab.view.selection())
    assert ligand < region and len(region) < len(before)
    qtbot.mouseClick(_widget(win, "extractQmRegionButton"), Qt.MouseButton.LeftButton)
    after = atoms_of(doc.project)
    caps = [a for a in after if a["id"] not in region]
    assert caps and all(a["element"] == "H" and a["fixed"] for a in caps)
    mask = np.isin([f"a{i}" for i in before.ids.tolist()], sorted(region))
    assert doc.project["document"]["charge"] == int(np.array(formal_charges())[mask].sum())
    tabs = win.findChild(QTabWidget, "mainTabs")
    assert tabs.currentWidget().objectName() == "calculationTab"
    # a new, untitled project: Save asks for a name and never writes over the protein
    assert doc.path is None and win.windowTitle().startswith("Untitled*")
    assert doc.title.endswith("QM region")
    # one undo step gives the whole structure back, with its file
    win.ctx.document.undo()
    assert len(atoms_of(doc.project)) == len(before) and doc.path == protein_file


def _widget(win: Any, name: str) -> Any:
    w = win.findChild(QWidget, name)
    assert w is not None, name
    return w


def test_the_entries_are_declared_drivable() -> None:
    declared = {c.name for c in CONTROLS}
    assert set(NAMES) <= declared


def test_residue_entries_refuse_atoms_without_residues(make_main_window: Any) -> None:
    from molforma.app import ops

    win = make_main_window()
    ops.add_atoms(
        win.ctx.document,
        [{"element": "O", "position": [0.0, 0.0, 0.0]}],
        preview=False,
        adjust_hydrogens=True,
    )
    tab = win.molecule_tab
    tab.residue_selection.selecting.set_selection([atoms_of(win.ctx.document.project)[0]["id"]])
    rev = win.ctx.document.revision
    assert tab.residue_selection.select_residues() is False
    assert "residues" in tab.message.text()
    assert win.ctx.document.revision == rev


def test_context_menu_selects_the_atom_residue_and_chain(make_main_window: Any) -> None:
    win = make_main_window()
    doc = win.ctx.document
    import_document(doc, protein_ligand_pdb(), "pdb", preview=False)
    tab = win.molecule_tab
    atoms = atoms_of(doc.project)
    cols = residue_columns(atoms)
    lig = [f"a{i}" for i in atoms.ids[cols.name == "LIG"].tolist()]
    tab.residue_selection.selecting.set_selection(lig[:1])
    menu = tab.menus.build_context_menu(lig[0], None)
    act = menu.findChild(QAction, "ctxSelectResidue")
    assert act is not None and "LIG 101" in act.text() and act.toolTip()
    act.trigger()
    assert set(tab.view.selection()) == set(lig)
    menu = tab.menus.build_context_menu(lig[0], None)
    menu.findChild(QAction, "ctxSelectChain").trigger()
    assert set(tab.view.selection()) == {f"a{i}" for i in atoms.ids[cols.chain == "B"].tolist()}
