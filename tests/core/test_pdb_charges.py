"""Formal charges a PDB file leaves blank come from the valence its bonds give.

The protein–ligand structure of tests/protein_ligand.py is written by RDKit with no charge
columns on the peptide's ATOM records, as deposited files are: its N-terminus, lysines and
doubly protonated histidine carry four bonds on a nitrogen and its carboxylates an oxygen
with one bond. Opened, every atom has the charge RDKit's own molecule gives it, no atom
has an impossible valence (the window rings none red), and the total charge adds up.
"""

from __future__ import annotations

from rdkit import Chem

from molforma.app import ops
from molforma.document import building
from molforma.document.document import Document
from molforma.formats.pdb import read_pdb
from molforma.formats.pdb_charges import charges_from_valence
from tests.protein_ligand import formal_charges, protein_ligand_mol, protein_ligand_pdb


def test_blank_charges_of_a_protonated_protein_come_from_the_bonds() -> None:
    doc = Document()
    ops.import_document(doc, protein_ligand_pdb(), "pdb", preview=False)
    atoms = doc.project["document"]["atoms"]
    assert atoms.charge.tolist() == formal_charges()
    assert sum(formal_charges()) == 0 and any(formal_charges())
    assert doc.project["document"]["charge"] == 0
    assert building.valence_problem_ids(doc.project) == []
    names = {str(atoms.names[k]) for k in range(len(atoms)) if atoms.charge[k] > 0}
    assert {"N", "NZ", "ND1"} <= names  # N-terminus, lysines, the histidine


def test_a_file_without_hydrogens_gets_no_guessed_charge() -> None:
    """No hydrogens: an O with one bond is not taken for a carboxylate's O⁻."""
    bare = Chem.RemoveHs(protein_ligand_mol())
    lines = [
        line[:78] if line.startswith(("ATOM", "HETATM")) else line
        for line in Chem.MolToPDBBlock(bare).splitlines()
    ]
    s = read_pdb("\n".join(lines) + "\n")
    assert all(not a.get("formalCharge") for a in s.atoms)


def test_only_blank_charges_change_and_single_bonds_give_no_negative_charge() -> None:
    atoms = [
        {"id": "a1", "element": "N", "formalCharge": 0},
        {"id": "a2", "element": "C", "formalCharge": 0},
        {"id": "a3", "element": "O", "formalCharge": 0},
        {"id": "a4", "element": "O", "formalCharge": 0},
        {"id": "a5", "element": "H", "formalCharge": 0},
    ]
    # every bond single: the carboxylate-like O keeps 0 (orders unknown), N has 2 bonds
    bonds = [
        {"a": "a1", "b": "a2", "order": 1},
        {"a": "a2", "b": "a3", "order": 1},
        {"a": "a2", "b": "a4", "order": 1},
        {"a": "a1", "b": "a5", "order": 1},
    ]
    assert charges_from_valence(atoms, bonds) == 0
    # with C=O known the other O is O-; a charge the file gave is kept
    bonds[1]["order"] = 2
    atoms[0]["formalCharge"] = -1
    assert charges_from_valence(atoms, bonds) == 1
    assert [a["formalCharge"] for a in atoms] == [-1, 0, 0, -1, 0]
