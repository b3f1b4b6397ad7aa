"""The window's drivable controls: the one table of what an MCP client may drive (Qt layer).

The window tools are closed by default (docs/reference/window.md, Declared controls): a ``ui_*`` command may drive
only a control declared here — by objectName (or a prefix pattern such as ``element_*``),
its kind (which tools apply), the setting it edits and the validator that setting's MCP
tool uses. Anything else the window shows — labels, splitters, Qt's own boxes, the
insides of a ``QFileDialog``, the Preferences dialog, widgets Qt adds in a later version —
is readable through ``get_ui`` but refuses every ``ui_*`` action with
``ui_not_drivable``. A blocklist cannot keep up with Qt; an allowlist can.

``protected`` rows are the person's alone (docs/reference/safety.md, Protected settings): listed under ``blocked``
with their reason and refused, unless MolForma was started with
``--mcp-allow-execution-settings``.

The table is data: widgets are bound to it by objectName at the moment a command runs
(:func:`control_for`), so a control built later (a deferred tab, a dialog) is covered
the same way; the window side binds a row only to a widget of its kind's Qt classes
(``molforma.gui.introspection.KIND_CLASSES``), so a label that happens to match a
pattern is never drivable.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from molforma.errors import MolFormaError
from molforma.lazy import lazy_import
from molforma.nwchem import value_grammar
from molforma.nwchem.solvents import validate_dielectric
from molforma.nwchem.value_grammar import validate_functional

if TYPE_CHECKING:
    from molforma.app.policy import Policy
    from molforma.jobs import folders
    from molforma.nwchem import functionals
else:  # imported on first use (start-up time): molforma.lazy
    folders = lazy_import("molforma.jobs.folders")
    functionals = lazy_import("molforma.nwchem.functionals")


class Kind(enum.Enum):
    """What sort of control a row is; it decides which ``ui_*`` tools apply."""

    BUTTON = "button"
    ACTION = "action"
    LINE = "line edit"
    SPIN = "spin box"
    COMBO = "combo box"
    CHECK = "check box"
    SLIDER = "slider"
    TEXT = "text editor"
    FIELD = "settings field"  # a line edit, spin box, combo or check box of a settings group
    TABS = "tabs"
    TABLE = "table"
    LIST = "list"
    TREE = "tree"
    VIEW = "3D view"
    PAGE = "tab page"  # a page of the main tabs: ui_activate shows it, as a click on its tab


# Which tools drive which kind. Keys typed through ui_input go only to tables, lists and
# views (items and atoms), never to fields: a field's value is set with ui_set_value, where
# its validator runs, not typed key by key past it.
TOOLS_BY_KIND: dict[Kind, frozenset[str]] = {
    Kind.BUTTON: frozenset({"ui_activate", "ui_input"}),
    Kind.ACTION: frozenset({"ui_activate"}),
    Kind.LINE: frozenset({"ui_set_value"}),
    Kind.SPIN: frozenset({"ui_set_value"}),
    Kind.COMBO: frozenset({"ui_set_value", "ui_select"}),
    Kind.CHECK: frozenset({"ui_set_value", "ui_activate", "ui_input"}),
    Kind.SLIDER: frozenset({"ui_set_value"}),
    Kind.TEXT: frozenset({"ui_set_value"}),
    Kind.FIELD: frozenset({"ui_set_value"}),
    Kind.TABS: frozenset({"ui_set_value", "ui_select"}),
    Kind.TABLE: frozenset({"ui_select", "ui_edit_cell", "ui_input"}),
    Kind.LIST: frozenset({"ui_select", "ui_input"}),
    Kind.TREE: frozenset({"ui_select", "ui_input"}),
    Kind.VIEW: frozenset({"ui_select", "ui_input"}),
    Kind.PAGE: frozenset({"ui_activate"}),
}

# (value, policy) -> None; raises the same error the setting's MCP tool raises.
Validator = Callable[[Any, "Policy | None"], None]


@dataclass(frozen=True)
class Control:
    """One drivable control.

    ``name`` is the widget's objectName; a trailing ``*`` makes it a prefix
    (``advanced_*``). ``dialog`` names the dialog it lives in (None: the main window);
    a control of a dialog is drivable only inside that dialog. ``edits`` names the
    setting or document part it changes, for the agent and the docs.
    """

    name: str
    kind: Kind
    edits: str | None = None
    validate: Validator | None = None
    protected: str | None = None
    dialog: str | None = None
    # The value the field holds once ``value`` is set, when the setting stores another
    # spelling of it (a functional's alias becomes its table name): what "kept" compares.
    stored: Callable[[Any], Any] | None = None

    @property
    def tools(self) -> frozenset[str]:
        """The ``ui_*`` tools that may drive it."""
        return TOOLS_BY_KIND[self.kind]

    def matches(self, object_name: str) -> bool:
        """True when ``object_name`` is this row's control."""
        if self.name.endswith("*"):
            return object_name.startswith(self.name[:-1]) and object_name != self.name[:-1]
        return object_name == self.name


