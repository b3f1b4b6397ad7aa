"""Export cube of the Orbitals tab: the drawn orbital or density grid as a Gaussian cube.

The texts keep the ``OrbitalPanel`` translation context they had in the panel.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from molforma.errors import MolFormaError
from molforma.gui import dialogs
from molforma.gui.widgets.panel_workers import error_text
from molforma.results import orbitals as orb


def export_cube(
    parent: QWidget,
    source: str | None,
    orbitals: orb.OrbitalSet | None,
    what: int | str | None,
    grid: orb.Grid | None,
    values: Any,
    check_path: Callable[[str], str],
    status: Callable[[str], None],
    path: str | None = None,
) -> str | None:
    """Write ``what`` (an orbital index, "density" or "spin") on ``grid`` to ``path``,
    asking for the path when None; the path saved, or None (refused or cancelled)."""
    if orbitals is None or what is None or grid is None:
        return None
    if not path:
        stem = Path(source or "orbital").stem
        name = f"{stem}-mo{what + 1}.cube" if isinstance(what, int) else f"{stem}-{what}.cube"
        path = dialogs.get_save_path(
            parent,
            QCoreApplication.translate("OrbitalPanel", "Export orbital"),
            [QCoreApplication.translate("OrbitalPanel", "Gaussian cube files (*.cube)")],
            str(Path.home() / name),
        )
        if not path:
            return None
    try:
        path = check_path(path)
        orb.write_cube(path, orbitals, what, grid, values)
    except (MolFormaError, OSError) as exc:
        status(error_text(exc))
        return None
    status(QCoreApplication.translate("OrbitalPanel", "Saved %1").replace("%1", path))
    return path
