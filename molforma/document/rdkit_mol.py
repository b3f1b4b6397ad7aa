"""A project's atoms and bonds as an RDKit molecule, and RDKit's log silenced (no Qt).

The document layer's own RDKit needs (the force-field clean-up) are met here, so it does
not reach up into :mod:`molforma.formats`; :mod:`molforma.formats.rdkit_bridge` builds
on these and keeps the way back from RDKit (kekulization, bond perception).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rdkit import Chem, rdBase
from rdkit.Geometry import Point3D

from molforma.document import elements

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
    # RDKit's XYZ reader makes the atoms and the conformer in C++; per-atom Python calls
    # are left for what an XYZ line cannot say (no implicit Hs, charges, isotopes, radicals).
    n = len(atoms)
    block = "".join(
        f"{a['element']} {float(a['x'])!r} {float(a['y'])!r} {float(a['z'])!r}\n" for a in atoms
    )
    with quiet():
        base = Chem.MolFromXYZBlock(f"{n}\n\n{block}") if n else None
    rw = Chem.RWMol(base) if base is not None else _atoms_one_by_one(atoms)
    index: dict[str, int] = {}
    for i, a in enumerate(atoms):
        atom = rw.GetAtomWithIdx(i)
        atom.SetNoImplicit(True)
        if a.get("formalCharge"):
            atom.SetFormalCharge(int(a["formalCharge"]))
        if a.get("massNumber"):
            atom.SetIsotope(int(a["massNumber"]))
        if a.get("unpairedElectrons"):
            atom.SetNumRadicalElectrons(int(a["unpairedElectrons"]))
        index[str(a["id"])] = i
    for b in bonds:
        rw.AddBond(
            index[b["a"]], index[b["b"]], _TYPE_OF.get(int(b.get("order", 1)), Chem.BondType.SINGLE)
        )
    mol = rw.GetMol()
    mol.UpdatePropertyCache(strict=False)
    return mol


def _atoms_one_by_one(atoms: Sequence[Mapping[str, Any]]) -> Chem.RWMol:
    """Atoms and conformer made atom by atom, for what RDKit's XYZ reader refuses."""
    rw = Chem.RWMol()
    conf = Chem.Conformer(len(atoms))
    for i, a in enumerate(atoms):
        rw.AddAtom(Chem.Atom(elements.atomic_number(str(a["element"]))))
        conf.SetAtomPosition(i, Point3D(float(a["x"]), float(a["y"]), float(a["z"])))
    rw.AddConformer(conf, assignId=True)
    return rw
