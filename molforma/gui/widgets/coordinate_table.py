"""The editable coordinate table of the Molecule tab (Qt layer).

A model over the shown structure's columns (the candidate, read-only, while one
exists): ids, element kinds, ``xyz`` and fixed flags as numpy arrays, the same
:class:`~molforma.gui.view3d.structure_arrays.StructureArrays` the 3D view draws. The view asks
for the rows it shows, so a million atoms cost a million rows of nothing until they
are scrolled to. Editing the element or a coordinate asks the tab to run the matching
document operation; the model never changes atoms itself, so a refused edit leaves
the table showing the document as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from molforma.gui.view3d.structure_arrays import StructureArrays, empty_structure, structure_arrays

Index = QModelIndex | QPersistentModelIndex
_KEYS = ("id", "element", "x", "y", "z", "fixed")


class AtomTableModel(QAbstractTableModel):
    """Rows: atoms; columns: ID, Element, X, Y, Z (Å), Fixed."""

    def __init__(
        self, on_edit: Callable[[str, str, Any], bool], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._columns: StructureArrays = empty_structure()
        self._editable = True
        self._on_edit = on_edit

    @property
    def columns(self) -> StructureArrays:
        """The structure shown, as columns."""
        return self._columns

    def set_atoms(
        self, atoms: Sequence[Mapping[str, Any]] | StructureArrays, editable: bool
    ) -> None:
        """Show ``atoms`` (records or columns); ``editable`` False while a candidate is shown."""
        self.beginResetModel()
        self._columns = structure_arrays(atoms)
        self._editable = editable
        self.endResetModel()

    def set_editable(self, editable: bool) -> None:
        """Allow or refuse edits without resetting the rows (busy state changes)."""
        self._editable = editable

    def atom_id(self, row: int) -> str:
        """Atom id of a row."""
        return str(self._columns.ids[row])

    def row_of(self, atom_id: str) -> int | None:
        """Row of an atom id (O(1) after the first call)."""
        return self._columns.row_of(atom_id)

    def row_map(self) -> dict[str, int]:
        """Atom id -> row (what :meth:`row_of` reads), for looking many ids up at once."""
        return self._columns.row_map()

    def row_label(self, row: int) -> str:
        """``C5``: element and 1-based row, the label measurements and atom labels show."""
        cols = self._columns
        if not 0 <= row < cols.count:
            return str(row + 1)
        return f"{cols.kind_symbols[int(cols.kinds[row])]}{row + 1}"

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        """Number of atoms."""
        return 0 if parent.isValid() else self._columns.count

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        """Six columns."""
        return 0 if parent.isValid() else len(_KEYS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Translated column titles."""
        if orientation == Qt.Orientation.Vertical:
            # The row's label, as measurements, atom labels and messages name the atom
            # (element and row number: C5); the ID column keeps the stable id tools use.
            if role == Qt.ItemDataRole.DisplayRole:
                return self.row_label(section)
            if role == Qt.ItemDataRole.ToolTipRole and 0 <= section < self._columns.count:
                return (
                    self.tr("%1, atom id %2")
                    .replace("%1", self.row_label(section))
                    .replace("%2", self.atom_id(section))
                )
            return None
        if role == Qt.ItemDataRole.ToolTipRole and section == 0:
            return self.tr(
                "The atom's stable id (what files and MCP tools name); the row "
                "header is the label measurements use"
            )
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        titles = (
            self.tr("ID"),
            self.tr("Element"),
            self.tr("X (Å)"),
            self.tr("Y (Å)"),
            self.tr("Z (Å)"),
            self.tr("Fixed"),
        )
        return titles[section]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell text, edit value and check state."""
        if not index.isValid():
            return None
        cols, row = self._columns, index.row()
        if not 0 <= row < cols.count:
            return None
        key = _KEYS[index.column()]
        if key == "fixed":
            if role == Qt.ItemDataRole.CheckStateRole:
                return Qt.CheckState.Checked if cols.fixed[row] else Qt.CheckState.Unchecked
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if key in ("x", "y", "z"):
                val = float(cols.xyz[row, "xyz".index(key)])
                # Text for editing too, so the editor is a line edit with full precision.
                return f"{val:.5f}" if role == Qt.ItemDataRole.DisplayRole else repr(val)
            if key == "element":
                return cols.kind_symbols[int(cols.kinds[row])]
            return str(cols.ids[row])
        if role == Qt.ItemDataRole.ToolTipRole and key == "id":
            return (
                self.tr("%1, atom id %2")
                .replace("%1", self.row_label(row))
                .replace("%2", str(cols.ids[row]))
            )
        if role == Qt.ItemDataRole.TextAlignmentRole and key in ("x", "y", "z"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        """ID is read-only; the rest is editable when no candidate is shown."""
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if not index.isValid() or not self._editable or index.column() == 0:
            return base
        if _KEYS[index.column()] == "fixed":
            return base | Qt.ItemFlag.ItemIsUserCheckable
        return base | Qt.ItemFlag.ItemIsEditable

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """Hand the edit to the tab; the document change refreshes the table."""
        if not index.isValid() or not self._editable:
            return False
        key = _KEYS[index.column()]
        atom_id = self.atom_id(index.row())
        if key == "fixed":
            if role != Qt.ItemDataRole.CheckStateRole:
                return False
            checked = value in (Qt.CheckState.Checked, Qt.CheckState.Checked.value, 2, True)
            return self._on_edit(atom_id, "fixed", bool(checked))
        if role != Qt.ItemDataRole.EditRole:
            return False
        return self._on_edit(atom_id, key, value)


class CoordinateTable(QTableView):
    """The table view (objectName ``coordinateTable``)."""

    def __init__(
        self, on_edit: Callable[[str, str, Any], bool], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("coordinateTable")
        self.atom_model = AtomTableModel(on_edit, self)
        self.setModel(self.atom_model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.verticalHeader().setDefaultSectionSize(22)

    def selected_ids(self) -> list[str]:
        """Atom ids of the selected rows, in row order."""
        rows = sorted({i.row() for i in self.selectionModel().selectedRows()})
        return [self.atom_model.atom_id(r) for r in rows]
