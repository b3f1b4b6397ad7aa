"""What get_ui_item reads of one control beyond its value: the rows of a list, tree or table
with their rectangles on screen (where ui_input can click), a combo box's items, a tab
widget's tabs, and a 3D view's atoms at their screen positions (Qt layer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QRect, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QListWidget,
    QTableView,
    QTableWidget,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from molforma.gui.view3d.base import MoleculeView
from molforma.mcp.ui_paging import page


def mol_view(obj: QObject) -> MoleculeView | None:
    """The 3D view ``obj`` is, or whose canvas it is."""
    if isinstance(obj, MoleculeView):
        return obj
    parent = obj.parent()
    if isinstance(obj, QWidget) and isinstance(parent, MoleculeView) and obj is parent.canvas:
        return parent
    return None


def _rect(r: QRect) -> dict[str, int]:
    return {"x": r.x(), "y": r.y(), "width": r.width(), "height": r.height()}


def item_details(
    obj: QObject, offset: int, limit: Any, id_of: Callable[[QObject], str]
) -> dict[str, Any]:
    """The rows of a list, tree or table (a page from ``offset``, at most ``limit``), a
    combo box's items, a tab widget's tabs, a 3D view's atoms on screen; ``id_of`` names
    the view's canvas as get_ui does."""
    out: dict[str, Any] = {}
    lim = int(limit) if isinstance(limit, int) else None
    if isinstance(obj, QComboBox):
        out["items"] = [obj.itemText(i) for i in range(obj.count())]
        out["currentIndex"] = obj.currentIndex()
    elif isinstance(obj, QTabWidget):
        out["tabs"] = [
            {"index": i, "text": obj.tabText(i), "enabled": obj.isTabEnabled(i)}
            for i in range(obj.count())
        ]
    elif isinstance(obj, QTreeWidget):
        flat: list[tuple[QTreeWidgetItem, list[int]]] = []

        def walk(item: QTreeWidgetItem, parents: list[int]) -> None:
            here = len(flat)
            flat.append((item, parents))
            for k in range(item.childCount()):
                child = item.child(k)
                if child is not None:  # always, for k below childCount()
                    walk(child, [*parents, here])

        for i in range(obj.topLevelItemCount()):
            top_item = obj.topLevelItem(i)
            if top_item is not None:
                walk(top_item, [])

        def tree_row(i: int) -> dict[str, Any]:
            item, parents = flat[i]
            return {
                "row": i,
                "cells": [item.text(c) for c in range(obj.columnCount())],
                "parentRows": parents,
                "rect": _rect(obj.visualItemRect(item)),
                "selected": item.isSelected(),
            }

        rows, nxt = page(len(flat), tree_row, offset, lim)
        out.update(
            rows=rows, nextOffset=nxt, rowCount=len(flat), viewport=_rect(obj.viewport().geometry())
        )
    elif isinstance(obj, QListWidget):

        def list_row(i: int) -> dict[str, Any]:
            it = obj.item(i)
            return {
                "row": i,
                "text": it.text(),
                "rect": _rect(obj.visualItemRect(it)),
                "selected": it.isSelected(),
                "parentRows": [],
            }

        rows, nxt = page(obj.count(), list_row, offset, lim)
        out.update(
            rows=rows,
            nextOffset=nxt,
            rowCount=obj.count(),
            viewport=_rect(obj.viewport().geometry()),
        )
    elif isinstance(obj, QTableView):
        model = obj.model()
        ncol = model.columnCount() if model else 0
        headers = [str(model.headerData(c, Qt.Orientation.Horizontal) or "") for c in range(ncol)]
        selected = (
            {i.row() for i in obj.selectionModel().selectedRows()}
            if obj.selectionModel() is not None
            else set()
        )
        # The rows on screen now: their cell rectangles are where ui_input can click.
        nrows = model.rowCount() if model else 0
        first = obj.rowAt(0) if nrows else -1
        last = obj.rowAt(obj.viewport().height() - 1) if nrows else -1
        if nrows and first >= 0 and last < 0:
            last = nrows - 1

        def table_row(r: int) -> dict[str, Any]:
            cells = []
            rects = []
            for c in range(ncol):
                idx = model.index(r, c, QModelIndex())
                cells.append(
                    _cell_text(
                        model.data(idx, Qt.ItemDataRole.DisplayRole),
                        model.data(idx, Qt.ItemDataRole.CheckStateRole),
                    )
                )
                rects.append(_rect(obj.visualRect(idx)))
            return {
                "row": r,
                "cells": cells,
                "cellRects": rects,
                "parentRows": [],
                "selected": r in selected,
                "visible": first <= r <= last,
            }

        rows, nxt = page(model.rowCount() if model else 0, table_row, offset, lim)
        out.update(
            columns=headers,
            rows=rows,
            nextOffset=nxt,
            rowCount=model.rowCount() if model else 0,
            visibleRows={"first": first, "last": last} if first >= 0 else None,
            viewport=_rect(obj.viewport().geometry()),
        )
        if isinstance(obj, QTableWidget):
            out["editable"] = obj.editTriggers() != QAbstractItemView.EditTrigger.NoEditTriggers
    elif (view := mol_view(obj)) is not None:
        ids = [str(i) for i in view.scene.ids]

        def atom_row(i: int) -> dict[str, Any]:
            p = view.atom_screen_pos(ids[i])
            return {
                "atomId": ids[i],
                "x": round(p.x(), 1) if p is not None else None,
                "y": round(p.y(), 1) if p is not None else None,
            }

        rows, nxt = page(len(ids), atom_row, offset, lim)
        out.update(
            atoms=rows,
            nextOffset=nxt,
            atomCount=len(ids),
            selection=list(view.selection()),
            style=view.style,
            renderer=view.renderer_name,
            viewport=_rect(view.canvas.geometry()),
            canvas=id_of(view.canvas),
        )
    return out


def _cell_text(display: Any, check: Any) -> Any:
    if check is not None and display in (None, ""):
        try:
            return Qt.CheckState(check) == Qt.CheckState.Checked
        except (TypeError, ValueError):
            return bool(check)
    return "" if display is None else str(display)
