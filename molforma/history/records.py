"""The files that make a folder a job folder, and its job record (no Qt).

Shared by the scan (:mod:`molforma.history.folder_scan`) and the preview and reuse of one job
folder (:mod:`molforma.history.reuse`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from molforma.history.jobdir import JobDir, read_quietly

JOB_RECORD = "job.json"
PROJECT_SNAPSHOT = "project.molforma.json"
RECORD_LIMIT = 1024 * 1024  # a job record is a few hundred bytes; refuse anything absurd

__all__ = ["JOB_RECORD", "PROJECT_SNAPSHOT", "RECORD_LIMIT", "is_job_folder", "read_record"]


def _record_bytes(fh: Any) -> bytes | None:
    # Size first: read(RECORD_LIMIT + 1) would allocate 1 MiB for every record.
    # (A record that grows meanwhile is caught by the length check below.)
    if os.fstat(fh.fileno()).st_size > RECORD_LIMIT:
        return None
    raw: bytes = fh.read(RECORD_LIMIT + 1)
    return raw


def read_record(folder: JobDir, name: str = JOB_RECORD) -> dict[str, Any] | None:
    """``job.json`` (or another JSON file of the folder) as a dict; None when missing,
    unreadable, a link, absurdly large or not JSON."""
    raw = read_quietly(folder, name, _record_bytes, None)
    if raw is None or len(raw) > RECORD_LIMIT:
        return None
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def is_job_folder(names: Iterable[str]) -> bool:
    """Whether a folder holding ``names`` is a job folder (a record, a snapshot, NWChem files)."""
    for n in names:
        low = n.lower()
        if n in (JOB_RECORD, PROJECT_SNAPSHOT) or low.endswith((".nw", ".out")):
            return True
    return False
