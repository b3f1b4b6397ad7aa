"""Between document atoms/bonds and RDKit molecules; bond perception (no Qt).

The document keeps only Kekulé bond orders 1, 2 and 3, explicit atoms and 3D
coordinates, so aromatic bonds read by RDKit are kekulized here, and RDKit never
adds implicit hydrogens to what is written.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from rdkit import Chem
from rdkit.Chem import rdDetermineBonds

from molforma.document import elements
from molforma.document.rdkit_mol import mol_from_document as mol_from_document
from molforma.document.rdkit_mol import quiet as quiet
from molforma.formats.common import make_atom

# Bond orders for molecules up to this size; larger ones (proteins, solvent boxes) keep
# single bonds because the order assignment grows quickly with size.
ORDER_PERCEPTION_LIMIT = 1000

_ORDER_OF: dict[Any, int] = {
    Chem.BondType.SINGLE: 1, Chem.BondType.DOUBLE: 2, Chem.BondType.TRIPLE: 3,
    Chem.BondType.QUADRUPLE: 3, Chem.BondType.DATIVE: 1, Chem.BondType.DATIVEONE: 1,
    Chem.BondType.ONEANDAHALF: 1, Chem.BondType.AROMATIC: 1, Chem.BondType.UNSPECIFIED: 1,
}


def kekulized(mol: Chem.Mol) -> Chem.Mol:
    """``mol`` with aromatic bonds written as alternating single/double bonds when possible."""
    aromatic = Chem.BondType.AROMATIC
    if not any(mol.GetBondWithIdx(k).GetBondType() == aromatic
               for k in range(mol.GetNumBonds())):
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
    n = mol.GetNumAtoms()
    # One call for all positions, and atoms/bonds by index: RDKit's Python sequence
    # wrappers cost more per item than the molecule itself (10,000 atoms: seconds).
    pos = (mol.GetConformer().GetPositions().tolist() if mol.GetNumConformers()
           else [[0.0, 0.0, 0.0]] * n)
    atoms: list[dict[str, Any]] = []
    for i in range(n):
        at = mol.GetAtomWithIdx(i)
        props: dict[str, Any] = {
            "formalCharge": int(at.GetFormalCharge()),
            "unpairedElectrons": min(int(at.GetNumRadicalElectrons()), 8),
        }
        iso = int(at.GetIsotope())
        if iso:
            props["massNumber"] = iso
        if names is not None and names[i]:
            props["name"] = names[i]
        x, y, z = pos[i]
        atom = make_atom(i + 1, at.GetSymbol(), x, y, z, **props)
        if ids is not None:
            atom["id"] = ids[i]
        atoms.append(atom)
    bonds: list[dict[str, Any]] = []
    seen: set[tuple[int, int]] = set()
    for k in range(mol.GetNumBonds()):
        b = mol.GetBondWithIdx(k)
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


def _cell_pairs(xyz: Any, reach: float) -> tuple[Any, Any]:
    """Index pairs ``i < j`` of points in the same or neighbouring cubic cells of side ``reach``.

    Every pair closer than ``reach`` is among them. All in numpy: atoms sorted by cell,
    then for the cell itself and 13 of its 26 neighbours (each neighbour pair once) the
    ranges of atoms are expanded with ``repeat``, so there is no Python loop per atom.
    """
    import numpy as np

    side = reach * 1.0001  # rounding never puts a pair closer than reach two cells apart
    cells = np.floor((xyz - xyz.min(axis=0)) / side).astype(np.int64) + 1
    span = cells.max(axis=0) + 2
    keys = (cells[:, 0] * span[1] + cells[:, 1]) * span[2] + cells[:, 2]
    order = np.argsort(keys, kind="stable")
    skeys = keys[order]
    uniq, first, counts = np.unique(skeys, return_index=True, return_counts=True)
    cell_of = np.repeat(np.arange(len(uniq)), counts)  # cell index of each sorted atom
    pos = np.arange(len(skeys))
    out_i: list[Any] = []
    out_j: list[Any] = []
    # the atom's own cell: the atoms after it in the same cell
    own = first[cell_of] + counts[cell_of] - pos - 1
    starts = pos + 1
    shifts = [(dx, dy, dz) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)
              if (dx, dy, dz) > (0, 0, 0)]
    blocks = [(own, starts)]
    for dx, dy, dz in shifts:
        target = uniq + (dx * span[1] + dy) * span[2] + dz
        at = np.searchsorted(uniq, target)
        at_ok = np.minimum(at, len(uniq) - 1)
        hit = uniq[at_ok] == target
        ncount = np.where(hit, counts[at_ok], 0)[cell_of]
        nfirst = first[at_ok][cell_of]
        blocks.append((ncount, nfirst))
    for n, begin in blocks:
        total = int(n.sum())
        if not total:
            continue
        rows = np.repeat(pos, n)
        offs = np.arange(total) - np.repeat(np.cumsum(n) - n, n)
        out_i.append(order[rows])
        out_j.append(order[np.repeat(begin, n) + offs])
    if not out_i:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    i = np.concatenate(out_i)
    j = np.concatenate(out_j)
    return np.minimum(i, j), np.maximum(i, j)


def connectivity_of(xyz: Any, symbols: Sequence[str]) -> list[tuple[int, int]]:
    """Bonded index pairs (sorted) of coordinates ``xyz`` (n x 3) with element ``symbols``.

    The rule is RDKit's connect-the-dots: 0.4 Å <= d <= 1.3 (r_i + r_j) with RDKit's own
    radii, and a hydrogen keeps only its shortest bond. Linear in the number of atoms.
    """
    import numpy as np

    xyz = np.asarray(xyz, dtype=float).reshape(-1, 3)
    if len(xyz) < 2:
        return []
    table = {s: connect_radius(s) for s in set(symbols)}
    radii = np.array([table[s] for s in symbols])
    reach = COVALENT_FACTOR * 2 * float(radii.max())
    a, b = _cell_pairs(xyz, reach)
    d = np.sqrt(((xyz[b] - xyz[a]) ** 2).sum(axis=1))
    keep = (d <= COVALENT_FACTOR * (radii[a] + radii[b])) & (d >= CONNECT_MIN)
    a, b, d = a[keep], b[keep], d[keep]
    hydrogen = np.asarray(symbols) == "H"
    with_h = hydrogen[a] | hydrogen[b]
    # like RDKit, a hydrogen keeps one bond, its shortest: decided in order of distance
    ha, hb, hd = a[with_h], b[with_h], d[with_h]
    taken: set[int] = set()
    kept: list[int] = []
    is_h = hydrogen.tolist()
    ha_l, hb_l = ha.tolist(), hb.tolist()
    for k in np.lexsort((hb, ha, hd)).tolist():
        i, j = ha_l[k], hb_l[k]
        if (is_h[i] and i in taken) or (is_h[j] and j in taken):
            continue
        taken.add(i)
        taken.add(j)
        kept.append(k)
    pa = np.concatenate([a[~with_h], ha[kept]])
    pb = np.concatenate([b[~with_h], hb[kept]])
    rank = np.argsort(pa * len(xyz) + pb, kind="stable")
    return list(zip(pa[rank].tolist(), pb[rank].tolist(), strict=True))


def connectivity(atoms: Sequence[Mapping[str, Any]]) -> list[tuple[int, int]]:
    """Bonded index pairs of atom dicts by covalent radii (see :func:`connectivity_of`)."""
    return connectivity_of([(a["x"], a["y"], a["z"]) for a in atoms],
                           [str(a["element"]) for a in atoms])


def perceive_bonds(
    atoms: list[dict[str, Any]], charge: int | None = None, *, orders: bool = True,
    xyz: Any = None,
) -> list[dict[str, Any]]:
    """Bonds of atoms that have only coordinates (XYZ, NWChem, Gaussian, bare PDB).

    RDKit's ``DetermineConnectivity`` finds the bonds; ``DetermineBondOrders`` with
    the total charge (0 when unknown) then sets orders and the atoms' formal
    charges (changed in place). When orders cannot be assigned (radicals, metals,
    a wrong charge, a large system) the bonds stay single and no charge is set.
    ``xyz`` (n x 3, the atoms' coordinates) spares a reader that has them already
    building them again from the atom dicts.
    """
    if len(atoms) < 2:
        return []
    if len(atoms) > ORDER_PERCEPTION_LIMIT:
        # RDKit's connect-the-dots compares every pair (5 s for 10,000 atoms); orders are
        # not perceived at this size anyway, so a sorted sweep with the same rule serves.
        pairs = (connectivity(atoms) if xyz is None
                 else connectivity_of(xyz, [str(a["element"]) for a in atoms]))
        ids = [a["id"] for a in atoms]
        return [{"a": ids[i], "b": ids[j], "order": 1} for i, j in pairs]
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
