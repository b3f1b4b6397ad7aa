"""pyqtgraph plots of the Execution and Results tabs: energy per step and IR spectrum.

The plots read plain numbers (energies in Hartree, frequencies in cm⁻¹, intensities in
km/mol) that the results core has already parsed; they never parse text themselves.

pyqtgraph takes seconds to import on a loaded machine, so it is imported when a plot
is first shown (or asked for its axes), never while the window opens: each plot is a
plain QWidget that keeps its data and makes its ``pg.PlotWidget`` on first show.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from molforma.errors import FileAccessError
from molforma.fileio import atomic_write_bytes, atomic_write_text
from molforma.gui.widgets.panel_workers import Retranslatable
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    import pyqtgraph as pg
    from pyqtgraph import exporters as pg_exporters
else:  # imported when a plot is first shown (start-up time): molforma.lazy
    pg = lazy_import("pyqtgraph")
    pg_exporters = lazy_import("pyqtgraph.exporters")

DEFAULT_FWHM = 20.0  # cm⁻¹: a common choice for gas-phase spectra of small molecules
MIN_REAL_FREQUENCY = 10.0  # cm⁻¹: below this the "modes" are translations/rotations


def _style(plot: Any) -> None:
    plot.setBackground("w")
    plot.showGrid(x=True, y=True, alpha=0.3)


class _LazyPlot(QWidget):
    """Holds a ``pg.PlotWidget`` made on first show or first use (see the module docstring)."""

    def __init__(self, parent: QWidget | None, object_name: str) -> None:
        super().__init__(parent)
        self.setObjectName(object_name)
        self._lay = QVBoxLayout(self)
        self._lay.setContentsMargins(0, 0, 0, 0)
        self._plot: Any = None
        # With no data the plot is replaced by a line saying so: axes running 0 to 1 with
        # no curve read like a plot of nothing.
        self.empty_label = QLabel(self)
        self.empty_label.setObjectName(object_name + "Empty")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setStyleSheet("color: #808080;")
        self._lay.addWidget(self.empty_label)
        self._empty = True

    def plot_widget(self) -> Any:
        """The pyqtgraph PlotWidget (made now if it was not yet)."""
        if self._plot is None:
            self._plot = pg.PlotWidget(self)
            self._lay.addWidget(self._plot)
            self._plot.setVisible(not self._empty)
            self._build(self._plot)
        return self._plot

    def set_empty(self, empty: bool, text: str = "") -> None:
        """Show ``text`` instead of the plot while there is nothing to draw."""
        self._empty = empty
        self.empty_label.setText(text)
        self.empty_label.setVisible(empty)
        if self._plot is not None:
            self._plot.setVisible(not empty)

    def _build(self, plot: Any) -> None:
        """Style the new plot and draw the data kept so far (subclasses)."""

    def showEvent(self, event: Any) -> None:  # Qt override
        """Make the plot when it is first shown."""
        self.plot_widget()
        super().showEvent(event)

    def getAxis(self, name: str) -> Any:
        """The plot's axis ``name`` ('left', 'bottom').."""
        return self.plot_widget().getAxis(name)

    def getViewBox(self) -> Any:
        """The plot's view box."""
        return self.plot_widget().getViewBox()


def widget_png_bytes(widget: QWidget) -> bytes:
    """A PNG image of ``widget`` as it is drawn now."""
    image = widget.grab().toImage()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6 accepts only str here, although its stub says bytes.
    if not image.save(buf, "PNG"):  # type: ignore[call-overload]
        raise FileAccessError(path="<image>", reason="PNG encoding failed")
    buf.close()
    return bytes(data.data())


def _step_tick_spacing(count: int) -> int:
    """A whole-number tick spacing (1, 2, 5, 10, 20, …) giving at most about ten ticks."""
    spacing = 1
    for factor in (2, 2.5, 2) * 8:
        if count <= 10 * spacing:
            break
        spacing = int(spacing * factor)
    return spacing


