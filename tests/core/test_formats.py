"""Reading and writing structure and project files (docs/reference/files.md)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rdkit import Chem
from rdkit.Chem import AllChem

from molforma.document.document import Document
from molforma.document.envelope import check_structure, new_atom, new_project
from molforma.errors import FormatError
from molforma.formats import (
    READABLE,
    WRITABLE,
    Structure,
    apply_structure,
    format_from_path,
    read_file,
    read_text,
    write_file,
    write_text,
)
from molforma.formats import pdb as pdb_format
from tests.paths import NWCHEM_DATA

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
NWCHEM = NWCHEM_DATA

# What a write -> read round trip keeps, per writable format.
KEEPS: dict[str, set[str]] = {
    "project": {"bonds", "orders", "charges", "isotopes", "names", "ids", "fixed", "title"},
    "xyz": {"connectivity", "title"},
    "mol": {"bonds", "orders", "charges", "isotopes", "ids", "title"},
    "sdf": {"bonds", "orders", "charges", "isotopes", "names", "ids", "title"},
    "pdb": {"bonds", "orders", "charges", "names", "ids", "title"},
    "cml": {"bonds", "orders", "charges", "isotopes", "names", "ids", "title"},
    "nwchem": {"bonds", "orders", "isotopes", "fixed", "title"},
}
TOLERANCE = {"pdb": 1e-3}  # PDB has three decimals; every other format keeps 1e-4


def acetate_project() -> dict[str, Any]:
    """Acetate (charge -1) with ids that are not a1..aN, a 13C, names and a fixed atom."""
    mol = Chem.AddHs(Chem.MolFromSmiles("CC(=O)[O-]"))
    AllChem.EmbedMolecule(mol, randomSeed=7)
    conf = mol.GetConformer()
    proj = new_project()
    ids = {}
    atoms = []
    for i, at in enumerate(mol.GetAtoms()):
        aid = f"a{3 * i + 2}"
        ids[i] = aid
        pos = conf.GetAtomPosition(i)
        props: dict[str, Any] = {"formalCharge": at.GetFormalCharge()}
        if i == 0:
            props.update(massNumber=13, name="CM")
        if i == 1:
            props["name"] = "C1"
        if i == 4:
            props["fixed"] = True
        atoms.append(new_atom(aid, at.GetSymbol(), pos.x, pos.y, pos.z, **props))
    bonds = [
        {
            "a": ids[b.GetBeginAtomIdx()],
            "b": ids[b.GetEndAtomIdx()],
            "order": int(b.GetBondTypeAsDouble()),
        }
        for b in mol.GetBonds()
    ]
    proj["document"].update(
        title="acetate anion",
        charge=-1,
        multiplicity=1,
        atoms=atoms,
        bonds=bonds,
        nextAtomId=3 * len(atoms) + 2,
    )
    check_structure(proj)
    return proj


def pairs(bonds: list[dict[str, Any]], atoms: list[dict[str, Any]]) -> dict[frozenset, int]:
    """Bonds as {frozenset of atom indices: order}, independent of ids."""
    index = {a["id"]: k for k, a in enumerate(atoms)}
    return {frozenset((index[b["a"]], index[b["b"]])): b["order"] for b in bonds}


@pytest.mark.parametrize("fmt", WRITABLE)
def test_a_written_file_reads_back_with_what_its_format_keeps(fmt: str) -> None:
    proj = acetate_project()
    src = proj["document"]
    text = write_text(proj, fmt)
    back = read_text(text, fmt)
    if isinstance(back, dict):
        doc = back["document"]
        atoms, bonds, title = doc["atoms"], doc["bonds"], doc["title"]
    else:
        assert isinstance(back, Structure)
        atoms, bonds, title = back.atoms, back.bonds, back.title
    keeps = KEEPS[fmt]
    tol = TOLERANCE.get(fmt, 1e-4)
    assert [a["element"] for a in atoms] == [a["element"] for a in src["atoms"]]
    for got, want in zip(atoms, src["atoms"], strict=True):
        for k in ("x", "y", "z"):
            assert abs(got[k] - want[k]) <= tol, (fmt, got, want)
    if "bonds" in keeps or "connectivity" in keeps:
        assert set(pairs(bonds, atoms)) == set(pairs(src["bonds"], src["atoms"]))
    if "orders" in keeps:
        assert pairs(bonds, atoms) == pairs(src["bonds"], src["atoms"])
    if "charges" in keeps:
        assert [a["formalCharge"] for a in atoms] == [a["formalCharge"] for a in src["atoms"]]
    if "isotopes" in keeps:
        assert [a["massNumber"] for a in atoms] == [a["massNumber"] for a in src["atoms"]]
    if "names" in keeps:
        assert [a["name"] for a in atoms][:2] == ["CM", "C1"]
    if "ids" in keeps:
        assert [a["id"] for a in atoms] == [a["id"] for a in src["atoms"]]
    else:
        assert [a["id"] for a in atoms] == [f"a{i}" for i in range(1, len(atoms) + 1)]
    if "fixed" in keeps:
        assert [a["fixed"] for a in atoms] == [a["fixed"] for a in src["atoms"]]
    if "title" in keeps:
        assert title == "acetate anion"


@pytest.mark.parametrize("fmt", sorted(set(WRITABLE) - {"project"}))
def test_a_written_structure_loads_into_a_document_that_passes_every_check(fmt: str) -> None:
    proj = acetate_project()
    loaded = read_text(write_text(proj, fmt), fmt)
    assert isinstance(loaded, Structure)
    work = new_project()
    apply_structure(work, loaded)
    check_structure(work)
    assert len(work["document"]["atoms"]) == 7


def test_readable_and_writable_lists_match_the_spec() -> None:
    assert READABLE == ("project", "xyz", "mol", "sdf", "mol2", "cml", "pdb", "nwchem", "gaussian")
    assert WRITABLE == ("project", "xyz", "mol", "sdf", "pdb", "nwchem", "cml")


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("water.molforma.json", "project"),
        ("x.XYZ", "xyz"),
        ("a.mol", "mol"),
        ("b.sdf", "sdf"),
        ("c.mol2", "mol2"),
        ("d.cml", "cml"),
        ("e.pdb", "pdb"),
        ("job.nw", "nwchem"),
        ("g.gjf", "gaussian"),
        ("g.com", "gaussian"),
        ("/tmp/dir.with.dots/f.ent", "pdb"),
    ],
)
def test_the_format_comes_from_the_extension(name: str, fmt: str) -> None:
    assert format_from_path(name) == fmt


@pytest.mark.parametrize("name", ["notes.txt", "README", ".xyz", "archive.tar.gz"])
def test_an_unknown_extension_is_a_format_error_listing_what_is_supported(name: str) -> None:
    with pytest.raises(FormatError) as info:
        format_from_path(name)
    assert info.value.code == "format_error"
    assert info.value.data["kind"] == "format_unknown"
    assert "xyz" in info.value.message("en")


@pytest.mark.parametrize("fmt", ["mol2", "gaussian", "png"])
def test_writing_a_format_that_is_not_writable_fails(fmt: str) -> None:
    with pytest.raises(FormatError) as info:
        write_text(acetate_project(), fmt)
    assert info.value.code == "format_error"
    assert info.value.data["kind"] == "format_not_writable"


def test_multi_frame_xyz_needs_a_frame_and_the_error_tells_the_count() -> None:
    text = (DATA / "water_three_frames.xyz").read_text()
    with pytest.raises(FormatError) as info:
        read_text(text, "xyz")
    assert info.value.code == "format_error"
    assert info.value.data["kind"] == "format_frame_required"
    assert info.value.data["count"] == 3
    assert "3 frames" in info.value.message("en")
    assert "3" in info.value.message("ja")


def test_a_frame_of_a_multi_frame_xyz_is_chosen_zero_based() -> None:
    s = read_file(DATA / "water_three_frames.xyz", frame=1)
    assert isinstance(s, Structure)
    assert s.frame_count == 3
    assert s.title == "water frame 1"
    assert s.atoms[0]["z"] == pytest.approx(0.11)
    assert len(s.bonds) == 2


def test_a_frame_beyond_the_last_is_refused_with_the_count() -> None:
    with pytest.raises(FormatError) as info:
        read_file(DATA / "water_three_frames.xyz", frame=3)
    assert info.value.code == "format_error"
    assert info.value.data["kind"] == "format_frame_range"
    assert "0..2" in info.value.message("en")


@pytest.mark.parametrize("step", range(4))
def test_nwchem_driver_step_files_read_as_water_with_two_bonds(step: int) -> None:
    s = read_file(NWCHEM / f"water_opt-{step:03d}.xyz")
    assert isinstance(s, Structure)
    assert [a["element"] for a in s.atoms] == ["O", "H", "H"]
    assert s.title == "geometry"
    assert len(s.bonds) == 2
    assert all(b["order"] == 1 for b in s.bonds)


def test_nwchem_animation_file_has_twenty_frames() -> None:
    path = NWCHEM / "nh3_planar_scf_freq_anim" / "freq.m-001.xyz"
    with pytest.raises(FormatError) as info:
        read_file(path)
    assert info.value.data["count"] == 20
    s = read_file(path, frame=19)
    assert isinstance(s, Structure)
    assert [a["element"] for a in s.atoms] == ["N", "H", "H", "H"]


def test_xyz_perceives_bond_orders_with_rdkit() -> None:
    mol = Chem.AddHs(Chem.MolFromSmiles("C=CC#N"))
    AllChem.EmbedMolecule(mol, randomSeed=1)
    s = read_text(Chem.MolToXYZBlock(mol), "xyz")
    assert isinstance(s, Structure)
    assert sorted(b["order"] for b in s.bonds) == [1, 1, 1, 1, 2, 3]


@pytest.mark.parametrize("path", sorted(NWCHEM.glob("*.nw")), ids=lambda p: p.name)
def test_every_nwchem_fixture_input_reads_with_structure_and_conditions(path: Path) -> None:
    s = read_file(path)
    assert isinstance(s, Structure)
    assert s.atoms and s.bonds
    assert s.charge == 0
    # The radicals are doublets; every other fixture is a closed-shell singlet.
    doublets = (
        "ch3_udft",
        "ch3_udft_molden",
        "oh_uhf",
        "oh_uhf_molden",
        "oh_rohf_molden",
        "no_b3lyp_symmetry_failed",
        "oh_b3lyp_tddft",
    )
    assert s.multiplicity == (2 if path.stem in doublets else 1)
    assert s.calculation is not None and s.calculation.get("basis")
    # Tasks MolForma does not set up itself (TDDFT, coupled cluster, BOMD, response)
    # bring the structure and basis; the others bring their theory and task too.
    unmodelled = {"water_b3lyp_polar", "water_ccsdt", "water_scf_bomd", "water_tce_ccsd"}
    if path.stem in unmodelled:
        assert "theory" not in s.calculation and "task" not in s.calculation
    else:
        assert s.calculation["theory"] in ("scf", "dft", "mp2")
        assert s.calculation["task"] in (
            "energy",
            "optimize",
            "frequencies",
            "optimize+frequencies",
            "excited-states",
            "transition-state",
        )


def test_the_water_nwchem_input_gives_optimize_and_frequencies_at_scf() -> None:
    s = read_file(NWCHEM / "water_scf_optfreq.nw")
    assert isinstance(s, Structure)
    assert s.calculation == {"theory": "scf", "task": "optimize+frequencies", "basis": "6-31g*"}
    assert s.title == "Water SCF/6-31G* geometry optimisation and frequencies"
    assert [(a["element"], a["y"], a["z"]) for a in s.atoms] == [
        ("O", 0.0, 0.1173),
        ("H", 0.7572, -0.4692),
        ("H", -0.7572, -0.4692),
    ]
    assert s.advanced is not None
    assert s.advanced["memory_mb"] == 500
    assert s.advanced["opt_maxiter"] == 50


def test_the_methane_nwchem_input_gives_dft_b3lyp() -> None:
    s = read_file(NWCHEM / "methane_b3lyp_molden.nw")
    assert isinstance(s, Structure)
    assert s.calculation == {
        "theory": "dft",
        "task": "energy",
        "functional": "b3lyp",
        "basis": "6-31g*",
    }
    assert s.advanced is not None and s.advanced["noautosym"] is True


def test_nwchem_input_reads_units_charge_multiplicity_constraints_and_masses() -> None:
    text = """start radical
