"""Between document atoms/bonds and RDKit molecules; bond perception (no Qt).

The document keeps only Kekulé bond orders 1, 2 and 3, explicit atoms and 3D
coordinates, so aromatic bonds read by RDKit are kekulized here, and RDKit never
adds implicit hydrogens to what is written.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rdkit import Chem
from rdkit.Chem import rdDetermineBonds

from molforma.document import elements
from molforma.document.coordinates import xyz_array
from molforma.document.rdkit_mol import mol_from_document as mol_from_document
from molforma.document.rdkit_mol import quiet as quiet
from molforma.formats.common import make_atom
from molforma.formats.connectivity import (  # noqa: F401 - connectivity is this module's API
    CONNECT_TOLERANCE,
    ORDER_PERCEPTION_LIMIT,
    connectivity,
    connectivity_of,
    crowded,
    saturated_bonds,
    single_bonds,
)
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (start-up time): molforma.lazy
    np = lazy_import("numpy")

_ORDER_OF: dict[Any, int] = {
    Chem.BondType.SINGLE: 1,
    Chem.BondType.DOUBLE: 2,
    Chem.BondType.TRIPLE: 3,
    Chem.BondType.QUADRUPLE: 3,
    Chem.BondType.DATIVE: 1,
    Chem.BondType.DATIVEONE: 1,
    Chem.BondType.ONEANDAHALF: 1,
    Chem.BondType.AROMATIC: 1,
    Chem.BondType.UNSPECIFIED: 1,
}


def kekulized(mol: Chem.Mol) -> Chem.Mol:
    """``mol`` with aromatic bonds written as alternating single/double bonds when possible."""
    aromatic = Chem.BondType.AROMATIC
    if not any(mol.GetBondWithIdx(k).GetBondType() == aromatic for k in range(mol.GetNumBonds())):
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
    types = {
        1: Chem.BondType.SINGLE,
        2: Chem.BondType.DOUBLE,
        3: Chem.BondType.TRIPLE,
        4: Chem.BondType.AROMATIC,
    }
    for i, j, order in bonds:
        if i == j or rw.GetBondBetweenAtoms(i, j) is not None:
            continue
        rw.AddBond(i, j, types.get(order, Chem.BondType.SINGLE))
        if order == 4:
            rw.GetBondBetweenAtoms(i, j).SetIsAromatic(True)
            rw.GetAtomWithIdx(i).SetIsAromatic(True)
            rw.GetAtomWithIdx(j).SetIsAromatic(True)
    mol = kekulized(rw.GetMol())
    return [
        {
            "a": atoms[b.GetBeginAtomIdx()]["id"],
            "b": atoms[b.GetEndAtomIdx()]["id"],
            "order": _ORDER_OF.get(b.GetBondType(), 1),
        }
        for b in mol.GetBonds()
    ]


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
    pos = (
        mol.GetConformer().GetPositions().tolist()
        if mol.GetNumConformers()
        else [[0.0, 0.0, 0.0]] * n
    )
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


@functools.lru_cache(maxsize=256)
def measured_radius(symbol: str) -> float:
    """The radius RDKit's connect-the-dots uses for ``symbol``, measured from RDKit itself.

    RDKit bonds a homonuclear pair up to ``2 r + 0.45`` Å; the longest bonded distance is
    found by bisection. :data:`molforma.formats.connectivity.RADII` holds these values so
    that nothing measures at run time; a test compares the two.
    """
    lo, hi = 0.05, 12.0
    for _ in range(32):
        mid = (lo + hi) / 2
        mol = Chem.RWMol(
            mol_from_document(
                [make_atom(1, symbol, 0.0, 0.0, 0.0), make_atom(2, symbol, mid, 0.0, 0.0)], []
            )
        )
        with quiet():
            rdDetermineBonds.DetermineConnectivity(mol, useHueckel=False)
        if mol.GetNumBonds():
            lo = mid
        else:
            hi = mid
    return (lo - CONNECT_TOLERANCE) / 2


def perceive_bonds(
    atoms: list[dict[str, Any]],
    charge: int | None = None,
    *,
    orders: bool = True,
    xyz: Any = None,
    seen: dict[str, float] | None = None,
    warnings: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Bonds of atoms that have only coordinates (XYZ, NWChem, Gaussian, bare PDB).

    RDKit's ``DetermineConnectivity`` finds the bonds; ``DetermineBondOrders`` with
    the total charge (0 when unknown) then sets orders and the atoms' formal
    charges (changed in place). When orders cannot be assigned (radicals, metals,
    a wrong charge, a large system) the bonds stay single and no charge is set.
    ``xyz`` (n x 3, the atoms' coordinates) spares a reader that has them already
    building them again from the atom dicts. ``seen`` receives the shortest distance
    between two atoms when the large-system sweep runs (see
    :func:`molforma.formats.connectivity.connectivity_of`).
    """
    if len(atoms) < 2:
        return []
    if len(atoms) > ORDER_PERCEPTION_LIMIT:
        # Reading RDKit's bonds of the whole back one call at a time costs more than finding
        # them: the same rule in numpy serves, and orders come fragment by fragment
        # (``warnings`` receives the fragments left single).
        return _large_bonds(atoms, charge, orders, xyz, seen, warnings)
    if orders:
        saturated = saturated_bonds(atoms, charge, xyz)
        if saturated is not None:
            return saturated  # what RDKit would assign, without asking it
    return rdkit_bonds(atoms, charge, orders=orders, warnings=warnings)


