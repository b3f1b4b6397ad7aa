"""The table of excited states beside the UV-Vis plot, and the solvation and transition-state
lines of the Results summary (Qt layer).

One row per root NWChem printed (TDDFT, TDA, CIS): energy in eV and nm, oscillator
strength, spin and symmetry of the state, and its dominant one-electron transitions
("5 b2 → 6 a1 (−1.000)", the largest coefficients first; β marks a beta-spin orbital of
an unrestricted run). The table sits under the UV-Vis plot in the same tab, so the sticks
and the roots they come from are read together.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from molforma.gui.widgets.panel_workers import Retranslatable

HARTREE_TO_KCAL = 627.5094740631
SHOWN_TRANSITIONS = 3  # per root in the table; the tooltip lists every printed one


def transition_text(t: Any) -> str:
    """``5 b2 → 6 a1 (-1.000)``; ``4β a → 5β a (1.923 X)`` for an unrestricted run."""
    mark = {"alpha": "α", "beta": "β"}.get(t.spin or "", "")
    occ = f"{t.occupied}{mark}" + (f" {t.occupiedSymmetry}" if t.occupiedSymmetry else "")
    virt = f"{t.virtual}{mark}" + (f" {t.virtualSymmetry}" if t.virtualSymmetry else "")
    part = f" {t.component}" if t.component else ""
    return f"{occ} → {virt} ({t.coefficient:.3f}{part})"


def dominant(transitions: list[Any], count: int = SHOWN_TRANSITIONS) -> list[Any]:
    """The ``count`` transitions with the largest |coefficient|, largest first."""
    return sorted(transitions, key=lambda t: -abs(t.coefficient))[:count]


class ExcitationsTable(Retranslatable, QTableWidget):
    """Roots of the results shown: one row each, read-only."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 6, parent)
        self.setObjectName("excitationsTable")
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().setVisible(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.setMinimumHeight(120)
        self._excitations: list[Any] = []
        self.bind_text(self._headers)
        self.bind_text(
            lambda: self.setToolTip(
                QCoreApplication.translate(
                    "ExcitationsTable",
                    "Excited states as NWChem printed them; the dominant transitions are occupied → "
                    "virtual orbital (NWChem's vector numbers) with their coefficients.",
                )
            )
        )

    def _headers(self) -> None:
        self.setHorizontalHeaderLabels(
            [
                QCoreApplication.translate("ExcitationsTable", "Root"),
                QCoreApplication.translate("ExcitationsTable", "State"),
                QCoreApplication.translate("ExcitationsTable", "Energy (eV)"),
                QCoreApplication.translate("ExcitationsTable", "Wavelength (nm)"),
                QCoreApplication.translate("ExcitationsTable", "Oscillator strength"),
                QCoreApplication.translate("ExcitationsTable", "Dominant transitions"),
            ]
        )

    def retranslate_dynamic(self) -> None:
        """The spin words in the State column follow the language."""
        self.set_excitations(self._excitations)

    def set_excitations(self, excitations: list[Any]) -> None:
        """Show ``excitations`` (results model ``Excitation`` objects); [] empties it."""
        self._excitations = list(excitations)
        self.setRowCount(len(self._excitations))
        spin_words = {
            "singlet": QCoreApplication.translate("ExcitationsTable", "singlet"),
            "triplet": QCoreApplication.translate("ExcitationsTable", "triplet"),
        }
        for row, ex in enumerate(self._excitations):
            state = " ".join(
                x for x in (spin_words.get(ex.spin or "", ex.spin or ""), ex.symmetry or "") if x
            )
            if ex.spinForbidden:
                strength = QCoreApplication.translate("ExcitationsTable", "spin-forbidden")
            elif ex.oscillatorStrength is None:
                strength = "–"
            else:
                strength = f"{ex.oscillatorStrength:.4f}"
            shown = dominant(ex.transitions)
            cells = [
                str(ex.root),
                state,
                f"{ex.energyEv:.4f}",
                "–" if ex.wavelengthNm is None else f"{ex.wavelengthNm:.1f}",
                strength,
                "; ".join(transition_text(t) for t in shown),
            ]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col in (0, 2, 3, 4):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                if col == 5 and len(ex.transitions) > len(shown):
                    item.setToolTip("\n".join(transition_text(t) for t in ex.transitions))
                self.setItem(row, col, item)
        self.setVisible(bool(self._excitations))

    def rows(self) -> list[list[str]]:
        """The cells shown, row by row (for tests and the window tools)."""
        return [
            [_text(self.item(r, c)) for c in range(self.columnCount())]
            for r in range(self.rowCount())
        ]


def _text(item: QTableWidgetItem | None) -> str:
    return item.text() if item is not None else ""


def attach_excitations_view(panel: Any) -> ExcitationsTable:
    """Put the roots table under the Results panel's UV-Vis plot (``panel.uvvis``)."""
    table = ExcitationsTable(panel.uvvis)
    panel.uvvis.layout().addWidget(table, 1)
    table.setVisible(False)
    return table


def show_excitations_of(table: ExcitationsTable, res: Any) -> None:
    """Fill ``table`` from results ``res`` (None clears it)."""
    table.set_excitations(list(res.excitations) if res is not None else [])


def summary_lines(res: Any) -> list[str]:
    """The summary's solvation energy and whether a saddle search found a transition
    state (the warning itself is listed with the other warnings)."""
    s = res.summary
    lines: list[str] = []
    if s.solvationEnergy is not None:
        lines.append(
            QCoreApplication.translate(
                "ExcitationsTable", "Solvation energy (COSMO, electrostatic): %1 Eh (%2 kcal/mol)"
            )
            .replace("%1", f"{s.solvationEnergy:.8f}")
            .replace("%2", f"{s.solvationEnergy * HARTREE_TO_KCAL:.2f}")
        )
    if s.saddlePoint is True:
        imaginary = [m.frequency for m in res.modes if m.significant]
        lines.append(
            QCoreApplication.translate(
                "ExcitationsTable", "Transition state: one imaginary mode (%1 cm⁻¹)"
            ).replace("%1", f"{imaginary[0]:.1f}" if imaginary else "?")
        )
    elif s.saddlePoint is False:
        lines.append(
            QCoreApplication.translate(
                "ExcitationsTable", "Not a transition state: %1 imaginary modes (one expected)"
            ).replace("%1", str(s.significantImaginaryModes))
        )
    return lines
