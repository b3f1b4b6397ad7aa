"""NWChem output parser: regex examples, real outputs, cclib cross-checks, limits."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from molforma.errors import ResultsError
from molforma.nwchem.parser import parse_nwchem_output
from molforma.results.limits import Limits
from tests.paths import NWCHEM_DATA

FIXTURES = NWCHEM_DATA
DATA = Path(__file__).resolve().parents[1] / "data" / "results"


def _read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8", errors="replace")


def _parse(name: str):
    return parse_nwchem_output(_read(name), source=str(FIXTURES / name))


def test_water_optimisation_steps_energies_and_convergence_are_read() -> None:
    res = _parse("water_scf_optfreq.out")
    steps = [e for e in res.energies if e.kind == "optimization"]
    assert [e.step for e in steps] == [0, 1, 2, 3]
    assert [e.energy for e in steps] == pytest.approx(
        [-76.01050499, -76.01073828, -76.01074651, -76.01074651], abs=1e-8
    )
    assert steps[1].gmax == pytest.approx(0.00094)
    assert steps[1].deltaE == pytest.approx(-2.3e-4)
    assert steps[-1].criteriaMet == 4
    assert steps[0].criteriaMet == 0
    scf = [e for e in res.energies if e.kind == "scf"]
    assert len(scf) == 8  # 7 in the optimisation (line searches included) + 1 in freq
    assert all(e.label == "Total SCF energy" for e in scf)
    s = res.summary
    assert s.optimizationConverged is True
    assert s.scfConverged is True
    assert s.completed is True
    assert s.optimizationSteps == 4
    assert s.zeroPointEnergy == pytest.approx(0.022966)
    assert s.finalEnergy == pytest.approx(-76.010746508431)


def test_water_geometries_come_from_every_output_coordinates_block() -> None:
    res = _parse("water_scf_optfreq.out")
    assert [st.label for st in res.structures] == [
        "input",
        "step 0",
        "step 1",
        "step 2",
        "step 3",
        "final",
    ]
    assert res.structures[0].symbols == ["O", "H", "H"]
    assert res.structures[0].coordinates[1] == pytest.approx([-0.7572, 0.0, -0.4692])
    final = res.structures[-1]
    assert final.coordinates[0] == pytest.approx([0.0, 0.0, 0.10857197])
    assert final.energy == pytest.approx(-76.01074651)
    step1 = [e for e in res.energies if e.kind == "optimization"][1]
    assert res.structures[step1.structureIndex].label == "step 1"


def test_water_projected_frequencies_ir_and_displacements_are_read() -> None:
    res = _parse("water_scf_optfreq.out")
    freqs = [m.frequency for m in res.modes]
    assert freqs[6:] == pytest.approx([1826.55, 4070.46, 4188.71])
    assert [m.irIntensity for m in res.modes[6:]] == pytest.approx([107.267, 18.208, 58.109])
    assert all(m.hasDisplacements for m in res.modes)
    assert res.summary.imaginaryModes == 0
    d = res.displacements(8)
    assert d is not None
    assert d[0] == pytest.approx([0.06799, 0.0, 0.0])
    assert d[2] == pytest.approx([-0.53954, 0.0, 0.41028])
    assert res.reference_structure() is res.structures[-1]


def test_nh3_saddle_point_has_one_significant_imaginary_mode() -> None:
    res = _parse("nh3_planar_scf_freq.out")
    m0 = res.modes[0]
    assert m0.frequency == pytest.approx(-880.42)
    assert m0.imaginary and m0.significant
    assert m0.irIntensity == pytest.approx(621.839)
    assert [m.frequency for m in res.modes[7:]] == pytest.approx(
        [1757.73, 1757.74, 3698.21, 3904.87, 3904.87]
    )
    assert res.summary.imaginaryModes == 1
    assert res.summary.significantImaginaryModes == 1
    assert res.summary.modeCount == 12
    assert res.summary.optimizationConverged is None


def test_small_negative_frequency_is_imaginary_but_not_significant() -> None:
    text = _read("nh3_planar_scf_freq.out").replace(
        "P.Frequency     -880.42", "P.Frequency       -5.42", 1
    )
    res = parse_nwchem_output(text)
    assert res.modes[0].imaginary is True
    assert res.modes[0].significant is False
    assert res.summary.imaginaryModes == 1
    assert res.summary.significantImaginaryModes == 0


def test_dft_total_energies_are_labelled_and_the_td_output_that_breaks_cclib_is_read() -> None:
    res = _parse("methane_b3lyp_molden.out")
    dft = [e.energy for e in res.energies if e.kind == "dft"]
    assert dft == pytest.approx([-40.518351921010, -40.518350344709])
    assert res.summary.energiesByKind == {"dft": pytest.approx(-40.518350344709)}
    td = _parse("methane_b3lyp_td_autosym.out")
    assert [e.energy for e in td.energies] == pytest.approx([-40.518351920078])
    assert td.structures[-1].symbols.count("H") == 4
    assert td.summary.formula == "CH4"


def test_bad_basis_errors_are_captured_with_their_input_line() -> None:
    res = _parse("bad_basis.out")
    msgs = [e.message for e in res.summary.errors]
    assert "bas_tag_lib: failed opening basis file" in msgs
    assert "There is an error in the specified basis set" in msgs
    assert res.summary.errors[0].inputLine == "task scf energy"
    lines = _read("bad_basis.out").splitlines()
    assert "bas_tag_lib" in lines[res.summary.errors[0].line - 1]
    assert res.summary.completed is False
    assert res.summary.finalEnergy is None


def test_unconverged_scf_is_reported_as_not_converged() -> None:
    res = _parse("scf_not_converged.out")
    assert res.summary.scfConverged is False
    assert any("failed to converge" in w.message for w in res.summary.warnings)
    assert "scf energy failed" in [e.message for e in res.summary.errors]


def test_mp2_totals_and_a_failed_optimisation_are_read() -> None:
    text = (DATA / "water_mp2_opt_maxiter.out").read_text()
    res = parse_nwchem_output(text)
    mp2 = [e for e in res.energies if e.kind == "mp2"]
    assert mp2[0].energy == pytest.approx(-76.199026586471)
    assert mp2[-1].label == "Total MP2 energy"
    assert res.summary.energiesByKind["mp2"] == pytest.approx(-76.199244162448)
    assert "scf" in res.summary.energiesByKind  # the SCF reference is a separate entry
    assert res.summary.optimizationConverged is False
    assert res.summary.optimizationSteps == 3
    assert "mp2 optimize failed" in [e.message for e in res.summary.errors]


def test_two_optimisations_in_one_output_are_numbered_separately() -> None:
    text = _read("water_scf_optfreq.out")
    res = parse_nwchem_output(text + text)
    runs = {e.optimization for e in res.energies if e.kind == "optimization"}
    assert runs == {0, 1}
    assert res.summary.optimizationSteps == 8


def test_text_that_is_not_an_nwchem_output_is_refused() -> None:
    with pytest.raises(ResultsError) as err:
        parse_nwchem_output("hello\nworld\n", source="x.out")
    assert err.value.code == "results_unknown_format"


def test_a_structure_over_the_atom_limit_fails_clearly() -> None:
    head = _read("water_scf_optfreq.out")[:4000]
    rows = "".join(
        f"  {i:4d} H                    1.0000     {i * 1.0:.8f}     0.00000000     0.00000000\n"
        for i in range(1, 2002)
    )
    block = (
        "\n Output coordinates in angstroms (scale by  1.889725989 to convert to a.u.)\n\n"
        "  No.       Tag          Charge          X              Y              Z\n"
        " ---- ---------------- ---------- -------------- -------------- --------------\n"
        + rows
        + "\n"
    )
    with pytest.raises(ResultsError) as err:
        parse_nwchem_output(head + block)
    assert err.value.code == "results_too_many_atoms"
    assert err.value.data["limit"] == 2000


def test_too_many_structures_and_too_many_trajectory_atoms_fail() -> None:
    text = _read("water_scf_optfreq.out")
    with pytest.raises(ResultsError) as err:
        parse_nwchem_output(text, limits=Limits(max_structures=5))
    assert err.value.code == "results_too_many_structures"
    with pytest.raises(ResultsError) as err:
        parse_nwchem_output(text, limits=Limits(max_trajectory_atoms=10))
    assert err.value.code == "results_trajectory_too_large"


class _CancelAfter(threading.Event):
    """An event that reports itself set after ``n`` checks (a cancel mid-parse)."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def is_set(self) -> bool:
        self.n -= 1
        return self.n < 0


