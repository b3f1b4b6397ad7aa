"""Read-only questions about a document: checks before a run, measurements, the
catalogue (no Qt; application layer).

:func:`validate_document` joins the structure checks, the functional table's verdict,
the symmetry the input writer chose and, for MCP, the folders a start would refuse.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from molforma.app.actor import Actor
from molforma.app.policy import Policy
from molforma.document.document import Document
from molforma.document.envelope import Project
from molforma.errors import FileAccessError, MolFormaError, ValidationError
from molforma.i18n import register, render
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma import catalog
    from molforma.app import files as app_files
    from molforma.app import runs
    from molforma.document import chemistry
    from molforma.jobs import folders as job_folders
    from molforma.nwchem import functionals
    from molforma.nwchem import input as nwchem_input
else:  # imported on first use (start-up time): molforma.lazy
    app_files = lazy_import("molforma.app.files")
    catalog = lazy_import("molforma.catalog")
    chemistry = lazy_import("molforma.document.chemistry")
    functionals = lazy_import("molforma.nwchem.functionals")
    job_folders = lazy_import("molforma.jobs.folders")
    nwchem_input = lazy_import("molforma.nwchem.input")
    runs = lazy_import("molforma.app.runs")

register(
    {
        "symmetry_off_open_shell": {
            "en": "Symmetry is off for this run (noautosym): {shape} can have degenerate frontier "
            "orbitals, which keep a symmetry-adapted SCF from converging. Set Advanced "
            "noautosym to false to use symmetry anyway.",
            "ja": "この計算では対称性を使いません（noautosym）。{shape}はフロンティア軌道が縮退"
            "しやすく、対称性を使うと SCF が収束しないことがあります。それでも対称性を使う"
            "には Advanced の noautosym を false にしてください。",
        },
        "job_root_suggestion": {
            "en": "For example: set_execution with job_root '{path}'.",
            "ja": "例: set_execution で job_root を「{path}」にしてください。",
        },
    }
)


_TABLE_FUNCTIONAL_CHECKS = (
    "functional_unknown",
    "functional_other_name",
    "functional_with_dispersion",
)


def _setting_checks(project: Project, out: dict[str, Any]) -> dict[str, Any]:
    """The functional judged by the functional table (an unknown one is an error, as the
    run would refuse it; an alias is fine) and an unknown basis with its nearest library
    names, in place of the structure checker's name-only remarks."""
    calc = project.get("calculation") or {}
    checks = [c for c in out.get("checks", []) if c["code"] != "basis_unknown"]
    if calc.get("theory") == "dft" and str(calc.get("functional", "")).strip():
        try:
            functionals.check(str(calc["functional"]))
        except ValidationError as exc:
            # The checker's advice for "b3lyp-d3bj" or "pbe" is the more precise sentence.
            if not any(c["code"] in _TABLE_FUNCTIONAL_CHECKS[1:] for c in checks):
                checks = [c for c in checks if c["code"] not in _TABLE_FUNCTIONAL_CHECKS]
                checks.append(
                    {"code": exc.code, "severity": "error", "message": exc.message(), "atoms": []}
                )
        else:
            checks = [c for c in checks if c["code"] not in _TABLE_FUNCTIONAL_CHECKS]
    for w in functionals.calculation_warnings(calc):
        checks.append(
            {
                "code": w["code"],
                "severity": "warning",
                "message": render(w["code"], w["details"]),
                "atoms": [],
            }
        )
    return {**out, "ok": not any(c["severity"] == "error" for c in checks), "checks": checks}


def validate_document(doc: Document, policy: Policy | None = None) -> dict[str, Any]:
    """Checks before running (parity, contacts, basis coverage, fragments, input problems);
    with ``policy`` (MCP) also the folders a start would refuse: a job root or an advanced
    path outside the allowed directories, with the setting to change."""
    out = _setting_checks(doc.project, chemistry.validate(doc.project, catalog.basis_elements))
    symmetry = _symmetry_choice(doc.project)
    if symmetry is not None:
        out = {**out, "checks": [*out.get("checks", []), symmetry]}
    folders = [
        {"code": p["code"], "severity": "error", "message": p["message"], "atoms": []}
        for p in job_folders.folder_problems(doc.project)
    ]
    if policy is not None and not folders:
        folders = _policy_problems(doc.project, policy)
    if folders:
        out = {**out, "ok": False, "checks": [*out.get("checks", []), *folders]}
    return out


def _symmetry_choice(project: Project) -> dict[str, Any] | None:
    """An ``info`` check saying that automatic symmetry is off, and why, when the input
    writer chose so (molforma.nwchem.input.symmetry_hazard)."""
    if (project.get("advanced") or {}).get("noautosym") is not None:
        return None
    hazard = nwchem_input.symmetry_hazard(project)
    if hazard is None:
        return None
    return {
        "code": "symmetry_off_open_shell",
        "severity": "info",
        "atoms": [],
        "message": render(
            "symmetry_off_open_shell", {"shape": render(f"symmetry_shape_{hazard}", {})}
        ),
    }


def _policy_problems(project: Project, policy: Policy) -> list[dict[str, Any]]:
    """What ``calculation start`` would refuse about the folders, as validate entries."""
    try:
        runs.check_folders(project, policy, Actor.MCP_TOOL)
    except FileAccessError as exc:
        message = exc.message()
        if exc.code == "job_root_not_allowed" and policy.allow_dirs:
            message += " " + render(
                "job_root_suggestion",
                {"path": str(policy.allow_dirs[0] / app_files.ALLOWED_JOB_ROOT_NAME)},
            )
        return [{"code": exc.code, "severity": "error", "message": message, "atoms": []}]
    except (MolFormaError, ValueError):
        return []  # a broken execution block: the start names it
    return []


def measure(
    doc: Document,
    *,
    distances: Sequence[Sequence[str]] = (),
    angles: Sequence[Sequence[str]] = (),
    dihedrals: Sequence[Sequence[str]] = (),
    which: str = "project",
) -> dict[str, Any]:
    """Distances (Å), angles and dihedrals (degrees) between atoms given by id."""
    proj = doc.candidate if which == "candidate" and doc.candidate is not None else doc.project
    return chemistry.measure(proj, distances=distances, angles=angles, dihedrals=dihedrals)


def get_catalog(kind: str | None = None) -> dict[str, Any]:
    """Fragments, ligands, basis sets, functionals, tasks and advanced keys."""
    return catalog.get_catalog(kind)
