"""Selection by residue, chain and distance, and the QM-region cut, in the Molecule tab's
Selection menu and in a group of the side column (Qt layer).

Both get: whole residues of the selection, whole chains of the selection, every
atom within R Å of the selection (R and "whole residues" in the menu itself, ChimeraX's
"select zone"; R and "whole residues" are set in the group), and "Extract QM region", which keeps the selection only, caps the cut
bonds with hydrogens (fixed when asked) and sets the charge
(:func:`molforma.app.qm_region.extract_qm_region`), then shows the Calculation tab.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QMenu,
    QPushButton,
    QTabWidget,
    QWidget,
)

from molforma.app.actor import window_actor
from molforma.document.envelope import atoms_of
from molforma.document.molecule import AtomTable
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.app import qm_region
    from molforma.document import residues
else:  # imported on first use (start-up time): molforma.lazy
    residues = lazy_import("molforma.document.residues")
    qm_region = lazy_import("molforma.app.qm_region")


@runtime_checkable
class _TitledWindow(Protocol):
    """The main window as far as the extraction needs it (its title names the file)."""

    source_name: str | None

    def update_title(self) -> None: ...


class ResidueSelection:
    """The residue, chain and distance entries: Selection menu actions
    (``selectResiduesAction``, ``selectChainsAction``, ``selectWithinAction``,
    ``extractQmRegionAction``) and the side column's ``residueGroup`` (buttons of the same
    names ending in ``Button``, ``selectWithinRadiusSpin``, ``qmWholeResiduesCheck``,
    ``qmFixCapsCheck``)."""

    def __init__(self, tab: Any, selecting: Any) -> None:
        self.tab = tab
        self.selecting = selecting
        self.actions: dict[str, QAction] = {}

    def install(self, menu: QMenu) -> None:
        """Add the entries to ``menu`` (the tab's Selection menu, for the person's hand;
        agents drive the same through the side column's group, see :meth:`panel`)."""
        menu.addSeparator()
        for key, fn in (
            ("selectResiduesAction", self.select_residues),
            ("selectChainsAction", self.select_chains),
            ("selectWithinAction", self.select_within),
            ("extractQmRegionAction", self.extract_region),
        ):
            act = menu.addAction("")
            act.setObjectName(key)
            act.triggered.connect(lambda _c=False, f=fn: f())
            self.actions[key] = act
        menu.aboutToShow.connect(self._update_enabled)

    def panel(self, parent: QWidget) -> QGroupBox:
        """The side column's group (objectName ``residueGroup``): the same entries as
        buttons, with the radius, "whole residues" and "fix caps"."""
        box = QGroupBox(parent)
        box.setObjectName("residueGroup")
        self.box = box
        grid = QGridLayout(box)
        grid.setContentsMargins(6, 4, 6, 4)
        self.buttons: dict[str, QPushButton] = {}
        for key, fn in (
            ("selectResiduesButton", self.select_residues),
            ("selectChainsButton", self.select_chains),
            ("selectWithinButton", self.select_within),
            ("extractQmRegionButton", self.extract_region),
        ):
            b = QPushButton(box)
            b.setObjectName(key)
            b.clicked.connect(lambda _c=False, f=fn: f())
            self.buttons[key] = b
        self.radius_label = QLabel(box)
        self.radius = QDoubleSpinBox(box)
        self.radius.setObjectName("selectWithinRadiusSpin")
        self.radius.setRange(0.5, 50.0)
        self.radius.setDecimals(1)
        self.radius.setSingleStep(0.5)
        self.radius.setValue(6.0)
        self.radius.setSuffix(" Å")
        self.whole = QCheckBox(box)
        self.whole.setObjectName("qmWholeResiduesCheck")
        self.whole.setChecked(True)
        self.fix_caps = QCheckBox(box)
        self.fix_caps.setObjectName("qmFixCapsCheck")
        grid.addWidget(self.buttons["selectResiduesButton"], 0, 0)
        grid.addWidget(self.buttons["selectChainsButton"], 0, 1)
        grid.addWidget(self.radius_label, 1, 0)
        grid.addWidget(self.radius, 1, 1)
        grid.addWidget(self.whole, 2, 0)
        grid.addWidget(self.buttons["selectWithinButton"], 2, 1)
        grid.addWidget(self.fix_caps, 3, 0)
        grid.addWidget(self.buttons["extractQmRegionButton"], 3, 1)
        self.retranslate()
        return box

    def retranslate(self) -> None:
        """Texts and tooltips in the display language."""
        texts = {
            "selectResiduesAction": (
                QCoreApplication.translate("MoleculeTab", "Whole residues of the selection"),
                QCoreApplication.translate(
                    "MoleculeTab",
                    "Select every atom of the residues (PDB) the selected atoms belong to",
                ),
            ),
            "selectChainsAction": (
                QCoreApplication.translate("MoleculeTab", "Whole chains of the selection"),
                QCoreApplication.translate(
                    "MoleculeTab",
                    "Select every atom of the chains (PDB) the selected atoms belong to",
                ),
            ),
            "selectWithinAction": (
                QCoreApplication.translate("MoleculeTab", "Within the radius of the selection"),
                QCoreApplication.translate(
                    "MoleculeTab",
                    "Add every atom within the radius of a selected "
                    "atom (whole residues when checked)",
                ),
            ),
            "extractQmRegionAction": (
                QCoreApplication.translate("MoleculeTab", "Extract QM region"),
                QCoreApplication.translate(
                    "MoleculeTab",
                    "Keep only the selected atoms, cap each cut bond "
                    "with a hydrogen, set the charge from the "
                    "residues, then open the Calculation tab",
                ),
            ),
        }
        if not hasattr(self, "box"):
            return  # the side column's group is not built yet
        self.box.setTitle(QCoreApplication.translate("MoleculeTab", "Residues and QM region"))
        short = {
            "selectResiduesAction": QCoreApplication.translate("MoleculeTab", "Residues"),
            "selectChainsAction": QCoreApplication.translate("MoleculeTab", "Chains"),
            "selectWithinAction": QCoreApplication.translate("MoleculeTab", "Select within"),
            "extractQmRegionAction": QCoreApplication.translate("MoleculeTab", "Extract QM region"),
        }
        for key, (text, tip) in texts.items():
            act = self.actions.get(key)
            if act is not None:
                act.setText(text)
                act.setToolTip(tip)
                act.setStatusTip(tip)
            button = self.buttons[key.replace("Action", "Button")]
            button.setText(short[key])
            button.setToolTip(tip)
        self.radius_label.setText(QCoreApplication.translate("MoleculeTab", "Radius:"))
        self.radius.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab", "Distance for 'Within the radius of the selection'"
            )
        )
        self.whole.setText(QCoreApplication.translate("MoleculeTab", "Whole residues"))
        self.whole.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab", "Grow the atoms found within the radius to whole residues"
            )
        )
        self.fix_caps.setText(QCoreApplication.translate("MoleculeTab", "Fix caps"))
        self.fix_caps.setToolTip(
            QCoreApplication.translate(
                "MoleculeTab",
                "Fix the capping hydrogens of an extracted QM region "
                "(they do not move in an optimisation)",
            )
        )

    # -- selections -------------------------------------------------------------------
    def _shown(self) -> Any:
        doc = self.tab.ctx.document
        return doc.candidate if doc.candidate is not None else doc.project

    def _mask(self, atoms: Any) -> np.ndarray:
        mask = np.zeros(len(atoms), bool)
        sel = list(self.tab.view.selection())
        if sel:
            rows = atoms.rows_of(sel)
            mask[rows[rows >= 0]] = True
        return mask

    def _apply(self, atoms: Any, mask: np.ndarray) -> None:
        self.selecting.set_selection([f"a{i}" for i in atoms.ids[mask].tolist()])
        self.tab.show_message(
            QCoreApplication.translate("MoleculeTab", "%1 atom(s) selected.").replace(
                "%1", str(int(mask.sum()))
            )
        )

    def _columns(self, atoms: Any) -> Any:
        cols = residues.residue_columns(atoms)
        if cols is None:
            self.tab.show_message(
                QCoreApplication.translate(
                    "MoleculeTab", "These atoms have no residues (residues come from PDB files)."
                ),
                error=True,
            )
        return cols

    def _atoms(self) -> Any:
        atoms = atoms_of(self._shown())
        return atoms if isinstance(atoms, AtomTable) else AtomTable.from_records(atoms)

    def _update_enabled(self) -> None:
        has = bool(self.tab.view.selection())
        for act in self.actions.values():
            act.setEnabled(has)

    def select_residues(self) -> bool:
        """Select whole residues of the selection."""
        atoms = self._atoms()
        cols = self._columns(atoms)
        if cols is None:
            return False
        self._apply(atoms, residues.whole_residues(cols, self._mask(atoms)))
        return True

    def select_chains(self) -> bool:
        """Select whole chains of the selection."""
        atoms = self._atoms()
        cols = self._columns(atoms)
        if cols is None:
            return False
        mask = self._mask(atoms)
        chains = sorted(set(cols.chain[mask & (cols.index >= 0)].tolist()))
        self._apply(atoms, mask | residues.select_residues(cols, chains=chains))
        return True

    def select_within(self) -> bool:
        """Add every atom within the radius of the selection (whole residues if checked)."""
        atoms = self._atoms()
        mask = self._mask(atoms)
        if not mask.any():
            self.tab.show_message(
                QCoreApplication.translate("MoleculeTab", "Select atoms first."), error=True
            )
            return False
        out = residues.within(atoms.xyz, mask, float(self.radius.value()))
        cols = residues.residue_columns(atoms)
        if self.whole.isChecked() and cols is not None:
            out = residues.whole_residues(cols, out)
        self._apply(atoms, out)
        return True

    def extract_region(self) -> bool:
        """Keep the selection only, capped and charged, then show the Calculation tab."""
        sel = list(self.tab.view.selection())
        if not sel:
            self.tab.show_message(
                QCoreApplication.translate("MoleculeTab", "Select atoms first."), error=True
            )
            return False
        doc = self.tab.ctx.document
        out: dict[str, Any] = {}

        def run() -> None:
            out.update(
                qm_region.extract_qm_region(
                    doc,
                    atom_ids=sel,
                    within=0.0,
                    whole_residues=False,
                    fix_caps=self.fix_caps.isChecked(),
                    preview=False,
                    actor=window_actor(),
                )
            )

        if not self.tab._run(run):
            return False
        info = out.get("info") or {}
        window = self.tab.window()
        if isinstance(window, _TitledWindow):  # a new project: untitled, as after File > New
            window.source_name = None
            window.update_title()
        self.tab.show_message(
            QCoreApplication.translate(
                "MoleculeTab", "QM region: %1 atoms, %2 cap hydrogen(s), charge %3."
            )
            .replace("%1", str(info.get("atomCount", 0)))
            .replace("%2", str(len(info.get("caps") or [])))
            .replace("%3", str(info.get("charge", 0)))
        )
        tabs = self.tab.window().findChild(QTabWidget, "mainTabs")
        page = self.tab.window().findChild(QWidget, "calculationTab")
        if tabs is not None and page is not None:
            tabs.setCurrentWidget(page)
        return True
