"""Constraints and a relaxed scan from the Molecule tab's geometry editor (Qt layer).

With 2, 3 or 4 atoms selected (a distance, an angle, a dihedral) the person can hold that
coordinate at its current value during an optimisation ("Fix this coordinate") or scan it
from its current value to an end value in a number of steps ("Scan this coordinate",
which also sets the task to optimize: a relaxed scan is a series of constrained
optimisations). Both are calculation settings (``calculation.constraints`` and
``calculation.scan``, :mod:`molforma.nwchem.constraints`), set through ``ops.set_nwchem``
like an MCP client's ``set_nwchem``, one undo step each; a refusal says why in the tab's
message line and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from molforma.app import ops
from molforma.app.actor import window_actor
from molforma.gui.widgets.panel_workers import Retranslatable
from molforma.lazy import lazy_import
from molforma.nwchem.constraint_values import MAX_SCAN_STEPS, UNITS, coordinate_key

if TYPE_CHECKING:
    from molforma.gui.widgets import calculation_panel
else:  # imported on first use (start-up time): molforma.lazy
    calculation_panel = lazy_import("molforma.gui.widgets.calculation_panel")

DEFAULT_STEPS = 6


class ConstraintEditor(Retranslatable, QWidget):
    """Buttons and fields under the geometry editor of ``tab`` (a MoleculeTab)."""

    def __init__(self, tab: Any, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("constraintEditor")
        self.tab = tab
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.fix_button = QPushButton(self)
        self.fix_button.setObjectName("fixCoordinateButton")
        self.fix_button.clicked.connect(lambda: self.fix_selected())
        self.clear_button = QPushButton(self)
        self.clear_button.setObjectName("clearConstraintsButton")
        self.clear_button.clicked.connect(lambda: self.clear())
        row.addWidget(self.fix_button)
        row.addWidget(self.clear_button)
        lay.addLayout(row)
        scan = QHBoxLayout()
        self.end_label = QLabel(self)
        self.end_input = QLineEdit(self)
        self.end_input.setObjectName("scanEndInput")
        self.end_input.returnPressed.connect(lambda: self.scan_selected())
        self.end_label.setBuddy(self.end_input)
        self.steps_label = QLabel(self)
        self.steps_spin = QSpinBox(self)
        self.steps_spin.setObjectName("scanStepsSpin")
        self.steps_spin.setRange(1, MAX_SCAN_STEPS)
        self.steps_spin.setValue(DEFAULT_STEPS)
        self.steps_label.setBuddy(self.steps_spin)
        self.scan_button = QPushButton(self)
        self.scan_button.setObjectName("scanCoordinateButton")
        self.scan_button.clicked.connect(lambda: self.scan_selected())
        scan.addWidget(self.end_label)
        scan.addWidget(self.end_input, 1)
        scan.addWidget(self.steps_label)
        scan.addWidget(self.steps_spin)
        lay.addLayout(scan)
        lay.addWidget(self.scan_button)
        self.summary = QLabel(self)
        self.summary.setObjectName("constraintSummary")
        self.summary.setWordWrap(True)
        lay.addWidget(self.summary)
        self.bind_text(self._texts)
        self.update_for(None, editable=False)

    def _texts(self) -> None:
        self.fix_button.setText(self.tr("Fix this coordinate"))
        self.fix_button.setToolTip(
            self.tr(
                "Hold the selected distance, angle or dihedral at its current value during "
                "optimisations (an NWChem zcoord constraint)"
            )
        )
        self.clear_button.setText(self.tr("Remove constraints"))
        self.clear_button.setToolTip(self.tr("Remove every coordinate constraint and the scan"))
        self.end_label.setText(self.tr("Scan to:"))
        self.end_input.setToolTip(
            self.tr(
                "The scan's end value (Å or degrees, C locale: 1.25); it starts at the current "
                "value"
            )
        )
        self.steps_label.setText(self.tr("Steps:"))
        self.steps_spin.setToolTip(
            self.tr(
                "Steps of the scan: it optimises steps + 1 points from the current value to "
                "the end value"
            )
        )
        self.scan_button.setText(self.tr("Scan this coordinate"))
        self.scan_button.setToolTip(
            self.tr(
                "A relaxed scan of the selected distance, angle or dihedral: one constrained "
                "optimisation per point, each from the previous point's structure (after a "
                "planar dihedral, from the molecule as drawn); sets the task to optimize, the "
                "profile appears in Results"
            )
        )
        self.summary.setToolTip(self.tr("Constraints and the scan the next optimisation uses"))
        self.update_for(None, editable=self.fix_button.isEnabled())

    # -- state --------------------------------------------------------------------------------
    def _calc(self) -> dict[str, Any]:
        return dict(self.tab.ctx.document.project.get("calculation") or {})

    def update_for(self, shown: dict[str, Any] | None, *, editable: bool) -> None:
        """Enable the buttons for the selection and describe the constraints held."""
        ids = list(self.tab.view.selection()) if hasattr(self.tab, "view") else []
        ok = 2 <= len(ids) <= 4 and editable
        self.fix_button.setEnabled(ok)
        self.scan_button.setEnabled(ok)
        self.end_input.setEnabled(ok)
        self.steps_spin.setEnabled(ok)
        calc = self._calc() if hasattr(self.tab, "ctx") else {}
        held = list(calc.get("constraints") or [])
        scan = calc.get("scan")
        self.clear_button.setEnabled(editable and bool(held or scan))
        self.summary.setText(self.describe(held, scan))

    def _name(self, atoms: Sequence[str]) -> str:
        return str(self.tab.measure_name(list(atoms)))

    def describe(self, held: Sequence[dict[str, Any]], scan: dict[str, Any] | None) -> str:
        """One line per constraint and one for the scan, as the summary label shows them."""
        lines = []
        for c in held:
            unit = UNITS.get(c.get("kind", ""), "")
            lines.append(
                self.tr("Fixed: %1 = %2")
                .replace("%1", self._name(c["atoms"]))
                .replace("%2", f"{float(c['value']):.3f} {unit}".strip())
            )
        if scan:
            unit = UNITS.get(scan.get("kind", ""), "")
            lines.append(
                self.tr("Scan: %1 from %2 to %3 %4 in %5 steps")
                .replace("%1", self._name(scan["atoms"]))
                .replace("%2", f"{float(scan['start']):.3f}")
                .replace("%3", f"{float(scan['end']):.3f}")
                .replace("%4", unit)
                .replace("%5", str(scan["steps"]))
            )
        return "\n".join(lines)

    # -- actions ------------------------------------------------------------------------------
    def _selection(self) -> list[str] | None:
        ids = list(self.tab.view.selection())
        if not 2 <= len(ids) <= 4:
            self.tab.show_message(self.tr("Select 2, 3 or 4 atoms first."), error=True)
            return None
        return ids

    def fix_selected(self) -> bool:
        """Hold the selected coordinate at its current value (replacing an earlier value
        of the same coordinate)."""
        ids = self._selection()
        if ids is None:
            return False
        key = coordinate_key(ids)
        calc = self._calc()
        held = [
            c for c in calc.get("constraints") or [] if coordinate_key(c.get("atoms") or []) != key
        ]
        values: dict[str, Any] = {"constraints": [*held, {"atoms": ids}]}
        scan = calc.get("scan")
        if scan and coordinate_key(scan.get("atoms") or []) == key:
            values["scan"] = None  # the coordinate is now held, no longer scanned
        ok = self.tab._run(
            lambda: ops.set_nwchem(
                self.tab.ctx.document, values, preview=False, actor=window_actor()
            ),
            self.tr("%1 is held during optimisations").replace("%1", self._name(ids)),
        )
        self.tab._update_state()
        return bool(ok)

    def scan_selected(self, end: str | None = None, steps: int | None = None) -> bool:
        """Scan the selected coordinate from its current value to ``end`` (default: the
        field) in ``steps`` steps (default: the spin box)."""
        ids = self._selection()
        if ids is None:
            return False
        text = (self.end_input.text() if end is None else end).strip()
        number = calculation_panel.parse_c_number(text, "float")
        if number is None:
            self.tab.show_message(
                self.tr("'%1' is not a number (write it as 1.25).").replace("%1", text), error=True
            )
            return False
        count = self.steps_spin.value() if steps is None else int(steps)
        key = coordinate_key(ids)
        held = [
            c
            for c in self._calc().get("constraints") or []
            if coordinate_key(c.get("atoms") or []) != key
        ]
        values = {
            "scan": {"atoms": ids, "end": float(number), "steps": count},
            "constraints": held,
            "task": "optimize",
        }
        ok = self.tab._run(
            lambda: ops.set_nwchem(
                self.tab.ctx.document, values, preview=False, actor=window_actor()
            ),
            self.tr("Scan of %1 set: run the calculation to optimise each point").replace(
                "%1", self._name(ids)
            ),
        )
        self.tab._update_state()
        return bool(ok)

    def clear(self) -> bool:
        """Remove every constraint and the scan."""
        ok = self.tab._run(
            lambda: ops.set_nwchem(
                self.tab.ctx.document,
                {"constraints": [], "scan": None},
                preview=False,
                actor=window_actor(),
            ),
            self.tr("Constraints removed"),
        )
        self.tab._update_state()
        return bool(ok)
