"""``--mcp-gui``: the MCP server attached to a window (no Qt import here).

The window (``molforma.gui.launch``) calls :func:`start_gui_server` after showing
itself. The server runs the same dispatcher as the headless mode on its own thread
and works on the window's document, job manager and results session, so a change
made by a client shows in the window (the window's ``AppEvents`` relay document
changes made on this thread to the GUI thread). Tools marked ``thread="gui"`` run
through the window's :class:`~molforma.mcp.registry.GuiBridge` when the window
offers one as ``window.mcp_bridge``.

When stdin closes the server stops running calculations and loads and ends the
process within a second, with no save dialog and no autosave (SPEC.md section 1):
through ``window.mcp_client_closed()`` when the window provides it (it must be
safe to call from another thread), else by ending the process directly.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from pathlib import Path
from typing import Any

from molforma.mcp.server import Server, ServerState
from molforma.mcp.transport import StdioTransport

log = logging.getLogger("molforma.mcp")


class WindowState(ServerState):
    """Server state that follows the window's context (document, jobs, results)."""

    def __init__(self, ctx: Any, policy: Any) -> None:
        super().__init__(policy, mode="gui", initial_document=False)
        self.ctx = ctx

    @property
    def documents(self) -> dict[str, Any]:
        """The window's current document (it changes when the person opens a file)."""
        doc = self.ctx.document
        return {doc.id: doc}

    @property
    def jobs(self) -> Any:
        """The window's job manager, shared with the Execution tab."""
        return self.ctx.jobs

    @property
    def _jobs(self) -> Any:  # type: ignore[override]
        return self.ctx.jobs

    @_jobs.setter
    def _jobs(self, value: Any) -> None:
        # ServerState.__init__ assigns it; the window's context owns the real one.
        pass

    def results(self, doc_id: str) -> Any:
        """The window's results session, shared with the Results tab."""
        return self.ctx.results

    def results_if_any(self, doc_id: str) -> Any:
        """The window's results session (may be empty)."""
        return self.ctx.results


def start_gui_server(ctx: Any, window: Any, allow_dirs: list[Path],
                     allow_execution_settings: bool) -> Server:
    """Serve MCP on stdin/stdout for ``window`` on a daemon thread; returns the server."""
    from molforma.jobs.policy import Policy

    policy = ctx.policy if getattr(ctx, "policy", None) is not None else Policy(
        allow_dirs=tuple(allow_dirs), allow_execution_settings=allow_execution_settings)
    if getattr(ctx, "policy", None) is None:
        ctx.policy = policy
    state = WindowState(ctx, policy)
    # The results tools look sessions up per document; the window has one session.
    state._results = _AllDocs(ctx)
    server = Server(state, mode="gui", bridge=getattr(window, "mcp_bridge", None))
    transport = StdioTransport()

    def serve() -> None:
        try:
            server.run(transport)
        except Exception:
            log.exception("the MCP server stopped")
        finally:
            _client_closed(window)

    threading.Thread(target=serve, name="mcp-server", daemon=True).start()
    return server


class _AllDocs(dict):  # type: ignore[type-arg]
    """``state._results`` view: the window's session under the current document's id."""

    def __init__(self, ctx: Any) -> None:
        super().__init__()
        self._ctx = ctx

    def items(self) -> Any:  # type: ignore[override]
        sess = self._ctx.results
        return [] if sess is None else [(self._ctx.document.id, sess)]

    def get(self, key: Any, default: Any = None) -> Any:  # type: ignore[override]
        return self._ctx.results if key == self._ctx.document.id else default


def _client_closed(window: Any) -> None:
    hook = getattr(window, "mcp_client_closed", None)
    if callable(hook):
        try:
            hook()
            return
        except Exception:
            log.exception("window.mcp_client_closed failed; ending the process")
    # No save dialog, no autosave: calculations were stopped by the server already.
    sys.stderr.flush()
    os._exit(0)
