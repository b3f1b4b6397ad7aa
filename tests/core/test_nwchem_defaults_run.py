"""The expert defaults checked against the real NWChem (marked ``nwchem``): spherical
cc-pVDZ, frozen-core MP2, and symmetry with results mapped back to the document's frame."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from molforma.results.reader import read_results
from tests.core.test_jobs_nwchem import run
from tests.core.test_nwchem_input import WATER, make_project

pytestmark = [
    pytest.mark.nwchem,
    pytest.mark.skipif(shutil.which("nwchem") is None, reason="NWChem is not installed"),
]

# NO doublet B3LYP/6-31G* optimisation that failed with symmetry on (tests/data/nwchem).
FIXTURES_NO_SYMMETRY = (
    Path(__file__).resolve().parents[1] / "data" / "nwchem" / "no_b3lyp_symmetry_failed.out"
)
WATER_XYZ = "\n".join(f"  {el} {x} {y} {z}" for el, x, y, z in WATER)


def reference_run(tmp_path: Path, name: str, basis_header: str, body: str) -> str:
    """Run a hand-written NWChem input (the reference an expert would write)."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / "ref.nw").write_text(
        f"start ref\ngeometry units angstrom noautosym noautoz nocenter\n{WATER_XYZ}\nend\n"
        f"{basis_header}\n  * library cc-pvdz\nend\n{body}"
    )
    done = subprocess.run(
        ["nwchem", "ref.nw"], cwd=folder, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def last_energy(output: str, label: str) -> float:
    lines = [line for line in output.splitlines() if label in line]
    return float(lines[-1].split()[-1].replace("D", "E"))


def test_cc_pvdz_water_runs_spherical_and_matches_nwchems_spherical_reference(
    tmp_path: Path,
) -> None:
    record = run(make_project(WATER, basis="cc-pvdz"), tmp_path / "jobs")
    assert record["status"] == "finished", record["error"]
    spherical = last_energy(
        reference_run(tmp_path, "sph", "basis spherical", "task scf energy\n"), "Total SCF energy"
    )
    cartesian = last_energy(
        reference_run(tmp_path, "cart", "basis", "task scf energy\n"), "Total SCF energy"
    )
    assert record["finalEnergy"] == pytest.approx(spherical, abs=1e-7)
    # The Cartesian run differs by a few tenths of a millihartree: the default matters.
    assert abs(cartesian - spherical) > 1e-4
    # NWChem says which kind it used; water/cc-pVDZ has 24 spherical functions (25 Cartesian).
    assert 'Summary of "ao basis" -> "ao basis" (spherical)' in record["_output"]
    assert re.search(r"^\s*functions\s*=\s*24\s*$", record["_output"], re.M)


def test_mp2_freezes_the_oxygen_core_and_matches_the_frozen_core_reference(
    tmp_path: Path,
) -> None:
    record = run(make_project(WATER, theory="mp2", basis="cc-pvdz"), tmp_path / "jobs")
    assert record["status"] == "finished", record["error"]
    frozen = reference_run(
        tmp_path, "fc", "basis spherical", "mp2\n  freeze atomic\nend\ntask mp2 energy\n"
    )
    full = reference_run(tmp_path, "ae", "basis spherical", "task mp2 energy\n")
    e_frozen = last_energy(frozen, "Total MP2 energy")
    e_full = last_energy(full, "Total MP2 energy")
    results = read_results(str(record["_folder"] / "output.out"))
    assert results.summary.finalEnergy == pytest.approx(e_frozen, abs=1e-8)
    assert record["finalEnergy"] == pytest.approx(e_frozen, abs=1e-8)
    # Correlating the 1s pair lowers the energy by about 2 mEh for water/cc-pVDZ.
    assert 1e-3 < e_frozen - e_full < 5e-3
    assert "frozen core" in record["_output"].lower() or "freeze" in record["_output"].lower()


def _rotated(coords: np.ndarray) -> np.ndarray:
    a, b = math.radians(37.0), math.radians(-21.0)
    rz = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, math.cos(b), -math.sin(b)], [0, math.sin(b), math.cos(b)]])
    return coords @ (rz @ rx).T + np.array([1.3, -0.7, 2.1])


def benzene() -> list[tuple[str, float, float, float]]:
    ring = [(1.39 * math.cos(k * math.pi / 3), 1.39 * math.sin(k * math.pi / 3)) for k in range(6)]
    hs = [(2.47 * math.cos(k * math.pi / 3), 2.47 * math.sin(k * math.pi / 3)) for k in range(6)]
    xyz = _rotated(np.array([[x, y, 0.0] for x, y in ring + hs]))
    return [(el, *map(float, p)) for el, p in zip(["C"] * 6 + ["H"] * 6, xyz, strict=True)]


def test_symmetric_benzene_runs_with_symmetry_and_its_geometry_maps_back(tmp_path: Path) -> None:
    atoms = benzene()
    record = run(make_project(atoms, basis="sto-3g"), tmp_path)
    assert record["status"] == "finished", record["error"]
    assert "D6H symmetry detected" in record["_output"]
    results = read_results(str(record["_folder"]))
    document = np.array([a[1:] for a in atoms])
    assert np.allclose(results.structures[0].coordinates, document, atol=1e-5)


