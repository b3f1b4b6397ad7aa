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

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase
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
    QTabWidget,
    QTreeWidget,
    QVBoxLayout,
    QWidget,
)

from molforma.gui import dialogs
from molforma.gui.view3d import create_view
from molforma.gui.view3d.labels import AtomLabelOverlay
from molforma.gui.widgets.panel_workers import (
    Retranslatable,
    error_text,
    reports_errors,
    unique_internal_names,
)
from molforma.gui.widgets.plots import EnergyPlot, IRSpectrumWidget
from molforma.gui.widgets.uvvis_plot import UVVisSpectrumWidget
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.gui.widgets import excitations_view, orbital_panel, scan_view
    from molforma.results.results_model import Results
else:  # imported on first use (start-up time): molforma.lazy
    orbital_panel = lazy_import("molforma.gui.widgets.orbital_panel")
    scan_view = lazy_import("molforma.gui.widgets.scan_view")
    excitations_view = lazy_import("molforma.gui.widgets.excitations_view")

from molforma.gui.widgets.results_loading import ResultsLoading
from molforma.gui.widgets.results_player import StructurePlayer
from molforma.gui.widgets.results_summary import ResultsSummary
from molforma.gui.widgets.results_support import (
    DEFAULT_AMPLITUDE,
    FRAME_MS,
    WATCH_MS,
)
from molforma.gui.widgets.results_tables import ResultsTables

log = logging.getLogger(__name__)


def _in_status_line(panel: ResultsPanel, exc: BaseException) -> None:
    panel.status_label.setText(error_text(exc))


