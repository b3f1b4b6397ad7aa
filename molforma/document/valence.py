"""The valence model of a project's atoms and the helpers edits build on (no Qt).

Bond lengths and metals, the hydrogens each atom lacks (RDKit's valence model), VSEPR
electron domains, and a neighbourhood of atom positions for placing new atoms. The edits
of :mod:`molforma.document.chemistry` and :mod:`molforma.document.building` and the checks
of :mod:`molforma.document.validation` use them; nothing here changes a project except
through the small record helpers an edit calls on its private copy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from molforma.document import elements
from molforma.document import messages as _messages  # noqa: F401 - registers shared codes
from molforma.document.coordinates import xyz_array
from molforma.document.envelope import Project
from molforma.errors import UnknownAtomError, ValidationError
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from rdkit import Chem
else:  # imported on first use (start-up time): molforma.lazy
    Chem = lazy_import("rdkit.Chem")

AtomDict = dict[str, Any]

# Metals bond through coordination, not through a valence count.
_METAL_Z: frozenset[int] = frozenset(
    (
        3,
        4,
        11,
        12,
        13,
        19,
        20,
        31,
        37,
        38,
        49,
        50,
        55,
        56,
        81,
        82,
        83,
        84,
        87,
        88,
        *range(21, 31),
        *range(39, 49),
        *range(57, 81),
        *range(89, 113),
    )
)

# Typical bond lengths (Å) for pairs and orders; others come from covalent radii.
_BOND_TABLE: dict[tuple[str, str], dict[int, float]] = {
    ("C", "H"): {1: 1.09},
    ("H", "N"): {1: 1.01},
    ("H", "O"): {1: 0.96},
    ("H", "S"): {1: 1.34},
    ("H", "P"): {1: 1.42},
    ("H", "Si"): {1: 1.48},
    ("B", "H"): {1: 1.19},
    ("F", "H"): {1: 0.92},
    ("Cl", "H"): {1: 1.27},
    ("Br", "H"): {1: 1.41},
    ("H", "I"): {1: 1.61},
    ("H", "H"): {1: 0.74},
    ("C", "C"): {1: 1.54, 2: 1.34, 3: 1.20},
    ("C", "N"): {1: 1.47, 2: 1.28, 3: 1.16},
    ("C", "O"): {1: 1.43, 2: 1.21, 3: 1.13},
    ("N", "N"): {1: 1.45, 2: 1.25, 3: 1.10},
    ("N", "O"): {1: 1.40, 2: 1.21},
    ("O", "O"): {1: 1.48, 2: 1.21},
    ("C", "S"): {1: 1.82, 2: 1.60},
    ("C", "F"): {1: 1.35},
    ("C", "Cl"): {1: 1.77},
    ("Br", "C"): {1: 1.94},
    ("C", "I"): {1: 2.14},
    ("C", "P"): {1: 1.84},
    ("C", "Si"): {1: 1.87},
    ("O", "S"): {1: 1.58, 2: 1.43},
    ("O", "P"): {1: 1.60, 2: 1.48},
    ("O", "Si"): {1: 1.64},
}


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


def _idnum(aid: str) -> int:
    return int(aid[1:]) if aid[1:].isdigit() else 0


# ---------------------------------------------------------------------------------------------
# Valence model (RDKit)


def _rdkit_atom(a: dict[str, Any], *, no_implicit: bool) -> Any:
    """An RDKit atom with the element, formal charge and radicals of document atom ``a``."""
    at = Chem.Atom(elements.atomic_number(a["element"]))
    at.SetFormalCharge(int(a.get("formalCharge", 0) or 0))
    at.SetNumRadicalElectrons(int(a.get("unpairedElectrons", 0) or 0))
    at.SetNoImplicit(no_implicit)
    return at


def _rdkit_implicit_h(p: Project, *, with_metal_bonds: bool) -> list[int]:
    """RDKit's implicit hydrogen count of every atom (bond orders, charges, radicals)."""
    atoms = _atoms(p)
    pos = {a["id"]: i for i, a in enumerate(atoms)}
    rw = Chem.RWMol()
    for a in atoms:
        rw.AddAtom(_rdkit_atom(a, no_implicit=False))
    types = {1: Chem.BondType.SINGLE, 2: Chem.BondType.DOUBLE, 3: Chem.BondType.TRIPLE}
    for b in p["document"]["bonds"]:
        i, j = pos[b["a"]], pos[b["b"]]
        if not with_metal_bonds and (
            is_metal(atoms[i]["element"]) or is_metal(atoms[j]["element"])
        ):
            continue
        rw.AddBond(i, j, types.get(int(b.get("order", 1)), Chem.BondType.SINGLE))
    mol = rw.GetMol()
    mol.UpdatePropertyCache(strict=False)
    return [mol.GetAtomWithIdx(i).GetNumImplicitHs() for i in range(len(atoms))]


