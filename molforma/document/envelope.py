"""The project envelope (docs/reference/project-file.md, The envelope) and its checks (no Qt).

At run time a project is a JSON-like ``dict`` envelope: that keeps unknown fields of
a newer file through every edit and save without any effort, and makes undo a
matter of keeping references to earlier, never-mutated states. A stored project's
atoms and bonds are the column tables of :mod:`molforma.document.molecule`
(``AtomTable`` / ``BondTable``, read-only sequences of atom dicts); a project built
by hand or by a reader may hold plain lists of dicts, and every function here takes
either. The pydantic
models of :mod:`molforma.document.envelope_schema` are the schema: they validate what comes
in (files, tool arguments) and describe it to clients; they load on first use.
"""

from __future__ import annotations

import copy
import functools
import math
import operator
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

from molforma.document import elements
from molforma.document import messages as _messages  # noqa: F401  (registers error texts)
from molforma.document.tabletypes import is_atom_table, is_bond_table
from molforma.errors import FormatError, ValidationError
from molforma.formula import hill_formula, hill_formula_counts
from molforma.lazy import lazy_import
from molforma.nwchem.protected_text import check_project_calculation

if TYPE_CHECKING:
    import numpy as np
    import pydantic

    from molforma.document import arrays, coordinates, envelope_schema, molecule, neighbours
else:  # imported on first use (start-up time): molforma.lazy
    np = lazy_import("numpy")
    pydantic = lazy_import("pydantic")
    arrays = lazy_import("molforma.document.arrays")
    coordinates = lazy_import("molforma.document.coordinates")
    # The settings models (pydantic) load on the first project, not with this module: a
    # structure conversion never needs them.
    envelope_schema = lazy_import("molforma.document.envelope_schema")
    molecule = lazy_import("molforma.document.molecule")
    neighbours = lazy_import("molforma.document.neighbours")

PROJECT_FORMAT: Final = "molforma-project"
PROJECT_VERSION: Final = 1
MAX_ATOMS = 1_000_000  # docs/reference/document.md, Atom ids; the document is array-backed
MIN_DISTANCE = 0.1  # Angstrom: closer atoms are duplicates
FORMAL_CHARGE_RANGE = (-99, 20)
UNPAIRED_RANGE = (0, 8)
MAX_NAME = 16
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
ATOM_ID = re.compile(r"^a[1-9][0-9]*$")

Project = dict[str, Any]
AtomDict = dict[str, Any]


def new_project(**execution: Any) -> Project:
    """An empty project with default settings (``execution`` overrides defaults)."""
    proj = copy.deepcopy(_default_project())
    proj["execution"].update(execution)
    return proj


@functools.lru_cache(maxsize=1)
def _default_project() -> Project:
    return envelope_schema.ProjectModel().model_dump(mode="json")


def new_atom(atom_id: str, element: str, x: float, y: float, z: float, **props: Any) -> AtomDict:
    """An atom dict with every standard key in the order of docs/reference/project-file.md."""
    atom: AtomDict = {
        "id": atom_id,
        "element": element,
        "x": float(x),
        "y": float(y),
        "z": float(z),
        "name": "",
        "formalCharge": 0,
        "unpairedElectrons": 0,
        "massNumber": None,
        "mass": None,
        "fixed": False,
    }
    atom.update(props)
    return atom


def clone_project(p: Project, *, structure: bool = True) -> Project:
    """A copy whose standard containers may be changed without touching ``p``.

    Unknown nested values are shared: no edit changes them, so sharing is safe
    and keeps a copy of a 10,000-atom project to a few milliseconds.
    ``structure=False`` shares the atom and bond lists too, for an edit that only
    replaces them wholesale (loading a file, moving atoms) and never changes them.
    """
    out = dict(p)
    doc = dict(p.get("document", {}))
    if structure:
        atoms, bonds = doc.get("atoms", []), doc.get("bonds", [])
        # a table's rows are new dicts already: records to change, nothing stored shared
        doc["atoms"] = atoms.to_records() if is_atom_table(atoms) else [dict(a) for a in atoms]
        doc["bonds"] = bonds.to_records() if is_bond_table(bonds) else [dict(b) for b in bonds]
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