# -- validators: the same checks the MCP tools make for these settings ---------------------------
def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _job_root(value: Any, policy: Policy | None) -> None:
    """``set_execution job_root``: relative refused; inside the allowed directories."""
    text = _text(value)
    folders.check_job_root(text)
    if policy is not None:
        policy.check_path(text, for_write=True)


def _reference_dir(value: Any, policy: Policy | None) -> None:
    """``set_execution reference_dir``: read by History, inside the allowed directories."""
    text = _text(value)
    if text and policy is not None:
        policy.check_path(text)


def _advanced_path(key: str) -> Validator:
    """``set_advanced``: a path-valued advanced setting (scratch, permanent, movecs)."""

    def check(value: Any, policy: Policy | None) -> None:
        text = _text(value)
        if text and policy is not None:
            policy.check_advanced_paths({key: text})

    return check


def _grammar(name: str) -> Validator:
    """A value with a grammar (it reaches the input file or the batch script): the same
    ``molforma.nwchem.value_grammar.validate_<name>`` the settings tools call."""

    def check(value: Any, _policy: Policy | None) -> None:
        text = _text(value)
        if not text:
            return

        getattr(value_grammar, f"validate_{name}")(text)

    return check


def _dielectric(value: Any, _policy: Policy | None) -> None:
    """``set_nwchem dielectric``: a number above 1 and at most 1000 (bad_dielectric)."""
    text = _text(value)
    if text:
        try:
            number: Any = float(text)
        except ValueError:
            number = text
        validate_dielectric(number)


def _functional(value: Any, _policy: Policy | None) -> None:
    """``set_nwchem functional``: the characters, then the functional table (an unknown
    name refused with the valid ones before the field changes)."""
    text = _text(value)
    if text and functionals.find_entry(text) is None:
        validate_functional(text)
        functionals.check(text)


def _functional_stored(value: Any) -> Any:
    """The table name a functional is stored by (``CAMB3LYP`` → ``cam-b3lyp``)."""
    text = _text(value)
    try:
        entry = functionals.check(text)
    except MolFormaError:
        return value
    return entry["name"] if entry is not None else " ".join(text.split())


_EXEC = "blocked_execution_setting"
_EXTRA = "blocked_extra_input"

B, A, L, S, C, K = Kind.BUTTON, Kind.ACTION, Kind.LINE, Kind.SPIN, Kind.COMBO, Kind.CHECK

