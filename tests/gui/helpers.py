"""Small helpers shared by the window tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt

from tests.paths import REPO

WATER = [
    {"element": "O", "position": [0.0, 0.0, 0.117]},
    {"element": "H", "position": [0.0, 0.757, -0.469]},
    {"element": "H", "position": [0.0, -0.757, -0.469]},
]


def click_view(
    qtbot: Any,
    view: Any,
    pos: QPointF | QPoint,
    modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    """A left click on the 3D view's canvas at ``pos`` (widget pixels)."""
    p = pos.toPoint() if isinstance(pos, QPointF) else pos
    qtbot.mouseClick(view.canvas, Qt.MouseButton.LeftButton, modifier, p)


def click_atom(
    qtbot: Any,
    view: Any,
    atom_id: str,
    modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
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


def water_context(job_root: Any) -> Any:
    """An AppContext holding water at STO-3G with jobs under ``job_root``; yields it and
    stops its jobs and closes it afterwards (the body of the Execution-panel fixtures)."""
    from molforma.app import ops
    from molforma.gui.context import AppContext

    context = AppContext.create()
    ops.add_atoms(context.document, WATER, preview=False)
    ops.set_nwchem(context.document, {"basis": "sto-3g"}, preview=False)
    ops.set_execution(context.document, {"job_root": str(job_root)}, preview=False)
    yield context
    if context.jobs is not None:
        context.jobs.stop_all(timeout=5)
    context.close()


def execution_panel(qtbot: Any, ctx: Any, size: tuple[int, int] | None = None) -> Any:
    """An Execution panel on ``ctx``, shown (at ``size`` when given)."""
    from molforma.gui.widgets.execution_panel import ExecutionPanel

    w = ExecutionPanel(ctx)
    qtbot.addWidget(w)
    if size is not None:
        w.resize(*size)
    w.show()
    return w


def type_into(qtbot: Any, edit: Any, text: str) -> None:
    """Replace a line edit's text as a person types it, then press Enter."""
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Backspace)
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def run_with_opengl(
    command: list[str],
    *,
    screen: str = "1280x1024",
    timeout: int = 120,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``command`` from the checkout under ``xvfb-run`` with Qt's xcb platform and the
    OpenGL view (Mesa), since the offscreen platform has no OpenGL; it must succeed.

    The test is skipped when xvfb-run is missing (CI installs it).
    """
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        pytest.skip("xvfb-run is not installed (CI installs it)")
    full = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY")}
    full.update(QT_QPA_PLATFORM="xcb", MOLFORMA_RENDERER="opengl", **(env or {}))
    proc = subprocess.run(
        [xvfb, "-a", "-s", f"-screen 0 {screen}x24", *command],
        env=full,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=str(REPO),
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


def run_gl_script(script: str, *args: str, **options: Any) -> subprocess.CompletedProcess[str]:
    """:func:`run_with_opengl` of the Python code ``script`` (``sys.argv[1:]`` = ``args``)."""
    return run_with_opengl([sys.executable, "-c", script, *args], **options)
