"""Between document atoms/bonds and RDKit molecules; bond perception (no Qt).

The document keeps only Kekulé bond orders 1, 2 and 3, explicit atoms and 3D
coordinates, so aromatic bonds read by RDKit are kekulized here, and RDKit never
adds implicit hydrogens to what is written.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rdkit import Chem, rdBase
from rdkit.Chem import rdDetermineBonds
from rdkit.Geometry import Point3D

from molforma.document import elements
from molforma.formats.common import make_atom

# Bond orders for molecules up to this size; larger ones (proteins, solvent boxes) keep
# single bonds because the order assignment grows quickly with size.
ORDER_PERCEPTION_LIMIT = 1000

_ORDER_OF: dict[Any, int] = {
    Chem.BondType.SINGLE: 1, Chem.BondType.DOUBLE: 2, Chem.BondType.TRIPLE: 3,
    Chem.BondType.QUADRUPLE: 3, Chem.BondType.DATIVE: 1, Chem.BondType.DATIVEONE: 1,
    Chem.BondType.ONEANDAHALF: 1, Chem.BondType.AROMATIC: 1, Chem.BondType.UNSPECIFIED: 1,
}
_TYPE_OF = {1: Chem.BondType.SINGLE, 2: Chem.BondType.DOUBLE, 3: Chem.BondType.TRIPLE}


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """Silence RDKit's log while a parser runs: our own errors say what is wrong."""
    block = rdBase.BlockLogs()
    try:
        yield
    finally:
        del block


def mol_from_document(
    atoms: Sequence[Mapping[str, Any]], bonds: Sequence[Mapping[str, Any]]
) -> Chem.Mol:
    """An RDKit molecule with one conformer; atom ``i`` is ``atoms[i]``.

    Atoms carry no implicit hydrogens; formal charge, isotope (mass number) and
    radical electrons (unpaired electrons) are copied.
    """
    rw = Chem.RWMol()
    index: dict[str, int] = {}
    conf = Chem.Conformer(len(atoms))
    for i, a in enumerate(atoms):
        atom = Chem.Atom(elements.atomic_number(str(a["element"])))
        atom.SetFormalCharge(int(a.get("formalCharge", 0) or 0))
        atom.SetNoImplicit(True)
        if a.get("massNumber"):
            atom.SetIsotope(int(a["massNumber"]))
        if a.get("unpairedElectrons"):
            atom.SetNumRadicalElectrons(int(a["unpairedElectrons"]))
        rw.AddAtom(atom)
        index[str(a["id"])] = i
        conf.SetAtomPosition(i, Point3D(float(a["x"]), float(a["y"]), float(a["z"])))
    for b in bonds:
        rw.AddBond(index[b["a"]], index[b["b"]], _TYPE_OF.get(int(b.get("order", 1)),
                                                              Chem.BondType.SINGLE))
    mol = rw.GetMol()
    mol.AddConformer(conf, assignId=True)
    mol.UpdatePropertyCache(strict=False)
    return mol


def kekulized(mol: Chem.Mol) -> Chem.Mol:
    """``mol`` with aromatic bonds written as alternating single/double bonds when possible."""
    if not any(b.GetBondType() == Chem.BondType.AROMATIC for b in mol.GetBonds()):
        return mol
    work = Chem.Mol(mol)
    with quiet():
        try:
            work.UpdatePropertyCache(strict=False)
            Chem.FastFindRings(work)
            Chem.Kekulize(work, clearAromaticFlags=True)
            return work
        except Exception:  # noqa: BLE001 - RDKit raises several types; fall back below
            pass
        try:
            work = Chem.Mol(mol)
            Chem.SanitizeMol(work)
            Chem.Kekulize(work, clearAromaticFlags=True)
            return work
        except Exception:  # noqa: BLE001 - keep the aromatic bonds as single bonds
            return mol


