"""Clicks, drags and keys on the Molecule tab's 3D view, by tool (Avogadro's Draw tool
gestures for Add atom) (Qt layer)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QPointF, Qt

from molforma.app import ops
from molforma.app.actor import window_actor
from molforma.document.chemistry import bond_length
from molforma.document.elements import normalize_symbol
from molforma.document.envelope import atoms_of, bonds_of
from molforma.gui.widgets.molecule_edits import AtomEdits
from molforma.gui.widgets.molecule_geometry import GeometryEditor
from molforma.gui.widgets.molecule_selection import AtomSelection
from molforma.gui.widgets.molecule_tab_support import (
    ELEMENT_KEY_MS,
    MoleculeTabHost,
)


class ViewClicks:
    """Turns clicks, drags and keys on the 3D view into edits, by the tool chosen.

    The state stays on the tab (``self.tab``); this class holds the behaviour only.
    """

    def __init__(
        self,
        tab: MoleculeTabHost,
        edits: AtomEdits,
        geometry_editor: GeometryEditor,
        selecting: AtomSelection,
    ) -> None:
        self.tab = tab
        self.edits = edits
        self.geometry_editor = geometry_editor
        self.selecting = selecting

    def _atom_clicked(self, atom_id: str, modifiers: Any) -> None:
        tool = self.tab.tool
        if tool in ("select", "move"):
            extend = bool(
                modifiers
                & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
            )
            sel = self.tab.view.selection()
            if extend:
                sel = [s for s in sel if s != atom_id] if atom_id in sel else [*sel, atom_id]
            else:
                sel = [atom_id]
            self.selecting.set_selection(sel)
        elif tool == "add":
            if self._element_of(atom_id) == "H":
                self.change_hydrogen(atom_id)
            else:
                self.edits.add_atom_bonded_to(atom_id)
        elif tool == "bond":
            self.edits._bond_click(
                atom_id, remove=bool(modifiers & Qt.KeyboardModifier.ShiftModifier)
            )
        elif tool == "erase":
            self.edits.erase_atoms([atom_id])
        elif tool == "place":
            self.edits.place_on(atom_id)

    def _background_clicked(self, pos: QPointF) -> None:
        if self.tab.tool == "add":
            x, y, z = self.tab.view.model_point_at(pos)
            self.edits.add_atom_at((x, y, z))
        elif self.tab.tool in ("select", "move"):
            self.selecting.set_selection([])
        elif self.tab.tool == "bond":
            self.tab._bond_first = None
            self.selecting.set_selection([])

    def _atoms_dragged(self, ids: list[str], delta: tuple[float, float, float]) -> None:
        self.tab._run(
            lambda: ops.move_atoms(
                self.tab.ctx.document,
                ids=ids,
                translate=list(delta),
                preview=False,
                actor=window_actor(),
            )
        )
        self.tab.refresh()

    def _element_of(self, atom_id: str) -> str | None:
        """The element of a confirmed atom (None for an atom of a candidate or unknown)."""
        for a in atoms_of(self.tab.ctx.document.project):
            if a["id"] == atom_id:
                return str(a["element"])
        return None

    def change_hydrogen(self, atom_id: str, element: str | None = None) -> bool:
        """Turn hydrogen ``atom_id`` into the chosen element, as Avogadro does (methane's H
        clicked with carbon gives ethane): it moves to the new bond length and, with
        "Adjust hydrogens" on, gets its own hydrogens; one undo step "Change element"."""
        el = element or self.tab.element
        if el == "H":
            self.tab.show_message(
                QCoreApplication.translate(
                    "MoleculeTab", "This atom is already H: choose another element to change it."
                ),
                error=True,
            )
            return False
        adjust = self.tab.adjust_hydrogens
        self.tab.view.forget_hover()
        return self.tab._run(
            lambda: ops.change_element(
                self.tab.ctx.document,
                atom_id,
                el,
                adjust_hydrogens=adjust,
                preview=False,
                actor=window_actor(),
            )
        )

    def _screen_direction(self, start: QPointF, end: QPointF) -> list[float]:
        """The model direction of a drag on screen (in the plane of the screen)."""
        d = self.tab.view.camera.screen_delta_to_model(end.x() - start.x(), end.y() - start.y())
        return [float(v) for v in d]

    def _draw_dragged(self, start: str, end: str, p0: QPointF, p1: QPointF) -> None:
        if self.tab.tool != "add":
            return
        if start and end and start != end:
            self.bond_by_drag(start, end)
        elif start:
            origin = self.tab.view.atom_screen_pos(start) or p0
            self.draw_from(start, self._screen_direction(origin, p1))
        elif end:
            # From empty space onto an atom: a new atom bonded to it, on the side drawn from.
            origin = self.tab.view.atom_screen_pos(end) or p1
            self.draw_from(end, self._screen_direction(origin, p0))
        else:
            self.draw_two_atoms(self.tab.view.model_point_at(p0), self._screen_direction(p0, p1))

    def draw_from(self, atom_id: str, toward: Sequence[float]) -> bool:
        """A drag from ``atom_id``: a bonded atom of the chosen element in direction
        ``toward`` at its typical bond length (a hydrogen dragged from becomes the element
        first); one undo step "Add atoms"."""
        el = self.tab.element
        if el == "H" and self._element_of(atom_id) == "H":
            self.tab.show_message(
                QCoreApplication.translate(
                    "MoleculeTab", "This atom is already H: choose another element to change it."
                ),
                error=True,
            )
            return False
        adjust = self.tab.adjust_hydrogens
        self.tab.view.forget_hover()
        return self.tab._run(
            lambda: ops.draw_from_atom(
                self.tab.ctx.document,
                atom_id,
                el,
                list(toward),
                adjust_hydrogens=adjust,
                preview=False,
                actor=window_actor(),
            )
        )

    def draw_two_atoms(self, xyz: Sequence[float], toward: Sequence[float]) -> bool:
        """A drag from empty space: two bonded atoms of the chosen element, the first at
        ``xyz``, the second along ``toward`` at their bond length; one undo step."""
        el = self.tab.element
        d = np.asarray(toward, float)
        norm = float(np.linalg.norm(d))
        d = d / norm if norm > 1e-9 else np.array([1.0, 0.0, 0.0])
        first = np.asarray(xyz, float)
        second = first + d * bond_length(el, el, 1)
        adjust = self.tab.adjust_hydrogens
        self.tab.view.hold_camera_once()
        self.tab.view.forget_hover()
        return self.tab._run(
            lambda: ops.add_atoms(
                self.tab.ctx.document,
                [
                    {"element": el, "position": first.tolist()},
                    {"element": el, "position": second.tolist()},
                ],
                [{"a": "#0", "b": "#1", "order": 1}],
                preview=False,
                actor=window_actor(),
                adjust_hydrogens=adjust,
            )
        )

    def bond_by_drag(self, a: str, b: str) -> bool:
        """A drag from atom ``a`` released on atom ``b``: a single bond between them
        (hydrogens follow when "Adjust hydrogens" is on)."""
        if any({x["a"], x["b"]} == {a, b} for x in bonds_of(self.tab.ctx.document.project)):
            self.tab.show_message(
                QCoreApplication.translate(
                    "MoleculeTab",
                    "%1 and %2 are bonded already: click the bond to change its order.",
                )
                .replace("%1", self.tab.atom_label(a))
                .replace("%2", self.tab.atom_label(b)),
                error=True,
            )
            return False
        return self.edits.set_bond_order(a, b, 1)

    def _bond_clicked(self, a: str, b: str, _modifiers: Any) -> None:
        if self.tab.tool == "add":
            self.cycle_bond_order(a, b)

    def cycle_bond_order(self, a: str, b: str) -> bool:
        """The Add-atom tool clicked on bond a–b: its order goes 1 → 2 → 3 → 1, the
        hydrogens following when "Adjust hydrogens" is on (as the Bond tool does)."""
        order = self._bond_order(a, b)
        if order is None:
            return False
        new = order % 3 + 1
        self.tab.view.forget_hover()
        return self.tab._run(
            lambda: ops.set_bonds(
                self.tab.ctx.document,
                [{"a": a, "b": b, "order": new}],
                preview=False,
                actor=window_actor(),
                adjust_hydrogens=self.tab.adjust_hydrogens,
            ),
            QCoreApplication.translate("MoleculeTab", "Bond %1 is now of order %2.")
            .replace("%1", self.geometry_editor.measure_name([a, b]))
            .replace("%2", str(new)),
        )

    def _bond_order(self, a: str, b: str) -> int | None:
        return next(
            (
                int(x.get("order", 1))
                for x in bonds_of(self.tab.ctx.document.project)
                if {x["a"], x["b"]} == {a, b}
            ),
            None,
        )

    def click_hint(self, atom_id: str, bond: tuple[str, str] | None) -> str:
        """What the Add-atom tool does where the pointer is: "Click: change H to C",
        "Click: bond order 2", "Drag: draw a bonded C" (empty outside the tool)."""
        if self.tab.tool != "add":
            return ""
        el = self.tab.element
        if atom_id:
            own = self._element_of(atom_id)
            if own is None:
                return ""
            drag = QCoreApplication.translate("MoleculeTab", "Drag: draw a bonded %1").replace(
                "%1", el
            )
            if own == "H" and el != "H":
                click = QCoreApplication.translate("MoleculeTab", "Click: change H to %1").replace(
                    "%1", el
                )
            elif own == "H":
                return ""  # a hydrogen stays one hydrogen
            else:
                click = QCoreApplication.translate("MoleculeTab", "Click: attach a %1").replace(
                    "%1", el
                )
            return f"{click} · {drag}"
        if bond is not None:
            order = self._bond_order(*bond)
            if order is None:
                return ""
            return QCoreApplication.translate("MoleculeTab", "Click: bond order %1").replace(
                "%1", str(order % 3 + 1)
            )
        return (
            QCoreApplication.translate("MoleculeTab", "Click: add a %1").replace("%1", el)
            + " · "
            + QCoreApplication.translate("MoleculeTab", "Drag: draw two bonded %1").replace(
                "%1", el
            )
        )

    def _pointer_hovered(self, atom_id: str, bond: object) -> None:
        pair = bond if isinstance(bond, tuple) else None
        hint = self.click_hint(atom_id, pair)
        self.tab.draw_hint.setText(hint)
        if hint:
            # Beside the pointer too, with what the view's tooltip says of the atom.
            tip = self.tab.view.canvas.toolTip()
            base = tip.split("\n")[0] if atom_id and tip else ""
            self.tab.view.canvas.setToolTip(f"{base}\n{hint}" if base else hint)

    def _is_element_key(self, ev: Any) -> bool:
        mods = ev.modifiers() & ~(
            Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.KeypadModifier
        )
        text = ev.text()
        return (
            self.tab.tool == "add"
            and mods == Qt.KeyboardModifier.NoModifier
            and len(text) == 1
            and text.isascii()
            and text.isalpha()
        )

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
        recent = (time.monotonic() - self.tab._typed_at) * 1000 < ELEMENT_KEY_MS
        if recent and len(self.tab._typed) == 1:
            two = normalize_symbol(self.tab._typed.upper() + letter.lower())
            if two and len(two) == 2:
                return two
        one = normalize_symbol(letter.upper())
        return one if one and len(one) == 1 else None

    def type_element_key(self, letter: str) -> bool:
        """A letter typed into the view with the Add-atom tool: choose the element it
        names (see :data:`ELEMENT_KEY_MS`); False when no element starts with it."""
        el = self._element_for(letter)
        if el is None:
            self.tab._typed = ""
            return False
        self.tab._typed = letter if len(el) == 1 else ""
        self.tab._typed_at = time.monotonic()
        self.tab.set_element(el)
        self.tab.show_message(
            QCoreApplication.translate("MoleculeTab", "Element: %1").replace("%1", el)
        )
        self.tab.view.forget_hover()
        return True
