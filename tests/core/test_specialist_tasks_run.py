"""Each new task kind run by the real NWChem (marked ``nwchem``): excited states (TDDFT and
CIS), COSMO solvation, a transition state and a DFT frequency step, with the values the
results reader gives compared with NWChem's own lines and, where it reads them, cclib."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import cclib
import pytest

from molforma.results.reader import read_results
from tests.core.test_jobs_nwchem import run
from tests.core.test_nwchem_input import WATER, make_project

pytestmark = [
    pytest.mark.nwchem,
    pytest.mark.skipif(shutil.which("nwchem") is None, reason="NWChem is not installed"),
]

# HCN -> HNC: the hydrogen half-way round the CN bond, bent start (angstrom).
HCN_BENT = [("C", 0.0, 0.0, 0.0), ("N", 1.18, 0.0, 0.0), ("H", 0.45, 1.1, 0.0)]


def _printed(output: str, pattern: str) -> list[str]:
    return re.findall(pattern, output, re.M)


def test_tddft_roots_and_transitions_match_nwchems_lines_and_cclib(tmp_path: Path) -> None:
    record = run(
        make_project(
            WATER,
            task="excited-states",
            theory="dft",
            basis="sto-3g",
            excited_roots=3,
            excited_spin="singlets",
        ),
        tmp_path,
    )
    assert record["status"] == "finished", record["error"]
    assert record["progress"]["excitedStates"] is True and record["progress"]["roots"] == 3
    out = record["_folder"] / "output.out"
    roots = read_results(str(out)).excitations
    printed = _printed(record["_output"], r"^\s*Root\s+\d+ singlet \S+\s+\S+ a\.u\.\s+(\S+) eV")
    assert len(printed) == 3  # eV printed to 4 decimals, from the hartree value
    assert [r.energyEv for r in roots] == pytest.approx([float(v) for v in printed], abs=1e-4)
    data = cclib.io.ccread(str(out))
    assert [r.energyEv for r in roots] == pytest.approx(list(data.etenergies / 8065.54), rel=1e-5)
    # cclib's strength is NWChem's total one (dipole + quadrupole + magnetic dipole).
    assert [r.totalOscillatorStrength for r in roots] == pytest.approx(list(data.etoscs), abs=1e-9)
    for root, secs in zip(roots, data.etsecs, strict=True):
        assert [(t.occupied - 1, t.virtual - 1, t.coefficient) for t in root.transitions] == [
            (o[0], v[0], c) for o, v, c in secs
        ]


def test_cis_on_an_scf_reference_runs_in_the_tddft_module(tmp_path: Path) -> None:
    record = run(
        make_project(
            WATER,
            task="excited-states",
            theory="scf",
            basis="sto-3g",
            excited_roots=2,
            excited_spin="both",
            excited_method="tda",
        ),
        tmp_path,
    )
    assert record["status"] == "finished", record["error"]
    roots = read_results(str(record["_folder"] / "output.out")).excitations
    # Both manifolds: 2 singlets then 2 triplets, the triplets spin-forbidden.
    assert [r.spin for r in roots] == ["singlet", "singlet", "triplet", "triplet"]
    assert all(r.spinForbidden for r in roots[2:])
    assert "Tamm-Dancoff" in record["_output"] or "CIS" in record["_output"]


def test_water_in_cosmo_water_gives_the_solvation_energy_nwchem_prints(tmp_path: Path) -> None:
    record = run(make_project(WATER, basis="sto-3g", solvent="water"), tmp_path / "sol")
    assert record["status"] == "finished", record["error"]
    gas = run(make_project(WATER, basis="sto-3g"), tmp_path / "gas")
    summary = read_results(str(record["_folder"] / "output.out")).summary
    printed = float(
        _printed(record["_output"], r"^\s*\(electrostatic\) solvation energy =\s*(\S+)")[-1]
    )
    assert "dielec:       78.4000" in record["_output"]
    assert summary.solvationEnergy == pytest.approx(-printed, abs=1e-10)
    # The solution energy lies below the gas-phase run's by the solvation energy.
    assert summary.finalEnergy - gas["finalEnergy"] == pytest.approx(
        summary.solvationEnergy, abs=1e-6
    )
    assert -0.01 < summary.solvationEnergy < -0.005


def test_a_bent_hcn_converges_to_the_isomerisation_transition_state(tmp_path: Path) -> None:
    record = run(make_project(HCN_BENT, task="transition-state", basis="sto-3g"), tmp_path)
    assert record["status"] == "finished", record["error"]
    results = read_results(str(record["_folder"] / "output.out"))
    s = results.summary
    assert s.optimizationConverged is True and s.saddlePoint is True
    assert s.significantImaginaryModes == 1
    imaginary = [m.frequency for m in results.modes if m.significant]
    printed = float(_printed(record["_output"], r"^ P\.Frequency\s+(-\d+\.\d+)")[-1])
    assert imaginary == [pytest.approx(printed, abs=0.01)] and printed < -1000
    assert not any(w.message.startswith("Not a transition state") for w in s.warnings)


def test_a_saddle_search_started_at_a_minimum_is_flagged(tmp_path: Path) -> None:
    # Started at the RHF/STO-3G minimum (optimised first), the saddle search has no gradient
    # to follow and stops at once; the frequencies show no imaginary mode.
    opt = run(make_project(WATER, task="optimize", basis="sto-3g"), tmp_path / "opt")
    final = read_results(str(opt["_folder"] / "output.out")).structures[-1]
    minimum = [(el, *xyz) for el, xyz in zip(final.symbols, final.coordinates, strict=True)]
    record = run(make_project(minimum, task="transition-state", basis="sto-3g"), tmp_path / "ts")
    assert record["status"] == "finished", record["error"]
    s = read_results(str(record["_folder"] / "output.out")).summary
    assert s.saddlePoint is False and s.significantImaginaryModes == 0
    assert any(w.message.startswith("Not a transition state") for w in s.warnings)


def test_a_dft_job_with_frequencies_runs_every_step_on_the_fine_grid_at_1e8(tmp_path: Path) -> None:
    record = run(
        make_project(WATER, task="optimize+frequencies", theory="dft", basis="sto-3g"),
        tmp_path / "tight",
    )
    assert record["status"] == "finished", record["error"]
    out = record["_output"]
    # The optimisation steps too, not only the Hessian NWChem tightens by itself.
    assert set(_printed(out, r"Grid used for XC integration:\s+(\S+)")) == {"fine"}
    assert set(_printed(out, r"Convergence on energy requested:\s+(\S+)")) == {"1.00D-08"}
    assert read_results(str(record["_folder"] / "output.out")).summary.modeCount == 9
    # An Advanced choice wins and the input no longer claims the default.
    project = make_project(WATER, task="frequencies", theory="dft", basis="sto-3g")
    project["advanced"]["dft_grid"] = "xfine"
    chosen = run(project, tmp_path / "xfine")
    assert set(_printed(chosen["_output"], r"Grid used for XC integration:\s+(\S+)")) == {"xfine"}
    assert "# frequencies: convergence energy 1e-08 for every step" in chosen["_output"]


def test_the_reaction_path_from_the_hcn_transition_state_ends_at_hcn_and_hnc(
    tmp_path: Path,
) -> None:
    from molforma.results.reader import list_result_files

    record = run(
        make_project(HCN_BENT, task="transition-state", basis="sto-3g", irc=True),
        tmp_path,
        timeout=180,
    )
    assert record["status"] == "finished", record["error"]
    assert record["_output"].count("IRC Optimization converged") == 2
    files = {e.name: e for e in list_result_files(str(record["_folder"]))}
    forward = read_results(files["molforma.fxyz"].path)
    backward = read_results(files["molforma.bxyz"].path)
    ts = forward.energies[0].energy
    assert backward.energies[0].energy == pytest.approx(ts, abs=1e-8)
    ends = sorted([forward.energies[-1].energy, backward.energies[-1].energy])
    # HCN (RHF/STO-3G -91.6752) lies below HNC (-91.6444); both below the barrier.
    assert ends == [pytest.approx(-91.6752, abs=1e-3), pytest.approx(-91.6444, abs=1e-3)]
    assert all(e < ts for e in ends)
    # The job's energy is the transition state's, not the end of the path printed last.
    summary = read_results(str(record["_folder"] / "output.out")).summary
    assert summary.finalEnergy == pytest.approx(ts, abs=1e-7)
    assert record["finalEnergy"] == pytest.approx(ts, abs=1e-7)
    assert summary.saddlePoint is True
