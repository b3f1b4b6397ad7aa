"""The 23 document and settings tools (both modes, synchronous; no Qt).

Each tool is one input model and one output model (:mod:`molforma.mcp.tools.
document_models`) and one handler here calling :mod:`molforma.app.ops` as MCP. Paths
pass the allowed-directory policy and protected settings the launch policy before the
document is touched, so a refused call changes nothing (docs/reference/document.md, Validation, docs/reference/safety.md and docs/reference/mcp.md, Errors).
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Any, TypedDict

from molforma.app.actor import Actor
from molforma.errors import (
    CandidateExistsError,
    FileAccessError,
    MolFormaError,
    StaleRevisionError,
    ValidationError,
)
from molforma.i18n import register
from molforma.lazy import lazy_import
from molforma.mcp import elicitation as E
from molforma.mcp import paging
from molforma.mcp.tasks import Background
from molforma.mcp.tool_registry import MAX_RESULT_CHARS, ToolContext, tool
from molforma.mcp.tools import document_pages
from molforma.mcp.tools.cleanup_runs import CLEANUP_WAIT_S, start_cleanup
from molforma.mcp.tools.cleanup_runs import RUNNING_CLEANUPS as _RUNNING_CLEANUPS
from molforma.mcp.tools.cleanup_runs import cleanup_workers as cleanup_workers
from molforma.mcp.tools.document_models import (
    AddAtomsInput,
    AddHydrogensInput,
    DeleteAtomsInput,
    DocumentInfo,
    EditSummary,
    ExportDocumentInput,
    ExportDocumentOutput,
    GetCatalogInput,
    GetCatalogOutput,
    GetDocumentInput,
    GetDocumentOutput,
    GetExecutionInput,
    GetExecutionOutput,
    HistoryInput,
    ImportDocumentInput,
    ListDocumentsInput,
    ListDocumentsOutput,
    MeasureInput,
    MeasureOutput,
    MoveAtomsInput,
    OpenFileInput,
    PlaceFragmentInput,
    SaveFileInput,
    SaveFileOutput,
    SetAdvancedInput,
    SetAtomPropertiesInput,
    SetBondsInput,
    SetExecutionInput,
    SetInternalCoordinateInput,
    SetMoleculeInput,
    SetNwchemInput,
    ValidateDocumentInput,
    ValidateDocumentOutput,
    _EditInput,
)
from molforma.mcp.tools.overwrite_question import ask_overwrite

if TYPE_CHECKING:
    from molforma import fileio
    from molforma.app import app_state, document_files, ops, qm_region
    from molforma.app import policy as app_policy
    from molforma.app import smiles as app_smiles
    from molforma.document import chemistry, elements, envelope
    from molforma.jobs import cluster, job_setup, remote
    from molforma.jobs import folders as job_folders
    from molforma.nwchem import settings as nwchem_settings
    from molforma.nwchem import value_grammar
else:  # imported on first use (start-up time): molforma.lazy
    app_policy = lazy_import("molforma.app.policy")
    app_smiles = lazy_import("molforma.app.smiles")
    app_state = lazy_import("molforma.app.app_state")
    chemistry = lazy_import("molforma.document.chemistry")
    cluster = lazy_import("molforma.jobs.cluster")
    document_files = lazy_import("molforma.app.document_files")
    elements = lazy_import("molforma.document.elements")
    envelope = lazy_import("molforma.document.envelope")
    fileio = lazy_import("molforma.fileio")
    job_folders = lazy_import("molforma.jobs.folders")
    job_setup = lazy_import("molforma.jobs.job_setup")
    nwchem_settings = lazy_import("molforma.nwchem.settings")
    ops = lazy_import("molforma.app.ops")
    qm_region = lazy_import("molforma.app.qm_region")
    remote = lazy_import("molforma.jobs.remote")
    value_grammar = lazy_import("molforma.nwchem.value_grammar")

register(
    {
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
        "delete_atoms_one_of": {
            "en": "Give delete_atoms either atomIds (atoms to delete) or keep (a QM region to "
            "keep), not both and not neither.",
            "ja": "delete_atoms には atomIds（削除する原子）か keep（残す QM 領域）のどちらか"
            "一方を指定してください。",
        },
        "not_a_file": {
            "en": "'{path}' is not a regular file.",
            "ja": "「{path}」は通常のファイルではありません。",
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
    }
)


def _summary(data: dict[str, Any]) -> EditSummary:
    """The edit summary of a document operation as the tools' output model."""
    return EditSummary.model_validate(data)


