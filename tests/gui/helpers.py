"""Small helpers shared by the window tests."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QPointF, Qt

WATER = [
    {"element": "O", "position": [0.0, 0.0, 0.117]},
    {"element": "H", "position": [0.0, 0.757, -0.469]},
    {"element": "H", "position": [0.0, -0.757, -0.469]},
]


def click_view(qtbot: Any, view: Any, pos: QPointF | QPoint,
               modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """A left click on the 3D view's canvas at ``pos`` (widget pixels)."""
    p = pos.toPoint() if isinstance(pos, QPointF) else pos
    qtbot.mouseClick(view.canvas, Qt.MouseButton.LeftButton, modifier, p)


def click_atom(qtbot: Any, view: Any, atom_id: str,
               modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """Click where ``atom_id`` is drawn."""
    pos = view.atom_screen_pos(atom_id)
    assert pos is not None, f"{atom_id} is not shown"
    click_view(qtbot, view, pos, modifier)


def empty_spot(view: Any) -> QPoint:
    """A point of the view where no atom is drawn."""
    from molforma.gui.view3d.scene import pick

    w, h = view.canvas.width(), view.canvas.height()
    for x in range(10, w, 17):
        for y in range(10, h, 17):
            if pick(view.scene, view.camera, x, y, w, h) is None:
                return QPoint(x, y)
    raise AssertionError("no empty spot")
