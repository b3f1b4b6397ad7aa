"""The 23 document and settings tools (both modes, synchronous; no Qt).

Each tool is one input model, one output model and one handler calling
``molforma.app.ops`` with ``origin="mcp"``. Paths pass the allowed-directory
policy and protected settings the launch policy before the document is touched, so
a refused call changes nothing (SPEC.md sections 2, 7, 9).
"""

from __future__ import annotations

import os
from typing import Any, Literal

from pydantic import BaseModel, Field

from molforma.errors import (
    CandidateExistsError,
    FileAccessError,
    MolFormaError,
    StaleRevisionError,
)
from molforma.file_formats import LABELS, READABLE, WRITABLE, names_text
from molforma.i18n import register
from molforma.mcp import elicitation as E
from molforma.mcp.registry import MAX_RESULT_CHARS, SparseOutput, ToolContext, ToolInput, tool
from molforma.mcp.tasks import Background

register({
    "file_exists": {
        "en": "'{path}' already exists. Call save_file again with overwrite: true to replace it.",
        "ja": "「{path}」は既に存在します。置き換えるには overwrite: true を付けて save_file を"
              "再実行してください。",
    },
    "overwrite_declined": {
        "en": "'{path}' was not overwritten: the person declined. The answer stands for this "
              "file until the document changes; overwrite: true does not go around it.",
        "ja": "「{path}」は上書きされませんでした（利用者が拒否しました）。この答えは文書が"
              "変わるまでこのファイルに有効で、overwrite: true でも上書きできません。",
    },
    "overwrite_unanswered": {
        "en": "'{path}' was not overwritten: the client gave no answer to the question "
              "(no reply within {minutes} minutes, an error, or the connection ended).",
        "ja": "「{path}」は上書きされませんでした（確認への回答がありませんでした: "
              "{minutes} 分以内に応答がない、エラー、または接続の終了）。",
    },
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
    "cleanup_with_move": {
        "en": "move_atoms cleanup cannot be combined with positions, translate or rotate: "
              "send it alone (atomIds may name the atoms to clean up).",
        "ja": "move_atoms の cleanup は positions・translate・rotate と同時に指定できません。"
              "単独で送ってください（atomIds で整形する原子を指定できます）。",
    },
    "no_open_valences": {
        "en": "Nothing to add: none of the {count} atom(s) checked has an open valence (all "
              "hydrogens are present). Nothing was changed.",
        "ja": "追加するものがありません。確認した {count} 個の原子に空いた結合手はありません"
              "（水素はすべて付いています）。何も変更していません。",
    },
})

Vec3 = tuple[float, float, float]
_DOC_ID = "Document id from list_documents."
_REV = ("Revision from the last answer about this document; the call fails and changes "
        "nothing when the document has changed since.")
_ELEMENT = ("Element symbol, e.g. 'C', 'Cl'. Letter case and surrounding spaces are "
            "normalised to the periodic-table spelling ('cl', 'CL' -> 'Cl'), as in structure "
            "files; anything that is not an element is refused.")
_PREVIEW = ("True (default): make a candidate, to be confirmed or cancelled with the history "
            "tool; false: check and apply directly as one undo step.")


class _Strict(ToolInput):
    pass


class _DocInput(_Strict):
    documentId: str = Field(description=_DOC_ID)


class _EditInput(_DocInput):
    expectedRevision: str = Field(description=_REV)
    preview: bool = Field(True, description=_PREVIEW)


class FormulaCount(SparseOutput):
    """Formula and atom count of a project."""

    formula: str = Field(description="Hill formula, e.g. 'H2O'.")
    atomCount: int = Field(description="Atoms, dummy atoms included.")


class EditSummary(SparseOutput):
    """The edit summary of SPEC.md section 2 (never the project itself)."""

    revision: str = Field(description="The document's revision after the call.")
    project: FormulaCount = Field(description="The confirmed project.")
    candidate: FormulaCount | None = Field(description="The candidate, or null.")
    addedIds: list[str] = Field(description="Atom ids added (at most 1,000).")
    removedIds: list[str] = Field(description="Atom ids removed (at most 1,000).")
    changedIds: list[str] = Field(description="Atom ids changed (at most 1,000).")
    idsTruncated: bool = Field(description="True when a list above was cut at 1,000.")
    # Each tool's description says what its info holds (one sentence here, not 16 copies).
    info: dict[str, Any] | None = Field(
        None, description="What this edit reports besides (the tool's description says); "
        "absent otherwise.")
    status: Literal["running"] | None = Field(
        None, description="running: a move_atoms cleanup still going (no edit yet).")


def _summary(data: dict[str, Any]) -> EditSummary:
    """The edit summary of a document operation as the tools' output model."""
    return EditSummary.model_validate(data)


def _edit_args(args: _EditInput) -> dict[str, Any]:
    return {"expected_revision": args.expectedRevision, "preview": args.preview, "origin": "mcp"}


def _ops() -> Any:
    import molforma.app.ops as ops

    return ops


def doc_info(doc: Any) -> dict[str, Any]:
    """The list_documents entry of one document."""
    with doc.lock:
        s = doc.stored_summary(doc.project) or {"formula": "", "atomCount": 0}
        out = {"documentId": doc.id, "title": doc.title, "path": doc.path,
               "revision": doc.revision, "formula": s["formula"], "atomCount": s["atomCount"],
               "hasCandidate": doc.candidate is not None}
        if doc.busy:
            out["busy"] = doc.busy
        return out


# ---------------------------------------------------------------------------------------------
class ListDocumentsInput(_Strict):
    """No arguments."""


class DocumentInfo(SparseOutput):
    """One open document."""

    documentId: str
    title: str
    path: str | None
    revision: str
    formula: str
    atomCount: int
    hasCandidate: bool
    busy: str | None = Field(None, description="Present while edits are refused because work "
                             "runs on the document, e.g. 'geometry clean-up'.")


class ListDocumentsOutput(BaseModel):
    """The documents of this process."""

    documents: list[DocumentInfo]


@tool("list_documents", title="List documents", read_only=True, idempotent=True)
def list_documents(ctx: ToolContext, args: ListDocumentsInput) -> ListDocumentsOutput:
    """List the open documents: id, title, path, revision, formula, atom count, candidate."""
    docs = list(ctx.state.documents.values())
    return ListDocumentsOutput(documents=[DocumentInfo(**doc_info(d)) for d in docs])


# ---------------------------------------------------------------------------------------------
class GetDocumentInput(_DocInput):
    include: list[Literal["project", "candidate"]] | None = Field(
        None, description="What to return besides the summary: ['project'], ['candidate'], "
        "both, or [] for revision, formula, atomCount and hasCandidate only. Default: both.")
    offset: int = Field(0, ge=0, description="First atom of the page (0-based position in "
                        "the atom list); pass the previous answer's nextOffset to read on.")
    limit: int | None = Field(None, ge=1, description="Atoms per page. Default: as many as "
                              "keep the answer under the 100,000-character size hint (a small "
                              "molecule comes whole). A page holds the bonds whose later atom "
                              "is on it, so every atom and bond comes exactly once.")


class ResourceLinkInfo(SparseOutput):
    """A resource holding content too big to inline (also a resource_link content item)."""

    uri: str = Field(description="Read it with resources/read.")
    name: str = Field(description="A name for the resource.")
    mimeType: str = Field(description="e.g. application/json, chemical/x-xyz, text/csv.")
    description: str | None = Field(None, description="What it holds (absent when none).")
    size: int | None = Field(None, description="Bytes, when known (absent otherwise).")


