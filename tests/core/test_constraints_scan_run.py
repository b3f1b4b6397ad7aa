"""Constraints and relaxed scans checked by the real NWChem (marked ``nwchem``): the values
held in the optimised structures, a scan's energies against separate constrained
optimisations and NWChem's own printed energies, and the profile's shape."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from molforma.document import geometry
from molforma.results.reader import read_results
from molforma.results.scan_profile import scan_profile
from tests.core.test_jobs_nwchem import run
from tests.core.test_nwchem_input import WATER, make_project

pytestmark = [
    pytest.mark.nwchem,
    pytest.mark.skipif(shutil.which("nwchem") is None, reason="NWChem is not installed"),
]

# Staggered ethane; H3-C1-C2-H6 is -60 degrees as drawn.
ETHANE = [
    ("C", 0.0, 0.0, 0.77),
    ("C", 0.0, 0.0, -0.77),
    ("H", 1.02, 0.0, 1.13),
    ("H", -0.51, 0.8834, 1.13),
    ("H", -0.51, -0.8834, 1.13),
    ("H", 0.51, 0.8834, -1.13),
    ("H", -1.02, 0.0, -1.13),
    ("H", 0.51, -0.8834, -1.13),
]
ETHANE_BONDS = [
    ("a1", "a2"),
    ("a1", "a3"),
    ("a1", "a4"),
    ("a1", "a5"),
    ("a2", "a6"),
    ("a2", "a7"),
    ("a2", "a8"),
]
HCCH = ["a3", "a1", "a2", "a6"]
KCAL = 627.509474


def ethane(**calculation: Any) -> dict[str, Any]:
    p = make_project(ETHANE, task="optimize", theory="scf", basis="sto-3g", **calculation)
    p["document"]["bonds"] = [{"a": a, "b": b, "order": 1} for a, b in ETHANE_BONDS]
    return p


def final_xyz(record: dict[str, Any]) -> list[np.ndarray]:
    res = read_results(str(record["_folder"] / "output.out"))
    final = [s for s in res.structures if s.label == "final"][-1]
    return [np.array(c) for c in final.coordinates]


def test_an_angle_and_a_distance_are_held_in_the_optimised_water(tmp_path: Path) -> None:
    project = make_project(
        WATER,
        task="optimize",
        basis="sto-3g",
        constraints=[
            {"atoms": ["a2", "a1", "a3"], "value": 120.0},
            {"atoms": ["a1", "a2"], "value": 1.1},
        ],
    )
    record = run(project, tmp_path / "jobs")
    assert record["status"] == "finished", record["error"]
    o, h1, h2 = final_xyz(record)
    assert geometry.angle(h1, o, h2) == pytest.approx(120.0, abs=1e-3)
    assert geometry.distance(o, h1) == pytest.approx(1.1, abs=1e-5)
    # The free O-H relaxed (SCF/STO-3G: 0.987 Å), so only the constrained one is 1.1.
    assert geometry.distance(o, h2) == pytest.approx(0.987, abs=0.01)
    # NWChem's own table marks both as constants ("*") at those values.
    assert re.search(r"\d+\*Bend\s+c1\s+2\s+1\s+3\s+120\.00000", record["_output"])
    assert re.search(r"\d+\*Stretch\s+c2\s+1\s+2\s+1\.10000", record["_output"])


def test_an_ethane_torsion_scan_matches_separate_constrained_optimisations(tmp_path: Path) -> None:
    record = run(
        ethane(scan={"atoms": HCCH, "start": 0.0, "end": 120.0, "steps": 4}),
        tmp_path / "scan",
        timeout=150,
    )
    assert record["status"] == "finished", record["error"]
    output = record["_output"]
    # The point after the planar (eclipsed) start is a whole geometry block; the others
    # adjust the previous point's structure.
    assert output.count("geometry adjust") >= 3
    res = read_results(str(record["_folder"] / "output.out"))
    profile = scan_profile(res)
    assert profile is not None and profile["coordinate"] == "dihedral"
    points = profile["points"]
    assert [p["target"] for p in points] == [0.0, 30.0, 60.0, 90.0, 120.0]
    assert all(p["converged"] for p in points)
    for p in points:
        assert p["value"] == pytest.approx(p["target"], abs=0.01)
    # NWChem's printed energies: the last SCF energy before each "Optimization converged".
    printed = []
    for chunk in output.split("Optimization converged")[:-1]:
        printed.append(float(re.findall(r"Total SCF energy =\s+(-?\d+\.\d+)", chunk)[-1]))
    assert [p["energy"] for p in points] == pytest.approx(printed, abs=1e-6)
    # The shape: staggered (60) lowest, the eclipsed ends equal, about 3 kcal/mol above.
    e = {p["target"]: p["energy"] for p in points}
    assert min(e, key=lambda t: e[t]) == 60.0
    assert (e[0.0] - e[120.0]) * KCAL == pytest.approx(0.0, abs=0.05)
    assert 2.5 < (e[0.0] - e[60.0]) * KCAL < 3.5
    assert (e[30.0] - e[90.0]) * KCAL == pytest.approx(0.0, abs=0.05)
    # Separate constrained optimisations at 0 and 60 degrees give the same energies.
    for value in (0.0, 60.0):
        single = run(
            ethane(constraints=[{"atoms": HCCH, "value": value}]), tmp_path / f"single{int(value)}"
        )
        assert single["status"] == "finished", single["error"]
        assert single["finalEnergy"] == pytest.approx(e[value], abs=2e-5)


def test_a_water_bond_scan_holds_each_distance_and_rises_away_from_the_minimum(
    tmp_path: Path,
) -> None:
    project = make_project(
        WATER,
        task="optimize",
        basis="sto-3g",
        scan={"atoms": ["a1", "a2"], "start": 0.9, "end": 1.2, "steps": 3},
    )
    record = run(project, tmp_path / "jobs")
    assert record["status"] == "finished", record["error"]
    profile = scan_profile(read_results(str(record["_folder"] / "output.out")))
    assert profile is not None and profile["coordinate"] == "distance"
    points = profile["points"]
    assert [p["value"] for p in points] == pytest.approx([0.9, 1.0, 1.1, 1.2], abs=1e-4)
    assert all(p["converged"] for p in points)
    # SCF/STO-3G O-H is 0.987 Å: 1.0 is the lowest point, the energy rising either side.
    e = [p["energy"] for p in points]
    assert e[1] == min(e) and e[0] > e[1] and e[3] > e[2] > e[1]
