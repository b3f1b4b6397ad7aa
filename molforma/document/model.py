"""The project envelope (SPEC.md section 2) and its checks (no Qt).

At run time a project is a plain JSON-like ``dict``: that keeps unknown fields of
a newer file through every edit and save without any effort, and makes undo a
matter of keeping references to earlier, never-mutated states. The pydantic
models here are the schema: they validate what comes in (files, tool arguments)
and describe it to clients.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from molforma.document import elements
from molforma.document import messages as _messages  # noqa: F401  (registers error texts)
from molforma.errors import FormatError, ValidationError
from molforma.formula import hill_formula
from molforma.nwchem.protected_text import check_project_calculation
from molforma.nwchem.settings import AdvancedSettings, CalculationSettings, ExecutionSettings

PROJECT_FORMAT: Final = "molforma-project"
PROJECT_VERSION = 1
MAX_ATOMS = 10_000
MIN_DISTANCE = 0.1  # Angstrom: closer atoms are duplicates
FORMAL_CHARGE_RANGE = (-99, 20)
UNPAIRED_RANGE = (0, 8)
MAX_NAME = 16
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
ATOM_ID = re.compile(r"^a[1-9][0-9]*$")

Project = dict[str, Any]
AtomDict = dict[str, Any]


class AtomModel(BaseModel):
    """One atom of the ``document`` block."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(description="Stable id such as 'a7'; never reused in a document.")
    element: str = Field(description="Element symbol, e.g. 'C'.")
    x: float = Field(description="x in Angstrom.")
    y: float = Field(description="y in Angstrom.")
    z: float = Field(description="z in Angstrom.")
    name: str = Field("", description="Optional label, at most 16 characters.")
    formalCharge: int = Field(0, description="Formal charge, -99..20.")
    unpairedElectrons: int = Field(0, description="Unpaired electrons on this atom, 0..8.")
    massNumber: int | None = Field(None, description="Isotope mass number from the table.")
    mass: float | None = Field(None, description="Arbitrary atomic mass (overrides massNumber).")
    fixed: bool = Field(False, description="Fixed atoms cannot move (and are NWChem constraints).")


class BondModel(BaseModel):
    """One bond between two atom ids."""

    model_config = ConfigDict(extra="allow")

    a: str
    b: str
    order: Literal[1, 2, 3] = 1


class DocumentModel(BaseModel):
    """The ``document`` block: molecule, charge, multiplicity."""

    model_config = ConfigDict(extra="allow")

    title: str = ""
    charge: int = 0
    multiplicity: int = Field(1, ge=1, le=20)
    atoms: list[AtomModel] = Field(default_factory=list)
    bonds: list[BondModel] = Field(default_factory=list)
    nextAtomId: int = Field(1, ge=1)


class ProjectModel(BaseModel):
    """The whole envelope of a ``*.molforma.json`` file."""

    model_config = ConfigDict(extra="allow")

    format: Literal["molforma-project"] = PROJECT_FORMAT
    version: int = PROJECT_VERSION
    document: DocumentModel = Field(default_factory=DocumentModel)
    calculation: CalculationSettings = Field(default_factory=CalculationSettings)
    advanced: AdvancedSettings = Field(default_factory=AdvancedSettings)
    execution: ExecutionSettings = Field(default_factory=ExecutionSettings)


def new_project(**execution: Any) -> Project:
    """An empty project with default settings (``execution`` overrides defaults)."""
    proj = ProjectModel().model_dump(mode="json")
    proj["execution"].update(execution)
    return proj


def new_atom(atom_id: str, element: str, x: float, y: float, z: float, **props: Any) -> AtomDict:
    """An atom dict with every standard key in SPEC order."""
    atom: AtomDict = {
        "id": atom_id, "element": element, "x": float(x), "y": float(y), "z": float(z),
        "name": "", "formalCharge": 0, "unpairedElectrons": 0, "massNumber": None,
        "mass": None, "fixed": False,
    }
    atom.update(props)
    return atom


def clone_project(p: Project) -> Project:
    """A copy whose standard containers may be changed without touching ``p``.

    Unknown nested values are shared: no edit changes them, so sharing is safe
    and keeps a copy of a 10,000-atom project to a few milliseconds.
    """
    out = dict(p)
    doc = dict(p.get("document", {}))
    doc["atoms"] = [dict(a) for a in doc.get("atoms", [])]
    doc["bonds"] = [dict(b) for b in doc.get("bonds", [])]
    out["document"] = doc
    for key in ("calculation", "advanced", "execution"):
        if isinstance(p.get(key), dict):
            out[key] = dict(p[key])
    if isinstance(out.get("execution", {}).get("environment"), dict):
        out["execution"]["environment"] = dict(out["execution"]["environment"])
    if isinstance(out.get("calculation", {}).get("extra_tasks"), list):
        out["calculation"]["extra_tasks"] = list(out["calculation"]["extra_tasks"])
    return out