title "OH radical cation"; charge 1
geometry units bohr noautosym
  O   0.0 0.0 0.0
  H_a 0.0 0.0 1.8 mass 2.014101778
end
constraints
  fix atom 1
end
basis spherical
  * library cc-pvdz
end
dft
  xc pbe0
  mult 3
  odft
  grid fine
  disp vdw 3
end
task dft optimize   # comment
"""
    s = read_text(text, "nwchem")
    assert isinstance(s, Structure)
    assert s.title == "OH radical cation"
    assert (s.charge, s.multiplicity) == (1, 3)
    assert s.atoms[1]["z"] == pytest.approx(1.8 * 0.529177210903)
    assert s.atoms[1]["massNumber"] == 2
    assert s.atoms[1]["name"] == "H_a"
    assert [a["fixed"] for a in s.atoms] == [True, False]
    assert s.calculation == {
        "theory": "dft",
        "task": "optimize",
        "functional": "pbe0",
        "basis": "cc-pvdz",
    }
    assert s.advanced is not None
    assert s.advanced["dft_grid"] == "fine"
    assert s.advanced["dispersion"] == "d3"


def test_generated_nwchem_input_reads_back_with_its_conditions() -> None:
    proj = acetate_project()
    proj["calculation"].update(
        task="optimize+frequencies",
        theory="dft",
        functional="pbe0",
        basis="def2-svp",
        reference="rohf",
    )
    proj["advanced"].update(memory_mb=800, dft_grid="xfine", freq_animate=True)
    s = read_text(write_text(proj, "nwchem"), "nwchem")
    assert isinstance(s, Structure)
    assert s.calculation == {
        "theory": "dft",
        "task": "optimize+frequencies",
        "functional": "pbe0",
        "basis": "def2-svp",
        "reference": "rohf",
    }
    assert s.charge == -1
    assert s.advanced is not None
    assert s.advanced["memory_mb"] == 800
    assert s.advanced["freq_animate"] is True
    assert sum(a["formalCharge"] for a in s.atoms) == -1


def test_ethanol_mol2_keeps_atom_names_and_bonds() -> None:
    s = read_file(DATA / "ethanol.mol2")
    assert isinstance(s, Structure)
    assert s.title == "ethanol"
    assert [a["element"] for a in s.atoms] == ["C", "C", "O", "H", "H", "H", "H", "H", "H"]
    assert [a["name"] for a in s.atoms][:3] == ["C1", "C2", "O1"]
    assert len(s.bonds) == 8
    assert s.atoms[2]["x"] == pytest.approx(1.206)
    assert s.charge == 0


MOL2_BENZENE = """@<TRIPOS>MOLECULE
benzene
 6 6 1
