"""MolForma jobs (no Qt).

:data:`STATUSES` and :data:`TERMINAL` live here, not in the runner, so the window, the
history scan and the MCP tools can ask whether a job has ended without importing the
runner and the input generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from molforma.errors import MolFormaError

# The job states of docs/reference/jobs.md (States), in their documented order; the last four end a job.
STATUSES: tuple[str, ...] = ("queued", "running", "finished", "failed", "cancelled", "timed_out")
TERMINAL: frozenset[str] = frozenset(STATUSES[2:])


def failure_error(job_or_record: Any) -> MolFormaError | None:
    """The error a failed or timed-out run is (NWChem's error line in its message);
    None when it runs, finished or was cancelled. See :mod:`molforma.jobs.run_outcome`."""
    from molforma.jobs.run_outcome import failure_error as _failure_error

    return _failure_error(job_or_record)


def progress_note(job_or_record: Any, lang: str | None = None) -> dict[str, Any]:
    """``{"progress", "message"[, "total"]}`` of a job for ``notifications/progress``.
    See :mod:`molforma.jobs.run_outcome`."""
    from molforma.jobs.run_outcome import progress_note as _progress_note

    return _progress_note(job_or_record, lang)
