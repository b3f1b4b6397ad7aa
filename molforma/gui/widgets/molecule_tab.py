"""The "1 Molecule" tab: 3D view, editing tools, palette, properties, table (Qt layer).

Every change goes through :mod:`molforma.app` told who acts (the person,
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

from PySide6.QtCore import QEvent, Qt, QTimer, Slot
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
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from molforma.app import ops
from molforma.app.actor import window_actor
from molforma.document.changes import Change
from molforma.document.envelope import atoms_of, bonds_of
from molforma.errors import MolFormaError
from molforma.gui import outcome
from molforma.gui.context import AppContext
from molforma.gui.widgets.molecule_build import (
    build_body,
    build_message_row,
    build_side_column,
    build_smiles_bar,
    build_tool_bar,
)
from molforma.gui.widgets.molecule_clicks import ViewClicks
from molforma.gui.widgets.molecule_context_menu import MoleculeContextMenu
from molforma.gui.widgets.molecule_edits import AtomEdits
from molforma.gui.widgets.molecule_geometry import GeometryEditor
from molforma.gui.widgets.molecule_lookup import labels_of, valence_problem_ids
from molforma.gui.widgets.molecule_selection import AtomSelection
from molforma.gui.widgets.molecule_tab_support import (
    LAYOUTS,
    MESSAGE_MS,
    TOOLS,
)
from molforma.gui.widgets.molecule_tab_support import step_name as step_name  # tests import it here
from molforma.gui.widgets.molecule_texts import MoleculeTabTexts
from molforma.gui.widgets.molecule_workers import StructureWork
from molforma.gui.widgets.parts_palette import PartsPalette
from molforma.gui.widgets.property_panel import PropertyPanel
from molforma.gui.workers import CleanupProcess, Worker

if TYPE_CHECKING:
    from molforma.gui.widgets.constraint_editor import ConstraintEditor

log = logging.getLogger(__name__)


class MoleculeTab(QWidget):
    """The Molecule tab (objectName ``moleculeTab``)."""

    # Made by molforma.gui.widgets.molecule_build: the tool bar, the SMILES bar, the side column.
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
    residue_selection: Any  # residue_selection.ResidueSelection (residues, QM region)
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
    constraint_editor: ConstraintEditor
    measurement_list: QListWidget
    properties: PropertyPanel
    _geometry_for: tuple[str, ...] | None
    message: QLabel
    draw_hint: QLabel

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # The tab's parts, each one job (the widgets and the state stay here).
        self.texts = MoleculeTabTexts(self)
        self.geometry_editor = GeometryEditor(self)
        self.selecting = AtomSelection(self)
        self.work = StructureWork(self, self)
        self.edits = AtomEdits(self, self.geometry_editor, self.selecting, self)
        self.clicks = ViewClicks(self, self.edits, self.geometry_editor, self.selecting)
        self.menus = MoleculeContextMenu(
            self, self.edits, self.geometry_editor, self.selecting, self
        )
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
        build_tool_bar(
            self,
            self,
            root,
            edits=self.edits,
            selecting=self.selecting,
            geometry=self.geometry_editor,
        )
        # SMILES, clean-up, load
        build_smiles_bar(self, self, root, edits=self.edits, work=self.work)
        # Body: palette | view + table | properties. The palette starts hidden: its pane
        # holds an empty page until the palette is built (right after the first frame, see
        # build_deferred, or when anything uses it).
        self._palette: PartsPalette | None = None
        body, self.centre, self.view, self.table = build_body(
            self,
            clicks=self.clicks,
            selecting=self.selecting,
            menus=self.menus,
            table_edit=self.edits._table_edit,
        )
        self._body = body
        build_side_column(
            self, body, edits=self.edits, selecting=self.selecting, geometry=self.geometry_editor
        )
        body.setStretchFactor(1, 1)
        body.setSizes([0, 800, 280])
        root.addWidget(body, 1)
        build_message_row(self, self, root)

        self.tool_buttons["select"].setChecked(True)
        ctx.events.documentChanged.connect(self._document_changed)
        ctx.events.languageChanged.connect(self.retranslate)
        self.retranslate()
        self._apply_layout()
        self.refresh()

    # -- texts -----------------------------------------------------------------------------

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

    def show_message(
        self,
        text: str,
        *,
        error: bool = False,
        reason: MolFormaError | None = None,
        warning: bool = False,
    ) -> None:
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
            self.edits._fill_metal_combo()

    def refresh(self) -> None:
        """Show the document (and its candidate) in the view, table and panels."""
        doc = self.ctx.document
        proj, cand = doc.project, doc.candidate
        shown = cand if cand is not None else proj
        self.valence_problems = valence_problem_ids(shown)
        self.view.set_molecule(
            atoms_of(proj),
            bonds_of(proj),
            candidate_atoms=atoms_of(cand) if cand is not None else None,
            candidate_bonds=bonds_of(cand) if cand is not None else None,
            flagged=self.valence_problems,
        )
        self._syncing = True
        try:
            # The columns the view made already: the table shares them (no second copy).
            self.table.atom_model.set_atoms(
                self.view.shown_structure(), editable=cand is None and not doc.busy
            )
            self.selecting._select_rows(self.view.selection())
        finally:
            self._syncing = False
        if self._bond_first is not None and self.view.scene.index_of(self._bond_first) is None:
            self._bond_first = None
        self._update_state()

    def _update_state(self) -> None:
        doc = self.ctx.document
        busy = bool(doc.busy) or self._worker is not None
        cand = doc.candidate
        self.texts.word_state(doc, busy)
        self.smiles_button.setEnabled(not busy and cand is None)
        self.cleanup_button.setEnabled(not busy and cand is None and len(atoms_of(doc.project)) > 0)
        self.hydrogens_button.setEnabled(
            not busy and cand is None and len(atoms_of(doc.project)) > 0
        )
        self.worker_cancel.setEnabled(busy)
        self.progress.setVisible(busy)
        shown = cand if cand is not None else doc.project
        self.measurement.setText(self.geometry_editor._measurement_text(shown))
        self.geometry_editor._update_geometry_editor(shown, editable=cand is None and not busy)
        self.geometry_editor._update_overlay()
        # The selected atoms' records only (looked up by id in the columns), not every
        # atom's; a large selection is summarised from the columns.
        self.properties.show_selection(
            shown, self.view.selection(), editable=cand is None and not busy
        )

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
        self.edits._fill_metal_combo()

    # The window and its tests name the parts palette so; QWidget.palette(tab) stays.
    @property
    def palette(self) -> PartsPalette:  # type: ignore[override]
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
            self.clicks._pointer_hovered(*state)

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
            self.show_message(
                self.tr("Impossible valence (ringed red): %1").replace("%1", labels),
                error=True,
                warning=True,
            )
            return True
        self.show_message(done or "")
        return True

    def atom_label(self, atom_id: str) -> str:
        """``C1``, ``O2``: element and 1-based position in the atom list (the table row)."""
        doc = self.ctx.document
        shown = doc.candidate if doc.candidate is not None else doc.project
        return labels_of(shown, [atom_id]).get(atom_id, atom_id)

    def run_edit(self, fn: Callable[[], Any]) -> bool:
        """Run an edit of the window's actions (Undo, Confirm, ...) like the tab's own:
        a refusal is shown under the view, an impossible valence is named."""
        return self._run(fn)

    def use_actions(self, actions: Mapping[str, QAction]) -> None:
        """Make the Undo, Redo, Confirm, Cancel and Load buttons the window's actions, so
        a click, the menu, the shortcut and ``ui_activate`` run one command."""
        for button, key in (
            (self.undo_button, "molforma.edit.undo"),
            (self.redo_button, "molforma.edit.redo"),
            (self.confirm_button, "molforma.edit.confirm"),
            (self.cancel_button, "molforma.edit.cancel"),
            (self.load_button, "molforma.file.load_structure"),
        ):
            button.setDefaultAction(actions[key])
        self.retranslate()

    # -- selection -------------------------------------------------------------------------

    def _fill_element_menu(self) -> None:
        self.select_element_menu.clear()
        present = sorted(set(self.view.scene.symbols[: int(self.view.scene.pickable.sum())]))
        for el in present:
            act = self.select_element_menu.addAction(el)
            act.setObjectName(f"selectElement_{el}")
            act.triggered.connect(lambda _c=False, e=el: self.selecting.select_element(e))
        self.select_element_menu.setEnabled(bool(present))

    # -- table and property edits ----------------------------------------------------------

    def _apply_molecule(self, values: dict[str, Any]) -> str | None:
        doc = self.ctx.document.project["document"]
        changed = {k: v for k, v in values.items() if doc.get(k) != v}
        if not changed:
            return None
        try:
            ops.set_molecule(self.ctx.document, **changed, preview=False, actor=window_actor())
        except MolFormaError as exc:
            return exc.message()
        return None

    # -- workers ---------------------------------------------------------------------------

    @Slot(int, int, float)
    def _on_step(self, done: int, maximum: int, energy: float) -> None:
        self._cleanup_step = (done, maximum, energy)
        self.progress.setFormat(f"{done} / {maximum}")
        self.message.setStyleSheet("")
        self.message.setText(self.work._step_text())

    @Slot(int, str)
    def _on_progress(self, percent: int, stage: str) -> None:
        self.progress.setValue(percent)
        if stage == "forcefield" and self._cleanup_step is None:
            self.show_message(self.tr("Cleaning up the geometry: setting up the force field…"))

    def _worker_finished(self) -> None:
        self.work._release_busy()
        if isinstance(self._worker, CleanupProcess):
            self._worker.deleteLater()
        self._worker = None
        self.ctx.events.documentChanged.emit(Change.BUSY)

    def shutdown(self) -> None:
        """Stop workers (the window closes)."""
        if self._worker is not None:
            self._worker.cancel()
            self._worker.wait(10000)
            self.work._release_busy()

    # -- what the collaborators do, under the names the window and its tests use
    def retranslate(self) -> None:
        self.texts.retranslate()

    def measure_name(self, ids: Sequence[str]) -> str:
        return self.geometry_editor.measure_name(ids)

    def apply_geometry_value(self, value: str | None = None) -> bool:
        return self.geometry_editor.apply_geometry_value(value)

    def keep_measurement(self, ids: Sequence[str] | None = None) -> bool:
        return self.geometry_editor.keep_measurement(ids)

    def add_atom_at(self, xyz: tuple[float, float, float]) -> bool:
        return self.edits.add_atom_at(xyz)

    def set_selection(self, ids: list[str]) -> None:
        self.selecting.set_selection(ids)

    def select_all(self) -> None:
        self.selecting.select_all()

    def copy_selection_xyz(self) -> bool:
        return self.selecting.copy_selection_xyz()

    def add_hydrogens(self) -> bool:
        return self.edits.add_hydrogens()

    def delete_selection(self) -> None:
        self.edits.delete_selection()

    def load_structure_file(self, path: str | None = None) -> bool:
        return self.edits.load_structure_file(path)

    def start_smiles(self, smiles: str | None = None) -> bool:
        return self.work.start_smiles(smiles)

    def start_cleanup(self) -> bool:
        return self.work.start_cleanup()

    @property
    def worker(self) -> Worker | CleanupProcess | None:
        return self.work.worker

    @property
    def worker_running(self) -> bool:
        return self.work.worker_running

    def worker_state(self) -> dict[str, Any]:
        return self.work.worker_state()

    def cancel_worker(self) -> None:
        self.work.cancel_worker()

    def worker_end(self, worker: Any) -> tuple[str, MolFormaError | None] | None:
        return self.work.worker_end(worker)
