"""The Calculation tab's input preview and messages: the NWChem input the project makes,
rendered at once or after a short pause for a large molecule, and the problems found
(Qt layer)."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QCoreApplication, QObject

from molforma.app import ops
from molforma.gui.widgets.calculation_support import (
    SYNC_PREVIEW_ATOMS,
    CalculationPanelHost,
    _setting_warnings,
)
from molforma.gui.widgets.panel_workers import (
    BackgroundCall,
    error_text,
)
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.nwchem import input as nwchem_input
else:  # imported on first use (start-up time): molforma.lazy
    nwchem_input = lazy_import("molforma.nwchem.input")

log = logging.getLogger(__name__)

# Above this many atoms the preview shows the first PREVIEW_ROWS atom lines and a note:
# a million-line text took 21 s to render and lay out on the window's thread. The job
# and the export write every atom (render_input without geometry_rows).
PREVIEW_FULL_ATOMS = 5000
PREVIEW_ROWS = 20


def preview_text(project: dict[str, Any]) -> str:
    """The input as the preview shows it: whole, or with a large geometry cut short."""
    atoms = project.get("document", {}).get("atoms") or []
    if len(atoms) <= PREVIEW_FULL_ATOMS:
        return nwchem_input.render_input(project)
    lines = nwchem_input.render_input(project, geometry_rows=PREVIEW_ROWS).split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("geometry "))
    note = QCoreApplication.translate(
        "CalculationPanel",
        "  # … {count} more atoms (the full input is written when the job runs or on export)",
    ).replace("{count}", f"{len(atoms) - PREVIEW_ROWS:,}")
    lines.insert(start + 1 + PREVIEW_ROWS, note)
    return "\n".join(lines)


class InputPreview:
    """Renders the input preview and the tab's messages from the project.

    The widgets and the state stay on the tab (``self.panel``).
    """

    def __init__(self, panel: CalculationPanelHost) -> None:
        self.panel = panel
        self._checks: BackgroundCall | None = None  # validate_document of a large structure
        self._general: list[str] = []  # the general messages its warnings are added to
        self._checked_project: Any = None

    def _check_in_background(self, project: dict[str, Any], general: list[str]) -> None:
        """validate_document of a large structure on a worker (its record-based checks
        took 13 s at 200,000 atoms on the window's thread); the warnings join the general
        messages when it ends, if the project is still the one checked."""
        if self._checks is None:
            self._checks = BackgroundCall(cast("QObject", self.panel))
            self._checks.done.connect(self._checked)
        self._general = list(general)
        self._checked_project = project
        # The document as it was: validate_document reads its project only, and the
        # tables are values no edit changes.
        snapshot: Any = SimpleNamespace(project=project)
        self._checks.start(lambda: ops.validate_document(snapshot).get("checks", []))

    def _checked(self, checks: object) -> None:
        if self.panel.ctx.document.project is not self._checked_project:
            return  # an edit since: its own refresh checks again
        general = self._general + self.panel._warning_texts(cast("list[dict[str, Any]]", checks))
        self.panel.general_message.setText("\n".join(general))
        self.panel.general_message.setVisible(bool(general))

    def _schedule_preview(self, project: dict[str, Any]) -> None:
        atoms = project.get("document", {}).get("atoms") or []
        if len(atoms) <= SYNC_PREVIEW_ATOMS:
            self.panel._preview_timer.stop()
            self._refresh_preview_and_messages(project)
        else:
            # Large molecules: a burst of edits renders the input once.
            self.panel._preview_timer.start()

    def _deferred_preview(self) -> None:
        self._refresh_preview_and_messages(self.panel.ctx.document.project)

    def _refresh_preview_and_messages(
        self, project: dict[str, Any], *, read_now: bool = False
    ) -> None:
        self.panel._preview_stale = False
        problems: list[dict[str, Any]] = []
        try:
            from molforma.nwchem.input import input_errors
        except ImportError:
            self.panel.input_preview.setPlainText(
                QCoreApplication.translate(
                    "CalculationPanel", "The NWChem input generator is not available."
                )
            )
        else:
            try:
                problems = input_errors(project)
            except Exception as exc:  # a checker bug must not break the tab
                log.warning("input_errors failed", exc_info=exc)
            try:
                text = preview_text(project)
            except Exception as exc:  # noqa: BLE001 - shown in the preview instead
                text = (
                    QCoreApplication.translate("CalculationPanel", "The input cannot be generated:")
                    + "\n"
                    + error_text(exc)
                )
            if self.panel.input_preview.toPlainText() != text:
                self.panel.input_preview.setPlainText(text)
        by_field: dict[str, list[str]] = {}
        general: list[str] = []
        for p in problems:
            field = str(p.get("field", ""))
            message = str(p.get("message") or p.get("code"))
            target = (
                field
                if field in self.panel._messages
                else ("calculation.extra_input" if field == "calculation.extra_tasks" else None)
            )
            if target is None:
                general.append(message)
            else:
                by_field.setdefault(target, []).append(message)
        for key, message in self.panel._local_errors.items():
            by_field.setdefault(key, []).insert(0, message)
        for warning in _setting_warnings(project):
            # Not refusals (a basis may come from a file of the person's own): said beside
            # the field at once, before Run.
            by_field.setdefault(warning[0], []).append(warning[1])
        if self._checks is not None:
            self._checks.discard()  # an earlier structure's result is not this one's
        large = len(project.get("document", {}).get("atoms") or []) > PREVIEW_FULL_ATOMS
        if large and not read_now and self.panel.isVisible():
            self._check_in_background(project, general)
        elif read_now or self.panel.isVisible():
            general.extend(self.panel._validation_warnings())
        else:
            # Checked when the tab is shown or read (catch_up): the valence check loads
            # RDKit, which a window start with this tab hidden must not wait for.
            self.panel._preview_stale = True
        for key, label in self.panel._messages.items():
            texts = by_field.get(key, [])
            label.setText("\n".join(texts))
            label.setVisible(bool(texts))
        self.panel.general_message.setText("\n".join(general))
        self.panel.general_message.setVisible(bool(general))
