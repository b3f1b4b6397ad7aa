"""``molforma convert INPUT -o OUTPUT [--format F] [--frame N]`` (no Qt).

Reads any readable file (format from INPUT's extension) and writes any writable
format (``--format``, else from OUTPUT's extension). A structure file gets a
default project around it, so it can become a project or an NWChem input. The
output is made in memory first and written atomically: a failure leaves no
output file and never a half-written one. Exit status: 0 done, 1 bad input or
failed conversion (the reason on stderr), 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from molforma.document.envelope import check_settings, check_structure, new_project
from molforma.errors import MolFormaError
from molforma.file_formats import READABLE, WRITABLE, names_text
from molforma.formats.registry import (
    Structure,
    apply_structure,
    check_format,
    format_from_path,
    read_file,
    write_file,
)


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors by exception instead of exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


class _UsageError(Exception):
    pass


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``molforma convert``."""
    p = _Parser(
        prog="molforma convert",
        description="Convert a structure, project or NWChem input file to another format.",
        epilog=f"readable: {names_text(READABLE)}; writable: {names_text(WRITABLE)}",
    )
    p.add_argument("input", help="file to read (format from its extension)")
    p.add_argument("-o", "--output", required=True, help="file to write")
    p.add_argument("--format", choices=WRITABLE, help="output format (default: from OUTPUT)")
    p.add_argument("--frame", type=int, help="frame of a multi-frame file (0-based)")
    return p


def convert(
    input_path: str, output_path: str, fmt: str | None = None, frame: int | None = None
) -> None:
    """Convert ``input_path`` to ``output_path``; raises MolFormaError on failure."""
    # Checked before reading, so a wrong output name fails fast.
    out_fmt = check_format(fmt or format_from_path(output_path), write=True)
    loaded = read_file(input_path, frame=frame)
    checked = ""
    if isinstance(loaded, Structure):
        # A structure written as a structure needs no settings: the settings models (and
        # pydantic) are left unloaded, and only the molecule is checked.
        with_settings = out_fmt in _PROJECT_FORMATS
        project = new_project() if with_settings else _bare_project()
        checked = apply_structure(project, loaded, owned=True).checked
        if not project["document"].get("title"):
            project["document"]["title"] = Path(input_path).name.split(".")[0]
    else:
        project, with_settings = loaded, True
    check_structure(project, checked=checked)
    if with_settings:
        check_settings(project)
    write_file(project, output_path, out_fmt)


# Formats that carry the calculation settings, not only the molecule.
_PROJECT_FORMATS = frozenset({"project", "nwchem"})


def _bare_project() -> dict[str, Any]:
    """The document block of a new project, for writing a structure format."""
    return {
        "document": {
            "title": "",
            "charge": 0,
            "multiplicity": 1,
            "atoms": [],
            "bonds": [],
            "nextAtomId": 1,
        }
    }


def main(argv: Sequence[str]) -> int:
    """Entry point used by ``molforma convert``; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv))
    except _UsageError as exc:
        sys.stderr.write(parser.format_usage())
        sys.stderr.write(f"molforma convert: error: {exc}\n")
        return 2
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    if Path(args.input).resolve() == Path(args.output).resolve():
        sys.stderr.write("molforma convert: error: INPUT and OUTPUT are the same file\n")
        return 2
    try:
        convert(args.input, args.output, args.format, args.frame)
    except MolFormaError as exc:
        sys.stderr.write(f"molforma convert: {exc.message()}\n")
        return 1
    return 0