def valence_exceeded_ids(p: Project) -> list[str]:
    """Ids of main-group atoms with more bonds than any valence RDKit allows, in atom
    order (RDKit's DetectChemistryProblems; metals and their bonds are left out)."""
    atoms = _atoms(p)
    keep = [a for a in atoms if not is_metal(a["element"])]
    pos = {a["id"]: i for i, a in enumerate(keep)}
    rw = Chem.RWMol()
    for a in keep:
        rw.AddAtom(_rdkit_atom(a, no_implicit=True))
    types = {1: Chem.BondType.SINGLE, 2: Chem.BondType.DOUBLE, 3: Chem.BondType.TRIPLE}
    for b in p["document"]["bonds"]:
        if b["a"] in pos and b["b"] in pos:
            rw.AddBond(
                pos[b["a"]], pos[b["b"]], types.get(int(b.get("order", 1)), Chem.BondType.SINGLE)
            )
    problems = Chem.DetectChemistryProblems(rw.GetMol())
    rows = sorted({p.GetAtomIdx() for p in problems if p.GetType() == "AtomValenceException"})
    return [str(keep[k]["id"]) for k in rows]


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


def _steric_number(
    atom: Mapping[str, Any],
    orders: Sequence[tuple[str, int]],
    index: Mapping[str, AtomDict],
    adding: int,
    all_orders: Mapping[str, Sequence[tuple[str, int]]],
) -> int:
    """VSEPR domains (σ bonds + lone pairs) once ``adding`` single bonds are made."""
    sym = atom["element"]
    sigma = len(orders) + adding
    if is_metal(sym):
        return max(sigma, 6)
    valence_e = Chem.GetPeriodicTable().GetNOuterElecs(elements.atomic_number(sym))
    bonding = sum(o for nb, o in orders if not is_metal(index[nb]["element"])) + adding
    lone_e = (
        valence_e
        - int(atom.get("formalCharge", 0) or 0)
        - bonding
        - int(atom.get("unpairedElectrons", 0) or 0)
    )
    lone_pairs = max(0, lone_e // 2)
    if sym == "H":
        return max(sigma, 1)
    # A lone pair next to a π bond joins it (amide, aniline nitrogen): planar centre.
    if (
        sym == "N"
        and lone_pairs == 1
        and sigma == 3
        and all(o == 1 for _nb, o in orders)
        and any(any(o2 > 1 for _x, o2 in all_orders.get(nb, ())) for nb, _o in orders)
    ):
        lone_pairs = 0
    return min(sigma + lone_pairs, max(sigma, 8))


def _twist_reference(
    center: AtomDict,
    neighbour: AtomDict,
    orders: Mapping[str, Sequence[tuple[str, int]]],
    index: Mapping[str, AtomDict],
) -> np.ndarray | None:
    """Direction from ``neighbour`` to one of its other neighbours (fixes staggering/planes)."""
    others = [index[n] for n, _o in orders.get(neighbour["id"], ()) if n != center["id"]]
    if not others:
        return None
    # The heaviest substituent first: it is the one that should be anti.
    others.sort(key=lambda a: (-elements.atomic_number(a["element"]), _idnum(a["id"])))
    away: np.ndarray = _xyz(others[0]) - _xyz(neighbour)
    return away


def _clash_score(
    points: np.ndarray, elems: Sequence[str], env_xyz: np.ndarray, env_elems: Sequence[str]
) -> float:
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

    def near(
        self, around: np.ndarray, radius: float, exclude: set[str]
    ) -> tuple[np.ndarray, list[str]]:
        xyz, elems, _ids = self.near_ids(around, radius, exclude)
        return xyz, elems

    def near_ids(
        self, around: np.ndarray, radius: float, exclude: set[str]
    ) -> tuple[np.ndarray, list[str], list[str]]:
        """Positions, elements and ids of the atoms within ``radius`` of ``around``."""
        xyz = self._xyz[: self._n]
        hits = np.nonzero(np.linalg.norm(xyz - around, axis=1) <= radius)[0]
        keep = [int(i) for i in hits if self.ids[int(i)] not in exclude]
        return (
            xyz[keep].reshape(-1, 3),
            [self.elems[i] for i in keep],
            [self.ids[i] for i in keep],
        )
