"""The format registry: which formats MolForma reads and writes, by name and extension (no Qt).

Readers and writers are pure functions of text; paths are handled here only
(bounded reads through :func:`molforma.fileio.read_text_limited`, atomic writes
through :func:`molforma.fileio.atomic_write_text`). A structure file gives a
:class:`Structure`; a project file gives the whole project ``dict``.

Which formats MolForma reads and writes, by which extensions, with which reader and
writer, and what each keeps: the one table in :mod:`molforma.file_formats`.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from molforma.document.document import EditResult, first_ids
from molforma.document.envelope import Project, first_free_id, new_atom, project_from_json
from molforma.document.tabletypes import is_atom_table
from molforma.errors import FileAccessError
from molforma.file_formats import BY_NAME, EXTENSIONS, READABLE, WRITABLE, names_text
from molforma.fileio import READ_LIMIT, atomic_write_text, read_text_limited
from molforma.formats.common import Structure, fail, format_error
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (start-up time): molforma.lazy
    np = lazy_import("numpy")

__all__ = [
    "EXTENSIONS",
    "READABLE",
    "WRITABLE",
    "Structure",
    "apply_structure",
    "check_format",
    "format_from_path",
    "read_file",
    "read_text",
    "write_file",
    "write_text",
]

# Calculation keys a .nw file may set; the protected extra input never comes from a file.
_CALCULATION_KEYS = ("task", "theory", "functional", "basis", "reference")
_STANDARD_KEYS = frozenset(new_atom("a1", "H", 0, 0, 0))


@cache
def _function(ref: str) -> Callable[..., Any]:
    """The reader or writer ``module:function`` of the format table, imported on first use."""
    module, _, name = ref.partition(":")
    if "." not in module:
        module = f"molforma.formats.{module}"
    return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


def _single(s: Structure, fmt: str, frame: int | None) -> Structure:
    """A one-structure format accepts ``frame`` 0 (or None) only."""
    if frame not in (None, 0):
        fail(
            "format_frame_range",
            fmt,
            None,
            reason=f"frame {frame} of 1",
            frame=frame,
            count=1,
            last=0,
        )
    return s


def check_format(fmt: str, *, write: bool = False) -> str:
    """``fmt`` normalised (lower case) when MolForma can read it (or write it).

    Raises:
        FormatError: ``format_not_readable`` / ``format_not_writable``.
    """
    key = str(fmt).strip().lower()
    allowed = WRITABLE if write else READABLE
    if key not in allowed:
        kind = "format_not_writable" if write else "format_not_readable"
        fail(
            kind,
            str(fmt),
            None,
            reason=f"unsupported format {fmt!r}",
            readable=names_text(READABLE),
            writable=names_text(WRITABLE),
        )
    return key


def format_from_path(path: str | os.PathLike[str]) -> str:
    """The format of ``path`` from its extension (case-insensitive).

    Raises:
        FormatError: ``format_error`` of kind ``format_unknown``.
    """
    name = Path(path).name.lower()
    for ext in sorted(EXTENSIONS, key=len, reverse=True):
        if name.endswith(ext) and len(name) > len(ext):
            return EXTENSIONS[ext]
    raise format_error(
        "format_unknown",
        "?",
        None,
        reason=f"unknown extension of {Path(path).name}",
        path=str(path),
        readable=names_text(READABLE),
        writable=names_text(WRITABLE),
    )


def read_project(text: str, source: str) -> Project:
    """The project in a ``.molforma.json`` text (the format table's project reader)."""
    from molforma.fileio import strict_json_loads

    try:
        # Strict: NaN/Infinity are not JSON, and a project holding them would be
        # written back as text no other JSON reader takes.
        data = strict_json_loads(text.lstrip("\ufeff"))
    except json.JSONDecodeError as exc:
        fail("format_syntax", "project", exc.lineno, reason=f"not valid JSON: {exc.msg}")
    except ValueError as exc:
        fail("format_syntax", "project", None, reason=f"not valid JSON: {exc}")
    except RecursionError:
        fail("format_syntax", "project", None, reason="not valid JSON: nested too deeply")
    return project_from_json(data, source=source)


def read_text(
    text: str,
    fmt: str,
    *,
    frame: int | None = None,
    source: str = "<string>",
    first_id: int = 1,
) -> Structure | Project:
    """Read ``text`` in format ``fmt``: a Structure, or a whole project dict for ``project``.

    ``frame`` (0-based) picks a frame of a multi-frame XYZ (required there when it has
    several), a record of an SDF, a molecule of a Mol2/CML file or a model of a PDB
    file (the first when None). ``first_id``: the number of the first new atom id the
    document will give (``Document.first_free_id``); readers of large formats number their
    atoms from it, so loading need not rename them.

    Raises:
        FormatError: unknown format, a broken file (the line is named), a bad frame.
        FileAccessError: ``file_too_large`` for more than 8 MiB of text.
        ValidationError: a project file that breaks a document rule.
    """
    key = check_format(fmt)
    size = len(text.encode("utf-8", errors="replace"))
    if size > READ_LIMIT:
        raise FileAccessError("file_too_large", path=source, size=size, limit=READ_LIMIT)
    return _parse(text, key, frame, source, first_id)


# Formats whose reader numbers new atoms from ``first_id`` (the large-file formats).
_NUMBERING = frozenset({"xyz", "mol", "pdb"})


def _parse(
    text: str, key: str, frame: int | None, source: str, first_id: int = 1
) -> Structure | Project:
    fmt = BY_NAME[key]
    read = _function(fmt.reader)
    if key == "project":
        return read(text, source)  # type: ignore[no-any-return]
    numbering = {"first_id": first_id} if key in _NUMBERING and first_id != 1 else {}
    if fmt.frames:
        return read(text, frame, **numbering)  # type: ignore[no-any-return]
    return _single(read(text, **numbering), key, frame)


def read_file(
    path: str | os.PathLike[str],
    fmt: str | None = None,
    *,
    frame: int | None = None,
    first_id: int = 1,
) -> Structure | Project:
    """Read the file at ``path`` (at most 8 MiB); ``fmt`` defaults to its extension;
    ``first_id`` as for :func:`read_text`.

    Raises:
        FileAccessError: missing or unreadable file, or ``file_too_large`` (8 MiB).
        FormatError: as :func:`read_text`.
    """
    key = check_format(fmt) if fmt else format_from_path(path)
    text = read_text_limited(path)  # checks the 8 MiB limit on the bytes already
    loaded = _parse(text, key, frame, str(path), first_id)
    if isinstance(loaded, Structure) and not loaded.title:
        # A file that names no molecule is still named by its file: the previous
        # molecule's title must not stay on a different molecule.
        loaded.title = Path(path).name.split(".", 1)[0] or None
    return loaded


def write_text(project: Mapping[str, Any], fmt: str) -> str:
    """The project as text in ``fmt`` (one of WRITABLE).

    Raises:
        FormatError: ``format_error`` of kind ``format_not_writable``.
        ValidationError: ``nwchem`` for settings the input generator refuses.
    """
    key = check_format(fmt, write=True)
    writer = BY_NAME[key].writer
    assert writer is not None  # check_format accepts writable formats only
    return _function(writer)(project)  # type: ignore[no-any-return]


def write_project(project: Mapping[str, Any]) -> str:
    """The project as ``.molforma.json`` text (the format table's project writer)."""
    from molforma.fileio import strict_json_dumps

    return strict_json_dumps(project, "The project", ensure_ascii=False, indent=1) + "\n"


def write_file(
    project: Mapping[str, Any], path: str | os.PathLike[str], fmt: str | None = None
) -> None:
    """Write the project to ``path`` in ``fmt`` (default: by extension), atomically.

    The text is made first, so a failing conversion leaves no file; the file is
    written to a temporary name and renamed, so it is never half-written.
    """
    key = check_format(fmt or format_from_path(path), write=True)
    atomic_write_text(path, write_text(project, key))


def apply_structure(
    work: Project, s: Structure, *, merge_advanced: bool = False, owned: bool = False
) -> EditResult:
    """Replace the atoms and bonds of the project copy ``work`` with those of ``s``.

    Atoms get new ids from ``nextAtomId`` in file order (ids are never reused in a
    document), ``nextAtomId`` moves past them, bonds follow. Title, charge and
    multiplicity are set when the file gives them; an XYZ file, which gives no
    charge, gets its bond orders perceived again with the project's charge. The
    calculation keys a ``.nw`` file gives (task, theory, functional, basis,
    reference) are merged. Advanced settings, extra input, execution settings and
    unknown fields are kept, as docs/reference/files.md, What a load replaces says for ``.nw`` files;
    ``merge_advanced`` also merges the advanced keys read from the file.

    ``owned``: the caller read ``s`` for this edit alone and drops it afterwards, so its
    atom and bond dicts become the project's (renumbered in place) instead of being
    copied; a 10,000-atom file is then not copied once more on its way in.
    """
    doc = work["document"]
    checked: Literal["", "atoms", "all"] = s.info.get("checked", "")
    if is_atom_table(s.atoms):  # a large structure read into columns
        old = first_ids(doc.get("atoms", []))
        return _finish(work, s, *_renumbered(s, first_free_id(doc)), old, merge_advanced, checked)
    old_ids = [a["id"] for a in doc.get("atoms", [])]
    if s.info.get("perceived") and s.charge is None and int(doc.get("charge", 0) or 0):
        # Bond orders perceived as neutral are wrong for an ion: redo them with its charge.
        from molforma.formats.rdkit_bridge import perceive_bonds

        s = replace(s, atoms=[dict(a) for a in s.atoms])
        s.bonds = perceive_bonds(s.atoms, int(doc["charge"]))
        checked = ""
    start = first_free_id(doc, old_ids)
    if owned and checked:
        # The reader made every atom from new_atom's template: rename in place, no copies.
        atoms = s.atoms
        if s.info.get("first_id") == start:
            # The reader numbered its atoms a<start>, a<start + 1>, ...: the document's ids.
            return _finish(work, s, atoms, s.bonds, start, old_ids, merge_advanced, checked)
        new_ids = [f"a{k}" for k in range(start, start + len(atoms))]
        if start == 1 and [a["id"] for a in atoms] == new_ids:
            # Into an empty document: the reader's ids a1, a2, ... are the document's.
            return _finish(work, s, atoms, s.bonds, start, old_ids, merge_advanced, checked)
        mapping = dict(zip([a["id"] for a in atoms], new_ids, strict=True))
        for a, new_id in zip(atoms, new_ids, strict=True):
            a["id"] = new_id
        bonds = s.bonds
        for b in bonds:
            b["a"] = mapping[b["a"]]
            b["b"] = mapping[b["b"]]
        return _finish(work, s, atoms, bonds, start, old_ids, merge_advanced, checked)
    mapping = {}
    atoms = []
    for k, a in enumerate(s.atoms):
        new_id = f"a{start + k}"
        mapping[a["id"]] = new_id
        if a.keys() >= _STANDARD_KEYS:  # readers make atoms with new_atom: keep its key order
            atom = a if owned else dict(a)
            atom["id"] = new_id
        else:
            atom = new_atom(new_id, a["element"], a["x"], a["y"], a["z"])
            atom.update({key: value for key, value in a.items() if key != "id"})
        atoms.append(atom)
    if owned:
        bonds = s.bonds
        for b in bonds:
            b["a"] = mapping[b["a"]]
            b["b"] = mapping[b["b"]]
    else:
        bonds = [{**b, "a": mapping[b["a"]], "b": mapping[b["b"]]} for b in s.bonds]
    return _finish(work, s, atoms, bonds, start, old_ids, merge_advanced, checked)


def _renumbered(s: Structure, start: int) -> tuple[Any, Any, int]:
    """Atoms and bonds of a column structure with the ids a<start>.. (the tables
    themselves when the reader numbered them so), and ``start``."""
    from molforma.document.molecule import BondTable

    atoms: Any = s.atoms
    bonds: Any = s.bonds
    if (len(atoms) and int(atoms.ids[0]) != start) or not np.array_equal(
        atoms.ids, np.arange(start, start + len(atoms))
    ):
        new_ids = np.arange(start, start + len(atoms), dtype=np.int64)
        ra, rb = bonds.rows_in(atoms)
        bonds = BondTable(new_ids[ra], new_ids[rb], bonds.order, bonds.extra)
        atoms = atoms.with_ids(new_ids)
    return atoms, bonds, start


def _finish(
    work: Project,
    s: Structure,
    atoms: Any,
    bonds: Any,
    start: int,
    old_ids: list[str],
    merge_advanced: bool,
    checked: Literal["", "atoms", "all"],
) -> EditResult:
    """The second half of :func:`apply_structure`: the molecule's values and settings."""
    doc = work["document"]
    doc["atoms"] = atoms
    doc["bonds"] = bonds
    doc["nextAtomId"] = start + len(atoms)
    # A structure replaces the molecule, so it never keeps the old molecule's title.
    doc["title"] = s.title if s.title is not None else ""
    # An SDF record's data fields belong to that molecule: a new structure drops the old.
    if s.info.get("sdData"):
        doc["sdData"] = dict(s.info["sdData"])
    else:
        doc.pop("sdData", None)
    if s.charge is not None:
        doc["charge"] = int(s.charge)
    if s.multiplicity is not None:
        doc["multiplicity"] = int(s.multiplicity)
    if s.calculation:
        calc = dict(work.get("calculation") or {})
        calc.update({k: v for k, v in s.calculation.items() if k in _CALCULATION_KEYS})
        if "reference" not in s.calculation and s.calculation.get("theory"):
            calc["reference"] = None  # the file chose none: automatic from the multiplicity
        work["calculation"] = calc
    if merge_advanced and s.advanced:
        work["advanced"] = {**dict(work.get("advanced") or {}), **s.advanced}
    # The reader's checks hold for the renumbered copy: ids a<start>.. are new and distinct.
    # The summary lists at most 100 ids: a million-atom open spells only those.
    info = {"warnings": s.info["warnings"]} if s.info.get("warnings") else {}
    return EditResult(added=first_ids(atoms), removed=old_ids, checked=checked, info=info)
