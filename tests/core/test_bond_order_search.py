"""A structure whose bond orders RDKit cannot find (charge not given) opens with single bonds
and says so, instead of searching for hours."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.protein_ligand import protein_ligand_pdb

_READ = """
import json, sys
from molforma.formats.registry import read_file
s = read_file(sys.argv[1])
print(json.dumps({"warnings": s.info.get("warnings", []), "orders": sorted({b["order"] for b in s.bonds}),
                  "atoms": len(s.atoms)}))
"""


def _read_in_child(path: Path) -> dict:
    # A child process, so a search that never ends fails this test instead of hanging it.
    out = subprocess.run(
        [sys.executable, "-c", _READ, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result: dict = json.loads(out.stdout)
    return result


def test_a_bare_peptide_pdb_opens_with_single_bonds_and_a_warning(tmp_path: Path) -> None:
    # The peptide's charged groups without a charge column: read as neutral, RDKit's order
    # search has no solution and tried every combination (more than five minutes).
    bare = (
        "\n".join(
            line for line in protein_ligand_pdb().splitlines() if not line.startswith("CONECT")
        )
        + "\n"
    )
    path = tmp_path / "peptide.pdb"
    path.write_text(bare)
    got = _read_in_child(path)
    assert got["atoms"] > 200
    codes = [w["code"] for w in got["warnings"]]
    assert "bond_orders_not_perceived" in codes
    warning = got["warnings"][codes.index("bond_orders_not_perceived")]
    assert warning["details"]["kind"] == "unresolved"


def test_a_molecule_of_known_charge_still_gets_its_orders(tmp_path: Path) -> None:
    from rdkit import Chem
    from rdkit.Chem import AllChem

    mol = Chem.AddHs(Chem.MolFromSmiles("CC(=O)Oc1ccccc1C(=O)O"))  # aspirin
    AllChem.EmbedMolecule(mol, randomSeed=7)
    path = tmp_path / "aspirin.xyz"
    path.write_text(Chem.MolToXYZBlock(mol))
    got = _read_in_child(path)
    assert got["orders"] == [1, 2]
    assert got["warnings"] == []
