"""Who is acting: the person, or MCP driving the window (no Qt).

Window code passes ``origin="user"`` for what a person does. While an MCP-driven
window command runs (``ui_activate``, ``ui_set_value``, …) the command runner wraps
it in :func:`acting_for_mcp`, and :func:`effective_origin` turns that ``"user"`` into
``"mcp"``: such edits are recorded as MCP's and never make execution settings
trusted (SPEC.md section 7), exactly as if an MCP tool had made them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

_local = threading.local()


@contextmanager
def acting_for_mcp(active: bool = True) -> Iterator[None]:
    """Mark the code run inside as driven by MCP (on this thread)."""
    before = getattr(_local, "mcp", False)
    _local.mcp = active
    try:
        yield
    finally:
        _local.mcp = before


def mcp_acting() -> bool:
    """True inside :func:`acting_for_mcp` on this thread."""
    return bool(getattr(_local, "mcp", False))


def effective_origin(origin: str) -> str:
    """``origin`` as recorded: a person's ``"user"`` becomes ``"mcp"`` while MCP drives."""
    if origin == "user" and mcp_acting():
        return "mcp"
    return origin
