"""What the Calculation tab's parts share: the catalogue labels, number parsing and the
small combo-box helpers (Qt layer)."""

from __future__ import annotations

import logging
import math
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLineEdit,
    QWidget,
)

from molforma.errors import MolFormaError
from molforma.gui.widgets.panel_workers import (
    QT_TRANSLATE_NOOP,
)
from molforma.i18n import render
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import (
        QFormLayout,
        QGroupBox,
        QLabel,
        QPlainTextEdit,
        QSpinBox,
        QToolButton,
    )

    from molforma import catalog
    from molforma.gui import app as gui_app
    from molforma.nwchem import functionals
else:  # imported on first use (start-up time): molforma.lazy
    functionals = lazy_import("molforma.nwchem.functionals")
    catalog = lazy_import("molforma.catalog")
    gui_app = lazy_import("molforma.gui.app")

log = logging.getLogger(__name__)

# Warnings shown under the form; the rest are counted (validate_document lists them all).
MAX_WARNINGS = 4
# Warnings the form already shows beside their own field (basis, functional).
SHOWN_BESIDE_FIELDS = frozenset({"basis_not_in_library", "functional_needs_nwchem"})


class CatalogueLabels(Mapping[str, str]):
    """The labels of one settings catalogue in the window's language, by key.

    Tasks, theories and advanced settings are named by one table per language: the
    catalogue under ``resources/`` (``molforma.catalog``), which ``get_catalog`` and the
    messages use too, so the window, the catalogue and an agent say the same words
    ("Optimisation + frequencies" everywhere; the API keeps its values such as
    ``optimize+frequencies``). Qt's translator is not asked for these words: a second
    copy in ``translations/`` could drift from the catalogue. Read at each lookup, so a
    language switch relabels the combos and rows.
    """

    def __init__(self, kind: str, key_field: str = "name") -> None:
        self._kind = kind
        self._key_field = key_field

    def _labels(self) -> dict[str, str]:
        # The core's one table (molforma.catalog.setting_labels), in the window's language.

        return catalog.setting_labels(self._kind, gui_app.current_language())

    def __getitem__(self, key: str) -> str:
        return self._labels()[key]

    def __iter__(self) -> typing.Iterator[str]:
        return iter(self._labels())

    def __len__(self) -> int:
        return len(self._labels())


TASK_LABELS = CatalogueLabels("tasks")
FUNCTIONAL_LABELS = CatalogueLabels("functionals")
THEORY_LABELS = CatalogueLabels("theories")
ADVANCED_LABELS = CatalogueLabels("advanced_keys", "key")
DEFAULT_TEXT = QT_TRANSLATE_NOOP("CalculationPanel", "(NWChem default)")
AUTOMATIC_TIP = QT_TRANSLATE_NOOP(
    "CalculationPanel",
    "Partly checked: automatic (MolForma chooses what is safe for this molecule and basis set).",
)

CUSTOM_SOLVENT = "__custom__"  # the solvent list's last item: a dielectric constant typed

SYNC_PREVIEW_ATOMS = 500  # above this the preview is rendered after a short pause
PREVIEW_DELAY_MS = 150

_FALLBACK_BASIS = [
    "sto-3g",
    "3-21g",
    "6-31g",
    "6-31g*",
    "6-31g**",
    "6-311g**",
    "cc-pvdz",
    "cc-pvtz",
    "aug-cc-pvdz",
    "def2-svp",
    "def2-tzvp",
]
_FALLBACK_FUNCTIONALS = ["b3lyp", "pbe0", "pbe96", "blyp", "m06-2x", "b3lyp-d3", "tpss"]


def catalog_names(kind: str, fallback: list[str]) -> list[str]:
    """Names from ``molforma.catalog.get_catalog(kind)``, or ``fallback`` if unavailable."""
    try:
        data: Any = catalog.get_catalog(kind)
    except Exception as exc:  # noqa: BLE001 - the catalogue is optional for the window
        log.debug("catalog %s unavailable: %s", kind, exc)
        return list(fallback)
    if isinstance(data, dict):
        data = data.get(kind, data.get("items", data.get("names", list(data.values()))))
    names: list[str] = []
    for item in data if isinstance(data, list) else []:
        if isinstance(item, str):
            names.append(item)
        elif isinstance(item, dict):
            name = item.get("name") or item.get("id") or item.get("key")
            if isinstance(name, str):
                names.append(name)
    return names or list(fallback)


def _field_kind(annotation: Any) -> tuple[str, tuple[Any, ...]]:
    """('literal', values) | ('bool', ()) | ('int', ()) | ('float', ()) | ('str', ())."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    origin = typing.get_origin(annotation)
    base = annotation
    if origin in (typing.Union, types.UnionType) and args:
        base = args[0]
    if typing.get_origin(base) is Literal:
        return "literal", typing.get_args(base)
    if base is bool:
        return "bool", ()
    if base is int:
        return "int", ()
    if base is float:
        return "float", ()
    return "str", ()


_C_INT = re.compile(r"[+-]?[0-9]+")
_C_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def parse_c_number(text: str, kind: str) -> int | float | None:
    """``text`` as an int or a finite float written in the C locale, else None.

    No thousands separators, no decimal comma, no "inf"/"nan": whatever is not read
    exactly is refused rather than guessed.
    """
    pattern = _C_INT if kind == "int" else _C_FLOAT
    if not pattern.fullmatch(text):
        return None
    if kind == "int":
        return int(text)
    value = float(text)
    return value if math.isfinite(value) else None


def _set_item_texts(combo: QComboBox, texts: Iterable[str]) -> None:
    """Label a combo's items in order (their data, what the document stores, stays)."""
    for i, text in enumerate(texts):
        combo.setItemText(i, text)


