"""The bundled table of common molecules by name (resources/molecules.json): every entry
builds, names never shadow SMILES, and the name route gives the same molecule as its
SMILES."""

from __future__ import annotations

import pytest
from rdkit import Chem

from molforma import catalog
from molforma.app.smiles import check_smiles, resolve_smiles, smiles_to_structure
from molforma.document.envelope import formula
from molforma.errors import MolFormaError
from molforma.formats.rdkit_bridge import quiet

ENTRIES = catalog.molecules()


def test_the_table_covers_common_solvents_ligands_and_reagents_in_both_languages() -> None:
    names = {e["name"] for e in ENTRIES}
    assert {
        "water",
        "methanol",
        "ethanol",
        "acetone",
        "acetonitrile",
        "dimethyl sulfoxide",
        "N,N-dimethylformamide",
        "tetrahydrofuran",
        "dichloromethane",
        "chloroform",
        "benzene",
        "toluene",
        "pyridine",
        "acetic acid",
        "formaldehyde",
        "ammonia",
        "glycine",
        "alanine",
        "imidazole",
        "phenol",
        "aniline",
    } <= names
    for e in ENTRIES:
        assert e["label"]["en"] and e["label"]["ja"], e["name"]
    for ja, name in (
        ("水", "water"),
        ("ベンゼン", "benzene"),
        ("酢酸", "acetic acid"),
        ("ジクロロメタン", "dichloromethane"),
        ("グリシン", "glycine"),
    ):
        found = catalog.find_molecule(ja)
        assert found is not None and found["name"] == name


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["name"] for e in ENTRIES])
def test_every_entry_is_valid_smiles_and_no_name_reads_as_smiles(entry: dict) -> None:
    with quiet():
        assert Chem.MolFromSmiles(entry["smiles"]) is not None
        for name in (entry["name"], *entry["aliases"]):
            for spelling in {name, name.lower(), name.upper()}:
                # A name that RDKit read as SMILES would never reach the table.
                assert Chem.MolFromSmiles(spelling) is None, spelling
    assert resolve_smiles(entry["name"]) == (entry["smiles"], entry["name"])


def test_names_are_found_case_and_space_insensitively_and_smiles_stay_smiles() -> None:
    assert resolve_smiles("  Dimethyl   Sulfoxide ") == ("CS(C)=O", "dimethyl sulfoxide")
    assert resolve_smiles("dmso") == ("CS(C)=O", "dimethyl sulfoxide")
    assert resolve_smiles("THF") == ("C1CCOC1", "tetrahydrofuran")
    assert resolve_smiles("CCO") == ("CCO", None)
    assert check_smiles("CCO") is None
    assert check_smiles("water") == "water"
    with pytest.raises(MolFormaError) as err:
        check_smiles("not-a-molecule")
    assert err.value.code == "smiles_invalid"


def test_a_name_builds_the_molecule_of_its_smiles() -> None:
    atoms, _bonds = smiles_to_structure("DMSO")
    assert formula(atoms) == "C2H6OS"
    atoms, _bonds = smiles_to_structure("水")
    assert formula(atoms) == "H2O"