class EnergyPlot(Retranslatable, _LazyPlot):
    """Energy (Hartree) against optimisation/SCF step, redrawn as the data grows."""

    def __init__(self, parent: QWidget | None = None, *, object_name: str = "energyPlot") -> None:
        super().__init__(parent, object_name)
        self._values: list[float] = []
        self._marked: int | None = None
        self._curve: Any = None
        self._marker: Any = None
        self.setMinimumHeight(140)
        self._draw()

    def retranslate_dynamic(self) -> None:
        """The empty-plot line follows the language."""
        self._draw()

    def _build(self, plot: Any) -> None:
        _style(plot)
        self.bind_text(lambda: plot.setLabel("bottom", self.tr("Step")))
        self.bind_text(lambda: plot.setLabel("left", self.tr("Energy"), units="Eh"))
        # Hartree values near -76 would otherwise get an SI prefix ("kEh").
        plot.getAxis("left").enableAutoSIPrefix(False)
        self._curve = plot.plot(
            [],
            [],
            pen=pg.mkPen("#1f77b4", width=2),
            symbol="o",
            symbolSize=6,
            symbolBrush="#1f77b4",
        )
        self._marker = pg.ScatterPlotItem(size=12, brush=pg.mkBrush("#d62728"), pen=pg.mkPen("k"))
        plot.addItem(self._marker)
        self._draw()

    def _draw(self) -> None:
        self.set_empty(
            not self._values,
            self.tr(
                "No energies yet: they appear here step by "
                "step while a calculation runs or when "
                "results are opened."
            ),
        )
        if self._curve is None:
            return
        values = self._values
        self._curve.setData(list(range(1, len(values) + 1)), values)
        # Steps are whole numbers: no "1.5" or "2.5" ticks between them.
        spacing = _step_tick_spacing(len(values))
        self._plot.getAxis("bottom").setTickSpacing(spacing, spacing)
        self._draw_marker()

    def _draw_marker(self) -> None:
        if self._marker is None:
            return
        if self._marked is None:
            self._marker.setData([], [])
        else:
            self._marker.setData([self._marked + 1], [self._values[self._marked]])

    def set_energies(self, energies: Sequence[float]) -> None:
        """Show ``energies`` (one per step, first step = 1); an empty list clears the plot."""
        values = [float(e) for e in energies if e is not None and math.isfinite(float(e))]
        if values == self._values:
            return
        self._values = values
        self._marked = None
        self._draw()

    def energies(self) -> list[float]:
        """The energies shown now."""
        return list(self._values)

    def set_marker(self, index: int | None) -> None:
        """Highlight step ``index`` (0-based) of the curve; None removes the mark."""
        self._marked = index if index is not None and 0 <= index < len(self._values) else None
        self._draw_marker()

    def marker(self) -> int | None:
        """The highlighted step (0-based), or None."""
        return self._marked


LINE_SHAPES = ("lorentzian", "gaussian")


def broadened(
    positions: np.ndarray,
    heights: np.ndarray,
    grid: np.ndarray,
    fwhm: float,
    shape: str = "lorentzian",
) -> np.ndarray:
    """Sum of Lorentzian or Gaussian bands of full width ``fwhm`` on ``grid``, each band's
    peak height equal to its stick (peak height, not area, is kept: an isolated band
    reaches its stick whatever the width, so sticks and curve share one axis).

    The one broadening helper of the window's spectra (IR here; UV-Vis may use it too).
    """
    f = np.asarray(positions, dtype=float)
    i = np.asarray(heights, dtype=float)
    if f.size == 0:
        return np.zeros_like(grid)
    d = grid[:, None] - f[None, :]
    if shape == "gaussian":
        sigma = fwhm / (2.0 * math.sqrt(2.0 * math.log(2.0)))
        gauss: np.ndarray = (i[None, :] * np.exp(-(d**2) / (2.0 * sigma**2))).sum(axis=1)
        return gauss
    if shape != "lorentzian":
        raise ValueError(f"unknown line shape {shape!r}; use one of {', '.join(LINE_SHAPES)}")
    half = fwhm / 2.0
    lorentz: np.ndarray = (i[None, :] * half**2 / (d**2 + half**2)).sum(axis=1)
    return lorentz


def lorentzian_spectrum(
    frequencies: Sequence[float],
    intensities: Sequence[float],
    fwhm: float,
    grid: np.ndarray | None = None,
    shape: str = "lorentzian",
) -> tuple[np.ndarray, np.ndarray]:
    """The IR curve on a wavenumber grid (0 to past the highest band): see :func:`broadened`."""
    f = np.asarray(frequencies, dtype=float)
    if grid is None:
        hi = float(f.max()) + 10 * fwhm if f.size else 4000.0
        grid = np.linspace(0.0, max(hi, 500.0), 4000)
    return grid, broadened(f, np.asarray(intensities, dtype=float), grid, fwhm, shape)


