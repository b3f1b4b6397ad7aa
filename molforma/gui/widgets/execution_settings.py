"""The Execution tab's settings edits: program, environment, job folder, resources and
where the job runs (local, SLURM, a cluster profile), each one undo step (Qt layer)."""

from __future__ import annotations

import logging
import shlex
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QLineEdit,
    QTableWidgetItem,
    QWidget,
)

from molforma.errors import MolFormaError
from molforma.gui import dialogs, outcome
from molforma.gui.widgets.execution_support import (
    _ENV_NAME,
    PROFILE_ROLE,
    ExecutionPanelHost,
    _profile,
    _profiles,
)
from molforma.gui.widgets.panel_workers import (
    apply_edit,
    error_text,
    rows_to_remove,
)
from molforma.nwchem import value_grammar as grammar
from molforma.preferences import save_preferences

log = logging.getLogger(__name__)


class ExecutionSettings:
    """Applies the tab's settings edits and shows why one was refused beside its field.

    The widgets and the state stay on the tab (``self.panel``).
    """

    def __init__(self, panel: ExecutionPanelHost, parent: QWidget) -> None:
        self.panel = panel
        self.parent = parent  # the Qt parent of the dialogs and loads it starts

    def wire(self) -> None:
        """Connect the settings fields of the tab to their edits."""
        p = self.panel
        p.executable_edit.editingFinished.connect(
            lambda: self._commit_command("executable", p.executable_edit)
        )
        p.launcher_edit.editingFinished.connect(
            lambda: self._commit_command("launcher", p.launcher_edit)
        )
        p.executable_browse.clicked.connect(lambda: self._browse_program("executable"))
        p.launcher_browse.clicked.connect(lambda: self._browse_program("launcher"))
        p.environment_table.itemChanged.connect(self._environment_edited)
        p.environment_add.clicked.connect(self.add_environment_row)
        p.environment_remove.clicked.connect(self.remove_environment_rows)
        p.processes_spin.valueChanged.connect(lambda v: self._set("processes", int(v)))
        p.threads_spin.valueChanged.connect(lambda v: self._set("threads", int(v)))
        p.time_limit_spin.valueChanged.connect(
            lambda v: self._set("time_limit", float(v) if v > 0 else None)
        )
        p.job_root_edit.editingFinished.connect(self._commit_job_root)
        p.reference_dir_edit.editingFinished.connect(
            lambda: self._set("reference_dir", p.reference_dir_edit.text().strip() or None)
        )
        p.job_root_browse.clicked.connect(lambda: self._browse_dir("job_root"))
        p.reference_dir_browse.clicked.connect(lambda: self._browse_dir("reference_dir"))

    def _scheduler_names(self) -> None:
        combo = self.panel.scheduler_combo
        combo.setItemText(0, QCoreApplication.translate("ExecutionPanel", "Local (this computer)"))
        combo.setItemText(
            1, QCoreApplication.translate("ExecutionPanel", "SLURM cluster (batch job)")
        )
        for i, (name, host) in enumerate(self.panel._profile_items, start=2):
            text = (
                QCoreApplication.translate("ExecutionPanel", "Cluster profile %1 (%2, over ssh)")
                .replace("%1", name)
                .replace("%2", host)
                if host is not None
                else QCoreApplication.translate(
                    "ExecutionPanel", "Cluster profile %1 (not in Preferences)"
                ).replace("%1", name)
            )
            combo.setItemText(i, text)
        combo.setToolTip(
            QCoreApplication.translate(
                "ExecutionPanel",
                "Where the calculation runs: on this computer, as a batch job of the SLURM "
                "cluster here, or on a cluster profile of your Preferences, reached over ssh "
                "(Edit → Preferences edits the profiles).",
            )
        )

    def _fill_profiles(self, chosen: str | None) -> bool:
        """The profile items of the "Run on" choice: the person's profiles, and the
        document's own choice when Preferences lack it (shown as such, never hidden).
        True when they changed."""
        items: list[tuple[str, str | None]] = list(_profiles())
        if chosen and chosen not in [n for n, _h in items]:
            items.append((chosen, None))
        if items == self.panel._profile_items:
            return False
        combo = self.panel.scheduler_combo
        blocked = combo.blockSignals(True)
        try:
            while combo.count() > 2:
                combo.removeItem(2)
            for name, _host in items:
                combo.addItem("", "slurm")
                combo.setItemData(combo.count() - 1, name, PROFILE_ROLE)
            self.panel._profile_items = items
            self._scheduler_names()
        finally:
            combo.blockSignals(blocked)
        return True

    def _sync_profiles(self) -> None:
        chosen = self.panel.ctx.document.project.get("execution", {}).get("remote_profile")
        if self._fill_profiles(chosen or None):
            self.panel.refresh()  # the choice shown again among the new items

    def _batch_placeholders(self) -> None:
        """An empty partition, account or QoS takes the chosen profile's default, else
        the cluster's: the placeholder says which."""
        name = self.panel.ctx.document.project.get("execution", {}).get("remote_profile")
        profile = _profile(str(name)) if name else None
        for edit, key, empty in (
            (
                self.panel.partition_edit,
                "partition",
                QCoreApplication.translate("ExecutionPanel", "(cluster default)"),
            ),
            (
                self.panel.account_edit,
                "account",
                QCoreApplication.translate("ExecutionPanel", "(default)"),
            ),
            (self.panel.qos_edit, "qos", QCoreApplication.translate("ExecutionPanel", "(default)")),
        ):
            value = getattr(profile, key, None) if profile is not None else None
            edit.setPlaceholderText(
                QCoreApplication.translate("ExecutionPanel", "(profile: %1)").replace("%1", value)
                if value
                else empty
            )

    def _choose_run_on(self) -> None:
        """Local, the local SLURM or a cluster profile: a profile is a SLURM batch job
        submitted over ssh (scheduler slurm, remote_profile its name), one undo step."""
        if self.panel._loading:
            return
        combo = self.panel.scheduler_combo
        profile = combo.currentData(PROFILE_ROLE)
        self._set_many(
            {"scheduler": combo.currentData(), "remote_profile": str(profile) if profile else None}
        )

    def _commit_name(self, key: str, edit: QLineEdit) -> None:
        """A partition, account or QoS typed (or set by a window command): its grammar is
        checked before anything is stored, so a refused value leaves the project as it was
        and the field shows the stored value again beside the reason."""
        if self.panel._loading:
            return
        value = edit.text().strip() or None
        try:
            grammar.EXECUTION_VALIDATORS[key](value)
        except MolFormaError as exc:
            self._refuse(key, exc)
            return
        self._set(key, value)

    def _commit_directives(self) -> None:
        if self.panel._loading:
            return
        try:
            values = shlex.split(self.panel.directives_edit.text())
        except ValueError:
            self._refuse(
                "batch_directives",
                QCoreApplication.translate("ExecutionPanel", "Unbalanced quotes."),
            )
            return
        bad = [v for v in values if not (v.startswith("--") and "=" in v)]
        if bad:
            self._refuse(
                "batch_directives",
                QCoreApplication.translate(
                    "ExecutionPanel", "Write each option as --name=value: %1"
                ).replace("%1", bad[0]),
            )
            return
        try:
            grammar.validate_batch_directives(values)
        except MolFormaError as exc:
            self._refuse("batch_directives", exc)
            return
        self._set("batch_directives", values)

    def _show_scheduler(self, scheduler: str) -> None:
        batch = scheduler == "slurm"
        self.panel.batch_box.setVisible(batch)
        # A batch job's MPI processes are nodes x processes per node.
        self.panel._resources_form.setRowVisible(self.panel._processes_row, not batch)

    def _show_messages(self) -> None:
        for key, label in self.panel._messages.items():
            text = self.panel._local_errors.get(key, "")
            label.setText(text)
            label.setVisible(bool(text))

    def _set(self, key: str, value: Any) -> None:
        if self.panel._loading:
            return
        if self.panel.ctx.document.project.get("execution", {}).get(key) == value:
            self.panel._local_errors.pop(key, None)
            self._show_messages()
            return
        msg = apply_edit(self.panel.ctx, "set_execution", {key: value})
        if msg:
            self.panel._local_errors[key] = msg
            self.panel.refresh()
        else:
            self.panel._local_errors.pop(key, None)
            self._show_messages()
            if key == "job_root":
                self._remember_job_root(str(value))

    def _set_many(self, values: dict[str, Any]) -> None:
        """Several settings in one edit (its reason shown beside the scheduler choice)."""
        if self.panel._loading:
            return
        ex = self.panel.ctx.document.project.get("execution", {})
        changed = {k: v for k, v in values.items() if ex.get(k) != v}
        if not changed:
            self.panel._local_errors.pop("scheduler", None)
            self._show_messages()
            return
        msg = apply_edit(self.panel.ctx, "set_execution", changed)
        if msg:
            self.panel._local_errors["scheduler"] = msg
            self.panel.refresh()
        else:
            self.panel._local_errors.pop("scheduler", None)
            self._show_messages()

    def _remember_job_root(self, value: str) -> None:
        """Keep the person's job root in Preferences as the default of new projects.

        Not in MCP mode: there the window may be driven by the client, and MCP never
        changes Preferences (docs/reference/safety.md, Trusted values).
        """
        if self.panel.ctx.mcp_mode or self.panel.ctx.preferences.job_root == value:
            return

        prefs = self.panel.ctx.preferences.model_copy(update={"job_root": value})
        try:
            save_preferences(prefs)
        except (OSError, MolFormaError) as exc:  # a read-only config folder: edit stands
            log.warning("job root not remembered: %s", exc)
            return
        self.panel.ctx.preferences = prefs

    def _refuse(self, key: str, reason: str | MolFormaError) -> None:
        """Show why ``key`` was not stored (a window command's record gets the same error)."""
        outcome.refused(reason)
        self.panel._local_errors[key] = (
            error_text(reason) if isinstance(reason, MolFormaError) else reason
        )
        self.panel.refresh()

    def _commit_command(self, key: str, edit: QLineEdit) -> None:
        if self.panel._loading:
            return
        text = edit.text().strip()
        if not text:
            self._refuse(
                key,
                QCoreApplication.translate(
                    "ExecutionPanel", "Give a command (for example nwchem)."
                ),
            )
            return
        self._set(key, text)

    def _commit_job_root(self) -> None:
        if self.panel._loading:
            return
        text = self.panel.job_root_edit.text().strip()
        if not text:
            self._refuse(
                "job_root",
                QCoreApplication.translate("ExecutionPanel", "Give a folder for the jobs."),
            )
            return
        self._set("job_root", text)
        if "job_root" not in self.panel._local_errors and hasattr(
            self.panel.ctx, "reattach_batch_jobs"
        ):
            self.panel.ctx.reattach_batch_jobs(text)

    def _browse_program(self, key: str) -> None:
        path = dialogs.get_open_path(
            self.parent,
            QCoreApplication.translate("ExecutionPanel", "Choose a program"),
            [QCoreApplication.translate("ExecutionPanel", "All files (*)")],
        )
        if path:
            edit = self.panel.executable_edit if key == "executable" else self.panel.launcher_edit
            edit.setText(path)
            self._set(key, path)

    def _browse_dir(self, key: str) -> None:
        edit = self.panel.job_root_edit if key == "job_root" else self.panel.reference_dir_edit
        start = str(Path(edit.text()).expanduser()) if edit.text() else ""
        path = dialogs.get_directory(
            self.parent, QCoreApplication.translate("ExecutionPanel", "Choose a folder"), start
        )
        if path:
            edit.setText(path)
            self._set(key, path)

    def _table_environment(self) -> tuple[dict[str, str], str | None]:
        env: dict[str, str] = {}
        for row in range(self.panel.environment_table.rowCount()):
            name_item = self.panel.environment_table.item(row, 0)
            value_item = self.panel.environment_table.item(row, 1)
            name = name_item.text().strip() if name_item else ""
            value = value_item.text() if value_item else ""
            if not name:
                continue  # a row being filled in
            if not _ENV_NAME.match(name):
                return env, QCoreApplication.translate(
                    "ExecutionPanel", "Not a valid variable name: %1"
                ).replace("%1", name)
            if name in env:
                return env, QCoreApplication.translate(
                    "ExecutionPanel", "Variable given twice: %1"
                ).replace("%1", name)
            env[name] = value
        return env, None

    def _environment_edited(self, _item: QTableWidgetItem) -> None:
        if self.panel._loading:
            return
        self._apply_table_environment()

    def _apply_table_environment(self) -> None:
        """Store the table's variables, or show why they cannot be stored."""
        env, problem = self._table_environment()
        if problem:
            outcome.refused(problem)
            self.panel._local_errors["environment"] = problem
            self._show_messages()
            return
        self._set("environment", env)

    def add_environment_row(self) -> None:
        """Add an empty row and start editing its name."""
        self.panel._loading = True
        try:
            row = self.panel.environment_table.rowCount()
            self.panel.environment_table.insertRow(row)
            self.panel.environment_table.setItem(row, 0, QTableWidgetItem(""))
            self.panel.environment_table.setItem(row, 1, QTableWidgetItem(""))
        finally:
            self.panel._loading = False
        self.panel.environment_table.setCurrentCell(row, 0)
        item = self.panel.environment_table.item(row, 0)
        if item is not None:
            self.panel.environment_table.editItem(item)

    def remove_environment_rows(self) -> None:
        """Remove the selected rows (the current row when none is selected)."""
        rows = rows_to_remove(self.panel.environment_table)
        if not rows:
            return
        self.panel._loading = True
        try:
            for r in rows:
                self.panel.environment_table.removeRow(r)
        finally:
            self.panel._loading = False
        self._apply_table_environment()