class EditArgs(TypedDict):
    """The keywords every edit of :mod:`molforma.app.ops` takes, as MCP gives them (typed, so
    mypy checks them against each operation's signature)."""

    expected_revision: str | None
    preview: bool
    actor: Actor


def _edit_args(args: _EditInput) -> EditArgs:
    mcp = Actor.MCP_TOOL
    return {"expected_revision": args.expectedRevision, "preview": args.preview, "actor": mcp}


def doc_info(doc: Any) -> dict[str, Any]:
    """The list_documents entry of one document."""
    with doc.lock:
        s = doc.stored_summary(doc.project) or {"formula": "", "atomCount": 0}
        out = {
            "documentId": doc.id,
            "title": doc.title,
            "path": doc.path,
            "revision": doc.revision,
            "formula": s["formula"],
            "atomCount": s["atomCount"],
            "hasCandidate": doc.candidate is not None,
        }
        if doc.busy:
            out["busy"] = doc.busy
        return out


@tool("list_documents", title="List documents", read_only=True, idempotent=True)
def list_documents(ctx: ToolContext, args: ListDocumentsInput) -> ListDocumentsOutput:
    """List the open documents: id, title, path, revision, formula, atom count, candidate."""
    docs = list(ctx.state.documents.values())
    return ListDocumentsOutput(documents=[DocumentInfo(**doc_info(d)) for d in docs])


@tool(
    "get_document",
    title="Get document",
    read_only=True,
    idempotent=True,
    max_result_chars=MAX_RESULT_CHARS,
)
def get_document(ctx: ToolContext, args: GetDocumentInput) -> GetDocumentOutput:
    """Read a document: revision, formula, atom count and the project and/or candidate JSON,
    paged over atoms for large structures (offset, limit, nextOffset) with links to the
    whole project."""
    doc = ctx.state.document(args.documentId)
    include = ("project", "candidate") if args.include is None else tuple(args.include)
    with doc.lock:
        info = doc_info(doc)
        out: dict[str, Any] = {
            k: info[k] for k in ("documentId", "revision", "formula", "atomCount", "hasCandidate")
        }
        if include:
            out.update(document_pages.envelope_pages(doc, include, args.offset, args.limit))
    return GetDocumentOutput.model_validate(out)


@tool("open_file", title="Open file")
def open_file(ctx: ToolContext, args: OpenFileInput) -> EditSummary:
    """Load a file into the document: a project replaces everything (one undo step); a
    structure file replaces atoms and bonds and keeps the settings."""
    doc = ctx.state.document(args.documentId)
    # The window's open too: the path is checked and the file read through the policy.
    opened = document_files.open_file(
        app_state.OneDocument(doc, ctx.state.policy),
        args.path,
        actor=Actor.MCP_TOOL,
        preview=args.preview,
        expected_revision=args.expectedRevision,
        format=args.format,
        frame=args.frame,
    )
    assert opened is not None  # only a reader of the window's returns None
    if opened.edit is None:
        # NWChem outputs, MOLDEN files and job folders are results: say where they open.
        document_files.refuse_results(opened)
    return _summary(opened.edit or {})


SMILES_FORMAT = "smiles"


@tool("import_document", title="Import document")
def import_document(ctx: ToolContext, args: ImportDocumentInput) -> EditSummary:
    """Load a project or structure from a string in the given format (like open_file), or
    build a 3D structure with hydrogens from SMILES (format smiles), as a candidate by
    default."""
    doc = ctx.state.document(args.documentId)
    if args.format.strip().lower() == SMILES_FORMAT:
        return _from_smiles(doc, args)
    return _summary(
        ops.import_document(doc, args.text, args.format, frame=args.frame, **_edit_args(args))
    )