def test_cancelling_stops_the_parse_midway() -> None:
    text = _read("water_scf_optfreq.out") * 20
    with pytest.raises(ResultsError) as err:
        parse_nwchem_output(text, cancel=_CancelAfter(2))
    assert err.value.code == "results_cancelled"


# --- cross-checks against cclib (test-only dependency) -------------------------------

cclib = pytest.importorskip("cclib")


def _cclib(name: str):
    return cclib.io.ccread(str(FIXTURES / name))


def _hartree(ev: float) -> float:
    from cclib.parser.utils import convertor

    return float(convertor(ev, "eV", "hartree"))


@pytest.mark.parametrize(
    "name",
    [
        "water_scf_optfreq.out",
        "nh3_planar_scf_freq.out",
        "methane_b3lyp_molden.out",
        "scf_not_converged.out",
    ],
)
def test_energies_agree_with_cclib(name: str) -> None:
    ours = _parse(name)
    ref = [_hartree(e) for e in _cclib(name).scfenergies]
    totals = [e.energy for e in ours.energies if e.kind in ("scf", "dft")]
    for e in ref:
        assert min(abs(e - t) for t in totals) < 1e-8


def test_optimisation_steps_and_geometries_agree_with_cclib() -> None:
    data = _cclib("water_scf_optfreq.out")
    ours = _parse("water_scf_optfreq.out")
    steps = [e.energy for e in ours.energies if e.kind == "optimization"]
    assert np.allclose(steps, [_hartree(e) for e in data.scfenergies], atol=1e-8)
    coords = np.array([s.coordinates for s in ours.structures])
    assert coords.shape == data.atomcoords.shape
    assert np.allclose(coords, data.atomcoords, atol=1e-8)
    assert bool(data.optdone) == ours.summary.optimizationConverged


