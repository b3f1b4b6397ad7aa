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
from typing import Any

import numpy as np
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


def _style(plot: Any) -> None:
    plot.setBackground("w")
    plot.showGrid(x=True, y=True, alpha=0.3)


def _pg() -> Any:
    import pyqtgraph as pg

    return pg


class _LazyPlot(QWidget):
    """Holds a ``pg.PlotWidget`` made on first show or first use (see the module docstring)."""

    def __init__(self, parent: QWidget | None, object_name: str) -> None:
        super().__init__(parent)
        self.setObjectName(object_name)
        self._lay = QVBoxLayout(self)
        self._lay.setContentsMargins(0, 0, 0, 0)
        self._plot: Any = None

    def plot_widget(self) -> Any:
        """The pyqtgraph PlotWidget (made now if it was not yet)."""
        if self._plot is None:
            self._plot = _pg().PlotWidget(self)
            self._lay.addWidget(self._plot)
            self._build(self._plot)
        return self._plot

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


class EnergyPlot(Retranslatable, _LazyPlot):
    """Energy (Hartree) against optimisation/SCF step, redrawn as the data grows."""

    def __init__(self, parent: QWidget | None = None, *, object_name: str = "energyPlot") -> None:
        super().__init__(parent, object_name)
        self._values: list[float] = []
        self._marked: int | None = None
        self._curve: Any = None
        self._marker: Any = None
        self.setMinimumHeight(140)

    def _build(self, plot: Any) -> None:
        pg = _pg()
        _style(plot)
        self.bind_text(lambda: plot.setLabel("bottom", self.tr("Step")))
        self.bind_text(lambda: plot.setLabel("left", self.tr("Energy"), units="Eh"))
        # Hartree values near -76 would otherwise get an SI prefix ("kEh").
        plot.getAxis("left").enableAutoSIPrefix(False)
        self._curve = plot.plot([], [], pen=pg.mkPen("#1f77b4", width=2), symbol="o",
                                symbolSize=6, symbolBrush="#1f77b4")
        self._marker = pg.ScatterPlotItem(size=12, brush=pg.mkBrush("#d62728"),
                                          pen=pg.mkPen("k"))
        plot.addItem(self._marker)
        self._draw()

    def _draw(self) -> None:
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
        self.plot.draw(self._freqs, self._ints, self.broadened() if self._freqs else None)
        self._update_enabled()

    def _update_enabled(self) -> None:
        has = bool(self._freqs)
        self.export_png.setEnabled(has)
        self.export_csv.setEnabled(has)

    # -- export --------------------------------------------------------------------------
    def write_png(self, path: str | Path) -> None:
        """Save the plot as a PNG file (atomically)."""
        atomic_write_bytes(path, widget_png_bytes(self.plot.plot_widget()))

    def write_csv(self, path: str | Path) -> None:
        """Save the broadened spectrum and the sticks as CSV (atomically)."""
        x, y = self.broadened()
        lines = [f"# fwhm_cm-1,{self.width_spin.value():.3f}",
                 "wavenumber_cm-1,broadened_intensity_km/mol,stick_intensity_km/mol"]
        lines += [f"{f:.4f},,{i:.6g}" for f, i in sorted(zip(self._freqs, self._ints,
                                                             strict=True))]
        lines += [f"{xv:.4f},{yv:.6g}," for xv, yv in zip(x, y, strict=True)]
        atomic_write_text(path, "\n".join(lines) + "\n")


def _ir_tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("IRSpectrumWidget", text)


class _IRPlot(Retranslatable, _LazyPlot):
    """The plot area of :class:`IRSpectrumWidget`: sticks and the broadened curve."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent, "irPlot")
        self._sticks: Any = None
        self._curve: Any = None
        self._data: tuple[list[float], list[float], Any] = ([], [], None)

    def _build(self, plot: Any) -> None:
        pg = _pg()
        _style(plot)
        # translated in the context of IRSpectrumWidget, where these texts always were
        self.bind_text(lambda: plot.setLabel("bottom", _ir_tr("Wavenumber (cm⁻¹)")))
        self.bind_text(lambda: plot.setLabel("left", _ir_tr("IR intensity (km/mol)")))
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
        if self._sticks is None:
            return
        self._sticks.setOpts(x=freqs, height=ints)
        if curve is not None:
            self._curve.setData(*curve)
        else:
            self._curve.setData([], [])
