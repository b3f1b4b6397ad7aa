"""MolForma jobs (no Qt).

:data:`STATUSES` and :data:`TERMINAL` live here, not in the runner, so the window, the
history scan and the MCP tools can ask whether a job has ended without importing the
runner and the input generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.errors import MolFormaError
    from molforma.jobs import run_outcome as _run_outcome
else:  # imported on first use, so the package stays light: molforma.lazy
    _run_outcome = lazy_import("molforma.jobs.run_outcome")

# The job states of docs/reference/jobs.md (States), in their documented order; the last four end a job.
STATUSES: tuple[str, ...] = ("queued", "running", "finished", "failed", "cancelled", "timed_out")
TERMINAL: frozenset[str] = frozenset(STATUSES[2:])


def failure_error(job_or_record: Any) -> MolFormaError | None:
    """The error a failed or timed-out run is (NWChem's error line in its message);
    None when it runs, finished or was cancelled. See :mod:`molforma.jobs.run_outcome`."""
    return _run_outcome.failure_error(job_or_record)


def progress_note(job_or_record: Any, lang: str | None = None) -> dict[str, Any]:
    """``{"progress", "message"[, "total"]}`` of a job for ``notifications/progress``.
    See :mod:`molforma.jobs.run_outcome`."""
    return _run_outcome.progress_note(job_or_record, lang)
