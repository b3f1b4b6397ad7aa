"""The Molecule tab's words: every label, tooltip and hint in the display language (Qt layer)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QScrollArea, QStyle

from molforma.gui.widgets.molecule_tab_support import (
    HISTORY_BUTTON_WIDTH,
    MoleculeTabHost,
    _label,
    history_texts,
)


class MoleculeTabTexts:
    """Words the tab's widgets in the display language (labels, tooltips, hints).

    The state stays on the tab (``self.tab``); this class holds the behaviour only.
    """

    def __init__(self, tab: MoleculeTabHost) -> None:
        self.tab = tab

    def retranslate(self) -> None:
        """Re-read every text."""
        names = {
            "select": QCoreApplication.translate("MoleculeTab", "Select"),
            "add": QCoreApplication.translate("MoleculeTab", "Add atom"),
            "bond": QCoreApplication.translate("MoleculeTab", "Bond"),
            "erase": QCoreApplication.translate("MoleculeTab", "Erase"),
            "move": QCoreApplication.translate("MoleculeTab", "Move"),
            "place": QCoreApplication.translate("MoleculeTab", "Place fragment"),
        }
        tips = {
            "select": QCoreApplication.translate(
                "MoleculeTab", "Click atoms to select them (Ctrl or Shift adds)"
            ),
            "add": QCoreApplication.translate(
                "MoleculeTab",
                "Draw: click empty space to add an atom, an atom to attach one, "
                "a hydrogen to turn it into the element, a bond to cycle its "
                "order 1→2→3; drag from an atom to draw a bonded atom (from "
                "empty space: two), onto another atom to bond them; middle "
                "drag turns the view. Type an element in the view: C, N, O, "
                "H, S, P, F, I, B; Cl = C then l, Br = B then r (within 1 s)",
            ),
            "bond": QCoreApplication.translate(
                "MoleculeTab",
                "Click two atoms to add a bond or change its order; "
                "Shift-click the second atom to remove the bond",
            ),
            "erase": QCoreApplication.translate(
                "MoleculeTab", "Click an atom to delete it with its bonds"
            ),
            "move": QCoreApplication.translate("MoleculeTab", "Drag selected atoms to move them"),
            "place": QCoreApplication.translate(
                "MoleculeTab",
                "Click an atom to place the chosen fragment on its next free "
                "site; the next click confirms it (on the same atom it only "
                "confirms)",
            ),
        }
        for n, b in self.tab.tool_buttons.items():
            b.setText(names[n])
            b.setToolTip(tips[n])
        self.tab.metal_label.setText(QCoreApplication.translate("MoleculeTab", "Place on:"))
        self.tab.metal_combo.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab",
                "The metal to place the chosen ligand on, also "
                "when its ligands hide it in the view",
            )
        )
        self.tab.metal_button.setText(QCoreApplication.translate("MoleculeTab", "Place"))
        self.tab.metal_button.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab", "Place the chosen fragment or ligand on this metal"
            )
        )
        tips["select"] = QCoreApplication.translate(
            "MoleculeTab",
            "Click atoms to select them (Ctrl or Shift adds); drag from "
            "empty space to select with a box; right-click for actions",
        )
        self.tab.tool_buttons["select"].setToolTip(tips["select"])
        self.tab.element_button.setText(
            QCoreApplication.translate("MoleculeTab", "Element: %1").replace("%1", self.tab.element)
        )
        self.tab.element_button.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab",
                "The element the Add atom tool places; click to choose it in the periodic table",
            )
        )
        self.tab.palette_toggle.setText(QCoreApplication.translate("MoleculeTab", "Parts palette"))
        self.tab.palette_toggle.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab", "Show or hide the periodic table, fragments and ligands (F9)"
            )
        )
        self.tab.select_button.setText(QCoreApplication.translate("MoleculeTab", "Selection"))
        # Its menu arrow is drawn in the button's corner, which the tool button's own size
        # leaves out: without the room the arrow sat on the text ("選択範囲" under it).
        button = self.tab.select_button
        button.setMinimumWidth(
            button.sizeHint().width()
            + button.style().pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator, None, button)
        )
        self.tab.select_button.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab",
                "Select all, none, the inverse, whole fragments or every atom of an element",
            )
        )
        texts = {
            "selectAllAtomsAction": QCoreApplication.translate("MoleculeTab", "All atoms"),
            "selectNoneAction": QCoreApplication.translate("MoleculeTab", "None"),
            "invertSelectionAction": QCoreApplication.translate("MoleculeTab", "Invert selection"),
            "selectFragmentAction": QCoreApplication.translate(
                "MoleculeTab", "Whole fragments of the selection"
            ),
        }
        for key, act in self.tab._select_actions.items():
            act.setText(texts[key])
        self.tab.select_element_menu.setTitle(
            QCoreApplication.translate("MoleculeTab", "By element")
        )
        self.tab.residue_selection.retranslate()
        self.tab.labels_label.setText(QCoreApplication.translate("MoleculeTab", "Labels:"))
        for i, text in enumerate(
            (
                QCoreApplication.translate("MoleculeTab", "None"),
                QCoreApplication.translate("MoleculeTab", "Element and number"),
                QCoreApplication.translate("MoleculeTab", "Formal charge"),
                QCoreApplication.translate("MoleculeTab", "Atom name"),
            )
        ):
            self.tab.labels_combo.setItemText(i, text)
        self.tab.labels_combo.setToolTip(
            QCoreApplication.translate("MoleculeTab", "Text drawn beside every atom in the 3D view")
        )
        self.tab.layout_label.setText(QCoreApplication.translate("MoleculeTab", "Layout:"))
        self.tab.layout_combo.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab", "Show the 3D view, the coordinate table or both"
            )
        )
        self.tab.smiles_input.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab",
                "A SMILES string, or a common name (water, DMSO, "
                "benzene, glycine, 水, ベンゼン …); Enter makes "
                "a 3D candidate with hydrogens",
            )
        )
        self.tab.draw_hint.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab", "What a click or drag of the Add-atom tool does where the pointer is"
            )
        )
        self.tab.smiles_button.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab",
                "Make 3D coordinates from the SMILES (a candidate to confirm or cancel)",
            )
        )
        self.tab.worker_cancel.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab",
                "Stop the running SMILES or clean-up work; the molecule stays as it was",
            )
        )
        self.tab.progress.setToolTip(
            QCoreApplication.translate("MoleculeTab", "Progress of the running work")
        )
        self.tab.geometry_button.setText(QCoreApplication.translate("MoleculeTab", "Set"))
        self.tab.geometry_button.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab",
                "Set the distance, angle or dihedral of the 2, 3 or 4 selected atoms, "
                "moving the smaller fragment",
            )
        )
        self.tab.geometry_input.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab", "The new value (Å or degrees, C locale: 1.25)"
            )
        )
        self.tab.pin_button.setText(QCoreApplication.translate("MoleculeTab", "Keep measurement"))
        self.tab.pin_button.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab", "Keep the measurement of the selected atoms in the view and the list"
            )
        )
        self.tab.clear_pins_button.setText(
            QCoreApplication.translate("MoleculeTab", "Clear measurements")
        )
        self.tab.clear_pins_button.setToolTip(
            QCoreApplication.translate("MoleculeTab", "Remove every kept measurement")
        )
        self.tab.measurement_list.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab", "Kept measurements; double-click one to select its atoms"
            )
        )
        for i, text in enumerate(
            (
                QCoreApplication.translate("MoleculeTab", "View"),
                QCoreApplication.translate("MoleculeTab", "View and table"),
                QCoreApplication.translate("MoleculeTab", "Table"),
            )
        ):
            self.tab.layout_combo.setItemText(i, text)
        self.tab.smiles_label.setText(QCoreApplication.translate("MoleculeTab", "SMILES:"))
        self.tab.smiles_input.setPlaceholderText(
            QCoreApplication.translate("MoleculeTab", "e.g. CCO or ethanol, then Enter")
        )
        self.tab.smiles_button.setText(QCoreApplication.translate("MoleculeTab", "Make 3D"))
        self.tab.cleanup_button.setText(
            QCoreApplication.translate("MoleculeTab", "Clean up geometry")
        )
        self.tab.cleanup_button.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab",
                "Relax the structure with a force field (MMFF94, else UFF); fixed atoms "
                "stay; the result is a candidate to confirm or cancel",
            )
        )
        self.tab.adjust_hydrogens_check.setText(
            QCoreApplication.translate("MoleculeTab", "Adjust hydrogens")
        )
        self.tab.adjust_hydrogens_check.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab",
                "Adding, erasing or changing atoms and bond orders keeps every touched "
                "atom filled with the hydrogens its valence leaves open",
            )
        )
        self.tab.hydrogens_button.setText(
            QCoreApplication.translate("MoleculeTab", "Add hydrogens")
        )
        self.tab.hydrogens_button.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab",
                "Fill open valences of the selected atoms (all atoms when none is selected)",
            )
        )
        self.tab.worker_cancel.setText(QCoreApplication.translate("MoleculeTab", "Stop"))
        _label(
            self.tab.load_button,
            QCoreApplication.translate("MoleculeTab", "Load structure file…"),
            QCoreApplication.translate(
                "MoleculeTab",
                "Replace the atoms and bonds from a structure file, keeping every "
                "calculation setting",
            ),
        )
        _label(
            self.tab.confirm_button,
            QCoreApplication.translate("MoleculeTab", "Confirm"),
            QCoreApplication.translate("MoleculeTab", "Accept the candidate as one undo step"),
        )
        _label(
            self.tab.cancel_button,
            QCoreApplication.translate("MoleculeTab", "Cancel"),
            QCoreApplication.translate("MoleculeTab", "Drop the candidate; nothing changes"),
        )
        self.tab.table.atom_model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 5)
        side = self.tab.findChild(QScrollArea, "moleculeSideScroll")
        if side is not None:
            side.updateGeometry()  # its minimum follows the new texts' widths
        self.tab.properties.retranslate()
        if self.tab._palette is not None:
            self.tab._palette.retranslate()
        self.tab._update_state()

    def word_state(self, doc: Any, busy: bool) -> None:
        """The Undo / Redo buttons named by their steps and the candidate line, for the
        document ``doc`` (``busy``: a job or worker runs)."""
        cand = doc.candidate
        # Undo, Redo, Confirm, Cancel and Load are enabled by their actions (the window's
        # update_actions); the tab only words the buttons.
        undo_text, redo_text = history_texts(doc)
        # Step names can be long ("Undo Open 2-methylpropan-1-ol.mol2"): a name that does
        # not fit the button's width leaves the button a plain "Undo" (a cut "Undo Set
        # intern…" read as a clipped label), the tooltip and the Edit menu name it in full.
        plain = history_texts(None)
        for button, text, keys, short in (
            (self.tab.undo_button, undo_text, " (Ctrl+Z)", plain[0]),
            (self.tab.redo_button, redo_text, " (Ctrl+Y, Ctrl+Shift+Z)", plain[1]),
        ):
            fits = button.fontMetrics().horizontalAdvance(text) <= HISTORY_BUTTON_WIDTH
            _label(button, text if fits else short, text + keys)
        if cand is not None:
            who = (
                QCoreApplication.translate("MoleculeTab", "made by MCP")
                if doc.candidate_origin == "mcp"
                else QCoreApplication.translate("MoleculeTab", "yours")
            )
            self.tab.candidate_label.setText(
                QCoreApplication.translate(
                    "MoleculeTab",
                    "Candidate (%1): confirm or cancel it. Other edits wait until then.",
                ).replace("%1", who)
            )
        elif busy:
            self.tab.candidate_label.setText(
                QCoreApplication.translate(
                    "MoleculeTab", "Working… edits are refused until it ends."
                )
            )
        else:
            self.tab.candidate_label.setText(
                QCoreApplication.translate("MoleculeTab", "No candidate.")
            )
