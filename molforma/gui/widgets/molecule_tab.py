"""The "1 Molecule" tab: 3D view, editing tools, palette, properties, table (Qt layer).

Every change goes through :mod:`molforma.document.ops` with ``origin="user"``:
direct tools (add, bond, erase, move, table and property edits) apply at once as
one undo step; fragment placement, SMILES and clean-up make a candidate that
Confirm / Cancel settle. A click of the Place tool confirms the placement
candidate this tab made just before, never a candidate made by MCP or anything else.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import QEvent, QPointF, Qt, Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from molforma.document import ops
from molforma.document.model import atoms_of, bonds_of
from molforma.document.origin import acting_for_mcp, effective_origin, mcp_acting
from molforma.errors import MolFormaError
from molforma.gui import dialogs
from molforma.gui.context import AppContext
from molforma.gui.view3d import create_view
from molforma.gui.widgets.coordinate_table import CoordinateTable
from molforma.gui.widgets.parts_palette import PartsPalette
from molforma.gui.widgets.property_panel import PropertyPanel
from molforma.gui.workers import Worker, cleanup_positions, smiles_to_structure

log = logging.getLogger(__name__)

TOOLS = ("select", "add", "bond", "erase", "move", "place")
LAYOUTS = ("view", "both", "table")
STRUCTURE_FILTER = "*.xyz *.mol *.sdf *.mol2 *.cml *.pdb *.ent *.nw *.gjf *.com *.molforma.json"


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
        self._worker: Worker | None = None
        self._worker_kind = ""
        self._worker_for_mcp = False
        self._syncing = False

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
        bar.addSpacing(12)
        self.undo_button = QPushButton(self)
        self.undo_button.setObjectName("undoButton")
        self.undo_button.clicked.connect(lambda: self._history("undo"))
        self.redo_button = QPushButton(self)
        self.redo_button.setObjectName("redoButton")
        self.redo_button.clicked.connect(lambda: self._history("redo"))
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
        self.load_button = QPushButton(self)
        self.load_button.setObjectName("loadStructureButton")
        self.load_button.clicked.connect(lambda: self.load_structure_file())
        bar2.addWidget(self.load_button)
        root.addLayout(bar2)
        # Body: palette | view + table | properties
        body = QSplitter(Qt.Orientation.Horizontal, self)
        body.setObjectName("moleculeSplitter")
        self.palette = PartsPalette(body)
        self.palette.elementChosen.connect(self.set_element)
        self.palette.partChosen.connect(lambda _k, _n: self.set_tool("place"))
        self.palette.hide()
        body.addWidget(self.palette)
        self.centre = QSplitter(Qt.Orientation.Vertical, body)
        self.centre.setObjectName("viewTableSplitter")
        self.view = create_view(self.centre)
        self.view.atomClicked.connect(self._atom_clicked)
        self.view.backgroundClicked.connect(self._background_clicked)
        self.view.atomsDragged.connect(self._atoms_dragged)
        self.centre.addWidget(self.view)
        self.table = CoordinateTable(self._table_edit, self.centre)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._table_selection())
        self.centre.addWidget(self.table)
        self.centre.setSizes([500, 250])
        body.addWidget(self.centre)
        side = QWidget(body)
        side_lay = QVBoxLayout(side)
        side_lay.setContentsMargins(0, 0, 0, 0)
        self.candidate_label = QLabel(side)
        self.candidate_label.setObjectName("candidateStatus")
        self.candidate_label.setWordWrap(True)
        side_lay.addWidget(self.candidate_label)
        cand = QHBoxLayout()
        self.confirm_button = QPushButton(side)
        self.confirm_button.setObjectName("confirmButton")
        self.confirm_button.clicked.connect(lambda: self._history("confirm"))
        self.cancel_button = QPushButton(side)
        self.cancel_button.setObjectName("cancelButton")
        self.cancel_button.clicked.connect(lambda: self._history("cancel"))
        cand.addWidget(self.confirm_button)
        cand.addWidget(self.cancel_button)
        side_lay.addLayout(cand)
        self.measurement = QLabel(side)
        self.measurement.setObjectName("measurementLabel")
        self.measurement.setWordWrap(True)
        side_lay.addWidget(self.measurement)
        self.properties = PropertyPanel(self._apply_atom_properties, self._apply_molecule, side)
        side_lay.addWidget(self.properties, 1)
        body.addWidget(side)
        body.setStretchFactor(1, 1)
        body.setSizes([0, 800, 280])
        root.addWidget(body, 1)
        self.message = QLabel(self)
        self.message.setObjectName("moleculeMessage")
        self.message.setWordWrap(True)
        root.addWidget(self.message)

        self.tool_buttons["select"].setChecked(True)
        ctx.events.documentChanged.connect(lambda _w: self.refresh())
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
                "add": self.tr("Click empty space to add an atom, or an atom to attach one"),
                "bond": self.tr("Click two atoms to add a bond or change its order; "
                                "Shift-click the second atom to remove the bond"),
                "erase": self.tr("Click an atom to delete it with its bonds"),
                "move": self.tr("Drag selected atoms to move them"),
                "place": self.tr("Click an atom to place the chosen fragment on its next free "
                                 "site; the next click confirms it")}
        for n, b in self.tool_buttons.items():
            b.setText(names[n])
            b.setToolTip(tips[n])
        self.element_button.setText(self.tr("Element: %1").replace("%1", self.element))
        self.palette_toggle.setText(self.tr("Parts palette"))
        self.undo_button.setText(self.tr("Undo"))
        self.redo_button.setText(self.tr("Redo"))
        self.layout_label.setText(self.tr("Layout:"))
        for i, text in enumerate((self.tr("View"), self.tr("View and table"), self.tr("Table"))):
            self.layout_combo.setItemText(i, text)
        self.smiles_label.setText(self.tr("SMILES:"))
        self.smiles_input.setPlaceholderText(self.tr("e.g. CCO, then Enter"))
        self.smiles_button.setText(self.tr("Make 3D"))
        self.cleanup_button.setText(self.tr("Clean up geometry"))
        self.hydrogens_button.setText(self.tr("Add hydrogens"))
        self.hydrogens_button.setToolTip(
            self.tr("Fill open valences of the selected atoms (all atoms when none is selected)"))
        self.worker_cancel.setText(self.tr("Stop"))
        self.load_button.setText(self.tr("Load structure file…"))
        self.confirm_button.setText(self.tr("Confirm"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.table.atom_model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 5)
        self.properties.retranslate()
        self.palette.retranslate()
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

    def show_message(self, text: str, *, error: bool = False) -> None:
        """A line under the view: what happened, or why an edit was refused."""
        self.message.setStyleSheet("color: #d03030;" if error else "")
        self.message.setText(text)

    # -- state -----------------------------------------------------------------------------
    def refresh(self) -> None:
        """Show the document (and its candidate) in the view, table and panels."""
        doc = self.ctx.document
        proj, cand = doc.project, doc.candidate
        shown = cand if cand is not None else proj
        self.view.set_molecule(
            atoms_of(proj), bonds_of(proj),
            candidate_atoms=atoms_of(cand) if cand is not None else None,
            candidate_bonds=bonds_of(cand) if cand is not None else None)
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
        self.undo_button.setEnabled(doc.can_undo and not busy)
        self.redo_button.setEnabled(doc.can_redo and not busy)
        self.confirm_button.setEnabled(cand is not None and not busy)
        self.cancel_button.setEnabled(cand is not None and not busy)
        self.smiles_button.setEnabled(not busy and cand is None)
        self.cleanup_button.setEnabled(not busy and cand is None and bool(atoms_of(doc.project)))
        self.hydrogens_button.setEnabled(not busy and cand is None and bool(atoms_of(doc.project)))
        self.load_button.setEnabled(not busy and cand is None)
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
        names = "–".join(ids)
        if len(p) == 2:
            return self.tr("Distance %1: %2 Å").replace("%1", names).replace(
                "%2", f"{float(np.linalg.norm(p[0] - p[1])):.4f}")
        if len(p) == 3:
            value = geometry.angle(*p)
            return self.tr("Angle %1: %2°").replace("%1", names).replace("%2", f"{value:.2f}")
        value = geometry.dihedral(*p)
        return self.tr("Dihedral %1: %2°").replace("%1", names).replace("%2", f"{value:.2f}")

    # -- tools -----------------------------------------------------------------------------
    def set_tool(self, name: str) -> None:
        """Choose the editing tool (``select``, ``add``, ``bond``, ``erase``, ``move``, ``place``)."""
        if name not in TOOLS:
            raise ValueError(name)
        self.tool = name
        self.tool_buttons[name].setChecked(True)
        self.view.move_mode = name == "move"
        self._bond_first = None
        if name == "place":
            self.palette.load_catalog()

    def set_element(self, symbol: str) -> None:
        """The element the Add tool places."""
        self.element = symbol
        self.palette.table.set_element(symbol)
        self.element_button.setText(self.tr("Element: %1").replace("%1", symbol))
        if self.tool not in ("add",):
            self.set_tool("add")

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
            self.show_message(exc.message(), error=True)
            self.refresh()  # the table may show a value the document refused
            return False
        self.show_message(done or "")
        return True

    def _history(self, action: str) -> None:
        if self._run(lambda: ops.history(self.ctx.document, action, origin="user")):
            self._placement_revision = None

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
            self.add_atom_bonded_to(atom_id)
        elif tool == "bond":
            self._bond_click(atom_id, remove=bool(modifiers & Qt.KeyboardModifier.ShiftModifier))
        elif tool == "erase":
            self._run(lambda: ops.delete_atoms(self.ctx.document, [atom_id], preview=False,
                                               origin="user"))
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
                                         preview=False, origin="user"))
        self.refresh()

    # -- tool actions (also callable from code and tests) ----------------------------------
    def add_atom_at(self, xyz: tuple[float, float, float]) -> bool:
        """Add one atom of the chosen element at ``xyz`` (one undo step)."""
        el = self.element
        return self._run(lambda: ops.add_atoms(
            self.ctx.document, [{"element": el, "position": list(xyz)}], preview=False,
            origin="user"))

    def add_atom_bonded_to(self, atom_id: str) -> bool:
        """Add an atom of the chosen element bonded to ``atom_id``, pointing away from its
        neighbours, at the sum of covalent radii."""
        from molforma.document import elements

        proj = self.ctx.document.project
        atoms = {a["id"]: a for a in atoms_of(proj)}
        if atom_id not in atoms:
            return False
        a = atoms[atom_id]
        p = np.array([a["x"], a["y"], a["z"]], float)
        nbrs = [b["b"] if b["a"] == atom_id else b["a"] for b in bonds_of(proj)
                if atom_id in (b["a"], b["b"])]
        d = np.zeros(3)
        for n in nbrs:
            q = atoms[n]
            v = p - np.array([q["x"], q["y"], q["z"]], float)
            nv = np.linalg.norm(v)
            if nv > 1e-9:
                d += v / nv
        if np.linalg.norm(d) < 1e-6:
            # No neighbours (or a symmetric set): go right on screen, tilted off any
            # existing neighbour axis.
            d = self.view.camera.rot.T @ np.array([1.0, 0.0, 0.0])
            if nbrs:
                q = atoms[nbrs[0]]
                axis = p - np.array([q["x"], q["y"], q["z"]], float)
                d = np.cross(axis, self.view.camera.rot.T @ np.array([0.0, 0.0, 1.0]))
                if np.linalg.norm(d) < 1e-6:
                    d = np.cross(axis, [1.0, 0.0, 0.0])
        d /= np.linalg.norm(d)
        length = elements.covalent_radius(a["element"]) + elements.covalent_radius(self.element)
        pos = p + d * length
        el = self.element
        return self._run(lambda: ops.add_atoms(
            self.ctx.document, [{"element": el, "position": pos.tolist()}],
            bonds=[{"a": atom_id, "b": "#0", "order": 1}], preview=False, origin="user"))

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
        return self._run(lambda: ops.set_bonds(self.ctx.document,
                                               [{"a": a, "b": b, "order": order}],
                                               preview=False, origin="user"))

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
        if doc.candidate is not None:
            # A person's click confirms only their placement; an MCP command only MCP's.
            mine = (doc.candidate_origin == effective_origin("user")
                    and self._placement_revision is not None
                    and doc.revision == self._placement_revision)
            if not mine:
                self.show_message(self.tr("Confirm or cancel the current candidate first."),
                                  error=True)
                return False
            if not self._run(lambda: doc.confirm(expected_revision=self._placement_revision,
                                                 origin="user")):
                return False
            if site not in {a["id"] for a in atoms_of(doc.project)}:
                return False

        def place() -> None:
            ops.place_fragment(doc, name, site, kind=kind, preview=True, origin="user")

        ok = self._run(place)
        self._placement_revision = doc.revision if ok else None
        return ok

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
                                                   origin="user"))

    def delete_selection(self) -> None:
        """Delete the selected atoms (one undo step)."""
        ids = self.view.selection()
        if ids:
            self._run(lambda: ops.delete_atoms(self.ctx.document, ids, preview=False,
                                               origin="user"))

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
                                                    origin="user"))
        if key == "element":
            return self._run(lambda: ops.set_atom_properties(
                doc, [{"id": atom_id, "element": str(value).strip()}], preview=False,
                origin="user"))
        if key == "fixed":
            return self._run(lambda: ops.set_atom_properties(
                doc, [{"id": atom_id, "fixed": bool(value)}], preview=False, origin="user"))
        return False

    def _apply_atom_properties(self, changes: list[dict[str, Any]]) -> str | None:
        try:
            ops.set_atom_properties(self.ctx.document, changes, preview=False, origin="user")
        except MolFormaError as exc:
            return exc.message()
        return None

    def _apply_molecule(self, values: dict[str, Any]) -> str | None:
        doc = self.ctx.document.project["document"]
        changed = {k: v for k, v in values.items() if doc.get(k) != v}
        if not changed:
            return None
        try:
            ops.set_molecule(self.ctx.document, **changed, preview=False, origin="user")
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
        doc = self.ctx.document

        from molforma.gui.widgets.structure_choice import read_with_choices

        try:
            loaded = read_with_choices(self, str(path))
        except MolFormaError as exc:
            self.show_message(exc.message(), error=True)
            return False
        if loaded is None:
            return False

        def load() -> None:
            from molforma.document.document import EditResult
            from molforma.formats import apply_structure

            if isinstance(loaded, dict):
                # A project file: take only its molecule.
                src = loaded["document"]

                def take(work: dict[str, Any]) -> EditResult:
                    old = [a["id"] for a in atoms_of(work)]
                    d = work["document"]
                    d["atoms"] = [dict(a) for a in src["atoms"]]
                    d["bonds"] = [dict(b) for b in src["bonds"]]
                    d["nextAtomId"] = max(int(d.get("nextAtomId", 1)),
                                          int(src.get("nextAtomId", 1)))
                    for k in ("charge", "multiplicity"):
                        d[k] = src.get(k, d.get(k))
                    return EditResult(added=[a["id"] for a in d["atoms"]], removed=old)

                doc.edit(take, label="Load structure", preview=False, origin="user")
            else:
                doc.edit(lambda work: apply_structure(work, loaded), label="Load structure",
                         preview=False, origin="user")

        from pathlib import Path

        return self._run(load, self.tr("Loaded %1").replace("%1", Path(path).name))

    # -- workers ---------------------------------------------------------------------------
    def start_smiles(self, smiles: str | None = None) -> bool:
        """Make a 3D candidate from SMILES (replacing the structure once confirmed)."""
        text = (smiles if smiles is not None else self.smiles_input.text()).strip()
        if not text:
            self.show_message(self.tr("Type a SMILES string first."), error=True)
            return False
        return self._start_worker("smiles", lambda cancelled, progress: smiles_to_structure(
            text, cancelled=cancelled, progress=progress))

    def start_cleanup(self) -> bool:
        """Clean up the geometry with a force field in a worker; edits wait until it ends."""
        proj = self.ctx.document.project
        atoms, bonds = atoms_of(proj), bonds_of(proj)
        if not atoms:
            self.show_message(self.tr("There are no atoms to clean up."), error=True)
            return False
        return self._start_worker("cleanup", lambda cancelled, progress: cleanup_positions(
            atoms, bonds, cancelled=cancelled, progress=progress))

    def _start_worker(self, kind: str, fn: Callable[..., Any]) -> bool:
        doc = self.ctx.document
        if self._worker is not None:
            self.show_message(self.tr("Busy: wait for the running work or stop it."), error=True)
            return False
        if doc.candidate is not None:
            self.show_message(self.tr("Confirm or cancel the current candidate first."),
                              error=True)
            return False
        if kind == "cleanup":
            doc.set_busy("geometry clean-up")
        worker = Worker(fn, "cleanupWorker" if kind == "cleanup" else "smilesWorker", self)
        # A bound slot of a GUI-thread object: Qt queues the worker thread's progress here.
        worker.progress.connect(self._on_progress)
        worker.succeeded.connect(lambda res, k=kind: self._worker_done(k, res))
        worker.failed.connect(lambda exc: self._worker_failed(exc))
        worker.cancelledSignal.connect(lambda: self.show_message(self.tr("Stopped.")))
        worker.finished.connect(self._worker_finished)
        self._worker, self._worker_kind = worker, kind
        # The result lands later, outside the command: it keeps the origin of its start.
        self._worker_for_mcp = mcp_acting()
        self.progress.setValue(0)
        self.show_message(self.tr("Cleaning up the geometry…") if kind == "cleanup"
                          else self.tr("Making 3D coordinates…"))
        worker.start()
        self._update_state()
        self.ctx.events.documentChanged.emit("busy")
        return True

    @Slot(int, str)
    def _on_progress(self, percent: int, _stage: str) -> None:
        self.progress.setValue(percent)

    @property
    def worker(self) -> Worker | None:
        """The SMILES or clean-up worker running now (window commands follow it)."""
        return self._worker

    @property
    def worker_running(self) -> bool:
        """True from the start of SMILES or clean-up work until its result is handled."""
        return self._worker is not None

    def worker_state(self) -> dict[str, Any]:
        """``{"kind": "smiles"|"cleanup"|None, "running": bool, "progress": 0..100}``."""
        return {"kind": self._worker_kind if self._worker is not None else None,
                "running": self._worker is not None, "progress": int(self.progress.value())}

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
                self.show_message(self.tr("The geometry is already clean."))
                return
            self._run(lambda: ops.move_atoms(doc, positions=result, preview=True, origin="user"),
                      self.tr("Clean-up done: confirm or cancel the candidate."))
        else:
            atoms, bonds = result
            self._run(lambda: _replace_structure(doc, atoms, bonds),
                      self.tr("3D structure ready: confirm or cancel the candidate."))

    def _worker_failed(self, exc: object) -> None:
        self._release_busy()
        text = exc.message() if isinstance(exc, MolFormaError) else str(exc)
        self.show_message(text, error=True)

    def _worker_finished(self) -> None:
        self._release_busy()
        self._worker = None
        self.refresh()
        self.ctx.events.documentChanged.emit("idle")

    def shutdown(self) -> None:
        """Stop workers (the window closes)."""
        if self._worker is not None:
            self._worker.cancel()
            self._worker.wait(10000)
            self._release_busy()


def _replace_structure(doc: Any, atoms: list[dict[str, Any]],
                       bonds: list[dict[str, Any]]) -> dict[str, Any]:
    """Make a candidate whose molecule is ``atoms``/``bonds`` with fresh ids."""
    from molforma.document.document import EditResult

    def fn(work: dict[str, Any]) -> EditResult:
        d = work["document"]
        old = [a["id"] for a in d["atoms"]]
        start = int(d.get("nextAtomId", 1))
        mapping = {a["id"]: f"a{start + i}" for i, a in enumerate(atoms)}
        d["atoms"] = [dict(a, id=mapping[a["id"]]) for a in atoms]
        d["bonds"] = [{"a": mapping[b["a"]], "b": mapping[b["b"]], "order": b.get("order", 1)}
                      for b in bonds]
        d["nextAtomId"] = start + len(atoms)
        d["charge"] = sum(int(a.get("formalCharge", 0)) for a in atoms)
        return EditResult(added=list(mapping.values()), removed=old)

    return doc.edit(fn, label="Structure from SMILES", preview=True, origin="user")