def _message_box_of(widget: QWidget) -> QWidget:
    """The form row of a field: the box :meth:`CalculationPanel._with_message` put it in."""
    box = widget.parentWidget()
    assert box is not None, "a form field outside its message box"
    return box


def _advanced_label(key: str) -> str:
    return ADVANCED_LABELS.get(key, key) + ":"


def _select_data(combo: QComboBox, value: Any) -> None:
    idx = combo.findData(value)
    if idx < 0 and value is not None:
        combo.addItem(str(value), value)
        idx = combo.count() - 1
    combo.setCurrentIndex(max(idx, 0))


def _set_combo_text(combo: QComboBox, text: str, key: str | None = None) -> None:
    """Show the document's value: its list item (by ``key``, the item data, else by text)
    as the current index, or no current item and the text as typed. An index left on an
    item while another value shows would make choosing that item change nothing."""
    idx = combo.findData(key) if key is not None else -1
    if idx < 0:
        idx = combo.findText(text, Qt.MatchFlag.MatchFixedString)
    if idx >= 0:
        if combo.currentIndex() != idx:
            combo.setCurrentIndex(idx)
        combo.setEditText(combo.itemText(idx))
    else:
        combo.setCurrentIndex(-1)
        combo.setEditText(text)


def _item_value(combo: QComboBox, index: int) -> str | None:
    """The value of list item ``index``: its data (a functional's table name) or its text;
    None for no item (the index is cleared while a typed value shows)."""
    if index < 0:
        return None
    data = combo.itemData(index)
    return str(data) if isinstance(data, str) else combo.itemText(index).strip()


def _typed_value(combo: QComboBox) -> str:
    """What the person typed: an item's label stands for the item, anything else as is."""
    text = combo.currentText().strip()
    idx = combo.findText(text, Qt.MatchFlag.MatchFixedString)
    return _item_value(combo, idx) or text if idx >= 0 else text


def _functional_name(value: str) -> str | None:
    """The table name ``value`` stands for (an alias, an equal xc line), or None."""
    try:
        entry = functionals.check(value)
    except MolFormaError:
        return None
    return str(entry["name"]) if entry is not None else None


def _setting_warnings(project: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(field, message) of the calculation warnings: an unknown basis with the nearest
    library names, a functional that needs a newer NWChem."""
    return [
        (w["field"], render(w["code"], w["details"]))
        for w in functionals.calculation_warnings(project.get("calculation") or {})
    ]


def _tristate_value(state: Qt.CheckState) -> bool | None:
    if state == Qt.CheckState.PartiallyChecked:
        return None
    return state == Qt.CheckState.Checked


def _show_value(widget: QWidget, value: Any) -> None:
    if isinstance(widget, QCheckBox) and widget.isTristate():
        widget.setCheckState(
            Qt.CheckState.PartiallyChecked
            if value is None
            else (Qt.CheckState.Checked if value else Qt.CheckState.Unchecked)
        )
    elif isinstance(widget, QCheckBox):
        widget.setChecked(bool(value))
    elif isinstance(widget, QComboBox):
        _select_data(widget, value)
    elif isinstance(widget, QLineEdit):
        text = "" if value is None else (repr(value) if isinstance(value, float) else str(value))
        if widget.text() != text:
            widget.setText(text)


def extra_of(project: Mapping[str, Any]) -> tuple[str, list[str]]:
    """The extra input text and the extra tasks the project holds."""
    calc = project.get("calculation", {})
    return str(calc.get("extra_input", "") or ""), list(calc.get("extra_tasks") or [])


class CalculationPanelHost(Protocol):
    """What the Calculation tab's parts (edits, preview) use of the tab: its widgets, its
    state and a few of its methods. A protocol rather than an import of
    :class:`~molforma.gui.widgets.calculation_panel.CalculationPanel`, which imports them."""

    ctx: Any
    _advanced: dict[str, QWidget]
    _loading: bool
    _local_errors: dict[str, str]
    _messages: dict[str, QLabel]
    _preview_stale: bool
    _preview_timer: QTimer
    # Widgets (CalculationPanel._build).
    advanced_group: QGroupBox
    advanced_toggle: QToolButton
    task_combo: QComboBox
    theory_combo: QComboBox
    reference_combo: QComboBox
    functional_combo: QComboBox
    basis_combo: QComboBox
    charge_spin: QSpinBox
    multiplicity_spin: QSpinBox
    dielectric_edit: QLineEdit
    excited_roots_spin: QSpinBox
    excited_spin_combo: QComboBox
    excited_method_combo: QComboBox
    irc_check: QCheckBox
    _form: QFormLayout
    extra_input_edit: QPlainTextEdit
    extra_tasks_edit: QPlainTextEdit
    general_message: QLabel
    input_preview: QPlainTextEdit
    solvent_combo: QComboBox

    def isVisible(self) -> bool: ...
    def bind_text(self, fn: Callable[[], Any]) -> None: ...
    def _validation_warnings(self) -> list[str]: ...

    def _warning_texts(self, checks: list[dict[str, Any]]) -> list[str]: ...
    def refresh(self, *_args: Any, keep_extra: bool = False) -> None: ...
