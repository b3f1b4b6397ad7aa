"""The Molecule tab's widgets: the tool bar, the SMILES bar, the side column and the message
row, made once when the tab is built and kept as the tab's attributes; the 3D view's
signals wired to the tab's parts (Qt layer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSize, Qt
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

from molforma.gui.view3d import create_view
from molforma.gui.widgets.coordinate_table import CoordinateTable
from molforma.gui.widgets.molecule_clicks import ViewClicks
from molforma.gui.widgets.molecule_context_menu import MoleculeContextMenu
from molforma.gui.widgets.molecule_edits import AtomEdits
from molforma.gui.widgets.molecule_geometry import GeometryEditor
from molforma.gui.widgets.molecule_selection import AtomSelection
from molforma.gui.widgets.molecule_tab_support import (
    LABEL_MODES,
    LAYOUTS,
    TOOLS,
    MoleculeTabHost,
)
from molforma.gui.widgets.molecule_workers import StructureWork
from molforma.gui.widgets.property_panel import PropertyPanel
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.gui.view3d.base import MoleculeView
    from molforma.gui.widgets import constraint_editor, residue_selection
else:  # imported on first use (start-up time): molforma.lazy
    residue_selection = lazy_import("molforma.gui.widgets.residue_selection")
    constraint_editor = lazy_import("molforma.gui.widgets.constraint_editor")


def build_tool_bar(
    tab: MoleculeTabHost,
    parent: QWidget,
    root: QVBoxLayout,
    *,
    edits: AtomEdits,
    selecting: AtomSelection,
    geometry: GeometryEditor,
) -> None:
    """The tools, element, palette, selection, labels, undo / redo and layout row."""
    bar = QHBoxLayout()
    tab.tool_group = QButtonGroup(parent)
    tab.tool_group.setExclusive(True)
    tab.tool_buttons = {}
    for name in TOOLS:
        b = QToolButton(parent)
        b.setObjectName(f"tool_{name}")
        b.setCheckable(True)
        b.clicked.connect(lambda _c=False, n=name: tab.set_tool(n))
        tab.tool_group.addButton(b)
        tab.tool_buttons[name] = b
        bar.addWidget(b)
    tab.element_button = QToolButton(parent)
    tab.element_button.setObjectName("elementButton")
    tab.element_button.clicked.connect(lambda: tab.toggle_palette(True))
    bar.addWidget(tab.element_button)
    tab.palette_toggle = QToolButton(parent)
    tab.palette_toggle.setObjectName("paletteToggle")
    tab.palette_toggle.setCheckable(True)
    tab.palette_toggle.toggled.connect(tab._palette_toggled)
    bar.addWidget(tab.palette_toggle)
    tab.metal_label = QLabel(parent)
    tab.metal_combo = QComboBox(parent)
    tab.metal_combo.setObjectName("placeMetalCombo")
    tab.metal_button = QToolButton(parent)
    tab.metal_button.setObjectName("placeOnMetalButton")
    tab.metal_button.clicked.connect(lambda: edits.place_on_metal())
    for w in (tab.metal_label, tab.metal_combo, tab.metal_button):
        bar.addWidget(w)
        w.setVisible(False)
    tab.select_button = QToolButton(parent)
    tab.select_button.setObjectName("selectMenuButton")
    tab.select_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    tab.select_menu = QMenu(tab.select_button)
    tab.select_menu.setObjectName("selectMenu")
    tab.select_button.setMenu(tab.select_menu)
    tab._select_actions = {}
    for key, fn in (
        ("selectAllAtomsAction", selecting.select_all),
        ("selectNoneAction", lambda: selecting.set_selection([])),
        ("invertSelectionAction", selecting.invert_selection),
        ("selectFragmentAction", lambda: selecting.select_fragment()),
    ):
        act = tab.select_menu.addAction("")
        act.setObjectName(key)
        act.triggered.connect(lambda _c=False, f=fn: f())
        tab._select_actions[key] = act
    tab.select_element_menu = tab.select_menu.addMenu("")
    tab.select_element_menu.setObjectName("selectElementMenu")
    tab.select_element_menu.aboutToShow.connect(tab._fill_element_menu)
    # residues, chains, "within R Å" and the QM-region cut (PDB structures)

    tab.residue_selection = residue_selection.ResidueSelection(tab, selecting)
    tab.residue_selection.install(tab.select_menu)
    bar.addWidget(tab.select_button)
    tab.labels_label = QLabel(parent)
    bar.addWidget(tab.labels_label)
    tab.labels_combo = QComboBox(parent)
    tab.labels_combo.setObjectName("atomLabelsCombo")
    for key in LABEL_MODES:
        tab.labels_combo.addItem(key, key)
    tab.labels_combo.currentIndexChanged.connect(lambda _i: geometry._update_overlay())
    # As wide as its longest entry: a shorter combo showed "Element and nu" (the toolbar
    # still fits 1280 pixels in both languages, see test_layout_geometry).
    tab.labels_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    bar.addWidget(tab.labels_combo)
    # Undo, Redo, Confirm, Cancel and Load are the window's actions (use_actions). Undo
    # and Redo sit on the SMILES row, whose field gives way to their step names: on this
    # row "Undo Add atoms" and "Redo Add atoms" made the tab 1,339 pixels wide.
    tab.undo_button = QToolButton(parent)
    tab.undo_button.setObjectName("undoButton")
    tab.redo_button = QToolButton(parent)
    tab.redo_button.setObjectName("redoButton")
    bar.addStretch(1)
    tab.layout_label = QLabel(parent)
    bar.addWidget(tab.layout_label)
    tab.layout_combo = QComboBox(parent)
    tab.layout_combo.setObjectName("moleculeLayout")
    for key in LAYOUTS:
        tab.layout_combo.addItem(key, key)
    tab.layout_combo.setCurrentIndex(LAYOUTS.index("both"))
    tab.layout_combo.currentIndexChanged.connect(lambda _i: tab._apply_layout())
    bar.addWidget(tab.layout_combo)
    root.addLayout(bar)


def build_smiles_bar(
    tab: MoleculeTabHost,
    parent: QWidget,
    root: QVBoxLayout,
    *,
    edits: AtomEdits,
    work: StructureWork,
) -> None:
    """The SMILES, hydrogens, clean-up, progress and load row."""
    bar2 = QHBoxLayout()
    bar2.addWidget(tab.undo_button)  # made with the tool bar
    bar2.addWidget(tab.redo_button)
    bar2.addSpacing(12)
    tab.smiles_label = QLabel(parent)
    bar2.addWidget(tab.smiles_label)
    tab.smiles_input = QLineEdit(parent)
    tab.smiles_input.setObjectName("smilesInput")
    tab.smiles_input.returnPressed.connect(lambda: work.start_smiles())
    bar2.addWidget(tab.smiles_input, 1)
    tab.smiles_button = QPushButton(parent)
    tab.smiles_button.setObjectName("smilesButton")
    tab.smiles_button.clicked.connect(lambda: work.start_smiles())
    bar2.addWidget(tab.smiles_button)
    tab.hydrogens_button = QPushButton(parent)
    tab.hydrogens_button.setObjectName("addHydrogensButton")
    tab.hydrogens_button.clicked.connect(lambda: edits.add_hydrogens())
    bar2.addWidget(tab.hydrogens_button)
    tab.adjust_hydrogens_check = QCheckBox(parent)
    tab.adjust_hydrogens_check.setObjectName("adjustHydrogensCheck")
    tab.adjust_hydrogens_check.setChecked(True)  # as in Avogadro
    bar2.addWidget(tab.adjust_hydrogens_check)
    tab.cleanup_button = QPushButton(parent)
    tab.cleanup_button.setObjectName("cleanupButton")
    tab.cleanup_button.clicked.connect(lambda: work.start_cleanup())
    bar2.addWidget(tab.cleanup_button)
    tab.worker_cancel = QPushButton(parent)
    tab.worker_cancel.setObjectName("cleanupCancelButton")
    tab.worker_cancel.clicked.connect(lambda: work.cancel_worker())
    bar2.addWidget(tab.worker_cancel)
    tab.progress = QProgressBar(parent)
    tab.progress.setObjectName("cleanupProgress")
    tab.progress.setRange(0, 100)
    tab.progress.setMaximumWidth(120)
    bar2.addWidget(tab.progress)
    tab.load_button = QToolButton(parent)
    tab.load_button.setObjectName("loadStructureButton")
    bar2.addWidget(tab.load_button)
    root.addLayout(bar2)


class SideScroll(QScrollArea):
    """A column that scrolls down, never sideways: at least as wide as its content's
    minimum plus the vertical scroll bar (else the bar covered the right edge and a
    horizontal one appeared)."""

    def minimumSizeHint(self) -> QSize:  # Qt override
        hint = super().minimumSizeHint()
        content = self.widget()
        if content is None:
            return hint
        need = (
            content.minimumSizeHint().width()
            + 2 * self.frameWidth()
            + self.verticalScrollBar().sizeHint().width()
        )
        return QSize(max(hint.width(), need), hint.height())


def build_side_column(
    tab: MoleculeTabHost,
    body: QSplitter,
    *,
    edits: AtomEdits,
    selecting: AtomSelection,
    geometry: GeometryEditor,
) -> None:
    """The candidate, measurement, geometry editor, constraints and properties column."""
    # The side column scrolls rather than sets the tab's minimum height: with the
    # geometry editor and the constraint controls it is taller than an 800-pixel screen.
    side_scroll = SideScroll(body)
    side_scroll.setObjectName("moleculeSideScroll")
    side_scroll.setWidgetResizable(True)
    side_scroll.setFrameShape(QFrame.Shape.NoFrame)
    side = QWidget(side_scroll)
    side_lay = QVBoxLayout(side)
    side_lay.setContentsMargins(0, 0, 0, 0)
    tab.candidate_label = QLabel(side)
    tab.candidate_label.setObjectName("candidateStatus")
    tab.candidate_label.setWordWrap(True)
    side_lay.addWidget(tab.candidate_label)
    cand = QHBoxLayout()
    tab.confirm_button = QToolButton(side)
    tab.confirm_button.setObjectName("confirmButton")
    tab.cancel_button = QToolButton(side)
    tab.cancel_button.setObjectName("cancelButton")
    cand.addWidget(tab.confirm_button)
    cand.addWidget(tab.cancel_button)
    side_lay.addLayout(cand)
    tab.measurement = QLabel(side)
    tab.measurement.setObjectName("measurementLabel")
    tab.measurement.setWordWrap(True)
    side_lay.addWidget(tab.measurement)
    geo = QHBoxLayout()
    tab.geometry_label = QLabel(side)
    tab.geometry_label.setObjectName("geometryValueLabel")
    geo.addWidget(tab.geometry_label)
    tab.geometry_input = QLineEdit(side)
    tab.geometry_input.setObjectName("geometryValueInput")
    tab.geometry_input.returnPressed.connect(lambda: geometry.apply_geometry_value())
    geo.addWidget(tab.geometry_input, 1)
    tab.geometry_button = QPushButton(side)
    tab.geometry_button.setObjectName("setGeometryButton")
    tab.geometry_button.clicked.connect(lambda: geometry.apply_geometry_value())
    geo.addWidget(tab.geometry_button)
    side_lay.addLayout(geo)
    pins = QHBoxLayout()
    tab.pin_button = QPushButton(side)
    tab.pin_button.setObjectName("keepMeasurementButton")
    tab.pin_button.clicked.connect(lambda: geometry.keep_measurement())
    tab.clear_pins_button = QPushButton(side)
    tab.clear_pins_button.setObjectName("clearMeasurementsButton")
    tab.clear_pins_button.clicked.connect(lambda: geometry.clear_measurements())
    pins.addWidget(tab.pin_button)
    pins.addWidget(tab.clear_pins_button)
    side_lay.addLayout(pins)

    # Fix or scan the selected coordinate (calculation.constraints / calculation.scan).
    tab.constraint_editor = constraint_editor.ConstraintEditor(tab, side)
    side_lay.addWidget(tab.constraint_editor)
    tab.measurement_list = QListWidget(side)
    tab.measurement_list.setObjectName("measurementList")
    tab.measurement_list.setMaximumHeight(90)
    tab.measurement_list.itemDoubleClicked.connect(
        lambda item: selecting.set_selection(
            list(tab.pinned_measurements[tab.measurement_list.row(item)])
        )
    )
    tab._geometry_for = None
    side_lay.addWidget(tab.measurement_list)
    side_lay.addWidget(tab.residue_selection.panel(side))  # residues and the QM region
    tab.properties = PropertyPanel(edits._apply_atom_properties, tab._apply_molecule, side)
    side_lay.addWidget(tab.properties, 1)
    side_scroll.setWidget(side)
    body.addWidget(side_scroll)


def build_message_row(tab: MoleculeTabHost, parent: QWidget, root: QVBoxLayout) -> None:
    """The line under the view (what happened, or why an edit was refused) and the hint
    of the Add-atom tool."""
    tab.message = QLabel(parent)
    tab.message.setObjectName("moleculeMessage")
    tab.message.setWordWrap(True)
    # Two lines, always: a message that wraps must not resize (and repaint) the view.
    tab.message.setFixedHeight(tab.message.fontMetrics().lineSpacing() * 2 + 4)
    bottom = QHBoxLayout()
    bottom.addWidget(tab.message, 1)
    # What a click or drag of the Add-atom tool would do where the pointer is.
    tab.draw_hint = QLabel(parent)
    tab.draw_hint.setObjectName("drawHint")
    tab.draw_hint.setStyleSheet("color: #4a8a4a;")
    bottom.addWidget(tab.draw_hint)
    root.addLayout(bottom)


def build_body(
    parent: QWidget,
    *,
    clicks: ViewClicks,
    selecting: AtomSelection,
    menus: MoleculeContextMenu,
    table_edit: Callable[[str, str, Any], bool],
) -> tuple[QSplitter, QSplitter, MoleculeView, CoordinateTable]:
    """The tab's body splitter with the (hidden) palette pane and the 3D view above the
    coordinate table; the side column is added by :func:`build_side_column`."""
    body = QSplitter(Qt.Orientation.Horizontal, parent)
    body.setObjectName("moleculeSplitter")
    pane = QWidget(body)
    pane.hide()
    body.addWidget(pane)
    centre = QSplitter(Qt.Orientation.Vertical, body)
    centre.setObjectName("viewTableSplitter")
    view = create_view(centre)
    wire_view(view, clicks, selecting, menus)
    centre.addWidget(view)
    table = CoordinateTable(table_edit, centre)
    table.selectionModel().selectionChanged.connect(lambda *_: selecting._table_selection())
    centre.addWidget(table)
    centre.setSizes([500, 250])
    body.addWidget(centre)
    return body, centre, view, table


def wire_view(
    view: MoleculeView, clicks: ViewClicks, selecting: AtomSelection, menus: MoleculeContextMenu
) -> None:
    """Send the 3D view's clicks, drags, keys and right clicks to the tab's parts."""
    view.atomClicked.connect(clicks._atom_clicked)
    view.boxSelected.connect(selecting._box_selected)
    view.contextRequested.connect(menus._context_requested)
    view.band_select = True
    view.backgroundClicked.connect(clicks._background_clicked)
    view.atomsDragged.connect(clicks._atoms_dragged)
    view.drawDragged.connect(clicks._draw_dragged)
    view.bondClicked.connect(clicks._bond_clicked)
    view.pointerHovered.connect(clicks._pointer_hovered)
    view.key_handler = clicks._view_key
    view.wants_key = clicks._wants_key
