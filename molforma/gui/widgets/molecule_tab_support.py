"""What the Molecule tab's parts share: its constants, undo step names and small helpers
(Qt layer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QProgressBar,
    QPushButton,
    QToolButton,
)

from molforma.errors import MolFormaError
from molforma.file_formats import structure_patterns

if TYPE_CHECKING:
    from molforma.gui.context import AppContext
    from molforma.gui.view3d.base import MoleculeView
    from molforma.gui.widgets.constraint_editor import ConstraintEditor
    from molforma.gui.widgets.coordinate_table import CoordinateTable
    from molforma.gui.widgets.parts_palette import PartsPalette
    from molforma.gui.widgets.property_panel import PropertyPanel
    from molforma.gui.workers import CleanupProcess, Worker

TOOLS = ("select", "add", "bond", "erase", "move", "place")
HISTORY_BUTTON_WIDTH = 200  # pixels of text on the Undo / Redo buttons (the SMILES row)
LAYOUTS = ("view", "both", "table")
LABEL_MODES = ("none", "element_index", "charge", "name")
MENU_ELEMENTS = ("H", "C", "N", "O", "F", "P", "S", "Cl", "Br", "I")
MESSAGE_MS = 8000  # how long a message under the view stays (errors twice as long)
# Element keys of the Add-atom tool (Avogadro's Draw tool): a letter chooses that element
# at once (c → C, n → N, f → F); a second letter within this time that makes a symbol with
# the first chooses the two-letter element instead (c l → Cl, b r → Br, s i → Si).
ELEMENT_KEY_MS = 1000


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Mark ``text`` for translation in ``context`` without translating it now."""
    return text


# Undo step labels of the document operations, for "Undo Add atoms" in the person's language.
STEP_NAMES = (
    QT_TRANSLATE_NOOP("steps", "Add atoms"),
    QT_TRANSLATE_NOOP("steps", "Change element"),
    QT_TRANSLATE_NOOP("steps", "Delete atoms"),
    QT_TRANSLATE_NOOP("steps", "Move atoms"),
    QT_TRANSLATE_NOOP("steps", "Set atom properties"),
    QT_TRANSLATE_NOOP("steps", "Set bonds"),
    QT_TRANSLATE_NOOP("steps", "Set internal coordinate"),
    QT_TRANSLATE_NOOP("steps", "Add hydrogens"),
    QT_TRANSLATE_NOOP("steps", "Load structure"),
    QT_TRANSLATE_NOOP("steps", "Structure from SMILES"),
    QT_TRANSLATE_NOOP("steps", "Set molecule"),
    QT_TRANSLATE_NOOP("steps", "Load project"),
    QT_TRANSLATE_NOOP("steps", "Confirm"),
    QT_TRANSLATE_NOOP("steps", "Extract QM region"),
)


def step_name(label: str) -> str:
    """The translated name of an undo step (labels outside :data:`STEP_NAMES` as they are)."""
    return QCoreApplication.translate("steps", label) if label in STEP_NAMES else label


def history_texts(doc: Any) -> tuple[str, str]:
    """("Undo Add atoms", "Redo Set bonds") for the document's next steps, or plain
    "Undo" / "Redo" when there is none."""
    undo = QCoreApplication.translate("MoleculeTab", "Undo")
    redo = QCoreApplication.translate("MoleculeTab", "Redo")
    if doc is None:  # the plain words
        return undo, redo
    labels = doc.undo_labels
    redo_labels = doc.redo_labels
    if labels and doc.can_undo:
        undo = QCoreApplication.translate("MoleculeTab", "Undo %1").replace(
            "%1", step_name(labels[-1])
        )
    if redo_labels and doc.can_redo:
        redo = QCoreApplication.translate("MoleculeTab", "Redo %1").replace(
            "%1", step_name(redo_labels[-1])
        )
    return undo, redo


STRUCTURE_FILTER = structure_patterns()


def _label(button: QToolButton, text: str, tip: str) -> None:
    """Word a button; one showing a window action words the action (the button shows
    the action's icon text and tooltip; menus show its own title)."""
    act = button.defaultAction()
    if act is None:
        button.setText(text)
        button.setToolTip(tip)
        return
    act.setIconText(text)
    act.setToolTip(tip)