def _from_smiles(doc: Any, args: ImportDocumentInput) -> EditSummary:
    """The window's SMILES route (molforma.app.smiles), for a tool call: RDKit embeds and a
    force field cleans up, then one edit replaces the atoms. Nothing changes on a refusal."""
    # Fail before the 3D work when the edit could not be made anyway.
    doc.check_revision(args.expectedRevision, allow_candidate=False)
    smiles, name = app_smiles.resolve_smiles(args.text)
    atoms, bonds = app_smiles.smiles_to_structure(smiles)
    out = app_smiles.replace_structure(
        doc,
        atoms,
        bonds,
        actor=Actor.MCP_TOOL,
        expected_revision=args.expectedRevision,
        preview=args.preview,
    )
    if name is not None:  # a name from the table: say which SMILES it stood for
        out["info"] = {**(out.get("info") or {}), "name": name, "smiles": smiles}
    return _summary(out)


@tool(
    "export_document",
    title="Export document",
    read_only=True,
    idempotent=True,
    max_result_chars=MAX_RESULT_CHARS,
)
def export_document(ctx: ToolContext, args: ExportDocumentInput) -> ExportDocumentOutput:
    """Return the confirmed project as text: project JSON, XYZ, MOL, SDF, PDB, NWChem input;
    a large text comes in pages (offset, limit, nextOffset) with links to the whole."""
    doc = ctx.state.document(args.documentId)
    with doc.lock:
        rev = doc.revision
        text = ops.export_document(doc, args.format, which=args.which)
        paged_candidate = args.which == "candidate" and doc.candidate is not None
    total = len(text)
    page = paging.text_page(text, args.offset, args.limit)
    end = min(total, args.offset + len(page))
    out: dict[str, Any] = {
        "documentId": doc.id,
        "revision": rev,
        "format": args.format,
        "text": page,
        "totalChars": total,
        "offset": args.offset,
        "nextOffset": end if end < total else None,
    }
    key = args.format.strip().lower()
    if len(page) < total and not paged_candidate and key in paging.DOCUMENT_VIEWS:
        out["links"] = paging.document_links(doc.id, [key])
    return ExportDocumentOutput.model_validate(out)


@tool("save_file", title="Save project file", destructive=True, idempotent=True)
def save_file(ctx: ToolContext, args: SaveFileInput) -> SaveFileOutput:
    """Save the confirmed project to an explicit path (refused while a candidate exists).
    Does not change the window's own file name or unsaved mark."""
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
        # The person said no to this file and nothing changed since (docs/reference/mcp.md, Elicitation).
        raise MolFormaError("overwrite_declined", path=args.path, standing=True)
    if exists and args.overwrite is None:
        ask_overwrite(ctx, doc.id, str(path), rev, args.path)
    with doc.lock:
        if doc.candidate is not None:
            raise CandidateExistsError()
        data = (
            fileio.strict_json_dumps(doc.project, "The project", ensure_ascii=False, indent=1)
            + "\n"
        ).encode("utf-8")
        written_rev = doc.revision
    # Written through the folder's judged descriptor: a folder swapped for a link after
    # the check above cannot take the project elsewhere (docs/reference/safety.md, Allowed directories).
    written = state.policy.write_atomic(args.path, data)
    return SaveFileOutput(
        documentId=doc.id,
        path=str(written),
        revision=written_rev,
        bytes=len(data),
        overwritten=exists,
    )


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
    return _summary(
        ops.history_step(
            doc, args.action, expected_revision=args.expectedRevision, actor=Actor.MCP_TOOL
        )
    )


@tool("add_atoms", title="Add atoms")
def add_atoms(ctx: ToolContext, args: AddAtomsInput) -> EditSummary:
    """Add atoms with element and position (and optional properties), and optional bonds to
    existing atoms or to each other ('#k')."""
    doc = ctx.state.document(args.documentId)
    atoms = [a.model_dump(exclude_none=True) for a in args.atoms]
    bonds = [b.model_dump() for b in args.bonds]
    # Check the new atoms under their '#k' names first: the ids the edit would give them
    # do not exist yet, so an error naming one of them would send the model looking for it.
    for k, atom in enumerate(atoms):
        x, y, z = atom["position"]
        # The edit normalises the spelling ('cl' -> 'Cl'); check what it will store.
        atom["element"] = elements.normalize_symbol(atom["element"]) or atom["element"]
        envelope.check_atom_fields(
            {
                **{key: v for key, v in atom.items() if key != "position"},
                "id": f"#{k}",
                "x": x,
                "y": y,
                "z": z,
            }
        )
    return _summary(ops.add_atoms(doc, atoms, bonds, **_edit_args(args)))


