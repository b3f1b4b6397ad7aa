"""Property panel of the Molecule tab: the selected atoms and the molecule (Qt layer).

Atom fields: element, formal charge, unpaired electrons, name, isotope (mass
number), mass and fixed; molecule fields: title, charge and multiplicity. The
spin boxes carry the core's ranges, and Apply runs the core operation, whose own
check decides; a refused change is reported in ``propertyError`` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from molforma.document.envelope import FORMAL_CHARGE_RANGE, MAX_NAME, UNPAIRED_RANGE
from molforma.document.molecule import AtomTable
from molforma.formula import hill_formula_counts
from molforma.gui.widgets.molecule_lookup import records_of, rows_of

# Above this many selected atoms the panel summarises the selection from the columns
# (count, formula, charge sum) and builds the first atom's record only: "select all"
# at 1,000,000 atoms built a million records on the window's thread.
SUMMARY_ATOMS = 1000


def selection_summary(shown: Mapping[str, Any], ids: Sequence[str]) -> dict[str, Any] | None:
    """The selected atoms' count, element counts (document order), formal charge sum and
    fixed flags read from a column table, with the first selected atom's record; None when
    the structure is not a column table or nothing of the selection is shown."""
    atoms = shown["document"]["atoms"]
    if not isinstance(atoms, AtomTable):
        return None
    rows = rows_of(shown, ids)
    rows = rows[rows >= 0]
    if not bool((rows[1:] > rows[:-1]).all()):  # sorted and distinct already: as is
        rows = np.unique(rows)
    if not len(rows):
        return None
    z = atoms.z[rows]
    first_seen = np.unique(z, return_index=True)
    order = np.argsort(first_seen[1])
    counts = np.bincount(z)
    symbols = atoms.symbols
    elements = {}
    for k in order.tolist():
        zz = int(first_seen[0][k])
        elements[str(symbols[rows[first_seen[1][k]]])] = int(counts[zz])
    fixed = atoms.fixed[rows]
    return {
        "ids": atoms.ids[rows],
        "count": len(rows),
        "elements": elements,
        "charge": int(atoms.charge[rows].sum(dtype=np.int64)),
        "fixed": {bool(fixed.any()), bool(fixed.all())},
        "first": atoms.take(rows[:1]).to_records()[0],
    }


class PropertyPanel(QWidget):
    """Edits the selected atoms' properties and the molecule's title/charge/multiplicity."""

    def __init__(
        self,
        apply_atoms: Callable[[list[dict[str, Any]]], str | None],
        apply_molecule: Callable[[dict[str, Any]], str | None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("propertyPanel")
        self._apply_atoms = apply_atoms
        self._apply_molecule = apply_molecule
        self._ids: list[str] = []
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.atom_box = QGroupBox(self)
        form = QFormLayout(self.atom_box)
        self.element = QLineEdit(self.atom_box)
        self.element.setObjectName("propElement")
        self.element.setMaxLength(3)
        self.charge = QSpinBox(self.atom_box)
        self.charge.setObjectName("propCharge")
        self.charge.setRange(*FORMAL_CHARGE_RANGE)
        self.unpaired = QSpinBox(self.atom_box)
        self.unpaired.setObjectName("propUnpaired")
        self.unpaired.setRange(*UNPAIRED_RANGE)
        self.name = QLineEdit(self.atom_box)
        self.name.setObjectName("propName")
        self.name.setMaxLength(MAX_NAME)
        self.mass_number = QSpinBox(self.atom_box)
        self.mass_number.setObjectName("propMassNumber")
        self.mass_number.setRange(0, 400)
        self.mass = QDoubleSpinBox(self.atom_box)
        self.mass.setObjectName("propMass")
        self.mass.setRange(0.0, 999.0)
        self.mass.setDecimals(5)
        self.fixed = QCheckBox(self.atom_box)
        self.fixed.setObjectName("propFixed")
        self.fixed.clicked.connect(lambda _on: self.fixed.setTristate(False))
        self._shown: dict[str, Any] = {}  # the atom field values as last shown
        self.apply_button = QPushButton(self.atom_box)
        self.apply_button.setObjectName("propApply")
        self.apply_button.clicked.connect(self._apply_atom_fields)
        self._atom_labels = [QLabel(self.atom_box) for _ in range(7)]
        for lbl, w in zip(
            self._atom_labels,
            (
                self.element,
                self.charge,
                self.unpaired,
                self.name,
                self.mass_number,
                self.mass,
                self.fixed,
            ),
            strict=True,
        ):
            form.addRow(lbl, w)
        form.addRow(self.apply_button)
        self.summary = QLabel(self.atom_box)
        self.summary.setObjectName("propSelectionSummary")
        self.summary.setWordWrap(True)
        form.addRow(self.summary)
        lay.addWidget(self.atom_box)

        self.mol_box = QGroupBox(self)
        mform = QFormLayout(self.mol_box)
        self.title = QLineEdit(self.mol_box)
        self.title.setObjectName("moleculeTitle")
        self.title.setMaxLength(200)
        self.mol_charge = QSpinBox(self.mol_box)
        self.mol_charge.setObjectName("moleculeCharge")
        self.mol_charge.setRange(-999, 999)
        self.multiplicity = QSpinBox(self.mol_box)
        self.multiplicity.setObjectName("moleculeMultiplicity")
        self.multiplicity.setRange(1, 20)
        self.mol_apply = QPushButton(self.mol_box)
        self.mol_apply.setObjectName("moleculeApply")
        self.mol_apply.clicked.connect(self._apply_molecule_fields)
        self._mol_labels = [QLabel(self.mol_box) for _ in range(3)]
        for lbl, w in zip(
            self._mol_labels, (self.title, self.mol_charge, self.multiplicity), strict=True
        ):
            mform.addRow(lbl, w)
        mform.addRow(self.mol_apply)
        lay.addWidget(self.mol_box)
        self.error = QLabel(self)
        self.error.setObjectName("propertyError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #d03030;")
        lay.addWidget(self.error)
        lay.addStretch(1)
        self.retranslate()
        self.show_atoms([], {}, editable=False)

    def retranslate(self) -> None:
        """Re-read texts."""
        self.atom_box.setTitle(self.tr("Selected atom"))
        for lbl, text in zip(
            self._atom_labels,
            (
                self.tr("Element"),
                self.tr("Formal charge"),
                self.tr("Unpaired electrons"),
                self.tr("Name"),
                self.tr("Isotope (mass number)"),
                self.tr("Mass (u)"),
                self.tr("Fixed"),
            ),
            strict=True,
        ):
            lbl.setText(text)
        self.mass_number.setSpecialValueText(self.tr("natural"))
        self.mass.setSpecialValueText(self.tr("from isotope"))
        self.apply_button.setText(self.tr("Apply to atom"))
        self.mol_box.setTitle(self.tr("Molecule"))
        for lbl, text in zip(
            self._mol_labels,
            (self.tr("Title"), self.tr("Charge"), self.tr("Multiplicity")),
            strict=True,
        ):
            lbl.setText(text)
        self.mol_apply.setText(self.tr("Apply to molecule"))
        for w, tip in (
            (self.element, self.tr("Element symbol of the selected atoms")),
            (self.charge, self.tr("Formal charge of the selected atoms")),
            (self.unpaired, self.tr("Unpaired electrons of the selected atoms")),
            (self.name, self.tr("A name for the atom (at most 16 characters)")),
            (self.mass_number, self.tr("Isotope by mass number; natural when 0")),
            (self.mass, self.tr("An arbitrary atomic mass in u (overrides the isotope)")),
            (self.fixed, self.tr("Fixed atoms never move")),
            (
                self.apply_button,
                self.tr("Apply these values to the selected atoms (one undo step)"),
            ),
            (self.title, self.tr("The molecule's title (used in file names and the NWChem input)")),
            (self.mol_charge, self.tr("Total charge of the molecule")),
            (self.multiplicity, self.tr("Spin multiplicity 2S+1")),
            (self.mol_apply, self.tr("Apply title, charge and multiplicity")),
        ):
            w.setToolTip(tip)

    def changeEvent(self, ev: QEvent) -> None:
        """Retranslate on a language change."""
        if ev.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(ev)

    def show_selection(self, shown: dict[str, Any], ids: Sequence[str], editable: bool) -> None:
        """Show the selected atoms: their records, or for a large selection of a column
        table a summary read from the columns (count, formula, charge sum)."""
        summary = selection_summary(shown, ids) if len(ids) > SUMMARY_ATOMS else None
        if summary is None:
            self.show_atoms(records_of(shown, ids), shown["document"], editable)
        else:
            self.show_atoms([summary["first"]], shown["document"], editable, summary=summary)

    def show_atoms(
        self,
        atoms: list[dict[str, Any]],
        document: dict[str, Any],
        editable: bool,
        *,
        summary: dict[str, Any] | None = None,
    ) -> None:
        """Show the first selected atom's values (the fields apply to all selected atoms).

        ``summary`` (:func:`selection_summary`) stands for a large selection: ``atoms`` is
        then its first atom only."""
        if summary is not None:
            self._ids = [f"a{i}" for i in summary["ids"].tolist()]
            count, element_counts = int(summary["count"]), dict(summary["elements"])
            fixed = set(summary["fixed"])
            charge_sum = int(summary["charge"])
        else:
            self._ids = [str(a["id"]) for a in atoms]
            count = len(atoms)
            element_counts = {}
            for x in atoms:
                key = str(x.get("element", ""))
                element_counts[key] = element_counts.get(key, 0) + 1
            fixed = {bool(x.get("fixed")) for x in atoms}
            charge_sum = sum(int(x.get("formalCharge", 0) or 0) for x in atoms)
        a = atoms[0] if atoms else None
        self.atom_box.setEnabled(editable and a is not None)
        self.name.setEnabled(count == 1)
        if count > 1:
            self.summary.setText(
                self.tr("%1 atoms, %2, formal charge sum %3")
                .replace("%1", f"{count:,}")
                .replace("%2", hill_formula_counts(element_counts))
                .replace("%3", f"{charge_sum:+d}" if charge_sum else "0")
            )
        self.summary.setVisible(count > 1)
        if a is not None:
            elements = list(element_counts)
            if len(elements) > 1:
                # A mixed selection shows that it is mixed, not its first atom's element;
                # the field stays empty, so Apply changes no element unless one is typed.
                self.element.setText("")
                shown = ", ".join(elements[:6]) + (", …" if len(elements) > 6 else "")
                self.element.setPlaceholderText(self.tr("%1 (mixed)").replace("%1", shown))
            else:
                self.element.setText(elements[0])
                self.element.setPlaceholderText("")
            self.charge.setValue(int(a.get("formalCharge", 0) or 0))
            self.unpaired.setValue(int(a.get("unpairedElectrons", 0) or 0))
            self.name.setText(str(a.get("name", "") or ""))
            self.mass_number.setValue(int(a.get("massNumber") or 0))
            self.mass.setValue(float(a.get("mass") or 0.0))
            # Mixed fixed flags show as a partly checked box; a click makes it two-state.
            self.fixed.setTristate(len(fixed) > 1)
            self.fixed.setCheckState(
                Qt.CheckState.PartiallyChecked
                if len(fixed) > 1
                else Qt.CheckState.Checked
                if fixed == {True}
                else Qt.CheckState.Unchecked
            )
            title = (
                self.tr("Selected atom") if count == 1 else self.tr("%n selected atoms", "", count)
            )
            self.atom_box.setTitle(f"{title}: {a['id']}" if count == 1 else title)
        else:
            self.atom_box.setTitle(self.tr("Selected atom"))
            self.element.setPlaceholderText("")
        self._shown = self._atom_field_values()
        self.mol_box.setEnabled(editable)
        if document:
            if not self.title.hasFocus():
                self.title.setText(str(document.get("title", "")))
            self.mol_charge.setValue(int(document.get("charge", 0)))
            self.multiplicity.setValue(int(document.get("multiplicity", 1)))

    def _atom_field_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {
            "element": self.element.text().strip(),
            "formalCharge": self.charge.value(),
            "unpairedElectrons": self.unpaired.value(),
            "massNumber": self.mass_number.value() or None,
            "mass": self.mass.value() or None,
        }
        if self.fixed.checkState() != Qt.CheckState.PartiallyChecked:
            values["fixed"] = self.fixed.isChecked()
        return values

    def _apply_atom_fields(self) -> None:
        values = self._atom_field_values()
        if len(self._ids) > 1:
            # The fields show the first selected atom: only what the person changed goes to
            # every selected atom (ticking Fixed must not turn all of them into the first
            # atom's element or isotope).
            values = {k: v for k, v in values.items() if self._shown.get(k, object()) != v}
            if not values:
                return
        changes = []
        for aid in self._ids:
            ch: dict[str, Any] = {"id": aid, **values}
            if len(self._ids) == 1:
                ch["name"] = self.name.text()
            changes.append(ch)
        if changes:
            self.error.setText(self._apply_atoms(changes) or "")

    def _apply_molecule_fields(self) -> None:
        err = self._apply_molecule(
            {
                "title": self.title.text(),
                "charge": self.mol_charge.value(),
                "multiplicity": self.multiplicity.value(),
            }
        )
        self.error.setText(err or "")
