"""The ``results_action`` and ``get_results`` tools (no Qt).

Results are loaded in the background by the document's ``ResultsSession``; a failed
or cancelled load keeps the previous results. Loads never change the edited document
(docs/reference/results.md); ``use_structure`` is the one action that does, as the Results
tab's "Use this structure" does, through the same application function. The
play/stop/show actions belong to the window and fail headless.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from molforma.app.actor import Actor
from molforma.errors import FileAccessError, ResultsError
from molforma.file_formats import mime_of
from molforma.i18n import register
from molforma.jobs import TERMINAL
from molforma.lazy import lazy_import
from molforma.mcp.tasks import Background
from molforma.mcp.tool_registry import MAX_RESULT_CHARS, SparseOutput, ToolContext, ToolInput, tool
from molforma.mcp.tools.document_models import _REV, EditSummary, ResourceLinkInfo
from molforma.results import get_section
from molforma.results.results_model import (
    AtomCharge,
    EnergyPoint,
    Excitation,
    FileEntry,
    Mode,
    Orbital,
    ResultsKind,
    Structure,
    Summary,
)

if TYPE_CHECKING:
    from molforma.app import ops
    from molforma.app.policy import Policy
    from molforma.mcp import paging, window_commands
    from molforma.results.results_model import Results
else:  # imported on first use (start-up time): molforma.lazy
    paging = lazy_import("molforma.mcp.paging")
    window_commands = lazy_import("molforma.mcp.window_commands")
    ops = lazy_import("molforma.app.ops")

register(
    {
        "window_only_action": {
            "en": "'{action}' needs the window (start MolForma with --mcp-gui).",
            "ja": "「{action}」にはウィンドウが必要です（--mcp-gui で起動してください）。",
        },
        "path_required": {
            "en": "'{action}' needs a path.",
            "ja": "「{action}」には path が必要です。",
        },
        "results_none_loaded": {
            "en": "No results are loaded for this document; use results_action open_file or "
            "open_directory first.",
            "ja": "この文書には結果が読み込まれていません。先に results_action の open_file か "
            "open_directory を使ってください。",
        },
        "results_not_opened_yet": {
            "en": "No results are loaded for this document yet: its calculation ended "
            "({status}) without results that could be read. Its job folder is {path}; "
            "look at it with results_action (action open_directory, path {path}) and call "
            "get_results again.",
            "ja": "この文書にはまだ結果が読み込まれていません。計算は終了しました（{status}）"
            "が、読める結果がありませんでした。ジョブフォルダーは {path} です。"
            "results_action（action open_directory、path {path}）で開いてから get_results "
            "を呼んでください。",
        },
    }
)

WINDOW_ACTIONS = frozenset({"play_mode", "stop", "show_structure"})


class ResultsActionInput(ToolInput):
    documentId: str = Field(description="Id from list_documents.")
    expectedRevision: str = Field(description=_REV)
    action: Literal[
        "open_file",
        "open_directory",
        "reload",
        "play_mode",
        "stop",
        "show_structure",
        "use_structure",
    ] = Field(
        description="open_file / open_directory / reload load results in the background; "
        "play_mode (index: mode, amplitude), stop and show_structure (index: structure) act on "
        "the window's Results tab (--mcp-gui) and answer once done; use_structure makes a "
        "structure of the loaded results (index; default the shown one, else the last: an "
        "optimisation's final geometry) the document's geometry, its edit summary under edit; "
        "atoms keep their ids when count and elements match."
    )
    path: str | None = Field(
        None, description="File (output.out, MOLDEN, XYZ) or folder to open; not used by reload."
    )
    index: int | None = Field(
        None,
        ge=0,
        description="Mode or structure index (0-based): play_mode, show_structure, use_structure.",
    )
    amplitude: float | None = Field(None, gt=0, description="Window only: play amplitude.")
    preview: bool = Field(
        True,
        description="use_structure: true (default) makes a candidate "
        "(history confirm/cancel); false applies it as one undo step.",
    )


class ResultsActionOutput(BaseModel):
    """The load started (and, when it ended, its outcome and the results state)."""

    model_config = ConfigDict(extra="forbid")

    documentId: str = Field(description="The document the results belong to.")
    action: str = Field(description="The action asked for.")
    status: str = Field(description="running, completed, failed or cancelled.")
    path: str = Field(
        description="The file or folder being loaded (window actions: the "
        "loaded results' source, or '' when none are loaded)."
    )
    error: dict[str, Any] | None = Field(
        None, description="Why the load failed (error object: code, message, details)."
    )
    app: dict[str, Any] | None = Field(
        None,
        description="When the load ended: {results: the get_app_state results state "
        "of this document}.",
    )
    command: dict[str, Any] | None = Field(
        None, description="Window actions: the window command record (as get_ui_command)."
    )
    edit: EditSummary | None = Field(
        None,
        description="use_structure: the edit summary (revision, candidate, ids; info "
        "names the structure taken).",
    )


@tool("results_action", title="Results action")
def results_action(
    ctx: ToolContext,
    args: ResultsActionInput,
) -> ResultsActionOutput | Background[ResultsActionOutput]:
    """Open a result file or folder, or reload the current one, in the background (the
    edited document never changes); follow it with the task or get_app_state. use_structure
    puts a structure of the loaded results (default the final one) into the document as a
    candidate, so export_document after an optimisation gives its final geometry."""
    state = ctx.state
    doc = state.document(args.documentId)
    with doc.lock:
        doc.check_revision(args.expectedRevision, allow_candidate=True)
    if args.action in WINDOW_ACTIONS or (args.action == "use_structure" and ctx.bridge is not None):
        return _window_action(ctx, doc.id, args)
    if args.action == "use_structure":
        return _use_structure(ctx, doc, args)
    sess = state.results(doc.id)
    if args.action == "reload":
        cur = sess.current
        if cur is not None:
            _checked_source(state.policy, cur.source)
        handle = sess.reload(guard=state.policy.read_guard())
    else:
        if not args.path:
            raise ResultsError("path_required", action=args.action)
        path = _checked_source(state.policy, args.path)
        if args.action == "open_directory" and not path.is_dir():
            raise FileAccessError("path_not_directory", path=args.path, parent=str(path))
        guard = state.policy.read_guard()
        handle = (
            sess.open_file(str(path), guard=guard)
            if args.action == "open_file"
            else sess.open_directory(str(path), guard=guard)
        )
    state.last_load[doc.id] = handle
    doc_id = doc.id

    def out(app: dict[str, Any] | None = None) -> ResultsActionOutput:
        return ResultsActionOutput(
            documentId=doc_id,
            action=args.action,
            status=handle.status,
            path=handle.path,
            error=handle.error,
            app=app,
        )

    def final() -> ResultsActionOutput:
        return out({"results": sess.state()})

    return Background(result=out(), wait=handle.wait, cancel=handle.cancel, final=final)


def _use_structure(
    ctx: ToolContext,
    doc: Any,
    args: ResultsActionInput,
) -> ResultsActionOutput:
    """Headless use_structure: the loaded results' structure into the document (the same
    application function as the window's "Use this structure")."""
    cur = _loaded_results(ctx, doc.id)
    edit = ops.use_results_structure(
        doc,
        cur,
        args.index,
        expected_revision=args.expectedRevision,
        preview=args.preview,
        actor=Actor.MCP_TOOL,
    )
    return ResultsActionOutput(
        documentId=doc.id,
        action=args.action,
        status="completed",
        path=cur.source,
        edit=EditSummary.model_validate(edit),
    )