CONTROLS: tuple[Control, ...] = (
    # -- menu actions (the File / Edit / View / Help menus; shortcuts are not drivable) --------
    Control("molforma.file.new", A, "the document (a new one)"),
    Control("molforma.file.open", A, "the document (a file dialog: ui_file_dialog)"),
    Control("molforma.file.save", A, "the project file"),
    Control("molforma.file.save_as", A, "the project file (a file dialog: ui_file_dialog)"),
    Control("molforma.file.load_structure", A, "document.atoms (a file dialog)"),
    Control("molforma.file.export", A, "a file (a file dialog: ui_file_dialog)"),
    Control("molforma.file.quit", A, "the window"),
    Control("molforma.edit.undo", A, "the document (undo)"),
    Control("molforma.edit.redo", A, "the document (redo)"),
    Control("molforma.edit.confirm", A, "the document (confirm the candidate)"),
    Control("molforma.edit.cancel", A, "the document (cancel the candidate)"),
    Control("molforma.edit.delete", A, "document.atoms (the selected ones)"),
    Control("molforma.edit.select_all", A, "the selection"),
    Control("molforma.edit.copy_xyz", A, "the clipboard"),
    Control("molforma.view.*", A, "the view"),
    Control("molforma.help.about", A),
    Control("molforma.help.shortcuts", A),
    # -- Molecule tab ---------------------------------------------------------------------------
    Control("tool_*", K, "the editing tool"),
    Control("element_*", K, "the element of the Add-atom tool"),
    Control("elementButton", B, "the element of the Add-atom tool"),
    Control("paletteToggle", K, "the parts palette"),
    Control("fragmentList", Kind.LIST, "the fragment to place"),
    Control("ringList", Kind.LIST, "the ring template to place"),
    Control("ligandList", Kind.LIST, "the ligand to place"),
    Control("placeMetalCombo", C, "the metal to place on"),
    Control("placeOnMetalButton", B, "document.atoms"),
    Control("adjustHydrogensCheck", K, "the Add-atom tool"),
    Control("addHydrogensButton", B, "document.atoms"),
    Control("undoButton", B, "the document (undo)"),
    Control("redoButton", B, "the document (redo)"),
    Control("confirmButton", B, "the document (confirm the candidate)"),
    Control("cancelButton", B, "the document (cancel the candidate)"),
    Control("loadStructureButton", B, "document.atoms (a file dialog)"),
    Control("smilesInput", L, "the SMILES to build"),
    Control("smilesButton", B, "document (a SMILES candidate)"),
    Control("cleanupButton", B, "document.atoms (clean-up)"),
    Control("cleanupCancelButton", B, "the running clean-up"),
    Control("selectResiduesButton", B, "the selection (whole residues)"),
    Control("selectChainsButton", B, "the selection (whole chains)"),
    Control("selectWithinButton", B, "the selection (atoms within the radius)"),
    Control("selectWithinRadiusSpin", S, "the radius of selectWithinButton"),
    Control("qmWholeResiduesCheck", K, "selectWithinButton (whole residues)"),
    Control("qmFixCapsCheck", K, "extractQmRegionButton (fixed caps)"),
    Control("extractQmRegionButton", B, "document.atoms and charge (QM region)"),
    Control("moleculeView", Kind.VIEW, "the selection, document.atoms (edit tools)"),
    Control("moleculeCanvas", Kind.VIEW, "the selection, document.atoms (edit tools)"),
    Control("moleculeLayout", C, "the layout"),
    Control("atomLabelsCombo", C, "the atom labels"),
    Control("coordinateTable", Kind.TABLE, "document.atoms"),
    Control("geometryValueInput", L, "the distance, angle or dihedral to set"),
    Control("setGeometryButton", B, "document.atoms (internal coordinate)"),
    Control("fixCoordinateButton", B, "calculation.constraints (hold the selection)"),
    Control("clearConstraintsButton", B, "calculation.constraints and scan (remove)"),
    Control("scanEndInput", L, "the scan's end value"),
    Control("scanStepsSpin", S, "the scan's steps"),
    Control("scanCoordinateButton", B, "calculation.scan and task (scan the selection)"),
    Control("keepMeasurementButton", B, "the measurements"),
    Control("clearMeasurementsButton", B, "the measurements"),
    Control("measurementList", Kind.LIST, "the measurements"),
    Control("propElement", L, "atom element"),
    Control("propCharge", S, "atom formalCharge"),
    Control("propUnpaired", S, "atom unpairedElectrons"),
    Control("propName", L, "atom name"),
    Control("propMassNumber", S, "atom massNumber"),
    Control("propMass", Kind.SPIN, "atom mass"),
    Control("propFixed", K, "atom fixed"),
    Control("propApply", B, "document.atoms"),
    Control("moleculeTitle", L, "document.title", _grammar("title")),
    Control("moleculeCharge", S, "document.charge"),
    Control("moleculeMultiplicity", S, "document.multiplicity"),
    Control("moleculeApply", B, "document.title, charge, multiplicity"),
    # -- Calculation tab ------------------------------------------------------------------------
    Control("taskCombo", C, "calculation.task"),
    Control("theoryCombo", C, "calculation.theory"),
    Control("functionalCombo", C, "calculation.functional", _functional, stored=_functional_stored),
    Control("basisCombo", C, "calculation.basis", _grammar("basis")),
    Control("referenceCombo", C, "calculation.reference"),
    Control("chargeSpin", S, "document.charge"),
    Control("multiplicitySpin", S, "document.multiplicity"),
    Control("excitedRootsSpin", S, "calculation.excited_roots"),
    Control("excitedSpinCombo", C, "calculation.excited_spin"),
    Control("excitedMethodCombo", C, "calculation.excited_method"),
    Control("ircCheck", K, "calculation.irc"),
    Control("solventCombo", C, "calculation.solvent"),
    Control("dielectricEdit", L, "calculation.dielectric", _dielectric),
    Control("advancedToggle", K, "the advanced group"),
    Control("advanced_scratch_dir", L, "advanced.scratch_dir", _advanced_path("scratch_dir")),
    Control("advanced_permanent_dir", L, "advanced.permanent_dir", _advanced_path("permanent_dir")),
    Control("advanced_input_movecs", L, "advanced.input_movecs", _advanced_path("input_movecs")),
    Control("advanced_output_movecs", L, "advanced.output_movecs", _advanced_path("output_movecs")),
    Control("advanced_*", Kind.FIELD, "advanced.<key>"),  # after the path rows: first match wins
    Control("extraInputEdit", Kind.TEXT, "calculation.extra_input", protected=_EXTRA),
    Control("extraTasksEdit", Kind.TEXT, "calculation.extra_tasks", protected=_EXTRA),
    Control("applyExtraInputButton", B, "calculation.extra_input", protected=_EXTRA),
    # -- Execution tab --------------------------------------------------------------------------
    Control("executableEdit", L, "execution.executable", protected=_EXEC),
    Control("executableBrowse", B, "execution.executable", protected=_EXEC),
    Control("launcherEdit", L, "execution.launcher", protected=_EXEC),
    Control("launcherBrowse", B, "execution.launcher", protected=_EXEC),
    Control("environmentTable", Kind.TABLE, "execution.environment", protected=_EXEC),
    Control("environmentAdd", B, "execution.environment", protected=_EXEC),
    Control("environmentRemove", B, "execution.environment", protected=_EXEC),
    # "Run on": local, the local SLURM or a cluster profile (scheduler and remote_profile).
    Control("schedulerCombo", C, "execution.scheduler, execution.remote_profile", protected=_EXEC),
    Control("accountEdit", L, "execution.account", protected=_EXEC),
    Control("batchDirectivesEdit", L, "execution.batch_directives", protected=_EXEC),
    Control("processesSpin", S, "execution.processes"),
    Control("threadsSpin", S, "execution.threads"),
    Control("nodesSpin", S, "execution.nodes"),
    Control("tasksPerNodeSpin", S, "execution.tasksPerNode"),
    Control("timeLimitSpin", S, "execution.time_limit"),
    Control("partitionEdit", L, "execution.partition", _grammar("partition")),
    Control("qosEdit", L, "execution.qos", _grammar("qos")),
    Control("jobRootEdit", L, "execution.job_root", _job_root),
    Control("jobRootBrowse", B, "execution.job_root (a folder dialog)"),
    Control("referenceDirEdit", L, "execution.reference_dir", _reference_dir),
    Control("referenceDirBrowse", B, "execution.reference_dir (a folder dialog)"),
    Control("runButton", B, "a calculation (start)"),
    Control("stopButton", B, "the running calculation (stop)"),
    Control("saveInputSetButton", B, "a job folder (input set)"),
    # -- Results tab ----------------------------------------------------------------------------
    Control("resultsOpenFile", B, "the results (a file dialog)"),
    Control("resultsOpenFolder", B, "the results (a folder dialog)"),
    Control("resultsReload", B, "the results"),
    Control("resultsFileList", Kind.TREE, "the shown result"),
    Control("modesTable", Kind.TABLE, "the selected mode"),
    Control("playButton", B, "the animation"),
    Control("resultsStopButton", B, "the animation"),
    Control("amplitudeSpin", S, "the animation amplitude"),
    Control("modeArrowsCheck", K, "the displacement arrows"),
    Control("showChargesCheck", K, "the charge labels"),
    Control("showSpinsCheck", K, "the spin-population labels"),
    Control("trajectorySlider", Kind.SLIDER, "the shown structure"),
    Control("useStructureButton", B, "document.atoms (the shown structure)"),
    Control("resultsView", Kind.VIEW, "the results view"),
    Control("resultsCanvas", Kind.VIEW, "the results view"),
    Control("resultsPlotTabs", Kind.TABS, "the shown plot"),
    Control("irLineShapeCombo", C, "the IR plot"),
    Control("irScaleCombo", C, "the IR frequency scale"),
    Control("irWidthSpin", S, "the IR plot"),
    Control("irExportScale", S, "the IR image size"),
    Control("irExportCsv", B, "a file (a file dialog)"),
    Control("irExportPng", B, "a file (a file dialog)"),
    Control("uvvisWidthSpin", S, "the UV-Vis plot"),
    Control("uvvisExportCsv", B, "a file (a file dialog)"),
    Control("uvvisExportPng", B, "a file (a file dialog)"),
    Control("orbitalsTable", Kind.TABLE, "the orbital"),
    Control("scanTable", Kind.TABLE, "the structure shown (a scan point)"),
    Control("scanExportCsv", B, "a file (a file dialog)"),
    Control("orbitalTable", Kind.TABLE, "the orbital"),
    Control("orbitalIsovalue", L, "the orbital surface"),
    Control("orbitalShowButton", B, "the orbital surface"),
    Control("orbitalHideButton", B, "the orbital surface"),
    Control("orbitalHomoButton", B, "the orbital"),
    Control("orbitalLumoButton", B, "the orbital"),
    Control("orbitalSpinCombo", C, "the spin HOMO/LUMO take"),
    Control("orbitalSurfaceCombo", C, "the surface drawn (orbital, density, spin, ESP)"),
    Control("orbitalExportCubeButton", B, "a file (a file dialog)"),
    # -- History tab ----------------------------------------------------------------------------
    Control("historyScan", B, "the history table"),
    Control("historyTable", Kind.TABLE, "the selected job"),
    Control("historyPreviewTabs", Kind.TABS, "the preview"),
    Control("historyReuseGeometry", C, "which geometry Reuse takes"),
    Control("historyReuse", B, "the document (reuse a job)"),
    Control("historyUseFinalButton", B, "the document (a job's final structure)"),
    Control("historyOpenResults", B, "the results"),
    Control("historyOpenFolder", B, "the results (the job's folder)"),
    Control("historyTrash", B, "a job folder (to the trash; asks)"),
    Control("historyExportCsv", B, "a file (a file dialog)"),
    # -- the window -----------------------------------------------------------------------------
    Control("mainTabs", Kind.TABS, "the shown tab"),
    Control("moleculeTab", Kind.PAGE, "the shown tab"),
    Control("calculationTab", Kind.PAGE, "the shown tab"),
    Control("executionTab", Kind.PAGE, "the shown tab"),
    Control("resultsTab", Kind.PAGE, "the shown tab"),
    Control("historyTab", Kind.PAGE, "the shown tab"),
    # -- MolForma's own dialogs -----------------------------------------------------------------
    Control("messageBoxButton*", B, "the answer to MolForma's question", dialog="messageBox"),
    Control("structureFrame", S, "the model or frame to read", dialog="structureChoiceDialog"),
    Control("structureAltloc", C, "the alternate location", dialog="structureChoiceDialog"),
    Control("sdfRecordList", Kind.LIST, "the SDF record to read", dialog="structureChoiceDialog"),
    Control("structureChoiceOk", B, "reads the structure", dialog="structureChoiceDialog"),
    Control("structureChoiceCancel", B, "reads nothing", dialog="structureChoiceDialog"),
)