_ELEMENT = operator.itemgetter("element")


def formula(atoms: Iterable[Mapping[str, Any]]) -> str:
    """Hill formula of atom dicts or a table (see :func:`molforma.formula.hill_formula`)."""
    if is_atom_table(atoms):
        return hill_formula_counts(atoms.element_counts())
    return hill_formula(map(_ELEMENT, atoms))


def electron_count(p: Project) -> int:
    """Electrons of the neutral atoms minus the molecular charge."""
    atoms = atoms_of(p)
    if is_atom_table(atoms):
        return int(atoms.z.sum(dtype="int64")) - int(p["document"].get("charge", 0))
    total = sum(elements.atomic_number(a["element"]) for a in atoms)
    return total - int(p["document"].get("charge", 0))


# ---------------------------------------------------------------------------
# Checks shared by edits and loading. Each raises ValidationError and changes nothing.


def check_atom_fields(atom: Mapping[str, Any]) -> None:
    """Check one atom's element, properties and coordinates against docs/reference/document.md, Validation."""
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
    if (
        isinstance(fc, bool)
        or not isinstance(fc, int)
        or not (FORMAL_CHARGE_RANGE[0] <= fc <= FORMAL_CHARGE_RANGE[1])
    ):
        raise ValidationError("formal_charge_range", id=aid, value=fc)
    ue = atom.get("unpairedElectrons", 0)
    if (
        isinstance(ue, bool)
        or not isinstance(ue, int)
        or not (UNPAIRED_RANGE[0] <= ue <= UNPAIRED_RANGE[1])
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
        isinstance(mass, bool)
        or not isinstance(mass, int | float)
        or not math.isfinite(mass)
        or not (0 < mass < 1000)
    ):
        raise ValidationError("bad_mass", id=aid, mass=mass)
    if not isinstance(atom.get("fixed", False), bool):
        raise ValidationError("bad_fixed", id=aid, value=atom.get("fixed"))


def check_atoms_fields(atoms: list[AtomDict]) -> None:
    """:func:`check_atom_fields` for many atoms, column by column.

    Each property is checked for all atoms at once (its types, its range); only when a
    column holds something unusual, or for atoms with an isotope or a mass, does the
    atom-by-atom check run, in file order, so the error raised is the same.
    """
    if not atoms or not _columns_ok(atoms):
        for a in atoms:  # in file order, so the first bad atom is the one named
            check_atom_fields(a)
        return
    for a in atoms:
        if a.get("massNumber") is not None or a.get("mass") is not None:
            check_atom_fields(a)


def _int_column_ok(values: list[Any], low: int, high: int) -> bool:
    return set(map(type, values)) <= {int} and low <= min(values) and max(values) <= high


def _columns_ok(atoms: list[AtomDict]) -> bool:
    """Whether every atom passes :func:`check_atom_fields` apart from isotopes and masses."""
    els = [a.get("element") for a in atoms]
    if not set(els) <= elements.SYMBOLS:
        return False
    coords: list[Any] = []
    for key in ("x", "y", "z"):
        col = [a.get(key) for a in atoms]
        if not set(map(type, col)) <= {float, int}:
            return False
        coords.append(col)
    xyz = np.array(coords, dtype=float)
    if not (np.isfinite(xyz).all() and (np.abs(xyz) <= 1e5).all()):
        return False
    if not _int_column_ok([a.get("formalCharge", 0) for a in atoms], *FORMAL_CHARGE_RANGE):
        return False
    if not _int_column_ok([a.get("unpairedElectrons", 0) for a in atoms], *UNPAIRED_RANGE):
        return False
    names = [a.get("name", "") for a in atoms]
    if not set(map(type, names)) <= {str} or max(map(len, names)) > MAX_NAME:
        return False
    if _CONTROL.search("".join(names)):
        return False
    return set(map(type, (a.get("fixed", False) for a in atoms))) <= {bool}


