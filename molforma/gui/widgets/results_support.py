"""What the Results tab's parts share: its constants, messages and small helpers (Qt layer)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from molforma.file_formats import result_patterns
from molforma.gui.widgets.panel_workers import (
    QT_TRANSLATE_NOOP,
)
from molforma.i18n import register

if TYPE_CHECKING:
    pass

register(
    {
        "results_bad_structure": {
            "en": "No structure {index}: the results hold {count} structures (0-based).",
            "ja": "構造 {index} はありません。結果の構造は {count} 個です（0始まり）。",
        },
        "results_bad_amplitude": {
            "en": "Amplitude {amplitude} is out of range: give a value above 0 and at most {max}.",
            "ja": "振幅 {amplitude} は範囲外です。0より大きく {max} 以下の値を指定してください。",
        },
    }
)

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

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import (
        QCheckBox,
        QDoubleSpinBox,
        QLabel,
        QPlainTextEdit,
        QSlider,
        QTableWidget,
        QTabWidget,
        QTreeWidget,
        QWidget,
    )

    from molforma.gui.view3d.base import MoleculeView
    from molforma.gui.view3d.labels import AtomLabelOverlay
    from molforma.gui.widgets.excitations_view import ExcitationsTable
    from molforma.gui.widgets.plots import EnergyPlot, IRSpectrumWidget
    from molforma.gui.widgets.scan_view import ScanProfileWidget
    from molforma.gui.widgets.uvvis_plot import UVVisSpectrumWidget
    from molforma.results.results_model import Results


def _atoms_of(structure: Any) -> list[dict[str, Any]]:
    return [
        {"element": s, "x": float(c[0]), "y": float(c[1]), "z": float(c[2])}
        for s, c in zip(structure.symbols, structure.coordinates, strict=False)
    ]


class ResultsPanelHost(Protocol):
    """What the Results tab's parts (loading, summary, tables, player) use of the tab: its
    widgets, its state and a few of its methods. A protocol rather than an import of
    :class:`~molforma.gui.widgets.results_panel.ResultsPanel`, which imports them."""

    ctx: Any
    results: Results | None
    _frame_timer: QTimer
    _mode: int | None
    _plotted: list[Any]
    _updating: bool
    # Widgets (ResultsPanel._build).
    amplitude_spin: QDoubleSpinBox
    charges_check: QCheckBox
    energy_plot: EnergyPlot
    excitations_table: ExcitationsTable
    file_list: QTreeWidget
    ir: IRSpectrumWidget
    label_overlay: AtomLabelOverlay
    modes_table: QTableWidget
    orbitals_table: QTableWidget
    plots: QTabWidget
    scan_view: ScanProfileWidget
    spins_check: QCheckBox
    status_label: QLabel
    summary: QPlainTextEdit
    trajectory_label: QLabel
    trajectory_slider: QSlider
    uvvis: UVVisSpectrumWidget
    view: MoleculeView

    def parentWidget(self) -> QWidget | None: ...
    def _quiet(self) -> AbstractContextManager[None]: ...
    def _row_of_mode(self, index: int) -> int: ...
    def _selected_mode(self) -> int | None: ...
    def _show_mode_label(self, index: int) -> None: ...
    def _update_buttons(self) -> None: ...
    def _update_charge_labels(self) -> None: ...
    def refresh(self, *_args: Any) -> None: ...
