"""The Results tab's tables and plots: orbitals, charges shown as labels, normal modes
and the energy, IR and UV-Vis plots (Qt layer)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QTableWidgetItem,
)

from molforma.gui.view3d.labels import SPIN_LABEL_COLOUR
from molforma.gui.widgets.plots import MIN_REAL_FREQUENCY
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    pass
    from molforma.gui.widgets import excitations_view, scan_view
else:  # imported on first use (start-up time): molforma.lazy
    scan_view = lazy_import("molforma.gui.widgets.scan_view")
    excitations_view = lazy_import("molforma.gui.widgets.excitations_view")

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from molforma.gui.widgets.results_support import (
    IMAGINARY_BRUSH,
    MODE_ROLE,
    RIGID_MODE_TEXT,
    SIGNIFICANT_BRUSH,
    ResultsPanelHost,
)

log = logging.getLogger(__name__)


class ResultsTables:
    """Fills the orbital and mode tables, the charge labels and the plots.

    The widgets and the state stay on the tab (``self.panel``).
    """

    def __init__(self, panel: ResultsPanelHost, parent: QWidget) -> None:
        self.panel = panel
        self.parent = parent  # the Qt parent of the dialogs and loads it starts

    def _fill_orbitals(self, res: Any) -> None:
        orbitals = list(res.orbitals) if res is not None else []
        table = self.panel.orbitals_table
        table.clearContents()
        table.setRowCount(len(orbitals))
        # The summary's HOMO and LUMO of each spin channel, by position in the list.
        marks: dict[int, str] = {}
        for f in res.summary.frontier if res is not None else []:
            if f.homoIndex is not None:
                marks[f.homoIndex] = " HOMO"
            if f.lumoIndex is not None:
                marks[f.lumoIndex] = " LUMO"
        spins = {
            "restricted": QCoreApplication.translate("ResultsPanel", "restricted"),
            "alpha": QCoreApplication.translate("ResultsPanel", "alpha"),
            "beta": QCoreApplication.translate("ResultsPanel", "beta"),
        }
        bold = QFont()
        bold.setBold(True)
        for row, o in enumerate(orbitals):
            mark = marks.get(o.index, "")
            cells = [
                f"{o.number}{mark}",
                spins.get(o.spin, o.spin),
                f"{o.energy:.6f}",
                f"{o.energyEv:.3f}",
                "" if o.occupation is None else f"{o.occupation:g}",
                o.symmetry or "",
            ]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if mark:
                    item.setFont(bold)
                table.setItem(row, col, item)

    def _labels_toggled(self, box: QCheckBox, on: bool) -> None:
        """Charges or spins label the atoms, one at a time (a label holds one number)."""
        other = (
            self.panel.spins_check if box is self.panel.charges_check else self.panel.charges_check
        )
        if on and other.isChecked():
            with QSignalBlocker(other):
                other.setChecked(False)
        self._update_charge_labels()

    def _update_charge_labels(self) -> None:
        """Mulliken charges or spin populations as atom labels while their check box is on
        and the results hold them."""
        res = self.panel.results
        charges = list(res.charges) if res is not None else []
        has_spin = any(q.mullikenSpin is not None for q in charges)
        self.panel.charges_check.setEnabled(bool(charges))
        self.panel.spins_check.setEnabled(has_spin)
        shown = self.panel.trajectory_slider.value() if res is not None else -1
        fits = (
            bool(charges)
            and res is not None
            and 0 <= shown < len(res.structures)
            and len(res.structures[shown].symbols) == len(charges)
        )
        labels: list[str] | None = None
        colour = None
        if fits and self.panel.spins_check.isChecked() and has_spin:
            labels = [
                f"{q.mullikenSpin:+.2f}" if q.mullikenSpin is not None else "" for q in charges
            ]
            colour = SPIN_LABEL_COLOUR
        elif fits and self.panel.charges_check.isChecked():
            labels = [f"{q.mulliken:+.2f}" if q.mulliken is not None else "" for q in charges]
        self.panel.label_overlay.set_labels(labels, colour)

    def _frequency_header(self) -> None:
        factor = self.panel.ir.scale_factor
        text = QCoreApplication.translate("ResultsPanel", "Frequency (cm⁻¹)")
        if factor != 1.0:
            text += f" ×{factor:.4f}"
        item = self.panel.modes_table.horizontalHeaderItem(1)
        if item is not None:
            item.setText(text)

    def _rescale_modes(self) -> None:
        """Show the modes' frequencies with the IR tab's scale factor (selection kept)."""
        mode = self.panel._selected_mode()
        with self.panel._quiet():
            self._fill_modes(self.panel.results)
            if mode is not None:
                self.panel.modes_table.selectRow(self.panel._row_of_mode(mode))
        self._frequency_header()
        if (
            self.panel._mode is not None
            and self.panel.results is not None
            and self.panel._mode < len(self.panel.results.modes)
        ):
            self.panel._show_mode_label(self.panel._mode)

    def _fill_modes(self, res: Any) -> None:
        modes = list(res.modes) if res is not None else []
        self.panel.modes_table.clearContents()
        self.panel.modes_table.setRowCount(len(modes))
        yes = QCoreApplication.translate("ResultsPanel", "yes")
        bold = QFont()
        bold.setBold(True)
        rigid_tip = QCoreApplication.translate(
            "ResultsPanel", "Translation or rotation (left out of the IR spectrum)"
        )
        for row, m in enumerate(modes):
            # NWChem lists the six (five) zero-frequency translations and rotations with
            # the vibrations; they are greyed like in other viewers, not hidden.
            rigid = not m.significant and abs(m.frequency) < MIN_REAL_FREQUENCY
            cells = [
                str(m.index + 1),
                f"{m.frequency * self.panel.ir.scale_factor:.2f}",
                "" if m.irIntensity is None else f"{m.irIntensity:.3f}",
                yes if m.imaginary else "",
                yes if m.significant else "",
                yes if m.hasDisplacements else "",
            ]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(MODE_ROLE, m.index)
                if m.significant:
                    item.setBackground(QBrush(SIGNIFICANT_BRUSH))
                    item.setFont(bold)
                elif m.imaginary and not rigid:
                    item.setBackground(QBrush(IMAGINARY_BRUSH))
                if rigid:
                    item.setForeground(QBrush(RIGID_MODE_TEXT))
                    item.setToolTip(rigid_tip)
                if col in (1, 2):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.panel.modes_table.setItem(row, col, item)

    def _fill_plots(self, res: Any) -> None:
        scan_view.show_scan_of(self.panel.scan_view, self.parent, res)

        excitations_view.show_excitations_of(self.panel.excitations_table, res)
        if res is None:
            self.panel._plotted = []
            self.panel.energy_plot.set_energies([])
            self.panel.ir.set_modes([], [])
            self.panel.uvvis.set_excitations([], [])
            return
        self.panel.uvvis.set_excitations(
            [e.energyEv for e in res.excitations], [e.oscillatorStrength for e in res.excitations]
        )
        points = [e for e in res.energies if e.kind == "optimization"]
        if not points:
            # One curve holds one level: an MP2 job's SCF and MP2 totals (and the property
            # task's SCF again) are not steps of one quantity. The final energy's level is
            # drawn; displaced geometries of numerical frequencies are no steps either.
            kinds = [e.kind for e in res.energies if not e.displaced]
            level = res.summary.finalEnergyLevel
            if level not in kinds:
                level = kinds[-1] if kinds else None
            points = [e for e in res.energies if e.kind == level and not e.displaced]
        self.panel._plotted = points
        self.panel.energy_plot.set_energies([e.energy for e in points])
        steps = points
        self.panel.ir.set_modes(
            [m.frequency for m in res.modes], [m.irIntensity for m in res.modes]
        )
        if res.modes and not steps:
            self.panel.plots.setCurrentWidget(self.panel.ir)
        elif res.excitations and not any(e.kind == "optimization" for e in res.energies):
            self.panel.plots.setCurrentWidget(self.panel.uvvis)
