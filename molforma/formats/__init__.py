"""MolForma file formats (no Qt): read structure and project files, write exports.

See :mod:`molforma.formats.registry` for the public functions and what each
format keeps.
"""

from __future__ import annotations

from molforma.formats.registry import (
    EXTENSIONS,
    READABLE,
    WRITABLE,
    Structure,
    apply_structure,
    format_from_path,
    read_file,
    read_text,
    write_file,
    write_text,
)

__all__ = [
    "EXTENSIONS",
    "READABLE",
    "WRITABLE",
    "Structure",
    "apply_structure",
    "format_from_path",
    "read_file",
    "read_text",
    "write_file",
    "write_text",
]
