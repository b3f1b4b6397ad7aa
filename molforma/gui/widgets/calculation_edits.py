"""The Calculation tab's edits: a field's value checked and stored as one undo step,
or its reason shown beside it; the solvent choice, extra input and advanced settings
(Qt layer)."""

from __future__ import annotations

import logging
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLineEdit,
    QWidget,
)

from molforma.errors import MolFormaError
from molforma.gui import outcome
from molforma.gui.widgets.calculation_support import (
    AUTOMATIC_TIP,
    CUSTOM_SOLVENT,
    DEFAULT_TEXT,
    CalculationPanelHost,
    _field_kind,
    _item_value,
    _message_box_of,
    _select_data,
    _tristate_value,
    _typed_value,
    parse_c_number,
)
from molforma.gui.widgets.panel_workers import (
    apply_edit,
)
from molforma.lazy import lazy_import
from molforma.nwchem import solvents
from molforma.nwchem.value_grammar import CALCULATION_VALIDATORS

if TYPE_CHECKING:
    from molforma.gui import app as gui_app
else:  # imported on first use (start-up time): molforma.lazy
    gui_app = lazy_import("molforma.gui.app")

log = logging.getLogger(__name__)


class CalculationEdits:
    """Checks and stores the tab's field edits, or shows why one was refused.

    The widgets and the state stay on the tab (``self.panel``).
    """

    def __init__(self, panel: CalculationPanelHost) -> None:
        self.panel = panel

    def _label_solvents(self) -> None:
        lang = gui_app.current_language()
        self.panel.solvent_combo.setItemText(
            0, QCoreApplication.translate("CalculationPanel", "None (gas phase)")
        )
        for i, entry in enumerate(solvents.table(), start=1):
            label = entry["label"].get(lang) or entry["label"]["en"]
            self.panel.solvent_combo.setItemText(i, f"{label} (ε {entry['dielectric']:g})")
        self.panel.solvent_combo.setItemText(
            self.panel.solvent_combo.count() - 1,
            QCoreApplication.translate("CalculationPanel", "Custom dielectric constant"),
        )

    def _solvent_chosen(self, _index: int) -> None:
        if self.panel._loading:
            return
        value = self.panel.solvent_combo.currentData()
        if value == CUSTOM_SOLVENT:
            # Nothing to run with until a constant is typed: the field opens for it.
            self.panel.dielectric_edit.setEnabled(True)
            self.panel.dielectric_edit.setFocus()
            return
        calc = self.panel.ctx.document.project.get("calculation", {})
        if value is None and calc.get("dielectric") is not None:
            self._after_edit(
                "calculation.solvent",
                apply_edit(self.panel.ctx, "set_nwchem", {"solvent": None, "dielectric": None}),
            )
            return
        self._set_calc("solvent", value)

    def _dielectric_typed(self) -> None:
        if self.panel._loading:
            return
        text = self.panel.dielectric_edit.text().strip()
        if not text:
            if self.panel.ctx.document.project.get("calculation", {}).get("dielectric") is not None:
                self._set_calc("dielectric", None)
            return
        value = parse_c_number(text, "float")
        try:
            solvents.validate_dielectric(value if value is not None else text)
        except MolFormaError as exc:
            outcome.refused(exc)
            self._after_edit("calculation.dielectric", exc.message())
            return
        self._set_calc("dielectric", value)

    def wire_conditions(self) -> None:
        """Connect the conditions' fields to their edits."""
        p = self.panel
        p.task_combo.currentIndexChanged.connect(
            lambda _i: self._set_calc("task", p.task_combo.currentData())
        )
        p.theory_combo.currentIndexChanged.connect(
            lambda _i: self._set_calc("theory", p.theory_combo.currentData())
        )
        p.reference_combo.currentIndexChanged.connect(
            lambda _i: self._set_calc("reference", p.reference_combo.currentData())
        )
        for combo, key in ((p.functional_combo, "functional"), (p.basis_combo, "basis")):
            # activated as well as currentIndexChanged: choosing the item that is already
            # current (after a typed value the index did not follow) changes no index but
            # must still set the document to it.
            combo.currentIndexChanged.connect(
                lambda i, c=combo, k=key: self._set_calc(k, _item_value(c, i))
            )
            combo.activated.connect(lambda i, c=combo, k=key: self._set_calc(k, _item_value(c, i)))
            edit = combo.lineEdit()
            if edit is not None:
                edit.editingFinished.connect(
                    lambda c=combo, k=key: self._set_calc(k, _typed_value(c))
                )
        p.charge_spin.valueChanged.connect(lambda v: self._set_molecule("charge", v))
        p.multiplicity_spin.valueChanged.connect(lambda v: self._set_molecule("multiplicity", v))

    def _report(self, key: str, message: str | None) -> None:
        if message:
            self.panel._local_errors[key] = message
        else:
            self.panel._local_errors.pop(key, None)

    def _after_edit(self, key: str, message: str | None) -> None:
        self._report(key, message)
        if message:
            # Refused: show the document's value again beside the reason.
            self.panel.refresh()

    def _set_calc(self, key: str, value: Any) -> None:
        if self.panel._loading or (value is None and key in ("functional", "basis")):
            return
        if self.panel.ctx.document.project.get("calculation", {}).get(key) == value:
            return
        check = CALCULATION_VALIDATORS.get(key)
        if check is not None:
            # The basis and functional grammar (value_grammar), the same the tools and a
            # project file are judged by: refused here with its reason, nothing stored.
            try:
                check(value)
            except MolFormaError as exc:
                outcome.refused(exc)  # a window command that typed it fails with this
                self._after_edit(f"calculation.{key}", exc.message())
                return
        self._after_edit(
            f"calculation.{key}", apply_edit(self.panel.ctx, "set_nwchem", {key: value})
        )

    def _set_molecule(self, key: str, value: int) -> None:
        if self.panel._loading:
            return
        if self.panel.ctx.document.project["document"].get(key) == value:
            return
        self._after_edit(
            f"document.{key}", apply_edit(self.panel.ctx, "set_molecule", **{key: int(value)})
        )

    def _set_advanced(self, key: str, value: Any) -> None:
        if self.panel._loading:
            return
        if self.panel.ctx.document.project.get("advanced", {}).get(key) == value:
            return
        self._after_edit(
            f"advanced.{key}", apply_edit(self.panel.ctx, "set_advanced", {key: value})
        )

    def _commit_text(self, key: str, edit: QLineEdit, kind: str) -> None:
        if self.panel._loading:
            return
        text = edit.text().strip()
        value: Any = text or None
        if kind in ("int", "float") and text:
            value = parse_c_number(text, kind)
            if value is None:
                msg = (
                    QCoreApplication.translate("CalculationPanel", "Not a whole number: %1")
                    if kind == "int"
                    else QCoreApplication.translate(
                        "CalculationPanel",
                        "Not a number: %1 (write it like 1e-6 or 0.001, with a point)",
                    )
                )
                self._after_edit(f"advanced.{key}", msg.replace("%1", text))
                return
        self._set_advanced(key, value)

    def apply_extra_input(self) -> None:
        """Apply the extra-input and extra-task editors to the document (one undo step)."""
        text = self.panel.extra_input_edit.toPlainText()
        tasks = [
            t.strip() for t in self.panel.extra_tasks_edit.toPlainText().splitlines() if t.strip()
        ]
        msg = apply_edit(self.panel.ctx, "set_nwchem", {"extra_input": text, "extra_tasks": tasks})
        self._report("calculation.extra_input", msg)
        self.panel.refresh(keep_extra=bool(msg))

    def set_advanced_expanded(self, expanded: bool) -> None:
        """Open or close the advanced group."""
        self.panel.advanced_toggle.setChecked(expanded)
        self.panel.advanced_toggle.setArrowType(
            Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow
        )
        self.panel.advanced_group.setVisible(expanded)

    def advanced_field(self, key: str) -> QWidget:
        """The widget editing advanced key ``key`` (objectName ``advanced_<key>``)."""
        return self.panel._advanced[key]

    def make_advanced_field(self, parent: QWidget, key: str, field: Any) -> QWidget:
        """The widget of advanced setting ``key`` (its pydantic ``field``), wired to store
        each edit."""
        kind, values = _field_kind(field.annotation)
        nullable = type(None) in typing.get_args(field.annotation)
        name = f"advanced_{key}"
        if kind == "bool" and nullable:
            # Partly checked stands for null: MolForma chooses (symmetry unless atoms are
            # fixed, spherical functions where the basis set was defined so, ...).
            box = QCheckBox(parent)
            box.setTristate(True)
            box.checkStateChanged.connect(
                lambda state, k=key: self._set_advanced(k, _tristate_value(state))
            )
            self.panel.bind_text(
                lambda: box.setToolTip(
                    QCoreApplication.translate("CalculationPanel", AUTOMATIC_TIP)
                )
            )
            w: QWidget = box
        elif kind == "bool":
            w = QCheckBox(parent)
            w.toggled.connect(lambda v, k=key: self._set_advanced(k, bool(v)))
        elif kind == "literal":
            combo = QComboBox(parent)
            if nullable:
                combo.addItem("", None)
                self.panel.bind_text(
                    lambda: combo.setItemText(
                        0, QCoreApplication.translate("CalculationPanel", DEFAULT_TEXT)
                    )
                )
            for v in values:
                combo.addItem(str(v), v)
            combo.currentIndexChanged.connect(
                lambda _i, c=combo, k=key: self._set_advanced(k, c.currentData())
            )
            w = combo
        else:
            # Numbers are typed into plain line edits and parsed strictly in the C locale:
            # a spin box or a locale validator would clamp, drop a sign or read "1,0e-6"
            # some other way, and the person would not see the value change.
            edit = QLineEdit(parent)
            self.panel.bind_text(
                lambda: edit.setPlaceholderText(
                    QCoreApplication.translate("CalculationPanel", DEFAULT_TEXT)
                )
            )
            edit.editingFinished.connect(lambda: self._commit_text(key, edit, kind))
            w = edit
        w.setObjectName(name)
        return w

    def show_task_rows(self, calc: Mapping[str, Any]) -> None:
        """The excited-state and IRC rows shown for their task, the solvent rows filled."""
        p = self.panel
        excited = calc.get("task") == "excited-states"
        for widget in (p.excited_roots_spin, p.excited_spin_combo, p.excited_method_combo):
            p._form.setRowVisible(_message_box_of(widget), excited)
        p._form.setRowVisible(_message_box_of(p.irc_check), calc.get("task") == "transition-state")
        p.irc_check.setChecked(bool(calc.get("irc")))
        p.excited_roots_spin.setValue(int(calc.get("excited_roots") or 10))
        _select_data(p.excited_spin_combo, calc.get("excited_spin") or "singlets")
        _select_data(p.excited_method_combo, calc.get("excited_method") or "tddft")
        custom = calc.get("dielectric") is not None
        _select_data(p.solvent_combo, CUSTOM_SOLVENT if custom else calc.get("solvent"))
        p.dielectric_edit.setEnabled(custom)
        text = f"{float(calc['dielectric']):g}" if custom else ""
        if p.dielectric_edit.text() != text:
            p.dielectric_edit.setText(text)
