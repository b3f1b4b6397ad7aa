"""``molforma --mcp-config [claude|codex|json]``: the MCP client entry for this program.

An MCP client starts MolForma itself, so its configuration must name this very
executable by absolute path (a client's PATH is not the person's shell's). The snippet
carries the launch options given beside ``--mcp-config`` (``--mcp-gui`` for the window,
``--mcp-allow-dir`` with absolute folders, ``--mcp-allow-execution-settings``) and the
server's name ``molforma`` (``molforma-window`` for the window mode).
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

FORMATS = ("claude", "codex", "json")


def program_command() -> list[str]:
    """The command that starts this MolForma: the bundle's executable, the installed
    ``molforma`` script that is running, else this Python with ``-m molforma``."""
    if getattr(sys, "frozen", False):
        return [str(Path(sys.executable).resolve())]
    launched = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if launched is not None and launched.name in ("molforma", "molforma.exe"):
        found = launched if launched.is_file() else None
        if found is None and launched.parent == Path("."):
            from shutil import which  # here: shutil loads bz2 and lzma

            hit = which(launched.name)
            found = Path(hit) if hit else None
        if found is not None and os.access(found, os.X_OK):
            return [str(found.absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "molforma"]


def server_args(*, gui: bool, allow_dirs: Sequence[Path], allow_execution: bool) -> list[str]:
    """The launch options of the entry, folders absolute."""
    args = ["--mcp-gui" if gui else "--mcp"]
    for d in allow_dirs:
        args += ["--mcp-allow-dir", str(Path(d).resolve())]
    if allow_execution:
        args.append("--mcp-allow-execution-settings")
    return args


def snippet(fmt: str, command: list[str], args: list[str], *, gui: bool) -> str:
    """The configuration text for ``fmt`` (see :data:`FORMATS`)."""
    name = "molforma-window" if gui else "molforma"
    exe, pre = command[0], command[1:]
    full = [*pre, *args]
    if fmt == "claude":
        return f"claude mcp add {name} -- {shlex.join([exe, *full])}\n"
    if fmt == "codex":
        lines = [
            f"[mcp_servers.{name}]",
            f"command = {json.dumps(exe)}",
            f"args = [{', '.join(json.dumps(a) for a in full)}]",
        ]
        if gui:
            # The window needs the desktop session, which Codex does not pass by default.
            lines.append(
                'env_vars = ["DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "XDG_RUNTIME_DIR"]'
            )
        return "\n".join(lines) + "\n"
    return json.dumps({"mcpServers": {name: {"command": exe, "args": full}}}, indent=2) + "\n"


def print_config(fmt: str, *, gui: bool, allow_dirs: Sequence[Path], allow_execution: bool) -> int:
    """Write the snippet to stdout; 0."""
    args = server_args(gui=gui, allow_dirs=allow_dirs, allow_execution=allow_execution)
    sys.stdout.write(snippet(fmt, program_command(), args, gui=gui))
    return 0


__all__ = ["FORMATS", "print_config", "program_command", "server_args", "snippet"]
