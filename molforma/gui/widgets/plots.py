"""pyqtgraph plots of the Execution and Results tabs: energy per step and IR spectrum.

The plots read plain numbers (energies in Hartree, frequencies in cm⁻¹, intensities in
km/mol) that the results core has already parsed; they never parse text themselves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QHBoxLayout,
    QVBoxLayout,
    QWidget,
)

from molforma.errors import FileAccessError
from molforma.fileio import atomic_write_bytes, atomic_write_text
from molforma.gui.widgets.panel_workers import Retranslatable

DEFAULT_FWHM = 20.0  # cm⁻¹: a common choice for gas-phase spectra of small molecules
MIN_REAL_FREQUENCY = 10.0  # cm⁻¹: below this the "modes" are translations/rotations


def _style(plot: pg.PlotWidget) -> None:
    plot.setBackground("w")
    plot.showGrid(x=True, y=True, alpha=0.3)


def widget_png_bytes(widget: QWidget) -> bytes:
    """A PNG image of ``widget`` as it is drawn now."""
    image = widget.grab().toImage()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buf, "PNG"):
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


class EnergyPlot(Retranslatable, pg.PlotWidget):
    """Energy (Hartree) against optimisation/SCF step, redrawn as the data grows."""

    def __init__(self, parent: QWidget | None = None, *, object_name: str = "energyPlot") -> None:
        super().__init__(parent)
        self.setObjectName(object_name)
        _style(self)
        self.bind_text(lambda: self.setLabel("bottom", self.tr("Step")))
        self.bind_text(lambda: self.setLabel("left", self.tr("Energy"), units="Eh"))
        # Hartree values near -76 would otherwise get an SI prefix ("kEh").
        self.getAxis("left").enableAutoSIPrefix(False)
        self._curve = self.plot([], [], pen=pg.mkPen("#1f77b4", width=2), symbol="o",
                                symbolSize=6, symbolBrush="#1f77b4")
        self._marker = pg.ScatterPlotItem(size=12, brush=pg.mkBrush("#d62728"),
                                          pen=pg.mkPen("k"))
        self.addItem(self._marker)
        self._values: list[float] = []
        self._marked: int | None = None
        self.setMinimumHeight(140)

    def set_energies(self, energies: Sequence[float]) -> None:
        """Show ``energies`` (one per step, first step = 1); an empty list clears the plot."""
        values = [float(e) for e in energies if e is not None and math.isfinite(float(e))]
        if values == self._values:
            return
        self._values = values
        self._curve.setData(list(range(1, len(values) + 1)), values)
        # Steps are whole numbers: no "1.5" or "2.5" ticks between them.
        spacing = _step_tick_spacing(len(values))
        self.getAxis("bottom").setTickSpacing(spacing, spacing)
        self.set_marker(None)

    def energies(self) -> list[float]:
        """The energies shown now."""
        return list(self._values)

    def set_marker(self, index: int | None) -> None:
        """Highlight step ``index`` (0-based) of the curve; None removes the mark."""
        if index is None or not 0 <= index < len(self._values):
            self._marked = None
            self._marker.setData([], [])
            return
        self._marked = index
        self._marker.setData([index + 1], [self._values[index]])

    def marker(self) -> int | None:
        """The highlighted step (0-based), or None."""
        return self._marked


def lorentzian_spectrum(
    frequencies: Sequence[float], intensities: Sequence[float], fwhm: float,
    grid: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Sum of Lorentzians whose peak heights equal the stick intensities.

    Peak height rather than area is kept, so an isolated band reaches its stick and
    the two curves can share one axis whatever the width.
    """
    f = np.asarray(frequencies, dtype=float)
    i = np.asarray(intensities, dtype=float)
    if grid is None:
        hi = float(f.max()) + 10 * fwhm if f.size else 4000.0
        grid = np.linspace(0.0, max(hi, 500.0), 4000)
    half = fwhm / 2.0
    if f.size == 0:
        return grid, np.zeros_like(grid)
    y = (i[None, :] * half**2 / ((grid[:, None] - f[None, :]) ** 2 + half**2)).sum(axis=1)
    return grid, y