SMALL
NO_CHARGES

@<TRIPOS>ATOM
1 C1 1.3915 0.0 0.0 C.ar 1 BEN 0
2 C2 0.6958 1.2051 0.0 C.ar 1 BEN 0
3 C3 -0.6958 1.2051 0.0 C.ar 1 BEN 0
4 C4 -1.3915 0.0 0.0 C.ar 1 BEN 0
5 C5 -0.6958 -1.2051 0.0 C.ar 1 BEN 0
6 C6 0.6958 -1.2051 0.0 C.ar 1 BEN 0
@<TRIPOS>BOND
1 1 2 ar
2 2 3 ar
3 3 4 ar
4 4 5 ar
5 5 6 ar
6 6 1 ar
"""


def test_aromatic_mol2_bonds_become_alternating_single_and_double_bonds() -> None:
    s = read_text(MOL2_BENZENE, "mol2")
    assert isinstance(s, Structure)
    assert sorted(b["order"] for b in s.bonds) == [1, 1, 1, 2, 2, 2]


def test_a_mol2_ammonium_type_gives_a_formal_charge() -> None:
    text = """@<TRIPOS>MOLECULE
methylammonium
 8 7
SMALL
USER_CHARGES

@<TRIPOS>ATOM
1 C1 -0.7 0.0 0.0 C.3 1 MA 0.0
2 N1 0.8 0.0 0.0 N.4 1 MA 0.0
3 H1 -1.06 1.02 0.0 H 1 MA 0.0
4 H2 -1.06 -0.51 0.88 H 1 MA 0.0
5 H3 -1.06 -0.51 -0.88 H 1 MA 0.0
6 H4 1.17 -0.96 0.0 H 1 MA 0.0
7 H5 1.17 0.48 0.83 H 1 MA 0.0
8 H6 1.17 0.48 -0.83 H 1 MA 0.0
@<TRIPOS>BOND
1 1 2 1
2 1 3 1
3 1 4 1
4 1 5 1
5 2 6 1
6 2 7 1
7 2 8 1
"""
    s = read_text(text, "mol2")
    assert isinstance(s, Structure)
    assert s.atoms[1]["formalCharge"] == 1
    assert s.charge == 1


def test_pdb_reads_model_one_and_the_altloc_with_the_higher_occupancy() -> None:
    s = read_file(DATA / "methanol_models_altloc.pdb")
    assert isinstance(s, Structure)
    assert s.frame_count == 2
    assert {k: s.info[k] for k in ("models", "altlocs")} == {"models": 2, "altlocs": ["A", "B"]}
    assert len(s.atoms) == 6
    assert [a["name"] for a in s.atoms] == ["C1", "O1", "H1", "H2", "H3", "HO"]
    assert (s.atoms[5]["x"], s.atoms[5]["z"]) == (0.856, 0.0)
    assert s.atoms[0]["x"] == -0.046
    assert len(s.bonds) == 5
    assert s.title == "METHANOL, TWO MODELS, HYDROXYL H IN TWO ALTERNATE LOCATIONS"


def test_pdb_model_two_is_frame_one() -> None:
    s = read_file(DATA / "methanol_models_altloc.pdb", frame=1)
    assert isinstance(s, Structure)
    assert s.atoms[0]["x"] == -0.056


def test_pdb_altloc_can_be_chosen_for_the_dialog() -> None:
    text = (DATA / "methanol_models_altloc.pdb").read_text()
    assert pdb_format.pdb_choices(text) == {"models": 2, "altlocs": ["A", "B"]}
    s = pdb_format.read_pdb(text, altloc="B")
    assert (s.atoms[5]["x"], s.atoms[5]["z"]) == (-0.5, 0.78)
    assert s.atoms[5]["id"] == "a7"


def test_pdb_altloc_follows_the_higher_occupancy_even_when_it_is_b() -> None:
    text = (DATA / "methanol_models_altloc.pdb").read_text()
    text = text.replace("0.70 10.00", "0.20 10.00")
    s = read_text(text, "pdb")
    assert isinstance(s, Structure)
    assert s.atoms[5]["x"] == -0.5


def test_pdb_conect_records_give_bond_orders_and_charge_columns_formal_charges() -> None:
    text = (
        "HETATM    1  C1  ACT A   1      -1.000   0.000   0.000  1.00  0.00           C\n"
        "HETATM    2  C2  ACT A   1       0.500   0.000   0.000  1.00  0.00           C\n"
        "HETATM    3  O1  ACT A   1       1.100   1.100   0.000  1.00  0.00           O\n"
        "HETATM    4  O2  ACT A   1       1.100  -1.100   0.000  1.00  0.00           O1-\n"
        "CONECT    1    2\n"
        "CONECT    2    1    3    3    4\n"
        "CONECT    3    2    2\n"
        "CONECT    4    2\n"
        "END\n"
    )
    s = read_text(text, "pdb")
    assert isinstance(s, Structure)
    assert pairs(s.bonds, s.atoms) == {
        frozenset((0, 1)): 1,
        frozenset((1, 2)): 2,
        frozenset((1, 3)): 1,
    }
    assert [a["formalCharge"] for a in s.atoms] == [0, 0, 0, -1]
    assert s.charge == -1


def test_gaussian_input_gives_charge_multiplicity_isotope_and_frozen_atom() -> None:
    s = read_file(DATA / "acetate.gjf")
    assert isinstance(s, Structure)
    assert (s.charge, s.multiplicity) == (-1, 1)
    assert s.title == "Acetate anion, methyl carbon labelled 13C, one frozen H"
    assert len(s.atoms) == 7
    assert s.atoms[0]["massNumber"] == 13
    assert [a["fixed"] for a in s.atoms] == [False] * 4 + [True, False, False]
    assert s.atoms[4]["x"] == pytest.approx(-1.8041)
    assert sorted(b["order"] for b in s.bonds) == [1, 1, 1, 1, 1, 2]
    assert sum(a["formalCharge"] for a in s.atoms) == -1
    assert s.calculation is None


def test_gaussian_connectivity_section_gives_the_bonds() -> None:
    text = """# HF/STO-3G geom=connectivity

