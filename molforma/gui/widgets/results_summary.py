"""The Results tab's summary: the files of the run, its energies, convergence and the
chemistry read from it (Qt layer)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QTreeWidgetItem,
)

from molforma.lazy import lazy_import

if TYPE_CHECKING:
    pass
    from molforma.gui.widgets import excitations_view
else:  # imported on first use (start-up time): molforma.lazy
    excitations_view = lazy_import("molforma.gui.widgets.excitations_view")

from PySide6.QtCore import QCoreApplication

from molforma.gui.widgets.results_support import (
    PATH_ROLE,
    ResultsPanelHost,
)

log = logging.getLogger(__name__)


class ResultsSummary:
    """Writes the summary text: files, energies, convergence and chemistry.

    The widgets and the state stay on the tab (``self.panel``).
    """

    def __init__(self, panel: ResultsPanelHost) -> None:
        self.panel = panel

    def _fill_files(self, res: Any) -> None:
        self.panel.file_list.clear()
        if res is None:
            return
        groups: QTreeWidgetItem | None = None
        current_paths = {res.source, res.resolvedPath}
        kind_names = {
            "nwchem-output": QCoreApplication.translate("ResultsPanel", "NWChem output"),
            "molden": QCoreApplication.translate("ResultsPanel", "MOLDEN"),
            "xyz": QCoreApplication.translate("ResultsPanel", "XYZ"),
            "vibration-animation": QCoreApplication.translate(
                "ResultsPanel", "Vibration animation"
            ),
        }
        for entry in res.files:
            if entry.kind == "vibration-animation":
                if groups is None:
                    groups = QTreeWidgetItem(
                        self.panel.file_list,
                        [
                            QCoreApplication.translate(
                                "ResultsPanel", "Vibration animations (by mode)"
                            ),
                            "",
                        ],
                    )
                    groups.setExpanded(True)
                label = (
                    QCoreApplication.translate("ResultsPanel", "Mode %1 (%2 steps)")
                    .replace("%1", str(entry.mode))
                    .replace("%2", str(entry.steps or 0))
                )
                item = QTreeWidgetItem(groups, [label, kind_names[entry.kind]])
                item.setToolTip(0, entry.name)
            else:
                item = QTreeWidgetItem(
                    self.panel.file_list, [entry.name, kind_names.get(entry.kind, entry.kind)]
                )
            item.setData(0, PATH_ROLE, entry.path)
            # The whole path: the name may be shortened in the middle to fit the column.
            item.setToolTip(0, str(entry.path))
            if entry.path in current_paths:
                self.panel.file_list.setCurrentItem(item)
        if groups is not None:
            groups.setExpanded(True)

    def _fill_summary(self, res: Any) -> None:
        if res is None:
            self.panel.summary.setPlainText(
                QCoreApplication.translate("ResultsPanel", "No results loaded.")
            )
            return
        s = res.summary
        yes, no, na = (
            QCoreApplication.translate("ResultsPanel", "yes"),
            QCoreApplication.translate("ResultsPanel", "no"),
            QCoreApplication.translate("ResultsPanel", "n/a"),
        )

        def flag(v: bool | None) -> str:
            return na if v is None else (yes if v else no)

        lines = [
            QCoreApplication.translate("ResultsPanel", "Source: %1").replace("%1", str(res.source)),
            QCoreApplication.translate("ResultsPanel", "Program: %1").replace(
                "%1", str(s.program or na)
            ),
            QCoreApplication.translate("ResultsPanel", "Formula: %1 (%2 atoms)")
            .replace("%1", str(s.formula or ""))
            .replace("%2", str(s.atomCount)),
        ]
        if s.finalEnergy is not None:
            lines.append(
                QCoreApplication.translate("ResultsPanel", "Final energy: %1 Eh (%2)")
                .replace("%1", f"{s.finalEnergy:.8f}")
                .replace("%2", str(s.finalEnergyLabel or ""))
            )
        if s.zeroPointEnergy is not None:
            lines.append(
                QCoreApplication.translate("ResultsPanel", "Zero-point energy: %1 Eh").replace(
                    "%1", f"{s.zeroPointEnergy:.6f}"
                )
            )
        lines += self._chemistry_lines(res)
        lines += [
            QCoreApplication.translate("ResultsPanel", "SCF converged: %1").replace(
                "%1", flag(s.scfConverged)
            ),
            QCoreApplication.translate("ResultsPanel", "Optimisation converged: %1 (%2 steps)")
            .replace("%1", flag(s.optimizationConverged))
            .replace("%2", str(s.optimizationSteps)),
            QCoreApplication.translate("ResultsPanel", "Run completed: %1").replace(
                "%1", flag(s.completed)
            ),
            QCoreApplication.translate("ResultsPanel", "Structures: %1, energies: %2, modes: %3")
            .replace("%1", str(s.structureCount))
            .replace("%2", str(s.energyCount))
            .replace("%3", str(s.modeCount)),
            QCoreApplication.translate(
                "ResultsPanel", "Imaginary modes: %1 (significant, below −10 cm⁻¹: %2)"
            )
            .replace("%1", str(s.imaginaryModes))
            .replace("%2", str(s.significantImaginaryModes)),
        ]
        if s.warningCount or s.errorCount:
            lines.append(
                QCoreApplication.translate("ResultsPanel", "Warnings: %1, errors: %2")
                .replace("%1", str(s.warningCount))
                .replace("%2", str(s.errorCount))
            )
            lines += [f"  ! {m.message}" for m in list(s.errors)[:10]]
            lines += [f"  · {m.message}" for m in list(s.warnings)[:10]]
        self.panel.summary.setPlainText("\n".join(lines))

    def _chemistry_lines(self, res: Any) -> list[str]:
        """Charge, spin, frontier orbitals, dipole, thermochemistry and the like."""
        s = res.summary
        lines: list[str] = []
        for msg in s.failedValues:
            lines.append(
                QCoreApplication.translate("ResultsPanel", "FAILED: %1").replace("%1", msg.message)
            )
        if s.charge is not None or s.multiplicity is not None:
            lines.append(
                QCoreApplication.translate("ResultsPanel", "Charge: %1, multiplicity: %2")
                .replace("%1", "-" if s.charge is None else f"{s.charge:g}")
                .replace("%2", str(s.multiplicity or "-"))
            )
        if s.s2 is not None:
            text = (
                QCoreApplication.translate("ResultsPanel", "<S²>: %1 (S(S+1) = %2)")
                .replace("%1", f"{s.s2:.4f}")
                .replace("%2", "-" if s.s2Expected is None else f"{s.s2Expected:.4f}")
            )
            if s.spinContaminated:
                text += "  " + QCoreApplication.translate(
                    "ResultsPanel", "spin contaminated (more than 10 % off)"
                )
            lines.append(text)
        lines += self._frontier_lines(s)
        if s.dispersionEnergy is not None:
            lines.append(
                QCoreApplication.translate("ResultsPanel", "Dispersion energy: %1 Eh").replace(
                    "%1", f"{s.dispersionEnergy:.8f}"
                )
            )
        m = s.moments
        if m is not None and m.dipoleDebye is not None:
            if self._other_level(s, m.level):
                text = (
                    QCoreApplication.translate("ResultsPanel", "%1 dipole: %2 D (%3)")
                    .replace("%1", self._level_name(m.level))
                    .replace("%2", f"{m.dipoleDebye:.4f}")
                    .replace("%3", m.source)
                )
            else:
                text = (
                    QCoreApplication.translate("ResultsPanel", "Dipole: %1 D (%2)")
                    .replace("%1", f"{m.dipoleDebye:.4f}")
                    .replace("%2", m.source)
                )
            lines.append(text)
            lines.append(f"  {m.frame}")
        for pol in s.polarizabilities:
            name = (
                QCoreApplication.translate("ResultsPanel", "%1 polarizability").replace(
                    "%1", self._level_name(pol.level)
                )
                if self._other_level(s, pol.level)
                else QCoreApplication.translate("ResultsPanel", "Polarizability")
            )
            lines.append(
                QCoreApplication.translate("ResultsPanel", "%1 (ω = %2 a.u.): isotropic %3 a.u.")
                .replace("%1", name)
                .replace("%2", f"{pol.frequency:g}")
                .replace("%3", f"{pol.isotropic:.4f}")
            )
        if self._post_scf(s) and (s.frontier or res.charges):
            lines.append(
                QCoreApplication.translate(
                    "ResultsPanel",
                    "Orbitals and charges: the %1 wavefunction's (the final energy is %2)",
                )
                .replace("%1", self._level_name(self._reference_level(s)))
                .replace("%2", self._level_name(s.finalEnergyLevel))
            )
        t = s.thermochemistry
        if t is not None:
            lines.append(
                QCoreApplication.translate("ResultsPanel", "Thermochemistry at %1 K:").replace(
                    "%1", f"{t.temperature:.2f}"
                )
            )
            for name, v in (
                (QCoreApplication.translate("ResultsPanel", "enthalpy"), t.enthalpy),
                (
                    QCoreApplication.translate("ResultsPanel", "Gibbs free energy"),
                    t.gibbsFreeEnergy,
                ),
                (QCoreApplication.translate("ResultsPanel", "H correction"), t.enthalpyCorrection),
                (QCoreApplication.translate("ResultsPanel", "G correction"), t.gibbsCorrection),
            ):
                if v is not None:
                    lines.append(f"  {name}: {v:.6f} Eh ({v * 627.5094740631:.2f} kcal/mol)")
        if s.excitationCount:
            lines.append(
                QCoreApplication.translate("ResultsPanel", "Excited states: %1").replace(
                    "%1", str(s.excitationCount)
                )
            )

        lines += excitations_view.summary_lines(res)  # solvation energy, transition-state check
        if s.mdSteps:
            lines.append(
                QCoreApplication.translate("ResultsPanel", "BOMD steps: %1").replace(
                    "%1", str(s.mdSteps)
                )
            )
        return lines

    def _frontier_lines(self, s: Any) -> list[str]:
        """HOMO, LUMO and gap of each spin channel, each line naming its channel."""
        lines: list[str] = []
        names = {
            "alpha": QCoreApplication.translate("ResultsPanel", "α (alpha)"),
            "beta": QCoreApplication.translate("ResultsPanel", "β (beta)"),
        }
        for f in s.frontier:
            if f.homo is None or f.lumo is None or f.gapEv is None:
                continue
            text = (
                QCoreApplication.translate("ResultsPanel", "HOMO %1 Eh, LUMO %2 Eh, gap %3 eV")
                .replace("%1", f"{f.homo:.5f}")
                .replace("%2", f"{f.lumo:.5f}")
                .replace("%3", f"{f.gapEv:.3f}")
            )
            if f.spin in names:
                text = (
                    QCoreApplication.translate("ResultsPanel", "%1: %2")
                    .replace("%1", names[f.spin])
                    .replace("%2", text)
                )
            lines.append(text)
        return lines

    @staticmethod
    def _reference_level(s: Any) -> str:
        """scf or dft: the level of the wavefunction the orbitals and charges are of."""
        return (
            "dft"
            if str(s.wavefunction or "").upper() in ("RKS", "UKS")
            or (str(s.wavefunction or "").startswith("DFT"))
            else "scf"
        )

    @staticmethod
    def _post_scf(s: Any) -> bool:
        return s.finalEnergyLevel in ("mp2", "ccsd", "ccsd(t)")

    def _other_level(self, s: Any, level: str | None) -> bool:
        """True when a value of ``level`` sits beside a final energy of another level."""
        return level is not None and self._post_scf(s) and level != s.finalEnergyLevel

    def _level_name(self, level: str | None) -> str:
        return {
            "scf": QCoreApplication.translate("ResultsPanel", "SCF"),
            "dft": QCoreApplication.translate("ResultsPanel", "DFT"),
            "mp2": QCoreApplication.translate("ResultsPanel", "MP2"),
            "ccsd": QCoreApplication.translate("ResultsPanel", "CCSD"),
            "ccsd(t)": QCoreApplication.translate("ResultsPanel", "CCSD(T)"),
        }.get(str(level), str(level or ""))