def close_pairs(
    coords: Any, query: Iterable[int] | None = None, cutoff: float = MIN_DISTANCE
) -> list[tuple[int, int, float]]:
    """Pairs of atom indices closer than ``cutoff``, at least one of them in ``query``.

    Without ``query`` every pair is looked at
    (:func:`molforma.document.neighbours.pairs_closer_than`); with it, only the cells
    around the query atoms (a 10,000-atom move is checked in milliseconds). Either way
    the answer lists every close pair, so it can be long for atoms piled on one spot:
    refusing duplicates needs only the first (:func:`check_contacts`).
    """
    xyz = np.asarray(coords, dtype=float).reshape(-1, 3)
    n = len(xyz)
    if n < 2:
        return []
    if query is None:
        ci, cj, cd = neighbours.pairs_closer_than(xyz, cutoff)
    else:
        q = np.fromiter(query, dtype=np.int64)
        ci, cj, cd = neighbours.first_pairs_closer_than(xyz, cutoff, q, limit=n * n)
    return list(zip(ci.tolist(), cj.tolist(), cd.tolist(), strict=True))


# Pairs named in the details of ``atoms_too_close`` (the message names the first).
_REPORTED_PAIRS = 5


def check_contacts(p: Project, touched: Iterable[str] | None = None) -> None:
    """Refuse atoms closer than 0.1 Å (duplicates), looking only at ``touched`` atoms.

    Linear in the number of atoms even when thousands share one position: the search
    stops at the first few offending pairs, which the error reports.
    """
    atoms = p["document"]["atoms"]
    table = atoms if is_atom_table(atoms) else None
    query: Any
    if touched is None:
        query = None
    elif table is not None:
        rows = table.rows_of(set(touched))
        query = rows[rows >= 0]
        if not len(query):
            return
    else:
        wanted = set(touched)
        if not wanted:
            return
        pos = {a["id"]: i for i, a in enumerate(atoms)}
        query = [pos[t] for t in wanted if t in pos]
        if not query:
            return
    xyz = table.xyz if table is not None else coordinates.xyz_array(atoms)
    ci, cj, cd = neighbours.first_pairs_closer_than(xyz, MIN_DISTANCE, query, limit=_REPORTED_PAIRS)
    if len(ci):
        pairs = [
            [atoms[i]["id"], atoms[j]["id"], round(d, 4)]
            for i, j, d in zip(ci.tolist(), cj.tolist(), cd.tolist(), strict=True)
        ]
        a, b, d = pairs[0]
        raise ValidationError(
            "atoms_too_close", a=a, b=b, distance=d, min=MIN_DISTANCE, pairs=pairs
        )


_IDS = re.compile(r"(?:a[1-9][0-9]*\n)*")


def _id_index(atoms: list[AtomDict]) -> dict[str, int]:
    """Position of each atom id; raises on a bad or repeated id (the first one, in order)."""
    ids = [a.get("id") for a in atoms]
    try:
        joined = "\n".join(ids) + "\n" if ids else ""  # type: ignore[arg-type]
    except TypeError:
        joined = None
    # the count of line ends guards against an id that holds a line end itself
    if joined is not None and joined.count("\n") == len(ids) and _IDS.fullmatch(joined):
        fast: dict[str, int] = dict(zip(ids, range(len(ids)), strict=True))  # type: ignore[arg-type]
        if len(fast) == len(ids):
            return fast
    index: dict[str, int] = {}
    for i, aid in enumerate(ids):
        if not isinstance(aid, str) or not ATOM_ID.match(aid):
            raise ValidationError("bad_atom_id", id=aid)
        if aid in index:
            raise ValidationError("duplicate_atom_id", id=aid)
        index[aid] = i
    return index


