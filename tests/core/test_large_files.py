"""Large structure files read in one pass agree with RDKit, and bad input is still refused.

The XYZ reader and the plain MOL reader (:mod:`molforma.formats.mdl_fast`) build
document atoms directly; these tests compare what they give with RDKit reading the
same text (elements, coordinates, bonds, charges, isotopes, radicals) on the
fixtures and on a generated 10,000-atom system, and check that loading still
refuses what the document rules refuse.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from rdkit import Chem
from rdkit.Chem import rdDetermineBonds

from molforma.app import ops
from molforma.document.document import Document
from molforma.document.envelope import new_atom, new_project
from molforma.errors import MolFormaError, ValidationError
from molforma.formats import mdl, read_text, write_text
from tests.paths import DATA

N = 10_000


def _water_box(n: int = N, seed: int = 3) -> str:
    rng = np.random.default_rng(seed)
    side = int(np.ceil((n // 3) ** (1 / 3)))
    grid = (
        np.array(
            [(i, j, k) for i in range(side) for j in range(side) for k in range(side)][: n // 3],
            float,
        )
        * 3.1
    )
    grid += rng.uniform(-0.2, 0.2, grid.shape)
    h1, h2, up = np.array([0.9572, 0, 0]), np.array([-0.24, 0.927, 0]), np.array([0, 0, 3.1])
    rows = []
    for p in grid:
        rows += [("O", p), ("H", p + h1), ("H", p + h2)]
    while len(rows) < n:
        rows.append(("Na", grid[-1] + up * (n - len(rows))))
    return f"{n}\nbox\n" + "".join(f"{e} {x:.6f} {y:.6f} {z:.6f}\n" for e, (x, y, z) in rows)


def _bond_set(bonds: list[dict], atoms: list[dict]) -> set[tuple[int, int, int]]:
    index = {a["id"]: i for i, a in enumerate(atoms)}
    return {
        (min(index[b["a"]], index[b["b"]]), max(index[b["a"]], index[b["b"]]), b["order"])
        for b in bonds
    }


def _rdkit_bonds(mol: Chem.Mol) -> set[tuple[int, int, int]]:
    orders = {Chem.BondType.SINGLE: 1, Chem.BondType.DOUBLE: 2, Chem.BondType.TRIPLE: 3}
    out = set()
    for k in range(mol.GetNumBonds()):
        b = mol.GetBondWithIdx(k)
        i, j = sorted((b.GetBeginAtomIdx(), b.GetEndAtomIdx()))
        out.add((i, j, orders[b.GetBondType()]))
    return out


def test_a_10000_atom_xyz_gives_rdkits_elements_coordinates_and_bonds() -> None:
    text = _water_box()
    s = read_text(text, "xyz")
    mol = Chem.MolFromXYZBlock(text)
    rdDetermineBonds.DetermineConnectivity(mol)
    assert [a["element"] for a in s.atoms] == [at.GetSymbol() for at in mol.GetAtoms()]
    ours = np.array([(a["x"], a["y"], a["z"]) for a in s.atoms])
    assert np.array_equal(ours, mol.GetConformer().GetPositions())
    assert _bond_set(s.bonds, s.atoms) == _rdkit_bonds(mol)
    assert s.info["checked"] == "all"


def _as_rdkit_would_read(text: str, monkeypatch: pytest.MonkeyPatch) -> object:
    with monkeypatch.context() as m:
        m.setattr(mdl, "_read_plain", lambda lines, fmt, first_id=1: None)
        return read_text(text, "mol")


def _mol_fixtures() -> dict[str, str]:
    proj = new_project()
    atoms = [
        new_atom("a1", "C", 0.0, 0.0, 0.0, formalCharge=-1),
        new_atom("a2", "O", 1.2, 0.0, 0.0, massNumber=18),
        new_atom("a3", "C", -1.5, 0.1, 0.3, unpairedElectrons=1),
        new_atom("a4", "N", 3.0, 1.0, 1.0, unpairedElectrons=2, formalCharge=1),
        new_atom("a5", "H", -2.0, 1.0, 0.0),
    ]
    bonds = [
        {"a": "a1", "b": "a2", "order": 2},
        {"a": "a1", "b": "a3", "order": 1},
        {"a": "a2", "b": "a4", "order": 3},
        {"a": "a3", "b": "a5", "order": 1},
    ]
    proj["document"].update(title="mixed", atoms=atoms, bonds=bonds, nextAtomId=6)
    renamed = new_project()
    renamed["document"].update(
        title="ids",
        atoms=[dict(a, id=f"a{10 + k}") for k, a in enumerate(atoms)],
        bonds=[
            {"a": f"a{9 + int(b['a'][1:])}", "b": f"a{9 + int(b['b'][1:])}", "order": b["order"]}
            for b in bonds
        ],
        nextAtomId=20,
    )
    box = new_project()
    s = read_text(_water_box(), "xyz")
    box["document"].update(atoms=s.atoms, bonds=s.bonds, nextAtomId=N + 1)
    return {
        "methyl radical": (DATA / "formats" / "methyl_radical.mol").read_text(),
        "charges, isotope, radicals (V2000)": write_text(proj, "mol"),
        "ids in M  MFI": write_text(renamed, "mol"),
        "10,000 atoms (V3000)": write_text(box, "mol"),
    }


MOLS = _mol_fixtures()


@pytest.mark.parametrize("name", list(MOLS))
def test_a_plain_mol_is_read_without_rdkit_as_rdkit_reads_it(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = MOLS[name]
    assert mdl._read_plain(text.splitlines(), "mol") is not None  # the one-pass reader ran
    ours = read_text(text, "mol")
    ref = _as_rdkit_would_read(text, monkeypatch)
    keys = ("id", "element", "x", "y", "z", "formalCharge", "unpairedElectrons", "massNumber")
    assert [{k: a[k] for k in keys} for a in ours.atoms] == [
        {k: a[k] for k in keys} for a in ref.atoms
    ]
    assert _bond_set(ours.bonds, ours.atoms) == _bond_set(ref.bonds, ref.atoms)
    assert (ours.title, ours.charge, ours.multiplicity) == (ref.title, ref.charge, ref.multiplicity)


def test_an_aromatic_or_query_mol_goes_through_rdkit(monkeypatch: pytest.MonkeyPatch) -> None:
    text = MOLS["charges, isotope, radicals (V2000)"].replace("  1  3  1  0", "  1  3  4  0")
    assert mdl._read_plain(text.splitlines(), "mol") is None
    read_text(text, "mol")  # still read, by the RDKit path


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda t: t.replace("M  END", "M  CHG  1   1  50\nM  END"), "formal_charge_range"),
        (lambda t: t.replace("M  END", "M  ISO  1   1 999\nM  END"), "unknown_isotope"),
    ],
)
def test_a_plain_mol_with_a_value_the_document_refuses_is_refused_on_open(
    change: object, code: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.mol"
    path.write_text(change(MOLS["methyl radical"]))  # type: ignore[operator]
    doc = Document()
    with pytest.raises(ValidationError) as err:
        ops.open_file(doc, str(path), preview=False)
    assert err.value.code == code
    assert doc.project["document"]["atoms"] == []


def test_a_10000_atom_xyz_with_two_atoms_on_one_place_is_refused(tmp_path: Path) -> None:
    lines = _water_box().splitlines()
    lines[-1] = lines[-2].replace("H", "Na", 1)  # the last atom onto the one before it
    path = tmp_path / "dup.xyz"
    path.write_text("\n".join(lines) + "\n")
    doc = Document()
    with pytest.raises(ValidationError) as err:
        ops.open_file(doc, str(path), preview=False)
    assert err.value.code == "atoms_too_close"
    assert doc.project["document"]["atoms"] == []


def test_a_10000_atom_xyz_with_a_nan_coordinate_is_refused_naming_its_line() -> None:
    lines = _water_box().splitlines()
    lines[5000] = lines[5000].rsplit(" ", 1)[0] + " nan"
    with pytest.raises(MolFormaError) as err:
        read_text("\n".join(lines) + "\n", "xyz")
    assert err.value.data["line"] == 5001


def test_a_large_xyz_opens_as_one_undo_step_with_every_atom() -> None:
    doc = Document()
    ops.import_document(doc, _water_box(), "xyz", preview=False)
    ops.import_document(doc, _water_box(seed=4), "xyz", preview=False)
    assert len(doc.project["document"]["atoms"]) == N
    assert doc.project["document"]["atoms"][0]["id"] == f"a{N + 1}"
    doc.undo()
    assert doc.project["document"]["atoms"][0]["id"] == "a1"
    assert len(doc.project["document"]["bonds"]) == 2 * (N // 3)