def test_an_optimisation_with_symmetry_overlays_the_document(tmp_path: Path) -> None:
    atoms = [
        (el, *map(float, p))
        for (el, *_r), p in zip(WATER, _rotated(np.array([a[1:] for a in WATER])), strict=True)
    ]
    record = run(make_project(atoms, basis="sto-3g", task="optimize+frequencies"), tmp_path)
    assert record["status"] == "finished", record["error"]
    assert "C2V symmetry detected" in record["_output"]
    results = read_results(str(record["_folder"]))
    document = np.array([a[1:] for a in atoms])
    start: Any = np.array(results.structures[0].coordinates)
    final = np.array(results.structures[-1].coordinates)
    assert np.allclose(start, document, atol=1e-5)
    # The optimised water stays where the document's water is (same centre, same plane).
    assert np.allclose(final.mean(axis=0), document.mean(axis=0), atol=0.05)
    normal = np.cross(document[1] - document[0], document[2] - document[0])
    assert np.allclose((final - document[0]) @ normal, 0.0, atol=1e-3)
    # The mode displacements are rotated with the molecule: each lies in that plane.
    disp = results.displacements(len(results.modes) - 1)
    assert disp is not None
    assert np.allclose(np.array(disp) @ normal / np.linalg.norm(normal), 0.0, atol=1e-3)


def test_the_job_record_and_the_results_agree_on_the_final_energy(tmp_path: Path) -> None:
    record = run(make_project(WATER, basis="sto-3g", task="optimize"), tmp_path)
    assert record["status"] == "finished", record["error"]
    results = read_results(str(record["_folder"]))
    # Exactly the same number: the record takes it from the same reader.
    assert record["finalEnergy"] == results.summary.finalEnergy


def test_a_calculation_set_to_write_a_molden_file_gives_orbitals_to_draw(tmp_path: Path) -> None:
    from molforma.results.orbitals import grid_around, load_orbitals, norm_on_grid, orbital_values
    from molforma.results.reader import list_result_files

    project = make_project(WATER, basis="sto-3g")
    project["advanced"]["molden_file"] = True
    record = run(project, tmp_path)
    assert record["status"] == "finished", record["error"]
    molden = record["_folder"] / "molforma.molden"
    assert molden.is_file()
    assert any(
        e.kind == "molden" and Path(e.path).name == "molforma.molden"
        for e in list_result_files(record["_folder"])
    )
    orbitals = load_orbitals(molden)
    assert len(orbitals.orbitals) == 7  # water/STO-3G
    assert orbitals.frontier() == (4, 5)
    grid = grid_around(orbitals.coordinates, spacing=0.2, margin=6.0)
    assert norm_on_grid(orbital_values(orbitals, 4, grid), grid) == pytest.approx(1.0, abs=0.02)


NO_RADICAL = [("N", 0.0, 0.0, 0.0), ("O", 0.0, 0.0, 1.15)]


def test_a_linear_radical_runs_without_symmetry_by_default_and_converges(
    tmp_path: Path,
) -> None:
    # NO doublet B3LYP/6-31G*: with symmetry (C4v) NWChem warns that the HOMO and LUMO are
    # degenerate, the energy climbs and the optimisation fails; the default turns symmetry
    # off, says so in the input, and the run converges.
    project = make_project(
        NO_RADICAL,
        multiplicity=2,
        theory="dft",
        functional="b3lyp",
        basis="6-31g*",
        task="optimize+frequencies",
    )
    record = run(project, tmp_path / "jobs", timeout=300)
    assert record["status"] == "finished", record["error"]
    assert record["optimizationConverged"] is True
    nw = (record["_folder"] / "input.nw").read_text()
    assert "geometry units angstrom noautosym" in nw
    assert "# symmetry off: an open-shell linear molecule" in nw
    assert "are degenerate and you are using symmetry" not in record["_output"]
    results = read_results(str(record["_folder"] / "output.out"))
    assert results.summary.optimizationSteps <= 5
    assert results.summary.modeCount >= 1 and results.summary.significantImaginaryModes == 0
    # Below the energy the symmetric run reached before it failed (fixture, same level).
    failed = read_results(str(FIXTURES_NO_SYMMETRY))
    assert results.summary.finalEnergy < min(e.energy for e in failed.energies) - 0.02


def test_a_run_that_fails_on_degenerate_orbitals_under_symmetry_says_why_and_how_to_fix_it(
    tmp_path: Path,
) -> None:
    project = make_project(
        NO_RADICAL,
        multiplicity=2,
        theory="dft",
        functional="b3lyp",
        basis="6-31g*",
        task="optimize",
    )
    project["advanced"]["noautosym"] = False  # symmetry asked for explicitly
    record = run(project, tmp_path / "jobs", timeout=300)
    assert record["status"] == "failed"
    assert "HOMO and LUMO were degenerate with symmetry on" in record["error"]
    assert "noautosym" in record["error"]
    results = read_results(str(record["_folder"] / "output.out"))
    assert any("symmetry off" in m.message for m in results.summary.errors)
