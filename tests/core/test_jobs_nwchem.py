"""The real NWChem run through JobManager on generated inputs (marked ``nwchem``).

Small molecules and tiny basis sets keep the whole file to a few seconds of
NWChem time, apart from the cancelled run, which is stopped after its first SCF.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from molforma.jobs.manager import JobManager
from molforma.jobs.runner import ERROR_NAME
from tests.core.test_jobs import on_disk, processes_in, wait_for
from tests.core.test_nwchem_input import OH, WATER, make_project

pytestmark = [
    pytest.mark.nwchem,
    pytest.mark.skipif(shutil.which("nwchem") is None, reason="NWChem is not installed"),
]

ETHANOL = [
    ("C", -0.0012, -0.0030, 0.0016),
    ("C", 1.5143, 0.0058, -0.0122),
    ("O", 1.9738, 1.3464, 0.0024),
    ("H", -0.3777, -1.0364, 0.0021),
    ("H", -0.3878, 0.5009, -0.8902),
    ("H", -0.3715, 0.5001, 0.9014),
    ("H", 1.8869, -0.5042, -0.9034),
    ("H", 1.8968, -0.4977, 0.8799),
    ("H", 2.9404, 1.3426, 0.0025),
]


def run(project: dict[str, Any], root: Path, timeout: float = 60) -> dict[str, Any]:
    """Run ``project`` with the real NWChem under ``root`` and return its record."""
    project["execution"]["job_root"] = str(root)
    job = JobManager().start(project)
    assert job.wait(timeout), "NWChem did not end in time"
    output = (job.folder / "output.out").read_text()
    assert "input error" not in output.lower()
    assert "unknown directive" not in output.lower()
    record = on_disk(job)
    record["_folder"] = job.folder
    record["_output"] = output
    return record


def test_water_optimisation_and_frequencies_finish_converged_with_live_progress(
    tmp_path: Path,
) -> None:
    seen: list[dict[str, Any]] = []
    manager = JobManager(on_change=lambda job: seen.append(job.snapshot()))
    project = make_project(WATER, task="optimize+frequencies", basis="6-31g*")
    project["execution"]["job_root"] = str(tmp_path)
    job = manager.start(project)
    assert job.wait(60)
    record = on_disk(job)
    assert record["status"] == "finished", record["error"]
    assert record["exitCode"] == 0
    assert record["scfConverged"] is True
    assert record["optimizationConverged"] is True
    energies = record["progress"]["energies"]
    assert len(energies) >= 2
    assert energies[-1] <= energies[0]
    assert record["finalEnergy"] == pytest.approx(energies[-1])
    output = (job.folder / "output.out").read_text()
    assert "Optimization converged" in output
    assert "P.Frequency" in output
    assert sorted(p.name for p in job.folder.glob("molforma-*.xyz"))[0] == "molforma-000.xyz"
    running = [len(s["progress"]["energies"]) for s in seen if s["status"] == "running"]
    assert running, "no progress was reported while NWChem ran"
    assert running == sorted(running)
    assert max(running) >= 1


CASES: dict[str, dict[str, Any]] = {
    "cation doublet uhf": {"atoms": WATER, "charge": 1, "multiplicity": 2},
    "cation doublet rohf": {"atoms": WATER, "charge": 1, "multiplicity": 2, "reference": "rohf"},
    "radical doublet uhf": {"atoms": OH, "multiplicity": 2},
    "radical doublet dft odft": {"atoms": OH, "multiplicity": 2, "theory": "dft"},
    "mp2 energy": {"atoms": WATER, "theory": "mp2"},
    "dft closed shell with options": {
        "atoms": WATER,
        "theory": "dft",
        "advanced": {"dft_grid": "coarse", "dispersion": "d3", "dft_iterations": 60},
    },
}


@pytest.mark.parametrize("name", list(CASES))
def test_generated_inputs_run_without_input_errors(name: str, tmp_path: Path) -> None:
    case = dict(CASES[name])
    advanced = case.pop("advanced", {})
    atoms = case.pop("atoms")
    project = make_project(
        atoms,
        basis="sto-3g",
        task="energy",
        **{k: case[k] for k in ("charge", "multiplicity") if k in case},
    )
    project["calculation"].update(
        {k: v for k, v in case.items() if k not in ("charge", "multiplicity")}
    )
    project["advanced"].update(advanced)
    record = run(project, tmp_path)
    assert record["status"] == "finished", record["error"]
    assert record["scfConverged"] is True
    assert record["optimizationConverged"] is None
    assert isinstance(record["finalEnergy"], float) and record["finalEnergy"] < -70
    if project["document"]["multiplicity"] == 2:
        assert "doublet" in record["_output"] or "multiplicity:     2" in record["_output"]


def test_cation_is_higher_in_energy_and_mp2_lower_than_scf(tmp_path: Path) -> None:
    neutral = run(make_project(WATER, basis="sto-3g"), tmp_path)["finalEnergy"]
    cation = run(make_project(WATER, basis="sto-3g", charge=1, multiplicity=2), tmp_path)[
        "finalEnergy"
    ]
    mp2 = run(make_project(WATER, basis="sto-3g", theory="mp2"), tmp_path)["finalEnergy"]
    assert cation > neutral
    assert mp2 < neutral


def test_fixed_atom_stays_in_place_during_a_real_optimisation(tmp_path: Path) -> None:
    project = make_project(WATER, basis="sto-3g", task="optimize")
    project["document"]["atoms"][0]["fixed"] = True
    project["document"]["atoms"][0]["z"] = 0.3
    record = run(project, tmp_path)
    assert record["status"] == "finished", record["error"]
    assert record["optimizationConverged"] is True
    steps = sorted(record["_folder"].glob("molforma-*.xyz"))
    assert len(steps) >= 2
    first = steps[0].read_text().splitlines()[2].split()
    last = steps[-1].read_text().splitlines()[2].split()
    assert first[0] == last[0] == "O"
    assert [float(v) for v in last[1:]] == pytest.approx([float(v) for v in first[1:]], abs=1e-5)
    hydrogen_first = [float(v) for v in steps[0].read_text().splitlines()[3].split()[1:]]
    hydrogen_last = [float(v) for v in steps[-1].read_text().splitlines()[3].split()[1:]]
    assert hydrogen_first != pytest.approx(hydrogen_last, abs=1e-3)


def test_mp2_numerical_frequencies_run(tmp_path: Path) -> None:
    record = run(make_project(WATER, basis="sto-3g", theory="mp2", task="frequencies"), tmp_path)
    assert record["status"] == "finished", record["error"]
    assert "P.Frequency" in record["_output"]


def _pgrep(pattern: str) -> list[str]:
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True, check=False)
    return found.stdout.split()


@pytest.mark.parametrize("processes", [1, 2])
def test_cancelled_real_run_leaves_no_nwchem_or_mpirun_behind(
    processes: int, tmp_path: Path
) -> None:
    project = make_project(ETHANOL, basis="6-31g*", task="optimize+frequencies")
    project["execution"].update(job_root=str(tmp_path), processes=processes)
    manager = JobManager()
    job = manager.start(project)
    assert wait_for(lambda: job.snapshot()["progress"]["energy"] is not None, timeout=30), (
        job.output_tail(2000) + (job.folder / "error.err").read_text()
    )
    assert job.status == "running"
    assert processes_in(job.folder), "NWChem should be running in the job folder"
    started = time.monotonic()
    job.cancel()
    assert job.wait(15)
    assert time.monotonic() - started < 10
    record = on_disk(job)
    assert record["status"] == "cancelled"
    assert record["optimizationConverged"] is False
    assert processes_in(job.folder) == []
    assert _pgrep(str(job.folder)) == []


def test_real_optimiser_out_of_steps_is_failed_and_not_converged(tmp_path: Path) -> None:
    project = make_project(WATER, basis="sto-3g", task="optimize")
    project["document"]["atoms"][1]["y"] = 1.2
    project["advanced"]["opt_maxiter"] = 2
    record = run(project, tmp_path)
    assert record["status"] == "failed"
    assert record["exitCode"] != 0
    assert record["optimizationConverged"] is False
    assert record["scfConverged"] is True
    assert "optimize failed" in record["error"]
    assert len(record["progress"]["energies"]) >= 2


def test_real_scf_that_cannot_converge_is_reported(tmp_path: Path) -> None:
    project = make_project(WATER, basis="6-31g*")
    project["advanced"]["scf_maxiter"] = 2
    record = run(project, tmp_path)
    assert record["status"] == "failed"
    assert record["scfConverged"] is False
    assert record["error"] == "scf energy failed"


def test_frequency_animation_memory_and_work_directories_reach_the_real_run(
    tmp_path: Path,
) -> None:
    project = make_project(WATER, basis="sto-3g", task="frequencies")
    scratch = tmp_path / "scratch" / "deep"
    scratch.mkdir(parents=True)  # an absolute scratch folder must exist (it is never made)
    project["advanced"].update(
        freq_animate=True,
        memory_mb=300,
        scratch_dir=str(scratch),
        permanent_dir="perm",
        print_level="low",
    )
    record = run(project, tmp_path / "jobs")
    assert record["status"] == "finished", record["error"]
    folder = record["_folder"]
    assert scratch.is_dir()
    assert (folder / "perm" / "molforma.db").exists()
    assert "memory total 300 mb" in record["_output"]
    animations = list(folder.rglob("freq.m-*.s-*.xyz"))
    assert animations, sorted(p.name for p in folder.rglob("*"))


def test_two_processes_run_through_mpirun_and_finish(tmp_path: Path) -> None:
    project = make_project(WATER, basis="sto-3g", task="energy")
    project["execution"]["processes"] = 2
    record = run(project, tmp_path)
    assert record["status"] == "finished", record["error"]
    assert record["command"][1:3] == ["-np", "2"]
    assert record["scfConverged"] is True
    # Without the progress thread asked for, no rank warns that it had to disable it.
    assert "progress thread" not in (record["_folder"] / ERROR_NAME).read_text()
    assert re.search(r"^\s*nproc\s*=\s*2\s*$", record["_output"], re.M)
    assert processes_in(record["_folder"]) == []


def test_an_ecp_basis_set_and_a_catalogue_functional_name_run_for_real(tmp_path: Path) -> None:
    from molforma.nwchem.input import render_input

    hi = make_project(
        [("H", 0.0, 0.0, 0.0), ("I", 0.0, 0.0, 1.61)],
        theory="dft",
        functional="tpss",
        basis="def2-svp",
        task="energy",
    )
    text = render_input(hi)
    assert "ecp\n  I library def2-ecp\nend" in text
    assert "H library def2-ecp" not in text
    assert "xc xtpss03 ctpss03" in text
    record = run(hi, tmp_path)
    assert record["status"] == "finished", record
    assert record["scfConverged"] is True
    assert record["finalEnergy"] < -11
