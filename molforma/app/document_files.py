"""A document from and to files and texts: open, import, export, save (no Qt; application
layer).

A project file replaces everything (one undo step); a structure file replaces atoms
and bonds and keeps every setting. Loaded atoms are numbered as the document will
number them, so loading never renames them later.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from molforma.document.document import Document, Origin
from molforma.document.model import Project
from molforma.errors import MolFormaError


def _load_loaded(doc: Document, loaded: Any, label: str, expected_revision: str | None,
                 preview: bool, origin: Origin) -> dict[str, Any]:
    if isinstance(loaded, dict):
        return doc.load(loaded, label=label, expected_revision=expected_revision,
                        preview=preview, origin=origin)
    from molforma.formats import apply_structure

    # ``loaded`` was read for this edit alone: its atoms become the document's, uncopied
    return doc.edit(lambda work: apply_structure(work, loaded, merge_advanced=True, owned=True),
                    label=label, expected_revision=expected_revision, preview=preview,
                    origin=origin, replaces_structure=True)


def open_file(doc: Document, path: str, *, format: str | None = None, frame: int | None = None,
              expected_revision: str | None = None, preview: bool = True,
              origin: Origin = "user") -> dict[str, Any]:
    """Load a project (whole, one undo step) or a structure file (atoms and bonds only)."""
    from molforma.formats import read_file

    doc.check_revision(expected_revision, allow_candidate=False)  # before reading a large file
    # numbered as the document will number them (a later edit makes loading rename them)
    loaded = read_file(str(path), format, frame=frame,
                       first_id=doc.first_free_id())
    out = _load_loaded(doc, loaded, f"Open {Path(path).name}", expected_revision, preview, origin)
    if isinstance(loaded, dict) and not preview and origin != "mcp":
        doc.mark_saved(str(path))
    return out


def import_document(doc: Document, text: str, format: str, *, frame: int | None = None,
                    expected_revision: str | None = None, preview: bool = True,
                    origin: Origin = "user") -> dict[str, Any]:
    """Like :func:`open_file`, from a string in ``format``."""
    from molforma.formats import read_text

    loaded = read_text(text, format, frame=frame,
                       first_id=doc.first_free_id())
    return _load_loaded(doc, loaded, f"Import {format}", expected_revision, preview, origin)


def export_document(doc: Document, format: str, *, which: str = "project") -> str:
    """The confirmed project (or the candidate) as text in ``format``."""
    from molforma.formats import write_text

    proj = doc.candidate if which == "candidate" and doc.candidate is not None else doc.project
    # Stored projects are never changed, so the text of one is the text while it is held:
    # paging through an export (export_document offset/nextOffset) writes it once.
    key = (id(proj), format.strip().lower())
    if key[1] not in _CACHED_FORMATS:  # an input file may depend on more than the project
        return write_text(proj, format)
    with _EXPORTS_LOCK:
        hit = _EXPORTS.get(key)
        if hit is not None and hit[0] is proj:
            return hit[1]
    text = write_text(proj, format)
    with _EXPORTS_LOCK:
        _EXPORTS[key] = (proj, text)  # the reference keeps the id from reuse
        while len(_EXPORTS) > _EXPORTS_KEPT:
            _EXPORTS.pop(next(iter(_EXPORTS)))
    return text


# Exported texts of the last few stored projects (see export_document).
_EXPORTS: dict[tuple[int, str], tuple[Project, str]] = {}
_EXPORTS_KEPT = 4
_CACHED_FORMATS = frozenset({"project", "xyz", "mol", "sdf", "pdb", "cml", "mol2"})
_EXPORTS_LOCK = threading.Lock()


def save_project(doc: Document, path: str, *, set_path: bool = False) -> str:
    """Write the confirmed project to ``path`` atomically; refused while a candidate exists."""
    from molforma.fileio import atomic_write_text, strict_json_dumps

    with doc.lock:
        if doc.candidate is not None:
            raise MolFormaError("save_with_candidate")
        text = strict_json_dumps(doc.project, "The project", ensure_ascii=False, indent=1) + "\n"
        rev = doc.revision
    atomic_write_text(path, text)
    if set_path:
        doc.mark_saved(str(path))
    return rev