@pytest.mark.parametrize("name", ["water_scf_optfreq.out", "nh3_planar_scf_freq.out"])
def test_frequencies_ir_and_displacements_agree_with_cclib(name: str) -> None:
    data = _cclib(name)
    ours = _parse(name)
    # cclib takes frequencies from the IR table (3 decimals), we from P.Frequency (2).
    assert np.allclose([m.frequency for m in ours.modes], data.vibfreqs, atol=0.006)
    assert np.allclose([m.irIntensity for m in ours.modes], data.vibirs, atol=1e-9)
    disp = np.array([ours.displacements(i) for i in range(len(ours.modes))])
    assert np.allclose(disp, data.vibdisps, atol=1e-9)


def test_the_unconverged_scf_agrees_with_cclib_success_flag() -> None:
    assert _cclib("scf_not_converged.out").metadata["success"] is False
    assert _parse("scf_not_converged.out").summary.scfConverged is False


def test_outputs_cclib_cannot_read_are_still_read_by_us() -> None:
    # cclib 1.8.1 fails on Td methane (IndexError), on the aborted bad-basis run
    # (AttributeError) and on the MP2 optimisation stopped by maxiter (AssertionError).
    for path in (
        FIXTURES / "methane_b3lyp_td_autosym.out",
        FIXTURES / "bad_basis.out",
        DATA / "water_mp2_opt_maxiter.out",
    ):
        with pytest.raises((IndexError, AttributeError, AssertionError)):
            cclib.io.ccread(str(path))
        res = parse_nwchem_output(path.read_text(), source=str(path))
        assert res.structures


def test_warnings_nwchem_printed_are_listed_once_with_their_line() -> None:
    lines = _read("water_scf_optfreq.out").splitlines()
    lines.insert(300, " !! WARNING: linear dependence in the basis")
    lines.insert(400, " Warning: grid too coarse")
    lines.insert(500, " Warning: grid too coarse")
    res = parse_nwchem_output("\n".join(lines))
    msgs = [(w.message, w.line) for w in res.summary.warnings]
    assert msgs == [
        ("!! WARNING: linear dependence in the basis", 301),
        ("Warning: grid too coarse", 401),
    ]
    assert res.summary.warningCount == 2


def test_geometry_printed_in_bohr_is_converted_to_angstrom() -> None:
    res = parse_nwchem_output((DATA / "water_scf_units_au.out").read_text())
    assert res.structures[0].coordinates[1] == pytest.approx(
        [-1.4309 * 0.529177210903, 0.0, -0.88664 * 0.529177210903]
    )
    assert res.summary.scfConverged is True
