"""Saturated structures get their bonds without RDKit, exactly as RDKit would give them.

``connectivity.saturated_bonds`` answers for neutral structures whose atoms all have
their one neutral valence in neighbours; every answer here is compared with RDKit's own
path of ``rdkit_bridge.perceive_bonds`` (connectivity, then bond orders and charges) on
conformers RDKit embeds, and every structure it declines goes to RDKit.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from rdkit import Chem
from rdkit.Chem import AllChem

from molforma.document.envelope import new_atom
from molforma.formats import rdkit_bridge, read_text
from molforma.formats.connectivity import saturated_bonds

SATURATED = {
    "water": "O",
    "methane": "C",
    "ethane": "CC",
    "neopentane": "CC(C)(C)C",
    "cyclohexane": "C1CCCCC1",
    "adamantane": "C1C2CC3CC1CC(C2)C3",
    "ethanol": "CCO",
    "glycerol": "OCC(O)CO",
    "dimethyl ether": "COC",
    "1,4-dioxane": "C1COCCO1",
    "ammonia": "N",
    "trimethylamine": "CN(C)C",
    "morpholine": "C1COCCN1",
    "hydrazine": "NN",
    "hydroxylamine": "NO",
    "hydrogen peroxide": "OO",
    "hydrogen fluoride": "F",
    "chloroform": "ClC(Cl)Cl",
    "dibromomethane": "BrCBr",
    "iodomethane": "CI",
    "tetrafluoromethane": "FC(F)(F)F",
    "water and ammonia": "O.N",
    "methanol and argon": "CO.[Ar]",
    "neon": "[Ne]",
    "krypton and xenon near ethane": "CC.[Kr].[Xe]",
}

DECLINED = {
    "ethene": "C=C",
    "benzene": "c1ccccc1",
    "acetone": "CC(C)=O",
    "acetonitrile": "CC#N",
    "carbon dioxide": "O=C=O",
    "formic acid": "OC=O",
    "dimethyl sulfide": "CSC",
    "dimethyl sulfoxide": "CS(C)=O",
    "phosphine": "P",
    "borane complex": "B",
    "methyl radical": "[CH3]",
    "silane": "[SiH4]",
    "sodium chloride": "[Na+].[Cl-]",
}

CHARGED = {"ammonium": ("[NH4+]", 1), "hydroxide": ("[OH-]", -1)}


def _atoms(smiles: str, seed: int) -> list[dict[str, Any]]:
    """Fresh document atoms (coordinates only) of an RDKit conformer of ``smiles``."""
    mol = Chem.AddHs(Chem.MolFromSmiles(smiles))
    if mol.GetNumAtoms() > 1:
        assert AllChem.EmbedMolecule(mol, randomSeed=seed) == 0
        pos = mol.GetConformer().GetPositions()
    else:
        pos = [(0.0, 0.0, 0.0)]
    # separate fragments so that their atoms do not bond across
    frag_of = {i: k for k, frag in enumerate(Chem.GetMolFrags(mol)) for i in frag}
    return [
        new_atom(
            f"a{i + 1}",
            a.GetSymbol(),
            float(pos[i][0]) + 6.0 * frag_of[i],
            float(pos[i][1]),
            float(pos[i][2]),
        )
        for i, a in enumerate(mol.GetAtoms())
    ]


def _rdkit_answer(
    atoms: list[dict[str, Any]],
    charge: int,
) -> tuple[list[dict[str, Any]], list[int]]:
    """Bonds and formal charges from RDKit's own path of perceive_bonds."""
    copies = [dict(a) for a in atoms]
    bonds = rdkit_bridge.rdkit_bonds(copies, charge)
    return bonds, [a["formalCharge"] for a in copies]


@pytest.mark.parametrize("name", list(SATURATED))
@pytest.mark.parametrize("seed", [1, 7])
def test_a_saturated_structure_gets_rdkits_bonds_and_charges_without_rdkit(
    name: str, seed: int
) -> None:
    atoms = _atoms(SATURATED[name], seed)
    want_bonds, want_charges = _rdkit_answer(atoms, 0)
    for a in atoms:
        a["formalCharge"] = 3  # so that the answer visibly sets them, as RDKit does
    seen: dict[str, float] = {}
    got = saturated_bonds(atoms, None, seen=seen)
    assert got == want_bonds  # the same pairs, in the same order, all single
    assert all(b["order"] == 1 for b in got)
    assert [a["formalCharge"] for a in atoms] == want_charges == [0] * len(atoms)
    if len(atoms) > 1:  # the sweep's shortest distance, for the reader's checks
        assert seen["closest"] > 0.9


@pytest.mark.parametrize("name", list(DECLINED))
def test_a_structure_that_needs_orders_or_another_valence_is_left_to_rdkit(name: str) -> None:
    atoms = _atoms(DECLINED[name], 3)
    before = [dict(a) for a in atoms]
    seen: dict[str, float] = {}
    assert saturated_bonds(atoms, 0, seen=seen) is None
    assert atoms == before and seen == {}


@pytest.mark.parametrize("name", list(CHARGED))
def test_a_charged_structure_is_left_to_rdkit(name: str) -> None:
    smiles, charge = CHARGED[name]
    atoms = _atoms(smiles, 3)
    assert saturated_bonds(atoms, charge) is None
    # and a neutral structure said to be charged is not taken as neutral either
    assert saturated_bonds(_atoms("C", 3), 1) is None


def test_an_atom_with_a_neighbour_too_many_or_too_few_is_left_to_rdkit() -> None:
    # a carbon squeezed next to a methane's hydrogen: 5 neighbours for one carbon, and
    # stretched ethane: each carbon has 3 neighbours
    crowded = [*_atoms("C", 1), new_atom("a6", "C", 0.0, 0.0, 1.75)]
    assert saturated_bonds(crowded, 0) is None
    ethane = _atoms("CC", 1)
    carbons = [a for a in ethane if a["element"] == "C"]
    for a in ethane:
        if a is carbons[1] or (a["element"] == "H" and _near(a, carbons[1])):
            a["x"] += 2.0
    assert saturated_bonds(ethane, 0) is None


def _near(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return sum((a[k] - b[k]) ** 2 for k in "xyz") < 1.3**2


def test_a_water_box_is_read_with_rdkits_bonds_without_loading_rdkit() -> None:
    lines = []
    for k in range(33):
        x = 3.1 * (k % 4)
        y = 3.1 * (k // 4 % 4)
        z = 3.1 * (k // 16)
        lines += [
            f"O {x:.4f} {y:.4f} {z:.4f}",
            f"H {x + 0.9572:.4f} {y:.4f} {z:.4f}",
            f"H {x - 0.24:.4f} {y + 0.927:.4f} {z:.4f}",
        ]
    text = f"{len(lines) + 1}\nwater box\n" + "\n".join(lines) + "\nHe 20 20 20\n"
    code = (
        "import sys\nfrom molforma.formats import read_text\n"
        f"s = read_text({text!r}, 'xyz')\n"
        "print(len(s.bonds), s.info.get('checked'), 'rdkit' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["66", "all", "False"]
    s = read_text(text, "xyz")
    mol = Chem.MolFromXYZBlock(text)
    from rdkit.Chem import rdDetermineBonds

    rdDetermineBonds.DetermineConnectivity(mol, useHueckel=False)
    pairs = [(b.GetBeginAtomIdx() + 1, b.GetEndAtomIdx() + 1) for b in mol.GetBonds()]
    assert [(int(b["a"][1:]), int(b["b"][1:])) for b in s.bonds] == pairs
