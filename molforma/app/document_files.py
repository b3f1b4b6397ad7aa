"""A document from and to files and texts: open, import, export, save (no Qt; application
layer).

:func:`open_file` is the one open of the window (a click, a drop, a window command of
MCP) and of the ``open_file`` tool.

A project file replaces everything (one undo step); a structure file replaces atoms
and bonds and keeps every setting. Loaded atoms are numbered as the document will
number them, so loading never renames them later.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from molforma.app.actor import Actor
from molforma.app.app_state import OneDocument
from molforma.document.document import Document
from molforma.document.envelope import Project
from molforma.errors import FileAccessError, FormatError, MolFormaError
from molforma.i18n import register
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma import fileio, formats
    from molforma.app.app_state import DocumentState
    from molforma.results import reader as results_reader
else:  # imported on first use (start-up time): molforma.lazy
    fileio = lazy_import("molforma.fileio")
    formats = lazy_import("molforma.formats")
    results_reader = lazy_import("molforma.results.reader")

register(
    {
        "not_a_file": {
            "en": "'{path}' is not a regular file.",
            "ja": "「{path}」は通常のファイルではありません。",
        },
        "open_file_folder": {
            "en": "'{path}' is a folder. open_file loads one structure or project file; to read "
            "calculation results from a folder use results_action with action "
            "open_directory.",
            "ja": "「{path}」はフォルダーです。open_file は構造ファイルかプロジェクトファイルを1つ"
            "読み込みます。フォルダーの計算結果を読むには results_action の open_directory "
            "を使ってください。",
        },
        "open_file_results": {
            "en": "'{path}' is a {kind} file: calculation results, not a structure file. Read it "
            "with results_action (action open_file) and get_results; to edit a structure "
            "from it, take one from get_results section structures (the last is the final "
            "geometry) and load it with import_document (format xyz).",
            "ja": "「{path}」は{kind}ファイル（計算結果）で、構造ファイルではありません。"
            "results_action（action open_file）と get_results で読んでください。その構造を"
            "編集するには、get_results の structures セクション（最後が最終構造）から取り出し、"
            "import_document（format xyz）で読み込んでください。",
        },
    }
)


Reader = Callable[[str], Any]  # path -> project dict, Structure, or None (the person cancelled)


@dataclass(frozen=True)
class Opened:
    """What :func:`open_file` did: ``kind`` is ``project``, ``structure`` or ``results``
    (the file belongs in the Results tab: nothing was loaded); ``edit`` is the edit
    summary of a load."""

    kind: Literal["project", "structure", "results"]
    path: str
    edit: dict[str, Any] | None = None
    # For results: "folder", "nwchem-output" or "molden" (molforma.results.reader).
    results_kind: str | None = None

    @property
    def source_name(self) -> str | None:
        """The file name a structure file gives the window title (a project has its own)."""
        return Path(self.path).name if self.kind == "structure" else None


def opens_as_results(path: str) -> bool:
    """Whether ``path`` belongs in the Results tab: a folder (a job folder), an NWChem
    output or a MOLDEN file, recognised by content."""
    return results_kind(path) is not None


def results_kind(path: str) -> str | None:
    """``folder``, ``nwchem-output`` or ``molden`` when ``path`` belongs in the Results
    tab (recognised by content), else None."""
    target = Path(path).expanduser()
    return "folder" if target.is_dir() else results_reader.result_file_kind(target)


def open_file(
    app: DocumentState,
    path: str,
    *,
    actor: Actor,
    preview: bool,
    expected_revision: str | None = None,
    format: str | None = None,
    frame: int | None = None,
    read: Reader | None = None,
) -> Opened | None:
    """Open ``path`` into ``app``'s document: the one open of the window and of MCP.

    A folder, an NWChem output or a MOLDEN file is not loaded: the answer says it
    belongs in Results (the window opens it there; the ``open_file`` tool refuses it
    with the way to read it). A project replaces everything and a structure file
    replaces atoms and bonds and keeps every setting, as a candidate (``preview``) or
    one undo step; loaded atoms get the document's next ids. Neither makes its
    protected values (executable, launcher, environment, extra input) trusted
    (docs/reference/safety.md, Trusted values). A load the window applies makes a project the document's file
    (a structure file is not); an MCP tool call never changes the window's file name.

    When MCP acts the path is checked against the allowed directories and the file is
    read through the policy, so the file read is the file judged even if a folder on its
    path is swapped for a link after the check. ``read`` replaces the plain reader (the
    window's asks for the frame or model; None from it means the person cancelled, and
    None is returned).

    Raises:
        FileAccessError: outside the allowed directories, or not a regular file (MCP).
        StaleRevisionError, CandidateExistsError, BusyError: before the file is read.
        MolFormaError: the file cannot be read or breaks a document rule (the document
            is unchanged).
    """
    policy = app.policy if actor.is_mcp else None
    target = path  # what is read: the checked path when MCP acts
    if policy is not None:
        checked = policy.check_path(path, must_exist=actor is Actor.MCP_TOOL)
        if checked.exists() and not checked.is_dir() and not checked.is_file():
            raise FileAccessError("not_a_file", path=path)
        target = str(checked)
    doc = app.document
    with fileio.guarded_files(policy.read_guard() if policy is not None else None):
        kind = results_kind(target)
        if kind is not None:
            return Opened("results", path, results_kind=kind)
        doc.check_revision(expected_revision, allow_candidate=False)  # before a large read
        loaded = read(target) if read is not None else _read(doc, target, format, frame)
    if loaded is None:
        return None
    label = f"Open {Path(path).name}"
    if isinstance(loaded, dict):
        edit = doc.load(
            loaded,
            label=label,
            expected_revision=expected_revision,
            preview=preview,
            origin=actor.origin,
        )
    else:
        # ``loaded`` was read for this edit alone: its atoms become the document's, uncopied
        edit = doc.edit(
            lambda work: formats.apply_structure(work, loaded, merge_advanced=True, owned=True),
            label=label,
            expected_revision=expected_revision,
            preview=preview,
            origin=actor.origin,
            trust=False,
            replaces_structure=True,
        )
    if not preview and actor is not Actor.MCP_TOOL:
        if isinstance(loaded, dict):
            doc.mark_saved(str(Path(path).resolve()))
        else:
            doc.path = None  # a structure file is not the project's own file
    return Opened("project" if isinstance(loaded, dict) else "structure", path, edit)


def _read(doc: Document, path: str, format: str | None, frame: int | None) -> Any:
    # numbered as the document will number them (a later edit makes loading rename them)
    return formats.read_file(str(path), format, frame=frame, first_id=doc.first_free_id())


def refuse_results(opened: Opened) -> None:
    """Refuse a results file or folder where a structure was asked for (the ``open_file``
    tool and :func:`molforma.app.ops.open_file`), saying how to read it instead.

    Raises:
        FileAccessError: ``open_file_folder`` for a folder.
        FormatError: ``open_file_results`` naming the kind of results file.
    """
    if opened.results_kind == "folder":
        raise FileAccessError("open_file_folder", path=opened.path)
    kind = {"nwchem-output": "NWChem output", "molden": "MOLDEN"}.get(
        opened.results_kind or "", "results"
    )
    raise FormatError("open_file_results", path=opened.path, kind=kind)


def _load_loaded(
    doc: Document,
    loaded: Any,
    label: str,
    expected_revision: str | None,
    preview: bool,
    actor: Actor,
) -> dict[str, Any]:
    if isinstance(loaded, dict):
        return doc.load(
            loaded,
            label=label,
            expected_revision=expected_revision,
            preview=preview,
            origin=actor.origin,
        )
    # ``loaded`` was read for this edit alone: its atoms become the document's, uncopied
    return doc.edit(
        lambda work: formats.apply_structure(work, loaded, merge_advanced=True, owned=True),
        label=label,
        expected_revision=expected_revision,
        preview=preview,
        origin=actor.origin,
        replaces_structure=True,
    )


def open_file_into(
    doc: Document,
    path: str,
    *,
    format: str | None = None,
    frame: int | None = None,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """:func:`open_file` on ``doc`` alone (no policy): the edit summary; a results file or
    a folder is refused as the tool refuses it. ``actor`` says who asks; its origin is
    recorded on the edit."""
    opened = open_file(
        OneDocument(doc),
        path,
        actor=actor,
        preview=preview,
        expected_revision=expected_revision,
        format=format,
        frame=frame,
    )
    assert opened is not None  # only a reader of the window's returns None
    if opened.edit is None:
        refuse_results(opened)
    assert opened.edit is not None
    return opened.edit


def import_document(
    doc: Document,
    text: str,
    format: str,
    *,
    frame: int | None = None,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Like :func:`open_file`, from a string in ``format``; ``actor`` says who asks, its
    origin is recorded on the edit."""
    loaded = formats.read_text(text, format, frame=frame, first_id=doc.first_free_id())
    return _load_loaded(doc, loaded, f"Import {format}", expected_revision, preview, actor)


def export_document(doc: Document, format: str, *, which: str = "project") -> str:
    """The confirmed project (or the candidate) as text in ``format``."""
    proj = doc.candidate if which == "candidate" and doc.candidate is not None else doc.project
    # Stored projects are never changed, so the text of one is the text while it is held:
    # paging through an export (export_document offset/nextOffset) writes it once.
    key = (id(proj), format.strip().lower())
    if key[1] not in _CACHED_FORMATS:  # an input file may depend on more than the project
        return formats.write_text(proj, format)
    with _EXPORTS_LOCK:
        hit = _EXPORTS.get(key)
        if hit is not None and hit[0] is proj:
            return hit[1]
    text = formats.write_text(proj, format)
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
    with doc.lock:
        if doc.candidate is not None:
            raise MolFormaError("save_with_candidate")
        text = (
            fileio.strict_json_dumps(doc.project, "The project", ensure_ascii=False, indent=1)
            + "\n"
        )
        rev = doc.revision
    fileio.atomic_write_text(path, text)
    if set_path:
        doc.mark_saved(str(path))
    return rev