class GetDocumentOutput(SparseOutput):
    """Revision, summary and the requested project/candidate envelopes (one page of atoms)."""

    documentId: str = Field(description="The document.")
    revision: str = Field(description="Its revision.")
    formula: str = Field(description="Hill formula of the confirmed project.")
    atomCount: int = Field(description="Atoms of the confirmed project.")
    hasCandidate: bool = Field(description="A candidate waits to be confirmed or cancelled.")
    project: dict[str, Any] | None = Field(
        None, description="The confirmed project envelope; for a large structure one page of "
        "its atoms and bonds (see offset, nextOffset).")
    candidate: dict[str, Any] | None = Field(None, description="The candidate, or null "
                                             "(paged like project).")
    bondCount: int | None = Field(None, description="Bonds of the whole confirmed project.")
    candidateAtomCount: int | None = Field(None, description="Atoms of the whole candidate.")
    offset: int | None = Field(None, description="First atom of this page.")
    nextOffset: int | None = Field(None, description="offset of the next page; null when "
                                   "this page reaches the last atom.")
    complete: bool | None = Field(None, description="True when the envelopes returned are "
                                  "whole (every atom and bond).")
    links: list[ResourceLinkInfo] | None = Field(
        None, description="Resources holding the whole confirmed project (project JSON, XYZ, "
        "MOL, NWChem input) when it is paged; also sent as resource_link content items.")


@tool("get_document", title="Get document", read_only=True, idempotent=True,
      max_result_chars=MAX_RESULT_CHARS)
def get_document(ctx: ToolContext, args: GetDocumentInput) -> GetDocumentOutput:
    """Read a document: revision, formula, atom count and the project and/or candidate JSON,
    paged over atoms for large structures (offset, limit, nextOffset) with links to the
    whole project."""
    from molforma.mcp import paging

    doc = ctx.state.document(args.documentId)
    include = ("project", "candidate") if args.include is None else tuple(args.include)
    with doc.lock:
        info = doc_info(doc)
        out: dict[str, Any] = {k: info[k] for k in ("documentId", "revision", "formula",
                                                     "atomCount", "hasCandidate")}
        if not include:
            return GetDocumentOutput.model_validate(out)  # O(1): no atom is looked at
        wanted = {"project": doc.project if "project" in include else None,
                  "candidate": doc.candidate if "candidate" in include else None}
        # the JSON text copy escapes every quote of the page: keep a tenth in hand
        budget = paging.PAGE_CHARS * 9 // 10 // max(1, sum(v is not None
                                                           for v in wanted.values()))
        limit = args.limit
        nexts: list[int] = []
        whole = True
        for key in include:
            env = wanted[key]
            if env is None:
                out[key] = None
                continue
            page, nxt = paging.page_envelope(env, args.offset, limit, budget)
            out[key] = page
            if page.get("document") is not env.get("document"):
                whole = False
                # the candidate gets the same atom window as the project
                limit = limit or max(1, len(page["document"]["atoms"]))
            if nxt is not None:
                nexts.append(nxt)
        out["bondCount"] = len(doc.project["document"].get("bonds") or [])
        if doc.candidate is not None:
            out["candidateAtomCount"] = len(doc.candidate["document"].get("atoms") or [])
        out["offset"] = args.offset
        out["nextOffset"] = min(nexts) if nexts else None
        out["complete"] = whole
        if not whole:
            out["links"] = paging.document_links(doc.id)
    return GetDocumentOutput.model_validate(out)


# ---------------------------------------------------------------------------------------------
class OpenFileInput(_EditInput):
    path: str = Field(description=f"File to load: {', '.join(LABELS[n] for n in READABLE[:-1])} "
                      f"or {LABELS[READABLE[-1]]} ('~' expands to home).")
    format: str | None = Field(None, description=f"Format name ({names_text(READABLE)}); "
                               "default: from the extension.")
    frame: int | None = Field(None, ge=0, description="0-based frame of a multi-frame XYZ "
                              "(required for those).")


@tool("open_file", title="Open file")
def open_file(ctx: ToolContext, args: OpenFileInput) -> EditSummary:
    """Load a file into the document: a project replaces everything (one undo step); a
    structure file replaces atoms and bonds and keeps the settings."""
    from molforma.errors import FormatError
    from molforma.fileio import guarded_files

    doc = ctx.state.document(args.documentId)
    policy = ctx.state.policy
    path = policy.check_path(args.path, must_exist=True)
    if path.is_dir():
        raise FileAccessError("open_file_folder", path=args.path)
    if not path.is_file():
        raise FileAccessError("not_a_file", path=args.path)
    try:
        # The reader opens through the policy: the file read is the file judged, even
        # if a folder on the path is swapped for a link after the check above.
        with guarded_files(policy):
            return _summary(_ops().open_file(doc, str(path), format=args.format,
                                             frame=args.frame, **_edit_args(args)))
    except FormatError as exc:
        # NWChem outputs and MOLDEN files are results; say where they open instead of
        # only listing the structure formats.
        with guarded_files(policy):
            kind = _results_kind(path) if exc.data.get("kind") == "format_unknown" else None
        if kind is None:
            raise
        raise FormatError("open_file_results", path=args.path, kind=kind) from exc


def _results_kind(path: Any) -> str | None:
    from molforma.results.reader import result_file_kind

    return {"nwchem-output": "NWChem output", "molden": "MOLDEN"}.get(
        result_file_kind(path) or "")


class ImportDocumentInput(_EditInput):
    text: str = Field(description="File content as text; with format smiles a SMILES string "
                      "such as 'CCO' or a common name (water, DMSO, 水; info.smiles: the "
                      "SMILES used).")
    format: str = Field(description=f"Format of the text: {names_text(READABLE)}, or smiles "
                        "(a 3D structure with hydrogens, cleaned up by a force field, replacing "
                        "the atoms; settings stay; a SMILES RDKit cannot read is refused with "
                        "smiles_invalid).")
    frame: int | None = Field(None, ge=0, description="0-based frame of a multi-frame XYZ.")


SMILES_FORMAT = "smiles"


@tool("import_document", title="Import document")
def import_document(ctx: ToolContext, args: ImportDocumentInput) -> EditSummary:
    """Load a project or structure from a string in the given format (like open_file), or
    build a 3D structure with hydrogens from SMILES (format smiles), as a candidate by
    default."""
    doc = ctx.state.document(args.documentId)
    if args.format.strip().lower() == SMILES_FORMAT:
        return _from_smiles(doc, args)
    return _summary(_ops().import_document(doc, args.text, args.format, frame=args.frame,
                                           **_edit_args(args)))


def _from_smiles(doc: Any, args: ImportDocumentInput) -> EditSummary:
    """The window's SMILES route (molforma.app.smiles), for a tool call: RDKit embeds and a
    force field cleans up, then one edit replaces the atoms. Nothing changes on a refusal."""
    from molforma.app.actor import Actor
    from molforma.app.smiles import replace_structure, resolve_smiles, smiles_to_structure

    # Fail before the 3D work when the edit could not be made anyway.
    doc.check_revision(args.expectedRevision, allow_candidate=False)
    smiles, name = resolve_smiles(args.text)
    atoms, bonds = smiles_to_structure(smiles)
    out = replace_structure(doc, atoms, bonds, actor=Actor.MCP_TOOL,
                            expected_revision=args.expectedRevision, preview=args.preview)
    if name is not None:  # a name from the table: say which SMILES it stood for
        out["info"] = {**(out.get("info") or {}), "name": name, "smiles": smiles}
    return _summary(out)


