"""Command line of MolForma (no Qt at import time).

``molforma [FILE]`` opens the window, ``--mcp`` serves MCP headless, ``--mcp-gui``
serves MCP from a new window; ``convert`` and ``results`` are commands for
scripts. Only the window modes import ``molforma.gui``; ``--mcp`` never does.
SIGTERM, SIGINT and SIGHUP are caught first thing (``molforma.exit_signals``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING

from molforma import __version__

if TYPE_CHECKING:
    import argparse
    from pathlib import Path

SUBCOMMANDS = ("convert", "results")
TABS = ("molecule", "calculation", "execution", "results", "history")


def build_parser() -> argparse.ArgumentParser:
    """The parser of the window and MCP modes (the subcommands have their own)."""
    import argparse

    p = argparse.ArgumentParser(
        prog="molforma",
        description=(
            "Molecular editor for quantum chemistry with NWChem and a built-in MCP server.\n\n"
            "Commands for scripts:\n"
            "  molforma convert INPUT -o OUTPUT [--format F] [--frame N]\n"
            "  molforma results PATH [--section S] [--json]"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", help="project, structure or NWChem input file to open")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--mcp",
        action="store_true",
        help="serve MCP on stdin/stdout headless (no window, no display needed)",
    )
    mode.add_argument(
        "--mcp-gui",
        action="store_true",
        help="open a new window driven by the MCP client on stdin/stdout",
    )
    mode.add_argument(
        "--install-desktop",
        action="store_true",
        help="add MolForma to this user's application menu with its icon and "
        "file types ($XDG_DATA_HOME or ~/.local/share) and make it the "
        "default application of those types",
    )
    mode.add_argument(
        "--uninstall-desktop", action="store_true", help="remove what --install-desktop wrote"
    )
    p.add_argument(
        "--mcp-allow-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="MCP may read and write only under DIR (repeatable)",
    )
    p.add_argument(
        "--mcp-allow-execution-settings",
        action="store_true",
        help="MCP may change executable, launcher, environment and extra input",
    )
    p.add_argument(
        "--screenshot", metavar="OUT.png", help="render the window to a PNG file and exit"
    )
    p.add_argument("--tab", choices=TABS, help="tab to show with --screenshot")
    p.add_argument(
        "--mcp-config",
        nargs="?",
        const="json",
        metavar="FORMAT",
        choices=("claude", "codex", "json"),
        help="print the MCP client entry for this program (claude, codex or json "
        "'mcpServers'; default json) with its absolute path and the --mcp-gui "
        "/ --mcp-allow-dir / --mcp-allow-execution-settings given beside it",
    )
    p.add_argument("--version", action="version", version=f"molforma {__version__}")
    return p


def _check_allow_dirs(dirs: Sequence[str]) -> list[Path] | None:
    out = []
    for d in dirs:
        from pathlib import Path  # here: a plain --mcp launch need not import it

        p = Path(os.path.expanduser(d))
        if not p.is_dir():
            sys.stderr.write(f"molforma: --mcp-allow-dir {d}: no such directory\n")
            return None
        out.append(p.resolve())
    return out


def _plain_mcp_args(args_in: Sequence[str]) -> SimpleNamespace | None:
    """The arguments of a ``--mcp`` launch as MCP clients configure it, or None.

    ``--mcp`` with ``--mcp-allow-dir DIR`` and ``--mcp-allow-execution-settings``, each
    spelt in full, is read here; building the parser costs its help formatter's imports
    (``argparse``, ``shutil``, ``gettext``), a good part of the first answer's budget. Anything else
    (abbreviations, other options, a value that looks like an option) returns None and
    argparse reads it, with its own errors.
    """
    if "--mcp" not in args_in:
        return None
    dirs: list[str] = []
    allow_exec = False
    rest = iter(args_in)
    for arg in rest:
        if arg in ("--mcp", "--mcp-allow-execution-settings"):
            allow_exec = allow_exec or arg == "--mcp-allow-execution-settings"
        elif arg == "--mcp-allow-dir":
            value = next(rest, None)
            if value is None or value.startswith("-"):
                return None
            dirs.append(value)
        elif arg.startswith("--mcp-allow-dir="):
            dirs.append(arg.partition("=")[2])
        else:
            return None
    return SimpleNamespace(
        file=None,
        mcp=True,
        mcp_gui=False,
        mcp_allow_dir=dirs,
        mcp_allow_execution_settings=allow_exec,
        screenshot=None,
        tab=None,
        mcp_config=None,
        install_desktop=False,
        uninstall_desktop=False,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``molforma`` console script."""
    args_in = list(sys.argv[1:] if argv is None else argv)
    if args_in and args_in[0] in SUBCOMMANDS:
        if args_in[0] == "convert":
            from molforma.subcommands.convert import main as convert_main

            return convert_main(args_in[1:])
        from molforma.subcommands.show_results import main as results_main

        return results_main(args_in[1:])

    args = _plain_mcp_args(args_in) or build_parser().parse_args(args_in)
    # Before anything slow: a SIGTERM arriving during start-up already stops cleanly.
    from molforma import exit_signals

    exit_signals.install()
    allow = _check_allow_dirs(args.mcp_allow_dir)
    if allow is None:
        return 2
    if args.install_desktop or args.uninstall_desktop:
        if (
            args.file
            or args.screenshot
            or args.tab
            or args.mcp_config
            or args.mcp_allow_dir
            or args.mcp_allow_execution_settings
        ):
            flag = "--install-desktop" if args.install_desktop else "--uninstall-desktop"
            sys.stderr.write(f"molforma: {flag} takes no file and no other option\n")
            return 2
        from molforma.subcommands.desktop_install import main as desktop_main

        return desktop_main("install" if args.install_desktop else "uninstall")
    if args.mcp_config:
        if args.file or args.screenshot:
            sys.stderr.write(
                "molforma: --mcp-config prints a configuration; it opens no "
                "file and renders nothing\n"
            )
            return 2
        from molforma.subcommands.mcp_config import print_config

        return print_config(
            args.mcp_config,
            gui=args.mcp_gui,
            allow_dirs=allow,
            allow_execution=args.mcp_allow_execution_settings,
        )
    if args.mcp:
        if args.file:
            sys.stderr.write("molforma: --mcp starts with an empty document; FILE is not taken\n")
            return 2
        from molforma.mcp.server import serve_headless

        return serve_headless(
            allow_dirs=allow, allow_execution_settings=args.mcp_allow_execution_settings
        )
    if args.tab and not args.screenshot:
        sys.stderr.write("molforma: --tab goes with --screenshot\n")
        return 2
    from molforma.gui.launch import launch_window

    return launch_window(
        file=args.file,
        mcp=args.mcp_gui,
        allow_dirs=allow,
        allow_execution_settings=args.mcp_allow_execution_settings,
        screenshot=args.screenshot,
        tab=args.tab,
    )
