"""What a chemist reads in an NWChem output, checked against NWChem's own lines and cclib.

The outputs are real NWChem 7.0.2 runs (tests/data/nwchem/README.md says how each was
made). Tolerances: 1e-5 Eh for energies, 1e-3 for charges and oscillator strengths,
0.01 eV for excitation and orbital energies. Where cclib 1.8.1 is wrong or silent the
test says so and checks the printed line instead.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any

import pytest

from molforma.nwchem.parser import parse_nwchem_file, parse_nwchem_output
from molforma.results.reader import read_results
from molforma.results.results_model import HARTREE_TO_EV, Results
from tests.paths import NWCHEM_DATA

E_TOL = 1e-5
Q_TOL = 1e-3
EV_TOL = 0.01


@functools.cache
def _ours(name: str) -> Results:
    return read_results(NWCHEM_DATA / f"{name}.out")


@functools.cache
def _cclib(name: str) -> Any:
    import cclib

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cclib.io.ccread(str(NWCHEM_DATA / f"{name}.out"), loglevel=50)


def _ev_to_eh(value: float) -> float:
    from cclib.parser.utils import convertor

    return float(convertor(value, "eV", "hartree"))


def test_a_ccsd_t_run_reports_the_ccsd_t_energy_as_final_and_labels_it() -> None:
    res = _ours("water_ccsdt")
    s = res.summary
    # NWChem's line: " Total CCSD(T) energy:                 -76.120349855891646"
    assert s.finalEnergy == pytest.approx(-76.120349855891646, abs=1e-12)
    assert s.finalEnergyLevel == "ccsd(t)"
    assert s.finalEnergyLabel == "Total CCSD(T) energy"
    assert s.energiesByKind["ccsd"] == pytest.approx(-76.119353995815544, abs=1e-12)
    assert s.finalEnergy - s.energiesByKind["scf"] == pytest.approx(-0.136375, abs=1e-5)
    cc = _cclib("water_ccsdt")
    # cclib 1.8.1 reads CC energies only from the TCE module, so it has no ccenergies
    # here; its SCF and its MP2 (the CC initial guess) must agree with ours.
    assert not hasattr(cc, "ccenergies")
    assert s.energiesByKind["scf"] == pytest.approx(_ev_to_eh(cc.scfenergies[-1]), abs=E_TOL)
    assert s.energiesByKind["mp2"] == pytest.approx(_ev_to_eh(cc.mpenergies[-1][-1]), abs=E_TOL)


def test_a_tce_ccsd_energy_is_final_and_matches_cclib() -> None:
    s = _ours("water_tce_ccsd").summary
    cc = _cclib("water_tce_ccsd")
    assert s.finalEnergyLevel == "ccsd"
    assert s.finalEnergy == pytest.approx(_ev_to_eh(cc.ccenergies[-1]), abs=E_TOL)
    assert s.finalEnergy == pytest.approx(-75.012461681003884, abs=1e-12)


def test_tddft_roots_have_energy_wavelength_strength_symmetry_and_spin_as_cclib() -> None:
    res = _ours("water_b3lyp_tddft")
    cc = _cclib("water_b3lyp_tddft")
    ex = res.excitations
    assert len(ex) == 6 == len(cc.etenergies)
    assert [(e.spin, e.symmetry) for e in ex] == [tuple(s.split()) for s in cc.etsyms]
    for e, cm1, osc in zip(ex, cc.etenergies, cc.etoscs, strict=True):
        assert e.energyEv == pytest.approx(cm1 / 8065.543937, abs=EV_TOL)
        assert e.wavelengthNm == pytest.approx(1e7 / cm1, rel=1e-4)
        # cclib takes the "Total Oscillator Strength" (dipole + quadrupole + magnetic).
        assert (e.totalOscillatorStrength or 0.0) == pytest.approx(osc, abs=Q_TOL)
        assert (e.oscillatorStrength or 0.0) == pytest.approx(osc, abs=Q_TOL)
    first = ex[0]
    assert first.energyEv == pytest.approx(8.0231, abs=1e-4)  # NWChem's own "8.0231 eV"
    assert first.oscillatorStrength == pytest.approx(0.0143853823, abs=1e-10)
    assert [e.spinForbidden for e in ex] == [False] * 3 + [True] * 3
    assert res.summary.excitationCount == 6


def test_orbital_energies_occupations_and_homo_lumo_match_cclib_for_a_closed_shell() -> None:
    res = _ours("water_b3lyp_tddft")
    cc = _cclib("water_b3lyp_tddft")
    orbs = [o for o in res.orbitals if o.spin == "restricted"]
    assert len(orbs) == len(cc.moenergies[0])
    for o, ev in zip(orbs, cc.moenergies[0], strict=True):
        assert o.energyEv == pytest.approx(ev, abs=EV_TOL)
    assert [o.occupation for o in orbs[:6]] == [2.0] * 5 + [0.0]
    s = res.summary
    homo = cc.homos[0]
    assert s.homo * HARTREE_TO_EV == pytest.approx(cc.moenergies[0][homo], abs=EV_TOL)
    assert s.lumo * HARTREE_TO_EV == pytest.approx(cc.moenergies[0][homo + 1], abs=EV_TOL)
    assert s.gapEv == pytest.approx(cc.moenergies[0][homo + 1] - cc.moenergies[0][homo], abs=EV_TOL)


def test_an_unrestricted_radical_gives_orbitals_per_spin_s2_charge_and_multiplicity() -> None:
    res = _ours("oh_uhf")
    s = res.summary
    assert (s.charge, s.multiplicity, s.wavefunction) == (0.0, 2, "UHF")
    assert s.s2 == pytest.approx(0.7553, abs=1e-4)  # "S^2 = 0.7553"
    assert s.s2Expected == pytest.approx(0.75)
    assert s.spinContaminated is False  # 0.7 % off
    alpha = [o for o in res.orbitals if o.spin == "alpha"]
    beta = [o for o in res.orbitals if o.spin == "beta"]
    assert sum(o.occupation or 0 for o in alpha) == 5
    assert sum(o.occupation or 0 for o in beta) == 4
    cc = _cclib("oh_uhf")
    # cclib 1.8.1 does not set the multiplicity of this UHF output at all.
    assert not hasattr(cc, "mult")
    compared = 0
    for ours, theirs in ((alpha, cc.moenergies[0]), (beta, cc.moenergies[1])):
        assert len(ours) == len(theirs)
        for o, ev in zip(ours, theirs, strict=True):
            # cclib leaves NaN for vectors the orbital analysis did not print; ours
            # come from "Final alpha/beta eigenvalues", which lists them all.
            if ev == ev:
                assert o.energyEv == pytest.approx(ev, abs=EV_TOL)
                compared += 1
    assert compared >= 10
    for q, ref in zip(res.charges, cc.atomcharges["mulliken"], strict=True):
        assert q.mulliken == pytest.approx(ref, abs=Q_TOL)
    assert [round(q.mullikenSpin or 0, 2) for q in res.charges] == [1.05, -0.05]


def test_an_open_shell_dft_radical_reports_s2_against_the_exact_value() -> None:
    res = _ours("ch3_udft")
    s = res.summary
    assert (s.multiplicity, s.wavefunction) == (2, "UKS")
    assert s.s2 == pytest.approx(0.7537, abs=1e-4)
    assert s.spinContaminated is False
    cc = _cclib("ch3_udft")
    assert cc.mult == s.multiplicity
    assert [len(x) for x in cc.moenergies] == [
        sum(o.spin == "alpha" for o in res.orbitals),
        sum(o.spin == "beta" for o in res.orbitals),
    ]


def test_spin_contamination_over_ten_percent_is_a_warning() -> None:
    text = (NWCHEM_DATA / "oh_uhf.out").read_text()
    bad = text.replace("S^2 =      0.7553", "S^2 =      0.9000")
    s = parse_nwchem_output(bad).summary
    assert s.spinContaminated is True
    assert any("Spin contamination" in w.message for w in s.warnings)


def test_mulliken_charges_per_atom_match_cclib() -> None:
    for name in ("water_scf_optfreq", "water_ccsdt", "water_mp2_freq"):
        res = _ours(name)
        cc = _cclib(name)
        assert [q.atom for q in res.charges] == list(range(len(res.charges)))
        assert [q.element for q in res.charges] == ["O", "H", "H"]
        for q, ref in zip(res.charges, cc.atomcharges["mulliken"], strict=True):
            assert q.mulliken == pytest.approx(ref, abs=Q_TOL)


def test_thermochemistry_of_a_frequency_run_in_hartree_and_kcal_per_mol() -> None:
    t = _ours("water_scf_optfreq").summary.thermochemistry
    cc = _cclib("water_scf_optfreq")
    assert t is not None
    assert t.temperature == pytest.approx(cc.temperature)
    assert t.zeroPointEnergy == pytest.approx(cc.zpve, abs=E_TOL)
    assert t.thermalEnergyCorrection == pytest.approx(0.025799, abs=1e-9)
    # cclib's enthalpy is the last SCF energy plus the enthalpy correction.
    assert t.enthalpy == pytest.approx(cc.enthalpy, abs=E_TOL)
    assert t.entropy / 1000.0 / 627.5094740631 == pytest.approx(cc.entropy, rel=1e-6)
    assert t.gibbsFreeEnergy == pytest.approx(cc.enthalpy - cc.temperature * cc.entropy, abs=E_TOL)
    assert t.kcalPerMol["enthalpyCorrection"] == pytest.approx(16.781, abs=2e-3)


def test_an_mp2_frequency_run_reports_the_reference_geometry_energy() -> None:
    res = _ours("water_mp2_freq")
    s = res.summary
    # The first "Total MP2 energy" (line 522) is the undisplaced geometry's.
    assert s.finalEnergy == pytest.approx(-74.998568775084, abs=1e-12)
    assert s.finalEnergyLevel == "mp2"
    displaced = [e for e in res.energies if e.displaced]
    assert displaced and all(e.energy != s.finalEnergy for e in displaced if e.kind == "mp2")
    cc = _cclib("water_mp2_freq")
    assert s.finalEnergy == pytest.approx(_ev_to_eh(cc.mpenergies[0][-1]), abs=E_TOL)
    t = s.thermochemistry
    assert t is not None and t.electronicEnergy == pytest.approx(s.finalEnergy)
    # cclib adds the correction to the last SCF energy of a displaced geometry (and not
    # to MP2), so only the correction itself can be compared.
    assert t.enthalpyCorrection == pytest.approx(
        cc.enthalpy - _ev_to_eh(cc.scfenergies[-1]), abs=E_TOL
    )


def test_an_energy_printed_as_asterisks_is_flagged_not_replaced_by_the_scf_energy() -> None:
    text = (NWCHEM_DATA / "water_mp2_freq.out").read_text()
    cut = text.index("NWChem Finite-difference Hessian")
    head = text[:cut].replace("Total MP2 energy", "X")  # keep only one MP2 line
    tail = text[cut:]
    first = tail.index("Total MP2 energy")
    end = tail.index("\n", first)
    broken = head + tail[:first] + "Total MP2 energy           ******************" + tail[end:]
    s = parse_nwchem_output(broken[: broken.index("\n", broken.index("******"))]).summary
    assert s.finalEnergy is None
    assert "asterisks" in (s.finalEnergyLabel or "")
    assert s.failedValues and "MP2" in s.failedValues[0].message
    assert "mp2" not in s.energiesByKind and "scf" in s.energiesByKind


def test_dispersion_energy_of_a_dft_d3_run_matches_cclib() -> None:
    s = _ours("water_b3lyp_d3").summary
    cc = _cclib("water_b3lyp_d3")
    assert s.dispersionEnergy == pytest.approx(-0.000007883792, abs=1e-15)
    # cclib 1.8.1 reads -2.1e-4 eV, i.e. -7.88e-6 Eh: the same number.
    assert s.dispersionEnergy == pytest.approx(_ev_to_eh(cc.dispersionenergies[-1]), abs=E_TOL)


def test_dipole_and_quadrupole_come_with_their_frame() -> None:
    s = _ours("water_scf_optfreq").summary
    m = s.moments
    assert m is not None and m.dipole is not None
    assert m.source == "multipole analysis"
    assert m.referenceStructure == s.structureCount - 1
    # NWChem re-oriented this water (autosym); the moments follow the structures back.
    assert m.frame.startswith("the input's frame")
    assert m.dipole[2] == pytest.approx(-0.86511, abs=1e-6)
    assert m.quadrupole is not None and set(m.quadrupole) == {"xx", "yy", "zz", "xy", "xz", "yz"}


def test_a_static_polarizability_matches_cclib() -> None:
    s = _ours("water_b3lyp_polar").summary
    cc = _cclib("water_b3lyp_polar")
    assert len(s.polarizabilities) == 1
    p = s.polarizabilities[0]
    assert p.frequency == 0.0
    for row, ref in zip(p.tensor, cc.polarizabilities[0], strict=True):
        assert row == pytest.approx(list(ref), abs=1e-6)
    assert p.isotropic == pytest.approx((7.1938924 + 2.8404754 + 5.2699243) / 3)


def test_a_bomd_run_gives_every_frame_with_time_energy_and_temperature() -> None:
    res = _ours("water_scf_bomd")
    md = [e for e in res.energies if e.kind == "md"]
    cc = _cclib("water_scf_bomd")
    assert res.summary.mdSteps == 5 == len(md)
    assert [e.time for e in md] == pytest.approx(list(cc.time), abs=1e-6)
    assert md[0].temperature == pytest.approx(318.74)
    assert md[0].energy == pytest.approx(-74.961577)
    # Frames come from the qmd trajectory file beside the output: input + 5 steps.
    assert len(res.structures) == 6 == len(cc.atomcoords)
    assert [s.label for s in res.structures[1:]] == [f"md step {i}" for i in range(1, 6)]
    assert all(e.structureIndex == i + 1 for i, e in enumerate(md))
    assert res.structures[1].coordinates[0][2] == pytest.approx(0.11758391)
    assert res.summary.finalEnergyLevel == "md"


def test_the_stream_reader_and_the_text_reader_agree_across_window_borders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import molforma.nwchem.parser as parser

    path = NWCHEM_DATA / "water_scf_optfreq.out"
    whole = parse_nwchem_file(str(path))
    # Blocks (the normal modes, the orbital tables) are far longer than this look-ahead:
    # the reader must grow the window on demand and still read them whole.
    monkeypatch.setattr(parser, "WINDOW", 3000)
    monkeypatch.setattr(parser, "LOOKAHEAD", 100)
    small = parse_nwchem_file(str(path))
    assert small.model_dump() == whole.model_dump()
    assert small.summary.optimizationSteps == 4 and len(small.structures) == 6
    assert [small.displacements(m) for m in range(9)] == [whole.displacements(m) for m in range(9)]
    assert small._input_echo == whole._input_echo and "geometry" in small._input_echo


def _water_project(**advanced: Any) -> dict[str, Any]:
    from molforma.document.envelope import new_atom, new_project

    p = new_project()
    atoms = [("O", 0.0, 0.0, 0.1173), ("H", 0.0, 0.7572, -0.4692), ("H", 0.0, -0.7572, -0.4692)]
    p["document"]["atoms"] = [
        new_atom(f"a{i}", el, x, y, z) for i, (el, x, y, z) in enumerate(atoms, start=1)
    ]
    p["document"]["nextAtomId"] = 4
    p["calculation"].update(theory="scf", basis="6-31g*", task="energy")
    p["advanced"].update(advanced)
    return p


def test_the_properties_setting_asks_nwchem_for_dipole_quadrupole_and_mulliken() -> None:
    from molforma.nwchem.input import render_input

    text = render_input(_water_project(properties=True), prefix="water_scf_dipole")
    # The saved run's input is exactly what the generator writes.
    assert text == (NWCHEM_DATA / "water_scf_dipole.nw").read_text()
    assert "property\n  dipole\n  quadrupole\n  mulliken\nend\n" in text
    assert text.rstrip().endswith("task scf energy\ntask scf property")
    plain = render_input(_water_project(), prefix="water_scf_dipole")
    assert "property" not in plain
    mp2 = _water_project(properties=True)
    mp2["calculation"]["theory"] = "mp2"
    assert render_input(mp2).rstrip().endswith("task mp2 energy\ntask scf property")


def test_the_property_task_dipole_matches_cclib_and_names_its_frame() -> None:
    res = _ours("water_scf_dipole")
    m = res.summary.moments
    cc = _cclib("water_scf_dipole")
    assert m is not None and m.source == "property" and m.dipole is not None
    assert m.dipole == pytest.approx([0.0, 0.0, -0.8757850074], abs=1e-9)
    assert m.origin == [0.0, 0.0, 0.0]
    assert m.dipoleDebye == pytest.approx(2.2260, abs=1e-4)
    debye = [v * 2.541746473 for v in m.dipole]
    assert debye == pytest.approx(list(cc.moments[1]), abs=1e-4)
    assert m.quadrupole is not None
    assert m.quadrupole["xx"] + m.quadrupole["yy"] + m.quadrupole["zz"] == pytest.approx(
        0, abs=1e-6
    )
    assert m.referenceStructure == 0
    # NWChem turned the H atoms from the input's y axis onto x and printed XX 1.8371652934,
    # YY -1.6156387723; mapped back into the document's frame the two swap.
    assert m.frame.startswith("the input's frame")
    assert m.quadrupole["xx"] == pytest.approx(-1.6156387723, abs=1e-9)
    assert m.quadrupole["yy"] == pytest.approx(1.8371652934, abs=1e-9)
    h1 = res.structures[0].coordinates[1]
    assert h1 == pytest.approx([0.0, 0.7572, -0.4692], abs=1e-6)
    # The property task's Mulliken analysis (5 decimals) gives the charges.
    assert [round(q.mulliken or 0, 3) for q in res.charges] == pytest.approx(
        [round(q, 3) for q in cc.atomcharges["mulliken"]], abs=Q_TOL
    )


def test_the_pure_python_rigid_fit_matches_a_numpy_kabsch_fit() -> None:
    import numpy as np

    from molforma.results import rigid

    rng = np.random.default_rng(7)
    for case in range(60):
        pts = rng.normal(size=(int(rng.integers(2, 12)), 3))
        if case % 3 == 0:
            pts[:, 2] = 0.0  # planar
        if case % 7 == 0:
            pts[:, 1:] = 0.0  # linear
        q, _ = np.linalg.qr(rng.normal(size=(3, 3)))  # rotations and reflections
        target = pts @ q + rng.normal(size=3)
        r, cm, ct = rigid.fit(pts.tolist(), target.tolist())
        assert np.allclose(np.array(r) @ np.array(r).T, np.eye(3), atol=1e-9)
        u, _s, vt = np.linalg.svd((pts - pts.mean(0)).T @ (target - target.mean(0)))
        ref = (pts - pts.mean(0)) @ (u @ vt) + target.mean(0)
        assert np.allclose(rigid.apply(pts.tolist(), r, cm, ct), ref, atol=1e-8)


def test_reading_an_output_imports_no_numpy() -> None:
    import subprocess
    import sys

    code = (
        "import sys\nfrom molforma.results.reader import read_results\n"
        f"r = read_results({str(NWCHEM_DATA / 'water_scf_optfreq.out')!r})\n"
        "assert r.structures[0].coordinates[1][1] != 0.0  # mapped back to the input\n"
        "print('numpy' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "False"


def test_a_guard_that_refuses_the_bomd_trajectory_keeps_the_steps_without_frames() -> None:
    from pathlib import Path

    from molforma.errors import ResultsError

    def guard(path: Path) -> Path:
        if path.suffix == ".xyz":
            raise ResultsError("results_unreadable", path=str(path), reason="refused")
        return path

    res = read_results(NWCHEM_DATA / "water_scf_bomd.out", guard=guard)
    assert res.summary.mdSteps == 5
    # The .xyz was not read: the frames are the geometries the output prints.
    assert len(res.structures) == 6
    assert res.structures[1].coordinates[0][2] == pytest.approx(0.11758391, abs=1e-6)


def test_a_bomd_output_without_its_trajectory_file_gives_every_frame_from_its_own_text(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    import molforma.nwchem.parser as parser

    shutil.copy(NWCHEM_DATA / "water_scf_bomd.out", tmp_path / "water_scf_bomd.out")
    beside = read_results(NWCHEM_DATA / "water_scf_bomd.out")
    # Small windows: a gradient block split across a window border is still read whole.
    monkeypatch.setattr(parser, "WINDOW", 3000)
    monkeypatch.setattr(parser, "LOOKAHEAD", 100)
    alone = read_results(tmp_path / "water_scf_bomd.out")
    assert len(alone.structures) == len(beside.structures) == 6
    md = [e for e in alone.energies if e.kind == "md"]
    assert [e.structureIndex for e in md] == [1, 2, 3, 4, 5]
    assert [s.label for s in alone.structures[1:]] == [f"md step {i}" for i in range(1, 6)]
    for ours, traj in zip(alone.structures, beside.structures, strict=True):
        assert ours.symbols == traj.symbols
        # The output prints bohr with 6 decimals: within 1e-6 Angstrom of the file.
        for a, b in zip(ours.coordinates, traj.coordinates, strict=True):
            assert a == pytest.approx(b, abs=1e-6)


@pytest.mark.parametrize(
    ("name", "worst"),
    [("nh3_planar_scf_freq", 405), ("water_mp2_freq", 1127), ("water_scf_optfreq", None)],
)
def test_frequencies_at_a_geometry_that_is_not_stationary_are_flagged(
    name: str, worst: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The unprojected translations and rotations are zero only where the gradient is:
    # planar NH3 with unoptimised bonds and MP2 water at an SCF-like geometry reach
    # hundreds of cm-1; the optimised water stays within 2.3 cm-1.
    import molforma.nwchem.parser as parser

    def flagged(res: Any) -> list[str]:
        return [w.message for w in res.summary.warnings if "Not a stationary point" in w.message]

    whole = flagged(read_results(NWCHEM_DATA / f"{name}.out"))
    monkeypatch.setattr(parser, "WINDOW", 3000)
    monkeypatch.setattr(parser, "LOOKAHEAD", 100)
    assert flagged(read_results(NWCHEM_DATA / f"{name}.out")) == whole
    if worst is None:
        assert whole == []
    else:
        assert len(whole) == 1 and f"reach {worst} cm-1" in whole[0]
