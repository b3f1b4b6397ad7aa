"""MolForma jobs (no Qt).

:data:`STATUSES` and :data:`TERMINAL` live here, not in the runner, so the window, the
history scan and the MCP tools can ask whether a job has ended without importing the
runner and the input generator.
"""

from __future__ import annotations

# SPEC.md's job states in their documented order; the last four end a job.
STATUSES: tuple[str, ...] = ("queued", "running", "finished", "failed", "cancelled", "timed_out")
TERMINAL: frozenset[str] = frozenset(STATUSES[2:])