WINDOW_ACTION_TIMEOUT_S = 15.0


def _window_action(
    ctx: ToolContext,
    doc_id: str,
    args: ResultsActionInput,
) -> ResultsActionOutput:
    """play_mode / stop / show_structure on the window's Results tab (waits for the window)."""
    bridge = ctx.bridge
    if bridge is None:
        raise ResultsError("window_only_action", action=args.action)
    edits = args.action == "use_structure"
    rec = bridge.submit(
        window_commands.WindowCommand(
            tool="results_action",
            document_id=doc_id,
            expected_revision=args.expectedRevision,
            input=args,
            edits_document=edits,
            allow_candidate=not edits,
        )
    )
    bridge.commands.wait(rec, WINDOW_ACTION_TIMEOUT_S)
    if rec.error is not None:
        raise rec.error
    sess = ctx.state.results_if_any(doc_id)
    cur = sess.current if sess is not None else None
    edit = rec.result.get("edit") if edits else None
    return ResultsActionOutput(
        documentId=doc_id,
        action=args.action,
        status="completed",
        path=cur.source if cur is not None else "",
        command=rec.to_dict(ctx.lang),
        edit=EditSummary.model_validate(edit) if edit else None,
    )


def _checked_source(policy: Policy, source: str) -> Path:
    """Check a results source; an animation group key ("stem.m-001.s-*.xyz") by its folder."""
    p = Path(source)
    if "*" in p.name:
        folder: Path = policy.check_path(str(p.parent), must_exist=True)
        return folder / p.name
    return policy.check_path(source, must_exist=True)


