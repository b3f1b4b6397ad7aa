"""Geometry constraints and relaxed scans of a project (no Qt).

A constraint holds a distance (2 atoms), an angle (3) or a dihedral (4) at a value during
an optimisation; a scan steps one such coordinate from ``start`` to ``end`` and optimises
everything else at each point. Both live in the ``calculation`` block by atom id
(``constraints``: a list, ``scan``: one or null) and are written as NWChem ``zcoord``
entries marked ``constant`` inside the geometry block.

Why ``zcoord`` and not the ``constraints`` module: checked with Debian's NWChem 7.0.2, the
``constraints`` module's ``spring`` takes bonds only (``spring angle`` is read and silently
ignored: "no springs found") and is a harmonic penalty, not a fixed value; a ``zcoord``
``bond``/``angle``/``torsion`` with ``constant`` is imposed on the starting geometry and held
exactly by the driver (water's H-O-H at 120.00000° and O-H at 1.10000 Å after the
optimisation). With symmetry on, NWChem symmetrises the geometry first and a constraint
that breaks the point group is silently lost (one O-H of water held at 1.1 Å ended at
0.979 Å, equal to the other), so constraints turn automatic symmetry off.

A scan is one NWChem job: the first point in the geometry block, then per point a
``geometry adjust`` block (which changes the zcoord values of the geometry the previous
optimisation left, so each point starts from the previous point's optimised structure)
and another ``task <theory> optimize``. No python block is needed, and one output holds
every point (:mod:`molforma.results.scan_profile` reads the profile back).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from molforma.errors import ValidationError
from molforma.lazy import lazy_import
from molforma.nwchem.constraint_values import (
    ATOM_COUNTS,
    ZCOORD_WORDS,
    atom_ids,
    coordinate_key,
    normalize_constraints,
    normalize_scan,
    scan_values,
    word,
)
from molforma.nwchem.lexer import walk

if TYPE_CHECKING:
    import numpy as np

    from molforma.document import geometry
else:  # imported on first use (start-up time): molforma.lazy
    np = lazy_import("numpy")
    geometry = lazy_import("molforma.document.geometry")

# The input is ASCII: units in its comments are words.
_INPUT_UNITS: dict[str, str] = {"distance": "angstrom", "angle": "degrees", "dihedral": "degrees"}
SCAN_NAME = "scan"  # the zcoord name of the scanned coordinate, read back from the output


def check_project(project: Mapping[str, Any]) -> None:
    """The constraints and scan judged against the molecule and the task.

    Raises:
        ValidationError: an atom id the molecule lacks, fixed atoms with internal
            constraints, a scanned coordinate also constrained, a scan without optimize.
    """
    for problem in problems(project):
        raise ValidationError(problem["code"], **problem["details"])


def problems(project: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What keeps the constraints or the scan from running, ``{field, code, details}``."""
    calc = project.get("calculation") or {}
    out: list[dict[str, Any]] = []
    try:
        constraints = normalize_constraints(calc.get("constraints"))
    except ValidationError as exc:
        return [{"field": "calculation.constraints", "code": exc.code, "details": exc.data}]
    try:
        scan = normalize_scan(calc.get("scan"))
    except ValidationError as exc:
        return [{"field": "calculation.scan", "code": exc.code, "details": exc.data}]
    if not constraints and scan is None:
        return []
    atoms = (project.get("document") or {}).get("atoms") or []
    ids = {a.get("id") for a in atoms}
    entries = [("calculation.constraints", "constraint_word", c) for c in constraints]
    if scan is not None:
        entries.append(("calculation.scan", "scan_word", scan))
    for field, what, entry in entries:
        missing = [i for i in entry["atoms"] if i not in ids]
        if missing:
            out.append(
                {
                    "field": field,
                    "code": "constraint_unknown_atom",
                    "details": {
                        "what": word(what),
                        "atoms": "-".join(entry["atoms"]),
                        "id": missing[0],
                    },
                }
            )
    if any(a.get("fixed") for a in atoms):
        out.append(
            {"field": "calculation.constraints", "code": "constraint_fixed_atoms", "details": {}}
        )
    if (project.get("advanced") or {}).get("nocenter") is True:
        out.append({"field": "advanced.nocenter", "code": "constraints_cartesian", "details": {}})
    if scan is not None:
        key = coordinate_key(scan["atoms"])
        if any(coordinate_key(c["atoms"]) == key for c in constraints):
            out.append(
                {
                    "field": "calculation.scan",
                    "code": "scan_also_constrained",
                    "details": {"atoms": "-".join(scan["atoms"])},
                }
            )
        task = calc.get("task", "energy")
        if task != "optimize":
            out.append(
                {
                    "field": "calculation.task",
                    "code": "scan_needs_optimize",
                    "details": {"task": task},
                }
            )
    return out


def measure(atoms: Sequence[Mapping[str, Any]], ids: Sequence[str]) -> float:
    """The current distance (Å), angle or dihedral (degrees) of ``ids`` in ``atoms``."""
    index = {a["id"]: a for a in atoms}
    p = [np.array([float(index[i][k]) for k in "xyz"]) for i in ids]
    if len(p) == 2:
        return float(geometry.distance(*p))
    if len(p) == 3:
        return float(geometry.angle(*p))
    return float(geometry.dihedral(*p))