def atoms_of(p: Project) -> list[AtomDict]:
    """The atom list of a project."""
    atoms: list[AtomDict] = p["document"]["atoms"]
    return atoms


def bonds_of(p: Project) -> list[dict[str, Any]]:
    """The bond list of a project."""
    bonds: list[dict[str, Any]] = p["document"]["bonds"]
    return bonds


def formula(atoms: Iterable[Mapping[str, Any]]) -> str:
    """Hill formula of atom dicts (see :func:`molforma.formula.hill_formula`)."""
    return hill_formula(a["element"] for a in atoms)


def electron_count(p: Project) -> int:
    """Electrons of the neutral atoms minus the molecular charge."""
    total = sum(elements.atomic_number(a["element"]) for a in atoms_of(p))
    return total - int(p["document"].get("charge", 0))


# ---------------------------------------------------------------------------
# Checks shared by edits and loading. Each raises ValidationError and changes nothing.


def check_atom_fields(atom: Mapping[str, Any]) -> None:
    """Check one atom's element, properties and coordinates against SPEC.md section 2."""
    aid = atom.get("id")
    el = atom.get("element")
    if not isinstance(el, str) or elements.normalize_symbol(el) != el:
        raise ValidationError("bad_element", id=aid, element=el)
    for key in ("x", "y", "z"):
        v = atom.get(key)
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise ValidationError("bad_coordinate", id=aid, value=v)
        if abs(v) > 1e5:
            raise ValidationError("bad_coordinate", id=aid, value=v)
    fc = atom.get("formalCharge", 0)
    if isinstance(fc, bool) or not isinstance(fc, int) or not (
        FORMAL_CHARGE_RANGE[0] <= fc <= FORMAL_CHARGE_RANGE[1]
    ):
        raise ValidationError("formal_charge_range", id=aid, value=fc)
    ue = atom.get("unpairedElectrons", 0)
    if isinstance(ue, bool) or not isinstance(ue, int) or not (
        UNPAIRED_RANGE[0] <= ue <= UNPAIRED_RANGE[1]
    ):
        raise ValidationError("unpaired_range", id=aid, value=ue)
    name = atom.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_NAME or _CONTROL.search(name):
        raise ValidationError("bad_atom_name", id=aid, name=name, max=MAX_NAME)
    mn = atom.get("massNumber")
    if mn is not None and (
        isinstance(mn, bool) or not isinstance(mn, int) or elements.isotope_mass(el, mn) is None
    ):
        raise ValidationError("unknown_isotope", id=aid, element=el, massNumber=mn)
    mass = atom.get("mass")
    if mass is not None and (
        isinstance(mass, bool) or not isinstance(mass, int | float)
        or not math.isfinite(mass) or not (0 < mass < 1000)
    ):
        raise ValidationError("bad_mass", id=aid, mass=mass)
    if not isinstance(atom.get("fixed", False), bool):
        raise ValidationError("bad_fixed", id=aid, value=atom.get("fixed"))


_PLAIN_PROPS = ((int, 0), (int, 0), (str, ""), (type(None), None), (type(None), None),
                (bool, False))


def check_atoms_fields(atoms: list[AtomDict]) -> None:
    """:func:`check_atom_fields` for many atoms, in bulk where they are plain.

    Atoms with default properties (the usual case of a loaded structure) are checked
    column by column; any other atom, and every atom when a column is unusual, goes
    through :func:`check_atom_fields`, so the error raised is the same.
    """

    plain: list[AtomDict] = []
    other: list[AtomDict] = []
    for a in atoms:
        props = ((type(a.get("formalCharge", 0)), a.get("formalCharge", 0)),
                 (type(a.get("unpairedElectrons", 0)), a.get("unpairedElectrons", 0)),
                 (type(a.get("name", "")), a.get("name", "")),
                 (type(a.get("massNumber")), a.get("massNumber")),
                 (type(a.get("mass")), a.get("mass")),
                 (type(a.get("fixed", False)), a.get("fixed", False)))
        if props[:5] == _PLAIN_PROPS[:5] and props[5] in ((bool, False), (bool, True)):
            plain.append(a)
        else:
            other.append(a)
    if _plain_atoms_ok(plain):
        for a in other:
            check_atom_fields(a)
        return
    for a in atoms:  # in file order, so the first bad atom is the one named
        check_atom_fields(a)