# ---------------------------------------------------------------------------------------------
class ExportDocumentInput(_DocInput):
    format: str = Field(description=f"Format of the text: {names_text(WRITABLE)} "
                        "(nwchem: the NWChem input).")
    which: Literal["project", "candidate"] = Field(
        "project", description="Export the confirmed project (default) or the candidate.")
    offset: int = Field(0, ge=0, description="First character of the text to return; pass "
                        "the previous answer's nextOffset to read on.")
    limit: int | None = Field(None, ge=1, description="Characters to return. Default: the "
                              "whole text when the answer fits the 100,000-character size hint, "
                              "else as much as fits, with links to resources holding all of it.")


class ExportDocumentOutput(SparseOutput):
    """The exported text (one page of it for a large structure)."""

    documentId: str = Field(description="The document.")
    revision: str = Field(description="Its revision.")
    format: str = Field(description="The format asked for, as given.")
    text: str = Field(description="The text, or characters offset.. of it (see nextOffset).")
    totalChars: int | None = Field(None, description="Length of the whole text.")
    offset: int | None = Field(None, description="First character of this page.")
    nextOffset: int | None = Field(None, description="offset of the next page; null at the "
                                   "end of the text.")
    links: list[ResourceLinkInfo] | None = Field(
        None, description="Resources holding the whole export (confirmed project only); also "
        "sent as resource_link content items.")


@tool("export_document", title="Export document", read_only=True, idempotent=True,
      max_result_chars=MAX_RESULT_CHARS)
def export_document(ctx: ToolContext, args: ExportDocumentInput) -> ExportDocumentOutput:
    """Return the confirmed project as text: project JSON, XYZ, MOL, SDF, PDB, NWChem input;
    a large text comes in pages (offset, limit, nextOffset) with links to the whole."""
    from molforma.mcp import paging

    doc = ctx.state.document(args.documentId)
    with doc.lock:
        rev = doc.revision
        text = _ops().export_document(doc, args.format, which=args.which)
        paged_candidate = args.which == "candidate" and doc.candidate is not None
    total = len(text)
    page = paging.text_page(text, args.offset, args.limit)
    end = min(total, args.offset + len(page))
    out: dict[str, Any] = {"documentId": doc.id, "revision": rev, "format": args.format,
                           "text": page, "totalChars": total, "offset": args.offset,
                           "nextOffset": end if end < total else None}
    key = args.format.strip().lower()
    if len(page) < total and not paged_candidate and key in paging.DOCUMENT_VIEWS:
        out["links"] = paging.document_links(doc.id, [key])
    return ExportDocumentOutput.model_validate(out)


# ---------------------------------------------------------------------------------------------
class SaveFileInput(_DocInput):
    path: str = Field(description="Where to write the project (*.molforma.json).")
    overwrite: bool | None = Field(
        None, description="true replaces an existing file, false never does; omitted: the "
        "client is asked (form elicitation) when it declares it, and only an accept whose "
        "form holds the boolean overwrite: true replaces the file; else an existing file "
        "fails.")
    expectedRevision: str | None = Field(None, description=_REV)


class SaveFileOutput(BaseModel):
    """Where and which revision was written."""

    documentId: str
    path: str
    revision: str
    bytes: int
    overwritten: bool


@tool("save_file", title="Save project file", destructive=True, idempotent=True)
def save_file(ctx: ToolContext, args: SaveFileInput) -> SaveFileOutput:
    """Save the confirmed project to an explicit path (refused while a candidate exists).
    Does not change the window's own file name or unsaved mark."""
    from molforma.fileio import strict_json_dumps

    state = ctx.state
    doc = state.document(args.documentId)
    path = state.policy.check_path(args.path, for_write=True)
    with doc.lock:
        doc.check_revision(args.expectedRevision, allow_candidate=True)
        if doc.candidate is not None:
            raise CandidateExistsError()
        rev = doc.revision
    exists = os.path.lexists(path)
    if exists and path.is_dir():
        raise FileAccessError("not_a_file", path=args.path)
    if exists and args.overwrite is False:
        raise FileAccessError("file_exists", path=args.path)
    if exists and args.overwrite is True and E.DECLINES.stands(doc.id, str(path), rev):
        # The person said no to this file and nothing changed since (SPEC.md 9.2).
        raise MolFormaError("overwrite_declined", path=args.path, standing=True)
    if exists and args.overwrite is None:
        _ask_overwrite(ctx, doc.id, str(path), rev, args.path)
    with doc.lock:
        if doc.candidate is not None:
            raise CandidateExistsError()
        data = (strict_json_dumps(doc.project, "The project", ensure_ascii=False, indent=1)
                + "\n").encode("utf-8")
        written_rev = doc.revision
    # Written through the folder's judged descriptor: a folder swapped for a link after
    # the check above cannot take the project elsewhere (SPEC.md section 7).
    written = state.policy.write_atomic(args.path, data)
    return SaveFileOutput(documentId=doc.id, path=str(written), revision=written_rev,
                          bytes=len(data), overwritten=exists)


def _ask_overwrite(ctx: ToolContext, doc_id: str, path: str, rev: str, shown: str) -> None:
    """Return only when the person accepted; raise InputRequired or an error otherwise.

    2026-07-28: an ``input_required`` round trip. 2025-11-25 with elicitation declared
    in ``initialize``: an ``elicitation/create`` request, answered on the same
    connection while this call waits. A decline or cancel is remembered for the path
    until the document changes; asking the person again stays possible.
    """
    from molforma.mcp import client_requests

    req = ctx.request
    bound = E.save_state_payload(doc_id, path, rev)
    state_text = req.params.get("requestState")
    if state_text is not None and req.era == "modern":
        payload = ctx.state.signer.verify(state_text)  # forged or tampered: JSON-RPC error
        if E.state_is_current(payload, bound):
            answer = E.overwrite_answer(req.params.get("inputResponses"))
            _settle(answer, doc_id, path, rev, shown)
            if answer is not None:
                return
        # A genuine but stale state, or no answer: ask again (below).
    channel = client_requests.current() if req.era == "legacy" else None
    if channel is not None:
        question = E.overwrite_question(shown, ctx.lang)[E.OVERWRITE_KEY]["params"]
        result = client_requests.elicit_result(
            channel.ask(client_requests.ELICIT, question, origin=req.id))
        answer = E.overwrite_answer({E.OVERWRITE_KEY: result}) if result is not None else None
        if answer is None:
            raise MolFormaError("overwrite_unanswered", path=shown,
                                minutes=round(client_requests.ANSWER_TIMEOUT_S / 60))
        _settle(answer, doc_id, path, rev, shown)
        return
    if not req.declares_form_elicitation:
        if E.DECLINES.stands(doc_id, path, rev):
            raise MolFormaError("overwrite_declined", path=shown, standing=True)
        raise FileAccessError("file_exists", path=shown)
    raise E.InputRequired(E.overwrite_question(shown, ctx.lang), ctx.state.signer.sign(bound))


def _settle(answer: str | None, doc_id: str, path: str, rev: str, shown: str) -> None:
    """Act on the person's answer: an accept returns, a decline or cancel is refused."""
    if answer == "accept":
        E.DECLINES.clear(doc_id, path)
    elif answer in ("decline", "cancel"):
        E.DECLINES.record(doc_id, path, rev)
        raise MolFormaError("overwrite_declined", path=shown, action=answer)