@tool("delete_atoms", title="Delete atoms", destructive=True)
def delete_atoms(ctx: ToolContext, args: DeleteAtomsInput) -> EditSummary:
    """Delete atoms by id, with their bonds; or keep only a QM region (keep)."""
    doc = ctx.state.document(args.documentId)
    if (args.atomIds is None) == (args.keep is None):
        raise ValidationError("delete_atoms_one_of")
    if args.keep is not None:
        k = args.keep
        region: dict[str, Any] = {
            "atom_ids": k.atomIds,
            "residue_names": k.residues,
            "residue_numbers": k.numbers,
            "chains": k.chains,
            "within": k.within,
            "whole_residues": k.wholeResidues,
            "fix_caps": k.fixCaps,
            "actor": Actor.MCP_TOOL,
        }
        if not k.newDocument:
            edit: dict[str, Any] = {
                "expected_revision": args.expectedRevision,
                "preview": args.preview,
            }
            return _summary(qm_region.extract_qm_region(doc, **region, **edit))
        doc.check_revision(args.expectedRevision, allow_candidate=True)
        new, out = qm_region.qm_region_document(doc, **region)
        ctx.state.add_document(new)
        out["info"]["documentId"] = new.id
        return _summary(out)
    return _summary(ops.delete_atoms(doc, args.atomIds or [], **_edit_args(args)))


@tool("move_atoms", title="Move atoms")
def move_atoms(
    ctx: ToolContext,
    args: MoveAtomsInput,
) -> EditSummary | Background[EditSummary]:
    """Move atoms: set positions, translate or rotate a set of atoms, or clean up the
    geometry with a force field (exactly one of positions, translate, rotate, cleanup; a
    clean-up's info holds the force field and its energies). Fixed atoms cannot move."""
    doc = ctx.state.document(args.documentId)
    if args.cleanup:
        if any(v is not None for v in (args.positions, args.translate, args.rotate)):
            raise ValidationError("cleanup_with_move")
        return start_cleanup(ctx, doc, args)
    rotate = args.rotate.model_dump() if args.rotate is not None else None
    return _summary(
        ops.move_atoms(
            doc,
            positions=args.positions,
            ids=args.atomIds,
            translate=args.translate,
            rotate=rotate,
            **_edit_args(args),
        )
    )


@tool("set_atom_properties", title="Set atom properties")
def set_atom_properties(ctx: ToolContext, args: SetAtomPropertiesInput) -> EditSummary:
    """Set element, formal charge, unpaired electrons, name, mass number, mass or fixed of
    atoms given by id."""
    doc = ctx.state.document(args.documentId)
    changes = [c.model_dump(exclude_unset=True) for c in args.atoms]
    return _summary(ops.set_atom_properties(doc, changes, **_edit_args(args)))


@tool("set_bonds", title="Set bonds")
def set_bonds(ctx: ToolContext, args: SetBondsInput) -> EditSummary:
    """Add, remove (order 0) or change the order of bonds between atoms given by id."""
    doc = ctx.state.document(args.documentId)
    bonds = [b.model_dump() for b in args.bonds]
    return _summary(ops.set_bonds(doc, bonds, **_edit_args(args)))


@tool("set_internal_coordinate", title="Set internal coordinate")
def set_internal_coordinate(ctx: ToolContext, args: SetInternalCoordinateInput) -> EditSummary:
    """Set a distance, angle or dihedral between atoms, moving the smaller fragment; info
    holds the coordinate with its old and new value."""
    doc = ctx.state.document(args.documentId)
    return _summary(ops.set_internal_coordinate(doc, args.atomIds, args.value, **_edit_args(args)))


