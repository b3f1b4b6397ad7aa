"""MOLDEN, XYZ and animation readers, folder listing and the open_directory rule."""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from molforma.errors import ResultsError
from molforma.results import list_result_files, read_results
from molforma.results.formats import BOHR_TO_ANGSTROM
from molforma.results.results_model import make_mode
from tests.paths import NWCHEM_DATA

FIXTURES = NWCHEM_DATA
ANIM = FIXTURES / "nh3_planar_scf_freq_anim"

# A hand-written MOLDEN file: [Atoms] in bohr, one imaginary and two real modes,
# plus an optimisation history ([GEOCONV] energies and [GEOMETRIES] XYZ frames).
MOLDEN_TEXT = """[Molden Format]
[Atoms] AU
O     1    8     0.000000     0.000000     0.221664
H     2    1     0.000000     1.430900    -0.886657
H     3    1     0.000000    -1.430900    -0.886657
[FREQ]
  -123.45
  1650.00
  3800.50
[FR-COORD]
O     0.000000     0.000000     0.221664
H     0.000000     1.430900    -0.886657
H     0.000000    -1.430900    -0.886657
[FR-NORM-COORD]
vibration     1
  0.10  0.00  0.00
 -0.50  0.00  0.00
 -0.50  0.00  0.00
vibration     2
  0.00  0.00  0.07
  0.00  0.42 -0.55
  0.00 -0.42 -0.55
vibration     3
  0.00  0.05  0.00
  0.00 -0.58  0.40
  0.00 -0.58 -0.40
[INT]
  12.5
  80.25
  20.0
[GEOCONV]
energy
  -76.0100
  -76.0107
[GEOMETRIES] XYZ
3
step 0
O 0.0 0.0 0.1173
H 0.0 0.7572 -0.4692
H 0.0 -0.7572 -0.4692
3
step 1
O 0.0 0.0 0.1086
H 0.0 0.7541 -0.4648
H 0.0 -0.7541 -0.4648
"""


def test_handwritten_molden_reads_modes_flags_ir_and_converts_bohr(tmp_path: Path) -> None:
    f = tmp_path / "water.molden"
    f.write_text(MOLDEN_TEXT)
    res = read_results(str(f))
    assert res.kind == "molden"
    assert [m.frequency for m in res.modes] == [-123.45, 1650.0, 3800.5]
    assert [m.irIntensity for m in res.modes] == [12.5, 80.25, 20.0]
    assert [(m.imaginary, m.significant) for m in res.modes] == [
        (True, True),
        (False, False),
        (False, False),
    ]
    assert res.summary.imaginaryModes == 1
    ref = res.reference_structure()
    assert ref is not None and ref.label == "reference"
    assert ref.coordinates[1][1] == pytest.approx(1.4309 * BOHR_TO_ANGSTROM)
    atoms = res.structures[0]
    assert atoms.label == "atoms"
    assert atoms.coordinates[0][2] == pytest.approx(0.221664 * BOHR_TO_ANGSTROM)
    assert res.displacements(1)[1] == pytest.approx([0.0, 0.42, -0.55])
    steps = [s for s in res.structures if s.label.startswith("step")]
    assert [s.energy for s in steps] == [-76.0100, -76.0107]
    assert [e.energy for e in res.energies] == [-76.0100, -76.0107]
    assert res.summary.finalEnergy == -76.0107


def test_molden_atoms_unit_in_parentheses_is_understood(tmp_path: Path) -> None:
    f = tmp_path / "w.molden"
    f.write_text(MOLDEN_TEXT.replace("[Atoms] AU", "[ATOMS] (AU)"))
    res = read_results(str(f))
    assert res.structures[0].coordinates[0][2] == pytest.approx(0.221664 * BOHR_TO_ANGSTROM)


def test_molden_in_angstrom_keeps_its_coordinates() -> None:
    res = read_results(str(FIXTURES / "nh3_planar_scf_freq_vib.molden"))
    assert res.structures[0].coordinates[1] == pytest.approx([1.0, 0.0, 0.0])
    # [FR-COORD] is in bohr even when [Atoms] is in Angstrom.
    assert res.reference_structure().coordinates[1] == pytest.approx([1.0, 0.0, 0.0], abs=1e-6)
    assert res.modes[0].frequency == pytest.approx(-880.419)
    assert res.modes[0].significant
    assert res.summary.modeCount == 6


def test_orbital_only_molden_from_nwchem_gives_the_structure_and_no_modes() -> None:
    res = read_results(str(FIXTURES / "methane_b3lyp_molden.molden"))
    assert res.structures[0].symbols == ["C", "H", "H", "H", "H"]
    assert res.structures[0].coordinates[1][0] == pytest.approx(1.1888606345 * BOHR_TO_ANGSTROM)
    assert res.modes == []


