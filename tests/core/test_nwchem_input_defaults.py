"""Input defaults an expert would write: spherical basis sets, frozen-core MP2, symmetry
where it is safe, refusals NWChem would make later, and the launcher's environment."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from molforma.document.chemistry import validate
from molforma.errors import ValidationError
from molforma.formats.mdl import read_mol
from molforma.formats.nwchem_input import read_nwchem
from molforma.jobs.runner import build_command, build_environment
from molforma.nwchem.input import input_errors, render_input
from molforma.nwchem.settings import ExecutionSettings
from tests.core.test_nwchem_input import WATER, block, make_project, tasks
from tests.paths import DATA


def geometry_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("geometry"))


def basis_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.split()[:1] == ["basis"])


@pytest.mark.parametrize(
    "basis", ["cc-pvdz", "aug-cc-pvtz", "def2-svp", "def2-tzvp", "cc-pcvdz", "pcseg-1"]
)
def test_basis_sets_defined_with_pure_functions_run_spherical(basis: str) -> None:
    assert basis_line(render_input(make_project(WATER, basis=basis))) == "basis spherical"


@pytest.mark.parametrize("basis", ["sto-3g", "6-31g*", "6-311++g**", "3-21g"])
def test_pople_basis_sets_stay_cartesian(basis: str) -> None:
    assert basis_line(render_input(make_project(WATER, basis=basis))) == "basis"


def test_the_basis_function_type_can_be_set_either_way() -> None:
    p = make_project(WATER, basis="6-31g*")
    p["advanced"]["basis_spherical"] = True
    assert basis_line(render_input(p)) == "basis spherical"
    p = make_project(WATER, basis="cc-pvdz")
    p["advanced"]["basis_spherical"] = False
    assert basis_line(render_input(p)) == "basis"


def test_mp2_freezes_the_core_by_default_and_can_correlate_every_electron() -> None:
    p = make_project(WATER, theory="mp2", basis="cc-pvdz")
    assert block(render_input(p), "mp2") == ["freeze atomic"]
    p["advanced"]["mp2_frozen_core"] = False
    assert "mp2" not in render_input(p).splitlines()
    # SCF and DFT inputs get no mp2 block at all.
    assert "mp2" not in render_input(make_project(WATER, theory="dft")).splitlines()


def test_symmetry_and_internal_coordinates_are_used_without_fixed_atoms() -> None:
    for task in ("energy", "optimize", "frequencies", "optimize+frequencies"):
        assert geometry_line(render_input(make_project(WATER, task=task))) == (
            "geometry units angstrom"
        )


def test_fixed_atoms_turn_symmetry_off_and_keep_cartesian_coordinates() -> None:
    p = make_project(WATER, task="optimize")
    p["document"]["atoms"][0]["fixed"] = True
    assert geometry_line(render_input(p)) == "geometry units angstrom noautosym noautoz nocenter"


def test_explicit_geometry_options_win_over_the_automatic_choice() -> None:
    p = make_project(WATER)
    p["advanced"].update(noautosym=True, nocenter=True)
    assert geometry_line(render_input(p)) == "geometry units angstrom noautosym noautoz nocenter"
    p["advanced"].update(noautosym=True, nocenter=None)
    assert geometry_line(render_input(p)) == "geometry units angstrom noautosym"


def test_fixed_atoms_with_internal_coordinates_asked_for_are_refused_before_running() -> None:
    p = make_project(WATER, task="optimize")
    p["document"]["atoms"][1]["fixed"] = True
    p["advanced"]["nocenter"] = False
    with pytest.raises(ValidationError) as err:
        render_input(p)
    assert err.value.code == "fixed_atoms_internal_coordinates"
    problems = input_errors(p)
    assert [(x["field"], x["code"]) for x in problems] == [
        ("advanced.nocenter", "fixed_atoms_internal_coordinates")
    ]
    assert "Cartesian" in problems[0]["message"]


def test_nwchem_input_files_keep_their_basis_type_and_frozen_core_choice() -> None:
    text = """start x
geometry units angstrom
  O 0 0 0.1173
  H 0 0.7572 -0.4692
  H 0 -0.7572 -0.4692
end
basis cartesian
  * library cc-pvdz
end
task mp2 energy
"""
    structure: Any = read_nwchem(text)
    assert structure.advanced["basis_spherical"] is False
    assert structure.advanced["mp2_frozen_core"] is False  # NWChem's default: all electrons
    assert "noautosym" not in structure.advanced  # absent option: automatic
    frozen = text.replace("basis cartesian", "basis spherical").replace(
        "task mp2", "mp2\n  freeze atomic\nend\ntask mp2"
    )
    structure = read_nwchem(frozen)
    assert structure.advanced["basis_spherical"] is True
    assert structure.advanced["mp2_frozen_core"] is True


def test_several_mpi_processes_do_not_ask_for_the_armci_progress_thread() -> None:
    # This NWChem build has no MPI_THREAD_MULTIPLE: the progress thread only prints
    # "progress thread disabled" on every rank, so it is the person's choice to set.
    execution = ExecutionSettings(processes=2, launcher="mpirun --allow-run-as-root")
    assert "ARMCI_PROGRESS_THREAD=1" not in build_command(execution, "input.nw")
    assert "ARMCI_PROGRESS_THREAD" not in build_environment(execution)
    chosen = ExecutionSettings(processes=2, environment={"ARMCI_PROGRESS_THREAD": "1"})
    assert build_environment(chosen)["ARMCI_PROGRESS_THREAD"] == "1"


def test_a_mol_radical_sets_the_multiplicity_so_the_input_is_a_uhf_doublet(tmp_path: Path) -> None:
    out = tmp_path / "ch3.nw"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "molforma",
            "convert",
            str(DATA / "formats" / "methyl_radical.mol"),
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert block(text, "scf") == ["uhf", "doublet"]
    structure = read_mol((DATA / "formats" / "methyl_radical.mol").read_text())
    assert structure.multiplicity == 2
    assert read_mol(structure_without_radical()).multiplicity is None


def structure_without_radical() -> str:
    text = (DATA / "formats" / "methyl_radical.mol").read_text()
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("M  RAD"))


def test_validate_reminds_that_frequencies_need_a_geometry_optimised_with_that_method() -> None:
    p = make_project(WATER, task="frequencies", theory="dft", functional="b3lyp", basis="6-31g*")
    found = [c for c in validate(p)["checks"] if c["code"] == "frequencies_need_optimized_geometry"]
    assert len(found) == 1
    assert found[0]["severity"] == "warning"
    assert "b3lyp/6-31g*" in found[0]["message"]
    both = make_project(WATER, task="optimize+frequencies")
    assert all(c["code"] != "frequencies_need_optimized_geometry" for c in validate(both)["checks"])


def test_validate_refuses_fixed_atoms_with_internal_coordinates_asked_for() -> None:
    p = make_project(WATER, task="optimize")
    p["document"]["atoms"][0]["fixed"] = True
    p["advanced"]["nocenter"] = False
    report = validate(p)
    assert report["ok"] is False
    assert [
        c["atoms"] for c in report["checks"] if c["code"] == "fixed_atoms_internal_coordinates"
    ] == [["a1"]]


def test_the_molden_option_writes_a_moldenfile_property_task() -> None:
    p = make_project(WATER, theory="mp2")
    p["advanced"]["molden_file"] = True
    text = render_input(p)
    assert block(text, "property") == ["moldenfile", "molden_norm janpa"]
    assert tasks(text)[-1] == "task scf property"  # MP2: the SCF orbitals
