"""Edit → Preferences…: display language and the trusted default execution settings.

The values are written with :func:`molforma.preferences.save_preferences` to a plain
JSON file that the headless server reads without Qt. The executable, launcher and
environment saved here are the trusted values of ``molforma --mcp`` (SPEC.md
section 7); MCP can neither open this dialog nor change the file.
"""

from __future__ import annotations

import os
import re
from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from molforma.gui import dialogs
from molforma.gui.widgets.panel_workers import error_text, message_label, rows_to_remove
from molforma.i18n import LANGUAGES, display_language
from molforma.preferences import Preferences, save_preferences

_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class PreferencesDialog(QDialog):
    """Language, default executable, launcher and environment; saved on OK."""

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("preferencesDialog")
        self.setWindowTitle(self.tr("Preferences"))
        self.ctx = ctx
        prefs: Preferences = ctx.preferences
        self._initial_language = prefs.language

        self.language_combo = QComboBox(self)
        self.language_combo.setObjectName("languageCombo")
        self.language_combo.addItem(self.tr("System language"), None)
        self.language_combo.addItem("日本語 (Japanese)", "ja")
        self.language_combo.addItem("English", "en")
        idx = self.language_combo.findData(prefs.language)
        self.language_combo.setCurrentIndex(max(idx, 0))
        note = self.tr("A new display language is applied at once.")
        forced = os.environ.get("MOLFORMA_LANGUAGE", "").strip().lower()
        if forced in LANGUAGES:
            note += " " + self.tr("MOLFORMA_LANGUAGE=%1 is set and takes precedence over this "
                                  "choice.").replace("%1", forced)
        self.language_note = QLabel(note, self)
        self.language_note.setObjectName("languageNote")
        self.language_note.setWordWrap(True)

        self.executable_edit = QLineEdit(prefs.executable, self)
        self.executable_edit.setObjectName("prefExecutableEdit")
        self.executable_browse = QPushButton(self.tr("Browse…"), self)
        self.executable_browse.setObjectName("prefExecutableBrowse")
        self.launcher_edit = QLineEdit(prefs.launcher, self)
        self.launcher_edit.setObjectName("prefLauncherEdit")
        self.launcher_browse = QPushButton(self.tr("Browse…"), self)
        self.launcher_browse.setObjectName("prefLauncherBrowse")
        self.environment_table = QTableWidget(0, 2, self)
        self.environment_table.setObjectName("prefEnvironmentTable")
        self.environment_table.setHorizontalHeaderLabels([self.tr("Variable"), self.tr("Value")])
        self.environment_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.Stretch)
        self.environment_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for name, value in prefs.environment.items():
            self._append_row(name, value)
        self.environment_add = QPushButton(self.tr("Add"), self)
        self.environment_add.setObjectName("prefEnvironmentAdd")
        self.environment_remove = QPushButton(self.tr("Remove"), self)
        self.environment_remove.setObjectName("prefEnvironmentRemove")

        trusted_note = QLabel(self.tr(
            "The executable, launcher and environment below are trusted: the headless "
            "server (molforma --mcp) runs NWChem only with them, and MCP clients cannot "
            "change them."), self)
        trusted_note.setObjectName("trustedNote")
        trusted_note.setWordWrap(True)
        self.message = message_label("preferencesMessage", self)

        form = QFormLayout()
        form.addRow(self.tr("Display language:"), self.language_combo)
        form.addRow("", self.language_note)
        row = QHBoxLayout()
        row.addWidget(self.executable_edit, 1)
        row.addWidget(self.executable_browse)
        form.addRow(self.tr("Default NWChem executable:"), row)
        row = QHBoxLayout()
        row.addWidget(self.launcher_edit, 1)
        row.addWidget(self.launcher_browse)
        form.addRow(self.tr("Default MPI launcher:"), row)
        env_row = QHBoxLayout()
        env_row.addWidget(self.environment_table, 1)
        env_buttons = QVBoxLayout()
        env_buttons.addWidget(self.environment_add)
        env_buttons.addWidget(self.environment_remove)
        env_buttons.addStretch(1)
        env_row.addLayout(env_buttons)
        form.addRow(self.tr("Default environment:"), env_row)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.setObjectName("preferencesButtons")
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setObjectName("preferencesOk")
        ok.setText(self.tr("OK"))
        cancel = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setObjectName("preferencesCancel")
        cancel.setText(self.tr("Cancel"))

        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(trusted_note)
        lay.addWidget(self.message)
        lay.addWidget(self.buttons)
        self.resize(560, 420)

        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.environment_add.clicked.connect(self._add_row)
        self.environment_remove.clicked.connect(self._remove_rows)
        self.executable_browse.clicked.connect(lambda: self._browse(self.executable_edit))
        self.launcher_browse.clicked.connect(lambda: self._browse(self.launcher_edit))

    # -- table -------------------------------------------------------------------------------
    def _append_row(self, name: str, value: str) -> None:
        row = self.environment_table.rowCount()
        self.environment_table.insertRow(row)
        self.environment_table.setItem(row, 0, QTableWidgetItem(name))
        self.environment_table.setItem(row, 1, QTableWidgetItem(value))

    def _add_row(self) -> None:
        self._append_row("", "")
        row = self.environment_table.rowCount() - 1
        self.environment_table.setCurrentCell(row, 0)
        item = self.environment_table.item(row, 0)
        if item is not None:
            self.environment_table.editItem(item)

    def _remove_rows(self) -> None:
        rows = rows_to_remove(self.environment_table)
        for r in rows:
            self.environment_table.removeRow(r)

    def _browse(self, edit: QLineEdit) -> None:
        path = dialogs.get_open_path(self, self.tr("Choose a program"), [self.tr("All files (*)")])
        if path:
            edit.setText(path)

    # -- values ------------------------------------------------------------------------------
    def values(self) -> Preferences:
        """The Preferences the dialog shows now.

        Raises:
            ValueError: with a sentence for the person when a value is not acceptable.
        """
        executable = self.executable_edit.text().strip()
        launcher = self.launcher_edit.text().strip()
        if not executable:
            raise ValueError(self.tr("Give the NWChem executable (for example nwchem)."))
        if not launcher:
            raise ValueError(self.tr("Give the MPI launcher (for example mpirun)."))
        env: dict[str, str] = {}
        for row in range(self.environment_table.rowCount()):
            n_item = self.environment_table.item(row, 0)
            v_item = self.environment_table.item(row, 1)
            name = n_item.text().strip() if n_item else ""
            value = v_item.text() if v_item else ""
            if not name:
                if value:
                    raise ValueError(self.tr("A variable has a value but no name."))
                continue
            if not _ENV_NAME.match(name):
                raise ValueError(self.tr("Not a valid variable name: %1").replace("%1", name))
            if name in env:
                raise ValueError(self.tr("Variable given twice: %1").replace("%1", name))
            env[name] = value
        current: Preferences = self.ctx.preferences
        return current.model_copy(update={
            "language": self.language_combo.currentData(),
            "executable": executable, "launcher": launcher, "environment": env,
        })

    def save(self) -> bool:
        """Check and save the values; False (with the reason shown) when they are refused."""
        try:
            prefs = self.values()
        except ValueError as exc:
            self._show_message(str(exc))
            return False
        try:
            save_preferences(prefs)
        except Exception as exc:  # noqa: BLE001 - a write failure is shown, nothing changes
            self._show_message(self.tr("Cannot save the preferences: %1").replace(
                "%1", error_text(exc)))
            return False
        self.ctx.preferences = prefs
        if prefs.language != self._initial_language:
            self._apply_language()
        return True

    def _apply_language(self) -> None:
        """Switch the running window to the display language the new Preferences give."""
        try:
            from molforma.gui.app import set_language
        except ImportError:
            self.ctx.events.languageChanged.emit()
            return
        set_language(display_language(), self.ctx)

    def _show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def accept(self) -> None:
        """OK: save, then close (stays open when a value is refused)."""
        if self.save():
            super().accept()
