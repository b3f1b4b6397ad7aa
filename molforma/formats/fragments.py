"""Bond orders of large structures, one connected fragment at a time, through RDKit (no Qt).

A solvent box or a crystal of organic molecules is many small molecules: their bond
orders come from RDKit's ``DetermineBondOrders`` per connected fragment (components
found on the bond index arrays, in numpy), and identical fragments (the same elements
and bonds in the same order, as a box repeats its molecule) are asked about once.
Fragments every atom of which is saturated by single bonds (water, alkanes) need no
question at all. A fragment larger than :data:`FRAGMENT_LIMIT` atoms (a protein chain)
or one RDKit cannot resolve keeps single bonds, and the reader says so in its warnings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from molforma.document import elements
from molforma.document.bond_table import component_labels
from molforma.i18n import register, render

# Atoms of one fragment up to which its orders are asked of RDKit (order assignment grows
# fast with the size of a fragment; a protein chain is thousands of atoms).
FRAGMENT_LIMIT = 1000
# Steps of RDKit's search for orders before it gives up (about 30 us each): a molecule of
# known charge needs a handful; one whose charge the file does not give (a bare PDB
# peptide read as neutral) can search for hours, and an open must not hang on it.
ORDER_SEARCH_STEPS = 10_000

register(
    {
        "bond_orders_not_perceived": {
            "en": "Bond orders were not perceived for {count} fragment(s) ({atoms} atoms): "
            "{reason}. Their bonds stay single.",
            "ja": "{count} 個のフラグメント（原子 {atoms} 個）の結合次数は判定していません"
            "（{reason}）。結合は単結合のままです。",
        },
        "bond_orders_too_large": {
            "en": "a fragment has more than {limit} atoms",
            "ja": "{limit} 原子を超えるフラグメントです",
        },
        "bond_orders_unresolved": {
            "en": "RDKit could not assign them",
            "ja": "RDKit で割り当てられませんでした",
        },
    }
)

# Neutral valence of the elements a fragment of only single bonds can be saturated with
# (RDKit's first guess for them; see connectivity.saturated_bonds).
_SATURATED_AT = {
    "H": 1,
    "C": 4,
    "N": 3,
    "O": 2,
    "F": 1,
    "Cl": 1,
    "Br": 1,
    "I": 1,
    "He": 0,
    "Ne": 0,
    "Ar": 0,
    "Kr": 0,
    "Xe": 0,
}
_SATURATED_BY_Z = np.full(elements.MAX_Z + 1, -1, dtype=np.int64)
for _sym, _val in _SATURATED_AT.items():
    _SATURATED_BY_Z[elements.atomic_number(_sym)] = _val


@dataclass
class FragmentOrders:
    """What :func:`fragment_orders` found: an order per bond, a formal charge per atom,
    and the fragments left single (too large, unresolved) with their atom counts."""

    orders: np.ndarray
    charges: np.ndarray
    fragments: int = 0
    asked: int = 0  # distinct fragments RDKit was asked about
    too_large: list[int] = field(default_factory=list)
    unresolved: list[int] = field(default_factory=list)

    def warnings(self, lang: str | None = None) -> list[dict[str, Any]]:
        """The open result's warnings (code, message, details) for fragments left single."""
        out = []
        for kind, sizes, reason in (
            ("too_large", self.too_large, "bond_orders_too_large"),
            ("unresolved", self.unresolved, "bond_orders_unresolved"),
        ):
            if not sizes:
                continue
            details = {
                "count": len(sizes),
                "atoms": int(sum(sizes)),
                "kind": kind,
                "limit": FRAGMENT_LIMIT,
            }
            text = render(reason, {"limit": f"{FRAGMENT_LIMIT:,}"}, lang)
            out.append(
                {
                    "code": "bond_orders_not_perceived",
                    "message": render(
                        "bond_orders_not_perceived", {**details, "reason": text}, lang
                    ),
                    "details": details,
                }
            )
        return out


def unresolved_warnings(atoms: int, lang: str | None = None) -> list[dict[str, Any]]:
    """The warning of one fragment of ``atoms`` atoms whose orders RDKit did not find."""
    empty = np.zeros(0, dtype=np.int64)
    return FragmentOrders(orders=empty, charges=empty, fragments=1, unresolved=[atoms]).warnings(
        lang
    )


