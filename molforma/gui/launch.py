"""Start the desktop window: display check, application, file, screenshot, MCP (Qt layer).

The display check runs before PySide6 is imported: on Linux with no display, Qt
would abort the process with a cryptic message, so we stop first with one that
says how to fix it.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from molforma.errors import MolFormaError

NO_DISPLAY_MESSAGE = (
    "molforma: the MolForma window requires a desktop display, and none was found "
    "(DISPLAY and WAYLAND_DISPLAY are not set).\n"
    "How to fix it:\n"
    "  - start MolForma from a desktop session (X11 or Wayland), or with ssh -X;\n"
    "  - or run it under a virtual display: xvfb-run -a molforma ...;\n"
    "  - or render without a display: QT_QPA_PLATFORM=offscreen MOLFORMA_RENDERER=painter "
    "molforma ...;\n"
    "  - for an MCP server without any window, use: molforma --mcp\n"
    "  - Codex starts MCP servers with a clean environment: pass the display on with\n"
    '    env_vars = ["DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY"] under\n'
    "    [mcp_servers.molforma] in ~/.codex/config.toml.\n"
)


def has_display() -> bool:
    """False on Linux/BSD when Qt would find no display to open.

    An explicit ``QT_QPA_PLATFORM`` is trusted, except ``xcb`` without ``DISPLAY``
    and ``wayland`` without ``WAYLAND_DISPLAY``, where Qt would abort.
    """
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return True
    platform = os.environ.get("QT_QPA_PLATFORM", "").split(":")[0].strip().lower()
    if platform.startswith("xcb"):
        return bool(os.environ.get("DISPLAY"))
    if platform.startswith("wayland"):
        return bool(os.environ.get("WAYLAND_DISPLAY"))
    if platform:
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


RESULT_SUFFIXES = (".out", ".log", ".molden")


def is_results_source(path: str) -> bool:
    """True for what the Results tab opens: an NWChem output, a MOLDEN file, a folder."""
    p = Path(path)
    return p.is_dir() or p.suffix.lower() in RESULT_SUFFIXES


def launch_window(
    file: str | None,
    mcp: bool,
    allow_dirs: Sequence[Path] | None,
    allow_execution_settings: bool,
    screenshot: str | None,
    tab: str | None,
) -> int:
    """Run the window (``molforma [FILE]``, ``--mcp-gui``, ``--screenshot``); exit status."""
    if not has_display():
        if screenshot and not mcp:
            # A screenshot needs no screen: render offscreen with the QPainter renderer.
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
            os.environ["MOLFORMA_RENDERER"] = "painter"
        else:
            sys.stderr.write(NO_DISPLAY_MESSAGE)
            return 1
    # The start allocates much and keeps all of it (modules, the file's atoms): automatic
    # collections would only walk it (30 ms each at 10,000 atoms). The window's own
    # collector (molforma.gui.main_thread_gc) takes over once the application exists.
    gc.disable()
    results_source = file if file and is_results_source(file) else None
    if results_source:
        file = None  # an output file or job folder opens in the Results tab, not as the molecule
        tab = tab or "results"
    _import_core_first(with_formats=bool(file))

    # The file is read before Qt is loaded, so that RDKit, when its bonds need it, is
    # imported before PySide6's import hook (see _import_core_first).
    loaded = None
    failure: MolFormaError | OSError | None = None
    if file:
        from molforma.app.files import read_launch_file

        try:
            loaded = read_launch_file(file)
        except (MolFormaError, OSError) as exc:
            failure = exc
    from molforma.gui.app import create_application
    from molforma.gui.context import AppContext
    from molforma.gui.main_window import MainWindow, load_launch_file

    app = create_application()
    _quiet_offscreen_warning()
    policy = None
    if mcp:
        from molforma.app.policy import Policy

        # Made before the document, whose job root defaults inside the allowed directories.
        policy = Policy(
            allow_dirs=tuple(allow_dirs or ()), allow_execution_settings=allow_execution_settings
        )
    ctx = AppContext.create(mcp_mode=mcp, policy=policy)
    if file and failure is None:
        try:
            load_launch_file(ctx, file, loaded)
        except (MolFormaError, OSError) as exc:
            failure = exc
    load_error = None
    if failure is not None:
        # rendered now, in the language the window speaks
        load_error = failure.message() if isinstance(failure, MolFormaError) else str(failure)
        sys.stderr.write(f"molforma: cannot open {file}: {load_error}\n")
        if screenshot:
            return 2
    # A plain start shows the Molecule tab first; the other tabs follow its first frame.
    window = MainWindow(ctx, defer_panels=not screenshot and not results_source)
    if results_source:
        handle = window.panels.results().open_path(results_source)
        if screenshot and handle is not None:
            handle.wait(120)
        if not screenshot:
            window.show_tab("results")
    if screenshot:
        return window.save_screenshot(screenshot, tab)
    window.show()
    server = None
    if mcp:
        from molforma.gui.mcp_host import start_mcp_host

        server = start_mcp_host(ctx, window, list(allow_dirs or []), allow_execution_settings)
    from molforma.gui.exit_on_signal import connect_exit_signals, stop_calculations

    connect_exit_signals(window, server)
    if load_error is not None:
        from PySide6.QtCore import QCoreApplication

        window.report_error_later(
            QCoreApplication.translate("MainWindow", "Cannot open file"), load_error
        )
    status = int(app.exec())
    # However the loop ended (Quit, a signal, the MCP client leaving), no job outlives it.
    stop_calculations(ctx)
    if mcp:
        # The MCP client is gone: end now. Tearing down Qt and the interpreter can take
        # seconds here, and docs/reference/cli.md, stdio in the MCP modes allows one; there is nothing to save.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    return status


def _import_core_first(with_formats: bool) -> None:
    """Import the Qt-free modules the first frame needs before PySide6.

    PySide6 replaces ``__import__`` with a hook that reads the source of every module
    imported after it (looking for ``from __feature__``); numpy, pydantic, RDKit and the
    Qt-free parts of MolForma the window uses are some 400 modules, so importing them first
    saves that reading (100–150 ms of a start on a 2-core machine). The formats only when
    a file is opened: an empty window does not read one. numpy's linear algebra runs in
    the window's own thread (see below).
    """
    # numpy and the document core; the building rules; the preferences, the settings and
    # the project envelope (pydantic); the application layer and the MCP commands the
    # window's own commands share; the readers.
    names = [
        "molforma.document.document",
        "molforma.document.building",
        "molforma.preferences",
        "molforma.document.envelope_schema",
        "molforma.app.ops",
        "molforma.app.files",
        "molforma.mcp.bridge",
        "molforma.recent_files",
    ]
    if with_formats:
        names.append("molforma.formats")
    # numpy's OpenBLAS starts a worker thread per extra core, which busy-waits for work
    # after start-up: it took the second core from the X server and Mesa while the first
    # frame was drawn (first frame 5-10 % later). The window's matrices are n x 3, never
    # worth a second thread. OpenBLAS reads the setting once, when numpy loads, so the
    # environment is put back at once: calculations started later (NWChem) get it as it
    # was. A value the person set is kept.
    ours = "OPENBLAS_NUM_THREADS" not in os.environ
    if ours:
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        for name in names:
            importlib.import_module(name)
    finally:
        if ours:
            os.environ.pop("OPENBLAS_NUM_THREADS", None)


def _quiet_offscreen_warning() -> None:
    """Drop the offscreen platform's harmless propagateSizeHints warning from stderr."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    def handler(kind: QtMsgType, _context: object, message: str) -> None:
        if "propagateSizeHints" in message:
            return
        if kind != QtMsgType.QtDebugMsg:
            sys.stderr.write(message + "\n")

    qInstallMessageHandler(handler)