def _check_bonds(bonds: list[dict[str, Any]], index: dict[str, int]) -> None:
    """Refuse bonds to unknown atoms, to the atom itself, repeated pairs and bad orders.

    All bonds are checked at once with numpy; only a failing set is walked bond by bond,
    so the error names the first bad bond in order.
    """
    if not bonds:
        return
    try:
        ia = np.fromiter((index[b["a"]] for b in bonds), dtype=np.int64, count=len(bonds))
        ib = np.fromiter((index[b["b"]] for b in bonds), dtype=np.int64, count=len(bonds))
        orders = [b.get("order") for b in bonds]
    except (KeyError, TypeError):
        ok = False
    else:
        lo, hi = np.minimum(ia, ib), np.maximum(ia, ib)
        ok = (
            set(map(type, orders)) <= {int}
            and set(orders) <= {1, 2, 3}
            and not (lo == hi).any()
            and not arrays.has_repeats(lo * len(index) + hi)
        )
    if ok:
        return
    seen: set[tuple[str, str]] = set()
    for b in bonds:
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


def check_structure(p: Project, touched: Iterable[str] | None = None, *, checked: str = "") -> None:
    """Check atoms, ids, bonds, the atom limit and close contacts of ``p``.

    ``touched`` limits the distance check to atoms that an edit added or moved.
    ``checked`` says what the caller has checked already by building the structure
    itself under these rules (a file reader): ``"atoms"`` (ids, atom fields, bonds) or
    ``"all"`` (also the contacts); the atom limit, charge, multiplicity and
    ``nextAtomId`` are checked always.
    """
    doc = p["document"]
    atoms = doc["atoms"]
    if len(atoms) > MAX_ATOMS:
        raise ValidationError("too_many_atoms", count=len(atoms), max=MAX_ATOMS)
    if is_atom_table(atoms) and is_bond_table(doc["bonds"]):
        if checked in ("atoms", "all") or _table_ok(atoms, doc["bonds"], touched):
            _check_charge_and_multiplicity(doc)
            if checked != "all":
                check_contacts(p, touched)
            _check_next_id(doc, int(atoms.ids.max()) if len(atoms) else 0)
            return
        p = molecule.plain_project(p)  # some rule is broken: the record checks name it
        doc = p["document"]
        atoms = doc["atoms"]
        checked = ""
    if checked in ("atoms", "all"):
        _check_charge_and_multiplicity(doc)
        if checked != "all":
            check_contacts(p)
        _check_next_id(doc, max((int(a["id"][1:]) for a in atoms[-1:]), default=0))
        return
    index = _id_index(atoms)
    _check_bonds(doc["bonds"], index)
    _check_charge_and_multiplicity(doc)
    if touched is None:
        query = None
        to_check = atoms
    else:
        query = [index[t] for t in set(touched) if t in index]
        to_check = [atoms[i] for i in query]
    check_atoms_fields(to_check)
    check_contacts(p, None if query is None else [atoms[i]["id"] for i in query])
    _check_next_id(doc, max((int(aid[1:]) for aid in index), default=0))


def _table_ok(atoms: Any, bonds: Any, touched: Iterable[str] | None) -> bool:
    """Whether the atoms (those ``touched``, or all) and every bond of column tables keep
    the rules of :func:`check_atom_fields` and the bond rules, all columns at once. Where
    not, the record checks run to name the first offender."""
    if len(atoms) and (atoms.ids.min() < 1 or arrays.has_repeats(atoms.ids)):
        return False
    if len(bonds):
        ia, ib = bonds.rows_in(atoms)
        if (ia < 0).any() or (ib < 0).any() or (ia == ib).any():
            return False
        lo, hi = np.minimum(ia, ib), np.maximum(ia, ib)
        if arrays.has_repeats(lo * len(atoms) + hi):
            return False
        if ((bonds.order < 1) | (bonds.order > 3)).any():
            return False
    rows: Any = slice(None)
    if touched is not None:
        rows = atoms.rows_of(set(touched))
        rows = rows[rows >= 0]
    xyz = atoms.xyz[rows]
    if not (np.isfinite(xyz).all() and (np.abs(xyz) <= 1e5).all()):
        return False
    ch, ue = atoms.charge[rows], atoms.unpaired[rows]
    if len(ch) and (
        ch.min() < FORMAL_CHARGE_RANGE[0]
        or ch.max() > FORMAL_CHARGE_RANGE[1]
        or ue.max() > UNPAIRED_RANGE[1]
    ):
        return False
    if atoms.names is not None:
        names = atoms.names[rows].tolist()
        if names and (max(map(len, names)) > MAX_NAME or _CONTROL.search("".join(names))):
            return False
    special = np.flatnonzero((atoms.mass_number[rows] != 0) | ~np.isnan(atoms.mass[rows]))
    if len(special):
        recs = atoms.to_records()
        picked = np.arange(len(atoms))[rows][special]
        try:
            for i in picked.tolist():
                check_atom_fields(recs[i])
        except ValidationError:
            return False
    return True