def fragment_orders(
    z: np.ndarray, xyz: np.ndarray, a: np.ndarray, b: np.ndarray, charge: int | None = None
) -> FragmentOrders:
    """Bond orders (aligned with the pairs ``(a, b)``) and formal charges of atoms with
    atomic numbers ``z`` at ``xyz``, fragment by fragment.

    ``charge`` (the file's total charge) is given to RDKit when exactly one fragment needs
    its orders; every other fragment is taken as neutral.
    """
    n, m = len(z), len(a)
    orders = np.ones(m, dtype=np.int8)
    charges = np.zeros(n, dtype=np.int64)
    lab = component_labels(n, a, b)
    degree = np.bincount(a, minlength=n) + np.bincount(b, minlength=n)
    open_atom = _SATURATED_BY_Z[z] != degree  # not an element saturated by its bonds
    sizes = np.bincount(lab, minlength=n)
    needy = np.flatnonzero(np.bincount(lab, weights=open_atom, minlength=n) > 0)
    out = FragmentOrders(orders, charges, fragments=int((sizes > 0).sum()))
    # fragments of one atom have no bonds to order
    needy = needy[sizes[needy] > 1]
    if not len(needy):
        return out
    big = needy[sizes[needy] > FRAGMENT_LIMIT]
    out.too_large = sizes[big].tolist()
    needy = needy[sizes[needy] <= FRAGMENT_LIMIT]
    if not len(needy):
        return out
    atom_order = np.argsort(lab, kind="stable")
    starts = np.concatenate(([0], np.cumsum(sizes)))
    local = np.empty(n, dtype=np.int64)
    local[atom_order] = np.arange(n) - starts[lab[atom_order]]
    bond_lab = lab[a]
    bond_order = np.argsort(bond_lab, kind="stable")
    bcounts = np.bincount(bond_lab, minlength=n)
    bstarts = np.concatenate(([0], np.cumsum(bcounts)))
    la, lb = local[a], local[b]
    zz = np.asarray(z, dtype=np.uint8)
    one = len(needy) == 1
    known: dict[bytes, tuple[np.ndarray, np.ndarray] | None] = {}
    for f in needy.tolist():
        atoms = atom_order[starts[f] : starts[f + 1]]
        bonds = bond_order[bstarts[f] : bstarts[f + 1]]
        key = zz[atoms].tobytes() + la[bonds].tobytes() + lb[bonds].tobytes()
        if key not in known:
            known[key] = _ask_rdkit(
                zz[atoms], xyz[atoms], la[bonds], lb[bonds], int(charge or 0) if one else 0
            )
            out.asked += 1
        got = known[key]
        if got is None:
            out.unresolved.append(len(atoms))
            continue
        orders[bonds] = got[0]
        charges[atoms] = got[1]
    return out


def _ask_rdkit(
    z: np.ndarray, xyz: np.ndarray, a: np.ndarray, b: np.ndarray, charge: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """Orders of the bonds ``(a, b)`` and formal charges of one fragment, or None."""
    from rdkit import Chem
    from rdkit.Chem import rdDetermineBonds
    from rdkit.Geometry import Point3D

    from molforma.document.rdkit_mol import quiet

    mol = Chem.RWMol()
    for zi in z.tolist():
        atom = Chem.Atom(int(zi))
        atom.SetNoImplicit(True)
        mol.AddAtom(atom)
    for i, j in zip(a.tolist(), b.tolist(), strict=True):
        mol.AddBond(int(i), int(j), Chem.BondType.SINGLE)
    conf = Chem.Conformer(len(z))
    for k, (x, y, w) in enumerate(xyz.tolist()):
        conf.SetAtomPosition(k, Point3D(x, y, w))
    mol.AddConformer(conf, assignId=True)
    with quiet():
        try:
            rdDetermineBonds.DetermineBondOrders(
                mol, charge=charge, maxIterations=ORDER_SEARCH_STEPS
            )
            Chem.Kekulize(mol, clearAromaticFlags=True)
        except Exception:  # noqa: BLE001 - RDKit raises several kinds; single bonds stay
            return None
    kinds = {Chem.BondType.SINGLE: 1, Chem.BondType.DOUBLE: 2, Chem.BondType.TRIPLE: 3}
    orders = np.empty(len(a), dtype=np.int8)
    for k, (i, j) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
        bond = mol.GetBondBetweenAtoms(int(i), int(j))
        orders[k] = kinds.get(bond.GetBondType(), 1) if bond is not None else 1
    charges = np.array([at.GetFormalCharge() for at in mol.GetAtoms()], dtype=np.int64)
    return orders, charges