# Frequency scale factors (Scott and Radom, J. Phys. Chem. 1996, 100, 16502) for the
# methods people run most; the combo stays editable for any other value.
SCALE_FACTORS: tuple[tuple[float, str], ...] = (
    (1.0, ""),
    (0.8953, "HF/6-31G*"),
    (0.9085, "HF/3-21G"),
    (0.9613, "B3LYP/6-31G*"),
    (0.9427, "MP2/6-31G*"),
)
SCALE_RANGE = (0.5, 1.5)
MAX_EXPORT_SCALE = 8


def parse_scale(text: str) -> float | None:
    """The factor at the start of a scale combo text ('0.9613 B3LYP/6-31G*' → 0.9613),
    read in the C locale; None when it is not a number in :data:`SCALE_RANGE`."""
    words = text.strip().split()
    if not words:
        return None
    try:
        value = float(words[0])
    except ValueError:
        return None
    if not math.isfinite(value) or not SCALE_RANGE[0] <= value <= SCALE_RANGE[1]:
        return None
    return value


def scaled_png_bytes(plot: Any, scale: int) -> bytes:
    """A PNG of ``plot`` drawn ``scale`` times its size (pyqtgraph redraws the scene, so
    text and lines stay sharp instead of being blown-up pixels)."""
    if scale <= 1:
        return widget_png_bytes(plot)

    exporter = pg_exporters.ImageExporter(plot.getPlotItem())
    exporter.parameters()["width"] = int(plot.width() * scale)
    image = exporter.export(toBytes=True)
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if image is None or not image.save(buf, "PNG"):
        raise FileAccessError(path="<image>", reason="PNG encoding failed")
    buf.close()
    return bytes(data.data())


