"""Large structures open with their chemistry: bond orders per fragment, said when missing."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from molforma.app import ops
from molforma.document.document import Document
from molforma.document.molecule import AtomTable, BondTable


def benzene_box(n_mol: int, spacing: float = 7.0) -> str:
    """An XYZ of n_mol benzene molecules on a cubic grid (12 atoms each)."""
    ang = np.arange(6) * np.pi / 3
    ring = np.stack([np.cos(ang), np.sin(ang), np.zeros(6)], 1)
    side = int(np.ceil(n_mol ** (1 / 3)))
    grid = np.indices((side, side, side)).reshape(3, -1).T[:n_mol] * spacing
    rows = []
    for g in grid:
        rows += [("C", p) for p in 1.39 * ring + g] + [("H", p) for p in 2.47 * ring + g]
    return f"{len(rows)}\nbenzene box\n" + "".join(
        f"{e} {x:.6f} {y:.6f} {z:.6f}\n" for e, (x, y, z) in rows
    )


def graphene(cells: int) -> str:
    """One carbon sheet (a single fragment of 2 * cells**2 unsaturated atoms)."""
    a1, a2 = np.array([2.46, 0.0, 0.0]), np.array([1.23, 2.1304, 0.0])
    pts = [
        i * a1 + j * a2 + d
        for i in range(cells)
        for j in range(cells)
        for d in (np.zeros(3), np.array([1.23, 0.7101, 0.0]))
    ]
    return f"{len(pts)}\nsheet\n" + "".join(f"C {x:.5f} {y:.5f} {z:.5f}\n" for x, y, z in pts)


def _open(tmp_path: Path, name: str, text: str) -> tuple[Document, dict]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    doc = Document()
    return doc, ops.open_file(doc, str(path), preview=False)


def test_a_ten_thousand_atom_benzene_box_opens_with_its_aromatic_rings(tmp_path: Path) -> None:
    doc, out = _open(tmp_path, "box.xyz", benzene_box(834))
    atoms = doc.project["document"]["atoms"]
    bonds = doc.project["document"]["bonds"]
    assert isinstance(atoms, AtomTable) and isinstance(bonds, BondTable)
    assert len(atoms) == 10_008 and out["project"]["atomCount"] == 10_008
    # Kekulé form: every ring has three double bonds, every C-H stays single
    assert int((bonds.order == 2).sum()) == 3 * 834
    assert int((bonds.order == 1).sum()) == 9 * 834
    assert "warnings" not in (out.get("info") or {})


def test_a_fragment_too_large_for_orders_is_named_in_the_open_warnings(tmp_path: Path) -> None:
    doc, out = _open(tmp_path, "sheet.xyz", graphene(24))  # 1,152 carbons, one fragment
    (warning,) = out["info"]["warnings"]
    assert warning["code"] == "bond_orders_not_perceived"
    assert warning["details"] == {"count": 1, "atoms": 1152, "kind": "too_large", "limit": 1000}
    assert "1,000" in warning["message"] and "1152" in warning["message"]
    assert set(doc.project["document"]["bonds"].order.tolist()) == {1}


def test_a_fragment_rdkit_cannot_resolve_is_named_and_keeps_single_bonds(tmp_path: Path) -> None:
    text = benzene_box(90)  # 1,080 atoms, then a methyl radical far away
    lines = text.splitlines()
    lines[0] = str(int(lines[0]) + 4)
    lines += ["C 500 500 500", "H 501.09 500 500", "H 499.455 500.944 500", "H 499.455 499.056 500"]
    doc, out = _open(tmp_path, "mixed.xyz", "\n".join(lines) + "\n")
    (warning,) = out["info"]["warnings"]
    assert warning["details"]["kind"] == "unresolved" and warning["details"]["atoms"] == 4
    bonds = doc.project["document"]["bonds"]
    assert int((bonds.order == 2).sum()) == 3 * 90  # the benzenes still have theirs


def test_a_pdb_export_past_99999_atoms_keeps_its_columns_and_reads_back(tmp_path: Path) -> None:
    from molforma.document.envelope import new_project
    from molforma.formats import read_text, write_text

    n = 100_002
    grid = np.indices((47, 47, 47)).reshape(3, -1).T[:n] * 1.5
    p = new_project()
    p["document"]["atoms"] = AtomTable.from_columns(np.arange(1, n + 1), ["Ar"] * n, grid)
    p["document"]["bonds"] = BondTable.empty()
    p["document"]["nextAtomId"] = n + 1
    text = write_text(p, "pdb")
    lines = text.splitlines()
    assert lines[99_998][:11] == "HETATM99999" and lines[99_999][:11] == "HETATMA0000"
    assert {len(line) for line in lines[:-1]} == {len(lines[0])}  # no column shifted
    back = read_text(text, "pdb")
    assert len(back.atoms) == n
    assert np.allclose(
        np.array([[a["x"], a["y"], a["z"]] for a in back.atoms[-3:]]), grid[-3:], atol=1e-3
    )


def _peptide_box(n_atoms: int) -> str:
    """A PDB of copies of one embedded 12-residue peptide (hydrogens with residue names),
    ATOM records only, no CONECT: a protein file as deposited, generated here."""
    from rdkit import Chem
    from rdkit.Chem import AllChem

    mol = Chem.AddHs(Chem.MolFromSequence("MKTAYIAKQRQI"), addResidueInfo=True)
    params = AllChem.ETKDGv3()
    params.randomSeed = 7
    params.useRandomCoords = True
    assert AllChem.EmbedMolecule(mol, params) == 0
    block = [
        line
        for line in Chem.MolToPDBBlock(mol, flavor=2).splitlines()
        if line.startswith(("ATOM", "HETATM"))
    ]
    xyz = np.array([[float(x[30:38]), float(x[38:46]), float(x[46:54])] for x in block])
    span = xyz.max(0) - xyz.min(0) + 4.0
    copies = max(1, n_atoms // len(block))
    out, serial = [], 0
    for c in range(copies):
        shift = np.array([c % 3, (c // 3) % 3, c // 9]) * span - xyz.min(0)
        for line, p in zip(block, xyz + shift, strict=True):
            serial += 1
            out.append(
                f"{line[:6]}{serial:>5}{line[11:21]}{'ABCDEFGHIJ'[c % 10]}{line[22:30]}"
                f"{p[0]:8.3f}{p[1]:8.3f}{p[2]:8.3f}{line[54:]}"
            )
        out.append("TER")
    return "\n".join([*out, "END"]) + "\n"


def test_a_protein_pdb_over_a_thousand_atoms_gets_its_bond_orders(tmp_path: Path) -> None:
    text = _peptide_box(1_400)
    doc, out = _open(tmp_path, "peptides.pdb", text)
    atoms = doc.project["document"]["atoms"]
    bonds = doc.project["document"]["bonds"]
    copies = len(atoms) // (len(atoms) // max(1, text.count("TER")))
    assert len(atoms) > 1_000 and copies >= 2
    # per chain: 12 backbone C=O, the tyrosine ring's three, arginine's C=N and the C=O
    # of its two glutamines
    doubles = int((bonds.order == 2).sum())
    assert doubles == copies * (12 + 3 + 1 + 2)
    assert "warnings" not in (out.get("info") or {})


def test_a_large_mol_file_opens_into_columns_with_its_charges_and_bonds(tmp_path: Path) -> None:
    from molforma.formats import read_text, write_text

    text = benzene_box(100)  # 1,200 atoms
    doc, _ = _open(tmp_path, "box.xyz", text)
    ops.set_atom_properties(
        doc, [{"id": "a7", "formalCharge": 1}, {"id": "a8", "unpairedElectrons": 1}], preview=False
    )
    mol = write_text(doc.project, "mol")
    s = read_text(mol, "mol")
    assert isinstance(s.atoms, AtomTable) and isinstance(s.bonds, BondTable)
    again, _ = _open(tmp_path, "box.mol", mol)
    a, b = doc.project["document"]["atoms"], again.project["document"]["atoms"]
    assert a.symbols.tolist() == b.symbols.tolist()
    assert np.allclose(a.xyz, b.xyz, atol=1e-4)
    assert b[6]["formalCharge"] == 1 and b[7]["unpairedElectrons"] == 1
    bonds_a = doc.project["document"]["bonds"]
    bonds_b = again.project["document"]["bonds"]
    first = int(again.project["document"]["atoms"].ids[0])
    assert sorted(zip(bonds_a.order.tolist(), (bonds_a.a - 1).tolist(), strict=True)) == sorted(
        zip(bonds_b.order.tolist(), (bonds_b.a - first).tolist(), strict=True)
    )