# ---------------------------------------------------------------------------------------------
class HistoryInput(_DocInput):
    expectedRevision: str = Field(description=_REV)
    action: Literal["undo", "redo", "confirm", "cancel"] = Field(
        description="undo / redo a step, or confirm / cancel the candidate.")


@tool("history", title="Undo, redo, confirm or cancel")
def history(ctx: ToolContext, args: HistoryInput) -> EditSummary:
    """Undo or redo one step (shared with the window), or confirm or cancel the candidate;
    cancel also stops a move_atoms cleanup still running (nothing of it is kept)."""
    doc = ctx.state.document(args.documentId)
    child = _RUNNING_CLEANUPS.get(doc.id)
    if args.action == "cancel" and child is not None and not child.done:
        with doc.lock:
            if args.expectedRevision != doc.revision:
                raise StaleRevisionError(expected=args.expectedRevision, actual=doc.revision)
        child.cancel()
        child.wait(CLEANUP_WAIT_S)
        with doc.lock:
            return _summary(doc.summary())
    return _summary(_ops().history(doc, args.action, expected_revision=args.expectedRevision,
                                   origin="mcp"))


# ---------------------------------------------------------------------------------------------
class NewAtom(_Strict):
    element: str = Field(description=_ELEMENT)
    position: Vec3 = Field(description="[x, y, z] in Angstrom.")
    name: str | None = Field(None, description="Optional label (at most 16 characters).")
    formalCharge: int | None = Field(None, description="Formal charge, -99..20.")
    unpairedElectrons: int | None = Field(None, description="Unpaired electrons, 0..8.")
    massNumber: int | None = Field(None, description="Isotope mass number.")
    mass: float | None = Field(None, description="Arbitrary atomic mass.")
    fixed: bool | None = Field(None, description="Fixed atoms cannot move.")


class NewBond(_Strict):
    a: str = Field(description="Atom id, or '#k' for the k-th atom (0-based) of this call.")
    b: str = Field(description="Atom id, or '#k' for the k-th atom (0-based) of this call.")
    order: Literal[1, 2, 3] = Field(1, description="Bond order.")


class AddAtomsInput(_EditInput):
    atoms: list[NewAtom] = Field(min_length=1, description="Atoms to add.")
    bonds: list[NewBond] = Field(default_factory=list, description="Bonds to add.")


@tool("add_atoms", title="Add atoms")
def add_atoms(ctx: ToolContext, args: AddAtomsInput) -> EditSummary:
    """Add atoms with element and position (and optional properties), and optional bonds to
    existing atoms or to each other ('#k')."""
    from molforma.document.elements import normalize_symbol
    from molforma.document.model import check_atom_fields

    doc = ctx.state.document(args.documentId)
    atoms = [a.model_dump(exclude_none=True) for a in args.atoms]
    bonds = [b.model_dump() for b in args.bonds]
    # Check the new atoms under their '#k' names first: the ids the edit would give them
    # do not exist yet, so an error naming one of them would send the model looking for it.
    for k, atom in enumerate(atoms):
        x, y, z = atom["position"]
        # The edit normalises the spelling ('cl' -> 'Cl'); check what it will store.
        atom["element"] = normalize_symbol(atom["element"]) or atom["element"]
        check_atom_fields({**{key: v for key, v in atom.items() if key != "position"},
                           "id": f"#{k}", "x": x, "y": y, "z": z})
    return _summary(_ops().add_atoms(doc, atoms, bonds, **_edit_args(args)))


class DeleteAtomsInput(_EditInput):
    atomIds: list[str] = Field(min_length=1, description="Ids of the atoms to delete.")


@tool("delete_atoms", title="Delete atoms", destructive=True)
def delete_atoms(ctx: ToolContext, args: DeleteAtomsInput) -> EditSummary:
    """Delete atoms by id, with their bonds."""
    doc = ctx.state.document(args.documentId)
    return _summary(_ops().delete_atoms(doc, args.atomIds, **_edit_args(args)))


class Rotation(_Strict):
    axis: Vec3 = Field(description="Rotation axis [x, y, z].")
    angle: float = Field(description="Angle in degrees (right hand about the axis).")
    center: Vec3 | None = Field(None, description="Centre; default: centroid of the atoms.")


class MoveAtomsInput(_EditInput):
    positions: dict[str, Vec3] | None = Field(
        None, description="New positions {atomId: [x, y, z]} in Angstrom.")
    atomIds: list[str] | None = Field(
        None, description="Atoms to translate, rotate or clean up (default: all).")
    translate: Vec3 | None = Field(None, description="Displacement [dx, dy, dz] in Angstrom.")
    rotate: Rotation | None = Field(None, description="Rotation about an axis and a centre.")
    cleanup: bool | None = Field(
        None, description="true: clean up the geometry with a force field (MMFF94, else UFF), "
        "as the window's 'Clean up geometry': atomIds move (default all), fixed atoms stay; "
        "info gives the force field and its energy before and after (kcal/mol). A structure "
        "already clean is refused (cleanup_no_change), never a silent success. It runs in a "
        "child process: with the Tasks extension the call is a task (tasks/cancel stops it); "
        "otherwise the answer waits up to 10 s, then says status running and the document "
        "stays busy (list_documents) until the candidate appears or the clean-up failed; "
        "history cancel stops it.")


CLEANUP_WAIT_S = 10.0
# The clean-ups running now, by document id (history cancel stops one).
_RUNNING_CLEANUPS: dict[str, Any] = {}


@tool("move_atoms", title="Move atoms")
def move_atoms(ctx: ToolContext, args: MoveAtomsInput,
               ) -> EditSummary | Background[EditSummary]:
    """Move atoms: set positions, translate or rotate a set of atoms, or clean up the
    geometry with a force field (exactly one of positions, translate, rotate, cleanup; a
    clean-up's info holds the force field and its energies). Fixed atoms cannot move."""
    from molforma.errors import ValidationError

    doc = ctx.state.document(args.documentId)
    if args.cleanup:
        if any(v is not None for v in (args.positions, args.translate, args.rotate)):
            raise ValidationError("cleanup_with_move")
        return _cleanup(ctx, doc, args)
    rotate = args.rotate.model_dump() if args.rotate is not None else None
    return _summary(_ops().move_atoms(doc, positions=args.positions, ids=args.atomIds,
                                      translate=args.translate, rotate=rotate, **_edit_args(args)))


def cleanup_workers(doc_id: str | None = None) -> list[dict[str, Any]]:
    """The move_atoms clean-ups running now as get_app_state ``workers`` entries (kind
    cleanup, documentId, status, progress and, once iterating, iterations, maxIterations
    and energy in kcal/mol)."""
    out = []
    for did, child in list(_RUNNING_CLEANUPS.items()):
        if child.done or (doc_id is not None and did != doc_id):
            continue
        entry: dict[str, Any] = {"kind": "cleanup", "documentId": did, "status": "running",
                                 "progress": 0}
        if child.last_step is not None:
            done, maximum, energy = child.last_step
            entry.update(progress=int(100 * done / max(maximum, 1)), iterations=done,
                         maxIterations=maximum, energy=energy)
        out.append(entry)
    return out


def _wait_reporting(child: Any, lang: str) -> bool:
    """Wait up to CLEANUP_WAIT_S for the clean-up, sending its progress to the call's
    progressToken meanwhile (when it has one); True when it ended."""
    import time

    from molforma.mcp.tasks import current_progress

    reporter = current_progress()
    end = time.monotonic() + CLEANUP_WAIT_S
    while not child.wait(min(0.25, max(0.0, end - time.monotonic()))):
        if time.monotonic() >= end:
            return False
        if reporter is not None:
            reporter.report(child.progress_note(lang))
    if reporter is not None:
        reporter.report(child.progress_note(lang), final=True)
    return True