class GetResultsInput(ToolInput):
    documentId: str = Field(description="Id from list_documents.")
    section: Literal[
        "summary",
        "energies",
        "structures",
        "modes",
        "mode_displacements",
        "files",
        "log",
        "excitations",
        "orbitals",
        "charges",
        "scan",
    ] = Field(
        "summary",
        description="Which part to read. excitations: TDDFT/CIS roots (eV, nm, "
        "oscillator strength, symmetry, spin); orbitals: energies and occupations per spin; "
        "charges: Mulliken charges per atom index; scan: relaxed scan points.",
    )
    offset: int = Field(0, ge=0, description="First item (log: character) of the page.")
    limit: int | None = Field(
        None,
        ge=1,
        description="Page size (log: at most 65,536 characters); default: about 40 KiB of items.",
    )
    mode: int | None = Field(None, ge=0, description="Mode index for mode_displacements.")


_LINKS = (
    "Resources beside the answer (also resource_link items): an item too big to "
    "inline (structure XYZ, any item JSON), the spectrum CSV (modes), the mode XYZ with "
    "displacements; absent if none."
)


class OmittedItem(SparseOutput):
    """An item too big to inline: its plain (non-list, non-object) fields and where it is."""

    model_config = ConfigDict(extra="allow")
    # The item's own scalar fields (index, label, energy, ...) stay beside these.
    __pydantic_extra__: dict[str, str | int | float | bool | None]

    omitted: Literal[True] = Field(description="Always true: the item is not inlined.")
    chars: int = Field(description="JSON characters of the whole item.")
    resource: str = Field(
        description="Resource URI holding it whole (structures: as XYZ; "
        "links also give the JSON one)."
    )
    atomCount: int | None = Field(None, description="structures: atoms of the structure.")


class DisplacementItem(SparseOutput):
    """One atom of a mode: its reference position and displacement vector."""

    atom: int = Field(description="0-based atom index (the reference structure's order).")
    element: str = Field(description="Element symbol.")
    position: list[float] = Field(description="Reference position x, y, z in Angstrom.")
    displacement: list[float] = Field(
        description="Displacement x, y, z (normalised mode vector as the output prints it)."
    )


class _Section(SparseOutput):
    source: str = Field(
        description="The path that was opened, as given (an animation: its group key)."
    )
    kind: ResultsKind = Field(
        description="What was opened: nwchem (output), molden, xyz or "
        "animation (a mode's step files)."
    )
    links: list[ResourceLinkInfo] | None = Field(None, description=_LINKS)


class _ItemPage(_Section):
    offset: int = Field(description="First item of this page.")
    limit: int | None = Field(
        description="Page size asked for or chosen to fit the "
        "size hint; null: pages of about 40 KiB."
    )
    nextOffset: int | None = Field(description="offset of the next page; null on the last.")
    total: int = Field(description="Items in the whole section.")


class SummarySection(_ItemPage):
    """section summary: one item, the summary (also as the summary field)."""

    section: Literal["summary"] = Field(description="The section read.")
    summary: Summary = Field(
        description="The summary: final energy and level, energies by "
        "kind, charge, multiplicity, <S^2>, frontier orbitals, dipole, "
        "thermochemistry, convergence, section counts, warnings, errors."
    )
    items: list[Summary | OmittedItem] = Field(description="The summary, once.")


class EnergiesSection(_ItemPage):
    """section energies: the energies printed, per SCF/optimisation/MD step."""

    section: Literal["energies"] = Field(description="The section read.")
    items: list[EnergyPoint | OmittedItem] = Field(
        description="Energies in hartree, in output order."
    )


class StructuresSection(_ItemPage):
    """section structures: input orientation, optimisation steps, frames, final geometry."""

    section: Literal["structures"] = Field(description="The section read.")
    items: list[Structure | OmittedItem] = Field(
        description="Structures (symbols, coordinates in Angstrom); the last of an "
        "optimisation is the final geometry. One too big to inline is an omitted item."
    )


class ModesSection(_ItemPage):
    """section modes: vibrational modes (projected frequencies)."""

    section: Literal["modes"] = Field(description="The section read.")
    referenceStructure: int | None = Field(
        description="Index of the structure the modes were computed at (section structures)."
    )
    items: list[Mode | OmittedItem] = Field(
        description="index, frequency (cm-1), irIntensity (km/mol), imaginary (frequency "
        "< 0), significant (frequency < -10 cm-1), hasDisplacements."
    )


