"""Catalogues: fragments, ligands, basis sets, functionals, tasks, theories, advanced keys."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import types
import typing
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rdkit import Chem

from molforma import catalog
from molforma.document.elements import covalent_radius
from molforma.document.envelope import formula
from molforma.errors import ValidationError
from molforma.nwchem.settings import THEORIES, AdvancedSettings, CalculationSettings

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = Path("/usr/share/nwchem/libraries")


def _build_script() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_catalogs", ROOT / "scripts" / "build_catalogs.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_entry_has_a_name_and_labels_in_both_languages() -> None:
    for kind, entries in catalog.get_catalog().items():
        names = [e.get("name", e.get("key")) for e in entries]
        assert len(set(names)) == len(names), kind
        for e in entries:
            assert e["label"]["en"].strip() and e["label"]["ja"].strip(), (kind, e)


def test_every_kind_is_served_and_unknown_kinds_are_refused() -> None:
    everything = catalog.get_catalog()
    assert list(everything) == list(catalog.KINDS)
    for kind in catalog.KINDS:
        assert catalog.get_catalog(kind) == {kind: everything[kind]}
        assert everything[kind], kind
    with pytest.raises(ValidationError) as exc:
        catalog.get_catalog("molecules")
    assert exc.value.code == "unknown_catalog"


def test_catalogue_results_are_copies() -> None:
    first = catalog.get_catalog("fragments")
    first["fragments"].clear()
    assert catalog.get_catalog("fragments")["fragments"]


def test_listings_leave_out_coordinates_unless_asked() -> None:
    listed = catalog.get_catalog("ligands")["ligands"][0]
    full = catalog.get_catalog("ligands", geometry=True)["ligands"][0]
    assert "atoms" not in listed and "dummy" not in listed and "attachment" not in listed
    assert listed["donorElement"] == "N" and listed["formula"] == "H3N"
    assert {"atoms", "bonds", "dummy", "attachment"} <= set(full)
    assert len(json.dumps(catalog.get_catalog(), ensure_ascii=False)) < 40_000


def test_the_library_has_the_promised_fragments_and_ligands() -> None:
    frags = {e["name"] for e in catalog.get_catalog("fragments")["fragments"]}
    ligs = {e["name"] for e in catalog.get_catalog("ligands")["ligands"]}
    assert len(frags) >= 15 and len(ligs) >= 8
    assert {
        "methyl",
        "ethyl",
        "phenyl",
        "hydroxyl",
        "amino",
        "carbonyl",
        "carboxyl",
        "nitro",
        "cyano",
    } <= frags
    assert {"NH3", "H2O", "CO", "Cl-", "PPh3", "pyridine", "CN-"} <= ligs


def _entries(kind: str) -> list[dict[str, Any]]:
    return catalog.get_catalog(kind, geometry=True)[kind]


@pytest.mark.parametrize(
    "entry", _entries("fragments") + _entries("ligands"), ids=lambda e: e["name"]
)
def test_each_library_part_has_a_sane_3d_structure(entry: dict[str, Any]) -> None:
    atoms = entry["atoms"]
    xyz = np.array([[a["x"], a["y"], a["z"]] for a in atoms])
    attach = entry["attachment"]
    assert np.allclose(xyz[attach], 0.0)
    assert entry["label"]["en"] and entry["label"]["ja"]
    assert entry["formula"] == formula(atoms)
    # Bonded atoms sit at bonding distance, non-bonded ones well apart.
    bonded = {(min(i, j), max(i, j)) for i, j, _o in entry["bonds"]}
    for i in range(len(atoms)):
        for j in range(i + 1, len(atoms)):
            d = float(np.linalg.norm(xyz[i] - xyz[j]))
            rsum = covalent_radius(atoms[i]["element"]) + covalent_radius(atoms[j]["element"])
            if (i, j) in bonded:
                assert 0.7 * rsum < d < 1.3 * rsum
            else:
                assert d > 1.5
    # The stand-in for the partner atom is at bonding distance from the attachment atom.
    assert 0.6 < float(np.linalg.norm(entry["dummy"])) < 2.6
    # The SMILES describes the same heavy atoms (and the same charge).
    mol = Chem.MolFromSmiles(entry["smiles"])
    heavy = Counter(a.GetSymbol() for a in mol.GetAtoms() if a.GetAtomicNum() > 1)
    assert heavy == Counter(a["element"] for a in atoms if a["element"] != "H")
    assert sum(a.GetFormalCharge() for a in mol.GetAtoms()) == sum(a["formalCharge"] for a in atoms)
    # Complete valences: every hydrogen the SMILES implies is present.
    hs = sum(a.GetTotalNumHs() for a in mol.GetAtoms()) + sum(
        1 for a in mol.GetAtoms() if a.GetAtomicNum() == 1
    )
    assert Counter(a["element"] for a in atoms)["H"] == hs


def test_ligand_donor_lone_pairs_point_away_from_the_ligand() -> None:
    for entry in _entries("ligands"):
        xyz = np.array([[a["x"], a["y"], a["z"]] for a in entry["atoms"]])
        if len(xyz) < 2:
            continue
        centroid = xyz.mean(axis=0)
        dummy = np.asarray(entry["dummy"])
        # The metal side is opposite to the ligand's body.
        assert float(np.dot(dummy, centroid)) < 0, entry["name"]


def test_basis_sets_cover_the_common_names_with_their_elements() -> None:
    names = [e["name"] for e in catalog.get_catalog("basis_sets")["basis_sets"]]
    for name in (
        "sto-3g",
        "3-21g",
        "6-31g",
        "6-31g*",
        "6-31g**",
        "6-31+g*",
        "6-311g**",
        "cc-pvdz",
        "cc-pvtz",
        "aug-cc-pvdz",
        "def2-svp",
        "def2-tzvp",
        "def2-tzvpp",
        "lanl2dz_ecp",
    ):
        assert name in names
    assert CalculationSettings().basis in names
    first_row = {"H", "C", "N", "O", "F"}
    for name in names:
        elements = catalog.basis_elements(name)
        assert elements is not None and first_row <= elements, name
    assert catalog.basis_elements("6-31g*") == catalog.basis_elements("6-31G*")
    assert "Pt" not in catalog.basis_elements("6-31g*")
    assert "Zn" in catalog.basis_elements("6-31g*")
    assert {"Pt", "Au", "I"} <= catalog.basis_elements("def2-svp")
    assert {"Pt", "Fe"} <= catalog.basis_elements("lanl2dz_ecp")
    assert catalog.basis_elements("no-such-basis") is None
    assert catalog.basis_elements("") is None
    entry = catalog.basis_entry("def2-SVP")
    assert entry is not None and entry["ecp"] == "def2-ecp" and "Pt" in entry["ecpElements"]
    assert "Fe" not in entry["ecpElements"]


def test_library_file_names_follow_nwchem() -> None:
    assert catalog.library_file_name("6-31G*") == "6-31gs"
    assert catalog.library_file_name("6-31g**") == "6-31gss"
    assert catalog.library_file_name("6-311++G(2d,2p)") == "6-311++g2d_2p"
    assert catalog.library_file_name("LANL2DZ ECP") == "lanl2dz_ecp"


@pytest.mark.skipif(not LIBRARY.is_dir(), reason="NWChem's basis library is not installed")
def test_basis_catalogue_matches_nwchem_library_files() -> None:
    for entry in catalog.get_catalog("basis_sets")["basis_sets"]:
        text = (LIBRARY / catalog.library_file_name(entry["name"])).read_text(errors="replace")
        assert set(entry["elements"]) == catalog.parse_library_elements(text), entry["name"]
    # A basis outside the catalogue is answered from the library files.
    assert catalog.basis_elements("pcseg-1") == catalog.parse_library_elements(
        (LIBRARY / "pcseg-1").read_text(errors="replace")
    )


def test_parse_library_elements_reads_basis_headers() -> None:
    text = 'basis "H_6-31G*" SPHERICAL\nH S\nend\nbasis "Cl_6-31G*" SPHERICAL\nend\n#basis "X"\n'
    assert catalog.parse_library_elements(text) == {"H", "Cl"}


def test_functionals_give_the_exact_xc_line() -> None:
    funcs = {f["name"]: f for f in catalog.get_catalog("functionals")["functionals"]}
    assert {"b3lyp", "pbe0", "pbe96", "tpss", "m06-2x"} <= set(funcs)
    assert funcs["pbe96"]["xc"] == "xpbe96 cpbe96"
    assert CalculationSettings().functional in {f["xc"] for f in funcs.values()}
    for f in funcs.values():
        assert f["label"]["en"] and f["label"]["ja"]
        assert f["xc"] == " ".join(f["xc"].split())


def test_functional_names_translate_to_their_xc_lines() -> None:
    assert catalog.functional_xc("pbe96") == "xpbe96 cpbe96"
    assert catalog.functional_xc("TPSS") == "xtpss03 ctpss03"
    assert catalog.functional_xc("b3lyp") == "b3lyp"
    assert catalog.functional_xc("  xpbe96   cpbe96 ") == "xpbe96 cpbe96"
    assert catalog.functional_xc("hfexch 1.0") == "hfexch 1.0"


def test_tasks_and_theories_match_the_settings_model() -> None:
    tasks = [t["name"] for t in catalog.get_catalog("tasks")["tasks"]]
    assert tasks == list(typing.get_args(CalculationSettings.model_fields["task"].annotation))
    theories = [t["name"] for t in catalog.get_catalog("theories")["theories"]]
    assert theories == list(THEORIES)


def test_advanced_keys_match_the_pydantic_model_exactly() -> None:
    keys = catalog.get_catalog("advanced_keys")["advanced_keys"]
    fields = AdvancedSettings.model_fields
    assert [k["key"] for k in keys] == list(fields)
    defaults = AdvancedSettings().model_dump()
    schema = AdvancedSettings.model_json_schema()["properties"]
    for k in keys:
        key = k["key"]
        assert k["default"] == defaults[key]
        assert k["label"]["en"] and k["label"]["ja"] and k["description"]["ja"]
        assert k["description"]["en"] == fields[key].description
        # The type, choices and bounds agree with what the model accepts.
        prop = schema[key]
        variants = prop.get("anyOf", [prop])
        types_ = {v.get("type") for v in variants}
        assert k["nullable"] == ("null" in types_)
        if "choices" in k:
            enum = next(v["enum"] for v in variants if "enum" in v)
            assert k["choices"] == enum
            assert k["type"] == "choice"
        else:
            json_type = next(t for t in types_ if t != "null")
            assert {
                "integer": "integer",
                "number": "number",
                "string": "string",
                "boolean": "boolean",
            }[json_type] == k["type"]
        for name, json_name in (
            ("min", "minimum"),
            ("max", "maximum"),
            ("exclusiveMin", "exclusiveMinimum"),
        ):
            bound = next((v[json_name] for v in variants if json_name in v), None)
            assert k.get(name) == bound, (key, name)


def test_every_advanced_value_from_the_catalogue_is_accepted_by_the_model() -> None:
    for k in catalog.get_catalog("advanced_keys")["advanced_keys"]:
        samples = list(k.get("choices", []))
        if k["type"] == "integer":
            samples.append(k.get("min", 1))
        if k["type"] == "boolean":
            samples += [True, False]
        for value in samples:
            AdvancedSettings.model_validate({k["key"]: value})


def test_committed_settings_catalogues_are_what_the_build_script_writes() -> None:
    build = _build_script()
    for kind, fn in (
        ("functionals", build.functionals),
        ("tasks", build.tasks),
        ("theories", build.theories),
        ("advanced_keys", build.advanced_keys),
    ):
        assert json.loads(json.dumps(fn())) == catalog.get_catalog(kind)[kind], kind
    if LIBRARY.is_dir():
        assert build.basis_sets(LIBRARY) == catalog.get_catalog("basis_sets")["basis_sets"]


def test_the_build_script_embeds_a_fragment_from_smiles() -> None:
    build = _build_script()
    rec = build.build_fragment("[*]C(=O)O")
    assert formula(rec["atoms"]) == "CHO2"
    xyz = np.array([[a["x"], a["y"], a["z"]] for a in rec["atoms"]])
    c = rec["attachment"]
    # sp2 carbon: the stand-in partner lies in the plane of the carboxyl group, 120° away.
    others = [i for i in range(len(xyz)) if rec["atoms"][i]["element"] == "O"]
    vecs = [xyz[i] - xyz[c] for i in others] + [np.asarray(rec["dummy"])]
    normal = np.cross(vecs[0], vecs[1])
    assert (
        abs(float(np.dot(normal / np.linalg.norm(normal), vecs[2] / np.linalg.norm(vecs[2])))) < 0.1
    )
    lig = build.build_ligand("N", 0)
    assert formula(lig["atoms"]) == "H3N" and lig["atoms"][0]["formalCharge"] == 0


def test_the_build_script_runs_as_a_program() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_catalogs.py"), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0 and "--only" in out.stdout


def _run_nwchem(
    workdir: Path, body: str, geometry: str = " H 0 0 0\n H 0 0 0.74\n"
) -> tuple[int, str]:
    workdir.mkdir()
    (workdir / "t.nw").write_text(
        "start t\ngeometry units angstrom noautosym nocenter noautoz\n" + geometry + "end\n" + body
    )
    proc = subprocess.run(
        ["nwchem", "t.nw"], cwd=workdir, capture_output=True, text=True, timeout=300
    )
    return proc.returncode, proc.stdout


# Every functional entry is run by NWChem with its whole dft block (xc, cam, disp) as
# MolForma writes it: tests/core/test_functionals_nwchem.py.


@pytest.mark.nwchem
@pytest.mark.slow
@pytest.mark.skipif(shutil.which("nwchem") is None, reason="NWChem is not installed")
@pytest.mark.parametrize(
    "entry", catalog.get_catalog("basis_sets")["basis_sets"], ids=lambda e: e["name"]
)
def test_nwchem_finds_every_catalogue_basis_set(entry: dict[str, Any], tmp_path: Path) -> None:
    rc, out = _run_nwchem(
        tmp_path / "run", f"basis\n * library {entry['name']}\nend\ntask scf energy\n"
    )
    assert rc == 0, out[-2000:]
    assert "Total SCF energy" in out


@pytest.mark.nwchem
@pytest.mark.slow
@pytest.mark.skipif(shutil.which("nwchem") is None, reason="NWChem is not installed")
@pytest.mark.parametrize("name", ["def2-svp", "lanl2dz_ecp"])
def test_ecp_basis_sets_run_with_their_ecp_on_the_ecp_elements_only(
    name: str, tmp_path: Path
) -> None:
    entry = catalog.basis_entry(name)
    assert entry is not None and "I" in entry["ecpElements"] and "H" not in entry["ecpElements"]
    # NWChem fails ("failed to locate ecp h_...") when `* library` asks an ECP for H,
    # so the ECP block names the elements that have one.
    rc, out = _run_nwchem(
        tmp_path / "run",
        f"basis\n * library {name}\nend\necp\n I library {entry['ecp']}\nend\ntask scf energy\n",
        geometry=" H 0 0 0\n I 0 0 1.61\n",
    )
    assert rc == 0, out[-2000:]
    assert "Total SCF energy" in out