def _cleanup(ctx: ToolContext, doc: Any, args: MoveAtomsInput,
             ) -> EditSummary | Background[EditSummary]:
    """The force-field clean-up in the child process the window uses (it can be killed and
    never holds this process's GIL); its result becomes a move of the atoms that moved."""
    from molforma.document.cleanup import MOVE_TOLERANCE, CleanupChild
    from molforma.document.model import atoms_of, bonds_of
    from molforma.errors import UnknownAtomError

    with doc.lock:
        doc.check_revision(args.expectedRevision, allow_candidate=False)
        atoms, bonds = atoms_of(doc.project), bonds_of(doc.project)
        if not atoms:
            raise MolFormaError("cleanup_no_atoms")
        present = {a["id"] for a in atoms}
        for aid in args.atomIds or ():
            if aid not in present:
                raise UnknownAtomError(id=aid)
        moving = set(args.atomIds) if args.atomIds is not None else present
        request = [a if a["id"] in moving else {**a, "fixed": True} for a in atoms]
        rev = doc.revision
        doc.set_busy("geometry clean-up")
    outcome: dict[str, Any] = {}

    def applied(child: CleanupChild) -> None:
        """Apply what the child found (its reader thread): the edit or the reason not."""
        try:
            with doc.lock:
                doc.set_busy(None)
                if child.status != "completed":
                    outcome["error"] = child.error
                elif not child.positions:
                    outcome["error"] = MolFormaError(
                        "cleanup_no_change", forceField=child.report.get("forceField", ""),
                        tolerance=MOVE_TOLERANCE)
                else:
                    edit = _ops().move_atoms(doc, positions=child.positions,
                                             expected_revision=rev, preview=args.preview,
                                             origin="mcp")
                    edit["info"] = {"cleanup": {k: child.report[k] for k in (
                        "forceField", "energyBefore", "energyAfter", "iterations")
                        if k in child.report}}
                    outcome["edit"] = edit
        except MolFormaError as exc:
            outcome["error"] = exc
        finally:
            if _RUNNING_CLEANUPS.get(doc.id) is child:
                del _RUNNING_CLEANUPS[doc.id]

    try:
        child = CleanupChild(request, bonds, on_end=applied)
    except MolFormaError:
        doc.set_busy(None)
        raise
    _RUNNING_CLEANUPS[doc.id] = child

    def final() -> EditSummary:
        error = outcome.get("error")
        if error is not None:
            raise error
        return _summary(outcome["edit"])

    if not ctx.request.declares_tasks and _wait_reporting(child, ctx.lang):
        return final()
    with doc.lock:
        running = dict(doc.summary(added=[], removed=[], changed=[]))
    running["status"] = "running"
    running["info"] = {"cleanup": {"running": True}}
    lang = ctx.lang
    return Background(result=_summary(running), wait=child.wait, cancel=child.cancel,
                      final=final, progress=lambda: child.progress_note(lang))


class AtomChange(_Strict):
    id: str = Field(description="Atom id.")
    element: str | None = Field(None, description="New element. " + _ELEMENT)
    formalCharge: int | None = Field(None, description="Formal charge, -99..20.")
    unpairedElectrons: int | None = Field(None, description="Unpaired electrons, 0..8.")
    name: str | None = Field(None, description="Label (at most 16 characters).")
    massNumber: int | None = Field(None, description="Isotope mass number; null clears it.")
    mass: float | None = Field(None, description="Arbitrary mass; null clears it.")
    fixed: bool | None = Field(None, description="Fix or free the atom.")


class SetAtomPropertiesInput(_EditInput):
    atoms: list[AtomChange] = Field(min_length=1, description="Per-atom changes; only the "
                                    "given keys change.")


@tool("set_atom_properties", title="Set atom properties")
def set_atom_properties(ctx: ToolContext, args: SetAtomPropertiesInput) -> EditSummary:
    """Set element, formal charge, unpaired electrons, name, mass number, mass or fixed of
    atoms given by id."""
    doc = ctx.state.document(args.documentId)
    changes = [c.model_dump(exclude_unset=True) for c in args.atoms]
    return _summary(_ops().set_atom_properties(doc, changes, **_edit_args(args)))


class BondChange(_Strict):
    a: str = Field(description="First atom id.")
    b: str = Field(description="Second atom id.")
    order: Literal[0, 1, 2, 3] = Field(description="1-3 adds or changes the bond; 0 removes it.")


class SetBondsInput(_EditInput):
    bonds: list[BondChange] = Field(min_length=1, description="Bonds to add, change or remove.")


@tool("set_bonds", title="Set bonds")
def set_bonds(ctx: ToolContext, args: SetBondsInput) -> EditSummary:
    """Add, remove (order 0) or change the order of bonds between atoms given by id."""
    doc = ctx.state.document(args.documentId)
    bonds = [b.model_dump() for b in args.bonds]
    return _summary(_ops().set_bonds(doc, bonds, **_edit_args(args)))


class SetInternalCoordinateInput(_EditInput):
    atomIds: list[str] = Field(min_length=2, max_length=4, description="2 ids: distance, 3: "
                               "angle, 4: dihedral.")
    value: float = Field(description="Target distance in Angstrom or angle in degrees.")


@tool("set_internal_coordinate", title="Set internal coordinate")
def set_internal_coordinate(ctx: ToolContext, args: SetInternalCoordinateInput) -> EditSummary:
    """Set a distance, angle or dihedral between atoms, moving the smaller fragment; info
    holds the coordinate with its old and new value."""
    doc = ctx.state.document(args.documentId)
    return _summary(_ops().set_internal_coordinate(doc, args.atomIds, args.value,
                                                   **_edit_args(args)))


class AddHydrogensInput(_EditInput):
    atomIds: list[str] | None = Field(None, description="Atoms to fill (default: all).")


@tool("add_hydrogens", title="Add hydrogens")
def add_hydrogens(ctx: ToolContext, args: AddHydrogensInput) -> EditSummary:
    """Fill open valences with hydrogen atoms (all atoms or the given ones); info holds the
    hydrogens added."""
    from molforma.document.chemistry import missing_hydrogens
    from molforma.errors import ValidationError

    doc = ctx.state.document(args.documentId)
    # Without this check a saturated molecule gets an empty candidate (or an empty undo
    # step) that the model must then cancel before its next edit.
    doc.check_revision(args.expectedRevision, allow_candidate=False)
    project = doc.project
    present = {a["id"] for a in project["document"]["atoms"]}
    wanted = present if args.atomIds is None else set(args.atomIds)
    if wanted <= present:  # unknown ids: let the edit name them
        need = missing_hydrogens(project)
        if project["document"]["atoms"] and not any(need.get(i, 0) > 0 for i in wanted):
            raise ValidationError("no_open_valences", count=len(wanted))
    return _summary(_ops().add_hydrogens(doc, args.atomIds, **_edit_args(args)))


class PlaceFragmentInput(_EditInput):
    fragment: str = Field(description="Fragment or ligand name or alias from get_catalog, "
                          "e.g. 'methyl' or 'Me', 'CF3', 'OH', 'Ph', 'tBu', 'NH3'.")
    atomId: str = Field(description="Atom whose free site receives the fragment.")
    kind: Literal["fragment", "ligand"] | None = Field(
        None, description="Look the name up among fragments or ligands (default: both).")