formaldehyde

0 1
 C  0.000  0.000  0.000
 O  0.000  0.000  1.210
 H  0.000  0.940 -0.540
 H  0.000 -0.940 -0.540

 1 2 2.0 3 1.0 4 1.0
 2
 3
 4

"""
    s = read_text(text, "gaussian")
    assert isinstance(s, Structure)
    assert pairs(s.bonds, s.atoms) == {
        frozenset((0, 1)): 2,
        frozenset((0, 2)): 1,
        frozenset((0, 3)): 1,
    }


def test_cml_written_by_rdkit_reads_with_charges_and_orders() -> None:
    mol = Chem.AddHs(Chem.MolFromSmiles("C[NH3+]"))
    AllChem.EmbedMolecule(mol, randomSeed=3)
    s = read_text(Chem.MolToCMLBlock(mol), "cml")
    assert isinstance(s, Structure)
    assert [a["element"] for a in s.atoms][:2] == ["C", "N"]
    assert s.atoms[1]["formalCharge"] == 1
    assert s.charge == 1
    assert len(s.bonds) == mol.GetNumBonds()
    # RDKit's ids a0.. are not MolForma ids, so the atoms are numbered a1..
    assert s.atoms[0]["id"] == "a1"


def test_cml_array_form_and_aromatic_bonds_are_read() -> None:
    xs = " ".join(f"{x:.4f}" for x in (1.3915, 0.6958, -0.6958, -1.3915, -0.6958, 0.6958))
    ys = " ".join(f"{y:.4f}" for y in (0.0, 1.2051, 1.2051, 0.0, -1.2051, -1.2051))
    text = f"""<?xml version="1.0"?>