class ModeDisplacementsSection(_ItemPage):
    """section mode_displacements: reference structure and displacement vectors of a mode."""

    section: Literal["mode_displacements"] = Field(description="The section read.")
    mode: Mode = Field(description="The mode asked for.")
    referenceStructure: int = Field(description="Index of the reference structure.")
    items: list[DisplacementItem | OmittedItem] = Field(description="One item per atom.")


class FilesSection(_ItemPage):
    """section files: the result files of the opened folder."""

    section: Literal["files"] = Field(description="The section read.")
    items: list[FileEntry | OmittedItem] = Field(
        description="Result files (an animation's step files are one entry per mode); open "
        "one with results_action open_file and its path."
    )


class ExcitationsSection(_ItemPage):
    """section excitations: TDDFT/CIS roots (empty when the output holds none)."""

    section: Literal["excitations"] = Field(description="The section read.")
    items: list[Excitation | OmittedItem] = Field(
        description="Roots: energy (hartree, eV), wavelength (nm), oscillator strength, "
        "symmetry, spin."
    )


class OrbitalsSection(_ItemPage):
    """section orbitals: orbital energies and occupations per spin (empty when none)."""

    section: Literal["orbitals"] = Field(description="The section read.")
    homo: float | None = Field(description="Highest occupied orbital energy, hartree.")
    lumo: float | None = Field(description="Lowest unoccupied orbital energy, hartree.")
    gap: float | None = Field(description="LUMO - HOMO, hartree.")
    items: list[Orbital | OmittedItem] = Field(description="Orbitals of the last printout.")


class ChargesSection(_ItemPage):
    """section charges: Mulliken (and Loewdin) charges per atom (empty when none)."""

    section: Literal["charges"] = Field(description="The section read.")
    items: list[AtomCharge | OmittedItem] = Field(
        description="Charges per 0-based atom index, the order of the output's geometry."
    )


class ScanSection(_ItemPage):
    """section scan: the points of a relaxed scan (empty when the output holds none)."""

    section: Literal["scan"] = Field(description="The section read.")
    coordinate: str | None = Field(description="distance, angle or dihedral.")
    atomNumbers: list[int] = Field(description="1-based.")
    unit: str | None = Field(description="Of the values.")
    planned: int = Field(description="Points asked for.")
    items: list[dict[str, Any]] = Field(
        description="Points reached: point, target, "
        "value, energy, relativeKcal, converged, steps, "
        "structureIndex."
    )


class LogSection(_Section):
    """section log: characters of the output file (offset and limit count characters)."""

    section: Literal["log"] = Field(description="The section read.")
    logPath: str | None = Field(description="The text file read; null when there is none.")
    text: str = Field(description="Characters offset.. of the file.")
    offset: int = Field(description="First character of this page.")
    limit: int = Field(description="Characters asked for (at most 65,536).")
    nextOffset: int | None = Field(description="offset of the next page; null at the end.")
    total: int = Field(description="Characters of the whole file.")


ResultsSection = Annotated[
    SummarySection
    | EnergiesSection
    | StructuresSection
    | ModesSection
    | ModeDisplacementsSection
    | FilesSection
    | LogSection
    | ExcitationsSection
    | OrbitalsSection
    | ChargesSection
    | ScanSection,
    Field(discriminator="section"),
]


class GetResultsOutput(RootModel[ResultsSection]):
    """One page of a results section: section, source, kind and paging (offset, limit,
    nextOffset, total) with the section's own fields; its shape depends on section."""


@tool(
    "get_results",
    title="Get results",
    read_only=True,
    idempotent=True,
    max_result_chars=MAX_RESULT_CHARS,
)
def get_results(ctx: ToolContext, args: GetResultsInput) -> GetResultsOutput:
    """Read the loaded results in pages: summary (final energy of the highest level, e.g.
    CCSD(T); convergence, imaginary modes, charge, multiplicity, <S^2>, HOMO/LUMO/gap per
    spin, dipole, thermochemistry), energies, structures, modes, mode_displacements, files,
    log, excitations, orbitals, charges, scan."""
    ctx.state.document(args.documentId)
    cur = _loaded_results(ctx, args.documentId)
    page = _fitted_page(cur, args, get_section)
    page.setdefault("source", cur.source)
    page.setdefault("section", args.section)
    links = _section_links(args.documentId, args.section, args.mode, cur)
    links += _omit_large_items(args.documentId, args.section, page)
    if links:
        page["links"] = links
    return GetResultsOutput.model_validate(page)


