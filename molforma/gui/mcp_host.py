"""``--mcp-gui``: the window's MCP server, assembled (Qt layer).

:func:`start_mcp_host` wires the window's services (``WindowServices`` over the
window's context), the widget introspection, the command runner and the dialog
service into one :class:`~molforma.mcp.server.Server`, and serves MCP on
stdin/stdout from a daemon thread; the Qt event loop stays on the main thread.
A change made by a client shows in the window (``AppEvents`` relays document
changes made on the MCP thread to the GUI thread).

When stdin closes the server stops running calculations and loads and the window
quits within a second, with no save dialog and no autosave (docs/reference/cli.md, stdio in the MCP modes), even
while a request is still being served: the server's reader thread notices the end of
stdin and, when the request has not finished shortly after, quits the window itself.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from molforma.app.policy import Policy
from molforma.lazy import lazy_import
from molforma.mcp.server import Server
from molforma.mcp.transport import StdioTransport

if TYPE_CHECKING:
    from molforma.gui import commands, introspection, services
    from molforma.gui.context import AppContext
    from molforma.gui.main_window import MainWindow
else:  # imported on first use (start-up time): molforma.lazy
    commands = lazy_import("molforma.gui.commands")
    introspection = lazy_import("molforma.gui.introspection")
    services = lazy_import("molforma.gui.services")

log = logging.getLogger("molforma.mcp")


def build_services(
    ctx: AppContext, window: MainWindow, allow_dirs: list[Path], allow_execution_settings: bool
) -> services.WindowServices:
    """The window's MCP services: policy, introspection, command runner, dialogs."""
    policy = ctx.policy
    if policy is None:
        policy = ctx.policy = Policy(
            allow_dirs=tuple(allow_dirs), allow_execution_settings=allow_execution_settings
        )
    intro = introspection.WindowIntrospection(
        window, allow_execution_settings=allow_execution_settings
    )
    runner = commands.CommandRunner(window, intro, window.mcp_bridge, policy)
    return services.WindowServices(
        ctx, policy, services.WindowBridgeImpl(window.mcp_bridge, intro, runner)
    )


def start_mcp_host(
    ctx: AppContext, window: MainWindow, allow_dirs: list[Path], allow_execution_settings: bool
) -> Server:
    """Serve MCP for ``window`` on a daemon thread; returns the server."""
    # stdin closed while a request was still being served (a long command, a large file):
    # the server has stopped the calculations; the window quits without waiting for it.
    server = Server(
        build_services(ctx, window, allow_dirs, allow_execution_settings),
        mode="gui",
        on_busy_eof=lambda: _client_closed(window, soon=True),
    )
    window.mcp_server = server
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


# With a request still being served, the GUI thread may be the one busy (a window command):
# the process then ends this soon, inside the second docs/reference/cli.md, stdio in the MCP modes allows.
_BUSY_EXIT_SECONDS = 0.25


def _client_closed(window: MainWindow, *, soon: bool = False) -> None:
    if soon:
        timer = threading.Timer(_BUSY_EXIT_SECONDS, _exit_now)
        timer.daemon = True
        timer.start()
    try:
        window.mcp_client_closed()
        return
    except Exception:
        log.exception("window.mcp_client_closed failed; ending the process")
    # No save dialog, no autosave: calculations were stopped by the server already.
    _exit_now()


def _exit_now() -> None:
    sys.stderr.flush()
    os._exit(0)
