"""The input and output models of the document and settings tools (no Qt).

:mod:`molforma.mcp.tools.document_tools` registers the tools; their arguments and answers are
defined here (``get_catalog``'s in :mod:`molforma.mcp.tools.catalog_models`), so each
schema is read in one place (docs/reference/mcp.md, Tools: every field has
a description, inputs forbid unknown keys).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from molforma.file_formats import LABELS, READABLE, WRITABLE, names_text
from molforma.mcp.tool_registry import SparseOutput, ToolInput

# get_catalog's models have a module of their own; the tools import them from here.
from molforma.mcp.tools.catalog_models import GetCatalogInput as GetCatalogInput
from molforma.mcp.tools.catalog_models import GetCatalogOutput as GetCatalogOutput

Vec3 = tuple[float, float, float]


_DOC_ID = "Id from list_documents."


_REV = "From the last answer; a stale one fails, changing nothing."


_ELEMENT = (
    "Element symbol, e.g. 'C', 'Cl'; case and spaces are normalised ('cl', 'CL' -> "
    "'Cl'); anything else is refused."
)


_PREVIEW = "true (default): a candidate for history confirm/cancel; false: apply now."


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
    """The edit summary: revision (after the call), project and candidate (formula, atomCount;
    candidate null when none), addedIds, removedIds, changedIds (at most 1,000 each;
    idsTruncated when cut), info (what the tool's description says it reports), status
    running (a move_atoms clean-up still going, no edit yet)."""

    revision: str = Field(description="The document's revision after the call.")
    project: FormulaCount = Field(description="The confirmed project.")
    candidate: FormulaCount | None = Field(description="The candidate, or null.")
    addedIds: list[str] = Field(description="Atom ids added (at most 1,000).")
    removedIds: list[str] = Field(description="Atom ids removed (at most 1,000).")
    changedIds: list[str] = Field(description="Atom ids changed (at most 1,000).")
    idsTruncated: bool = Field(description="True when a list above was cut at 1,000.")
    # Each tool's description says what its info holds (one sentence here, not 16 copies).
    info: dict[str, Any] | None = Field(
        None,
        description="What this edit reports besides (the tool's description says); "
        "absent otherwise.",
    )
    status: Literal["running"] | None = Field(
        None, description="running: a move_atoms cleanup still going (no edit yet)."
    )


class ListDocumentsInput(_Strict):
    """No arguments."""


class DocumentInfo(SparseOutput):
    """One open document."""

    documentId: str = Field(description="Its id.")
    title: str = Field(description="Its title.")
    path: str | None = Field(description="Its file; null before it is saved.")
    revision: str = Field(description="Its revision.")
    formula: str = Field(description="Hill formula of the confirmed project.")
    atomCount: int = Field(description="Atoms of the confirmed project.")
    hasCandidate: bool = Field(description="A candidate waits to be confirmed or cancelled.")
    busy: str | None = Field(
        None,
        description="Present while edits are refused because work "
        "runs on the document, e.g. 'geometry clean-up'.",
    )


class ListDocumentsOutput(BaseModel):
    """The documents of this process."""

    documents: list[DocumentInfo] = Field(
        description="The open documents: documentId, title, path, revision, formula, "
        "atomCount, hasCandidate, busy (while work runs on it)."
    )


class GetDocumentInput(_DocInput):
    include: list[Literal["project", "candidate"]] | None = Field(
        None,
        description="Besides the summary: ['project'], ['candidate'], both (default) "
        "or [] (the summary only).",
    )
    offset: int = Field(
        0,
        ge=0,
        description="First atom of the page (0-based); pass the "
        "last answer's nextOffset to read on.",
    )
    limit: int | None = Field(
        None,
        ge=1,
        description="Atoms per page; default: what fits "
        "the 100,000-character hint. Each bond comes once, on its later "
        "atom's page.",
    )


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
        None,
        description="The confirmed project envelope (a large one: a page of its atoms "
        "and bonds). Atoms from PDB also have residueName, residueNumber, chain, "
        "insertionCode, altloc, bFactor, occupancy.",
    )
    candidate: dict[str, Any] | None = Field(
        None, description="The candidate, or null (paged like project)."
    )
    bondCount: int | None = Field(None, description="Bonds of the whole confirmed project.")
    candidateAtomCount: int | None = Field(None, description="Atoms of the whole candidate.")
    offset: int | None = Field(None, description="First atom of this page.")
    nextOffset: int | None = Field(
        None, description="offset of the next page; null when this page reaches the last atom."
    )
    complete: bool | None = Field(
        None, description="True when the envelopes returned are whole (every atom and bond)."
    )
    links: list[ResourceLinkInfo] | None = Field(
        None,
        description="When paged: resources holding the whole project (JSON, XYZ, MOL, "
        "NWChem input), also as resource_link items.",
    )


class OpenFileInput(_EditInput):
    path: str = Field(
        description=f"File to load: {', '.join(LABELS[n] for n in READABLE[:-1])} "
        f"or {LABELS[READABLE[-1]]} ('~' expands to home)."
    )
    format: str | None = Field(
        None, description=f"Format name ({names_text(READABLE)}); default: from the extension."
    )
    frame: int | None = Field(
        None, ge=0, description="0-based frame of a multi-frame XYZ (required for those)."
    )


class ImportDocumentInput(_EditInput):
    text: str = Field(
        description="File content as text; with format smiles a SMILES string "
        "such as 'CCO' or a common name (water, DMSO, 水; info.smiles: the "
        "SMILES used)."
    )
    format: str = Field(
        description=f"Format of the text: {names_text(READABLE)}, or smiles "
        "(a force-field cleaned 3D structure with hydrogens replacing the atoms; "
        "settings stay; unreadable: smiles_invalid)."
    )
    frame: int | None = Field(None, ge=0, description="0-based frame of a multi-frame XYZ.")


class ExportDocumentInput(_DocInput):
    format: str = Field(
        description=f"Format of the text: {names_text(WRITABLE)} (nwchem: the NWChem input)."
    )
    which: Literal["project", "candidate"] = Field(
        "project", description="Export the confirmed project (default) or the candidate."
    )
    offset: int = Field(
        0,
        ge=0,
        description="First character to return; pass the last answer's nextOffset to read on.",
    )
    limit: int | None = Field(
        None,
        ge=1,
        description="Characters to return; default: what "
        "fits the 100,000-character hint, with links to the whole.",
    )


class ExportDocumentOutput(SparseOutput):
    """The exported text (one page of it for a large structure)."""

    documentId: str = Field(description="The document.")
    revision: str = Field(description="Its revision.")
    format: str = Field(description="The format asked for, as given.")
    text: str = Field(description="The text, or characters offset.. of it (see nextOffset).")
    totalChars: int | None = Field(None, description="Length of the whole text.")
    offset: int | None = Field(None, description="First character of this page.")
    nextOffset: int | None = Field(
        None, description="offset of the next page; null at the end of the text."
    )
    links: list[ResourceLinkInfo] | None = Field(
        None,
        description="Resources holding the whole export (confirmed project only), also "
        "as resource_link items.",
    )


class SaveFileInput(_DocInput):
    path: str = Field(description="Where to write the project (*.molforma.json).")
    overwrite: bool | None = Field(
        None,
        description="true replaces an existing file, false never does; omitted: a "
        "client that declares form elicitation is asked, and only overwrite: true in the "
        "accepted form replaces it; else an existing file fails.",
    )
    expectedRevision: str | None = Field(None, description=_REV)


class SaveFileOutput(BaseModel):
    """Where and which revision was written."""

    documentId: str = Field(description="The document.")
    path: str = Field(description="The file written.")
    revision: str = Field(description="The revision written.")
    bytes: int = Field(description="Bytes written.")
    overwritten: bool = Field(description="An existing file was replaced.")


class HistoryInput(_DocInput):
    expectedRevision: str = Field(description=_REV)
    action: Literal["undo", "redo", "confirm", "cancel"] = Field(
        description="undo / redo a step, or confirm / cancel the candidate."
    )


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


class QmRegion(_Strict):
    residues: list[str] = Field(default_factory=list, description="Core residue names.")
    numbers: list[int] = Field(default_factory=list, description="Core residue numbers.")
    chains: list[str] = Field(default_factory=list, description="Core chains.")
    atomIds: list[str] = Field(default_factory=list, description="Core atoms.")
    within: float = Field(0.0, ge=0, le=50, description="Also atoms this near the core, Å.")
    wholeResidues: bool = Field(True, description="Grow to whole residues.")
    fixCaps: bool = Field(False, description="Fix the H caps.")
    newDocument: bool = Field(
        False, description="Cut into a new document (headless); this one stays. info.documentId."
    )


class DeleteAtomsInput(_EditInput):
    atomIds: list[str] | None = Field(None, min_length=1, description="Ids of the atoms to delete.")
    keep: QmRegion | None = Field(
        None,
        description="Instead: keep only this QM region, "
        "cut bonds capped with H, charge set from residues.",
    )


class Rotation(_Strict):
    axis: Vec3 = Field(description="Rotation axis [x, y, z].")
    angle: float = Field(description="Angle in degrees (right hand about the axis).")
    center: Vec3 | None = Field(None, description="Centre; default: centroid of the atoms.")


class MoveAtomsInput(_EditInput):
    positions: dict[str, Vec3] | None = Field(
        None, description="New positions {atomId: [x, y, z]} in Angstrom."
    )
    atomIds: list[str] | None = Field(
        None, description="Atoms to translate, rotate or clean up (default: all)."
    )
    translate: Vec3 | None = Field(None, description="Displacement [dx, dy, dz] in Angstrom.")
    rotate: Rotation | None = Field(None, description="Rotation about an axis and a centre.")
    cleanup: bool | None = Field(
        None,
        description="true: force-field clean-up (MMFF94, else UFF) as the window's "
        "'Clean up geometry': atomIds move (default all), fixed atoms stay; info: the force "
        "field, energy before and after (kcal/mol). Already clean: refused "
        "(cleanup_no_change). With Tasks the call is a task (tasks/cancel stops it); else it "
        "waits up to 10 s, then answers status running and the document stays busy until the "
        "candidate appears or the clean-up fails; history cancel stops it.",
    )


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
    atoms: list[AtomChange] = Field(
        min_length=1, description="Per-atom changes; only the given keys change."
    )


class BondChange(_Strict):
    a: str = Field(description="First atom id.")
    b: str = Field(description="Second atom id.")
    order: Literal[0, 1, 2, 3] = Field(description="1-3 adds or changes the bond; 0 removes it.")


class SetBondsInput(_EditInput):
    bonds: list[BondChange] = Field(min_length=1, description="Bonds to add, change or remove.")


class SetInternalCoordinateInput(_EditInput):
    atomIds: list[str] = Field(
        min_length=2, max_length=4, description="2 ids: distance, 3: angle, 4: dihedral."
    )
    value: float = Field(description="Target distance in Angstrom or angle in degrees.")


class AddHydrogensInput(_EditInput):
    atomIds: list[str] | None = Field(None, description="Atoms to fill (default: all).")


class PlaceFragmentInput(_EditInput):
    fragment: str = Field(
        description="Fragment or ligand name or alias from get_catalog, "
        "e.g. 'methyl' or 'Me', 'CF3', 'OH', 'Ph', 'tBu', 'NH3'."
    )
    atomId: str = Field(description="Atom whose free site receives the fragment.")
    kind: Literal["fragment", "ligand"] | None = Field(
        None, description="Look the name up among fragments or ligands (default: both)."
    )


class SetMoleculeInput(_EditInput):
    title: str | None = Field(None, description="Molecule title.")
    charge: int | None = Field(None, description="Total charge.")
    multiplicity: int | None = Field(None, ge=1, le=20, description="Spin multiplicity.")


class CalculationValues(_Strict):
    task: (
        Literal[
            "energy",
            "optimize",
            "frequencies",
            "optimize+frequencies",
            "excited-states",
            "transition-state",
        ]
        | None
    ) = Field(None, description="What to compute.")
    theory: Literal["scf", "dft", "mp2"] | None = Field(None, description="Level of theory.")
    functional: str | None = Field(
        None,
        description="DFT functional: a get_catalog name "
        "(b3lyp, cam-b3lyp, ...) or an xc line of NWChem keywords.",
    )
    basis: str | None = Field(None, description="Basis set, e.g. 6-31g*.")
    reference: Literal["rhf", "rohf", "uhf"] | None = Field(
        None, description="SCF reference; null chooses from the multiplicity."
    )
    extra_input: str | None = Field(
        None,
        description=(
            "Protected: text added to the input. Refused as NWChem reads it "
            "(forbidden_extra_input): task shell/python, python blocks, include, load, "
            "'library ... file', lines over 1,000 characters or ending in a backslash."
        ),
    )
    extra_tasks: list[str] | None = Field(
        None, description=("Protected: extra task lines; the same refusals as extra_input.")
    )
    constraints: list[dict[str, Any]] | None = Field(
        None,
        description=(
            "Held in optimisation: [{atoms: 2-4 ids, value: Å/°, null: current}]; [] clears."
        ),
    )
    excited_roots: int | None = Field(None, ge=1, le=200, description="Excited states to find.")
    excited_spin: Literal["singlets", "triplets", "both"] | None = Field(
        None, description="Spin of the excited states."
    )
    excited_method: Literal["tddft", "tda"] | None = Field(
        None, description="tda: Tamm-Dancoff (CIS with scf)."
    )
    irc: bool | None = Field(None, description="transition-state: then the reaction path.")
    solvent: str | None = Field(None, description="COSMO solvent (water, thf, ...); null: none.")
    dielectric: float | None = Field(None, description="Custom COSMO dielectric.")
    scan: dict[str, Any] | None = Field(
        None,
        description=(
            "Relaxed scan, task optimize: {atoms, start (null: current), end, steps <= 50}; "
            "null clears."
        ),
    )


class SetNwchemInput(_EditInput):
    values: CalculationValues = Field(description="Calculation conditions to change.")


class SetAdvancedInput(_EditInput):
    values: dict[str, Any] = Field(
        description="Advanced settings by key (get_catalog "
        "advanced_keys); null: NWChem's default. An absolute "
        "scratch_dir or permanent_dir must exist (work_dir_missing); "
        "a relative one is made in each job folder."
    )


class ExecutionValues(_Strict):
    executable: str | None = Field(None, description="Protected: NWChem command.")
    launcher: str | None = Field(None, description="Protected: MPI launcher command.")
    processes: int | None = Field(None, ge=1, le=4096, description="MPI process count.")
    threads: int | None = Field(None, ge=1, le=1024, description="OMP_NUM_THREADS.")
    environment: dict[str, str] | None = Field(None, description="Protected: environment.")
    job_root: str | None = Field(
        None,
        description="Where job folders are made: a full path "
        "(~ allowed); relative: refused (job_root_relative).",
    )
    reference_dir: str | None = Field(None, description="Extra folder scanned by History.")
    time_limit: float | None = Field(
        None, gt=0, description="Wall-time limit in seconds (SLURM rounds up to minutes)."
    )
    scheduler: Literal["local", "slurm"] | None = Field(
        None, description="Protected: local (run here) or slurm (submit to the cluster)."
    )
    partition: str | None = Field(
        None, description="SLURM partition (null: the default; get_execution lists them)."
    )
    account: str | None = Field(None, description="Protected: SLURM account.")
    qos: str | None = Field(None, description="SLURM quality of service (null: default).")
    nodes: int | None = Field(None, ge=1, le=4096, description="Nodes of a batch job.")
    tasksPerNode: int | None = Field(
        None, ge=1, le=4096, description="MPI processes per node of a batch job."
    )
    batch_directives: list[str] | None = Field(
        None, description="Protected: extra batch options, '--name=value' each."
    )
    remote_profile: str | None = Field(None, description="Cluster profile; null: none.")


class SetExecutionInput(_EditInput):
    values: ExecutionValues = Field(description="Execution settings to change.")


class GetExecutionInput(_DocInput):
    pass


class GetExecutionOutput(BaseModel):
    """Execution settings and the server's policy."""

    documentId: str = Field(description="The document.")
    revision: str = Field(description="Its revision.")
    execution: dict[str, Any] = Field(description="The settings (set_execution's values).")
    trusted: bool = Field(description="The document's protected values equal the trusted ones.")
    policy: dict[str, Any] = Field(
        description="allowedDirectories, executionSettingsAllowed, trusted values."
    )
    cluster: dict[str, Any] | None = Field(
        None,
        description="With scheduler slurm: reachable (else error and message), and the "
        "partitions sinfo lists (name, default, available, maxTime in s, nodes, cpus).",
    )


class ValidateDocumentInput(_DocInput):
    check: str | None = Field(
        None,
        description="Page through the entries of this one check "
        "code (e.g. 'close_contact'); default: every check.",
    )
    offset: int = Field(
        0,
        ge=0,
        description="First entry of each check shown (of `check` "
        "when given); pass the previous answer's nextOffset to read on.",
    )
    limit: int | None = Field(
        None,
        ge=1,
        description="Entries shown per check. Default: 10; counts gives how many each check has.",
    )


class CheckEntry(SparseOutput):
    """One problem or remark found by validate_document."""

    code: str = Field(
        description="Stable check code, e.g. 'close_contact', "
        "'multiplicity_parity', 'basis_missing_elements'."
    )
    severity: Literal["error", "warning", "info"] = Field(
        description="error: the run would fail or be wrong (ok is false); warning: likely a "
        "mistake; info: worth knowing."
    )
    message: str = Field(description="The check in the display language.")
    atoms: list[str] = Field(description="Atom ids concerned (at most 100).")


class ValidateDocumentOutput(SparseOutput):
    """Check results (problems and warnings) of the confirmed project: per check a count
    and the first entries."""

    ok: bool = Field(description="False when any check (of all, not only those shown) is an error.")
    checks: list[CheckEntry] = Field(
        description="Entries (code, severity: error, warning "
        "or info, message, atoms), per code from offset on, at "
        "most limit of each."
    )
    revision: str = Field(description="Revision of the document checked.")
    counts: dict[str, int] = Field(description="Entries of each check code.")
    more: list[str] = Field(
        description="Check codes with entries not shown; read them with check, offset and limit."
    )
    nextOffset: int | None = Field(
        None, description="Only with check: offset of its next entries; null when none are left."
    )


class MeasureInput(_DocInput):
    distances: list[tuple[str, str]] = Field(default_factory=list, description="Pairs of atom ids.")
    angles: list[tuple[str, str, str]] = Field(
        default_factory=list, description="Triples of atom ids (degrees)."
    )
    dihedrals: list[tuple[str, str, str, str]] = Field(
        default_factory=list, description="Quadruples of atom ids (degrees)."
    )
    which: Literal["project", "candidate"] = Field(
        "project", description="Measure the confirmed project or the candidate."
    )
    offset: int = Field(
        0,
        ge=0,
        description="First measurement returned, counting distances, "
        "then angles, then dihedrals; pass nextOffset to read on.",
    )
    limit: int | None = Field(
        None,
        ge=1,
        description="Measurements returned. Default: 300, "
        "which keeps the answer under the 100,000-character size hint.",
    )


class Measurement(SparseOutput):
    """One measured value."""

    ids: list[str] = Field(description="The atom ids as asked (2, 3 or 4).")
    value: float = Field(
        description="Distance in Angstrom, angle or dihedral (-180..180) in "
        "degrees, rounded to 6 decimals."
    )
    unit: Literal["angstrom", "degree"] = Field(description="Unit of value.")


class MeasureOutput(SparseOutput):
    """Measured values: one page of the distances, then angles, then dihedrals asked for."""

    distances: list[Measurement] = Field(description="Distances of this page: ids, value, unit.")
    angles: list[Measurement] = Field(description="Angles of this page.")
    dihedrals: list[Measurement] = Field(description="Dihedrals of this page.")
    revision: str = Field(description="Revision of the document measured.")
    total: int = Field(description="Measurements asked for.")
    nextOffset: int | None = Field(
        description="offset of the measurements not returned yet; null when all are here."
    )