def test_molden_written_by_cclib_matches_the_cclib_data_it_came_from(tmp_path: Path) -> None:
    cclib = pytest.importorskip("cclib")
    data = cclib.io.ccread(str(FIXTURES / "nh3_planar_scf_freq.out"))
    out = tmp_path / "nh3.molden"
    cclib.io.ccwrite(data, outputtype="molden", outputdest=str(out))
    # cclib has no MOLDEN reader (ccread returns None), so the check is against the source data.
    res = read_results(str(out))
    assert np.allclose([m.frequency for m in res.modes], data.vibfreqs)
    assert np.allclose([m.irIntensity for m in res.modes], data.vibirs)
    disp = np.array([res.displacements(i) for i in range(len(res.modes))])
    assert np.allclose(disp, data.vibdisps, atol=1e-6)
    assert np.allclose(res.reference_structure().coordinates, data.atomcoords[-1], atol=1e-5)
    assert res.summary.imaginaryModes == 1
    assert res.summary.significantImaginaryModes == 1


def test_multi_frame_xyz_gives_one_structure_per_frame(tmp_path: Path) -> None:
    f = tmp_path / "traj.xyz"
    f.write_text("2\nenergy= -1.5\nH 0 0 0\nH 0 0 0.74\n2\nsecond\nH 0 0 0\nH 0 0 0.80\n")
    res = read_results(str(f))
    assert res.kind == "xyz"
    assert [s.label for s in res.structures] == ["frame 0", "frame 1"]
    assert res.structures[0].energy == -1.5
    assert res.structures[1].coordinates[1] == [0.0, 0.0, 0.8]


def test_single_xyz_from_the_nwchem_driver_is_read() -> None:
    res = read_results(str(FIXTURES / "water_opt-000.xyz"))
    assert res.structures[0].symbols == ["O", "H", "H"]
    assert res.structures[0].comment == "geometry"
    assert res.summary.formula == "H2O"


def test_broken_xyz_names_the_bad_line(tmp_path: Path) -> None:
    f = tmp_path / "bad.xyz"
    f.write_text("2\ncomment\nH 0 0 0\nH 0 zero 0\n")
    with pytest.raises(ResultsError) as err:
        read_results(str(f))
    assert err.value.code == "results_bad_file"
    assert err.value.data["line"] == 4


def test_animation_steps_are_grouped_by_mode_in_the_files_list() -> None:
    files = list_result_files(ANIM)
    anims = [f for f in files if f.kind == "vibration-animation"]
    assert [(f.mode, f.steps) for f in anims] == [(1, 20), (10, 20)]
    assert anims[0].name == "freq.m-001.s-*.xyz"
    assert not any(".s-0" in f.name for f in files)  # no single step file listed
    assert [f.name for f in files if f.kind == "xyz"] == ["freq.m-001.xyz", "freq.m-010.xyz"]


@pytest.mark.parametrize("which", ["key", "step"])
def test_opening_an_animation_gives_its_steps_in_order(which: str) -> None:
    path = ANIM / ("freq.m-010.s-*.xyz" if which == "key" else "freq.m-010.s-007.xyz")
    res = read_results(str(path))
    assert res.kind == "animation"
    assert res.source == str(path)
    assert res.summary.animationMode == 10
    assert len(res.structures) == 20
    assert [s.step for s in res.structures] == list(range(1, 21))
    assert res.structures[6].comment == "freq.m-010.s-007.xyz"
    frames = read_results(str(ANIM / "freq.m-010.xyz")).structures
    for a, b in zip(res.structures, frames, strict=True):
        assert a.coordinates == b.coordinates


def test_a_folder_with_only_xyz_files_opens(tmp_path: Path) -> None:
    for i in range(3):
        shutil.copy(FIXTURES / f"water_opt-00{i}.xyz", tmp_path / f"water_opt-00{i}.xyz")
    res = read_results(str(tmp_path))
    assert res.kind == "xyz"
    assert res.source == str(tmp_path)
    assert res.resolvedPath == str(tmp_path / "water_opt-000.xyz")
    assert res.summary.fileCount == 3


def test_a_folder_opens_output_out_first(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "water_opt-000.xyz", tmp_path / "a.xyz")
    shutil.copy(FIXTURES / "nh3_planar_scf_freq_vib.molden", tmp_path / "a.molden")
    shutil.copy(FIXTURES / "bad_basis.out", tmp_path / "aaa.out")
    shutil.copy(FIXTURES / "water_scf_optfreq.out", tmp_path / "output.out")
    (tmp_path / "notes.out").write_text("not an NWChem output\n")
    res = read_results(str(tmp_path))
    assert res.resolvedPath == str(tmp_path / "output.out")
    assert res.logPath == str(tmp_path / "output.out")
    assert [f.name for f in res.files] == ["output.out", "aaa.out", "a.molden", "a.xyz"]
    (tmp_path / "output.out").unlink()
    res = read_results(str(tmp_path))
    assert res.resolvedPath == str(tmp_path / "aaa.out")