def _plain_atoms_ok(plain: list[AtomDict]) -> bool:
    import numpy as np

    if not plain:
        return True
    try:
        els = {a["element"] for a in plain}
        kinds = {type(a[k]) for a in plain for k in ("x", "y", "z")}
    except (KeyError, TypeError):
        return False
    if not (els <= elements.SYMBOLS and kinds <= {float, int}):
        return False
    xyz = np.array([(a["x"], a["y"], a["z"]) for a in plain], dtype=float)
    return bool(np.isfinite(xyz).all() and (np.abs(xyz) <= 1e5).all())


def close_pairs(
    coords: Any, query: Iterable[int] | None = None, cutoff: float = MIN_DISTANCE
) -> list[tuple[int, int, float]]:
    """Pairs of atom indices closer than ``cutoff``, at least one of them in ``query``.

    A cell grid of ``cutoff`` side, searched with numpy, keeps this linear in the
    number of atoms (a 10,000-atom move is checked in milliseconds).
    """
    import numpy as np

    xyz = np.asarray(coords, dtype=float).reshape(-1, 3)
    n = len(xyz)
    if n < 2:
        return []
    cells = np.floor(xyz / cutoff).astype(np.int64)
    cells -= cells.min(axis=0)
    span = cells.max(axis=0) + 3
    keys = ((cells[:, 0] + 1) * span[1] + (cells[:, 1] + 1)) * span[2] + (cells[:, 2] + 1)
    order = np.argsort(keys, kind="stable")
    skeys = keys[order]
    if query is None:
        q = order  # already sorted by cell key: searchsorted then walks memory in order
    else:
        q = np.fromiter(query, dtype=np.int64)
        q = q[np.argsort(keys[q], kind="stable")]
    if len(q) == 0:
        return []
    found: set[tuple[int, int]] = set()
    qkeys = keys[q]
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dz in (-1, 0, 1):
                shifted = qkeys + (dx * span[1] + dy) * span[2] + dz
                lo = np.searchsorted(skeys, shifted, side="left")
                hi = np.searchsorted(skeys, shifted, side="right")
                count = hi - lo
                # in its own cell an atom always finds itself: only crowded cells matter
                hits = np.nonzero(count > 1 if (dx, dy, dz) == (0, 0, 0) else count > 0)[0]
                for h in hits:
                    i = int(q[h])
                    for j in order[lo[h]:hi[h]]:
                        j = int(j)
                        if j != i:
                            found.add((min(i, j), max(i, j)))
    out = []
    for i, j in sorted(found):
        d = float(np.linalg.norm(xyz[i] - xyz[j]))
        if d < cutoff:
            out.append((i, j, d))
    return out


def check_contacts(p: Project, touched: Iterable[str] | None = None) -> None:
    """Refuse atoms closer than 0.1 Å (duplicates), looking only at ``touched`` atoms."""
    atoms = p["document"]["atoms"]
    if touched is None:
        query = None
    else:
        pos = {a["id"]: i for i, a in enumerate(atoms)}
        query = [pos[t] for t in set(touched) if t in pos]
        if not query:
            return
    pairs = close_pairs([(a["x"], a["y"], a["z"]) for a in atoms], query)
    if pairs:
        i, j, d = pairs[0]
        raise ValidationError(
            "atoms_too_close", a=atoms[i]["id"], b=atoms[j]["id"], distance=round(d, 4),
            min=MIN_DISTANCE,
        )


