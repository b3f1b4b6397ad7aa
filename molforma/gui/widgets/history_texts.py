"""The History tab's words for a row: where the job ran (the cell and its sentences) and
its status in the display language (Qt layer).

The texts keep the ``HistoryPanel`` translation context they had in the panel.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from molforma.gui.widgets.history_support import _row_value


def where_name(row: Any) -> str:
    """The "Ran on" cell: Local, Local SLURM, or the profile and its host (with a mark
    while the connection to the cluster is lost)."""
    where = str(_row_value(row, "where") or "")
    if where == "remote":
        text = (
            QCoreApplication.translate("HistoryPanel", "%1 (%2)")
            .replace("%1", str(_row_value(row, "profile") or ""))
            .replace("%2", str(_row_value(row, "host") or ""))
        )
        return text + (" ⚠" if _row_value(row, "connectionError") else "")
    return {
        "local": QCoreApplication.translate("HistoryPanel", "Local"),
        "slurm": QCoreApplication.translate("HistoryPanel", "Local SLURM"),
    }.get(where, "")


def where_details(row: Any) -> str:
    """Where the job ran, in sentences: the cell's tooltip and the line over the preview."""
    where = str(_row_value(row, "where") or "")
    if where == "local":
        return QCoreApplication.translate("HistoryPanel", "Ran on this computer.")
    if where == "slurm":
        return QCoreApplication.translate("HistoryPanel", "Ran on the local SLURM cluster.")
    if where != "remote":
        return ""
    lines = [
        QCoreApplication.translate("HistoryPanel", "Ran on the cluster profile %1 (host %2).")
        .replace("%1", str(_row_value(row, "profile") or ""))
        .replace("%2", str(_row_value(row, "host") or ""))
    ]
    error = str(_row_value(row, "connectionError") or "")
    if error:
        lines.append(
            QCoreApplication.translate("HistoryPanel", "Connection error: %1").replace("%1", error)
        )
    kept = [str(n) for n in _row_value(row, "remoteOnly") or []]
    if kept:
        lines.append(
            QCoreApplication.translate("HistoryPanel", "Left on the cluster: %1").replace(
                "%1", ", ".join(kept)
            )
        )
    return "\n".join(lines)


def status_name(status: str) -> str:
    names = {
        "queued": QCoreApplication.translate("HistoryPanel", "queued"),
        "running": QCoreApplication.translate("HistoryPanel", "running"),
        "finished": QCoreApplication.translate("HistoryPanel", "finished"),
        "failed": QCoreApplication.translate("HistoryPanel", "failed"),
        "cancelled": QCoreApplication.translate("HistoryPanel", "cancelled"),
        "timed_out": QCoreApplication.translate("HistoryPanel", "timed out"),
        "interrupted": QCoreApplication.translate("HistoryPanel", "interrupted"),
        "saved": QCoreApplication.translate("HistoryPanel", "saved (not run)"),
        "unknown": QCoreApplication.translate("HistoryPanel", "unknown"),
    }
    return names.get(status, status)