def fill_values(values: Mapping[str, Any], atoms: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``values`` of a set with each omitted constraint value and scan start taken from
    the current geometry (what "hold this as it is" means), normalised.

    Raises:
        ValidationError: a bad entry, or an atom id the molecule lacks.
    """
    out = dict(values)
    ids = {a.get("id") for a in atoms}

    def known(entry: Any, what: str) -> None:
        raw = entry.get("atoms") if isinstance(entry, Mapping) else None
        names = atom_ids(raw, what)
        for i in names:
            if i not in ids:
                raise ValidationError(
                    "constraint_unknown_atom", what=word(what), atoms="-".join(names), id=i
                )

    if "constraints" in out and out["constraints"] is not None:
        raw = out["constraints"]
        if isinstance(raw, list | tuple):
            filled = []
            for entry in raw:
                if isinstance(entry, Mapping) and entry.get("value") is None:
                    known(entry, "constraint_word")
                    entry = {**entry, "value": round(measure(atoms, entry["atoms"]), 6)}
                filled.append(entry)
            raw = filled
        out["constraints"] = normalize_constraints(raw)
        for entry in out["constraints"]:
            known(entry, "constraint_word")
    if "scan" in out and out["scan"] is not None:
        entry = out["scan"]
        if isinstance(entry, Mapping) and entry.get("start") is None:
            known(entry, "scan_word")
            entry = {**entry, "start": round(measure(atoms, entry["atoms"]), 6)}
        out["scan"] = normalize_scan(entry)
        if out["scan"] is not None:
            known(out["scan"], "scan_word")
    return out


# ---------------------------------------------------------------------------
# NWChem text


def _zvalue(kind: str, value: float) -> str:
    if kind == "dihedral":
        value = math.remainder(value, 360.0)  # (-180, 180]: NWChem's range for torsions
        if value <= -180.0:
            value += 360.0
    return f"{value:.6f}"


def _zline(entry: Mapping[str, Any], value: float, index: Mapping[str, int], name: str) -> str:
    numbers = " ".join(str(index[i]) for i in entry["atoms"])
    word = ZCOORD_WORDS[entry["kind"]]
    return f"    {word} {numbers} {_zvalue(entry['kind'], value)} {name} constant"


def zcoord_lines(project: Mapping[str, Any], scan_value: float | None = None) -> list[str]:
    """The ``zcoord ... end`` lines inside a geometry block (empty without constraints).

    The scanned coordinate is named ``scan`` (its value ``scan_value``, default the
    scan's start); the others are ``c1``, ``c2`` ...
    """
    calc = project.get("calculation") or {}
    constraints = normalize_constraints(calc.get("constraints"))
    scan = normalize_scan(calc.get("scan"))
    if not constraints and scan is None:
        return []
    atoms = (project.get("document") or {}).get("atoms") or []
    index = {a.get("id"): n for n, a in enumerate(atoms, start=1)}
    lines = ["  zcoord"]
    for n, c in enumerate(constraints, start=1):
        lines.append(_zline(c, c["value"], index, f"c{n}"))
    if scan is not None:
        value = scan["start"] if scan_value is None else scan_value
        lines.append(_zline(scan, value, index, SCAN_NAME))
    lines.append("  end")
    return lines


def near_planar(kind: str, value: float) -> bool:
    """A dihedral within a degree of 0 or 180: NWChem 7.0.2 cannot move it from there.

    ``geometry adjust`` from a geometry whose constrained torsion is (nearly) planar fails
    in ``geom_impose_constraints`` ("imposition of constraints did not converge", the
    torsion driven to minus the target: ethane from 0 to 60, 30 or 15 degrees, from 180
    to 150, and from 0.001, 0.01 and 0.1 degrees, all fail; from 0.5 degrees and more it
    works)."""
    return kind == "dihedral" and abs(math.remainder(value, 180.0)) < 1.0


def preset_project(project: Mapping[str, Any], value: float) -> dict[str, Any]:
    """A copy of ``project`` whose scanned coordinate is ``value`` in the molecule itself,
    moving the smaller fragment as the geometry editor does (a rigid rotation of a methyl
    group, not one hydrogen), so NWChem's own imposition has nothing left to do. Where the
    molecule cannot be cut so (a ring bond), the coordinates stay and NWChem imposes it."""
    import copy

    from molforma.document.chemistry import set_internal_coordinate
    from molforma.errors import MolFormaError

    out = dict(project)
    scan = normalize_scan((project.get("calculation") or {}).get("scan"))
    if scan is None:
        return out
    work = {"document": copy.deepcopy(dict(project.get("document") or {}))}
    try:
        set_internal_coordinate(work, list(scan["atoms"]), float(value))
    except (MolFormaError, KeyError, ValueError):
        return out
    out["document"] = work["document"]
    return out


def scan_point_blocks(
    project: Mapping[str, Any],
    task_line: str,
    geometry_block: Callable[[Mapping[str, Any], float], list[str]],
) -> list[str]:
    """After the first point's task: per further point a ``geometry adjust`` block (which
    keeps the previous point's optimised Cartesian coordinates and imposes the next value)
    and the task again. After a (nearly) planar dihedral NWChem cannot adjust
    (:func:`near_planar`): that point is a whole geometry block instead
    (``geometry_block(project, value)``), the molecule as given with the coordinate set."""
    calc = project.get("calculation") or {}
    scan = normalize_scan(calc.get("scan"))
    if scan is None:
        return []
    lines: list[str] = []
    values = scan_values(scan)
    for number, value in enumerate(values[1:], start=2):
        head = (
            f"# scan point {number} of {len(values)}: "
            f"{_zvalue(scan['kind'], value)} {_INPUT_UNITS[scan['kind']]}"
        )
        if near_planar(scan["kind"], values[number - 2]):
            lines.append(
                head + ", from the molecule as given (NWChem cannot turn a "
                "planar dihedral with geometry adjust)"
            )
            lines += geometry_block(preset_project(project, value), value)
        else:
            lines.append(head + ", from the previous point's structure")
            lines.append("geometry adjust")
            lines += zcoord_lines(project, value)
            lines.append("end")
        lines.append(task_line)
    return lines


# ---------------------------------------------------------------------------
# Reading a .nw back

_ZCOORD_KINDS = {
    "bond": "distance",
    "stre": "distance",
    "angle": "angle",
    "bend": "angle",
    "torsion": "dihedral",
    "tors": "dihedral",
}


def _zentry(words: list[str]) -> tuple[str, list[int], float | None, str, bool] | None:
    kind = _ZCOORD_KINDS.get(words[0].lower())
    if kind is None:
        return None
    count = ATOM_COUNTS[kind]
    try:
        numbers = [int(w) for w in words[1 : 1 + count]]
    except ValueError:
        return None
    rest = words[1 + count :]
    value = None
    if rest:
        try:
            value = float(rest[0].replace("d", "e").replace("D", "e"))
            rest = rest[1:]
        except ValueError:
            value = None
    constant = any(w.lower() == "constant" for w in rest)
    names = [w for w in rest if w.lower() != "constant"]
    return kind, numbers, value, (names[0].lower() if names else ""), constant


def _unwrapped(values: list[float]) -> list[float]:
    out = values[:1]
    for v in values[1:]:
        step = math.remainder(v - out[-1], 360.0)
        out.append(out[-1] + step)
    return out


def read_zcoord(
    statements: Sequence[tuple[int, str]], atoms: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """``constraints`` and ``scan`` of an input's statements (NWChem's reading: comments
    gone, one statement each): the ``constant`` zcoord entries of the default geometry,
    and the entry named ``scan`` with its values in the ``geometry adjust`` (or whole
    geometry) blocks after it. Entries naming atoms the geometry lacks are dropped; an entry without a value
    takes the geometry's."""
    ids = [str(a.get("id")) for a in atoms]
    held: list[dict[str, Any]] = []
    scan: dict[str, Any] | None = None
    scan_values_read: list[float] = []
    in_geometry: str | None = None  # "main", "adjust" or "other" while inside one
    seen_main = False
    # The blocks as NWChem reads them (molforma.nwchem.lexer): a zcoord's own end
    # closes only it.
    for stmt in walk(statements):
        if stmt.kind == "open" and stmt.path == ("geometry",):
            options = [w.lower() for w in stmt.words[1:]]
            if "adjust" in options:
                in_geometry = "adjust"
            elif not seen_main:
                in_geometry, seen_main = "main", True
            else:
                in_geometry = "other"
            continue
        if stmt.kind != "statement" or stmt.path != ("geometry", "zcoord"):
            continue
        entry = _zentry(list(stmt.words))
        if entry is None or not entry[4]:
            continue
        kind, numbers, value, name, _ = entry
        if any(not 1 <= n <= len(ids) for n in numbers) or len(set(numbers)) != len(numbers):
            continue
        names = [ids[n - 1] for n in numbers]
        if value is None:
            value = measure(atoms, names)
        if name == SCAN_NAME:
            if scan is None and in_geometry == "main":
                scan = {"kind": kind, "atoms": names}
            if scan is not None and scan["atoms"] == names:
                scan_values_read.append(value)
        elif in_geometry == "main":
            held.append({"kind": kind, "atoms": names, "value": value})
        # A later whole geometry block (a scan point after a planar dihedral) gives
        # only its scan value; its other entries repeat the first block's.
    out: dict[str, Any] = {}
    if held:
        out["constraints"] = held
    if scan is not None:
        if scan["kind"] == "dihedral":
            scan_values_read = _unwrapped(scan_values_read)
        if len(scan_values_read) >= 2:
            scan.update(
                start=scan_values_read[0], end=scan_values_read[-1], steps=len(scan_values_read) - 1
            )
            out["scan"] = scan
        else:
            held.append(
                {"kind": scan["kind"], "atoms": scan["atoms"], "value": scan_values_read[0]}
            )
            out["constraints"] = held
    return out
