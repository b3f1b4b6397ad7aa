"""The energy profile of a relaxed scan in the Results tab: plot and table (Qt layer).

The points come from :func:`molforma.results.scan_profile.scan_profile` (one NWChem output holds
every point). The plot shows the energy above the lowest point (kcal/mol) against the
scanned coordinate; the table lists each point with its energy in hartree and whether
its optimisation converged. Choosing a row shows that point's structure.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from molforma.fileio import atomic_write_text
from molforma.gui import dialogs
from molforma.gui.widgets.panel_workers import Retranslatable, reports_errors
from molforma.gui.widgets.plots import _LazyPlot, _style
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    import pyqtgraph as pg

    from molforma.gui.widgets import panel_workers
    from molforma.results import scan_profile
else:  # imported on first use (start-up time): molforma.lazy
    pg = lazy_import("pyqtgraph")  # when a plot is first shown
    panel_workers = lazy_import("molforma.gui.widgets.panel_workers")
    scan_profile = lazy_import("molforma.results.scan_profile")


def _axis_title(coordinate: str | None) -> str:
    # Literal translate calls: lupdate reads only those.
    if coordinate == "distance":
        return QCoreApplication.translate("ScanProfileWidget", "Distance (Å)")
    if coordinate == "angle":
        return QCoreApplication.translate("ScanProfileWidget", "Angle (°)")
    if coordinate == "dihedral":
        return QCoreApplication.translate("ScanProfileWidget", "Dihedral (°)")
    return QCoreApplication.translate("ScanProfileWidget", "Scanned coordinate")


class _ScanPlot(Retranslatable, _LazyPlot):
    """Relative energy against the coordinate; pyqtgraph is loaded when first shown."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent, "scanPlot")
        self._curve: Any = None
        self._data: tuple[list[float], list[float], str | None] = ([], [], None)
        self.setMinimumHeight(160)
        self.draw(*self._data)

    def _build(self, plot: Any) -> None:
        _style(plot)
        plot.getAxis("left").enableAutoSIPrefix(False)
        plot.getAxis("bottom").enableAutoSIPrefix(False)
        self._curve = plot.plot(
            [],
            [],
            pen=pg.mkPen("#1f77b4", width=2),
            symbol="o",
            symbolSize=7,
            symbolBrush="#1f77b4",
        )
        self.draw(*self._data)

    def retranslate_dynamic(self) -> None:
        """Axis titles and the empty-plot line follow the language."""
        self.draw(*self._data)

    def draw(self, x: list[float], y: list[float], coordinate: str | None) -> None:
        """Points ``(x, y)`` joined in scan order; ``coordinate`` names the x axis."""
        self._data = (x, y, coordinate)
        self.set_empty(
            not x,
            QCoreApplication.translate(
                "ScanProfileWidget",
                "No scan: open the results of a relaxed scan (Molecule tab, Scan this coordinate).",
            ),
        )
        if self._curve is None:
            return
        plot = self.plot_widget()
        plot.setLabel("bottom", _axis_title(coordinate))
        plot.setLabel(
            "left", QCoreApplication.translate("ScanProfileWidget", "Relative energy (kcal/mol)")
        )
        self._curve.setData(x, y)


