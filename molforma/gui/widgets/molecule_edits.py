"""The Molecule tab's edits of atoms and bonds: the tools' actions, the table and
property edits, hydrogens, deletion and loading a structure file (Qt layer)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from molforma.app import files, ops
from molforma.app.actor import window_actor
from molforma.document import building
from molforma.document.envelope import atoms_of, bonds_of
from molforma.errors import CandidateExistsError, MolFormaError
from molforma.gui import dialogs
from molforma.gui.widgets.molecule_geometry import GeometryEditor
from molforma.gui.widgets.molecule_lookup import labels_of, metal_ids
from molforma.gui.widgets.molecule_selection import AtomSelection
from molforma.gui.widgets.molecule_tab_support import (
    STRUCTURE_FILTER,
    MoleculeTabHost,
)
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.app import place_clicks
    from molforma.gui.widgets import structure_choice
else:  # imported on first use (start-up time): molforma.lazy
    place_clicks = lazy_import("molforma.app.place_clicks")
    structure_choice = lazy_import("molforma.gui.widgets.structure_choice")


class AtomEdits:
    """Applies the tab's edits of atoms and bonds (tools, table, properties, files).

    The state stays on the tab (``self.tab``); this class holds the behaviour only.
    """

    def __init__(
        self,
        tab: MoleculeTabHost,
        geometry_editor: GeometryEditor,
        selecting: AtomSelection,
        parent: QWidget,
    ) -> None:
        self.tab = tab
        self.geometry_editor = geometry_editor
        self.selecting = selecting
        self.parent = parent

    def add_atom_at(self, xyz: tuple[float, float, float]) -> bool:
        """Add one atom of the chosen element at ``xyz`` (one undo step)."""
        el = self.tab.element
        adjust = self.tab.adjust_hydrogens
        self.tab.view.hold_camera_once()
        return self.tab._run(
            lambda: ops.add_atoms(
                self.tab.ctx.document,
                [{"element": el, "position": list(xyz)}],
                preview=False,
                actor=window_actor(),
                adjust_hydrogens=adjust,
            )
        )

    def add_atom_bonded_to(self, atom_id: str, element: str | None = None) -> bool:
        """Add an atom of the chosen element bonded to ``atom_id`` where the parent's
        hybridisation puts its next bond (one undo step, "Add atoms"); with "Adjust
        hydrogens" on it takes the place of one of the parent's hydrogens and both atoms
        get the hydrogens their valences leave open."""
        el = element or self.tab.element
        # A lone parent: to the right on screen, where the person is likely to look.
        hint = (self.tab.view.camera.rot.T @ np.array([1.0, 0.0, 0.0])).tolist()
        adjust = self.tab.adjust_hydrogens
        added: list[Any] = []
        ok = self.tab._run(
            lambda: added.append(
                place_clicks.add_bonded_atom_to_confirmed(
                    self.tab.ctx.document,
                    atom_id,
                    el,
                    actor=window_actor(),
                    adjust_hydrogens=adjust,
                    hint=hint,
                )
            )
        )
        return ok and added[0] is not None

    def _bond_click(self, atom_id: str, *, remove: bool = False) -> None:
        if self.tab._bond_first is None or self.tab._bond_first == atom_id:
            self.tab._bond_first = atom_id
            self.selecting.set_selection([atom_id])
            self.tab.show_message(
                QCoreApplication.translate(
                    "MoleculeTab", "Now click the second atom (Shift-click removes the bond)."
                )
            )
            return
        first, self.tab._bond_first = self.tab._bond_first, None
        self.selecting.set_selection([])
        self.bond_atoms(first, atom_id, remove=remove)

    def bond_atoms(self, a: str, b: str, *, remove: bool = False) -> bool:
        """Add a single bond, raise the order of an existing one (3 wraps to 1), or remove it."""
        proj = self.tab.ctx.document.project
        order = 1
        for bond in bonds_of(proj):
            if {bond["a"], bond["b"]} == {a, b}:
                order = int(bond.get("order", 1)) % 3 + 1
        if remove:
            order = 0
        return self.set_bond_order(a, b, order)

    def set_bond_order(self, a: str, b: str, order: int) -> bool:
        """Set the bond a–b to ``order`` (0 removes it), adjusting hydrogens when asked."""
        adjust = self.tab.adjust_hydrogens
        return self.tab._run(
            lambda: ops.set_bonds(
                self.tab.ctx.document,
                [{"a": a, "b": b, "order": order}],
                preview=False,
                actor=window_actor(),
                adjust_hydrogens=adjust,
            )
        )

    def place_on(self, site: str) -> bool:
        """Place the chosen fragment/ligand on ``site``; confirm this tab's previous placement."""
        part = self.tab.palette.current_part()
        if part is None:
            self.tab.toggle_palette(True)
            self.tab.show_message(
                QCoreApplication.translate(
                    "MoleculeTab", "Choose a fragment or ligand in the parts palette first."
                ),
                error=True,
            )
            return False
        kind, name = part
        doc = self.tab.ctx.document

        if (
            site == self.tab._placement_site
            and self.tab._placement_revision is not None
            and doc.candidate is not None
        ):
            # The same atom again: the placement shown is the one wanted (the tooltip's
            # promise); confirm it and place no second copy.
            previous, self.tab._placement_revision = self.tab._placement_revision, None
            self.tab._placement_site = None
            return self.tab._run(
                lambda: place_clicks.confirm_placement(
                    doc, actor=window_actor(), previous=previous
                ),
                QCoreApplication.translate("MoleculeTab", "Placement confirmed."),
            )

        placed: list[place_clicks.Placed | None] = []
        refused: list[bool] = []

        def place() -> None:
            try:
                placed.append(
                    place_clicks.confirm_then_propose_placement(
                        doc,
                        name,
                        site,
                        kind=kind,
                        actor=window_actor(),
                        previous=self.tab._placement_revision,
                    )
                )
            except CandidateExistsError:
                refused.append(True)

        ok = self.tab._run(place)
        if refused:
            self.tab.show_message(
                QCoreApplication.translate(
                    "MoleculeTab", "Confirm or cancel the current candidate first."
                ),
                error=True,
            )
            return False
        done = placed[0] if ok and placed else None
        self.tab._placement_revision = done.revision if done is not None else None
        self.tab._placement_site = site if done is not None else None
        if done is None:
            return False
        if doc.candidate is not None:
            self._warn_placement(done.before, doc.candidate, site, kind, name)
        return True

    def _warn_placement(
        self, before: dict[str, Any], after: dict[str, Any], site: str, kind: str, name: str
    ) -> None:
        """Say when a placement looks wrong; the candidate stays for the person to judge."""
        problems = building.placement_problems(before, after, site, kind)
        if "not_a_metal" in problems:
            self.tab.show_message(
                QCoreApplication.translate(
                    "MoleculeTab",
                    "%1 is not a metal: ligand %2 normally binds to a metal. Cancel the candidate "
                    'and click the metal, or choose it under "Place on".',
                )
                .replace("%1", self.tab.atom_label(site))
                .replace("%2", name),
                error=True,
            )
        elif "valence" in problems:
            self.tab.show_message(
                QCoreApplication.translate(
                    "MoleculeTab",
                    "Placing %1 gives %2 an impossible valence (ringed red). Cancel the candidate "
                    "to undo it.",
                )
                .replace("%1", name)
                .replace("%2", ", ".join(self.tab.atom_label(i) for i in problems["valence"])),
                error=True,
            )

    def place_on_metal(self) -> bool:
        """Place the chosen part on the metal picked in ``placeMetalCombo`` (a metal hidden
        behind its ligands cannot be clicked)."""
        site = self.tab.metal_combo.currentData()
        return bool(site) and self.place_on(str(site))

    def _fill_metal_combo(self) -> None:
        doc = self.tab.ctx.document
        metals = metal_ids(doc.project)  # from the element column, not every atom's record
        labels = labels_of(doc.candidate if doc.candidate is not None else doc.project, metals)
        keep = self.tab.metal_combo.currentData()
        self.tab.metal_combo.blockSignals(True)
        self.tab.metal_combo.clear()
        for aid in metals:
            self.tab.metal_combo.addItem(labels.get(aid, aid), aid)
        if keep in metals:
            self.tab.metal_combo.setCurrentIndex(metals.index(keep))
        self.tab.metal_combo.blockSignals(False)
        show = self.tab.tool == "place" and bool(metals)
        for w in (self.tab.metal_label, self.tab.metal_combo, self.tab.metal_button):
            w.setVisible(show)

    def add_hydrogens(self) -> bool:
        """Fill open valences with hydrogen (selected atoms, or all), one undo step."""
        ids = self.tab.view.selection() or None
        return self.tab._run(
            lambda: ops.add_hydrogens(
                self.tab.ctx.document, ids, preview=False, actor=window_actor()
            )
        )

    def delete_selection(self) -> None:
        """Delete the selected atoms (one undo step)."""
        ids = self.tab.view.selection()
        if ids:
            self.erase_atoms(ids)

    def erase_atoms(self, ids: list[str]) -> bool:
        """Delete atoms (with their hydrogens and re-filled neighbours when "Adjust
        hydrogens" is on), one undo step."""
        adjust = self.tab.adjust_hydrogens
        return self.tab._run(
            lambda: ops.delete_atoms(
                self.tab.ctx.document,
                ids,
                preview=False,
                actor=window_actor(),
                adjust_hydrogens=adjust,
            )
        )

    def set_element_of(self, ids: list[str], element: str) -> bool:
        """Change the element of atoms (hydrogens follow when "Adjust hydrogens" is on)."""
        adjust = self.tab.adjust_hydrogens
        return self.tab._run(
            lambda: ops.set_atom_properties(
                self.tab.ctx.document,
                [{"id": i, "element": element} for i in ids],
                preview=False,
                actor=window_actor(),
                adjust_hydrogens=adjust,
            )
        )

    def _table_edit(self, atom_id: str, key: str, value: Any) -> bool:
        doc = self.tab.ctx.document
        if key in ("x", "y", "z"):
            try:
                v = float(str(value).replace(",", "."))
            except ValueError:
                self.tab.show_message(
                    QCoreApplication.translate("MoleculeTab", "'%1' is not a number.").replace(
                        "%1", str(value)
                    ),
                    error=True,
                )
                return False
            atom = next(a for a in atoms_of(doc.project) if a["id"] == atom_id)
            pos = [float(atom["x"]), float(atom["y"]), float(atom["z"])]
            pos["xyz".index(key)] = v
            return self.tab._run(
                lambda: ops.move_atoms(
                    doc, positions={atom_id: pos}, preview=False, actor=window_actor()
                )
            )
        if key == "element":
            return self.set_element_of([atom_id], str(value).strip())
        if key == "fixed":
            return self.tab._run(
                lambda: ops.set_atom_properties(
                    doc,
                    [{"id": atom_id, "fixed": bool(value)}],
                    preview=False,
                    actor=window_actor(),
                )
            )
        return False

    def _apply_atom_properties(self, changes: list[dict[str, Any]]) -> str | None:
        try:
            ops.set_atom_properties(
                self.tab.ctx.document,
                changes,
                preview=False,
                actor=window_actor(),
                adjust_hydrogens=self.tab.adjust_hydrogens,
            )
        except MolFormaError as exc:
            return exc.message()
        return None

    def load_structure_file(self, path: str | None = None) -> bool:
        """Replace atoms and bonds from a file, keeping every setting (one undo step)."""
        if path is None:
            path = dialogs.get_open_path(
                self.parent,
                QCoreApplication.translate("MoleculeTab", "Load structure file"),
                [
                    QCoreApplication.translate("MoleculeTab", "Structure files")
                    + f" ({STRUCTURE_FILTER})",
                    QCoreApplication.translate("MoleculeTab", "All files") + " (*)",
                ],
            )
        if not path:
            return False

        done: list[Any] = []

        def load() -> None:
            done.append(
                files.load_structure(
                    self.tab.ctx,
                    str(path),
                    actor=window_actor(),
                    read=lambda p: structure_choice.read_with_choices(self.parent, p),
                )
            )

        if not self.tab._run(
            load,
            QCoreApplication.translate("MoleculeTab", "Loaded %1").replace("%1", Path(path).name),
        ):
            return False
        if done[0] is None:  # the person cancelled the frame choice
            self.tab.show_message("")
            return False
        return True
