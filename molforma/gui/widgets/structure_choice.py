"""Reading a structure file in the window, asking for the frame, model or altloc (Qt layer).

A multi-frame XYZ needs a frame, and a PDB with several models or alternate
locations offers a choice; :func:`read_with_choices` asks through
:class:`StructureChoiceDialog` (opened with ``dialogs.run_dialog``) and returns
what the core readers give, or None when the person cancels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QWidget,
)

from molforma.errors import MolFormaError
from molforma.fileio import read_text_limited
from molforma.formats import read_file
from molforma.gui import dialogs
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.formats import pdb as pdb_format
    from molforma.formats import sdf_records
    from molforma.gui.widgets import sdf_record_chooser
else:  # imported on first use (start-up time): molforma.lazy
    pdb_format = lazy_import("molforma.formats.pdb")
    sdf_record_chooser = lazy_import("molforma.gui.widgets.sdf_record_chooser")
    sdf_records = lazy_import("molforma.formats.sdf_records")


class StructureChoiceDialog(QDialog):
    """Frame/model number (1-based on screen) and, for PDB, the alternate location."""

    def __init__(
        self,
        parent: QWidget | None,
        count: int,
        altlocs: list[str] | None = None,
        *,
        pdb: bool = False,
        unit: str | None = None,
        records: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("structureChoiceDialog")
        self._unit = unit or ("model" if pdb else "frame")
        form = QFormLayout(self)
        self.frame_label = QLabel(self)
        self.frame = QSpinBox(self)
        self.frame.setObjectName("structureFrame")
        self.frame.setRange(1, max(count, 1))
        form.addRow(self.frame_label, self.frame)
        self.records_panel = None
        if records:  # an SDF's records by title, formula, atom count, with their SD data
            self.records_panel = sdf_record_chooser.SdfRecordPanel(self, records, self.frame)
            form.addRow(self.records_panel)
        self.altloc_label = QLabel(self)
        self.altloc = QComboBox(self)
        self.altloc.setObjectName("structureAltloc")
        self.altloc.addItem("", None)
        for label in altlocs or []:
            self.altloc.addItem(label, label)
        form.addRow(self.altloc_label, self.altloc)
        self.altloc.setVisible(bool(altlocs))
        self.altloc_label.setVisible(bool(altlocs))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.setObjectName("structureChoiceButtons")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setObjectName("structureChoiceOk")
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setObjectName(
            "structureChoiceCancel"
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self._count = count
        self.retranslate()

    def retranslate(self) -> None:
        """Re-read texts."""
        self.setWindowTitle(self.tr("Choose the structure to read"))
        label = {"model": self.tr("Model (of %1):"), "record": self.tr("Record (of %1):")}.get(
            self._unit, self.tr("Frame (of %1):")
        )
        self.frame_label.setText(label.replace("%1", str(self._count)))
        self.altloc_label.setText(self.tr("Alternate location:"))
        self.altloc.setItemText(0, self.tr("highest occupancy"))
        panel = getattr(self, "records_panel", None)  # None until built, or not an SDF
        if panel is not None:
            panel.retranslate()

    def changeEvent(self, ev: QEvent) -> None:
        """Retranslate on a language change."""
        if ev.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(ev)

    def values(self) -> tuple[int, str | None]:
        """(0-based frame, altloc label or None)."""
        return self.frame.value() - 1, self.altloc.currentData()


def read_with_choices(parent: QWidget | None, path: str) -> Any | None:
    """A project dict or a Structure read from ``path``; None when the person cancels.

    Raises:
        MolFormaError: the file cannot be read.
    """
    if path.lower().endswith((".pdb", ".ent")):
        try:
            text = read_text_limited(path)
        except OSError as exc:
            raise MolFormaError("file_error", path=path, reason=str(exc)) from exc
        ch = pdb_format.pdb_choices(text)
        frame, altloc = None, None
        if ch["models"] > 1 or ch["altlocs"]:
            dlg = StructureChoiceDialog(parent, ch["models"], list(ch["altlocs"]), pdb=True)
            if not dialogs.run_dialog(dlg):
                return None
            frame, altloc = dlg.values()
        return pdb_format.read_pdb(text, frame, altloc=altloc)
    try:
        loaded = read_file(path, None)
        frames = int(getattr(loaded, "frame_count", 1))
        if frames > 1 and path.lower().endswith((".sdf", ".sd")):
            # An SDF gives its first record unless asked: let the person pick one.

            dlg = StructureChoiceDialog(
                parent,
                frames,
                unit="record",
                records=sdf_records.sdf_records(read_text_limited(path)),
            )
            if not dialogs.run_dialog(dlg):
                return None
            return read_file(path, None, frame=dlg.values()[0])
        return loaded
    except MolFormaError as exc:
        if exc.data.get("kind") != "format_frame_required":
            raise
        dlg = StructureChoiceDialog(parent, int(exc.data.get("count", 1)))
        if not dialogs.run_dialog(dlg):
            return None
        return read_file(path, None, frame=dlg.values()[0])
