"""The Orbitals tab of the Results tab: list the MOs of a MOLDEN file, draw one (Qt layer).

Besides one orbital, the surface choice draws the total electron density, the spin
density (alpha minus beta, open shells) and the electrostatic potential coloured on the
density surface, all from the MOLDEN file's orbitals. An energy-level diagram beside the
list shows the levels of every result that holds orbital energies (NWChem outputs too),
alpha beside beta for open shells, HOMO and LUMO of each spin labelled; HOMO and LUMO
buttons take the spin chosen beside them.

Loading the orbitals and evaluating one on a grid run in a worker thread (PySCF's
import alone takes seconds); the mesh comes back to the GUI thread through a queued
signal and is drawn by the Results tab's 3D view as two coloured lobes.

Where PySCF or scikit-image is not installed (the wheel's optional ``orbitals`` extra),
the tab says so and what installs them, and HOMO / LUMO / Show stay pressable so that
asking for an orbital — by hand or by an MCP window command — gets that sentence
(``orbitals_unavailable``) instead of a button that silently does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from molforma.errors import MolFormaError
from molforma.gui import outcome
from molforma.gui.widgets.level_diagram import LevelDiagram
from molforma.gui.widgets.orbital_density import density_drawing, density_meshes, orbital_surfaces
from molforma.gui.widgets.orbital_export import export_cube
from molforma.gui.widgets.orbital_worker import Relay, start_worker
from molforma.gui.widgets.panel_workers import Retranslatable, error_text
from molforma.lazy import lazy_import
from molforma.results import orbitals as orb

if TYPE_CHECKING:
    from molforma.gui.widgets import calculation_panel
else:  # imported on first use (start-up time): molforma.lazy
    calculation_panel = lazy_import("molforma.gui.widgets.calculation_panel")

HARTREE_EV = 27.211386245988
SURFACE_KINDS = ("orbital", "density", "spin", "esp")
DEFAULT_ISOVALUES = {
    "orbital": orb.DEFAULT_ISOVALUE,
    "density": orb.DENSITY_ISOVALUE,
    "spin": orb.SPIN_ISOVALUE,
    "esp": orb.DENSITY_ISOVALUE,
}


class OrbitalPanel(Retranslatable, QWidget):
    """Orbital list with HOMO/LUMO shortcuts, isovalue, show/hide and cube export.

    ``view`` is the Results tab's 3D view (``set_surfaces``); ``check_path`` applies the
    allowed-directory rule to an export path chosen through MCP.
    """

    def __init__(
        self,
        view: Any,
        check_path: Callable[[str], str],
        status: Callable[[str], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("orbitalPanel")
        self._view = view
        self._check_path = check_path
        self._status = status
        # No parent: a worker may report after this panel is gone, and emitting from a
        # deleted object is an error. A receiver that is gone simply gets nothing.
        self._relay = Relay()
        self._relay.done.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        self.orbitals: orb.OrbitalSet | None = None
        self.source: str | None = None
        self.shown: int | None = None  # orbital drawn now
        self.shown_kind: str | None = None  # "orbital", "density", "spin" or "esp"
        self.integral: float | None = None  # ∫ of the density drawn, on its grid
        self.esp_range: tuple[float, float] | None = None  # hartree/e on the surface
        self.esp_values: Any = None
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
        self.export_button = self.button(lambda: self.tr("Export cube…"), "orbitalExportCubeButton")
        self.isovalue = QLineEdit(str(orb.DEFAULT_ISOVALUE), self)
        self.isovalue.setObjectName("orbitalIsovalue")
        self.isovalue.setMinimumWidth(64)
        self.isovalue.setMaximumWidth(90)
        self.isovalue.editingFinished.connect(self._isovalue_changed)
        self.spin_combo = QComboBox(self)
        self.spin_combo.setObjectName("orbitalSpinCombo")
        self.spin_combo.addItem("", "alpha")
        self.spin_combo.addItem("", "beta")
        self.bind_text(self._spin_texts)
        self.surface_combo = QComboBox(self)
        self.surface_combo.setObjectName("orbitalSurfaceCombo")
        for kind in SURFACE_KINDS:
            self.surface_combo.addItem("", kind)
        self.bind_text(self._surface_texts)
        # Any change (a click, or ui_set_value over MCP) gives the kind its usual isovalue.
        self.surface_combo.currentIndexChanged.connect(lambda _i: self._surface_chosen())
        self.bind_text(self._isovalue_tooltip)
        self.diagram = LevelDiagram(self)
        self.diagram.levelClicked.connect(self._level_clicked)
        self.bind_text(
            lambda: self.homo_button.setToolTip(
                self.tr("Select and draw the highest occupied orbital")
            )
        )
        self.bind_text(
            lambda: self.lumo_button.setToolTip(
                self.tr("Select and draw the lowest unoccupied orbital")
            )
        )
        self.bind_text(
            lambda: self.export_button.setToolTip(
                self.tr("Save the orbital or density on its grid as a Gaussian cube file")
            )
        )
        self.bind_text(
            lambda: self.table.setHorizontalHeaderLabels(
                [
                    self.tr("#"),
                    self.tr("Spin"),
                    self.tr("Energy (Eh)"),
                    self.tr("Energy (eV)"),
                    self.tr("Occupation"),
                ]
            )
        )
        self.homo_button.clicked.connect(lambda: self.show_frontier("homo"))
        self.lumo_button.clicked.connect(lambda: self.show_frontier("lumo"))
        self.show_button.clicked.connect(self.show_current)
        self.hide_button.clicked.connect(self.hide)
        self.export_button.clicked.connect(lambda: self.export_cube())
        row = QHBoxLayout()
        for w in (self.spin_combo, self.homo_button, self.lumo_button):
            row.addWidget(w)
        row.addStretch(1)
        row2 = QHBoxLayout()
        row2.addWidget(self.label(lambda: self.tr("Surface:")))
        row2.addWidget(self.surface_combo)
        row2.addStretch(1)
        # The surface's own controls on a third row, so the tab fits a 1280-pixel screen.
        row3 = QHBoxLayout()
        row3.addWidget(self.show_button)
        row3.addWidget(self.hide_button)
        row3.addWidget(self.label(lambda: self.tr("Isovalue:")))
        row3.addWidget(self.isovalue)
        row3.addWidget(self.export_button)
        row3.addStretch(1)
        self.message = self.label(lambda: "")
        self.message.setObjectName("orbitalMessage")
        self.message.setWordWrap(True)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.setObjectName("orbitalSplitter")
        split.addWidget(self.table)
        split.addWidget(self.diagram)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setSizes([1000, 1000])  # half each at first: the diagram's labels need room
        lay = QVBoxLayout(self)
        lay.addWidget(split, 1)
        lay.addLayout(row)
        lay.addLayout(row2)
        lay.addLayout(row3)
        lay.addWidget(self.message)
        self._update_buttons()

    def _spin_texts(self) -> None:
        self.spin_combo.setItemText(0, self.tr("α (alpha)"))
        self.spin_combo.setItemText(1, self.tr("β (beta)"))
        self.spin_combo.setToolTip(
            self.tr("The spin whose HOMO and LUMO the buttons draw (open shells)")
        )

    def _surface_texts(self) -> None:
        names = {
            "orbital": self.tr("Selected orbital"),
            "density": self.tr("Total density"),
            "spin": self.tr("Spin density (α − β)"),
            "esp": self.tr("Electrostatic potential on the density"),
        }
        for i in range(self.surface_combo.count()):
            self.surface_combo.setItemText(i, names[self.surface_combo.itemData(i)])
        self.surface_combo.setToolTip(
            self.tr(
                "What Show draws: the selected orbital, the electron density, the spin density "
                "of an open shell, or the electrostatic potential coloured on the density "
                "surface (red negative, blue positive)"
            )
        )

    @property
    def surface_kind(self) -> str:
        """The surface Show draws: orbital, density, spin or esp."""
        return str(self.surface_combo.currentData() or "orbital")

    def set_surface_kind(self, kind: str) -> None:
        """Choose what Show draws; a change of kind gives the isovalue that kind's usual
        value (the same kind keeps the value the person set)."""
        i = self.surface_combo.findData(kind)
        if i >= 0 and i != self.surface_combo.currentIndex():
            self.surface_combo.setCurrentIndex(i)  # currentIndexChanged: _surface_chosen

    def _surface_chosen(self) -> None:
        self.isovalue.setText(f"{DEFAULT_ISOVALUES[self.surface_kind]:g}")
        self._isovalue_tooltip()

    def _isovalue_tooltip(self) -> None:
        if self.surface_kind == "orbital":
            self.isovalue.setToolTip(
                self.tr("Isovalue of the surface (bohr^-3/2); both signs are drawn")
            )
        else:
            self.isovalue.setToolTip(
                self.tr(
                    "Isovalue of the density surface (e/bohr³); a spin density is drawn at "
                    "both signs"
                )
            )

    def set_levels(self, orbitals: Any, frontier: Any) -> None:
        """The energy-level diagram of ``orbitals`` (the results' list) and ``frontier``."""
        self.diagram.set_orbitals(list(orbitals or []), list(frontier or []))
        self._mark_frontier()

    def _mark_frontier(self) -> None:
        """Name the HOMO and LUMO rows the summary names (one pair per spin channel)."""
        if self.orbitals is None:
            return
        marks = {lv.index: lv.label for lv in self.diagram.levels if lv.label}
        for row in range(self.table.rowCount()):
            item = self.table.item(row, 0)
            if item is not None:
                mark = marks.get(row)
                item.setText(f"{row + 1} {mark}" if mark else str(row + 1))

    def _level_clicked(self, index: int) -> None:
        if self.orbitals is not None and 0 <= index < len(self.orbitals.orbitals):
            self.table.selectRow(index)
            self.set_surface_kind("orbital")
            self.show_orbital(index)

    # -- worker plumbing -------------------------------------------------------------------
    def _in_worker(self, work: Callable[[], Any], then: Callable[[Any], None]) -> None:
        self._busy = True
        self._update_buttons()

        start_worker(self._relay, work, then)

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
        self.spin_combo.setCurrentIndex(0)
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
        # A file without beta orbitals is a restricted wavefunction, whatever PySCF calls it.
        restricted = not any(o.spin == "beta" for o in value.orbitals)
        spins = {
            "alpha": self.tr("restricted") if restricted else self.tr("alpha"),
            "beta": self.tr("beta"),
        }
        for r, o in enumerate(value.orbitals):
            cells = [
                str(o.index + 1),
                spins.get(o.spin, o.spin),
                f"{o.energy:.6f}",
                f"{o.energy * HARTREE_EV:.3f}",
                f"{o.occupation:g}",
            ]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        homo, _lumo = value.frontier(self._first_spin(value))
        if homo is not None:
            self.table.selectRow(homo)
        self._mark_frontier()
        self._update_buttons()

    @staticmethod
    def _first_spin(orbitals: orb.OrbitalSet) -> str:
        return orbitals.orbitals[0].spin if orbitals.orbitals else "alpha"

    # -- drawing ---------------------------------------------------------------------------
    def show_frontier(self, which: str, spin: str | None = None) -> None:
        """Select and draw the HOMO (``"homo"``) or LUMO (``"lumo"``) of ``spin`` (default:
        the spin chosen beside the buttons; a restricted file has one)."""
        if self._refuse_unavailable() or self.orbitals is None:
            return
        if spin is not None:
            i = self.spin_combo.findData(spin)
            if i >= 0:
                self.spin_combo.setCurrentIndex(i)
        unrestricted = any(o.spin == "beta" for o in self.orbitals.orbitals)
        chosen = (
            str(self.spin_combo.currentData()) if unrestricted else self._first_spin(self.orbitals)
        )
        homo, lumo = self.orbitals.frontier(chosen)
        index = homo if which == "homo" else lumo
        if index is not None:
            self.table.selectRow(index)
            self.set_surface_kind("orbital")
            self.show_orbital(index)

    def show_current(self) -> None:
        """Draw what the surface choice says: the selected orbital or a density."""
        if self.surface_kind == "orbital":
            self.show_selected()
        else:
            self.show_density(self.surface_kind)

    def show_density(self, kind: str) -> None:
        """Evaluate the total density (``"density"``), the spin density (``"spin"``) or the
        ESP on the density surface (``"esp"``) in the worker, then draw it."""
        if self._refuse_unavailable():
            return
        orbitals = self.orbitals
        if kind != self.surface_kind:
            self.set_surface_kind(kind)
        iso = self._isovalue()
        if orbitals is None or iso is None or self._busy:
            return
        if kind == "spin" and not orbitals.open_shell:
            self.message.setText(
                self.tr("These orbitals are a closed shell: the spin density is zero everywhere.")
            )
            outcome.refused(self.message.text())
            return
        if orbitals.electron_count <= 0:
            self.message.setText(
                self.tr("The file gives no orbital an occupation: there is no density to draw.")
            )
            outcome.refused(self.message.text())
            return

        meshes_of = density_meshes  # the worker touches no widget

        def work() -> tuple[str, orb.Grid, Any, Any]:
            grid = orb.density_grid(orbitals.coordinates)
            values = orb.density_values(orbitals, grid, "spin" if kind == "spin" else "density")
            return kind, grid, values, meshes_of(orbitals, kind, values, grid, iso)

        self._in_worker(work, self._density_evaluated)

    def _density_evaluated(self, value: Any) -> None:
        if not self._finish(value):
            return
        kind, self._grid, self._values, meshes = value
        self.shown, self.shown_kind = None, kind
        self.integral = orb.integrate(self._values, self._grid)
        self._draw_density(kind, meshes)

    def _draw_density(self, kind: str, meshes: Any) -> None:
        drawing = density_drawing(kind, meshes, self.integral, self.isovalue.text(), self.orbitals)
        self.esp_range, self.esp_values = drawing.esp_range, drawing.esp_values
        self._view.set_surfaces(drawing.surfaces)
        self.message.setText(drawing.message)
        self._update_buttons()

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
        self.shown_kind, self.integral, self.esp_range, self.esp_values = (
            "orbital",
            None,
            None,
            None,
        )
        self._draw(meshes)

    def _draw(self, meshes: tuple[orb.Mesh, orb.Mesh]) -> None:
        self._view.set_surfaces(orbital_surfaces(meshes))
        self._update_buttons()

    def _isovalue(self) -> float | None:
        value = calculation_panel.parse_c_number(self.isovalue.text().strip(), "float")
        if value is None or not 0 < abs(value) < 10:
            self.message.setText(
                self.tr(
                    "The isovalue must be a number between 0 and 10, "
                    "written with a point (e.g. 0.05)."
                )
            )
            return None
        return abs(float(value))

    def _isovalue_changed(self) -> None:
        iso = self._isovalue()
        if iso is None or self._values is None or self._grid is None:
            return
        self.message.setText("")
        kind = self.shown_kind or "orbital"
        if kind == "orbital":
            self._draw(orb.isosurfaces(self._values, self._grid, iso))
        elif kind == "esp":
            self.show_density("esp")  # the potential is evaluated at the new vertices
        elif self.orbitals is not None:
            self._draw_density(
                kind, density_meshes(self.orbitals, kind, self._values, self._grid, iso)
            )

    def hide(self) -> None:
        """Remove the drawn orbital or density from the view."""
        self.shown, self._grid, self._values = None, None, None
        self.shown_kind, self.integral, self.esp_range, self.esp_values = None, None, None, None
        self._view.set_surfaces([])
        self._update_buttons()

    def _exportable(self) -> int | str | None:
        """What Export cube writes: the drawn orbital's index, "density" or "spin"."""
        if self.shown_kind == "orbital" and self.shown is not None:
            return self.shown
        if self.shown_kind in ("density", "spin", "esp"):
            return "spin" if self.shown_kind == "spin" else "density"
        return None

    def export_cube(self, path: str | None = None) -> str | None:
        """Save the drawn orbital, or the density grid of a drawn density / spin density /
        ESP surface, as a Gaussian cube file (asks for the path when None)."""
        return export_cube(
            self,
            self.source,
            self.orbitals,
            self._exportable(),
            self._grid,
            self._values,
            self._check_path,
            self._status,
            path,
        )

    def _update_buttons(self) -> None:
        has = (self.orbitals is not None or self._unavailable is not None) and not self._busy
        for b in (self.homo_button, self.lumo_button, self.show_button):
            b.setEnabled(has)
        self.surface_combo.setEnabled(has)
        unrestricted = self.orbitals is not None and any(
            o.spin == "beta" for o in self.orbitals.orbitals
        )
        self.spin_combo.setEnabled(has and unrestricted)
        self.hide_button.setEnabled(self.shown_kind is not None)
        self.export_button.setEnabled(self._exportable() is not None and not self._busy)


__all__ = ["OrbitalPanel"]
