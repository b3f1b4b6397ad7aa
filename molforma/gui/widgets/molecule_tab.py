"""The "1 Molecule" tab: 3D view, editing tools, palette, properties, table (Qt layer).

Every change goes through :mod:`molforma.app` with the origin of who acts (the person,
or MCP while a window command runs):
direct tools (add, bond, erase, move, table and property edits) apply at once as
one undo step; fragment placement, SMILES and clean-up make a candidate that
Confirm / Cancel settle. A click of the Place tool confirms the placement
candidate this tab made just before, never a candidate made by MCP or anything else.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QPointF, Qt, QTimer, Slot
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from molforma.app import ops
from molforma.app.actor import window_actor
from molforma.document import building
from molforma.document.building import valence_problem_ids
from molforma.document.changes import Change
from molforma.document.model import atoms_of, bonds_of
from molforma.document.origin import acting_for_mcp, mcp_acting
from molforma.errors import MolFormaError
from molforma.file_formats import structure_patterns
from molforma.gui import dialogs, outcome
from molforma.gui.context import AppContext
from molforma.gui.view3d import create_view
from molforma.gui.widgets.coordinate_table import CoordinateTable
from molforma.gui.widgets.parts_palette import PartsPalette
from molforma.gui.widgets.property_panel import PropertyPanel
from molforma.gui.workers import CleanupProcess, Worker

if TYPE_CHECKING:
    from molforma.document.document import Origin

log = logging.getLogger(__name__)

TOOLS = ("select", "add", "bond", "erase", "move", "place")
HISTORY_BUTTON_WIDTH = 110  # pixels of text on the Undo / Redo buttons
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
)


def step_name(label: str) -> str:
    """The translated name of an undo step (labels outside :data:`STEP_NAMES` as they are)."""
    return QCoreApplication.translate("steps", label) if label in STEP_NAMES else label


def history_texts(doc: Any) -> tuple[str, str]:
    """("Undo Add atoms", "Redo Set bonds") for the document's next steps, or plain
    "Undo" / "Redo" when there is none."""
    undo = QCoreApplication.translate("MoleculeTab", "Undo")
    redo = QCoreApplication.translate("MoleculeTab", "Redo")
    labels = doc.undo_labels
    redo_labels = doc.redo_labels
    if labels and doc.can_undo:
        undo = QCoreApplication.translate("MoleculeTab", "Undo %1").replace(
            "%1", step_name(labels[-1]))
    if redo_labels and doc.can_redo:
        redo = QCoreApplication.translate("MoleculeTab", "Redo %1").replace(
            "%1", step_name(redo_labels[-1]))
    return undo, redo
STRUCTURE_FILTER = structure_patterns()


def _who() -> Origin:
    """The origin of the edit being made: ``"user"``, or ``"mcp"`` for a window command."""
    return window_actor().origin


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


class MoleculeTab(QWidget):
    """The Molecule tab (objectName ``moleculeTab``)."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("moleculeTab")
        self.tool = "select"
        self.element = "C"
        self._bond_first: str | None = None
        self._placement_revision: str | None = None
        self._worker: Worker | CleanupProcess | None = None
        self._cleanup_step: tuple[int, int, float] | None = None
        self.valence_problems: list[str] = []  # atoms ringed red in the view
        self.pinned_measurements: list[tuple[str, ...]] = []  # kept in the view and the list
        self.context_menu: QMenu | None = None
        # How each recent SMILES / clean-up worker ended ("done" | "unchanged" | "failed",
        # the error shown or None), keyed by the worker object (identity), which may be
        # deleted on the C++ side; see worker_end.
        self._worker_ends: dict[object, tuple[str, MolFormaError | None]] = {}
        self._message_timer = QTimer(self)
        self._message_timer.setSingleShot(True)
        self._message_timer.timeout.connect(self._clear_message)
        self._worker_kind = ""
        self._worker_for_mcp = False
        self._syncing = False
        self._placement_site: str | None = None
        self._smiles_from: str | None = None  # "water (SMILES O)" when a name was typed
        self._typed = ""  # element letters typed into the view (Add-atom tool)
        self._typed_at = 0.0

        root = QVBoxLayout(self)
        root.setContentsMargins(4, 4, 4, 4)
        # Tool bar
        bar = QHBoxLayout()
        self.tool_group = QButtonGroup(self)
        self.tool_group.setExclusive(True)
        self.tool_buttons: dict[str, QToolButton] = {}
        for name in TOOLS:
            b = QToolButton(self)
            b.setObjectName(f"tool_{name}")
            b.setCheckable(True)
            b.clicked.connect(lambda _c=False, n=name: self.set_tool(n))
            self.tool_group.addButton(b)
            self.tool_buttons[name] = b
            bar.addWidget(b)
        self.element_button = QToolButton(self)
        self.element_button.setObjectName("elementButton")
        self.element_button.clicked.connect(lambda: self.toggle_palette(True))
        bar.addWidget(self.element_button)
        self.palette_toggle = QToolButton(self)
        self.palette_toggle.setObjectName("paletteToggle")
        self.palette_toggle.setCheckable(True)
        self.palette_toggle.toggled.connect(self._palette_toggled)
        bar.addWidget(self.palette_toggle)
        self.metal_label = QLabel(self)
        self.metal_combo = QComboBox(self)
        self.metal_combo.setObjectName("placeMetalCombo")
        self.metal_button = QToolButton(self)
        self.metal_button.setObjectName("placeOnMetalButton")
        self.metal_button.clicked.connect(lambda: self.place_on_metal())
        for w in (self.metal_label, self.metal_combo, self.metal_button):
            bar.addWidget(w)
            w.setVisible(False)
        self.select_button = QToolButton(self)
        self.select_button.setObjectName("selectMenuButton")
        self.select_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.select_menu = QMenu(self.select_button)
        self.select_menu.setObjectName("selectMenu")
        self.select_button.setMenu(self.select_menu)
        self._select_actions: dict[str, QAction] = {}
        for key, fn in (("selectAllAtomsAction", self.select_all),
                        ("selectNoneAction", lambda: self.set_selection([])),
                        ("invertSelectionAction", self.invert_selection),
                        ("selectFragmentAction", lambda: self.select_fragment())):
            act = self.select_menu.addAction("")
            act.setObjectName(key)
            act.triggered.connect(lambda _c=False, f=fn: f())
            self._select_actions[key] = act
        self.select_element_menu = self.select_menu.addMenu("")
        self.select_element_menu.setObjectName("selectElementMenu")
        self.select_element_menu.aboutToShow.connect(self._fill_element_menu)
        bar.addWidget(self.select_button)
        self.labels_label = QLabel(self)
        bar.addWidget(self.labels_label)
        self.labels_combo = QComboBox(self)
        self.labels_combo.setObjectName("atomLabelsCombo")
        for key in LABEL_MODES:
            self.labels_combo.addItem(key, key)
        self.labels_combo.currentIndexChanged.connect(lambda _i: self._update_overlay())
        # The toolbar must fit a 1280-pixel screen: the combo need not be as wide as its
        # longest entry (the popup list still is).
        self.labels_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.labels_combo.setMinimumContentsLength(9)
        bar.addWidget(self.labels_combo)
        bar.addSpacing(12)
        # Undo, Redo, Confirm, Cancel and Load are the window's actions (use_actions).
        self.undo_button = QToolButton(self)
        self.undo_button.setObjectName("undoButton")
        self.redo_button = QToolButton(self)
        self.redo_button.setObjectName("redoButton")
        bar.addWidget(self.undo_button)
        bar.addWidget(self.redo_button)
        bar.addStretch(1)
        self.layout_label = QLabel(self)
        bar.addWidget(self.layout_label)
        self.layout_combo = QComboBox(self)
        self.layout_combo.setObjectName("moleculeLayout")
        for key in LAYOUTS:
            self.layout_combo.addItem(key, key)
        self.layout_combo.setCurrentIndex(LAYOUTS.index("both"))
        self.layout_combo.currentIndexChanged.connect(lambda _i: self._apply_layout())
        bar.addWidget(self.layout_combo)
        root.addLayout(bar)
        # SMILES, clean-up, load
        bar2 = QHBoxLayout()
        self.smiles_label = QLabel(self)
        bar2.addWidget(self.smiles_label)
        self.smiles_input = QLineEdit(self)
        self.smiles_input.setObjectName("smilesInput")
        self.smiles_input.returnPressed.connect(lambda: self.start_smiles())
        bar2.addWidget(self.smiles_input, 1)
        self.smiles_button = QPushButton(self)
        self.smiles_button.setObjectName("smilesButton")
        self.smiles_button.clicked.connect(lambda: self.start_smiles())
        bar2.addWidget(self.smiles_button)
        self.hydrogens_button = QPushButton(self)
        self.hydrogens_button.setObjectName("addHydrogensButton")
        self.hydrogens_button.clicked.connect(lambda: self.add_hydrogens())
        bar2.addWidget(self.hydrogens_button)
        self.adjust_hydrogens_check = QCheckBox(self)
        self.adjust_hydrogens_check.setObjectName("adjustHydrogensCheck")
        self.adjust_hydrogens_check.setChecked(True)  # as in Avogadro
        bar2.addWidget(self.adjust_hydrogens_check)
        self.cleanup_button = QPushButton(self)
        self.cleanup_button.setObjectName("cleanupButton")
        self.cleanup_button.clicked.connect(lambda: self.start_cleanup())
        bar2.addWidget(self.cleanup_button)
        self.worker_cancel = QPushButton(self)
        self.worker_cancel.setObjectName("cleanupCancelButton")
        self.worker_cancel.clicked.connect(lambda: self.cancel_worker())
        bar2.addWidget(self.worker_cancel)
        self.progress = QProgressBar(self)
        self.progress.setObjectName("cleanupProgress")
        self.progress.setRange(0, 100)
        self.progress.setMaximumWidth(120)
        bar2.addWidget(self.progress)
        self.load_button = QToolButton(self)
        self.load_button.setObjectName("loadStructureButton")
        bar2.addWidget(self.load_button)
        root.addLayout(bar2)
        # Body: palette | view + table | properties
        body = QSplitter(Qt.Orientation.Horizontal, self)
        body.setObjectName("moleculeSplitter")
        self._body = body
        # The palette starts hidden: its pane holds an empty page until the palette is built
        # (right after the first frame, see build_deferred, or when anything uses it).
        self._palette: PartsPalette | None = None
        pane = QWidget(body)
        pane.hide()
        body.addWidget(pane)
        self.centre = QSplitter(Qt.Orientation.Vertical, body)
        self.centre.setObjectName("viewTableSplitter")
        self.view = create_view(self.centre)
        self.view.atomClicked.connect(self._atom_clicked)
        self.view.boxSelected.connect(self._box_selected)
        self.view.contextRequested.connect(self._context_requested)
        self.view.band_select = True
        self.view.backgroundClicked.connect(self._background_clicked)
        self.view.atomsDragged.connect(self._atoms_dragged)
        self.view.drawDragged.connect(self._draw_dragged)
        self.view.bondClicked.connect(self._bond_clicked)
        self.view.pointerHovered.connect(self._pointer_hovered)
        self.view.key_handler = self._view_key
        self.view.wants_key = self._wants_key
        self.centre.addWidget(self.view)
        self.table = CoordinateTable(self._table_edit, self.centre)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._table_selection())
        self.centre.addWidget(self.table)
        self.centre.setSizes([500, 250])
        body.addWidget(self.centre)
        # The side column scrolls rather than sets the tab's minimum height: with the
        # geometry editor and the constraint controls it is taller than an 800-pixel screen.
        side_scroll = QScrollArea(body)
        side_scroll.setObjectName("moleculeSideScroll")
        side_scroll.setWidgetResizable(True)
        side_scroll.setFrameShape(QFrame.Shape.NoFrame)
        side = QWidget(side_scroll)
        side_lay = QVBoxLayout(side)
        side_lay.setContentsMargins(0, 0, 0, 0)
        self.candidate_label = QLabel(side)
        self.candidate_label.setObjectName("candidateStatus")
        self.candidate_label.setWordWrap(True)
        side_lay.addWidget(self.candidate_label)
        cand = QHBoxLayout()
        self.confirm_button = QToolButton(side)
        self.confirm_button.setObjectName("confirmButton")
        self.cancel_button = QToolButton(side)
        self.cancel_button.setObjectName("cancelButton")
        cand.addWidget(self.confirm_button)
        cand.addWidget(self.cancel_button)
        side_lay.addLayout(cand)
        self.measurement = QLabel(side)
        self.measurement.setObjectName("measurementLabel")
        self.measurement.setWordWrap(True)
        side_lay.addWidget(self.measurement)
        geo = QHBoxLayout()
        self.geometry_label = QLabel(side)
        self.geometry_label.setObjectName("geometryValueLabel")
        geo.addWidget(self.geometry_label)
        self.geometry_input = QLineEdit(side)
        self.geometry_input.setObjectName("geometryValueInput")
        self.geometry_input.returnPressed.connect(lambda: self.apply_geometry_value())
        geo.addWidget(self.geometry_input, 1)
        self.geometry_button = QPushButton(side)
        self.geometry_button.setObjectName("setGeometryButton")
        self.geometry_button.clicked.connect(lambda: self.apply_geometry_value())
        geo.addWidget(self.geometry_button)
        side_lay.addLayout(geo)
        pins = QHBoxLayout()
        self.pin_button = QPushButton(side)
        self.pin_button.setObjectName("keepMeasurementButton")
        self.pin_button.clicked.connect(lambda: self.keep_measurement())
        self.clear_pins_button = QPushButton(side)
        self.clear_pins_button.setObjectName("clearMeasurementsButton")
        self.clear_pins_button.clicked.connect(lambda: self.clear_measurements())
        pins.addWidget(self.pin_button)
        pins.addWidget(self.clear_pins_button)
        side_lay.addLayout(pins)
        from molforma.gui.widgets.constraint_editor import ConstraintEditor

        # Fix or scan the selected coordinate (calculation.constraints / calculation.scan).
        self.constraint_editor = ConstraintEditor(self, side)
        side_lay.addWidget(self.constraint_editor)
        self.measurement_list = QListWidget(side)
        self.measurement_list.setObjectName("measurementList")
        self.measurement_list.setMaximumHeight(90)
        self.measurement_list.itemDoubleClicked.connect(
            lambda item: self.set_selection(
                list(self.pinned_measurements[self.measurement_list.row(item)])))
        self._geometry_for: tuple[str, ...] | None = None
        side_lay.addWidget(self.measurement_list)
        self.properties = PropertyPanel(self._apply_atom_properties, self._apply_molecule, side)
        side_lay.addWidget(self.properties, 1)
        side_scroll.setWidget(side)
        body.addWidget(side_scroll)
        body.setStretchFactor(1, 1)
        body.setSizes([0, 800, 280])
        root.addWidget(body, 1)
        self.message = QLabel(self)
        self.message.setObjectName("moleculeMessage")
        self.message.setWordWrap(True)
        # Two lines, always: a message that wraps must not resize (and repaint) the view.
        self.message.setFixedHeight(self.message.fontMetrics().lineSpacing() * 2 + 4)
        bottom = QHBoxLayout()
        bottom.addWidget(self.message, 1)
        # What a click or drag of the Add-atom tool would do where the pointer is.
        self.draw_hint = QLabel(self)
        self.draw_hint.setObjectName("drawHint")
        self.draw_hint.setStyleSheet("color: #4a8a4a;")
        bottom.addWidget(self.draw_hint)
        root.addLayout(bottom)

        self.tool_buttons["select"].setChecked(True)
        ctx.events.documentChanged.connect(self._document_changed)
        ctx.events.languageChanged.connect(self.retranslate)
        self.retranslate()
        self._apply_layout()
        self.refresh()

    # -- texts -----------------------------------------------------------------------------
    def retranslate(self) -> None:
        """Re-read every text."""
        names = {"select": self.tr("Select"), "add": self.tr("Add atom"),
                 "bond": self.tr("Bond"), "erase": self.tr("Erase"), "move": self.tr("Move"),
                 "place": self.tr("Place fragment")}
        tips = {"select": self.tr("Click atoms to select them (Ctrl or Shift adds)"),
                "add": self.tr("Draw: click empty space to add an atom, an atom to attach one, "
                               "a hydrogen to turn it into the element, a bond to cycle its "
                               "order 1→2→3; drag from an atom to draw a bonded atom (from "
                               "empty space: two), onto another atom to bond them; middle "
                               "drag turns the view. Type an element in the view: C, N, O, "
                               "H, S, P, F, I, B; Cl = C then l, Br = B then r (within 1 s)"),
                "bond": self.tr("Click two atoms to add a bond or change its order; "
                                "Shift-click the second atom to remove the bond"),
                "erase": self.tr("Click an atom to delete it with its bonds"),
                "move": self.tr("Drag selected atoms to move them"),
                "place": self.tr("Click an atom to place the chosen fragment on its next free "
                                 "site; the next click confirms it (on the same atom it only "
                                 "confirms)")}
        for n, b in self.tool_buttons.items():
            b.setText(names[n])
            b.setToolTip(tips[n])
        self.metal_label.setText(self.tr("Place on:"))
        self.metal_combo.setToolTip(self.tr("The metal to place the chosen ligand on, also "
                                            "when its ligands hide it in the view"))
        self.metal_button.setText(self.tr("Place"))
        self.metal_button.setToolTip(self.tr("Place the chosen fragment or ligand on this metal"))
        tips["select"] = self.tr("Click atoms to select them (Ctrl or Shift adds); drag from "
                                 "empty space to select with a box; right-click for actions")
        self.tool_buttons["select"].setToolTip(tips["select"])
        self.element_button.setText(self.tr("Element: %1").replace("%1", self.element))
        self.element_button.setToolTip(self.tr("The element the Add atom tool places; click "
                                               "to choose it in the periodic table"))
        self.palette_toggle.setText(self.tr("Parts palette"))
        self.palette_toggle.setToolTip(self.tr("Show or hide the periodic table, fragments "
                                               "and ligands (F9)"))
        self.select_button.setText(self.tr("Selection"))
        self.select_button.setToolTip(self.tr("Select all, none, the inverse, whole "
                                              "fragments or every atom of an element"))
        texts = {"selectAllAtomsAction": self.tr("All atoms"),
                 "selectNoneAction": self.tr("None"),
                 "invertSelectionAction": self.tr("Invert selection"),
                 "selectFragmentAction": self.tr("Whole fragments of the selection")}
        for key, act in self._select_actions.items():
            act.setText(texts[key])
        self.select_element_menu.setTitle(self.tr("By element"))
        self.labels_label.setText(self.tr("Labels:"))
        for i, text in enumerate((self.tr("None"), self.tr("Element and number"),
                                  self.tr("Formal charge"), self.tr("Atom name"))):
            self.labels_combo.setItemText(i, text)
        self.labels_combo.setToolTip(self.tr("Text drawn beside every atom in the 3D view"))
        self.layout_label.setText(self.tr("Layout:"))
        self.layout_combo.setToolTip(self.tr("Show the 3D view, the coordinate table or both"))
        self.smiles_input.setToolTip(self.tr("A SMILES string, or a common name (water, DMSO, "
                                             "benzene, glycine, 水, ベンゼン …); Enter makes "
                                             "a 3D candidate with hydrogens"))
        self.draw_hint.setToolTip(self.tr("What a click or drag of the Add-atom tool does "
                                          "where the pointer is"))
        self.smiles_button.setToolTip(self.tr("Make 3D coordinates from the SMILES (a "
                                              "candidate to confirm or cancel)"))
        self.worker_cancel.setToolTip(self.tr("Stop the running SMILES or clean-up work; "
                                              "the molecule stays as it was"))
        self.progress.setToolTip(self.tr("Progress of the running work"))
        self.geometry_button.setText(self.tr("Set"))
        self.geometry_button.setToolTip(
            self.tr("Set the distance, angle or dihedral of the 2, 3 or 4 selected atoms, "
                    "moving the smaller fragment"))
        self.geometry_input.setToolTip(self.tr("The new value (Å or degrees, C locale: 1.25)"))
        self.pin_button.setText(self.tr("Keep measurement"))
        self.pin_button.setToolTip(self.tr("Keep the measurement of the selected atoms in "
                                           "the view and the list"))
        self.clear_pins_button.setText(self.tr("Clear measurements"))
        self.clear_pins_button.setToolTip(self.tr("Remove every kept measurement"))
        self.measurement_list.setToolTip(self.tr("Kept measurements; double-click one to "
                                                 "select its atoms"))
        for i, text in enumerate((self.tr("View"), self.tr("View and table"), self.tr("Table"))):
            self.layout_combo.setItemText(i, text)
        self.smiles_label.setText(self.tr("SMILES:"))
        self.smiles_input.setPlaceholderText(self.tr("e.g. CCO or ethanol, then Enter"))
        self.smiles_button.setText(self.tr("Make 3D"))
        self.cleanup_button.setText(self.tr("Clean up geometry"))
        self.cleanup_button.setToolTip(
            self.tr("Relax the structure with a force field (MMFF94, else UFF); fixed atoms "
                    "stay; the result is a candidate to confirm or cancel"))
        self.adjust_hydrogens_check.setText(self.tr("Adjust hydrogens"))
        self.adjust_hydrogens_check.setToolTip(
            self.tr("Adding, erasing or changing atoms and bond orders keeps every touched "
                    "atom filled with the hydrogens its valence leaves open"))
        self.hydrogens_button.setText(self.tr("Add hydrogens"))
        self.hydrogens_button.setToolTip(
            self.tr("Fill open valences of the selected atoms (all atoms when none is selected)"))
        self.worker_cancel.setText(self.tr("Stop"))
        _label(self.load_button, self.tr("Load structure file…"),
               self.tr("Replace the atoms and bonds from a structure file, keeping every "
                       "calculation setting"))
        _label(self.confirm_button, self.tr("Confirm"),
               self.tr("Accept the candidate as one undo step"))
        _label(self.cancel_button, self.tr("Cancel"),
               self.tr("Drop the candidate; nothing changes"))
        self.table.atom_model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 5)
        self.properties.retranslate()
        if self._palette is not None:
            self._palette.retranslate()
        self._update_state()

    def changeEvent(self, ev: QEvent) -> None:
        """Retranslate on a language change."""
        if ev.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(ev)

    def keyPressEvent(self, ev: Any) -> None:
        """Escape drops a half-made bond and the selection."""
        if ev.key() == Qt.Key.Key_Escape:
            self._bond_first = None
            self.set_selection([])
            self.show_message("")
            ev.accept()
            return
        super().keyPressEvent(ev)

    def show_message(self, text: str, *, error: bool = False, reason: MolFormaError | None = None,
                     warning: bool = False) -> None:
        """A line under the view: what happened, or why an edit was refused. It clears
        itself after a while (errors stay twice as long); progress of running work stays.

        A red line is a refusal, which a running window command carries as its outcome
        (``reason`` keeps the error's own code); ``warning`` marks a red line shown after
        a change that was made (an impossible valence), which is no refusal.
        """
        if error and not warning:
            outcome.refused(reason or text)
        self.message.setStyleSheet("color: #d03030;" if error else "")
        self.message.setText(text)
        if text:
            self._message_timer.start(MESSAGE_MS * (2 if error else 1))
        else:
            self._message_timer.stop()

    def _clear_message(self) -> None:
        if self._worker is not None:
            return  # the running work keeps its progress line
        self.message.setText("")
        self.message.setStyleSheet("")

    # -- state -----------------------------------------------------------------------------
    def _document_changed(self, change: Change) -> None:
        if not change & (Change.STRUCTURE | Change.CANDIDATE | Change.LOAD):
            # Settings, the molecule's charge, undo steps or editability only: the atoms
            # on screen are the same, and rebuilding thousands of them would stall the
            # window (a basis change, the start or end of a clean-up).
            doc = self.ctx.document
            self.table.atom_model.set_editable(doc.candidate is None and not doc.busy)
            self._update_state()
            return
        self.refresh()
        if change & (Change.ATOMS | Change.CANDIDATE | Change.LOAD):
            self._fill_metal_combo()

    def refresh(self) -> None:
        """Show the document (and its candidate) in the view, table and panels."""
        doc = self.ctx.document
        proj, cand = doc.project, doc.candidate
        shown = cand if cand is not None else proj
        self.valence_problems = valence_problem_ids(shown)
        self.view.set_molecule(
            atoms_of(proj), bonds_of(proj),
            candidate_atoms=atoms_of(cand) if cand is not None else None,
            candidate_bonds=bonds_of(cand) if cand is not None else None,
            flagged=self.valence_problems)
        self._syncing = True
        try:
            self.table.atom_model.set_atoms(atoms_of(shown), editable=cand is None and not doc.busy)
            self._select_rows(self.view.selection())
        finally:
            self._syncing = False
        if self._bond_first is not None and self.view.scene.index_of(self._bond_first) is None:
            self._bond_first = None
        self._update_state()

    def _update_state(self) -> None:
        doc = self.ctx.document
        busy = bool(doc.busy) or self._worker is not None
        cand = doc.candidate
        # Undo, Redo, Confirm, Cancel and Load are enabled by their actions (the window's
        # update_actions); the tab only words the buttons.
        undo_text, redo_text = history_texts(doc)
        # Step names can be long ("Undo Open 2-methylpropan-1-ol.mol2"): the buttons show
        # them shortened so the toolbar keeps its width, the tooltips in full.
        for button, text, keys in ((self.undo_button, undo_text, " (Ctrl+Z)"),
                                   (self.redo_button, redo_text, " (Ctrl+Y, Ctrl+Shift+Z)")):
            _label(button, button.fontMetrics().elidedText(
                text, Qt.TextElideMode.ElideRight, HISTORY_BUTTON_WIDTH), text + keys)
        self.smiles_button.setEnabled(not busy and cand is None)
        self.cleanup_button.setEnabled(not busy and cand is None and bool(atoms_of(doc.project)))
        self.hydrogens_button.setEnabled(not busy and cand is None and bool(atoms_of(doc.project)))
        self.worker_cancel.setEnabled(busy)
        self.progress.setVisible(busy)
        if cand is not None:
            who = self.tr("made by MCP") if doc.candidate_origin == "mcp" else self.tr("yours")
            self.candidate_label.setText(
                self.tr("Candidate (%1): confirm or cancel it. Other edits wait until then.")
                .replace("%1", who))
        elif busy:
            self.candidate_label.setText(self.tr("Working… edits are refused until it ends."))
        else:
            self.candidate_label.setText(self.tr("No candidate."))
        sel = set(self.view.selection())
        shown = cand if cand is not None else doc.project
        atoms = [a for a in atoms_of(shown) if a["id"] in sel]
        self.measurement.setText(self._measurement_text(shown))
        self._update_geometry_editor(shown, editable=cand is None and not busy)
        self._update_overlay()
        self.properties.show_atoms(atoms, shown["document"], editable=cand is None and not busy)

    def _measurement_text(self, shown: dict[str, Any]) -> str:
        """Distance, angle or dihedral of 2, 3 or 4 selected atoms, in selection order."""
        from molforma.document import geometry

        ids = self.view.selection()
        if not 2 <= len(ids) <= 4:
            return ""
        index = {a["id"]: a for a in atoms_of(shown)}
        if any(i not in index for i in ids):
            return ""
        p = [np.array([index[i]["x"], index[i]["y"], index[i]["z"]], float) for i in ids]
        names = self.measure_name(ids)
        if len(p) == 2:
            return self.tr("Distance %1: %2 Å").replace("%1", names).replace(
                "%2", f"{float(np.linalg.norm(p[0] - p[1])):.4f}")
        if len(p) == 3:
            value = geometry.angle(*p)
            return self.tr("Angle %1: %2°").replace("%1", names).replace("%2", f"{value:.2f}")
        value = geometry.dihedral(*p)
        return self.tr("Dihedral %1: %2°").replace("%1", names).replace("%2", f"{value:.2f}")

    # -- measurements and the geometry editor ---------------------------------------------
    def measure_name(self, ids: Sequence[str]) -> str:
        """``C1–O2–H3``: element labels of atoms joined by dashes."""
        labels = self._labels_by_id()
        return "–".join(labels.get(i, i) for i in ids)

    def _labels_by_id(self) -> dict[str, str]:
        doc = self.ctx.document
        shown = doc.candidate if doc.candidate is not None else doc.project
        return {a["id"]: f"{a['element']}{i + 1}" for i, a in enumerate(atoms_of(shown))}

    def _update_geometry_editor(self, shown: dict[str, Any], *, editable: bool) -> None:
        from molforma.gui.view3d.overlay import measurement_value

        ids = self.view.selection()
        index = {a["id"]: a for a in atoms_of(shown)}
        ok = 2 <= len(ids) <= 4 and all(i in index for i in ids)
        kind = {2: self.tr("Distance (Å):"), 3: self.tr("Angle (°):"),
                4: self.tr("Dihedral (°):")}.get(len(ids), self.tr("Select 2–4 atoms"))
        self.geometry_label.setText(kind)
        self.geometry_input.setEnabled(ok and editable)
        self.geometry_button.setEnabled(ok and editable)
        self.pin_button.setEnabled(ok)
        self.clear_pins_button.setEnabled(bool(self.pinned_measurements))
        key = tuple(ids)
        if ok and getattr(self, "_geometry_for", None) != key:
            # A new selection: offer its current value to edit.
            pos = [np.array([index[i]["x"], index[i]["y"], index[i]["z"]], float) for i in ids]
            self.geometry_input.setText(measurement_value(pos).split(" ")[0].rstrip("°"))
        elif not ok:
            self.geometry_input.clear()
        self._geometry_for = key if ok else None
        if hasattr(self, "constraint_editor"):
            self.constraint_editor.update_for(shown, editable=editable)

    def apply_geometry_value(self, value: str | None = None) -> bool:
        """Set the distance (2 selected atoms), angle (3) or dihedral (4) to the typed value,
        moving the smaller fragment (``set_internal_coordinate``), one undo step."""
        from molforma.gui.widgets.calculation_panel import parse_c_number

        text = (self.geometry_input.text() if value is None else value).strip()
        ids = self.view.selection()
        if not 2 <= len(ids) <= 4:
            self.show_message(self.tr("Select 2, 3 or 4 atoms first."), error=True)
            return False
        number = parse_c_number(text, "float")
        if number is None:
            self.show_message(self.tr("'%1' is not a number (write it as 1.25).")
                              .replace("%1", text), error=True)
            return False
        ok = self._run(lambda: ops.set_internal_coordinate(
            self.ctx.document, ids, float(number), preview=False, origin=_who()),
            self.tr("%1 set to %2").replace("%1", self.measure_name(ids)).replace("%2", text))
        self._geometry_for = None  # show the value reached
        self._update_state()
        return ok

    def keep_measurement(self, ids: Sequence[str] | None = None) -> bool:
        """Keep the measurement of ``ids`` (default: the selection) in the view and the list."""
        ids = tuple(self.view.selection() if ids is None else ids)
        if not 2 <= len(ids) <= 4:
            self.show_message(self.tr("Select 2, 3 or 4 atoms first."), error=True)
            return False
        if ids not in self.pinned_measurements:
            self.pinned_measurements.append(ids)
        self._update_state()
        return True

    def clear_measurements(self) -> None:
        """Forget every kept measurement."""
        self.pinned_measurements = []
        self._update_state()

    def measurement_rows(self) -> list[str]:
        """The kept measurements as listed: ``C1–O2: 1.430 Å``."""
        from molforma.gui.view3d.overlay import measurement_value

        doc = self.ctx.document
        shown = doc.candidate if doc.candidate is not None else doc.project
        index = {a["id"]: a for a in atoms_of(shown)}
        rows = []
        for ids in self.pinned_measurements:
            pos = [np.array([index[i]["x"], index[i]["y"], index[i]["z"]], float) for i in ids]
            rows.append(f"{self.measure_name(ids)}: {measurement_value(pos)}")
        return rows

    def _update_overlay(self) -> None:
        shown_ids = set(self.view.scene.ids)
        self.pinned_measurements = [m for m in self.pinned_measurements
                                    if all(i in shown_ids for i in m)]
        sel = tuple(self.view.selection())
        lines = list(self.pinned_measurements)
        if 2 <= len(sel) <= 4 and sel not in lines:
            lines.append(sel)
        self.view.set_measurements(lines)
        rows = self.measurement_rows()
        if [self.measurement_list.item(i).text()
                for i in range(self.measurement_list.count())] != rows:
            self.measurement_list.clear()
            self.measurement_list.addItems(rows)
        self.view.set_labels(self.atom_labels(str(self.labels_combo.currentData())))

    def atom_labels(self, mode: str) -> dict[str, str]:
        """Texts beside atoms: ``element_index`` (C1), ``charge`` (non-zero formal charges),
        ``name`` (atom names), ``none``."""
        if mode == "none":
            return {}
        doc = self.ctx.document
        shown = doc.candidate if doc.candidate is not None else doc.project
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
        self.labels_combo.setCurrentIndex(LABEL_MODES.index(mode))

    # -- tools -----------------------------------------------------------------------------
    @property
    def adjust_hydrogens(self) -> bool:
        """The "Adjust hydrogens" option (``adjustHydrogensCheck``)."""
        return self.adjust_hydrogens_check.isChecked()

    def set_tool(self, name: str) -> None:
        """Choose the editing tool (``select``, ``add``, ``bond``, ``erase``, ``move``, ``place``)."""
        if name not in TOOLS:
            raise ValueError(name)
        self.tool = name
        self.tool_buttons[name].setChecked(True)
        self.view.move_mode = name == "move"
        self.view.band_select = name == "select"
        self.view.draw_mode = name == "add"
        self.view.forget_hover()
        self.draw_hint.setText("")
        self._bond_first = None
        if name == "place":
            self.palette.load_catalog()
        self._fill_metal_combo()

    @property
    def palette(self) -> PartsPalette:
        """The parts palette (periodic table, fragments, ligands), built on first use."""
        if self._palette is None:
            palette = PartsPalette()
            palette.hide()
            palette.table.set_element(self.element)
            palette.elementChosen.connect(self.set_element)
            palette.partChosen.connect(lambda _k, _n: self.set_tool("place"))
            pane = self._body.replaceWidget(0, palette)  # hidden, as the pane it replaces
            if pane is not None:
                pane.deleteLater()
            self._palette = palette
        return self._palette

    def build_deferred(self) -> None:
        """Build what the first frame does not show (the parts palette)."""
        _ = self.palette

    def set_element(self, symbol: str) -> None:
        """The element the Add tool places."""
        self.element = symbol
        if self._palette is not None:
            self._palette.table.set_element(symbol)
        self.element_button.setText(self.tr("Element: %1").replace("%1", symbol))
        if self.tool not in ("add",):
            self.set_tool("add")
        self._refresh_hint()

    def _refresh_hint(self) -> None:
        """Say again what a click would do where the pointer is (the element changed)."""
        state = self.view.hover_state()
        if state is not None:
            self._pointer_hovered(*state)

    def toggle_palette(self, show: bool | None = None) -> None:
        """Show or hide the parts palette."""
        want = (not self.palette.isVisible()) if show is None else show
        self.palette_toggle.setChecked(want)

    def _palette_toggled(self, on: bool) -> None:
        self.palette.setVisible(on)
        if on:
            self.palette.load_catalog()
            # A splitter pane hidden at start comes back 0 px wide: give it room from the view.
            body = self.palette.parentWidget()
            if isinstance(body, QSplitter):
                sizes = body.sizes()
                total = sum(sizes)
                want = self.palette.sizeHint().width()
                if total > 0 and sizes[0] < want // 2:
                    centre = max(total - want - sum(sizes[2:]), 0)
                    body.setSizes([want, centre, *sizes[2:]])

    def _apply_layout(self) -> None:
        key = self.layout_combo.currentData()
        self.view.setVisible(key in ("view", "both"))
        self.table.setVisible(key in ("table", "both"))

    def set_layout_mode(self, key: str) -> None:
        """``view``, ``both`` or ``table``."""
        self.layout_combo.setCurrentIndex(LAYOUTS.index(key))

    # -- running edits ---------------------------------------------------------------------
    def _run(self, fn: Callable[[], Any], done: str | None = None) -> bool:
        try:
            fn()
        except MolFormaError as exc:
            self.show_message(exc.message(), error=True, reason=exc)
            self.refresh()  # the table may show a value the document refused
            return False
        if not done and self.valence_problems:
            labels = ", ".join(self.atom_label(i) for i in self.valence_problems[:8])
            self.show_message(self.tr("Impossible valence (ringed red): %1").replace("%1", labels),
                              error=True, warning=True)
            return True
        self.show_message(done or "")
        return True

    def atom_label(self, atom_id: str) -> str:
        """``C1``, ``O2``: element and 1-based position in the atom list (the table row)."""
        doc = self.ctx.document
        shown = doc.candidate if doc.candidate is not None else doc.project
        for i, a in enumerate(atoms_of(shown)):
            if a["id"] == atom_id:
                return f"{a['element']}{i + 1}"
        return atom_id

    def run_edit(self, fn: Callable[[], Any]) -> bool:
        """Run an edit of the window's actions (Undo, Confirm, ...) like the tab's own:
        a refusal is shown under the view, an impossible valence is named."""
        return self._run(fn)

    def use_actions(self, actions: Mapping[str, QAction]) -> None:
        """Make the Undo, Redo, Confirm, Cancel and Load buttons the window's actions, so
        a click, the menu, the shortcut and ``ui_activate`` run one command."""
        for button, key in ((self.undo_button, "molforma.edit.undo"),
                            (self.redo_button, "molforma.edit.redo"),
                            (self.confirm_button, "molforma.edit.confirm"),
                            (self.cancel_button, "molforma.edit.cancel"),
                            (self.load_button, "molforma.file.load_structure")):
            button.setDefaultAction(actions[key])
        self.retranslate()

    # -- view clicks -----------------------------------------------------------------------
    def _atom_clicked(self, atom_id: str, modifiers: Any) -> None:
        tool = self.tool
        if tool in ("select", "move"):
            extend = bool(modifiers & (Qt.KeyboardModifier.ControlModifier
                                       | Qt.KeyboardModifier.ShiftModifier))
            sel = self.view.selection()
            if extend:
                sel = [s for s in sel if s != atom_id] if atom_id in sel else [*sel, atom_id]
            else:
                sel = [atom_id]
            self.set_selection(sel)
        elif tool == "add":
            if self._element_of(atom_id) == "H":
                self.change_hydrogen(atom_id)
            else:
                self.add_atom_bonded_to(atom_id)
        elif tool == "bond":
            self._bond_click(atom_id, remove=bool(modifiers & Qt.KeyboardModifier.ShiftModifier))
        elif tool == "erase":
            self.erase_atoms([atom_id])
        elif tool == "place":
            self.place_on(atom_id)

    def _background_clicked(self, pos: QPointF) -> None:
        if self.tool == "add":
            x, y, z = self.view.model_point_at(pos)
            self.add_atom_at((x, y, z))
        elif self.tool in ("select", "move"):
            self.set_selection([])
        elif self.tool == "bond":
            self._bond_first = None
            self.set_selection([])

    def _atoms_dragged(self, ids: list[str], delta: tuple[float, float, float]) -> None:
        self._run(lambda: ops.move_atoms(self.ctx.document, ids=ids, translate=list(delta),
                                         preview=False, origin=_who()))
        self.refresh()

    # -- the Add-atom tool's gestures (Avogadro's Draw tool) --------------------------------
    def _element_of(self, atom_id: str) -> str | None:
        """The element of a confirmed atom (None for an atom of a candidate or unknown)."""
        for a in atoms_of(self.ctx.document.project):
            if a["id"] == atom_id:
                return str(a["element"])
        return None

    def change_hydrogen(self, atom_id: str, element: str | None = None) -> bool:
        """Turn hydrogen ``atom_id`` into the chosen element, as Avogadro does (methane's H
        clicked with carbon gives ethane): it moves to the new bond length and, with
        "Adjust hydrogens" on, gets its own hydrogens; one undo step "Change element"."""
        el = element or self.element
        if el == "H":
            self.show_message(self.tr("This atom is already H: choose another element to "
                                      "change it."), error=True)
            return False
        adjust = self.adjust_hydrogens
        self.view.forget_hover()
        return self._run(lambda: ops.change_element(self.ctx.document, atom_id, el,
                                                    adjust_hydrogens=adjust, preview=False,
                                                    origin=_who()))

    def _screen_direction(self, start: QPointF, end: QPointF) -> list[float]:
        """The model direction of a drag on screen (in the plane of the screen)."""
        d = self.view.camera.screen_delta_to_model(end.x() - start.x(), end.y() - start.y())
        return [float(v) for v in d]

    def _draw_dragged(self, start: str, end: str, p0: QPointF, p1: QPointF) -> None:
        if self.tool != "add":
            return
        if start and end and start != end:
            self.bond_by_drag(start, end)
        elif start:
            origin = self.view.atom_screen_pos(start) or p0
            self.draw_from(start, self._screen_direction(origin, p1))
        elif end:
            # From empty space onto an atom: a new atom bonded to it, on the side drawn from.
            origin = self.view.atom_screen_pos(end) or p1
            self.draw_from(end, self._screen_direction(origin, p0))
        else:
            self.draw_two_atoms(self.view.model_point_at(p0), self._screen_direction(p0, p1))

    def draw_from(self, atom_id: str, toward: Sequence[float]) -> bool:
        """A drag from ``atom_id``: a bonded atom of the chosen element in direction
        ``toward`` at its typical bond length (a hydrogen dragged from becomes the element
        first); one undo step "Add atoms"."""
        el = self.element
        if el == "H" and self._element_of(atom_id) == "H":
            self.show_message(self.tr("This atom is already H: choose another element to "
                                      "change it."), error=True)
            return False
        adjust = self.adjust_hydrogens
        self.view.forget_hover()
        return self._run(lambda: ops.draw_from_atom(
            self.ctx.document, atom_id, el, list(toward), adjust_hydrogens=adjust,
            preview=False, origin=_who()))

    def draw_two_atoms(self, xyz: Sequence[float], toward: Sequence[float]) -> bool:
        """A drag from empty space: two bonded atoms of the chosen element, the first at
        ``xyz``, the second along ``toward`` at their bond length; one undo step."""
        from molforma.document.chemistry import bond_length

        el = self.element
        d = np.asarray(toward, float)
        norm = float(np.linalg.norm(d))
        d = d / norm if norm > 1e-9 else np.array([1.0, 0.0, 0.0])
        first = np.asarray(xyz, float)
        second = first + d * bond_length(el, el, 1)
        adjust = self.adjust_hydrogens
        self.view.hold_camera_once()
        self.view.forget_hover()
        return self._run(lambda: ops.add_atoms(
            self.ctx.document, [{"element": el, "position": first.tolist()},
                                {"element": el, "position": second.tolist()}],
            [{"a": "#0", "b": "#1", "order": 1}], preview=False, origin=_who(),
            adjust_hydrogens=adjust))

    def bond_by_drag(self, a: str, b: str) -> bool:
        """A drag from atom ``a`` released on atom ``b``: a single bond between them
        (hydrogens follow when "Adjust hydrogens" is on)."""
        if any({x["a"], x["b"]} == {a, b} for x in bonds_of(self.ctx.document.project)):
            self.show_message(self.tr("%1 and %2 are bonded already: click the bond to "
                                      "change its order.").replace("%1", self.atom_label(a))
                              .replace("%2", self.atom_label(b)), error=True)
            return False
        return self.set_bond_order(a, b, 1)

    def _bond_clicked(self, a: str, b: str, _modifiers: Any) -> None:
        if self.tool == "add":
            self.cycle_bond_order(a, b)

    def cycle_bond_order(self, a: str, b: str) -> bool:
        """The Add-atom tool clicked on bond a–b: its order goes 1 → 2 → 3 → 1, the
        hydrogens following when "Adjust hydrogens" is on (as the Bond tool does)."""
        order = self._bond_order(a, b)
        if order is None:
            return False
        new = order % 3 + 1
        self.view.forget_hover()
        return self._run(lambda: ops.set_bonds(
            self.ctx.document, [{"a": a, "b": b, "order": new}], preview=False,
            origin=_who(), adjust_hydrogens=self.adjust_hydrogens),
            self.tr("Bond %1 is now of order %2.").replace("%1", self.measure_name([a, b]))
            .replace("%2", str(new)))

    def _bond_order(self, a: str, b: str) -> int | None:
        return next((int(x.get("order", 1)) for x in bonds_of(self.ctx.document.project)
                     if {x["a"], x["b"]} == {a, b}), None)

    def click_hint(self, atom_id: str, bond: tuple[str, str] | None) -> str:
        """What the Add-atom tool does where the pointer is: "Click: change H to C",
        "Click: bond order 2", "Drag: draw a bonded C" (empty outside the tool)."""
        if self.tool != "add":
            return ""
        el = self.element
        if atom_id:
            own = self._element_of(atom_id)
            if own is None:
                return ""
            drag = self.tr("Drag: draw a bonded %1").replace("%1", el)
            if own == "H" and el != "H":
                click = self.tr("Click: change H to %1").replace("%1", el)
            elif own == "H":
                return ""  # a hydrogen stays one hydrogen
            else:
                click = self.tr("Click: attach a %1").replace("%1", el)
            return f"{click} · {drag}"
        if bond is not None:
            order = self._bond_order(*bond)
            if order is None:
                return ""
            return self.tr("Click: bond order %1").replace("%1", str(order % 3 + 1))
        return (self.tr("Click: add a %1").replace("%1", el) + " · "
                + self.tr("Drag: draw two bonded %1").replace("%1", el))

    def _pointer_hovered(self, atom_id: str, bond: object) -> None:
        pair = bond if isinstance(bond, tuple) else None
        hint = self.click_hint(atom_id, pair)
        self.draw_hint.setText(hint)
        if hint:
            # Beside the pointer too, with what the view's tooltip says of the atom.
            tip = self.view.canvas.toolTip()
            base = tip.split("\n")[0] if atom_id and tip else ""
            self.view.canvas.setToolTip(f"{base}\n{hint}" if base else hint)

    def _is_element_key(self, ev: Any) -> bool:
        mods = ev.modifiers() & ~(Qt.KeyboardModifier.ShiftModifier
                                  | Qt.KeyboardModifier.KeypadModifier)
        text = ev.text()
        return (self.tool == "add" and mods == Qt.KeyboardModifier.NoModifier
                and len(text) == 1 and text.isascii() and text.isalpha())

    def _wants_key(self, ev: Any) -> bool:
        """The Add-atom tool claims plain letters typed into the view (F is fluorine
        there, not Fit to View), so that they choose elements."""
        return self._is_element_key(ev) and self._element_for(ev.text()) is not None

    def _view_key(self, ev: Any) -> bool:
        if not self._is_element_key(ev):
            return False
        return self.type_element_key(ev.text())

    def _element_for(self, letter: str) -> str | None:
        """The element a letter typed now chooses (with the letter typed before it)."""
        import time

        from molforma.document.elements import normalize_symbol

        recent = (time.monotonic() - self._typed_at) * 1000 < ELEMENT_KEY_MS
        if recent and len(self._typed) == 1:
            two = normalize_symbol(self._typed.upper() + letter.lower())
            if two and len(two) == 2:
                return two
        one = normalize_symbol(letter.upper())
        return one if one and len(one) == 1 else None

    def type_element_key(self, letter: str) -> bool:
        """A letter typed into the view with the Add-atom tool: choose the element it
        names (see :data:`ELEMENT_KEY_MS`); False when no element starts with it."""
        import time

        el = self._element_for(letter)
        if el is None:
            self._typed = ""
            return False
        self._typed = letter if len(el) == 1 else ""
        self._typed_at = time.monotonic()
        self.set_element(el)
        self.show_message(self.tr("Element: %1").replace("%1", el))
        self.view.forget_hover()
        return True

    # -- tool actions (also callable from code and tests) ----------------------------------
    def add_atom_at(self, xyz: tuple[float, float, float]) -> bool:
        """Add one atom of the chosen element at ``xyz`` (one undo step)."""
        el = self.element
        adjust = self.adjust_hydrogens
        self.view.hold_camera_once()
        return self._run(lambda: ops.add_atoms(
            self.ctx.document, [{"element": el, "position": list(xyz)}], preview=False,
            origin=_who(), adjust_hydrogens=adjust))

    def add_atom_bonded_to(self, atom_id: str, element: str | None = None) -> bool:
        """Add an atom of the chosen element bonded to ``atom_id`` where the parent's
        hybridisation puts its next bond (one undo step, "Add atoms"); with "Adjust
        hydrogens" on it takes the place of one of the parent's hydrogens and both atoms
        get the hydrogens their valences leave open."""
        from molforma.app.building import add_bonded_atom

        el = element or self.element
        # A lone parent: to the right on screen, where the person is likely to look.
        hint = (self.view.camera.rot.T @ np.array([1.0, 0.0, 0.0])).tolist()
        adjust = self.adjust_hydrogens
        added: list[Any] = []
        ok = self._run(lambda: added.append(add_bonded_atom(
            self.ctx.document, atom_id, el, actor=window_actor(), adjust_hydrogens=adjust,
            hint=hint)))
        return ok and added[0] is not None

    def _bond_click(self, atom_id: str, *, remove: bool = False) -> None:
        if self._bond_first is None or self._bond_first == atom_id:
            self._bond_first = atom_id
            self.set_selection([atom_id])
            self.show_message(self.tr("Now click the second atom (Shift-click removes the bond)."))
            return
        first, self._bond_first = self._bond_first, None
        self.set_selection([])
        self.bond_atoms(first, atom_id, remove=remove)

    def bond_atoms(self, a: str, b: str, *, remove: bool = False) -> bool:
        """Add a single bond, raise the order of an existing one (3 wraps to 1), or remove it."""
        proj = self.ctx.document.project
        order = 1
        for bond in bonds_of(proj):
            if {bond["a"], bond["b"]} == {a, b}:
                order = int(bond.get("order", 1)) % 3 + 1
        if remove:
            order = 0
        return self.set_bond_order(a, b, order)

    def set_bond_order(self, a: str, b: str, order: int) -> bool:
        """Set the bond a–b to ``order`` (0 removes it), adjusting hydrogens when asked."""
        adjust = self.adjust_hydrogens
        return self._run(lambda: ops.set_bonds(self.ctx.document,
                                               [{"a": a, "b": b, "order": order}],
                                               preview=False, origin=_who(),
                                               adjust_hydrogens=adjust))

    def place_on(self, site: str) -> bool:
        """Place the chosen fragment/ligand on ``site``; confirm this tab's previous placement."""
        part = self.palette.current_part()
        if part is None:
            self.toggle_palette(True)
            self.show_message(self.tr("Choose a fragment or ligand in the parts palette first."),
                              error=True)
            return False
        kind, name = part
        doc = self.ctx.document
        from molforma.app.building import Placed, confirm_placement, place_fragment
        from molforma.errors import CandidateExistsError

        if site == self._placement_site and self._placement_revision is not None \
                and doc.candidate is not None:
            # The same atom again: the placement shown is the one wanted (the tooltip's
            # promise); confirm it and place no second copy.
            previous, self._placement_revision = self._placement_revision, None
            self._placement_site = None
            return self._run(lambda: confirm_placement(doc, actor=window_actor(),
                                                       previous=previous),
                             self.tr("Placement confirmed."))

        placed: list[Placed | None] = []
        refused: list[bool] = []

        def place() -> None:
            try:
                placed.append(place_fragment(doc, name, site, kind=kind, actor=window_actor(),
                                             previous=self._placement_revision))
            except CandidateExistsError:
                refused.append(True)

        ok = self._run(place)
        if refused:
            self.show_message(self.tr("Confirm or cancel the current candidate first."),
                              error=True)
            return False
        done = placed[0] if ok and placed else None
        self._placement_revision = done.revision if done is not None else None
        self._placement_site = site if done is not None else None
        if done is None:
            return False
        if doc.candidate is not None:
            self._warn_placement(done.before, doc.candidate, site, kind, name)
        return True

    def _warn_placement(self, before: dict[str, Any], after: dict[str, Any], site: str,
                        kind: str, name: str) -> None:
        """Say when a placement looks wrong; the candidate stays for the person to judge."""
        problems = building.placement_problems(before, after, site, kind)
        if "not_a_metal" in problems:
            self.show_message(self.tr(
                "%1 is not a metal: ligand %2 normally binds to a metal. Cancel the candidate "
                "and click the metal, or choose it under \"Place on\".")
                .replace("%1", self.atom_label(site)).replace("%2", name), error=True)
        elif "valence" in problems:
            self.show_message(self.tr(
                "Placing %1 gives %2 an impossible valence (ringed red). Cancel the candidate "
                "to undo it.").replace("%1", name).replace(
                    "%2", ", ".join(self.atom_label(i) for i in problems["valence"])),
                error=True)

    def place_on_metal(self) -> bool:
        """Place the chosen part on the metal picked in ``placeMetalCombo`` (a metal hidden
        behind its ligands cannot be clicked)."""
        site = self.metal_combo.currentData()
        return bool(site) and self.place_on(str(site))

    def _fill_metal_combo(self) -> None:
        shown = self.ctx.document.project
        metals = building.metal_ids(shown)
        labels = self._labels_by_id()
        keep = self.metal_combo.currentData()
        self.metal_combo.blockSignals(True)
        self.metal_combo.clear()
        for aid in metals:
            self.metal_combo.addItem(labels.get(aid, aid), aid)
        if keep in metals:
            self.metal_combo.setCurrentIndex(metals.index(keep))
        self.metal_combo.blockSignals(False)
        show = self.tool == "place" and bool(metals)
        for w in (self.metal_label, self.metal_combo, self.metal_button):
            w.setVisible(show)

    # -- selection -------------------------------------------------------------------------
    def set_selection(self, ids: list[str]) -> None:
        """Select atoms in the view and the table."""
        self.view.set_selection(ids)
        self._syncing = True
        try:
            self._select_rows(self.view.selection())
        finally:
            self._syncing = False
        self._update_state()

    def select_all(self) -> None:
        """Select every shown atom."""
        self.set_selection(list(self.view.scene.ids[: int(self.view.scene.pickable.sum())]))

    def _shown_ids(self) -> list[str]:
        return list(self.view.scene.ids[: int(self.view.scene.pickable.sum())])

    def invert_selection(self) -> None:
        """Select the shown atoms that are not selected, and only those."""
        sel = set(self.view.selection())
        self.set_selection([i for i in self._shown_ids() if i not in sel])

    def select_element(self, element: str) -> None:
        """Select every shown atom of ``element``."""
        sd = self.view.scene
        n = int(sd.pickable.sum())
        self.set_selection([i for i, e in zip(sd.ids[:n], sd.symbols[:n], strict=True)
                            if e == element])

    def select_fragment(self, ids: Sequence[str] | None = None) -> None:
        """Select the whole bonded fragments of ``ids`` (default: the selection)."""
        from molforma.document.geometry import components

        doc = self.ctx.document
        shown = doc.candidate if doc.candidate is not None else doc.project
        want = set(self.view.selection() if ids is None else ids)
        out: list[str] = []
        for comp in components(shown):
            if want & set(comp):
                out += comp
        self.set_selection(out)

    def _fill_element_menu(self) -> None:
        self.select_element_menu.clear()
        present = sorted(set(self.view.scene.symbols[: int(self.view.scene.pickable.sum())]))
        for el in present:
            act = self.select_element_menu.addAction(el)
            act.setObjectName(f"selectElement_{el}")
            act.triggered.connect(lambda _c=False, e=el: self.select_element(e))
        self.select_element_menu.setEnabled(bool(present))

    def _box_selected(self, ids: list[str], modifiers: Any) -> None:
        if modifiers & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier):
            ids = [*self.view.selection(), *[i for i in ids if i not in self.view.selection()]]
        self.set_selection(ids)

    def selection_xyz(self) -> str:
        """The selected atoms (all when none is selected) as an XYZ file text."""
        doc = self.ctx.document
        shown = doc.candidate if doc.candidate is not None else doc.project
        sel = set(self.view.selection())
        atoms = [a for a in atoms_of(shown) if not sel or a["id"] in sel]
        title = str(shown["document"].get("title", "") or "")
        lines = [str(len(atoms)), title.replace("\n", " ")]
        lines += [f"{a['element']:<2} {float(a['x']):14.8f} {float(a['y']):14.8f} "
                  f"{float(a['z']):14.8f}" for a in atoms]
        return "\n".join(lines) + "\n"

    def copy_selection_xyz(self) -> bool:
        """Ctrl+C: copy the selected atoms (all when none is selected) as XYZ text."""
        doc = self.ctx.document
        shown = doc.candidate if doc.candidate is not None else doc.project
        if not atoms_of(shown):
            self.show_message(self.tr("There are no atoms to copy."), error=True)
            return False
        text = self.selection_xyz()
        QGuiApplication.clipboard().setText(text)
        count = int(text.split("\n", 1)[0])
        self.show_message(self.tr("Copied %1 atom(s) as XYZ.").replace("%1", str(count)))
        return True

    # -- context menu ----------------------------------------------------------------------
    def _context_requested(self, atom_id: str, bond: tuple[str, str] | None,
                           global_pos: QPoint) -> None:
        if atom_id and atom_id not in self.view.selection():
            self.set_selection([atom_id])
        menu = self.build_context_menu(atom_id, bond)
        menu.popup(global_pos)

    def build_context_menu(self, atom_id: str, bond: tuple[str, str] | None) -> QMenu:
        """The menu of a right click on an atom, a bond or the background (objectName
        ``moleculeContextMenu``; actions ``ctx...``)."""
        if self.context_menu is not None:
            self.context_menu.deleteLater()
        menu = QMenu(self)
        menu.setObjectName("moleculeContextMenu")
        self.context_menu = menu
        doc = self.ctx.document
        editable = doc.candidate is None and not doc.busy and self._worker is None
        sel = self.view.selection()

        def add(name: str, text: str, tip: str, fn: Callable[[], Any], *,
                enabled: bool = True, parent: QMenu | None = None) -> QAction:
            act = (parent or menu).addAction(text)
            act.setObjectName(name)
            act.setToolTip(tip)
            act.setStatusTip(tip)
            act.setEnabled(enabled)
            act.triggered.connect(lambda _c=False: fn())
            return act

        menu.setToolTipsVisible(True)
        if atom_id:
            ids = sel if atom_id in sel else [atom_id]
            index = {a["id"]: a for a in atoms_of(doc.project)}
            atom = index.get(atom_id, {})
            add("ctxDeleteAtoms", self.tr("Delete %1").replace("%1", self.measure_name(ids)
                                                                if len(ids) <= 4 else
                                                                self.tr("%1 atoms").replace(
                                                                    "%1", str(len(ids)))),
                self.tr("Delete the atoms with their bonds"),
                lambda: self.erase_atoms(list(ids)), enabled=editable)
            elements = menu.addMenu(self.tr("Set element"))
            elements.setObjectName("ctxElementMenu")
            for el in dict.fromkeys((*MENU_ELEMENTS, self.element)):
                add(f"ctxElement_{el}", el, self.tr("Make the atoms %1").replace("%1", el),
                    lambda e=el: self.set_element_of(list(ids), e), enabled=editable,
                    parent=elements)
            fixed = bool(atom.get("fixed"))
            add("ctxFixAtoms", self.tr("Unfix") if fixed else self.tr("Fix"),
                self.tr("Fixed atoms never move (clean-up, geometry edits, optimisation)"),
                lambda: self._run(lambda: ops.set_atom_properties(
                    doc, [{"id": i, "fixed": not fixed} for i in ids], preview=False,
                    origin=_who())), enabled=editable)
            add("ctxMeasure", self.tr("Measure"),
                self.tr("Keep the distance, angle or dihedral of the 2–4 selected atoms"),
                lambda: self.keep_measurement(sel), enabled=2 <= len(sel) <= 4)
            menu.addSeparator()
            add("ctxSelectFragment", self.tr("Select fragment"),
                self.tr("Select every atom bonded, directly or not, to this one"),
                lambda: self.select_fragment([atom_id]))
            el = str(atom.get("element", ""))
            add("ctxSelectElement", self.tr("Select all %1").replace("%1", el),
                self.tr("Select every atom of this element"), lambda: self.select_element(el))
        elif bond is not None:
            a, b = bond
            order = next((int(x.get("order", 1)) for x in bonds_of(doc.project)
                          if {x["a"], x["b"]} == {a, b}), 1)
            names = {1: self.tr("Single bond"), 2: self.tr("Double bond"),
                     3: self.tr("Triple bond")}
            for k in (1, 2, 3):
                act = add(f"ctxBondOrder_{k}", names[k],
                          self.tr("Set the bond order (hydrogens follow when Adjust "
                                  "hydrogens is on)"),
                          lambda k=k: self.set_bond_order(a, b, k), enabled=editable)
                act.setCheckable(True)
                act.setChecked(k == order)
            add("ctxDeleteBond", self.tr("Delete bond"), self.tr("Remove the bond, keep the atoms"),
                lambda: self.set_bond_order(a, b, 0), enabled=editable)
            add("ctxMeasure", self.tr("Measure"), self.tr("Keep the length of this bond"),
                lambda: self.keep_measurement([a, b]))
        else:
            add("ctxSelectAll", self.tr("Select all"), self.tr("Select every atom"),
                self.select_all)
            add("ctxClearMeasurements", self.tr("Clear measurements"),
                self.tr("Remove every kept measurement"), self.clear_measurements,
                enabled=bool(self.pinned_measurements))
        return menu

    def _select_rows(self, ids: list[str]) -> None:
        from PySide6.QtCore import QItemSelection, QItemSelectionModel

        model = self.table.atom_model
        sel = QItemSelection()
        for aid in ids:
            r = model.row_of(aid)
            if r is not None:
                sel.select(model.index(r, 0), model.index(r, model.columnCount() - 1))
        self.table.selectionModel().select(
            sel, QItemSelectionModel.SelectionFlag.ClearAndSelect)

    def _table_selection(self) -> None:
        if self._syncing:
            return
        self.view.set_selection(self.table.selected_ids())
        self._update_state()

    def add_hydrogens(self) -> bool:
        """Fill open valences with hydrogen (selected atoms, or all), one undo step."""
        ids = self.view.selection() or None
        return self._run(lambda: ops.add_hydrogens(self.ctx.document, ids, preview=False,
                                                   origin=_who()))

    def delete_selection(self) -> None:
        """Delete the selected atoms (one undo step)."""
        ids = self.view.selection()
        if ids:
            self.erase_atoms(ids)

    def erase_atoms(self, ids: list[str]) -> bool:
        """Delete atoms (with their hydrogens and re-filled neighbours when "Adjust
        hydrogens" is on), one undo step."""
        adjust = self.adjust_hydrogens
        return self._run(lambda: ops.delete_atoms(self.ctx.document, ids, preview=False,
                                                  origin=_who(), adjust_hydrogens=adjust))

    def set_element_of(self, ids: list[str], element: str) -> bool:
        """Change the element of atoms (hydrogens follow when "Adjust hydrogens" is on)."""
        adjust = self.adjust_hydrogens
        return self._run(lambda: ops.set_atom_properties(
            self.ctx.document, [{"id": i, "element": element} for i in ids], preview=False,
            origin=_who(), adjust_hydrogens=adjust))

    # -- table and property edits ----------------------------------------------------------
    def _table_edit(self, atom_id: str, key: str, value: Any) -> bool:
        doc = self.ctx.document
        if key in ("x", "y", "z"):
            try:
                v = float(str(value).replace(",", "."))
            except ValueError:
                self.show_message(self.tr("'%1' is not a number.").replace("%1", str(value)),
                                  error=True)
                return False
            atom = next(a for a in atoms_of(doc.project) if a["id"] == atom_id)
            pos = [float(atom["x"]), float(atom["y"]), float(atom["z"])]
            pos["xyz".index(key)] = v
            return self._run(lambda: ops.move_atoms(doc, positions={atom_id: pos}, preview=False,
                                                    origin=_who()))
        if key == "element":
            return self.set_element_of([atom_id], str(value).strip())
        if key == "fixed":
            return self._run(lambda: ops.set_atom_properties(
                doc, [{"id": atom_id, "fixed": bool(value)}], preview=False, origin=_who()))
        return False

    def _apply_atom_properties(self, changes: list[dict[str, Any]]) -> str | None:
        try:
            ops.set_atom_properties(self.ctx.document, changes, preview=False, origin=_who(),
                                    adjust_hydrogens=self.adjust_hydrogens)
        except MolFormaError as exc:
            return exc.message()
        return None

    def _apply_molecule(self, values: dict[str, Any]) -> str | None:
        doc = self.ctx.document.project["document"]
        changed = {k: v for k, v in values.items() if doc.get(k) != v}
        if not changed:
            return None
        try:
            ops.set_molecule(self.ctx.document, **changed, preview=False, origin=_who())
        except MolFormaError as exc:
            return exc.message()
        return None

    # -- files -----------------------------------------------------------------------------
    def load_structure_file(self, path: str | None = None) -> bool:
        """Replace atoms and bonds from a file, keeping every setting (one undo step)."""
        if path is None:
            path = dialogs.get_open_path(
                self, self.tr("Load structure file"),
                [self.tr("Structure files") + f" ({STRUCTURE_FILTER})", self.tr("All files") + " (*)"])
        if not path:
            return False
        from pathlib import Path

        from molforma.app import files
        from molforma.gui.widgets.structure_choice import read_with_choices

        done: list[Any] = []

        def load() -> None:
            done.append(files.load_structure(self.ctx, str(path), actor=window_actor(),
                                             read=lambda p: read_with_choices(self, p)))

        if not self._run(load, self.tr("Loaded %1").replace("%1", Path(path).name)):
            return False
        if done[0] is None:  # the person cancelled the frame choice
            self.show_message("")
            return False
        return True

    # -- workers ---------------------------------------------------------------------------
    def start_smiles(self, smiles: str | None = None) -> bool:
        """Make a 3D candidate from SMILES, or from a name of the table of common molecules
        (``water``, ``DMSO``, ``ベンゼン``; the message says which SMILES was used),
        replacing the structure once confirmed."""
        text = (smiles if smiles is not None else self.smiles_input.text()).strip()
        if not text:
            self.show_message(self.tr("Type a SMILES string first."), error=True)
            return False
        from molforma.app.smiles import check_smiles, resolve_smiles, smiles_to_structure

        try:
            name = check_smiles(text)
        except MolFormaError as exc:
            self.show_message(exc.message(), error=True, reason=exc)
            return False
        self._smiles_from = None
        if name is not None:
            code = resolve_smiles(text)[0]
            self._smiles_from = self.tr("%1 (SMILES %2)").replace("%1", name).replace("%2", code)
            text = code
        started = self._start_worker("smiles", lambda cancelled, progress: smiles_to_structure(
            text, cancelled=cancelled, progress=progress))
        if started and self._smiles_from:
            self.show_message(self.tr("Making 3D coordinates for %1…")
                              .replace("%1", self._smiles_from))
        return started

    def start_cleanup(self) -> bool:
        """Clean up the geometry with a force field (MMFF94, else UFF) in a child process.

        The window keeps turning while it runs; edits wait until it ends; Stop
        (:meth:`cancel_worker`) kills it at once and leaves the document as it was. The
        result is a candidate to confirm or cancel. This is the entry point of the
        window's clean-up for the person and for the window tools alike.
        """
        proj = self.ctx.document.project
        atoms, bonds = atoms_of(proj), bonds_of(proj)
        if not atoms:
            self.show_message(self.tr("There are no atoms to clean up."), error=True)
            return False
        return self._start_worker("cleanup", None, (atoms, bonds))

    def _start_worker(self, kind: str, fn: Callable[..., Any] | None,
                      structure: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None
                      ) -> bool:
        doc = self.ctx.document
        if self._worker is not None:
            self.show_message(self.tr("Busy: wait for the running work or stop it."), error=True)
            return False
        if doc.candidate is not None:
            self.show_message(self.tr("Confirm or cancel the current candidate first."),
                              error=True)
            return False
        if doc.busy:
            self.show_message(self.tr("Busy: wait for the running work or stop it."), error=True)
            return False
        worker: Worker | CleanupProcess
        if kind == "cleanup":
            assert structure is not None
            doc.set_busy("geometry clean-up")
            worker = CleanupProcess(*structure, parent=self)
            worker.stepped.connect(self._on_step)
        else:
            assert fn is not None
            worker = Worker(fn, "smilesWorker", self)
        # A bound slot of a GUI-thread object: Qt queues the worker thread's progress here.
        worker.progress.connect(self._on_progress)
        worker.succeeded.connect(lambda res, k=kind: self._worker_done(k, res))
        worker.failed.connect(lambda exc: self._worker_failed(exc))
        worker.cancelledSignal.connect(lambda: self.show_message(self.tr("Stopped.")))
        worker.finished.connect(self._worker_finished)
        self._worker, self._worker_kind = worker, kind
        # The result lands later, outside the command: it keeps the origin of its start.
        self._worker_for_mcp = mcp_acting()
        self._cleanup_step = None
        self.progress.setValue(0)
        self.progress.setFormat("%p%")
        self.show_message(self.tr("Cleaning up the geometry…") if kind == "cleanup"
                          else self.tr("Making 3D coordinates…"))
        worker.start()
        self._update_state()
        self.ctx.events.documentChanged.emit(Change.BUSY)
        return True

    @Slot(int, int, float)
    def _on_step(self, done: int, maximum: int, energy: float) -> None:
        self._cleanup_step = (done, maximum, energy)
        self.progress.setFormat(f"{done} / {maximum}")
        self.message.setStyleSheet("")
        self.message.setText(self._step_text())

    def _step_text(self) -> str:
        if self._cleanup_step is None:
            return self.tr("Cleaning up the geometry…")
        done, maximum, energy = self._cleanup_step
        return (self.tr("Cleaning up the geometry: %1 of at most %2 iterations, "
                        "energy %3 kcal/mol").replace("%1", str(done))
                .replace("%2", str(maximum)).replace("%3", f"{energy:.2f}"))

    @Slot(int, str)
    def _on_progress(self, percent: int, stage: str) -> None:
        self.progress.setValue(percent)
        if stage == "forcefield" and self._cleanup_step is None:
            self.show_message(self.tr("Cleaning up the geometry: setting up the force field…"))

    @property
    def worker(self) -> Worker | CleanupProcess | None:
        """The SMILES or clean-up worker running now (window commands follow it)."""
        return self._worker

    @property
    def worker_running(self) -> bool:
        """True from the start of SMILES or clean-up work until its result is handled."""
        return self._worker is not None

    def worker_state(self) -> dict[str, Any]:
        """``{"kind": "smiles"|"cleanup"|None, "running": bool, "progress": 0..100}``.

        During a clean-up also ``iterations``, ``maxIterations`` and ``energy``
        (kcal/mol) of the last chunk reported.
        """
        out: dict[str, Any] = {"kind": self._worker_kind if self._worker is not None else None,
                               "running": self._worker is not None,
                               "progress": int(self.progress.value())}
        if self._worker is not None and self._cleanup_step is not None:
            done, maximum, energy = self._cleanup_step
            out.update(iterations=done, maxIterations=maximum, energy=energy)
        return out

    def cancel_worker(self) -> None:
        """Stop the running SMILES or clean-up work."""
        if self._worker is not None:
            self._worker.cancel()

    def _release_busy(self) -> None:
        if self._worker_kind == "cleanup":
            self.ctx.document.set_busy(None)

    def _worker_done(self, kind: str, result: Any) -> None:
        with acting_for_mcp(self._worker_for_mcp):
            self._apply_worker_result(kind, result)

    def _apply_worker_result(self, kind: str, result: Any) -> None:
        self._release_busy()
        doc = self.ctx.document
        if kind == "cleanup":
            if not result:
                text = self.tr("The geometry is already clean.")
                self._end_worker("unchanged", MolFormaError("window_no_change", message=text))
                self.show_message(text)
                return
            with outcome.collecting() as refusals:
                self._run(lambda: ops.move_atoms(doc, positions=result, preview=True,
                                                 origin=_who()),
                          self.tr("Clean-up done: confirm or cancel the candidate."))
        else:
            atoms, bonds = result
            from molforma.app.smiles import replace_structure

            ready = self.tr("3D structure ready: confirm or cancel the candidate.")
            if self._smiles_from:
                ready = self.tr("3D structure of %1 ready: confirm or cancel the candidate.") \
                    .replace("%1", self._smiles_from)
            with outcome.collecting() as refusals:
                self._run(lambda: replace_structure(doc, atoms, bonds, actor=window_actor()),
                          ready)
        self._end_worker(*(("failed", refusals[0]) if refusals else ("done", None)))

    def _end_worker(self, status: str, error: MolFormaError | None) -> None:
        """How the running SMILES / clean-up work ended, kept per worker (a window command
        that started it reads its own worker's end, whatever ran since)."""
        if self._worker is not None:
            self._worker_ends[self._worker] = (status, error)
            while len(self._worker_ends) > 16:  # the wrappers of long-gone workers
                del self._worker_ends[next(iter(self._worker_ends))]

    def _worker_failed(self, exc: object) -> None:
        self._release_busy()
        text = exc.message() if isinstance(exc, MolFormaError) else str(exc)
        self._end_worker("failed", exc if isinstance(exc, MolFormaError)
                         else MolFormaError("window_refused", message=text))
        self.show_message(text, error=True)

    def worker_end(self, worker: Any) -> tuple[str, MolFormaError | None] | None:
        """How ``worker`` ended (``done``, ``unchanged``, ``failed`` and the error), or None
        while it runs or when it was stopped."""
        return self._worker_ends.get(worker) if worker is not None else None

    def _worker_finished(self) -> None:
        self._release_busy()
        if isinstance(self._worker, CleanupProcess):
            self._worker.deleteLater()
        self._worker = None
        self.ctx.events.documentChanged.emit(Change.BUSY)

    def shutdown(self) -> None:
        """Stop workers (the window closes)."""
        if self._worker is not None:
            self._worker.cancel()
            self._worker.wait(10000)
            self._release_busy()

