"""The Molecule tab's selection: by click, box, element or fragment, mirrored in the
coordinate table, and copied as XYZ (Qt layer)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QItemSelection, QItemSelectionModel, Qt
from PySide6.QtGui import QGuiApplication

from molforma.document.bond_table import component_labels
from molforma.document.envelope import atoms_of
from molforma.document.geometry import components
from molforma.document.molecule import AtomTable, BondTable
from molforma.gui.widgets.molecule_lookup import rows_of
from molforma.gui.widgets.molecule_tab_support import MoleculeTabHost


def row_runs(rows: Sequence[int]) -> list[tuple[int, int]]:
    """``rows`` as sorted runs of consecutive rows, ``(first, last)`` inclusive."""
    if not len(rows):
        return []
    r = np.asarray(rows, dtype=np.int64)
    if not bool((r[1:] > r[:-1]).all()):  # already sorted and distinct (select all): as is
        r = np.unique(r)
    breaks = np.flatnonzero(np.diff(r) != 1)
    starts = np.concatenate([[0], breaks + 1])
    stops = np.concatenate([breaks, [len(r) - 1]])
    return list(zip(r[starts].tolist(), r[stops].tolist(), strict=True))


def fragment_ids(shown: Mapping[str, Any], ids: Sequence[str]) -> list[str] | None:
    """The ids of the bonded fragments holding ``ids``, read from the column tables
    (connected components on the bond rows), in the record path's order: largest fragment
    first, then by first atom, atoms in document order. None for a record document."""
    atoms, bonds = shown["document"]["atoms"], shown["document"]["bonds"]
    if not isinstance(atoms, AtomTable) or not isinstance(bonds, BondTable):
        return None
    ia, ib = bonds.rows_in(atoms)
    ok = (ia >= 0) & (ib >= 0)
    lab = component_labels(len(atoms), ia[ok], ib[ok])
    picked = rows_of(shown, list(ids))
    picked = picked[picked >= 0]
    if not len(picked):
        return []
    rows = np.flatnonzero(np.isin(lab, np.unique(lab[picked])))
    sizes = np.bincount(lab, minlength=len(atoms))[lab[rows]]
    rows = rows[np.lexsort((rows, lab[rows], -sizes))]
    return [f"a{i}" for i in atoms.ids[rows].tolist()]


def xyz_text(shown: Mapping[str, Any], ids: Sequence[str], title: str) -> str | None:
    """The atoms ``ids`` (all when empty) as XYZ text formatted from the columns, in
    document order; None for a record document."""
    atoms = shown["document"]["atoms"]
    if not isinstance(atoms, AtomTable):
        return None
    if ids:
        rows = rows_of(shown, list(ids))
        rows = np.unique(rows[rows >= 0])
        symbols, xyz = atoms.symbols[rows], atoms.xyz[rows]
    else:
        symbols, xyz = atoms.symbols, atoms.xyz
    lines = [str(len(symbols)), title.replace("\n", " ")]
    lines += [
        "%-2s %14.8f %14.8f %14.8f" % row  # noqa: UP031 - one format for a million rows
        for row in zip(symbols.tolist(), *xyz.T.tolist(), strict=True)
    ]
    return "\n".join(lines) + "\n"


class AtomSelection:
    """Selects atoms (click, box, element, fragment) and mirrors them in the table.

    The state stays on the tab (``self.tab``); this class holds the behaviour only.
    """

    def __init__(self, tab: MoleculeTabHost) -> None:
        self.tab = tab

    def set_selection(self, ids: list[str]) -> None:
        """Select atoms in the view and the table."""
        self.tab.view.set_selection(ids)
        self.tab._syncing = True
        try:
            self._select_rows(self.tab.view.selection())
        finally:
            self.tab._syncing = False
        self.tab._update_state()

    def select_all(self) -> None:
        """Select every shown atom."""
        self.set_selection(list(self.tab.view.scene.ids[: int(self.tab.view.scene.pickable.sum())]))

    def _shown_ids(self) -> list[str]:
        return list(self.tab.view.scene.ids[: int(self.tab.view.scene.pickable.sum())])

    def invert_selection(self) -> None:
        """Select the shown atoms that are not selected, and only those."""
        sel = set(self.tab.view.selection())
        self.set_selection([i for i in self._shown_ids() if i not in sel])

    def select_element(self, element: str) -> None:
        """Select every shown atom of ``element``."""
        sd = self.tab.view.scene
        n = int(sd.pickable.sum())
        self.set_selection(
            [i for i, e in zip(sd.ids[:n], sd.symbols[:n], strict=True) if e == element]
        )

    def select_fragment(self, ids: Sequence[str] | None = None) -> None:
        """Select the whole bonded fragments of ``ids`` (default: the selection)."""
        doc = self.tab.ctx.document
        shown = doc.candidate if doc.candidate is not None else doc.project
        chosen = self.tab.view.selection() if ids is None else ids
        columns = fragment_ids(shown, chosen)
        if columns is not None:
            self.set_selection(columns)
            return
        want = set(chosen)
        out: list[str] = []
        for comp in components(shown):
            if want & set(comp):
                out += comp
        self.set_selection(out)

    def _box_selected(self, ids: list[str], modifiers: Any) -> None:
        if modifiers & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier):
            ids = [
                *self.tab.view.selection(),
                *[i for i in ids if i not in self.tab.view.selection()],
            ]
        self.set_selection(ids)

    def selection_xyz(self) -> str:
        """The selected atoms (all when none is selected) as an XYZ file text."""
        doc = self.tab.ctx.document
        shown = doc.candidate if doc.candidate is not None else doc.project
        title = str(shown["document"].get("title", "") or "")
        columns = xyz_text(shown, self.tab.view.selection(), title)
        if columns is not None:
            return columns
        sel = set(self.tab.view.selection())
        atoms = [a for a in atoms_of(shown) if not sel or a["id"] in sel]
        lines = [str(len(atoms)), title.replace("\n", " ")]
        lines += [
            f"{a['element']:<2} {float(a['x']):14.8f} {float(a['y']):14.8f} {float(a['z']):14.8f}"
            for a in atoms
        ]
        return "\n".join(lines) + "\n"

    def copy_selection_xyz(self) -> bool:
        """Ctrl+C: copy the selected atoms (all when none is selected) as XYZ text."""
        doc = self.tab.ctx.document
        shown = doc.candidate if doc.candidate is not None else doc.project
        if not atoms_of(shown):
            self.tab.show_message(
                QCoreApplication.translate("MoleculeTab", "There are no atoms to copy."), error=True
            )
            return False
        text = self.selection_xyz()
        QGuiApplication.clipboard().setText(text)
        count = int(text.split("\n", 1)[0])
        self.tab.show_message(
            QCoreApplication.translate("MoleculeTab", "Copied %1 atom(s) as XYZ.").replace(
                "%1", str(count)
            )
        )
        return True

    def _select_rows(self, ids: list[str]) -> None:
        model = self.tab.table.atom_model
        sel = QItemSelection()
        if not ids:
            self.tab.table.selectionModel().select(
                sel, QItemSelectionModel.SelectionFlag.ClearAndSelect
            )
            return
        rows = [r for r in map(model.row_map().get, ids) if r is not None]
        # One range per run of consecutive rows: selecting all of 1,000,000 atoms is one
        # range, not a million.
        last = model.columnCount() - 1
        for start, stop in row_runs(rows):
            sel.select(model.index(start, 0), model.index(stop, last))
        self.tab.table.selectionModel().select(
            sel, QItemSelectionModel.SelectionFlag.ClearAndSelect
        )

    def _table_selection(self) -> None:
        if self.tab._syncing:
            return
        self.tab.view.set_selection(self.tab.table.selected_ids())
        self.tab._update_state()