@tool("place_fragment", title="Place fragment")
def place_fragment(ctx: ToolContext, args: PlaceFragmentInput) -> EditSummary:
    """Put a library fragment or ligand on a free site of an atom; info holds the entry
    placed and where."""
    doc = ctx.state.document(args.documentId)
    return _summary(_ops().place_fragment(doc, args.fragment, args.atomId, kind=args.kind,
                                          **_edit_args(args)))


class SetMoleculeInput(_EditInput):
    title: str | None = Field(None, description="Molecule title.")
    charge: int | None = Field(None, description="Total charge.")
    multiplicity: int | None = Field(None, ge=1, le=20, description="Spin multiplicity.")


@tool("set_molecule", title="Set molecule")
def set_molecule(ctx: ToolContext, args: SetMoleculeInput) -> EditSummary:
    """Set the molecule's title, charge and multiplicity."""
    from molforma.nwchem.value_grammar import validate_title

    doc = ctx.state.document(args.documentId)
    if args.title is not None:
        validate_title(args.title)  # a refused title changes nothing (bad_title)
    return _summary(_ops().set_molecule(doc, title=args.title, charge=args.charge,
                                        multiplicity=args.multiplicity, **_edit_args(args)))


# ---------------------------------------------------------------------------------------------
class CalculationValues(_Strict):
    task: Literal["energy", "optimize", "frequencies", "optimize+frequencies", "excited-states",
                  "transition-state"] | None = Field(
        None, description="What to compute.")
    theory: Literal["scf", "dft", "mp2"] | None = Field(None, description="Level of theory.")
    functional: str | None = Field(None, description="DFT functional: a get_catalog name "
                                   "(b3lyp, cam-b3lyp, ...) or an xc line of NWChem keywords.")
    basis: str | None = Field(None, description="Basis set, e.g. 6-31g*.")
    reference: Literal["rhf", "rohf", "uhf"] | None = Field(
        None, description="SCF reference; null chooses from the multiplicity.")
    extra_input: str | None = Field(None, description=(
        "Protected: text added to the input. Always refused, judged as NWChem reads it: "
        "task shell/python, python blocks, include, load, 'library ... file', lines over "
        "1,000 characters, lines ending in a backslash (error forbidden_extra_input)."))
    extra_tasks: list[str] | None = Field(None, description=(
        "Protected: extra task lines; the same refusals as extra_input."))
    constraints: list[dict[str, Any]] | None = Field(None, description=(
        "Held in optimisation: [{atoms: 2-4 ids, value: Å/°, null: current}]; [] clears."))
    excited_roots: int | None = Field(None, ge=1, le=200)
    excited_spin: Literal["singlets", "triplets", "both"] | None = None
    excited_method: Literal["tddft", "tda"] | None = Field(
        None, description="tda: Tamm-Dancoff (CIS with scf).")
    irc: bool | None = None
    solvent: str | None = Field(None, description="COSMO solvent (water, thf, ...); null: none.")
    dielectric: float | None = Field(None, description="Custom COSMO dielectric.")
    scan: dict[str, Any] | None = Field(None, description=(
        "Relaxed scan, task optimize: {atoms, start (null: current), end, steps <= 50}; "
        "null clears."))


class SetNwchemInput(_EditInput):
    values: CalculationValues = Field(description="Calculation conditions to change.")


@tool("set_nwchem", title="Set calculation conditions")
def set_nwchem(ctx: ToolContext, args: SetNwchemInput) -> EditSummary:
    """Change the calculation conditions (task, theory, functional, basis, reference,
    constraints, scan).
    An unknown functional is refused; info.warnings names an unknown basis's nearest
    library names. extra_input and extra_tasks are protected unless the server was started
    with --mcp-allow-execution-settings."""
    from molforma.jobs.policy import check_protected_change
    from molforma.nwchem.value_grammar import validate_calculation_values

    doc = ctx.state.document(args.documentId)
    values = {k: v for k, v in args.values.model_dump(exclude_unset=True).items()
              if v is not None or k in ("reference", "scan", "solvent", "dielectric")}
    check_protected_change(doc.project.get("calculation", {}), values, "calculation",
                           ctx.state.policy)
    # Each value by its own grammar before the document is touched (bad_basis_name,
    # bad_functional); the settings model checks the same on every other route.
    values = validate_calculation_values(values)
    return _summary(_ops().set_nwchem(doc, values, allow_protected=True, **_edit_args(args)))


class SetAdvancedInput(_EditInput):
    values: dict[str, Any] = Field(description="Advanced settings by key (see get_catalog "
                                   "advanced_keys); null restores NWChem's default. An absolute "
                                   "scratch_dir or permanent_dir must be an existing folder "
                                   "(work_dir_missing); a relative one is made in each job "
                                   "folder.")


@tool("set_advanced", title="Set advanced settings")
def set_advanced(ctx: ToolContext, args: SetAdvancedInput) -> EditSummary:
    """Change advanced settings by key (memory, scratch directory, iterations, grid, ...).
    Absolute paths must lie in the allowed directories."""
    from molforma.jobs.runner import job_root
    from molforma.nwchem.settings import ExecutionSettings

    doc = ctx.state.document(args.documentId)
    try:
        root: str | None = str(job_root(ExecutionSettings.model_validate(
            doc.project.get("execution", {}))))
    except (ValueError, MolFormaError):
        root = None  # a broken execution block is reported by the edit or the start
    ctx.state.policy.check_advanced_paths(args.values, job_root=root)
    return _summary(_ops().set_advanced(doc, args.values, **_edit_args(args)))


class ExecutionValues(_Strict):
    executable: str | None = Field(None, description="Protected: NWChem command.")
    launcher: str | None = Field(None, description="Protected: MPI launcher command.")
    processes: int | None = Field(None, ge=1, le=4096, description="MPI process count.")
    threads: int | None = Field(None, ge=1, le=1024, description="OMP_NUM_THREADS.")
    environment: dict[str, str] | None = Field(None, description="Protected: environment.")
    job_root: str | None = Field(None, description="Where job folders are made: a full path "
                                 "(~ allowed); a relative one is refused (job_root_relative).")
    reference_dir: str | None = Field(None, description="Extra folder scanned by History.")
    time_limit: float | None = Field(None, gt=0, description="Wall-time limit in seconds "
                                     "(a batch job's wall time; SLURM rounds up to minutes).")
    scheduler: Literal["local", "slurm"] | None = Field(
        None, description="Protected: local (run here) or slurm (submit to the cluster).")
    partition: str | None = Field(None, description="SLURM partition (null: the cluster's "
                                  "default); get_execution lists them under cluster.")
    account: str | None = Field(None, description="Protected: SLURM account.")
    qos: str | None = Field(None, description="SLURM quality of service (null: default).")
    nodes: int | None = Field(None, ge=1, le=4096, description="Nodes of a batch job.")
    tasksPerNode: int | None = Field(None, ge=1, le=4096,
                                     description="MPI processes per node of a batch job.")
    batch_directives: list[str] | None = Field(
        None, description="Protected: extra batch options, '--name=value' each.")
    remote_profile: str | None = Field(None, description="Cluster profile; null: none.")


class SetExecutionInput(_EditInput):
    values: ExecutionValues = Field(description="Execution settings to change.")


