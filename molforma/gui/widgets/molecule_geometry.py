"""The Molecule tab's measurements and geometry editor: the distance, angle or dihedral of
the selected atoms, its editor, the kept measurements and the atom labels (Qt layer)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QCoreApplication

from molforma.app import ops
from molforma.app.actor import window_actor
from molforma.document import geometry
from molforma.document.envelope import atoms_of
from molforma.gui.widgets.molecule_lookup import column_labels, labels_of, positions_of
from molforma.gui.widgets.molecule_tab_support import (
    LABEL_MODES,
    MoleculeTabHost,
)
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.gui.view3d import overlay
    from molforma.gui.widgets import calculation_panel
else:  # imported on first use (start-up time): molforma.lazy
    overlay = lazy_import("molforma.gui.view3d.overlay")
    calculation_panel = lazy_import("molforma.gui.widgets.calculation_panel")


class GeometryEditor:
    """Measures the selected atoms, edits that value and keeps measurements and labels.

    The state stays on the tab (``self.tab``); this class holds the behaviour only.
    """

    def __init__(self, tab: MoleculeTabHost) -> None:
        self.tab = tab

    def _measurement_text(self, shown: dict[str, Any]) -> str:
        """Distance, angle or dihedral of 2, 3 or 4 selected atoms, in selection order."""
        ids = self.tab.view.selection()
        if not 2 <= len(ids) <= 4:
            return ""
        p = positions_of(shown, ids)
        if p is None:
            return ""
        names = self.measure_name(ids)
        if len(p) == 2:
            return (
                QCoreApplication.translate("MoleculeTab", "Distance %1: %2 Å")
                .replace("%1", names)
                .replace("%2", f"{float(np.linalg.norm(p[0] - p[1])):.4f}")
            )
        if len(p) == 3:
            value = geometry.angle(*p)
            return (
                QCoreApplication.translate("MoleculeTab", "Angle %1: %2°")
                .replace("%1", names)
                .replace("%2", f"{value:.2f}")
            )
        value = geometry.dihedral(*p)
        return (
            QCoreApplication.translate("MoleculeTab", "Dihedral %1: %2°")
            .replace("%1", names)
            .replace("%2", f"{value:.2f}")
        )

    def measure_name(self, ids: Sequence[str]) -> str:
        """``C1–O2–H3``: element labels of atoms joined by dashes."""
        doc = self.tab.ctx.document
        shown = doc.candidate if doc.candidate is not None else doc.project
        labels = labels_of(shown, list(ids))  # these atoms' rows only, from the id column
        return "–".join(labels.get(i, i) for i in ids)

    def _update_geometry_editor(self, shown: dict[str, Any], *, editable: bool) -> None:
        ids = self.tab.view.selection()
        pos = positions_of(shown, ids) if 2 <= len(ids) <= 4 else None
        ok = pos is not None
        kind = {
            2: QCoreApplication.translate("MoleculeTab", "Distance (Å):"),
            3: QCoreApplication.translate("MoleculeTab", "Angle (°):"),
            4: QCoreApplication.translate("MoleculeTab", "Dihedral (°):"),
        }.get(len(ids), QCoreApplication.translate("MoleculeTab", "Select 2–4 atoms"))
        self.tab.geometry_label.setText(kind)
        self.tab.geometry_input.setEnabled(ok and editable)
        self.tab.geometry_button.setEnabled(ok and editable)
        self.tab.pin_button.setEnabled(ok)
        self.tab.clear_pins_button.setEnabled(bool(self.tab.pinned_measurements))
        key = tuple(ids)
        if pos is not None and getattr(self.tab, "_geometry_for", None) != key:
            # A new selection: offer its current value to edit.
            self.tab.geometry_input.setText(
                overlay.measurement_value(pos).split(" ")[0].rstrip("°")
            )
        elif not ok:
            self.tab.geometry_input.clear()
        self.tab._geometry_for = key if ok else None
        if hasattr(self.tab, "constraint_editor"):
            self.tab.constraint_editor.update_for(shown, editable=editable)

    def apply_geometry_value(self, value: str | None = None) -> bool:
        """Set the distance (2 selected atoms), angle (3) or dihedral (4) to the typed value,
        moving the smaller fragment (``set_internal_coordinate``), one undo step."""
        text = (self.tab.geometry_input.text() if value is None else value).strip()
        ids = self.tab.view.selection()
        if not 2 <= len(ids) <= 4:
            self.tab.show_message(
                QCoreApplication.translate("MoleculeTab", "Select 2, 3 or 4 atoms first."),
                error=True,
            )
            return False
        number = calculation_panel.parse_c_number(text, "float")
        if number is None:
            self.tab.show_message(
                QCoreApplication.translate(
                    "MoleculeTab", "'%1' is not a number (write it as 1.25)."
                ).replace("%1", text),
                error=True,
            )
            return False
        ok = self.tab._run(
            lambda: ops.set_internal_coordinate(
                self.tab.ctx.document, ids, float(number), preview=False, actor=window_actor()
            ),
            QCoreApplication.translate("MoleculeTab", "%1 set to %2")
            .replace("%1", self.measure_name(ids))
            .replace("%2", text),
        )
        self.tab._geometry_for = None  # show the value reached
        self.tab._update_state()
        return ok

    def keep_measurement(self, ids: Sequence[str] | None = None) -> bool:
        """Keep the measurement of ``ids`` (default: the selection) in the view and the list."""
        ids = tuple(self.tab.view.selection() if ids is None else ids)
        if not 2 <= len(ids) <= 4:
            self.tab.show_message(
                QCoreApplication.translate("MoleculeTab", "Select 2, 3 or 4 atoms first."),
                error=True,
            )
            return False
        if ids not in self.tab.pinned_measurements:
            self.tab.pinned_measurements.append(ids)
        self.tab._update_state()
        return True

    def clear_measurements(self) -> None:
        """Forget every kept measurement."""
        self.tab.pinned_measurements = []
        self.tab._update_state()

    def measurement_rows(self) -> list[str]:
        """The kept measurements as listed: ``C1–O2: 1.430 Å``."""
        doc = self.tab.ctx.document
        shown = doc.candidate if doc.candidate is not None else doc.project
        rows = []
        for ids in self.tab.pinned_measurements:
            pos = positions_of(shown, ids)
            if pos is None:
                continue
            rows.append(f"{self.measure_name(ids)}: {overlay.measurement_value(pos)}")
        return rows

    def _update_overlay(self) -> None:
        scene = self.tab.view.scene
        self.tab.pinned_measurements = [
            m for m in self.tab.pinned_measurements if all(scene.index_of(i) is not None for i in m)
        ]
        sel = tuple(self.tab.view.selection())
        lines = list(self.tab.pinned_measurements)
        if 2 <= len(sel) <= 4 and sel not in lines:
            lines.append(sel)
        self.tab.view.set_measurements(lines)
        rows = self.measurement_rows()
        if [
            self.tab.measurement_list.item(i).text()
            for i in range(self.tab.measurement_list.count())
        ] != rows:
            self.tab.measurement_list.clear()
            self.tab.measurement_list.addItems(rows)
        self.tab.view.set_labels(self.atom_labels(str(self.tab.labels_combo.currentData())))

    def atom_labels(self, mode: str) -> dict[str, str]:
        """Texts beside atoms: ``element_index`` (C1), ``charge`` (non-zero formal charges),
        ``name`` (atom names), ``none``."""
        if mode == "none":
            return {}
        doc = self.tab.ctx.document
        shown = doc.candidate if doc.candidate is not None else doc.project
        columns = column_labels(shown, mode)
        if columns is not None:
            return columns
        out: dict[str, str] = {}
        for i, a in enumerate(atoms_of(shown)):
            if mode == "element_index":
                out[a["id"]] = f"{a['element']}{i + 1}"
            elif mode == "charge" and int(a.get("formalCharge", 0) or 0):
                out[a["id"]] = f"{int(a['formalCharge']):+d}"
            elif mode == "name" and a.get("name"):
                out[a["id"]] = str(a["name"])
        return out

    def set_label_mode(self, mode: str) -> None:
        """``none``, ``element_index``, ``charge`` or ``name``."""
        self.tab.labels_combo.setCurrentIndex(LABEL_MODES.index(mode))