class IRSpectrumWidget(Retranslatable, QWidget):
    """IR spectrum: sticks plus a broadened curve (Lorentzian or Gaussian, width), a
    frequency scale factor, and PNG (at a chosen scale) / CSV export."""

    scaleChanged = Signal(float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("irPanel")
        self.plot = _IRPlot(self)
        self.plot.setMinimumHeight(160)

        self.width_label = self.label(lambda: self.tr("Width (FWHM, cm⁻¹):"))
        self.width_spin = QDoubleSpinBox(self)
        self.width_spin.setObjectName("irWidthSpin")
        self.width_spin.setRange(1.0, 500.0)
        self.width_spin.setDecimals(1)
        self.width_spin.setSingleStep(5.0)
        self.width_spin.setValue(DEFAULT_FWHM)
        self.width_label.setBuddy(self.width_spin)
        self.export_png = self.button(lambda: self.tr("Export PNG…"), "irExportPng")
        self.export_csv = self.button(lambda: self.tr("Export CSV…"), "irExportCsv")

        self.shape_combo = QComboBox(self)
        self.shape_combo.setObjectName("irLineShapeCombo")
        for key in LINE_SHAPES:
            self.shape_combo.addItem("", key)
        self.bind_text(self._shape_texts)
        self.scale_label = self.label(lambda: self.tr("Scale factor:"))
        self.scale_combo = QComboBox(self)
        self.scale_combo.setObjectName("irScaleCombo")
        self.scale_combo.setEditable(True)
        self.scale_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for factor, method in SCALE_FACTORS:
            self.scale_combo.addItem(f"{factor:.4f} {method}".strip(), factor)
        self.scale_label.setBuddy(self.scale_combo)
        self.bind_text(
            lambda: self.scale_combo.setToolTip(
                self.tr(
                    "Harmonic frequencies are multiplied by this factor in the plot, the modes table "
                    "and the CSV: pick the value for your method or type one (0.5–1.5)"
                )
            )
        )
        self.scale_message = QLabel(self)
        self.scale_message.setObjectName("irScaleMessage")
        self.scale_message.setStyleSheet("color: #b00020;")
        self.scale_message.setVisible(False)
        self.export_scale_label = self.label(lambda: self.tr("PNG size:"))
        self.export_scale_spin = QSpinBox(self)
        self.export_scale_spin.setObjectName("irExportScale")
        self.export_scale_spin.setRange(1, MAX_EXPORT_SCALE)
        self.export_scale_spin.setValue(3)
        self.bind_text(lambda: self.export_scale_spin.setPrefix("×"))
        self.bind_text(
            lambda: self.export_scale_spin.setToolTip(
                self.tr(
                    "The PNG is the plot as shown, drawn this many times larger (sharp text and "
                    "lines)"
                )
            )
        )
        self.export_size_label = QLabel(self)
        self.export_size_label.setObjectName("irExportSize")
        self.export_scale_spin.valueChanged.connect(lambda _v: self._show_export_size())

        # Two rows: the spectrum's look, then its export; one row would make the window
        # wider than a 1280-pixel screen.
        row = QHBoxLayout()
        row.addWidget(self.width_label)
        row.addWidget(self.width_spin)
        row.addWidget(self.shape_combo)
        row.addWidget(self.scale_label)
        row.addWidget(self.scale_combo)
        row.addStretch(1)
        export_row = QHBoxLayout()
        export_row.addStretch(1)
        export_row.addWidget(self.export_scale_label)
        export_row.addWidget(self.export_scale_spin)
        export_row.addWidget(self.export_size_label)
        export_row.addWidget(self.export_png)
        export_row.addWidget(self.export_csv)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.plot, 1)
        lay.addLayout(row)
        lay.addLayout(export_row)
        lay.addWidget(self.scale_message)

        self._freqs: list[float] = []
        self._ints: list[float] = []
        self._scale = 1.0
        self.width_spin.valueChanged.connect(self._redraw)
        self.shape_combo.currentIndexChanged.connect(lambda _i: self._redraw())
        self.scale_combo.activated.connect(lambda _i: self._scale_edited())
        line_edit = self.scale_combo.lineEdit()
        if line_edit is not None:
            line_edit.editingFinished.connect(self._scale_edited)
        self._update_enabled()

    # -- settings ------------------------------------------------------------------------
    def _shape_texts(self) -> None:
        self.shape_combo.setItemText(0, self.tr("Lorentzian"))
        self.shape_combo.setItemText(1, self.tr("Gaussian"))
        self.shape_combo.setToolTip(self.tr("Band shape of the broadened curve"))

    @property
    def scale_factor(self) -> float:
        """The frequency scale factor in use."""
        return self._scale

    @property
    def line_shape(self) -> str:
        """``lorentzian`` or ``gaussian``."""
        return str(self.shape_combo.currentData())

    def set_scale_factor(self, value: float) -> None:
        """Use ``value`` (within :data:`SCALE_RANGE`) as the frequency scale factor.

        Raises:
            ValueError: out of range.
        """
        if not SCALE_RANGE[0] <= float(value) <= SCALE_RANGE[1]:
            raise ValueError(f"scale factor {value} outside {SCALE_RANGE}")
        self._scale = float(value)
        self._redraw()
        self.scaleChanged.emit(self._scale)

    def _scale_edited(self) -> None:
        text = self.scale_combo.currentText()
        value = parse_scale(text)
        if value is None:
            self.scale_message.setText(
                self.tr(
                    "Not a scale factor: %1 (give a number from 0.5 to 1.5, for example 0.9613)"
                ).replace("%1", text)
            )
            self.scale_message.setVisible(True)
            self._show_scale_text()
            return
        if value != self._scale:
            # Only a new value clears the refusal: Qt may report the restored text again.
            self.scale_message.setVisible(False)
            self.set_scale_factor(value)

    def _show_scale_text(self) -> None:
        idx = self.scale_combo.findData(self._scale)
        if idx >= 0:
            self.scale_combo.setCurrentIndex(idx)
        self.scale_combo.setEditText(
            self.scale_combo.itemText(idx) if idx >= 0 else f"{self._scale:.4f}"
        )

    def export_size(self) -> tuple[int, int]:
        """Pixel size of the PNG written now: the plot area ``scale`` times larger."""
        k = self.export_scale_spin.value()
        width, height = self.plot.width() * k, self.plot.height() * k
        plot = self.plot._plot  # only when made: asking must not build it
        if k > 1 and plot is not None:
            rect = plot.getPlotItem().sceneBoundingRect()
            if rect.width() > 0:  # pyqtgraph keeps the plot item's aspect ratio, truncating
                height = int(width * (rect.height() / rect.width()))
        return width, height

    def _show_export_size(self) -> None:
        w, h = self.export_size()
        self.export_size_label.setText(f"{w} × {h} px")

    def resizeEvent(self, event: Any) -> None:  # Qt override
        """The PNG size shown follows the plot's size."""
        super().resizeEvent(event)
        self._show_export_size()

    def showEvent(self, event: Any) -> None:  # Qt override
        """The plot has its real size once shown."""
        super().showEvent(event)
        self._show_export_size()

    # -- data ----------------------------------------------------------------------------
    def set_modes(self, frequencies: Sequence[float], intensities: Sequence[float | None]) -> None:
        """Show the real vibrational modes; imaginary and near-zero modes are left out."""
        freqs: list[float] = []
        ints: list[float] = []
        for f, i in zip(frequencies, intensities, strict=False):
            if f is None or i is None or float(f) < MIN_REAL_FREQUENCY:
                continue
            freqs.append(float(f))  # unscaled: the factor is applied when drawn
            ints.append(float(i))
        self._freqs, self._ints = freqs, ints
        self._redraw()

    def scaled_frequencies(self) -> list[float]:
        """The sticks' wavenumbers with the scale factor applied."""
        return [f * self._scale for f in self._freqs]

    def sticks(self) -> list[tuple[float, float]]:
        """(scaled wavenumber, intensity) of the sticks shown."""
        return list(zip(self.scaled_frequencies(), self._ints, strict=True))

    def broadened(self) -> tuple[np.ndarray, np.ndarray]:
        """The broadened curve shown now (scaled wavenumbers, intensities)."""
        return lorentzian_spectrum(
            self.scaled_frequencies(), self._ints, self.width_spin.value(), shape=self.line_shape
        )

    def _redraw(self) -> None:
        self.plot.draw(
            self.scaled_frequencies(), self._ints, self.broadened() if self._freqs else None
        )
        self._update_enabled()

    def _update_enabled(self) -> None:
        has = bool(self._freqs)
        self.export_png.setEnabled(has)
        self.export_csv.setEnabled(has)

    # -- export --------------------------------------------------------------------------
    def write_png(self, path: str | Path) -> None:
        """Save the plot as a PNG file (atomically), :meth:`export_size` pixels large."""
        plot = self.plot.plot_widget()
        if plot.size() != self.plot.size():
            plot.resize(self.plot.size())  # a plot made just now: give it its real size
        atomic_write_bytes(path, scaled_png_bytes(plot, self.export_scale_spin.value()))

    def write_csv(self, path: str | Path) -> None:
        """Save the broadened spectrum and the sticks as CSV (atomically)."""
        x, y = self.broadened()
        lines = [
            f"# fwhm_cm-1,{self.width_spin.value():.3f},scale_factor,{self._scale:.4f},"
            f"line_shape,{self.line_shape}",
            "wavenumber_cm-1,broadened_intensity_km/mol,stick_intensity_km/mol",
        ]
        lines += [f"{f:.4f},,{i:.6g}" for f, i in sorted(self.sticks())]
        lines += [f"{xv:.4f},{yv:.6g}," for xv, yv in zip(x, y, strict=True)]
        atomic_write_text(path, "\n".join(lines) + "\n")