def bonds_with_aromatic(
    atoms: Sequence[Mapping[str, Any]], bonds: Sequence[tuple[int, int, int]]
) -> list[dict[str, Any]]:
    """Document bonds from (index, index, order) triples where order 4 means aromatic.

    Aromatic bonds are kekulized by RDKit when the rings allow it, else kept single.
    Repeated pairs keep their first order.
    """
    rw = Chem.RWMol()
    for a in atoms:
        at = Chem.Atom(elements.atomic_number(str(a["element"])))
        at.SetNoImplicit(True)
        at.SetFormalCharge(int(a.get("formalCharge", 0) or 0))
        rw.AddAtom(at)
    types = {1: Chem.BondType.SINGLE, 2: Chem.BondType.DOUBLE, 3: Chem.BondType.TRIPLE,
             4: Chem.BondType.AROMATIC}
    for i, j, order in bonds:
        if i == j or rw.GetBondBetweenAtoms(i, j) is not None:
            continue
        rw.AddBond(i, j, types.get(order, Chem.BondType.SINGLE))
        if order == 4:
            rw.GetBondBetweenAtoms(i, j).SetIsAromatic(True)
            rw.GetAtomWithIdx(i).SetIsAromatic(True)
            rw.GetAtomWithIdx(j).SetIsAromatic(True)
    mol = kekulized(rw.GetMol())
    return [{"a": atoms[b.GetBeginAtomIdx()]["id"], "b": atoms[b.GetEndAtomIdx()]["id"],
             "order": _ORDER_OF.get(b.GetBondType(), 1)} for b in mol.GetBonds()]