def _large_bonds(
    atoms: list[dict[str, Any]],
    charge: int | None,
    orders: bool,
    xyz: Any,
    seen: dict[str, float] | None,
    warnings: list[dict[str, Any]] | None,
) -> list[dict[str, Any]]:
    """:func:`perceive_bonds` of a large structure: the distance sweep's bonds, with orders
    and formal charges per connected fragment (:mod:`molforma.formats.fragments`)."""
    from molforma.formats.connectivity import bonded_pairs
    from molforma.formats.fragments import fragment_orders

    if not orders:
        return single_bonds(atoms, xyz, seen)
    if xyz is None:
        xyz = xyz_array(atoms)
    symbols = [str(a["element"]) for a in atoms]
    pa, pb = bonded_pairs(xyz, symbols, seen)
    z = np.array([elements.atomic_number(s) for s in symbols], dtype=np.uint8)
    found = fragment_orders(z, np.asarray(xyz, dtype=float), pa, pb, charge)
    for k in np.flatnonzero(found.charges).tolist():
        atoms[k]["formalCharge"] = int(found.charges[k])
    if warnings is not None:
        warnings += found.warnings()
    ids = [a["id"] for a in atoms]
    return [
        {"a": ids[i], "b": ids[j], "order": o}
        for i, j, o in zip(pa.tolist(), pb.tolist(), found.orders.tolist(), strict=True)
    ]


def rdkit_bonds(
    atoms: list[dict[str, Any]],
    charge: int | None = None,
    *,
    orders: bool = True,
    warnings: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """RDKit's own part of :func:`perceive_bonds` (connectivity, then orders and formal
    charges), for a reader that has found :func:`saturated_bonds` does not apply.

    The search for orders is bounded (:data:`~molforma.formats.fragments.ORDER_SEARCH_STEPS`):
    past it the bonds stay single and ``warnings`` receives ``bond_orders_not_perceived``.
    """
    from molforma.formats.fragments import ORDER_SEARCH_STEPS, unresolved_warnings

    if len(atoms) < 2:
        return []
    if crowded(xyz_array(atoms), [a["element"] for a in atoms]):
        # Atoms packed as no matter is get no bonds, as the sweep decides: RDKit's bond
        # orders for carbons with hundreds of neighbours would take minutes.
        return []
    bare = [dict(a, formalCharge=0, unpairedElectrons=0, massNumber=None) for a in atoms]
    mol = Chem.RWMol(mol_from_document(bare, []))
    with quiet():
        try:
            rdDetermineBonds.DetermineConnectivity(mol, useHueckel=False)
        except Exception:  # noqa: BLE001 - no bonds rather than no structure
            return []
        connected = Chem.Mol(mol)
        if orders and mol.GetNumBonds():
            try:
                rdDetermineBonds.DetermineBondOrders(
                    mol, charge=int(charge or 0), maxIterations=ORDER_SEARCH_STEPS
                )
                # DetermineBondOrders marks aromatic rings; the document wants Kekulé form.
                Chem.Kekulize(mol, clearAromaticFlags=True)
                connected = Chem.Mol(mol)
                for i, a in enumerate(atoms):
                    a["formalCharge"] = int(connected.GetAtomWithIdx(i).GetFormalCharge())
            except Exception as exc:  # noqa: BLE001 - ValueError for a wrong charge and more
                # keep the single bonds found above; a search cut short is said, since
                # the person would otherwise take them for the molecule's real orders
                if warnings is not None and "Max Iterations" in str(exc):
                    warnings += unresolved_warnings(len(atoms))
    bonds = []
    # indexing RDKit's bond sequence walks it from the start each time: use indices
    for k in range(connected.GetNumBonds()):
        b = connected.GetBondWithIdx(k)
        i, j = b.GetBeginAtomIdx(), b.GetEndAtomIdx()
        bonds.append(
            {"a": atoms[i]["id"], "b": atoms[j]["id"], "order": _ORDER_OF.get(b.GetBondType(), 1)}
        )
    return bonds
