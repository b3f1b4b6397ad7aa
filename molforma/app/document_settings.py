"""The molecule's title, charge and multiplicity and the calculation, advanced and
execution settings of a document (no Qt; application layer).

Each setter checks the keys against its settings model and hands one edit to
:meth:`Document.edit` (a candidate or one undo step). The protected values (the
executable, launcher, environment, extra input and extra tasks) change only when the
caller allows it, and extra input is judged as NWChem reads it (docs/reference/safety.md, Protected text).
``actor`` says who asks; its origin is recorded on the edit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from molforma.app.actor import Actor
from molforma.app.policy import Policy, check_protected_change
from molforma.document.document import Document, EditResult
from molforma.document.envelope import Project, atoms_of
from molforma.errors import ValidationError
from molforma.i18n import render
from molforma.lazy import lazy_import
from molforma.nwchem.protected_text import check_extra_input
from molforma.nwchem.settings import (
    PROTECTED_CALCULATION_KEYS,
    PROTECTED_EXECUTION_KEYS,
    AdvancedSettings,
    CalculationSettings,
    ExecutionSettings,
)
from molforma.nwchem.value_grammar import validate_functional_text, validate_title

if TYPE_CHECKING:
    from molforma.jobs import folders as job_folders
    from molforma.nwchem import constraints, functionals
else:  # imported on first use (start-up time): molforma.lazy
    constraints = lazy_import("molforma.nwchem.constraints")
    functionals = lazy_import("molforma.nwchem.functionals")
    job_folders = lazy_import("molforma.jobs.folders")


def set_molecule(
    doc: Document,
    *,
    title: str | None = None,
    charge: int | None = None,
    multiplicity: int | None = None,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Set the molecule's title, charge and multiplicity."""
    if title is None and charge is None and multiplicity is None:
        raise ValidationError("empty_edit", detail="give title, charge or multiplicity")
    if title is not None and (not isinstance(title, str) or len(title) > 200):
        raise ValidationError(
            "invalid_argument", detail="title must be text of at most 200 characters"
        )
    if title is not None:
        validate_title(title)  # the person's field and every tool: one check

    def fn(work: Project) -> EditResult:
        d = work["document"]
        if title is not None:
            d["title"] = title
        if charge is not None:
            d["charge"] = charge
        if multiplicity is not None:
            d["multiplicity"] = multiplicity
        return EditResult(structure=True, touched=[])

    return doc.edit(
        fn,
        label="Set molecule",
        expected_revision=expected_revision,
        preview=preview,
        origin=actor.origin,
    )


def _settings_edit(
    doc: Document,
    block: str,
    model: type,
    values: Mapping[str, Any],
    protected: Sequence[str],
    allow_protected: bool,
    label: str,
    expected_revision: str | None,
    preview: bool,
    actor: Actor,
) -> dict[str, Any]:
    known = set(model.model_fields)  # type: ignore[attr-defined]
    if not values:
        raise ValidationError("empty_edit", detail=f"no {block} values given")
    for k in values:
        if k not in known:
            raise ValidationError(
                "unknown_setting", block=block, key=k, known=", ".join(sorted(known))
            )

    def fn(work: Project) -> EditResult:
        current = work[block]
        if protected:
            check_protected_change(
                current, values, block, Policy(allow_execution_settings=allow_protected)
            )
        if "extra_input" in values or "extra_tasks" in values:
            check_extra_input(
                str(values.get("extra_input", current.get("extra_input", ""))),
                list(values.get("extra_tasks", current.get("extra_tasks", []))),
            )
        current.update(values)
        return EditResult(structure=False)

    return doc.edit(
        fn, label=label, expected_revision=expected_revision, preview=preview, origin=actor.origin
    )


def set_nwchem(
    doc: Document,
    values: Mapping[str, Any],
    *,
    allow_protected: bool = True,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Change calculation conditions; extra input/tasks only when ``allow_protected``.

    A functional is stored by its table name (an alias or an equal ``xc`` line becomes
    the name); one the table does not know is refused (``unknown_functional``). A basis
    neither the catalogue nor the library here knows is set, with a warning in
    ``info.warnings`` naming the nearest library names (it may be a custom basis).
    ``constraints`` and ``scan`` (:mod:`molforma.nwchem.constraints`) are checked against
    the molecule; a constraint without a value, or a scan without a start, takes the
    coordinate's current value.
    """
    values = dict(values)
    # A solvent and a custom dielectric constant are two ways to give COSMO its one
    # constant: choosing one clears the other (both given at once is refused).
    if values.get("solvent") is not None and "dielectric" not in values:
        values["dielectric"] = None
    if values.get("dielectric") is not None and "solvent" not in values:
        values["solvent"] = None
    if "constraints" in values or "scan" in values:
        values = _constraint_values(doc, values)
    functional = values.get("functional")
    if isinstance(functional, str) and functional.strip():
        entry = functionals.find_entry(functional)  # aliases may hold ω: not xc text
        values["functional"] = (
            str(entry["name"])
            if entry is not None
            else functionals.canonical(validate_functional_text(functional))
        )
    out = _settings_edit(
        doc,
        "calculation",
        CalculationSettings,
        values,
        PROTECTED_CALCULATION_KEYS,
        allow_protected,
        "Set calculation",
        expected_revision,
        preview,
        actor,
    )
    calc = {
        **(doc.candidate if preview and doc.candidate is not None else doc.project).get(
            "calculation", {}
        )
    }
    warnings = [
        w for w in functionals.calculation_warnings(calc) if w["field"].split(".")[1] in values
    ]
    if warnings:
        out["info"] = {
            **out.get("info", {}),
            "warnings": [
                {
                    "code": w["code"],
                    "message": render(w["code"], w["details"]),
                    "field": w["field"],
                    "details": w["details"],
                }
                for w in warnings
            ],
        }
    return out


def _constraint_values(doc: Document, values: dict[str, Any]) -> dict[str, Any]:
    """Constraints and a scan normalised, an omitted value or scan start taken from the
    current geometry, and judged against the molecule and the task they would run with
    (unknown atom ids, fixed atoms, a scan without optimize): refused with nothing changed.
    """
    atoms = atoms_of(doc.project)
    values = constraints.fill_values(values, atoms)
    calc = {**(doc.project.get("calculation") or {}), **values}
    constraints.check_project({"document": {"atoms": atoms}, "calculation": calc})
    return values


def set_advanced(
    doc: Document,
    values: Mapping[str, Any],
    *,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Change advanced settings by key (null restores NWChem's default); an absolute
    scratch or permanent directory that does not exist is refused."""
    job_folders.check_work_dirs(values)
    return _settings_edit(
        doc,
        "advanced",
        AdvancedSettings,
        values,
        (),
        True,
        "Set advanced settings",
        expected_revision,
        preview,
        actor,
    )


def set_execution(
    doc: Document,
    values: Mapping[str, Any],
    *,
    allow_protected: bool = True,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Change execution settings; executable, launcher, environment only when allowed.
    An empty or relative job root is refused."""
    if "job_root" in values:
        job_folders.check_job_root(values["job_root"])
    return _settings_edit(
        doc,
        "execution",
        ExecutionSettings,
        values,
        PROTECTED_EXECUTION_KEYS,
        allow_protected,
        "Set execution",
        expected_revision,
        preview,
        actor,
    )


def get_execution(doc: Document) -> dict[str, Any]:
    """The execution block of the confirmed project."""
    return dict(doc.project["execution"])
