"""The records of a multi-record SDF file, named and with their SD data (Qt layer).

Shown inside the structure chooser (:class:`~molforma.gui.widgets.structure_choice.
StructureChoiceDialog`) when an SDF file holds several records: a list naming each
record (``sdfRecordList``: number, title, formula, atom count) and a table of the chosen
record's SD data fields (``sdfDataTable``). Choosing a row sets the dialog's record number
and the other way round.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QListWidget,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


class SdfRecordPanel(QWidget):
    """Record list and SD data table, kept in step with the dialog's ``frame`` spin box."""

    def __init__(self, parent: QWidget, records: list[dict[str, Any]], frame: QSpinBox) -> None:
        super().__init__(parent)
        self.setObjectName("sdfRecordPanel")
        self.records = records
        self.frame = frame
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.list = QListWidget(self)
        self.list.setObjectName("sdfRecordList")
        self.list.setMinimumWidth(420)
        lay.addWidget(self.list, 2)
        self.table = QTableWidget(0, 2, self)
        self.table.setObjectName("sdfDataTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        lay.addWidget(self.table, 1)
        self.list.currentRowChanged.connect(self._row_changed)
        frame.valueChanged.connect(lambda v: self.list.setCurrentRow(int(v) - 1))
        self.retranslate()
        self.list.setCurrentRow(max(0, frame.value() - 1))

    def retranslate(self) -> None:
        """Texts in the display language."""
        self.list.clear()
        for k, r in enumerate(self.records, start=1):
            title = r["title"] or QCoreApplication.translate("StructureChoiceDialog", "(no title)")
            self.list.addItem(
                QCoreApplication.translate("StructureChoiceDialog", "%1. %2 — %3, %4 atoms")
                .replace("%1", str(k))
                .replace("%2", title)
                .replace("%3", r["formula"] or "-")
                .replace("%4", str(r["atomCount"]))
            )
        self.list.setToolTip(
            QCoreApplication.translate(
                "StructureChoiceDialog",
                "The records of the file: title, formula and atom count; choose the one to read",
            )
        )
        self.table.setHorizontalHeaderLabels(
            [
                QCoreApplication.translate("StructureChoiceDialog", "SD field"),
                QCoreApplication.translate("StructureChoiceDialog", "Value"),
            ]
        )
        self.table.setToolTip(
            QCoreApplication.translate(
                "StructureChoiceDialog", "The SD data fields of the chosen record"
            )
        )
        self.list.setCurrentRow(max(0, self.frame.value() - 1))

    def _row_changed(self, row: int) -> None:
        if row < 0:
            return
        if self.frame.value() != row + 1:
            self.frame.setValue(row + 1)
        data = self.records[row]["data"]
        self.table.setRowCount(len(data))
        for k, (name, value) in enumerate(data.items()):
            self.table.setItem(k, 0, QTableWidgetItem(name))
            self.table.setItem(k, 1, QTableWidgetItem(value))