<molecule id="benzene">
  <atomArray atomID="c1 c2 c3 c4 c5 c6" elementType="C C C C C C" x2="{xs}" y2="{ys}"/>
  <bondArray atomRef1="c1 c2 c3 c4 c5 c6" atomRef2="c2 c3 c4 c5 c6 c1" order="A A A A A A"/>
</molecule>
"""
    s = read_text(text, "cml")
    assert isinstance(s, Structure)
    assert len(s.atoms) == 6 and all(a["z"] == 0.0 for a in s.atoms)
    assert sorted(b["order"] for b in s.bonds) == [1, 1, 1, 2, 2, 2]


def test_mol_aromatic_bond_type_four_is_kekulized() -> None:
    mol = Chem.MolFromSmiles("c1ccccc1")
    AllChem.Compute2DCoords(mol)
    block = Chem.MolToMolBlock(mol, kekulize=False)
    assert "  1  2  4" in block
    s = read_text(block, "mol")
    assert isinstance(s, Structure)
    assert sorted(b["order"] for b in s.bonds) == [1, 1, 1, 2, 2, 2]


def test_sdf_records_are_frames_and_data_fields_carry_multiplicity() -> None:
    out = io.StringIO()
    writer = Chem.SDWriter(out)
    for smi in ("O", "N", "[CH3]"):
        mol = Chem.AddHs(Chem.MolFromSmiles(smi))
        AllChem.EmbedMolecule(mol, randomSeed=1)
        mol.SetProp("_Name", smi)
        writer.write(mol)
    writer.close()
    s = read_text(out.getvalue(), "sdf", frame=2)
    assert isinstance(s, Structure)
    assert s.frame_count == 3
    assert s.title == "[CH3]"
    assert s.atoms[0]["unpairedElectrons"] == 1
    first = read_text(out.getvalue(), "sdf")
    assert isinstance(first, Structure)
    assert [a["element"] for a in first.atoms] == ["O", "H", "H"]
    proj = acetate_project()
    proj["document"]["multiplicity"] = 3
    back = read_text(write_text(proj, "sdf"), "sdf")
    assert isinstance(back, Structure)
    assert back.multiplicity == 3


def test_mol_ids_are_written_only_when_they_are_not_a1_to_an() -> None:
    proj = acetate_project()
    assert "M  MFI" in write_text(proj, "mol")
    for k, a in enumerate(proj["document"]["atoms"], start=1):
        old = a["id"]
        a["id"] = f"a{k}"
        for b in proj["document"]["bonds"]:
            b["a"] = a["id"] if b["a"] == old else b["a"]
            b["b"] = a["id"] if b["b"] == old else b["b"]
    assert "M  MFI" not in write_text(proj, "mol")


def test_a_project_file_reads_as_a_whole_project_with_unknown_fields() -> None:
    proj = acetate_project()
    proj["futureField"] = {"kept": True}
    back = read_text(write_text(proj, "project"), "project")
    assert isinstance(back, dict)
    assert back["futureField"] == {"kept": True}
    assert back["document"] == proj["document"]


def test_applying_a_structure_renumbers_ids_and_keeps_settings_and_unknown_fields() -> None:
    work = acetate_project()
    work["execution"]["threads"] = 4
    work["calculation"]["extra_input"] = "print low"
    work["advanced"]["memory_mb"] = 2000
    work["unknownEnvelopeField"] = [1, 2]
    old_ids = [a["id"] for a in work["document"]["atoms"]]
    next_id = work["document"]["nextAtomId"]
    s = read_file(NWCHEM / "water_scf_optfreq.nw")
    assert isinstance(s, Structure)
    res = apply_structure(work, s)
    doc = work["document"]
    assert [a["id"] for a in doc["atoms"]] == [f"a{next_id + k}" for k in range(3)]
    assert doc["nextAtomId"] == next_id + 3
    assert res.added == [a["id"] for a in doc["atoms"]]
    assert res.removed == old_ids
    assert (doc["charge"], doc["multiplicity"]) == (0, 1)
    assert doc["title"] == "Water SCF/6-31G* geometry optimisation and frequencies"
    assert {b["a"] for b in doc["bonds"]} | {b["b"] for b in doc["bonds"]} <= {
        a["id"] for a in doc["atoms"]
    }
    assert work["calculation"]["task"] == "optimize+frequencies"
    assert work["calculation"]["theory"] == "scf"
    assert work["calculation"]["extra_input"] == "print low"
    assert work["advanced"]["memory_mb"] == 2000  # the project's advanced settings are kept
    assert work["execution"]["threads"] == 4
    assert work["unknownEnvelopeField"] == [1, 2]
    check_structure(work)


def test_applying_an_xyz_keeps_the_charge_and_the_calculation() -> None:
    work = acetate_project()
    work["calculation"]["basis"] = "cc-pvtz"
    s = read_file(NWCHEM / "water_opt-000.xyz")
    assert isinstance(s, Structure)
    apply_structure(work, s)
    assert work["document"]["charge"] == -1
    assert work["calculation"]["basis"] == "cc-pvtz"


def test_loading_a_structure_into_a_document_is_one_undoable_step() -> None:
    doc = Document(acetate_project())
    before = doc.project
    s = read_file(DATA / "ethanol.mol2")
    assert isinstance(s, Structure)
    summary = doc.edit(lambda w: apply_structure(w, s), label="Load", preview=False)
    assert summary["project"] == {"formula": "C2H6O", "atomCount": 9}
    doc.undo()
    assert doc.project is before


def test_write_file_replaces_the_file_atomically(tmp_path: Path) -> None:
    target = tmp_path / "out.xyz"
    target.write_text("old")
    write_file(acetate_project(), target)
    assert target.read_text().startswith("7\nacetate anion\n")
    assert [p.name for p in tmp_path.iterdir()] == ["out.xyz"]


def test_a_v3000_mol_block_is_read() -> None:
    mol = Chem.AddHs(Chem.MolFromSmiles("OC(=O)C[NH3+]"))
    AllChem.EmbedMolecule(mol, randomSeed=5)
    s = read_text(Chem.MolToV3KMolBlock(mol), "mol")
    assert isinstance(s, Structure)
    assert len(s.atoms) == mol.GetNumAtoms()
    assert sorted(b["order"] for b in s.bonds).count(2) == 1
    assert sum(a["formalCharge"] for a in s.atoms) == 1
    pos = mol.GetConformer().GetAtomPosition(0)
    assert s.atoms[0]["x"] == pytest.approx(pos.x, abs=1e-4)


def test_cml_escapes_titles_and_names() -> None:
    proj = acetate_project()
    proj["document"]["title"] = 'a "quoted" <title> & more'
    proj["document"]["atoms"][1]["name"] = "C<1>&"
    s = read_text(write_text(proj, "cml"), "cml")
    assert isinstance(s, Structure)
    assert s.title == 'a "quoted" <title> & more'
    assert s.atoms[1]["name"] == "C<1>&"


def test_cml_refuses_entity_declarations() -> None:
    text = (
        '<?xml version="1.0"?>\n<!DOCTYPE m [<!ENTITY x "xxxxxxxx">]>\n'
        '<molecule><atomArray><atom id="a1" elementType="H" x3="&x;" y3="0" z3="0"/>'
        "</atomArray></molecule>\n"
    )
    with pytest.raises(FormatError) as info:
        read_text(text, "cml")
    assert info.value.data["line"] == 2


def test_a_mol2_file_with_two_molecules_gives_the_chosen_one() -> None:
    text = (DATA / "ethanol.mol2").read_text() + MOL2_BENZENE
    first = read_text(text, "mol2")
    second = read_text(text, "mol2", frame=1)
    assert isinstance(first, Structure) and isinstance(second, Structure)
    assert (first.frame_count, first.title, second.title) == (2, "ethanol", "benzene")
    assert len(second.atoms) == 6


def test_gaussian_reads_only_the_first_job_of_a_link1_file() -> None:
    text = (DATA / "acetate.gjf").read_text() + "--Link1--\n%chk=acetate.chk\n# geom=check\n\n"
    s = read_text(text, "gaussian")
    assert isinstance(s, Structure)
    assert len(s.atoms) == 7


def test_nwchem_semicolons_continuations_and_named_geometries() -> None:
    text = """title "two geometries"