class IRSpectrumWidget(Retranslatable, QWidget):
    """IR spectrum: sticks plus a broadened curve, width spin box and PNG/CSV export."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("irPanel")
        self.plot = pg.PlotWidget(self)
        self.plot.setObjectName("irPlot")
        _style(self.plot)
        self.bind_text(lambda: self.plot.setLabel("bottom", self.tr("Wavenumber (cm⁻¹)")))
        self.bind_text(lambda: self.plot.setLabel("left", self.tr("IR intensity (km/mol)")))
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self.plot.getAxis("bottom").enableAutoSIPrefix(False)
        self.plot.getViewBox().invertX(True)  # chemists read IR spectra from high to low
        self._sticks = pg.BarGraphItem(x=[], height=[], width=4.0, brush="#d62728", pen=None)
        self.plot.addItem(self._sticks)
        self._curve = self.plot.plot([], [], pen=pg.mkPen("#1f77b4", width=2))
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

        row = QHBoxLayout()
        row.addWidget(self.width_label)
        row.addWidget(self.width_spin)
        row.addStretch(1)
        row.addWidget(self.export_png)
        row.addWidget(self.export_csv)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.plot, 1)
        lay.addLayout(row)

        self._freqs: list[float] = []
        self._ints: list[float] = []
        self.width_spin.valueChanged.connect(self._redraw)
        self._update_enabled()

    # -- data ----------------------------------------------------------------------------
    def set_modes(self, frequencies: Sequence[float], intensities: Sequence[float | None]) -> None:
        """Show the real vibrational modes; imaginary and near-zero modes are left out."""
        freqs: list[float] = []
        ints: list[float] = []
        for f, i in zip(frequencies, intensities, strict=False):
            if f is None or i is None or float(f) < MIN_REAL_FREQUENCY:
                continue
            freqs.append(float(f))
            ints.append(float(i))
        self._freqs, self._ints = freqs, ints
        self._redraw()

    def sticks(self) -> list[tuple[float, float]]:
        """(wavenumber, intensity) of the sticks shown."""
        return list(zip(self._freqs, self._ints, strict=True))

    def broadened(self) -> tuple[np.ndarray, np.ndarray]:
        """The broadened curve shown now (wavenumbers, intensities)."""
        return lorentzian_spectrum(self._freqs, self._ints, self.width_spin.value())

    def _redraw(self) -> None:
        self._sticks.setOpts(x=self._freqs, height=self._ints)
        if self._freqs:
            x, y = self.broadened()
            self._curve.setData(x, y)
        else:
            self._curve.setData([], [])
        self._update_enabled()

    def _update_enabled(self) -> None:
        has = bool(self._freqs)
        self.export_png.setEnabled(has)
        self.export_csv.setEnabled(has)

    # -- export --------------------------------------------------------------------------
    def write_png(self, path: str | Path) -> None:
        """Save the plot as a PNG file (atomically)."""
        atomic_write_bytes(path, widget_png_bytes(self.plot))

    def write_csv(self, path: str | Path) -> None:
        """Save the broadened spectrum and the sticks as CSV (atomically)."""
        x, y = self.broadened()
        lines = [f"# fwhm_cm-1,{self.width_spin.value():.3f}",
                 "wavenumber_cm-1,broadened_intensity_km/mol,stick_intensity_km/mol"]
        lines += [f"{f:.4f},,{i:.6g}" for f, i in sorted(zip(self._freqs, self._ints,
                                                             strict=True))]
        lines += [f"{xv:.4f},{yv:.6g}," for xv, yv in zip(x, y, strict=True)]
        atomic_write_text(path, "\n".join(lines) + "\n")
