"""The Molecule tab's right-click menu on an atom, a bond or the background (Qt layer)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import QCoreApplication, QPoint
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QMenu,
    QWidget,
)

from molforma.app import ops
from molforma.app.actor import window_actor
from molforma.document.envelope import atoms_of, bonds_of
from molforma.gui.widgets.molecule_edits import AtomEdits
from molforma.gui.widgets.molecule_geometry import GeometryEditor
from molforma.gui.widgets.molecule_selection import AtomSelection
from molforma.gui.widgets.molecule_tab_support import (
    MENU_ELEMENTS,
    MoleculeTabHost,
)


class MoleculeContextMenu:
    """Builds and shows the right-click menu (objectName ``moleculeContextMenu``).

    The state stays on the tab (``self.tab``); this class holds the behaviour only.
    """

    def __init__(
        self,
        tab: MoleculeTabHost,
        edits: AtomEdits,
        geometry_editor: GeometryEditor,
        selecting: AtomSelection,
        parent: QWidget,
    ) -> None:
        self.tab = tab
        self.edits = edits
        self.geometry_editor = geometry_editor
        self.selecting = selecting
        self.parent = parent

    def _context_requested(
        self, atom_id: str, bond: tuple[str, str] | None, global_pos: QPoint
    ) -> None:
        if atom_id and atom_id not in self.tab.view.selection():
            self.selecting.set_selection([atom_id])
        menu = self.build_context_menu(atom_id, bond)
        menu.popup(global_pos)

    def build_context_menu(self, atom_id: str, bond: tuple[str, str] | None) -> QMenu:
        """The menu of a right click on an atom, a bond or the background (objectName
        ``moleculeContextMenu``; actions ``ctx...``)."""
        if self.tab.context_menu is not None:
            self.tab.context_menu.deleteLater()
        menu = QMenu(self.parent)
        menu.setObjectName("moleculeContextMenu")
        self.tab.context_menu = menu
        doc = self.tab.ctx.document
        editable = doc.candidate is None and not doc.busy and self.tab._worker is None
        sel = self.tab.view.selection()

        def add(
            name: str,
            text: str,
            tip: str,
            fn: Callable[[], Any],
            *,
            enabled: bool = True,
            parent: QMenu | None = None,
        ) -> QAction:
            act = (parent or menu).addAction(text)
            act.setObjectName(name)
            act.setToolTip(tip)
            act.setStatusTip(tip)
            act.setEnabled(enabled)
            act.triggered.connect(lambda _c=False: fn())
            return act

        menu.setToolTipsVisible(True)
        if atom_id:
            ids = sel if atom_id in sel else [atom_id]
            index = {a["id"]: a for a in atoms_of(doc.project)}
            atom = index.get(atom_id, {})
            add(
                "ctxDeleteAtoms",
                QCoreApplication.translate("MoleculeTab", "Delete %1").replace(
                    "%1",
                    self.geometry_editor.measure_name(ids)
                    if len(ids) <= 4
                    else QCoreApplication.translate("MoleculeTab", "%1 atoms").replace(
                        "%1", str(len(ids))
                    ),
                ),
                QCoreApplication.translate("MoleculeTab", "Delete the atoms with their bonds"),
                lambda: self.edits.erase_atoms(list(ids)),
                enabled=editable,
            )
            elements = menu.addMenu(QCoreApplication.translate("MoleculeTab", "Set element"))
            elements.setObjectName("ctxElementMenu")
            for el in dict.fromkeys((*MENU_ELEMENTS, self.tab.element)):
                add(
                    f"ctxElement_{el}",
                    el,
                    QCoreApplication.translate("MoleculeTab", "Make the atoms %1").replace(
                        "%1", el
                    ),
                    partial(self.edits.set_element_of, list(ids), el),
                    enabled=editable,
                    parent=elements,
                )
            fixed = bool(atom.get("fixed"))
            add(
                "ctxFixAtoms",
                QCoreApplication.translate("MoleculeTab", "Unfix")
                if fixed
                else QCoreApplication.translate("MoleculeTab", "Fix"),
                QCoreApplication.translate(
                    "MoleculeTab", "Fixed atoms never move (clean-up, geometry edits, optimisation)"
                ),
                lambda: self.tab._run(
                    lambda: ops.set_atom_properties(
                        doc,
                        [{"id": i, "fixed": not fixed} for i in ids],
                        preview=False,
                        actor=window_actor(),
                    )
                ),
                enabled=editable,
            )
            add(
                "ctxMeasure",
                QCoreApplication.translate("MoleculeTab", "Measure"),
                QCoreApplication.translate(
                    "MoleculeTab", "Keep the distance, angle or dihedral of the 2–4 selected atoms"
                ),
                lambda: self.geometry_editor.keep_measurement(sel),
                enabled=2 <= len(sel) <= 4,
            )
            menu.addSeparator()
            add(
                "ctxSelectFragment",
                QCoreApplication.translate("MoleculeTab", "Select fragment"),
                QCoreApplication.translate(
                    "MoleculeTab", "Select every atom bonded, directly or not, to this one"
                ),
                lambda: self.selecting.select_fragment([atom_id]),
            )
            el = str(atom.get("element", ""))
            add(
                "ctxSelectElement",
                QCoreApplication.translate("MoleculeTab", "Select all %1").replace("%1", el),
                QCoreApplication.translate("MoleculeTab", "Select every atom of this element"),
                lambda: self.selecting.select_element(el),
            )
            if atom.get("residueName"):  # an atom read from PDB: its residue and chain
                add(
                    "ctxSelectResidue",
                    QCoreApplication.translate("MoleculeTab", "Select residue %1").replace(
                        "%1", f"{atom['residueName']} {atom.get('residueNumber', '')}"
                    ),
                    QCoreApplication.translate(
                        "MoleculeTab", "Select every atom of this atom's residue"
                    ),
                    lambda: self.tab.residue_selection.select_residues(),
                )
                add(
                    "ctxSelectChain",
                    QCoreApplication.translate("MoleculeTab", "Select chain %1").replace(
                        "%1", str(atom.get("chain") or "-")
                    ),
                    QCoreApplication.translate(
                        "MoleculeTab", "Select every atom of this atom's chain"
                    ),
                    lambda: self.tab.residue_selection.select_chains(),
                )
        elif bond is not None:
            a, b = bond
            order = next(
                (
                    int(x.get("order", 1))
                    for x in bonds_of(doc.project)
                    if {x["a"], x["b"]} == {a, b}
                ),
                1,
            )
            names = {
                1: QCoreApplication.translate("MoleculeTab", "Single bond"),
                2: QCoreApplication.translate("MoleculeTab", "Double bond"),
                3: QCoreApplication.translate("MoleculeTab", "Triple bond"),
            }
            for k in (1, 2, 3):
                act = add(
                    f"ctxBondOrder_{k}",
                    names[k],
                    QCoreApplication.translate(
                        "MoleculeTab",
                        "Set the bond order (hydrogens follow when Adjust hydrogens is on)",
                    ),
                    partial(self.edits.set_bond_order, a, b, k),
                    enabled=editable,
                )
                act.setCheckable(True)
                act.setChecked(k == order)
            add(
                "ctxDeleteBond",
                QCoreApplication.translate("MoleculeTab", "Delete bond"),
                QCoreApplication.translate("MoleculeTab", "Remove the bond, keep the atoms"),
                lambda: self.edits.set_bond_order(a, b, 0),
                enabled=editable,
            )
            add(
                "ctxMeasure",
                QCoreApplication.translate("MoleculeTab", "Measure"),
                QCoreApplication.translate("MoleculeTab", "Keep the length of this bond"),
                lambda: self.geometry_editor.keep_measurement([a, b]),
            )
        else:
            add(
                "ctxSelectAll",
                QCoreApplication.translate("MoleculeTab", "Select all"),
                QCoreApplication.translate("MoleculeTab", "Select every atom"),
                self.selecting.select_all,
            )
            add(
                "ctxClearMeasurements",
                QCoreApplication.translate("MoleculeTab", "Clear measurements"),
                QCoreApplication.translate("MoleculeTab", "Remove every kept measurement"),
                self.geometry_editor.clear_measurements,
                enabled=bool(self.tab.pinned_measurements),
            )
        return menu