# How long a read waits for the results of a calculation that just ended to load.
FOLLOW_UP_WAIT_S = 30.0


def _loaded_results(ctx: ToolContext, doc_id: str) -> Results:
    """The results loaded for ``doc_id``; waits for a load in progress when nothing is
    loaded yet (the results of a calculation that just ended load by themselves).

    Raises:
        ResultsError: ``results_not_opened_yet`` (a calculation ended and its results are
            not loaded: no output, or the load failed), ``results_none_loaded``.
    """
    sess = ctx.state.results_if_any(doc_id)
    cur = sess.current if sess is not None else None
    if cur is None and sess is not None:
        loading = sess.loading
        if loading is not None:
            loading.wait(FOLLOW_UP_WAIT_S)
            cur = sess.current
    if cur is None:
        job = ctx.state.last_job.get(doc_id)
        if job is not None and job.status in TERMINAL:
            raise ResultsError("results_not_opened_yet", path=str(job.folder), status=job.status)
        raise ResultsError("results_none_loaded")
    return cur


def _fitted_page(
    cur: Results, args: GetResultsInput, get_section: Callable[..., dict[str, Any]]
) -> dict[str, Any]:
    """The page asked for; without ``limit``, shrunk until it fits the size hint.

    Works for every section, whatever its items: a page of items is cut to fewer items, a
    ``log`` page to fewer characters (the documented 65,536 per call would not fit twice).
    """
    limit = args.limit
    page = dict(get_section(cur, args.section, offset=args.offset, limit=limit, mode=args.mode))
    for _ in range(8):
        size = paging.json_chars(page)
        if args.limit is not None or size <= paging.PAGE_CHARS:
            break
        if isinstance(page.get("text"), str):
            shown = len(page["text"])
            if shown <= 1000:
                break
            limit = max(1000, shown * paging.PAGE_CHARS // size * 9 // 10)
        elif isinstance(page.get("items"), list) and len(page["items"]) > 1:
            limit = max(1, len(page["items"]) * paging.PAGE_CHARS // size)
            limit = min(limit, len(page["items"]) - 1)
        else:
            break
        page = dict(get_section(cur, args.section, offset=args.offset, limit=limit, mode=args.mode))
    return page


def _section_links(
    doc_id: str,
    section: str,
    mode: int | None,
    cur: Results,
) -> list[dict[str, Any]]:
    base = f"molforma://documents/{doc_id}/results"
    if section == "modes" and cur.modes:
        return [
            paging.link(
                f"{base}/spectrum",
                f"{doc_id}_spectrum",
                "text/csv",
                "The modes as CSV: mode, frequency (cm-1), IR intensity (km/mol).",
            )
        ]
    if section == "mode_displacements" and mode is not None:
        return [
            paging.link(
                f"{base}/modes/{mode}",
                f"{doc_id}_mode_{mode}",
                mime_of("xyz"),
                "The mode as XYZ with a displacement vector per atom.",
            )
        ]
    return []


def _omit_large_items(doc_id: str, section: str, page: dict[str, Any]) -> list[dict[str, Any]]:
    """Replace each item too big to inline by its plain fields and a link to all of it."""
    items = page.get("items")
    if not isinstance(items, list) or paging.json_chars(page) <= paging.PAGE_CHARS:
        return []
    base = f"molforma://documents/{doc_id}/results"
    links: list[dict[str, Any]] = []
    share = paging.PAGE_CHARS // max(1, len(items))
    for k, item in enumerate(items):
        if not isinstance(item, dict) or paging.json_chars(item) <= share:
            continue
        index = int(page.get("offset") or 0) + k
        item_uri = f"{base}/items/{section}/{index}"
        stub = {key: v for key, v in item.items() if not isinstance(v, list | dict)}
        stub.update(omitted=True, chars=paging.json_chars(item), resource=item_uri)
        if section == "structures":
            stub["atomCount"] = len(item.get("symbols") or [])
            xyz_uri = f"{base}/structures/{index}"
            stub["resource"] = xyz_uri
            links.append(
                paging.link(
                    xyz_uri,
                    f"{doc_id}_structure_{index}",
                    mime_of("xyz"),
                    f"Structure {index} of the results as XYZ.",
                )
            )
        links.append(
            paging.link(
                item_uri,
                f"{doc_id}_{section}_{index}",
                "application/json",
                f"Item {index} of section {section}, whole.",
            )
        )
        items[k] = stub
    return links