class ResultsPanel(Retranslatable, QWidget):
    """Viewer of the current results of the shared results session."""

    resultsShown = Signal()

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # The tab's parts, each one job (the widgets and the state stay here).
        self.loading = ResultsLoading(self, self)
        self.run_summary = ResultsSummary(self)
        self.tables = ResultsTables(self, self)
        self.player = StructurePlayer(self)
        self.setObjectName("resultsTab")
        self.ctx = ctx
        self.results: Results | None = None
        self._updating = False
        self._plotted: list[Any] = []
        self._mode: int | None = None
        self._frame_timer = QTimer(self)
        self._frame_timer.setInterval(FRAME_MS)
        self._frame_timer.timeout.connect(self.player._next_frame)
        self._build()
        ctx.events.resultsChanged.connect(self.refresh)
        self._watch = QTimer(self)
        self._watch.setInterval(WATCH_MS)
        self._watch.timeout.connect(self.loading._check_session)
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
        top = self._build_top_row()
        left = self._build_files()
        center = self._build_centre()
        right = QSplitter(Qt.Orientation.Vertical, self)
        right.setObjectName("resultsRightSplitter")
        right.addWidget(self._build_modes())
        right.addWidget(self._build_plots())

        main = QSplitter(Qt.Orientation.Horizontal, self)
        main.setObjectName("resultsSplitter")
        main.addWidget(left)
        main.addWidget(center)
        main.addWidget(right)
        # The files and summary column keeps room for its text (at 1280 pixels it was
        # ~100 px, the summary wrapping word by word and the file names only "…").
        main.setStretchFactor(0, 2)
        main.setStretchFactor(1, 3)
        main.setStretchFactor(2, 3)
        main.setCollapsible(0, False)
        main.setSizes([340, 420, 480])
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(main, 1)

        self.open_file_button.clicked.connect(self.loading._ask_open_file)
        self.open_folder_button.clicked.connect(self.loading._ask_open_folder)
        self.reload_button.clicked.connect(self.reload)
        self.play_button.clicked.connect(self.player._play_clicked)
        self.stop_button.clicked.connect(self.stop)
        self._update_buttons()

    def _build_top_row(self) -> QHBoxLayout:
        """Open file, Open folder, Reload and the status line."""
        self.open_file_button = self.button(lambda: self.tr("Open file…"), "resultsOpenFile")
        self.open_folder_button = self.button(lambda: self.tr("Open folder…"), "resultsOpenFolder")
        self.reload_button = self.button(lambda: self.tr("Reload"), "resultsReload")
        self.status_label = QLabel(self)
        self.status_label.setObjectName("resultsStatus")
        self.status_label.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.open_file_button)
        top.addWidget(self.open_folder_button)
        top.addWidget(self.reload_button)
        top.addWidget(self.status_label, 1)
        return top

    def _build_files(self) -> QSplitter:
        """The files of the run and the summary text."""
        self.file_list = QTreeWidget(self)
        self.file_list.setObjectName("resultsFileList")
        self.bind_text(lambda: self.file_list.setHeaderLabels([self.tr("File"), self.tr("Kind")]))
        # Names shortened in the middle keep what tells files apart (the start and the
        # ending: "methane_b3…autosym.out"); the tooltip holds the full path.
        self.file_list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = self.file_list.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.file_list.currentItemChanged.connect(self.loading._file_chosen)
        self.summary = QPlainTextEdit(self)
        self.summary.setObjectName("resultsSummary")
        self.summary.setReadOnly(True)
        self.summary.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        # Room for a summary line of 38 characters beside the scroll bar.
        self.summary.setMinimumWidth(
            self.summary.fontMetrics().averageCharWidth() * 38
            + self.summary.verticalScrollBar().sizeHint().width()
            + 2 * self.summary.frameWidth()
            + 4
        )
        left = QSplitter(Qt.Orientation.Vertical, self)
        left.setObjectName("resultsLeftSplitter")
        left.addWidget(self.file_list)
        left.addWidget(self.summary)
        return left

    def _build_centre(self) -> QWidget:
        """The 3D view, the structure slider, playback and the atom-label choices."""
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
        self.trajectory_slider.valueChanged.connect(self.player._slider_moved)
        self.play_button = self.button(lambda: self.tr("Play"), "playButton")
        self.stop_button = self.button(lambda: self.tr("Stop"), "resultsStopButton")
        self.amplitude_spin = QDoubleSpinBox(self)
        self.amplitude_spin.setObjectName("amplitudeSpin")
        self.amplitude_spin.setRange(0.05, 5.0)
        self.amplitude_spin.setSingleStep(0.1)
        self.amplitude_spin.setDecimals(2)
        self.amplitude_spin.setValue(DEFAULT_AMPLITUDE)
        self.amplitude_spin.valueChanged.connect(self.player._amplitude_changed)
        amp_label = self.label(lambda: self.tr("Amplitude:"))
        amp_label.setBuddy(self.amplitude_spin)
        traj = QHBoxLayout()
        traj.addWidget(self.label(lambda: self.tr("Structure:")))
        traj.addWidget(self.trajectory_slider, 1)
        traj.addWidget(self.trajectory_label)
        self.use_structure_button = self.button(
            lambda: self.tr("Use this structure"), "useStructureButton"
        )
        self.bind_text(
            lambda: self.use_structure_button.setToolTip(
                self.tr(
                    "Put the structure chosen on the slider (the final one unless you move it) into "
                    "the editor as a candidate; the atoms keep their ids when the elements match"
                )
            )
        )
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
        self.bind_text(
            lambda: self.arrows_check.setToolTip(
                self.tr(
                    "Show the displacement of each atom in the selected mode as an arrow, still or "
                    "while the mode plays"
                )
            )
        )
        self.arrows_check.toggled.connect(self.view.set_show_arrows)
        playrow.addStretch(1)
        labelrow = self._build_label_row()
        # Arrows join the atom labels' row: on the playback row they made the centre
        # column (and the tab) wider than the window's default 1200 pixels.
        labelrow.insertWidget(0, self.arrows_check)
        self.label_overlay = AtomLabelOverlay(self.view)
        center = QWidget(self)
        cl = QVBoxLayout(center)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(self.view, 1)
        cl.addLayout(traj)
        cl.addLayout(playrow)
        cl.addLayout(labelrow)
        return center

    def _build_label_row(self) -> QHBoxLayout:
        """Show charges / Show spins: atom labels of the shown structure."""
        # Atom labels on a row of their own: beside the playback controls they made the
        # tab wider than a 1280-pixel screen.
        labelrow = QHBoxLayout()
        self.charges_check = QCheckBox(self)
        self.charges_check.setObjectName("showChargesCheck")
        self.bind_text(lambda: self.charges_check.setText(self.tr("Show charges")))
        self.bind_text(
            lambda: self.charges_check.setToolTip(
                self.tr("Label each atom with its Mulliken charge")
            )
        )
        self.charges_check.toggled.connect(
            lambda on: self.tables._labels_toggled(self.charges_check, on)
        )
        labelrow.addWidget(self.charges_check)
        self.spins_check = QCheckBox(self)
        self.spins_check.setObjectName("showSpinsCheck")
        self.bind_text(lambda: self.spins_check.setText(self.tr("Show spins")))
        self.bind_text(
            lambda: self.spins_check.setToolTip(
                self.tr(
                    "Label each atom with its Mulliken spin population (alpha minus beta electrons; "
                    "open shells)"
                )
            )
        )
        self.spins_check.toggled.connect(
            lambda on: self.tables._labels_toggled(self.spins_check, on)
        )
        labelrow.addWidget(self.spins_check)
        labelrow.addStretch(1)
        return labelrow

    def _build_modes(self) -> QTableWidget:
        """The table of normal modes."""
        self.modes_table = QTableWidget(0, 6, self)
        self.modes_table.setObjectName("modesTable")
        self.bind_text(
            lambda: self.modes_table.setHorizontalHeaderLabels(
                [
                    self.tr("Mode"),
                    self.tr("Frequency (cm⁻¹)"),
                    self.tr("IR (km/mol)"),
                    self.tr("Imaginary"),
                    self.tr("Significant"),
                    self.tr("Displacements"),
                ]
            )
        )
        self.modes_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.modes_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.modes_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.modes_table.verticalHeader().setVisible(False)
        self.modes_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.modes_table.itemSelectionChanged.connect(self.player._mode_selected)
        self.modes_table.itemDoubleClicked.connect(lambda _item: self.player._play_clicked())
        return self.modes_table

    def _build_plots(self) -> QTabWidget:
        """The energy, IR, UV-Vis, orbital-energy, orbital, scan and excitation tabs."""
        self.plots = QTabWidget(self)
        self.plots.setObjectName("resultsPlotTabs")
        self.energy_plot = EnergyPlot(self.plots, object_name="resultsEnergyPlot")
        self.ir = IRSpectrumWidget(self.plots)
        self.uvvis = UVVisSpectrumWidget(self.plots)
        self.orbitals_table = QTableWidget(0, 6, self.plots)
        self.orbitals_table.setObjectName("orbitalsTable")
        self.bind_text(
            lambda: self.orbitals_table.setHorizontalHeaderLabels(
                [
                    self.tr("Orbital"),
                    self.tr("Spin"),
                    self.tr("Energy (Eh)"),
                    self.tr("Energy (eV)"),
                    self.tr("Occupation"),
                    self.tr("Symmetry"),
                ]
            )
        )
        self.orbitals_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.orbitals_table.verticalHeader().setVisible(False)
        self.orbitals_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.plots.addTab(self.energy_plot, "")
        self.plots.addTab(self.ir, "")
        self.plots.addTab(self.uvvis, "")
        self.plots.addTab(self.orbitals_table, "")
        self.bind_text(lambda: self.plots.setTabText(0, self.tr("Energy per step")))
        self.bind_text(lambda: self.plots.setTabText(1, self.tr("IR spectrum")))
        self.bind_text(lambda: self.plots.setTabText(2, self.tr("UV-Vis spectrum")))
        self.bind_text(lambda: self.plots.setTabText(3, self.tr("Orbital energies")))
        self.ir.scaleChanged.connect(lambda _f: self.tables._rescale_modes())
        self.bind_text(self.tables._frequency_header)
        self.ir.export_png.clicked.connect(lambda: self.export_ir_png())
        self.ir.export_csv.clicked.connect(lambda: self.export_ir_csv())
        self.uvvis.export_png.clicked.connect(lambda: self.export_uvvis_png())
        self.uvvis.export_csv.clicked.connect(lambda: self.export_uvvis_csv())

        self.orbital_panel = orbital_panel.OrbitalPanel(
            self.view, self._check, self.status_label.setText, self.plots
        )
        self.plots.addTab(self.orbital_panel, "")
        self.bind_text(
            lambda: self.plots.setTabText(
                self.plots.indexOf(self.orbital_panel), self.tr("Orbitals")
            )
        )

        self.scan_view = scan_view.attach_scan_view(self)  # a relaxed scan's profile and points

        self.excitations_table = excitations_view.attach_excitations_view(
            self
        )  # roots under the UV-Vis plot
        unique_internal_names(self.plots)
        return self.plots

    # -- loading -----------------------------------------------------------------------------

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
            current.resolvedPath if current is not None and current.kind == "molden" else None
        )
        self.orbital_panel.set_levels(
            current.orbitals if current is not None else [],
            current.summary.frontier if current is not None else [],
        )
        with self._quiet():
            self.run_summary._fill_files(current)
            self.run_summary._fill_summary(current)
            self.tables._fill_modes(current)
            self.tables._fill_plots(current)
            n = len(current.structures) if current is not None else 0
            self.trajectory_slider.setRange(0, max(0, n - 1))
            self.trajectory_slider.setValue(max(0, n - 1))
        if current is not None and current.structures:
            self.show_structure(len(current.structures) - 1)
        else:
            self.view.set_molecule([], [])
            self.trajectory_label.setText("")
        self.tables._fill_orbitals(current)
        self._update_charge_labels()
        self._update_buttons()
        self.resultsShown.emit()

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

    def _update_buttons(self) -> None:
        res = self.results
        idx = self._selected_mode()
        can_mode = (
            res is not None
            and idx is not None
            and 0 <= idx < len(res.modes)
            and res.modes[idx].hasDisplacements
        )
        can_frames = idx is None and self.player._can_play_frames()
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
        written = self._write(path, kind, plot)
        if written is not None:
            self.status_label.setText(self.tr("Saved %1").replace("%1", written))
        return written

    @reports_errors(_in_status_line, returns=None)
    def _write(self, path: str, kind: str, plot: Any) -> str:
        checked = self._check(path)
        if kind == "png":
            plot.write_png(checked)
        else:
            plot.write_csv(checked)
        return checked

    # -- what the collaborators do, under the names the window and its tests use
    def _check(self, path: str) -> str:
        return self.loading._check(path)

    def open_path(self, path: str, *, directory: bool | None = None) -> Any:
        return self.loading.open_path(path, directory=directory)

    def reload(self) -> Any | None:
        return self.loading.reload()

    def _follow(self, handle: Any) -> None:
        self.loading._follow(handle)

    def catch_up(self) -> None:
        self.loading.catch_up()

    def _update_charge_labels(self) -> None:
        self.tables._update_charge_labels()

    def show_structure(self, index: int) -> None:
        self.player.show_structure(index)

    def use_structure(self, index: int | None = None) -> bool:
        return self.player.use_structure(index)

    def _selected_mode(self) -> int | None:
        return self.player._selected_mode()

    def _show_mode_label(self, index: int) -> None:
        self.player._show_mode_label(index)

    def play_mode(self, index: int, amplitude: float | None = None) -> None:
        self.player.play_mode(index, amplitude)

    def _row_of_mode(self, index: int) -> int:
        return self.player._row_of_mode(index)

    def stop(self) -> None:
        self.player.stop()

    @property
    def playing(self) -> bool:
        return self.player.playing