_BY_NAME: Mapping[str, Control] = {c.name: c for c in CONTROLS if not c.name.endswith("*")}
_PATTERNS: tuple[Control, ...] = tuple(c for c in CONTROLS if c.name.endswith("*"))


def control_for(object_name: str, dialog: str | None) -> Control | None:
    """The row of a control named ``object_name`` inside ``dialog`` (None: the main window).

    A name declared for one place is not drivable in another: a ``messageBoxButton0``
    outside MolForma's own message box, or a main-window name inside a dialog, is not a
    row.
    """
    if not object_name:
        return None
    row = _BY_NAME.get(object_name)
    if row is None:
        row = next((c for c in _PATTERNS if c.matches(object_name)), None)
    if row is None or row.dialog != dialog:
        return None
    return row


def check_tool(row: Control | None, tool: str, target: str) -> None:
    """Refuse ``tool`` on a control that is not declared for it.

    Raises:
        MolFormaError: ``ui_not_drivable`` (not declared) or ``ui_wrong_tool`` (declared,
            for other tools).
    """
    if row is None:
        raise MolFormaError("ui_not_drivable", target=target)
    if tool not in row.tools:
        raise MolFormaError(
            "ui_wrong_tool", target=target, tool=tool, kind=row.kind.value, tools=sorted(row.tools)
        )


def validate(row: Control, value: Any, policy: Policy | None) -> None:
    """Run the row's validator on a value MCP is about to set (nothing for rows without)."""
    if row.validate is not None:
        row.validate(value, policy)


__all__ = ["CONTROLS", "TOOLS_BY_KIND", "Control", "Kind", "check_tool", "control_for", "validate"]
