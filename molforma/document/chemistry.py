"""Chemistry edits and checks on a project: internal coordinates, hydrogens, fragments,
measurements, pre-run validation (no Qt).

Edit functions take ``work``, a private copy of the project envelope made by
:func:`molforma.document.model.clone_project`, change it in place and return an
:class:`~molforma.document.document.EditResult`. They raise before changing anything
they cannot finish, and :meth:`Document.edit` throws the copy away on any error, so a
failed edit never leaves a trace. Fixed atoms never move.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np

from molforma.document import elements
from molforma.document import messages as _messages  # noqa: F401 - registers shared codes
from molforma.document.coordinates import xyz_array
from molforma.document.document import EditResult
from molforma.document.geometry import (
    adjacency,
    align_vectors,
    angle,
    components,
    dihedral,
    dihedral_defined,
    distance,
    free_directions,
    moving_side,
    perpendicular,
    rotation_matrix,
    unit,
)
from molforma.document.model import Project, new_atom
from molforma.errors import MolFormaError, UnknownAtomError, ValidationError
from molforma.i18n import catalogue, register, render

AtomDict = dict[str, Any]
BasisCatalog = Callable[[str], "set[str] | None"] | Mapping[str, Any] | None

_MESSAGES: dict[str, dict[str, str]] = {
    # -- edits --------------------------------------------------------------------------------
    "bad_internal_value": {
        "en": "{value} is not a valid {coordinate}: {rule}.",
        "ja": "{value} は{coordinate}として使えません: {rule}。",
    },
    "bad_internal_ids": {
        "en": "Give 2 (distance), 3 (angle) or 4 (dihedral) different atom ids; got {ids}.",
        "ja": "異なる原子IDを 2 個（距離）、3 個（角度）、4 個（二面角）のいずれかで指定してください"
              "（指定: {ids}）。",
    },
    "undefined_dihedral": {
        "en": "The dihedral {ids} is undefined: three of its atoms lie on a straight line.",
        "ja": "二面角 {ids} は定義できません。3 個の原子が一直線上にあります。",
    },
    "unknown_fragment": {
        "en": "No {kind} named '{name}'. Known: {known}",
        "ja": "「{name}」という{kind}はありません。使える名前: {known}",
    },
    "bad_fragment_kind": {
        "en": "kind must be 'fragment' or 'ligand', not '{kind}'.",
        "ja": "kind は 'fragment' か 'ligand' です（「{kind}」は不可）。",
    },
    "no_free_site": {
        "en": "Atom {id} ({element}) has no free site: no hydrogen to replace and no open "
              "valence.",
        "ja": "原子 {id}（{element}）には空きサイトがありません。置き換える水素も空いた原子価も"
              "ありません。",
    },
    "bad_measure_ids": {
        "en": "A {kind} needs {expected} different atom ids; got {ids}.",
        "ja": "{kind}には異なる原子IDが {expected} 個必要です（指定: {ids}）。",
    },
    # -- validation checks -------------------------------------------------------------------
    "unpaired_mismatch": {
        "en": "The atoms carry {unpaired} unpaired electrons but multiplicity {multiplicity} "
              "means {expected}.",
        "ja": "原子の不対電子の合計は {unpaired} ですが、スピン多重度 {multiplicity} では "
              "{expected} 個です。",
    },
    "duplicate_positions": {
        "en": "Atoms {a} and {b} are {distance} Å apart: duplicate positions.",
        "ja": "原子 {a} と {b} の距離が {distance} Å です。座標が重複しています。",
    },
    "close_contact": {
        "en": "Atoms {a} and {b} are only {distance} Å apart (less than half the sum of "
              "their covalent radii, {limit} Å).",
        "ja": "原子 {a} と {b} の距離が {distance} Å しかありません（共有結合半径の和の半分 "
              "{limit} Å 未満）。",
    },
    "basis_missing_elements": {
        "en": "The basis set {basis} has no functions for {missing}.",
        "ja": "基底関数 {basis} には {missing} の関数がありません。",
    },
    "basis_unknown": {
        "en": "The basis set {basis} is not in the catalogue or NWChem's library here; "
              "NWChem may not find it.",
        "ja": "基底関数 {basis} はカタログにもこの環境の NWChem ライブラリにもありません。"
              "NWChem が見つけられない可能性があります。",
    },
    "basis_other_name": {
        "en": "NWChem's library has no basis set named {basis}; it calls it {name}. Set the "
              "basis to {name}, or the calculation will stop.",
        "ja": "NWChem のライブラリに {basis} という名前の基底関数はなく、{name} という名前で"
              "入っています。基底関数を {name} にしてください（このままでは計算が止まります）。",
    },
    "basis_needs_ecp": {
        "en": "{basis} uses an effective core potential for {elements}; the input must "
              "include the ECP ({ecp}).",
        "ja": "{basis} では {elements} に有効内殻ポテンシャルを使います。入力に ECP（{ecp}）が"
              "必要です。",
    },
    "disconnected_fragments": {
        "en": "The molecule is in {count} separate pieces with no bonds between them.",
        "ja": "分子は {count} 個の互いに結合していない部分に分かれています。",
    },
    "fixed_atoms_frequencies": {
        "en": "Fixed atoms: {count}. A frequency calculation is only meaningful at a fully "
              "optimised structure.",
        "ja": "{count} 個の原子が固定されています。振動数計算は完全に最適化した構造でのみ"
              "意味があります。",
    },
    "frequencies_need_optimized_geometry": {
        "en": "Frequencies are only meaningful at a geometry optimised with the same method "
              "({method}). Unless this geometry was, choose the task optimize+frequencies.",
        "ja": "振動数は同じ方法（{method}）で最適化した構造でのみ意味があります。そうでなければ"
              "タスクに optimize+frequencies を選んでください。",
    },
    "open_valences": {
        "en": "Open valences on {count} atom(s), {total} hydrogen(s) missing; add hydrogens "
              "unless the radicals are intended.",
        "ja": "{count} 個の原子に空いた原子価があります（水素 {total} 個分）。意図したラジカル"
              "でなければ水素を付加してください。",
    },
    "valence_exceeded": {
        "en": "Atom {id} ({element}) has more bonds than its valence allows.",
        "ja": "原子 {id}（{element}）の結合が原子価を超えています。",
    },
    "long_bond": {
        "en": "The bond {a}-{b} is {distance} Å long, far longer than usual ({usual} Å).",
        "ja": "結合 {a}-{b} の長さが {distance} Å で、通常（{usual} Å）よりかなり長いです。",
    },
    "functional_with_dispersion": {
        "en": "'{functional}' is a functional plus a dispersion correction, which NWChem takes "
              "separately: set the functional to {base} and the advanced setting dispersion "
              "to {dispersion} (set_advanced).",
        "ja": "「{functional}」は汎関数と分散力補正の組み合わせで、NWChem では別々に指定します。"
              "汎関数を {base} にし、詳細設定 dispersion を {dispersion} にしてください"
              "（set_advanced）。",
    },
    "functional_other_name": {
        "en": "NWChem's xc does not know '{functional}' by that name; the catalogue calls it "
              "{name}. Set the functional to {name}.",
        "ja": "NWChem の xc は「{functional}」という名前を知りません。カタログでは {name} です。"
              "汎関数を {name} にしてください。",
    },
    "functional_unknown": {
        "en": "The functional '{functional}' is not in the catalogue; check that NWChem's xc "
              "accepts it.",
        "ja": "汎関数「{functional}」はカタログにありません。NWChem の xc で使えるか確認して"
              "ください。",
    },
}
# Codes shared with the input generator keep one meaning; only missing ones are added.
register({code: text for code, text in _MESSAGES.items() if code not in catalogue()})

# Metals bond through coordination, not through a valence count.
_METAL_Z: frozenset[int] = frozenset(
    (3, 4, 11, 12, 13, 19, 20, 31, 37, 38, 49, 50, 55, 56, 81, 82, 83, 84, 87, 88,
     *range(21, 31), *range(39, 49), *range(57, 81), *range(89, 113))
)

# Typical bond lengths (Å) for pairs and orders; others come from covalent radii.
_BOND_TABLE: dict[tuple[str, str], dict[int, float]] = {
    ("C", "H"): {1: 1.09}, ("H", "N"): {1: 1.01}, ("H", "O"): {1: 0.96},
    ("H", "S"): {1: 1.34}, ("H", "P"): {1: 1.42}, ("H", "Si"): {1: 1.48},
    ("B", "H"): {1: 1.19}, ("F", "H"): {1: 0.92}, ("Cl", "H"): {1: 1.27},
    ("Br", "H"): {1: 1.41}, ("H", "I"): {1: 1.61}, ("H", "H"): {1: 0.74},
    ("C", "C"): {1: 1.54, 2: 1.34, 3: 1.20}, ("C", "N"): {1: 1.47, 2: 1.28, 3: 1.16},
    ("C", "O"): {1: 1.43, 2: 1.21, 3: 1.13}, ("N", "N"): {1: 1.45, 2: 1.25, 3: 1.10},
    ("N", "O"): {1: 1.40, 2: 1.21}, ("O", "O"): {1: 1.48, 2: 1.21},
    ("C", "S"): {1: 1.82, 2: 1.60}, ("C", "F"): {1: 1.35}, ("C", "Cl"): {1: 1.77},
    ("Br", "C"): {1: 1.94}, ("C", "I"): {1: 2.14}, ("C", "P"): {1: 1.84},
    ("C", "Si"): {1: 1.87}, ("O", "S"): {1: 1.58, 2: 1.43}, ("O", "P"): {1: 1.60, 2: 1.48},
    ("O", "Si"): {1: 1.64},
}

_FRAGMENT_TWIST_STEP = 10.0  # degrees between trial orientations about a new bond
# A crowded site may bend the new bond a little off the ideal direction; each degree of
# bending costs as much as a small overlap, so an uncrowded site keeps the ideal one.
_TILTS = (6.0, 12.0)
_TILT_PENALTY = 0.004
_CLASH_FACTOR = 0.8  # pairs closer than this share of their van der Waals sum overlap
_SOFT_WEIGHT = 0.01  # weight of the 1/d⁶ tie-breaker between clash-free orientations
_CONJUGATION_WEIGHT = 0.05  # weight of the coplanarity preference of adjacent π systems


def is_metal(symbol: str) -> bool:
    """True for elements that bond by coordination (alkali, alkaline earth, d and f blocks…)."""
    return elements.atomic_number(symbol) in _METAL_Z


def bond_length(e1: str, e2: str, order: int = 1, unsaturated_ends: int = 0) -> float:
    """Typical bond length in Å: a table for common pairs, else the covalent radii sum.

    ``unsaturated_ends`` (0-2) counts ends of a single bond that also carry a double or
    triple bond; each shortens a tabulated single bond by 0.03 Å (C(sp3)–C(sp2) 1.51 Å,
    C(sp2)–C(sp2) 1.48 Å).
    """
    key = (e1, e2) if e1 <= e2 else (e2, e1)
    row = _BOND_TABLE.get(key)
    if row and order in row:
        if order == 1 and "H" not in key:
            return row[1] - 0.03 * max(0, min(2, unsaturated_ends))
        return row[order]
    single = elements.covalent_radius(e1) + elements.covalent_radius(e2)
    return single * {1: 1.0, 2: 0.87, 3: 0.78}.get(order, 1.0)


# ---------------------------------------------------------------------------------------------
# Small helpers over the project dicts


def _atoms(p: Project) -> list[AtomDict]:
    atoms: list[AtomDict] = p["document"]["atoms"]
    return atoms


def _index(p: Project) -> dict[str, AtomDict]:
    return {a["id"]: a for a in _atoms(p)}


def _xyz(a: Mapping[str, Any]) -> np.ndarray:
    return np.array([float(a["x"]), float(a["y"]), float(a["z"])])


def _set_xyz(a: AtomDict, v: np.ndarray) -> None:
    if a.get("fixed"):
        raise ValidationError("fixed_atom", id=a["id"])
    a["x"], a["y"], a["z"] = (float(c) for c in v)


def _get(index: Mapping[str, AtomDict], aid: str) -> AtomDict:
    atom = index.get(aid)
    if atom is None:
        raise UnknownAtomError(id=aid)
    return atom


def _next_id(work: Project) -> str:
    doc = work["document"]
    n = int(doc.get("nextAtomId", 1))
    doc["nextAtomId"] = n + 1
    return f"a{n}"


def _bond_orders(p: Project) -> dict[str, list[tuple[str, int]]]:
    out: dict[str, list[tuple[str, int]]] = {a["id"]: [] for a in _atoms(p)}
    for b in p["document"]["bonds"]:
        if b["a"] in out and b["b"] in out:
            out[b["a"]].append((b["b"], int(b.get("order", 1))))
            out[b["b"]].append((b["a"], int(b.get("order", 1))))
    return out


# ---------------------------------------------------------------------------------------------
# Internal coordinates

_KIND_OF = {2: "distance", 3: "angle", 4: "dihedral"}
_MAX_COORD = 1e5  # Å, the document's coordinate limit


def _check_value(kind: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValidationError("bad_internal_value", coordinate=kind, value=value,
                              rule="a finite number is required")
    v = float(value)
    if kind == "distance" and not 0.1 < v <= 1000.0:
        raise ValidationError("bad_internal_value", coordinate=kind, value=value,
                              rule="0.1 Å < distance ≤ 1000 Å")
    if kind == "angle" and not 0.0 < v < 180.0:
        raise ValidationError("bad_internal_value", coordinate=kind, value=value,
                              rule="0° < angle < 180°")
    if kind == "dihedral":
        v = (v + 180.0) % 360.0 - 180.0
        if v == -180.0:
            v = 180.0
    return v


def _choose_side(
    candidates: list[tuple[set[str], Callable[[np.ndarray], np.ndarray]]],
    index: Mapping[str, AtomDict],
    axis_atoms: set[str],
) -> tuple[set[str], Callable[[np.ndarray], np.ndarray]]:
    """The smaller candidate without fixed atoms; candidates are ordered last-id side first."""
    usable = []
    blocked: str | None = None
    for side, fn in candidates:
        fixed = [a for a in side if a not in axis_atoms and index[a].get("fixed")]
        if fixed:
            blocked = blocked or sorted(fixed, key=_idnum)[0]
            continue
        usable.append((side, fn))
    if not usable:
        raise ValidationError("fixed_atom", id=blocked)
    # min() keeps the first of equal sizes: the side of the last id wins ties.
    return min(usable, key=lambda c: len(c[0]))


def _idnum(aid: str) -> int:
    return int(aid[1:]) if aid[1:].isdigit() else 0


def set_internal_coordinate(work: Project, ids: list[str], value: float) -> EditResult:
    """Set a distance (2 ids, Å), angle (3, degrees) or dihedral (4, degrees).

    The part that moves is the smaller one (by atom count; on a tie the side of
    the last id): for a distance and a dihedral the two sides of the cut
    connection between the middle atoms, for an angle the side of the first or
    the last atom. Atoms that are not bonded are separated as whole connected
    components. A side holding a fixed atom never moves; when both do, the edit
    fails with ``fixed_atom``.

    Raises:
        UnknownAtomError, ValidationError (``bad_internal_ids``, ``bad_internal_value``,
        ``in_ring``, ``not_separable``, ``undefined_dihedral``, ``fixed_atom``).
    """
    if len(ids) not in _KIND_OF or len(set(ids)) != len(ids):
        raise ValidationError("bad_internal_ids", ids=list(ids))
    index = _index(work)
    atoms = [_get(index, i) for i in ids]
    kind = _KIND_OF[len(ids)]
    target = _check_value(kind, value)
    pos = [_xyz(a) for a in atoms]
    adj = adjacency(work)

    cands: list[tuple[set[str], Callable[[np.ndarray], np.ndarray]]] = []
    errors: list[MolFormaError] = []
    axis_atoms: set[str] = set()

    def side(anchor: str, mover: str) -> set[str] | None:
        try:
            return moving_side(adj, anchor, mover)
        except ValidationError as exc:
            errors.append(exc)
            return None

    if kind == "distance":
        p, q = pos
        current = distance(p, q)
        u = unit(q - p) if current > 1e-9 else np.array([1.0, 0.0, 0.0])
        delta = target - current
        s_q = side(ids[0], ids[1])
        s_p = side(ids[1], ids[0])
        if s_q is not None:
            cands.append((s_q, lambda x: x + u * delta))
        if s_p is not None:
            cands.append((s_p, lambda x: x - u * delta))
    elif kind == "angle":
        p, q, r = pos
        current = angle(p, q, r)
        n = np.cross(p - q, r - q)
        if np.linalg.norm(n) < 1e-6:
            n = perpendicular(p - q if np.linalg.norm(p - q) > 1e-9 else r - q)
        delta = target - current
        rot_r = rotation_matrix(n, delta)
        rot_p = rotation_matrix(n, -delta)
        s_r = side(ids[1], ids[2])
        s_p = side(ids[1], ids[0])
        if s_r is not None and ids[0] not in s_r:
            cands.append((s_r, lambda x: q + rot_r @ (x - q)))
        if s_p is not None and ids[2] not in s_p:
            cands.append((s_p, lambda x: q + rot_p @ (x - q)))
    else:
        p, q, r, s = pos
        if not dihedral_defined(p, q, r, s):
            raise ValidationError("undefined_dihedral", ids=list(ids))
        current = dihedral(p, q, r, s)
        delta = target - current
        axis = r - q
        if np.linalg.norm(axis) < 1e-9:
            raise ValidationError("undefined_dihedral", ids=list(ids))
        rot_s = rotation_matrix(axis, delta)
        rot_p = rotation_matrix(axis, -delta)
        axis_atoms = {ids[1], ids[2]}
        s_r = side(ids[1], ids[2])
        s_q = side(ids[2], ids[1])
        if s_r is not None and ids[0] not in s_r:
            cands.append((s_r, lambda x: r + rot_s @ (x - r)))
        if s_q is not None and ids[3] not in s_q:
            cands.append((s_q, lambda x: q + rot_p @ (x - q)))
    if not cands:
        if errors:
            raise errors[0]
        raise ValidationError("not_separable", a=ids[0], b=ids[-1])
    moving, fn = _choose_side(cands, index, axis_atoms)
    moved: list[str] = []
    for aid in sorted(moving, key=_idnum):
        if aid in axis_atoms:
            continue  # on the rotation axis: its position does not change
        atom = index[aid]
        new = fn(_xyz(atom))
        if not np.all(np.isfinite(new)) or float(np.max(np.abs(new))) > _MAX_COORD:
            raise ValidationError("bad_coordinate", id=aid, value=[float(c) for c in new])
        _set_xyz(atom, new)
        moved.append(aid)
    # Only positions changed, and they were checked here: the document checks contacts.
    return EditResult(changed=moved, touched=moved, coords_only=True,
                      info={"coordinate": kind, "from": round(current, 6),
                            "to": round(target, 6), "moved": len(moved)})


# ---------------------------------------------------------------------------------------------
# Valence model (RDKit)


def _rdkit_atom(a: dict[str, Any], *, no_implicit: bool) -> Any:
    """An RDKit atom with the element, formal charge and radicals of document atom ``a``."""
    from rdkit import Chem

    at = Chem.Atom(elements.atomic_number(a["element"]))
    at.SetFormalCharge(int(a.get("formalCharge", 0) or 0))
    at.SetNumRadicalElectrons(int(a.get("unpairedElectrons", 0) or 0))
    at.SetNoImplicit(no_implicit)
    return at


def _rdkit_implicit_h(p: Project, *, with_metal_bonds: bool) -> list[int]:
    """RDKit's implicit hydrogen count of every atom (bond orders, charges, radicals)."""
    from rdkit import Chem

    atoms = _atoms(p)
    pos = {a["id"]: i for i, a in enumerate(atoms)}
    rw = Chem.RWMol()
    for a in atoms:
        rw.AddAtom(_rdkit_atom(a, no_implicit=False))
    types = {1: Chem.BondType.SINGLE, 2: Chem.BondType.DOUBLE, 3: Chem.BondType.TRIPLE}
    for b in p["document"]["bonds"]:
        i, j = pos[b["a"]], pos[b["b"]]
        if not with_metal_bonds and (is_metal(atoms[i]["element"]) or
                                     is_metal(atoms[j]["element"])):
            continue
        rw.AddBond(i, j, types.get(int(b.get("order", 1)), Chem.BondType.SINGLE))
    mol = rw.GetMol()
    mol.UpdatePropertyCache(strict=False)
    return [mol.GetAtomWithIdx(i).GetNumImplicitHs() for i in range(len(atoms))]


