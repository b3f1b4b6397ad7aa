"""What the desktop integration writes: its ids, the XDG folders and the files (no Qt).

The files are those under ``molforma/desktop/``, the ``.desktop`` entry's ``Exec`` and
``TryExec`` naming the program to start (Desktop Entry Specification quoting).
:mod:`molforma.subcommands.desktop_install` writes them; the window reads :data:`APP_ID`
and :data:`SOURCE` for its own icon and desktop file name.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

APP_ID = "io.github.molforma.MolForma"
DESKTOP_FILE = f"{APP_ID}.desktop"
# The data files shipped in the package (a wheel's package data, a bundle's copy of it).
SOURCE = Path(__file__).resolve().parent.parent / "desktop"
MANIFEST = Path("molforma") / "desktop-install.json"
MIME_TYPES = (
    "application/x-molforma+json",
    "chemical/x-nwchem-input",
    "chemical/x-nwchem-output",
    "chemical/x-molden",
    "chemical/x-xyz",
    "chemical/x-mdl-molfile",
    "chemical/x-mdl-sdfile",
    "chemical/x-mol2",
    "chemical/x-cml",
    "chemical/x-pdb",
    "chemical/x-gaussian-input",
)
# The Debian package of each tool, named when a tool is missing.
TOOL_PACKAGES = {
    "update-mime-database": "shared-mime-info",
    "update-desktop-database": "desktop-file-utils",
    "gtk-update-icon-cache": "gtk-update-icon-cache",
    "xdg-mime": "xdg-utils",
}
# What update-desktop-database leaves in applications/ besides the entries.
_DESKTOP_DB = "mimeinfo.cache"
_TMP_SUFFIX = ".molforma-tmp"
_TOOL_TIMEOUT = 120  # seconds; update-mime-database on a large home takes a few


class DesktopError(Exception):
    """A refusal with its message code and data; the command prints it and exits 2."""

    def __init__(self, code: str, **data: object) -> None:
        super().__init__(code)
        self.code = code
        self.data = data


def _base(var: str, default: str) -> Path:
    """An XDG base folder: the variable when it is an absolute path (the specification
    ignores relative ones), else its default under the home folder."""
    value = os.environ.get(var, "")
    if value and os.path.isabs(value):
        return Path(value)
    try:
        return Path.home() / default
    except RuntimeError as exc:  # no HOME and no password entry
        raise DesktopError("desktop_no_home") from exc


def data_home() -> Path:
    """``$XDG_DATA_HOME`` or ``~/.local/share``."""
    return _base("XDG_DATA_HOME", ".local/share")


def config_home() -> Path:
    """``$XDG_CONFIG_HOME`` or ``~/.config`` (where ``xdg-mime default`` writes)."""
    return _base("XDG_CONFIG_HOME", ".config")


_EXEC_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def exec_quote(arg: str) -> str:
    """One argument of an ``Exec`` key as the Desktop Entry Specification quotes it
    (before the general string escapes, which :func:`exec_line` applies)."""
    arg = arg.replace("%", "%%")
    if arg and not (set(arg) & _EXEC_RESERVED):
        return arg
    inner = "".join("\\" + c if c in '"`$\\' else c for c in arg)
    return f'"{inner}"'


def _string_escape(value: str) -> str:
    # The specification's escapes of a string value (\\ first, so it is not doubled again).
    return value.replace("\\", "\\\\")


def exec_line(command: Sequence[str]) -> str:
    """The ``Exec`` value that starts ``command`` with one file (``%f``)."""
    return _string_escape(" ".join(exec_quote(a) for a in command)) + " %f"


def desktop_entry(command: Sequence[str]) -> bytes:
    """The shipped ``.desktop`` file with ``Exec`` and ``TryExec`` naming ``command``."""
    for part in command:
        if any(ord(c) < 32 or ord(c) == 127 for c in part):
            raise DesktopError("desktop_bad_program_path", path=part)
    text = (SOURCE / DESKTOP_FILE).read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        if line.startswith("Exec="):
            out.append(f"TryExec={_string_escape(command[0])}")
            line = f"Exec={exec_line(command)}"
        elif line.startswith("TryExec="):
            continue
        out.append(line)
    return ("\n".join(out) + "\n").encode("utf-8")


def planned_files(command: Sequence[str]) -> dict[Path, bytes]:
    """Each file the install writes, by its path under the data folder, with its bytes."""
    if not (SOURCE / DESKTOP_FILE).is_file():
        raise DesktopError("desktop_files_missing", path=SOURCE)
    files: dict[Path, bytes] = {
        Path("applications") / DESKTOP_FILE: desktop_entry(command),
        Path("mime") / "packages" / f"{APP_ID}.xml": (SOURCE / f"{APP_ID}.xml").read_bytes(),
        Path("metainfo") / f"{APP_ID}.metainfo.xml": (
            SOURCE / f"{APP_ID}.metainfo.xml"
        ).read_bytes(),
    }
    icons = SOURCE / "icons"
    for icon in sorted(icons.rglob(f"{APP_ID}.*")):
        files[Path("icons") / icon.relative_to(icons)] = icon.read_bytes()
    return files
