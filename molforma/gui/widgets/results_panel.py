"""Results tab: file list, summary, modes table, energy and IR plots, trajectory and modes in 3D.

It shows ``ctx.results.current`` (a :class:`molforma.results.Results`) and loads
new sources through the shared :class:`~molforma.results.ResultsSession` in the
background; a failed or cancelled load keeps what is shown. Results actions never
change the edited document.

Public methods used by the window's MCP tools: :meth:`open_path`, :meth:`reload`,
:meth:`play_mode`, :meth:`stop`, :meth:`show_structure`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSlider,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from molforma.app.actor import window_actor
from molforma.errors import ResultsError
from molforma.file_formats import result_patterns
from molforma.gui import dialogs
from molforma.gui.view3d.labels import SPIN_LABEL_COLOUR, AtomLabelOverlay
from molforma.gui.widgets.panel_workers import (
    QT_TRANSLATE_NOOP,
    Retranslatable,
    error_text,
    unique_internal_names,
    watch_load,
)
from molforma.gui.widgets.plots import MIN_REAL_FREQUENCY, EnergyPlot, IRSpectrumWidget
from molforma.gui.widgets.uvvis_plot import UVVisSpectrumWidget
from molforma.i18n import register

if TYPE_CHECKING:
    from molforma.results.model import Results

log = logging.getLogger(__name__)

register({
    "results_bad_structure": {
        "en": "No structure {index}: the results hold {count} structures (0-based).",
        "ja": "構造 {index} はありません。結果の構造は {count} 個です（0始まり）。",
    },
    "results_bad_amplitude": {
        "en": "Amplitude {amplitude} is out of range: give a value above 0 and at most {max}.",
        "ja": "振幅 {amplitude} は範囲外です。0より大きく {max} 以下の値を指定してください。",
    },
})

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
MODE_ROLE = Qt.ItemDataRole.UserRole + 2
FRAME_MS = 120  # trajectory playback: one structure every FRAME_MS
WATCH_MS = 400  # notice loads started elsewhere (MCP) even without a signal
DEFAULT_AMPLITUDE = 0.5
IMAGINARY_BRUSH = QColor("#fde0e0")
SIGNIFICANT_BRUSH = QColor("#f8b4b4")
RIGID_MODE_TEXT = QColor("#8a8a8a")  # translations and rotations
RESULT_FILTERS = (
    QT_TRANSLATE_NOOP("ResultsPanel", "NWChem output, MOLDEN, XYZ"),
    QT_TRANSLATE_NOOP("ResultsPanel", "All files (*)"),
)
RESULT_PATTERNS = result_patterns(("nwchem-output", "molden", "xyz"))


def _atoms_of(structure: Any) -> list[dict[str, Any]]:
    return [{"element": s, "x": float(c[0]), "y": float(c[1]), "z": float(c[2])}
            for s, c in zip(structure.symbols, structure.coordinates, strict=False)]


class ResultsPanel(Retranslatable, QWidget):
    """Viewer of the current results of the shared results session."""

    resultsShown = Signal()

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("resultsTab")
        self.ctx = ctx
        self.results: Results | None = None
        self._updating = False
        self._plotted: list[Any] = []
        self._mode: int | None = None
        self._frame_timer = QTimer(self)
        self._frame_timer.setInterval(FRAME_MS)
        self._frame_timer.timeout.connect(self._next_frame)
        self._build()
        ctx.events.resultsChanged.connect(self.refresh)
        self._watch = QTimer(self)
        self._watch.setInterval(WATCH_MS)
        self._watch.timeout.connect(self._check_session)
        self._watch.start()
        self.refresh()

    @contextlib.contextmanager
    def _quiet(self) -> Iterator[None]:
        """Widget changes made inside do not re-enter the panel's own signal handlers."""
        self._updating = True
        try:
            yield
        finally:
            self._updating = False

    # -- construction ----------------------------------------------------------------------
    def _build(self) -> None:
        from molforma.gui.view3d import create_view

        self.open_file_button = self.button(lambda: self.tr("Open file…"), "resultsOpenFile")
        self.open_folder_button = self.button(lambda: self.tr("Open folder…"),
                                               "resultsOpenFolder")
        self.reload_button = self.button(lambda: self.tr("Reload"), "resultsReload")
        self.status_label = QLabel(self)
        self.status_label.setObjectName("resultsStatus")
        self.status_label.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.open_file_button)
        top.addWidget(self.open_folder_button)
        top.addWidget(self.reload_button)
        top.addWidget(self.status_label, 1)

        self.file_list = QTreeWidget(self)
        self.file_list.setObjectName("resultsFileList")
        self.bind_text(lambda: self.file_list.setHeaderLabels([self.tr("File"), self.tr("Kind")]))
        self.file_list.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.file_list.currentItemChanged.connect(self._file_chosen)
        self.summary = QPlainTextEdit(self)
        self.summary.setObjectName("resultsSummary")
        self.summary.setReadOnly(True)
        self.summary.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        left = QSplitter(Qt.Orientation.Vertical, self)
        left.setObjectName("resultsLeftSplitter")
        left.addWidget(self.file_list)
        left.addWidget(self.summary)

        self.view = create_view(self)
        self.view.setObjectName("resultsView")
        canvas = getattr(self.view, "canvas", None)
        if canvas is not None:
            canvas.setObjectName("resultsCanvas")
        self.view.setMinimumSize(240, 200)
        self.trajectory_slider = QSlider(Qt.Orientation.Horizontal, self)
        self.trajectory_slider.setObjectName("trajectorySlider")
        self.trajectory_slider.setRange(0, 0)
        self.trajectory_label = QLabel(self)
        self.trajectory_label.setObjectName("trajectoryLabel")
        self.trajectory_slider.valueChanged.connect(self._slider_moved)
        self.play_button = self.button(lambda: self.tr("Play"), "playButton")
        self.stop_button = self.button(lambda: self.tr("Stop"), "resultsStopButton")
        self.amplitude_spin = QDoubleSpinBox(self)
        self.amplitude_spin.setObjectName("amplitudeSpin")
        self.amplitude_spin.setRange(0.05, 5.0)
        self.amplitude_spin.setSingleStep(0.1)
        self.amplitude_spin.setDecimals(2)
        self.amplitude_spin.setValue(DEFAULT_AMPLITUDE)
        self.amplitude_spin.valueChanged.connect(self._amplitude_changed)
        amp_label = self.label(lambda: self.tr("Amplitude:"))
        amp_label.setBuddy(self.amplitude_spin)
        traj = QHBoxLayout()
        traj.addWidget(self.label(lambda: self.tr("Structure:")))
        traj.addWidget(self.trajectory_slider, 1)
        traj.addWidget(self.trajectory_label)
        self.use_structure_button = self.button(lambda: self.tr("Use this structure"),
                                                "useStructureButton")
        self.bind_text(lambda: self.use_structure_button.setToolTip(self.tr(
            "Put the structure chosen on the slider (the final one unless you move it) into "
            "the editor as a candidate; the atoms keep their ids when the elements match")))
        self.use_structure_button.clicked.connect(lambda: self.use_structure())
        traj.addWidget(self.use_structure_button)
        playrow = QHBoxLayout()
        playrow.addWidget(self.play_button)
        playrow.addWidget(self.stop_button)
        playrow.addWidget(amp_label)
        playrow.addWidget(self.amplitude_spin)
        self.arrows_check = QCheckBox(self)
        self.arrows_check.setObjectName("modeArrowsCheck")
        self.bind_text(lambda: self.arrows_check.setText(self.tr("Arrows")))
        self.bind_text(lambda: self.arrows_check.setToolTip(self.tr(
            "Show the displacement of each atom in the selected mode as an arrow, still or "
            "while the mode plays")))
        self.arrows_check.toggled.connect(self.view.set_show_arrows)
        playrow.addWidget(self.arrows_check)
        playrow.addStretch(1)
        # Atom labels on a row of their own: beside the playback controls they made the
        # tab wider than a 1280-pixel screen.
        labelrow = QHBoxLayout()
        self.charges_check = QCheckBox(self)
        self.charges_check.setObjectName("showChargesCheck")
        self.bind_text(lambda: self.charges_check.setText(self.tr("Show charges")))
        self.bind_text(lambda: self.charges_check.setToolTip(
            self.tr("Label each atom with its Mulliken charge")))
        self.charges_check.toggled.connect(lambda on: self._labels_toggled(self.charges_check,
                                                                           on))
        labelrow.addWidget(self.charges_check)
        self.spins_check = QCheckBox(self)
        self.spins_check.setObjectName("showSpinsCheck")
        self.bind_text(lambda: self.spins_check.setText(self.tr("Show spins")))
        self.bind_text(lambda: self.spins_check.setToolTip(self.tr(
            "Label each atom with its Mulliken spin population (alpha minus beta electrons; "
            "open shells)")))
        self.spins_check.toggled.connect(lambda on: self._labels_toggled(self.spins_check, on))
        labelrow.addWidget(self.spins_check)
        labelrow.addStretch(1)
        self.label_overlay = AtomLabelOverlay(self.view)
        center = QWidget(self)
        cl = QVBoxLayout(center)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(self.view, 1)
        cl.addLayout(traj)
        cl.addLayout(playrow)
        cl.addLayout(labelrow)

        self.modes_table = QTableWidget(0, 6, self)
        self.modes_table.setObjectName("modesTable")
        self.bind_text(lambda: self.modes_table.setHorizontalHeaderLabels([
            self.tr("Mode"), self.tr("Frequency (cm⁻¹)"), self.tr("IR (km/mol)"),
            self.tr("Imaginary"), self.tr("Significant"), self.tr("Displacements"),
        ]))
        self.modes_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.modes_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.modes_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.modes_table.verticalHeader().setVisible(False)
        self.modes_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.modes_table.itemSelectionChanged.connect(self._mode_selected)
        self.modes_table.itemDoubleClicked.connect(lambda _item: self._play_clicked())

        self.plots = QTabWidget(self)
        self.plots.setObjectName("resultsPlotTabs")
        self.energy_plot = EnergyPlot(self.plots, object_name="resultsEnergyPlot")
        self.ir = IRSpectrumWidget(self.plots)
        self.uvvis = UVVisSpectrumWidget(self.plots)
        self.orbitals_table = QTableWidget(0, 6, self.plots)
        self.orbitals_table.setObjectName("orbitalsTable")
        self.bind_text(lambda: self.orbitals_table.setHorizontalHeaderLabels([
            self.tr("Orbital"), self.tr("Spin"), self.tr("Energy (Eh)"), self.tr("Energy (eV)"),
            self.tr("Occupation"), self.tr("Symmetry"),
        ]))
        self.orbitals_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.orbitals_table.verticalHeader().setVisible(False)
        self.orbitals_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.plots.addTab(self.energy_plot, "")
        self.plots.addTab(self.ir, "")
        self.plots.addTab(self.uvvis, "")
        self.plots.addTab(self.orbitals_table, "")
        self.bind_text(lambda: self.plots.setTabText(0, self.tr("Energy per step")))
        self.bind_text(lambda: self.plots.setTabText(1, self.tr("IR spectrum")))
        self.bind_text(lambda: self.plots.setTabText(2, self.tr("UV-Vis spectrum")))
        self.bind_text(lambda: self.plots.setTabText(3, self.tr("Orbital energies")))
        self.ir.scaleChanged.connect(lambda _f: self._rescale_modes())
        self.bind_text(self._frequency_header)
        self.ir.export_png.clicked.connect(lambda: self.export_ir_png())
        self.ir.export_csv.clicked.connect(lambda: self.export_ir_csv())
        self.uvvis.export_png.clicked.connect(lambda: self.export_uvvis_png())
        self.uvvis.export_csv.clicked.connect(lambda: self.export_uvvis_csv())
        from molforma.gui.widgets.orbital_panel import OrbitalPanel

        self.orbital_panel = OrbitalPanel(self.view, self._check, self.status_label.setText,
                                          self.plots)
        self.plots.addTab(self.orbital_panel, "")
        self.bind_text(lambda: self.plots.setTabText(
            self.plots.indexOf(self.orbital_panel), self.tr("Orbitals")))
        from molforma.gui.widgets.scan_view import attach_scan_view

        self.scan_view = attach_scan_view(self)  # a relaxed scan's profile and points
        from molforma.gui.widgets.excitations_view import attach_excitations_view

        self.excitations_table = attach_excitations_view(self)  # roots under the UV-Vis plot
        unique_internal_names(self.plots)

        right = QSplitter(Qt.Orientation.Vertical, self)
        right.setObjectName("resultsRightSplitter")
        right.addWidget(self.modes_table)
        right.addWidget(self.plots)

        main = QSplitter(Qt.Orientation.Horizontal, self)
        main.setObjectName("resultsSplitter")
        main.addWidget(left)
        main.addWidget(center)
        main.addWidget(right)
        main.setStretchFactor(0, 1)
        main.setStretchFactor(1, 2)
        main.setStretchFactor(2, 2)
        main.setSizes([280, 420, 480])
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(main, 1)

        self.open_file_button.clicked.connect(self._ask_open_file)
        self.open_folder_button.clicked.connect(self._ask_open_folder)
        self.reload_button.clicked.connect(self.reload)
        self.play_button.clicked.connect(self._play_clicked)
        self.stop_button.clicked.connect(self.stop)
        self._update_buttons()

    # -- loading -----------------------------------------------------------------------------
    def _session(self) -> Any:
        session = self.ctx.results
        if session is None:
            raise ResultsError("results_error", detail="the results reader is not available")
        return session

    def _check(self, path: str) -> str:
        policy = getattr(self.ctx, "policy", None)
        return path if policy is None else str(policy.check_path(path, must_exist=False))

    def _guard(self) -> dict[str, Any]:
        """In MCP mode, the policy checks every file a load opens (links included)."""
        policy = getattr(self.ctx, "policy", None)
        return {} if policy is None else {"guard": policy.read_guard()}

    def open_path(self, path: str, *, directory: bool | None = None) -> Any:
        """Start loading ``path`` (a file, a folder or an animation group key).

        Returns the load handle; the tab refreshes when it completes. A failed load
        keeps the current results and shows why.
        """
        path = self._check(path)
        session = self._session()
        is_dir = Path(path).expanduser().is_dir() if directory is None else directory
        handle = session.open_directory(path, **self._guard()) if is_dir \
            else session.open_file(path, **self._guard())
        self._follow(handle)
        return handle

    def reload(self) -> Any | None:
        """Re-read the current source (for an animation: its step files again)."""
        try:
            handle = self._session().reload(**self._guard())
        except Exception as exc:  # noqa: BLE001 - shown in the status line
            self.status_label.setText(error_text(exc))
            return None
        self._follow(handle)
        return handle

    def _follow(self, handle: Any) -> None:
        self.status_label.setText(self.tr("Loading %1 …").replace("%1", str(handle.path)))

        def ended(ok: bool, err: Any) -> None:
            if ok:
                self.status_label.setText("")
                self.ctx.events.resultsChanged.emit()
            elif str(getattr(handle, "status", "")) == "cancelled":
                self.status_label.setText(self.tr("Loading cancelled; the previous results stay."))
            else:
                self.status_label.setText(self.tr("Cannot load: %1").replace(
                    "%1", error_text(err) if isinstance(err, BaseException) else str(
                        (err or {}).get("message", err) if isinstance(err, dict) else err)))

        watch_load(self, handle, ended)

    def _ask_open_file(self) -> None:
        path = dialogs.get_open_path(self, self.tr("Open results"),
                                     [f"{self.tr(RESULT_FILTERS[0])} ({RESULT_PATTERNS})",
                                      self.tr(RESULT_FILTERS[1])])
        if path:
            self._open_reporting(path, directory=False)

    def _ask_open_folder(self) -> None:
        path = dialogs.get_directory(self, self.tr("Open a job folder"))
        if path:
            self._open_reporting(path, directory=True)

    def _open_reporting(self, path: str, *, directory: bool | None = None) -> None:
        try:
            self.open_path(path, directory=directory)
        except Exception as exc:  # noqa: BLE001 - shown in the status line
            self.status_label.setText(error_text(exc))

    def _file_chosen(self, item: QTreeWidgetItem | None, _prev: Any = None) -> None:
        if self._updating or item is None:
            return
        path = item.data(0, PATH_ROLE)
        if not path:
            return
        cur = self.results
        if cur is not None and str(path) in (cur.source, cur.resolvedPath):
            return
        self._open_reporting(str(path), directory=False)

    def catch_up(self) -> None:
        """Show the session's current results now, not at the next watch tick: an agent
        may read or drive the panel right after results load."""
        self._check_session()

    def _check_session(self) -> None:
        session = self.ctx.results
        if session is not None and session.current is not self.results:
            self.refresh()

    # -- showing -----------------------------------------------------------------------------
    def refresh(self, *_args: Any) -> None:
        """Show the session's current results (nothing to do when already shown)."""
        session = self.ctx.results
        current = session.current if session is not None else None
        if current is self.results and current is not None:
            return
        self.stop()
        self.results = current
        self._mode = None
        # A MOLDEN file's orbitals can be drawn over its own geometry (same frame).
        self.orbital_panel.set_source(
            current.resolvedPath if current is not None and current.kind == "molden" else None)
        self.orbital_panel.set_levels(current.orbitals if current is not None else [],
                                      current.summary.frontier if current is not None else [])
        with self._quiet():
            self._fill_files(current)
            self._fill_summary(current)
            self._fill_modes(current)
            self._fill_plots(current)
            n = len(current.structures) if current is not None else 0
            self.trajectory_slider.setRange(0, max(0, n - 1))
            self.trajectory_slider.setValue(max(0, n - 1))
        if current is not None and current.structures:
            self.show_structure(len(current.structures) - 1)
        else:
            self.view.set_molecule([], [])
            self.trajectory_label.setText("")
        self._fill_orbitals(current)
        self._update_charge_labels()
        self._update_buttons()
        self.resultsShown.emit()

    def _fill_files(self, res: Any) -> None:
        self.file_list.clear()
        if res is None:
            return
        groups: QTreeWidgetItem | None = None
        current_paths = {res.source, res.resolvedPath}
        kind_names = {
            "nwchem-output": self.tr("NWChem output"), "molden": self.tr("MOLDEN"),
            "xyz": self.tr("XYZ"), "vibration-animation": self.tr("Vibration animation"),
        }
        for entry in res.files:
            if entry.kind == "vibration-animation":
                if groups is None:
                    groups = QTreeWidgetItem(self.file_list,
                                             [self.tr("Vibration animations (by mode)"), ""])
                    groups.setExpanded(True)
                label = self.tr("Mode %1 (%2 steps)").replace("%1", str(entry.mode)).replace(
                    "%2", str(entry.steps or 0))
                item = QTreeWidgetItem(groups, [label, kind_names[entry.kind]])
                item.setToolTip(0, entry.name)
            else:
                item = QTreeWidgetItem(self.file_list,
                                       [entry.name, kind_names.get(entry.kind, entry.kind)])
            item.setData(0, PATH_ROLE, entry.path)
            if entry.path in current_paths:
                self.file_list.setCurrentItem(item)
        if groups is not None:
            groups.setExpanded(True)

    def _fill_summary(self, res: Any) -> None:
        if res is None:
            self.summary.setPlainText(self.tr("No results loaded."))
            return
        s = res.summary
        yes, no, na = self.tr("yes"), self.tr("no"), self.tr("n/a")

        def flag(v: bool | None) -> str:
            return na if v is None else (yes if v else no)

        lines = [
            self.tr("Source: %1").replace("%1", str(res.source)),
            self.tr("Program: %1").replace("%1", str(s.program or na)),
            self.tr("Formula: %1 (%2 atoms)").replace("%1", str(s.formula or "")).replace(
                "%2", str(s.atomCount)),
        ]
        if s.finalEnergy is not None:
            lines.append(self.tr("Final energy: %1 Eh (%2)").replace(
                "%1", f"{s.finalEnergy:.8f}").replace("%2", str(s.finalEnergyLabel or "")))
        if s.zeroPointEnergy is not None:
            lines.append(self.tr("Zero-point energy: %1 Eh").replace(
                "%1", f"{s.zeroPointEnergy:.6f}"))
        lines += self._chemistry_lines(res)
        lines += [
            self.tr("SCF converged: %1").replace("%1", flag(s.scfConverged)),
            self.tr("Optimisation converged: %1 (%2 steps)").replace(
                "%1", flag(s.optimizationConverged)).replace("%2", str(s.optimizationSteps)),
            self.tr("Run completed: %1").replace("%1", flag(s.completed)),
            self.tr("Structures: %1, energies: %2, modes: %3").replace(
                "%1", str(s.structureCount)).replace("%2", str(s.energyCount)).replace(
                "%3", str(s.modeCount)),
            self.tr("Imaginary modes: %1 (significant, below −10 cm⁻¹: %2)").replace(
                "%1", str(s.imaginaryModes)).replace("%2", str(s.significantImaginaryModes)),
        ]
        if s.warningCount or s.errorCount:
            lines.append(self.tr("Warnings: %1, errors: %2").replace(
                "%1", str(s.warningCount)).replace("%2", str(s.errorCount)))
            lines += [f"  ! {m.message}" for m in list(s.errors)[:10]]
            lines += [f"  · {m.message}" for m in list(s.warnings)[:10]]
        self.summary.setPlainText("\n".join(lines))

    def _chemistry_lines(self, res: Any) -> list[str]:
        """Charge, spin, frontier orbitals, dipole, thermochemistry and the like."""
        s = res.summary
        lines: list[str] = []
        for msg in s.failedValues:
            lines.append(self.tr("FAILED: %1").replace("%1", msg.message))
        if s.charge is not None or s.multiplicity is not None:
            lines.append(self.tr("Charge: %1, multiplicity: %2").replace(
                "%1", "-" if s.charge is None else f"{s.charge:g}").replace(
                "%2", str(s.multiplicity or "-")))
        if s.s2 is not None:
            text = self.tr("<S²>: %1 (S(S+1) = %2)").replace("%1", f"{s.s2:.4f}").replace(
                "%2", "-" if s.s2Expected is None else f"{s.s2Expected:.4f}")
            if s.spinContaminated:
                text += "  " + self.tr("spin contaminated (more than 10 % off)")
            lines.append(text)
        lines += self._frontier_lines(s)
        if s.dispersionEnergy is not None:
            lines.append(self.tr("Dispersion energy: %1 Eh").replace(
                "%1", f"{s.dispersionEnergy:.8f}"))
        m = s.moments
        if m is not None and m.dipoleDebye is not None:
            if self._other_level(s, m.level):
                text = self.tr("%1 dipole: %2 D (%3)").replace(
                    "%1", self._level_name(m.level)).replace(
                    "%2", f"{m.dipoleDebye:.4f}").replace("%3", m.source)
            else:
                text = self.tr("Dipole: %1 D (%2)").replace(
                    "%1", f"{m.dipoleDebye:.4f}").replace("%2", m.source)
            lines.append(text)
            lines.append(f"  {m.frame}")
        for pol in s.polarizabilities:
            name = (self.tr("%1 polarizability").replace("%1", self._level_name(pol.level))
                    if self._other_level(s, pol.level) else self.tr("Polarizability"))
            lines.append(self.tr("%1 (ω = %2 a.u.): isotropic %3 a.u.").replace(
                "%1", name).replace("%2", f"{pol.frequency:g}").replace(
                "%3", f"{pol.isotropic:.4f}"))
        if self._post_scf(s) and (s.frontier or res.charges):
            lines.append(self.tr("Orbitals and charges: the %1 wavefunction's (the final "
                                 "energy is %2)").replace("%1", self._level_name(
                                     self._reference_level(s))).replace(
                                     "%2", self._level_name(s.finalEnergyLevel)))
        t = s.thermochemistry
        if t is not None:
            lines.append(self.tr("Thermochemistry at %1 K:").replace("%1", f"{t.temperature:.2f}"))
            for name, v in ((self.tr("enthalpy"), t.enthalpy),
                            (self.tr("Gibbs free energy"), t.gibbsFreeEnergy),
                            (self.tr("H correction"), t.enthalpyCorrection),
                            (self.tr("G correction"), t.gibbsCorrection)):
                if v is not None:
                    lines.append(f"  {name}: {v:.6f} Eh ({v * 627.5094740631:.2f} kcal/mol)")
        if s.excitationCount:
            lines.append(self.tr("Excited states: %1").replace("%1", str(s.excitationCount)))
        from molforma.gui.widgets.excitations_view import summary_lines

        lines += summary_lines(res)  # solvation energy, transition-state check
        if s.mdSteps:
            lines.append(self.tr("BOMD steps: %1").replace("%1", str(s.mdSteps)))
        return lines

    def _frontier_lines(self, s: Any) -> list[str]:
        """HOMO, LUMO and gap of each spin channel, each line naming its channel."""
        lines: list[str] = []
        names = {"alpha": self.tr("α (alpha)"), "beta": self.tr("β (beta)")}
        for f in s.frontier:
            if f.homo is None or f.lumo is None or f.gapEv is None:
                continue
            text = self.tr("HOMO %1 Eh, LUMO %2 Eh, gap %3 eV").replace(
                "%1", f"{f.homo:.5f}").replace("%2", f"{f.lumo:.5f}").replace(
                "%3", f"{f.gapEv:.3f}")
            if f.spin in names:
                text = self.tr("%1: %2").replace("%1", names[f.spin]).replace("%2", text)
            lines.append(text)
        return lines

    @staticmethod
    def _reference_level(s: Any) -> str:
        """scf or dft: the level of the wavefunction the orbitals and charges are of."""
        return "dft" if str(s.wavefunction or "").upper() in ("RKS", "UKS") or (
            str(s.wavefunction or "").startswith("DFT")) else "scf"

    @staticmethod
    def _post_scf(s: Any) -> bool:
        return s.finalEnergyLevel in ("mp2", "ccsd", "ccsd(t)")

    def _other_level(self, s: Any, level: str | None) -> bool:
        """True when a value of ``level`` sits beside a final energy of another level."""
        return level is not None and self._post_scf(s) and level != s.finalEnergyLevel

    def _level_name(self, level: str | None) -> str:
        return {"scf": self.tr("SCF"), "dft": self.tr("DFT"), "mp2": self.tr("MP2"),
                "ccsd": self.tr("CCSD"), "ccsd(t)": self.tr("CCSD(T)")}.get(
                    str(level), str(level or ""))

    def _fill_orbitals(self, res: Any) -> None:
        orbitals = list(res.orbitals) if res is not None else []
        table = self.orbitals_table
        table.clearContents()
        table.setRowCount(len(orbitals))
        # The summary's HOMO and LUMO of each spin channel, by position in the list.
        marks: dict[int, str] = {}
        for f in (res.summary.frontier if res is not None else []):
            if f.homoIndex is not None:
                marks[f.homoIndex] = " HOMO"
            if f.lumoIndex is not None:
                marks[f.lumoIndex] = " LUMO"
        spins = {"restricted": self.tr("restricted"), "alpha": self.tr("alpha"),
                 "beta": self.tr("beta")}
        bold = QFont()
        bold.setBold(True)
        for row, o in enumerate(orbitals):
            mark = marks.get(o.index, "")
            cells = [f"{o.number}{mark}", spins.get(o.spin, o.spin), f"{o.energy:.6f}",
                     f"{o.energyEv:.3f}", "" if o.occupation is None else f"{o.occupation:g}",
                     o.symmetry or ""]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if mark:
                    item.setFont(bold)
                table.setItem(row, col, item)

    def _labels_toggled(self, box: QCheckBox, on: bool) -> None:
        """Charges or spins label the atoms, one at a time (a label holds one number)."""
        other = self.spins_check if box is self.charges_check else self.charges_check
        if on and other.isChecked():
            with QSignalBlocker(other):
                other.setChecked(False)
        self._update_charge_labels()

    def _update_charge_labels(self) -> None:
        """Mulliken charges or spin populations as atom labels while their check box is on
        and the results hold them."""
        res = self.results
        charges = list(res.charges) if res is not None else []
        has_spin = any(q.mullikenSpin is not None for q in charges)
        self.charges_check.setEnabled(bool(charges))
        self.spins_check.setEnabled(has_spin)
        shown = self.trajectory_slider.value() if res is not None else -1
        fits = (bool(charges) and res is not None and 0 <= shown < len(res.structures)
                and len(res.structures[shown].symbols) == len(charges))
        labels: list[str] | None = None
        colour = None
        if fits and self.spins_check.isChecked() and has_spin:
            labels = [f"{q.mullikenSpin:+.2f}" if q.mullikenSpin is not None else ""
                      for q in charges]
            colour = SPIN_LABEL_COLOUR
        elif fits and self.charges_check.isChecked():
            labels = [f"{q.mulliken:+.2f}" if q.mulliken is not None else "" for q in charges]
        self.label_overlay.set_labels(labels, colour)

    def _frequency_header(self) -> None:
        factor = self.ir.scale_factor
        text = self.tr("Frequency (cm⁻¹)")
        if factor != 1.0:
            text += f" ×{factor:.4f}"
        item = self.modes_table.horizontalHeaderItem(1)
        if item is not None:
            item.setText(text)

    def _rescale_modes(self) -> None:
        """Show the modes' frequencies with the IR tab's scale factor (selection kept)."""
        mode = self._selected_mode()
        with self._quiet():
            self._fill_modes(self.results)
            if mode is not None:
                self.modes_table.selectRow(self._row_of_mode(mode))
        self._frequency_header()
        if self._mode is not None and self.results is not None \
                and self._mode < len(self.results.modes):
            self._show_mode_label(self._mode)

    def _fill_modes(self, res: Any) -> None:
        modes = list(res.modes) if res is not None else []
        self.modes_table.clearContents()
        self.modes_table.setRowCount(len(modes))
        yes = self.tr("yes")
        bold = QFont()
        bold.setBold(True)
        rigid_tip = self.tr("Translation or rotation (left out of the IR spectrum)")
        for row, m in enumerate(modes):
            # NWChem lists the six (five) zero-frequency translations and rotations with
            # the vibrations; they are greyed like in other viewers, not hidden.
            rigid = not m.significant and abs(m.frequency) < MIN_REAL_FREQUENCY
            cells = [
                str(m.index + 1), f"{m.frequency * self.ir.scale_factor:.2f}",
                "" if m.irIntensity is None else f"{m.irIntensity:.3f}",
                yes if m.imaginary else "", yes if m.significant else "",
                yes if m.hasDisplacements else "",
            ]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(MODE_ROLE, m.index)
                if m.significant:
                    item.setBackground(QBrush(SIGNIFICANT_BRUSH))
                    item.setFont(bold)
                elif m.imaginary and not rigid:
                    item.setBackground(QBrush(IMAGINARY_BRUSH))
                if rigid:
                    item.setForeground(QBrush(RIGID_MODE_TEXT))
                    item.setToolTip(rigid_tip)
                if col in (1, 2):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                self.modes_table.setItem(row, col, item)

    def _fill_plots(self, res: Any) -> None:
        from molforma.gui.widgets.scan_view import show_scan_of

        show_scan_of(self.scan_view, self, res)
        from molforma.gui.widgets.excitations_view import show_excitations_of

        show_excitations_of(self.excitations_table, res)
        if res is None:
            self._plotted = []
            self.energy_plot.set_energies([])
            self.ir.set_modes([], [])
            self.uvvis.set_excitations([], [])
            return
        self.uvvis.set_excitations([e.energyEv for e in res.excitations],
                                   [e.oscillatorStrength for e in res.excitations])
        points = [e for e in res.energies if e.kind == "optimization"]
        if not points:
            # One curve holds one level: an MP2 job's SCF and MP2 totals (and the property
            # task's SCF again) are not steps of one quantity. The final energy's level is
            # drawn; displaced geometries of numerical frequencies are no steps either.
            kinds = [e.kind for e in res.energies if not e.displaced]
            level = res.summary.finalEnergyLevel
            if level not in kinds:
                level = kinds[-1] if kinds else None
            points = [e for e in res.energies if e.kind == level and not e.displaced]
        self._plotted = points
        self.energy_plot.set_energies([e.energy for e in points])
        steps = points
        self.ir.set_modes([m.frequency for m in res.modes], [m.irIntensity for m in res.modes])
        if res.modes and not steps:
            self.plots.setCurrentWidget(self.ir)
        elif res.excitations and not any(e.kind == "optimization" for e in res.energies):
            self.plots.setCurrentWidget(self.uvvis)

    def showEvent(self, event: Any) -> None:  # Qt override
        """Fit the structure once the tab has its real size."""
        super().showEvent(event)
        if self.results is not None:
            QTimer.singleShot(0, self.view.fit)

    def retranslate_dynamic(self) -> None:
        """Summary, file kinds and mode marks are rebuilt in the new language."""
        shown, mode = self.results, self._selected_mode()
        playing = self.playing
        self.results = None
        self.refresh()
        if self.results is shown and mode is not None and not playing:
            self.modes_table.selectRow(self._row_of_mode(mode))

    # -- structures and modes ----------------------------------------------------------------
    def show_structure(self, index: int) -> None:
        """Show structure ``index`` (0-based) of the trajectory in the 3D view."""
        res = self.results
        if res is None or not 0 <= index < len(res.structures):
            raise ResultsError("results_bad_structure", index=index,
                               count=len(res.structures) if res is not None else 0)
        self._stop_animation()
        self._mode = None
        st = res.structures[index]
        if self.trajectory_slider.value() != index:
            with self._quiet():
                self.trajectory_slider.setValue(index)
        self.view.set_mode_animation(_atoms_of(st), None, 0.0)
        self._mark_energy(index)
        energy = f", {st.energy:.8f} Eh" if st.energy is not None else ""
        self.trajectory_label.setText(
            f"{index + 1}/{len(res.structures)} {self._structure_label(st.label)}{energy}")
        self._update_charge_labels()
        self._update_buttons()

    def use_structure(self, index: int | None = None) -> bool:
        """Put trajectory structure ``index`` (default: the one on the slider, which starts
        at the final one) into the editor as a candidate, as a person's edit; then show
        the Molecule tab, where it is confirmed or cancelled."""
        res = self.results
        if index is None:
            index = self.trajectory_slider.value()
        if res is None or not 0 <= index < len(res.structures):
            self.status_label.setText(error_text(ResultsError(
                "results_bad_structure", index=index,
                count=len(res.structures) if res is not None else 0)))
            return False
        from molforma.app import ops

        st = res.structures[index]
        try:
            ops.use_structure(self.ctx.document, st.symbols, st.coordinates,
                              label="Use computed structure", preview=True,
                              origin=window_actor().origin)
        except Exception as exc:  # noqa: BLE001 - shown, the document is unchanged
            self.status_label.setText(self.tr("Cannot use the structure: %1").replace(
                "%1", error_text(exc)))
            return False
        self.status_label.setText(self.tr(
            "Structure %1 is a candidate in the Molecule tab: confirm or cancel it there.")
            .replace("%1", f"{index + 1} ({self._structure_label(st.label)})"))
        self._show_tab("moleculeTab")
        return True

    def _show_tab(self, name: str) -> None:
        w: QWidget | None = self.parentWidget()
        while w is not None:
            if isinstance(w, QTabWidget) and w.objectName() == "mainTabs":
                for i in range(w.count()):
                    page = w.widget(i)
                    if page is not None and page.objectName() == name:
                        w.setCurrentIndex(i)
                        return
            w = w.parentWidget()

    def _structure_label(self, label: str) -> str:
        """A structure's label from the results ('input', 'step 3', ...) in the display language."""
        words = {
            "input": self.tr("input"), "final": self.tr("final"),
            "geometry": self.tr("geometry"), "reference": self.tr("reference"),
            "atoms": self.tr("atoms"),
        }
        if label in words:
            return words[label]
        kind, _, number = label.partition(" ")
        if number.isdigit() and kind == "step":
            return self.tr("step %1").replace("%1", number)
        if number.isdigit() and kind == "frame":
            return self.tr("frame %1").replace("%1", number)
        return label

    def _mark_energy(self, structure: int) -> None:
        """Highlight the energy point of ``structure`` on the energy plot, if it has one."""
        for i, point in enumerate(self._plotted):
            if point.structureIndex == structure:
                self.energy_plot.set_marker(i)
                return
        # The final geometry repeats the last step: match it by its energy.
        res = self.results
        energy = res.structures[structure].energy if res is not None else None
        if energy is not None:
            for i in range(len(self._plotted) - 1, -1, -1):
                if abs(self._plotted[i].energy - energy) < 1e-9:
                    self.energy_plot.set_marker(i)
                    return
        self.energy_plot.set_marker(None)

    def _slider_moved(self, value: int) -> None:
        if self._updating:
            return
        with contextlib.suppress(ResultsError):
            self.show_structure(int(value))

    def _selected_mode(self) -> int | None:
        items = self.modes_table.selectedItems()
        if not items:
            return None
        v = items[0].data(MODE_ROLE)
        return None if v is None else int(v)

    def _mode_selected(self) -> None:
        if self._updating:
            return
        idx = self._selected_mode()
        if idx is None:
            self._update_buttons()
            return
        self._prepare_mode(idx)
        self._update_buttons()

    def _prepare_mode(self, index: int) -> bool:
        """Show mode ``index`` ready to animate; False when it has no displacements."""
        res = self.results
        if res is None or not 0 <= index < len(res.modes):
            return False
        self._stop_animation()
        self._mode = index
        if not res.modes[index].hasDisplacements:
            ref = res.reference_structure()
            if ref is not None:
                self.view.set_mode_animation(_atoms_of(ref), None, 0.0)
            return False
        from molforma.results import get_section

        data = get_section(res, "mode_displacements", mode=index)
        items = data["items"]
        atoms = [{"element": it["element"], "x": it["position"][0], "y": it["position"][1],
                  "z": it["position"][2]} for it in items]
        disp = [tuple(it["displacement"]) for it in items]
        self.view.set_mode_animation(atoms, disp, self.amplitude_spin.value())
        self._show_mode_label(index)
        return True

    def _show_mode_label(self, index: int) -> None:
        """'Mode 7: 1635.31 cm⁻¹', with the IR tab's scale factor applied."""
        if self.results is None:
            return
        m = self.results.modes[index]
        self.trajectory_label.setText(self.tr("Mode %1: %2 cm⁻¹").replace(
            "%1", str(index + 1)).replace("%2", f"{m.frequency * self.ir.scale_factor:.2f}"))

    def play_mode(self, index: int, amplitude: float | None = None) -> None:
        """Animate mode ``index`` (0-based), positive and imaginary alike.

        Raises:
            ResultsError: no results, a bad index, or a mode without displacements.
        """
        res = self.results
        if res is None or not 0 <= index < len(res.modes):
            raise ResultsError("results_bad_mode", mode=index,
                               count=len(res.modes) if res is not None else 0)
        if not res.modes[index].hasDisplacements:
            raise ResultsError("results_no_displacements", mode=index)
        if amplitude is not None:
            if not 0 < float(amplitude) <= self.amplitude_spin.maximum():
                raise ResultsError("results_bad_amplitude", amplitude=amplitude,
                                   max=self.amplitude_spin.maximum())
            self.amplitude_spin.blockSignals(True)
            self.amplitude_spin.setValue(float(amplitude))
            self.amplitude_spin.blockSignals(False)
        if self._selected_mode() != index:
            with self._quiet():
                self.modes_table.selectRow(self._row_of_mode(index))
        self._prepare_mode(index)
        self.view.play()
        self._update_buttons()

    def _row_of_mode(self, index: int) -> int:
        for row in range(self.modes_table.rowCount()):
            item = self.modes_table.item(row, 0)
            if item is not None and item.data(MODE_ROLE) == index:
                return row
        return index

    def _play_clicked(self) -> None:
        idx = self._selected_mode()
        try:
            if idx is not None:
                self.play_mode(idx)
            elif self._can_play_frames():
                self._frame_timer.start()
                self._update_buttons()
        except Exception as exc:  # noqa: BLE001 - shown in the status line
            self.status_label.setText(error_text(exc))

    def _can_play_frames(self) -> bool:
        res = self.results
        return res is not None and len(res.structures) > 1

    def _next_frame(self) -> None:
        res = self.results
        if res is None or len(res.structures) < 2:
            self._frame_timer.stop()
            return
        nxt = (self.trajectory_slider.value() + 1) % len(res.structures)
        self.show_structure_keep_playing(nxt)

    def show_structure_keep_playing(self, index: int) -> None:
        """Advance trajectory playback to ``index`` without stopping it."""
        res = self.results
        if res is None:
            return
        st = res.structures[index]
        with self._quiet():
            self.trajectory_slider.setValue(index)
        self.view.set_mode_animation(_atoms_of(st), None, 0.0)
        self._mark_energy(index)
        self.trajectory_label.setText(f"{index + 1}/{len(res.structures)} {st.label}")

    def _amplitude_changed(self, _value: float) -> None:
        if self._mode is None:
            return
        playing = self.playing
        self._prepare_mode(self._mode)
        if playing:
            self.view.play()

    def _stop_animation(self) -> None:
        self._frame_timer.stop()
        self.view.stop()

    def stop(self) -> None:
        """Stop a mode animation or trajectory playback."""
        self._stop_animation()
        self._update_buttons()

    @property
    def playing(self) -> bool:
        """True while a mode or the trajectory is animated."""
        return bool(self.view.playing) or self._frame_timer.isActive()

    def _update_buttons(self) -> None:
        res = self.results
        idx = self._selected_mode()
        can_mode = (res is not None and idx is not None and 0 <= idx < len(res.modes)
                    and res.modes[idx].hasDisplacements)
        can_frames = idx is None and self._can_play_frames()
        self.play_button.setEnabled(bool(can_mode or can_frames) and not self.playing)
        self.stop_button.setEnabled(self.playing)
        self.reload_button.setEnabled(res is not None)
        self.use_structure_button.setEnabled(res is not None and bool(res.structures))
        self.trajectory_slider.setEnabled(res is not None and len(res.structures) > 1)

    # -- IR export -----------------------------------------------------------------------------
    def export_ir_png(self, path: str | None = None) -> str | None:
        """Save the IR plot as PNG (asks for the path when None)."""
        return self._export(path, "png")

    def export_ir_csv(self, path: str | None = None) -> str | None:
        """Save the IR spectrum as CSV (asks for the path when None)."""
        return self._export(path, "csv")

    def export_uvvis_png(self, path: str | None = None) -> str | None:
        """Save the UV-Vis plot as PNG (asks for the path when None)."""
        return self._export(path, "png", self.uvvis)

    def export_uvvis_csv(self, path: str | None = None) -> str | None:
        """Save the UV-Vis spectrum as CSV (asks for the path when None)."""
        return self._export(path, "csv", self.uvvis)

    def _export(self, path: str | None, kind: str, plot: Any = None) -> str | None:
        plot = self.ir if plot is None else plot
        if not path:
            filt = self.tr("PNG images (*.png)") if kind == "png" else self.tr("CSV files (*.csv)")
            uv = plot is self.uvvis
            title = self.tr("Export UV-Vis spectrum") if uv else self.tr("Export IR spectrum")
            name = "uvvis-spectrum" if uv else "ir-spectrum"
            path = dialogs.get_save_path(self, title, [filt], str(Path.home() / f"{name}.{kind}"))
            if not path:
                return None
        try:
            path = self._check(path)
            if kind == "png":
                plot.write_png(path)
            else:
                plot.write_csv(path)
        except Exception as exc:  # noqa: BLE001 - shown in the status line
            self.status_label.setText(error_text(exc))
            return None
        self.status_label.setText(self.tr("Saved %1").replace("%1", path))
        return path
