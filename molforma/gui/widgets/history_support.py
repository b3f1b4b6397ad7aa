"""What the History tab's parts share: the path checks while MCP drives the window, row
values, and the HistoryPanelHost protocol its actions are typed with (Qt layer)."""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtWidgets import QComboBox, QLabel, QWidget

from molforma.app.actor import check_path as checked
from molforma.app.actor import window_actor


def check_path(ctx: Any, path: str, *, for_write: bool = False) -> str:
    """``path`` checked against the MCP allowed directories while MCP drives the window
    (the person's own clicks are not limited, :func:`molforma.app.actor.check_path`)."""
    return checked(getattr(ctx, "policy", None), path, window_actor(), for_write=for_write)


def _mcp_guard(ctx: Any) -> Any | None:
    """The policy's guard while MCP drives the window: History then opens each folder
    through it, judged where it really is (a check alone can be raced)."""
    policy = getattr(ctx, "policy", None)
    return policy.read_guard() if policy is not None and window_actor().is_mcp else None


def _row_value(row: Any, key: str) -> Any:
    if isinstance(row, dict):
        return row.get(key)
    return getattr(row, key, None)


class HistoryPanelHost(Protocol):
    """What the History tab's actions use of the tab. A protocol rather than an import of
    :class:`~molforma.gui.widgets.history_panel.HistoryPanel`, which imports them."""

    ctx: Any
    rows: list[Any]
    status_label: QLabel
    reuse_geometry_combo: QComboBox

    def parentWidget(self) -> QWidget | None: ...
    def set_rows(self, rows: list[Any]) -> None: ...
    def _checked_selection(self) -> str | None: ...
    def _refuse(self, reason: Any) -> None: ...
    def _selection_changed(self) -> None: ...