def document_from_mol(
    mol: Chem.Mol,
    *,
    ids: Sequence[str] | None = None,
    names: Sequence[str] | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Atoms and bonds of an RDKit molecule (first conformer; z = 0 when 2D).

    ``ids`` replaces the default ``a1``.. ids (same length as the atoms).
    """
    mol = kekulized(mol)
    conf = mol.GetConformer() if mol.GetNumConformers() else None
    atoms: list[dict[str, Any]] = []
    for i, at in enumerate(mol.GetAtoms()):
        pos = conf.GetAtomPosition(i) if conf is not None else Point3D(0, 0, 0)
        props: dict[str, Any] = {
            "formalCharge": int(at.GetFormalCharge()),
            "unpairedElectrons": min(int(at.GetNumRadicalElectrons()), 8),
        }
        iso = int(at.GetIsotope())
        if iso:
            props["massNumber"] = iso
        if names is not None and names[i]:
            props["name"] = names[i]
        atom = make_atom(i + 1, at.GetSymbol(), pos.x, pos.y, pos.z, **props)
        if ids is not None:
            atom["id"] = ids[i]
        atoms.append(atom)
    bonds: list[dict[str, Any]] = []
    seen: set[tuple[int, int]] = set()
    for b in mol.GetBonds():
        order = _ORDER_OF.get(b.GetBondType())
        i, j = b.GetBeginAtomIdx(), b.GetEndAtomIdx()
        key = (min(i, j), max(i, j))
        if order is None or i == j or key in seen:
            continue  # zero-order and hydrogen "bonds" are not bonds of the document
        seen.add(key)
        bonds.append({"a": atoms[i]["id"], "b": atoms[j]["id"], "order": order})
    return atoms, bonds


COVALENT_FACTOR = 1.3  # RDKit's connect-the-dots rule: 0.4 Å <= d <= 1.3 (r_i + r_j)
CONNECT_MIN = 0.4


@functools.lru_cache(maxsize=256)
def connect_radius(symbol: str) -> float:
    """The radius RDKit's connect-the-dots uses for ``symbol``, measured from RDKit itself.

    RDKit keeps its own radius table for this rule (not the periodic table's
    covalent radii), so the threshold of a homonuclear pair is found by bisection
    once per element; the sweep below then bonds exactly what RDKit would.
    """
    lo, hi = 0.05, 12.0
    for _ in range(32):
        mid = (lo + hi) / 2
        mol = Chem.RWMol(mol_from_document(
            [make_atom(1, symbol, 0.0, 0.0, 0.0), make_atom(2, symbol, mid, 0.0, 0.0)], []))
        with quiet():
            rdDetermineBonds.DetermineConnectivity(mol, useHueckel=False)
        if mol.GetNumBonds():
            lo = mid
        else:
            hi = mid
    return lo / (2 * COVALENT_FACTOR)


def connectivity(atoms: Sequence[Mapping[str, Any]]) -> list[tuple[int, int]]:
    """Bonded index pairs by covalent radii, in about linear time for large systems."""
    import numpy as np

    xyz = np.array([(a["x"], a["y"], a["z"]) for a in atoms], dtype=float)
    radii = np.array([connect_radius(str(a["element"])) for a in atoms])
    order = np.argsort(xyz[:, 0], kind="stable")
    xs, rs = xyz[order], radii[order]
    reach = COVALENT_FACTOR * 2 * float(rs.max())
    ends = np.searchsorted(xs[:, 0], xs[:, 0] + reach, side="right")
    found: list[tuple[float, int, int]] = []
    for i in range(len(xs) - 1):
        if ends[i] <= i + 1:
            continue
        d = np.sqrt(((xs[i + 1:ends[i]] - xs[i]) ** 2).sum(axis=1))
        lim = COVALENT_FACTOR * (rs[i] + rs[i + 1:ends[i]])
        for k in np.nonzero((d <= lim) & (d >= CONNECT_MIN))[0]:
            a, b = int(order[i]), int(order[i + 1 + k])
            found.append((float(d[k]), min(a, b), max(a, b)))
    # like RDKit, a hydrogen keeps one bond: its shortest
    hydrogen = [str(a["element"]) == "H" for a in atoms]
    taken: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for _d, a, b in sorted(found):
        if (hydrogen[a] and a in taken) or (hydrogen[b] and b in taken):
            continue
        taken.update((a, b))
        pairs.append((a, b))
    pairs.sort()
    return pairs


def perceive_bonds(
    atoms: list[dict[str, Any]], charge: int | None = None, *, orders: bool = True
) -> list[dict[str, Any]]:
    """Bonds of atoms that have only coordinates (XYZ, NWChem, Gaussian, bare PDB).

    RDKit's ``DetermineConnectivity`` finds the bonds; ``DetermineBondOrders`` with
    the total charge (0 when unknown) then sets orders and the atoms' formal
    charges (changed in place). When orders cannot be assigned (radicals, metals,
    a wrong charge, a large system) the bonds stay single and no charge is set.
    """
    if len(atoms) < 2:
        return []
    if len(atoms) > ORDER_PERCEPTION_LIMIT:
        # RDKit's connect-the-dots compares every pair (5 s for 10,000 atoms); orders are
        # not perceived at this size anyway, so a sorted sweep with the same rule serves.
        return [{"a": atoms[i]["id"], "b": atoms[j]["id"], "order": 1}
                for i, j in connectivity(atoms)]
    bare = [dict(a, formalCharge=0, unpairedElectrons=0, massNumber=None) for a in atoms]
    mol = Chem.RWMol(mol_from_document(bare, []))
    with quiet():
        try:
            rdDetermineBonds.DetermineConnectivity(mol, useHueckel=False)
        except Exception:  # noqa: BLE001 - no bonds rather than no structure
            return []
        connected = Chem.Mol(mol)
        if orders and len(atoms) <= ORDER_PERCEPTION_LIMIT and mol.GetNumBonds():
            try:
                rdDetermineBonds.DetermineBondOrders(mol, charge=int(charge or 0))
                # DetermineBondOrders marks aromatic rings; the document wants Kekulé form.
                Chem.Kekulize(mol, clearAromaticFlags=True)
                connected = Chem.Mol(mol)
                for i, a in enumerate(atoms):
                    a["formalCharge"] = int(connected.GetAtomWithIdx(i).GetFormalCharge())
            except Exception:  # noqa: BLE001 - ValueError for a wrong charge and more
                pass  # keep the single bonds found above
    bonds = []
    # indexing RDKit's bond sequence walks it from the start each time: use indices
    for k in range(connected.GetNumBonds()):
        b = connected.GetBondWithIdx(k)
        i, j = b.GetBeginAtomIdx(), b.GetEndAtomIdx()
        bonds.append({"a": atoms[i]["id"], "b": atoms[j]["id"],
                      "order": _ORDER_OF.get(b.GetBondType(), 1)})
    return bonds
