"""The Results tab's loading: an output, MOLDEN file or job folder opened through the
results session, followed to its end, and the files of a job folder (Qt layer)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QTreeWidgetItem,
)

from molforma.errors import ResultsError
from molforma.gui import dialogs
from molforma.gui.widgets.panel_workers import (
    error_text,
    reports_errors,
    watch_load,
)

if TYPE_CHECKING:
    pass

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from molforma.gui.widgets.results_support import (
    PATH_ROLE,
    RESULT_FILTERS,
    RESULT_PATTERNS,
    ResultsPanelHost,
)

log = logging.getLogger(__name__)


def _in_status_line(loading: ResultsLoading, exc: BaseException) -> None:
    loading.panel.status_label.setText(error_text(exc))


class ResultsLoading:
    """Opens results through the session and follows each load to its end.

    The widgets and the state stay on the tab (``self.panel``).
    """

    def __init__(self, panel: ResultsPanelHost, parent: QWidget) -> None:
        self.panel = panel
        self.parent = parent  # the Qt parent of the dialogs and loads it starts

    def _session(self) -> Any:
        session = self.panel.ctx.results
        if session is None:
            raise ResultsError("results_error", detail="the results reader is not available")
        return session

    def _check(self, path: str) -> str:
        policy = getattr(self.panel.ctx, "policy", None)
        return path if policy is None else str(policy.check_path(path, must_exist=False))

    def _guard(self) -> dict[str, Any]:
        """In MCP mode, the policy checks every file a load opens (links included)."""
        policy = getattr(self.panel.ctx, "policy", None)
        return {} if policy is None else {"guard": policy.read_guard()}

    def open_path(self, path: str, *, directory: bool | None = None) -> Any:
        """Start loading ``path`` (a file, a folder or an animation group key).

        Returns the load handle; the tab refreshes when it completes. A failed load
        keeps the current results and shows why.
        """
        path = self._check(path)
        session = self._session()
        is_dir = Path(path).expanduser().is_dir() if directory is None else directory
        handle = (
            session.open_directory(path, **self._guard())
            if is_dir
            else session.open_file(path, **self._guard())
        )
        self._follow(handle)
        return handle

    def reload(self) -> Any | None:
        """Re-read the current source (for an animation: its step files again)."""
        handle = self._reloaded()
        if handle is None:
            return None
        self._follow(handle)
        return handle

    def _follow(self, handle: Any) -> None:
        self.panel.status_label.setText(
            QCoreApplication.translate("ResultsPanel", "Loading %1 …").replace(
                "%1", str(handle.path)
            )
        )

        def ended(ok: bool, err: Any) -> None:
            if ok:
                self.panel.status_label.setText("")
                self.panel.ctx.events.resultsChanged.emit()
            elif str(getattr(handle, "status", "")) == "cancelled":
                self.panel.status_label.setText(
                    QCoreApplication.translate(
                        "ResultsPanel", "Loading cancelled; the previous results stay."
                    )
                )
            else:
                self.panel.status_label.setText(
                    QCoreApplication.translate("ResultsPanel", "Cannot load: %1").replace(
                        "%1",
                        error_text(err)
                        if isinstance(err, BaseException)
                        else str((err or {}).get("message", err) if isinstance(err, dict) else err),
                    )
                )

        watch_load(self.parent, handle, ended)

    def _ask_open_file(self) -> None:
        path = dialogs.get_open_path(
            self.parent,
            QCoreApplication.translate("ResultsPanel", "Open results"),
            [
                f"{QCoreApplication.translate('ResultsPanel', RESULT_FILTERS[0])} ({RESULT_PATTERNS})",
                QCoreApplication.translate("ResultsPanel", RESULT_FILTERS[1]),
            ],
        )
        if path:
            self._open_reporting(path, directory=False)

    def _ask_open_folder(self) -> None:
        path = dialogs.get_directory(
            self.parent, QCoreApplication.translate("ResultsPanel", "Open a job folder")
        )
        if path:
            self._open_reporting(path, directory=True)

    @reports_errors(_in_status_line, returns=None)
    def _reloaded(self) -> Any:
        return self._session().reload(**self._guard())

    @reports_errors(_in_status_line, returns=None)
    def _open_reporting(self, path: str, *, directory: bool | None = None) -> None:
        self.open_path(path, directory=directory)

    def _file_chosen(self, item: QTreeWidgetItem | None, _prev: Any = None) -> None:
        if self.panel._updating or item is None:
            return
        path = item.data(0, PATH_ROLE)
        if not path:
            return
        cur = self.panel.results
        if cur is not None and str(path) in (cur.source, cur.resolvedPath):
            return
        self._open_reporting(str(path), directory=False)

    def catch_up(self) -> None:
        """Show the session's current results now, not at the next watch tick: an agent
        may read or drive the panel right after results load."""
        self._check_session()

    def _check_session(self) -> None:
        session = self.panel.ctx.results
        if session is not None and session.current is not self.panel.results:
            self.panel.refresh()
