"""MolForma jobs (no Qt).

:data:`TERMINAL` lives here, not in the runner, so the window and the MCP tools can ask
whether a job has ended without importing the runner and the input generator.
"""

from __future__ import annotations

TERMINAL: frozenset[str] = frozenset({"finished", "failed", "cancelled", "timed_out"})