def missing_hydrogens(p: Project) -> dict[str, int]:
    """Hydrogens each atom needs to fill its valence (metals and H atoms need none).

    A bond to a metal may be covalent (M–CH3) or dative (M←PPh3); the smaller
    count of the two readings is taken, so neither gets a spurious hydrogen.
    """
    atoms = _atoms(p)
    if not atoms:
        return {}
    with_m = _rdkit_implicit_h(p, with_metal_bonds=True)
    without_m = _rdkit_implicit_h(p, with_metal_bonds=False)
    out = {}
    for a, n1, n2 in zip(atoms, with_m, without_m, strict=True):
        if a["element"] == "H" or is_metal(a["element"]):
            continue
        n = min(n1, n2)
        if n > 0:
            out[a["id"]] = n
    return out


def _steric_number(atom: Mapping[str, Any], orders: Sequence[tuple[str, int]],
                   index: Mapping[str, AtomDict], adding: int,
                   all_orders: Mapping[str, Sequence[tuple[str, int]]]) -> int:
    """VSEPR domains (σ bonds + lone pairs) once ``adding`` single bonds are made."""
    from rdkit import Chem

    sym = atom["element"]
    sigma = len(orders) + adding
    if is_metal(sym):
        return max(sigma, 6)
    valence_e = Chem.GetPeriodicTable().GetNOuterElecs(elements.atomic_number(sym))
    bonding = sum(o for nb, o in orders if not is_metal(index[nb]["element"])) + adding
    lone_e = valence_e - int(atom.get("formalCharge", 0) or 0) - bonding \
        - int(atom.get("unpairedElectrons", 0) or 0)
    lone_pairs = max(0, lone_e // 2)
    if sym == "H":
        return max(sigma, 1)
    # A lone pair next to a π bond joins it (amide, aniline nitrogen): planar centre.
    if (sym == "N" and lone_pairs == 1 and sigma == 3
            and all(o == 1 for _nb, o in orders)
            and any(any(o2 > 1 for _x, o2 in all_orders.get(nb, ())) for nb, _o in orders)):
        lone_pairs = 0
    return min(sigma + lone_pairs, max(sigma, 8))


def _twist_reference(center: AtomDict, neighbour: AtomDict,
                     orders: Mapping[str, Sequence[tuple[str, int]]],
                     index: Mapping[str, AtomDict]) -> np.ndarray | None:
    """Direction from ``neighbour`` to one of its other neighbours (fixes staggering/planes)."""
    others = [index[n] for n, _o in orders.get(neighbour["id"], ()) if n != center["id"]]
    if not others:
        return None
    # The heaviest substituent first: it is the one that should be anti.
    others.sort(key=lambda a: (-elements.atomic_number(a["element"]), _idnum(a["id"])))
    away: np.ndarray = _xyz(others[0]) - _xyz(neighbour)
    return away


def _clash_score(points: np.ndarray, elems: Sequence[str], env_xyz: np.ndarray,
                 env_elems: Sequence[str]) -> float:
    """Soft overlap penalty of ``points`` against the environment atoms."""
    if len(env_xyz) == 0 or len(points) == 0:
        return 0.0
    r1 = np.array([elements.vdw_radius(e) for e in elems])
    r2 = np.array([elements.vdw_radius(e) for e in env_elems])
    d = np.linalg.norm(points[:, None, :] - env_xyz[None, :, :], axis=2)
    limit = 0.75 * (r1[:, None] + r2[None, :])
    over = np.clip(limit - d, 0.0, None)
    return float(np.sum(over * over))


class _Environment:
    """Positions and elements of the atoms of a project, for repeated neighbourhood queries.

    Built once per edit and extended as atoms are added, so filling the hydrogens of a
    large molecule stays linear per query instead of rebuilding lists each time.
    """

    def __init__(self, work: Project) -> None:
        atoms = _atoms(work)
        self.ids: list[str] = [a["id"] for a in atoms]
        self.elems: list[str] = [a["element"] for a in atoms]
        self._xyz = xyz_array(atoms)
        self._n = len(atoms)

    def add(self, aid: str, element: str, xyz: np.ndarray) -> None:
        if self._n == len(self._xyz):
            grow = np.zeros((max(16, self._n), 3))
            self._xyz = np.vstack([self._xyz, grow])
        self._xyz[self._n] = xyz
        self.ids.append(aid)
        self.elems.append(element)
        self._n += 1

    def near(self, around: np.ndarray, radius: float,
             exclude: set[str]) -> tuple[np.ndarray, list[str]]:
        xyz, elems, _ids = self.near_ids(around, radius, exclude)
        return xyz, elems

    def near_ids(self, around: np.ndarray, radius: float,
                 exclude: set[str]) -> tuple[np.ndarray, list[str], list[str]]:
        """Positions, elements and ids of the atoms within ``radius`` of ``around``."""
        xyz = self._xyz[: self._n]
        hits = np.nonzero(np.linalg.norm(xyz - around, axis=1) <= radius)[0]
        keep = [int(i) for i in hits if self.ids[int(i)] not in exclude]
        return (xyz[keep].reshape(-1, 3), [self.elems[i] for i in keep],
                [self.ids[i] for i in keep])


# ---------------------------------------------------------------------------------------------
# Hydrogens


def _h_length(atom: AtomDict, orders: Sequence[tuple[str, int]]) -> float:
    sym = atom["element"]
    if sym == "C":
        top = max((o for _n, o in orders), default=1)
        return {1: 1.09, 2: 1.08, 3: 1.06}.get(top, 1.09)
    return bond_length(sym, "H", 1)


def add_hydrogens(work: Project, ids: list[str] | None = None) -> EditResult:
    """Fill open valences of all atoms (or of ``ids``) with hydrogen at VSEPR positions.

    The number of hydrogens comes from RDKit's valence model (bond orders, formal
    charges, unpaired electrons); their directions from the electron domains of
    the atom (sp3 109.5°, sp2 120°, sp 180°; a second sp3 centre is staggered
    and a double bond stays planar). Saturated atoms, hydrogen atoms and metals
    get none.

    Raises:
        UnknownAtomError: an id not in the project.
    """
    index = _index(work)
    if ids is not None:
        for i in ids:
            _get(index, i)
        wanted = list(dict.fromkeys(ids))
    else:
        wanted = [a["id"] for a in _atoms(work)]
    need = missing_hydrogens(work)
    added: list[str] = []
    orders = _bond_orders(work)
    env = _Environment(work)
    for aid in wanted:
        count = need.get(aid, 0)
        if count <= 0:
            continue
        added += _add_h_to(work, index, orders, env, index[aid], count)
    return EditResult(added=added, touched=added, info={"hydrogens": len(added)})


def _add_h_to(work: Project, index: dict[str, AtomDict],
              orders: dict[str, list[tuple[str, int]]], env: _Environment, atom: AtomDict,
              count: int) -> list[str]:
    center = _xyz(atom)
    my = orders[atom["id"]]
    nbs = [index[n] for n, _o in my]
    existing = [unit(_xyz(n) - center) for n in nbs]
    steric = _steric_number(atom, my, index, count, orders)
    steric = max(steric, len(existing) + count)
    ref = None
    if len(nbs) == 1:
        ref = _twist_reference(atom, nbs[0], orders, index)
    dirs = free_directions(existing, steric, reference=ref)
    if len(dirs) < count:  # odd geometry: spread the rest evenly
        dirs = free_directions(existing, len(existing) + count)
    length = _h_length(atom, my)
    if len(dirs) > count:
        env_xyz, env_el = env.near(center, length + 4.0, {atom["id"]})
        best: tuple[float, int, tuple[int, ...]] | None = None
        for rank, combo in enumerate(itertools.combinations(range(len(dirs)), count)):
            pts = np.array([center + dirs[i] * length for i in combo])
            score = _clash_score(pts, ["H"] * count, env_xyz, env_el)
            if best is None or score < best[0] - 1e-9:
                best = (score, rank, combo)
        assert best is not None
        chosen = [dirs[i] for i in best[2]]
    else:
        chosen = dirs[:count]
    new_ids = []
    for d in chosen:
        hid = _next_id(work)
        xyz = center + d * length
        h = new_atom(hid, "H", *xyz)
        _atoms(work).append(h)
        work["document"]["bonds"].append({"a": atom["id"], "b": hid, "order": 1})
        index[hid] = h
        env.add(hid, "H", xyz)
        orders[atom["id"]].append((hid, 1))
        orders[hid] = [(atom["id"], 1)]
        new_ids.append(hid)
    return new_ids


# ---------------------------------------------------------------------------------------------
# Fragments and ligands


def _site_candidates(work: Project, index: dict[str, AtomDict],
                     orders: dict[str, list[tuple[str, int]]],
                     site: AtomDict) -> list[tuple[np.ndarray, str | None]]:
    """(unit direction from the site, id of the hydrogen it replaces or None)."""
    center = _xyz(site)
    my = orders[site["id"]]
    metal = is_metal(site["element"])
    out: list[tuple[np.ndarray, str | None]] = []
    for nb, _o in my:
        h = index[nb]
        if h["element"] == "H" and len(orders[nb]) == 1 and not h.get("fixed"):
            d = _xyz(h) - center
            if np.linalg.norm(d) > 1e-6:
                out.append((unit(d), nb))
    # On a metal a hydride is a ligand like any other: an open coordination site comes first.
    if out and not (metal and len(my) < 6):
        return out
    existing = [unit(_xyz(index[n]) - center) for n, _o in my]
    if metal:
        if len(my) >= 8:
            if out:
                return out
            raise ValidationError("no_free_site", id=site["id"], element=site["element"])
        steric = 6 if len(my) < 6 else len(my) + 1
    else:
        open_valence = missing_hydrogens(work).get(site["id"], 0)
        if open_valence <= 0:
            raise ValidationError("no_free_site", id=site["id"], element=site["element"])
        # Every open valence is a bond to come, so all of them count as domains.
        steric = max(_steric_number(site, my, index, open_valence, orders), len(my) + 1)
    ref = None
    if len(my) == 1:
        ref = _twist_reference(site, index[my[0][0]], orders, index)
    dirs = free_directions(existing, steric, reference=ref)
    if not dirs:
        dirs = free_directions(existing, len(existing) + 1)
    return [(d, None) for d in dirs]


def _fragment_plane_normal(entry: Mapping[str, Any], frag: np.ndarray) -> np.ndarray | None:
    """Normal of the π plane at a fragment's attachment atom, or None when it has none."""
    attach = int(entry["attachment"])
    nbs = [j if i == attach else i for i, j, _o in entry["bonds"] if attach in (i, j)]
    if not any(o > 1 for i, j, o in entry["bonds"] if attach in (i, j)) or len(nbs) < 2:
        return None
    n = np.cross(frag[nbs[0]] - frag[attach], frag[nbs[1]] - frag[attach])
    return unit(n) if np.linalg.norm(n) > 1e-6 else None


def _site_plane_normal(index: Mapping[str, AtomDict],
                       orders: Mapping[str, Sequence[tuple[str, int]]], site: AtomDict,
                       replaced: str | None) -> np.ndarray | None:
    """Normal of the plane of the site's remaining neighbours (needs two of them)."""
    c = _xyz(site)
    nbs = [_xyz(index[n]) - c for n, _o in orders[site["id"]] if n != replaced]
    if len(nbs) < 2:
        return None
    n = np.cross(nbs[0], nbs[1])
    return unit(n) if np.linalg.norm(n) > 1e-6 else None


def _tilted(direction: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """The ideal direction first, then directions bent by :data:`_TILTS` degrees around it."""
    out = [(direction, 0.0)]
    u = perpendicular(direction)
    for tilt in _TILTS:
        for k in range(6):
            axis = rotation_matrix(direction, 60.0 * k) @ u
            out.append((unit(rotation_matrix(axis, tilt) @ direction), tilt))
    return out


def _find_entry(name: str, kind: str | None) -> tuple[str, dict[str, Any]]:
    from molforma.catalog import find_library_entry, get_catalog

    if kind not in (None, "fragment", "ligand"):
        raise ValidationError("bad_fragment_kind", kind=kind)
    if not isinstance(name, str) or not name:
        raise ValidationError("unknown_fragment", name=name, kind=kind or "fragment",
                              known="")
    found = find_library_entry(name, kind)
    if found is None:
        kinds = ("fragments", "ligands") if kind is None else (f"{kind}s",)
        known = [e["name"] for k in kinds for e in get_catalog(k)[k]]
        raise ValidationError("unknown_fragment", name=name, kind=kind or "fragment/ligand",
                              known=", ".join(known))
    return found


def place_fragment(work: Project, name: str, site: str, *,
                   kind: Literal["fragment", "ligand"] | None = None) -> EditResult:
    """Bond a library fragment or ligand to a free site of atom ``site``.

    A hydrogen on the site is replaced (on a metal only when its six octahedral
    sites are taken; the attachment atom takes the hydrogen's direction;
    when there are several, the one giving the fewest clashes; a terminal hydrogen
    given as ``site`` is itself the one replaced); otherwise the best
    free VSEPR direction is used (an octahedral site for metals). The bond length
    comes from typical lengths/covalent radii, and the part is turned about the
    new bond to the orientation with the fewest clashes. Ligand donor atoms bond
    to metals; their formal charges (Cl⁻, CN⁻…) come with them and ``info``
    reports the charge the ligand adds, which the molecule's charge does not
    follow by itself.

    Raises:
        UnknownAtomError, ValidationError (``unknown_fragment``, ``bad_fragment_kind``,
        ``no_free_site``).
    """
    found_kind, entry = _find_entry(name, kind)
    index = _index(work)
    site_atom = _get(index, site)
    orders = _bond_orders(work)
    if site_atom["element"] == "H" and len(orders[site]) == 1 and not site_atom.get("fixed"):
        # A terminal hydrogen names the site it occupies: replace exactly that one.
        h_id: str | None = site
        h_xyz = _xyz(index[site])
        site_atom = index[orders[site][0][0]]
        site = site_atom["id"]
        cands: list[tuple[np.ndarray, str | None]] = [(unit(h_xyz - _xyz(site_atom)), h_id)]
    else:
        cands = _site_candidates(work, index, orders, site_atom)
    frag = xyz_array(entry["atoms"])
    attach = int(entry["attachment"])
    frag = frag - frag[attach]
    felems = [a["element"] for a in entry["atoms"]]
    to_site = unit(np.asarray(entry["dummy"], dtype=float) - frag[attach])
    unsaturated = int(any(o > 1 for _n, o in orders[site])) + int(
        any(o > 1 and attach in (i, j) for i, j, o in entry["bonds"]))
    length = bond_length(site_atom["element"], felems[attach], 1, unsaturated)
    center = _xyz(site_atom)
    extent = float(np.max(np.linalg.norm(frag, axis=1))) if len(frag) else 0.0
    steps = round(360.0 / _FRAGMENT_TWIST_STEP) if len(frag) > 1 else 1
    twists = np.stack([rotation_matrix([0.0, 0.0, 1.0], k * _FRAGMENT_TWIST_STEP)
                       for k in range(steps)])
    frad = np.array([elements.vdw_radius(e) for e in felems])
    site_rad = elements.vdw_radius(site_atom["element"])
    frag_normal = _fragment_plane_normal(entry, frag)
    site_pi = any(o > 1 for _n, o in orders[site])
    conjugated = frag_normal is not None and site_pi
    best: tuple[float, np.ndarray, str | None] | None = None
    env = _Environment(work)
    for ideal, h_id in cands:
        exclude = {site_atom["id"]} | ({h_id} if h_id else set())
        env_xyz, env_el, env_ids = env.near_ids(center, length + extent + 4.0, exclude)
        env_rad = np.array([elements.vdw_radius(e) for e in env_el])
        # The site itself joins the environment for every fragment atom but the attachment.
        env_xyz = np.vstack([env_xyz, center[None, :]])
        env_rad = np.append(env_rad, site_rad)
        mask = np.ones((len(frag), len(env_xyz)))
        mask[attach, -1] = 0.0
        # The attachment atom and the site's neighbours are 1,3 to each other: their
        # distance is set by the bond angle, not by the orientation.
        site_nbs = {n for n, _o in orders[site]}
        for col, eid in enumerate(env_ids):
            if eid in site_nbs:
                mask[attach, col] = 0.0
        limit = _CLASH_FACTOR * (frad[:, None] + env_rad[None, :])
        site_normal = _site_plane_normal(index, orders, site_atom, h_id) if conjugated else None
        for direction, tilt in _tilted(ideal):
            # Frame: the new bond along z, so the twists are rotations about z.
            to_z = align_vectors(to_site, [0.0, 0.0, -1.0])
            from_z = align_vectors([0.0, 0.0, 1.0], direction)
            origin = center + direction * length
            local = frag @ to_z.T
            rots = from_z @ twists
            pts = origin + np.einsum("kij,nj->kni", rots, local)
            d = np.linalg.norm(pts[:, :, None, :] - env_xyz[None, None, :, :], axis=3)
            over = np.clip(limit[None] - d, 0.0, None) * mask[None]
            scores = np.sum(over * over, axis=(1, 2)) + _TILT_PENALTY * tilt
            # Weak long-range repulsion: among clash-free twists, staggered beats eclipsed.
            scores += _SOFT_WEIGHT * np.sum(mask[None] / np.maximum(d, 0.5) ** 6, axis=(1, 2))
            if site_normal is not None and frag_normal is not None:
                # A π system next to a π system prefers one plane (styrene, nitrobenzene).
                normals = np.einsum("kij,j->ki", rots, to_z @ frag_normal)
                scores += _CONJUGATION_WEIGHT * (1.0 - (normals @ site_normal) ** 2)
            k = int(np.argmin(scores))
            if best is None or scores[k] < best[0] - 1e-9:
                best = (float(scores[k]), pts[k], h_id)
    assert best is not None
    _score, pts, h_id = best
    removed: list[str] = []
    if h_id is not None:
        work["document"]["atoms"] = [a for a in _atoms(work) if a["id"] != h_id]
        work["document"]["bonds"] = [b for b in work["document"]["bonds"]
                                     if h_id not in (b["a"], b["b"])]
        removed.append(h_id)
    new_ids: list[str] = []
    for fa, xyz in zip(entry["atoms"], pts, strict=True):
        aid = _next_id(work)
        _atoms(work).append(new_atom(aid, fa["element"], *xyz,
                                     formalCharge=int(fa.get("formalCharge", 0))))
        new_ids.append(aid)
    bonds = work["document"]["bonds"]
    for i, j, order in entry["bonds"]:
        bonds.append({"a": new_ids[i], "b": new_ids[j], "order": int(order)})
    bonds.append({"a": site, "b": new_ids[attach], "order": 1})
    charge = sum(int(a.get("formalCharge", 0)) for a in entry["atoms"])
    return EditResult(added=new_ids, removed=removed, touched=new_ids,
                      info={"kind": found_kind, "name": entry["name"],
                            "attachment": new_ids[attach], "replaced": h_id,
                            "chargeChange": charge})


# ---------------------------------------------------------------------------------------------
# Measurements


def measure(project: Project, *, distances: Sequence[Sequence[str]] = (),
            angles: Sequence[Sequence[str]] = (),
            dihedrals: Sequence[Sequence[str]] = ()) -> dict[str, Any]:
    """Distances (Å), angles and dihedrals (degrees, -180..180) between atoms given by id.

    Returns ``{"distances": [{"ids", "value", "unit"}], "angles": [...], "dihedrals": [...]}``.

    Raises:
        UnknownAtomError, ValidationError (``bad_measure_ids``, ``undefined_dihedral``).
    """
    index = _index(project)
    out: dict[str, Any] = {"distances": [], "angles": [], "dihedrals": []}
    for key, groups, n, fn, unit_name in (
        ("distances", distances, 2, distance, "angstrom"),
        ("angles", angles, 3, angle, "degree"),
        ("dihedrals", dihedrals, 4, dihedral, "degree"),
    ):
        for g in groups:
            ids = [str(i) for i in g] if isinstance(g, list | tuple) else []
            if len(ids) != n or len(set(ids)) != n:
                raise ValidationError("bad_measure_ids", kind=key[:-1], expected=n,
                                      ids=list(g) if isinstance(g, list | tuple) else g)
            pts = [_xyz(_get(index, i)) for i in ids]
            if n == 4 and not dihedral_defined(pts[0], pts[1], pts[2], pts[3], tol_deg=0.01):
                raise ValidationError("undefined_dihedral", ids=ids)
            out[key].append({"ids": ids, "value": round(float(fn(*pts)), 6), "unit": unit_name})
    return out


# ---------------------------------------------------------------------------------------------
# Validation before a run


def _check(code: str, severity: str, atoms: Iterable[str] = (), **data: Any) -> dict[str, Any]:
    ids = list(atoms)
    return {"code": code, "severity": severity, "message": render(code, data),
            "atoms": ids[:100]}


def _basis_lookup(basis_catalog: BasisCatalog, basis: str) -> tuple[set[str] | None, dict[str, Any] | None]:
    """Elements covered by ``basis`` and its catalogue entry, from any catalogue form."""
    from molforma.catalog import basis_elements, basis_entry

    entry = basis_entry(basis)
    if callable(basis_catalog):
        return basis_catalog(basis), entry
    if isinstance(basis_catalog, Mapping):
        from molforma.catalog import library_file_name

        entries = basis_catalog.get("basis_sets", basis_catalog)
        items = entries if isinstance(entries, list) else [
            {"name": k, **(v if isinstance(v, Mapping) else {"elements": v})}
            for k, v in entries.items()]
        for e in items:
            if library_file_name(str(e.get("name", ""))) == library_file_name(basis):
                return set(e.get("elements", ())), dict(e)
        return None, entry
    return basis_elements(basis), entry


def _basis_other_name(basis_catalog: BasisCatalog, basis: str) -> str | None:
    """The name NWChem knows for a basis written in another common notation, or None.

    ``6-31G(d)`` / ``6-31G(d,p)`` are ``6-31G*`` / ``6-31G**`` in NWChem's library, and
    the LANL sets live there with an ``_ecp`` suffix (``lanl2dz`` → ``lanl2dz_ecp``).
    NWChem stops on the name as written, so the check that uses this is an error.
    """
    text = basis.strip()
    tries: list[str] = []
    star = re.sub(r"\(d,\s*p\)$", "**", text, flags=re.I)
    star = re.sub(r"\(d\)$", "*", star, flags=re.I)
    if star != text:
        tries.append(star)
    if not text.lower().endswith("_ecp"):
        tries.append(text + "_ecp")
    for name in tries:
        covered, _ = _basis_lookup(basis_catalog, name)
        if covered is not None:
            return name
    return None


# Pairs reported by validate's geometry checks: atoms packed far denser than matter have
# millions of close pairs, and listing them all would stall the check (and its answer).
MAX_CONTACTS = 1000


def _contacts(xyz: Any, radii: Any) -> list[tuple[int, int, float, float]]:
    """``(i, j, d, limit)`` of pairs closer than half their radii sum (or than 0.1 Å),
    in (i, j) order, at most :data:`MAX_CONTACTS`; linear in the number of atoms."""
    from molforma.document.neighbours import CrowdedError, close_pairs, first_pairs_closer_than

    n = len(xyz)
    cutoff = max(0.1, float(radii.max()))
    try:
        i, j, d = close_pairs(xyz, cutoff, max_candidates=1000 * n + 10_000)
    except CrowdedError:
        # Piled up: the first pairs found tell the story.
        i, j, d = first_pairs_closer_than(xyz, cutoff, limit=4 * MAX_CONTACTS)
    limit = 0.5 * (radii[i] + radii[j])
    keep = (d < 0.1) | (d < limit)
    i, j, d, limit = i[keep], j[keep], d[keep], limit[keep]
    rank = np.lexsort((j, i))[:MAX_CONTACTS]
    return list(zip(i[rank].tolist(), j[rank].tolist(), d[rank].tolist(),
                    limit[rank].tolist(), strict=True))


def validate(project: Project, basis_catalog: BasisCatalog = None) -> dict[str, Any]:
    """Checks before running: ``{"ok": bool, "checks": [{code, severity, message, atoms}]}``.

    ``basis_catalog`` tells which elements a basis covers: a function such as
    :func:`molforma.catalog.basis_elements`, a ``get_catalog("basis_sets")`` result,
    or None for the built-in catalogue. ``ok`` is false when any check is an error.
    Messages are in the display language.
    """
    doc = project["document"]
    atoms = doc.get("atoms") or []
    calc = project.get("calculation") or {}
    checks: list[dict[str, Any]] = []
    if not atoms:
        checks.append(_check("empty_molecule", "error"))
        return {"ok": False, "checks": checks}
    ids = [a["id"] for a in atoms]
    charge = int(doc.get("charge", 0))
    mult = int(doc.get("multiplicity", 1))

    # Electrons and spin.
    electrons = sum(elements.atomic_number(a["element"]) for a in atoms) - charge
    if electrons < 1:
        checks.append(_check("too_few_electrons", "error", electrons=electrons))
    elif (electrons - (mult - 1)) % 2 != 0 or mult - 1 > electrons:
        checks.append(_check("multiplicity_parity", "error", electrons=electrons,
                             multiplicity=mult))
    unpaired = sum(int(a.get("unpairedElectrons", 0) or 0) for a in atoms)
    if unpaired and unpaired != mult - 1:
        checks.append(_check("unpaired_mismatch", "warning",
                             [a["id"] for a in atoms if a.get("unpairedElectrons")],
                             unpaired=unpaired, multiplicity=mult, expected=mult - 1))
    reference = calc.get("reference")
    if reference == "rhf" and mult != 1:
        checks.append(_check("reference_multiplicity", "error", multiplicity=mult))

    # Geometry.
    xyz = xyz_array(atoms)
    radii = [elements.covalent_radius(a["element"]) for a in atoms]
    for i, j, d, limit in _contacts(xyz, np.asarray(radii, dtype=float)):
        if d < 0.1:
            checks.append(_check("duplicate_positions", "error", [ids[i], ids[j]],
                                 a=ids[i], b=ids[j], distance=round(d, 3)))
        else:
            checks.append(_check("close_contact", "warning", [ids[i], ids[j]], a=ids[i],
                                 b=ids[j], distance=round(d, 3), limit=round(limit, 3)))
    pos = {a["id"]: k for k, a in enumerate(atoms)}
    for b in doc.get("bonds") or []:
        ia, ja = pos.get(b["a"]), pos.get(b["b"])
        if ia is None or ja is None:
            continue
        usual = bond_length(atoms[ia]["element"], atoms[ja]["element"], int(b.get("order", 1)))
        d = float(np.linalg.norm(xyz[ia] - xyz[ja]))
        if d > 1.6 * usual + 0.3:
            checks.append(_check("long_bond", "warning", [ids[ia], ids[ja]], a=ids[ia],
                                 b=ids[ja], distance=round(d, 3), usual=round(usual, 2)))
    comps = components(project)
    if len(comps) > 1:
        checks.append(_check("disconnected_fragments", "warning",
                             [c[0] for c in comps], count=len(comps)))

    # Valences.
    missing = missing_hydrogens(project)
    if missing:
        checks.append(_check("open_valences", "info", list(missing), count=len(missing),
                             total=sum(missing.values())))
    checks += _valence_problems(project)

    # Basis set and functional.
    basis = str(calc.get("basis", "") or "")
    if basis.strip():
        covered, entry = _basis_lookup(basis_catalog, basis)
        present = sorted({a["element"] for a in atoms}, key=elements.atomic_number)
        if covered is None:
            other = _basis_other_name(basis_catalog, basis)
            if other is not None:
                checks.append(_check("basis_other_name", "error", basis=basis, name=other))
            else:
                checks.append(_check("basis_unknown", "warning", basis=basis))
        else:
            lacking = [e for e in present if e not in covered]
            if lacking:
                checks.append(_check("basis_missing_elements", "error",
                                     [a["id"] for a in atoms if a["element"] in lacking],
                                     basis=basis, missing=", ".join(lacking)))
        if entry and entry.get("ecp"):
            ecp_el = [e for e in present if e in set(entry.get("ecpElements", ()))]
            if ecp_el:
                checks.append(_check("basis_needs_ecp", "info",
                                     [a["id"] for a in atoms if a["element"] in ecp_el],
                                     basis=basis, elements=", ".join(ecp_el),
                                     ecp=entry["ecp"]))
    if calc.get("theory") == "dft":
        functional = " ".join(str(calc.get("functional", "")).split())
        if functional and not _known_functional(functional):
            disp = re.fullmatch(r"(.+?)[-_](d2|d3|d3bj)", functional, flags=re.I)
            if disp and _known_functional(disp.group(1)):
                checks.append(_check("functional_with_dispersion", "error",
                                     functional=functional, base=disp.group(1).lower(),
                                     dispersion=disp.group(2).lower()))
            elif functional.lower() in _FUNCTIONAL_OTHER_NAMES:
                checks.append(_check("functional_other_name", "error", functional=functional,
                                     name=_FUNCTIONAL_OTHER_NAMES[functional.lower()]))
            else:
                checks.append(_check("functional_unknown", "info", functional=functional))

    # Fixed atoms and the task.
    task = str(calc.get("task", "energy"))
    fixed = [a["id"] for a in atoms if a.get("fixed")]
    if "optimize" in task and len(fixed) == len(atoms):
        checks.append(_check("all_atoms_fixed", "error", fixed))
    elif "freq" in task and fixed:
        checks.append(_check("fixed_atoms_frequencies", "warning", fixed, count=len(fixed)))
    if task == "frequencies":
        # Nothing records where a geometry came from, so a bare frequency job always gets
        # the reminder; optimize+frequencies optimises with the same method first.
        checks.append(_check("frequencies_need_optimized_geometry", "warning",
                             method=_method_text(calc)))
    if fixed and (project.get("advanced") or {}).get("nocenter") is False:
        checks.append(_check("fixed_atoms_internal_coordinates", "error", fixed))
    ok = not any(c["severity"] == "error" for c in checks)
    return {"ok": ok, "checks": checks}


def _method_text(calc: Mapping[str, Any]) -> str:
    theory = str(calc.get("theory", "scf"))
    level = str(calc.get("functional", "b3lyp")) if theory == "dft" else theory
    return f"{level}/{calc.get('basis', '6-31g*')}"


# Common names NWChem's xc does not take, and the catalogue name it means.
_FUNCTIONAL_OTHER_NAMES = {"pbe": "pbe96", "lda": "svwn5", "svwn": "svwn5", "b-lyp": "blyp",
                           "bp": "bp86", "b-p86": "bp86"}


def _known_functional(functional: str) -> bool:
    from molforma.catalog import get_catalog

    low = functional.lower()
    return any(low in (f["name"].lower(), f["xc"].lower())
               for f in get_catalog("functionals")["functionals"])


def _valence_problems(p: Project) -> list[dict[str, Any]]:
    """Main-group atoms with more bonds than any valence RDKit allows."""
    from rdkit import Chem

    atoms = _atoms(p)
    keep = [a for a in atoms if not is_metal(a["element"])]
    pos = {a["id"]: i for i, a in enumerate(keep)}
    rw = Chem.RWMol()
    for a in keep:
        rw.AddAtom(_rdkit_atom(a, no_implicit=True))
    types = {1: Chem.BondType.SINGLE, 2: Chem.BondType.DOUBLE, 3: Chem.BondType.TRIPLE}
    for b in p["document"]["bonds"]:
        if b["a"] in pos and b["b"] in pos:
            rw.AddBond(pos[b["a"]], pos[b["b"]], types.get(int(b.get("order", 1)), Chem.BondType.SINGLE))
    mol = rw.GetMol()
    out = []
    for prob in Chem.DetectChemistryProblems(mol):
        if prob.GetType() == "AtomValenceException":
            a = keep[prob.GetAtomIdx()]
            out.append(_check("valence_exceeded", "warning", [a["id"]], id=a["id"],
                              element=a["element"]))
    return out