@tool("add_hydrogens", title="Add hydrogens")
def add_hydrogens(ctx: ToolContext, args: AddHydrogensInput) -> EditSummary:
    """Fill open valences with hydrogen atoms (all atoms or the given ones); info holds the
    hydrogens added."""
    doc = ctx.state.document(args.documentId)
    # Without this check a saturated molecule gets an empty candidate (or an empty undo
    # step) that the model must then cancel before its next edit.
    doc.check_revision(args.expectedRevision, allow_candidate=False)
    project = doc.project
    present = {a["id"] for a in project["document"]["atoms"]}
    wanted = present if args.atomIds is None else set(args.atomIds)
    if wanted <= present:  # unknown ids: let the edit name them
        need = chemistry.missing_hydrogens(project)
        if project["document"]["atoms"] and not any(need.get(i, 0) > 0 for i in wanted):
            raise ValidationError("no_open_valences", count=len(wanted))
    return _summary(ops.add_hydrogens(doc, args.atomIds, **_edit_args(args)))


@tool("place_fragment", title="Place fragment")
def place_fragment(ctx: ToolContext, args: PlaceFragmentInput) -> EditSummary:
    """Put a library fragment or ligand on a free site of an atom; info holds the entry
    placed and where."""
    doc = ctx.state.document(args.documentId)
    return _summary(
        ops.place_fragment(doc, args.fragment, args.atomId, kind=args.kind, **_edit_args(args))
    )


@tool("set_molecule", title="Set molecule")
def set_molecule(ctx: ToolContext, args: SetMoleculeInput) -> EditSummary:
    """Set the molecule's title, charge and multiplicity."""
    doc = ctx.state.document(args.documentId)
    if args.title is not None:
        value_grammar.validate_title(args.title)  # a refused title changes nothing (bad_title)
    return _summary(
        ops.set_molecule(
            doc,
            title=args.title,
            charge=args.charge,
            multiplicity=args.multiplicity,
            **_edit_args(args),
        )
    )


@tool("set_nwchem", title="Set calculation conditions")
def set_nwchem(ctx: ToolContext, args: SetNwchemInput) -> EditSummary:
    """Change the calculation conditions (task, theory, functional, basis, reference,
    constraints, scan).
    An unknown functional is refused; info.warnings names an unknown basis's nearest
    library names. extra_input and extra_tasks are protected unless the server was started
    with --mcp-allow-execution-settings."""
    doc = ctx.state.document(args.documentId)
    values = {
        k: v
        for k, v in args.values.model_dump(exclude_unset=True).items()
        if v is not None or k in ("reference", "scan", "solvent", "dielectric")
    }
    app_policy.check_protected_change(
        doc.project.get("calculation", {}), values, "calculation", ctx.state.policy
    )
    # Each value by its own grammar before the document is touched (bad_basis_name,
    # bad_functional); the settings model checks the same on every other route.
    values = value_grammar.validate_calculation_values(values)
    return _summary(ops.set_nwchem(doc, values, allow_protected=True, **_edit_args(args)))


@tool("set_advanced", title="Set advanced settings")
def set_advanced(ctx: ToolContext, args: SetAdvancedInput) -> EditSummary:
    """Change advanced settings by key (memory, scratch directory, iterations, grid, ...).
    Absolute paths must lie in the allowed directories."""
    doc = ctx.state.document(args.documentId)
    try:
        root: str | None = str(
            job_setup.job_root(
                nwchem_settings.ExecutionSettings.model_validate(doc.project.get("execution", {}))
            )
        )
    except (ValueError, MolFormaError):
        root = None  # a broken execution block is reported by the edit or the start
    ctx.state.policy.check_advanced_paths(args.values, job_root=root)
    return _summary(ops.set_advanced(doc, args.values, **_edit_args(args)))