def _check_charge_and_multiplicity(doc: dict[str, Any]) -> None:
    ch = doc.get("charge", 0)
    mult = doc.get("multiplicity", 1)
    if isinstance(ch, bool) or not isinstance(ch, int) or abs(ch) > 999:
        raise ValidationError("bad_charge", value=ch)
    if isinstance(mult, bool) or not isinstance(mult, int) or not 1 <= mult <= 20:
        raise ValidationError("bad_multiplicity", value=mult)


def _check_next_id(doc: dict[str, Any], max_id: int) -> None:
    nxt = doc.get("nextAtomId", 1)
    if isinstance(nxt, bool) or not isinstance(nxt, int) or nxt <= max_id:
        raise ValidationError("bad_next_atom_id", nextAtomId=nxt, maxId=max_id)


SETTINGS_BLOCKS = ("calculation", "advanced", "execution")


def settings_block(p: Mapping[str, Any], key: str) -> Any:
    """The validated settings model of block ``key`` (defaults for missing keys).

    Raises:
        ValidationError: ``bad_setting`` naming the block, the key and the reason.
    """
    block = p.get(key) or {}
    try:
        return envelope_schema.SETTINGS_MODELS[key].model_validate(block)
    except pydantic.ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        raise ValidationError(
            "bad_setting",
            block=key,
            key=".".join(str(x) for x in err["loc"]),
            reason=err["msg"],
        ) from exc


def check_settings(p: Project) -> None:
    """Validate the settings blocks against their models (unknown keys allowed)."""
    for key in SETTINGS_BLOCKS:
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
        raise FormatError(
            format="project", where="", reason=f"unsupported version {data.get('version')}"
        )
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
        newdoc["nextAtomId"] = (
            max(
                (
                    int(a["id"][1:])
                    for a in atoms
                    if isinstance(a["id"], str) and ATOM_ID.match(a["id"])
                ),
                default=0,
            )
            + 1
        )
    out["document"] = newdoc
    check_structure(out)
    check_settings(out)
    # A project from a file, a string or a job folder may carry any extra input: judge it
    # now, so no way of loading one puts a refused directive into the document.
    check_project_calculation(out["calculation"])
    return out


def first_free_id(doc: Mapping[str, Any], ids: list[str] | None = None) -> int:
    """The number of the first atom id a structure loaded into ``doc`` (a project's
    document block) gets: past ``nextAtomId`` and past every id in use (``ids``, the
    atoms' ids when given), as ids are never reused in a document."""
    atoms = doc.get("atoms", [])
    if ids is None and is_atom_table(atoms):
        top = int(atoms.ids.max()) if len(atoms) else 0
        return max(int(doc.get("nextAtomId", 1) or 1), top + 1)
    if ids is None:
        ids = [a["id"] for a in atoms]
    start = int(doc.get("nextAtomId", 1) or 1)
    numbers = [i[1:] for i in ids]
    try:
        existing = max(map(int, numbers), default=0)  # in C: ids are a1, a2, ... by the rules
    except ValueError:
        existing = max((int(i) for i in numbers if i.isdigit()), default=0)
    return max(start, existing + 1)