@tool("set_execution", title="Set execution settings", needs_interaction_when_exec_allowed=True)
def set_execution(ctx: ToolContext, args: SetExecutionInput) -> EditSummary:
    """Change execution settings. Executable, launcher and environment are protected unless
    started with --mcp-allow-execution-settings."""
    from molforma.jobs.policy import check_protected_change
    from molforma.nwchem.value_grammar import validate_execution_values

    doc = ctx.state.document(args.documentId)
    values = args.values.model_dump(exclude_unset=True)
    values = {k: v for k, v in values.items()
              if v is not None or k in ("reference_dir", "time_limit", "partition", "account",
                                        "qos", "remote_profile")}
    check_protected_change(doc.project.get("execution", {}), values, "execution",
                           ctx.state.policy)
    # Values that reach the command line or the batch script, each by its own grammar,
    # before the document is touched (bad_slurm_name, bad_time_limit, ...).
    values = validate_execution_values(values)
    if values.get("remote_profile"):
        from molforma.jobs.remote import find_profile

        # Only a profile the person keeps in Preferences may be named (the error lists
        # them); MCP chooses one, it never makes or reads one.
        find_profile(str(values["remote_profile"]))
    if "job_root" in values:
        from molforma.jobs.folders import check_job_root

        # A relative job root says so (job_root_relative) before the allowed directories
        # would call it outside them.
        check_job_root(values["job_root"])
    if values.get("job_root"):
        ctx.state.policy.check_path(values["job_root"], for_write=True)
    if values.get("reference_dir"):
        ctx.state.policy.check_path(values["reference_dir"])
    out = _summary(_ops().set_execution(doc, values, allow_protected=True, **_edit_args(args)))
    if values.get("job_root"):
        _reattach_later(ctx, str(values["job_root"]))
    return out


def _reattach_later(ctx: ToolContext, root: str) -> None:
    """Follow batch jobs left running under a newly chosen job root (in the background)."""
    import threading

    reattach = getattr(ctx.state, "reattach_batch_jobs", None)
    if reattach is not None:
        threading.Thread(target=reattach, args=(root,), name="batch-reattach",
                         daemon=True).start()


class GetExecutionInput(_DocInput):
    pass


class GetExecutionOutput(BaseModel):
    """Execution settings and the server's policy."""

    documentId: str
    revision: str
    execution: dict[str, Any]
    trusted: bool = Field(description="The document's protected values equal the trusted ones.")
    policy: dict[str, Any] = Field(description="allowedDirectories, executionSettingsAllowed, "
                                   "trusted values.")
    cluster: dict[str, Any] | None = Field(
        None, description="With scheduler slurm: reachable (else error and message), and the "
        "partitions sinfo lists (name, default, available, maxTime in s, nodes, cpus).")


@tool("get_execution", title="Get execution settings", read_only=True, idempotent=True)
def get_execution(ctx: ToolContext, args: GetExecutionInput) -> GetExecutionOutput:
    """Read the execution settings and the policy: allowed directories, whether execution
    settings may change, the trusted values."""
    doc = ctx.state.document(args.documentId)
    with doc.lock:
        execution = _ops().get_execution(doc)
        out = GetExecutionOutput(documentId=doc.id, revision=doc.revision,
                                 execution=execution, trusted=doc.is_trusted,
                                 policy=ctx.state.policy.to_dict(doc.trusted))
    out.cluster = _cluster(execution)
    return out


def _cluster(execution: dict[str, Any]) -> dict[str, Any] | None:
    """The cluster's partitions when SLURM is the scheduler (asked outside the lock: a
    controller that does not answer may take seconds)."""
    if execution.get("scheduler") != "slurm":
        return None
    if execution.get("remote_profile"):
        from molforma.jobs import remote

        # The profile's cluster, asked over ssh (never the local SLURM).
        return remote.cluster_info(str(execution["remote_profile"]))
    from molforma.jobs.cluster import cluster_info

    return cluster_info()


# ---------------------------------------------------------------------------------------------
class ValidateDocumentInput(_DocInput):
    check: str | None = Field(None, description="Page through the entries of this one check "
                              "code (e.g. 'close_contact'); default: every check.")
    offset: int = Field(0, ge=0, description="First entry of each check shown (of `check` "
                        "when given); pass the previous answer's nextOffset to read on.")
    limit: int | None = Field(None, ge=1, description="Entries shown per check. Default: 10; "
                              "counts gives how many each check has.")


class CheckEntry(SparseOutput):
    """One problem or remark found by validate_document."""

    code: str = Field(description="Stable check code, e.g. 'close_contact', "
                      "'multiplicity_parity', 'basis_missing_elements'.")
    severity: Literal["error", "warning", "info"] = Field(
        description="error: the run would fail or be wrong (ok is false); warning: likely a "
        "mistake; info: worth knowing.")
    message: str = Field(description="The check in the display language.")
    atoms: list[str] = Field(description="Atom ids concerned (at most 100).")


class ValidateDocumentOutput(SparseOutput):
    """Check results (problems and warnings) of the confirmed project: per check a count
    and the first entries."""

    ok: bool = Field(description="False when any check (of all, not only those shown) is an "
                     "error.")
    checks: list[CheckEntry] = Field(description="The entries shown: per check code those "
                                     "from offset on, at most limit of each.")
    revision: str = Field(description="Revision of the document checked.")
    counts: dict[str, int] = Field(description="Entries of each check code.")
    more: list[str] = Field(description="Check codes with entries not shown; read them with "
                            "check, offset and limit.")
    nextOffset: int | None = Field(None, description="Only with check: offset of its next "
                                   "entries; null when none are left.")


VALIDATE_DEFAULT_LIMIT = 10


@tool("validate_document", title="Validate document", read_only=True, idempotent=True)
def validate_document(ctx: ToolContext, args: ValidateDocumentInput) -> ValidateDocumentOutput:
    """Check the document before running: charge/multiplicity parity, close contacts,
    elements missing from the basis, unconnected fragments, and a job root or path setting
    the start would refuse (relative, or outside the allowed directories, with the value to
    set). Gives per check a count and the
    first entries (check, offset, limit page through the rest)."""
    doc = ctx.state.document(args.documentId)
    with doc.lock:
        out = dict(_ops().validate_document(doc, ctx.state.policy))
        out.setdefault("revision", doc.revision)
    checks = list(out.get("checks") or [])
    counts: dict[str, int] = {}
    for c in checks:
        counts[c["code"]] = counts.get(c["code"], 0) + 1
    limit = args.limit or VALIDATE_DEFAULT_LIMIT
    seen: dict[str, int] = {}
    shown = []
    for c in checks:
        code = c["code"]
        k = seen.get(code, 0)
        seen[code] = k + 1
        if (args.check is None or code == args.check) and args.offset <= k < args.offset + limit:
            shown.append(c)
    out["checks"] = shown
    out["counts"] = counts
    out["more"] = [code for code, n in counts.items()
                   if (args.check is None or code == args.check) and n > args.offset + limit]
    if args.check is not None:
        n = counts.get(args.check, 0)
        out["nextOffset"] = args.offset + limit if n > args.offset + limit else None
    return ValidateDocumentOutput.model_validate(out)


class MeasureInput(_DocInput):
    distances: list[tuple[str, str]] = Field(default_factory=list,
                                             description="Pairs of atom ids.")
    angles: list[tuple[str, str, str]] = Field(default_factory=list,
                                               description="Triples of atom ids (degrees).")
    dihedrals: list[tuple[str, str, str, str]] = Field(
        default_factory=list, description="Quadruples of atom ids (degrees).")
    which: Literal["project", "candidate"] = Field(
        "project", description="Measure the confirmed project or the candidate.")
    offset: int = Field(0, ge=0, description="First measurement returned, counting distances, "
                        "then angles, then dihedrals; pass nextOffset to read on.")
    limit: int | None = Field(None, ge=1, description="Measurements returned. Default: 300, "
                              "which keeps the answer under the 100,000-character size hint.")