class _IRPlot(Retranslatable, _LazyPlot):
    """The plot area of :class:`IRSpectrumWidget`: sticks and the broadened curve."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent, "irPlot")
        self._sticks: Any = None
        self._curve: Any = None
        self._data: tuple[list[float], list[float], Any] = ([], [], None)
        self.draw(*self._data)

    def retranslate_dynamic(self) -> None:
        """The empty-plot line follows the language."""
        self.draw(*self._data)

    def _build(self, plot: Any) -> None:
        _style(plot)
        # translated in the context of IRSpectrumWidget, where these texts always were
        self.bind_text(
            lambda: plot.setLabel(
                "bottom", QCoreApplication.translate("IRSpectrumWidget", "Wavenumber (cm⁻¹)")
            )
        )
        self.bind_text(
            lambda: plot.setLabel(
                "left", QCoreApplication.translate("IRSpectrumWidget", "IR intensity (km/mol)")
            )
        )
        plot.getAxis("left").enableAutoSIPrefix(False)
        plot.getAxis("bottom").enableAutoSIPrefix(False)
        plot.getViewBox().invertX(True)  # chemists read IR spectra from high to low
        self._sticks = pg.BarGraphItem(x=[], height=[], width=4.0, brush="#d62728", pen=None)
        plot.addItem(self._sticks)
        self._curve = plot.plot([], [], pen=pg.mkPen("#1f77b4", width=2))
        self.draw(*self._data)

    def draw(self, freqs: list[float], ints: list[float], curve: Any) -> None:
        """Show sticks at ``freqs`` and the broadened ``curve`` (x, y) or none."""
        self._data = (freqs, ints, curve)
        self.set_empty(
            not freqs,
            QCoreApplication.translate(
                "IRSpectrumWidget", "No IR spectrum: open the results of a frequency calculation."
            ),
        )
        if self._sticks is None:
            return
        self._sticks.setOpts(x=freqs, height=ints)
        if curve is not None:
            self._curve.setData(*curve)
        else:
            self._curve.setData([], [])