_Child = TypeVar("_Child", bound=QObject)


class MoleculeTabHost(Protocol):
    """What the tab's parts (:mod:`molecule_clicks`, :mod:`molecule_edits`, ...) use of the
    tab: its widgets, its state and a few of its methods. A protocol rather than an import
    of :class:`~molforma.gui.widgets.molecule_tab.MoleculeTab`, which imports the parts."""

    ctx: AppContext
    view: MoleculeView
    table: CoordinateTable
    properties: PropertyPanel
    constraint_editor: ConstraintEditor
    _palette: PartsPalette | None
    tool: str
    element: str
    context_menu: QMenu | None
    pinned_measurements: list[tuple[str, ...]]
    # The tool bar, the SMILES bar and the side column (molecule_build).
    tool_group: QButtonGroup
    tool_buttons: dict[str, QToolButton]
    element_button: QToolButton
    palette_toggle: QToolButton
    metal_label: QLabel
    metal_combo: QComboBox
    metal_button: QToolButton
    select_button: QToolButton
    select_menu: QMenu
    _select_actions: dict[str, QAction]
    select_element_menu: QMenu
    residue_selection: Any  # residue_selection.ResidueSelection
    labels_label: QLabel
    labels_combo: QComboBox
    undo_button: QToolButton
    redo_button: QToolButton
    layout_label: QLabel
    layout_combo: QComboBox
    smiles_label: QLabel
    smiles_input: QLineEdit
    smiles_button: QPushButton
    hydrogens_button: QPushButton
    adjust_hydrogens_check: QCheckBox
    cleanup_button: QPushButton
    worker_cancel: QPushButton
    progress: QProgressBar
    load_button: QToolButton
    candidate_label: QLabel
    confirm_button: QToolButton
    cancel_button: QToolButton
    measurement: QLabel
    geometry_label: QLabel
    geometry_input: QLineEdit
    geometry_button: QPushButton
    pin_button: QPushButton
    clear_pins_button: QPushButton
    measurement_list: QListWidget
    message: QLabel
    draw_hint: QLabel
    # Gestures, placement and workers in progress.
    _bond_first: str | None
    _placement_revision: str | None
    _placement_site: str | None
    _geometry_for: tuple[str, ...] | None
    _syncing: bool
    _typed: str
    _typed_at: float
    _smiles_from: str | None
    _worker: Worker | CleanupProcess | None
    _worker_kind: str
    _worker_for_mcp: bool
    _worker_ends: dict[object, tuple[str, MolFormaError | None]]
    _cleanup_step: tuple[int, int, float] | None

    @property
    def adjust_hydrogens(self) -> bool: ...
    @property
    def palette(self) -> PartsPalette: ...
    def show_message(
        self,
        text: str,
        *,
        error: bool = False,
        reason: MolFormaError | None = None,
        warning: bool = False,
    ) -> None: ...
    def refresh(self) -> None: ...
    def _update_state(self) -> None: ...
    def _run(self, fn: Callable[[], Any], done: str | None = None) -> bool: ...
    def atom_label(self, atom_id: str) -> str: ...
    def set_tool(self, name: str) -> None: ...
    def set_element(self, symbol: str) -> None: ...
    def toggle_palette(self, show: bool | None = None) -> None: ...
    def _palette_toggled(self, on: bool) -> None: ...
    def _apply_layout(self) -> None: ...
    def _fill_element_menu(self) -> None: ...
    def _apply_molecule(self, values: dict[str, Any]) -> str | None: ...
    def _on_step(self, done: int, maximum: int, energy: float) -> None: ...
    def _on_progress(self, percent: int, stage: str) -> None: ...
    def _worker_finished(self) -> None: ...
    # QObject's, for a child the tab does not keep as an attribute (the side column's scroll).
    def findChild(
        self, type: type[_Child], /, name: str = ..., options: Qt.FindChildOption = ...
    ) -> _Child | None: ...