def check_structure(p: Project, touched: Iterable[str] | None = None) -> None:
    """Check atoms, ids, bonds, the atom limit and close contacts of ``p``.

    ``touched`` limits the distance check to atoms that an edit added or moved.
    """
    doc = p["document"]
    atoms = doc["atoms"]
    if len(atoms) > MAX_ATOMS:
        raise ValidationError("too_many_atoms", count=len(atoms), max=MAX_ATOMS)
    index: dict[str, int] = {}
    for i, a in enumerate(atoms):
        aid = a.get("id")
        if not isinstance(aid, str) or not ATOM_ID.match(aid):
            raise ValidationError("bad_atom_id", id=aid)
        if aid in index:
            raise ValidationError("duplicate_atom_id", id=aid)
        index[aid] = i
    seen: set[tuple[str, str]] = set()
    for b in doc["bonds"]:
        a1, a2 = b.get("a"), b.get("b")
        if a1 not in index or a2 not in index:
            raise ValidationError("bond_unknown_atom", a=a1, b=a2)
        if a1 == a2:
            raise ValidationError("bond_self", a=a1)
        key = (min(a1, a2), max(a1, a2))
        if key in seen:
            raise ValidationError("duplicate_bond", a=a1, b=a2)
        seen.add(key)
        if b.get("order") not in (1, 2, 3) or isinstance(b.get("order"), bool):
            raise ValidationError("bad_bond_order", a=a1, b=a2, order=b.get("order"))
    ch = doc.get("charge", 0)
    mult = doc.get("multiplicity", 1)
    if isinstance(ch, bool) or not isinstance(ch, int) or abs(ch) > 999:
        raise ValidationError("bad_charge", value=ch)
    if isinstance(mult, bool) or not isinstance(mult, int) or not 1 <= mult <= 20:
        raise ValidationError("bad_multiplicity", value=mult)
    if touched is None:
        query = None
        to_check = atoms
    else:
        query = [index[t] for t in set(touched) if t in index]
        to_check = [atoms[i] for i in query]
    check_atoms_fields(to_check)
    check_contacts(p, None if query is None else [atoms[i]["id"] for i in query])
    max_id = max((int(a["id"][1:]) for a in atoms), default=0)
    nxt = doc.get("nextAtomId", 1)
    if isinstance(nxt, bool) or not isinstance(nxt, int) or nxt <= max_id:
        raise ValidationError("bad_next_atom_id", nextAtomId=nxt, maxId=max_id)


SETTINGS_MODELS: dict[str, type[BaseModel]] = {
    "calculation": CalculationSettings, "advanced": AdvancedSettings,
    "execution": ExecutionSettings,
}


def settings_block(p: Mapping[str, Any], key: str) -> Any:
    """The validated settings model of block ``key`` (defaults for missing keys).

    Raises:
        ValidationError: ``bad_setting`` naming the block, the key and the reason.
    """
    from pydantic import ValidationError as PydanticError

    block = p.get(key) or {}
    try:
        return SETTINGS_MODELS[key].model_validate(block)
    except PydanticError as exc:
        err = exc.errors(include_url=False)[0]
        raise ValidationError(
            "bad_setting", block=key, key=".".join(str(x) for x in err["loc"]),
            reason=err["msg"],
        ) from exc


def check_settings(p: Project) -> None:
    """Validate the settings blocks against their models (unknown keys allowed)."""
    for key in SETTINGS_MODELS:
        settings_block(p, key)


def project_from_json(data: Any, source: str = "project") -> Project:
    """Normalise a loaded envelope: defaults filled in, unknown fields kept, rules checked.

    Raises:
        FormatError: not a MolForma project.
        ValidationError: it breaks a document rule.
    """
    if not isinstance(data, dict) or data.get("format") != PROJECT_FORMAT:
        raise FormatError(format="project", where="", reason=f"{source} is not a molforma-project")
    if data.get("version", 1) != PROJECT_VERSION:
        raise FormatError(format="project", where="", reason=f"unsupported version {data.get('version')}")
    base = new_project()
    out = dict(data)
    for key in ("calculation", "advanced", "execution"):
        block = data.get(key, {})
        if not isinstance(block, dict):
            raise FormatError(format="project", where="", reason=f"'{key}' is not an object")
        out[key] = {**base[key], **block}
    doc = data.get("document", {})
    if not isinstance(doc, dict):
        raise FormatError(format="project", where="", reason="'document' is not an object")
    newdoc = {**base["document"], **doc}
    atoms_in = newdoc.get("atoms", [])
    bonds_in = newdoc.get("bonds", [])
    if not isinstance(atoms_in, list) or not isinstance(bonds_in, list):
        raise FormatError(format="project", where="", reason="atoms and bonds must be lists")
    atoms = []
    for a in atoms_in:
        if not isinstance(a, dict):
            raise FormatError(format="project", where="", reason="an atom is not an object")
        atom = new_atom(a.get("id", ""), a.get("element", ""), 0, 0, 0)
        atom.update(a)
        atoms.append(atom)
    bonds = []
    for b in bonds_in:
        if not isinstance(b, dict):
            raise FormatError(format="project", where="", reason="a bond is not an object")
        bonds.append({"order": 1, **b})
    newdoc["atoms"] = atoms
    newdoc["bonds"] = bonds
    if "nextAtomId" not in doc:
        newdoc["nextAtomId"] = max((int(a["id"][1:]) for a in atoms
                                    if isinstance(a["id"], str) and ATOM_ID.match(a["id"])),
                                   default=0) + 1
    out["document"] = newdoc
    check_structure(out)
    check_settings(out)
    # A project from a file, a string or a job folder may carry any extra input: judge it
    # now, so no way of loading one puts a refused directive into the document.
    check_project_calculation(out["calculation"])
    return out