@tool("set_execution", title="Set execution settings", needs_interaction_when_exec_allowed=True)
def set_execution(ctx: ToolContext, args: SetExecutionInput) -> EditSummary:
    """Change execution settings. Executable, launcher and environment are protected unless
    started with --mcp-allow-execution-settings."""
    doc = ctx.state.document(args.documentId)
    values = args.values.model_dump(exclude_unset=True)
    values = {
        k: v
        for k, v in values.items()
        if v is not None
        or k in ("reference_dir", "time_limit", "partition", "account", "qos", "remote_profile")
    }
    app_policy.check_protected_change(
        doc.project.get("execution", {}), values, "execution", ctx.state.policy
    )
    # Values that reach the command line or the batch script, each by its own grammar,
    # before the document is touched (bad_slurm_name, bad_time_limit, ...).
    values = value_grammar.validate_execution_values(values)
    if values.get("remote_profile"):
        # Only a profile the person keeps in Preferences may be named (the error lists
        # them); MCP chooses one, it never makes or reads one.
        remote.find_profile(str(values["remote_profile"]))
    if "job_root" in values:
        # A relative job root says so (job_root_relative) before the allowed directories
        # would call it outside them.
        job_folders.check_job_root(values["job_root"])
    if values.get("job_root"):
        ctx.state.policy.check_path(values["job_root"], for_write=True)
    if values.get("reference_dir"):
        ctx.state.policy.check_path(values["reference_dir"])
    out = _summary(ops.set_execution(doc, values, allow_protected=True, **_edit_args(args)))
    if values.get("job_root"):
        _reattach_later(ctx, str(values["job_root"]))
    return out


def _reattach_later(ctx: ToolContext, root: str) -> None:
    """Follow batch jobs left running under a newly chosen job root (in the background)."""
    reattach = getattr(ctx.state, "reattach_batch_jobs", None)
    if reattach is not None:
        threading.Thread(target=reattach, args=(root,), name="batch-reattach", daemon=True).start()


@tool("get_execution", title="Get execution settings", read_only=True, idempotent=True)
def get_execution(ctx: ToolContext, args: GetExecutionInput) -> GetExecutionOutput:
    """Read the execution settings and the policy: allowed directories, whether execution
    settings may change, the trusted values."""
    doc = ctx.state.document(args.documentId)
    with doc.lock:
        execution = ops.get_execution(doc)
        out = GetExecutionOutput(
            documentId=doc.id,
            revision=doc.revision,
            execution=execution,
            trusted=doc.is_trusted,
            policy=ctx.state.policy.to_dict(doc.trusted),
        )
    out.cluster = _cluster(execution)
    return out


def _cluster(execution: dict[str, Any]) -> dict[str, Any] | None:
    """The cluster's partitions when SLURM is the scheduler (asked outside the lock: a
    controller that does not answer may take seconds)."""
    if execution.get("scheduler") != "slurm":
        return None
    if execution.get("remote_profile"):
        # The profile's cluster, asked over ssh (never the local SLURM).
        return remote.cluster_info(str(execution["remote_profile"]))
    return cluster.cluster_info()


@tool("validate_document", title="Validate document", read_only=True, idempotent=True)
def validate_document(ctx: ToolContext, args: ValidateDocumentInput) -> ValidateDocumentOutput:
    """Check the document before running: charge/multiplicity parity, close contacts,
    elements missing from the basis, unconnected fragments, a job root or path the start
    would refuse (relative or outside the allowed directories; the value to set). Per check
    a count and the first entries (check, offset, limit page on)."""
    doc = ctx.state.document(args.documentId)
    with doc.lock:
        out = dict(ops.validate_document(doc, ctx.state.policy))
        out.setdefault("revision", doc.revision)
    document_pages.page_checks(out, args.check, args.offset, args.limit)
    return ValidateDocumentOutput.model_validate(out)


@tool("measure", title="Measure", read_only=True, idempotent=True)
def measure(ctx: ToolContext, args: MeasureInput) -> MeasureOutput:
    """Measure distances (Angstrom), angles and dihedrals (degrees) between atoms by id."""
    doc = ctx.state.document(args.documentId)
    with doc.lock:
        out = dict(
            ops.measure(
                doc,
                distances=args.distances,
                angles=args.angles,
                dihedrals=args.dihedrals,
                which=args.which,
            )
        )
        out.setdefault("revision", doc.revision)
    document_pages.page_measurements(out, args.offset, args.limit)
    return MeasureOutput.model_validate(out)


@tool("get_catalog", title="Get catalog", read_only=True, idempotent=True)
def get_catalog(ctx: ToolContext, args: GetCatalogInput) -> GetCatalogOutput:
    """List fragments, ligands, basis sets, functionals, tasks, theories and advanced keys."""
    return GetCatalogOutput.model_validate(ops.get_catalog(args.kind))