class Measurement(SparseOutput):
    """One measured value."""

    ids: list[str] = Field(description="The atom ids as asked (2, 3 or 4).")
    value: float = Field(description="Distance in Angstrom, angle or dihedral (-180..180) in "
                         "degrees, rounded to 6 decimals.")
    unit: Literal["angstrom", "degree"] = Field(description="Unit of value.")


class MeasureOutput(SparseOutput):
    """Measured values: one page of the distances, then angles, then dihedrals asked for."""

    distances: list[Measurement] = Field(description="Distances of this page.")
    angles: list[Measurement] = Field(description="Angles of this page.")
    dihedrals: list[Measurement] = Field(description="Dihedrals of this page.")
    revision: str = Field(description="Revision of the document measured.")
    total: int = Field(description="Measurements asked for.")
    nextOffset: int | None = Field(description="offset of the measurements not returned "
                                   "yet; null when all are here.")


MEASURE_DEFAULT_LIMIT = 300


@tool("measure", title="Measure", read_only=True, idempotent=True)
def measure(ctx: ToolContext, args: MeasureInput) -> MeasureOutput:
    """Measure distances (Angstrom), angles and dihedrals (degrees) between atoms by id."""
    doc = ctx.state.document(args.documentId)
    with doc.lock:
        out = dict(_ops().measure(doc, distances=args.distances, angles=args.angles,
                                  dihedrals=args.dihedrals, which=args.which))
        out.setdefault("revision", doc.revision)
    kinds = ("distances", "angles", "dihedrals")
    total = sum(len(out.get(k) or []) for k in kinds)
    start, stop = args.offset, args.offset + (args.limit or MEASURE_DEFAULT_LIMIT)
    seen = 0
    for k in kinds:
        values = list(out.get(k) or [])
        out[k] = values[max(0, start - seen):max(0, stop - seen)]
        seen += len(values)
    out["total"] = total
    out["nextOffset"] = stop if stop < total else None
    return MeasureOutput.model_validate(out)


class GetCatalogInput(_Strict):
    kind: Literal["fragments", "ligands", "basis_sets", "functionals", "tasks", "theories",
                  "advanced_keys"] | None = Field(None, description="One catalogue (default: all).")


_LABEL = "Display names by language code ('en', 'ja')."
_ALIASES = "Other names accepted for it (place_fragment takes these too)."


class FragmentEntry(SparseOutput):
    """A substituent place_fragment can attach (kind fragment)."""

    name: str = Field(description="Name to pass to place_fragment, e.g. 'methyl'.")
    label: dict[str, str] = Field(description=_LABEL)
    smiles: str = Field(description="SMILES with [*] at the attachment point.")
    formula: str = Field(description="Formula of the group.")
    attachmentElement: str = Field(description="Element bonded to the site.")
    aliases: list[str] = Field(description=_ALIASES)


class LigandEntry(SparseOutput):
    """A ligand place_fragment can coordinate to a metal (kind ligand)."""

    name: str = Field(description="Name to pass to place_fragment, e.g. 'NH3'.")
    label: dict[str, str] = Field(description=_LABEL)
    smiles: str = Field(description="SMILES of the free ligand.")
    aliases: list[str] = Field(description=_ALIASES)
    formula: str = Field(description="Formula of the ligand.")
    charge: int = Field(description="Formal charge of the ligand.")
    donorElement: str = Field(description="Element that binds the metal.")


class BasisSetEntry(SparseOutput):
    """A basis set of the catalogue (set_nwchem basis)."""

    name: str = Field(description="Name to pass as basis, e.g. '6-31g*'.")
    label: dict[str, str] = Field(description=_LABEL)
    family: str = Field(description="e.g. pople, dunning, karlsruhe.")
    elements: list[str] = Field(description="Elements it covers.")
    spherical: bool = Field(description="Spherical (pure) functions by definition.")
    ecp: str | None = Field(None, description="The effective core potential it goes with "
                            "(absent when none).")
    ecpElements: list[str] | None = Field(None, description="Elements that get the ECP "
                                          "(absent when no ECP).")


class FunctionalEntry(SparseOutput):
    """A DFT functional of the catalogue (set_nwchem functional)."""

    name: str = Field(description="Name to pass as functional, e.g. 'b3lyp'.")
    xc: str = Field(description="What NWChem's xc directive gets.")
    lines: list[str] | None = Field(None, description="Other dft lines it needs (cam, disp).")
    kind: str = Field(description="e.g. lda, gga, hybrid, meta-gga, range-separated.")
    label: dict[str, str] = Field(description=_LABEL)
    aliases: list[str] | None = Field(None, description="Other names accepted for it.")
    nwchem: str | None = Field(None, description="First NWChem release that knows it.")


class TaskEntry(SparseOutput):
    """A calculation task (set_nwchem task)."""

    name: str = Field(description="Name to pass as task, e.g. 'optimize+frequencies'.")
    label: dict[str, str] = Field(description=_LABEL)
    operations: list[str] = Field(description="NWChem task operations run in order.")


class TheoryEntry(SparseOutput):
    """A level of theory (set_nwchem theory)."""

    name: str = Field(description="Name to pass as theory, e.g. 'dft'.")
    label: dict[str, str] = Field(description=_LABEL)


class AdvancedKeyEntry(SparseOutput):
    """An advanced setting (set_advanced values)."""

    key: str = Field(description="Key in set_advanced values, e.g. 'memory_mb'.")
    label: dict[str, str] = Field(description=_LABEL)
    type: Literal["integer", "number", "string", "boolean", "choice"] = Field(
        description="Type of its value.")
    nullable: bool = Field(description="null is accepted (it means automatic/unset).")
    default: bool | int | float | str | None = Field(description="Value when not set.")
    min: int | float | None = Field(None, description="Smallest value (absent: none).")
    max: int | float | None = Field(None, description="Largest value (absent: none).")
    exclusiveMin: int | float | None = Field(None, description="Values must be above this "
                                             "(absent: no such bound).")
    choices: list[str] | None = Field(None, description="The values of a choice (absent "
                                      "for other types).")
    path: bool = Field(description="The value is a path (checked against the allowed "
                       "directories).")
    description: dict[str, str] = Field(description="What it does, by language code.")


class GetCatalogOutput(SparseOutput):
    """Catalogue entries by kind: the kind asked for, or all seven."""

    fragments: list[FragmentEntry] | None = Field(None, description="Substituents.")
    ligands: list[LigandEntry] | None = Field(None, description="Ligands.")
    basis_sets: list[BasisSetEntry] | None = Field(None, description="Basis sets.")
    functionals: list[FunctionalEntry] | None = Field(None, description="DFT functionals.")
    tasks: list[TaskEntry] | None = Field(None, description="Calculation tasks.")
    theories: list[TheoryEntry] | None = Field(None, description="Levels of theory.")
    advanced_keys: list[AdvancedKeyEntry] | None = Field(None, description="Advanced "
                                                         "settings.")


@tool("get_catalog", title="Get catalog", read_only=True, idempotent=True)
def get_catalog(ctx: ToolContext, args: GetCatalogInput) -> GetCatalogOutput:
    """List fragments, ligands, basis sets, functionals, tasks, theories and advanced keys."""
    return GetCatalogOutput.model_validate(_ops().get_catalog(args.kind))
