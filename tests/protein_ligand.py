"""A real small protein–ligand structure for the QM-region tests, made with RDKit.

A peptide (charged side chains: LYS, ASP, GLU, HIS, ARG; termini) built from its
sequence with hydrogens and 3D coordinates, and an acetate ligand (residue LIG, charge
-1) placed next to it: written as PDB with residue names, numbers and a chain each.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

SEQUENCE = "GAKDLEHWRSGLKAG"


@cache
def protein_ligand_mol() -> Any:
    """The RDKit molecule: the peptide (chain A) and the ligand LIG 101 (chain B)."""
    from rdkit import Chem
    from rdkit.Chem import AllChem

    pep = Chem.MolFromSequence(SEQUENCE)
    Chem.Kekulize(pep, clearAromaticFlags=True)
    last = max(a.GetPDBResidueInfo().GetResidueNumber() for a in pep.GetAtoms())
    for atom in pep.GetAtoms():
        info = atom.GetPDBResidueInfo()
        key = (info.GetResidueName(), info.GetName().strip())
        number = info.GetResidueNumber()
        # the charged states of a protein in water: NH3+ and COO- termini, LYS and
        # HIS (doubly protonated) +1, ASP and GLU -1; ARG stays as RDKit builds it
        charge = {
            ("LYS", "NZ"): 1,
            ("ASP", "OD2"): -1,
            ("GLU", "OE2"): -1,
        }.get(key, 0)
        if key[0] == "HIS" and key[1] in ("ND1", "NE2") and atom.GetTotalNumHs() == 0:
            charge = 1  # the ring N without H takes one
        if number == 1 and key[1] == "N":
            charge = 1
        if number == last and key[1] == "OXT":
            charge = -1
        if charge:
            atom.SetFormalCharge(charge)
            atom.SetNoImplicit(False)
            atom.SetNumExplicitHs(0)
    Chem.SanitizeMol(pep)
    pep = Chem.AddHs(pep, addResidueInfo=True)
    params = AllChem.ETKDGv3()
    params.randomSeed = 7
    params.useRandomCoords = True
    if AllChem.EmbedMolecule(pep, params) != 0:
        raise RuntimeError("the peptide was not embedded")
    lig = Chem.AddHs(Chem.MolFromSmiles("CC(=O)[O-]"))
    AllChem.EmbedMolecule(lig, randomSeed=7)
    for k, atom in enumerate(lig.GetAtoms(), start=1):
        info = Chem.AtomPDBResidueInfo(
            f" {atom.GetSymbol()}{k:<2}"[:4],
            residueName="LIG",
            residueNumber=101,
            chainId="B",
            isHeteroAtom=True,
        )
        atom.SetMonomerInfo(info)
    p = pep.GetConformer().GetPositions()
    q = lig.GetConformer().GetPositions()
    # next to the side chain of the sixth residue, 3.2 Å from the closest peptide atom
    anchor = p[len(p) // 2]
    direction = anchor - p.mean(axis=0)
    direction /= np.linalg.norm(direction)
    q = q - q.mean(axis=0)
    for step in np.arange(0.0, 30.0, 0.1):
        placed = q + anchor + direction * step
        if np.min(np.linalg.norm(placed[:, None] - p[None], axis=2)) >= 3.2:
            break
    conf = lig.GetConformer()
    for k, xyz in enumerate(placed):
        conf.SetAtomPosition(k, xyz.tolist())
    return Chem.CombineMols(pep, lig)


def protein_ligand_pdb() -> str:
    """The PDB text (peptide chain A, ligand LIG 101 chain B). The peptide's records
    carry no charge columns (as in most deposited files); the ligand's do."""
    from rdkit import Chem

    lines = []
    # CONECT records for every bond (orders as repeated entries), as RDKit writes them
    for line in Chem.MolToPDBBlock(protein_ligand_mol()).splitlines():
        if line.startswith("ATOM"):
            line = line[:78].rstrip()
        lines.append(line)
    return "\n".join(lines) + "\n"


def formal_charges() -> list[int]:
    """The formal charge of each atom in file order (the charges the structure has)."""
    return [a.GetFormalCharge() for a in protein_ligand_mol().GetAtoms()]


if __name__ == "__main__":  # pragma: no cover - look at it by hand
    print(protein_ligand_pdb())