class ScanProfileWidget(Retranslatable, QWidget):
    """A relaxed scan: the profile plot above the table of points."""

    # Write the profile as CSV (asked for when None); set by attach_scan_view, which knows
    # the Results panel's path check and status line.
    export: Callable[[str | None], str | None]

    def __init__(
        self, parent: QWidget | None = None, show_structure: Callable[[int], None] | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("scanPanel")
        self._show_structure = show_structure
        self.plot = _ScanPlot(self)
        self.table = QTableWidget(0, 5, self)
        self.table.setObjectName("scanTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.itemSelectionChanged.connect(self._row_chosen)
        self.export_csv = self.button(lambda: self.tr("Export CSV…"), "scanExportCsv")
        self.bind_text(
            lambda: self.table.setToolTip(
                self.tr("The scan's points; choose one to show its optimised structure")
            )
        )
        self.bind_text(lambda: self.export_csv.setToolTip(self.tr("Save the scan's points as CSV")))
        self.bind_text(
            lambda: self.plot.setToolTip(
                self.tr("Energy of each optimised point above the lowest one")
            )
        )
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.plot, 2)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.export_csv)
        self.profile: dict[str, Any] | None = None
        self._headers()
        self.export_csv.setEnabled(False)

    def _headers(self) -> None:
        coordinate = (self.profile or {}).get("coordinate")
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Point"),
                _axis_title(coordinate),
                self.tr("Energy (Eh)"),
                self.tr("ΔE (kcal/mol)"),
                self.tr("Converged"),
            ]
        )

    def retranslate_dynamic(self) -> None:
        """Headers and cells made from data are rebuilt in the new language."""
        self.set_profile(self.profile)

    def set_profile(self, profile: dict[str, Any] | None) -> None:
        """Show ``profile`` (:func:`molforma.results.scan_profile.scan_profile`) or nothing."""
        self.profile = profile
        points = (profile or {}).get("points") or []
        self._headers()
        self.table.blockSignals(True)
        self.table.setRowCount(len(points))
        for row, p in enumerate(points):
            value = p["value"] if p["value"] is not None else p["target"]
            shown_value = f"{value:.3f}"
            if float(shown_value) == 0.0:
                shown_value = f"{0.0:.3f}"  # no "-0.000" for a value a hair below zero
            cells = [
                str(p["point"]),
                shown_value,
                "" if p["energy"] is None else f"{p['energy']:.8f}",
                "" if p["relativeKcal"] is None else f"{p['relativeKcal']:.3f}",
                self.tr("yes") if p["converged"] else self.tr("no"),
            ]
            for col, text in enumerate(cells):
                self.table.setItem(row, col, QTableWidgetItem(text))
        self.table.blockSignals(False)
        shown = [p for p in points if p["relativeKcal"] is not None]
        self.plot.draw(
            [p["value"] if p["value"] is not None else p["target"] for p in shown],
            [p["relativeKcal"] for p in shown],
            (profile or {}).get("coordinate"),
        )
        self.export_csv.setEnabled(bool(points))

    def rows(self) -> list[list[str]]:
        """The table's texts, row by row."""
        cells = [
            [self.table.item(r, c) for c in range(self.table.columnCount())]
            for r in range(self.table.rowCount())
        ]
        return [[c.text() if c is not None else "" for c in row] for row in cells]

    def _row_chosen(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        points = (self.profile or {}).get("points") or []
        if not rows or self._show_structure is None or rows[0].row() >= len(points):
            return
        index = points[rows[0].row()].get("structureIndex")
        if index is not None:
            self._show_structure(int(index))

    def write_csv(self, path: str | Path) -> None:
        """Save the points as CSV (atomically): target, value, energy, kcal/mol, converged."""
        profile = self.profile or {}
        lines = [
            f"# {profile.get('coordinate')} of atoms "
            f"{'-'.join(str(a) for a in profile.get('atomNumbers', []))} "
            f"({profile.get('unit')})",
            "point,target,value,energy_hartree,relative_kcal_mol,converged",
        ]
        for p in profile.get("points") or []:
            lines.append(
                ",".join(
                    "" if v is None else str(v)
                    for v in (
                        p["point"],
                        p["target"],
                        p["value"],
                        p["energy"],
                        p["relativeKcal"],
                        p["converged"],
                    )
                )
            )
        atomic_write_text(path, "\n".join(lines) + "\n")


def _in_status_line(panel: Any, exc: BaseException) -> None:
    panel.status_label.setText(panel_workers.error_text(exc))


@reports_errors(_in_status_line, returns=None)
def _write_csv(panel: Any, view: ScanProfileWidget, path: str) -> str:
    """Write the profile to ``path`` as the Results panel checks it; the checked path."""
    checked: str = panel._check(path)
    view.write_csv(checked)
    return checked


def attach_scan_view(panel: Any) -> ScanProfileWidget:
    """Add the scan tab to the Results panel's plot tabs (``panel.plots``), wired to its
    structure view, its path check and its status line; shown first when a scan is read."""
    view = ScanProfileWidget(panel.plots, show_structure=panel.show_structure)
    panel.plots.addTab(view, "")
    panel.bind_text(
        lambda: panel.plots.setTabText(
            panel.plots.indexOf(view),
            QCoreApplication.translate("ScanProfileWidget", "Scan profile"),
        )
    )

    def export(path: str | None = None) -> str | None:
        if not path:
            path = dialogs.get_save_path(
                view,
                QCoreApplication.translate("ScanProfileWidget", "Export scan profile"),
                [QCoreApplication.translate("ScanProfileWidget", "CSV files (*.csv)")],
                str(Path.home() / "scan-profile.csv"),
            )
            if not path:
                return None
        written = _write_csv(panel, view, path)
        if written is not None:
            panel.status_label.setText(
                QCoreApplication.translate("ScanProfileWidget", "Saved %1").replace("%1", written)
            )
        return written

    view.export = export
    view.export_csv.clicked.connect(lambda: export())
    return view


def show_scan_of(view: ScanProfileWidget, panel: Any, res: Any) -> None:
    """Fill ``view`` from results ``res`` (None clears it); a scan's tab comes to the front."""
    profile = scan_profile.scan_profile(res) if res is not None and res.kind == "nwchem" else None
    view.set_profile(profile)
    if profile is not None and profile["points"]:
        panel.plots.setCurrentWidget(view)
