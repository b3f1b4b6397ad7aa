"""The valence checks of the column tables give the record functions' answers.

Structures with every case the first pass must hand on to RDKit (charges, radicals, a
bond to a metal, hypervalent S and P, a five-bonded carbon, an H-less ring) and the
protein–ligand PDB are checked both ways: the column functions and the record
functions (building.valence_problem_ids, valence.missing_hydrogens, validate) agree.
"""

from __future__ import annotations

from typing import Any

import pytest
from rdkit import Chem
from rdkit.Chem import AllChem

from molforma.app import ops
from molforma.document import building, valence, valence_columns
from molforma.document.document import Document
from molforma.document.molecule import AtomTable, BondTable, as_table_project
from molforma.document.validation import validate
from tests.protein_ligand import protein_ligand_pdb

SMILES = [
    "CS(=O)(=O)C",  # hypervalent S
    "OP(=O)(O)O",  # hypervalent P
    "C[N+](C)(C)C.[O-]C(=O)C",  # charges
    "[CH2]C",  # a radical
    "c1ccccc1",  # with H
]


def _records(smiles: str, with_h: bool = True) -> dict[str, Any]:
    mol = Chem.MolFromSmiles(smiles)
    if with_h:
        mol = Chem.AddHs(mol)
    AllChem.EmbedMolecule(mol, randomSeed=7)
    pos = mol.GetConformer().GetPositions()
    atoms = [
        {
            "id": f"a{k + 1}",
            "element": a.GetSymbol(),
            "x": float(pos[k][0]),
            "y": float(pos[k][1]),
            "z": float(pos[k][2]),
            "formalCharge": a.GetFormalCharge(),
            "unpairedElectrons": a.GetNumRadicalElectrons(),
        }
        for k, a in enumerate(mol.GetAtoms())
    ]
    kinds = {1.0: 1, 1.5: 1, 2.0: 2, 3.0: 3}
    Chem.Kekulize(mol, clearAromaticFlags=True)
    bonds = [
        {
            "a": f"a{b.GetBeginAtomIdx() + 1}",
            "b": f"a{b.GetEndAtomIdx() + 1}",
            "order": kinds[b.GetBondTypeAsDouble()],
        }
        for b in mol.GetBonds()
    ]
    return {"document": {"atoms": atoms, "bonds": bonds, "charge": 0, "multiplicity": 1}}


def _cases() -> list[tuple[str, dict[str, Any]]]:
    out = [(s, _records(s)) for s in SMILES]
    out.append(("bare ring", _records("c1ccncc1", with_h=False)))
    five = _records("CC")  # ethane, then a fifth bond on the first carbon
    five["document"]["bonds"].append({"a": "a1", "b": "a8", "order": 1})
    out.append(("five-bonded C", five))
    metal = _records("CC")
    metal["document"]["atoms"].append(
        {"id": "a9", "element": "Pt", "x": 3.0, "y": 0.0, "z": 0.0, "formalCharge": 0}
    )
    metal["document"]["bonds"] = [
        b for b in metal["document"]["bonds"] if "a8" not in (b["a"], b["b"])
    ] + [{"a": "a2", "b": "a9", "order": 1}]
    metal["document"]["atoms"] = [a for a in metal["document"]["atoms"] if a["id"] != "a8"]
    out.append(("C bonded to Pt", metal))
    return out


@pytest.mark.parametrize("name,records", _cases(), ids=[c[0] for c in _cases()])
def test_columns_answer_as_the_records(name: str, records: dict[str, Any]) -> None:
    tables = as_table_project({**records, "document": dict(records["document"])})
    atoms, bonds = tables["document"]["atoms"], tables["document"]["bonds"]
    assert isinstance(atoms, AtomTable) and isinstance(bonds, BondTable)
    assert valence_columns.missing_hydrogens(atoms, bonds) == valence.missing_hydrogens(records)
    assert valence_columns.valence_problem_ids(atoms, bonds) == building.valence_problem_ids(
        records
    )
    assert validate(tables) == validate(records)


def test_the_five_bonded_carbon_and_the_bare_ring_are_seen() -> None:
    cases = dict(_cases())
    five = as_table_project(cases["five-bonded C"])
    d = five["document"]
    # the carbon with five bonds and the hydrogen with two
    assert valence_columns.valence_problem_ids(d["atoms"], d["bonds"]) == ["a1", "a8"]
    bare = as_table_project(cases["bare ring"])
    d = bare["document"]
    assert sum(valence_columns.missing_hydrogens(d["atoms"], d["bonds"]).values()) == 5


def test_the_checks_of_a_protein_build_no_record_per_atom(monkeypatch: Any) -> None:
    doc = Document()
    ops.import_document(doc, protein_ligand_pdb(), "pdb", preview=False)
    project = doc.project
    built = [0]
    original = AtomTable.to_records

    def counting(self: AtomTable, start: int = 0, stop: int | None = None) -> Any:
        out = original(self, start, stop)
        built[0] += len(out)
        return out

    monkeypatch.setattr(AtomTable, "to_records", counting)
    checks = validate(project)
    n = len(project["document"]["atoms"])
    # only the charged atoms and their neighbours become records, for each of the two
    # RDKit checks (27 of 236 atoms each here)
    assert built[0] < n // 4
    monkeypatch.undo()
    records = {**project, "document": {**project["document"]}}
    records["document"]["atoms"] = project["document"]["atoms"].to_records()
    records["document"]["bonds"] = list(project["document"]["bonds"])
    assert checks == validate(records)