geometry "other" units angstrom
  He 0 0 0
end
geometry units angstrom ; O 0 0 0 ; H 0 0 \\
  0.97 ; end
basis ; H s ; 1.0 1.0 ; end
scf ; doublet ; uhf ; end
task scf energy
"""
    s = read_text(text, "nwchem")
    assert isinstance(s, Structure)
    assert [a["element"] for a in s.atoms] == ["O", "H"]
    assert s.atoms[1]["z"] == pytest.approx(0.97)
    assert s.multiplicity == 2
    # A basis written out function by function is not one library basis: not taken.
    assert s.calculation == {"theory": "scf", "task": "energy"}


@pytest.mark.parametrize("fmt", ["mol", "sdf", "pdb"])
def test_rdkit_reads_our_exports_as_the_same_molecule(fmt: str) -> None:
    text = write_text(acetate_project(), fmt)
    if fmt == "pdb":
        mol = Chem.MolFromPDBBlock(text, removeHs=False)
    elif fmt == "mol":
        mol = Chem.MolFromMolBlock(text, removeHs=False)
    else:
        supplier = Chem.SDMolSupplier()
        supplier.SetData(text, removeHs=False)
        mol = supplier[0]
    assert mol is not None
    assert Chem.MolToSmiles(Chem.RemoveHs(mol), isomericSmiles=False) == "CC(=O)[O-]"


def test_an_xyz_loaded_into_an_anion_project_gets_bond_orders_for_that_charge() -> None:
    proj = acetate_project()
    xyz_text = write_text(proj, "xyz")
    neutral = read_text(xyz_text, "xyz")
    assert isinstance(neutral, Structure)
    assert all(b["order"] == 1 for b in neutral.bonds)  # no neutral acetate exists
    apply_structure(proj, neutral)
    doc = proj["document"]
    assert sorted(b["order"] for b in doc["bonds"]) == [1, 1, 1, 1, 1, 2]
    assert sum(a["formalCharge"] for a in doc["atoms"]) == -1
    check_structure(proj)
