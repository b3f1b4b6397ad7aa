"""Edit → Preferences…: display language, the trusted default execution settings and
the cluster profiles (remote SLURM clusters reached over ssh).

The values are written with :func:`molforma.preferences.save_preferences` to a plain
JSON file that the headless server reads without Qt. The executable, launcher and
environment saved here are the trusted values of ``molforma --mcp``
(docs/reference/safety.md, Trusted values); MCP can neither open this dialog nor change the file. The same holds for
the cluster profiles: MCP may name one for a job, only the person writes one.

Profiles: each field shows the refusal of its grammar as it is typed (the very checks of
:func:`molforma.preferences.check_profile`, which run again at save and at every job).
"Test connection" runs :func:`molforma.jobs.remote.test_connection` on a worker thread
(ssh may take seconds to answer or time out; the window never waits on it). Saving
re-reads the file first, so a profile added to ``preferences.json`` by hand while the
dialog was open is kept.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from molforma.gui import dialogs
from molforma.gui.widgets.panel_workers import (
    QT_TRANSLATE_NOOP,
    BackgroundCall,
    error_text,
    failure_text,
    message_label,
    reports_errors,
    rows_to_remove,
)
from molforma.gui.widgets.preferences_fields import (
    checked_profile,
    environment_of,
    field_refusal,
    field_value,
    name_taken_text,
    test_result_text,
)
from molforma.i18n import LANGUAGES, display_language
from molforma.lazy import lazy_import
from molforma.preferences import (
    ClusterProfile,
    Preferences,
    parse_preferences,
    preferences_path,
    save_preferences,
)

if TYPE_CHECKING:
    from molforma.jobs import remote
else:  # imported on first use (start-up time): molforma.lazy
    remote = lazy_import("molforma.jobs.remote")


def _file_preferences(fallback: Preferences) -> Preferences:
    """The Preferences file as it is now; ``fallback`` (the window's) when it is missing
    or refused (a refused file is never trusted, and saving replaces it)."""
    try:
        return parse_preferences(preferences_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return fallback


def _cannot_save(dialog: PreferencesDialog, exc: BaseException) -> None:
    dialog._show_message(
        failure_text(
            "PreferencesDialog",
            QT_TRANSLATE_NOOP("PreferencesDialog", "Cannot save the preferences: %1"),
            exc,
        )
    )


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
            note += " " + self.tr(
                "MOLFORMA_LANGUAGE=%1 is set and takes precedence over this choice."
            ).replace("%1", forced)
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
            QHeaderView.ResizeMode.Stretch
        )
        self.environment_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for name, value in prefs.environment.items():
            self._append_row(name, value)
        self.environment_add = QPushButton(self.tr("Add"), self)
        self.environment_add.setObjectName("prefEnvironmentAdd")
        self.environment_remove = QPushButton(self.tr("Remove"), self)
        self.environment_remove.setObjectName("prefEnvironmentRemove")

        trusted_note = QLabel(
            self.tr(
                "The executable, launcher and environment below are trusted: the headless "
                "server (molforma --mcp) runs NWChem only with them, and MCP clients cannot "
                "change them."
            ),
            self,
        )
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
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.setObjectName("preferencesButtons")
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setObjectName("preferencesOk")
        ok.setText(self.tr("OK"))
        cancel = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setObjectName("preferencesCancel")
        cancel.setText(self.tr("Cancel"))

        general = QWidget(self)
        general.setObjectName("preferencesGeneral")
        gl = QVBoxLayout(general)
        gl.addLayout(form)
        gl.addWidget(trusted_note)
        gl.addStretch(1)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("preferencesTabs")
        self.tabs.addTab(general, self.tr("General"))
        self.tabs.addTab(self._build_profiles(), self.tr("Cluster profiles"))
        lay = QVBoxLayout(self)
        lay.addWidget(self.tabs, 1)
        lay.addWidget(self.message)
        lay.addWidget(self.buttons)
        self.resize(640, 560)

        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.environment_add.clicked.connect(self._add_row)
        self.environment_remove.clicked.connect(self._remove_rows)
        self.executable_browse.clicked.connect(lambda: self._browse(self.executable_edit))
        self.launcher_browse.clicked.connect(lambda: self._browse(self.launcher_edit))

    # -- cluster profiles --------------------------------------------------------------------
    def _build_profiles(self) -> QWidget:
        """The profile list, the fields of the selected profile and "Test connection"."""
        page = QWidget(self)
        page.setObjectName("preferencesProfiles")
        # The profiles as the file holds them now (one added by hand since the window
        # started shows too); the names seen here tell the save which ones were removed.
        self._profiles: list[dict[str, Any]] = [
            p.model_dump() for p in _file_preferences(self.ctx.preferences).profiles
        ]
        self._initial_names = {str(p["name"]) for p in self._profiles}
        self._loading_profile = False

        self.profile_list = QListWidget(page)
        self.profile_list.setObjectName("prefProfileList")
        for p in self._profiles:
            self.profile_list.addItem(str(p["name"]))
        self.profile_add = QPushButton(self.tr("Add"), page)
        self.profile_add.setObjectName("prefProfileAdd")
        self.profile_remove = QPushButton(self.tr("Remove"), page)
        self.profile_remove.setObjectName("prefProfileRemove")
        left = QVBoxLayout()
        left.addWidget(self.profile_list, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.profile_add)
        buttons.addWidget(self.profile_remove)
        left.addLayout(buttons)

        self.profile_box = QGroupBox(self.tr("Profile"), page)
        self.profile_box.setObjectName("prefProfileFields")
        form = QFormLayout(self.profile_box)
        self.profile_fields: dict[str, QLineEdit | QPlainTextEdit] = {}
        self.profile_messages: dict[str, QLabel] = {}

        def field(key: str, name: str, label: str, placeholder: str = "") -> None:
            widget: QLineEdit | QPlainTextEdit
            if key == "environment_lines":
                widget = QPlainTextEdit(self.profile_box)
                widget.setPlaceholderText(placeholder)
                widget.setMaximumHeight(90)
                widget.textChanged.connect(lambda k=key: self._profile_edited(k))
            else:
                widget = QLineEdit(self.profile_box)
                widget.setPlaceholderText(placeholder)
                widget.textEdited.connect(lambda _t, k=key: self._profile_edited(k))
            widget.setObjectName(name)
            msg = message_label(f"{name}Message", self.profile_box)
            box = QWidget(self.profile_box)
            bl = QVBoxLayout(box)
            bl.setContentsMargins(0, 0, 0, 0)
            bl.setSpacing(1)
            bl.addWidget(widget)
            bl.addWidget(msg)
            form.addRow(label, box)
            self.profile_fields[key] = widget
            self.profile_messages[key] = msg

        field("name", "prefProfileName", self.tr("Name:"))
        field(
            "host",
            "prefProfileHost",
            self.tr("SSH host (alias):"),
            self.tr("a Host of your ssh_config, or user@host"),
        )
        field(
            "ssh_config",
            "prefProfileSshConfig",
            self.tr("ssh_config file:"),
            self.tr("(your ~/.ssh/config)"),
        )
        field(
            "remote_folder",
            "prefProfileRemoteFolder",
            self.tr("Remote folder:"),
            self.tr("e.g. /scratch/you/molforma-jobs or ~/molforma-jobs"),
        )
        field(
            "partition", "prefProfilePartition", self.tr("Partition:"), self.tr("(cluster default)")
        )
        field("account", "prefProfileAccount", self.tr("Account:"), self.tr("(default)"))
        field("qos", "prefProfileQos", self.tr("QoS:"), self.tr("(default)"))
        field(
            "environment_lines",
            "prefProfileEnvironment",
            self.tr("Environment lines:"),
            self.tr("one per line, e.g. module load nwchem"),
        )
        field("nwchem_command", "prefProfileNwchem", self.tr("NWChem command:"))
        field("launcher", "prefProfileLauncher", self.tr("MPI launcher:"))

        self.profile_test = QPushButton(self.tr("Test connection"), self.profile_box)
        self.profile_test.setObjectName("prefProfileTest")
        self.profile_test.setToolTip(
            self.tr(
                "Connect with ssh as MolForma will (never asking for a password or accepting "
                "an unknown host key) and list the cluster's partitions with sinfo"
            )
        )
        self.profile_test_result = QLabel(self.profile_box)
        self.profile_test_result.setObjectName("prefProfileTestResult")
        self.profile_test_result.setWordWrap(True)
        self.profile_test_result.setTextFormat(Qt.TextFormat.PlainText)  # ssh's words
        self.profile_test_result.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
        )
        form.addRow(self.profile_test, self.profile_test_result)
        self._test_call = BackgroundCall(self)
        self._test_call.done.connect(self._show_test)
        self._test_call.failed.connect(
            lambda exc: self._show_test_text(error_text(exc), error=True)
        )

        note = QLabel(
            self.tr(
                "A profile runs the calculation as a SLURM batch job on a cluster you reach "
                "with ssh; choose it in the Execution tab. Authentication is your own ssh "
                "set-up (keys, agent): MolForma stores no password and never accepts an "
                "unknown host key. MCP clients may choose a profile but never create or "
                "change one."
            ),
            page,
        )
        note.setObjectName("prefProfilesNote")
        note.setWordWrap(True)

        top = QHBoxLayout()
        top.addLayout(left, 1)
        top.addWidget(self.profile_box, 3)
        lay = QVBoxLayout(page)
        lay.addLayout(top, 1)
        lay.addWidget(note)

        self.profile_list.currentRowChanged.connect(self._show_profile)
        self.profile_add.clicked.connect(self._add_profile)
        self.profile_remove.clicked.connect(self._remove_profile)
        self.profile_test.clicked.connect(self.test_connection)
        if self._profiles:
            self.profile_list.setCurrentRow(0)
        else:
            self._show_profile(-1)
        return page

    def _check_field(self, key: str, value: Any) -> str:
        """The refusal of ``value`` for ``key`` ('' when it is acceptable)."""
        row = self.profile_list.currentRow()
        name = str(self._profiles[row]["name"]) if 0 <= row < len(self._profiles) else ""
        others = [str(p["name"]) for i, p in enumerate(self._profiles) if i != row]
        return field_refusal(key, value, name, others)

    def _show_field_message(self, key: str, text: str) -> None:
        label = self.profile_messages[key]
        label.setText(text)
        label.setVisible(bool(text))

    def _profile_edited(self, key: str) -> None:
        """A field typed: kept in the profile, its refusal shown beside it at once."""
        row = self.profile_list.currentRow()
        if self._loading_profile or not 0 <= row < len(self._profiles):
            return
        value = field_value(self.profile_fields[key], key)
        self._profiles[row][key] = value
        if key == "name":
            item = self.profile_list.item(row)
            if item is not None:
                item.setText(str(value))
        self._show_field_message(key, self._check_field(key, value))

    def _show_profile(self, row: int) -> None:
        """Fill the fields with the profile of ``row`` (none: the fields are disabled)."""
        has = 0 <= row < len(self._profiles)
        self.profile_box.setEnabled(has)
        self.profile_remove.setEnabled(has)
        self._loading_profile = True
        try:
            for key, widget in self.profile_fields.items():
                value = self._profiles[row].get(key) if has else None
                if isinstance(widget, QPlainTextEdit):
                    widget.setPlainText("\n".join(str(v) for v in value or []))
                else:
                    widget.setText("" if value is None else str(value))
        finally:
            self._loading_profile = False
        for key in self.profile_fields:
            self._show_field_message(
                key,
                self._check_field(key, field_value(self.profile_fields[key], key)) if has else "",
            )
        self._test_call.discard()
        self.profile_test.setEnabled(has)
        self._show_test_text("")

    def _add_profile(self) -> None:
        names = {str(p["name"]) for p in self._profiles}
        n = 1
        while f"cluster{n}" in names:
            n += 1
        self._profiles.append(
            {
                "name": f"cluster{n}",
                "host": "",
                "ssh_config": None,
                "remote_folder": "~/molforma-jobs",
                "scheduler": "slurm",
                "partition": None,
                "account": None,
                "qos": None,
                "environment_lines": [],
                "nwchem_command": "nwchem",
                "launcher": "mpirun",
            }
        )
        self.profile_list.addItem(f"cluster{n}")
        self.profile_list.setCurrentRow(len(self._profiles) - 1)
        self.profile_fields["host"].setFocus()

    def _remove_profile(self) -> None:
        row = self.profile_list.currentRow()
        if not 0 <= row < len(self._profiles):
            return
        del self._profiles[row]
        self.profile_list.takeItem(row)
        self._show_profile(self.profile_list.currentRow())

    def test_connection(self) -> None:
        """Run ``sinfo`` on the selected profile's cluster over ssh, on a worker thread."""
        row = self.profile_list.currentRow()
        if not 0 <= row < len(self._profiles):
            return
        try:
            profile = checked_profile(dict(self._profiles[row]))
        except ValueError as exc:
            self._show_test_text(str(exc), error=True)
            return

        self.profile_test.setEnabled(False)
        self._show_test_text(self.tr("Connecting to %1…").replace("%1", profile.host))
        self._test_call.start(lambda: remote.test_connection(profile))

    def _show_test(self, result: Any) -> None:
        self.profile_test.setEnabled(True)
        text, error = test_result_text(result)
        self._show_test_text(text, error=error)

    def _show_test_text(self, text: str, *, error: bool = False) -> None:
        if error or not text:
            self.profile_test.setEnabled(self.profile_box.isEnabled())
        self.profile_test_result.setText(text)
        self.profile_test_result.setProperty("error", error)
        self.profile_test_result.setStyleSheet("color: #b00020;" if error else "")

    def _profiles_to_save(self, fresh: Preferences) -> list[ClusterProfile]:
        """The dialog's profiles, then those of the file the dialog never showed (added by
        hand while it was open); a profile removed here stays removed.

        Raises:
            ValueError: a profile refused (it is selected) or a name used twice.
        """
        out: list[ClusterProfile] = []
        for row, data in enumerate(self._profiles):
            try:
                out.append(checked_profile(dict(data)))
            except ValueError:
                self.tabs.setCurrentIndex(1)
                self.profile_list.setCurrentRow(row)
                raise
        names = [p.name for p in out]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            self.tabs.setCurrentIndex(1)
            raise ValueError(name_taken_text(twice[0]))
        out += [
            p for p in fresh.profiles if p.name not in self._initial_names and p.name not in names
        ]
        return out

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
        for r in rows_to_remove(self.environment_table):
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
        env = environment_of(self.environment_table)
        # The file as it is now, not as it was when the window started: what was added to
        # it by hand meanwhile (a profile, say) is kept.
        current = _file_preferences(self.ctx.preferences)
        return current.model_copy(
            update={
                "language": self.language_combo.currentData(),
                "executable": executable,
                "launcher": launcher,
                "environment": env,
                "profiles": self._profiles_to_save(current),
            }
        )

    def save(self) -> bool:
        """Check and save the values; False (with the reason shown) when they are refused."""
        try:
            prefs = self.values()
        except ValueError as exc:
            self._show_message(str(exc))
            return False
        if not self._write(prefs):
            return False
        self.ctx.preferences = prefs
        if prefs.language != self._initial_language:
            self._apply_language()
        return True

    @reports_errors(_cannot_save, returns=False)
    def _write(self, prefs: Preferences) -> bool:
        """Write ``prefs``; a failure is shown and nothing changes."""
        save_preferences(prefs)
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
