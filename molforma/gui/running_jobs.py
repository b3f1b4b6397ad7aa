"""Which of the window's calculations are still running, split by who owns them (Qt layer).

Closing the window asks first while a calculation runs (docs/reference/cli.md, Stopping MolForma stops its calculations): a
*local* job is a child process of MolForma and ends with it, a *batch* job belongs
to the cluster and goes on running. :func:`is_batch_job` is the one place that
tells them apart, so a new scheduler only has to be recognised here.
"""

from __future__ import annotations

import logging
from typing import Any

from molforma.jobs import TERMINAL

log = logging.getLogger(__name__)


def job_snapshot(job: Any) -> dict[str, Any]:
    """``job.snapshot()`` as a dict (empty when the job cannot say)."""
    try:
        snap = job.snapshot()
    except Exception as exc:  # a broken job must not block closing or polling
        log.warning("job snapshot failed", exc_info=exc)
        return {}
    if hasattr(snap, "model_dump"):
        snap = snap.model_dump()
    return dict(snap) if isinstance(snap, dict) else {}


def is_batch_job(job: Any) -> bool:
    """True for a job handed to a cluster scheduler (it outlives the window)."""
    if getattr(job, "is_batch", False):
        return True
    scheduler = job_snapshot(job).get("scheduler")
    return isinstance(scheduler, str) and scheduler not in ("", "local")


def _not_ended(job: Any) -> bool:
    done = getattr(job, "_done", None)
    if done is not None and hasattr(done, "is_set"):
        return not done.is_set()
    return str(getattr(job, "status", "")) not in TERMINAL


def running_jobs(ctx: Any) -> tuple[list[Any], list[Any]]:
    """``(local, batch)``: the window's jobs that have not ended yet.

    The job manager is never created here (``ctx._jobs``, not ``ctx.jobs``): a window
    that never ran anything has nothing to ask about.
    """
    manager = getattr(ctx, "_jobs", None)
    if manager is None:
        return [], []
    try:
        jobs = list(manager.jobs())
    except Exception as exc:  # a broken manager must not block closing
        log.warning("listing jobs failed", exc_info=exc)
        return [], []
    local: list[Any] = []
    batch: list[Any] = []
    for job in jobs:
        if _not_ended(job):
            (batch if is_batch_job(job) else local).append(job)
    return local, batch


def job_folder(job: Any) -> str:
    """The folder of ``job`` for a message ('' when unknown)."""
    folder = getattr(job, "folder", None)
    return str(folder) if folder else ""


__all__ = ["is_batch_job", "job_folder", "running_jobs"]
