"""History of calculations: job folders scanned into rows, preview, reuse, trash, CSV (no Qt).

The job folders are the truth; see :mod:`molforma.history.folder_scan` for what a job
folder is and what the status column means. The scan function itself is imported
from its module (``from molforma.history.folder_scan import scan``): re-exporting it here
would hide the module ``molforma.history.folder_scan`` behind the function of that name.
"""

from __future__ import annotations

from molforma.history.export import export_csv
from molforma.history.folder_scan import (
    HistoryRow,
    HistoryScanner,
    ScanCancelledError,
    ScanHandle,
    preview,
    reuse,
)
from molforma.history.trash import move_to_trash

__all__ = [
    "HistoryRow",
    "HistoryScanner",
    "ScanCancelledError",
    "ScanHandle",
    "export_csv",
    "move_to_trash",
    "preview",
    "reuse",
]
