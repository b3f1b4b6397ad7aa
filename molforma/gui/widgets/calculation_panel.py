"""Tab "2 Calculation": conditions, advanced settings, extra input and a live input preview.

Every field edits the confirmed project directly (``preview=False``), one undo step
per change, through :mod:`molforma.app.ops`; the fields are then reloaded from
the document, so what is shown is always what the document holds. Problems found by
``molforma.nwchem.input.input_errors`` and refused edits are shown next to the field.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontDatabase, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from molforma.app import ops
from molforma.document.changes import Change
from molforma.gui.widgets.calculation_edits import CalculationEdits
from molforma.gui.widgets.calculation_preview import InputPreview
from molforma.gui.widgets.calculation_support import (
    _FALLBACK_BASIS,
    _FALLBACK_FUNCTIONALS,
    CUSTOM_SOLVENT,
    FUNCTIONAL_LABELS,
    MAX_WARNINGS,
    PREVIEW_DELAY_MS,
    SHOWN_BESIDE_FIELDS,
    SYNC_PREVIEW_ATOMS,
    TASK_LABELS,
    THEORY_LABELS,
    _advanced_label,
    _functional_name,
    _select_data,
    _set_combo_text,
    _set_item_texts,
    _show_value,
    catalog_names,
    extra_of,
    parse_c_number,
)
from molforma.gui.widgets.panel_workers import (
    Retranslatable,
    message_label,
)
from molforma.nwchem import solvents
from molforma.nwchem.settings import MAX_ROOTS, TASKS, THEORIES, AdvancedSettings

log = logging.getLogger(__name__)


class CalculationPanel(Retranslatable, QWidget):
    """The calculation conditions of the shared document, with a live NWChem input preview."""

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # The tab's parts (the widgets and the state stay here).
        self.edits = CalculationEdits(self)
        self.preview = InputPreview(self)
        self.setObjectName("calculationTab")
        self.ctx = ctx
        self._loading = False
        self._messages: dict[str, QLabel] = {}
        self._advanced: dict[str, QWidget] = {}
        self._local_errors: dict[str, str] = {}
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self.preview._deferred_preview)
        self._preview_stale = False  # positions moved while the tab was not shown
        self._build()
        ctx.events.documentChanged.connect(self._document_changed)
        self.refresh()

    # -- construction ----------------------------------------------------------------------
    def _with_message(self, key: str, widget: QWidget) -> QWidget:
        box = QWidget(self)
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(1)
        lay.addWidget(widget)
        msg = message_label(f"{key.replace('.', '_')}Message", box)
        lay.addWidget(msg)
        self._messages[key] = msg
        return box

    def _build(self) -> None:
        form_host = QWidget(self)
        form_host.setObjectName("calculationForm")
        outer = QVBoxLayout(form_host)
        outer.addWidget(self._build_conditions(form_host))
        self._build_advanced(form_host, outer)
        outer.addWidget(self._build_extra(form_host))
        self.general_message = message_label("calculationMessages", form_host)
        outer.addWidget(self.general_message)
        outer.addStretch(1)

        scroll = QScrollArea(self)
        scroll.setObjectName("calculationScroll")
        scroll.setWidgetResizable(True)
        scroll.setWidget(form_host)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setObjectName("calculationSplitter")
        splitter.addWidget(scroll)
        splitter.addWidget(self._build_preview())
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        lay = QVBoxLayout(self)
        lay.addWidget(splitter)

    def _build_conditions(self, form_host: QWidget) -> QGroupBox:
        """Task, theory, functional, basis, reference, the task's own rows, charge and
        multiplicity."""
        conditions = QGroupBox(form_host)
        self.bind_text(lambda: conditions.setTitle(self.tr("Conditions")))
        conditions.setObjectName("conditionsGroup")
        form = QFormLayout(conditions)

        self.task_combo = QComboBox(conditions)
        self.task_combo.setObjectName("taskCombo")
        for key in TASKS:
            self.task_combo.addItem(key, key)
        self.bind_text(
            lambda: _set_item_texts(self.task_combo, [TASK_LABELS.get(k, k) for k in TASKS])
        )
        self.theory_combo = QComboBox(conditions)
        self.theory_combo.setObjectName("theoryCombo")
        for key in THEORIES:
            self.theory_combo.addItem(key, key)
        self.bind_text(
            lambda: _set_item_texts(self.theory_combo, [THEORY_LABELS.get(k, k) for k in THEORIES])
        )
        # The functional table names each entry (item data, what the document stores) and
        # labels it (item text, in the window's language); a typed xc line is kept as typed.
        self.functional_combo = QComboBox(conditions)
        self.functional_combo.setObjectName("functionalCombo")
        self.functional_combo.setEditable(True)
        functional_names = catalog_names("functionals", _FALLBACK_FUNCTIONALS)
        for name in functional_names:
            self.functional_combo.addItem(name, name)
        self.bind_text(
            lambda: _set_item_texts(
                self.functional_combo, [FUNCTIONAL_LABELS.get(k, k) for k in functional_names]
            )
        )
        self.basis_combo = QComboBox(conditions)
        self.basis_combo.setObjectName("basisCombo")
        self.basis_combo.setEditable(True)
        self.basis_combo.addItems(catalog_names("basis_sets", _FALLBACK_BASIS))
        for combo in (self.functional_combo, self.basis_combo):
            # Enter must not add what was typed to the list: a refused name would stay
            # there, and the list is the table's.
            combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.reference_combo = QComboBox(conditions)
        self.reference_combo.setObjectName("referenceCombo")
        self.reference_combo.addItem("", None)
        self.bind_text(
            lambda: self.reference_combo.setItemText(0, self.tr("Automatic (from multiplicity)"))
        )
        for ref in ("rhf", "rohf", "uhf"):
            self.reference_combo.addItem(ref.upper(), ref)
        self.charge_spin = QSpinBox(conditions)
        self.charge_spin.setObjectName("chargeSpin")
        self.charge_spin.setRange(-999, 999)
        self.charge_spin.setKeyboardTracking(False)
        self.multiplicity_spin = QSpinBox(conditions)
        self.multiplicity_spin.setObjectName("multiplicitySpin")
        self.multiplicity_spin.setRange(1, 20)
        self.multiplicity_spin.setKeyboardTracking(False)

        form.addRow(
            self.label(lambda: self.tr("Task:")),
            self._with_message("calculation.task", self.task_combo),
        )
        form.addRow(
            self.label(lambda: self.tr("Theory:")),
            self._with_message("calculation.theory", self.theory_combo),
        )
        form.addRow(
            self.label(lambda: self.tr("Functional:")),
            self._with_message("calculation.functional", self.functional_combo),
        )
        form.addRow(
            self.label(lambda: self.tr("Basis set:")),
            self._with_message("calculation.basis", self.basis_combo),
        )
        form.addRow(
            self.label(lambda: self.tr("SCF reference:")),
            self._with_message("calculation.reference", self.reference_combo),
        )
        self._build_task_rows(conditions, form)
        form.addRow(
            self.label(lambda: self.tr("Charge:")),
            self._with_message("document.charge", self.charge_spin),
        )
        form.addRow(
            self.label(lambda: self.tr("Multiplicity:")),
            self._with_message("document.multiplicity", self.multiplicity_spin),
        )

        self.edits.wire_conditions()
        return conditions

    def _build_advanced(self, form_host: QWidget, outer: QVBoxLayout) -> None:
        """Advanced settings: collapsed by default, one field per AdvancedSettings key."""
        self.advanced_toggle = QToolButton(form_host)
        self.advanced_toggle.setObjectName("advancedToggle")
        self.bind_text(lambda: self.advanced_toggle.setText(self.tr("Advanced settings")))
        self.advanced_toggle.setCheckable(True)
        self.advanced_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.advanced_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.advanced_group = QGroupBox(form_host)
        self.advanced_group.setObjectName("advancedGroup")
        adv_form = QFormLayout(self.advanced_group)
        for key, field in AdvancedSettings.model_fields.items():
            widget = self.edits.make_advanced_field(self, key, field)
            self._advanced[key] = widget
            adv_form.addRow(
                self.label(partial(_advanced_label, key)),
                self._with_message(f"advanced.{key}", widget),
            )
        self.advanced_group.setVisible(False)
        self.advanced_toggle.toggled.connect(self.set_advanced_expanded)
        outer.addWidget(self.advanced_toggle)
        outer.addWidget(self.advanced_group)

    def _build_extra(self, form_host: QWidget) -> QGroupBox:
        """Extra input and extra tasks, applied with their own button."""
        extra = QGroupBox(form_host)
        self.bind_text(
            lambda: extra.setTitle(self.tr("Extra input (added to the input before the tasks)"))
        )
        extra.setObjectName("extraInputGroup")
        ex_lay = QVBoxLayout(extra)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.extra_input_edit = QPlainTextEdit(extra)
        self.extra_input_edit.setObjectName("extraInputEdit")
        self.extra_input_edit.setFont(mono)
        self.bind_text(
            lambda: self.extra_input_edit.setPlaceholderText(
                self.tr("NWChem directives, e.g. a property block")
            )
        )
        self.extra_input_edit.setMaximumHeight(110)
        self.extra_tasks_edit = QPlainTextEdit(extra)
        self.extra_tasks_edit.setObjectName("extraTasksEdit")
        self.extra_tasks_edit.setFont(mono)
        self.bind_text(
            lambda: self.extra_tasks_edit.setPlaceholderText(
                self.tr("Extra task lines, one per line, e.g. scf property")
            )
        )
        self.extra_tasks_edit.setMaximumHeight(60)
        self.apply_extra_button = self.button(
            lambda: self.tr("Apply extra input"), "applyExtraInputButton", extra
        )
        self.extra_state = QLabel(extra)
        self.extra_state.setObjectName("extraInputState")
        ex_lay.addWidget(self.extra_input_edit)
        ex_lay.addWidget(self.label(lambda: self.tr("Extra tasks:"), extra))
        ex_lay.addWidget(self.extra_tasks_edit)
        row = QHBoxLayout()
        row.addWidget(self.apply_extra_button)
        row.addWidget(self.extra_state, 1)
        ex_lay.addLayout(row)
        ex_lay.addWidget(self._with_message("calculation.extra_input", QWidget(extra)))
        self.apply_extra_button.clicked.connect(self.edits.apply_extra_input)
        self.extra_input_edit.textChanged.connect(self._update_extra_state)
        self.extra_tasks_edit.textChanged.connect(self._update_extra_state)
        return extra

    def _build_preview(self) -> QWidget:
        """The live preview of the NWChem input."""
        preview_host = QWidget(self)
        pv = QVBoxLayout(preview_host)
        pv.setContentsMargins(0, 0, 0, 0)
        pv.addWidget(self.label(lambda: self.tr("NWChem input (live preview):"), preview_host))
        self.input_preview = QPlainTextEdit(preview_host)
        self.input_preview.setObjectName("inputPreview")
        self.input_preview.setReadOnly(True)
        self.input_preview.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.input_preview.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        pv.addWidget(self.input_preview, 1)
        return preview_host

    def _build_task_rows(self, parent: QWidget, form: QFormLayout) -> None:
        """Excited-state rows (shown for that task) and the solvent (COSMO) rows."""
        self._form = form
        self.excited_roots_spin = QSpinBox(parent)
        self.excited_roots_spin.setObjectName("excitedRootsSpin")
        self.excited_roots_spin.setRange(1, MAX_ROOTS)
        self.excited_roots_spin.setKeyboardTracking(False)
        self.bind_text(
            lambda: self.excited_roots_spin.setToolTip(
                self.tr(
                    "Number of excited states (roots) per spin manifold: nroots in the tddft block."
                )
            )
        )
        self.excited_spin_combo = QComboBox(parent)
        self.excited_spin_combo.setObjectName("excitedSpinCombo")
        for key in ("singlets", "triplets", "both"):
            self.excited_spin_combo.addItem(key, key)
        self.bind_text(
            lambda: _set_item_texts(
                self.excited_spin_combo,
                (self.tr("Singlets"), self.tr("Triplets"), self.tr("Singlets and triplets")),
            )
        )
        self.bind_text(
            lambda: self.excited_spin_combo.setToolTip(
                self.tr(
                    "Closed shells: which spin states (notriplet / nosinglet). An open shell gets "
                    "its states of any spin."
                )
            )
        )
        self.excited_method_combo = QComboBox(parent)
        self.excited_method_combo.setObjectName("excitedMethodCombo")
        for key in ("tddft", "tda"):
            self.excited_method_combo.addItem(key, key)
        self.bind_text(
            lambda: _set_item_texts(
                self.excited_method_combo,
                (
                    self.tr("Full linear response (TDDFT; TDHF with SCF)"),
                    self.tr("Tamm–Dancoff (TDA; CIS with SCF)"),
                ),
            )
        )
        self.bind_text(
            lambda: self.excited_method_combo.setToolTip(
                self.tr(
                    "Tamm–Dancoff writes cis in the tddft block; with SCF as the theory the "
                    "excitations are CIS."
                )
            )
        )
        self.irc_check = QCheckBox(parent)
        self.irc_check.setObjectName("ircCheck")
        self.bind_text(
            lambda: self.irc_check.setText(
                self.tr("Follow the reaction path down both sides (IRC)")
            )
        )
        self.bind_text(
            lambda: self.irc_check.setToolTip(
                self.tr(
                    "After the frequencies, NWChem's mepgs module follows the imaginary mode forward "
                    "and backward; each side's points are opened from the job folder (.fxyz, .bxyz)."
                )
            )
        )
        self.solvent_combo = QComboBox(parent)
        self.solvent_combo.setObjectName("solventCombo")
        self.solvent_combo.addItem("", None)
        for entry in solvents.table():
            self.solvent_combo.addItem(str(entry["name"]), str(entry["name"]))
        self.solvent_combo.addItem("", CUSTOM_SOLVENT)
        self.bind_text(self.edits._label_solvents)
        self.bind_text(
            lambda: self.solvent_combo.setToolTip(
                self.tr(
                    "Implicit solvent (COSMO) by its dielectric constant; the solvation energy is "
                    "shown with the results."
                )
            )
        )
        self.dielectric_edit = QLineEdit(parent)
        self.dielectric_edit.setObjectName("dielectricEdit")
        self.bind_text(
            lambda: self.dielectric_edit.setPlaceholderText(self.tr("a number above 1, e.g. 10.5"))
        )
        self.bind_text(
            lambda: self.dielectric_edit.setToolTip(
                self.tr("Custom dielectric constant for COSMO (dielec).")
            )
        )
        form.addRow(
            self.label(lambda: self.tr("Excited states (roots):")),
            self._with_message("calculation.excited_roots", self.excited_roots_spin),
        )
        form.addRow(
            self.label(lambda: self.tr("Spin states:")),
            self._with_message("calculation.excited_spin", self.excited_spin_combo),
        )
        form.addRow(
            self.label(lambda: self.tr("Method:")),
            self._with_message("calculation.excited_method", self.excited_method_combo),
        )
        form.addRow(
            self.label(lambda: self.tr("Reaction path:")),
            self._with_message("calculation.irc", self.irc_check),
        )
        form.addRow(
            self.label(lambda: self.tr("Solvent (COSMO):")),
            self._with_message("calculation.solvent", self.solvent_combo),
        )
        form.addRow(
            self.label(lambda: self.tr("Dielectric constant:")),
            self._with_message("calculation.dielectric", self.dielectric_edit),
        )
        self.excited_roots_spin.valueChanged.connect(
            lambda v: self.edits._set_calc("excited_roots", int(v))
        )
        self.excited_spin_combo.currentIndexChanged.connect(
            lambda _i: self.edits._set_calc("excited_spin", self.excited_spin_combo.currentData())
        )
        self.excited_method_combo.currentIndexChanged.connect(
            lambda _i: self.edits._set_calc(
                "excited_method", self.excited_method_combo.currentData()
            )
        )
        self.irc_check.toggled.connect(lambda v: self.edits._set_calc("irc", bool(v)))
        self.solvent_combo.currentIndexChanged.connect(self.edits._solvent_chosen)
        self.dielectric_edit.editingFinished.connect(self.edits._dielectric_typed)

    # -- refresh from the document ---------------------------------------------------------
    def _update_extra_state(self) -> None:
        text, tasks = extra_of(self.ctx.document.project)
        typed = [t.strip() for t in self.extra_tasks_edit.toPlainText().splitlines() if t.strip()]
        dirty = self.extra_input_edit.toPlainText() != text or typed != tasks
        self.extra_state.setText(self.tr("Not applied yet") if dirty else "")

    def _document_changed(self, change: Change = Change.ALL) -> None:
        if self._local_errors and change != Change.BUSY:
            # Reasons shown for refused edits are stale once the document has moved on.
            self._local_errors.clear()
            self.refresh()
            return
        shown = change & (Change.CONTENT | Change.LOAD)
        if not shown:
            return  # a candidate, undo steps or a clean-up: the confirmed project is the same
        if shown == Change.POSITIONS:
            # A drag: no field or message depends on positions, only the geometry block
            # of the preview, which is rendered when the tab is in view.
            self._preview_stale = True
            if self.isVisible():
                self.preview._schedule_preview(self.ctx.document.project)
            return
        self.refresh()

    def showEvent(self, ev: QShowEvent) -> None:
        """Render a preview that positions made stale while the tab was hidden."""
        super().showEvent(ev)
        if self._preview_stale:
            self.preview._schedule_preview(self.ctx.document.project)

    def catch_up(self) -> None:
        """Render a preview a drag made stale while the tab was hidden: an agent reading
        the window (get_ui, get_ui_item) sees what the person would see on opening it."""
        if self._preview_stale:
            self._preview_timer.stop()
            self.preview._refresh_preview_and_messages(self.ctx.document.project, read_now=True)

    def refresh(self, *_args: Any, keep_extra: bool = False) -> None:
        """Reload every field, the messages and the preview from the confirmed project."""
        project = self.ctx.document.project
        calc = project.get("calculation", {})
        doc = project.get("document", {})
        adv = project.get("advanced", {})
        self._loading = True
        try:
            _select_data(self.task_combo, calc.get("task"))
            _select_data(self.theory_combo, calc.get("theory"))
            _select_data(self.reference_combo, calc.get("reference"))
            _set_combo_text(
                self.functional_combo,
                str(calc.get("functional", "")),
                _functional_name(str(calc.get("functional", ""))),
            )
            _set_combo_text(self.basis_combo, str(calc.get("basis", "")))
            self.functional_combo.setEnabled(calc.get("theory") == "dft")
            self.edits.show_task_rows(calc)
            self.charge_spin.setValue(int(doc.get("charge", 0) or 0))
            self.multiplicity_spin.setValue(int(doc.get("multiplicity", 1) or 1))
            for key, w in self._advanced.items():
                _show_value(w, adv.get(key, AdvancedSettings.model_fields[key].default))
            if not keep_extra:
                text, tasks = extra_of(self.ctx.document.project)
                if self.extra_input_edit.toPlainText() != text:
                    self.extra_input_edit.setPlainText(text)
                if self.extra_tasks_edit.toPlainText() != "\n".join(tasks):
                    self.extra_tasks_edit.setPlainText("\n".join(tasks))
        finally:
            self._loading = False
        self._update_extra_state()
        self.preview._schedule_preview(project)

    def _validation_warnings(self) -> list[str]:
        """validate_document's warnings (radicals that disagree with the multiplicity, close
        contacts, open valences ...), so the person reads them beside Run, as an agent reads
        them from validate_document; its errors are the input problems shown above."""
        try:
            checks = ops.validate_document(self.ctx.document).get("checks", [])
        except Exception as exc:  # a checker bug must not break the tab
            log.warning("validate_document failed", exc_info=exc)
            return []
        return self._warning_texts(checks)

    def _warning_texts(self, checks: list[dict[str, Any]]) -> list[str]:
        """The warnings among validate_document's checks, as the tab words them."""
        warnings = [
            str(c["message"])
            for c in checks
            if c.get("severity") == "warning" and c.get("code") not in SHOWN_BESIDE_FIELDS
        ]
        shown = [self.tr("Warning: %1").replace("%1", w) for w in warnings[:MAX_WARNINGS]]
        if len(warnings) > MAX_WARNINGS:
            shown.append(self.tr("… and %n more warning(s).", "", len(warnings) - MAX_WARNINGS))
        return shown

    def retranslate_dynamic(self) -> None:
        """Messages and states are rebuilt in the new language."""
        self.refresh()

    def messages(self) -> dict[str, str]:
        """The validation messages shown now, by field path (for tests and tools)."""
        out = {k: lab.text() for k, lab in self._messages.items() if lab.text()}
        if self.general_message.text():
            out["general"] = self.general_message.text()
        return out

    # -- what the collaborators do, under the names the window and its tests use
    def set_advanced_expanded(self, expanded: bool) -> None:
        self.edits.set_advanced_expanded(expanded)

    def advanced_field(self, key: str) -> QWidget:
        return self.edits.advanced_field(key)


# The labels, limits and parsing other modules and tests import from here.
__all__: list[str] = [
    "SYNC_PREVIEW_ATOMS",
    "TASK_LABELS",
    "CalculationPanel",
    "catalog_names",
    "parse_c_number",
]
