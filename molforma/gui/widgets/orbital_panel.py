"""The Orbitals tab of the Results tab: list the MOs of a MOLDEN file, draw one (Qt layer).

Loading the orbitals and evaluating one on a grid run in a worker thread (PySCF's
import alone takes seconds); the mesh comes back to the GUI thread through a queued
signal and is drawn by the Results tab's 3D view as two coloured lobes.

Where PySCF or scikit-image is not installed (the wheel's optional ``orbitals`` extra),
the tab says so and what installs them, and HOMO / LUMO / Show stay pressable so that
asking for an orbital — by hand or by an MCP window command — gets that sentence
(``orbitals_unavailable``) instead of a button that silently does nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from molforma.errors import MolFormaError
from molforma.gui import dialogs, outcome
from molforma.gui.view3d.surfaces import NEGATIVE, POSITIVE, Surface
from molforma.gui.widgets.panel_workers import Retranslatable, error_text
from molforma.results import orbitals as orb

HARTREE_EV = 27.211386245988


class _Relay(QObject):
    """Carries a worker's result to the GUI thread (queued across threads)."""

    done = Signal(object, object)  # (callback, result or exception)


class OrbitalPanel(Retranslatable, QWidget):
    """Orbital list with HOMO/LUMO shortcuts, isovalue, show/hide and cube export.

    ``view`` is the Results tab's 3D view (``set_surfaces``); ``check_path`` applies the
    allowed-directory rule to an export path chosen through MCP.
    """

    def __init__(self, view: Any, check_path: Callable[[str], str],
                 status: Callable[[str], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("orbitalPanel")
        self._view = view
        self._check_path = check_path
        self._status = status
        # No parent: a worker may report after this panel is gone, and emitting from a
        # deleted object is an error. A receiver that is gone simply gets nothing.
        self._relay = _Relay()
        self._relay.done.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        self.orbitals: orb.OrbitalSet | None = None
        self.source: str | None = None
        self.shown: int | None = None  # orbital drawn now
        self._grid: orb.Grid | None = None
        self._values: Any = None
        self._busy = False
        # Why these orbitals can never be drawn here (the optional packages are missing).
        self._unavailable: MolFormaError | None = None
        self.table = QTableWidget(0, 5, self)
        self.table.setObjectName("orbitalTable")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.itemDoubleClicked.connect(lambda _i: self.show_selected())
        self.homo_button = self.button(lambda: self.tr("HOMO"), "orbitalHomoButton")
        self.lumo_button = self.button(lambda: self.tr("LUMO"), "orbitalLumoButton")
        self.show_button = self.button(lambda: self.tr("Show"), "orbitalShowButton")
        self.hide_button = self.button(lambda: self.tr("Hide"), "orbitalHideButton")
        self.export_button = self.button(lambda: self.tr("Export cube…"),
                                         "orbitalExportCubeButton")
        self.isovalue = QLineEdit(str(orb.DEFAULT_ISOVALUE), self)
        self.isovalue.setObjectName("orbitalIsovalue")
        self.isovalue.setMinimumWidth(64)
        self.isovalue.setMaximumWidth(90)
        self.isovalue.editingFinished.connect(self._isovalue_changed)
        self.bind_text(lambda: self.homo_button.setToolTip(
            self.tr("Select and draw the highest occupied orbital")))
        self.bind_text(lambda: self.lumo_button.setToolTip(
            self.tr("Select and draw the lowest unoccupied orbital")))
        self.bind_text(lambda: self.isovalue.setToolTip(
            self.tr("Isovalue of the surface (bohr^-3/2); both signs are drawn")))
        self.bind_text(lambda: self.export_button.setToolTip(
            self.tr("Save the orbital on its grid as a Gaussian cube file")))
        self.bind_text(lambda: self.table.setHorizontalHeaderLabels(
            [self.tr("#"), self.tr("Spin"), self.tr("Energy (Eh)"), self.tr("Energy (eV)"),
             self.tr("Occupation")]))
        self.homo_button.clicked.connect(lambda: self.show_frontier("homo"))
        self.lumo_button.clicked.connect(lambda: self.show_frontier("lumo"))
        self.show_button.clicked.connect(self.show_selected)
        self.hide_button.clicked.connect(self.hide)
        self.export_button.clicked.connect(lambda: self.export_cube())
        row = QHBoxLayout()
        for w in (self.homo_button, self.lumo_button, self.show_button, self.hide_button):
            row.addWidget(w)
        row.addWidget(self.label(lambda: self.tr("Isovalue:")))
        row.addWidget(self.isovalue)
        row.addWidget(self.export_button)
        row.addStretch(1)
        self.message = self.label(lambda: "")
        self.message.setObjectName("orbitalMessage")
        self.message.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.addWidget(self.table, 1)
        lay.addLayout(row)
        lay.addWidget(self.message)
        self._update_buttons()

    # -- worker plumbing -------------------------------------------------------------------
    def _in_worker(self, work: Callable[[], Any], then: Callable[[Any], None]) -> None:
        self._busy = True
        self._update_buttons()

        relay = self._relay  # the worker keeps the relay alive, whatever happens to self

        def run() -> None:
            try:
                value: Any = work()
            # ImportError too: a broken optional package must end the work, not the panel.
            except (MolFormaError, OSError, ValueError, MemoryError, ImportError) as exc:
                value = exc
            relay.done.emit(then, value)

        threading.Thread(target=run, name="orbitals", daemon=True).start()

    def _deliver(self, then: Callable[[Any], None], value: Any) -> None:
        then(value)

    @property
    def busy(self) -> bool:
        """True while the orbitals load or an orbital is evaluated."""
        return self._busy

    def _finish(self, value: Any) -> bool:
        self._busy = False
        self._update_buttons()
        if isinstance(value, Exception):
            self.message.setText(error_text(value))
            return False
        self.message.setText("")
        return True

    # -- source ----------------------------------------------------------------------------
    def set_source(self, path: str | None) -> None:
        """Read the orbitals of the MOLDEN file ``path`` (None: clear the tab)."""
        self.hide()
        self.orbitals, self.source = None, path
        self._unavailable = None
        self.table.setRowCount(0)
        self._update_buttons()
        if path is None:
            return
        self._in_worker(lambda: orb.load_orbitals(path), self._loaded)

    def _loaded(self, value: Any) -> None:
        if isinstance(value, MolFormaError) and value.code == "orbitals_unavailable":
            self._unavailable = value
        if not self._finish(value):
            return
        self.orbitals = value
        self.table.setRowCount(len(value.orbitals))
        for r, o in enumerate(value.orbitals):
            cells = [str(o.index + 1), o.spin, f"{o.energy:.6f}", f"{o.energy * HARTREE_EV:.3f}",
                     f"{o.occupation:g}"]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        homo, _lumo = value.frontier()
        if homo is not None:
            self.table.selectRow(homo)
        self._update_buttons()

    # -- drawing ---------------------------------------------------------------------------
    def show_frontier(self, which: str) -> None:
        """Select and draw the HOMO (``"homo"``) or LUMO (``"lumo"``) of the alpha spin."""
        if self._refuse_unavailable() or self.orbitals is None:
            return
        homo, lumo = self.orbitals.frontier()
        index = homo if which == "homo" else lumo
        if index is not None:
            self.table.selectRow(index)
            self.show_orbital(index)

    def show_selected(self) -> None:
        """Draw the orbital of the selected row."""
        if self._refuse_unavailable():
            return
        rows = {i.row() for i in self.table.selectedIndexes()}
        if rows:
            self.show_orbital(min(rows))

    def show_orbital(self, index: int) -> None:
        """Evaluate orbital ``index`` on a grid in the worker, then draw both lobes."""
        if self._refuse_unavailable():
            return
        orbitals = self.orbitals
        iso = self._isovalue()
        if orbitals is None or iso is None or self._busy:
            return

        def work() -> tuple[int, orb.Grid, Any, tuple[orb.Mesh, orb.Mesh]]:
            grid = orb.grid_around(orbitals.coordinates)
            values = orb.orbital_values(orbitals, index, grid)
            return index, grid, values, orb.isosurfaces(values, grid, iso)

        self._in_worker(work, self._evaluated)

    def _refuse_unavailable(self) -> bool:
        """Say why no orbital can be drawn here (True), beside the table and to the MCP
        command that asked; False when the packages are there."""
        err = self._unavailable
        if err is None:
            return False
        self.message.setText(error_text(err))
        outcome.refused(err)
        return True

    def _evaluated(self, value: Any) -> None:
        if not self._finish(value):
            return
        self.shown, self._grid, self._values, meshes = value
        self._draw(meshes)

    def _draw(self, meshes: tuple[orb.Mesh, orb.Mesh]) -> None:
        plus, minus = meshes
        self._view.set_surfaces([Surface(m.vertices, m.faces, m.normals, rgba)
                                 for m, rgba in ((plus, POSITIVE), (minus, NEGATIVE))])
        self._update_buttons()

    def _isovalue(self) -> float | None:
        from molforma.gui.widgets.calculation_panel import parse_c_number

        value = parse_c_number(self.isovalue.text().strip(), "float")
        if value is None or not 0 < abs(value) < 10:
            self.message.setText(self.tr("The isovalue must be a number between 0 and 10, "
                                         "written with a point (e.g. 0.05)."))
            return None
        return abs(float(value))

    def _isovalue_changed(self) -> None:
        iso = self._isovalue()
        if iso is None or self._values is None or self._grid is None:
            return
        self.message.setText("")
        self._draw(orb.isosurfaces(self._values, self._grid, iso))

    def hide(self) -> None:
        """Remove the drawn orbital from the view."""
        self.shown, self._grid, self._values = None, None, None
        self._view.set_surfaces([])
        self._update_buttons()

    def export_cube(self, path: str | None = None) -> str | None:
        """Save the drawn orbital as a Gaussian cube file (asks for the path when None)."""
        if self.orbitals is None or self.shown is None or self._grid is None:
            return None
        if not path:
            stem = Path(self.source or "orbital").stem
            path = dialogs.get_save_path(self, self.tr("Export orbital"),
                                         [self.tr("Gaussian cube files (*.cube)")],
                                         str(Path.home() / f"{stem}-mo{self.shown + 1}.cube"))
            if not path:
                return None
        try:
            path = self._check_path(path)
            orb.write_cube(path, self.orbitals, self.shown, self._grid, self._values)
        except (MolFormaError, OSError) as exc:
            self._status(error_text(exc))
            return None
        self._status(self.tr("Saved %1").replace("%1", path))
        return path

    def _update_buttons(self) -> None:
        has = (self.orbitals is not None or self._unavailable is not None) and not self._busy
        for b in (self.homo_button, self.lumo_button, self.show_button):
            b.setEnabled(has)
        self.hide_button.setEnabled(self.shown is not None)
        self.export_button.setEnabled(self.shown is not None and not self._busy)


__all__ = ["OrbitalPanel"]