def test_an_empty_folder_and_a_missing_path_fail_with_codes(tmp_path: Path) -> None:
    with pytest.raises(ResultsError) as err:
        read_results(str(tmp_path))
    assert err.value.code == "results_no_result_files"
    with pytest.raises(ResultsError) as err:
        read_results(str(tmp_path / "nope.out"))
    assert err.value.code == "results_not_found"
    with pytest.raises(ResultsError) as err:
        read_results(str(tmp_path / "nope.m-001.s-*.xyz"))
    assert err.value.code == "results_no_animation_steps"


def test_binary_or_unknown_files_are_refused(tmp_path: Path) -> None:
    f = tmp_path / "job.db"
    f.write_bytes(b"\0\1\2binary")
    with pytest.raises(ResultsError) as err:
        read_results(str(f))
    assert err.value.code == "results_unknown_format"


def test_a_file_over_128_mib_is_refused_before_reading(tmp_path: Path) -> None:
    f = tmp_path / "huge.out"
    with f.open("wb") as fh:  # sparse: no real disk use
        fh.truncate(128 * 1024 * 1024 + 1)
    with pytest.raises(ResultsError) as err:
        read_results(str(f))
    assert err.value.code == "results_file_too_large"
    assert err.value.data["limit"] == 128 * 1024 * 1024


def test_xyz_limits_on_atoms_structures_and_trajectory_atoms(tmp_path: Path) -> None:
    big = tmp_path / "big.xyz"
    big.write_text("2001\nx\n" + "H 0 0 0\n" * 2001)
    with pytest.raises(ResultsError) as err:
        read_results(str(big))
    assert err.value.code == "results_too_many_atoms"
    many = tmp_path / "many.xyz"
    many.write_text("1\nx\nH 0 0 0\n" * 2001)
    with pytest.raises(ResultsError) as err:
        read_results(str(many))
    assert err.value.code == "results_too_many_structures"
    frame = "1999\nx\n" + "H 0 0 0\n" * 1999
    traj = tmp_path / "traj.xyz"
    traj.write_text(frame * 101)  # 201,899 atoms over 101 frames
    with pytest.raises(ResultsError) as err:
        read_results(str(traj))
    assert err.value.code == "results_trajectory_too_large"
    traj.write_text(frame * 100)  # 199,900 atoms: within the limit
    assert len(read_results(str(traj)).structures) == 100


def test_source_is_the_path_as_given_even_when_relative(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(FIXTURES / "water_opt-000.xyz", tmp_path / "w.xyz")
    monkeypatch.chdir(tmp_path)
    res = read_results("w.xyz")
    assert res.source == "w.xyz"
    assert os.path.basename(res.resolvedPath) == "w.xyz"


def test_a_zero_frequency_printed_with_a_minus_sign_has_no_sign_in_the_json() -> None:
    res = read_results(str(FIXTURES / "nh3_planar_scf_freq.out"))
    zeros = [m for m in res.modes if m.frequency == 0.0]
    assert len(zeros) == 6  # NWChem prints four of them as -0.00
    assert all(math.copysign(1.0, m.frequency) == 1.0 for m in zeros)
    mode = make_mode(3, -0.0, 0.0, True)
    assert math.copysign(1.0, mode.frequency) == 1.0
    assert '"frequency":0.0' in mode.model_dump_json()
    assert mode.imaginary is False and mode.significant is False
    assert make_mode(0, -880.42, 1.0, True).frequency == -880.42


def test_result_file_kind_recognises_outputs_and_molden_files_by_their_content(
    tmp_path: Path,
) -> None:
    from molforma.results.reader import result_file_kind

    assert result_file_kind(FIXTURES / "water_scf_optfreq.out") == "nwchem-output"
    assert result_file_kind(FIXTURES / "nh3_planar_scf_freq.molden") == "molden"
    assert result_file_kind(FIXTURES / "water_scf_optfreq.nw") is None
    renamed = tmp_path / "anything.txt"
    renamed.write_bytes((FIXTURES / "water_scf_optfreq.out").read_bytes()[:20000])
    assert result_file_kind(renamed) == "nwchem-output"
    assert result_file_kind(tmp_path / "missing.out") is None


def test_a_carbon_compound_without_hydrogen_gets_its_formula() -> None:
    from molforma.results.results_model import formula_of

    assert formula_of(["C", "O", "O"]) == "CO2"  # used to fail: H was assumed beside C
    assert formula_of(["O", "C", "H", "H", "H", "H"]) == "CH4O"
